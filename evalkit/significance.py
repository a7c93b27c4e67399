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
above* it and returns c / n (see :func:`p_value`); ``"at-least"`` counts those at or above it and returns
(c + 1) / (n + 1), so that a tie counts as "at least as large" (a system identical to the baseline gets p = 1).
The three agree, up to Moses' c / n, unless samples tie exactly with the real difference.  With ``n`` samples, sacreBLEU's rule can give no p-value below ``1 / (n + 1)``
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
``SACREBLEU_SEED=0`` it draws the systems' samples unseeded and cannot be reproduced.)

**Which metric.**  This module knows no metric: it asks :func:`evalkit.protocol.get_metric` for the one named
by ``metric`` and passes it the other keywords, which are the metric's own (those of its corpus function).
The metric turns corpora into per-segment integer rows and scores summed rows (:class:`evalkit.protocol.
Metric`); the tests resample rows.  Five are built in: ``"bleu"`` (the default, :func:`evalkit.bleu.
corpus_bleu`), ``"chrf"`` (chrF, and chrF++ with ``word_order=2``), ``"ter"``, ``"rouge"`` (``variant``,
``average``, ``score`` and the sentence options: see :mod:`evalkit.rouge_corpus`) and ``"gleu"`` (GEC GLEU,
with ``sources=[...]`` and one draw of references: see :mod:`evalkit.gleu`); another registers with
:func:`evalkit.protocol.register_metric`.

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

Memory grows with the number of segments only: samples are drawn, summed and scored in chunks of
:data:`SAMPLES_PER_CHUNK`, and the chunks draw exactly the numbers one big draw would.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import resample
from ._checks import check_bool, check_choice, check_corpus, check_int, check_references, check_same_length, check_text
from .protocol import Metric, get_metric
from .resample import DEFAULT_SEED, SAMPLES_PER_CHUNK, check_seed, confidence_interval

P_VALUE_RULES = ("sacrebleu", "moses", "at-least")
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
    be 0).  ``"at-least"``: count the samples at or above it, (c + 1) / (n + 1): sacreBLEU's formula with
    the ties counted, so that identical systems get p = 1 (evalkit's command line uses it).  A float32 array is compared in float32 (numpy rounds ``observed`` to float32), as in sacreBLEU,
    whose chrF and TER samples are float32; anything else in float64.  A NaN or an infinity, among the
    statistics or as ``observed``, is refused with a ValueError (a NaN is neither above nor below anything,
    so ``[nan]`` against 0 would give p = 0.5).

        >>> p_value([0.1, 0.5, 0.2, 0.7], 0.5), p_value([0.1, 0.5, 0.2, 0.7], 0.5, rule="moses")
        (0.4, 0.5)
        >>> p_value([0.1, 0.5, 0.2, 0.7], 0.5, rule="at-least")
        0.6
    """
    check_choice("p_value_rule", rule, P_VALUE_RULES)
    stats = _floats(statistics, "statistics")
    if stats.ndim != 1 or len(stats) == 0:
        raise ValueError("statistics must be a non-empty list of numbers")
    observed = _finite("observed", observed)
    if rule == "sacrebleu":
        return (int(np.sum(stats > observed)) + 1) / (len(stats) + 1)
    if rule == "at-least":
        return (int(np.sum(stats >= observed)) + 1) / (len(stats) + 1)
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
    base, system = _floats(baseline_scores, "baseline_scores"), _floats(system_scores, "system_scores")
    if base.ndim != 1 or base.shape != system.shape or len(base) == 0:
        raise ValueError("baseline_scores and system_scores must be non-empty lists of numbers of the same length")
    real = _finite("system_score", system_score) - _finite("baseline_score", baseline_score)
    if null == "shifted":
        return np.abs((system - base).astype(np.float64) - real), abs(real)
    diffs = np.abs(system - base)
    return diffs - diffs.mean(), abs(real)


def smallest_p_value(n_samples: int, rule: str = "sacrebleu") -> float:
    """The smallest p-value ``n_samples`` samples can give: ``1 / (n + 1)`` under sacreBLEU's rule and
    "at-least", 0 under Moses' (whose smallest p-value above 0 is ``1 / n``).

        >>> smallest_p_value(1000), smallest_p_value(19), smallest_p_value(20)
        (0.000999000999000999, 0.05, 0.047619047619047616)
    """
    check_int("n_samples", n_samples, 1)
    check_choice("p_value_rule", rule, P_VALUE_RULES)
    return 0.0 if rule == "moses" else 1 / (n_samples + 1)


def _floats(values, what: str) -> np.ndarray:
    """float32 arrays as they are, anything else as float64; a NaN or an infinity is refused (a ValueError):
    it compares as neither above nor below anything, and would give a p-value that looks like one."""
    array = np.asarray(values)
    if not np.issubdtype(array.dtype, np.number) or np.issubdtype(array.dtype, np.complexfloating):
        raise TypeError(f"{what} must be real numbers, got an array of {array.dtype}")
    array = array if array.dtype == np.float32 else array.astype(np.float64)
    if not np.isfinite(array).all():
        raise ValueError(f"{what} holds NaN or infinite values (at index {int(np.argmin(np.isfinite(array)))}); "
                         "scores and test statistics must be finite numbers")
    return array


def _finite(what: str, value: Any) -> float:
    """A finite real number as a float (numpy numbers too), else a TypeError or ValueError naming it."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{what} must be a number, got {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{what} is {value}; it must be a finite number")
    return float(value)


