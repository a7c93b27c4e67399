"""evalkit.correlation: Pearson and Kendall checked by hand (exact fractions), against numpy.corrcoef, Python's
statistics.correlation, an exact (Fraction and Decimal) Pearson, scipy.stats (Pearson, Kendall's tau-b and
tau-c), an independent brute-force pair count, by hypothesis properties, and the bootstrap against a
recomputation."""

from __future__ import annotations

import doctest
import itertools
import math
import statistics
import subprocess
import sys
from collections import Counter
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from evalkit import correlation
from evalkit.correlation import (
    METHODS,
    bootstrap_correlation,
    bootstrap_difference,
    check_pairs,
    kendall_tau,
    knight_pair_counts,
    pair_counts,
    pearson,
)

EPS = 2.0**-52  # the distance from 1.0 to the next float64


# ---------------------------------------------------------------------------------------------------------
# An independent Kendall: every *ordered* pair (i, j), i != j, compared directly; ties from value counts.
# ---------------------------------------------------------------------------------------------------------
def brute_force_tau(x, y, variant="b"):
    n = len(x)
    concordant = discordant = 0
    for i, j in itertools.permutations(range(n), 2):
        if (x[i] < x[j] and y[i] < y[j]) or (x[i] > x[j] and y[i] > y[j]):
            concordant += 1
        elif (x[i] < x[j] and y[i] > y[j]) or (x[i] > x[j] and y[i] < y[j]):
            discordant += 1
    concordant //= 2  # each unordered pair was seen twice
    discordant //= 2
    pairs = Fraction(n * (n - 1), 2)
    tied_x = sum(Fraction(t * (t - 1), 2) for t in Counter(x).values())
    tied_y = sum(Fraction(t * (t - 1), 2) for t in Counter(y).values())
    if variant == "a":
        return (concordant - discordant) / pairs
    if variant == "b":
        return (concordant - discordant) / math.sqrt((pairs - tied_x) * (pairs - tied_y))
    m = min(len(set(x)), len(set(y)))
    return 2 * Fraction(concordant - discordant) / (Fraction(n * n * (m - 1), m))


# ---------------------------------------------------------------------------------------------------------
# An exact Pearson: the floats' exact values as fractions, r^2 exact, its square root to 50 digits
# ---------------------------------------------------------------------------------------------------------
def exact_pearson(x, y) -> float:
    xs, ys = [Fraction(float(v)) for v in x], [Fraction(float(v)) for v in y]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxy = sum((a - mx) * (b - my) for a, b in zip(xs, ys))
    sxx, syy = sum((a - mx) ** 2 for a in xs), sum((b - my) ** 2 for b in ys)
    r2 = sxy * sxy / (sxx * syy)
    with localcontext() as ctx:
        ctx.prec = 50
        r = (Decimal(r2.numerator) / Decimal(r2.denominator)).sqrt()
    return float(r) if sxy >= 0 else -float(r)


# ---------------------------------------------------------------------------------------------------------
# Hand-computed cases
# ---------------------------------------------------------------------------------------------------------
def test_pearson_by_hand():
    # x = 1..4, y = 1 3 2 4: deviations (-3/2, -1/2, 1/2, 3/2) and (-3/2, 1/2, -1/2, 3/2);
    # covariance sum 9/4 - 1/4 - 1/4 + 9/4 = 4; squared sums 5 and 5: r = 4/5.
    assert math.isclose(pearson([1, 2, 3, 4], [1, 3, 2, 4]), 4 / 5, rel_tol=1e-15)
    # x = 0 1 2, y = 0 0 3: deviations (-1, 0, 1) and (-1, -1, 2); covariance 3; squared sums 2 and 6:
    # r = 3 / sqrt(12) = sqrt(3) / 2.
    assert math.isclose(pearson([0, 1, 2], [0, 0, 3]), math.sqrt(3) / 2, rel_tol=1e-15)
    assert pearson([1, 2, 3], [6, 4, 2]) == -1.0
    assert pearson([Fraction(1, 3), Fraction(2, 3), 1], [1, 2, 3]) == 1.0


