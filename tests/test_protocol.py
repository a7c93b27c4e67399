"""evalkit.protocol: the additive statistics base, the one F-measure, the metric registry, fixed-point rows."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit import bleu, chrf, gleu, google_bleu, rouge, ter
from evalkit.protocol import (
    AdditiveStats,
    Metric,
    f_score,
    fixed_point_mean,
    fixed_point_rows,
    get_metric,
    register_metric,
    segment_count,
    setting,
)


@dataclass(frozen=True)
class Toy(AdditiveStats):
    matches: int
    per_order: tuple[int, ...]
    segments: int = segment_count()
    lowercase: bool = setting(False, "casing")


def test_counts_add_field_by_field_and_sum_starts_from_zero():
    a, b = Toy(1, (2, 3)), Toy(4, (5, 6))
    assert a + b == Toy(5, (7, 9), segments=2)
    assert sum([a, b, a]) == Toy(6, (9, 12), segments=3)
    assert a.row() == [1, 2, 3] and Toy.from_row([1, 2, 3]) == a


def test_settings_must_agree_and_orders_must_match():
    with pytest.raises(ValueError, match="different casing"):
        Toy(1, (2,)) + Toy(1, (2,), lowercase=True)
    with pytest.raises(ValueError, match="max order 2 and 1"):
        Toy(1, (2, 3)) + Toy(1, (2,))
    with pytest.raises(ValueError, match="not a BLEUStats"):
        bleu.BLEUStats.from_row([1, 2, 3, 4, 5])  # three lengths, then three tuples of one length: not 5 numbers
    assert Toy(1, (2,)).__add__(3) is NotImplemented


def test_every_statistics_class_is_additive_through_the_base():
    """The six metrics' statistics classes add with the one base: no class writes its own __add__."""
    for cls in (bleu.BLEUStats, chrf.CHRFStats, ter.TERStats, gleu.GLEUStats, google_bleu.GoogleBLEUStats,
                rouge.RougeStats):
        assert issubclass(cls, AdditiveStats)
        assert "__add__" not in vars(cls) and "__radd__" not in vars(cls), cls.__name__


def test_rows_round_trip_for_real_statistics():
    refs = [["the cat is on the mat"], ["there is a cat on the mat"]]
    hyps = ["the cat sat on the mat", "a cat on a mat"]
    for s in bleu.segment_stats(hyps, refs):
        assert bleu.BLEUStats.from_row(s.row(), tokenize=s.tokenize) == s
    for s in chrf.segment_stats(hyps, refs, word_order=2):
        assert chrf.CHRFStats.from_row(s.row(), word_order=2) == s
    total = sum(bleu.segment_stats(hyps, refs))
    assert total.row() == np.sum([s.row() for s in bleu.segment_stats(hyps, refs)], axis=0).tolist()


# ------------------------------------------------------------------------------------------ the F-measure
def test_f_score_by_hand():
    assert f_score(0.75, 0.5) == 2 * 0.75 * 0.5 / 1.25
    assert f_score(0.75, 0.5, beta=2) == 5 * 0.75 * 0.5 / (4 * 0.75 + 0.5)
    assert f_score(0.0, 0.0) == 0.0 and f_score(1.0, 0.0) == 0.0


@settings(max_examples=300, deadline=None)
@given(p=st.lists(st.floats(0, 1), min_size=1, max_size=8), beta=st.sampled_from([1, 2, 3.0, 0.5, 1e-200, 1e100]))
def test_f_score_of_arrays_is_f_score_of_each_pair(p, beta):
    """The array form gives, to the last bit, what the scalar form gives pair by pair (float64 and float32)."""
    r = list(reversed(p))
    arr = f_score(np.array(p), np.array(r), beta)
    assert arr.dtype == np.float64
    assert arr.tolist() == [f_score(a, b, beta) for a, b in zip(p, r)]
    if beta in (1, 2):  # float32 arithmetic, as numpy does it for float32 arrays with a Python constant
        a32, b32 = np.array(p, dtype=np.float32), np.array(r, dtype=np.float32)
        out = f_score(a32, b32, beta)
        assert out.dtype == np.float32
        b2 = np.float32(beta * beta)
        with np.errstate(all="ignore"):
            expected = [np.float32(0) if b2 * x + y <= 0 else (np.float32(1) + b2) * x * y / (b2 * x + y)
                        for x, y in zip(a32, b32)]
        assert out.tolist() == [float(e) for e in expected]


