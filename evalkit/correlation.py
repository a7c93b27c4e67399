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

**How they are computed.**  :func:`pearson` works in float64 whatever the input (float32 too), on each side
scaled by a power of two and centred first, so that it is right across the whole float range (values near
1e308 or 1e-300 alike).  :func:`pair_counts` classifies the pairs one by one, as the definition reads: O(n^2),
the readable version.  :func:`kendall_tau` counts the same pairs with Knight's (1966) O(n log n) algorithm
(:func:`knight_pair_counts`: sort by x, count the pairs a merge sort of y has to swap), which is what makes
a bootstrap of thousands of items take seconds; the tests prove both give the same counts.

Undefined cases raise a ValueError: fewer than 3 items, lists of different lengths, or a constant list (no
spread, so nothing to correlate with).  The values must come in an order (a list, a tuple, a numpy array):
a set or a dict view has none to pair x with y by.  Only the standard library and numpy are used; no scipy.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Mapping, MappingView, Sequence
from collections.abc import Set as AbstractSet
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
    if isinstance(values, (AbstractSet, MappingView)):  # a set, frozenset, dict.keys(), .values(), .items()
        raise TypeError(
            f"{name} is a {type(values).__name__}, which has no order to pair its values with the other side's; "
            f"give an ordered sequence (a list, tuple or numpy array), e.g. [scores[k] for k in names]"
        )
    if isinstance(values, (str, bytes)) or isinstance(values, Mapping) or not isinstance(values, Iterable):
        raise TypeError(f"{name} must be a list of numbers (one per item), got {type(values).__name__}")
    out = []
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError(f"{name}[{i}] is a {type(v).__name__}; expected a number")
        try:
            finite = math.isfinite(v)
        except OverflowError:  # an int (or a fraction) beyond the float range
            finite = False
        if not finite:
            raise ValueError(f"{name}[{i}] is {v}; correlation needs finite numbers, within the float range")
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


