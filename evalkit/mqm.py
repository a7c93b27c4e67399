"""MQM: expert error annotations turned into scores, and how well a metric agrees with them.

**MQM** (Multidimensional Quality Metrics, as Freitag et al. 2021a, TACL, set it up for MT research; the WMT21
metrics task, Freitag et al. 2021b, "Results of the WMT21 Metrics Shared Task", used it to rate the TED talks
test suite whose annotations ``evalkit.data.mqm_ted`` reads): a professional translator marks
every error in a translation (at most five per segment), each with a *category* ("Accuracy/Mistranslation",
"Fluency/Punctuation", "Style/Awkward", ...) and a *severity* (Major, Minor).  A translation with no error
gets one "No-error" row.  The score of one rating is its **weighted error count**, lower is better:

==============================================  ======
an error of severity Major                        5
an error of severity Minor                        1
a Minor ``Fluency/Punctuation`` error             0.1
a ``Non-translation`` (the whole segment)         25
``No-error``, and a ``Neutral`` remark            0
==============================================  ======

(the weights of Freitag et al. 2021a and of the data's README, google/wmt-mqm-human-evaluation).  Every other
category, ``Source error`` included, takes its severity's weight: computed this way from the raw rows, the
scores equal the per-segment averages shipped beside the annotations (tests/test_mqm.py; giving ``Source
error`` the weight 0 would break 38 zh-en segments).  A **segment**'s score is the mean over the raters who
rated it, a **system**'s the mean over its rated segments.

**Agreement with a metric**, all with dicts keyed by system (or by system, then segment) and every score
oriented so that **higher is better**: pass ``-MQM`` (:func:`human_scores` does), and ``-TER``.

- :func:`pairwise_accuracy` (Kocmi et al. 2021): the share of the n (n - 1) / 2 system pairs that the
  metric orders as the humans do, sign(metric difference) == sign(human difference).  A tie counts as a
  third order: a pair tied on one side and not on the other is a disagreement, a pair tied on both sides an
  agreement (as ``Agreement`` in google-research/mt-metrics-eval, ``stats.py``, computes it).
- :func:`segment_kendall_tau`: Kendall's tau-b over all rated (system, segment) items at once ("no
  grouping"): google-research/mt-metrics-eval's ``Correlation.Kendall()`` defaults (``average_by="none"``,
  ``variant="b"``, i.e. ``scipy.stats.kendalltau``), which a user reports reproduces the WMT21 TED numbers
  (mt-metrics-eval issue #1, "WMT21 Reproduce"; no maintainer confirmed it, and the results paper is not our
  source for the variant).
  tau-b counts a pair tied on either side as neither concordant nor discordant and shrinks the denominator
  by the ties: (C - D) / sqrt((P - T_metric) (P - T_human)).  Where neither side has ties it equals
  tau-a and scipy's other variants (tests/test_mqm.py checks it against scipy's tau-b).
- :func:`system_agreement`: Pearson's r, Kendall's tau-b and pairwise accuracy of a metric's system scores.
- :func:`bootstrap_system_agreement`: the three with bootstrap intervals over *segments* (the same
  resampled segments for every system), on the rows of :func:`system_statistics`: through the metric
  protocol (:mod:`evalkit.protocol`) and :mod:`evalkit.resample`, never a metric's internals.

    >>> WEIGHTS["Major"], error_weight("Fluency/Punctuation", "Minor"), error_weight("No-error", "No-error")
    (5.0, 0.1, 0.0)
    >>> pairwise_accuracy({"A": 3, "B": 2, "C": 1}, {"A": -0.5, "B": -1.0, "C": -0.7})
    0.6666666666666666
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

from ._checks import check_bool, check_int
from .correlation import kendall_tau, pearson, sign
from .protocol import get_metric
from .resample import DEFAULT_SEED, Interval, check_confidence, check_seed, draw_counts, generator

# The weight of an error by severity, and the exceptions by category (Freitag et al. 2021a, TACL).
WEIGHTS = {"Major": 5.0, "Minor": 1.0, "Neutral": 0.0, "No-error": 0.0}
MINOR_PUNCTUATION = ("Fluency/Punctuation", 0.1)  # a Minor punctuation error: easy to fix, rarely changes meaning
NON_TRANSLATION = ("Non-translation", 25.0)  # the whole segment unusable: five Major errors
MEASURES = ("pearson", "kendall", "accuracy")


# --------------------------------------------------------------------------------------------------------
# Scores: rating -> segment -> system
# --------------------------------------------------------------------------------------------------------
def error_weight(category: str, severity: str) -> float:
    """The weight of one marked error (``No-error`` rows weigh 0).

    >>> error_weight("Accuracy/Mistranslation", "Major"), error_weight("Style/Awkward", "Minor")
    (5.0, 1.0)
    """
    if not isinstance(category, str) or not isinstance(severity, str):
        raise TypeError(f"category and severity are strings, got {type(category).__name__} and {type(severity).__name__}")
    if category.rstrip("!") == NON_TRANSLATION[0]:  # spelled "Non-translation!" in some of Google's files
        return NON_TRANSLATION[1]
    if severity not in WEIGHTS:
        raise ValueError(f"unknown MQM severity {severity!r} (category {category!r}); expected one of {sorted(WEIGHTS)}")
    if severity == "Minor" and category == MINOR_PUNCTUATION[0]:
        return MINOR_PUNCTUATION[1]
    return WEIGHTS[severity]


def rating_score(errors: Iterable[tuple[str, str]]) -> float:
    """The MQM score of one rating: the weights of its (category, severity) errors, added in order.

    >>> rating_score([("Accuracy/Mistranslation", "Major"), ("Fluency/Punctuation", "Minor")])
    5.1
    """
    total = 0.0
    for category, severity in errors:
        total += error_weight(category, severity)
    return total


def _check_row(row: Any, i: int) -> None:
    """Row ``i`` of :func:`segment_scores`'s input has the fields it reads, with the types they need."""
    if isinstance(row, Mapping) or not all(hasattr(row, f) for f in ("system", "seg_id", "rater", "category",
                                                                      "severity")):
        hint = " (a dict: make it evalkit.data.MQMError(**row))" if isinstance(row, Mapping) else ""
        raise TypeError(f"errors[{i}] is a {type(row).__name__}; expected a row with the attributes system, seg_id, "
                        f"rater, category and severity (evalkit.data.MQMError){hint}")
    for name, kind in (("system", str), ("rater", str), ("seg_id", numbers.Integral)):
        value = getattr(row, name)
        if isinstance(value, bool) or not isinstance(value, kind):
            raise TypeError(f"errors[{i}].{name} is {value!r}; expected {'an int' if kind is not str else 'a string'}")


