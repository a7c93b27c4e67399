"""GLEU for grammatical error correction (Napoles et al. 2015, 2016), and Google's GLEU (Wu et al. 2016).

Two different metrics share the name, so both live here, side by side.

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
draws, so :func:`corpus_gleu` reproduces the published numbers.

    >>> source = "She go to the school every day ."
    >>> reference = "She goes to school every day ."
    >>> s = sentence_stats(source, [reference], source, max_order=2)[0]  # the system copied the source
    >>> s.matches, s.penalties, s.numerators, s.totals
    ((6, 3), (2, 4), (4, 0), (8, 7))
    >>> float(sentence_gleu(source, [reference], source, max_order=2))  # copying scores 0
    0.0
    >>> float(sentence_gleu(reference, [reference], source))  # the correction scores 1
    1.0

**Google's GLEU** (NLTK's ``nltk.translate.gleu_score``) is a sentence-level BLEU variant for training
translation systems: all n-grams of orders 1 to 4 are pooled, and the score is min(precision, recall)
= matches / max(hypothesis n-grams, reference n-grams).  It has no source and no brevity penalty.

    >>> round(float(sentence_google_bleu("the cat sat on the mat", ["the cat is on the mat"])), 4)
    0.5
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ._checks import (
    as_tokens,
    check_choice,
    check_corpus,
    check_int,
    check_references,
    check_same_length,
    check_text,
)
from .ngrams import ngram_counts
from .tokenize import TOKENIZERS, get_tokenizer

DEFAULT_ORDER = 4
DEFAULT_ITERATIONS = 500  # the official script's default
FORMULAS = ("code", "paper")  # the penalty of the official code (default) or of the 2016 paper
MODES = ("sample", "max")  # corpus: sample one reference per sentence, or take the best (gleu -m)
SENTENCE_MODES = ("mean", "max")  # sentence: mean or max over the references
TOKENS = ("word", "char")
SMOOTHING = ("none", "official")  # "official": the script's sentence-level smoothing (zero counts -> 1)
# The 97.5% quantile of the standard normal distribution: the script's 95% interval is mean +- Z95 * std
# (it calls scipy.stats.norm.interval(0.95, loc=mean, scale=std)).
Z95 = statistics.NormalDist().inv_cdf(0.975)


# --------------------------------------------------------------------------------------------------------
# Tokens
# --------------------------------------------------------------------------------------------------------
def _as_units(value: Any, what: str, tokens: str) -> tuple[str, ...]:
    """Words (split on white space) or characters (every one, spaces included, as ``gleu -t char``).

    A sequence of tokens is used as it is for words; for characters it is first joined with spaces.
    """
    check_text(value, what)
    if tokens == "word":
        return as_tokens(value, what, str.split)
    text = value if isinstance(value, str) else " ".join(value)
    return tuple(text)


# --------------------------------------------------------------------------------------------------------
# Counting: the source penalty, one n-gram at a time
# --------------------------------------------------------------------------------------------------------
def source_penalty(source_count: int, reference_count: int, hypothesis_count: int, formula: str = "code") -> int:
    """The penalty one n-gram earns, from its counts in the source, the reference and the hypothesis.

    - ``"code"`` (the official script, and the published numbers): an n-gram the reference does *not*
      contain is penalized once for each time the hypothesis kept it from the source,
      ``min(source, hypothesis)``; an n-gram the reference contains is never penalized.
    - ``"paper"`` ("GLEU Without Tuning", 2016): ``max(0, min(hyp, source) - min(hyp, reference))``, the
      source copies beyond what the reference can account for.

    >>> source_penalty(2, 1, 3, "code"), source_penalty(2, 1, 3, "paper")
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
        penalty += source_penalty(src.get(gram, 0), in_ref, count, formula)
        total += count
    return matches, penalty, total


def order_counts(
    hypothesis: Sequence[str], reference: Sequence[str], source: Sequence[str], n: int, formula: str = "code"
) -> tuple[int, int, int]:
    """(matches, penalty, hypothesis n-grams) of order ``n`` for one sentence and one reference."""
    return count_order(ngram_counts(hypothesis, n), ngram_counts(reference, n), ngram_counts(source, n), formula)


