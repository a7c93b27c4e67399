"""The real corpora shipped in the repository's ``data/`` folder (see ``data/README.md`` for attribution).

Nothing is downloaded: the files are part of the repository, so the lessons work offline.

    >>> ref = wmt17_reference()
    >>> len(ref)
    3004
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from ._checks import check_choice


def data_dir() -> Path:
    """The ``data/`` folder: ``$EVALKIT_DATA`` if set, else the one beside the ``evalkit`` package."""
    env = os.environ.get("EVALKIT_DATA")
    path = Path(env) if env else Path(__file__).resolve().parent.parent / "data"
    if not path.is_dir():
        raise FileNotFoundError(f"evalkit's data folder is missing: {path} (set EVALKIT_DATA to its location)")
    return path


def read_lines(path: str | os.PathLike) -> list[str]:
    """The lines of a UTF-8 text file (gzip-compressed if it ends in .gz), without their newlines.

    Only "\\n" ends a line: other Unicode line separators inside a segment stay where they are.
    """
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8", newline="\n") as f:
        return [line[:-1] if line.endswith("\n") else line for line in f]


# --- WMT17 English-German, newstest2017 ------------------------------------------------------------------
def wmt17_reference() -> list[str]:
    """The German reference translation of newstest2017 (3,004 segments, detokenized)."""
    return read_lines(data_dir() / "wmt17-en-de" / "reference.de.gz")


def wmt17_systems() -> dict[str, list[str]]:
    """The 16 systems' outputs, by system name (the file name without submission id), sorted by name."""
    folder = data_dir() / "wmt17-en-de" / "systems"
    systems = {}
    for path in sorted(folder.glob("*.de.gz"), key=lambda p: p.name.lower()):
        name = path.name[: -len(".de.gz")].rsplit(".", 1)[0]
        systems[name] = read_lines(path)
    return systems


# The DA table names FBK's submission by its full name; the system file (from sacreBLEU's test data) says FBK.
_DA_NAME_TO_FILE_NAME = {"fbk-nmt-combination.4870": "FBK.4870"}


def wmt17_human_scores() -> dict[str, float]:
    """The official WMT17 human scores of the 16 en-de systems: direct assessment (DA), standardized z-scores
    averaged per system (Bojar et al., 2017).  Keyed by the names :func:`wmt17_systems` uses, in its order.

    >>> human = wmt17_human_scores()
    >>> len(human), human["FBK"], max(human, key=human.get)
    (16, -0.301, 'LMU-nmt-reranked')
    """
    lines = read_lines(data_dir() / "human" / "wmt17-en-de-da-system.tsv")
    header, rows = lines[0].split("\t"), [line.split("\t") for line in lines[1:] if line]
    if header != ["language_pair", "human_z", "system"]:
        raise ValueError(f"unexpected columns in the WMT17 DA table: {header}")
    by_file_name = {_DA_NAME_TO_FILE_NAME.get(system, system): float(z) for _, z, system in rows}
    folder = data_dir() / "wmt17-en-de" / "systems"
    file_names = sorted((p.name[: -len(".de.gz")] for p in folder.glob("*.de.gz")), key=str.lower)
    if sorted(by_file_name, key=str.lower) != file_names:
        raise ValueError(f"the DA table's systems {sorted(by_file_name)} do not match the system files {file_names}")
    return {name.rsplit(".", 1)[0]: by_file_name[name] for name in file_names}


# --- REALSumm (Bhandari et al., 2020) -------------------------------------------------------------------
@dataclass(frozen=True)
class SummarySystem:
    """One summarizer in REALSumm: its summary of each document (in ``RealSumm.doc_ids`` order), the human
    LitePyramid recall of each summary, and the ROUGE-1.5.5 scores the paper published for it
    (``published["rouge_2_recall"][i]`` for document i; keys ``rouge_{1,2,l}_{precision,recall,f_score}``)."""

    name: str
    kind: str  # "abs" (abstractive) or "ext" (extractive)
    summaries: tuple[str, ...]
    litepyramid: tuple[float, ...]
    published: Mapping[str, tuple[float, ...]]