def test_kendall_by_hand():
    # 1..4 against 1 3 2 4: 6 pairs, only (2, 3) is discordant: (5 - 1) / 6 = 2/3 in every variant.
    for variant in "abc":
        assert math.isclose(kendall_tau([1, 2, 3, 4], [1, 3, 2, 4], tau=variant), 2 / 3, rel_tol=1e-15)
    # x = 1 1 2 3, y = 1 2 3 4: the pair of 1s is tied in x, the other 5 pairs concordant.
    x, y = [1, 1, 2, 3], [1, 2, 3, 4]
    assert pair_counts(x, y) == correlation.PairCounts(4, 5, 0, 1, 0, 0)
    assert math.isclose(kendall_tau(x, y, tau="a"), 5 / 6, rel_tol=1e-15)  # 5 / 6 pairs
    assert math.isclose(kendall_tau(x, y), math.sqrt(5 / 6), rel_tol=1e-15)  # 5 / sqrt(5 * 6)
    assert math.isclose(kendall_tau(x, y, tau="c"), 15 / 16, rel_tol=1e-15)  # 2*5 / (16 * 2/3)
    assert kendall_tau([1, 2, 3], [3, 2, 1]) == -1.0


def test_pair_counts_with_ties_on_both_sides():
    # pairs of (x, y): (1,1) (1,1) (2,2) (2,1): (0,1) tied in both; (2,3) tied in x; (0,3),(1,3) tied in y.
    c = pair_counts([1, 1, 2, 2], [1, 1, 2, 1])
    assert (c.concordant, c.discordant, c.ties_x, c.ties_y, c.ties_both) == (2, 0, 2, 3, 1)


# ---------------------------------------------------------------------------------------------------------
# Against numpy and the brute force, on real and random data
# ---------------------------------------------------------------------------------------------------------
def test_pearson_equals_numpy_on_wmt17_human_scores():
    from evalkit.data import wmt17_human_scores

    human = list(wmt17_human_scores().values())
    lengths = [float(len(name)) for name in wmt17_human_scores()]  # any second variable will do
    assert math.isclose(pearson(lengths, human), np.corrcoef(lengths, human)[0, 1], rel_tol=1e-12)


_values = st.lists(st.integers(-6, 6), min_size=3, max_size=12)
_floats = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)


def _not_constant(values):
    return len(set(values)) > 1


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_pearson_equals_numpy_corrcoef_and_statistics_correlation(data):
    n = data.draw(st.integers(3, 20))
    x = data.draw(st.lists(_floats, min_size=n, max_size=n))
    y = data.draw(st.lists(_floats, min_size=n, max_size=n))
    assume(np.std(x) > 1e-6 and np.std(y) > 1e-6)
    assert math.isclose(pearson(x, y), np.corrcoef(x, y)[0, 1], rel_tol=1e-9, abs_tol=1e-9)
    assert math.isclose(pearson(x, y), statistics.correlation(x, y), rel_tol=1e-12, abs_tol=1e-14)


# Issue 19, item 3: values near 1e308 gave r = 1.0 (a NaN clamped into [-1, 1]; exact 0.196 here), values
# near 1e-300 raised ZeroDivisionError (their squares vanish), float32 input was computed in float32.
_BIG_X, _BIG_Y = [1.0, -1.0, 0.0, 0.0], [0.3, -0.3, 1.5, -1.5]  # r = 0.6 / sqrt(2 * 4.68) at any scale
_SPREAD_X, _SPREAD_Y = [1.0, -1.0, 0.5, -0.3, 0.8], [1.0, 2.0, 3.0, 4.0, 5.0]


