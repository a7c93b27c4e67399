"""BLEU (Papineni et al., 2002), sentence and corpus level, computed step by step.

The computation has two halves, kept apart on purpose:

1. **Counting** (:func:`sentence_stats`): for each n-gram order n, how many hypothesis n-grams there are
   (``totals``) and how many of them are matched by the references once clipped (``matches``), plus the
   hypothesis length and the reference lengths.  These *sufficient statistics* add up over a corpus.
2. **Scoring** (:func:`score_stats`): precisions p_n = matches / totals, optionally smoothed, their weighted
   geometric mean, times the brevity penalty.  Re-scoring with other weights, smoothing or
   reference-length rule needs no recounting.

:func:`sentence_bleu` and :func:`corpus_bleu` do both.  Corpus BLEU scores the *summed* statistics; it
is not the mean of sentence scores.

    >>> r = sentence_bleu("the cat sat on the mat", ["the cat is on the mat", "the bird sat on the bush"],
    ...                   weights=(0.5, 0.5))
    >>> [(p.matches, p.total) for p in r.precisions], round(r.score, 4)
    ([(6, 6), (4, 5)], 0.8944)

Smoothing comes in two families, each reproducing its library exactly:

- sacreBLEU's: ``"none"`` (exact BLEU: 0 when a weighted precision is 0), ``"floor"``, ``"add-k"``, ``"exp"``.
- NLTK's ``"method0"`` ... ``"method7"`` (Chen & Cherry, 2014), with NLTK's conventions: an order with no
  hypothesis n-grams counts as 0/1, a corpus with no unigram match scores 0, and a precision that is still
  0 after smoothing is left out of the geometric mean.  NLTK's method 5 (and 7, which uses it) averages
  *precisions* with p_0 = p_1 + 1 where Chen & Cherry average match counts, so it can score a perfect
  hypothesis above 1; evalkit reproduces that, as it reproduces every NLTK number.

Weights are divided by their sum, so ``(1, 1)`` means ``(0.5, 0.5)`` and the score stays in [0, 1].
"""

from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Mapping, Sequence
from itertools import chain
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from . import __version__
from ._checks import (
    as_tokens,
    check_choice,
    check_corpus,
    check_int,
    check_length,
    check_nonnegative,
    check_references,
    check_same_length,
    check_text,
    check_bool,
    check_weights,
    normalize_weights,
)
from .ngrams import clipped_matches
from .protocol import AdditiveStats, Metric, common, register_metric, segment_count, setting
from .tokenize import (
    check_tokenize,
    get_tokenizer,
    tokenizer_signature,
    warn_about_corpus_tokenization,
    warn_about_tokenization,
)

SACREBLEU_SMOOTHING = ("none", "floor", "add-k", "exp")
NLTK_SMOOTHING = tuple(f"method{k}" for k in range(8))
SMOOTHING = SACREBLEU_SMOOTHING + NLTK_SMOOTHING
REF_LENGTHS = ("closest", "shortest")
DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)
# sacreBLEU's defaults: floor puts 0.1 matches in place of 0, add-k adds 1 to matches and totals of n > 1.
DEFAULT_SMOOTH_VALUES = {"floor": 0.1, "add-k": 1.0}
# NLTK's SmoothingFunction defaults: epsilon (method1), k (methods 4 and 7), alpha (method6).
NLTK_EPSILON, NLTK_K, NLTK_ALPHA = 0.1, 5, 5


# --------------------------------------------------------------------------------------------------------
# Sufficient statistics
# --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BLEUStats(AdditiveStats):
    """Additive counts for one segment or a whole corpus (``a + b``, ``sum(list_of_stats)``).

    ``matches[n-1]`` and ``totals[n-1]`` are the clipped matches and the hypothesis n-grams of order n;
    ``empty[n-1]`` counts the segments that have no n-gram of order n at all (NLTK counts each of them as
    one n-gram, so that its per-sentence precision never divides by zero).  Both reference-length rules
    are kept, so a result can be re-scored under either.
    """

    hyp_len: int
    closest_ref_len: int
    shortest_ref_len: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    empty: tuple[int, ...]
    segments: int = segment_count()
    nrefs: int | None = common(1)  # None when segments have different numbers of references
    tokenize: str = setting("none", "tokenization")
    lowercase: bool = setting(False, "casing")

    @property
    def max_order(self) -> int:
        return len(self.matches)

    def ref_len(self, rule: str = "closest") -> int:
        check_choice("ref_length", rule, REF_LENGTHS)
        return self.closest_ref_len if rule == "closest" else self.shortest_ref_len