def segment_scores(errors: Iterable[Any]) -> dict[str, dict[int, float]]:
    """The MQM score of every rated (system, segment): the mean over its raters of each rater's
    :func:`rating_score`.  ``errors`` are rows with ``system``, ``seg_id``, ``rater``, ``category`` and
    ``severity`` (:class:`evalkit.data.MQMError`); the result is by system, then by segment id, in the order
    the rows first name them.
    """
    if isinstance(errors, (str, bytes, Mapping)) or not isinstance(errors, Iterable):
        raise TypeError(f"errors must be a list of MQMError rows (evalkit.data.mqm_ted(...).errors), "
                        f"got {type(errors).__name__}")
    ratings: dict[tuple[str, int, str], float] = {}
    for i, row in enumerate(errors):
        _check_row(row, i)
        key = (row.system, row.seg_id, row.rater)
        ratings[key] = ratings.get(key, 0.0) + error_weight(row.category, row.severity)
    by_segment: dict[tuple[str, int], list[float]] = {}
    for (system, seg_id, _), score in ratings.items():
        by_segment.setdefault((system, seg_id), []).append(score)
    if not by_segment:
        raise ValueError("no MQM ratings given")
    out: dict[str, dict[int, float]] = {}
    for (system, seg_id), scores in by_segment.items():
        out.setdefault(system, {})[seg_id] = sum(scores) / len(scores)
    return out


