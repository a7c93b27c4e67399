"""Properties of BLEU that must hold for any input (hypothesis generates the input)."""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit.bleu import SMOOTHING, brevity_penalty, corpus_bleu, score_stats, segment_stats, sentence_bleu

WORDS = st.sampled_from("the a cat dog sat on mat is in garden".split())
SENTENCE = st.lists(WORDS, min_size=0, max_size=12)
REFERENCES = st.lists(st.lists(WORDS, min_size=1, max_size=12), min_size=1, max_size=3)
SETTINGS = settings(max_examples=60, deadline=None)


@SETTINGS
@given(SENTENCE, REFERENCES, st.sampled_from(SMOOTHING), st.booleans())
def test_score_is_between_zero_and_one(hyp, refs, smoothing, effective_order):
    try:
        r = sentence_bleu(hyp, refs, smoothing=smoothing, effective_order=effective_order)
    except ValueError as exc:  # only NLTK's method6 refuses, and says so
        assert "method6" in str(exc)
        return
    # NLTK's methods 5 and 7 average precisions with p_0 = p_1 + 1 and can exceed 1 (see test_bleu.py).
    upper = 1.0 + 1e-12 if smoothing not in ("method5", "method7") else 2.0
    assert 0.0 <= r.score <= upper
    for p in r.precisions:
        assert 0 <= p.matches <= p.total


@SETTINGS
@given(st.lists(WORDS, min_size=4, max_size=12), st.sampled_from([s for s in SMOOTHING if s not in ("method5", "method7")]))
def test_identical_hypothesis_and_reference_score_one(words, smoothing):
    assert math.isclose(sentence_bleu(words, [words], smoothing=smoothing).score, 1.0, rel_tol=1e-12)


@SETTINGS
@given(st.integers(0, 50), st.integers(1, 50))
def test_brevity_penalty_range(c, r):
    bp = brevity_penalty(c, r)
    assert 0.0 <= bp <= 1.0
    assert (bp == 1.0) == (c >= r)


@SETTINGS
@given(st.lists(st.tuples(SENTENCE, REFERENCES), min_size=1, max_size=6), st.sampled_from(SMOOTHING[:4] + SMOOTHING[4:9]))
def test_corpus_score_is_the_score_of_summed_sentence_statistics(segments, smoothing):
    hyps, refs = [h for h, _ in segments], [r for _, r in segments]
    direct = corpus_bleu(hyps, refs, smoothing=smoothing)
    summed = score_stats(sum(segment_stats(hyps, refs)), smoothing=smoothing)
    assert direct.score == summed.score


@SETTINGS
@given(st.lists(st.tuples(SENTENCE, REFERENCES), min_size=2, max_size=6), st.randoms(use_true_random=False))
def test_corpus_score_does_not_depend_on_segment_order(segments, rnd: random.Random):
    shuffled = segments[:]
    rnd.shuffle(shuffled)
    a = corpus_bleu([h for h, _ in segments], [r for _, r in segments], smoothing="exp").score
    b = corpus_bleu([h for h, _ in shuffled], [r for _, r in shuffled], smoothing="exp").score
    assert math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)


@SETTINGS
@given(SENTENCE, REFERENCES)
def test_adding_a_reference_never_lowers_clipped_matches(hyp, refs):
    fewer = sentence_bleu(hyp, refs[:1])
    more = sentence_bleu(hyp, refs)
    assert all(a.matches <= b.matches for a, b in zip(fewer.precisions, more.precisions))