def closest_ref_length(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """The reference length nearest to ``hyp_len``; on a tie, the shorter one (NLTK and sacreBLEU agree).

    >>> closest_ref_length(10, [11, 9])
    9
    """
    check_length("hyp_len", hyp_len)
    if isinstance(ref_lens, (str, bytes)) or not isinstance(ref_lens, Sequence) or len(ref_lens) == 0:
        raise ValueError(f"ref_lens must be a non-empty list of reference lengths, got {ref_lens!r}")
    for j, r in enumerate(ref_lens):
        check_length(f"ref_lens[{j}]", r)
    return min(ref_lens, key=lambda r: (abs(r - hyp_len), r))


def brevity_penalty(hyp_len: int, ref_len: int) -> float:
    """BP = 1 if c > r, else exp(1 - r/c); 0 for an empty hypothesis (c = 0).

    Both lengths are non-negative numbers: token counts, or a length ratio c/r with r = 1 (BP depends on
    c/r only).  A negative or non-finite length is refused (``brevity_penalty(-1, 5)`` used to give 403.4).

    >>> round(brevity_penalty(4, 5), 4), brevity_penalty(6, 5)
    (0.7788, 1.0)
    """
    check_nonnegative("hyp_len", hyp_len, "a length")
    check_nonnegative("ref_len", ref_len, "a length")
    if hyp_len > ref_len:
        return 1.0
    if hyp_len == 0:
        return 0.0
    return math.exp(1 - ref_len / hyp_len)


def stats_from_tokens(
    hypothesis: Sequence[str],
    references: Sequence[Sequence[str]],
    max_order: int = 4,
    *,
    tokenize: str = "none",
    lowercase: bool = False,
) -> BLEUStats:
    """Count the statistics of one already-tokenized segment (``tokenize`` and ``lowercase``: the settings
    it was tokenized with, kept in the statistics and checked)."""
    check_tokenize(tokenize)
    matches, totals, empty = [], [], []
    for n in range(1, max_order + 1):
        matched, total = clipped_matches(hypothesis, references, n)
        matches.append(matched)
        totals.append(total)
        empty.append(1 if total == 0 else 0)
    ref_lens = [len(r) for r in references]
    return BLEUStats(
        hyp_len=len(hypothesis),
        closest_ref_len=closest_ref_length(len(hypothesis), ref_lens),
        shortest_ref_len=min(ref_lens),
        matches=tuple(matches),
        totals=tuple(totals),
        empty=tuple(empty),
        nrefs=len(references),
        tokenize=tokenize,
        lowercase=lowercase,
    )


def segment_tokens(hypothesis: Any, references: Any, tokenize: str, lowercase: bool = False, where: str = ""):
    """(hypothesis tokens, list of reference tokens) of one segment, checked: strings are split by the
    tokenizer called ``tokenize``, token sequences are used as they are; ``where`` names the segment in
    error messages."""
    check_bool("lowercase", lowercase)
    tokenizer = get_tokenizer(tokenize)
    hyp = as_tokens(hypothesis, f"hypothesis{where}", tokenizer, lowercase)
    refs = check_references(references, f"references{where}")
    ref_tokens = [as_tokens(r, f"references{where}[{j}]", tokenizer, lowercase) for j, r in enumerate(refs)]
    return hyp, ref_tokens


def sentence_stats(
    hypothesis: str | Sequence[str],
    references: Sequence[str | Sequence[str]],
    *,
    max_order: int = 4,
    tokenize: str = "none",
    lowercase: bool = False,
) -> BLEUStats:
    """The sufficient statistics of one segment against its references."""
    check_int("max_order", max_order, 1)
    check_tokenize(tokenize)
    hyp, refs = segment_tokens(hypothesis, references, tokenize, lowercase)
    return stats_from_tokens(hyp, refs, max_order, tokenize=tokenize, lowercase=lowercase)


def segment_stats(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    *,
    max_order: int = 4,
    tokenize: str = "none",
    lowercase: bool = False,
) -> list[BLEUStats]:
    """One :class:`BLEUStats` per segment; ``references[i]`` lists the references of ``hypotheses[i]``."""
    check_int("max_order", max_order, 1)
    check_tokenize(tokenize)
    check_corpus("hypotheses", hypotheses)
    check_corpus("references", references)
    check_same_length(hypotheses=hypotheses, references=references)
    out = []
    for i, (hyp, refs) in enumerate(zip(hypotheses, references)):
        hyp_tokens, ref_tokens = segment_tokens(hyp, refs, tokenize, lowercase, where=f"[{i}]")
        out.append(stats_from_tokens(hyp_tokens, ref_tokens, max_order, tokenize=tokenize, lowercase=lowercase))
    return out


def _all_texts(items: Sequence[Any]) -> bool:
    """Whether every item is a string or a list/tuple of strings."""
    types = set(map(type, items))
    if types <= {str}:
        return True
    if not types <= {str, list, tuple}:
        return False
    sequences = [x for x in items if type(x) is not str]
    return set(map(type, chain.from_iterable(sequences))) <= {str}


def _validate_corpus(hypotheses, references, max_order, tokenize, lowercase) -> None:
    check_int("max_order", max_order, 1)
    check_bool("lowercase", lowercase)
    check_tokenize(tokenize)
    check_corpus("hypotheses", hypotheses)
    check_corpus("references", references)
    check_same_length(hypotheses=hypotheses, references=references)
    # The common cases, strings or lists of string tokens, checked with C-level loops; anything else is
    # checked segment by segment, which finds the first bad item and names it.
    if (
        _all_texts(hypotheses)
        and set(map(type, references)) <= {list, tuple}
        and 0 not in map(len, references)
        and _all_texts(list(chain.from_iterable(references)))
    ):
        return
    for i, (hyp, refs) in enumerate(zip(hypotheses, references)):
        check_text(hyp, f"hypothesis[{i}]")
        for j, ref in enumerate(check_references(refs, f"references[{i}]")):
            check_text(ref, f"references[{i}][{j}]")


# --------------------------------------------------------------------------------------------------------
# Counting, the fast way (fast=True): a whole corpus at once, with integers
# --------------------------------------------------------------------------------------------------------
# The same statistics as segment_stats (the tests prove them equal), from one engine: the references of the
# corpus become integer n-gram tables (evalkit.fast.ReferenceIndex, cached; lesson 10 builds one by hand),
# and every hypothesis n-gram of the corpus is matched against them at once with sorted numpy arrays.
# segment_matrix gives the statistics of every segment as one row of integers; corpus_stats_indexed adds
# the rows up.  Corpus BLEU (fast=True), corpus_stats, system_stats and significance tests all count here.


def segment_matrix(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    *,
    max_order: int = 4,
    tokenize: str = "none",
    lowercase: bool = False,
    fast: bool = True,
):
    """The statistics of every segment as a numpy int64 array, one row per segment:

        [hyp_len, closest_ref_len, shortest_ref_len, matches_1..N, totals_1..N, empty_1..N]   (N = max_order)

    the fields of :class:`BLEUStats`, so that a row's sum over any choice of segments is the statistics
    of that choice (what a bootstrap resamples).  ``fast=False`` builds the rows from the readable
    :func:`segment_stats`; ``fast=True`` (the default) counts them with integer n-gram ids; the tests prove
    both give the same matrix.

        >>> segment_matrix(["the cat sat", "a dog"], [["the cat sat down"], ["a dog", "the dog"]], max_order=2)
        array([[3, 4, 4, 3, 2, 3, 2, 0, 0],
               [2, 2, 2, 2, 1, 2, 1, 0, 0]])
    """
    import numpy as np

    check_bool("fast", fast)
    if not fast:
        stats = segment_stats(hypotheses, references, max_order=max_order, tokenize=tokenize, lowercase=lowercase)
        return np.array([[s.hyp_len, s.closest_ref_len, s.shortest_ref_len, *s.matches, *s.totals, *s.empty]
                         for s in stats], dtype=np.int64).reshape(len(stats), 3 + 3 * max_order)
    _validate_corpus(hypotheses, references, max_order, tokenize, lowercase)
    if len(hypotheses) <= INDEXED_CHUNK:
        return _indexed_matrix(hypotheses, references, max_order, tokenize, lowercase)
    hypotheses, references = list(hypotheses), list(references)
    return np.concatenate([_indexed_matrix(hypotheses[i:i + INDEXED_CHUNK], references[i:i + INDEXED_CHUNK],
                                           max_order, tokenize, lowercase)
                           for i in range(0, len(hypotheses), INDEXED_CHUNK)])


INDEXED_CHUNK = 100_000  # segments counted at once (~0.5 GB of tables and tokens)


def corpus_stats_indexed(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    *,
    max_order: int = 4,
    tokenize: str = "none",
    lowercase: bool = False,
) -> BLEUStats:
    """:func:`corpus_stats` counted for the whole corpus at once with integer n-gram ids: the column sums
    of :func:`segment_matrix` (its reference tables cached: see ``evalkit.cache_info()``).  A corpus of
    more than ``INDEXED_CHUNK`` segments is counted a chunk of segments at a time and the sums added, so
    that the integer tables of a million segments are never all in memory at once.

        >>> corpus_stats_indexed(["the cat sat"], [["the cat sat down"]]).matches
        (3, 2, 1, 0)
    """
    _validate_corpus(hypotheses, references, max_order, tokenize, lowercase)
    if len(hypotheses) <= INDEXED_CHUNK:
        sums = _indexed_matrix(hypotheses, references, max_order, tokenize, lowercase).sum(axis=0)
    else:
        hypotheses, references = list(hypotheses), list(references)
        sums = sum(_indexed_matrix(hypotheses[i:i + INDEXED_CHUNK], references[i:i + INDEXED_CHUNK], max_order,
                                   tokenize, lowercase).sum(axis=0) for i in range(0, len(hypotheses), INDEXED_CHUNK))
    hyp_len, closest, shortest, *rest = sums.tolist()
    nrefs = set(map(len, references))
    return BLEUStats(
        hyp_len=hyp_len,
        closest_ref_len=closest,
        shortest_ref_len=shortest,
        matches=tuple(rest[:max_order]),
        totals=tuple(rest[max_order:2 * max_order]),
        empty=tuple(rest[2 * max_order:]),
        segments=len(hypotheses),
        nrefs=nrefs.pop() if len(nrefs) == 1 else None,
        tokenize=tokenize,
        lowercase=lowercase,
    )


def _indexed_matrix(hypotheses, references, max_order, tokenize, lowercase):
    """The rows of :func:`segment_matrix` of checked inputs, from the cached reference index."""
    import numpy as np

    from . import fast

    index = fast.reference_index(references, tokenize, lowercase, max_order)
    tok = fast.cached_tokenizer(tokenize)
    hyp_tokens = [fast.as_tuple(h, tok, lowercase) for h in hypotheses]
    lens = np.fromiter(map(len, hyp_tokens), dtype=np.int64, count=len(hyp_tokens))
    if all(len(r) == 1 for r in index.ref_lens):  # one reference each: closest = shortest = its length
        closest = shortest = np.fromiter((r[0] for r in index.ref_lens), dtype=np.int64, count=len(lens))
    else:
        closest = np.fromiter((r[0] if len(r) == 1 else min(r, key=lambda x: (abs(x - c), x))  # closest_ref_length
                               for c, r in zip(lens.tolist(), index.ref_lens)), dtype=np.int64, count=len(lens))
        shortest = np.fromiter(map(min, index.ref_lens), dtype=np.int64, count=len(lens))
    matches = index.matches(hyp_tokens, per_segment=True)
    totals = [np.maximum(lens - n + 1, 0) for n in range(1, max_order + 1)]
    empty = [(lens < n).astype(np.int64) for n in range(1, max_order + 1)]
    return np.column_stack([lens, closest, shortest, *matches, *totals, *empty]).reshape(len(lens), 3 + 3 * max_order)


# --------------------------------------------------------------------------------------------------------
# A corpus's statistics, either way
# --------------------------------------------------------------------------------------------------------
def corpus_stats(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    *,
    max_order: int = 4,
    tokenize: str = "none",
    lowercase: bool = False,
    fast: bool = True,
) -> BLEUStats:
    """The summed statistics of a corpus: ``sum(segment_stats(...))``, the readable way (``fast=False``).

    ``fast=True`` (the default, as scoring whole corpora is what this is for) counts the same statistics
    with :func:`corpus_stats_indexed` (integer n-gram ids, cached references); the tests prove them equal.

        >>> corpus_stats(["the cat sat"], [["the cat sat down"]], fast=False).matches
        (3, 2, 1, 0)
    """
    check_bool("fast", fast)
    if not fast:
        return sum(segment_stats(hypotheses, references, max_order=max_order, tokenize=tokenize, lowercase=lowercase))
    return corpus_stats_indexed(hypotheses, references, max_order=max_order, tokenize=tokenize, lowercase=lowercase)


def system_stats(
    systems: Mapping[str, Sequence[str | Sequence[str]]],
    references: Sequence[Sequence[str | Sequence[str]]],
    *,
    max_order: int = 4,
    tokenize: str = "none",
    lowercase: bool = False,
) -> dict[str, BLEUStats]:
    """The corpus statistics of several systems scored against the same references, by system name.

    ``corpus_stats(outputs, references, ...)`` for each system; the reference n-grams are counted once,
    for the first system, and reused for the others (:mod:`evalkit.fast` caches them).

        >>> s = system_stats({"A": ["the cat sat"], "B": ["a cat sat"]}, [["the cat sat down"]])
        >>> s["A"].matches, s["B"].matches
        ((3, 2, 1, 0), (2, 1, 0, 0))
    """
    if not isinstance(systems, Mapping):
        raise TypeError(f"systems must be a dict of system name -> list of outputs, got {type(systems).__name__}")
    if not systems:
        raise ValueError("systems is empty; give at least one system's outputs")
    out = {}
    for name, hypotheses in systems.items():
        try:  # corpus_stats keeps the reference counts of the last corpora it saw: they are counted once
            out[name] = corpus_stats(hypotheses, references, max_order=max_order, tokenize=tokenize, lowercase=lowercase)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"systems[{name!r}]: {exc}") from exc
    return out


