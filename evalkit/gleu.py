"""GLEU for grammatical error correction (Napoles et al. 2015, 2016), and its command line.

**GEC GLEU** reads three texts: the system's correction (the *hypothesis*), one or more human corrections
(the *references*) and the uncorrected *source*.  Like BLEU it counts n-grams the hypothesis shares with a
reference, but it also subtracts the n-grams the hypothesis *kept from the source* although the reference
changed them, so that copying the input does not score well.

The computation has two halves, kept apart (as in :mod:`evalkit.bleu`):

1. **Counting** (:func:`sentence_stats`): for one sentence and *one* reference, per n-gram order:
   matches, source penalty, numerator (matches - penalty, floored at 0 for the sentence) and the number
   of hypothesis n-grams, plus the two lengths.  These statistics add up over a corpus.
2. **Scoring** (:func:`score_stats`): precisions p_n = numerator / hypothesis n-grams, their geometric
   mean, times BLEU's brevity penalty.

With several references the official script (``compute_gleu``, "GLEU Without Tuning", 2016) picks *one*
reference per sentence at random, scores the corpus, repeats this 500 times and reports the mean.
Iteration j is seeded with ``j * 101`` under Python 2; :func:`script_reference_indices` reproduces the
draws, so :func:`corpus_gleu` reproduces the JFLEG leaderboard's SOURCE row (two decimals, keisks/jfleg
``README.md``) and gleu 1.1.0's ``gleu -f -d 4`` output (four).

    >>> source = "She go to the school every day ."
    >>> reference = "She goes to school every day ."
    >>> s = sentence_stats(source, [reference], source, max_order=2)[0]  # the system copied the source
    >>> s.matches, s.penalties, s.numerators, s.totals
    ((6, 3), (2, 4), (4, 0), (8, 7))
    >>> float(sentence_gleu(source, [reference], source, max_order=2))  # copying scores 0
    0.0
    >>> float(sentence_gleu(reference, [reference], source))  # the correction scores 1
    1.0

Google's GLEU (Wu et al. 2016), a different metric with the same name, is in :mod:`evalkit.google_bleu`.
"""

from __future__ import annotations

import math
import numbers
import random
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ._checks import (
    as_tokens,
    check_bool,
    check_choice,
    check_corpus,
    check_int,
    check_references,
    check_same_length,
    check_text,
)
from .ngrams import ngram_counts
from .protocol import AdditiveStats, Metric, register_metric, segment_count, setting
from .tokenize import check_tokenize, get_tokenizer, warn_about_corpus_tokenization, warn_about_tokenization

DEFAULT_ORDER = 4
DEFAULT_ITERATIONS = 500  # the official script's default
FORMULAS = ("code", "paper")  # the penalty of the official code (default) or of the 2016 paper
MODES = ("sample", "max")  # corpus: sample one reference per sentence, or take the best (gleu -m)
SENTENCE_MODES = ("mean", "max")  # sentence: mean or max over the references
CLI_TOKENS = {"word": "none", "char": "char-with-spaces"}  # the gleu command's -t choices, by tokenizer name
SMOOTHING = ("none", "official")  # "official": the script's sentence-level smoothing (zero counts -> 1)
# The 97.5% quantile of the standard normal distribution: the script's 95% interval is mean +- Z95 * std
# (it calls scipy.stats.norm.interval(0.95, loc=mean, scale=std)).
Z95 = statistics.NormalDist().inv_cdf(0.975)


# --------------------------------------------------------------------------------------------------------
# Tokens
# --------------------------------------------------------------------------------------------------------
def as_units(value: Any, what: str, tokenize: str = "none") -> tuple[str, ...]:
    """The units GLEU counts: a string split by the tokenizer called ``tokenize`` (``"none"``: words split
    on white space, the default; ``"char-with-spaces"``: every character, as ``gleu -t char``).

    A sequence of tokens is used as it is, except for ``"char-with-spaces"``, which joins it with spaces
    first.  ``what`` names the text in error messages.

    >>> as_units("a cat", "hypothesis"), as_units(["a", "cat"], "hypothesis", "char-with-spaces")
    (('a', 'cat'), ('a', ' ', 'c', 'a', 't'))
    """
    check_text(value, what)
    if tokenize == "char-with-spaces" and not isinstance(value, str):
        value = " ".join(value)
    return as_tokens(value, what, get_tokenizer(tokenize))


# --------------------------------------------------------------------------------------------------------
# Counting: the source penalty, one n-gram at a time
# --------------------------------------------------------------------------------------------------------
def source_penalty(hypothesis_count: int, reference_count: int, source_count: int, formula: str = "code") -> int:
    """The penalty one n-gram earns, from its counts in the hypothesis, the reference and the source.

    - ``"code"`` (the official script, and the published numbers): an n-gram the reference does *not*
      contain is penalized once for each time the hypothesis kept it from the source,
      ``min(source, hypothesis)``; an n-gram the reference contains is never penalized.
    - ``"paper"`` ("GLEU Without Tuning", 2016): ``max(0, min(hyp, source) - min(hyp, reference))``, the
      source copies beyond what the reference can account for.

    >>> source_penalty(3, 1, 2, "code"), source_penalty(3, 1, 2, "paper")  # hypothesis 3, reference 1, source 2
    (0, 1)
    """
    if formula == "code":
        return 0 if reference_count > 0 else min(source_count, hypothesis_count)
    if formula == "paper":
        return max(0, min(hypothesis_count, source_count) - min(hypothesis_count, reference_count))
    check_choice("formula", formula, FORMULAS)
    raise AssertionError  # unreachable