@dataclass(frozen=True)
class RealSumm:
    """REALSumm: ``references[i]`` is the reference summary of CNN/DailyMail document ``doc_ids[i]``;
    ``abstractive`` and ``extractive`` map a system name to its :class:`SummarySystem`.  Texts keep the
    corpus's sentence marks ``<t> ... </t>`` (see :func:`marked_sentences`)."""

    doc_ids: tuple[int, ...]
    references: tuple[str, ...]
    abstractive: Mapping[str, SummarySystem]
    extractive: Mapping[str, SummarySystem]


def _summary_systems(documents: list[dict], kind: str) -> Mapping[str, SummarySystem]:
    names = list(documents[0]["systems"])
    systems = {}
    for name in names:
        entries = [doc["systems"][name] for doc in documents]
        keys = list(entries[0]["published"])
        systems[name.removesuffix(".txt")] = SummarySystem(
            name=name.removesuffix(".txt"),
            kind=kind,
            summaries=tuple(e["summary"] for e in entries),
            litepyramid=tuple(float(e["litepyramid_recall"]) for e in entries),
            published=MappingProxyType({k: tuple(float(e["published"][k]) for e in entries) for k in keys}),
        )
    return MappingProxyType(dict(sorted(systems.items())))


def realsumm() -> RealSumm:
    """REALSumm (Bhandari et al., 2020, CC BY 4.0): 100 CNN/DailyMail documents, 14 abstractive and 11
    extractive systems, each summary with its human LitePyramid score.  Loaded afresh on each call.

    >>> data = realsumm()
    >>> len(data.doc_ids), len(data.abstractive), len(data.extractive)
    (100, 14, 11)
    >>> data.abstractive["bart_out"].litepyramid[0]
    0.6
    """
    with gzip.open(data_dir() / "human" / "realsumm-cnndm.json.gz", "rt", encoding="utf-8") as f:
        raw = json.load(f)
    abs_docs, ext_docs = raw["abs"], raw["ext"]
    if [d["doc_id"] for d in abs_docs] != [d["doc_id"] for d in ext_docs] or any(
        a["reference"] != e["reference"] for a, e in zip(abs_docs, ext_docs)
    ):
        raise ValueError("REALSumm: the abstractive and extractive halves do not cover the same documents")
    for docs in (abs_docs, ext_docs):
        if any(set(d["systems"]) != set(docs[0]["systems"]) for d in docs):
            raise ValueError("REALSumm: a system is missing a summary for some document")
    return RealSumm(
        doc_ids=tuple(int(d["doc_id"]) for d in abs_docs),
        references=tuple(d["reference"] for d in abs_docs),
        abstractive=_summary_systems(abs_docs, "abs"),
        extractive=_summary_systems(ext_docs, "ext"),
    )


_SENTENCE_MARK = re.compile(r"</?t>")


def marked_sentences(text: str) -> list[str]:
    """The sentences of a REALSumm text, split at every ``<t>`` and ``</t>`` and stripped of spaces.
    The marks are sentence boundaries for ROUGE-1.5.5, not words: left in, a tokenizer would read "t".
    A few summaries were cut off after a ``<t>`` with no ``</t>``; their last, unfinished sentence is kept.

    >>> marked_sentences("<t> a cat sat . </t>  <t> it purred . </t> <t> and then")
    ['a cat sat .', 'it purred .', 'and then']
    """
    if not isinstance(text, str):
        raise TypeError(f"text is a {type(text).__name__}; expected a string with <t> ... </t> marks")
    sentences = (s.strip() for s in _SENTENCE_MARK.split(text))
    return [s for s in sentences if s]


