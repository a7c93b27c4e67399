"""BLEU on hand-sized inputs: every expected value is worked out by hand in the comment beside it."""

from __future__ import annotations

import math

import pytest
from call_trace import calls
from sampling import every

from evalkit.bleu import (
    BLEUStats,
    brevity_penalty,
    closest_ref_length,
    corpus_bleu,
    score_stats,
    segment_stats,
    sentence_bleu,
    sentence_stats,
)

CAT = "the cat sat on the mat"
REF_IS = "the cat is on the mat"
REF_BIRD = "the bird sat on the bush"


def counts(result):
    return [(p.matches, p.total) for p in result.precisions]


def test_worked_example_a():
    # Unigrams: the x2 (max ref count 2), cat, sat (in ref 2), on, mat -> 6/6.
    # Bigrams: "the cat", "cat sat" (no ref has it), "sat on" (ref 2), "on the", "the mat" -> 4/5.
    r = sentence_bleu(CAT, [REF_IS, REF_BIRD], weights=(0.5, 0.5))
    assert counts(r) == [(6, 6), (4, 5)]
    assert r.brevity_penalty == 1.0 and r.hyp_len == 6 and r.ref_len == 6
    assert math.isclose(r.score, math.sqrt(6 / 6 * 4 / 5), rel_tol=1e-15)
    assert math.isclose(float(r), r.score)


def test_worked_example_b_unsmoothed_is_zero():
    # p = 5/6, 3/5, 1/4, 0/3: a zero 4-gram precision makes unsmoothed BLEU-4 exactly 0.
    r = sentence_bleu(CAT, [REF_IS])
    assert counts(r) == [(5, 6), (3, 5), (1, 4), (0, 3)]
    assert r.score == 0.0


def test_exp_smoothing_by_hand():
    # 'exp' (NIST): the first zero precision becomes 1/(2*total) = 1/6.
    r = sentence_bleu(CAT, [REF_IS], smoothing="exp")
    expected = math.exp((math.log(5 / 6) + math.log(3 / 5) + math.log(1 / 4) + math.log(1 / 6)) / 4)
    assert math.isclose(r.score, expected, rel_tol=1e-12)
    assert math.isclose(r.precisions[3].value, 1 / 6)


def test_floor_and_add_k_by_hand():
    # floor: 0 matches -> 0.1/3.  add-k (k=1, orders > 1): 5/6, 4/6, 2/5, 1/4.
    floor = sentence_bleu(CAT, [REF_IS], smoothing="floor").score
    addk = sentence_bleu(CAT, [REF_IS], smoothing="add-k").score
    assert math.isclose(floor, (5 / 6 * 3 / 5 * 1 / 4 * 0.1 / 3) ** 0.25, rel_tol=1e-12)
    assert math.isclose(addk, (5 / 6 * 4 / 6 * 2 / 5 * 1 / 4) ** 0.25, rel_tol=1e-12)


def test_clipping_the_seven_times():
    # "the" x7 against a reference with two "the": clipped to 2 -> 2/7, not 7/7.
    r = sentence_bleu(["the"] * 7, ["the cat is walking in the garden"], weights=(1,))
    assert counts(r) == [(2, 7)]
    assert math.isclose(r.score, 2 / 7)


def test_multiple_references_pool_by_max_count_not_max_score():
    # Against REF_IS alone p2 = 3/5, against REF_BIRD alone p2 = 2/5 ("sat on", "on the"); pooled 4/5 is more
    # than either: the references are pooled n-gram by n-gram, not scored separately.
    pooled = sentence_bleu(CAT, [REF_IS, REF_BIRD], weights=(0, 1)).score
    single = [sentence_bleu(CAT, [r], weights=(0, 1)).score for r in (REF_IS, REF_BIRD)]
    assert math.isclose(pooled, 4 / 5) and math.isclose(single[0], 3 / 5) and math.isclose(single[1], 2 / 5)


def test_brevity_penalty_cases():
    assert brevity_penalty(11, 10) == 1.0  # c > r
    assert brevity_penalty(10, 10) == 1.0  # exp(1 - 1) = 1
    assert brevity_penalty(0, 5) == 0.0  # empty hypothesis
    assert math.isclose(brevity_penalty(10, 11), math.exp(1 - 11 / 10))
    assert math.isclose(brevity_penalty(5, 10), math.exp(-1))


def test_closest_reference_length_ties_go_to_the_shorter():
    assert closest_ref_length(10, [8, 11]) == 11  # |11-10| = 1 < |8-10| = 2
    assert closest_ref_length(10, [8, 12]) == 8  # tie at distance 2: the shorter
    assert closest_ref_length(10, [12, 8]) == 8  # whatever the order


def test_closest_versus_shortest_reference_length():
    # A 10-token hypothesis equal to the first 10 tokens of references of 8 and 11 tokens:
    # closest r = 11 -> BP = exp(1 - 11/10) = 0.9048...; shortest r = 8 < 10 -> BP = 1.
    words = "a b c d e f g h i j k".split()
    hyp, refs = words[:10], [words[:8], words[:11]]
    assert math.isclose(sentence_bleu(hyp, refs).brevity_penalty, math.exp(-0.1))
    assert sentence_bleu(hyp, refs, ref_length="shortest").brevity_penalty == 1.0


def test_empty_hypothesis_scores_zero_for_every_smoothing():
    for smoothing in ["none", "floor", "add-k", "exp"] + [f"method{k}" for k in range(8)]:
        r = sentence_bleu("", [REF_IS], smoothing=smoothing)
        assert r.score == 0.0 and r.hyp_len == 0 and r.brevity_penalty == 0.0


def test_hypothesis_shorter_than_the_highest_order():
    # Two tokens: no 3- or 4-grams. Unsmoothed BLEU-4 is 0; with effective order, BLEU-2 of "the cat"
    # against REF_IS: p1 = 2/2, p2 = 1/1, BP = exp(1 - 6/2) = exp(-2).
    assert sentence_bleu("the cat", [REF_IS]).score == 0.0
    r = sentence_bleu("the cat", [REF_IS], effective_order=True)
    assert math.isclose(r.score, math.exp(-2)) and r.weights == (0.5, 0.5)
    assert r.precisions[2].value is None and r.precisions[3].value is None


def test_one_word_hypothesis():
    # "the" against "the cat": p1 = 1/1 and BLEU-1 = BP = exp(1 - 2/1).
    assert math.isclose(sentence_bleu("the", ["the cat"], weights=(1,)).score, math.exp(-1))


def test_identical_sentences_score_one():
    assert math.isclose(sentence_bleu(REF_IS, [REF_IS]).score, 1.0)


def test_weights_are_normalized_and_zero_weight_orders_do_not_zero_the_score():
    a = sentence_bleu(CAT, [REF_IS], weights=(1, 1)).score
    b = sentence_bleu(CAT, [REF_IS], weights=(0.5, 0.5)).score
    assert math.isclose(a, b) and math.isclose(a, math.sqrt(5 / 6 * 3 / 5))
    # the 4-gram precision is 0 but carries no weight: BLEU = (5/6 * 3/5 * 1/4) ** (1/3)
    c = sentence_bleu(CAT, [REF_IS], weights=(1, 1, 1, 0)).score
    assert math.isclose(c, (5 / 6 * 3 / 5 * 1 / 4) ** (1 / 3))