def count_order(hyp: Counter, ref: Counter, src: Counter, formula: str = "code") -> tuple[int, int, int]:
    """(matches, penalty, hypothesis n-grams) from the n-gram counts of one order.

    matches = sum over hypothesis n-grams of min(hyp count, reference count), as in BLEU;
    penalty = sum of :func:`source_penalty` over the hypothesis n-grams.
    """
    matches = penalty = total = 0
    for gram, count in hyp.items():
        in_ref = ref.get(gram, 0)
        matches += min(count, in_ref)
        penalty += source_penalty(count, in_ref, src.get(gram, 0), formula)
        total += count
    return matches, penalty, total


def order_counts(
    hypothesis: Sequence[str], reference: Sequence[str], source: Sequence[str], n: int, formula: str = "code"
) -> tuple[int, int, int]:
    """(matches, penalty, hypothesis n-grams) of order ``n`` for one sentence and one reference."""
    return count_order(ngram_counts(hypothesis, n), ngram_counts(reference, n), ngram_counts(source, n), formula)


@dataclass(frozen=True)
class GLEUStats(AdditiveStats):
    """Additive counts for one sentence against one reference, or their sum over a corpus.

    Per order n (index n-1): ``matches`` (clipped matches with the reference), ``penalties`` (source
    penalty before the floor), ``numerators`` (each sentence's max(0, matches - penalty), summed: the
    floor is applied per sentence, *before* summing) and ``totals`` (hypothesis n-grams, the denominator).
    """

    hyp_len: int
    ref_len: int
    matches: tuple[int, ...]
    penalties: tuple[int, ...]
    numerators: tuple[int, ...]
    totals: tuple[int, ...]
    segments: int = segment_count()
    formula: str = setting("code", "formulas")
    tokenize: str = setting("none", "tokenizers")

    @property
    def max_order(self) -> int:
        return len(self.matches)


def stats_from_tokens(
    hypothesis: Sequence[str],
    reference: Sequence[str],
    source: Sequence[str],
    max_order: int = DEFAULT_ORDER,
    *,
    formula: str = "code",
    tokenize: str = "none",
) -> GLEUStats:
    """Count the statistics of one tokenized sentence against one reference (``tokenize``: the tokenizer it
    was split with, kept in the statistics and checked)."""
    check_tokenize(tokenize)
    return _stats_from_counts(
        _counts_by_order(hypothesis, max_order),
        _counts_by_order(reference, max_order),
        _counts_by_order(source, max_order),
        len(hypothesis),
        len(reference),
        formula,
        tokenize,
    )


def _counts_by_order(tokens: Sequence[str], max_order: int) -> list[Counter]:
    return [ngram_counts(tokens, n) for n in range(1, max_order + 1)]


def _stats_from_counts(hyp, ref, src, hyp_len: int, ref_len: int, formula: str, tokenize: str) -> GLEUStats:
    """The work of :func:`stats_from_tokens`, on n-gram counts already made (hypothesis and source are
    counted once per sentence, not once per reference)."""
    matches, penalties, numerators, totals = [], [], [], []
    for h, r, s in zip(hyp, ref, src):
        m, p, t = count_order(h, r, s, formula)
        matches.append(m)
        penalties.append(p)
        numerators.append(max(0, m - p))  # the floor at 0, per sentence
        totals.append(t)
    return GLEUStats(
        hyp_len=hyp_len,
        ref_len=ref_len,
        matches=tuple(matches),
        penalties=tuple(penalties),
        numerators=tuple(numerators),
        totals=tuple(totals),
        formula=formula,
        tokenize=tokenize,
    )


def _stats_per_reference(
    hyp, refs, src, max_order: int, formula: str, tokenize: str, fast: bool = False
) -> tuple[GLEUStats, ...]:
    if fast and formula == "code":  # the second implementation; the tests prove it gives the same counts
        return tuple(
            GLEUStats(
                hyp_len=len(hyp),
                ref_len=len(r),
                matches=tuple(m for m, _, _ in per_order),
                penalties=tuple(p for _, p, _ in per_order),
                numerators=tuple(m - p if m > p else 0 for m, p, _ in per_order),
                totals=tuple(t for _, _, t in per_order),
                formula=formula,
                tokenize=tokenize,
            )
            for r, per_order in zip(refs, sentence_counts_fast(hyp, refs, src, max_order))
        )
    hyp_counts, src_counts = _counts_by_order(hyp, max_order), _counts_by_order(src, max_order)
    return tuple(
        _stats_from_counts(hyp_counts, _counts_by_order(r, max_order), src_counts, len(hyp), len(r), formula, tokenize)
        for r in refs
    )