# ------------------------------------------------------------------------------------------ the registry
def test_built_in_metrics_are_found_by_name_and_unknown_ones_refused():
    assert {get_metric(n).name for n in ("bleu", "chrf", "ter", "rouge", "gleu")} == {"bleu", "chrf", "ter", "rouge",
                                                                                   "gleu"}
    with pytest.raises(ValueError, match="unknown metric 'blue'.*'bleu'"):
        get_metric("blue")
    with pytest.raises(TypeError, match="expected a Metric"):
        register_metric("bleu")  # type: ignore[arg-type]


@pytest.mark.parametrize("name, options", [("bleu", {"smoothing": "exp"}), ("chrf", {"word_order": 2}), ("ter", {}),
                                           ("rouge", {"average": "micro"})])
def test_summed_rows_score_as_the_metric_scores_the_corpus(name, options):
    """A metric's rows, summed over the corpus and scored, give its corpus function's score."""
    from evalkit.rouge_corpus import corpus_rouge

    hyps = ["the cat sat on the mat", "a cat on a mat", "it is raining"]
    refs = [["the cat is on the mat"], ["there is a cat on the mat"], ["it rains"]]
    metric = get_metric(name)
    rows = metric.statistics([hyps], refs, options, True)[0]
    assert rows.dtype == np.int64 and rows.shape[0] == 3
    corpus = {"bleu": lambda: bleu.corpus_bleu(hyps, refs, **options).score,
              "chrf": lambda: chrf.corpus_chrf(hyps, refs, **options).score,
              "ter": lambda: ter.corpus_ter(hyps, refs).score,
              "rouge": lambda: corpus_rouge(hyps, refs, "rouge1", average="micro").estimate.fmeasure}[name]()
    assert metric.score(rows.sum(axis=0), options) == pytest.approx(corpus, rel=1e-15, abs=1e-15)
    assert metric.score_rows(rows.sum(axis=0)[None, :], options, False)[0] == metric.score(rows.sum(axis=0), options)
    assert isinstance(metric, Metric)


# ------------------------------------------------------------------------------------------ fixed point
@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.floats(0, 1), min_size=1, max_size=30))
def test_fixed_point_rows_sum_to_the_exact_mean(values):
    rows = fixed_point_rows([values])[0]
    assert fixed_point_mean(rows.sum(axis=0).tolist()) == math.fsum(values) / len(values)


def test_scores_of_many_rows_at_once_or_row_by_row():
    """Metric.scores: score_rows where the metric has it, else score row by row; float32 refused where the
    metric cannot give sacreBLEU's float32 scores."""
    hyps, refs, sources = ["a b c d", "a b x"], [["a b c d"], ["a b c"]], ["a b c d", "a b y"]
    bleu_metric, gleu_metric = get_metric("bleu"), get_metric("gleu")
    rows = bleu_metric.checked_statistics([hyps], refs, {"smoothing": "floor"})[0]
    fast = bleu_metric.scores(rows, {"smoothing": "floor"})
    readable = bleu_metric.scores(rows, {"smoothing": "floor"}, fast=False)
    assert fast.tolist() == pytest.approx(readable.tolist(), rel=1e-12)
    g = gleu_metric.checked_statistics([hyps], refs, {"sources": sources})[0]
    assert gleu_metric.scores(g.sum(axis=0)[None, :], {"sources": sources}).tolist() == [
        gleu.corpus_gleu(hyps, refs, sources).score]
    with pytest.raises(ValueError, match="sacrebleu_float32=True is not available for these gleu options"):
        gleu_metric.scores(g, {"sources": sources}, float32=True)
    with pytest.raises(TypeError, match="unknown option.*for bleu: beta"):
        bleu_metric.checked_statistics([hyps], refs, {"beta": 2})