def system_scores(segments: Mapping[str, Mapping[int, float | None]]) -> dict[str, float]:
    """Each system's MQM score: the mean over its rated segments.  ``None`` marks a segment not rated (the
    avg files have them): it is left out of the mean, as mt-metrics-eval leaves it out, and a system with no
    rated segment is refused.  Every other score must be a finite number (a TypeError or ValueError names the
    system and segment); the mean of finite scores is finite, however large they are.

    >>> system_scores({"A": {1: 2.0, 2: None, 3: 4.0}, "B": {1: 0.0, 2: 1.0, 3: 5.0}})
    {'A': 3.0, 'B': 2.0}
    """
    if not isinstance(segments, Mapping):
        raise TypeError(f"segments must be a dict of system -> dict of segment id -> score (segment_scores gives "
                        f"one), got {type(segments).__name__}")
    out = {}
    for system, scores in segments.items():
        if not isinstance(scores, Mapping):
            raise TypeError(f"segments[{system!r}] is a {type(scores).__name__}; expected a dict of segment id -> "
                            "score (None for a segment not rated)")
        rated = []
        for seg_id, v in scores.items():
            if v is None:
                continue
            if isinstance(v, bool) or not isinstance(v, numbers.Real):
                raise TypeError(f"segments[{system!r}][{seg_id!r}] is a {type(v).__name__}; expected a number "
                                "(or None for a segment not rated)")
            if not math.isfinite(v):
                raise ValueError(f"segments[{system!r}][{seg_id!r}] is {v}; MQM scores must be finite")
            rated.append(v)
        if not rated:
            raise ValueError(f"{system} has no rated segment")
        mean = sum(rated) / len(rated)
        if not math.isfinite(mean):  # the sum overflowed: the mean of the shares is exact enough and finite
            mean = math.fsum(v / len(rated) for v in rated)
        out[system] = mean
    return out


def human_scores(mqm: Mapping[str, float]) -> dict[str, float]:
    """−MQM, so that higher is better like a metric's score (the avg files store this sign)."""
    return {system: -value for system, value in mqm.items()}


# --------------------------------------------------------------------------------------------------------
# Agreement between a metric and the humans
# --------------------------------------------------------------------------------------------------------
def _check_scores(scores: Any, name: str) -> dict[str, float]:
    if not isinstance(scores, Mapping):
        raise TypeError(f"{name} must be a dict of system name -> score, got {type(scores).__name__}")
    for system, v in scores.items():
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError(f"{name}[{system!r}] is a {type(v).__name__}; expected a number")
        if not math.isfinite(v):
            raise ValueError(f"{name}[{system!r}] is {v}; agreement needs finite scores")
    return dict(scores)


def _check_same_systems(a: Mapping, b: Mapping, a_name: str, b_name: str) -> None:
    """``a`` and ``b`` name the same systems, at least 3 of them."""
    if set(a) != set(b):
        raise ValueError(f"{a_name} and {b_name} must name the same systems; only {a_name} has {sorted(set(a) - set(b))}, "
                         f"only {b_name} has {sorted(set(b) - set(a))}")
    if len(b) < 3:
        raise ValueError(f"agreement needs at least 3 systems, got {len(b)}")


def _paired(metric: Any, human: Any) -> tuple[list[str], list[float], list[float]]:
    """The systems both dicts score (the same set, at least 3) with their two scores, in ``human``'s order."""
    m, h = _check_scores(metric, "metric"), _check_scores(human, "human")
    _check_same_systems(m, h, "metric", "human")
    names = list(h)
    return names, [m[k] for k in names], [h[k] for k in names]


def pairwise_accuracy(metric: Mapping[str, float], human: Mapping[str, float]) -> float:
    """The share of system pairs the metric orders as the humans do (Kocmi et al. 2021), higher is better
    on both sides: sign(metric_a − metric_b) == sign(human_a − human_b) over all n (n − 1) / 2 pairs.

    A tie is a third order: tied on one side only, the pair counts as a disagreement; tied on both, as an
    agreement (mt-metrics-eval's ``Agreement``).

    >>> pairwise_accuracy({"A": 1, "B": 1, "C": 0}, {"A": 2, "B": 1, "C": 0})   # (A, B): tied by the metric only
    0.6666666666666666
    """
    _, xs, ys = _paired(metric, human)
    pairs = list(combinations(range(len(xs)), 2))
    agree = sum(sign(xs[i] - xs[j]) == sign(ys[i] - ys[j]) for i, j in pairs)
    return agree / len(pairs)


def system_agreement(metric: Mapping[str, float], human: Mapping[str, float]) -> dict[str, float]:
    """Pearson's r, Kendall's tau-b and pairwise accuracy of a metric's system scores with the humans'."""
    _, xs, ys = _paired(metric, human)
    return {"pearson": pearson(xs, ys), "kendall": kendall_tau(xs, ys),
            "accuracy": pairwise_accuracy(dict(enumerate(xs)), dict(enumerate(ys)))}