# --------------------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Precision:
    """One order's precision: clipped ``matches`` over ``total`` hypothesis n-grams, and the ``value``
    that entered the geometric mean after smoothing (``None`` when effective order dropped the order)."""

    n: int
    matches: int
    total: int
    value: float | None

    def __repr__(self) -> str:
        return f"{self.matches}/{self.total}"


@dataclass(frozen=True)
class BLEUResult:
    """An immutable BLEU result. ``float(result)`` is the score, in [0, 1] (NLTK's methods 5 and 7 excepted)."""

    score: float
    precisions: tuple[Precision, ...]
    brevity_penalty: float
    hyp_len: int
    ref_len: int
    weights: tuple[float, ...]  # the weights used, normalized to sum 1 (after effective order)
    smoothing: str
    signature: str
    stats: BLEUStats = field(repr=False)

    def __float__(self) -> float:
        return self.score

    def __repr__(self) -> str:
        ps = ", ".join(repr(p) for p in self.precisions)
        return (
            f"BLEUResult(score={self.score:.4f}, precisions=[{ps}], bp={self.brevity_penalty:.4f}, "
            f"hyp_len={self.hyp_len}, ref_len={self.ref_len})"
        )


def _signature(stats: BLEUStats, weights, smoothing, smooth_value, effective_order, ref_length) -> str:
    uniform = all(math.isclose(w, weights[0]) for w in weights)
    wtxt = "uniform" if uniform else ",".join(f"{w:.4g}" for w in weights)
    smooth = smoothing if smooth_value is None else f"{smoothing}[{smooth_value:g}]"
    return "|".join(
        [
            f"nrefs:{stats.nrefs if stats.nrefs is not None else 'var'}",
            f"case:{'lc' if stats.lowercase else 'mixed'}",
            f"eff:{'yes' if effective_order else 'no'}",
            f"tok:{tokenizer_signature(stats.tokenize)}",  # as sacreBLEU: ja-mecab-0.996-IPA
            f"smooth:{smooth}",
            f"order:{len(weights)}",
            f"weights:{wtxt}",
            f"reflen:{ref_length}",
            f"evalkit:{__version__}",
        ]
    )