# --- MQM: expert error annotations of the WMT21 TED talks (Freitag et al., 2021) --------------------------
MQM_PAIRS = {"en-de": "ende", "zh-en": "zhen"}
# The annotation files call the human references "ref" and "refB"; the avg files call them "ref-A" and
# "ref-B" (the repository README's TED tables: "ref.A", "ref.B").  The loaders use the avg files' names.
_MQM_SYSTEM_NAMES = {"ref": "ref-A", "refB": "ref-B"}
_MQM_COLUMNS = ["system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category", "severity"]
_SPAN_MARK = re.compile(r"</?v>")


@dataclass(frozen=True)
class MQMError:
    """One row of an MQM annotation file: one error a rater marked in one system's translation of one
    segment (or ``category == severity == "No-error"`` for a translation with none).  ``target`` keeps the
    error's span marked ``<v>…</v>`` (``source`` too, for a ``Source error``); :func:`strip_span_marks`
    removes the marks."""

    system: str
    doc: str
    doc_id: int
    seg_id: int
    rater: str
    source: str
    target: str
    category: str
    severity: str
    comment: str = ""


@dataclass(frozen=True)
class MQMData:
    """The MQM annotations of one language pair of the WMT21 TED talks test suite.

    ``errors``: every row of the file, in file order.  ``seg_ids``: the rated segments, in order.
    ``sources[i]`` is the source text of segment ``seg_ids[i]``, ``texts[system][i]`` that system's
    translation of it (span marks removed).  The human references are systems too: ``ref-A`` (en-de and
    zh-en) and ``ref-B`` (zh-en only), so any system can be scored against a reference.
    """

    pair: str
    errors: tuple[MQMError, ...]
    seg_ids: tuple[int, ...]
    sources: tuple[str, ...]
    texts: Mapping[str, tuple[str, ...]]

    @property
    def systems(self) -> list[str]:
        return list(self.texts)


def strip_span_marks(text: str) -> str:
    """The translation without the ``<v>`` and ``</v>`` marks around an error's span.

    >>> strip_span_marks("Ich möchte <v>euch</v> alle bitten")
    'Ich möchte euch alle bitten'
    """
    if not isinstance(text, str):
        raise TypeError(f"text is a {type(text).__name__}; expected a string with <v> ... </v> marks")
    return _SPAN_MARK.sub("", text)


def _mqm_file(pair: str, kind: str) -> Path:
    check_choice("pair", pair, tuple(MQM_PAIRS))
    return data_dir() / "human" / "mqm-ted" / f"mqm_ted_{MQM_PAIRS[pair]}{kind}.tsv.gz"


def _mqm_text(path: Path) -> str:
    """The text of an MQM file (gzip, UTF-8); a corrupt file or bytes that are not UTF-8 are a ValueError
    naming the file (and the line)."""
    import zlib

    try:
        with gzip.open(path, "rb") as f:
            raw = f.read()
    except (OSError, EOFError, zlib.error) as error:  # gzip.BadGzipFile is an OSError
        if isinstance(error, FileNotFoundError):
            raise
        raise ValueError(f"{path}: not a readable gzip file ({error})") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        raise ValueError(f"{path}, line {line}: byte {column} (0x{raw[error.start]:02x}) is not UTF-8 ({error.reason})") from None


def _mqm_int(path: Path, line: int, name: str, value: str) -> int:
    """A whole-number field of an MQM file, or a ValueError naming the file, the line and the field."""
    if not re.fullmatch(r"[+-]?[0-9]+", value.strip()):
        raise ValueError(f"{path}, line {line}: {name} is {value!r}; expected a whole number")
    return int(value)