@dataclass(frozen=True)
class GLEUStats:
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
    segments: int = 1
    formula: str = "code"
    tokens: str = "word"

    @property
    def max_order(self) -> int:
        return len(self.matches)

    def __add__(self, other: GLEUStats) -> GLEUStats:
        if not isinstance(other, GLEUStats):
            return NotImplemented
        if self.max_order != other.max_order:
            raise ValueError(f"cannot add statistics of max order {self.max_order} and {other.max_order}")
        if (self.formula, self.tokens) != (other.formula, other.tokens):
            raise ValueError("cannot add statistics counted with different formulas or tokens")
        return GLEUStats(
            hyp_len=self.hyp_len + other.hyp_len,
            ref_len=self.ref_len + other.ref_len,
            matches=tuple(a + b for a, b in zip(self.matches, other.matches)),
            penalties=tuple(a + b for a, b in zip(self.penalties, other.penalties)),
            numerators=tuple(a + b for a, b in zip(self.numerators, other.numerators)),
            totals=tuple(a + b for a, b in zip(self.totals, other.totals)),
            segments=self.segments + other.segments,
            formula=self.formula,
            tokens=self.tokens,
        )

    def __radd__(self, other: Any) -> GLEUStats:
        if other == 0:  # lets the built-in sum() start from 0
            return self
        return NotImplemented


def stats_from_tokens(
    hypothesis: Sequence[str],
    reference: Sequence[str],
    source: Sequence[str],
    max_order: int = DEFAULT_ORDER,
    *,
    formula: str = "code",
    tokens: str = "word",
) -> GLEUStats:
    """Count the statistics of one tokenized sentence against one reference."""
    return _stats_from_counts(
        _counts_by_order(hypothesis, max_order),
        _counts_by_order(reference, max_order),
        _counts_by_order(source, max_order),
        len(hypothesis),
        len(reference),
        formula,
        tokens,
    )


def _counts_by_order(tokens: Sequence[str], max_order: int) -> list[Counter]:
    return [ngram_counts(tokens, n) for n in range(1, max_order + 1)]


def _stats_from_counts(hyp, ref, src, hyp_len: int, ref_len: int, formula: str, tokens: str) -> GLEUStats:
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
        tokens=tokens,
    )


def _stats_per_reference(
    hyp, refs, src, max_order: int, formula: str, tokens: str, fast: bool = False
) -> tuple[GLEUStats, ...]:
    if fast and formula == "code":  # the second implementation; the tests prove it gives the same counts
        from .fast import gleu_sentence_counts

        return tuple(
            GLEUStats(
                hyp_len=len(hyp),
                ref_len=len(r),
                matches=tuple(m for m, _, _ in per_order),
                penalties=tuple(p for _, p, _ in per_order),
                numerators=tuple(m - p if m > p else 0 for m, p, _ in per_order),
                totals=tuple(t for _, _, t in per_order),
                formula=formula,
                tokens=tokens,
            )
            for r, per_order in zip(refs, gleu_sentence_counts(hyp, refs, src, max_order))
        )
    hyp_counts, src_counts = _counts_by_order(hyp, max_order), _counts_by_order(src, max_order)
    return tuple(
        _stats_from_counts(hyp_counts, _counts_by_order(r, max_order), src_counts, len(hyp), len(r), formula, tokens)
        for r in refs
    )


def _check_options(max_order: int, formula: str, tokens: str) -> None:
    check_int("max_order", max_order, 1)
    check_choice("formula", formula, FORMULAS)
    check_choice("tokens", tokens, TOKENS)


def _sentence_units(hypothesis, references, source, tokens: str, where: str = ""):
    hyp = _as_units(hypothesis, f"hypothesis{where}", tokens)
    refs = check_references(references, f"references{where}")
    ref_units = [_as_units(r, f"references{where}[{k}]", tokens) for k, r in enumerate(refs)]
    src = _as_units(source, f"source{where}", tokens)
    return hyp, ref_units, src


def sentence_stats(
    hypothesis: str | Sequence[str],
    references: Sequence[str | Sequence[str]],
    source: str | Sequence[str],
    *,
    max_order: int = DEFAULT_ORDER,
    formula: str = "code",
    tokens: str = "word",
) -> tuple[GLEUStats, ...]:
    """The statistics of one sentence, one :class:`GLEUStats` per reference (in the references' order)."""
    _check_options(max_order, formula, tokens)
    hyp, refs, src = _sentence_units(hypothesis, references, source, tokens)
    return _stats_per_reference(hyp, refs, src, max_order, formula, tokens)


