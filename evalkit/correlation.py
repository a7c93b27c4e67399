"""Do metrics agree with people?  Correlation between a metric's scores and human scores of the same items.

The items are usually *systems* (system-level correlation: one metric score and one human score per system).

- **Pearson's r** measures how well a straight line fits the points: the covariance of x and y divided by the
  product of their standard deviations,

      r = sum (x_i - mean x)(y_i - mean y) / sqrt( sum (x_i - mean x)^2 * sum (y_i - mean y)^2 ).

  It is what WMT reported at system level from 2014 on (WMT17: Bojar et al., 2017), against the human
  direct-assessment (DA) z-scores.  One far-away point can make r large on its own (Mathur et al., 2020).
- **Kendall's tau** only looks at order: of the n(n - 1)/2 pairs of items, a pair is *concordant* when x and
  y order it the same way, *discordant* when they order it oppositely, and tied when either side is equal.

      tau-a = (C - D) / (n (n - 1) / 2)
      tau-b = (C - D) / sqrt( (pairs - ties in x) * (pairs - ties in y) )          (the default)
      tau-c = 2 (C - D) / ( n^2 (m - 1) / m ),  m = min(distinct x values, distinct y values)

  Without ties all three are equal.  tau-b is the usual choice (scipy's default; 1 when the rankings agree
  even with ties).  WMT's *segment*-level "Kendall's tau-like" formula, (C - D) / (C + D), ignores tied
  pairs altogether; at system level, with no ties among the systems, it is the same number again.
  Here Kendall's tau answers "does the metric rank the systems as people do?", which is what a
  leaderboard needs.

- :func:`bootstrap_correlation` resamples the *items* with replacement (seeded, with :mod:`evalkit.resample`'s
  seed rule and draws) and reports a percentile confidence interval; :func:`bootstrap_difference` resamples
  the items once for two metrics at a time (a paired bootstrap) to ask whether one correlates better than
  the other.  Both sort the items by their values first (:func:`canonical_order`), so the interval does not
  depend on the order in which the items are listed: the same seed gives the same interval for any order.

    >>> round(pearson([1, 2, 3, 4], [1, 3, 2, 4]), 4), round(kendall_tau([1, 2, 3, 4], [1, 3, 2, 4]), 4)
    (0.8, 0.6667)

Undefined cases raise a ValueError: fewer than 3 items, lists of different lengths, or a constant list (no
spread, so nothing to correlate with).  Only the standard library and numpy are used; no scipy.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ._checks import check_choice, check_int
from .resample import DEFAULT_SEED, Interval, check_confidence, check_seed, generator, uniform_draws_in_chunks

METHODS = ("pearson", "kendall")
TAUS = ("a", "b", "c")


# --------------------------------------------------------------------------------------------------------
# Input checks
# --------------------------------------------------------------------------------------------------------
def _as_numbers(values: Any, name: str) -> list[float]:
    if isinstance(values, (str, bytes)) or isinstance(values, Mapping) or not isinstance(values, Iterable):
        raise TypeError(f"{name} must be a list of numbers (one per item), got {type(values).__name__}")
    out = []
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError(f"{name}[{i}] is a {type(v).__name__}; expected a number")
        if not math.isfinite(v):
            raise ValueError(f"{name}[{i}] is {v}; correlation needs finite numbers")
        out.append(v)
    return out


def check_pairs(x: Any, y: Any) -> tuple[list[float], list[float]]:
    """Two lists of finite numbers, of the same length, at least 3 items, neither constant."""
    xs, ys = _as_numbers(x, "x"), _as_numbers(y, "y")
    if len(xs) != len(ys):
        raise ValueError(f"x and y must have one value per item each, but x has {len(xs)} and y has {len(ys)}")
    if len(xs) < 3:
        raise ValueError(f"a correlation needs at least 3 items, got {len(xs)}")
    for name, values in (("x", xs), ("y", ys)):
        if all(v == values[0] for v in values):
            raise ValueError(f"{name} is constant ({values[0]!r} for every item): its correlation is undefined")
    return xs, ys


# --------------------------------------------------------------------------------------------------------
# Pearson and Kendall
# --------------------------------------------------------------------------------------------------------
def mean(values: Sequence[float]) -> float:
    """The arithmetic mean (``math.fsum``: no rounding error builds up)."""
    return math.fsum(values) / len(values)


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's r: covariance over the product of the standard deviations, in [-1, 1].

    >>> pearson([1, 2, 3], [2, 4, 6])      # y = 2x: a perfect line
    1.0
    >>> round(pearson([1, 2, 3, 4], [1, 3, 2, 4]), 4)   # 4 / sqrt(5 * 5)
    0.8
    """
    xs, ys = check_pairs(x, y)
    mx, my = mean(xs), mean(ys)
    dx = [v - mx for v in xs]
    dy = [v - my for v in ys]
    covariance = math.fsum(a * b for a, b in zip(dx, dy))
    spread = math.sqrt(math.fsum(a * a for a in dx) * math.fsum(b * b for b in dy))
    return max(-1.0, min(1.0, covariance / spread))  # rounding can land a hair outside [-1, 1]