def sentence_counts_fast(hyp, refs, src, max_order: int) -> list[list[tuple[int, int, int]]]:
    """For each reference, per order: (matches, penalty, hypothesis n-grams) under the official code's
    formula, as :func:`count_order` computes them, with the loops in C (the second implementation).

    An n-gram is penalized min(source, hypothesis) times when the hypothesis kept it from the source and
    the reference does not have it: the set (hyp & src) - ref.  Where every count on one side is 1, the
    sum of minima is simply the size of the set.
    """
    from .fast import counts_and_once

    hyp_counts = counts_and_once(hyp, max_order)
    src_counts = hyp_counts if src == hyp else counts_and_once(src, max_order)  # a copied source: count once
    kept_from_source = [h.keys() & s.keys() for (h, _), (s, _) in zip(hyp_counts, src_counts)]
    totals = [max(0, len(hyp) - n) for n in range(max_order)]
    out = []
    for ref in refs:
        per_order = []
        for (h, h_once), (r, r_once), (s, s_once), kept, total in zip(
            hyp_counts, counts_and_once(ref, max_order), src_counts, kept_from_source, totals
        ):
            shared = h.keys() & r.keys()
            if h_once or r_once:
                matches = len(shared)
            else:
                matches = sum(map(min, map(h.__getitem__, shared), map(r.__getitem__, shared)))
            penalized = kept - shared
            if h_once or s_once:
                penalty = len(penalized)
            else:
                penalty = sum(map(min, map(h.__getitem__, penalized), map(s.__getitem__, penalized)))
            per_order.append((matches, penalty, total))
        out.append(per_order)
    return out


def _check_options(max_order: int, formula: str, tokenize: str) -> None:
    check_int("max_order", max_order, 1)
    check_choice("formula", formula, FORMULAS)
    check_tokenize(tokenize)


def _sentence_units(hypothesis, references, source, tokenize: str, where: str = ""):
    hyp = as_units(hypothesis, f"hypothesis{where}", tokenize)
    refs = check_references(references, f"references{where}")
    ref_units = [as_units(r, f"references{where}[{k}]", tokenize) for k, r in enumerate(refs)]
    src = as_units(source, f"source{where}", tokenize)
    return hyp, ref_units, src


def sentence_stats(
    hypothesis: str | Sequence[str],
    references: Sequence[str | Sequence[str]],
    source: str | Sequence[str],
    *,
    max_order: int = DEFAULT_ORDER,
    formula: str = "code",
    tokenize: str = "none",
) -> tuple[GLEUStats, ...]:
    """The statistics of one sentence, one :class:`GLEUStats` per reference (in the references' order)."""
    _check_options(max_order, formula, tokenize)
    hyp, refs, src = _sentence_units(hypothesis, references, source, tokenize)
    return _stats_per_reference(hyp, refs, src, max_order, formula, tokenize)


def segment_stats(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    sources: Sequence[str | Sequence[str]],
    *,
    max_order: int = DEFAULT_ORDER,
    formula: str = "code",
    tokenize: str = "none",
    fast: bool = True,
) -> list[tuple[GLEUStats, ...]]:
    """Per sentence, one :class:`GLEUStats` per reference; ``references[i]`` corrects ``sources[i]``.

    ``fast=True`` counts with :func:`sentence_counts_fast` (set operations, for the official ``"code"`` formula);
    ``fast=False`` with :func:`count_order`, the readable way.  Both give the same statistics.
    """
    _check_options(max_order, formula, tokenize)
    check_bool("fast", fast)
    check_corpus("hypotheses", hypotheses)
    check_corpus("references", references)
    check_corpus("sources", sources)
    check_same_length(hypotheses=hypotheses, references=references, sources=sources)
    out = []
    for i, (hyp, refs, src) in enumerate(zip(hypotheses, references, sources)):
        h, rs, s = _sentence_units(hyp, refs, src, tokenize, where=f"[{i}]")
        out.append(_stats_per_reference(h, rs, s, max_order, formula, tokenize, fast))
    return out


# --------------------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------------------
def precision(numerator: int, total: int) -> float:
    """p_n = numerator / total; an order with no hypothesis n-gram counts as 1 (neither helps nor hurts).

    This is the ``gleu`` package's convention.  The official script returns a score of 0 whenever a count
    is 0, which differs only when a whole corpus has no n-gram of some order (hypotheses shorter than n).
    """
    return 1.0 if total == 0 else numerator / total


def log_brevity_penalty(hyp_len: int, ref_len: int) -> float:
    """log BP = min(0, 1 - r/c): 0 when c > r; minus infinity for an empty hypothesis (c = 0, r > 0)."""
    if hyp_len == 0:
        return 0.0 if ref_len == 0 else -math.inf
    return min(0.0, 1 - ref_len / hyp_len)


