"""rouge_many.rouge_scores (profiles and engines of evalkit.fast) equals the readable rouge_n / rouge_l, and rouge-score."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

import evalkit
from evalkit import fast, rouge, rouge_many, tokenize

VARIANTS = ("rouge1", "rouge2", "rouge3", "rougeL")


def readable(hyp, refs, variant, **kw):
    if variant == "rougeL":
        return rouge.rouge_l(hyp, refs, **kw)
    return rouge.rouge_n(hyp, refs, int(variant[5:]), **kw)


def same(a, b):
    return all(math.isclose(x, y, rel_tol=1e-15, abs_tol=0.0) for x, y in
               [(a.precision, b.precision), (a.recall, b.recall), (a.fmeasure, b.fmeasure)])


@pytest.mark.parametrize("stemmer", [False, True])
def test_equal_to_readable_on_every_jfleg_test_pair(stemmer, jfleg_test):
    fast.clear_caches()
    for src, refs in zip(jfleg_test.sources, jfleg_test.references):
        for ref in refs:
            got = rouge_many.rouge_scores(src, [ref], VARIANTS, stemmer=stemmer)
            for v in VARIANTS:
                assert same(got[v], readable(src, [ref], v, stemmer=stemmer)), (src, ref, v)


@pytest.mark.parametrize("aggregation", rouge.AGGREGATIONS)
def test_equal_to_readable_with_four_references(aggregation, jfleg_dev):
    for src, refs in list(zip(jfleg_dev.sources, jfleg_dev.references))[:200]:
        got = rouge_many.rouge_scores(src, refs, VARIANTS, aggregation=aggregation, beta=2.0)
        for v in VARIANTS:
            assert same(got[v], readable(src, refs, v, aggregation=aggregation, beta=2.0))


def test_equal_to_rouge_score(jfleg_test):
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"])
    for src, refs in zip(jfleg_test.sources, jfleg_test.references):
        for ref in refs:
            ours, theirs = rouge_many.rouge_scores(src, [ref]), scorer.score(ref, src)  # rouge-score: target first
            for v in ("rouge1", "rouge2", "rougeL"):
                assert math.isclose(ours[v].fmeasure, theirs[v].fmeasure, rel_tol=1e-12, abs_tol=1e-15)
                assert math.isclose(ours[v].recall, theirs[v].recall, rel_tol=1e-12, abs_tol=1e-15)


TEXT = st.lists(st.sampled_from("the a cat sat on mat The, dog. x".split()), max_size=15).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(TEXT, st.lists(TEXT, min_size=1, max_size=3))
def test_equal_to_readable_on_generated_text(hyp, refs):
    got = rouge_many.rouge_scores(hyp, refs, VARIANTS)
    for v in VARIANTS:
        assert same(got[v], readable(hyp, refs, v))


def test_bad_input():
    with pytest.raises(ValueError, match="variants"):
        rouge_many.rouge_scores("a", ["a"], ["rougeLsum"])
    with pytest.raises(ValueError, match="variants"):
        rouge_many.rouge_scores("a", ["a"], "rouge1")
    with pytest.raises(TypeError, match="single string"):
        rouge_many.rouge_scores("a", "a")
    with pytest.raises(TypeError, match="None"):
        rouge_many.rouge_scores(None, ["a"])
    with pytest.raises(ValueError, match="aggregation"):
        rouge_many.rouge_scores("a", ["a"], aggregation="max")


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_fast_rouge_score_tokenizer_equals_the_readable_one(text):
    assert tokenize.tokenize_rouge_score_fast(text) == tokenize.tokenize_rouge_score(text)


def test_fast_tokenizer_on_tricky_unicode():
    for text in ["Kelvin \u212a", "İstanbul café", "a\u00a0b\u2028c", "x?y", "ÀÉÎ 123", "Привет мир", ""]:
        assert tokenize.tokenize_rouge_score_fast(text) == tokenize.tokenize_rouge_score(text)


def test_results_built_fast_equal_results_built_normally():
    got = rouge_many.rouge_scores("the cat sat on the mat", ["the cat is on the mat"])["rouge2"]
    made = rouge.RougeScore(0.6, 0.6, got.fmeasure, "rouge2", 1.0, rouge.RougeStats(3, 5, 5), 0)
    assert got == made and got.stats == made.stats and got.reference == made.reference and repr(got) == repr(made)
    with pytest.raises(AttributeError):
        got.precision = 1.0  # still frozen


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=6))
def test_many_pairs_at_once_equal_readable_on_generated_text(pairs):
    got = rouge_many.rouge_scores_many([h for h, _ in pairs], [[r] for _, r in pairs], VARIANTS)
    for scores, (h, r) in zip(got, pairs):
        for v in VARIANTS:
            assert same(scores[v], readable(h, [r], v))


def test_many_pairs_at_once_equal_readable_on_jfleg(jfleg_test):
    pairs = [(s, r) for s, refs in zip(jfleg_test.sources, jfleg_test.references) for r in refs]
    for stemmer in (False, True):
        got = rouge_many.rouge_scores_many([h for h, _ in pairs], [[r] for _, r in pairs], VARIANTS, stemmer=stemmer)
        for scores, (h, r) in zip(got, pairs):
            for v in VARIANTS:
                assert same(scores[v], readable(h, [r], v, stemmer=stemmer)), (h, r, v)


def test_public_cache_hooks_fill_and_clear_every_cache():
    evalkit.clear_caches()
    assert set(evalkit.cache_info().values()) == {0}
    rouge_many.rouge_scores("the cats sat", ["the cat sat"], stemmer=True)
    from evalkit.bleu import corpus_bleu

    corpus_bleu(["the cat sat"], [["the cat sat down"]], tokenize="13a")
    info = evalkit.cache_info()
    assert info["text profiles"] == 2 and info["reference indexes"] == 1 and info["tokenize stem"] > 0
    assert info == fast.cache_info()
    evalkit.clear_caches()
    assert set(evalkit.cache_info().values()) == {0}


@pytest.mark.parametrize("fast_path", [False, True])
def test_rouge_lsum_of_one_line_is_rouge_l_by_the_same_path(fast_path, jfleg_test, monkeypatch):
    """Issue 10: on one line ROUGE-Lsum equals ROUGE-L and is computed by ROUGE-L's code (lcs_stats, and
    with fast=True the bit-parallel LCS), not by the union-LCS walk of summary_lcs_stats."""
    calls = {"lcs_stats": 0, "bit_parallel": 0, "summary": 0}

    def counting(name, fn):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return fn(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(rouge, "lcs_stats", counting("lcs_stats", rouge.lcs_stats))
    monkeypatch.setattr(rouge, "summary_lcs_stats", counting("summary", rouge.summary_lcs_stats))
    monkeypatch.setattr(fast, "bit_parallel_lcs_length", counting("bit_parallel", fast.bit_parallel_lcs_length))
    pairs = [(s, refs) for s, refs in zip(jfleg_test.sources, jfleg_test.references)][:300]
    for src, refs in pairs:
        lsum = rouge.rouge_lsum(src, refs, fast=fast_path)
        l_score = rouge.rouge_l(src, refs, fast=fast_path)
        assert (lsum.precision, lsum.recall, lsum.fmeasure, lsum.stats) == (
            l_score.precision, l_score.recall, l_score.fmeasure, l_score.stats)
        assert lsum.variant == "rougeLsum"
    assert calls["summary"] == 0 and calls["lcs_stats"] == 2 * sum(len(refs) for _, refs in pairs)
    assert calls["bit_parallel"] == (calls["lcs_stats"] if fast_path else 0)
    # and the union-LCS walk agrees with it on these lines (the shortcut changes no number)
    for src, refs in pairs[:100]:
        h = rouge.rouge_tokens(src)
        for ref in refs:
            assert rouge.summary_lcs_stats([h], [rouge.rouge_tokens(ref)]) == rouge.lcs_stats(h, rouge.rouge_tokens(ref))


def test_rouge_lsum_of_several_lines_still_takes_the_union_lcs():
    got = rouge.rouge_lsum("the cat sat\non the mat", ["on the mat\nthe cat sat"], fast=True)
    assert got.fmeasure == 1.0 and rouge.rouge_l("the cat sat\non the mat", ["on the mat\nthe cat sat"]).fmeasure == 0.5