@pytest.mark.hardening
@pytest.mark.parametrize("x, y", [
    ([v * 1e308 for v in _BIG_X], [v * 1e308 for v in _BIG_Y]),  # was 1.0
    ([v * 1e308 for v in _SPREAD_X], _SPREAD_Y),  # was 0.0: the squares overflowed to inf
    ([v * 1e308 for v in _SPREAD_X], [v * 1e308 for v in [0.9, -0.4, 1.2, -0.7, 0.1]]),  # was "-inf + inf in fsum"
    ([v * 1.7e308 for v in [1.0, 0.9, 0.95, 0.99]], [1.0, 2.0, 4.0, 3.0]),  # the sum alone overflows
    ([v * 1e-300 for v in _SPREAD_X], _SPREAD_Y),  # was ZeroDivisionError
    ([v * 1e-300 for v in _BIG_X], [v * 1e-300 for v in _BIG_Y]),
    ([0.0, 5e-324, 1e-323, 5e-324, 1.5e-323], _SPREAD_Y),  # subnormals, a few bits each
    ([1e9 + v for v in _SPREAD_X], _SPREAD_Y),  # a large mean, a small spread
    ([1e308, 1e-300, 2e-300, -1e308], [1.0, 2.0, 3.0, 4.0]),  # both ends of the range in one list
])
def test_pearson_is_right_across_the_float_range(x, y):
    assert abs(pearson(x, y) - exact_pearson(x, y)) <= 2 * EPS
    assert math.isclose(pearson([v * 1e308 for v in _BIG_X], [v * 1e308 for v in _BIG_Y]), 0.6 / math.sqrt(2 * 4.68),
                        rel_tol=1e-15)


@pytest.mark.hardening
def test_pearson_computes_float32_input_in_float64():
    # float32 values are converted to float64 exactly; r is then the float64 r of the same numbers
    x32 = np.array([1.0001, 1.0002, 1.0004, 1.0003, 1.0005], dtype=np.float32)
    y32 = np.array([1.0, 2.0, 3.0, 4.0, 5.0], dtype=np.float32)
    as64 = [float(v) for v in x32], [float(v) for v in y32]
    assert pearson(x32, y32) == pearson(*as64)
    assert abs(pearson(x32, y32) - exact_pearson(*as64)) <= 2 * EPS
    assert math.isclose(pearson(x32, y32), statistics.correlation(*as64), rel_tol=1e-14)
    # what evalkit computed before: the deviations from the mean in float32 (a float32 minus a Python float
    # is a float32), which lose 3 of these values' 7 digits: r = 0.90008339, off by 5e-8
    dx = [v - math.fsum(x32.tolist()) / 5 for v in x32]
    dy = [v - 3.0 for v in y32]
    assert isinstance(dx[0], np.float32)
    in_float32 = math.fsum(a * b for a, b in zip(dx, dy)) / math.sqrt(math.fsum(a * a for a in dx) * 10)
    assert abs(in_float32 - exact_pearson(*as64)) > 1e-8


