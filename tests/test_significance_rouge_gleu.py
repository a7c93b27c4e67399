"""The paired tests with ROUGE and GEC GLEU, on JFLEG.

Every score the tests compute is checked against the readable corpus functions run from scratch:
``corpus_rouge`` and ``corpus_gleu`` on the real corpus, on bootstrap resamples (the segment indices drawn
again from the same seeded generator) and on approximate-randomization swaps (the coin flips drawn again).
The systems: the uncorrected sentences (the baseline: a system that changes nothing), the first human
correction, and a mix of the two; the references are the other three corrections.
"""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from evalkit import data
from evalkit import protocol
from evalkit import significance as sig
from evalkit.gleu import gleu_reference_picks
from evalkit.protocol import get_metric
from evalkit.rouge_corpus import ROUGE_SCORES
from evalkit.gleu import corpus_gleu
from evalkit.rouge_corpus import corpus_rouge
from evalkit.significance import paired_approximate_randomization, paired_bootstrap

# These tests compare with sacreBLEU's and each other's numbers on toy corpora and tiny n_samples, where
# evalkit rightly warns that no small p is reachable or that samples tie; the warning is tested in test_significance.py.
pytestmark = pytest.mark.filterwarnings("ignore::evalkit.significance.SignificanceWarning")


@pytest.fixture(scope="module", params=["test", "dev"])
def jfleg(request):
    j = data.jfleg(request.param)
    refs = [r[1:] for r in j.references]  # corrections 1-3; correction 0 is a system
    mix = [c if i % 3 else s for i, (s, c) in enumerate(zip(j.sources, j.reference_sets[0]))]
    return j.sources, {"corrected": j.reference_sets[0], "mix": mix}, refs, j.sources


ROUGE_SETTINGS = [
    dict(),  # rouge1, mean of the segments' F
    dict(variant="rouge2", average="micro"),
    dict(variant="rougeL", score="recall", stemmer=True),
    dict(variant="rougeLsum", average="micro", score="precision", beta=2.0),
    dict(variant="rougeW", weight=1.5),
    dict(variant="rougeSU", max_skip=2, aggregation="mean", tokenize="unicode"),
]


def _rouge(hyps, refs, opts):
    """The readable corpus ROUGE of ``hyps`` for the adapter's options ``opts``: the chosen P, R or F."""
    opts = dict(opts)
    variant, average = opts.pop("variant", "rouge1"), opts.pop("average", "mean")
    measure = opts.pop("score", "fmeasure")
    return getattr(corpus_rouge(hyps, refs, variant, average=average, n_samples=1, **opts).estimate, measure)


def _gleu(hyps, refs, sources, picks=None, mode="sample"):
    """The readable corpus GLEU; with ``picks``, each sentence scored against its reference ``picks[i]`` only."""
    if picks is not None:
        refs = [[r[k]] for r, k in zip(refs, picks)]
    return corpus_gleu(hyps, refs, sources, mode=mode).score


def _resample(texts, idx):
    return [texts[i] for i in idx]


def _swap(base, other, heads):
    return [b if h else o for h, b, o in zip(heads, base, other)]


@pytest.fixture
def record(monkeypatch):
    """The bootstrap scores of every draw (samples x corpora), and every batch of rows scored, as computed."""
    seen = {"bootstrap": [], "scored": []}
    original, scorer = sig._bootstrap_scores, sig._Scorer

    def bootstrap_scores(*args):
        out = original(*args)
        seen["bootstrap"].append(out)
        return out

    class Recording(scorer):
        def __call__(self, rows, float32=None):
            out = super().__call__(rows, float32)
            seen["scored"].append(out)
            return out

    monkeypatch.setattr(sig, "_bootstrap_scores", bootstrap_scores)
    monkeypatch.setattr(sig, "_Scorer", Recording)
    return seen