def segment_stats(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    sources: Sequence[str | Sequence[str]],
    *,
    max_order: int = DEFAULT_ORDER,
    formula: str = "code",
    tokens: str = "word",
    fast: bool = True,
) -> list[tuple[GLEUStats, ...]]:
    """Per sentence, one :class:`GLEUStats` per reference; ``references[i]`` corrects ``sources[i]``.

    ``fast=True`` counts with :mod:`evalkit.fast` (set operations, for the official ``"code"`` formula);
    ``fast=False`` with :func:`count_order`, the readable way.  Both give the same statistics.
    """
    _check_options(max_order, formula, tokens)
    check_corpus("hypotheses", hypotheses)
    check_corpus("references", references)
    check_corpus("sources", sources)
    check_same_length(hypotheses=hypotheses, references=references, sources=sources)
    out = []
    for i, (hyp, refs, src) in enumerate(zip(hypotheses, references, sources)):
        h, rs, s = _sentence_units(hyp, refs, src, tokens, where=f"[{i}]")
        out.append(_stats_per_reference(h, rs, s, max_order, formula, tokens, fast))
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
        tokens=stats.tokens,
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
        tokens=like.tokens,
    )


def score_assignments(
    per_sentence: Sequence[Sequence[GLEUStats]], assignments: Sequence[Sequence[int]]
) -> tuple[GLEUScore, ...]:
    """Score the corpus once per assignment (``assignments[j][i]``: the reference sentence i uses in
    iteration j), from statistics counted once by :func:`segment_stats`; nothing is recounted."""
    counts = [len(refs) for refs in per_sentence]
    for j, picks in enumerate(assignments):
        if len(picks) != len(counts):
            raise ValueError(f"assignment {j} has {len(picks)} entries for {len(counts)} sentences")
        for i, (k, available) in enumerate(zip(picks, counts)):
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < available:
                raise ValueError(f"assignment {j} picks reference {k!r} for sentence {i}, which has {available}")
    return _score_assignments(per_sentence, assignments)


def _score_assignments(per_sentence, assignments) -> tuple[GLEUScore, ...]:
    from .fast import PackedRows  # sums of many choices of rows, as big integers; tests prove it equal

    packed = PackedRows([[_flat(s) for s in refs] for refs in per_sentence])
    like = per_sentence[0][0]
    return tuple(score_stats(_unflat(packed.sum_choice(picks), like)) for picks in assignments)


def spread(scores: Sequence[float]) -> tuple[float, float, tuple[float, float]]:
    """(mean, standard deviation, 95% interval) as the official script reports them.

    The script uses numpy's population standard deviation (ddof=0) and the normal interval
    mean +- 1.96 std.  With a single score the std is 0 and the interval is (mean, mean).
    """
    mean = math.fsum(scores) / len(scores)
    std = math.sqrt(math.fsum((x - mean) ** 2 for x in scores) / len(scores))
    return mean, std, (mean - Z95 * std, mean + Z95 * std)


@dataclass(frozen=True)
class GLEUResult:
    """A GEC GLEU result.  ``float(result)`` is ``score``, in [0, 1].

    Corpus level (:func:`corpus_gleu`): ``scores`` holds the corpus GLEU of each iteration (one reference
    sampled per sentence), ``score`` their mean, ``std`` and ``ci`` their spread as the official script
    prints them; ``assignments[j]`` lists the reference index of every sentence in iteration j and
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
    tokens: str = "word",
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
    - ``tokens``: ``"word"`` (split on white space) or ``"char"`` (every character, spaces included).
    - ``formula``: the penalty of the official ``"code"`` (default) or of the ``"paper"`` (2016).

    >>> r = corpus_gleu(["the cat sat on the mat"], [["the cat sat on a mat", "a cat sat on the mat"]],
    ...                 ["cat sat on the mat"], iterations=10)
    >>> round(r.score, 4), round(r.std, 4)
    (0.3039, 0.3722)
    """
    check_int("iterations", iterations, 1)
    check_choice("mode", mode, MODES)
    if seed is not None:
        check_int("seed", seed, 0)
    per_sentence = segment_stats(hypotheses, references, sources, max_order=max_order, formula=formula, tokens=tokens)
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
    tokens: str = "word",
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
    per_ref = sentence_stats(hypothesis, references, source, max_order=max_order, formula=formula, tokens=tokens)
    details = tuple(score_stats(s, smoothing=smoothing) for s in per_ref)
    scores = tuple(d.score for d in details)
    mean, std, ci = spread(scores)
    return GLEUResult(
        score=max(scores) if mode == "max" else mean,
        std=std,
        ci=ci,
        scores=scores,
        mode=mode,
        details=details,
    )