def test_tokens_and_strings_give_the_same_result():
    assert sentence_bleu(CAT.split(), [REF_IS.split()], smoothing="exp") == sentence_bleu(
        CAT, [REF_IS], smoothing="exp"
    )


def test_lowercase():
    r = sentence_bleu("The Cat sat on the MAT", [REF_IS], lowercase=True, smoothing="exp")
    assert r.score == sentence_bleu(CAT, [REF_IS], smoothing="exp").score
    assert "case:lc" in r.signature


def test_corpus_is_the_score_of_summed_statistics():
    # Segment 1: CAT vs REF_IS: 5/6 3/5 1/4 0/3, c=6 r=6.  Segment 2: "a quick brown fox" vs
    # "the quick brown fox jumps": 3/4 2/3 1/2 0/1, c=4 r=5.  Corpus: 8/10 5/8 2/6 0/4, c=10, r=11.
    hyps, refs = [CAT, "a quick brown fox"], [[REF_IS], ["the quick brown fox jumps"]]
    r = corpus_bleu(hyps, refs, smoothing="exp")
    assert counts(r) == [(8, 10), (5, 8), (2, 6), (0, 4)]
    assert (r.hyp_len, r.ref_len) == (10, 11)
    expected = math.exp(1 - 11 / 10) * (8 / 10 * 5 / 8 * 2 / 6 * (1 / 2) / 4) ** 0.25
    assert math.isclose(r.score, expected, rel_tol=1e-12)
    assert score_stats(sum(segment_stats(hyps, refs)), smoothing="exp") == r


def test_stats_add_up_and_rescore_without_recount():
    s1 = sentence_stats(CAT, [REF_IS])
    s2 = sentence_stats("a quick brown fox", ["the quick brown fox jumps"])
    total = s1 + s2
    assert total.matches == (8, 5, 2, 0) and total.totals == (10, 8, 6, 4) and total.segments == 2
    assert sum([s1, s2]) == total
    # re-scoring with BLEU-2 weights needs no recount and equals a fresh count
    assert score_stats(total, weights=(0.5, 0.5)).score == corpus_bleu(
        [CAT, "a quick brown fox"], [[REF_IS], ["the quick brown fox jumps"]], weights=(0.5, 0.5)
    ).score


def test_results_and_stats_are_immutable():
    r = sentence_bleu(CAT, [REF_IS])
    with pytest.raises(AttributeError):
        r.score = 1.0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        r.stats.hyp_len = 3  # type: ignore[misc]


def test_repr_is_rounded_and_signature_names_settings():
    r = sentence_bleu(CAT, [REF_IS, REF_BIRD], weights=(0.5, 0.5), tokenize="13a", smoothing="exp")
    assert repr(r) == "BLEUResult(score=0.8944, precisions=[6/6, 4/5], bp=1.0000, hyp_len=6, ref_len=6)"
    assert r.signature.startswith("nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|order:2|weights:uniform")


def test_stats_with_too_low_order_are_refused_clearly():
    stats = sentence_stats(CAT, [REF_IS], max_order=2)
    with pytest.raises(ValueError, match="order 2"):
        score_stats(stats)  # four weights need order 4
    with pytest.raises(ValueError, match="max_order=5"):
        score_stats(sentence_stats(CAT, [REF_IS]), smoothing="method5")


def test_adding_incompatible_stats_is_refused():
    with pytest.raises(ValueError, match="max order"):
        sentence_stats(CAT, [REF_IS], max_order=2) + sentence_stats(CAT, [REF_IS])
    with pytest.raises(ValueError, match="tokenization"):
        sentence_stats(CAT, [REF_IS], tokenize="13a") + sentence_stats(CAT, [REF_IS])
    assert isinstance(sentence_stats(CAT, [REF_IS]), BLEUStats)


# ------------------------------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: sentence_bleu(None, [REF_IS]), TypeError, "hypothesis is None"),
        (lambda: sentence_bleu(CAT, None), TypeError, "references is None"),
        (lambda: sentence_bleu(CAT, REF_IS), TypeError, "single string"),
        (lambda: sentence_bleu(CAT, []), ValueError, "at least one reference"),
        (lambda: sentence_bleu(42, [REF_IS]), TypeError, "int"),
        (lambda: sentence_bleu(CAT, [None]), TypeError, r"references\[0\] is None"),
        (lambda: sentence_bleu(CAT, [["the", 3]]), TypeError, "position 1"),
        (lambda: sentence_bleu(b"bytes", [REF_IS]), TypeError, "bytes"),
        (lambda: sentence_bleu(CAT, [REF_IS], weights=()), ValueError, "empty"),
        (lambda: sentence_bleu(CAT, [REF_IS], weights=(0.5, -0.5)), ValueError, "non-negative"),
        (lambda: sentence_bleu(CAT, [REF_IS], weights=(float("nan"),)), ValueError, "finite"),
        (lambda: sentence_bleu(CAT, [REF_IS], weights=(0, 0)), ValueError, "all weights are zero"),
        (lambda: sentence_bleu(CAT, [REF_IS], weights="0.5"), TypeError, "sequence of numbers"),
        (lambda: sentence_bleu(CAT, [REF_IS], smoothing="laplace"), ValueError, "'method7'"),
        (lambda: sentence_bleu(CAT, [REF_IS], tokenize="moses"), ValueError, "'13a'"),
        (lambda: sentence_bleu(CAT, [REF_IS], ref_length="average"), ValueError, "'shortest'"),
        (lambda: sentence_bleu(CAT, [REF_IS], smoothing="exp", smooth_value=0.1), ValueError, "floor"),
        (lambda: sentence_bleu(CAT, [REF_IS], smoothing="floor", smooth_value=-1), ValueError, ">= 0"),
        (lambda: sentence_bleu(CAT, [REF_IS], effective_order="yes"), TypeError, "True or False"),
        (lambda: sentence_bleu(CAT, [REF_IS], weights=(1, 1), smoothing="method6"), ValueError, "method6"),
        (lambda: corpus_bleu([CAT], [[REF_IS], [REF_IS]]), ValueError, "lengths differ"),
        (lambda: corpus_bleu([], []), ValueError, "empty"),
        (lambda: corpus_bleu(CAT, [[REF_IS]]), TypeError, "one item per segment"),
        (lambda: corpus_bleu([CAT], [REF_IS]), TypeError, r"references\[0\] is a single string"),
        (lambda: corpus_bleu([CAT, None], [[REF_IS], [REF_IS]]), TypeError, r"hypothesis\[1\] is None"),
        (lambda: corpus_bleu([CAT], [[]]), ValueError, r"references\[0\] is empty"),
        (lambda: score_stats("stats"), TypeError, "BLEUStats"),
        (lambda: sentence_stats(CAT, [REF_IS], max_order=0), ValueError, "at least 1"),
    ],
)
def test_bad_input_gets_a_clear_error(call, error, message):
    with pytest.raises(error, match=message):
        call()


# --- a tokenizer that leaves Chinese unsplit is named, once per call -------------------------------------
ZH_HYP, ZH_REF = "猫坐在垫子上。", "猫坐在椅子上。"  # one character differs


def tokenization_warnings(fn, *args, **kwargs):
    """(fn's result, the TokenizationWarnings it gave), every warning shown ("always")."""
    import warnings

    from evalkit.tokenize import TokenizationWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args, **kwargs)
    return result, [w for w in caught if issubclass(w.category, TokenizationWarning)]


