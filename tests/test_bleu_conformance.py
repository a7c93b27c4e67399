"""evalkit's BLEU equals sacreBLEU's and NLTK's, called here at test time, on the real corpora in data/
(sacreBLEU's corpus BLEU of the 16 WMT17 systems is recorded in tests/peers/, recomputed by make conformance)."""

from __future__ import annotations

import math
import warnings

import peers
import pytest
import sacrebleu
from nltk.translate import bleu_score as nltk_bleu

from evalkit.bleu import corpus_bleu, sentence_bleu

NLTK_SMOOTH = nltk_bleu.SmoothingFunction()
WEIGHT_VECTORS = [
    (0.25, 0.25, 0.25, 0.25),
    (0.5, 0.5),
    (1 / 3, 1 / 3, 1 / 3),
    (0.1, 0.2, 0.3, 0.4),
    (0.2, 0.2, 0.2, 0.2, 0.2),
]


def nltk_or_error(fn, *args, **kwargs):
    """NLTK's value, or the exception it raises (method6 asserts on a zero 3-gram precision)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # method0 warns on every zero precision
        try:
            return fn(*args, **kwargs)
        except (AssertionError, IndexError) as exc:
            return exc


# ------------------------------------------------------------------------------------------ sacreBLEU
@pytest.mark.parametrize("tok", ["13a", "intl", "char", "none"])
def test_corpus_bleu_equals_sacrebleu_on_all_wmt17_systems(tok, wmt17):
    reference, systems = wmt17
    refs = [[r] for r in reference]
    assert len(systems) == 16
    # sacrebleu.corpus_bleu(hyps, [reference], tokenize=tok) for 13a, literally; for the other tokenizers
    # the same computation through a BLEU object that keeps the reference counts: tests/peers/bleu_corpus.json
    # (peers.bleu_corpus; make conformance runs it again).
    recorded = peers.recorded("bleu_corpus")[tok]
    assert list(recorded) == list(systems)
    for name, hyps in systems.items():
        ours = corpus_bleu(hyps, refs, tokenize=tok, smoothing="exp").score * 100
        theirs = recorded[name]
        assert math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-9), (name, ours, theirs)


def test_published_wmt17_13a_scores(wmt17):
    # The sacreBLEU 2.6.0 scores listed in data/README.md, to two decimals.
    published = {"uedin-nmt": 28.30, "online-F": 15.45, "SYSTRAN": 26.71, "C-3MA": 22.67, "online-B": 26.65}
    reference, systems = wmt17
    for name, score in published.items():
        ours = corpus_bleu(systems[name], [[r] for r in reference], tokenize="13a", smoothing="exp").score
        assert round(ours * 100, 2) == score


@pytest.mark.parametrize("smooth", ["exp", "floor", "add-k", "none"])
def test_sentence_bleu_equals_sacrebleu_on_wmt17_segments(smooth, wmt17):
    reference, systems = wmt17
    for name in ["uedin-nmt", "online-F"]:
        for hyp, ref in zip(systems[name], reference):
            ours = sentence_bleu(hyp, [ref], tokenize="13a", smoothing=smooth, effective_order=True).score * 100
            theirs = sacrebleu.sentence_bleu(hyp, [ref], smooth_method=smooth).score
            assert math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-9), (hyp, ref, ours, theirs)


def test_multi_reference_corpus_bleu_equals_sacrebleu(jfleg_dev):
    # Four references per segment: sacreBLEU wants them as four streams, evalkit as four per segment.
    for hyps in [jfleg_dev.sources, jfleg_dev.reference_sets[0]]:
        ours = corpus_bleu(hyps, jfleg_dev.references, tokenize="13a", smoothing="exp").score * 100
        theirs = sacrebleu.corpus_bleu(hyps, jfleg_dev.reference_sets).score
        assert math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-9)


# ------------------------------------------------------------------------------------------ NLTK
def jfleg_systems(split):
    """Whitespace-tokenized hypotheses with four references each: the uncorrected source, and each
    correction scored against all four (itself included, a near-perfect system)."""
    refs = [[r.split() for r in rs] for rs in split.references]
    yield "source", [s.split() for s in split.sources], refs
    yield "ref0-vs-others", [rs[0] for rs in refs], [rs[1:] for rs in refs]


@pytest.mark.parametrize("method", range(8))
def test_sentence_bleu_equals_nltk_on_jfleg(method, jfleg_dev):
    smoothing = getattr(NLTK_SMOOTH, f"method{method}")
    checked = refused = 0
    for _, hyps, refs in jfleg_systems(jfleg_dev):
        for hyp, ref in zip(hyps, refs):
            for w in WEIGHT_VECTORS:
                theirs = nltk_or_error(nltk_bleu.sentence_bleu, ref, hyp, weights=w, smoothing_function=smoothing)
                if isinstance(theirs, Exception):
                    with pytest.raises(ValueError, match="method6"):
                        sentence_bleu(hyp, ref, weights=w, smoothing=f"method{method}")
                    refused += 1
                    continue
                ours = sentence_bleu(hyp, ref, weights=w, smoothing=f"method{method}").score
                assert math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=0.0), (hyp, ref, w, ours, theirs)
                checked += 1
    assert checked > 4000
    assert (refused > 0) == (method == 6)  # only method6 ever refuses


@pytest.mark.parametrize("method", range(5))
@pytest.mark.parametrize("split", ["dev", "test"])
def test_corpus_bleu_equals_nltk_on_jfleg(method, split, jfleg_dev, jfleg_test):
    data = jfleg_dev if split == "dev" else jfleg_test
    smoothing = getattr(NLTK_SMOOTH, f"method{method}")
    for _, hyps, refs in jfleg_systems(data):
        for w in WEIGHT_VECTORS:
            theirs = nltk_or_error(nltk_bleu.corpus_bleu, refs, hyps, weights=w, smoothing_function=smoothing)
            ours = corpus_bleu(hyps, refs, weights=w, smoothing=f"method{method}").score
            assert math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=0.0), (w, ours, theirs)


def test_corpus_bleu_with_short_segments_equals_nltk():
    # NLTK counts a segment with no n-grams of order n as one n-gram (denominator max(1, total)) even at
    # corpus level; segments of one and two tokens exercise that.
    hyps = [["the"], ["a", "cat"], "the cat sat on the mat".split()]
    refs = [[["the", "dog"]], [["a", "cat", "sat"]], ["the cat is on the mat".split()]]
    for method in range(5):
        smoothing = getattr(NLTK_SMOOTH, f"method{method}")
        theirs = nltk_or_error(nltk_bleu.corpus_bleu, refs, hyps, smoothing_function=smoothing)
        assert math.isclose(corpus_bleu(hyps, refs, smoothing=f"method{method}").score, theirs, rel_tol=1e-9)


@pytest.mark.parametrize("method", [5, 6, 7])
def test_nltk_corpus_smoothing_bug_for_methods_5_to_7_is_pinned(method, jfleg_dev):
    """NLTK's corpus_bleu hands methods 5-7 the *last* hypothesis and its references only.

    evalkit reproduces that on request (nltk_last_hypothesis=True) and otherwise uses the whole corpus, so
    that, unlike NLTK, the corpus score does not change when only the last segment is swapped.
    """
    refs = [[r.split() for r in rs] for rs in jfleg_dev.references]
    hyps = [s.split() for s in jfleg_dev.sources]
    smoothing = getattr(NLTK_SMOOTH, f"method{method}")
    theirs = nltk_or_error(nltk_bleu.corpus_bleu, refs, hyps, smoothing_function=smoothing)
    compat = corpus_bleu(hyps, refs, smoothing=f"method{method}", nltk_last_hypothesis=True).score
    default = corpus_bleu(hyps, refs, smoothing=f"method{method}").score
    assert math.isclose(compat, theirs, rel_tol=1e-9)
    assert not math.isclose(default, theirs, rel_tol=1e-9)

    # The bug made visible: moving a different segment to the end changes NLTK's corpus score.
    order = list(range(1, len(hyps))) + [0]
    moved_hyps, moved_refs = [hyps[i] for i in order], [refs[i] for i in order]
    theirs_moved = nltk_or_error(nltk_bleu.corpus_bleu, moved_refs, moved_hyps, smoothing_function=smoothing)
    if not isinstance(theirs_moved, Exception) and not isinstance(theirs, Exception):
        default_moved = corpus_bleu(moved_hyps, moved_refs, smoothing=f"method{method}").score
        assert math.isclose(default_moved, default, rel_tol=1e-12)
        compat_moved = corpus_bleu(moved_hyps, moved_refs, smoothing=f"method{method}", nltk_last_hypothesis=True)
        assert math.isclose(compat_moved.score, theirs_moved, rel_tol=1e-9)


def test_nltk_method5_exceeds_one_on_a_perfect_match_and_evalkit_reproduces_it():
    """NLTK applies Chen & Cherry's method 5 to precisions with p_0 = p_1 + 1 (the paper smooths match
    counts), so a perfect hypothesis scores above 1. evalkit's "method5"/"method7" reproduce NLTK's numbers,
    this included; the lesson warns about it."""
    words = "the cat sat on the mat".split()
    for method in (5, 7):
        theirs = nltk_bleu.sentence_bleu([words], words, smoothing_function=getattr(NLTK_SMOOTH, f"method{method}"))
        ours = sentence_bleu(words, [words], smoothing=f"method{method}").score
        assert theirs > 1.0 and math.isclose(ours, theirs, rel_tol=1e-12)