def mqm_ted(pair: str = "en-de") -> MQMData:
    """The expert MQM annotations of the WMT21 TED talks (``"en-de"`` or ``"zh-en"``), Apache 2.0.

    The file is read with ``csv.QUOTE_NONE``: its texts hold quote characters that are text, not quoting.
    Every (system, segment) must have one text, the same in every row once the span marks are removed, and
    every system the same segments (checked: a ValueError says which does not).  A malformed file (empty,
    corrupt, not UTF-8, a row with the wrong number of fields or a ``doc_id``/``seg_id`` that is not a whole
    number) is a ValueError naming the file and the line.

    >>> mqm = mqm_ted("en-de")
    >>> len(mqm.errors), len(mqm.seg_ids), mqm.systems[:2], len(mqm.systems)
    (8435, 529, ['eTranslation', 'Facebook-AI'], 14)
    """
    path = _mqm_file(pair, "")
    reader = csv.reader(io.StringIO(_mqm_text(path), newline=""), delimiter="\t", quoting=csv.QUOTE_NONE)
    header = next(reader, None)
    if header is None:
        raise ValueError(f"{path}: the file is empty; expected a header line and one row per marked error")
    if header[: len(_MQM_COLUMNS)] != _MQM_COLUMNS:
        raise ValueError(f"{path}, line 1: unexpected columns {header}; expected {_MQM_COLUMNS} first")
    errors, sources, texts = [], {}, {}
    for row in reader:
        number = reader.line_num  # QUOTE_NONE: one record per line
        if len(row) != len(header):
            raise ValueError(f"{path}, line {number}: {len(row)} fields, expected {len(header)}")
        fields = dict(zip(header, row))
        error = MQMError(
            system=_MQM_SYSTEM_NAMES.get(fields["system"], fields["system"]), doc=fields["doc"],
            doc_id=_mqm_int(path, number, "doc_id", fields["doc_id"]),
            seg_id=_mqm_int(path, number, "seg_id", fields["seg_id"]), rater=fields["rater"],
            source=fields["source"], target=fields["target"], category=fields["category"],
            severity=fields["severity"], comment=fields.get("comment", ""),
        )
        errors.append(error)
        plain = strip_span_marks(error.target)
        if texts.setdefault((error.system, error.seg_id), plain) != plain:
            raise ValueError(f"{path}, line {number}: {error.system} has two different texts for segment "
                             f"{error.seg_id}")
        source = strip_span_marks(error.source)  # a "Source error" marks its span in the source
        if sources.setdefault(error.seg_id, source) != source:
            raise ValueError(f"{path}, line {number}: segment {error.seg_id} has two different sources")
    if not errors:
        raise ValueError(f"{path}: a header line and no rows; expected one row per marked error")
    seg_ids = tuple(sorted(sources))
    systems = list(dict.fromkeys(e.system for e in errors))
    by_system = {}
    for system in sorted(systems, key=str.lower):
        missing = [i for i in seg_ids if (system, i) not in texts]
        if missing:
            raise ValueError(f"{path}: {system} has no text for segments {missing[:5]}")
        by_system[system] = tuple(texts[system, i] for i in seg_ids)
    return MQMData(pair, tuple(errors), seg_ids, tuple(sources[i] for i in seg_ids), MappingProxyType(by_system))