def test_sentence_bleu_warns_once_about_unsplit_chinese_and_names_the_options():
    result, caught = tokenization_warnings(sentence_bleu, ZH_HYP, [ZH_REF, "狗坐在垫子上。"], tokenize="13a")
    assert len(caught) == 1
    message = str(caught[0].message)
    assert 'tokenize="13a"' in message and repr(ZH_HYP) in message
    assert 'tokenize="unicode-cjk"' in message and 'tokenize="char"' in message
    assert caught[0].filename == __file__
    # the score is what it was: the same as from the 13a tokens given as lists (no warning for token lists);
    # 13a splits ASCII punctuation only, so each sentence, "。" included, is one token that matches nothing
    as_tokens, quiet = tokenization_warnings(sentence_bleu, [ZH_HYP], [[ZH_REF], ["狗坐在垫子上。"]])
    assert quiet == [] and counts(result) == counts(as_tokens) == [(0, 1), (0, 0), (0, 0), (0, 0)]
    assert result.score == as_tokens.score == 0.0


def test_sentence_bleu_with_a_list_of_weights_still_warns_once():
    _, caught = tokenization_warnings(sentence_bleu, ZH_HYP, [ZH_REF], tokenize="intl", weights=[(1,), (0.5, 0.5)])
    assert len(caught) == 1


@pytest.mark.parametrize("fast", [True, False])
def test_corpus_bleu_warns_once_for_a_whole_chinese_corpus(fast):
    hyps = [ZH_HYP, "我们今天去公园玩。", "他喜欢读书。"] * 50
    refs = [[ZH_REF], ["我们明天去公园玩。"], ["他喜欢看书。"]] * 50
    result, caught = tokenization_warnings(corpus_bleu, hyps, refs, tokenize="13a", fast=fast)
    assert len(caught) == 1 and 'tokenize="unicode-cjk"' in str(caught[0].message)
    _, one = tokenization_warnings(corpus_bleu, [ZH_HYP], [[ZH_REF]], tokenize="13a", fast=fast)
    assert len(one) == 1
    # scores unchanged: the same statistics with the warning turned into silence
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert corpus_bleu(hyps, refs, tokenize="13a", fast=fast) == result
    assert result.hyp_len == 150  # each sentence is one token


@pytest.mark.parametrize(
    "hyp, ref, tokenize",
    [
        (CAT, REF_IS, "13a"),
        ("Über die Brücke gehen wir später.", "Wir gehen später über die Brücke.", "13a"),
        ("Über die Brücke gehen wir später.", "Wir gehen später über die Brücke.", "intl"),
        ("猫 坐 在 垫子 上", "猫 坐 在 椅子 上", "13a"),  # already segmented into words
        (ZH_HYP, ZH_REF, "unicode-cjk"),
        (ZH_HYP, ZH_REF, "char"),
        ("고양이가 매트 위에 앉았다", "고양이가 의자 위에 앉았다", "13a"),  # Korean has spaces between words
    ],
)
def test_no_tokenization_warning_where_the_tokens_are_words_or_characters(hyp, ref, tokenize):
    _, caught = tokenization_warnings(sentence_bleu, hyp, [ref], tokenize=tokenize)
    assert caught == []
    _, caught = tokenization_warnings(corpus_bleu, [hyp], [[ref]], tokenize=tokenize)
    assert caught == []


def test_no_tokenization_warning_on_wmt17_german(wmt17):
    reference, systems = wmt17
    _, caught = tokenization_warnings(corpus_bleu, systems["online-B"], [[r] for r in reference], tokenize="13a")
    assert caught == []


def test_the_ngram_table_warns_too():
    from evalkit.tables import bleu_ngram_table

    _, caught = tokenization_warnings(bleu_ngram_table, ZH_HYP, [ZH_REF], tokenize="13a")
    assert len(caught) == 1


# ------------------------------------------------------------------------------------------ segment_matrix
def _matrix_both_ways(hyps, refs, **options):
    import numpy as np

    from evalkit.bleu import segment_matrix

    fast, readable = segment_matrix(hyps, refs, **options), segment_matrix(hyps, refs, fast=False, **options)
    assert fast.dtype == readable.dtype == np.int64
    assert fast.shape == readable.shape == (len(hyps), 3 + 3 * options.get("max_order", 4))
    assert np.array_equal(fast, readable)
    return fast


def test_segment_matrix_rows_are_the_segment_stats_fields():
    # segment 0: 3 tokens, one reference of 4; matches 3, 2 of totals 3, 2; segment 1: empty hypothesis
    # (no n-gram at all: empty 1, 1) against references of 2 and 3 tokens (closest to 0: 2)
    rows = _matrix_both_ways(["the cat sat", ""], [["the cat sat down"], ["a dog", "the dog ."]], max_order=2)
    assert rows.tolist() == [[3, 4, 4, 3, 2, 3, 2, 0, 0], [0, 2, 2, 0, 0, 0, 0, 1, 1]]


def test_segment_matrix_fast_equals_readable_on_wmt17(wmt17):
    reference, systems = wmt17
    refs = [[r] for r in reference]
    for name, options in [("uedin-nmt", dict(tokenize="13a")), ("online-B", dict(tokenize="13a", lowercase=True)),
                          ("KIT", dict(tokenize="intl", max_order=6))]:
        rows = _matrix_both_ways(systems[name], refs, **options)
        total = corpus_bleu(systems[name], refs, **{k: v for k, v in options.items() if k != "max_order"}).stats
        assert rows[:, :3].sum(axis=0).tolist() == [total.hyp_len, total.closest_ref_len, total.shortest_ref_len]


def test_segment_matrix_fast_equals_readable_on_edge_cases(jfleg_test):
    _matrix_both_ways(jfleg_test.sources, jfleg_test.references, max_order=5, lowercase=True)  # four references
    _matrix_both_ways(["a a a a", "b", "", "a b a b a b"],  # repeats clipped, empty hypothesis, ties in length
                      [["a a", "a a a a a a"], ["b b", "c"], ["x"], ["a b", "b a b a b a b a"]], max_order=7)
    _matrix_both_ways([["Der", "Hund"], "der hund"], [[["der", "Hund"]], ["DER HUND", "der"]], lowercase=True)
    _matrix_both_ways(["ab"], [["abc"]], tokenize="char", max_order=1)  # an order longer than every segment: 0s
    _matrix_both_ways(["x y z"] * 3, [["x y"], ["x y", "y z", "z"], ["q"]])  # one, three, one references


def test_segment_matrix_refuses_bad_input_at_the_public_function():
    from evalkit.bleu import segment_matrix

    for fast in (True, False):
        with pytest.raises(TypeError, match=r"hypothesis\[1\]"):
            segment_matrix(["a", 3], [["a"], ["b"]], fast=fast)
        with pytest.raises(ValueError, match="max_order"):
            segment_matrix(["a"], [["a"]], max_order=0, fast=fast)
    with pytest.raises(TypeError, match="fast"):
        segment_matrix(["a"], [["a"]], fast="yes")