# --------------------------------------------------------------------------------------------------------
# Precisions, one small function per smoothing method
# --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PrecisionInputs:
    """What a smoothing method reads, per order n (index n-1, for the orders that carry a weight):
    clipped ``matches`` and hypothesis n-gram ``totals``; plus what single methods need.

    NLTK's methods see ``nltk_totals`` (each segment's max(1, total), summed: NLTK counts an order with
    no n-gram as 0/1), ``nltk_5grams`` (matches and totals of the 5-grams, which methods 5 and 7 average
    in after the last order) and ``hyp_ngrams`` (the hypothesis n-gram counts method 6 divides by).
    """

    matches: tuple[int, ...]
    totals: tuple[int, ...]
    hyp_len: int
    effective_order: bool = False
    smooth_value: float | None = None
    nltk_totals: tuple[int, ...] = ()
    nltk_5grams: tuple[int, int] = (0, 1)
    hyp_ngrams: tuple[int, ...] = ()


# sacreBLEU's family: p_n = matches / total; a smoothing method only says what a zero match becomes.
# Every function returns (precision per order, number of orders used): sacreBLEU stops at the first
# order with no n-grams at all, and with effective order the geometric mean uses the orders before it.
def _sacrebleu_loop(c: PrecisionInputs, matches, totals, zero_match) -> tuple[list[float], int]:
    order = len(c.matches)
    precisions, used = [0.0] * order, order
    if not any(c.matches):
        return precisions, used  # no match of any order: BLEU is 0, whatever the smoothing
    for i, (correct, total) in enumerate(zip(matches, totals)):
        if total == 0:
            break
        if c.effective_order:
            used = i + 1
        precisions[i] = correct / total if correct > 0 else zero_match(total)
    return precisions, used


def precisions_none(c: PrecisionInputs) -> tuple[list[float], int]:
    """Exact BLEU: a zero match stays 0 (and makes the score 0)."""
    return _sacrebleu_loop(c, c.matches, c.totals, lambda total: 0.0)


def precisions_floor(c: PrecisionInputs) -> tuple[list[float], int]:
    """A zero match counts as ``smooth_value`` matches (0.1 by default)."""
    return _sacrebleu_loop(c, c.matches, c.totals, lambda total: c.smooth_value / total)


def precisions_add_k(c: PrecisionInputs) -> tuple[list[float], int]:
    """``smooth_value`` (1 by default) is added to the matches and the totals of every order n > 1."""
    k = c.smooth_value
    matches = [m if i == 0 else m + k for i, m in enumerate(c.matches)]
    totals = [t if i == 0 else t + k for i, t in enumerate(c.totals)]
    return _sacrebleu_loop(c, matches, totals, lambda total: 0.0)


def precisions_exp(c: PrecisionInputs) -> tuple[list[float], int]:
    """NIST's (mteval-v13a): the k-th order with no match gets 1 / (2^k total)."""
    halving = 1.0

    def zero_match(total: int) -> float:
        nonlocal halving
        halving *= 2
        return 1 / (halving * total)

    return _sacrebleu_loop(c, c.matches, c.totals, zero_match)