# ------------------------------------------------------------------------------------------ ROUGE
@pytest.mark.parametrize("opts", ROUGE_SETTINGS, ids=lambda o: "-".join(map(str, o.values())) or "default")
def test_rouge_scores_and_resamples_are_corpus_rouge(jfleg, opts, record):
    base, systems, refs, _ = jfleg
    out = paired_bootstrap(base, systems, refs, metric="rouge", n_samples=20, seed=11, **opts)
    corpora = [base, *systems.values()]
    for name, hyps in zip(out, corpora):
        expected = _rouge(hyps, refs, opts)
        assert abs(out[name].score - expected) <= 1e-12
        assert out[name].score == expected  # in fact to the last bit: the sums are exact
    samples = record["bootstrap"][0]
    idx = np.random.default_rng(11).choice(len(base), size=(20, len(base)), replace=True)
    for k in (0, 7):
        for j, hyps in enumerate(corpora):
            assert samples[k, j] == _rouge(_resample(hyps, idx[k]), _resample(refs, idx[k]), opts)
    # the p-values from those samples: the default (shifted) statistic, and sacreBLEU's with null="sacrebleu"
    sacre = paired_bootstrap(base, systems, refs, metric="rouge", n_samples=20, seed=11, null="sacrebleu", **opts)
    for j, name in enumerate(list(out)[1:], start=1):
        d, real = samples[:, j] - samples[:, 0], out[name].score - out["baseline"].score
        assert out[name].p_value == (np.sum(np.abs(d - real) > abs(real)) + 1) / 21
        assert sacre[name].p_value == (np.sum(np.abs(d) - np.abs(d).mean() > abs(real)) + 1) / 21


@pytest.mark.parametrize("opts", [ROUGE_SETTINGS[0], ROUGE_SETTINGS[3]], ids=["mean", "micro"])
def test_rouge_swapped_corpora_are_corpus_rouge(jfleg, opts, record):
    base, systems, refs, _ = jfleg
    corrected = systems["corrected"]
    out = paired_approximate_randomization(base, {"corrected": corrected}, refs, metric="rouge", n_samples=15,
                                           seed=4, **opts)
    real, swapped_system, swapped_base = record["scored"][:3]
    assert real.tolist() == [out["baseline"].score, out["corrected"].score]
    heads = np.random.default_rng(4).integers(2, size=(15, len(base)), dtype=bool)
    for t in (0, 9):
        assert swapped_system[t] == _rouge(_swap(base, corrected, heads[t]), refs, opts)
        assert swapped_base[t] == _rouge(_swap(corrected, base, heads[t]), refs, opts)
    # and the p-value is the share of swaps with a larger difference, from those scores
    diffs = np.abs(swapped_system - swapped_base)
    assert out["corrected"].p_value == (np.sum(diffs > abs(real[1] - real[0])) + 1) / 16


def test_rouge_with_one_reference_and_the_readable_path():
    j = data.jfleg("test")
    refs = [[r] for r in j.reference_sets[1]]
    for opts in (dict(variant="rougeL"), dict(variant="rougeL", average="micro")):
        quick = paired_bootstrap(j.sources, {"c": j.reference_sets[0]}, refs, metric="rouge", n_samples=30, **opts)
        slow = paired_bootstrap(j.sources, {"c": j.reference_sets[0]}, refs, metric="rouge", n_samples=30,
                                fast=False, **opts)
        assert quick == slow
        assert quick["c"].score == _rouge(j.reference_sets[0], refs, opts)


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.floats(0, 1), min_size=1, max_size=40), data_=st.data())
def test_fixed_point_sums_are_fsum_exactly(values, data_):
    """Any resample (counts of each value) of any floats in [0, 1], tiny ones included: the fixed-point
    mean is math.fsum of the resampled values over their number, to the last bit."""
    table = protocol.fixed_point_rows([values])[0]
    counts = data_.draw(st.lists(st.integers(0, 5), min_size=len(values), max_size=len(values)))
    if sum(counts) == 0:
        counts[0] = 1
    summed = np.rint(np.array(counts, dtype=np.float64) @ table.astype(np.float64)).astype(np.int64)
    picked = [v for v, c in zip(values, counts) for _ in range(c)]
    assert protocol.fixed_point_mean(summed) == math.fsum(picked) / len(picked)


def test_fixed_point_rows_by_hand():
    rows = protocol.fixed_point_rows([[0.5, 0.75], [1.0]])  # E = 2 for both lists: 2/4, 3/4 and 4/4
    assert [r.tolist() for r in rows] == [[[2, 2, 1], [3, 2, 1]], [[4, 2, 1]]]
    assert protocol.fixed_point_mean(rows[0].sum(axis=0)) == 0.625
    with pytest.raises(ValueError, match=">= 0"):
        protocol.fixed_point_rows([[0.5, -0.25]])