@dataclass(frozen=True)
class GLEUScore:
    """The GLEU of one set of statistics (one sentence and reference, or one corpus assignment).

    ``precisions[n-1]`` is p_n; ``order_scores[n-1]`` is BP * p_n (the ``gleu`` package's per-order
    "gleu" column); ``score`` is BP times the geometric mean of the precisions.
    """

    score: float
    precisions: tuple[float, ...]
    brevity_penalty: float
    hyp_len: int
    ref_len: int
    smoothing: str
    stats: GLEUStats = field(repr=False)

    @property
    def order_scores(self) -> tuple[float, ...]:
        return tuple(self.brevity_penalty * p for p in self.precisions)

    def __float__(self) -> float:
        return self.score

    def __repr__(self) -> str:
        ps = ", ".join(f"{p:.4f}" for p in self.precisions)
        return (
            f"GLEUScore(score={self.score:.4f}, precisions=[{ps}], bp={self.brevity_penalty:.4f}, "
            f"hyp_len={self.hyp_len}, ref_len={self.ref_len})"
        )


def _smoothed(stats: GLEUStats) -> GLEUStats:
    """The official script's sentence-level smoothing: every count that is 0 becomes 1 (lengths included)."""

    def one(x: int) -> int:
        return x if x != 0 else 1

    return GLEUStats(
        hyp_len=one(stats.hyp_len),
        ref_len=one(stats.ref_len),
        matches=stats.matches,
        penalties=stats.penalties,
        numerators=tuple(one(x) for x in stats.numerators),
        totals=tuple(one(x) for x in stats.totals),
        segments=stats.segments,
        formula=stats.formula,
        tokenize=stats.tokenize,
    )


def score_stats(stats: GLEUStats, *, smoothing: str = "none") -> GLEUScore:
    """Turn statistics into a score: exp(log BP + mean over n of log p_n); nothing is recounted.

    ``smoothing="official"`` is the script's sentence-level smoothing (every zero count, the lengths
    included, is replaced by 1 before scoring); the script uses it for sentence scores only.
    """
    if not isinstance(stats, GLEUStats):
        raise TypeError(f"stats must be GLEUStats, got {type(stats).__name__}")
    check_choice("smoothing", smoothing, SMOOTHING)
    used = _smoothed(stats) if smoothing == "official" else stats
    precisions = tuple(precision(num, tot) for num, tot in zip(used.numerators, used.totals))
    log_bp = log_brevity_penalty(used.hyp_len, used.ref_len)
    if log_bp == -math.inf or any(p == 0 for p in precisions):
        score = 0.0
    else:
        # Summed in order and divided by N, as numpy's mean does for a handful of values.
        score = math.exp(log_bp + sum(math.log(p) for p in precisions) / len(precisions))
    return GLEUScore(
        score=score,
        precisions=precisions,
        brevity_penalty=math.exp(log_bp),
        hyp_len=stats.hyp_len,
        ref_len=stats.ref_len,
        smoothing=smoothing,
        stats=stats,
    )


# --------------------------------------------------------------------------------------------------------
# Several references: the official script's sampling, and the best-reference mode
# --------------------------------------------------------------------------------------------------------
def script_reference_indices(iteration: int, counts: Sequence[int]) -> list[int]:
    """The reference the official script uses for each sentence in iteration ``iteration`` (from 0).

    The script (Python 2) calls ``random.seed(j * 101)`` and then ``random.randint(0, k - 1)`` for every
    sentence; Python 2's randint is ``int(random() * k)``.  Python 3 reproduces it with
    ``random.seed(j * 101, version=1)`` and ``int(random.random() * k)``.  A private generator is used, so
    the global ``random`` state is left alone.  ``counts[i]`` is the number of references of sentence i.

    >>> script_reference_indices(0, [4, 4, 4, 4, 4])
    [3, 3, 1, 1, 2]
    """
    rng = random.Random()
    rng.seed(iteration * 101, version=1)
    return [int(rng.random() * k) for k in counts]


def seeded_reference_indices(seed: int, iterations: int, counts: Sequence[int]) -> list[list[int]]:
    """Alternative draws from one generator seeded with ``seed``, to see how much the choice matters."""
    rng = random.Random(seed)
    return [[int(rng.random() * k) for k in counts] for _ in range(iterations)]


def best_reference(per_reference: Sequence[GLEUScore]) -> int:
    """The index of the reference with the highest sentence GLEU (the ``gleu`` package's ``-m``).

    Ties are broken like the package: by BP * p_n from the highest order down, then by the first index.
    """
    if isinstance(per_reference, (str, bytes)) or not isinstance(per_reference, Sequence):
        raise TypeError(f"per_reference must be a list of GLEUScore, got {type(per_reference).__name__}")
    if len(per_reference) == 0:
        raise ValueError("per_reference is empty; give the sentence's score against each of its references")
    for k, s in enumerate(per_reference):
        if not isinstance(s, GLEUScore):
            raise TypeError(f"per_reference[{k}] is a {type(s).__name__}; expected a GLEUScore (from score_stats)")
    return max(range(len(per_reference)), key=lambda k: _max_key(per_reference[k]))


def _max_key(s: GLEUScore) -> tuple:
    return (s.score, tuple(reversed(s.order_scores)))