def sign(v: float) -> int:
    """-1, 0 or 1."""
    return (v > 0) - (v < 0)


@dataclass(frozen=True)
class PairCounts:
    """How the n (n - 1) / 2 pairs of items fall: ``concordant`` and ``discordant`` pairs, pairs tied in x
    (``ties_x``, including those tied in both), in y (``ties_y``), and in both (``ties_both``)."""

    n: int
    concordant: int
    discordant: int
    ties_x: int
    ties_y: int
    ties_both: int

    @property
    def pairs(self) -> int:
        return self.n * (self.n - 1) // 2


def pair_counts(x: Sequence[float], y: Sequence[float]) -> PairCounts:
    """Classify every pair of items (i < j) by the signs of x_j - x_i and y_j - y_i.

    >>> pair_counts([1, 2, 3, 4], [1, 3, 2, 4])     # only the pair (2, 3) is swapped
    PairCounts(n=4, concordant=5, discordant=1, ties_x=0, ties_y=0, ties_both=0)
    """
    xs, ys = check_pairs(x, y)
    concordant = discordant = ties_x = ties_y = ties_both = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            product = sign(xs[j] - xs[i]) * sign(ys[j] - ys[i])
            concordant += product > 0
            discordant += product < 0
            ties_x += xs[i] == xs[j]
            ties_y += ys[i] == ys[j]
            ties_both += xs[i] == xs[j] and ys[i] == ys[j]
    return PairCounts(len(xs), concordant, discordant, ties_x, ties_y, ties_both)


def kendall_tau(x: Sequence[float], y: Sequence[float], *, tau: str = "b") -> float:
    """Kendall's tau: (concordant - discordant pairs), normalized as tau-a, tau-b (the default) or tau-c
    (``tau="a"``, ``"b"``, ``"c"``; scipy.stats.kendalltau calls this its ``variant``).

    >>> kendall_tau([1, 2, 3, 4], [1, 3, 2, 4])     # (5 - 1) / 6
    0.6666666666666666
    >>> kendall_tau([1, 1, 2, 3], [1, 2, 3, 4]), kendall_tau([1, 1, 2, 3], [1, 2, 3, 4], tau="a")
    (0.9128709291752769, 0.8333333333333334)
    """
    check_choice("tau", tau, TAUS)
    xs, ys = check_pairs(x, y)
    c = pair_counts(xs, ys)
    difference = c.concordant - c.discordant
    if tau == "a":
        return difference / c.pairs
    if tau == "b":
        return difference / math.sqrt((c.pairs - c.ties_x) * (c.pairs - c.ties_y))
    m = min(len(set(xs)), len(set(ys)))
    return max(-1.0, min(1.0, 2 * difference / (c.n * c.n * (m - 1) / m)))


def correlation(x: Sequence[float], y: Sequence[float], method: str = "pearson") -> float:
    """``pearson(x, y)`` or ``kendall_tau(x, y)`` (tau-b), chosen by name."""
    return _method(method)(x, y)


def _method(method: Any) -> Callable[[Sequence[float], Sequence[float]], float]:
    check_choice("method", method, METHODS)
    return pearson if method == "pearson" else kendall_tau


# --------------------------------------------------------------------------------------------------------
# Bootstrap confidence intervals
# --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CorrelationInterval(Interval):
    """A correlation (or a difference of two) with a bootstrap percentile interval [``low``, ``high``]: an
    :class:`evalkit.resample.Interval` whose estimate, ``value``, is the correlation of all the items.

    ``samples`` holds the resampled estimates (resamples where the correlation is undefined, e.g. every
    draw the same item, are left out: ``undefined`` counts them, ``n_samples`` counts every resample drawn).
    ``float(result)`` is ``value``.
    """

    method: str = "pearson"
    undefined: int = 0

    @property
    def value(self) -> float:
        """The correlation (or the difference) of all the items: the interval's ``estimate``."""
        return self.estimate

    def __repr__(self) -> str:
        return (
            f"CorrelationInterval({self.method}: {self.value:.4f} [{self.low:.4f}, {self.high:.4f}] "
            f"at {self.confidence:.0%}, {self.n_samples} resamples)"
        )


def _check_bootstrap(n_samples: Any, confidence: Any, seed: Any) -> None:
    check_int("n_samples", n_samples, 1)
    check_confidence(confidence)
    check_seed(seed)


def canonical_order(*columns: Sequence[float]) -> list[int]:
    """The item indices sorted by the items' values (first column, then the next on a tie, ...).

    The bootstrap draws *positions* 0..n-1; reading the items in this order first makes a seeded draw pick
    the same items whatever order the caller listed them in.  Items equal in every column are
    interchangeable, so their order among themselves does not matter.

    >>> canonical_order([3, 1, 2], [0, 5, 5])
    [1, 2, 0]
    >>> canonical_order([1, 1, 0], [9, 8, 7])     # a tie in x is ordered by y
    [2, 1, 0]
    """
    return sorted(range(len(columns[0])), key=lambda i: tuple(column[i] for column in columns))