_any_float = st.floats(allow_nan=False, allow_infinity=False)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_pearson_equals_an_exact_computation_anywhere_in_the_float_range(data):
    # any finite floats (from subnormals to 1.8e308, both signs), or a few values at one scale 2**k
    n = data.draw(st.integers(3, 10))
    scale = data.draw(st.integers(-1070, 1020))
    small = st.floats(-2, 2, allow_nan=False).map(lambda v: math.ldexp(v, scale))
    side = st.one_of(st.lists(_any_float, min_size=n, max_size=n), st.lists(small, min_size=n, max_size=n),
                     st.lists(st.sampled_from([1.0, 1.0 + EPS, 1.0 + 2 * EPS, 3.0]), min_size=n, max_size=n))
    x, y = data.draw(side), data.draw(side)
    assume(_not_constant(x) and _not_constant(y))
    r = pearson(x, y)
    assert abs(r - exact_pearson(x, y)) <= 8 * EPS and -1 <= r <= 1


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_kendall_equals_brute_force_pair_count(data):
    x = data.draw(_values)
    y = data.draw(st.lists(st.integers(-6, 6), min_size=len(x), max_size=len(x)))
    assume(_not_constant(x) and _not_constant(y))
    for variant in "abc":
        assert math.isclose(kendall_tau(x, y, tau=variant), float(brute_force_tau(x, y, variant)),
                            rel_tol=1e-12, abs_tol=1e-15)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_knights_counts_equal_the_pair_by_pair_counts(data):
    # the readable O(n^2) loop and Knight's O(n log n) sort count the same pairs, ties and all
    n = data.draw(st.integers(3, 70))
    values = st.one_of(st.integers(-4, 4), st.integers(-10**6, 10**6),
                       st.sampled_from([0.5, Fraction(1, 3), 2, np.float64(0.5), -0.0, 0.0, 1e-300]))
    x = data.draw(st.lists(values, min_size=n, max_size=n))
    y = data.draw(st.lists(values, min_size=n, max_size=n))
    assume(_not_constant(x) and _not_constant(y))
    assert knight_pair_counts(x, y) == pair_counts(x, y)


def test_knights_counts_on_real_data():
    # REALSumm: the LitePyramid score and ROUGE-2 recall of each of the 1,100 extractive summaries
    # (ties on both sides, and in both at once)
    from evalkit.data import realsumm

    systems = realsumm().extractive.values()
    human = [v for s in systems for v in s.litepyramid]
    rouge = [v for s in systems for v in s.published["rouge_2_recall"]]
    counts = knight_pair_counts(rouge, human)
    assert counts == pair_counts(rouge, human)
    assert counts.ties_x > 1000 and counts.ties_y > 10_000 and counts.ties_both > 100


@pytest.mark.conformance
@settings(max_examples=200, deadline=None)
@given(st.data())
def test_kendall_equals_scipy_on_ties(data):
    from scipy import stats

    n = data.draw(st.integers(3, 40))
    x = data.draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n))
    y = data.draw(st.lists(st.one_of(st.integers(-3, 3), st.floats(-1, 1)), min_size=n, max_size=n))
    assume(_not_constant(x) and _not_constant(y))
    for variant in "bc":
        theirs = stats.kendalltau(x, y, variant=variant).statistic
        assert math.isclose(kendall_tau(x, y, tau=variant), theirs, rel_tol=1e-12, abs_tol=1e-15)


@pytest.mark.conformance
def test_pearson_and_kendall_equal_scipy_on_real_data():
    # REALSumm's 1,400 abstractive and 1,100 extractive summaries: LitePyramid against each published ROUGE
    # score, per summary (segment level: ties on both sides)
    from scipy import stats

    from evalkit.data import realsumm

    data = realsumm()
    for group in (data.abstractive, data.extractive):
        human = [v for s in group.values() for v in s.litepyramid]
        for key in ("rouge_1_recall", "rouge_2_f_score", "rouge_l_precision"):
            rouge = [v for s in group.values() for v in s.published[key]]
            assert math.isclose(pearson(rouge, human), stats.pearsonr(rouge, human).statistic, rel_tol=1e-12)
            for variant in "bc":
                assert math.isclose(kendall_tau(rouge, human, tau=variant),
                                    stats.kendalltau(rouge, human, variant=variant).statistic, rel_tol=1e-12)