Corpus = Sequence[Any]


# --------------------------------------------------------------------------------------------------------
# Checking the arguments
# --------------------------------------------------------------------------------------------------------
def _check_inputs(baseline, systems, references, baseline_name, n_samples, seed, p_value_rule, metric, options):
    adapter = get_metric(metric)
    adapter.check_options(options)
    check_int("n_samples", n_samples, 1)
    check_seed(seed)
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


class _Scorer:
    """The metric's scores of summed rows (:meth:`evalkit.protocol.Metric.scores`) with the test's settings."""

    def __init__(self, adapter: Metric, options: dict, fast: bool, float32: bool):
        fast, float32 = check_bool("fast", fast), check_bool("sacrebleu_float32", float32)
        self.adapter, self.options, self.fast, self.float32 = adapter, options, fast, float32
        if float32 and (not fast or adapter.score_rows is None):
            raise ValueError("sacrebleu_float32=True needs fast=True and a metric that scores rows with numpy")

    def __call__(self, rows: np.ndarray, float32: bool | None = None) -> np.ndarray:
        f32 = self.float32 if float32 is None else float32
        return self.adapter.scores(rows, self.options, fast=self.fast, float32=f32)


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
        if rule != "moses":
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

    Returns, by name (the baseline first, under ``baseline_name``), the real score, the mean and 95%
    half-width of the resampled scores, and the p-value of the difference to the baseline.  The p-value
    estimates P(a difference at least this large | no real difference), not the probability that the
    difference is real.  The steps:

    1. Statistics: the metric (:func:`evalkit.protocol.get_metric`) gives every segment of every system one
       row of integers (for BLEU, :meth:`~evalkit.bleu.BLEUStats.row`: lengths, clipped matches, totals).
    2. Resample: ``n_samples`` test sets of the same size, drawn with replacement (the same draws for every
       system, :func:`evalkit.resample.draw_counts`); a resampled corpus's statistics are the sum of its
       segments' rows, nothing is recounted.
    3. Score: the metric scores each summed row (``score_rows``, equal to its ``score_stats``): the
       systems' scores S*_i on resample i, and the real scores S on the whole test set.
    4. Compare: with Δ = S_system − S_baseline and Δ*_i the same difference on resample i, the p-value is
       :func:`p_value` of :func:`bootstrap_null_statistics` (by default (c + 1) / (n + 1), c the number of
       resamples with |Δ*_i − Δ| > |Δ|), and the 95% interval is :func:`confidence_interval` of the S*_i
       (the scores ranked n // 40 from either end).

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
    *at or above* it, c / n; ``"at-least"`` counts those at or above it, (c + 1) / (n + 1) (see :func:`p_value`).
    It cannot be smaller than ``1 / (n_samples + 1)`` under sacreBLEU's rule and "at-least".  ``null`` changes the p-value only; scores, means and intervals are the same.

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
    mats = adapter.checked_statistics([baseline, *systems.values()], references, options, score.fast)
    if score.float32:
        score(mats[0].sum(axis=0)[None, :])  # refused up front where the metric cannot give float32 scores
    _warn_few_samples(n_samples, p_value_rule, interval_samples=n_samples)
    k = mats[0].shape[1]
    real = score(np.stack([m.sum(axis=0) for m in mats]), float32=False)
    samples = _bootstrap_scores(np.random.default_rng(seed), np.hstack(mats), k, n_samples, score)

    scale = adapter.float32_scale if score.float32 else 1.0  # samples on sacreBLEU's scale (chrF, TER: 100)
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
    above it, c / n (``p_value_rule="moses"``), or at or above it, (c + 1) / (n + 1) (``"at-least"``).  Warnings as for :func:`paired_bootstrap` (fewer than 20
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
    confidence_samples = check_int("confidence_samples", confidence_samples, 0)  # 0: no interval
    score = _Scorer(adapter, options, fast, sacrebleu_float32)
    mats = adapter.checked_statistics([baseline, *systems.values()], references, options, score.fast)
    if score.float32:
        score(mats[0].sum(axis=0)[None, :])  # refused up front where the metric cannot give float32 scores
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
    if p_value_rule == "at-least":
        p_values = ((at_or_above + 1) / (n_samples + 1)).tolist()
    elif p_value_rule == "sacrebleu":
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
        scale = adapter.float32_scale if score.float32 else 1.0
        means, cis = [m / scale for m, _ in intervals], [c / scale for _, c in intervals]
    return _results([baseline_name, *systems], real, [None, *p_values], means, cis)


__all__ = [
    "BOOTSTRAP_NULLS",
    "DEFAULT_SEED",
    "P_VALUE_RULES",
    "PairedResult",
    "MIN_SAMPLES_FOR_INTERVAL",
    "MIN_SAMPLES_FOR_P",
    "SAMPLES_PER_CHUNK",
    "SignificanceWarning",
    "bootstrap_null_statistics",
    "confidence_interval",
    "p_value",
    "paired_approximate_randomization",
    "paired_bootstrap",
    "smallest_p_value",
]
