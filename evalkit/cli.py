"""``python -m evalkit`` (or ``evalkit``): score your own outputs from files, as sacreBLEU's command line does.

    python -m evalkit REF [REF ...] -i HYP [HYP ...] -m bleu chrf ter     # one reference file per set
    cat HYP | python -m evalkit REF -m bleu -f text                        # hypotheses on stdin
    paste A B | python -m evalkit REF                                      # tab-separated systems, as sacreBLEU
    python -m evalkit REF -i BASE NEW1 NEW2 -m bleu chrf --paired-bs       # a comparison, BASE the baseline
    python -m evalkit REF -i HYP -m bleu chrf ter --explain 1              # the lessons' steps for segment 1

The flags are sacreBLEU's where the idea is the same (``-nr``, ``-tok``, ``-lc``, ``-s``/``-sv``, ``-w``, ``-b``,
``-f``, ``-sl``, ``-ci``, ``--paired-bs``/``--paired-ar`` with ``-pbsn``/``-parn``, ``--chrf-*``,
``--ter-*``, ``-sh``, ``-e utf-8``; ``-q``, ``--force``, ``-nc`` and ``-j`` change nothing here), and so are the
numbers, to the last printed digit at any ``-w`` (BLEU is computed for printing in sacreBLEU's order of
operations, TER's float lengths summed in its order): the tests run sacreBLEU's own command line on WMT17
files and compare.  One difference: the paired tests count a resampled difference that ties with the real
one as "at least as large" (``p_value_rule="at-least"`` of :mod:`evalkit.significance`), so a system
identical to the baseline gets p = 1, not sacreBLEU's 1 / (n + 1); without ties the p-values are sacreBLEU's.
What sacreBLEU does not do: ``--explain`` prints the step-by-step tables of the lessons (``evalkit.tables``),
``--plot FILE`` draws the lesson's figure (``evalkit.plots``), and ROUGE, GEC GLEU and Google's GLEU are
metrics here too.  Nothing is downloaded: sacreBLEU's test-set flags (``-t``, ``-l``, ``--echo``, ``-d``,
``--citation``, ...) are refused with a message naming the flag (:data:`REFUSED`).

Bad input (a missing, unreadable or corrupt file, files of different lengths, an empty file, bytes that are not
UTF-8, an unknown metric or tokenizer, a closed stdin, MeCab without its dictionary) stops with a one-line
message and exit status 2 before anything is written; so does an output that cannot be written (a full disk).
The library's warnings are printed on stderr.  More than ``FILES_AT_ONCE`` system files are read in groups
(each with the references), so that hundreds of systems stay under the open-file limit.
Corpus scores of BLEU, chrF, TER and Google's GLEU stream: the files are read in chunks of ``CHUNK``
segments and the metric's additive statistics summed: memory is bounded by the chunk and evalkit's caches
(which have byte budgets), not by the length of the files.
Sentence-level scores, ``-ci``, the paired tests, ROUGE and GEC GLEU keep the segments in memory.

The steps of :func:`main`: read the arguments (:func:`build_parser`), check them (:func:`check_arguments`),
read the files (:func:`read_segments`), score (:func:`corpus_scores`, :func:`sentence_scores`,
:func:`paired_scores`), then print (:func:`print_scores`, :func:`print_table`) and draw.
"""

from __future__ import annotations

import argparse
import codecs
import gzip
import io
import json
import math
import os
import sys
import warnings
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, zip_longest

from . import __version__

METRICS = ("bleu", "chrf", "ter", "rouge", "gleu", "google-bleu")
PAIRED_METRICS = ("bleu", "chrf", "ter")  # the paired tests and -ci: the metrics sacreBLEU tests
STREAMED = ("bleu", "chrf", "ter", "google-bleu")  # corpus scores from summed statistics, chunk by chunk
CHUNK = 10_000  # segments read and counted at once when streaming
SMOOTHING = ("none", "floor", "add-k", "exp")  # sacreBLEU's BLEU smoothing methods
SMOOTH_DEFAULTS = {"floor": 0.1, "add-k": 1.0}
_DOWNLOADS = "fetches or lists a test set; evalkit downloads nothing: give the reference files as arguments and " \
             "the hypotheses with -i"
REFUSED = {  # sacreBLEU's flags that make no sense offline: {dest: (flags, why)}
    "test_set": ("-t/--test-set", _DOWNLOADS), "langpair": ("-l/--language-pair", _DOWNLOADS),
    "echo": ("--echo", _DOWNLOADS), "download": ("--download", _DOWNLOADS), "list": ("--list", _DOWNLOADS),
    "origlang": ("-ol/--origlang", "selects the segments of a downloaded test set by original language; evalkit "
                 "downloads nothing"),
    "subset": ("--subset", "selects the segments of a downloaded test set by document; evalkit downloads nothing"),
    "detail": ("-d/--detail", "splits the scores of a downloaded test set by original language; evalkit downloads "
               "nothing"),
    "citation": ("--citation/--cite", "prints a downloaded test set's BibTeX; evalkit downloads nothing"),
}
FILES_AT_ONCE = 32  # system files open at the same time: more are read in groups (macOS allows 256 open files)
MAX_WIDTH = 1074  # a double's exact decimal expansion has at most 1074 digits after the point: more are zeros


class InputError(Exception):
    """Bad input: printed as ``python -m evalkit: error: ...``, exit status 2."""