# ------------------------------------------------------------------------------------------ click to the formula
def test_corpus_bleu_reads_as_its_steps_and_reaches_the_formula_in_two_hops():
    doc = corpus_bleu.__doc__
    steps = [doc.index(f"\n    {k}. ") for k in (1, 2, 3, 4)]
    assert steps == sorted(steps), "the docstring numbers the steps 1-4"
    for name in ("segment_stats", "score_stats", "brevity_penalty", "geometric_mean", "segment_matrix"):
        assert f":func:`{name}`" in doc
    assert "BLEU = BP * exp(sum over n of w_n log p_n)" in doc and "exp(1 - r/c)" in doc

    hyps, refs = ["the cat sat on the mat", "a dog"], [["the cat is on the mat"], ["a dog"]]
    readable = calls(lambda: corpus_bleu(hyps, refs, tokenize="13a", fast=False))
    pairs = {(caller, callee) for caller, callee, _ in readable}
    # hop 1: corpus_bleu counts with segment_stats and scores with score_stats; hop 2: score_stats is the formula
    assert {("corpus_bleu", "segment_stats"), ("corpus_bleu", "score_stats")} <= pairs
    assert {("score_stats", "brevity_penalty"), ("score_stats", "geometric_mean")} <= pairs
    assert not [c for c in readable if c[2].endswith("fast.py")], "fast=False ran an engine of evalkit.fast"
    # the engine is one call away behind fast=True
    engine = calls(lambda: corpus_bleu(hyps, refs, tokenize="13a"))
    assert ("corpus_bleu", "corpus_stats_indexed") in {(a, b) for a, b, _ in engine}
    assert [c for c in engine if c[2].endswith("fast.py")]


# ==========================================================================================================
# Moved from tests/test_bleu_conformance.py (marks: conformance):
# evalkit's BLEU equals sacreBLEU's and NLTK's, called here at test time, on the real corpora in data/
# (sacreBLEU's corpus BLEU of the 16 WMT17 systems is recorded in tests/peers/, recomputed by make conformance).
# ==========================================================================================================
import warnings  # noqa: E402
import sacrebleu  # noqa: E402
from nltk.translate import bleu_score as nltk_bleu  # noqa: E402
import peers  # noqa: E402


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
@pytest.mark.conformance
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


@pytest.mark.conformance
def test_published_wmt17_13a_scores(wmt17):
    # The sacreBLEU 2.6.0 scores listed in data/README.md, to two decimals.
    published = {"uedin-nmt": 28.30, "online-F": 15.45, "SYSTRAN": 26.71, "C-3MA": 22.67, "online-B": 26.65}
    reference, systems = wmt17
    for name, score in published.items():
        ours = corpus_bleu(systems[name], [[r] for r in reference], tokenize="13a", smoothing="exp").score
        assert round(ours * 100, 2) == score


@pytest.mark.conformance
@every(5)
@pytest.mark.parametrize("smooth", ["exp", "floor", "add-k", "none"])
def test_sentence_bleu_equals_sacrebleu_on_wmt17_segments(smooth, wmt17, step):
    # make test: every 5th segment of the two systems; make conformance: all 6,008
    reference, systems = wmt17
    for name in ["uedin-nmt", "online-F"]:
        for hyp, ref in list(zip(systems[name], reference))[::step]:
            ours = sentence_bleu(hyp, [ref], tokenize="13a", smoothing=smooth, effective_order=True).score * 100
            theirs = sacrebleu.sentence_bleu(hyp, [ref], smooth_method=smooth).score
            assert math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-9), (hyp, ref, ours, theirs)


@pytest.mark.conformance
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


@pytest.mark.conformance
@every(8)
@pytest.mark.parametrize("method", range(8))
def test_sentence_bleu_equals_nltk_on_jfleg(method, jfleg_dev, step):
    # make test: every 8th sentence (NLTK, called here, takes about 2 s a method for all); make conformance: all
    smoothing = getattr(NLTK_SMOOTH, f"method{method}")
    checked = refused = 0
    for _, hyps, refs in jfleg_systems(jfleg_dev):
        for hyp, ref in list(zip(hyps, refs))[::step]:
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
    assert checked > 4000 // step
    assert (refused > 0) == (method == 6)  # only method6 ever refuses


@pytest.mark.conformance
@pytest.mark.parametrize("method", range(5))
@pytest.mark.parametrize("split", ["dev", pytest.param("test", marks=pytest.mark.slow)])  # test: make conformance
def test_corpus_bleu_equals_nltk_on_jfleg(method, split, jfleg_dev, jfleg_test):
    data = jfleg_dev if split == "dev" else jfleg_test
    smoothing = getattr(NLTK_SMOOTH, f"method{method}")
    for _, hyps, refs in jfleg_systems(data):
        for w in WEIGHT_VECTORS:
            theirs = nltk_or_error(nltk_bleu.corpus_bleu, refs, hyps, weights=w, smoothing_function=smoothing)
            ours = corpus_bleu(hyps, refs, weights=w, smoothing=f"method{method}").score
            assert math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=0.0), (w, ours, theirs)


@pytest.mark.conformance
def test_corpus_bleu_with_short_segments_equals_nltk():
    # NLTK counts a segment with no n-grams of order n as one n-gram (denominator max(1, total)) even at
    # corpus level; segments of one and two tokens exercise that.
    hyps = [["the"], ["a", "cat"], "the cat sat on the mat".split()]
    refs = [[["the", "dog"]], [["a", "cat", "sat"]], ["the cat is on the mat".split()]]
    for method in range(5):
        smoothing = getattr(NLTK_SMOOTH, f"method{method}")
        theirs = nltk_or_error(nltk_bleu.corpus_bleu, refs, hyps, smoothing_function=smoothing)
        assert math.isclose(corpus_bleu(hyps, refs, smoothing=f"method{method}").score, theirs, rel_tol=1e-9)


@pytest.mark.conformance
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


@pytest.mark.conformance
def test_nltk_method5_exceeds_one_on_a_perfect_match_and_evalkit_reproduces_it():
    """NLTK applies Chen & Cherry's method 5 to precisions with p_0 = p_1 + 1 (the paper smooths match
    counts), so a perfect hypothesis scores above 1. evalkit's "method5"/"method7" reproduce NLTK's numbers,
    this included; the lesson warns about it."""
    words = "the cat sat on the mat".split()
    for method in (5, 7):
        theirs = nltk_bleu.sentence_bleu([words], words, smoothing_function=getattr(NLTK_SMOOTH, f"method{method}"))
        ours = sentence_bleu(words, [words], smoothing=f"method{method}").score
        assert theirs > 1.0 and math.isclose(ours, theirs, rel_tol=1e-12)


# ==========================================================================================================
# Moved from tests/test_bleu_properties.py:
# Properties of BLEU that must hold for any input (hypothesis generates the input).
# ==========================================================================================================
import random  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from evalkit.bleu import SMOOTHING  # noqa: E402


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


# ==========================================================================================================
# Moved from tests/test_curriculum_bleu.py (marks: conformance):
# Every BLEU worked example of ../shared/curriculum.md: evalkit reproduces the number printed there
# (computed by the named library, NLTK 3.10 / sacreBLEU 2.6.0) and the peer, called now, agrees.
# ==========================================================================================================
from nltk.tokenize import NLTKWordTokenizer  # noqa: E402


SMOOTH = nltk_bleu.SmoothingFunction()
HYP = "the cat sat on the mat"
REF = "the cat is on the mat"


def counts_bleu(r):
    return [(p.matches, p.total) for p in r.precisions]


