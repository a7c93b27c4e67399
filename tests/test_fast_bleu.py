"""The fast path (evalkit.fast) computes exactly what the readable implementation computes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit.bleu import corpus_bleu, corpus_stats, segment_stats
from evalkit.fast import tokenize_13a_fast
from evalkit.tokenize import tokenize_13a

TRICKY = st.lists(
    st.sampled_from(list("ab1 9.,-&;:'\"<>()$%\n\t") + ["&amp;", "&quot;", "<skipped>", "ä", "€"]), max_size=30
).map("".join)


def test_fast_13a_equals_readable_13a_on_wmt17(wmt17):
    reference, systems = wmt17
    for line in reference + [s for out in systems.values() for s in out]:
        assert list(tokenize_13a_fast(line)) == tokenize_13a(line), line


@settings(max_examples=300, deadline=None)
@given(TRICKY)
def test_fast_13a_equals_readable_13a_on_generated_text(text):
    assert list(tokenize_13a_fast(text)) == tokenize_13a(text)


@pytest.mark.parametrize("tok", ["13a", "none", "intl", "char"])
def test_fast_corpus_statistics_equal_readable_on_wmt17(tok, wmt17):
    reference, systems = wmt17
    refs = [[r] for r in reference]
    for name in ["online-F"]:
        hyps = systems[name]
        assert corpus_stats(hyps, refs, tokenize=tok) == corpus_stats(hyps, refs, tokenize=tok, fast=False)


def test_fast_corpus_statistics_equal_readable_on_jfleg_multi_reference(jfleg_test):
    for hyps in [jfleg_test.sources, jfleg_test.reference_sets[2]]:
        for order in (1, 4, 6):
            fast = corpus_stats(hyps, jfleg_test.references, max_order=order, lowercase=True)
            slow = corpus_stats(hyps, jfleg_test.references, max_order=order, lowercase=True, fast=False)
            assert fast == slow


WORDS = st.sampled_from("a b c d the".split())
SEGMENT = st.tuples(
    st.lists(WORDS, max_size=9), st.lists(st.lists(WORDS, max_size=9), min_size=1, max_size=3)
)


@settings(max_examples=150, deadline=None)
@given(st.lists(SEGMENT, min_size=1, max_size=5), st.integers(1, 6))
def test_fast_equals_readable_on_generated_corpora(segments, order):
    hyps, refs = [h for h, _ in segments], [r for _, r in segments]
    assert corpus_stats(hyps, refs, max_order=order) == corpus_stats(hyps, refs, max_order=order, fast=False)
    for smoothing in ("method5", "method7"):  # these read the last segment when asked to mimic NLTK
        fast = corpus_bleu(hyps, refs, smoothing=smoothing, nltk_last_hypothesis=True)
        slow = corpus_bleu(hyps, refs, smoothing=smoothing, nltk_last_hypothesis=True, fast=False)
        assert fast == slow


def test_fast_path_validates_like_the_readable_one():
    for fast in (True, False):
        with pytest.raises(TypeError, match=r"references\[1\]\[0\] is None"):
            corpus_stats(["a b", "c"], [["a"], [None]], fast=fast)
        with pytest.raises(TypeError, match=r"hypothesis\[0\] is None"):
            corpus_stats([None], [["a"]], fast=fast)
    assert segment_stats(["a"], [["a"]])[0].matches[0] == 1