def sum_selected(per_sentence: Sequence[Sequence[GLEUStats]], picks: Sequence[int]) -> GLEUStats:
    """The corpus statistics when sentence i uses its reference ``picks[i]``: a plain sum."""
    return sum(refs[k] for refs, k in zip(per_sentence, picks))


def _flat(s: GLEUStats) -> tuple[int, ...]:
    return (s.hyp_len, s.ref_len, *s.matches, *s.penalties, *s.numerators, *s.totals, s.segments)


def _unflat(v: Sequence[int], like: GLEUStats) -> GLEUStats:
    n = like.max_order
    return GLEUStats(
        hyp_len=v[0],
        ref_len=v[1],
        matches=tuple(v[2 : 2 + n]),
        penalties=tuple(v[2 + n : 2 + 2 * n]),
        numerators=tuple(v[2 + 2 * n : 2 + 3 * n]),
        totals=tuple(v[2 + 3 * n : 2 + 4 * n]),
        segments=v[-1],
        formula=like.formula,
        tokenize=like.tokenize,
    )


def score_assignments(
    per_sentence: Sequence[Sequence[GLEUStats]], assignments: Sequence[Sequence[int]]
) -> tuple[GLEUScore, ...]:
    """Score the corpus once per assignment (``assignments[j][i]``: the reference sentence i uses in
    iteration j), from statistics counted once by :func:`segment_stats`; nothing is recounted.

    ``assignments`` may be any iterable (a generator is read once); it must hold at least one assignment.
    """
    if isinstance(per_sentence, (str, bytes)) or not isinstance(per_sentence, Sequence):
        raise TypeError(f"per_sentence must be the list returned by segment_stats, got {type(per_sentence).__name__}")
    if len(per_sentence) == 0:
        raise ValueError("per_sentence is empty; give the statistics of at least one sentence (segment_stats)")
    for i, refs in enumerate(per_sentence):
        if isinstance(refs, GLEUStats) or not isinstance(refs, Sequence) or not refs or not all(
            isinstance(x, GLEUStats) for x in refs
        ):
            raise TypeError(f"per_sentence[{i}] must be a non-empty tuple of GLEUStats, one per reference")
    if isinstance(assignments, (str, bytes)) or not isinstance(assignments, Iterable):
        raise TypeError(f"assignments must be a list of lists of reference indices, got {type(assignments).__name__}")
    assignments = [list(picks) for picks in assignments]  # read once: a generator works
    if not assignments:
        raise ValueError("assignments is empty; give at least one list of reference indices (one per sentence)")
    counts = [len(refs) for refs in per_sentence]
    for j, picks in enumerate(assignments):
        if len(picks) != len(counts):
            raise ValueError(f"assignment {j} has {len(picks)} entries for {len(counts)} sentences")
        if all(type(k) is int and 0 <= k < available for k, available in zip(picks, counts)):
            continue  # plain ints in range: the common case, checked without the slower tests below
        for i, (k, available) in enumerate(zip(picks, counts)):
            if isinstance(k, bool) or not isinstance(k, numbers.Integral) or not 0 <= k < available:
                raise ValueError(f"assignment {j} picks reference {k!r} for sentence {i}, which has {available}")
        picks[:] = map(int, picks)  # numpy integers as ints
    return _score_assignments(per_sentence, assignments)


def _score_assignments(per_sentence, assignments) -> tuple[GLEUScore, ...]:
    from .fast import PackedRows  # sums of many choices of rows, as big integers; tests prove it equal

    packed = PackedRows([[_flat(s) for s in refs] for refs in per_sentence])
    like = per_sentence[0][0]
    return tuple(score_stats(_unflat(packed.sum_choice(picks), like)) for picks in assignments)


def spread(scores: Sequence[float]) -> tuple[float, float, tuple[float, float]]:
    """(mean, standard deviation, 95% interval) as the official script reports them, the interval
    clipped to [0, 1].

    The script uses numpy's population standard deviation (ddof=0) and the normal interval
    mean +- 1.96 std.  A GLEU score lies in [0, 1], so an interval reaching outside is cut at 0 and 1
    (the script does not cut: with a few widely spread scores, e.g. one sentence's scores against its
    four references, its lower end goes below 0).  Inside [0, 1] the interval is exactly the script's.
    With a single score the std is 0 and the interval is (mean, mean).

    >>> mean, std, ci = spread([0.0, 0.0, 0.0, 0.5])  # mean - 1.96 std = -0.24: cut at 0
    >>> round(mean, 4), round(std, 4), tuple(round(x, 4) for x in ci)
    (0.125, 0.2165, (0.0, 0.5493))
    """
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Iterable):
        raise TypeError(f"scores must be a list of numbers, got {type(scores).__name__}")
    scores = list(scores)  # read once
    if not scores:
        raise ValueError("scores is empty; the spread needs at least one score")
    for k, x in enumerate(scores):
        if isinstance(x, bool) or not isinstance(x, numbers.Real):
            raise TypeError(f"scores[{k}] is a {type(x).__name__}; scores must be numbers")
    mean = math.fsum(scores) / len(scores)
    std = math.sqrt(math.fsum((x - mean) ** 2 for x in scores) / len(scores))
    return mean, std, (max(0.0, mean - Z95 * std), min(1.0, mean + Z95 * std))