# --------------------------------------------------------------------------------------------------------
# Google's GLEU (Wu et al. 2016): min(precision, recall) over the pooled 1- to 4-grams
# --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GoogleBLEUStats:
    """Additive counts: ``matches`` (pooled n-gram overlap), ``hyp_ngrams``, ``ref_ngrams`` and
    ``denominator`` (each sentence's max(hyp_ngrams, ref_ngrams), summed), for the reference used."""

    matches: int
    hyp_ngrams: int
    ref_ngrams: int
    denominator: int
    segments: int = 1

    def __add__(self, other: GoogleBLEUStats) -> GoogleBLEUStats:
        if not isinstance(other, GoogleBLEUStats):
            return NotImplemented
        return GoogleBLEUStats(
            self.matches + other.matches,
            self.hyp_ngrams + other.hyp_ngrams,
            self.ref_ngrams + other.ref_ngrams,
            self.denominator + other.denominator,
            self.segments + other.segments,
        )

    def __radd__(self, other: Any) -> GoogleBLEUStats:
        if other == 0:
            return self
        return NotImplemented


@dataclass(frozen=True)
class GoogleBLEUResult:
    """Google's GLEU: ``score`` = matches / denominator = min(precision, recall) for one sentence."""

    score: float
    precision: float
    recall: float
    stats: GoogleBLEUStats

    def __float__(self) -> float:
        return self.score

    def __repr__(self) -> str:
        s = self.stats
        return (
            f"GoogleBLEUResult(score={self.score:.4f}, matches={s.matches}, hyp_ngrams={s.hyp_ngrams}, "
            f"ref_ngrams={s.ref_ngrams})"
        )


def pooled_ngram_counts(tokens: Sequence[str], min_order: int, max_order: int) -> Counter:
    """All n-grams of orders ``min_order`` to ``max_order`` in one Counter (n-grams of different orders
    are different tuples, so they never match each other)."""
    pooled: Counter = Counter()
    for n in range(min_order, max_order + 1):
        pooled.update(ngram_counts(tokens, n))
    return pooled


def google_bleu_stats(
    hypothesis: Sequence[str], references: Sequence[Sequence[str]], min_order: int = 1, max_order: int = 4
) -> GoogleBLEUStats | None:
    """The statistics against the reference with the best matches / max(hyp, ref) (first on ties);
    ``None`` when there is nothing to count (empty hypothesis and empty references)."""
    hyp = pooled_ngram_counts(hypothesis, min_order, max_order)
    hyp_total = sum(hyp.values())
    best = None
    for reference in references:
        ref = pooled_ngram_counts(reference, min_order, max_order)
        ref_total = sum(ref.values())
        denominator = max(hyp_total, ref_total)
        if denominator == 0:
            continue
        matches = sum((hyp & ref).values())
        if best is None or matches / denominator > best.matches / best.denominator:
            best = GoogleBLEUStats(matches, hyp_total, ref_total, denominator)
    return best


def score_google_bleu(stats: GoogleBLEUStats | None) -> GoogleBLEUResult:
    """matches / denominator, with 0 when nothing was counted; precision and recall alongside."""
    if stats is None:
        stats = GoogleBLEUStats(0, 0, 0, 0, segments=0)
    return GoogleBLEUResult(
        score=stats.matches / stats.denominator if stats.denominator else 0.0,
        precision=stats.matches / stats.hyp_ngrams if stats.hyp_ngrams else 0.0,
        recall=stats.matches / stats.ref_ngrams if stats.ref_ngrams else 0.0,
        stats=stats,
    )


def _check_orders(min_order: int, max_order: int) -> None:
    check_int("min_order", min_order, 1)
    check_int("max_order", max_order, 1)
    if min_order > max_order:
        raise ValueError(f"min_order ({min_order}) must not exceed max_order ({max_order})")


