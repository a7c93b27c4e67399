"""The resampler (evalkit.resample): chunked draws equal one big draw (and sacreBLEU's), the interval's
percentiles equal numpy's and sacreBLEU's, one seed rule for every bootstrap, and clear errors."""

from __future__ import annotations

import dataclasses
import doctest
import inspect
import math

import numpy as np
import pytest

from evalkit import correlation, resample, rouge_corpus, significance
from evalkit.resample import (
    DEFAULT_SEED,
    Interval,
    check_confidence,
    check_seed,
    chunk_sizes,
    coin_flips,
    confidence_interval,
    draw_counts,
    generator,
    uniform_draws_in_chunks,
)


def test_docstring_examples():
    result = doctest.testmod(resample)
    assert result.attempted >= 10 and result.failed == 0


# --------------------------------------------------------------------------------------------------------
# Draws in chunks: the numbers of one big call
# --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("high,shape,max_elements", [(2, (7, 2), 2), (3, (5, 3), 4), (1000, (40, 1000), 3000),
                                                     (99_991, (12, 99_991), 200_000), (1, (4, 1), 1),
                                                     (2**31 + 12345, (50, 3), 5), (2**32 + 5, (9, 4), 8),
                                                     (10, (3, 10), 10**9)])
def test_index_draws_in_chunks_equal_one_call_and_sacrebleus_choice(high, shape, max_elements):
    # high just above 2**31 rejects about half of the 32-bit candidates, so chunks end mid-word; above
    # 2**32 numpy draws 64-bit numbers
    for seed in (0, 1, DEFAULT_SEED):
        chunks = list(uniform_draws_in_chunks(np.random.default_rng(seed), high, shape, max_elements))
        assert all(len(c) <= max(1, max_elements // shape[1]) for c in chunks)
        got = np.concatenate(chunks)
        assert np.array_equal(got, np.random.default_rng(seed).integers(0, high, size=shape))
        # sacreBLEU 2.6.0's bootstrap draw: rng.choice with replacement, the same numbers
        assert np.array_equal(got, np.random.default_rng(seed).choice(high, size=shape, replace=True))


@pytest.mark.parametrize("n_items,n_samples,per_chunk", [(3, 333, 32), (3, 333, 256), (17, 100, 1), (50, 7, 256),
                                                         (1, 5, 2)])
def test_draw_counts_count_the_one_big_draw(n_items, n_samples, per_chunk):
    chunks = list(draw_counts(np.random.default_rng(4), n_items, n_samples, per_chunk))
    assert [len(c) for c in chunks] == list(chunk_sizes(n_samples, per_chunk))
    counts = np.concatenate(chunks)
    draws = np.random.default_rng(4).choice(n_items, size=(n_samples, n_items), replace=True)
    expected = np.array([np.bincount(row, minlength=n_items) for row in draws])
    assert np.array_equal(counts, expected)
    assert (counts.sum(axis=1) == n_items).all()


@pytest.mark.parametrize("per_chunk", [32, 64, 96, 1024])
def test_coin_flips_in_chunks_equal_one_call(per_chunk):
    for n_items in (1, 5, 33):
        flips = np.concatenate(list(coin_flips(np.random.default_rng(9), n_items, 300, per_chunk)))
        assert np.array_equal(flips, np.random.default_rng(9).integers(2, size=(300, n_items), dtype=bool))


def test_coin_flips_refuse_chunks_that_would_change_the_flips():
    # the reason: a call drops the unused bits of its last 32-bit number, so 33 x 5 flips per call differ
    rng = np.random.default_rng(9)
    split = np.concatenate([rng.integers(2, size=(33, 5), dtype=bool) for _ in range(2)])
    assert not np.array_equal(split, np.random.default_rng(9).integers(2, size=(66, 5), dtype=bool))
    with pytest.raises(ValueError, match="multiple of 32"):
        next(coin_flips(np.random.default_rng(9), 5, 66, per_chunk=33))


def test_chunk_sizes():
    assert list(chunk_sizes(600, 256)) == [256, 256, 88]
    assert list(chunk_sizes(256, 256)) == [256] and list(chunk_sizes(0, 256)) == []
    with pytest.raises(ValueError, match="per_chunk"):
        list(chunk_sizes(10, 0))


# --------------------------------------------------------------------------------------------------------
# The interval
# --------------------------------------------------------------------------------------------------------
def test_percentile_interval_by_hand():
    iv = Interval.from_samples([3, 1, 2, 5, 4], confidence=0.5)  # 25th, 50th, 75th percentiles
    assert (iv.low, iv.median, iv.high, iv.mean) == (2.0, 3.0, 4.0, 3.0)
    iv = Interval.from_samples([0.0, 10.0], confidence=0.5)  # between the two: 25% and 75% of the way
    assert (iv.low, iv.high, iv.half_width) == (2.5, 7.5, 2.5)
    iv = Interval.from_samples([0.0, 10.0], confidence=0.9)
    assert (iv.low, iv.high) == (pytest.approx(0.5), pytest.approx(9.5))
    iv = Interval.from_samples([7.0, 1.0, 4.0], confidence=0)  # confidence 0: the median three times
    assert iv.low == iv.median == iv.high == 4.0
    assert iv.rule == "percentile" and iv.n_samples == 3 and iv.samples == (7.0, 1.0, 4.0)


@pytest.mark.parametrize("confidence", [0.95, 0.9, 0.5, 0.0])
def test_percentile_interval_equals_numpy_to_the_last_bit(confidence):
    samples = np.random.default_rng(1).normal(size=1001)
    iv = Interval.from_samples(samples, confidence)
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(samples, [tail, 100 - tail])
    assert (iv.low, iv.high, iv.median, iv.mean) == (low, high, np.median(samples), samples.mean())
    # as rouge-score's BootstrapAggregator computes them: one call over the columns (P, R, F)
    table = np.random.default_rng(2).random((300, 3))
    theirs = np.percentile(table, [tail, 50, 100 - tail], axis=0)
    for j in range(3):
        ours = Interval.from_samples(table[:, j], confidence)
        assert [ours.low, ours.median, ours.high] == theirs[:, j].tolist()


def test_sacrebleu_rule_by_hand():
    iv = Interval.from_samples(list(range(100, 0, -1)), rule="sacrebleu")  # ranks 2 and 97 of the sorted 100
    assert (iv.low, iv.high, iv.mean) == (3.0, 98.0, 50.5)
    assert iv.mean_and_half_width() == (50.5, 47.5) == confidence_interval(range(100, 0, -1))
    few = Interval.from_samples([0.2, 0.9, 0.4], rule="sacrebleu")  # fewer than 40: nothing is cut
    assert (few.low, few.high) == (0.2, 0.9)
    assert confidence_interval([0.3]) == (0.3, 0.0)
    assert iv.samples == tuple(float(v) for v in range(100, 0, -1))  # the samples in their order, not sorted


@pytest.mark.conformance
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [39, 40, 1000, 1001])
def test_sacrebleu_rule_equals_sacrebleus_estimate_ci(dtype, n):
    from sacrebleu.significance import estimate_ci

    scores = (np.random.default_rng(n).random(n) * 60).astype(dtype)
    scores[0] = dtype(0.001)  # a wide range: a float32 difference that float64 would round otherwise
    mean, ci = estimate_ci(scores.copy())
    assert confidence_interval(scores) == (float(mean), float(ci))


def test_float32_half_width_is_computed_in_float32():
    scores = np.float32([0.001] * 20 + [60.123] * 20)
    low, high = np.float32(0.001), np.float32(60.123)
    iv = Interval.from_samples(scores, rule="sacrebleu")
    assert iv.half_width == float(np.float32(0.5) * (high - low))
    assert iv.half_width != 0.5 * (float(high) - float(low))  # float64 would give another number
    assert iv.mean == float(np.sort(scores).mean())


def test_interval_conversions_and_shape():
    iv = Interval.from_samples([1.0, 2.0, 3.0, 4.0], 0.5, estimate=2.4, seed=3)
    assert float(iv) == 2.4 and iv.seed == 3
    assert iv.mean_and_half_width() == (2.5, (iv.high - iv.low) / 2)
    assert repr(iv) == "Interval(2.4000 [1.7500, 3.2500] at 50%, 4 resamples)"
    assert Interval.from_samples([1.0, 2.0], n_samples=5).n_samples == 5  # resamples left out of the samples
    with pytest.raises(TypeError, match="no estimate"):
        float(Interval.from_samples([1.0, 2.0]))
    with pytest.raises(dataclasses.FrozenInstanceError):
        iv.low = 0.0  # type: ignore[misc]
    assert iv == Interval.from_samples([4.0, 3.0, 2.0, 1.0], 0.5, estimate=2.4, seed=3)  # samples not compared


def test_the_three_users_share_the_interval_and_the_formula():
    assert significance.confidence_interval is confidence_interval
    assert rouge_corpus.check_confidence is check_confidence
    ci = correlation.bootstrap_correlation([1, 2, 3, 4, 5, 6], [1, 3, 2, 5, 4, 6], n_samples=200, seed=0)
    assert isinstance(ci, Interval) and ci.value == ci.estimate == float(ci)
    again = Interval.from_samples(ci.samples, 0.95)
    assert (again.low, again.high) == (ci.low, ci.high)


# --------------------------------------------------------------------------------------------------------
# The seed rule
# --------------------------------------------------------------------------------------------------------
def test_one_default_seed_everywhere():
    functions = [significance.paired_bootstrap, significance.paired_approximate_randomization,
                 rouge_corpus.corpus_rouge, rouge_corpus.bootstrap_interval, correlation.bootstrap_correlation,
                 correlation.bootstrap_difference]
    assert DEFAULT_SEED == 12345 == significance.DEFAULT_SEED
    assert {inspect.signature(f).parameters["seed"].default for f in functions} == {DEFAULT_SEED}


def test_an_int_seed_repeats_and_none_draws_fresh_entropy():
    def draw(*seed):
        return generator(*seed).integers(0, 2**62, size=4).tolist()

    assert draw(5) == draw(5) and draw() == draw(DEFAULT_SEED) != draw(0)
    assert draw(None) != draw(None)  # fresh entropy: equal with probability 2**-248
    x, y = [0.3, 1.2, 0.8, 2.5, 1.9, 3.1], [0.2, 0.9, 1.1, 2.0, 2.4, 2.7]
    unseeded = correlation.bootstrap_correlation(x, y, n_samples=50, seed=None)
    assert unseeded.seed is None and len(unseeded.samples) + unseeded.undefined == 50
    r = rouge_corpus.corpus_rouge(["a b c", "d e"], [["a b"], ["d e f"]], n_samples=20, seed=None)
    assert r.seed is None and r.low.fmeasure <= r.high.fmeasure


@pytest.mark.parametrize("seed,error", [(-1, ValueError), (1.5, TypeError), (True, TypeError), ("3", TypeError),
                                        (np.int64(-1), ValueError), (np.float64(3), TypeError)])
def test_bad_seeds_are_refused(seed, error):
    # Issue 19: "seed=-1 raises TypeError (a ValueError)" in the paired tests: one check, check_seed, for all.
    with pytest.raises(error, match="seed"):
        check_seed(seed)
    with pytest.raises(error, match="seed"):
        generator(seed)
    with pytest.raises(error, match="seed"):
        correlation.bootstrap_correlation([1, 2, 3], [1, 3, 2], seed=seed)
    with pytest.raises(error, match="seed"):
        rouge_corpus.corpus_rouge(["a b"], [["a b"]], n_samples=5, seed=seed)
    for test in (significance.paired_bootstrap, significance.paired_approximate_randomization):
        with pytest.raises(error, match="seed"):
            test(["a b", "c d"], {"B": ["a b", "c"]}, [["a b"], ["c d"]], n_samples=40, seed=seed)


def test_numpy_integer_seeds_are_seeds():
    # Issue 19: "numpy ints refused where np.float64 is accepted".
    assert check_seed(np.int64(7)) == 7 and type(check_seed(np.uint32(7))) is int
    assert generator(np.int32(7)).integers(0, 100, 5).tolist() == generator(7).integers(0, 100, 5).tolist()
    assert rouge_corpus.corpus_rouge(["a b c", "d e"], [["a b"], ["d e f"]], n_samples=np.int64(20),
                                     seed=np.int16(3)) == rouge_corpus.corpus_rouge(
        ["a b c", "d e"], [["a b"], ["d e f"]], n_samples=20, seed=3)


@pytest.mark.parametrize("samples", [[math.nan, 1.0], [1.0, math.inf, 2.0], np.array([math.nan], dtype=np.float32)])
def test_nan_or_infinite_samples_are_refused(samples):
    # Issue 19: "confidence_interval([nan, 1]) -> (nan, nan)": a clear ValueError instead.
    for rule in ("percentile", "sacrebleu"):
        with pytest.raises(ValueError, match="NaN or infinite"):
            Interval.from_samples(samples, rule=rule)
    with pytest.raises(ValueError, match="NaN or infinite"):
        confidence_interval(samples)


# --------------------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("samples", [[], [[1.0, 2.0]], ["a", "b"], None])
def test_bad_samples_are_refused(samples):
    with pytest.raises(ValueError, match="samples"):
        Interval.from_samples(samples)
    with pytest.raises(ValueError, match="samples"):
        confidence_interval(samples)


@pytest.mark.parametrize("confidence,error", [(1, ValueError), (-0.1, ValueError), (math.nan, ValueError),
                                              (True, TypeError), ("0.9", TypeError), (95, ValueError)])
def test_bad_confidence_is_refused(confidence, error):
    with pytest.raises(error, match="confidence"):
        check_confidence(confidence)
    with pytest.raises(error, match="confidence"):
        Interval.from_samples([1.0, 2.0], confidence)
    with pytest.raises(error, match="confidence"):
        correlation.bootstrap_correlation([1, 2, 3], [1, 3, 2], confidence=confidence)


def test_bad_rule_is_refused():
    with pytest.raises(ValueError, match="unknown rule 'koehn'"):
        Interval.from_samples([1.0, 2.0], rule="koehn")
    with pytest.raises(ValueError, match="95% only"):
        Interval.from_samples([1.0, 2.0], 0.9, rule="sacrebleu")


# ==========================================================================================================
# From tests/test_bootstrap_memory.py (marks: hardening):
# The ROUGE bootstrap resamples in chunks: the same numbers as drawing every resample at once (so the
# lessons keep theirs), in memory proportional to the number of segments, not segments x resamples.
# (Issue 10: 1,000 resamples needed 3 GB at 100k segments and raised MemoryError at 150k.)
# ==========================================================================================================
@pytest.mark.hardening
@pytest.mark.parametrize("high,shape,chunk", [(2, (7, 2), 2), (3, (5, 3), 4), (1000, (40, 1000), 3000),
                                              (99_991, (12, 99_991), 200_000), (1, (4, 1), 1), (6, (9, 6), 1)])
def test_draws_in_chunks_equal_one_call(high, shape, chunk):
    for seed in (0, 1, 12345):
        got = np.concatenate(list(uniform_draws_in_chunks(np.random.default_rng(seed), high, shape, chunk)))
        assert np.array_equal(got, np.random.default_rng(seed).integers(0, high, size=shape))


@pytest.mark.hardening
def test_draws_in_chunks_equal_one_call_with_many_rejections():
    # high just above 2**31: about half of the 32-bit candidates are rejected, so chunks end mid-word
    high = 2**31 + 12345
    for seed in (0, 7):
        got = np.concatenate(list(uniform_draws_in_chunks(np.random.default_rng(seed), high, (50, 3), 5)))
        assert np.array_equal(got, np.random.default_rng(seed).integers(0, high, size=(50, 3)))