def _segment_items(metric: Any, human: Any) -> tuple[list[float], list[float]]:
    """The (metric, human) scores of every rated (system, segment), system by system in ``human``'s order."""
    for name, table in (("metric", metric), ("human", human)):
        if not isinstance(table, Mapping) or not all(isinstance(v, Mapping) for v in table.values()):
            raise TypeError(f"{name} must be a dict of system -> dict of segment id -> score")
    _check_same_systems(metric, human, "metric", "human")
    xs, ys = [], []
    for system, segments in human.items():
        if set(metric[system]) != set(segments):
            raise ValueError(f"{system}: the metric and the humans score different segments "
                             f"({len(metric[system])} and {len(segments)} segment ids)")
        for seg_id, h in segments.items():
            if h is None:  # not rated: left out, as mt-metrics-eval filters None
                continue
            x = metric[system][seg_id]
            for what, v in (("metric", x), ("human", h)):
                if isinstance(v, bool) or not isinstance(v, numbers.Real):
                    raise TypeError(f"{what}[{system!r}][{seg_id!r}] is a {type(v).__name__}; expected a number")
                if not math.isfinite(v):
                    raise ValueError(f"{what}[{system!r}][{seg_id!r}] is {v}; agreement needs finite scores")
            xs.append(x)
            ys.append(h)
    return xs, ys


def segment_kendall_tau(metric: Mapping[str, Mapping[Any, float]], human: Mapping[str, Mapping[Any, float | None]]) -> float:
    """Segment-level Kendall's tau-b over all items (mt-metrics-eval's ``Kendall()`` defaults): every rated
    (system, segment) is one item, all systems together ("no grouping"); ties on either side count as neither concordant nor discordant, and tau-b's
    denominator leaves them out.  ``human[system][seg_id]`` is ``None`` for a segment not rated.

    >>> segment_kendall_tau({"A": {1: 0.5, 2: 0.4}, "B": {1: 0.3, 2: 0.3}, "C": {1: 0.1, 2: 0.2}},
    ...                     {"A": {1: -1.0, 2: None}, "B": {1: -2.0, 2: 0.0}, "C": {1: -5.0, 2: -1.0}})
    0.4444444444444444
    """
    xs, ys = _segment_items(metric, human)
    return kendall_tau(xs, ys, tau="b")


# --------------------------------------------------------------------------------------------------------
# Bootstrap over segments, through the metric protocol
# --------------------------------------------------------------------------------------------------------
def system_statistics(metric: str, corpora: Mapping[str, Sequence[str]], references: Sequence[Sequence[str]],
                      **options: Any) -> dict[str, Any]:
    """Each system's statistics under a registered metric (``"bleu"``, ``"chrf"``, ``"ter"``, ...): an integer
    matrix with one row per segment (:meth:`evalkit.protocol.Metric.checked_statistics`).

    ``corpora[system][i]`` is the system's translation of segment i and ``references[i]`` lists that segment's
    references; ``options`` are the metric's keywords (``tokenize="13a", smoothing="exp"`` for sacreBLEU's
    BLEU, ``word_order=2`` for chrF++).  A row scored alone is the segment's score, the sum of all rows the
    corpus score (``get_metric(metric).score(rows.sum(axis=0), options)``), and
    :func:`bootstrap_system_agreement` resamples the rows.
    """
    if not isinstance(corpora, Mapping):
        raise TypeError(f"corpora must be a dict of system name -> translations, got {type(corpora).__name__}")
    for system, texts in corpora.items():
        if isinstance(texts, str) or len(texts) != len(references):
            raise ValueError(f"{system}: expected one translation per segment ({len(references)}), "
                             f"got {'a string' if isinstance(texts, str) else len(texts)}")
    mats = get_metric(metric).checked_statistics(list(corpora.values()), references, options)
    return dict(zip(corpora, mats))