# NLTK's family (Chen & Cherry 2014, as nltk.translate.bleu_score implements them), on the precisions
# num[i] / den[i] of the orders used, with den = nltk_totals.  Each returns one precision per order.
def _fractions(c: PrecisionInputs) -> list:
    return [Fraction(a, b) for a, b in zip(c.matches, c.nltk_totals)]


def nltk_method0(c: PrecisionInputs) -> list:
    """No smoothing: a zero precision becomes the smallest float, so that its log stays finite."""
    p = _fractions(c)
    return [p[i] if c.matches[i] else sys.float_info.min for i in range(len(p))]


def nltk_method1(c: PrecisionInputs) -> list:
    """A zero match counts as epsilon (0.1) matches."""
    p = _fractions(c)
    return [p[i] if c.matches[i] else (c.matches[i] + NLTK_EPSILON) / c.nltk_totals[i] for i in range(len(p))]


def nltk_method2(c: PrecisionInputs) -> list:
    """Add 1 to the matches and the totals of every order n > 1 (Lin & Och 2004)."""
    num, den = c.matches, c.nltk_totals
    return [Fraction(num[0], den[0])] + [Fraction(num[i] + 1, den[i] + 1) for i in range(1, len(num))]


def nltk_method3(c: PrecisionInputs) -> list:
    """NIST geometric sequence: the k-th order with no match gets 1 / (2^k total)."""
    p, k = _fractions(c), 1
    for i in range(len(p)):
        if c.matches[i] == 0:
            p[i] = 1 / (2**k * c.nltk_totals[i])
            k += 1
    return p


def nltk_method4(c: PrecisionInputs) -> list:
    """Like method 3, but shorter hypotheses get a larger share: 1 / (2^k K / ln(hyp_len)) / total."""
    p, k = _fractions(c), 1
    for i in range(len(p)):
        if c.matches[i] == 0 and c.hyp_len > 1:
            p[i] = (1 / (2**k * NLTK_K / math.log(c.hyp_len))) / c.nltk_totals[i]
            k += 1
    return p


def nltk_method5(c: PrecisionInputs, p: list | None = None) -> list:
    """Each precision becomes the mean of itself, the previous smoothed one (p_0 = p_1 + 1) and the next
    one (after the last order: the 5-gram precision).  NLTK averages precisions where Chen & Cherry
    average match counts, so a perfect hypothesis can score above 1; reproduced as NLTK computes it."""
    p = _fractions(c) if p is None else p
    following = p + [Fraction(*c.nltk_5grams)]  # p_{n+1} before smoothing; p_5 after the last order
    previous = p[0] + 1
    for i in range(len(p)):
        p[i] = (previous + following[i] + following[i + 1]) / 3
        previous = p[i]
    return p


def nltk_method6(c: PrecisionInputs) -> list:
    """Interpolate with the prior p_{n-1}^2 / p_{n-2} (alpha = 5), for the orders n >= 3."""
    p, num = _fractions(c), c.matches
    if len(p) < 3 or num[2] == 0:
        raise ValueError(
            "smoothing 'method6' needs at least three n-gram orders and a non-zero 3-gram precision "
            "(NLTK refuses with an AssertionError here); use another smoothing method"
        )
    for i in range(2, len(p)):
        prior = 0 if p[i - 2] == 0 else p[i - 1] ** 2 / p[i - 2]
        p[i] = (num[i] + NLTK_ALPHA * prior) / (c.hyp_ngrams[i] + NLTK_ALPHA)
    return p


def nltk_method7(c: PrecisionInputs) -> list:
    """Method 4, then method 5 on its result."""
    return nltk_method5(c, nltk_method4(c))


SACREBLEU_PRECISIONS = {
    "none": precisions_none,
    "floor": precisions_floor,
    "add-k": precisions_add_k,
    "exp": precisions_exp,
}
NLTK_PRECISIONS = {
    "method0": nltk_method0,
    "method1": nltk_method1,
    "method2": nltk_method2,
    "method3": nltk_method3,
    "method4": nltk_method4,
    "method5": nltk_method5,
    "method6": nltk_method6,
    "method7": nltk_method7,
}


def smoothed_precisions(c: PrecisionInputs, smoothing: str) -> tuple[list, int]:
    """(precision per order, number of orders used) under the smoothing method called ``smoothing``."""
    if smoothing in SACREBLEU_PRECISIONS:
        return SACREBLEU_PRECISIONS[smoothing](c)
    used = len(c.matches)
    if c.effective_order:  # keep the leading orders that have at least one hypothesis n-gram
        used = next((i for i, t in enumerate(c.totals) if t == 0), used)
    if used == 0 or c.matches[0] == 0:
        return [0.0] * used, used  # NLTK: no unigram match means BLEU 0, whatever the smoothing
    kept = replace(c, matches=c.matches[:used], totals=c.totals[:used], nltk_totals=c.nltk_totals[:used])
    return NLTK_PRECISIONS[smoothing](kept), used


def geometric_mean(precisions, weights: Sequence[float], smoothing: str) -> float:
    """exp(sum of w_n log p_n) over the weighted orders, or 0 when a weighted precision is 0 (sacreBLEU);
    NLTK's methods leave out a precision that is still 0 after smoothing instead."""
    if smoothing in SACREBLEU_PRECISIONS:
        if any(w > 0 and p == 0 for w, p in zip(weights, precisions)):
            return 0.0
        return math.exp(math.fsum(w * math.log(p) for w, p in zip(weights, precisions) if w > 0))
    if not any(p > 0 for p in precisions):
        return 0.0  # NLTK: no unigram match (then no precision is positive) means BLEU 0
    return math.exp(math.fsum(w * math.log(p) for w, p in zip(weights, precisions) if p > 0))


