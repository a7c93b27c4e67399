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
import sys
from collections.abc import Mapping, Sequence
from itertools import chain
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from . import __version__
from ._checks import (
    as_tokens,
    check_choice,
    check_corpus,
    check_int,
    check_references,
    check_same_length,
    check_text,
    check_weights,
)
from .ngrams import clipped_matches
from .tokenize import TOKENIZERS, get_tokenizer

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
class BLEUStats:
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
    segments: int = 1
    nrefs: int | None = 1  # None when segments have different numbers of references
    tokenize: str = "none"
    lowercase: bool = False

    @property
    def max_order(self) -> int:
        return len(self.matches)

    def ref_len(self, rule: str = "closest") -> int:
        check_choice("ref_length", rule, REF_LENGTHS)
        return self.closest_ref_len if rule == "closest" else self.shortest_ref_len

    def __add__(self, other: BLEUStats) -> BLEUStats:
        if not isinstance(other, BLEUStats):
            return NotImplemented
        if self.max_order != other.max_order:
            raise ValueError(f"cannot add statistics of max order {self.max_order} and {other.max_order}")
        if (self.tokenize, self.lowercase) != (other.tokenize, other.lowercase):
            raise ValueError("cannot add statistics counted with different tokenization or casing")
        return BLEUStats(
            hyp_len=self.hyp_len + other.hyp_len,
            closest_ref_len=self.closest_ref_len + other.closest_ref_len,
            shortest_ref_len=self.shortest_ref_len + other.shortest_ref_len,
            matches=tuple(a + b for a, b in zip(self.matches, other.matches)),
            totals=tuple(a + b for a, b in zip(self.totals, other.totals)),
            empty=tuple(a + b for a, b in zip(self.empty, other.empty)),
            segments=self.segments + other.segments,
            nrefs=self.nrefs if self.nrefs == other.nrefs else None,
            tokenize=self.tokenize,
            lowercase=self.lowercase,
        )

    def __radd__(self, other: Any) -> BLEUStats:
        if other == 0:  # lets the built-in sum() start from 0
            return self
        return NotImplemented


def closest_ref_length(ref_lens: Sequence[int], hyp_len: int) -> int:
    """The reference length nearest to ``hyp_len``; on a tie, the shorter one (NLTK and sacreBLEU agree)."""
    return min(ref_lens, key=lambda r: (abs(r - hyp_len), r))


def brevity_penalty(hyp_len: int, ref_len: int) -> float:
    """BP = 1 if c > r, else exp(1 - r/c); 0 for an empty hypothesis (c = 0)."""
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
    """Count the statistics of one already-tokenized segment."""
    matches, totals, empty = [], [], []
    for n in range(1, max_order + 1):
        matched, total = clipped_matches(hypothesis, references, n)
        matches.append(matched)
        totals.append(total)
        empty.append(1 if total == 0 else 0)
    ref_lens = [len(r) for r in references]
    return BLEUStats(
        hyp_len=len(hypothesis),
        closest_ref_len=closest_ref_length(ref_lens, len(hypothesis)),
        shortest_ref_len=min(ref_lens),
        matches=tuple(matches),
        totals=tuple(totals),
        empty=tuple(empty),
        nrefs=len(references),
        tokenize=tokenize,
        lowercase=lowercase,
    )


def _segment_tokens(hypothesis: Any, references: Any, tokenize: str, lowercase: bool, where: str = ""):
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
    check_choice("tokenizer", tokenize, TOKENIZERS)
    hyp, refs = _segment_tokens(hypothesis, references, tokenize, lowercase)
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
    check_choice("tokenizer", tokenize, TOKENIZERS)
    check_corpus("hypotheses", hypotheses)
    check_corpus("references", references)
    check_same_length(hypotheses=hypotheses, references=references)
    out = []
    for i, (hyp, refs) in enumerate(zip(hypotheses, references)):
        hyp_tokens, ref_tokens = _segment_tokens(hyp, refs, tokenize, lowercase, where=f"[{i}]")
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