@settings(max_examples=300, deadline=None)
@given(
    rows=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40), st.integers(0, 40)), min_size=1, max_size=6),
    beta=st.sampled_from([1.0, 2.0, 0.5, 3, 1e-160]),  # 1e-160: beta ** 2 underflows, F is held in [P, R]
    measure=st.sampled_from(ROUGE_SCORES),
)
@example(rows=[(5, 21, 21)], beta=2.0, measure="fmeasure")  # a clamp in the scalar path alone broke this
def test_vectorized_micro_rouge_equals_score_stats(rows, beta, measure):
    arr = np.array([[min(h, a, b), a, b] for h, a, b in rows], dtype=np.int64)  # hits <= both totals
    opts = dict(average="micro", beta=beta, score=measure)
    fast = get_metric("rouge").score_rows(arr, opts, False)
    for row, value in zip(arr, fast):
        assert value == get_metric("rouge").score(row, opts)


# ------------------------------------------------------------------------------------------ GLEU
def test_gleu_scores_and_resamples_are_corpus_gleu(jfleg, record):
    base, systems, refs, sources = jfleg
    out = paired_bootstrap(base, systems, refs, metric="gleu", n_samples=20, seed=2, sources=sources)
    first = corpus_gleu(base, refs, sources, iterations=2)  # the draw the tests use: iteration 0
    picks = first.assignments[0]
    corpora = [base, *systems.values()]
    for name, hyps in zip(out, corpora):
        expected = corpus_gleu(hyps, refs, sources, iterations=1).score
        assert abs(out[name].score - expected) <= 1e-12
        assert out[name].score == expected == _gleu(hyps, refs, sources, picks)
    assert out["baseline"].score == first.scores[0]
    samples = record["bootstrap"][0]
    idx = np.random.default_rng(2).choice(len(base), size=(20, len(base)), replace=True)
    for k in (0, 13):
        for j, hyps in enumerate(corpora):  # each resampled sentence keeps its reference
            expected = _gleu(_resample(hyps, idx[k]), _resample(refs, idx[k]), _resample(sources, idx[k]),
                             _resample(picks, idx[k]))
            assert samples[k, j] == expected


def test_gleu_swapped_corpora_are_corpus_gleu(jfleg, record):
    base, systems, refs, sources = jfleg
    corrected = systems["corrected"]
    out = paired_approximate_randomization(base, {"corrected": corrected}, refs, metric="gleu", n_samples=15,
                                           seed=8, sources=sources)
    picks = corpus_gleu(base, refs, sources, iterations=1).assignments[0]
    real, swapped_system, swapped_base = record["scored"][:3]
    assert real.tolist() == [out["baseline"].score, out["corrected"].score]
    heads = np.random.default_rng(8).integers(2, size=(15, len(base)), dtype=bool)
    for t in (0, 6):
        assert swapped_system[t] == _gleu(_swap(base, corrected, heads[t]), refs, sources, picks)
        assert swapped_base[t] == _gleu(_swap(corrected, base, heads[t]), refs, sources, picks)


def test_gleu_best_reference_mode(record):
    """mode="max": each hypothesis's own best reference, so the corpus score is corpus_gleu(mode="max"),
    and a resample or a swap is scored from scratch the same way."""
    j = data.jfleg("test")
    base, corrected, refs = j.sources, j.reference_sets[0], [r[1:] for r in j.references]
    out = paired_bootstrap(base, {"c": corrected}, refs, metric="gleu", n_samples=10, seed=1, sources=j.sources,
                           mode="max")
    assert out["baseline"].score == _gleu(base, refs, j.sources, mode="max")
    assert out["c"].score == _gleu(corrected, refs, j.sources, mode="max")
    idx = np.random.default_rng(1).choice(len(base), size=(10, len(base)), replace=True)
    assert record["bootstrap"][0][3, 1] == _gleu(_resample(corrected, idx[3]), _resample(refs, idx[3]),
                                                 _resample(j.sources, idx[3]), mode="max")