@dataclass(frozen=True)
class GLEUResult:
    """A GEC GLEU result.  ``float(result)`` is ``score``, in [0, 1].

    Corpus level (:func:`corpus_gleu`): ``scores`` holds the corpus GLEU of each iteration (one reference
    sampled per sentence), ``score`` their mean, ``std`` and ``ci`` their spread as the official script
    prints them (``ci`` cut at 0 and 1, see :func:`spread`; ``ci_method`` says so);
    ``assignments[j]`` lists the reference index of every sentence in iteration j and
    ``details[j]`` the scored statistics.  In ``"max"`` mode there is one "iteration": the best references.

    Sentence level (:func:`sentence_gleu`): ``scores`` holds the score against each reference and
    ``score`` is their mean (or max).
    """

    score: float
    std: float
    ci: tuple[float, float]
    scores: tuple[float, ...]
    mode: str
    details: tuple[GLEUScore, ...] = field(repr=False)
    assignments: tuple[tuple[int, ...], ...] = field(repr=False, default=())
    ci_method: str = field(repr=False, default="normal: mean +- 1.96 std, clipped to [0, 1]")

    @property
    def iterations(self) -> int:
        return len(self.scores)

    def __float__(self) -> float:
        return self.score

    def __repr__(self) -> str:
        return (
            f"GLEUResult(score={self.score:.4f}, std={self.std:.4f}, "
            f"ci=({self.ci[0]:.4f}, {self.ci[1]:.4f}), n={len(self.scores)}, mode={self.mode!r})"
        )


def corpus_gleu(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    sources: Sequence[str | Sequence[str]],
    *,
    iterations: int = DEFAULT_ITERATIONS,
    max_order: int = DEFAULT_ORDER,
    tokenize: str = "none",
    mode: str = "sample",
    formula: str = "code",
    seed: int | None = None,
) -> GLEUResult:
    """Corpus GLEU as the official script computes it (defaults), or one of its variants.

    ``references[i]`` is the list of corrections of ``sources[i]`` (segment-major, like NLTK).

    - ``mode="sample"``: in each of ``iterations`` iterations, one reference per sentence is drawn with the
      script's Python 2 seeding (or, given ``seed``, from one generator seeded with it), the sentences'
      statistics for those references are summed and scored; the result is the mean over iterations.  If
      every sentence has one reference there is nothing to sample and one iteration is run (as the script).
    - ``mode="max"``: each sentence uses the reference with its best sentence GLEU (``gleu -m``).
    - ``tokenize``: ``"none"`` (words split on white space, the default) or ``"char-with-spaces"`` (every
      character, spaces included: the ``gleu`` command's ``-t char``); any name of :mod:`evalkit.tokenize`.
    - ``formula``: the penalty of the official ``"code"`` (default) or of the ``"paper"`` (2016).

    Chinese or Japanese text left unsplit by ``tokenize`` gives one
    :class:`~evalkit.tokenize.TokenizationWarning` (the texts of at most 100 segments spread over the
    corpus are looked at).

    >>> r = corpus_gleu(["the cat sat on the mat"], [["the cat sat on a mat", "a cat sat on the mat"]],
    ...                 ["cat sat on the mat"], iterations=10)
    >>> round(r.score, 4), round(r.std, 4)
    (0.3039, 0.3722)
    """
    check_int("iterations", iterations, 1)
    check_choice("mode", mode, MODES)
    if seed is not None:
        check_int("seed", seed, 0)
    per_sentence = segment_stats(hypotheses, references, sources, max_order=max_order, formula=formula, tokenize=tokenize)
    counts = [len(refs) for refs in per_sentence]

    if mode == "max":
        picks = [best_reference([score_stats(s) for s in refs]) for refs in per_sentence]
        assignments = [picks]
    elif all(k == 1 for k in counts):
        assignments = [[0] * len(counts)]
    elif seed is None:
        assignments = [script_reference_indices(j, counts) for j in range(iterations)]
    else:
        assignments = seeded_reference_indices(seed, iterations, counts)

    details = _score_assignments(per_sentence, assignments)  # the assignments are valid by construction
    scores = tuple(d.score for d in details)
    mean, std, ci = spread(scores)
    warn_about_corpus_tokenization(hypotheses, references, tokenize, sources)
    return GLEUResult(
        score=mean,
        std=std,
        ci=ci,
        scores=scores,
        mode=mode,
        details=details,
        assignments=tuple(tuple(p) for p in assignments),
    )