def _validate_corpus(hypotheses, references, max_order, tokenize) -> None:
    check_int("max_order", max_order, 1)
    check_choice("tokenizer", tokenize, TOKENIZERS)
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


def _corpus_stats(hypotheses, references, max_order, tokenize, lowercase, fast) -> BLEUStats:
    """The summed statistics of a corpus, counted the readable or the fast way."""
    if not fast:
        return sum(segment_stats(hypotheses, references, max_order=max_order, tokenize=tokenize, lowercase=lowercase))
    from .fast import corpus_counts_vectorized  # the second implementation; tests prove it equal

    _validate_corpus(hypotheses, references, max_order, tokenize)
    total = corpus_counts_vectorized(hypotheses, references, max_order, tokenize, lowercase)
    return BLEUStats(segments=len(hypotheses), tokenize=tokenize, lowercase=lowercase, **total)


def corpus_stats(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    *,
    max_order: int = 4,
    tokenize: str = "none",
    lowercase: bool = False,
    fast: bool = True,
) -> BLEUStats:
    """The summed statistics of a corpus: equal to ``sum(segment_stats(...))``.

    ``fast=True`` counts with :mod:`evalkit.fast` (cached references, integer n-gram ids); ``fast=False``
    adds up :func:`segment_stats`, the readable way.  Both give the same statistics.
    """
    return _corpus_stats(hypotheses, references, max_order, tokenize, lowercase, fast)


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
            f"tok:{stats.tokenize}",
            f"smooth:{smooth}",
            f"order:{len(weights)}",
            f"weights:{wtxt}",
            f"reflen:{ref_length}",
            f"evalkit:{__version__}",
        ]
    )


# --------------------------------------------------------------------------------------------------------
# Smoothing: sacreBLEU's family
# --------------------------------------------------------------------------------------------------------
def _sacrebleu_precisions(matches, totals, smoothing, smooth_value, effective_order):
    """sacreBLEU's procedure: returns (precision per order, number of orders used)."""
    order = len(matches)
    precisions = [0.0] * order
    used = order
    halving = 1.0  # 'exp': 1/2, 1/4, ... of a match for each successive zero (NIST mteval-v13a)
    for i in range(order):
        correct, total = matches[i], totals[i]
        if smoothing == "add-k" and i > 0:
            correct, total = correct + smooth_value, total + smooth_value
        if total == 0:
            break  # no n-grams of this order: stop (with effective order, the mean uses the orders so far)
        if effective_order:
            used = i + 1
        if correct > 0:
            precisions[i] = correct / total
        elif smoothing == "exp":
            halving *= 2
            precisions[i] = 1 / (halving * total)
        elif smoothing == "floor":
            precisions[i] = smooth_value / total
    return precisions, used


# --------------------------------------------------------------------------------------------------------
# Smoothing: NLTK's family (Chen & Cherry 2014, as nltk.translate.bleu_score implements them)
# --------------------------------------------------------------------------------------------------------
def _nltk_precisions(method: int, num, den, hyp_len, extra_num5, extra_den5, hyp_totals):
    """NLTK's smoothing ``method`` on precisions num[i]/den[i] (den already floored at 1 per segment).

    ``extra_num5/extra_den5`` is the 5-gram precision that method 5 averages in after the last order;
    ``hyp_totals`` are the hypothesis n-gram counts that method 6 divides by.
    """
    p = [Fraction(a, b) for a, b in zip(num, den)]
    if method == 0:
        # No smoothing: a zero precision becomes the smallest float, so the log stays finite.
        return [p[i] if num[i] else sys.float_info.min for i in range(len(p))]
    if method == 1:
        return [p[i] if num[i] else (num[i] + NLTK_EPSILON) / den[i] for i in range(len(p))]
    if method == 2:
        return [p[0]] + [Fraction(num[i] + 1, den[i] + 1) for i in range(1, len(p))]
    if method == 3:
        k = 1
        for i in range(len(p)):
            if num[i] == 0:
                p[i] = 1 / (2**k * den[i])
                k += 1
        return p
    if method == 4 or method == 7:
        k = 1
        for i in range(len(p)):
            if num[i] == 0 and hyp_len > 1:
                p[i] = (1 / (2**k * NLTK_K / math.log(hyp_len))) / den[i]
                k += 1
        if method == 4:
            return p
    if method == 5 or method == 7:
        following = p + [Fraction(extra_num5, extra_den5)]  # p_{n+1} before smoothing; p_5 after the last
        previous = p[0] + 1
        for i in range(len(p)):
            p[i] = (previous + following[i] + following[i + 1]) / 3
            previous = p[i]
        return p
    if method == 6:
        if len(p) < 3 or num[2] == 0:
            raise ValueError(
                "smoothing 'method6' needs at least three n-gram orders and a non-zero 3-gram precision "
                "(NLTK refuses with an AssertionError here); use another smoothing method"
            )
        for i in range(2, len(p)):
            prior = 0 if p[i - 2] == 0 else p[i - 1] ** 2 / p[i - 2]
            p[i] = (num[i] + NLTK_ALPHA * prior) / (hyp_totals[i] + NLTK_ALPHA)
        return p
    raise AssertionError(method)  # unreachable: the name was checked