def test_gleu_other_draws_one_reference_and_options():
    j = data.jfleg("dev")
    base, corrected, refs = j.sources, j.reference_sets[0], [r[1:] for r in j.references]
    # iteration 2 of corpus_gleu's seeded draws
    out = paired_bootstrap(base, {"c": corrected}, refs, metric="gleu", n_samples=5, sources=j.sources,
                           iteration=2, reference_seed=99)
    assert out["c"].score == corpus_gleu(corrected, refs, j.sources, iterations=3, seed=99).scores[2]
    # and of the script's draws, with a few of corpus_gleu's options
    opts = dict(max_order=3, tokenize="char-with-spaces", formula="paper")
    out = paired_bootstrap(base, {"c": corrected}, refs, metric="gleu", n_samples=5, sources=j.sources,
                           iteration=4, **opts)
    assert out["c"].score == corpus_gleu(corrected, refs, j.sources, iterations=5, **opts).scores[4]
    # one reference per sentence: nothing to draw, the score is corpus_gleu's own
    one = [[r] for r in j.reference_sets[2]]
    out = paired_bootstrap(base, {"c": corrected}, one, metric="gleu", n_samples=5, sources=j.sources)
    assert out["c"].score == corpus_gleu(corrected, one, j.sources).score
    # the picks helper is corpus_gleu's draw
    counts = [len(r) for r in refs]
    assert tuple(gleu_reference_picks(counts, 3)) == corpus_gleu(corrected, refs, j.sources,
                                                                      iterations=4).assignments[3]


# ------------------------------------------------------------------------------------------ bad input
BASE = ["the cat sat", "a dog barked", "it rains"]
SYS = {"B": ["the cat sat down", "the dog barked", "it is raining"]}
REFS = [["the cat sat"], ["the dog barked"], ["it is raining"]]
SOURCES = ["the cat sit", "a dog bark", "it rain"]


@pytest.mark.parametrize(
    "metric, kwargs, exc, match",
    [
        ("rouge", dict(n=2), TypeError, "unknown option"),
        ("rouge", dict(variant="rouge10"), ValueError, "at most 9"),
        ("rouge", dict(variant="bleu"), ValueError, "unknown ROUGE variant"),
        ("rouge", dict(weight=1.2), TypeError, "weight do not apply to rouge1"),
        ("rouge", dict(variant="rougeL", max_skip=2), TypeError, "max_skip do not apply to rougeL"),
        ("rouge", dict(average="macro"), ValueError, "unknown average"),
        ("rouge", dict(score="f1"), ValueError, "unknown score"),
        ("rouge", dict(variant="rougeW", average="micro"), ValueError, "not offered for ROUGE-W"),
        ("rouge", dict(average="micro", aggregation="mean"), ValueError, "needs counts"),
        ("rouge", dict(beta=0), ValueError, "beta must be a positive"),
        ("rouge", dict(stemmer="yes"), TypeError, "stemmer must be True or False"),
        ("rouge", dict(tokenize="moses"), ValueError, "tokenize"),
        ("rouge", dict(sacrebleu_float32=True), ValueError, "sacrebleu_float32"),
        ("rouge", dict(systems={"B": [["the", "cat"], "b", "c"]}), TypeError, "expected a string"),
        ("gleu", dict(), TypeError, "needs the uncorrected sentences: pass sources="),
        ("gleu", dict(sources=SOURCES[:2]), ValueError, "sources has 2 sentences and references 3"),
        ("gleu", dict(sources="the cat sit"), TypeError, "sources is a str"),
        ("gleu", dict(sources=[]), ValueError, "sources is empty"),
        ("gleu", dict(sources=["a", None, "c"]), TypeError, r"source\[1\] is None"),
        ("gleu", dict(sources=SOURCES, iterations=500), TypeError, "unknown option"),
        ("gleu", dict(sources=SOURCES, mode="mean"), ValueError, "unknown mode"),
        ("gleu", dict(sources=SOURCES, iteration=-1), ValueError, "iteration must be at least 0"),
        ("gleu", dict(sources=SOURCES, reference_seed="7"), TypeError, "reference_seed must be an int"),
        ("gleu", dict(sources=SOURCES, mode="max", iteration=3), ValueError, "mode='max' draws none"),
        ("gleu", dict(sources=SOURCES, formula="bleu"), ValueError, "unknown formula"),
        ("gleu", dict(sources=SOURCES, max_order=0), ValueError, "max_order"),
    ],
)
@pytest.mark.parametrize("test", [paired_bootstrap, paired_approximate_randomization])
def test_bad_rouge_and_gleu_input_is_refused_clearly(test, metric, kwargs, exc, match):
    kwargs = dict(kwargs)  # the parameter is shared by both tests: pop from a copy
    systems = kwargs.pop("systems", SYS)
    with pytest.raises(exc, match=match):
        test(BASE, systems, REFS, metric=metric, n_samples=10, **kwargs)


def test_module_examples():
    assert doctest.testmod(sig).failed == 0