# ---------------------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(st.data())
def test_symmetric_and_in_range(data):
    x = data.draw(_values)
    y = data.draw(st.lists(st.integers(-6, 6), min_size=len(x), max_size=len(x)))
    assume(_not_constant(x) and _not_constant(y))
    assert math.isclose(pearson(x, y), pearson(y, x), rel_tol=1e-12, abs_tol=1e-15)
    assert -1 <= pearson(x, y) <= 1
    for variant in "abc":
        assert kendall_tau(x, y, tau=variant) == kendall_tau(y, x, tau=variant)
        assert -1 <= kendall_tau(x, y, tau=variant) <= 1
    # reversing one side flips the sign
    assert kendall_tau(x, [-v for v in y]) == -kendall_tau(x, y)
    assert math.isclose(pearson(x, [-v for v in y]), -pearson(x, y), rel_tol=1e-12, abs_tol=1e-15)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_kendall_ignores_monotone_transforms_and_pearson_affine_ones(data):
    x = data.draw(_values)
    y = data.draw(st.lists(st.integers(-6, 6), min_size=len(x), max_size=len(x)))
    assume(_not_constant(x) and _not_constant(y))
    cube = [v**3 + 7 for v in x]  # strictly increasing on the integers: same order, different spacing
    exp = [math.exp(v) for v in y]
    for variant in "abc":
        assert kendall_tau(cube, exp, tau=variant) == kendall_tau(x, y, tau=variant)
    assert math.isclose(pearson([3 * v - 2 for v in x], [0.5 * v + 9 for v in y]), pearson(x, y),
                        rel_tol=1e-9, abs_tol=1e-12)


def test_identical_rankings_give_one():
    x = [0.1, 0.5, 0.3, 0.9]
    assert kendall_tau(x, [v * 100 for v in x]) == 1.0
    assert pearson(x, x) == 1.0


# ---------------------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "x, y, error, words",
    [
        ([1, 2, 3], [1, 2], ValueError, "x has 3 and y has 2"),
        ([1, 2], [1, 2], ValueError, "at least 3 items"),
        ([], [], ValueError, "at least 3 items"),
        ([1, 1, 1], [1, 2, 3], ValueError, "x is constant"),
        ([1, 2, 3], [5, 5, 5], ValueError, "y is constant"),
        ([1, float("nan"), 3], [1, 2, 3], ValueError, "finite"),
        ([1, 2, float("inf")], [1, 2, 3], ValueError, "finite"),
        ("123", [1, 2, 3], TypeError, "list of numbers"),
        ({"a": 1}, [1, 2, 3], TypeError, "list of numbers"),
        (None, [1, 2, 3], TypeError, "list of numbers"),
        ([1, "2", 3], [1, 2, 3], TypeError, "x[1] is a str"),
        ([1, 2, 3], [True, False, True], TypeError, "y[0] is a bool"),
        ([1, 2, 10**400], [1, 2, 3], ValueError, "within the float range"),
        # issue 19, item 9: a set has no order to pair its values with the other side's
        ({1, 2, 3}, [1, 2, 3], TypeError, "x is a set, which has no order"),
        ([1, 2, 3], frozenset({1, 2, 3}), TypeError, "y is a frozenset, which has no order"),
        ({"a": 1, "b": 2, "c": 3}.values(), [1, 2, 3], TypeError, "x is a dict_values, which has no order"),
        ({1: 0, 2: 0, 3: 0}.keys(), [1, 2, 3], TypeError, "ordered sequence"),
    ],
)
def test_bad_input_is_explained(x, y, error, words):
    for function in (pearson, kendall_tau, pair_counts, knight_pair_counts, bootstrap_correlation,
                     correlation.correlation, lambda x, y: bootstrap_difference(x, x, y)):
        with pytest.raises(error, match=words.replace("[", r"\[").replace("]", r"\]")):
            function(x, y)


def test_unknown_options():
    with pytest.raises(ValueError, match="unknown tau 'd'"):
        kendall_tau([1, 2, 3], [1, 2, 3], tau="d")
    with pytest.raises(ValueError, match="unknown method 'spearman'"):
        bootstrap_correlation([1, 2, 3], [1, 2, 3], method="spearman")
    with pytest.raises(ValueError, match="unknown method"):
        correlation.correlation([1, 2, 3], [1, 2, 3], "Pearson")
    with pytest.raises(ValueError, match="confidence"):
        bootstrap_correlation([1, 2, 3], [1, 2, 3], confidence=95)
    with pytest.raises(TypeError, match="n_samples"):
        bootstrap_correlation([1, 2, 3], [1, 2, 3], n_samples=10.0)
    with pytest.raises(ValueError, match="seed"):
        bootstrap_correlation([1, 2, 3], [1, 2, 3], seed=-1)
    with pytest.raises(ValueError, match="x has 4 and y has 3"):
        bootstrap_difference([1, 2, 3], [1, 2, 3, 4], [1, 2, 3])