def bootstrap_system_agreement(
    metric: str,
    statistics: Mapping[str, Any],
    mqm: Mapping[str, Sequence[float]],
    *,
    negate: bool = False,
    n_samples: int = 1000,
    seed: int | None = DEFAULT_SEED,
    confidence: float = 0.95,
    **options: Any,
) -> dict[str, Interval]:
    """System-level agreement of a metric with MQM, each measure with a percentile bootstrap interval over
    **segments**.

    ``statistics[system]``: the system's rows under ``metric`` (:func:`system_statistics`, with the same
    ``options``); ``mqm[system][i]``: its MQM score of segment i (lower is better; every segment rated).
    ``negate=True`` for a metric whose lower scores are better (TER).  Each resample draws the segments once
    for all systems (:func:`evalkit.resample.draw_counts`, seeded), adds each system's rows and scores the
    sums through the protocol; the humans' score of a system is −(its mean MQM over the same drawn
    segments).  Returns ``{"pearson", "kendall", "accuracy"}`` -> :class:`evalkit.resample.Interval`, the real
    value as its ``estimate``; resamples in which a correlation is undefined (a constant side) are left out of
    that measure's interval.
    """
    import numpy as np

    check_int("n_samples", n_samples, 1)
    confidence = check_confidence(confidence)
    check_seed(seed)
    if not isinstance(statistics, Mapping) or not isinstance(mqm, Mapping):
        raise TypeError("statistics and mqm must be dicts keyed by system name")
    check_bool("negate", negate)
    _check_same_systems(statistics, mqm, "statistics", "mqm")
    names = list(mqm)
    measure = get_metric(metric)
    mats = _check_statistics(measure, statistics, names, options)
    n = len(mats[0])
    human = np.array([_check_mqm_list(mqm[s], s, n) for s in names], dtype=np.float64)  # systems x segments
    for side, values in (("the humans'", human.mean(axis=1)), ("the metric's", measure.scores(
            np.stack([m.sum(axis=0) for m in mats]), options))):
        if np.all(values == values[0]):
            raise ValueError(f"{side} system scores are all equal ({float(values[0])!r} for each of the "
                             f"{len(names)} systems): a correlation with a constant side does not exist")
    direction = -1.0 if negate else 1.0

    def agreement(metric_scores: list[float], human_scores: list[float]) -> dict[str, float | None]:
        out: dict[str, float | None] = {"accuracy": pairwise_accuracy(dict(zip(names, metric_scores)),
                                                                      dict(zip(names, human_scores)))}
        for key, f in (("pearson", pearson), ("kendall", kendall_tau)):
            try:
                out[key] = f(metric_scores, human_scores)
            except ValueError:  # a constant side in this resample: the correlation does not exist
                out[key] = None
        return out

    real_metric = direction * measure.scores(np.stack([m.sum(axis=0) for m in mats]), options)
    real = agreement(real_metric.tolist(), (-human.mean(axis=1)).tolist())
    samples: dict[str, list[float]] = {key: [] for key in MEASURES}
    for counts in draw_counts(generator(seed), n, n_samples):  # resamples x segments: how often each was drawn
        sys_metric = np.stack([direction * measure.scores(counts @ m, options) for m in mats], axis=1)
        sys_human = -(counts @ human.T) / n
        for row_metric, row_human in zip(sys_metric.tolist(), sys_human.tolist()):
            for key, value in agreement(row_metric, row_human).items():
                if value is not None:
                    samples[key].append(value)
    for key in MEASURES:
        if not samples[key]:
            raise ValueError(f"{key}: in none of the {n_samples} resamples was the correlation defined (a side was "
                             "constant in every one); more segments, or more resamples, are needed")
    return {key: Interval.from_samples(samples[key], confidence, estimate=real[key], seed=seed, n_samples=n_samples)
            for key in MEASURES}


# Metrics whose rows have one width for given options; the others (TER's lengths, ROUGE's mean scores) write
# numbers in pieces of protocol.LIMB_BITS bits, as many as the data need: their rows are at least as wide as
# one short segment's.
_FIXED_WIDTH = frozenset({"bleu", "chrf", "gleu"})


