"""Every BLEU worked example of ../shared/curriculum.md: evalkit reproduces the number printed there
(computed by the named library, NLTK 3.10 / sacreBLEU 2.6.0) and the peer, called now, agrees."""

from __future__ import annotations

import math
import warnings

import pytest
import sacrebleu
from nltk.tokenize import NLTKWordTokenizer
from nltk.translate import bleu_score as nltk_bleu

from evalkit.bleu import corpus_bleu, sentence_bleu

SMOOTH = nltk_bleu.SmoothingFunction()
HYP = "the cat sat on the mat"
REF = "the cat is on the mat"


def counts(r):
    return [(p.matches, p.total) for p in r.precisions]


def nltk_sentence(refs, hyp, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nltk_bleu.sentence_bleu(refs, hyp, **kw)


def test_example_a():
    r = sentence_bleu(HYP, [REF, "the bird sat on the bush"], weights=(0.5, 0.5))
    assert counts(r) == [(6, 6), (4, 5)] and round(r.score, 4) == 0.8944
    theirs = nltk_sentence([REF.split(), "the bird sat on the bush".split()], HYP.split(), weights=(0.5, 0.5))
    assert math.isclose(r.score, theirs, rel_tol=1e-12)


@pytest.mark.parametrize(
    "method, printed",
    [(1, 0.2541), (2, 0.4855), (3, 0.3799), (4, 0.2939), (5, 0.3804), (6, 0.3875), (7, 0.4101)],
)
def test_example_b_nltk_smoothing(method, printed):
    ours = sentence_bleu(HYP, [REF], smoothing=f"method{method}").score
    theirs = nltk_sentence([REF.split()], HYP.split(), smoothing_function=getattr(SMOOTH, f"method{method}"))
    assert round(ours, 4) == printed and math.isclose(ours, theirs, rel_tol=1e-12)


def test_example_b_unsmoothed_and_nltk_tiny_value():
    assert counts(sentence_bleu(HYP, [REF])) == [(5, 6), (3, 5), (1, 4), (0, 3)]
    assert sentence_bleu(HYP, [REF]).score == 0.0  # evalkit's exact BLEU
    ours = sentence_bleu(HYP, [REF], smoothing="method0").score
    with pytest.warns(UserWarning, match="0 counts of 4-gram"):
        theirs = nltk_bleu.sentence_bleu([REF.split()], HYP.split())
    assert f"{ours:.2e}" == "7.26e-78" and math.isclose(ours, theirs, rel_tol=1e-12)


@pytest.mark.parametrize("method, printed", [("floor", 25.41), ("add-k", 48.55), ("exp", 37.99)])
def test_example_b_sacrebleu_smoothing(method, printed):
    ours = sentence_bleu(HYP, [REF], smoothing=method, tokenize="13a").score * 100
    theirs = sacrebleu.sentence_bleu(HYP, [REF], smooth_method=method).score
    assert round(ours, 2) == printed and math.isclose(ours, theirs, rel_tol=1e-12)
    nltk_twin = {"floor": 1, "add-k": 2, "exp": 3}[method]
    assert math.isclose(ours / 100, sentence_bleu(HYP, [REF], smoothing=f"method{nltk_twin}").score, rel_tol=1e-12)


def test_clipping_and_word_order():
    garden = "the cat is walking in the garden"
    assert counts(sentence_bleu(["the"] * 7, [garden], weights=(1,))) == [(2, 7)]
    assert counts(sentence_bleu("the cat is running in the fields", [garden])) == [(5, 7), (3, 6), (1, 5), (0, 4)]
    hyp = "she read the book because she was interested in world history"
    ref = "she was interested in world history because she read the book"
    assert counts(sentence_bleu(hyp, [ref])) == [(11, 11), (9, 10), (6, 9), (4, 8)]


def test_the_papers_example():
    hyp = "It is a guide to action which ensures that the military always obeys the commands of the party."
    refs = [
        "It is a guide to action that ensures that the military will forever heed Party commands.",
        "It is the guiding principle which guarantees the military forces always being under the command of the Party.",
        "It is the practical guide for the army always to heed the directions of the party.",
    ]
    r = sentence_bleu(hyp, refs)
    assert counts(r) == [(16, 18), (10, 17), (7, 16), (4, 15)]
    theirs = nltk_bleu.sentence_bleu([x.split() for x in refs], hyp.split())
    assert math.isclose(r.score, 0.4969770530031034, rel_tol=1e-12) and math.isclose(r.score, theirs, rel_tol=1e-12)


def test_rookie_numbers_weights():
    tok = NLTKWordTokenizer().tokenize
    ref = tok("we need to pump those numbers up, those numbers are rookie numbers")
    long_hyp = tok("we need to drive these figures up, these figures are beginner figures")
    short_hyp = tok("we need to pump those numbers up")
    printed = {
        (0.5, 0.5): (0.33968311024337877, 0.42437284567694994),
        (1 / 3, 1 / 3, 1 / 3): (0.21890301363223727, 0.42437284567694994),
        (0.25, 0.25, 0.25, 0.25): (3.908633169762327e-78, 0.42437284567694994),
    }
    for weights, (long_score, short_score) in printed.items():
        smoothing = "method0"  # NLTK's default, with its tiny stand-in for a zero precision
        ours = [sentence_bleu(h, [ref], weights=weights, smoothing=smoothing).score for h in (long_hyp, short_hyp)]
        theirs = [nltk_sentence([ref], h, weights=weights) for h in (long_hyp, short_hyp)]
        for o, t, p in zip(ours, theirs, (long_score, short_score)):
            assert math.isclose(o, p, rel_tol=1e-12) and math.isclose(o, t, rel_tol=1e-12)
    # evalkit's exact BLEU-4 of the long hypothesis is 0: it has no matching 4-gram.
    assert sentence_bleu(long_hyp, [ref]).score == 0.0


def test_closest_vs_shortest_reference_example():
    words = [f"w{i}" for i in range(11)]
    hyp, refs = words[:10], [words[:8], words[:11]]
    assert round(sentence_bleu(hyp, refs).brevity_penalty, 4) == 0.9048
    assert sentence_bleu(hyp, refs, ref_length="shortest").brevity_penalty == 1.0
    assert math.isclose(
        sentence_bleu(hyp, refs).score, nltk_bleu.sentence_bleu(refs, hyp), rel_tol=1e-12
    )


def test_corpus_is_not_the_mean_of_sentences():
    hyps = ["the cat sat on the mat", "a quick brown fox"]
    refs = [["the cat is on the mat"], ["the quick brown fox jumps"]]
    corpus = corpus_bleu(hyps, refs, smoothing="method1").score
    sentences = [sentence_bleu(h, r, smoothing="method1").score for h, r in zip(hyps, refs)]
    assert round(corpus, 4) == 0.2299
    assert [round(s, 4) for s in sentences] == [0.2541, 0.3097] and round(sum(sentences) / 2, 4) == 0.2819
    theirs = nltk_bleu.corpus_bleu(
        [[r.split() for r in rs] for rs in refs], [h.split() for h in hyps], smoothing_function=SMOOTH.method1
    )
    assert math.isclose(corpus, theirs, rel_tol=1e-12)


@pytest.mark.parametrize("tok, printed", [("none", 47.60), ("13a", 67.75), ("intl", 68.59), ("char", 81.92)])
def test_tokenization_changes_the_score(tok, printed):
    hyp = "It's a well-known fact: costs rose 3.5% in the U.S."
    ref = "It is a well-known fact that costs rose 3.5% in the U.S."
    ours = corpus_bleu([hyp], [[ref]], tokenize=tok, smoothing="exp").score * 100
    theirs = sacrebleu.corpus_bleu([hyp], [[ref]], tokenize=tok).score
    assert round(ours, 2) == printed and math.isclose(ours, theirs, rel_tol=1e-12)