# --------------------------------------------------------------------------------------------------------
# Scoring: validate -> precisions -> geometric mean x brevity penalty
# --------------------------------------------------------------------------------------------------------
def _check_scoring(stats, weights, smoothing, effective_order, ref_length, smooth_value) -> tuple[float, ...]:
    if not isinstance(stats, BLEUStats):
        raise TypeError(f"stats must be BLEUStats, got {type(stats).__name__}")
    raw_weights = check_weights(weights)
    check_choice("smoothing", smoothing, SMOOTHING)
    check_choice("ref_length", ref_length, REF_LENGTHS)
    check_bool("effective_order", effective_order)
    if smooth_value is not None:
        if smoothing not in DEFAULT_SMOOTH_VALUES:
            raise ValueError(f"smooth_value applies to 'floor' and 'add-k' only, not {smoothing!r}")
        if isinstance(smooth_value, bool) or not isinstance(smooth_value, numbers.Real):
            raise TypeError(f"smooth_value must be a number, got {type(smooth_value).__name__}")
        if not (math.isfinite(smooth_value) and smooth_value >= 0):
            raise ValueError(
                f"smooth_value must be a finite number >= 0 (0 leaves a zero match a zero precision, as in "
                f"sacreBLEU), got {smooth_value!r}"
            )
        if smoothing == "floor" and smooth_value > 1:
            raise ValueError(
                f"smooth_value for 'floor' is the number of matches a zero match counts as; above 1 a precision "
                f"(smooth_value / total) could exceed 1 and BLEU with it: give a value in [0, 1] (default 0.1), "
                f"got {smooth_value!r}"
            )
    order = len(raw_weights)
    needed = max(order, 5) if smoothing in ("method5", "method7") else order
    if stats.max_order < needed:
        raise ValueError(
            f"these statistics were counted up to order {stats.max_order}, but {order} weights"
            f"{' and ' + smoothing + ' (which reads 5-grams)' if needed > order else ''} need order {needed}; "
            f"count them with max_order={needed}"
        )
    return raw_weights


def score_stats(
    stats: BLEUStats,
    *,
    weights: Sequence[float] = DEFAULT_WEIGHTS,
    smoothing: str = "none",
    effective_order: bool = False,
    ref_length: str = "closest",
    smooth_value: float | None = None,
    nltk_last_stats: BLEUStats | None = None,
) -> BLEUResult:
    """Turn sufficient statistics into a BLEU result; nothing is recounted.

    BLEU = BP x exp(sum over n of w_n log p_n), with the precisions p_n of :func:`smoothed_precisions`.

    ``nltk_last_stats``: reproduce NLTK's ``corpus_bleu``, whose smoothing methods 5-7 read their extra
    counts (the 5-gram precision, the hypothesis n-gram counts) from the *last* segment only.

    >>> s = sentence_stats("the cat sat on the mat", ["the cat is on the mat"])
    >>> round(score_stats(s, weights=(0.5, 0.5)).score, 4), round(score_stats(s, smoothing="exp").score, 4)
    (0.7071, 0.3799)
    """
    raw_weights = _check_scoring(stats, weights, smoothing, effective_order, ref_length, smooth_value)
    order = len(raw_weights)
    c, r = stats.hyp_len, stats.ref_len(ref_length)
    bp = brevity_penalty(c, r)

    last = nltk_last_stats if nltk_last_stats is not None else stats
    inputs = PrecisionInputs(
        matches=stats.matches[:order],
        totals=stats.totals[:order],
        hyp_len=c,
        effective_order=effective_order,
        smooth_value=DEFAULT_SMOOTH_VALUES.get(smoothing) if smooth_value is None else float(smooth_value),
        nltk_totals=tuple(t + e for t, e in zip(stats.totals, stats.empty))[:order],
        nltk_5grams=(last.matches[4], last.totals[4] + last.empty[4]) if last.max_order >= 5 else (0, 1),
        hyp_ngrams=last.totals,
    )
    values, used = smoothed_precisions(inputs, smoothing)

    used_weights = raw_weights[:used]
    if used == 0 or not any(w > 0 for w in used_weights):
        score = 0.0  # nothing that carries weight could be measured
        norm_weights: tuple[float, ...] = tuple(0.0 for _ in used_weights)
    else:
        norm_weights = normalize_weights(used_weights)  # safe for huge weights: (1e308, 1e308) -> (0.5, 0.5)
        score = bp * geometric_mean(values, norm_weights, smoothing)

    precisions = tuple(
        Precision(n=i + 1, matches=stats.matches[i], total=stats.totals[i], value=float(values[i]) if i < used else None)
        for i in range(order)
    )
    return BLEUResult(
        score=score,
        precisions=precisions,
        brevity_penalty=bp,
        hyp_len=c,
        ref_len=r,
        weights=norm_weights,
        smoothing=smoothing,
        signature=_signature(stats, raw_weights, smoothing, smooth_value, effective_order, ref_length),
        stats=stats,
    )


def _max_order_for(weights: tuple[float, ...], smoothing: str) -> int:
    order = len(weights)
    return max(order, 5) if smoothing in ("method5", "method7") else order


def is_weights_list(weights: Any) -> bool:
    """Whether ``weights`` is NLTK's *list of weight tuples* (``[(0.5, 0.5), (1/3, 1/3, 1/3)]``), which asks
    for one score per tuple, rather than one tuple of weights.

    >>> is_weights_list([(0.5, 0.5), (1, 1, 1)]), is_weights_list((0.5, 0.5))
    (True, False)
    """
    return (
        isinstance(weights, (list, tuple))
        and len(weights) > 0
        and all(isinstance(w, Sequence) and not isinstance(w, (str, bytes)) for w in weights)
    )


def _checked_weights(weights: Any) -> list[tuple[float, ...]]:
    """Every tuple of weights asked for: NLTK's list of tuples, or one tuple (read once, checked)."""
    if is_weights_list(weights):
        checked = []
        for k, ws in enumerate(weights):
            try:
                checked.append(check_weights(ws))
            except (TypeError, ValueError) as exc:
                raise type(exc)(f"weights[{k}]: {exc}") from exc
        return checked
    return [check_weights(weights)]


def _bool_options(**options: Any) -> None:
    for name, value in options.items():
        check_bool(name, value)