def _check_statistics(measure: Any, statistics: Mapping[str, Any], names: list[str], options: dict) -> list:
    """The systems' statistics as int64 matrices, checked against the metric and its options: the options'
    names and values (the metric counts one short segment with them, as :func:`system_statistics` would), the
    rows' width (the one the metric gives with these options), integers >= 0, the same number of rows for
    every system, and what each metric's rows must satisfy (BLEU: matches <= n-grams; chrF: matches <= both
    sides' n-grams; TER and ROUGE's means: a last column of 1s)."""
    import numpy as np

    probe = dict(options)
    if isinstance(probe.get("sources"), (list, tuple)):  # GLEU's sources: one per segment, here one segment
        probe["sources"] = ["x"]
    width = measure.checked_statistics([["x"]], [["x"]], probe)[0].shape[1]  # checks the options too
    mats, n = [], None
    for system in names:
        raw = statistics[system]
        if isinstance(raw, (str, bytes, Mapping)):
            raise TypeError(f"statistics[{system!r}] is a {type(raw).__name__}; expected the system's rows "
                            "(system_statistics gives them)")
        try:
            m = np.asarray(raw)
        except ValueError as error:  # rows of different lengths
            raise ValueError(f"statistics[{system!r}]: not a matrix of rows of one width ({error})") from None
        if m.dtype.kind not in "iu":
            raise TypeError(f"statistics[{system!r}] holds {m.dtype} values; expected integer counts, the rows of "
                            f"system_statistics({measure.name!r}, ...)")
        if m.ndim != 2:
            raise ValueError(f"statistics[{system!r}] has {m.ndim} dimension(s); expected a matrix, a row per segment")
        n = len(m) if n is None else n
        if len(m) != n or n == 0:
            raise ValueError(f"{system}: {len(m)} rows of statistics, expected one per segment as for the other "
                             f"systems ({n}), at least one")
        fits = m.shape[1] == width if measure.name in _FIXED_WIDTH else m.shape[1] >= width
        if not fits or (mats and m.shape[1] != mats[0].shape[1]):
            raise ValueError(
                f"statistics[{system!r}] has rows of {m.shape[1]} numbers; {measure.name} with these options has "
                f"rows of {'' if measure.name in _FIXED_WIDTH else 'at least '}{width}: statistics counted for "
                f"another metric or other options? (give the rows of system_statistics({measure.name!r}, ..., "
                "with the same options)")
        if np.any(m < 0):
            raise ValueError(f"statistics[{system!r}] holds a negative number; statistics are counts >= 0")
        problem = _row_problem(measure.name, m.astype(np.int64, copy=False))
        if problem:
            raise ValueError(f"statistics[{system!r}] are not {measure.name} rows: {problem} (give the rows of "
                             f"system_statistics({measure.name!r}, ...))")
        mats.append(m.astype(np.int64, copy=False))
    return mats


def _row_problem(name: str, m: Any) -> str | None:
    """What a matrix of ``name``'s rows breaks of the rules its rows keep, or None."""
    import numpy as np

    if name == "bleu":  # hyp_len, closest, shortest, matches_1..N, totals_1..N, empty_1..N
        order = (m.shape[1] - 3) // 3
        matches, totals = m[:, 3:3 + order], m[:, 3 + order:3 + 2 * order]
        if np.any(matches > totals):
            return "some matches exceed the hypothesis n-grams they are counted in"
        if np.any(totals[:, 0] != m[:, 0]):
            return "the hypothesis unigrams differ from the hypothesis length"
    elif name == "chrf":  # hyp_1..K, ref_1..K, matches_1..K
        k = m.shape[1] // 3
        if np.any(m[:, 2 * k:] > np.minimum(m[:, :k], m[:, k:2 * k])):
            return "some matches exceed the n-grams of the hypothesis or the reference"
    elif name in ("ter", "rouge") and np.any(m[:, -1] != 1):
        return "the last column, one per segment, is not 1"
    return None


def _check_mqm_list(scores: Any, system: str, n: int) -> list[float]:
    """One system's MQM scores for the bootstrap: a list of ``n`` finite numbers >= 0, one per segment."""
    if isinstance(scores, (str, bytes, Mapping)) or not hasattr(scores, "__len__"):
        raise TypeError(f"mqm[{system!r}] is a {type(scores).__name__}; expected a list of the MQM scores of its "
                        "segments, in the order of its statistics rows")
    if len(scores) != n:
        raise ValueError(f"{system}: {n} rows of statistics and {len(scores)} MQM scores; expected one of each per "
                         "segment")
    out = []
    for i, v in enumerate(scores):
        if v is None:
            raise ValueError(f"mqm[{system!r}][{i}] is None (not rated): the bootstrap needs every segment rated "
                             "for every system; leave unrated segments out of both mqm and the statistics")
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError(f"mqm[{system!r}][{i}] is a {type(v).__name__} ({v!r}); expected a number")
        if not math.isfinite(v):
            raise ValueError(f"mqm[{system!r}][{i}] is {v}; every segment needs a finite MQM score (no NaN or inf)")
        if v < 0:
            raise ValueError(f"mqm[{system!r}][{i}] is {v}; MQM scores are weighted error counts >= 0, lower is "
                             "better (the avg files store -MQM: negate their scores)")
        out.append(float(v))
    return out


__all__ = ["MEASURES", "MINOR_PUNCTUATION", "NON_TRANSLATION", "WEIGHTS", "bootstrap_system_agreement", "error_weight",
           "human_scores", "pairwise_accuracy", "rating_score", "segment_kendall_tau", "segment_scores",
           "system_agreement", "system_scores", "system_statistics"]
