"""The ROUGE bootstrap resamples in chunks: the same numbers as drawing every resample at once (so the
lessons keep theirs), in memory proportional to the number of segments, not segments x resamples.
(Issue 10: 1,000 resamples needed 3 GB at 100k segments and raised MemoryError at 150k.)"""

from __future__ import annotations

import gc
import tracemalloc

import numpy as np
import pytest

from evalkit import fast, rouge_corpus
from evalkit.rouge import RougeScore, RougeStats, score_stats


def all_at_once(segments, average, n_samples, confidence, seed):
    """The bootstrap as it was: the whole n_samples x n array of draws from one call, numpy throughout."""
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(segments), size=(n_samples, len(segments)))
    if average == "mean":
        estimates = np.array([[s.precision, s.recall, s.fmeasure] for s in segments])[draws].mean(axis=1)
    else:
        counts = np.array([[s.stats.matches, s.stats.hyp_len, s.stats.ref_len] for s in segments], dtype=float)
        summed = counts[draws].sum(axis=1)
        hits, hyp_len, ref_len = summed[:, 0], summed[:, 1], summed[:, 2]
        weight, b2 = segments[0].stats.weight, segments[0].beta ** 2
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(hyp_len > 0, (hits / np.where(hyp_len > 0, hyp_len, 1)) ** (1 / weight), 0.0)
            r = np.where(ref_len > 0, (hits / np.where(ref_len > 0, ref_len, 1)) ** (1 / weight), 0.0)
            f = np.where(b2 * p + r > 0, (1 + b2) * p * r / np.where(b2 * p + r > 0, b2 * p + r, 1), 0.0)
        estimates = np.stack([p, r, f], axis=1)
        # and those are what score_stats gives for the summed counts of each resample
        first = score_stats(RougeStats(*summed[0], weight=weight), beta=segments[0].beta)
        assert [first.precision, first.recall, first.fmeasure] == pytest.approx(estimates[0].tolist(), rel=1e-12)
    tail = (1 - confidence) / 2 * 100
    return np.percentile(estimates, [tail, 100 - tail], axis=0)


@pytest.mark.parametrize("high,shape,chunk", [(2, (7, 2), 2), (3, (5, 3), 4), (1000, (40, 1000), 3000),
                                              (99_991, (12, 99_991), 200_000), (1, (4, 1), 1), (6, (9, 6), 1)])
def test_draws_in_chunks_equal_one_call(high, shape, chunk):
    for seed in (0, 1, 12345):
        got = np.concatenate(list(fast.uniform_draws_in_chunks(np.random.default_rng(seed), high, shape, chunk)))
        assert np.array_equal(got, np.random.default_rng(seed).integers(0, high, size=shape))


def test_draws_in_chunks_equal_one_call_with_many_rejections():
    # high just above 2**31: about half of the 32-bit candidates are rejected, so chunks end mid-word
    high = 2**31 + 12345
    for seed in (0, 7):
        got = np.concatenate(list(fast.uniform_draws_in_chunks(np.random.default_rng(seed), high, (50, 3), 5)))
        assert np.array_equal(got, np.random.default_rng(seed).integers(0, high, size=(50, 3)))


@pytest.mark.parametrize("average,variant", [("mean", "rouge1"), ("mean", "rougeL"), ("micro", "rouge2"),
                                             ("micro", "rougeW")])
def test_chunked_bootstrap_equals_all_at_once(average, variant, jfleg_dev, monkeypatch):
    segments = rouge_corpus.segment_scores(jfleg_dev.sources[:300], jfleg_dev.references[:300], variant)
    expected_low, expected_high = all_at_once(segments, average, 200, 0.9, 3)
    for chunk in (300, 1000, 7 * 300 + 1, 200 * 300):  # one resample, three, seven, all 200 in one chunk
        monkeypatch.setattr(rouge_corpus, "BOOTSTRAP_CHUNK", chunk)
        _, low, high, _ = rouge_corpus.bootstrap_interval(segments, average, n_samples=200, confidence=0.9, seed=3)
        assert [low.precision, low.recall, low.fmeasure] == pytest.approx(expected_low, rel=1e-12, abs=1e-15)
        assert [high.precision, high.recall, high.fmeasure] == pytest.approx(expected_high, rel=1e-12, abs=1e-15)
        # the very same floating-point operations: equal to the last bit
        assert [low.precision, low.recall, low.fmeasure, high.precision, high.recall, high.fmeasure] == [
            *expected_low.tolist(), *expected_high.tolist()]


def peak_bytes(fn) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_bootstrap_memory_grows_with_segments_not_segments_times_samples():
    gen = np.random.default_rng(0)
    n = 50_000
    segments = [RougeScore(p, r, f, "rouge1", 1.0) for p, r, f in gen.random((n, 3)).tolist()]
    peak = peak_bytes(lambda: rouge_corpus.bootstrap_interval(segments, n_samples=1000))
    # All at once: 1000 x 50,000 int64 draws (400 MB) and the 1000 x 50,000 x 3 floats they gather (1.2 GB).
    # In chunks: the table of the segments and one chunk of 2**20 draws (~80 MB) whatever the resamples.
    assert peak < 2000 * n, f"peak {peak / 2**20:.0f} MB for {n} segments"
    fewer_samples = peak_bytes(lambda: rouge_corpus.bootstrap_interval(segments, n_samples=100))
    assert peak < 1.2 * fewer_samples, (peak, fewer_samples)  # ten times the resamples, the same memory