def test_numpy_arrays_and_numbers_are_accepted():
    x, y = np.array([1.0, 2.0, 3.0, 4.0]), np.array([1, 3, 2, 4])
    assert check_pairs(x, y)[1] == [1, 3, 2, 4]
    assert math.isclose(pearson(x, y), 0.8, rel_tol=1e-15)
    # numpy integers wherever numpy floats go (issue 19, item 10): values of any integer type, n_samples, seed
    for ints in (np.array([1, 3, 2, 4], dtype=np.int8), np.array([1, 3, 2, 4], dtype=np.uint64)):
        assert pearson(x, ints) == pearson(x, y) and kendall_tau(x, ints) == kendall_tau(x, y)
    a = bootstrap_correlation(x, y, method="kendall", n_samples=np.int64(50), seed=np.uint32(4))
    assert a == bootstrap_correlation(x, y, method="kendall", n_samples=50, seed=4)
    assert type(a.n_samples) is int and type(a.seed) is int
    d = bootstrap_difference(x, y[::-1], y, n_samples=np.int16(30), seed=np.int64(2), confidence=np.float32(0.9))
    assert d == bootstrap_difference(x, y[::-1], y, n_samples=30, seed=2, confidence=float(np.float32(0.9)))


def test_seed_none_draws_fresh_resamples():
    # seed=None is evalkit.resample's fresh entropy, in both bootstraps as in the significance tests
    for function, args in ((bootstrap_correlation, (_X, _Y)), (bootstrap_difference, (_X, _Y[::-1], _Y))):
        for method in METHODS:
            one, two = (function(*args, method=method, n_samples=100, seed=None) for _ in range(2))
            assert one.seed is None and one.value == two.value
            assert one.samples != two.samples  # 100 fresh resamples twice: equal with negligible probability


# ---------------------------------------------------------------------------------------------------------
# Bootstrap
# ---------------------------------------------------------------------------------------------------------
_X = [0.3, 1.2, 0.8, 2.5, 1.9, 3.1, 2.2, 0.1, 1.5, 2.8]
_Y = [0.2, 0.9, 1.1, 2.0, 2.4, 2.7, 1.8, 0.5, 1.0, 3.0]
# the bootstrap draws positions in the items' canonical order: sorted by x, then y (numpy's lexsort takes
# the last key as the primary one)
_SORTED = np.lexsort((_Y, _X))
_XS, _YS = np.array(_X)[_SORTED], np.array(_Y)[_SORTED]


def test_canonical_order_sorts_by_the_columns_in_turn():
    assert correlation.canonical_order(_X, _Y) == _SORTED.tolist()
    assert correlation.canonical_order([2, 1, 2, 1], [0, 0, -1, 5]) == [1, 3, 2, 0]
    assert correlation.canonical_order([1, 1], [1, 1], [2, 1]) == [1, 0]  # a tie in two columns: the third


def test_bootstrap_pearson_equals_a_numpy_recomputation():
    result = bootstrap_correlation(_X, _Y, n_samples=500, seed=7)
    draws = np.random.default_rng(7).integers(0, len(_X), size=(500, len(_X)))
    x, y = _XS[draws], _YS[draws]
    estimates = [np.corrcoef(a, b)[0, 1] for a, b in zip(x, y)]
    low, high = np.percentile(estimates, [2.5, 97.5])
    assert math.isclose(result.value, np.corrcoef(_X, _Y)[0, 1], rel_tol=1e-12)
    assert math.isclose(result.low, low, rel_tol=1e-9) and math.isclose(result.high, high, rel_tol=1e-9)
    assert result.undefined == 0 and len(result.samples) == 500
    assert float(result) == result.value and result.method == "pearson"


