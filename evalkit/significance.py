"""Paired significance tests: is the difference between two systems more than luck of the test set?

A corpus score is computed on one test set, a sample of the sentences a system could be asked to translate.
Another sample would give other scores, so a difference of 0.05 BLEU between two systems may come from the
sample alone.  Both tests here estimate a p-value, P(a difference at least as large as the real one | the two
systems are equally good), by rescoring the corpus many times; a p-value is not the probability that the
difference is real.  Both work on *per-segment sufficient statistics* (for BLEU: lengths, clipped matches and
n-gram totals): a resampled corpus is scored by adding up the statistics of its segments, nothing is recounted.

- **Paired bootstrap resampling** (Koehn, 2004): draw the segments of a pseudo test set with replacement,
  the *same* draws for the baseline and the system, and score both.  After many draws, the spread of the
  system's scores gives a 95% confidence interval.  The p-value (``null="shifted"``, the default) moves the
  resampled differences Δ*_i by the real difference Δ, so that they scatter around 0 as under "no
  difference", and counts the draws with |Δ*_i − Δ| reaching |Δ|.  ``null="sacrebleu"`` gives sacreBLEU's
  and Moses' p-value instead, which compares |Δ*_i| − mean |Δ*| with |Δ|: for a clear difference that
  counts one side only and gives about half the two-sided p-value (see :func:`paired_bootstrap`).
- **Approximate randomization** (Riezler & Maxwell, 2005): under the null hypothesis the two systems are
  interchangeable, so for each segment flip a coin and swap the two systems' statistics.  The p-value
  counts the shuffles whose absolute score difference reaches the real one.

How "reaches" is counted is the ``p_value_rule``.  ``"sacrebleu"`` (the default, also multeval's) counts the
samples *strictly above* the real difference and returns (c + 1) / (n + 1); ``"moses"`` counts those *at or
above* it and returns c / n (see :func:`p_value`).  The two agree unless samples tie exactly with the real
difference.  With ``n`` samples, sacreBLEU's rule can give no p-value below ``1 / (n + 1)``
(:func:`smallest_p_value`): 1,000 samples cannot say more than "p <= 0.001".

**What is refused or flagged.**  Two situations give numbers that look confident and are not; evalkit keeps
the numbers (with ``null="sacrebleu"`` for the bootstrap, they are what sacreBLEU computes, draw for draw)
and issues a :class:`SignificanceWarning` that says why:

- *too few samples*: fewer than 20 samples cannot give a p-value below 0.05 under sacreBLEU's rule
  (1 / (n + 1) >= 0.05 for n <= 19), and under Moses' rule only p = 0 lies below it; with fewer than 40
  bootstrap samples no score can be cut from either end of the sorted scores, so the "95% interval" is
  the range of all of them (:func:`confidence_interval`);
- *ties with the real difference* under sacreBLEU's rule: a system whose per-segment statistics equal the
  baseline's, or two systems that score the same (for instance 0) on every resample, give a difference of
  0 that every sample ties; counting only the samples strictly above it, sacreBLEU's rule returns the
  smallest p-value there is, 1 / (n + 1), "significant" with no difference at all.  The warning gives the
  p-value with the ties counted (as "at least as large" counts them).  Ties also occur on corpora of a
  handful of segments, where few distinct resamples exist.

Both reproduce sacreBLEU 2.6.0's ``PairedTest`` draw for draw (numpy's default generator, seeded with
12345 unless you say otherwise): the same means and confidence intervals, and the same p-values (for the
bootstrap, with ``null="sacrebleu"``; its default p-value is the shifted one).  (``seed=0`` is a seed
here; sacreBLEU 2.6.0's ``PairedTest`` passes ``self._seed if self._seed else None`` to its tests, so with
``SACREBLEU_SEED=0`` it draws the systems' samples unseeded and cannot be reproduced.)  Five metrics are
registered, each with the keywords of its corpus function:

- ``metric="bleu"`` (the default, :func:`~evalkit.bleu.corpus_bleu`), ``"chrf"`` (chrF, and chrF++ with
  ``word_order=2``, :func:`~evalkit.chrf.corpus_chrf`) and ``"ter"`` (:func:`~evalkit.ter.corpus_ter`);
- ``"rouge"``: :func:`~evalkit.rouge_corpus.corpus_rouge`'s score with ``variant`` ("rouge1" by default,
  "rouge2", ..., "rougeL", "rougeLsum", "rougeW", "rougeS", "rougeSU"), ``average`` ("mean" of the
  segments' scores by default, as rouge-score; "micro": the score of the summed counts, ROUGE-1.5.5's
  ``-t 1``, not for ROUGE-W), ``score`` ("fmeasure" by default, or "precision" or "recall": the one
  number tested) and the sentence options (``stemmer``, ``tokenize``, ``beta``, ``aggregation``, and
  ``weight``, ``max_skip``, ``convention``, ``split_summaries`` where the variant takes them);
- ``"gleu"``: GEC GLEU (:func:`~evalkit.gleu.corpus_gleu`), which also reads the uncorrected sentences:
  pass ``sources=[...]``.  Its statistics add up once every sentence has one reference, so the tests
  use *one draw* of references: that of corpus_gleu's iteration ``iteration`` (0 by default;
  ``reference_seed`` as corpus_gleu's ``seed``), kept by each sentence when the corpus is resampled or
  swapped.  The real score is then ``corpus_gleu(...).scores[iteration]``, corpus_gleu's own score when
  every sentence has one reference; ``mode="max"`` uses each hypothesis's best reference (``gleu -m``)
  and gives corpus_gleu's ``mode="max"`` score.  ``max_order``, ``tokenize`` and ``formula`` as in
  corpus_gleu.

    >>> hyps = ["the cat sat on the mat", "a dog barked", "it is raining today", "we went home early"]
    >>> refs = [["the cat sat on the mat"], ["the dog barked"], ["it rains today"], ["we went home early"]]
    >>> base = ["a cat sat on a mat", "a dog barked", "it is raining", "we went home"]
    >>> out = paired_bootstrap(base, {"new": hyps}, refs, n_samples=200, smoothing="exp")
    >>> out["baseline"].p_value is None, out["new"].score > out["baseline"].score
    (True, True)

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     same = paired_bootstrap(base, {"copy": list(base)}, refs, n_samples=200, smoothing="exp")
    >>> same["copy"].p_value == smallest_p_value(200), caught[0].category.__name__
    (True, 'SignificanceWarning')

Any metric whose statistics add up over segments plugs in with :func:`register_metric`: a function that
turns corpora into per-segment integer statistics, and one that scores summed statistics.  The five
metrics are registered below.  Statistics that are not integers are made integers without losing a bit:
TER's averaged reference lengths over a common denominator, and the segment scores that ROUGE's "mean"
averages as fixed-point numbers (:func:`fixed_point_rows`), so that every resampled mean is the float
``math.fsum(scores) / n`` that corpus_rouge computes.

Memory grows with the number of segments only: samples are drawn, summed and scored in chunks of
:data:`SAMPLES_PER_CHUNK`, and the chunks draw exactly the numbers one big draw would.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from . import bleu, chrf, gleu, resample, rouge, rouge_corpus, ter
from ._checks import (
    check_choice,
    check_corpus,
    check_int,
    check_references,
    check_same_length,
    check_text,
    check_weights,
)
from .resample import DEFAULT_SEED, SAMPLES_PER_CHUNK, confidence_interval
from .tokenize import TOKENIZERS

P_VALUE_RULES = ("sacrebleu", "moses")
# The paired bootstrap's null statistic: the shifted two-sided one (default), or sacreBLEU's / Moses' centred one.
BOOTSTRAP_NULLS = ("shifted", "sacrebleu")
# Fewer samples than these cannot resolve the conventional 0.05 level (p-values), or cut 2.5% from each end of
# the sorted bootstrap scores (intervals): the tests warn below them.
MIN_SAMPLES_FOR_P = 20
MIN_SAMPLES_FOR_INTERVAL = 40
# DEFAULT_SEED (12345, sacreBLEU's) and SAMPLES_PER_CHUNK (samples drawn and scored at once, 256) come from
# evalkit.resample, which draws every resample and coin flip in chunks, the same numbers as one big call.


# --------------------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------------------
class SignificanceWarning(UserWarning):
    """A paired test's numbers are computed as asked, but cannot mean what a p-value or an interval is read
    to mean: too few samples to reach p < 0.05 or to trim an interval, or samples tied with the real
    difference (a system compared with itself), which sacreBLEU's rule does not count."""