# --------------------------------------------------------------------------------------------------------
# 1. The arguments
# --------------------------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    from .tokenize import TOKENIZERS  # read from the registry, so a new tokenizer is offered at once

    p = argparse.ArgumentParser(
        prog="python -m evalkit",
        description="Score system outputs against references with sacreBLEU's flags and numbers; "
                    "--explain shows the steps, --plot draws them.",
        epilog="Exit status: 0 on success, 2 on bad input (nothing is written then).",
    )
    p.add_argument("refs", nargs="*", help="reference files, one per reference set (one segment per line)")
    p.add_argument("-i", "--input", nargs="+", metavar="HYP",
                   help="hypothesis files (default: stdin); several make a comparison, the first the baseline")
    p.add_argument("-nr", "--num-refs", type=int, default=1,
                   help="references per line of each reference file, separated by tabs (default: 1)")
    p.add_argument("-m", "--metrics", nargs="+", default=["bleu"], metavar="METRIC",
                   help=f"metrics to compute, from {', '.join(METRICS)} (default: bleu)")
    p.add_argument("-sl", "--sentence-level", action="store_true", help="a score per segment")
    p.add_argument("-tok", "--tokenize", default="13a", metavar="TOK",
                   help=f"BLEU's tokenizer, one of {', '.join(TOKENIZERS)} (default: 13a)")
    p.add_argument("-lc", "--lowercase", action="store_true", help="BLEU: case-insensitive")
    p.add_argument("-s", "--smooth-method", choices=SMOOTHING, default="exp", help="BLEU smoothing (default: exp)")
    p.add_argument("-sv", "--smooth-value", type=float, help="floor: 0.1, add-k: 1 unless given")
    p.add_argument("-cc", "--chrf-char-order", type=int, default=6)
    p.add_argument("-cw", "--chrf-word-order", type=int, default=0, help="2 for chrF++")
    p.add_argument("--chrf-beta", type=float, default=2)
    p.add_argument("--chrf-whitespace", action="store_true")
    p.add_argument("--chrf-lowercase", action="store_true")
    p.add_argument("--chrf-eps-smoothing", action="store_true")
    p.add_argument("--ter-case-sensitive", action="store_true", help="TER lowercases unless given")
    p.add_argument("--ter-asian-support", action="store_true")
    p.add_argument("--ter-no-punct", action="store_true")
    p.add_argument("--ter-normalized", action="store_true")
    p.add_argument("--rouge-variants", nargs="+", default=["rouge1", "rouge2", "rougeL"], metavar="VARIANT",
                   help="rouge1, rouge2, ..., rougeL, rougeLsum, rougeW, rougeS, rougeSU")
    p.add_argument("--rouge-stemmer", action="store_true", help="ROUGE: Porter-stem the words")
    p.add_argument("--source", metavar="SRC", help="GEC GLEU: the uncorrected sentences (needed by -m gleu)")
    p.add_argument("-ci", "--confidence", action="store_true", help="a bootstrap 95%% interval (one system)")
    p.add_argument("-cin", "--confidence-n", type=int, default=1000, help="bootstrap resamples for -ci")
    paired = p.add_mutually_exclusive_group()
    paired.add_argument("-pbs", "--paired-bs", action="store_true", help="paired bootstrap against the baseline")
    paired.add_argument("-par", "--paired-ar", action="store_true", help="paired approximate randomization")
    p.add_argument("-pbsn", "--paired-bs-n", type=int, default=1000)
    p.add_argument("-parn", "--paired-ar-n", type=int, default=10000)
    p.add_argument("--paired-bs-null", choices=("shifted", "sacrebleu"), default="shifted",
                   help="the bootstrap p-value: the two-sided shifted test (default) or sacreBLEU's own "
                        "(about half of it for a clear difference; see evalkit.significance)")
    p.add_argument("-b", "--score-only", action="store_true", help="print the score only")
    p.add_argument("-w", "--width", type=int, default=1, help="decimals (default: 1)")
    p.add_argument("-f", "--format", choices=("json", "text", "latex"),
                   help="output format (default: json; text for -sl and the paired tests, as sacreBLEU)")
    p.add_argument("--explain", nargs="?", const="corpus", metavar="SEGMENT",
                   help="print the steps: of segment SEGMENT (1-based) or, without a number, of the corpus")
    p.add_argument("--plot", metavar="FILE", help="draw the lesson's figure into FILE (.png, .svg, .pdf)")
    # sacreBLEU's flags that make sense offline, with its meaning
    p.add_argument("-e", "--encoding", default="utf-8", help="the files' encoding: utf-8 only (sacreBLEU's flag)")
    p.add_argument("-sh", "--short", action="store_true", help="a shorter signature, as sacreBLEU's -sh")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="sacreBLEU's flag: no progress messages (evalkit prints none; warnings still show)")
    p.add_argument("--force", action="store_true",
                   help="sacreBLEU's flag: no warning about tokenized input (evalkit gives none)")
    p.add_argument("-nc", "--no-color", action="store_true", help="sacreBLEU's flag: evalkit prints no colours")
    p.add_argument("-j", "--paired-jobs", type=int, default=1,
                   help="sacreBLEU's worker processes for the paired tests: evalkit runs in one, the numbers are "
                        "the same")
    p.add_argument("-V", "--version", action="version", version=f"evalkit {__version__}")
    for dest, (flag, _) in REFUSED.items():  # accepted only to be refused with a clear message
        p.add_argument(*flag.split("/"), dest=dest, nargs="*", help=argparse.SUPPRESS)
    return p


