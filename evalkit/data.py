"""The real corpora shipped in the repository's ``data/`` folder (see ``data/README.md`` for attribution).

Nothing is downloaded: the files are part of the repository, so the lessons work offline.

    >>> ref = wmt17_reference()
    >>> len(ref)
    3004
"""

from __future__ import annotations

import gzip
import json
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
# Until data/human/mqm-ted/ is in the repository, the file is also looked for in the project's shared data
# folder (the lead removes this fallback when the folder is copied into data/).
_MQM_TED_ZHEN = Path("human") / "mqm-ted" / "mqm_ted_zhen.tsv.gz"
_SHARED_DATA_FALLBACK = Path("/work/shared/data")


def ted_chinese_sources() -> list[str]:
    """The 529 Chinese source segments of the WMT21 TED talks MQM annotations (Chinese-English), one per
    (talk, segment), in talk and segment order, with the annotators' ``<v>`` marks removed.  The annotations
    were made for the WMT21 metrics shared task: Freitag, Rei, Mathur, Lo, Stewart, Foster, Lavie and Bojar
    (2021), "Results of the WMT21 Metrics Shared Task: Evaluating Metrics with Expert-based Human Evaluations
    on TED and News Domain", WMT 2021 (released in google/wmt-mqm-human-evaluation, ``ted/zhen``).  The file
    is ``data/human/mqm-ted/mqm_ted_zhen.tsv.gz``; ``data/README.md`` gives its source and licence.

    >>> sources = ted_chinese_sources()
    >>> len(sources), sources[1]
    (529, '作为一名艺术家， 联系对我来说是非常重要的。')
    """
    import csv

    path = Path(os.environ.get("EVALKIT_DATA", Path(__file__).resolve().parent.parent / "data")) / _MQM_TED_ZHEN
    if not path.is_file():
        path = _SHARED_DATA_FALLBACK / _MQM_TED_ZHEN
    with gzip.open(path, "rt", encoding="utf-8", newline="") as f:
        rows = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)  # the texts hold quote characters
        by_segment = {(int(r["doc_id"]), int(r["seg_id"])): re.sub("</?v>", "", r["source"]) for r in rows}
    return [by_segment[key] for key in sorted(by_segment)]