@dataclass(frozen=True)
class PairedResult:
    """One system's result in a paired test, on the metric's own scale (BLEU in [0, 1]).

    ``score``: the real corpus score.  ``p_value``: against the baseline (``None`` for the baseline itself).
    ``mean`` and ``ci``: the mean of the bootstrap scores and the half-width of their 95% interval
    (``None`` when no bootstrap was run).  ``float(result)`` is the score.
    """

    score: float
    p_value: float | None = None
    mean: float | None = None
    ci: float | None = None

    def __float__(self) -> float:
        return self.score

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95% interval ``(mean - ci, mean + ci)``, or ``None``."""
        if self.mean is None or self.ci is None:
            return None
        return (self.mean - self.ci, self.mean + self.ci)

    def __repr__(self) -> str:
        def fmt(x: float | None) -> str:
            return "None" if x is None else f"{x:.4f}"

        return (
            f"PairedResult(score={self.score:.4f}, p_value={fmt(self.p_value)}, "
            f"mean={fmt(self.mean)}, ci={fmt(self.ci)})"
        )


# --------------------------------------------------------------------------------------------------------
# The two small formulas every test ends with
# --------------------------------------------------------------------------------------------------------
def p_value(statistics: Sequence[float], observed: float, rule: str = "sacrebleu") -> float:
    """A Monte Carlo estimate of P(a test statistic at least as large as ``observed`` | the null hypothesis),
    from test statistics sampled under the null hypothesis.

    ``"sacrebleu"`` (also multeval's): count the samples *strictly above* the observed value, add one to the
    count and to the number of samples, (c + 1) / (n + 1), so that p is never 0 and never below
    ``1 / (n + 1)`` (:func:`smallest_p_value`).  Samples *equal* to the observed value are not counted, so
    when many samples tie with it (two identical systems: every difference is 0) p comes out small although
    nothing was found; the paired tests warn then.  ``"moses"`` (Moses'
    ``bootstrap-hypothesis-difference-significance.pl``): count the samples at or above it, c / n (which can
    be 0).  A float32 array is compared in float32 (numpy rounds ``observed`` to float32), as in sacreBLEU,
    whose chrF and TER samples are float32; anything else in float64.

        >>> p_value([0.1, 0.5, 0.2, 0.7], 0.5), p_value([0.1, 0.5, 0.2, 0.7], 0.5, rule="moses")
        (0.4, 0.5)
    """
    check_choice("p_value_rule", rule, P_VALUE_RULES)
    stats = _floats(statistics)
    if stats.ndim != 1 or len(stats) == 0:
        raise ValueError("statistics must be a non-empty list of numbers")
    observed = float(observed)
    if rule == "sacrebleu":
        return (int(np.sum(stats > observed)) + 1) / (len(stats) + 1)
    return int(np.sum(stats >= observed)) / len(stats)


def bootstrap_null_statistics(
    baseline_scores: Sequence[float],
    system_scores: Sequence[float],
    baseline_score: float,
    system_score: float,
    null: str = "shifted",
) -> tuple[np.ndarray, float]:
    """The paired bootstrap's test statistics and the observed value they are compared with.

    ``baseline_scores[i]`` and ``system_scores[i]``: both systems' scores on resample i, so
    Δ*_i = system_scores[i] − baseline_scores[i]; Δ = system_score − baseline_score, the real difference.
    Returns ``(statistics, |Δ|)``, to be passed to :func:`p_value`.

    ``"shifted"``: |Δ*_i − Δ|, the resampled differences moved to scatter around 0, as under "no
    difference", folded to count both sides (computed in float64).  ``"sacrebleu"``: |Δ*_i| − mean |Δ*|,
    sacreBLEU 2.6.0's and Moses' statistic (float32 scores stay float32, as in sacreBLEU).

        >>> stats, observed = bootstrap_null_statistics([0, 0, 0, 0], [1, 3, 2, 6], 0, 3)
        >>> stats.tolist(), observed
        ([2.0, 0.0, 1.0, 3.0], 3.0)
        >>> stats, _ = bootstrap_null_statistics([0, 0, 0, 0], [1, 3, 2, 6], 0, 3, null="sacrebleu")
        >>> stats.tolist()
        [-2.0, 0.0, -1.0, 3.0]
    """
    check_choice("null", null, BOOTSTRAP_NULLS)
    base, system = _floats(baseline_scores), _floats(system_scores)
    if base.ndim != 1 or base.shape != system.shape or len(base) == 0:
        raise ValueError("baseline_scores and system_scores must be non-empty lists of numbers of the same length")
    real = float(system_score) - float(baseline_score)
    if null == "shifted":
        return np.abs((system - base).astype(np.float64) - real), abs(real)
    diffs = np.abs(system - base)
    return diffs - diffs.mean(), abs(real)


def smallest_p_value(n_samples: int, rule: str = "sacrebleu") -> float:
    """The smallest p-value ``n_samples`` samples can give: ``1 / (n + 1)`` under sacreBLEU's rule, 0 under
    Moses' (whose smallest p-value above 0 is ``1 / n``).

        >>> smallest_p_value(1000), smallest_p_value(19), smallest_p_value(20)
        (0.000999000999000999, 0.05, 0.047619047619047616)
    """
    check_int("n_samples", n_samples, 1)
    check_choice("p_value_rule", rule, P_VALUE_RULES)
    return 1 / (n_samples + 1) if rule == "sacrebleu" else 0.0


def _floats(values) -> np.ndarray:
    """float32 arrays as they are, anything else as float64."""
    array = np.asarray(values)
    return array if array.dtype == np.float32 else array.astype(np.float64)


# --------------------------------------------------------------------------------------------------------
# Metrics: per-segment statistics and a score of their sum
# --------------------------------------------------------------------------------------------------------
Corpus = Sequence[Any]


@dataclass(frozen=True)
class MetricAdapter:
    """What the tests need from a metric with additive statistics.

    ``statistics(corpora, references, options, fast)``: one integer matrix per corpus, a row per segment
    and a column per statistic.  ``score(row, options)``: the score of one row of *summed* statistics.
    ``score_rows(rows, options, float32)``: optional, the scores of many summed rows at once (numpy);
    return ``None`` for options it does not cover, and ``score`` is called row by row.  ``options``: the
    keywords the metric accepts.  ``float32``: reproduce sacreBLEU, which scores resampled statistics
    from float32 copies (only adapters that can return scores for it).

    ``float32_scale``: what ``score_rows(..., float32=True)`` returns.  1 (BLEU): scores on evalkit's
    scale, as float64 (sacreBLEU's BLEU ends in Python floats).  100 (chrF, TER): sacreBLEU's own float32
    percentages, because sacreBLEU keeps those in float32 to the end: the tests then take means,
    intervals and p-values of the float32 numbers, as sacreBLEU does, and divide by 100 at the end.
    """

    name: str
    options: frozenset[str]
    statistics: Callable[[Sequence[Corpus], Corpus, dict, bool], list[np.ndarray]]
    score: Callable[[np.ndarray, dict], float]
    score_rows: Callable[[np.ndarray, dict, bool], np.ndarray | None] | None = None
    float32_scale: float = 1.0


METRICS: dict[str, MetricAdapter] = {}


def register_metric(adapter: MetricAdapter) -> MetricAdapter:
    """Make a metric available to the tests under ``adapter.name`` (replacing one of that name)."""
    if not isinstance(adapter, MetricAdapter):
        raise TypeError(f"expected a MetricAdapter, got {type(adapter).__name__}")
    METRICS[adapter.name] = adapter
    return adapter


# --- BLEU --------------------------------------------------------------------------------------------------
# A row: hyp_len, closest_ref_len, shortest_ref_len, matches_1..N, totals_1..N, empty_1..N (bleu.BLEUStats).
BLEU_OPTIONS = frozenset(
    {"weights", "smoothing", "tokenize", "lowercase", "effective_order", "ref_length", "smooth_value"}
)
_BLEU_SCORE_OPTIONS = ("weights", "smoothing", "effective_order", "ref_length", "smooth_value")


def _bleu_max_order(options: dict) -> int:
    order = len(options.get("weights", bleu.DEFAULT_WEIGHTS))
    return max(order, 5) if options.get("smoothing") in ("method5", "method7") else order


def bleu_row(stats: bleu.BLEUStats) -> list[int]:
    """A :class:`~evalkit.bleu.BLEUStats` as a flat list of integers."""
    return [stats.hyp_len, stats.closest_ref_len, stats.shortest_ref_len, *stats.matches, *stats.totals, *stats.empty]


def bleu_stats_from_row(row: Sequence[int], tokenize: str = "none", lowercase: bool = False) -> bleu.BLEUStats:
    """The inverse of :func:`bleu_row`."""
    row = [int(x) for x in row]
    order = (len(row) - 3) // 3
    return bleu.BLEUStats(
        hyp_len=row[0],
        closest_ref_len=row[1],
        shortest_ref_len=row[2],
        matches=tuple(row[3 : 3 + order]),
        totals=tuple(row[3 + order : 3 + 2 * order]),
        empty=tuple(row[3 + 2 * order :]),
        tokenize=tokenize,
        lowercase=lowercase,
    )


def _bleu_statistics(corpora: Sequence[Corpus], references: Corpus, options: dict, fast: bool) -> list[np.ndarray]:
    check_weights(options.get("weights", bleu.DEFAULT_WEIGHTS))
    check_choice("smoothing", options.get("smoothing", "none"), bleu.SMOOTHING)
    max_order = _bleu_max_order(options)
    tokenize = options.get("tokenize", "none")
    lowercase = options.get("lowercase", False)
    check_choice("tokenize", tokenize, TOKENIZERS)
    if not isinstance(lowercase, bool):
        raise TypeError(f"lowercase must be True or False, got {lowercase!r}")
    if not fast:  # the readable way: bleu.segment_stats, one BLEUStats per segment
        return [
            np.array(
                [bleu_row(s) for s in bleu.segment_stats(c, references, max_order=max_order, tokenize=tokenize,
                                                         lowercase=lowercase)],
                dtype=np.int64,
            )
            for c in corpora
        ]
    return _bleu_statistics_fast(corpora, references, max_order, tokenize, lowercase)


def _bleu_statistics_fast(corpora, references, max_order, tokenize, lowercase) -> list[np.ndarray]:
    """The same matrices as ``bleu.segment_stats``, counted with evalkit.fast's integer n-gram index:
    the references are indexed once and every system is matched against them with numpy."""
    from .fast import ReferenceIndex, cached_tokenizer

    tok = cached_tokenizer(tokenize)

    def tokens(text):
        if isinstance(text, str):
            return tuple(tok(text.lower() if lowercase else text))
        return tuple(t.lower() for t in text) if lowercase else tuple(text)

    for i, refs in enumerate(references):
        check_references(refs, f"references[{i}]")
    index = ReferenceIndex([tuple(tokens(r) for r in refs) for refs in references], max_order)
    out = []
    for hyps in corpora:
        for i, h in enumerate(hyps):
            check_text(h, f"hypothesis[{i}]")
        hyp_tokens = [tokens(h) for h in hyps]
        lens = np.fromiter(map(len, hyp_tokens), dtype=np.int64, count=len(hyp_tokens))
        closest = np.array(
            [r[0] if len(r) == 1 else bleu.closest_ref_length(n, r) for n, r in zip(lens.tolist(), index.ref_lens)],
            dtype=np.int64,
        )
        shortest = np.array([min(r) for r in index.ref_lens], dtype=np.int64)
        matches = index.matches(hyp_tokens, per_segment=True)
        totals = [np.maximum(lens - n + 1, 0) for n in range(1, max_order + 1)]
        empty = [(lens < n).astype(np.int64) for n in range(1, max_order + 1)]
        out.append(np.column_stack([lens, closest, shortest, *matches, *totals, *empty]).astype(np.int64))
    return out


def _bleu_score(row: np.ndarray, options: dict) -> float:
    """The readable way: rebuild the statistics and call :func:`evalkit.bleu.score_stats`."""
    score_options = {k: options[k] for k in _BLEU_SCORE_OPTIONS if k in options}
    return bleu.score_stats(bleu_stats_from_row(row), **score_options).score


def _bleu_score_rows(rows: np.ndarray, options: dict, float32: bool) -> np.ndarray | None:
    """sacreBLEU's smoothing family for many rows at once, step for step as ``bleu.score_stats`` does it.

    ``float32=True`` rounds each precision as sacreBLEU does when it scores resampled float32 statistics.
    Returns ``None`` for NLTK's smoothing methods (they are scored row by row).
    """
    smoothing = options.get("smoothing", "none")
    if smoothing not in bleu.SACREBLEU_SMOOTHING:
        return None
    weights = np.array(options.get("weights", bleu.DEFAULT_WEIGHTS), dtype=np.float64)
    order = len(weights)
    smooth_value = options.get("smooth_value")
    k = bleu.DEFAULT_SMOOTH_VALUES.get(smoothing) if smooth_value is None else float(smooth_value)
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


register_metric(MetricAdapter("bleu", BLEU_OPTIONS, _bleu_statistics, _bleu_score, _bleu_score_rows))


# --- chrF and chrF++ -----------------------------------------------------------------------------------------
# A row: hyp_1..K, ref_1..K, matches_1..K (chrf.CHRFStats), K = char_order + word_order.
CHRF_OPTIONS = frozenset({"char_order", "word_order", "beta", "lowercase", "whitespace", "eps_smoothing"})


def _chrf_settings(options: dict) -> dict:
    return dict(
        char_order=options.get("char_order", chrf.CHAR_ORDER),
        word_order=options.get("word_order", chrf.WORD_ORDER),
        beta=options.get("beta", chrf.BETA),
        lowercase=options.get("lowercase", False),
        whitespace=options.get("whitespace", False),
        eps_smoothing=options.get("eps_smoothing", False),
    )


def _chrf_statistics(corpora: Sequence[Corpus], references: Corpus, options: dict, fast: bool) -> list[np.ndarray]:
    """``chrf.segment_stats`` of each corpus as a matrix (it checks the options)."""
    settings = _chrf_settings(options)
    return [
        np.array([[*s.hyp, *s.ref, *s.matches] for s in chrf.segment_stats(c, references, fast=fast, **settings)],
                 dtype=np.int64)
        for c in corpora
    ]


def _chrf_score(row: np.ndarray, options: dict) -> float:
    """The readable way: rebuild the statistics and call :func:`evalkit.chrf.score_stats`."""
    settings = _chrf_settings(options)
    k = settings["char_order"] + settings["word_order"]
    hyp, ref, matches = (tuple(int(x) for x in row[i * k : (i + 1) * k]) for i in range(3))
    return chrf.score_stats(chrf.CHRFStats(hyp, ref, matches, **settings)).score


def _chrf_score_rows(rows: np.ndarray, options: dict, float32: bool) -> np.ndarray | None:
    """``chrf.chrf_percent`` for many rows at once, operation for operation (so the same floats).

    ``float32=True``: sacreBLEU's float32 percentages.  sacreBLEU scores resampled statistics held as
    float32 numpy numbers, so every division, sum and product of its ``_compute_f_score`` is a float32
    operation (numpy rounds the Python constants 4 and 5 = 1 + beta^2 to float32 first).  Not offered with
    ``eps_smoothing`` (there sacreBLEU mixes float32 with float64 constants order by order).
    """
    settings = _chrf_settings(options)
    k = settings["char_order"] + settings["word_order"]
    factor = settings["beta"] ** 2
    hyp, ref, matches = (rows[:, i * k : (i + 1) * k] for i in range(3))
    if float32:
        if settings["eps_smoothing"]:
            return None
        dtype, one_plus, times = np.float32, np.float32(1 + factor), np.float32(factor)
    else:
        dtype, one_plus, times = np.float64, 1 + factor, factor
    hyp, ref, matches = hyp.astype(dtype), ref.astype(dtype), matches.astype(dtype)
    safe_hyp, safe_ref = np.where(hyp > 0, hyp, 1), np.where(ref > 0, ref, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        if settings["eps_smoothing"]:  # the mean over all orders of the per-order F
            total = np.zeros(len(rows))
            for i in range(k):
                p = np.where(hyp[:, i] > 0, matches[:, i] / safe_hyp[:, i], chrf.EPSILON)
                r = np.where(ref[:, i] > 0, matches[:, i] / safe_ref[:, i], chrf.EPSILON)
                denominator = times * p + r
                safe = np.where(denominator > 0, denominator, 1)
                total = total + np.where(denominator > 0, one_plus * p * r / safe, chrf.EPSILON)
            return 100 * total / k / 100
        # Precision and recall averaged over the orders where both sides have n-grams, then one F.
        sum_p, sum_r = np.zeros(len(rows), dtype=dtype), np.zeros(len(rows), dtype=dtype)
        effective = np.zeros(len(rows), dtype=np.int64)
        for i in range(k):
            both = (hyp[:, i] > 0) & (ref[:, i] > 0)
            sum_p = np.where(both, sum_p + matches[:, i] / safe_hyp[:, i], sum_p)
            sum_r = np.where(both, sum_r + matches[:, i] / safe_ref[:, i], sum_r)
            effective += both
        n = np.where(effective > 0, effective, 1).astype(dtype)
        avg_p, avg_r = sum_p / n, sum_r / n
        denominator = times * avg_p + avg_r
        f = one_plus * avg_p * avg_r / np.where(denominator > 0, denominator, 1)
        zero = (effective == 0) | (avg_p + avg_r == 0)
    if float32:
        return np.where(zero, np.float32(0), np.float32(100) * f)  # sacreBLEU's percentages, float32
    return np.where(zero, 0.0, 100 * f) / 100


register_metric(MetricAdapter("chrf", CHRF_OPTIONS, _chrf_statistics, _chrf_score, _chrf_score_rows, 100.0))


# --- TER ---------------------------------------------------------------------------------------------------
# A segment's TER statistics are its edits against the closest reference and the *average* length of its
# references, a fraction when the references differ in length.  To keep rows integer, every average is
# multiplied by L, the least common multiple of the averages' denominators (1 with one reference per
# segment), and each row carries L and a 1 as well.  A row: edits, L * average reference length, L, 1.
# Summed over any n segments, the last two columns are n * L and n, so the scorer recovers L exactly.
TER_OPTIONS = frozenset(ter.OPTIONS)


def _ter_statistics(corpora: Sequence[Corpus], references: Corpus, options: dict, fast: bool) -> list[np.ndarray]:
    """``ter.segment_stats`` of each corpus (it checks the options) as integer matrices."""
    per_corpus = [ter.segment_stats(c, references, fast=fast, **options) for c in corpora]
    # ref_length = (sum of reference lengths) / nrefs, so the sum is recovered exactly by rounding.
    averages = [[Fraction(round(s.ref_length * s.nrefs), s.nrefs) for s in stats] for stats in per_corpus]
    scale = math.lcm(*(a.denominator for column in averages for a in column))
    return [
        np.array([[s.edits, int(a * scale), scale, 1] for s, a in zip(stats, column)], dtype=np.int64)
        for stats, column in zip(per_corpus, averages)
    ]


def _ter_score(row: np.ndarray, options: dict) -> float:
    """The readable way: rebuild the statistics and call :func:`evalkit.ter.score_stats`."""
    edits, scaled_length, scale_sum, segments = (int(x) for x in row)
    stats = ter.TERStats(edits, scaled_length / (scale_sum // segments), 0, 0, 0, 0, **options)
    return ter.score_stats(stats).score


def _ter_score_rows(rows: np.ndarray, options: dict, float32: bool) -> np.ndarray | None:
    """Edits / reference length for many rows at once (1 or 0 where there are no reference words).

    ``float32=True``: sacreBLEU's float32 percentages, 100 * (edits / length) in float32.  Offered when
    the averaged reference lengths are exact in float32 sums (L a power of two: one reference, or
    references of equal length or lengths differing by an even number); otherwise ``None``.
    """
    edits, scaled, scale = rows[:, 0], rows[:, 1], rows[:, 2] // rows[:, 3]
    if float32:
        if np.any(scale & (scale - 1)):  # not a power of two: sacreBLEU's float32 sums would round
            return None
        length = (scaled / scale).astype(np.float32)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = edits.astype(np.float32) / np.where(length > 0, length, np.float32(1))
        empty = np.where(edits > 0, np.float32(1), np.float32(0))
        return np.float32(100) * np.where(length > 0, ratio, empty)
    length = scaled / scale
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = edits / np.where(length > 0, length, 1.0)
    return np.where(length > 0, ratio, np.where(edits > 0, 1.0, 0.0))


register_metric(MetricAdapter("ter", TER_OPTIONS, _ter_statistics, _ter_score, _ter_score_rows, 100.0))


# --- ROUGE ---------------------------------------------------------------------------------------------
# Two corpus scores, as evalkit.rouge_corpus.corpus_rouge computes them:
#  - average="micro" (ROUGE-1.5.5's -t 1): P, R and F of the summed counts.  A row: hits, hypothesis
#    units, reference units, integers (not offered for ROUGE-W, whose counts are floats).
#  - average="mean" (rouge-score, ROUGE-1.5.5's default): the mean of the segments' scores.  The statistic
#    of a segment is its score, a float.  Floats do not add up exactly in floating point, so each score v
#    is written exactly as an integer number of 2**-E (E: the most binary digits any score needs after the
#    point) and split into pieces of LIMB_BITS bits.  Sums of the pieces stay exact in the tests' float64
#    matrix products, and the scorer rebuilds the exact sum and rounds it once (math.fsum), so the mean is
#    the float corpus_rouge gets: math.fsum of the segments' scores, divided by their number.
#    A row: the pieces of v * 2**E (lowest first), E, 1 (summed over n segments: n * E and n).
# ``score`` chooses which of precision, recall and F is tested (F by default, as float(RougeScore)).
ROUGE_SCORES = ("precision", "recall", "fmeasure")
_ROUGE_SENTENCE_OPTIONS = ("stemmer", "tokenize", "beta", "aggregation")
_ROUGE_VARIANT_OPTIONS = {"W": ("weight", "convention"), "S": ("max_skip",), "SU": ("max_skip", "convention"),
                          "Lsum": ("split_summaries",)}
ROUGE_OPTIONS = frozenset(
    {"variant", "average", "score", *_ROUGE_SENTENCE_OPTIONS, *(o for v in _ROUGE_VARIANT_OPTIONS.values() for o in v)}
)
LIMB_BITS = 26  # a piece of a fixed-point score: a sum over n < 2**27 segments stays below 2**53


def _rouge_settings(options: dict) -> tuple[str, str, str, dict]:
    """(variant, average, score, the options of the sentence-level function), checked."""
    variant = options.get("variant", "rouge1")
    rouge_corpus.get_scorer(variant)  # checks the name
    kind = variant[len("rouge"):]
    average = options.get("average", "mean")
    check_choice("average", average, rouge_corpus.AVERAGES)
    measure = options.get("score", "fmeasure")
    check_choice("score", measure, ROUGE_SCORES)
    allowed = (*_ROUGE_SENTENCE_OPTIONS, *_ROUGE_VARIANT_OPTIONS.get(kind, ()))
    extra = sorted(set(options) - {"variant", "average", "score", *allowed})
    if extra:
        raise TypeError(f"option(s) {', '.join(extra)} do not apply to {variant}; it takes: {', '.join(allowed)}")
    if average == "micro" and kind == "W":
        raise ValueError(
            "average='micro' is not offered for ROUGE-W: its counts are floats (f(k) = k ** weight); "
            "use average='mean'"
        )
    return variant, average, measure, {k: options[k] for k in allowed if k in options}


def fixed_point_rows(values: Sequence[Sequence[float]]) -> list[np.ndarray]:
    """Floats >= 0 as exact integer rows, one matrix per list of ``values`` (all with one scale E):
    the pieces of v * 2**E, LIMB_BITS bits each (lowest first), then E, then 1.

        >>> fixed_point_rows([[0.5, 0.75]])[0].tolist()   # E = 2: 0.5 = 2 / 4, 0.75 = 3 / 4
        [[2, 2, 1], [3, 2, 1]]
    """
    exact = [[Fraction(v) for v in column] for column in values]  # a float is a fraction over a power of 2
    for column in exact:
        for v in column:
            if v < 0:
                raise ValueError(f"fixed-point statistics must be >= 0, got {float(v)}")
    e = max(v.denominator.bit_length() - 1 for column in exact for v in column)
    scaled = [[int(v * 2**e) for v in column] for column in exact]
    limbs = max(1, math.ceil(max(x for column in scaled for x in column).bit_length() / LIMB_BITS))
    mask = (1 << LIMB_BITS) - 1
    return [
        np.array([[(x >> (LIMB_BITS * j)) & mask for j in range(limbs)] + [e, 1] for x in column], dtype=np.int64)
        for column in scaled
    ]


def fixed_point_mean(row: Sequence[int]) -> float:
    """The mean of the floats summed into ``row`` (of :func:`fixed_point_rows`): their exact sum rounded
    once to a float, divided by their number (math.fsum(values) / n, to the last bit)."""
    *limbs, e_sum, n = (int(x) for x in row)
    e = e_sum // n
    # Each piece times 2**(LIMB_BITS * j - e) is an exact float; fsum rounds their exact sum once.
    return math.fsum(math.ldexp(limb, LIMB_BITS * j - e) for j, limb in enumerate(limbs)) / n


def _rouge_statistics(corpora: Sequence[Corpus], references: Corpus, options: dict, fast: bool) -> list[np.ndarray]:
    """Each corpus's segments scored by ``rouge_corpus.segment_scores`` (which checks the texts and options)."""
    variant, average, measure, sentence_options = _rouge_settings(options)
    if variant in ("rougeL", "rougeLsum"):
        sentence_options["fast"] = fast  # the bit-parallel LCS: the same numbers
    per_corpus = [rouge_corpus.segment_scores(c, references, variant, **sentence_options) for c in corpora]
    if average == "mean":
        return fixed_point_rows([[getattr(s, measure) for s in scores] for scores in per_corpus])
    if any(s.stats is None for scores in per_corpus for s in scores):
        raise ValueError("average='micro' needs counts: use aggregation 'best' or 'pooled'")
    return [np.array([[s.stats.hits, s.stats.hyp_total, s.stats.ref_total] for s in scores], dtype=np.int64)
            for scores in per_corpus]


def _rouge_score(row: np.ndarray, options: dict) -> float:
    """The readable way: the mean of the segments' scores, or :func:`evalkit.rouge.score_stats` of the counts."""
    _, average, measure, sentence_options = _rouge_settings(options)
    if average == "mean":
        return fixed_point_mean(row)
    hits, hyp_total, ref_total = (int(x) for x in row)
    stats = rouge.RougeStats(hits, hyp_total, ref_total)
    return getattr(rouge.score_stats(stats, beta=sentence_options.get("beta", 1.0)), measure)


def _rouge_score_rows(rows: np.ndarray, options: dict, float32: bool) -> np.ndarray | None:
    """Many rows at once: for "micro", ``rouge.score_stats``'s operations in numpy (the same floats)."""
    if float32:
        return None  # sacreBLEU has no ROUGE
    _, average, measure, sentence_options = _rouge_settings(options)
    if average == "mean":
        return np.array([fixed_point_mean(row) for row in rows.tolist()])
    scores = rouge_corpus.micro_scores(rows, 1.0, float(sentence_options.get("beta", 1.0)))  # columns P, R, F
    return scores[:, ROUGE_SCORES.index(measure)]


register_metric(MetricAdapter("rouge", ROUGE_OPTIONS, _rouge_statistics, _rouge_score, _rouge_score_rows))


# --- GEC GLEU ----------------------------------------------------------------------------------------------
# GLEU's statistics add up once every sentence has *one* reference.  corpus_gleu draws a reference per
# sentence, scores the corpus, and averages over 500 such draws; the tests here use one draw: the
# references of corpus_gleu's iteration ``iteration`` (0 by default; ``reference_seed`` as corpus_gleu's
# ``seed``), the same for the baseline and every system.  The score of the real corpus is then
# corpus_gleu(...).scores[iteration], which is corpus_gleu's score itself when every sentence has one
# reference (nothing to draw) or with mode="max" (each system's best reference per sentence, gleu -m).
# The resampled corpora keep each sentence's reference.  GLEU also reads the uncorrected sentences:
# pass them as ``sources=[...]``, one per segment.
# A row: hyp_len, ref_len, matches_1..N, penalties_1..N, numerators_1..N, totals_1..N (gleu.GLEUStats).
GLEU_OPTIONS = frozenset({"sources", "max_order", "tokenize", "formula", "mode", "iteration", "reference_seed"})


def gleu_reference_picks(counts: Sequence[int], iteration: int = 0, reference_seed: int | None = None) -> list[int]:
    """The reference index of every sentence in :func:`evalkit.gleu.corpus_gleu`'s iteration ``iteration``
    (``counts[i]``: the number of references of sentence i), as corpus_gleu draws them.

        >>> gleu_reference_picks([4, 4, 4, 4, 4]), gleu_reference_picks([1, 1])
        ([3, 3, 1, 1, 2], [0, 0])
    """
    if all(k == 1 for k in counts):
        return [0] * len(counts)
    if reference_seed is None:
        return gleu.script_reference_indices(iteration, counts)
    return gleu.seeded_reference_indices(reference_seed, iteration + 1, counts)[iteration]


def _gleu_settings(options: dict) -> dict:
    sources = options.get("sources")
    if sources is None:
        raise TypeError(
            "metric='gleu' needs the uncorrected sentences: pass sources=[...], one per segment "
            "(GLEU penalizes n-grams the hypothesis kept from the source)"
        )
    check_corpus("sources", sources)
    mode = options.get("mode", "sample")
    check_choice("mode", mode, gleu.MODES)
    iteration = options.get("iteration", 0)
    check_int("iteration", iteration, 0)
    reference_seed = options.get("reference_seed")
    if reference_seed is not None:
        check_int("reference_seed", reference_seed, 0)
    if mode == "max" and ("iteration" in options or "reference_seed" in options):
        raise ValueError("iteration and reference_seed choose a draw of references; mode='max' draws none")
    return dict(sources=sources, mode=mode, iteration=iteration, reference_seed=reference_seed,
                max_order=options.get("max_order", gleu.DEFAULT_ORDER), formula=options.get("formula", "code"),
                tokenize=options.get("tokenize", "none"))


def gleu_row(stats: gleu.GLEUStats) -> list[int]:
    """A :class:`~evalkit.gleu.GLEUStats` as a flat list of integers (its ``segments`` left out)."""
    return [stats.hyp_len, stats.ref_len, *stats.matches, *stats.penalties, *stats.numerators, *stats.totals]


def _gleu_statistics(corpora: Sequence[Corpus], references: Corpus, options: dict, fast: bool) -> list[np.ndarray]:
    """``gleu.segment_stats`` of each corpus (it checks the texts and options), at the chosen references."""
    s = _gleu_settings(options)
    if len(s["sources"]) != len(references):
        raise ValueError(
            f"sources has {len(s['sources'])} sentences and references {len(references)}; "
            "give one source per segment"
        )
    out = []
    for hyps in corpora:
        per_sentence = gleu.segment_stats(hyps, references, s["sources"], max_order=s["max_order"],
                                          formula=s["formula"], tokenize=s["tokenize"], fast=fast)
        if s["mode"] == "max":  # this system's best reference per sentence, as corpus_gleu(mode="max")
            picks = [gleu.best_reference([gleu.score_stats(x) for x in refs]) for refs in per_sentence]
        else:
            picks = gleu_reference_picks([len(refs) for refs in per_sentence], s["iteration"], s["reference_seed"])
        out.append(np.array([gleu_row(refs[k]) for refs, k in zip(per_sentence, picks)], dtype=np.int64))
    return out


def _gleu_score(row: np.ndarray, options: dict) -> float:
    """The readable way: rebuild the statistics and call :func:`evalkit.gleu.score_stats`."""
    v = [int(x) for x in row]
    n = (len(v) - 2) // 4
    stats = gleu.GLEUStats(
        hyp_len=v[0],
        ref_len=v[1],
        matches=tuple(v[2 : 2 + n]),
        penalties=tuple(v[2 + n : 2 + 2 * n]),
        numerators=tuple(v[2 + 2 * n : 2 + 3 * n]),
        totals=tuple(v[2 + 3 * n :]),
    )
    return gleu.score_stats(stats).score


register_metric(MetricAdapter("gleu", GLEU_OPTIONS, _gleu_statistics, _gleu_score))


# --------------------------------------------------------------------------------------------------------
# Checking the arguments
# --------------------------------------------------------------------------------------------------------
def _check_inputs(baseline, systems, references, baseline_name, n_samples, seed, p_value_rule, metric, options):
    if not isinstance(metric, str) or metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; expected one of: {', '.join(map(repr, METRICS))}")
    adapter = METRICS[metric]
    unknown = sorted(set(options) - adapter.options)
    if unknown:
        raise TypeError(
            f"unknown option(s) for {metric}: {', '.join(unknown)}; "
            f"expected some of: {', '.join(sorted(adapter.options))}"
        )
    check_int("n_samples", n_samples, 1)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise TypeError(f"seed must be a non-negative int, or None for an unseeded generator; got {seed!r}")
    check_choice("p_value_rule", p_value_rule, P_VALUE_RULES)
    check_corpus("baseline", baseline)
    check_corpus("references", references)
    if not isinstance(systems, Mapping):
        raise TypeError(f"systems must be a dict of system name -> list of outputs, got {type(systems).__name__}")
    if not systems:
        raise ValueError("systems is empty; give at least one system to compare with the baseline")
    if not isinstance(baseline_name, str):
        raise TypeError(f"baseline_name must be a str, got {type(baseline_name).__name__}")
    for name, hyps in systems.items():
        if not isinstance(name, str):
            raise TypeError(f"system names must be strings, got {name!r}")
        if name == baseline_name:
            raise ValueError(
                f"a system is called {name!r}, the baseline's name; pass baseline_name=... to name the baseline"
            )
        check_corpus(f"systems[{name!r}]", hyps)
        check_same_length(baseline=baseline, references=references, **{f"systems[{name!r}]": hyps})
    if len(baseline) < 2:
        raise ValueError(f"a paired test needs at least 2 segments to resample, got {len(baseline)}")
    # Every text checked here, so that an error names the system and the segment.
    for where, hyps in [("baseline", baseline), *((f"systems[{n!r}]", h) for n, h in systems.items())]:
        for i, text in enumerate(hyps):
            check_text(text, f"{where}[{i}]")
    for i, refs in enumerate(references):
        check_references(refs, f"references[{i}]")
    return adapter


def _statistics(adapter, baseline, systems, references, options, fast) -> list[np.ndarray]:
    mats = adapter.statistics([baseline, *systems.values()], references, options, fast)
    if any(np.any(m < 0) for m in mats):
        raise ValueError(f"{adapter.name}: statistics must be non-negative integers")
    adapter.score(mats[0].sum(axis=0), options)  # the readable scorer checks the options' values
    return mats


class _Scorer:
    """Scores rows of summed statistics with the adapter: all at once when it can, else row by row."""

    def __init__(self, adapter: MetricAdapter, options: dict, fast: bool, float32: bool):
        self.adapter, self.options, self.fast, self.float32 = adapter, options, fast, float32
        if float32 and (not fast or adapter.score_rows is None):
            raise ValueError("sacrebleu_float32=True needs fast=True and a metric that scores rows with numpy")

    def check(self, row: np.ndarray) -> None:
        """Refuse sacrebleu_float32 up front when the adapter cannot score these options that way."""
        if self.float32 and self.adapter.score_rows(row[None, :], self.options, True) is None:
            raise ValueError(f"sacrebleu_float32=True is not available for these {self.adapter.name} options")

    def __call__(self, rows: np.ndarray, float32: bool | None = None) -> np.ndarray:
        rows = np.asarray(rows, dtype=np.int64)
        f32 = self.float32 if float32 is None else float32
        if self.fast and self.adapter.score_rows is not None:
            out = self.adapter.score_rows(rows, self.options, f32)
            if out is not None:
                return _floats(out) if f32 else np.asarray(out, dtype=np.float64)
            if f32:
                raise ValueError(f"sacrebleu_float32=True is not available for these {self.adapter.name} options")
        return np.array([self.adapter.score(row, self.options) for row in rows], dtype=np.float64)


def _bootstrap_scores(rng, table: np.ndarray, k: int, n_samples: int, score: _Scorer) -> np.ndarray:
    """Scores of ``n_samples`` bootstrap resamples for every block of ``k`` columns of ``table``.

    Each chunk of resamples comes as counts (:func:`evalkit.resample.draw_counts`: how often each segment
    was drawn, sacreBLEU's draws), and the statistics are summed as ``counts @ table``: exact, the values
    are small integers.
    """
    n_segments = table.shape[0]
    n_blocks = table.shape[1] // k
    tablef = table.astype(np.float64)
    out = None  # float64, or float32 when the scorer reproduces sacreBLEU's float32 scores
    start = 0
    for counts in resample.draw_counts(rng, n_segments, n_samples, SAMPLES_PER_CHUNK):
        size = len(counts)
        sums = np.rint(counts.astype(np.float64) @ tablef).astype(np.int64)
        scores = score(sums.reshape(size * n_blocks, k)).reshape(size, n_blocks)
        if out is None:
            out = np.empty((n_samples, n_blocks), dtype=scores.dtype)
        out[start : start + size] = scores
        start += size
    return out


def _warn_few_samples(n_samples: int, rule: str, interval_samples: int = 0) -> None:
    """Warn when ``n_samples`` cannot resolve p < 0.05, or ``interval_samples`` (> 0) cannot trim an interval."""
    if n_samples < MIN_SAMPLES_FOR_P:
        if rule == "sacrebleu":
            why = (f"the smallest p-value {n_samples} samples can give is 1/{n_samples + 1} = "
                   f"{smallest_p_value(n_samples):.4f}, so no difference can reach p < 0.05")
        else:
            why = (f"under Moses' rule the p-value moves in steps of 1/{n_samples} = {1 / n_samples:.4f}, so below "
                   f"0.05 it can only be 0, an estimate from {n_samples} samples")
        warnings.warn(
            f"n_samples={n_samples}: {why}; use at least {MIN_SAMPLES_FOR_P} (1,000 bootstrap samples and 10,000 "
            "approximate-randomization trials are the usual numbers)",
            SignificanceWarning,
            stacklevel=3,
        )
    if 0 < interval_samples < MIN_SAMPLES_FOR_INTERVAL:
        warnings.warn(
            f"{interval_samples} bootstrap samples: fewer than {MIN_SAMPLES_FOR_INTERVAL}, so no score is cut from "
            f"either end and the 95% interval (mean ± ci) spans the range of all {interval_samples} resampled scores",
            SignificanceWarning,
            stacklevel=3,
        )


def _warn_ties(name: str, ties: int, n_samples: int, above: int, identical: bool) -> None:
    """Warn that ``ties`` samples equal the real difference, which sacreBLEU's rule does not count."""
    strict, counted = (above + 1) / (n_samples + 1), (above + ties + 1) / (n_samples + 1)
    same = (
        f" Its per-segment statistics are the baseline's: it is compared with itself, and there is no evidence "
        f"of any difference." if identical else ""
    )
    warnings.warn(
        f"{name!r}: {ties} of {n_samples} samples tie exactly with the real difference; sacreBLEU's rule counts only "
        f"the samples strictly above it and gives p = {strict:.4f}, counting the ties (a difference 'at least as "
        f"large') gives p = {counted:.4f}.{same}",
        SignificanceWarning,
        stacklevel=3,
    )


def _results(names, scores, p_values, means, cis) -> dict[str, PairedResult]:
    return {
        name: PairedResult(
            score=float(scores[j]),
            p_value=None if p_values[j] is None else float(p_values[j]),
            mean=None if means[j] is None else float(means[j]),
            ci=None if cis[j] is None else float(cis[j]),
        )
        for j, name in enumerate(names)
    }


# --------------------------------------------------------------------------------------------------------
# The tests
# --------------------------------------------------------------------------------------------------------
def paired_bootstrap(
    baseline: Corpus,
    systems: Mapping[str, Corpus],
    references: Sequence[Sequence[Any]],
    *,
    metric: str = "bleu",
    n_samples: int = 1000,
    seed: int | None = DEFAULT_SEED,
    baseline_name: str = "baseline",
    p_value_rule: str = "sacrebleu",
    null: str = "shifted",
    sacrebleu_float32: bool = False,
    fast: bool = True,
    **options: Any,
) -> dict[str, PairedResult]:
    """Paired bootstrap resampling (Koehn, 2004) of each system against the baseline.

    ``baseline`` and every ``systems[name]`` hold one hypothesis per segment; ``references[i]`` lists
    the references of segment i (as for :func:`evalkit.bleu.corpus_bleu`); ``options`` are the metric's
    keywords (for BLEU: ``tokenize``, ``smoothing``, ``weights``, ... with ``corpus_bleu``'s defaults, so
    pass ``tokenize="13a", smoothing="exp"`` for sacreBLEU's BLEU; for ROUGE and GLEU see the module's
    docstring, GLEU needs ``sources=[...]``).

    Draws ``n_samples`` test sets of the same size with replacement (the same draws for every system),
    scores each, and returns, by name (the baseline first, under ``baseline_name``), the real score, the
    mean and 95% half-width of the resampled scores, and the p-value of the difference to the baseline.
    The p-value estimates P(a difference at least this large | no real difference), not the probability
    that the difference is real.

    ``null`` chooses the statistic compared with the real absolute difference |Δ| (Δ = system − baseline;
    Δ*_i the same difference on resample i); see :func:`bootstrap_null_statistics`:

    - ``"shifted"`` (the default): |Δ*_i − Δ|.  The resampled differences scatter around the real Δ;
      shifted by −Δ they scatter around 0 as they would if there were no difference, and a resample counts
      when its shifted difference is at least as far from 0, on either side, as the real one: the usual
      two-sided bootstrap test, which shifts the bootstrap distribution until it obeys the null hypothesis
      (Efron & Tibshirani 1993, chapter 16).  On WMT17 its p-values come out close to approximate
      randomization's (lesson 11).
    - ``"sacrebleu"``: |Δ*_i| − mean |Δ*|, sacreBLEU 2.6.0's statistic (``_paired_bs_test`` in
      ``sacrebleu/significance.py``), taken from Moses' ``bootstrap-hypothesis-difference-significance.pl``
      (Mark Fishel's change of 22.10.2008, "now computes p-value").  Kept to reproduce sacreBLEU.  When the
      systems clearly differ, every Δ*_i has Δ's sign, so the statistic is about Δ*_i − Δ − (the small
      mean spread): it counts the resamples on *one* side of Δ only and returns about half the two-sided
      p-value; even for Δ = 0 it gives about 0.4, not 1.  On pairs with no real difference it rejects
      more often than the nominal level (see lesson 11).

    The count follows ``p_value_rule`` under either null: sacreBLEU's rule (the default) counts the
    statistics *strictly above* |Δ|, (c + 1) / (n + 1); Moses' (``p_value_rule="moses"``) counts those
    *at or above* it, c / n (see :func:`p_value`).  It cannot be smaller than ``1 / (n_samples + 1)`` under
    sacreBLEU's rule.  ``null`` changes the p-value only; scores, means and intervals are the same.

    A :class:`SignificanceWarning` says when the numbers cannot carry their usual meaning:
    ``n_samples < 20`` (no p-value below 0.05 is reachable), ``n_samples < 40`` (the interval is the range of
    all the resampled scores), and, under sacreBLEU's rule, resamples that tie exactly with the real
    difference (a system identical to the baseline: p = 1 / (n + 1) with no difference at all); the
    warning then gives the p-value with the ties counted.

    ``seed=None`` draws from fresh operating-system entropy (results change from run to run).
    ``sacrebleu_float32=True`` rounds like sacreBLEU, which scores resampled statistics from float32
    copies (its BLEU means and intervals differ from exact arithmetic by about 1e-7 BLEU points; its chrF
    and TER scores stay float32 to the end, about 1e-5 points; float32 sums of counts are exact below
    2**24, about 16 million tokens or characters, and so is the reproduction).  Not offered for NLTK's BLEU
    smoothing methods, chrF's ``eps_smoothing``, or TER with averaged reference lengths float32 cannot hold.
    ``fast=False`` counts with the metric's readable ``segment_stats`` and scores row by row with its
    ``score_stats`` (for BLEU: ``bleu.segment_stats`` and ``bleu.score_stats``).

        >>> refs = [["a b c d"], ["e f g h"], ["i j k l"]]
        >>> out = paired_bootstrap(["a b c d", "e f g x", "i j k l"], {"B": ["a b c d", "e f g h", "i j x l"]},
        ...                        refs, n_samples=100, smoothing="floor")
        >>> out["B"]
        PairedResult(score=0.7503, p_value=0.7228, mean=0.7459, ci=0.2619)
    """
    adapter = _check_inputs(
        baseline, systems, references, baseline_name, n_samples, seed, p_value_rule, metric, options
    )
    check_choice("null", null, BOOTSTRAP_NULLS)
    score = _Scorer(adapter, options, fast, sacrebleu_float32)
    mats = _statistics(adapter, baseline, systems, references, options, fast)
    score.check(mats[0].sum(axis=0))
    _warn_few_samples(n_samples, p_value_rule, interval_samples=n_samples)
    k = mats[0].shape[1]
    real = score(np.stack([m.sum(axis=0) for m in mats]), float32=False)
    samples = _bootstrap_scores(np.random.default_rng(seed), np.hstack(mats), k, n_samples, score)

    scale = adapter.float32_scale if sacrebleu_float32 else 1.0  # samples on sacreBLEU's scale (chrF, TER: 100)
    names = [baseline_name, *systems]
    p_values: list[float | None] = [None]
    for j in range(1, len(names)):
        null_stats, observed = bootstrap_null_statistics(samples[:, 0], samples[:, j], real[0] * scale,
                                                         real[j] * scale, null)
        p_values.append(p_value(null_stats, observed, p_value_rule))
        if p_value_rule == "sacrebleu":
            ties = int(np.sum(null_stats == observed))  # compared as p_value compares (float32 stays float32)
            if ties:
                above = int(np.sum(null_stats > observed))
                _warn_ties(names[j], ties, n_samples, above, np.array_equal(mats[0], mats[j]))
    intervals = [confidence_interval(samples[:, j]) for j in range(len(names))]
    return _results(names, real, p_values, [m / scale for m, _ in intervals], [c / scale for _, c in intervals])


def paired_approximate_randomization(
    baseline: Corpus,
    systems: Mapping[str, Corpus],
    references: Sequence[Sequence[Any]],
    *,
    metric: str = "bleu",
    n_samples: int = 10000,
    seed: int | None = DEFAULT_SEED,
    baseline_name: str = "baseline",
    p_value_rule: str = "sacrebleu",
    confidence_samples: int = 0,
    sacrebleu_float32: bool = False,
    fast: bool = True,
    **options: Any,
) -> dict[str, PairedResult]:
    """Paired approximate randomization (Riezler & Maxwell, 2005) of each system against the baseline.

    Arguments as for :func:`paired_bootstrap`.  Each of ``n_samples`` trials flips a coin per segment
    and swaps the baseline's and the system's statistics of the segments that came up heads (the same
    coins for every system).  The p-value counts the trials whose absolute score difference is strictly
    above the real one, (c + 1) / (n + 1) (sacreBLEU's rule, at least ``1 / (n_samples + 1)``), or at or
    above it, c / n (``p_value_rule="moses"``).  Warnings as for :func:`paired_bootstrap` (fewer than 20
    trials; ties with the real difference; fewer than 40 ``confidence_samples``).  On a corpus of a few
    segments many shuffles give the real difference back exactly (the shuffle that swaps nothing, and
    segments both systems translate alike), so the example below warns.

    ``confidence_samples > 0`` adds a bootstrap mean and 95% interval for every system, as sacreBLEU's
    ``n_ar_confidence`` does: the baseline's from a fresh generator, the systems' from the draws that
    follow the coin flips.  With the default 0, ``mean`` and ``ci`` are ``None``.

        >>> refs = [["a b c d"], ["e f g h"], ["i j k l"]]
        >>> out = paired_approximate_randomization(["a b c d", "e f g x", "i j k l"],
        ...                                        {"B": ["a b c d", "e f g h", "i j x l"]}, refs, smoothing="floor")
        >>> out["B"]
        PairedResult(score=0.7503, p_value=0.5058, mean=None, ci=None)
    """
    adapter = _check_inputs(
        baseline, systems, references, baseline_name, n_samples, seed, p_value_rule, metric, options
    )
    if isinstance(confidence_samples, bool) or not isinstance(confidence_samples, int) or confidence_samples < 0:
        raise ValueError(f"confidence_samples must be an int >= 0 (0: no interval), got {confidence_samples!r}")
    score = _Scorer(adapter, options, fast, sacrebleu_float32)
    mats = _statistics(adapter, baseline, systems, references, options, fast)
    score.check(mats[0].sum(axis=0))
    _warn_few_samples(n_samples, p_value_rule, interval_samples=confidence_samples)
    k = mats[0].shape[1]
    real = score(np.stack([m.sum(axis=0) for m in mats]), float32=False)
    observed = np.abs(real[1:] - real[0])

    # Swapping the statistics of the segments in `heads`: the baseline becomes system + heads @ (base - system)
    # and the system becomes baseline + heads @ (system - base), so one product per chunk serves both.
    base = mats[0]
    delta = np.hstack([m - base for m in mats[1:]]).astype(np.float64)
    base_total = np.tile(base.sum(axis=0), len(mats) - 1)
    sys_total = np.hstack([m.sum(axis=0) for m in mats[1:]])
    rng = np.random.default_rng(seed)
    n_segments, n_systems = len(base), len(mats) - 1
    above = np.zeros(n_systems, dtype=np.int64)  # trials above the observed difference
    at_or_above = np.zeros(n_systems, dtype=np.int64)
    for heads in resample.coin_flips(rng, n_segments, n_samples, SAMPLES_PER_CHUNK):
        size = len(heads)
        moved = np.rint(heads.astype(np.float64) @ delta).astype(np.int64)
        a = score((sys_total - moved).reshape(size * n_systems, k), float32=False).reshape(size, n_systems)
        b = score((base_total + moved).reshape(size * n_systems, k), float32=False).reshape(size, n_systems)
        diffs = np.abs(a - b)
        above += (diffs > observed).sum(axis=0)
        at_or_above += (diffs >= observed).sum(axis=0)
    if p_value_rule == "sacrebleu":
        p_values = ((above + 1) / (n_samples + 1)).tolist()
        for j, name in enumerate(systems):
            ties = int(at_or_above[j] - above[j])
            if ties:
                _warn_ties(name, ties, n_samples, int(above[j]), np.array_equal(base, mats[j + 1]))
    else:
        p_values = (at_or_above / n_samples).tolist()

    means: list[float | None] = [None] * (n_systems + 1)
    cis: list[float | None] = [None] * (n_systems + 1)
    if confidence_samples > 0:
        system_samples = _bootstrap_scores(rng, np.hstack(mats[1:]), k, confidence_samples, score)
        base_samples = _bootstrap_scores(np.random.default_rng(seed), base, k, confidence_samples, score)
        intervals = [confidence_interval(base_samples[:, 0])]
        intervals += [confidence_interval(system_samples[:, j]) for j in range(n_systems)]
        scale = adapter.float32_scale if sacrebleu_float32 else 1.0
        means, cis = [m / scale for m, _ in intervals], [c / scale for _, c in intervals]
    return _results([baseline_name, *systems], real, [None, *p_values], means, cis)


__all__ = [
    "BOOTSTRAP_NULLS",
    "DEFAULT_SEED",
    "METRICS",
    "MetricAdapter",
    "P_VALUE_RULES",
    "PairedResult",
    "MIN_SAMPLES_FOR_INTERVAL",
    "MIN_SAMPLES_FOR_P",
    "SAMPLES_PER_CHUNK",
    "SignificanceWarning",
    "GLEU_OPTIONS",
    "LIMB_BITS",
    "ROUGE_OPTIONS",
    "ROUGE_SCORES",
    "bleu_row",
    "bleu_stats_from_row",
    "bootstrap_null_statistics",
    "confidence_interval",
    "fixed_point_mean",
    "fixed_point_rows",
    "gleu_reference_picks",
    "gleu_row",
    "p_value",
    "paired_approximate_randomization",
    "paired_bootstrap",
    "register_metric",
    "smallest_p_value",
]