def _resampled(statistic: Callable[[list[int]], float], n: int, n_samples: int, seed: int | None):
    """``statistic`` of ``n_samples`` resamples of the item indices 0..n-1; undefined resamples dropped."""
    estimates, undefined = [], 0
    for draws in uniform_draws_in_chunks(generator(seed), n, (n_samples, n)):
        for row in draws.tolist():
            try:
                estimates.append(statistic(row))
            except ValueError:  # a resample with a constant side: the correlation does not exist
                undefined += 1
    if len(estimates) < n_samples / 2:
        raise ValueError(f"the correlation is undefined in {undefined} of {n_samples} resamples: too few items")
    return estimates, undefined


def _interval(value, estimates, undefined, method, n_samples, confidence, seed) -> CorrelationInterval:
    # the (1 - confidence) / 2 and (1 + confidence) / 2 percentiles, interpolated linearly (numpy's default)
    return CorrelationInterval.from_samples(estimates, confidence, estimate=value, seed=seed, n_samples=n_samples,
                                            method=method, undefined=undefined)


def bootstrap_correlation(
    x: Sequence[float],
    y: Sequence[float],
    *,
    method: str = "pearson",
    n_samples: int = 1000,
    seed: int | None = DEFAULT_SEED,
    confidence: float = 0.95,
) -> CorrelationInterval:
    """The correlation of x and y with a bootstrap confidence interval: draw n items with replacement
    (:func:`evalkit.resample.generator`: ``seed`` an int >= 0, or ``None`` for fresh OS entropy),
    correlate, repeat ``n_samples`` times, take the percentiles.

    The items are put in :func:`canonical_order` (sorted by x, then y) before drawing, so listing the same
    items in another order gives the same interval under the same seed.

    >>> bootstrap_correlation([1, 2, 3, 4, 5, 6], [1, 3, 2, 5, 4, 6], n_samples=200)
    CorrelationInterval(pearson: 0.8857 [0.5610, 0.9864] at 95%, 200 resamples)
    >>> bootstrap_correlation([6, 5, 4, 3, 2, 1], [6, 4, 5, 2, 3, 1], n_samples=200)   # the same items, reversed
    CorrelationInterval(pearson: 0.8857 [0.5610, 0.9864] at 95%, 200 resamples)
    """
    corr = _method(method)
    xs, ys = check_pairs(x, y)
    _check_bootstrap(n_samples, confidence, seed)
    value = corr(xs, ys)
    order = canonical_order(xs, ys)
    xs, ys = [xs[i] for i in order], [ys[i] for i in order]
    estimates, undefined = _resampled(
        lambda rows: corr([xs[i] for i in rows], [ys[i] for i in rows]), len(xs), n_samples, seed
    )
    return _interval(value, estimates, undefined, method, n_samples, confidence, seed)


def bootstrap_difference(
    x_a: Sequence[float],
    x_b: Sequence[float],
    y: Sequence[float],
    *,
    method: str = "pearson",
    n_samples: int = 1000,
    seed: int | None = DEFAULT_SEED,
    confidence: float = 0.95,
) -> CorrelationInterval:
    """Paired bootstrap of corr(x_a, y) - corr(x_b, y): each resample of the items scores both metrics, so
    the interval is about the *difference* (metric A against metric B on the same systems).  The items are
    put in :func:`canonical_order` (by x_a, then x_b, then y) before drawing, as in
    :func:`bootstrap_correlation`: the interval does not depend on the order the items are listed in.

    >>> d = bootstrap_difference([1, 2, 3, 4, 5, 6], [2, 1, 3, 5, 4, 6], [1, 2, 3, 4, 6, 5], n_samples=200)
    >>> d
    CorrelationInterval(pearson difference: 0.1714 [-0.0103, 0.4373] at 95%, 200 resamples)
    """
    corr = _method(method)
    xa, ys = check_pairs(x_a, y)
    xb, _ = check_pairs(x_b, y)
    _check_bootstrap(n_samples, confidence, seed)
    value = corr(xa, ys) - corr(xb, ys)
    order = canonical_order(xa, xb, ys)
    xa, xb, ys = [xa[i] for i in order], [xb[i] for i in order], [ys[i] for i in order]

    def statistic(rows: list[int]) -> float:
        sample_y = [ys[i] for i in rows]
        return corr([xa[i] for i in rows], sample_y) - corr([xb[i] for i in rows], sample_y)

    estimates, undefined = _resampled(statistic, len(ys), n_samples, seed)
    return _interval(value, estimates, undefined, f"{method} difference", n_samples, confidence, seed)


__all__ = [
    "METHODS",
    "TAUS",
    "CorrelationInterval",
    "canonical_order",
    "PairCounts",
    "bootstrap_correlation",
    "bootstrap_difference",
    "check_pairs",
    "correlation",
    "kendall_tau",
    "mean",
    "pair_counts",
    "pearson",
    "sign",
]