# --------------------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------------------
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

    ``nltk_last_stats``: reproduce NLTK's ``corpus_bleu``, whose smoothing methods 5-7 read their extra
    counts (the 5-gram precision, the hypothesis n-gram counts) from the *last* segment only.
    """
    if not isinstance(stats, BLEUStats):
        raise TypeError(f"stats must be BLEUStats, got {type(stats).__name__}")
    raw_weights = check_weights(weights)
    check_choice("smoothing", smoothing, SMOOTHING)
    check_choice("ref_length", ref_length, REF_LENGTHS)
    if not isinstance(effective_order, bool):
        raise TypeError(f"effective_order must be True or False, got {effective_order!r}")
    if smooth_value is not None:
        if smoothing not in DEFAULT_SMOOTH_VALUES:
            raise ValueError(f"smooth_value applies to 'floor' and 'add-k' only, not {smoothing!r}")
        if isinstance(smooth_value, bool) or not isinstance(smooth_value, (int, float)) or not smooth_value > 0:
            raise ValueError(f"smooth_value must be a positive number, got {smooth_value!r}")
    order = len(raw_weights)
    needed = max(order, 5) if smoothing in ("method5", "method7") else order
    if stats.max_order < needed:
        raise ValueError(
            f"these statistics were counted up to order {stats.max_order}, but {order} weights"
            f"{' and ' + smoothing + ' (which reads 5-grams)' if needed > order else ''} need order {needed}; "
            f"count them with max_order={needed}"
        )

    c, r = stats.hyp_len, stats.ref_len(ref_length)
    bp = brevity_penalty(c, r)
    matches, totals = stats.matches[:order], stats.totals[:order]

    if smoothing in SACREBLEU_SMOOTHING:
        value = DEFAULT_SMOOTH_VALUES.get(smoothing) if smooth_value is None else float(smooth_value)
        if not any(matches):
            values, used = [0.0] * order, order
        else:
            values, used = _sacrebleu_precisions(matches, totals, smoothing, value, effective_order)
    else:
        used = order
        if effective_order:  # keep the leading orders that have at least one hypothesis n-gram
            used = next((i for i, t in enumerate(totals) if t == 0), order)
        if used == 0 or matches[0] == 0:
            values = [0.0] * used  # NLTK: no unigram match means BLEU 0, whatever the smoothing
        else:
            last = nltk_last_stats if nltk_last_stats is not None else stats
            den = [t + e for t, e in zip(stats.totals, stats.empty)]  # NLTK's per-segment max(1, total)
            last_den5 = last.totals[4] + last.empty[4] if last.max_order >= 5 else 1
            values = _nltk_precisions(
                int(smoothing[-1]),
                list(matches[:used]),
                den[:used],
                c,
                last.matches[4] if last.max_order >= 5 else 0,
                last_den5,
                last.totals,
            )

    used_weights = raw_weights[:used]
    weight_sum = math.fsum(used_weights)
    if used == 0 or weight_sum == 0:
        score = 0.0  # nothing that carries weight could be measured
        norm_weights: tuple[float, ...] = tuple(0.0 for _ in used_weights)
    else:
        norm_weights = tuple(w / weight_sum for w in used_weights)
        if smoothing in SACREBLEU_SMOOTHING:
            if any(w > 0 and p == 0 for w, p in zip(norm_weights, values)):
                score = 0.0
            else:
                score = bp * math.exp(math.fsum(w * math.log(p) for w, p in zip(norm_weights, values) if w > 0))
        elif not values or matches[0] == 0:
            score = 0.0
        else:
            # NLTK leaves out any precision that is still 0 after smoothing.
            score = bp * math.exp(math.fsum(w * math.log(p) for w, p in zip(norm_weights, values) if p > 0))

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


def _max_order_for(weights: Any, smoothing: str) -> int:
    order = len(check_weights(weights))
    return max(order, 5) if smoothing in ("method5", "method7") else order


def sentence_bleu(
    hypothesis: str | Sequence[str],
    references: Sequence[str | Sequence[str]],
    *,
    weights: Sequence[float] = DEFAULT_WEIGHTS,
    smoothing: str = "none",
    tokenize: str = "none",
    lowercase: bool = False,
    effective_order: bool = False,
    ref_length: str = "closest",
    smooth_value: float | None = None,
) -> BLEUResult:
    """BLEU of one hypothesis against its references (hypothesis first, then a list of references).

    A hypothesis or reference is a string (split by ``tokenize``) or a sequence of tokens (used as it is).
    """
    check_choice("smoothing", smoothing, SMOOTHING)
    stats = sentence_stats(
        hypothesis, references, max_order=_max_order_for(weights, smoothing), tokenize=tokenize, lowercase=lowercase
    )
    return score_stats(
        stats,
        weights=weights,
        smoothing=smoothing,
        effective_order=effective_order,
        ref_length=ref_length,
        smooth_value=smooth_value,
    )


def corpus_bleu(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    *,
    weights: Sequence[float] = DEFAULT_WEIGHTS,
    smoothing: str = "none",
    tokenize: str = "none",
    lowercase: bool = False,
    effective_order: bool = False,
    ref_length: str = "closest",
    smooth_value: float | None = None,
    nltk_last_hypothesis: bool = False,
    fast: bool = True,
) -> BLEUResult:
    """Corpus BLEU: the score of the summed statistics of all segments.

    ``references[i]`` is the list of references of ``hypotheses[i]`` (segment-major, like NLTK).
    sacreBLEU takes the transpose: one list per reference *set*, each as long as the corpus.

    ``nltk_last_hypothesis=True`` reproduces a bug of NLTK's ``corpus_bleu``: its smoothing methods 5, 6
    and 7 take their extra counts from the last hypothesis only.  The default uses the whole corpus.

    ``fast=False`` counts segment by segment with the readable :func:`segment_stats` (same numbers, slower).
    """
    check_choice("smoothing", smoothing, SMOOTHING)
    max_order = _max_order_for(weights, smoothing)
    total = _corpus_stats(hypotheses, references, max_order, tokenize, lowercase, fast)
    last = None
    if nltk_last_hypothesis:  # only then is the last segment needed on its own
        last = segment_stats(hypotheses[-1:], references[-1:], max_order=max_order, tokenize=tokenize,
                             lowercase=lowercase)[0]
    return score_stats(
        total,
        weights=weights,
        smoothing=smoothing,
        effective_order=effective_order,
        ref_length=ref_length,
        smooth_value=smooth_value,
        nltk_last_stats=last,
    )


__all__ = [
    "BLEUStats",
    "BLEUResult",
    "Precision",
    "SMOOTHING",
    "REF_LENGTHS",
    "brevity_penalty",
    "closest_ref_length",
    "corpus_bleu",
    "corpus_stats",
    "score_stats",
    "segment_stats",
    "sentence_bleu",
    "sentence_stats",
    "stats_from_tokens",
    "system_stats",
]