def sentence_bleu(
    hypothesis: str | Sequence[str],
    references: Sequence[str | Sequence[str]],
    *,
    weights: Sequence[float] | Sequence[Sequence[float]] = DEFAULT_WEIGHTS,
    smoothing: str = "none",
    tokenize: str = "none",
    lowercase: bool = False,
    effective_order: bool = False,
    ref_length: str = "closest",
    smooth_value: float | None = None,
) -> BLEUResult | list[BLEUResult]:
    """BLEU of one hypothesis against its references (hypothesis first, then a list of references).

    A hypothesis or reference is a string (split by ``tokenize``) or a sequence of tokens (used as it is).
    Chinese or Japanese text that ``tokenize`` leaves unsplit (e.g. under ``"13a"``) gives a
    :class:`~evalkit.tokenize.TokenizationWarning` naming ``tokenize="unicode-cjk"`` and ``"char"``.

    ``weights`` may also be NLTK's list of weight tuples: then the statistics are counted once and the
    result is a list, one :class:`BLEUResult` per tuple (NLTK returns a list of floats there).

    >>> [round(r.score, 4) for r in sentence_bleu("the cat sat on the mat", ["the cat is on the mat"],
    ...                                           weights=[(1,), (0.5, 0.5)])]
    [0.8333, 0.7071]
    """
    check_choice("smoothing", smoothing, SMOOTHING)
    _bool_options(lowercase=lowercase, effective_order=effective_order)
    all_weights = _checked_weights(weights)
    max_order = max(_max_order_for(ws, smoothing) for ws in all_weights)
    stats = sentence_stats(hypothesis, references, max_order=max_order, tokenize=tokenize, lowercase=lowercase)
    results = [
        score_stats(
            stats,
            weights=ws,
            smoothing=smoothing,
            effective_order=effective_order,
            ref_length=ref_length,
            smooth_value=smooth_value,
        )
        for ws in all_weights
    ]
    warn_about_tokenization([hypothesis, *references], tokenize, char_option="char")
    return results if is_weights_list(weights) else results[0]


def corpus_bleu(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    *,
    weights: Sequence[float] | Sequence[Sequence[float]] = DEFAULT_WEIGHTS,
    smoothing: str = "none",
    tokenize: str = "none",
    lowercase: bool = False,
    effective_order: bool = False,
    ref_length: str = "closest",
    smooth_value: float | None = None,
    nltk_last_hypothesis: bool = False,
    fast: bool = True,
) -> BLEUResult | list[BLEUResult]:
    """Corpus BLEU: the score of the *summed* statistics of all segments (not the mean of sentence scores).

    ``references[i]`` is the list of references of ``hypotheses[i]`` (segment-major, like NLTK).
    sacreBLEU takes the transpose: one list per reference *set*, each as long as the corpus.

    The steps, for ``fast=False`` exactly as written (:func:`segment_stats`, then :func:`score_stats`):

    1. Split each hypothesis and reference into tokens (``tokenize``; token lists are used as they are).
    2. For each segment and each order n = 1..N: the hypothesis n-grams (``totals``) and the clipped
       ``matches``, each n-gram counted at most as often as one reference has it
       (:func:`evalkit.ngrams.clipped_matches`); the hypothesis length and the reference length closest
       to it (:func:`closest_ref_length`).
    3. Add these counts up over the corpus (:class:`BLEUStats` are additive): c and r are the summed lengths.
    4. Score the sums (:func:`score_stats`): p_n = matches_n / totals_n (smoothed if asked:
       :func:`smoothed_precisions`), the brevity penalty BP = 1 if c > r else exp(1 - r/c)
       (:func:`brevity_penalty`), and

           BLEU = BP * exp(sum over n of w_n log p_n)          (:func:`geometric_mean`)

    ``fast=True`` (the default) gets the sums of steps 1-3 for the whole corpus at once with integer n-gram
    ids (:func:`corpus_stats_indexed`, the sums of :func:`segment_matrix`); the tests prove both equal.

    ``weights`` may be NLTK's list of weight tuples: the corpus is counted once and the result is a list,
    one :class:`BLEUResult` per tuple.

    ``nltk_last_hypothesis=True`` reproduces a bug of NLTK's ``corpus_bleu``: its smoothing methods 5, 6
    and 7 take their extra counts from the last hypothesis only.  The default uses the whole corpus.

    Chinese or Japanese text that ``tokenize`` leaves unsplit gives one
    :class:`~evalkit.tokenize.TokenizationWarning`; to stay cheap, only the texts of at most 100 segments
    spread over the corpus are looked at (:func:`evalkit.tokenize.spread_indices`).

        >>> round(corpus_bleu(["the cat sat on the mat", "a dog"], [["the cat is on the mat"], ["a dog"]],
        ...                   weights=(0.5, 0.5)).score, 4)
        0.7638
    """
    check_choice("smoothing", smoothing, SMOOTHING)
    _bool_options(lowercase=lowercase, effective_order=effective_order, nltk_last_hypothesis=nltk_last_hypothesis,
                  fast=fast)
    all_weights = _checked_weights(weights)
    max_order = max(_max_order_for(ws, smoothing) for ws in all_weights)
    if fast:  # the sums of steps 1-3, from the whole-corpus integer tables
        total = corpus_stats_indexed(hypotheses, references, max_order=max_order, tokenize=tokenize, lowercase=lowercase)
    else:  # steps 1-3, one segment at a time
        total = sum(segment_stats(hypotheses, references, max_order=max_order, tokenize=tokenize, lowercase=lowercase))
    last = None
    if nltk_last_hypothesis:  # only then is the last segment needed on its own
        last = segment_stats(hypotheses[-1:], references[-1:], max_order=max_order, tokenize=tokenize,
                             lowercase=lowercase)[0]
    results = [  # step 4
        score_stats(
            total,
            weights=ws,
            smoothing=smoothing,
            effective_order=effective_order,
            ref_length=ref_length,
            smooth_value=smooth_value,
            nltk_last_stats=last,
        )
        for ws in all_weights
    ]
    warn_about_corpus_tokenization(hypotheses, references, tokenize, char_option="char")
    return results if is_weights_list(weights) else results[0]