def test_bootstrap_kendall_with_ties_equals_each_resamples_tau():
    # Knight's counts of a whole chunk of resamples at once give, resample by resample, the tau that
    # kendall_tau gives the resample on its own (bit for bit); resamples with a constant side are left out
    x = [1, 1, 2, 2, 3, 3, 3, 4, 5, 5, 6, 1]
    y = [2, 1, 2, 3, 3, 2, 4, 4, 5, 4, 4, 1]
    result = bootstrap_correlation(x, y, method="kendall", n_samples=400, seed=11)
    order = correlation.canonical_order(x, y)
    xs, ys = np.array(x)[order], np.array(y)[order]
    expected, undefined = [], 0
    for row in np.random.default_rng(11).integers(0, len(x), size=(400, len(x))):
        try:
            expected.append(kendall_tau(xs[row].tolist(), ys[row].tolist()))
        except ValueError:
            undefined += 1
    assert list(result.samples) == expected and result.undefined == undefined
    assert math.isclose(result.value, float(brute_force_tau(x, y)), rel_tol=1e-12)
    difference = bootstrap_difference(x, [-v for v in x[::-1]], y, method="kendall", n_samples=100, seed=1)
    assert math.isclose(difference.value, kendall_tau(x, y) - kendall_tau([-v for v in x[::-1]], y), rel_tol=1e-12)


def test_bootstrap_kendall_equals_a_brute_force_recomputation():
    result = bootstrap_correlation(_X, _Y, method="kendall", n_samples=300, seed=3, confidence=0.9)
    draws = np.random.default_rng(3).integers(0, len(_X), size=(300, len(_X)))
    estimates = [float(brute_force_tau(_XS[row].tolist(), _YS[row].tolist())) for row in draws]
    low, high = np.percentile(estimates, [5, 95])
    assert math.isclose(result.low, low, rel_tol=1e-9) and math.isclose(result.high, high, rel_tol=1e-9)
    assert math.isclose(result.value, float(brute_force_tau(_X, _Y)), rel_tol=1e-12)


def test_bootstrap_is_seeded_and_repr_rounded():
    a = bootstrap_correlation(_X, _Y, n_samples=200, seed=1)
    assert a == bootstrap_correlation(_X, _Y, n_samples=200, seed=1)
    assert a.samples != bootstrap_correlation(_X, _Y, n_samples=200, seed=2).samples
    assert repr(a) == f"CorrelationInterval(pearson: {a.value:.4f} [{a.low:.4f}, {a.high:.4f}] at 95%, 200 resamples)"


def test_bootstrap_leaves_out_undefined_resamples():
    # With 3 items, 3 of the 27 possible draws repeat one item (constant): the correlation does not exist.
    result = bootstrap_correlation([1, 2, 3], [1, 3, 2], n_samples=2000, seed=0)
    assert result.undefined > 0 and len(result.samples) + result.undefined == 2000
    draws = np.random.default_rng(0).integers(0, 3, size=(2000, 3))
    # x and y take 3 different values each, so a resample is constant exactly when it repeats one item
    constant = sum(len(set(row)) == 1 for row in draws.tolist())
    assert 0.08 < constant / 2000 < 0.15  # 3 of the 27 equally likely draws
    assert result.undefined == constant