def mqm_ted_avg_seg_scores(pair: str = "en-de") -> dict[str, dict[int, float | None]]:
    """The per-segment scores shipped beside the annotations (``*.avg_seg_scores.tsv.gz``): by system, by
    segment id, the MQM score averaged over raters **with the file's sign**, −MQM (higher is better), or
    ``None`` where the segment was not rated.  Systems keep the file's names (``ref-A``, ``ref-B``).
    A malformed file (empty, corrupt, not UTF-8, a line without three fields, a score that is not a finite
    number or ``None``, a ``seg_id`` that is not a whole number, a (system, segment) given twice) is a
    ValueError naming the file and the line.

    >>> avg = mqm_ted_avg_seg_scores("en-de")
    >>> len(avg), len(avg["Nemo"]), sum(v is not None for v in avg["Nemo"].values())
    (14, 606, 529)
    """
    path = _mqm_file(pair, ".avg_seg_scores")
    lines = _mqm_text(path).split("\n")
    if not lines[0].strip():
        raise ValueError(f"{path}, line 1: no header; expected the columns system, mqm_avg_score, seg_id")
    if lines[0].split() != ["system", "mqm_avg_score", "seg_id"]:
        raise ValueError(f"{path}, line 1: unexpected columns {lines[0]!r}; expected system, mqm_avg_score, seg_id")
    scores: dict[str, dict[int, float | None]] = {}
    seen: dict[tuple[str, int], int] = {}
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = line.split()  # the file separates its columns by a tab and a space
        if len(fields) != 3:
            raise ValueError(f"{path}, line {number}: {len(fields)} fields, expected 3 (system, mqm_avg_score, seg_id)")
        system, value, seg_id = fields
        key = (system, _mqm_int(path, number, "seg_id", seg_id))
        if key in seen:
            raise ValueError(f"{path}, line {number}: {system} segment {key[1]} again (first on line {seen[key]})")
        seen[key] = number
        if value == "None":
            score = None
        else:
            try:
                score = float(value)
            except ValueError:
                score = None
                problem = "not a number"
            else:
                problem = None if math.isfinite(score) else "not finite"
            if problem:
                raise ValueError(f"{path}, line {number}: the score {value!r} is {problem}; expected a finite number "
                                 "or None (not rated)")
        scores.setdefault(system, {})[key[1]] = score
    if not scores:
        raise ValueError(f"{path}: a header line and no rows; expected one line per (system, segment)")
    return scores


# --- JFLEG ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class JFLEG:
    """One JFLEG split: ``sources[i]`` is an uncorrected sentence and ``references[i]`` its four
    corrections (segment-major); ``reference_sets[k]`` is the k-th correction of every sentence."""

    split: str
    sources: list[str]
    references: list[list[str]]
    reference_sets: list[list[str]]


def jfleg(split: str = "test") -> JFLEG:
    """The JFLEG ``"dev"`` (754 sentences) or ``"test"`` (747) split, tokenized text split on spaces."""
    check_choice("split", split, ("dev", "test"))
    folder = data_dir() / "jfleg"
    sources = read_lines(folder / f"{split}.src")
    sets = [read_lines(folder / f"{split}.ref{k}") for k in range(4)]
    if any(len(s) != len(sources) for s in sets):
        raise ValueError(f"JFLEG {split}: the reference files do not have one line per source sentence")
    return JFLEG(split, sources, [list(refs) for refs in zip(*sets)], sets)


# --- the Chinese sources of the WMT21 TED talks MQM data (zh-en) -----------------------------------------


def ted_chinese_sources() -> list[str]:
    """The 529 Chinese source segments of the WMT21 TED talks MQM annotations (Chinese-English), one per
    segment, in the order of the test set: talk after talk (talk.2, 5, 6, 7 and 9, with 140, 31, 129, 70 and
    159 rated segments), each talk's segments in their order, with the annotators' ``<v>`` marks removed.
    The file's ``seg_id`` numbers the segments through the whole test set and gives that order; its
    ``doc_id`` is only a segment's position within its talk, so sorting by it would interleave the talks.
    The annotations were made for the WMT21 metrics shared task: Freitag, Rei, Mathur, Lo, Stewart, Foster,
    Lavie and Bojar (2021), "Results of the WMT21 Metrics Shared Task: Evaluating Metrics with Expert-based
    Human Evaluations on TED and News Domain", WMT 2021 (released in google/wmt-mqm-human-evaluation,
    ``ted/zhen``).  The file is ``data/human/mqm-ted/mqm_ted_zhen.tsv.gz``; ``data/README.md`` gives its
    source and licence.

    >>> sources = ted_chinese_sources()
    >>> len(sources), sources[1]
    (529, '我们站在地球上仰望夜空用肉眼就能看到天上的繁星。')
    """
    with gzip.open(_mqm_file("zh-en", ""), "rt", encoding="utf-8", newline="") as f:
        rows = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)  # the texts hold quote characters
        by_segment = {int(r["seg_id"]): re.sub("</?v>", "", r["source"]) for r in rows}
    return [by_segment[seg_id] for seg_id in sorted(by_segment)]