# --------------------------------------------------------------------------------------------------------
# The metric protocol (evalkit.protocol): what significance tests and bootstraps use
# --------------------------------------------------------------------------------------------------------
# A row is BLEUStats.row(): hyp_len, closest_ref_len, shortest_ref_len, matches_1..N, totals_1..N, empty_1..N.
# Rows add up over segments; score_row and score_rows turn a sum back into BLEU.
METRIC_OPTIONS = frozenset(
    {"weights", "smoothing", "tokenize", "lowercase", "effective_order", "ref_length", "smooth_value"}
)
_SCORE_OPTIONS = ("weights", "smoothing", "effective_order", "ref_length", "smooth_value")


def corpus_rows(corpora: Sequence[Sequence[Any]], references: Sequence[Any], options: dict, fast: bool = True) -> list:
    """One :func:`segment_matrix` per corpus, for :func:`corpus_bleu`'s keyword ``options``."""
    check_weights(options.get("weights", DEFAULT_WEIGHTS))
    check_choice("smoothing", options.get("smoothing", "none"), SMOOTHING)
    order = len(options.get("weights", DEFAULT_WEIGHTS))
    if options.get("smoothing") in ("method5", "method7"):  # these look one order beyond the last weight
        order = max(order, 5)
    tokenize, lowercase = options.get("tokenize", "none"), options.get("lowercase", False)
    check_tokenize(tokenize)
    check_bool("lowercase", lowercase)
    return [segment_matrix(c, references, max_order=order, tokenize=tokenize, lowercase=lowercase, fast=fast)
            for c in corpora]


def score_row(row: Sequence[int], options: dict) -> float:
    """The readable way: the summed row as :class:`BLEUStats`, scored by :func:`score_stats`."""
    stats = BLEUStats.from_row([int(x) for x in row])
    return score_stats(stats, **{k: options[k] for k in _SCORE_OPTIONS if k in options}).score


def score_rows(rows, options: dict, float32: bool = False):
    """The BLEU of many summed rows at once (numpy), step for step as :func:`score_stats` computes it
    (the same floats; tests/test_bleu.py proves it), for sacreBLEU's smoothing family.

    ``float32=True`` rounds each precision as sacreBLEU does when it scores resampled float32 statistics.
    Returns ``None`` for NLTK's smoothing methods (they are scored row by row).
    """
    import numpy as np

    smoothing = options.get("smoothing", "none")
    if smoothing not in SACREBLEU_SMOOTHING:
        return None
    weights = np.array(options.get("weights", DEFAULT_WEIGHTS), dtype=np.float64)
    order = len(weights)
    smooth_value = options.get("smooth_value")
    k = DEFAULT_SMOOTH_VALUES.get(smoothing) if smooth_value is None else float(smooth_value)
    effective = options.get("effective_order", False)
    stored = (rows.shape[1] - 3) // 3
    c = rows[:, 0].astype(np.float64)
    r = rows[:, 1 if options.get("ref_length", "closest") == "closest" else 2].astype(np.float64)
    matches = rows[:, 3 : 3 + order].astype(np.float64)
    totals = rows[:, 3 + stored : 3 + stored + order].astype(np.float64)
    m = len(rows)

    with np.errstate(divide="ignore", invalid="ignore"):
        bp = np.where(c > r, 1.0, np.where(c == 0, 0.0, np.exp(1 - r / np.where(c == 0, 1, c))))
    values = np.zeros((m, order))
    used = np.full(m, order)
    going = matches.sum(axis=1) > 0  # no match at all: BLEU is 0
    halving = np.ones(m)
    f32 = np.float32
    for i in range(order):
        correct, total = matches[:, i], totals[:, i]
        if smoothing == "add-k" and i > 0:
            correct, total = correct + k, total + k
            if float32:
                correct = (matches[:, i].astype(f32) + f32(k)).astype(np.float64)
                total = (totals[:, i].astype(f32) + f32(k)).astype(np.float64)
        going = going & (total != 0)  # no n-grams of this order: stop here
        if effective:
            used = np.where(going, i + 1, used)
        hit = going & (correct > 0)
        miss = going & (correct == 0)
        safe_total = np.where(total == 0, 1.0, total)
        if float32:  # sacreBLEU computes 100 * correct / total in float32, then BLEU in percent
            p = (f32(100) * correct.astype(f32) / safe_total.astype(f32)).astype(np.float64) / 100
        else:
            p = correct / safe_total
        values[:, i] = np.where(hit, p, 0.0)
        if smoothing == "exp":
            halving = np.where(miss, halving * 2, halving)
            if float32:
                q = (f32(100) / (halving.astype(f32) * safe_total.astype(f32))).astype(np.float64) / 100
            else:
                q = 1 / (halving * safe_total)
            values[:, i] = np.where(miss, q, values[:, i])
        elif smoothing == "floor":
            if float32:
                q = (f32(100 * k) / safe_total.astype(f32)).astype(np.float64) / 100
            else:
                q = k / safe_total
            values[:, i] = np.where(miss, q, values[:, i])

    w = np.where(np.arange(order)[None, :] < used[:, None], weights[None, :], 0.0)
    w_sum = w.sum(axis=1, keepdims=True)
    w = w / np.where(w_sum == 0, 1, w_sum)
    zero = ((w > 0) & (values == 0)).any(axis=1) | (w_sum[:, 0] == 0)
    logs = np.log(np.where(values > 0, values, 1.0))
    return np.where(zero, 0.0, bp * np.exp((w * logs).sum(axis=1)))


METRIC = register_metric(Metric("bleu", METRIC_OPTIONS, corpus_rows, score_row, score_rows))


__all__ = [
    "BLEUStats",
    "BLEUResult",
    "Precision",
    "SMOOTHING",
    "REF_LENGTHS",
    "brevity_penalty",
    "closest_ref_length",
    "corpus_bleu",
    "corpus_rows",
    "corpus_stats",
    "corpus_stats_indexed",
    "is_weights_list",
    "score_row",
    "score_rows",
    "score_stats",
    "segment_matrix",
    "segment_stats",
    "segment_tokens",
    "sentence_bleu",
    "sentence_stats",
    "stats_from_tokens",
    "system_stats",
]