def nltk_sentence(refs, hyp, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nltk_bleu.sentence_bleu(refs, hyp, **kw)


@pytest.mark.conformance
def test_example_a():
    r = sentence_bleu(HYP, [REF, "the bird sat on the bush"], weights=(0.5, 0.5))
    assert counts_bleu(r) == [(6, 6), (4, 5)] and round(r.score, 4) == 0.8944
    theirs = nltk_sentence([REF.split(), "the bird sat on the bush".split()], HYP.split(), weights=(0.5, 0.5))
    assert math.isclose(r.score, theirs, rel_tol=1e-12)


@pytest.mark.conformance
@pytest.mark.parametrize(
    "method, printed",
    [(1, 0.2541), (2, 0.4855), (3, 0.3799), (4, 0.2939), (5, 0.3804), (6, 0.3875), (7, 0.4101)],
)
def test_example_b_nltk_smoothing(method, printed):
    ours = sentence_bleu(HYP, [REF], smoothing=f"method{method}").score
    theirs = nltk_sentence([REF.split()], HYP.split(), smoothing_function=getattr(SMOOTH, f"method{method}"))
    assert round(ours, 4) == printed and math.isclose(ours, theirs, rel_tol=1e-12)


@pytest.mark.conformance
def test_example_b_unsmoothed_and_nltk_tiny_value():
    assert counts_bleu(sentence_bleu(HYP, [REF])) == [(5, 6), (3, 5), (1, 4), (0, 3)]
    assert sentence_bleu(HYP, [REF]).score == 0.0  # evalkit's exact BLEU
    ours = sentence_bleu(HYP, [REF], smoothing="method0").score
    with pytest.warns(UserWarning, match="0 counts of 4-gram"):
        theirs = nltk_bleu.sentence_bleu([REF.split()], HYP.split())
    assert f"{ours:.2e}" == "7.26e-78" and math.isclose(ours, theirs, rel_tol=1e-12)


@pytest.mark.conformance
@pytest.mark.parametrize("method, printed", [("floor", 25.41), ("add-k", 48.55), ("exp", 37.99)])
def test_example_b_sacrebleu_smoothing(method, printed):
    ours = sentence_bleu(HYP, [REF], smoothing=method, tokenize="13a").score * 100
    theirs = sacrebleu.sentence_bleu(HYP, [REF], smooth_method=method).score
    assert round(ours, 2) == printed and math.isclose(ours, theirs, rel_tol=1e-12)
    nltk_twin = {"floor": 1, "add-k": 2, "exp": 3}[method]
    assert math.isclose(ours / 100, sentence_bleu(HYP, [REF], smoothing=f"method{nltk_twin}").score, rel_tol=1e-12)


@pytest.mark.conformance
def test_clipping_and_word_order():
    garden = "the cat is walking in the garden"
    assert counts_bleu(sentence_bleu(["the"] * 7, [garden], weights=(1,))) == [(2, 7)]
    assert counts_bleu(sentence_bleu("the cat is running in the fields", [garden])) == [(5, 7), (3, 6), (1, 5), (0, 4)]
    hyp = "she read the book because she was interested in world history"
    ref = "she was interested in world history because she read the book"
    assert counts_bleu(sentence_bleu(hyp, [ref])) == [(11, 11), (9, 10), (6, 9), (4, 8)]


@pytest.mark.conformance
def test_the_papers_example():
    hyp = "It is a guide to action which ensures that the military always obeys the commands of the party."
    refs = [
        "It is a guide to action that ensures that the military will forever heed Party commands.",
        "It is the guiding principle which guarantees the military forces always being under the command of the Party.",
        "It is the practical guide for the army always to heed the directions of the party.",
    ]
    r = sentence_bleu(hyp, refs)
    assert counts_bleu(r) == [(16, 18), (10, 17), (7, 16), (4, 15)]
    theirs = nltk_bleu.sentence_bleu([x.split() for x in refs], hyp.split())
    assert math.isclose(r.score, 0.4969770530031034, rel_tol=1e-12) and math.isclose(r.score, theirs, rel_tol=1e-12)


@pytest.mark.conformance
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


@pytest.mark.conformance
def test_closest_vs_shortest_reference_example():
    words = [f"w{i}" for i in range(11)]
    hyp, refs = words[:10], [words[:8], words[:11]]
    assert round(sentence_bleu(hyp, refs).brevity_penalty, 4) == 0.9048
    assert sentence_bleu(hyp, refs, ref_length="shortest").brevity_penalty == 1.0
    assert math.isclose(
        sentence_bleu(hyp, refs).score, nltk_bleu.sentence_bleu(refs, hyp), rel_tol=1e-12
    )


@pytest.mark.conformance
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


@pytest.mark.conformance
@pytest.mark.parametrize("tok, printed", [("none", 47.60), ("13a", 67.75), ("intl", 68.59), ("char", 81.92)])
def test_tokenization_changes_the_score(tok, printed):
    hyp = "It's a well-known fact: costs rose 3.5% in the U.S."
    ref = "It is a well-known fact that costs rose 3.5% in the U.S."
    ours = corpus_bleu([hyp], [[ref]], tokenize=tok, smoothing="exp").score * 100
    theirs = sacrebleu.corpus_bleu([hyp], [[ref]], tokenize=tok).score
    assert round(ours, 2) == printed and math.isclose(ours, theirs, rel_tol=1e-12)


# --- Chinese, Japanese and Korean under zh, ja-mecab and ko-mecab: sacreBLEU's BLEU and signature (issue 21) --
import cjk_texts  # noqa: E402
from evalkit import data as evalkit_data  # noqa: E402
from evalkit.tokenize import TokenizationWarning  # noqa: E402


@pytest.fixture(scope="module")
def cjk_corpora():
    """(hypotheses, references) of each language: the 529 Chinese TED sources against their edited versions
    (tests/cjk_texts.py), and the Japanese and Korean pairs written for the tests."""
    ted = evalkit_data.ted_chinese_sources()
    pairs = {"ja": cjk_texts.JAPANESE, "ko": cjk_texts.KOREAN}
    corpora = {"zh": ([cjk_texts.edited(s, i) for i, s in enumerate(ted)], ted)}
    corpora.update({lang: ([h for _, h in p], [r for r, _ in p]) for lang, p in pairs.items()})
    return corpora


@pytest.mark.conformance
@pytest.mark.parametrize("tok", ["zh", "ja-mecab", "ko-mecab"])
@pytest.mark.parametrize("lang", ["zh", "ja", "ko"])
def test_corpus_bleu_equals_sacrebleu_on_chinese_japanese_and_korean(tok, lang, cjk_corpora):
    hyps, refs = cjk_corpora[lang]
    ours = corpus_bleu(hyps, [[r] for r in refs], tokenize=tok, smoothing="exp")
    theirs = sacrebleu.corpus_bleu(hyps, [refs], tokenize=tok)
    assert math.isclose(ours.score * 100, theirs.score, rel_tol=1e-9, abs_tol=1e-9), (ours.score, theirs.score)
    assert (ours.hyp_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)


@pytest.mark.conformance
@pytest.mark.parametrize("tok", ["zh", "ja-mecab", "ko-mecab"])
def test_sentence_bleu_equals_sacrebleu_on_every_japanese_and_korean_pair(tok):
    for ref, hyp in cjk_texts.JAPANESE + cjk_texts.KOREAN:
        ours = sentence_bleu(hyp, [ref], tokenize=tok, smoothing="exp", effective_order=True).score * 100
        theirs = sacrebleu.sentence_bleu(hyp, [ref], tokenize=tok).score
        assert math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-9), (hyp, ours, theirs)