def deviations(values: Sequence[float]) -> list[float]:
    """The values in float64, scaled by a power of two and centred: ``v * 2**-e`` minus the mean of those,
    where ``2**e`` is the smallest power of two above every ``|v|``.

    Scaling one side by a positive number does not change Pearson's r, and scaling by a power of two is
    exact: it brings the values into (-1, 1), where no sum, square or product can overflow (values near
    1e308) and the squares of tiny values (near 1e-300, subnormals) do not vanish to 0.  float32 and
    integer inputs are converted to float64 first (exactly, for float32 and ints up to 2**53).

    >>> [round(d, 4) for d in deviations([1e308, 1.5e308, 1e308])]   # 2**1024 is about 1.8e308
    [-0.0927, 0.1854, -0.0927]
    """
    floats = [float(v) for v in values]
    _, e = math.frexp(max(max(floats), -min(floats)))  # 2**(e-1) <= the largest |v| < 2**e
    if e < -1000:  # subnormal values: lift them by 2**600 first, so that 2**-e is a float (exact either way)
        floats, e = [v * 2.0**600 for v in floats], e + 600
    scale = 2.0**-e
    scaled = [v * scale for v in floats]  # a product with a power of two is exact (bar far smaller values)
    centre = math.fsum(scaled) / len(scaled)  # rounded: off by up to about one unit in the last place
    first = [v - centre for v in scaled]
    rest = math.fsum(first) / len(first)  # what that rounding left over: the deviations must sum to 0
    return [d - rest for d in first]


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's r: covariance over the product of the standard deviations, in [-1, 1].

    Computed in float64 from :func:`deviations` (each side scaled by a power of two, then centred), with
    exactly rounded sums (``math.fsum``): right to a few units in the last place across the whole float
    range.

    >>> pearson([1, 2, 3], [2, 4, 6])      # y = 2x: a perfect line
    1.0
    >>> round(pearson([1, 2, 3, 4], [1, 3, 2, 4]), 4)   # 4 / sqrt(5 * 5)
    0.8
    >>> round(pearson([1e308, -1e308, 0, 0], [3e307, -3e307, 1.5e308, -1.5e308]), 4)   # 0.6 / sqrt(2 * 4.68)
    0.1961
    """
    xs, ys = check_pairs(x, y)
    return _pearson([float(v) for v in xs], [float(v) for v in ys])


def _pearson(xs: list[float], ys: list[float]) -> float:
    """:func:`pearson` of two checked lists of floats (the bootstrap's resamples: no checks repeated)."""
    for name, values in (("x", xs), ("y", ys)):
        if min(values) == max(values):  # in a resample, or ints that differ only beyond float64's 53 bits
            raise ValueError(f"{name} is constant in float64 ({values[0]!r} for every item): its correlation is "
                             "undefined")
    dx, dy = deviations(xs), deviations(ys)
    sxx, syy = math.fsum(a * a for a in dx), math.fsum(b * b for b in dy)
    covariance = math.fsum(a * b for a, b in zip(dx, dy))
    return max(-1.0, min(1.0, covariance / math.sqrt(sxx * syy)))  # rounding can land a hair outside


def sign(v: float) -> int:
    """-1, 0 or 1 (an int, for numpy's numbers too: their comparisons give numpy bools, which do not subtract)."""
    return int(v > 0) - int(v < 0)


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


# Knight's algorithm (Knight, 1966, "A computer method for calculating Kendall's tau with ungrouped data",
# Journal of the American Statistical Association 61(314), 436-439): the same counts as pair_counts in O(n log n).  Sort the items by x (then y).  A pair in
# that order, i before j, has x_i <= x_j, and y_i <= y_j when x_i == x_j; so it is discordant exactly when
# y_i > y_j, i.e. when a merge sort of the y column has to move j in front of i.  The ties are the pairs
# within runs of equal values of a sorted column.  numpy does the sorting, for many resamples (rows) at once.
def dense_ranks(values: Sequence[float]) -> list[int]:
    """Each value's rank among the distinct values, from 0: the same order and the same ties, as ints.

    >>> dense_ranks([0.5, 0.1, 0.5, 2.0])
    [1, 0, 1, 2]
    """
    rank = {v: i for i, v in enumerate(sorted(set(values)))}
    return [rank[v] for v in values]


def _runs(rows):
    """For each row of a (rows x n) int array, sorted along the row: the pairs of equal values (tied pairs)
    and the number of distinct values."""
    import numpy as np

    position = np.arange(rows.shape[1])
    starts = np.ones(rows.shape, dtype=bool)
    starts[:, 1:] = rows[:, 1:] != rows[:, :-1]
    run_start = np.maximum.accumulate(np.where(starts, position, 0), axis=1)
    # each value is tied with the ones before it in its run: position - run_start of them
    return (position - run_start).sum(axis=1), starts.sum(axis=1)


def _merge_sort_swaps(rows):
    """Sort each row of a (rows x n) int array by bottom-up merge sort, counting for each row the pairs
    i < j with row[i] > row[j] (the pairs the sort swaps).  Returns (swaps per row, the sorted rows)."""
    import numpy as np

    n_rows, n = rows.shape
    width = 1 << max(0, (n - 1).bit_length())  # padded to a power of two with values above every value:
    merged = np.full((n_rows, width), int(rows.max()) + 1, dtype=np.int64)  # they sit at the end, swap nothing
    merged[:, :n] = rows
    swaps = np.zeros(n_rows, dtype=np.int64)
    half = 1
    while half < width:
        # blocks of 2 * half: a sorted left half and a sorted right half, merged by a stable sort (equal
        # values keep their order, left first: a tie is no swap)
        blocks = merged.reshape(n_rows, width // (2 * half), 2 * half)
        order = np.argsort(blocks, axis=2, kind="stable")
        # a value from the right half (order >= half) lands order - position places further left: once
        # for each left value greater than it
        moved = order - np.arange(2 * half)
        swaps += np.where(order >= half, moved, 0).sum(axis=(1, 2))
        merged = np.take_along_axis(blocks, order, axis=2).reshape(n_rows, width)
        half *= 2
    return swaps, merged[:, :n]


def _knight_rows(x_ranks, y_ranks) -> list[tuple[PairCounts, int, int]]:
    """Knight's pair counts of each row of two (rows x n) int arrays of ranks (row i: the x and y ranks of
    the items of resample i), with the number of distinct x and y values of the row."""
    import numpy as np

    n_rows, n = x_ranks.shape
    key = x_ranks.astype(np.int64) * (int(y_ranks.max()) + 1) + y_ranks  # sorts by x, then y
    order = np.argsort(key, axis=1)
    key = np.take_along_axis(key, order, axis=1)
    ties_x, distinct_x = _runs(np.take_along_axis(x_ranks, order, axis=1))
    ties_both, _ = _runs(key)
    discordant, y_sorted = _merge_sort_swaps(np.take_along_axis(y_ranks, order, axis=1))
    ties_y, distinct_y = _runs(y_sorted)
    pairs = n * (n - 1) // 2
    out = []
    for tx, ty, txy, d, mx, my in zip(*(a.tolist() for a in (ties_x, ties_y, ties_both, discordant, distinct_x,
                                                             distinct_y))):
        concordant = pairs - tx - ty + txy - d  # the pairs tied in neither, less the discordant ones
        out.append((PairCounts(n, concordant, d, tx, ty, txy), mx, my))
    return out


def knight_pair_counts(x: Sequence[float], y: Sequence[float]) -> PairCounts:
    """The counts of :func:`pair_counts` by Knight's O(n log n) algorithm (sort by x, count the swaps of
    a merge sort of y), for many items: 3,000 items take milliseconds instead of seconds.

    >>> knight_pair_counts([1, 2, 3, 4], [1, 3, 2, 4]) == pair_counts([1, 2, 3, 4], [1, 3, 2, 4])
    True
    """
    return _knight(*check_pairs(x, y))[0]


def _knight(xs: list[float], ys: list[float]) -> tuple[PairCounts, int, int]:
    """Knight's counts of two checked lists, with their numbers of distinct values."""
    import numpy as np

    return _knight_rows(np.array([dense_ranks(xs)]), np.array([dense_ranks(ys)]))[0]


def tau_from_counts(c: PairCounts, tau: str = "b", distinct: int | None = None) -> float:
    """Kendall's tau from the pair counts: tau-a, tau-b or tau-c (which needs ``distinct``, the smaller
    of the numbers of distinct x and y values).  Raises a ValueError where it is undefined."""
    check_choice("tau", tau, TAUS)
    difference = c.concordant - c.discordant
    if tau == "a":
        return difference / c.pairs
    untied_x, untied_y = c.pairs - c.ties_x, c.pairs - c.ties_y
    if untied_x == 0 or untied_y == 0:
        raise ValueError(f"{'x' if untied_x == 0 else 'y'} is constant: its correlation is undefined")
    if tau == "b":
        return difference / math.sqrt(untied_x * untied_y)
    if distinct is None:
        raise TypeError("tau-c needs distinct, the smaller of the numbers of distinct x and y values")
    m = distinct
    return max(-1.0, min(1.0, 2 * difference / (c.n * c.n * (m - 1) / m)))


def kendall_tau(x: Sequence[float], y: Sequence[float], *, tau: str = "b") -> float:
    """Kendall's tau: (concordant - discordant pairs), normalized as tau-a, tau-b (the default) or tau-c
    (``tau="a"``, ``"b"``, ``"c"``; scipy.stats.kendalltau calls this its ``variant``).

    The pairs are counted by :func:`knight_pair_counts` (O(n log n)); :func:`pair_counts` gives the same
    counts pair by pair, as the definition reads.

    >>> kendall_tau([1, 2, 3, 4], [1, 3, 2, 4])     # (5 - 1) / 6
    0.6666666666666666
    >>> kendall_tau([1, 1, 2, 3], [1, 2, 3, 4]), kendall_tau([1, 1, 2, 3], [1, 2, 3, 4], tau="a")
    (0.9128709291752769, 0.8333333333333334)
    """
    check_choice("tau", tau, TAUS)
    counts, distinct_x, distinct_y = _knight(*check_pairs(x, y))
    return tau_from_counts(counts, tau, min(distinct_x, distinct_y))


def _kendall_rows(x_ranks, y_ranks) -> list[float | None]:
    """Kendall's tau-b of each row (a resample) of two (rows x n) arrays of ranks; None where undefined."""
    out = []
    for counts, distinct_x, distinct_y in _knight_rows(x_ranks, y_ranks):
        out.append(None if distinct_x == 1 or distinct_y == 1 else tau_from_counts(counts, "b"))
    return out


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


def _check_bootstrap(n_samples: Any, confidence: Any, seed: Any) -> tuple[int, float, int | None]:
    """The checked options; numpy's integers (``np.int64(1000)``) count as ints (``check_int``), as its floats
    count as floats; ``seed=None`` means fresh entropy (:func:`evalkit.resample.check_seed`)."""
    return check_int("n_samples", n_samples, 1), check_confidence(confidence), check_seed(seed)


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


def _per_resample(method: str, x: list[float], y: list[float]) -> Callable[[Any], list[float | None]]:
    """A function from a chunk of draws (a resamples x n array of item positions) to the correlation of
    x and y in each resample, None where it is undefined (a resample with a constant side).

    Kendall's tau-b counts the pairs of every resample in the chunk at once (Knight's algorithm on the
    rows of a numpy array); Pearson's r is :func:`pearson` of each resample in turn."""
    if method == "kendall":
        import numpy as np

        x_ranks, y_ranks = np.array(dense_ranks(x)), np.array(dense_ranks(y))
        return lambda draws: _kendall_rows(x_ranks[draws], y_ranks[draws])
    x, y = [float(v) for v in x], [float(v) for v in y]

    def each(draws) -> list[float | None]:
        out: list[float | None] = []
        for row in draws.tolist():
            try:
                out.append(_pearson([x[i] for i in row], [y[i] for i in row]))
            except ValueError:  # a resample with a constant side: the correlation does not exist
                out.append(None)
        return out

    return each


def _resampled(statistic: Callable[[Any], list[float | None]], n: int, n_samples: int, seed: int | None):
    """``statistic`` of ``n_samples`` resamples of the item indices 0..n-1, a chunk of resamples at a time;
    undefined resamples (None) dropped."""
    estimates, undefined = [], 0
    for draws in uniform_draws_in_chunks(generator(seed), n, (n_samples, n)):
        for value in statistic(draws):
            if value is None:
                undefined += 1
            else:
                estimates.append(value)
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
    n_samples, confidence, seed = _check_bootstrap(n_samples, confidence, seed)
    value = corr(xs, ys)
    order = canonical_order(xs, ys)
    xs, ys = [xs[i] for i in order], [ys[i] for i in order]
    estimates, undefined = _resampled(_per_resample(method, xs, ys), len(xs), n_samples, seed)
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
    n_samples, confidence, seed = _check_bootstrap(n_samples, confidence, seed)
    value = corr(xa, ys) - corr(xb, ys)
    order = canonical_order(xa, xb, ys)
    xa, xb, ys = [xa[i] for i in order], [xb[i] for i in order], [ys[i] for i in order]
    with_a, with_b = _per_resample(method, xa, ys), _per_resample(method, xb, ys)

    def statistic(draws) -> list[float | None]:  # undefined when either correlation is
        return [None if a is None or b is None else a - b for a, b in zip(with_a(draws), with_b(draws))]

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
    "dense_ranks",
    "deviations",
    "kendall_tau",
    "knight_pair_counts",
    "mean",
    "pair_counts",
    "pearson",
    "sign",
    "tau_from_counts",
]