def sentence_google_bleu(
    hypothesis: str | Sequence[str],
    references: Sequence[str | Sequence[str]],
    *,
    min_order: int = 1,
    max_order: int = 4,
    tokenize: str = "none",
) -> GoogleBLEUResult:
    """Google's GLEU of one sentence (NLTK's ``gleu_score.sentence_gleu``, which takes references first).

    >>> round(float(sentence_google_bleu("the the the the the the the", ["the cat is on the mat"])), 4)
    0.0909
    """
    _check_orders(min_order, max_order)
    check_choice("tokenizer", tokenize, TOKENIZERS)
    tokenizer = get_tokenizer(tokenize)
    hyp = as_tokens(hypothesis, "hypothesis", tokenizer)
    refs = [as_tokens(r, f"references[{k}]", tokenizer) for k, r in enumerate(check_references(references))]
    return score_google_bleu(google_bleu_stats(hyp, refs, min_order, max_order))


def corpus_google_bleu(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    *,
    min_order: int = 1,
    max_order: int = 4,
    tokenize: str = "none",
) -> GoogleBLEUResult:
    """Google's GLEU of a corpus: summed matches over summed denominators (not a mean of sentence scores).

    Each sentence contributes its best reference's counts, as NLTK's ``gleu_score.corpus_gleu``.
    """
    _check_orders(min_order, max_order)
    check_choice("tokenizer", tokenize, TOKENIZERS)
    check_corpus("hypotheses", hypotheses)
    check_corpus("references", references)
    check_same_length(hypotheses=hypotheses, references=references)
    tokenizer = get_tokenizer(tokenize)
    total = GoogleBLEUStats(0, 0, 0, 0, segments=0)
    for i, (hyp, refs) in enumerate(zip(hypotheses, references)):
        h = as_tokens(hyp, f"hypotheses[{i}]", tokenizer)
        checked = check_references(refs, f"references[{i}]")
        rs = [as_tokens(r, f"references[{i}][{k}]", tokenizer) for k, r in enumerate(checked)]
        stats = google_bleu_stats(h, rs, min_order, max_order)
        if stats is not None:
            total = total + stats
    return score_google_bleu(total)


__all__ = [
    "FORMULAS",
    "GLEUResult",
    "GLEUScore",
    "GLEUStats",
    "GoogleBLEUResult",
    "GoogleBLEUStats",
    "best_reference",
    "corpus_gleu",
    "corpus_google_bleu",
    "count_order",
    "order_counts",
    "score_google_bleu",
    "score_assignments",
    "score_stats",
    "script_reference_indices",
    "segment_stats",
    "sentence_gleu",
    "sentence_google_bleu",
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
    """
    import argparse

    from .data import read_lines

    parser = argparse.ArgumentParser(prog="python -m evalkit.gleu", description=main.__doc__)
    parser.add_argument("-s", "--source", required=True, help="the uncorrected sentences")
    parser.add_argument("-r", "--references", required=True, nargs="+", help="one file per reference set")
    parser.add_argument("-o", "--outputs", required=True, nargs="+", help="one file per system output")
    parser.add_argument("-n", "--max-order", type=int, default=DEFAULT_ORDER)
    parser.add_argument("-i", "--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("-t", "--tokens", choices=TOKENS, default="word")
    parser.add_argument("-m", "--max", action="store_true", help="the best reference per sentence")
    parser.add_argument("-d", "--digits", type=int, default=4)
    args = parser.parse_args(argv)

    sources = read_lines(args.source)
    reference_sets = [read_lines(path) for path in args.references]
    for path, lines in zip(args.references, reference_sets):
        if len(lines) != len(sources):
            parser.error(f"{path} has {len(lines)} lines, the source {len(sources)}")
    references = [list(refs) for refs in zip(*reference_sets)]
    for path in args.outputs:
        hypotheses = read_lines(path)
        result = corpus_gleu(
            hypotheses,
            references,
            sources,
            iterations=args.iterations,
            max_order=args.max_order,
            tokens=args.tokens,
            mode="max" if args.max else "sample",
        )
        d = args.digits
        low, high = result.ci
        print(f"{path}\t{100 * result.score:.{d}f}\t{100 * result.std:.{d}f}\t({100 * low:.{d}f}, {100 * high:.{d}f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