@pytest.mark.conformance
@pytest.mark.parametrize("tok", ["zh", "ja-mecab", "ko-mecab", "13a"])
def test_the_signature_names_the_tokenizer_as_sacrebleu_does(tok):
    from sacrebleu.metrics.bleu import BLEU

    peer = BLEU(tokenize=tok)
    peer.corpus_score(["猫が座った。"], [["猫が座った。"]])
    theirs = dict(part.split(":", 1) for part in peer.get_signature().format().split("|"))["tok"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TokenizationWarning)  # 13a on Japanese: warned about, as it should be
        ours = corpus_bleu(["猫が座った。"], [["猫が座った。"]], tokenize=tok).signature
    assert f"|tok:{theirs}|" in ours
    assert theirs == {"zh": "zh", "ja-mecab": "ja-mecab-0.996-IPA", "ko-mecab": "ko-mecab-0.996/ko-0.9.2-KO",
                      "13a": "13a"}[tok]


def test_chinese_under_13a_is_one_token_a_sentence_and_scores_0_where_zh_sees_the_shared_words():
    # the question of sacreBLEU #147 and #165: two Chinese sentences differing in one character
    hyp, ref = ZH_HYP, ZH_REF
    whole, caught = tokenization_warnings(corpus_bleu, [hyp], [[ref]], tokenize="13a", smoothing="exp")
    assert len(caught) == 1 and 'Use tokenize="zh"' in str(caught[0].message)
    assert whole.hyp_len == 1 and whole.score == 0  # the whole sentence, 。 included, is one token
    split = corpus_bleu([hyp], [[ref]], tokenize="zh", smoothing="exp")
    # by hand: 7 tokens; 1-grams 6 of 7 match (not 垫), 2-grams 4 of 6 (猫坐 坐在 子上 上。), 3-grams 2 of 5
    # (猫坐在 子上。), 4-grams 0 of 4, which exp smoothing counts as 1 / (2 * 4)
    assert split.hyp_len == 7 and [str(p) for p in split.precisions] == ["6/7", "4/6", "2/5", "0/4"]
    assert math.isclose(split.score, (6 / 7 * 4 / 6 * 2 / 5 * 1 / 8) ** 0.25, rel_tol=1e-12)


# ==========================================================================================================
# Moved from tests/test_fast_bleu.py:
# The fast path (evalkit.fast) computes exactly what the readable implementation computes.
# ==========================================================================================================
import numpy as np  # noqa: E402
from evalkit.bleu import corpus_stats  # noqa: E402
from evalkit.bleu import segment_matrix  # noqa: E402


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


WORDS_BLEU = st.sampled_from("a b c d the".split())
SEGMENT = st.tuples(
    st.lists(WORDS_BLEU, max_size=9), st.lists(st.lists(WORDS_BLEU, max_size=9), min_size=1, max_size=3)
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


# ==========================================================================================================
# Moved from tests/test_bleu_lessons.py:
# The BLEU lessons' plots and tables: each test checks the numbers a figure or table shows against
# evalkit's scoring functions (or against arithmetic done by hand in a comment).
# ==========================================================================================================
import matplotlib.pyplot as plt  # noqa: E402


@pytest.fixture
def _close_figures():
    yield
    plt.close("all")


@pytest.mark.usefixtures('_close_figures')
def test_importing_bleu_stays_light():
    import subprocess
    import sys

    code = "import evalkit.bleu, sys; print('pandas' in sys.modules, 'matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False False"


# --- system_stats: the second, faster way to count many systems (lesson 04) -------------------------------
@pytest.mark.usefixtures('_close_figures')
def test_system_stats_by_hand():
    from evalkit.bleu import system_stats

    s = system_stats({"A": ["the cat sat"], "B": ["a cat sat"]}, [["the cat sat down"]])
    # A: unigrams 3/3, bigrams 2/2, trigram 1/1, no 4-gram; B: "cat", "sat" and "cat sat" match
    assert (s["A"].matches, s["A"].totals, s["A"].empty) == ((3, 2, 1, 0), (3, 2, 1, 0), (0, 0, 0, 1))
    assert (s["B"].matches, s["B"].totals) == ((2, 1, 0, 0), (3, 2, 1, 0))
    assert s["A"].closest_ref_len == 4 and s["A"].hyp_len == 3


@pytest.mark.usefixtures('_close_figures')
@pytest.mark.parametrize("tokenize", ["none", "13a", "intl", "char"])
def test_system_stats_equals_corpus_stats_on_wmt17(wmt17, tokenize):
    from evalkit.bleu import corpus_stats, system_stats

    reference, systems = wmt17
    # 400 segments of three systems keep this quick; the counts must be identical, not just close
    chosen = {name: systems[name][:400] for name in ("uedin-nmt", "online-F", "C-3MA")}
    refs = [[r] for r in reference[:400]]
    fast = system_stats(chosen, refs, tokenize=tokenize)
    for name, outputs in chosen.items():
        assert fast[name] == corpus_stats(outputs, refs, tokenize=tokenize, fast=False)


@pytest.mark.usefixtures('_close_figures')
def test_system_stats_equals_corpus_stats_multi_reference(jfleg_dev):
    from evalkit.bleu import corpus_stats, system_stats

    refs = jfleg_dev.references
    chosen = {"source": jfleg_dev.sources, "reference 0": jfleg_dev.reference_sets[0]}
    fast = system_stats(chosen, refs, max_order=5, lowercase=True)
    for name, outputs in chosen.items():
        assert fast[name] == corpus_stats(outputs, refs, max_order=5, lowercase=True, fast=False)


@pytest.mark.usefixtures('_close_figures')
def test_system_stats_bad_input():
    from evalkit.bleu import system_stats

    with pytest.raises(TypeError, match="dict"):
        system_stats([["a b"]], [["a b"]])
    with pytest.raises(ValueError, match="empty"):
        system_stats({}, [["a b"]])
    with pytest.raises(ValueError, match="lengths differ"):
        system_stats({"A": ["a b", "c d"]}, [["a b"]])
    with pytest.raises(TypeError, match="single string"):
        system_stats({"A": ["a b"]}, ["a b"])
    with pytest.raises(TypeError, match=r"systems\['A'\]: hypothesis\[0\] is None"):
        system_stats({"A": [None]}, [["a b"]])
    with pytest.raises(ValueError, match="unknown tokenizer"):
        system_stats({"A": ["a b"]}, [["a b"]], tokenize="moses")


# A small vocabulary makes matches (and repeated n-grams, which clipping must handle) likely.
_sentence = st.lists(st.sampled_from(["a", "b", "c", "the", "cat"]), min_size=0, max_size=8)


@pytest.mark.usefixtures('_close_figures')
@settings(max_examples=60, deadline=None)
@given(data=st.data(), segments=st.integers(min_value=1, max_value=4), systems=st.integers(min_value=1, max_value=3))
def test_system_stats_equals_corpus_stats_property(data, segments, systems):
    from evalkit.bleu import corpus_stats, system_stats

    refs = [data.draw(st.lists(_sentence, min_size=1, max_size=3)) for _ in range(segments)]
    outputs = {f"S{k}": [data.draw(_sentence) for _ in range(segments)] for k in range(systems)}
    fast = system_stats(outputs, refs, max_order=5)
    for name, hyps in outputs.items():
        assert fast[name] == corpus_stats(hyps, refs, max_order=5)


# ==========================================================================================================
# Moved from tests/test_hardening.py (marks: hardening):
# Regression tests for issue 10 ("Hardening and the house"): bad input gets a clear error or a correct
# score, and the peers' own APIs work where a user would expect them.
#
# Each group quotes the finding it pins.  Expected numbers are computed by hand in the test or by the peer
# library (NLTK, sacreBLEU, rouge-score, gleu) at test time.
# ==========================================================================================================
from evalkit import bleu  # noqa: E402


REFS = ["the cat is on the mat", "the bird sat on the bush"]


# --------------------------------------------------------------------------------------------------------
# "`weights` as a set ({0.25, 0.25, 0.25, 0.25} collapses to BLEU-1 and scores 0.8333) or a dict: refuse.
#  A generator of weights is read twice ("weights is empty"): read once. numpy numbers (int64, float32)
#  are numbers. (1e308, 1e308) overflows fsum: normalize safely."
# --------------------------------------------------------------------------------------------------------
@pytest.mark.hardening
@pytest.mark.parametrize("weights", [{0.25, 0.5}, frozenset({0.5}), {1: 0.5, 2: 0.5}, {0.5: 1}.keys()])
def test_weights_as_a_set_or_dict_are_refused(weights):
    with pytest.raises(TypeError, match="sequence such as a tuple or list"):
        bleu.sentence_bleu(HYP, REFS, weights=weights)
    with pytest.raises(TypeError, match="sequence such as a tuple or list"):
        bleu.corpus_bleu([HYP], [REFS], weights=weights)


@pytest.mark.hardening
def test_weights_from_a_generator_are_read_once():
    expected = bleu.sentence_bleu(HYP, REFS, weights=(0.5, 0.5)).score
    assert math.isclose(bleu.sentence_bleu(HYP, REFS, weights=(w for w in (0.5, 0.5))).score, expected)
    assert math.isclose(bleu.corpus_bleu([HYP], [REFS], weights=iter([0.5, 0.5])).score, expected)
    assert math.isclose(bleu.corpus_bleu([HYP], [REFS], weights=iter([0.5, 0.5]), fast=False).score, expected)


@pytest.mark.hardening
def test_weights_from_a_generator_in_tables_and_plots():
    from evalkit.tables import bleu_smoothing_table

    stats = bleu.sentence_stats(HYP, REFS, max_order=5)
    table = bleu_smoothing_table(stats, methods=["none", "floor"], weights=(w for w in (0.5, 0.5)))
    assert math.isclose(table.loc["none", "BLEU"], bleu.score_stats(stats, weights=(0.5, 0.5)).score)


@pytest.mark.hardening
@pytest.mark.parametrize("make", [np.int64, np.float32, np.float64, np.int32])
def test_numpy_numbers_are_numbers(make):
    ours = bleu.sentence_bleu(HYP, REFS, weights=(make(1), make(1)))
    assert math.isclose(ours.score, bleu.sentence_bleu(HYP, REFS, weights=(0.5, 0.5)).score)
    assert ours.weights == (0.5, 0.5)
    arr = bleu.sentence_bleu(HYP, REFS, weights=np.array([0.5, 0.5], dtype=np.float32))
    assert math.isclose(arr.score, ours.score)


@pytest.mark.hardening
@pytest.mark.parametrize("weights", [(1e308, 1e308), (1.7e308, 1.7e308, 0.0), (5e-324, 5e-324)])
def test_huge_and_tiny_weights_normalize_safely(weights):
    result = bleu.sentence_bleu(HYP, REFS, weights=weights)
    used = [w for w in result.weights]
    k = sum(1 for w in weights if w > 0)
    assert all(math.isclose(w, 1 / k) for w, raw in zip(used, weights) if raw > 0)
    assert math.isclose(result.score, bleu.sentence_bleu(HYP, REFS, weights=(1,) * k).score)


@pytest.mark.hardening
@pytest.mark.parametrize(
    "weights, error",
    [((math.nan, 1), ValueError), ((math.inf, 1), ValueError), ((-0.5, 1), ValueError), ((0, 0), ValueError),
     ((), ValueError), (("a", 1), TypeError), ((True, 1), TypeError), (0.5, TypeError), ("0.5", TypeError)],
)
def test_bad_weights_are_refused(weights, error):
    with pytest.raises(error, match="weights"):
        bleu.sentence_bleu(HYP, REFS, weights=weights)


@pytest.mark.hardening
@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=0, max_value=1.7976931348623157e308, allow_subnormal=True), min_size=1,
                max_size=4).filter(lambda ws: any(w > 0 for w in ws)))