def test_bootstrap_difference():
    other = [v + (0.4 if i % 3 == 0 else -0.2) for i, v in enumerate(_X)]
    d = bootstrap_difference(_X, other, _Y, n_samples=400, seed=5)
    assert math.isclose(d.value, pearson(_X, _Y) - pearson(other, _Y), rel_tol=1e-12)
    draws = np.random.default_rng(5).integers(0, len(_X), size=(400, len(_X)))
    order = np.lexsort((_Y, other, _X))  # by x_a, then x_b, then y
    xa, xb, y = np.array(_X)[order], np.array(other)[order], np.array(_Y)[order]
    estimates = [np.corrcoef(xa[r], y[r])[0, 1] - np.corrcoef(xb[r], y[r])[0, 1] for r in draws]
    low, high = np.percentile(estimates, [2.5, 97.5])
    assert math.isclose(d.low, low, rel_tol=1e-9, abs_tol=1e-12) and math.isclose(d.high, high, rel_tol=1e-9)
    same = bootstrap_difference(_X, _X, _Y, n_samples=50)
    assert same.value == same.low == same.high == 0.0


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_bootstrap_interval_does_not_depend_on_the_order_of_the_items(data):
    # the same items listed in another order, the same seed: the same interval, the same resamples
    n = data.draw(st.integers(4, 12))
    x = data.draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n))
    y = data.draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n))
    x_b = data.draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n))
    assume(_not_constant(x) and _not_constant(y) and _not_constant(x_b))
    shuffle = data.draw(st.permutations(range(n)))
    seed = data.draw(st.integers(0, 2**32))
    for method in ("pearson", "kendall"):
        try:
            one = bootstrap_correlation(x, y, method=method, n_samples=60, seed=seed)
        except ValueError:  # too many undefined resamples: the shuffled order must say the same
            with pytest.raises(ValueError, match="undefined"):
                bootstrap_correlation([x[i] for i in shuffle], [y[i] for i in shuffle], method=method,
                                      n_samples=60, seed=seed)
            continue
        two = bootstrap_correlation([x[i] for i in shuffle], [y[i] for i in shuffle], method=method,
                                    n_samples=60, seed=seed)
        assert (one.value, one.low, one.high, one.undefined, one.samples) == (
            two.value, two.low, two.high, two.undefined, two.samples)
        try:
            d1 = bootstrap_difference(x, x_b, y, method=method, n_samples=60, seed=seed)
        except ValueError:
            continue
        d2 = bootstrap_difference([x[i] for i in shuffle], [x_b[i] for i in shuffle], [y[i] for i in shuffle],
                                  method=method, n_samples=60, seed=seed)
        assert (d1.value, d1.low, d1.high, d1.samples) == (d2.value, d2.low, d2.high, d2.samples)


def test_bootstrap_interval_on_wmt17_is_the_same_for_any_order_of_the_systems():
    # lesson 13's case: the 16 WMT17 systems, listed in the data's order, reversed, and by name
    from evalkit.data import wmt17_human_scores

    human = wmt17_human_scores()
    metric = {name: 2.0 * z + 0.1 * (len(name) % 5) for name, z in human.items()}  # any metric will do
    orders = [list(human), list(human)[::-1], sorted(human)]
    results = [bootstrap_correlation([metric[k] for k in names], [human[k] for k in names], n_samples=300, seed=0)
               for names in orders]
    assert all((r.low, r.high, r.samples) == (results[0].low, results[0].high, results[0].samples) for r in results)
    other = {name: -z + 0.05 * len(name) for name, z in human.items()}
    diffs = [bootstrap_difference([metric[k] for k in names], [other[k] for k in names], [human[k] for k in names],
                                  n_samples=300, seed=0) for names in orders]
    assert all((d.low, d.high) == (diffs[0].low, diffs[0].high) for d in diffs)


# ---------------------------------------------------------------------------------------------------------
# The module's shape (its plot, plot_agreement, is tested in test_plots.py)
# ---------------------------------------------------------------------------------------------------------
def test_import_is_light():
    code = (
        "import sys, evalkit.correlation; "
        "print(sorted(m for m in ('numpy', 'pandas', 'matplotlib', 'scipy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_doctests():
    assert doctest.testmod(correlation).failed == 0
