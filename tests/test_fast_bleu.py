"""The fast path (evalkit.fast) computes exactly what the readable implementation computes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import numpy as np

from evalkit.bleu import corpus_bleu, corpus_stats, segment_matrix, segment_stats
from evalkit.tokenize import tokenize_13a, tokenize_13a_fast

TRICKY = st.lists(
    st.sampled_from(list("ab1 9.,-&;:'\"<>()$%\n\t") + ["&amp;", "&quot;", "<skipped>", "ä", "€"]), max_size=30
).map("".join)

# Rich in what 13a's rules touch: digits, . , - (and runs of them), entities, ASCII punctuation and symbols,
# Unicode punctuation, digits of other scripts and every kind of white space str.split knows.
RULE_CHARACTERS = st.lists(
    st.sampled_from(
        list("a1 90.,-&;:'\"<>()$%/[]{}_~`@^|\\+=*?!#\n\t\r\x0b\x0c\u00a0\u2028\u3000")
        + ["&amp;", "&quot;", "&lt;", "&gt;", "<skipped>", "-\n", "...", ".,", "ä", "€",
           "\u201c", "\u201d", "\u2013", "\u2026", "\u00b7", "\u0663", "\uff0c", "\uff0e"]
    ),
    max_size=40,
).map("".join)


def _sacrebleu_13a():
    """sacreBLEU's 13a as its BLEU applies it to a line (right-stripped first), as a token list."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tokenizer = Tokenizer13a()
    return lambda line: tokenizer(line.rstrip()).split()


def test_fast_13a_equals_readable_13a_and_sacrebleu_on_wmt17(wmt17):
    sacre = _sacrebleu_13a()
    reference, systems = wmt17
    for line in reference + [s for out in systems.values() for s in out]:
        assert list(tokenize_13a_fast(line)) == tokenize_13a(line) == sacre(line), line


@settings(max_examples=300, deadline=None)
@given(TRICKY)
def test_fast_13a_equals_readable_13a_on_generated_text(text):
    assert list(tokenize_13a_fast(text)) == tokenize_13a(text)


@settings(max_examples=2000, deadline=None)
@given(RULE_CHARACTERS)
def test_fast_13a_equals_readable_13a_and_sacrebleu_on_rule_characters(text):
    assert list(tokenize_13a_fast(text)) == tokenize_13a(text) == _sacrebleu_13a()(text)


@pytest.mark.parametrize(
    "text",
    ["a..b", "1..2", "1.,2", "x,.,y", "3...", "...4", "..1", ",.1", "1.,.2", "a.,.b", "9,,9-", "u.s.,",
     "&amp;.,&quot;"],
)
def test_fast_13a_run_of_periods_and_commas(text):
    # the branch that applies the readable rules 2-4 (a run of . and , can hide a match from rules 2 and 3)
    assert list(tokenize_13a_fast(text)) == tokenize_13a(text) == _sacrebleu_13a()(text)


def test_fast_13a_on_every_short_string_of_digits_periods_commas_dashes():
    # exhaustive where the rules interact: every string of up to 5 characters from "1.,a- "
    from itertools import product

    sacre = _sacrebleu_13a()
    for size in range(1, 6):
        for text in map("".join, product("1.,a- ", repeat=size)):
            assert list(tokenize_13a_fast(text)) == tokenize_13a(text) == sacre(text), text


@pytest.mark.parametrize("tok", ["13a", "none", "intl", "char"])
def test_fast_corpus_statistics_equal_readable_on_wmt17(tok, wmt17):
    reference, systems = wmt17
    refs = [[r] for r in reference]
    for name in ["online-F"]:
        hyps = systems[name]
        readable = corpus_stats(hyps, refs, tokenize=tok, fast=False)
        assert corpus_stats(hyps, refs, tokenize=tok) == readable
        matrix = segment_matrix(hyps, refs, tokenize=tok)
        assert np.array_equal(matrix, segment_matrix(hyps, refs, tokenize=tok, fast=False))
        assert matrix.sum(axis=0).tolist() == [readable.hyp_len, readable.closest_ref_len, readable.shortest_ref_len,
                                               *readable.matches, *readable.totals, *readable.empty]


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
    readable = corpus_stats(hyps, refs, max_order=order, fast=False)
    assert corpus_stats(hyps, refs, max_order=order) == readable
    fast_rows = segment_matrix(hyps, refs, max_order=order)
    assert fast_rows.dtype == np.int64 and fast_rows.shape == (len(hyps), 3 + 3 * order)
    assert np.array_equal(fast_rows, segment_matrix(hyps, refs, max_order=order, fast=False))
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
        with pytest.raises(TypeError, match=r"hypothesis\[0\] is None"):
            segment_matrix([None], [["a"]], fast=fast)
    assert segment_stats(["a"], [["a"]])[0].matches[0] == 1


@pytest.mark.parametrize("chunk", [1, 7, 1000])
def test_indexed_counting_in_chunks_of_segments_equals_one_pass(chunk, wmt17, jfleg_test, monkeypatch):
    """Issue 10: a large corpus is counted a chunk of segments at a time (bounded memory); the summed
    statistics equal the readable count, single- and multi-reference alike."""
    from evalkit import bleu

    reference, systems = wmt17
    hyps, refs = systems["uedin-nmt"][:1500], [[r] for r in reference[:1500]]
    expected = corpus_stats(hyps, refs, tokenize="13a", fast=False)
    jfleg_expected = corpus_stats(jfleg_test.sources, jfleg_test.references, fast=False)
    monkeypatch.setattr(bleu, "INDEXED_CHUNK", chunk)
    assert corpus_stats(hyps, refs, tokenize="13a") == expected
    assert corpus_stats(jfleg_test.sources, jfleg_test.references) == jfleg_expected
    mixed = [["a b c"], ["a b", "b c"]] * 10  # one reference, then two: nrefs is None, in chunks too
    assert corpus_stats(["a b c"] * 20, mixed) == corpus_stats(["a b c"] * 20, mixed, fast=False)