def test_property_normalized_weights_sum_to_one_for_any_finite_weights(weights):
    from evalkit._checks import normalize_weights

    norm = normalize_weights(weights)
    assert all(0 <= w <= 1 for w in norm)
    assert math.isclose(math.fsum(norm), 1.0, rel_tol=1e-12)
    score = bleu.sentence_bleu(HYP, REFS, weights=weights).score
    assert 0 <= score <= 1


# --------------------------------------------------------------------------------------------------------
# Peers' APIs: "NLTK's list of weight tuples (one result per tuple)"
# --------------------------------------------------------------------------------------------------------
@pytest.mark.conformance
@pytest.mark.hardening
def test_a_list_of_weight_tuples_gives_one_result_per_tuple_like_nltk(wmt17):
    from nltk.translate import bleu_score as nltk_bleu

    weights = [(0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.25, 0.25, 0.25, 0.25)]
    hyp, refs = HYP.split(), [r.split() for r in REFS]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NLTK warns about the zero 4-gram precision
        theirs = nltk_bleu.sentence_bleu(refs, hyp, weights=weights)
    ours = bleu.sentence_bleu(hyp, refs, weights=weights, smoothing="method0")  # NLTK's default
    assert isinstance(ours, list) and len(ours) == len(theirs) == 3
    for a, b in zip(ours, theirs):
        assert math.isclose(a.score, b, rel_tol=1e-12, abs_tol=1e-300)

    reference, systems = wmt17
    output = next(iter(systems.values()))[:300]
    hyps, refs = [h.split() for h in output], [[r.split()] for r in reference[:300]]
    theirs = nltk_bleu.corpus_bleu(refs, hyps, weights=weights)
    for fast in (True, False):
        ours = bleu.corpus_bleu(hyps, refs, weights=weights, fast=fast, smoothing="method0")
        assert all(math.isclose(a.score, b, rel_tol=1e-12) for a, b in zip(ours, theirs))
        # each result is what the single tuple gives
        assert [r.score for r in ours] == [bleu.corpus_bleu(hyps, refs, weights=w, smoothing="method0").score for w in weights]


@pytest.mark.hardening
def test_a_bad_tuple_in_a_list_of_weights_is_named():
    with pytest.raises(ValueError, match=r"weights\[1\]: .*non-negative"):
        bleu.sentence_bleu(HYP, REFS, weights=[(0.5, 0.5), (1, -1)])


# --------------------------------------------------------------------------------------------------------
# "`smooth_value=inf` gives inf (floor) or nan (add-k)"; peers' APIs: "floor smoothing with
#  `smooth_value=0` (sacreBLEU's degenerate-statistics tests expect 0.0)"
# --------------------------------------------------------------------------------------------------------
@pytest.mark.hardening
@pytest.mark.parametrize("smoothing", ["floor", "add-k"])
@pytest.mark.parametrize("value, error", [(math.inf, ValueError), (math.nan, ValueError), (-0.1, ValueError),
                                          ("0.1", TypeError), (True, TypeError)])