def sentence_gleu(
    hypothesis: str | Sequence[str],
    references: Sequence[str | Sequence[str]],
    source: str | Sequence[str],
    *,
    mode: str = "mean",
    smoothing: str = "none",
    max_order: int = DEFAULT_ORDER,
    tokenize: str = "none",
    formula: str = "code",
) -> GLEUResult:
    """GLEU of one sentence: its score against each reference, then the mean (or ``mode="max"``).

    ``smoothing="none"`` is the ``gleu`` package's sentence score (``sgleu``); ``"official"`` is the script's
    sentence-level smoothing (debug mode), which turns every zero count into 1.  ``std`` and ``ci`` are
    the spread over the references, as the script's debug output reports them.

    >>> r = sentence_gleu("He go to school .", ["He goes to school .", "He went to school ."],
    ...                   "He go to school .", smoothing="official")
    >>> [round(s, 4) for s in r.scores]  # (3/5 * 1/4 * 1/3 * 1/2) ** (1/4): zero numerators became 1
    [0.3976, 0.3976]
    """
    check_choice("mode", mode, SENTENCE_MODES)
    check_choice("smoothing", smoothing, SMOOTHING)
    per_ref = sentence_stats(hypothesis, references, source, max_order=max_order, formula=formula, tokenize=tokenize)
    details = tuple(score_stats(s, smoothing=smoothing) for s in per_ref)
    scores = tuple(d.score for d in details)
    mean, std, ci = spread(scores)
    warn_about_tokenization([hypothesis, *references, source], tokenize)
    return GLEUResult(
        score=max(scores) if mode == "max" else mean,
        std=std,
        ci=ci,
        scores=scores,
        mode=mode,
        details=details,
    )


# --------------------------------------------------------------------------------------------------------
# The metric protocol (evalkit.protocol): what significance tests use
# --------------------------------------------------------------------------------------------------------
# GLEU's statistics add up once every sentence has *one* reference.  corpus_gleu draws a reference per
# sentence, scores the corpus, and averages over 500 such draws; the paired tests use one draw: the
# references of corpus_gleu's iteration ``iteration`` (0 by default; ``reference_seed`` as corpus_gleu's
# ``seed``), the same for the baseline and every system.  The score of the real corpus is then
# corpus_gleu(...).scores[iteration], which is corpus_gleu's score itself when every sentence has one
# reference (nothing to draw) or with mode="max" (each system's best reference per sentence, gleu -m).
# The resampled corpora keep each sentence's reference.  GLEU also reads the uncorrected sentences:
# pass them as ``sources=[...]``, one per segment.
# A row is GLEUStats.row(): hyp_len, ref_len, matches_1..N, penalties_1..N, numerators_1..N, totals_1..N.
METRIC_OPTIONS = frozenset({"sources", "max_order", "tokenize", "formula", "mode", "iteration", "reference_seed"})


def gleu_reference_picks(counts: Sequence[int], iteration: int = 0, reference_seed: int | None = None) -> list[int]:
    """The reference index of every sentence in :func:`corpus_gleu`'s iteration ``iteration``
    (``counts[i]``: the number of references of sentence i), as corpus_gleu draws them.

        >>> gleu_reference_picks([4, 4, 4, 4, 4]), gleu_reference_picks([1, 1])
        ([3, 3, 1, 1, 2], [0, 0])
    """
    if all(k == 1 for k in counts):
        return [0] * len(counts)
    if reference_seed is None:
        return script_reference_indices(iteration, counts)
    return seeded_reference_indices(reference_seed, iteration + 1, counts)[iteration]


def _metric_settings(options: dict) -> dict:
    sources = options.get("sources")
    if sources is None:
        raise TypeError(
            "metric='gleu' needs the uncorrected sentences: pass sources=[...], one per segment "
            "(GLEU penalizes n-grams the hypothesis kept from the source)"
        )
    check_corpus("sources", sources)
    mode = options.get("mode", "sample")
    check_choice("mode", mode, MODES)
    iteration = options.get("iteration", 0)
    check_int("iteration", iteration, 0)
    reference_seed = options.get("reference_seed")
    if reference_seed is not None:
        check_int("reference_seed", reference_seed, 0)
    if mode == "max" and ("iteration" in options or "reference_seed" in options):
        raise ValueError("iteration and reference_seed choose a draw of references; mode='max' draws none")
    return dict(sources=sources, mode=mode, iteration=iteration, reference_seed=reference_seed,
                max_order=options.get("max_order", DEFAULT_ORDER), formula=options.get("formula", "code"),
                tokenize=options.get("tokenize", "none"))


def corpus_rows(corpora: Sequence[Sequence[Any]], references: Sequence[Any], options: dict, fast: bool = True) -> list:
    """:func:`segment_stats` of each corpus (it checks the texts and options) at the chosen references, as
    int64 matrices of :meth:`GLEUStats.row`."""
    import numpy as np

    s = _metric_settings(options)
    if len(s["sources"]) != len(references):
        raise ValueError(
            f"sources has {len(s['sources'])} sentences and references {len(references)}; "
            "give one source per segment"
        )
    out = []
    for hyps in corpora:
        per_sentence = segment_stats(hyps, references, s["sources"], max_order=s["max_order"],
                                     formula=s["formula"], tokenize=s["tokenize"], fast=fast)
        if s["mode"] == "max":  # this system's best reference per sentence, as corpus_gleu(mode="max")
            picks = [best_reference([score_stats(x) for x in refs]) for refs in per_sentence]
        else:
            picks = gleu_reference_picks([len(refs) for refs in per_sentence], s["iteration"], s["reference_seed"])
        out.append(np.array([refs[k].row() for refs, k in zip(per_sentence, picks)], dtype=np.int64))
    return out