def check_arguments(args: argparse.Namespace) -> None:
    """Everything that can be said about the arguments before a file is read."""
    from .tokenize import TOKENIZERS

    for dest, (flag, why) in REFUSED.items():
        if getattr(args, dest) is not None:
            raise InputError(f"{flag} {why}")
    if args.format == "latex":
        raise InputError("-f latex: evalkit prints json or text")
    try:
        utf8 = codecs.lookup(args.encoding).name == "utf-8"
    except LookupError:
        utf8 = False
    if not utf8:
        raise InputError(f"-e {args.encoding}: evalkit reads UTF-8 only; convert the files first (iconv -f ... -t "
                         "utf-8)")
    if args.paired_jobs < 0:
        raise InputError(f"-j must be 0 or more, got {args.paired_jobs}")
    args.metrics = list(dict.fromkeys(m.lower() for m in args.metrics))
    unknown = [m for m in args.metrics if m not in METRICS]
    if unknown:
        raise InputError(f"unknown metric {unknown[0]!r}; the metrics are {', '.join(METRICS)}")
    if args.tokenize not in TOKENIZERS:
        raise InputError(f"unknown tokenizer {args.tokenize!r}; the tokenizers are {', '.join(TOKENIZERS)}")
    if not args.refs:
        raise InputError("no reference file: give one or more reference files before -i")
    if "-" in args.refs and (args.input is None or "-" in args.input):
        raise InputError("the references and the hypotheses cannot both come from stdin: give one of them as a file")
    if args.refs.count("-") > 1:
        raise InputError("stdin can be read once: give at most one reference file as -")
    if "-" in args.refs and args.input and len(args.input) > FILES_AT_ONCE:
        raise InputError(f"more than {FILES_AT_ONCE} systems are read in groups, each with the references, and stdin "
                         "can be read once: give the references as a file")
    if args.input and len(set(args.input)) < len(args.input):
        twice = next(p for p in args.input if args.input.count(p) > 1)
        raise InputError(f"{twice} is given twice with -i; every system needs a file of its own")
    if args.num_refs < 1:
        raise InputError(f"-nr must be at least 1, got {args.num_refs}")
    paired = args.paired_bs or args.paired_ar
    if "gleu" in args.metrics and not args.source:
        raise InputError("-m gleu needs the uncorrected sentences: --source FILE")
    if args.input is not None:
        check_systems(args, len(args.input))
    if (paired or args.confidence) and set(args.metrics) - set(PAIRED_METRICS):
        raise InputError(f"-ci and the paired tests are offered for {', '.join(PAIRED_METRICS)}")
    for name in ("confidence_n", "paired_bs_n", "paired_ar_n"):
        if getattr(args, name) < 1:
            raise InputError(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if not 0 <= args.width <= MAX_WIDTH:
        raise InputError(f"-w must be between 0 and {MAX_WIDTH} (a score has no more decimals), got {args.width}")
    if args.chrf_char_order < 0 or args.chrf_word_order < 0 or args.chrf_char_order + args.chrf_word_order < 1:
        raise InputError("--chrf-char-order and --chrf-word-order must be >= 0, and not both 0")
    if not (math.isfinite(args.chrf_beta) and args.chrf_beta > 0):
        raise InputError(f"--chrf-beta must be a positive number, got {args.chrf_beta}")
    if args.explain not in (None, "corpus") and not (args.explain.isascii() and args.explain.isdigit()
                                                     and int(args.explain) >= 1):
        raise InputError(f"--explain takes a segment number from 1, got {args.explain!r}")
    if args.plot and os.path.isdir(args.plot):
        raise InputError(f"--plot {args.plot} is a folder: give a file name, such as {os.path.join(args.plot, 'fig.png')}")
    if args.plot and (args.sentence_level or args.confidence):
        raise InputError("--plot draws a corpus score or a paired test, not -sl or -ci")
    if args.plot and "bleu" not in args.metrics and not paired:
        raise InputError("--plot draws BLEU's per-order precisions (add bleu to -m) or a paired test's intervals")
    if args.explain == "corpus" and (args.sentence_level or paired or args.confidence):
        raise InputError("--explain without a segment number explains a corpus score: leave out -sl, -ci and "
                         "the paired tests, or give a segment number")
    if args.format is None:
        args.format = "text" if args.sentence_level or paired else "json"


def check_systems(args: argparse.Namespace, systems: int) -> None:
    """What can be said once the number of systems is known (from -i, or from the first line of stdin)."""
    paired = args.paired_bs or args.paired_ar
    if args.sentence_level and (systems > 1 or len(args.metrics) > 1 or paired or args.confidence):
        raise InputError("-sl scores one system with one metric, without -ci or a paired test")
    if paired and systems < 2:
        raise InputError("a paired test compares systems: give the baseline and at least one more with -i (or "
                         "tab-separated systems on stdin)")
    if args.confidence and systems > 1:
        raise InputError("-ci is for one system; for several use --paired-bs, which gives every system's interval")


# --------------------------------------------------------------------------------------------------------
# 2. The files, line by line
# --------------------------------------------------------------------------------------------------------
def lines_of(path: str) -> Iterator[str]:
    """The lines of a UTF-8 file (gzip if it ends in .gz; ``-`` is stdin), trailing white space removed as
    sacreBLEU removes it.  A byte that is not UTF-8 is an :class:`InputError` naming the line."""
    name = "stdin" if path == "-" else path
    try:
        if path == "-":
            if sys.stdin is None:  # started with stdin closed (<&-)
                raise InputError("stdin is closed: give the files as arguments (the hypotheses with -i)")
            handle = sys.stdin.buffer
        else:
            handle = gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")
    except OSError as exc:
        raise InputError(f"cannot read {name}: {exc.strerror or exc}") from None
    try:
        for number, raw in enumerate(handle, start=1):
            try:
                yield raw.decode("utf-8").rstrip()
            except UnicodeDecodeError as exc:
                raise InputError(f"{name}, line {number}: byte {exc.object[exc.start]:#04x} at column {exc.start + 1} "
                                 "is not UTF-8; evalkit reads UTF-8 text") from None
    except (OSError, EOFError, zlib.error) as exc:  # a directory, a truncated or corrupt .gz, ...
        raise InputError(f"cannot read {name}: {exc}") from None
    finally:
        if handle is not sys.stdin.buffer:
            handle.close()


def read_segments(ref_paths: Sequence[str], hyp_paths: Sequence[str], num_refs: int = 1,
                  stdin: tuple[int, Iterator[str]] | None = None) -> Iterator[tuple[list[str], list[str]]]:
    """(the references, the hypotheses) of each segment, read from all files in step.  Files of different
    lengths and empty files are an :class:`InputError` (after reading to the end, to give every count).
    ``num_refs`` > 1 (sacreBLEU's ``-nr``): each reference line holds that many references, separated by tabs.
    ``stdin``: (systems, lines) of :func:`stdin_systems`, read for the hypothesis file ``-``: each line holds
    one hypothesis per system, separated by tabs, as sacreBLEU reads its stdin."""
    paths = [*ref_paths, *hyp_paths]
    readers = [_fields(stdin) if p == "-" and stdin is not None and j >= len(ref_paths) else map(_one, lines_of(p))
               for j, p in enumerate(paths)]
    k, count, missing = len(ref_paths), 0, object()
    for row in zip_longest(*readers, fillvalue=missing):
        if any(line is missing for line in row):
            counts = [count + (line is not missing) + sum(1 for _ in reader) for line, reader in zip(row, readers)]
            listed = ", ".join(f"{'stdin' if p == '-' else p} has {n}" for p, n in zip(paths, counts))
            raise InputError(f"the files have different numbers of lines: {listed}; every file needs one line "
                             "per segment")
        count += 1
        refs = [fields[0] for fields in row[:k]]
        if num_refs > 1:
            refs = [ref for path, line in zip(ref_paths, refs) for ref in _tab_separated(line, num_refs, path, count)]
        yield refs, [hyp for fields in row[k:] for hyp in fields]
    if count == 0:
        raise InputError(f"the files are empty ({', '.join('stdin' if p == '-' else p for p in paths)}): there is no "
                         "segment to score")


def _one(line: str) -> list[str]:
    return [line]


def stdin_systems() -> tuple[int, Iterator[str]]:
    """(the number of systems, the lines) of hypotheses on stdin: as sacreBLEU, the first line's tab-separated
    fields say how many systems there are (``paste A B | python -m evalkit REF`` scores A and B)."""
    lines = lines_of("-")
    first = next(lines, None)
    if first is None:
        return 1, iter(())
    return first.count("\t") + 1, chain([first], lines)


def _fields(stdin: tuple[int, Iterator[str]]) -> Iterator[list[str]]:
    systems, lines = stdin
    for number, line in enumerate(lines, start=1):
        fields = [f.rstrip() for f in line.split("\t")]
        if len(fields) != systems:
            raise InputError(f"stdin, line {number}: {len(fields)} tab-separated hypotheses, the first line has "
                             f"{systems} (one per system, as sacreBLEU reads stdin)")
        yield fields


def system_names(args: argparse.Namespace, systems: int) -> list[str]:
    """The systems' names: their files, or sacreBLEU's names for tab-separated systems on stdin."""
    if args.input is not None or systems == 1:
        return list(args.input or ["-"])
    if args.paired_bs or args.paired_ar:
        return ["Baseline", *(f"System {i}" for i in range(1, systems))]
    return [f"System {i}" for i in range(1, systems + 1)]


def groups(paths: Sequence[str]) -> list[list[str]]:
    """The hypothesis files in groups of at most ``FILES_AT_ONCE``, read one group after the other (each with
    the references), so that hundreds of systems do not open hundreds of files at once."""
    return [list(paths[i:i + FILES_AT_ONCE]) for i in range(0, len(paths), FILES_AT_ONCE)] or [list(paths)]


def _tab_separated(line: str, num_refs: int, path: str, number: int) -> list[str]:
    fields = line.split("\t", maxsplit=num_refs - 1)
    if len(fields) != num_refs:
        raise InputError(f"{path}, line {number}: {len(fields)} tab-separated references, -nr {num_refs} expects "
                         f"{num_refs}")
    return fields


def chunks(items: Iterable, size: int) -> Iterator[list]:
    chunk = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


# --------------------------------------------------------------------------------------------------------
# 3. Scores, as sacreBLEU shows them
# --------------------------------------------------------------------------------------------------------
@dataclass
class Score:
    """One metric's score of one system on sacreBLEU's scale (0-100), with what sacreBLEU prints beside it."""

    name: str
    score: float
    signature: list[tuple[str, str]]
    verbose: str = ""
    mean: float | None = None
    ci: float | None = None
    result: object = field(default=None, repr=False)  # evalkit's own result, for --explain and --plot
    metric: str = ""  # the name given to -m

    def signature_text(self, short: bool = False) -> str:
        """sacreBLEU's signature; ``short``: with its abbreviated keys (``-sh``)."""
        names = {**SHORT_KEYS["all"], **SHORT_KEYS.get(self.metric, {})} if short else {}
        return "|".join(f"{names.get(k, k)}:{v}" for k, v in self.signature)

    def text(self, width: int, score_only: bool = False, short: bool = False) -> str:
        shown = f"{self.score:.{width}f}"
        if self.mean is not None:
            shown += f" (μ = {self.mean:.{width}f} ± {self.ci:.{width}f})"
        if score_only:
            return f"{self.score:.{width}f}"
        return f"{self.name}|{self.signature_text(short)} = {shown}" + (f" {self.verbose}" if self.verbose else "")

    def json(self, width: int, short: bool = False) -> dict:
        d: dict = {"name": self.name, "score": float(f"{self.score:.{width}f}"),
                   "signature": self.signature_text(short)}
        if self.mean is not None:
            d["confidence_mean"] = float(f"{self.mean:.{width}f}")
            d["confidence_var"] = float(f"{self.ci:.{width}f}")  # sacreBLEU's key; it holds the half-width
            d["confidence"] = f"μ = {self.mean:.{width}f} ± {self.ci:.{width}f}"
        if self.verbose:
            d["verbose_score"] = self.verbose
        d.update(pair.split(":", 1) for pair in self.signature_text(short).split("|"))
        return d


SHORT_KEYS = {  # sacreBLEU's abbreviations of the signature's keys (-sh); evalkit's own keys stay whole
    "all": {"version": "v", "nrefs": "#", "bs": "bs", "ar": "ar", "seed": "rs"},
    "bleu": {"case": "c", "eff": "e", "tok": "tok", "smooth": "s"},
    "chrf": {"case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s"},
    "ter": {"case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as"},
}


def metric_options(name: str, args: argparse.Namespace) -> dict:
    """evalkit's keywords for the metric ``name`` from sacreBLEU's flags."""
    if name == "bleu":
        return dict(tokenize=args.tokenize, lowercase=args.lowercase, smoothing=args.smooth_method,
                    smooth_value=args.smooth_value if args.smooth_method in SMOOTH_DEFAULTS else None)
    if name == "chrf":
        return dict(char_order=args.chrf_char_order, word_order=args.chrf_word_order, beta=args.chrf_beta,
                    lowercase=args.chrf_lowercase, whitespace=args.chrf_whitespace,
                    eps_smoothing=args.chrf_eps_smoothing)
    if name == "ter":
        return dict(normalized=args.ter_normalized, no_punct=args.ter_no_punct, asian_support=args.ter_asian_support,
                    lowercase=not args.ter_case_sensitive)
    if name == "google-bleu":
        return dict(tokenize="none")
    return {}


def signature(name: str, args: argparse.Namespace, nrefs: int, test: tuple[str, int] | None = None) -> list:
    """sacreBLEU's signature fields for ``name``, evalkit's version last; ``test``: ("bs" or "ar", samples)."""
    fields = [("nrefs", str(nrefs))]
    if test is not None:
        fields += [(test[0], str(test[1])), ("seed", "12345")]
    if name == "bleu":
        smooth = args.smooth_method
        if smooth in SMOOTH_DEFAULTS:  # floor and add-k show their value, as sacreBLEU's signature does
            smooth += f"[{SMOOTH_DEFAULTS[smooth] if args.smooth_value is None else args.smooth_value:.2f}]"
        fields += [("case", "lc" if args.lowercase else "mixed"), ("eff", "yes" if args.sentence_level else "no"),
                   ("tok", tok_signature(args.tokenize)), ("smooth", smooth)]
    elif name == "chrf":
        fields += [("case", "lc" if args.chrf_lowercase else "mixed"),
                   ("eff", "no" if args.chrf_eps_smoothing else "yes"), ("nc", str(args.chrf_char_order)),
                   ("nw", str(args.chrf_word_order)), ("space", "yes" if args.chrf_whitespace else "no")]
    elif name == "ter":
        fields += [("case", "mixed" if args.ter_case_sensitive else "lc"), ("tok", "tercom"),
                   ("norm", "yes" if args.ter_normalized else "no"), ("punct", "no" if args.ter_no_punct else "yes"),
                   ("asian", "yes" if args.ter_asian_support else "no")]
    elif name == "rouge":
        fields += [("stem", "yes" if args.rouge_stemmer else "no"), ("tok", "rouge-score"), ("avg", "mean")]
    elif name == "gleu":
        fields += [("tok", "none"), ("mode", "sample"), ("seed", "12345")]
    elif name == "google-bleu":
        fields += [("tok", "none"), ("order", "1-4")]
    return fields + [("version", f"evalkit-{__version__}")]


def tok_signature(name: str) -> str:
    """The tokenizer in a signature, from the library's one signature function (``ja-mecab-0.996-IPA``: MeCab's
    version and dictionary).  MeCab that cannot start (a missing dictionary) is bad input, said in one line."""
    from .tokenize import tokenizer_signature

    try:
        return tokenizer_signature(name)
    except RuntimeError as exc:  # MeCab's own error: a page of advice; its detail is the line to show
        lines = [line.strip() for line in str(exc).splitlines() if line.strip().strip("-")]
        detail = next((line for line in lines if line.startswith("[")), lines[-1] if lines else "")
        raise InputError(f"-tok {name}: MeCab cannot start ({detail}); reinstall its dictionary: pip install -r "
                         "requirements.txt") from None


def display_name(name: str, args: argparse.Namespace) -> str:
    if name == "chrf":
        beta = int(args.chrf_beta) if float(args.chrf_beta).is_integer() else args.chrf_beta
        return f"chrF{beta}" + "+" * args.chrf_word_order
    return {"bleu": "BLEU", "ter": "TER", "gleu": "GLEU", "google-bleu": "GoogleBLEU"}.get(name, name)


def printed_bleu(result, args: argparse.Namespace) -> tuple[float, list[float], float]:
    """(BLEU, the precisions, BP) on sacreBLEU's scale, computed from evalkit's counts in the order sacreBLEU
    2.6.0 computes them (``BLEU.compute_bleu``: precisions in percent, then the mean of their logs), so that
    the printed digits are sacreBLEU's at every width.  evalkit's ``score`` is the same number to about 1e-15
    (it computes on 0-1 and multiplies by 100 at the end): the last digits of a 16-decimal print can differ."""
    smoothing = args.smooth_method
    value = args.smooth_value if args.smooth_value is not None else SMOOTH_DEFAULTS.get(smoothing)
    correct = [p.matches for p in result.precisions]
    total = [p.total for p in result.precisions]
    sys_len, ref_len = result.hyp_len, result.ref_len
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    order = len(correct)
    precisions = [0.0] * order
    if not any(correct):
        return 0.0, precisions, bp
    mteval, used = 1.0, order
    for n in range(1, order + 1):
        if smoothing == "add-k" and n > 1:
            correct[n - 1] += value
            total[n - 1] += value
        if total[n - 1] == 0:
            break
        if args.sentence_level:  # effective order, as sacreBLEU's -sl
            used = n
        if correct[n - 1] == 0:
            if smoothing == "exp":
                mteval *= 2
                precisions[n - 1] = 100. / (mteval * total[n - 1])
            elif smoothing == "floor":
                precisions[n - 1] = 100. * value / total[n - 1]
        else:
            precisions[n - 1] = 100. * correct[n - 1] / total[n - 1]
    logs = sum([math.log(p) if p != 0.0 else -9999999999 for p in precisions[:used]])
    return bp * math.exp(logs / used), precisions, bp


def bleu_verbose(result, args: argparse.Namespace) -> str:
    """sacreBLEU's line after the BLEU score: the precisions as used (after smoothing), BP and the lengths."""
    _, values, bp = printed_bleu(result, args)
    precisions = "/".join(f"{p:.1f}" for p in values)
    ratio = result.hyp_len / result.ref_len if result.ref_len else 0
    return (f"{precisions} (BP = {bp:.3f} ratio = {ratio:.3f} hyp_len = {result.hyp_len:d} "
            f"ref_len = {result.ref_len:d})")


def to_score(name: str, result, args: argparse.Namespace, nrefs: int) -> Score:
    """A Score from evalkit's result of the metric ``name`` (BLEU, chrF, TER, Google's GLEU or GEC GLEU)."""
    verbose = bleu_verbose(result, args) if name == "bleu" else ""
    score = printed_bleu(result, args)[0] if name == "bleu" else 100 * result.score
    return Score(display_name(name, args), score, signature(name, args, nrefs), verbose, result=result, metric=name)


def summed_statistics(name: str, hyps: Sequence[str], refs: Sequence[Sequence[str]], options: dict, start=None):
    """The additive statistics of a chunk of segments, for the streamed metrics, added to ``start`` (the
    chunks before, if any).  TER's reference lengths are floats (the mean length of a segment's references):
    they are added segment by segment onto the running total, in the order sacreBLEU adds them, so that a
    corpus read in chunks gives sacreBLEU's sum to the last bit (a sum per chunk, then of the chunks, does not)."""
    if name == "bleu":
        from .bleu import corpus_stats
        stats = corpus_stats(hyps, refs, tokenize=options["tokenize"], lowercase=options["lowercase"])
    elif name == "chrf":
        from .chrf import corpus_stats
        stats = corpus_stats(hyps, refs, **options)
    elif name == "ter":
        from .ter import segment_stats
        return sum(segment_stats(hyps, refs, **options), 0 if start is None else start)
    else:
        from .google_bleu import segment_stats
        stats = sum(s for s in segment_stats(hyps, refs, tokenize="none") if s is not None)
    return stats if start is None else start + stats


def score_statistics(name: str, stats, options: dict):
    if name == "bleu":
        from .bleu import score_stats
        return score_stats(stats, smoothing=options["smoothing"], smooth_value=options["smooth_value"])
    if name == "chrf":
        from .chrf import score_stats
    elif name == "ter":
        from .ter import score_stats
    else:
        from .google_bleu import score_stats
    return score_stats(stats)


def corpus_scores(args, ref_paths, hyp_paths, sources=None, keep=False, stdin=None):
    """{system: [Score per metric, in sacreBLEU's order]}, streaming the metrics that can; with ``keep``
    (or a metric that needs the whole corpus) also the segments: (scores, references, {system: hypotheses}).
    ``stdin``: tab-separated systems on stdin (:func:`stdin_systems`).  Many files are read in groups."""
    streamed = [m for m in args.metrics if m in STREAMED]
    whole = [m for m in args.metrics if m not in STREAMED]
    keep = keep or bool(whole)
    names = system_names(args, stdin[0] if stdin else 1)
    totals = {(name, m): None for name in names for m in streamed}
    kept_refs: list[list[str]] = []
    kept_hyps: dict[str, list[str]] = {name: [] for name in names}
    nrefs = len(ref_paths) * args.num_refs
    done = 0
    for g, group in enumerate(groups(hyp_paths)):
        group_names = names[done:done + (len(names) if stdin else len(group))]
        done += len(group_names)
        for chunk in chunks(read_segments(ref_paths, group, args.num_refs, stdin), CHUNK):
            refs = [r for r, _ in chunk]
            for j, name in enumerate(group_names):
                hyps = [h[j] for _, h in chunk]
                for m in streamed:
                    totals[name, m] = summed_statistics(m, hyps, refs, metric_options(m, args), totals[name, m])
                if keep:
                    kept_hyps[name] += hyps
            if keep and g == 0:
                kept_refs += refs
    out = {}
    for name in names:
        scores = {m: to_score(m, score_statistics(m, totals[name, m], metric_options(m, args)), args, nrefs)
                  for m in streamed}
        for m in whole:
            scores[m] = whole_corpus_scores(m, kept_hyps[name], kept_refs, sources, args)
        out[name] = [s for m in sorted(args.metrics, key=str.upper) for s in _listed(scores[m])]
    return out, kept_refs, kept_hyps


def _listed(score) -> list[Score]:
    return score if isinstance(score, list) else [score]


def whole_corpus_scores(name: str, hyps, refs, sources, args) -> Score | list[Score]:
    """ROUGE (a Score per variant, the mean F over segments) and GEC GLEU (the official script's mean over
    sampled references), which need the whole corpus at once."""
    nrefs = len(refs[0])
    if name == "gleu":
        from .gleu import corpus_gleu

        if len(sources) != len(hyps):
            raise InputError(f"{args.source} has {len(sources)} lines, the hypotheses {len(hyps)}: every file "
                             "needs one line per segment")
        return to_score("gleu", corpus_gleu(hyps, refs, sources, seed=12345), args, nrefs)
    from .rouge_corpus import corpus_rouge, get_scorer

    out = []
    for variant in args.rouge_variants:
        get_scorer(variant)  # an unknown variant: ValueError, reported as bad input
        result = corpus_rouge(hyps, refs, variant, n_samples=1, stemmer=args.rouge_stemmer)
        e = result.estimate
        out.append(Score(variant, 100 * e.fmeasure, signature("rouge", args, nrefs),
                         f"P = {100 * e.precision:.1f} R = {100 * e.recall:.1f}", result=result))
    return out


def sentence_scores(args, refs, hyps) -> list[Score]:
    """One Score per segment, as sacreBLEU -sl (BLEU with effective order, as sacreBLEU does there)."""
    name, nrefs = args.metrics[0], len(refs[0])
    options = metric_options(name, args)
    out = []
    for hyp, seg_refs in zip(hyps, refs):
        if name == "bleu":
            from .bleu import sentence_bleu
            result = sentence_bleu(hyp, seg_refs, effective_order=True, **options)
        elif name == "chrf":
            from .chrf import sentence_chrf
            result = sentence_chrf(hyp, seg_refs, **options)
        elif name == "ter":
            from .ter import sentence_ter
            result = sentence_ter(hyp, seg_refs, **options)
        elif name == "google-bleu":
            from .google_bleu import sentence_google_bleu
            result = sentence_google_bleu(hyp, seg_refs)
        else:
            raise InputError(f"-sl is offered for bleu, chrf, ter and google-bleu, not {name}")
        out.append(to_score(name, result, args, nrefs))
    return out


def paired_scores(args, refs, hyps: dict[str, list[str]], confidence_only: bool = False) -> dict[str, list[Score]]:
    """The paired test asked for (or, for -ci, a bootstrap of the one system): {system: [Score per metric]}."""
    from .significance import paired_approximate_randomization, paired_bootstrap

    names = list(hyps)
    baseline, others = hyps[names[0]], {n: hyps[n] for n in names[1:]}
    if confidence_only:  # the bootstrap of one system: the baseline's interval, against an unused copy of it
        others, n, test = {"(copy)": baseline}, args.confidence_n, ("bs", args.confidence_n)
    elif args.paired_bs:
        n, test = args.paired_bs_n, ("bs", args.paired_bs_n)
    else:
        n, test = args.paired_ar_n, ("ar", args.paired_ar_n)
    out: dict[str, list[Score]] = {name: [] for name in names}
    for m in sorted(args.metrics, key=str.upper):
        options = metric_options(m, args)
        # p_value_rule "at-least": a resampled difference that ties with the real one counts as at least as
        # large, (c + 1) / (n + 1) with c the samples at or above it.  A system identical to the baseline gets
        # p = 1; where no sample ties (real systems), the p-value is sacreBLEU's.  Warnings go to stderr (main).
        if test[0] == "bs":
            res = paired_bootstrap(baseline, others, refs, metric=m, n_samples=n, baseline_name=names[0],
                                   null=args.paired_bs_null, p_value_rule="at-least", **options)
        else:
            res = paired_approximate_randomization(baseline, others, refs, metric=m, n_samples=n,
                                                   baseline_name=names[0], p_value_rule="at-least", **options)
        for name in names:
            r = res[name]
            fields = signature(m, args, len(refs[0]), test)
            if test[0] == "bs" and not confidence_only:  # which bootstrap p-value: a reader needs it to reproduce
                fields.insert(3, ("null", args.paired_bs_null))
            s = Score(display_name(m, args), 100 * r.score, fields, metric=m)
            if confidence_only and m == "bleu":  # sacreBLEU prints the precisions and BP beside -ci's interval
                s.verbose = bleu_verbose(score_statistics(m, summed_statistics(m, baseline, refs, options), options),
                                         args)
            if r.mean is not None:
                s.mean, s.ci = 100 * r.mean, 100 * r.ci
            s.result = r
            out[name].append(s)
    return out


# --------------------------------------------------------------------------------------------------------
# 4. Printing
# --------------------------------------------------------------------------------------------------------
def print_scores(scores: list[Score], args, out) -> None:
    """One system (or one line of -sl): sacreBLEU's JSON or text."""
    if args.format == "json":
        if args.score_only:
            values = [f"{s.score:.{args.width}f}" for s in scores]
            print(values[0] if len(values) == 1 else "[\n" + ",\n".join(values) + "\n]", file=out)
        else:
            docs = [json.dumps(s.json(args.width), indent=1, ensure_ascii=False) for s in scores]
            print(docs[0] if len(docs) == 1 else "[\n" + ",\n".join(docs) + "\n]", file=out)  # sacreBLEU's layout
        return
    lines = [s.text(args.width, args.score_only, args.short) for s in scores]
    if not args.score_only and len(lines) > 1:  # align on " = ", as sacreBLEU does
        w = max(line.index(" = ") for line in lines)
        lines = [f"{line[:line.index(' = ')]:>{w}}{line[line.index(' = '):]}" for line in lines]
    print("\n".join(lines), file=out)


def print_table(by_system: dict[str, list[Score]], args, out, test: str | None = None) -> None:
    """Several systems: sacreBLEU's JSON list, or a table; with a paired test every score's interval and
    p-value (the baseline first)."""
    names = list(by_system)
    shown = [f"Baseline: {n}" if test and i == 0 and n != "Baseline" else n for i, n in enumerate(names)]
    w = args.width
    if args.format == "json":
        docs = []
        for label, scores in zip(shown, by_system.values()):
            doc: dict = {"system": label}
            for s in scores:
                if test is None:
                    doc[s.name] = f"{s.score:.{w}f}"
                else:
                    r = s.result
                    doc[s.name] = {"score": float(f"{s.score:.{w}f}"),
                                   "p_value": r.p_value}
                    if s.mean is not None:
                        doc[s.name].update(mean=float(f"{s.mean:.{w}f}"), ci=float(f"{s.ci:.{w}f}"))
            docs.append(doc)
        if test:
            docs = {"test": test, "systems": docs,
                    "signatures": {s.name: s.signature_text(args.short) for s in by_system[names[0]]}}
        print(json.dumps(docs, indent=4), file=out)  # non-ASCII escaped (\uXXXX), as sacreBLEU's json.dumps
        return
    first = by_system[names[0]]
    header = ["System"] + [f"{s.name} (μ ± 95% CI)" if s.mean is not None else s.name for s in first]
    rows = []
    for label, scores in zip(shown, by_system.values()):
        cells = [f"{s.score:.{w}f}" + (f" ({s.mean:.{w}f} ± {s.ci:.{w}f})" if s.mean is not None else "")
                 for s in scores]
        rows.append([label, *cells])
        if test and scores[0].result.p_value is not None:
            rows.append(["", *(f"(p = {s.result.p_value:.4f})" + ("*" if s.result.p_value < 0.05 else "")
                              for s in scores)])
    widths = [max(len(r[k]) for r in [header, *rows]) for k in range(len(header))]
    for r in [header, *rows]:
        print("  ".join(c.rjust(wd) for c, wd in zip(r, widths)), file=out)
    if test:
        what = ("Paired bootstrap resampling" if test == "paired-bs" else "Paired approximate randomization")
        samples = dict(first[0].signature)["bs" if test == "paired-bs" else "ar"]
        print(f"\n{what} against the baseline, {samples} samples; "
              "* marks p < 0.05. A p-value estimates P(a difference at least this large | the systems are equally "
              "good), a tie counted as at least as large; it is not the probability that the difference is real.",
              file=out)
    print("\nSignatures:", file=out)
    for s in first:
        print(f" - {s.name:<10} {s.signature_text(args.short)}", file=out)


# --------------------------------------------------------------------------------------------------------
# 5. --explain and --plot: the lessons' views
# --------------------------------------------------------------------------------------------------------
def explain(args, refs, hyps, corpus: dict[str, Score], out) -> None:
    """The lessons' tables for one segment (``--explain N``) or the corpus (``--explain``)."""
    import pandas as pd

    from . import tables

    segment = None if args.explain == "corpus" else int(args.explain)
    if segment is not None and segment > len(hyps):
        raise InputError(f"--explain {segment}: there are {len(hyps)} segments")
    with pd.option_context("display.width", 120, "display.max_rows", 60, "display.precision", 4):
        if segment is not None:
            hyp, seg_refs = hyps[segment - 1], refs[segment - 1]
            print(f"Segment {segment}\n  hypothesis: {hyp}", file=out)
            for j, r in enumerate(seg_refs, 1):
                print(f"  reference {j}: {r}", file=out)
        for m in args.metrics:
            options = metric_options(m, args)
            if m == "bleu":
                if segment is None:
                    result = corpus["bleu"].result
                else:
                    from .bleu import sentence_bleu
                    result = sentence_bleu(hyp, seg_refs, effective_order=args.sentence_level, **options)  # as -sl
                    for n in range(1, 5):
                        print(f"\nBLEU: the {n}-grams of the hypothesis, clipped by the references (tokenizer "
                              f"{args.tokenize})", file=out)
                        print(tables.bleu_ngram_table(hyp, seg_refs, n, tokenize=args.tokenize,
                                                      lowercase=args.lowercase).to_string(index=False), file=out)
                print(f"\nBLEU per order ({args.smooth_method} smoothing; precision as used, after smoothing)",
                      file=out)
                print(tables.bleu_order_table(result).to_string(), file=out)
                bp, c, r = result.brevity_penalty, result.hyp_len, result.ref_len
                print(f"brevity penalty: c = {c}, r = {r}, BP = {'1 (c > r)' if c > r else 'exp(1 - r/c)'} = {bp:.4f}",
                      file=out)
                print(f"BLEU = BP × exp(Σ w·log p) = {result.score:.4f} (× 100 = {100 * result.score:.{args.width}f})",
                      file=out)
            elif m == "chrf":
                if segment is None:
                    result = corpus["chrf"].result
                else:
                    from .chrf import sentence_chrf
                    result = sentence_chrf(hyp, seg_refs, **options)
                    print("\nchrF: the character 1-grams and 2-grams against reference 1 (white space removed)",
                          file=out)
                    for n in (1, 2):
                        print(tables.chrf_table(hyp, seg_refs[0], n, whitespace=args.chrf_whitespace,
                                                lowercase=args.chrf_lowercase).to_string(index=False), file=out)
                rows = [{"order": f"{o.kind} {o.n}", "matches": o.matches, "hyp": o.hyp_len, "ref": o.ref_len,
                         "P": o.precision, "R": o.recall} for o in result.orders]
                print(f"\n{result.name}: precision and recall per order", file=out)
                print(pd.DataFrame(rows).to_string(index=False), file=out)
                print(f"P = {result.precision:.4f}, R = {result.recall:.4f} (averaged over the orders), "
                      f"{result.name} = (1 + β²)PR / (β²P + R) = {result.score:.4f}", file=out)
            elif m == "ter":
                if segment is None:
                    result = corpus["ter"].result
                else:
                    from .ter import sentence_ter
                    result = sentence_ter(hyp, seg_refs, **options)
                    best = min(result.alignments, key=lambda a: a.edits)
                    print("\nTER: the alignment after shifting (= match, S substitute, D delete, I insert)", file=out)
                    for s in best.shifts:
                        print(f"  shift: {s}", file=out)
                    print(pd.DataFrame(best.pairs(), columns=["hypothesis", "reference", "op"]).to_string(index=False),
                          file=out)
                print(f"\nTER edits: {result.insertions} insertions, {result.deletions} deletions, "
                      f"{result.substitutions} substitutions, {result.shifts} shifts = {result.edits}; "
                      f"TER = {result.edits} / {result.ref_len:g} reference words = {result.score:.4f}", file=out)
            else:
                print(f"\n{m}: --explain shows BLEU, chrF and TER; see the ROUGE and GLEU lessons", file=out)


def plot(args, by_system: dict[str, list[Score]], test: str | None) -> None:
    """A paired test: every system's score with its interval (and p-value); otherwise BLEU's per-order
    precisions of every system (the figure of lesson 01)."""
    import matplotlib

    matplotlib.use("Agg")
    from . import plots

    names = list(by_system)
    if test is None:
        results = {name: next(s.result for s in scores if s.name == "BLEU") for name, scores in by_system.items()}
        ax = plots.plot_precisions(results if len(results) > 1 else next(iter(results.values())))
    else:
        ax = plots.new_axes()
        first = [scores[0] for scores in by_system.values()]
        ys = range(len(names))
        ax.errorbar([s.mean if s.mean is not None else s.score for s in first], ys,
                    xerr=[s.ci or 0.0 for s in first], fmt="o", capsize=4)
        labels = [n if s.result.p_value is None else f"{n} (p = {s.result.p_value:.4f})" for n, s in zip(names, first)]
        ax.set_yticks(list(ys), labels)
        ax.invert_yaxis()
        ax.set_xlabel(f"{first[0].name}" + (" (bootstrap mean ± 95% interval)" if first[0].mean is not None else ""))
        ax.set_title(f"{first[0].name} of each system against the baseline ({test})")
    try:
        plots.save(ax.figure, args.plot)
    except (OSError, ValueError) as exc:  # a folder that does not exist, an extension matplotlib does not know
        raise InputError(f"cannot write the figure {args.plot}: {exc}") from None


# --------------------------------------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------------------------------------
def read_all(args, hyp_paths: Sequence[str], stdin=None) -> tuple[list[list[str]], dict[str, list[str]]]:
    """Every segment in memory: (the references of each segment, {system: its lines}); many files are read
    in groups."""
    names = system_names(args, stdin[0] if stdin else 1)
    refs, hyps = [], {name: [] for name in names}
    done = 0
    for g, group in enumerate(groups(hyp_paths)):
        group_names = names[done:done + (len(names) if stdin else len(group))]
        done += len(group_names)
        for seg_refs, seg_hyps in read_segments(args.refs, group, args.num_refs, stdin):
            if g == 0:
                refs.append(seg_refs)
            for name, line in zip(group_names, seg_hyps):
                hyps[name].append(line)
    return refs, hyps


def run(args: argparse.Namespace, out) -> None:
    """Check, read, score, explain and draw; the text goes to ``out`` only once all of it succeeded."""
    check_arguments(args)
    if "bleu" in args.metrics:
        tok_signature(args.tokenize)  # MeCab that cannot start: said now, before any file is read
    hyp_paths = args.input or ["-"]
    stdin = None  # hypotheses on stdin: (systems, lines), as sacreBLEU reads them (tab-separated systems)
    if args.input is None:
        if sys.stdin is None:
            raise InputError("stdin is closed: give the hypotheses with -i FILE")
        if sys.stdin.isatty():
            raise InputError("no hypotheses: give them with -i FILE, or pipe them on stdin")
        stdin = stdin_systems()
        check_systems(args, stdin[0])
    sources = list(lines_of(args.source)) if args.source else None
    test = "paired-bs" if args.paired_bs else "paired-ar" if args.paired_ar else None
    text = io.StringIO()  # bad input anywhere below writes nothing
    by_system = None  # {system: [Score per metric]} for a corpus score or a paired test
    if args.sentence_level:
        refs, kept = read_all(args, hyp_paths, stdin)
        first = next(iter(kept))
        for s in sentence_scores(args, refs, kept[first]):
            line = json.dumps(s.json(args.width, args.short), ensure_ascii=False) if args.format == "json" else \
                s.text(args.width, args.score_only, args.short)  # -f json: one JSON object per line
            print(line, file=text)
    elif test or args.confidence:
        refs, kept = read_all(args, hyp_paths, stdin)
        first = next(iter(kept))
        scores = paired_scores(args, refs, kept, confidence_only=args.confidence)
        if args.confidence:
            print_scores(scores[first], args, text)
        else:
            by_system = scores
            print_table(by_system, args, text, test)
    else:
        keep = args.explain not in (None, "corpus")  # a segment to explain: keep the segments
        by_system, refs, kept = corpus_scores(args, args.refs, hyp_paths, sources, keep=keep, stdin=stdin)
        first = next(iter(by_system))
        if len(by_system) == 1:
            print_scores(by_system[first], args, text)
        else:
            print_table(by_system, args, text)
    if args.explain is not None:
        corpus = {s.metric: s for s in by_system[first]} if args.explain == "corpus" else {}
        explain(args, refs, kept[first], corpus, text)
    if args.plot:
        plot(args, by_system, test)
    out.write(text.getvalue())


def main(argv: Sequence[str] | None = None) -> int:
    """Score system outputs from files (see the module's docstring); returns the exit status.

    Bad input, an output that cannot be written (a full disk, a closed pipe) and a tokenizer that cannot
    start: a one-line message on stderr and exit status 2.  The library's warnings (a paired test with too
    few samples, text the tokenizer was not made for, ...) are printed on stderr, once each."""
    parser = build_parser()
    args = parser.parse_args(argv)  # a malformed command line: argparse's message and exit status 2
    status = 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            run(args, sys.stdout)
            sys.stdout.flush()
        except InputError as exc:
            status = _error(parser, exc)
        except (TypeError, ValueError, ImportError) as exc:  # evalkit refused an input or an option, or a
            status = _error(parser, exc)  # tokenizer's optional package is missing
        except OSError as exc:  # stdout: a full device, a closed pipe
            status = _error(parser, f"cannot write the output: {exc.strerror or exc}")
            _silence_stdout()
    hidden = (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning)  # as Python hides them
    for message in dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in caught
                                 if not issubclass(w.category, hidden)):
        print(f"{parser.prog}: warning: {' '.join(message.split())}", file=sys.stderr)
    return status


def _error(parser: argparse.ArgumentParser, exc: object) -> int:
    print(f"{parser.prog}: error: {' '.join(str(exc).split())}", file=sys.stderr)  # one line
    return 2


def _silence_stdout() -> None:
    """After a failed write: point stdout at /dev/null, so that Python's own flush at exit does not fail again
    (with a traceback and exit status 120)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's StringIO)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)