def test_non_finite_or_negative_smooth_values_are_refused(smoothing, value, error):
    with pytest.raises(error, match="smooth_value"):
        bleu.sentence_bleu("a b c d", ["a b x y"], smoothing=smoothing, smooth_value=value)


# sacreBLEU's test/test_bleu.py, test_degenerate_statistics: (matches, totals, sys_len, ref_len, offset);
# the expected score is computed here by sacreBLEU itself.
DEGENERATE = [
    ((0, 0, 0, 0), (4, 4, 2, 1), 0, 1, 0.0),
    ((0, 0, 0, 0), (10, 11, 12, 0), 14, 10, 0.0),
    ((0, 0, 0, 0), (0, 0, 0, 0), 0, 0, 0.0),
    ((6, 5, 4, 0), (6, 5, 4, 3), 6, 6, 0.0),
    ((0, 0, 0, 0), (0, 0, 0, 0), 0, 0, 0.1),
    ((0, 0, 0, 0), (0, 0, 0, 0), 1, 5, 0.01),
    ((6, 5, 4, 0), (6, 5, 4, 3), 6, 6, 0.1),
    ((3, 1, 0, 0), (5, 4, 3, 2), 5, 7, 0),
]


@pytest.mark.conformance
@pytest.mark.hardening
@pytest.mark.parametrize("matches, totals, sys_len, ref_len, offset", DEGENERATE)
@pytest.mark.parametrize("smoothing", ["floor", "add-k"])
def test_floor_and_add_k_with_any_offset_equal_sacrebleu_degenerate_statistics(
    matches, totals, sys_len, ref_len, offset, smoothing
):
    from sacrebleu.metrics.bleu import BLEU

    theirs = BLEU.compute_bleu(list(matches), list(totals), sys_len, ref_len, smooth_method=smoothing,
                               smooth_value=offset).score / 100
    stats = bleu.BLEUStats(hyp_len=sys_len, closest_ref_len=ref_len, shortest_ref_len=ref_len, matches=matches,
                           totals=totals, empty=tuple(int(t == 0) for t in totals))
    ours = bleu.score_stats(stats, smoothing=smoothing, smooth_value=offset).score
    assert math.isclose(ours, theirs, rel_tol=1e-12, abs_tol=1e-15)
    if smoothing == "floor" and offset == 0:
        assert ours == 0.0  # sacreBLEU's test expects exactly 0


@pytest.mark.conformance
@pytest.mark.hardening
def test_floor_zero_on_text_equals_sacrebleu():
    import sacrebleu

    # sacreBLEU's test_offset case: without an offset the zero 4-gram precision makes BLEU 0
    hyp, ref = "am I am a character sequence", "I am a symbol string sequence a a"
    theirs = sacrebleu.corpus_bleu([hyp], [[ref]], smooth_method="floor", smooth_value=0.0).score / 100
    ours = bleu.corpus_bleu([hyp], [[ref]], smoothing="floor", smooth_value=0, tokenize="13a").score
    assert theirs == ours == 0.0
    with_floor = sacrebleu.corpus_bleu([hyp], [[ref]], smooth_method="floor", smooth_value=0.1).score / 100
    assert math.isclose(bleu.corpus_bleu([hyp], [[ref]], smoothing="floor", tokenize="13a").score, with_floor,
                        rel_tol=1e-12)


# --------------------------------------------------------------------------------------------------------
# "`brevity_penalty(-1, 5)` returns 403.4: lengths are validated."
# --------------------------------------------------------------------------------------------------------
@pytest.mark.hardening
@pytest.mark.parametrize("c, r, error", [(-1, 5, ValueError), (5, -1, ValueError), (math.nan, 5, ValueError),
                                         (5, math.inf, ValueError), (True, 5, TypeError), ("5", 5, TypeError),
                                         (None, 5, TypeError)])
def test_brevity_penalty_refuses_negative_or_non_numeric_lengths(c, r, error):
    with pytest.raises(error, match="len must be a length"):
        bleu.brevity_penalty(c, r)


@pytest.mark.hardening
def test_brevity_penalty_of_legal_lengths_by_hand():
    assert bleu.brevity_penalty(0, 5) == 0.0
    assert bleu.brevity_penalty(0, 0) == 0.0  # an empty hypothesis against an empty reference
    assert math.isclose(bleu.brevity_penalty(np.int64(4), 5), math.exp(1 - 5 / 4))
    assert math.isclose(bleu.brevity_penalty(0.5, 1.0), math.exp(-1))  # a ratio c/r with r = 1 (lesson 02)
    assert bleu.brevity_penalty(6, 5) == 1.0


@pytest.mark.hardening
@pytest.mark.parametrize("call, error", [
    (lambda: bleu.closest_ref_length(-1, [3]), ValueError),
    (lambda: bleu.closest_ref_length(3, []), ValueError),
    (lambda: bleu.closest_ref_length(3, [4, -2]), ValueError),
    (lambda: bleu.closest_ref_length(3, [4, True]), TypeError),
])
def test_closest_ref_length_checks_its_lengths(call, error):
    with pytest.raises(error):
        call()


@pytest.mark.hardening
def test_ranks_refuse_nan_scores():
    from evalkit.ranking import competition_ranks
    from evalkit.tables import bleu_ranks

    for rank in (competition_ranks, bleu_ranks):
        with pytest.raises(ValueError, match="score of 'B' is NaN"):
            rank({"A": 0.3, "B": math.nan, "C": 0.1})
        with pytest.raises(TypeError, match="score of 'B'"):
            rank({"A": 0.3, "B": "0.2"})
        assert rank({"A": 0.3, "B": np.float64(0.3), "C": 0.1}) == {"A": 1, "B": 1, "C": 3}


# "Scores stay in [0, 1] or the input is refused": floor's value is a number of matches in place of 0, so
# above 1 the precision smooth_value / total (total >= 1) could exceed 1; add-k keeps (m + k) / (t + k) <= 1.
@pytest.mark.hardening
def test_floor_values_above_one_are_refused():
    with pytest.raises(ValueError, match=r"in \[0, 1\]"):
        bleu.sentence_bleu("a b c", ["a b x"], smoothing="floor", smooth_value=5)
    assert 0 < bleu.sentence_bleu("a b c d", ["a b x y"], smoothing="floor", smooth_value=1).score <= 1


@pytest.mark.hardening
@settings(max_examples=200, deadline=None)
@given(
    hyp=st.lists(st.sampled_from("abc"), min_size=0, max_size=8),
    ref=st.lists(st.sampled_from("abc"), min_size=0, max_size=8),
    smoothing=st.sampled_from(["floor", "add-k"]),
    value=st.floats(min_value=0, max_value=1.7976931348623157e308, allow_subnormal=True),
    weights=st.lists(st.floats(min_value=0, max_value=1.7976931348623157e308), min_size=1, max_size=4).filter(
        lambda ws: any(w > 0 for w in ws)),
)
def test_property_bleu_stays_in_the_unit_interval_for_extreme_finite_options(hyp, ref, smoothing, value, weights):
    if smoothing == "floor":
        value = min(value, 1.0)
    score = bleu.sentence_bleu(hyp, [ref], smoothing=smoothing, smooth_value=value, weights=weights).score
    assert 0 <= score <= 1