def score_row(row: Sequence[int], options: dict) -> float:
    """The readable way: the summed row as :class:`GLEUStats`, scored by :func:`score_stats`."""
    return score_stats(GLEUStats.from_row([int(x) for x in row])).score


METRIC = register_metric(Metric("gleu", METRIC_OPTIONS, corpus_rows, score_row))


__all__ = [
    "corpus_rows",
    "gleu_reference_picks",
    "score_row",
    "FORMULAS",
    "GLEUResult",
    "GLEUScore",
    "GLEUStats",
    "as_units",
    "best_reference",
    "corpus_gleu",
    "count_order",
    "order_counts",
    "score_assignments",
    "score_stats",
    "script_reference_indices",
    "segment_stats",
    "sentence_gleu",
    "sentence_counts_fast",
    "sentence_stats",
    "source_penalty",
    "spread",
    "stats_from_tokens",
    "sum_selected",
]


# --------------------------------------------------------------------------------------------------------
# Command line: python -m evalkit.gleu -s SOURCE -r REF [REF ...] -o HYP [HYP ...]
# --------------------------------------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    """Score system outputs from files, as the ``gleu`` command does (one sentence per line).

    Prints, per hypothesis file: its name, GLEU x 100, the std and the 95% interval over the iterations.
    Bad input (a missing, undecodable or corrupt file, files of different lengths) and an output that cannot
    be written: a one-line message on stderr and exit status 2.
    """
    import argparse
    import os
    import sys

    from .data import read_lines

    parser = argparse.ArgumentParser(prog="python -m evalkit.gleu", description=main.__doc__)
    parser.add_argument("-s", "--source", required=True, help="the uncorrected sentences")
    parser.add_argument("-r", "--references", required=True, nargs="+", help="one file per reference set")
    parser.add_argument("-o", "--outputs", required=True, nargs="+", help="one file per system output")
    parser.add_argument("-n", "--max-order", type=int, default=DEFAULT_ORDER)
    parser.add_argument("-i", "--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("-t", "--tokens", choices=list(CLI_TOKENS), default="word",
                        help="word: split on white space; char: every character, spaces included")
    parser.add_argument("-m", "--max", action="store_true", help="the best reference per sentence")
    parser.add_argument("-d", "--digits", type=int, default=4)
    args = parser.parse_args(argv)
    if args.digits < 0:
        parser.error(f"-d must be 0 or more, got {args.digits}")
    try:
        text = _score_files(args, read_lines)
        sys.stdout.write(text)
        sys.stdout.flush()
    except _Refused as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # stdout: a full device, a closed pipe
        print(f"{parser.prog}: error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        try:  # so that Python's own flush at exit does not fail again (a traceback, exit status 120)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (AttributeError, OSError, ValueError):
            pass
        return 2
    return 0


class _Refused(Exception):
    """Bad input to ``python -m evalkit.gleu``: a one-line message, exit status 2."""


def _score_files(args, read_lines) -> str:
    """The lines ``main`` prints (all of them, or :class:`_Refused` before anything is printed)."""
    import zlib

    def lines_of(path: str) -> list[str]:
        """The file's lines; a Windows line end (CRLF) counts as a line end, not as a "\r" character."""
        try:
            lines = read_lines(path)
        except (OSError, EOFError, zlib.error, UnicodeDecodeError) as exc:  # missing, corrupt .gz, not UTF-8
            raise _Refused(f"cannot read {path}: {' '.join(str(exc).split())}") from None
        return [line[:-1] if line.endswith("\r") else line for line in lines]

    sources = lines_of(args.source)
    reference_sets = [lines_of(path) for path in args.references]
    for path, lines in zip(args.references, reference_sets):
        if len(lines) != len(sources):
            raise _Refused(f"{path} has {len(lines)} lines, the source {args.source} has {len(sources)}: "
                          "every file needs one line per sentence")
    references = [list(refs) for refs in zip(*reference_sets)]
    hypothesis_files = [(path, lines_of(path)) for path in args.outputs]
    for path, hypotheses in hypothesis_files:
        if len(hypotheses) != len(sources):
            raise _Refused(f"{path} has {len(hypotheses)} lines, the source {args.source} has {len(sources)}: "
                          "every file needs one line per sentence")
    out = []
    for path, hypotheses in hypothesis_files:
        try:
            result = corpus_gleu(
                hypotheses,
                references,
                sources,
                iterations=args.iterations,
                max_order=args.max_order,
                tokenize=CLI_TOKENS[args.tokens],
                mode="max" if args.max else "sample",
            )
        except (TypeError, ValueError) as exc:
            raise _Refused(f"{path}: {' '.join(str(exc).split())}") from None
        d = args.digits
        low, high = result.ci
        out.append(f"{path}\t{100 * result.score:.{d}f}\t{100 * result.std:.{d}f}\t({100 * low:.{d}f}, "
                   f"{100 * high:.{d}f})\n")
    return "".join(out)


if __name__ == "__main__":
    raise SystemExit(main())
