"""Regression tests for issue 10 ("Hardening and the house"): bad input gets a clear error or a correct
score, and the peers' own APIs work where a user would expect them.

Each group quotes the finding it pins.  Expected numbers are computed by hand in the test or by the peer
library (NLTK, sacreBLEU, rouge-score, gleu) at test time.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from evalkit import bleu

HYP = "the cat sat on the mat"
REFS = ["the cat is on the mat", "the bird sat on the bush"]


# --------------------------------------------------------------------------------------------------------
# "`weights` as a set ({0.25, 0.25, 0.25, 0.25} collapses to BLEU-1 and scores 0.8333) or a dict: refuse.
#  A generator of weights is read twice ("weights is empty"): read once. numpy numbers (int64, float32)
#  are numbers. (1e308, 1e308) overflows fsum: normalize safely."
# --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("weights", [{0.25, 0.5}, frozenset({0.5}), {1: 0.5, 2: 0.5}, {0.5: 1}.keys()])
def test_weights_as_a_set_or_dict_are_refused(weights):
    with pytest.raises(TypeError, match="sequence such as a tuple or list"):
        bleu.sentence_bleu(HYP, REFS, weights=weights)
    with pytest.raises(TypeError, match="sequence such as a tuple or list"):
        bleu.corpus_bleu([HYP], [REFS], weights=weights)


def test_weights_from_a_generator_are_read_once():
    expected = bleu.sentence_bleu(HYP, REFS, weights=(0.5, 0.5)).score
    assert math.isclose(bleu.sentence_bleu(HYP, REFS, weights=(w for w in (0.5, 0.5))).score, expected)
    assert math.isclose(bleu.corpus_bleu([HYP], [REFS], weights=iter([0.5, 0.5])).score, expected)
    assert math.isclose(bleu.corpus_bleu([HYP], [REFS], weights=iter([0.5, 0.5]), fast=False).score, expected)


def test_weights_from_a_generator_in_tables_and_plots():
    from evalkit.tables import bleu_smoothing_table

    stats = bleu.sentence_stats(HYP, REFS, max_order=5)
    table = bleu_smoothing_table(stats, methods=["none", "floor"], weights=(w for w in (0.5, 0.5)))
    assert math.isclose(table.loc["none", "BLEU"], bleu.score_stats(stats, weights=(0.5, 0.5)).score)


@pytest.mark.parametrize("make", [np.int64, np.float32, np.float64, np.int32])
def test_numpy_numbers_are_numbers(make):
    ours = bleu.sentence_bleu(HYP, REFS, weights=(make(1), make(1)))
    assert math.isclose(ours.score, bleu.sentence_bleu(HYP, REFS, weights=(0.5, 0.5)).score)
    assert ours.weights == (0.5, 0.5)
    arr = bleu.sentence_bleu(HYP, REFS, weights=np.array([0.5, 0.5], dtype=np.float32))
    assert math.isclose(arr.score, ours.score)


@pytest.mark.parametrize("weights", [(1e308, 1e308), (1.7e308, 1.7e308, 0.0), (5e-324, 5e-324)])
def test_huge_and_tiny_weights_normalize_safely(weights):
    result = bleu.sentence_bleu(HYP, REFS, weights=weights)
    used = [w for w in result.weights]
    k = sum(1 for w in weights if w > 0)
    assert all(math.isclose(w, 1 / k) for w, raw in zip(used, weights) if raw > 0)
    assert math.isclose(result.score, bleu.sentence_bleu(HYP, REFS, weights=(1,) * k).score)


def test_huge_weights_in_the_explorer_functions():
    from evalkit.widgets import count_sentence, normalized_weights, weights_view

    assert normalized_weights((1e308, 1e308)) == (0.5, 0.5)
    view = weights_view(count_sentence(HYP, REFS), (1e308, 1e308))
    assert view.weights == (0.5, 0.5)


@pytest.mark.parametrize(
    "weights, error",
    [((math.nan, 1), ValueError), ((math.inf, 1), ValueError), ((-0.5, 1), ValueError), ((0, 0), ValueError),
     ((), ValueError), (("a", 1), TypeError), ((True, 1), TypeError), (0.5, TypeError), ("0.5", TypeError)],
)
def test_bad_weights_are_refused(weights, error):
    with pytest.raises(error, match="weights"):
        bleu.sentence_bleu(HYP, REFS, weights=weights)


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


def test_a_bad_tuple_in_a_list_of_weights_is_named():
    with pytest.raises(ValueError, match=r"weights\[1\]: .*non-negative"):
        bleu.sentence_bleu(HYP, REFS, weights=[(0.5, 0.5), (1, -1)])


# --------------------------------------------------------------------------------------------------------
# "`smooth_value=inf` gives inf (floor) or nan (add-k)"; peers' APIs: "floor smoothing with
#  `smooth_value=0` (sacreBLEU's degenerate-statistics tests expect 0.0)"
# --------------------------------------------------------------------------------------------------------
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
# "`lowercase="no"` lowercases (booleans must be booleans)"
# --------------------------------------------------------------------------------------------------------
BOOL_CALLS = {
    "sentence_bleu lowercase": lambda v: bleu.sentence_bleu(HYP, REFS, lowercase=v),
    "sentence_bleu effective_order": lambda v: bleu.sentence_bleu(HYP, REFS, effective_order=v),
    "corpus_bleu lowercase": lambda v: bleu.corpus_bleu([HYP], [REFS], lowercase=v),
    "corpus_bleu lowercase slow": lambda v: bleu.corpus_bleu([HYP], [REFS], lowercase=v, fast=False),
    "corpus_bleu fast": lambda v: bleu.corpus_bleu([HYP], [REFS], fast=v),
    "corpus_bleu nltk_last_hypothesis": lambda v: bleu.corpus_bleu([HYP], [REFS], nltk_last_hypothesis=v),
    "sentence_stats lowercase": lambda v: bleu.sentence_stats(HYP, REFS, lowercase=v),
    "segment_stats lowercase": lambda v: bleu.segment_stats([HYP], [REFS], lowercase=v),
    "corpus_stats fast": lambda v: bleu.corpus_stats([HYP], [REFS], fast=v),
    "segment_matrix lowercase": lambda v: bleu.segment_matrix([HYP], [REFS], lowercase=v),
    "segment_matrix fast": lambda v: bleu.segment_matrix([HYP], [REFS], fast=v),
    "corpus_stats_indexed lowercase": lambda v: bleu.corpus_stats_indexed([HYP], [REFS], lowercase=v),
    "system_stats lowercase": lambda v: bleu.system_stats({"A": [HYP]}, [REFS], lowercase=v),
    "score_stats effective_order": lambda v: bleu.score_stats(bleu.sentence_stats(HYP, REFS), effective_order=v),
    "rouge_n stemmer": lambda v: __import__("evalkit.rouge").rouge.rouge_n(HYP, REFS, 1, stemmer=v),
    "rouge_l fast": lambda v: __import__("evalkit.rouge").rouge.rouge_l(HYP, REFS, fast=v),
    "rouge_tokens stemmer": lambda v: __import__("evalkit.rouge").rouge.rouge_tokens(HYP, stemmer=v),
    "rouge_scores stemmer": lambda v: __import__("evalkit.rouge_many").rouge_many.rouge_scores(HYP, REFS, stemmer=v),
    "gleu segment_stats fast": lambda v: __import__("evalkit.gleu").gleu.segment_stats([HYP], [REFS], [HYP], fast=v),
    "bleu_ngram_table lowercase": lambda v: __import__("evalkit.tables").tables.bleu_ngram_table(HYP, REFS,
                                                                                                  lowercase=v),
}


@pytest.mark.parametrize("value", ["no", "False", 0, 1, None, 1.0])
@pytest.mark.parametrize("call", list(BOOL_CALLS))
def test_yes_no_options_must_be_booleans(call, value):
    with pytest.raises(TypeError, match="must be True or False"):
        BOOL_CALLS[call](value)


@pytest.mark.parametrize("call", list(BOOL_CALLS))
def test_yes_no_options_accept_booleans(call):
    BOOL_CALLS[call](True)
    BOOL_CALLS[call](np.bool_(False))


def test_lowercase_no_used_to_lowercase():
    # the finding itself: "no" is truthy, so the text was lowercased and "The" matched "the"
    with pytest.raises(TypeError, match="lowercase must be True or False, got 'no'"):
        bleu.sentence_bleu("The cat", ["the cat"], lowercase="no", weights=(1,))


# --------------------------------------------------------------------------------------------------------
# "ROUGE-W `weight=0.5` gives F = 1.65 and huge or tiny weights overflow; `beta=1e155` gives F = nan.
#  Scores stay in [0, 1] or the input is refused."
# --------------------------------------------------------------------------------------------------------
from evalkit import rouge  # noqa: E402
from evalkit.protocol import f_score  # noqa: E402


@pytest.mark.parametrize("weight", [0.5, 0.999, 1e-300, 0, -1, 10.5, 1e6, math.inf, math.nan])
@pytest.mark.parametrize("convention", ["lin2004", "rouge-1.5.5"])
def test_rouge_w_weights_outside_1_to_10_are_refused(weight, convention):
    with pytest.raises(ValueError, match="weight must be a number from 1 to 10"):
        rouge.rouge_w("a b c d e f", ["a b c x d e f"], weight=weight, convention=convention)


def test_rouge_w_weight_half_used_to_score_above_one():
    # the finding: f(k) = k ** 0.5 is subadditive, so scattered matches outweigh f(length)
    with pytest.raises(ValueError, match="Lin 2004"):
        rouge.rouge_w("a x b y c", ["a b c"], weight=0.5)


@pytest.mark.parametrize("weight", [1, 1.2, np.float32(2), 10])
def test_rouge_w_weights_in_range_are_accepted(weight):
    r = rouge.rouge_w("a b c d h i k", ["a b c d e f g"], weight=weight)
    assert math.isclose(r.recall, 4 / 7, rel_tol=1e-9)  # one run of 4: f^-1(f(4) / f(7)) = 4/7 for any f


@settings(max_examples=150, deadline=None)
@given(
    hyp=st.lists(st.sampled_from("abcd"), min_size=0, max_size=30),
    ref=st.lists(st.sampled_from("abcd"), min_size=0, max_size=30),
    weight=st.floats(min_value=1, max_value=10),
    beta=st.one_of(st.floats(min_value=1e-300, max_value=1e150), st.sampled_from([1e-300, 1e150, 1.0])),
    convention=st.sampled_from(["lin2004", "rouge-1.5.5"]),
)
def test_property_rouge_w_scores_stay_in_the_unit_interval_for_extreme_finite_options(hyp, ref, weight, beta,
                                                                                     convention):
    r = rouge.rouge_w(" ".join(hyp), [" ".join(ref)], weight=weight, beta=beta, convention=convention)
    for value in (r.precision, r.recall, r.fmeasure):
        assert 0 <= value <= 1
    assert min(r.precision, r.recall) - 1e-12 <= r.fmeasure <= max(r.precision, r.recall) + 1e-12


@pytest.mark.parametrize("beta", [1e155, 1.5e154, math.inf, math.nan, 0, -1])
def test_betas_whose_square_overflows_are_refused(beta):
    for call in (lambda: rouge.rouge_l("a b", ["a c"], beta=beta), lambda: rouge.rouge_n("a b", ["a c"], 1, beta=beta),
                 lambda: rouge.score_stats(rouge.RougeStats(1, 2, 2), beta=beta)):
        with pytest.raises(ValueError, match="beta must be a positive finite number at most 1e"):
            call()


@settings(max_examples=200, deadline=None)
@given(p=st.floats(0, 1), r=st.floats(0, 1), beta=st.floats(min_value=1e-300, max_value=1e150))
@example(p=0.75, r=5e-324, beta=1e-300)  # found by hypothesis: beta ** 2 and P * R underflowed, F came out 1.0
def test_property_f_measure_is_between_precision_and_recall_for_any_allowed_beta(p, r, beta):
    f = f_score(p, r, beta)
    assert 0 <= f <= 1
    assert f <= max(p, r) * (1 + 1e-12)
    if min(p, r) > 1e-150:  # below that P * R underflows to 0 (counts never give such precisions)
        assert min(p, r) * (1 - 1e-12) <= f


def test_beta_at_the_bound_gives_recall():
    r = rouge.rouge_n("a b c d", ["a b x"], 1, beta=1e150)
    assert math.isclose(r.fmeasure, r.recall, rel_tol=1e-12)


# --------------------------------------------------------------------------------------------------------
# "`rouge_n(h, r, 10**7)` runs 6 s and `rouge_scores_many(..., ["rouge1000000"])` 34 s / 671 MB
#  (bound the order)"
# --------------------------------------------------------------------------------------------------------
def test_rouge_n_order_is_bounded_by_rouge_scores_nine():
    from evalkit.rouge_corpus import corpus_rouge, get_scorer
    from evalkit.rouge_many import rouge_scores, rouge_scores_many

    assert rouge.MAX_N == 9
    with pytest.raises(ValueError, match="at most 9"):
        rouge.rouge_n("a b", ["a b"], 10**7)
    with pytest.raises(ValueError, match="at most 9"):
        rouge_scores_many(["a b"], [["a b"]], ["rouge1000000"])
    with pytest.raises(ValueError, match="at most 9"):
        rouge_scores("a b", ["a b"], ["rouge1", "rouge10"])
    with pytest.raises(ValueError, match="at most 9"):
        get_scorer("rouge10")
    with pytest.raises(ValueError, match="at most 9"):
        corpus_rouge(["a b"], [["a b"]], "rouge12")


def test_rouge_n_orders_up_to_nine_equal_rouge_score():
    from rouge_score import rouge_scorer

    from evalkit.rouge_many import rouge_scores

    text = "one two three four five six seven eight nine ten eleven"
    hyp, ref = text, text.replace("six", "6")
    theirs = rouge_scorer.RougeScorer(["rouge9"]).score(ref, hyp)["rouge9"]  # target first
    assert math.isclose(rouge.rouge_n(hyp, [ref], 9).fmeasure, theirs.fmeasure, rel_tol=1e-12)
    assert math.isclose(rouge_scores(hyp, [ref], ["rouge9"])["rouge9"].fmeasure, theirs.fmeasure, rel_tol=1e-12)


# --------------------------------------------------------------------------------------------------------
# "`brevity_penalty(-1, 5)` returns 403.4: lengths are validated."
# --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("c, r, error", [(-1, 5, ValueError), (5, -1, ValueError), (math.nan, 5, ValueError),
                                         (5, math.inf, ValueError), (True, 5, TypeError), ("5", 5, TypeError),
                                         (None, 5, TypeError)])
def test_brevity_penalty_refuses_negative_or_non_numeric_lengths(c, r, error):
    with pytest.raises(error, match="len must be a length"):
        bleu.brevity_penalty(c, r)


def test_brevity_penalty_of_legal_lengths_by_hand():
    assert bleu.brevity_penalty(0, 5) == 0.0
    assert bleu.brevity_penalty(0, 0) == 0.0  # an empty hypothesis against an empty reference
    assert math.isclose(bleu.brevity_penalty(np.int64(4), 5), math.exp(1 - 5 / 4))
    assert math.isclose(bleu.brevity_penalty(0.5, 1.0), math.exp(-1))  # a ratio c/r with r = 1 (lesson 02)
    assert bleu.brevity_penalty(6, 5) == 1.0


@pytest.mark.parametrize("call, error", [
    (lambda: bleu.closest_ref_length(-1, [3]), ValueError),
    (lambda: bleu.closest_ref_length(3, []), ValueError),
    (lambda: bleu.closest_ref_length(3, [4, -2]), ValueError),
    (lambda: bleu.closest_ref_length(3, [4, True]), TypeError),
])
def test_closest_ref_length_checks_its_lengths(call, error):
    with pytest.raises(error):
        call()


# --------------------------------------------------------------------------------------------------------
# "`gleu.spread([])` ZeroDivisionError; `best_reference([])`; `score_assignments` with a generator returns
#  `()`, with `[]` IndexError; `google_bleu_vs_gleu_table` silently truncates mismatched lengths;
#  `bleu_ranks` ranks NaN first"
# --------------------------------------------------------------------------------------------------------
from evalkit import gleu  # noqa: E402


def test_spread_of_no_scores_is_refused_and_a_generator_is_read_once():
    with pytest.raises(ValueError, match="scores is empty"):
        gleu.spread([])
    with pytest.raises(TypeError, match=r"scores\[1\]"):
        gleu.spread([0.5, "0.7"])
    mean, std, ci = gleu.spread(x for x in (0.2, 0.4))
    assert math.isclose(mean, 0.3) and math.isclose(std, 0.1)


def test_best_reference_of_no_scores_is_refused():
    with pytest.raises(ValueError, match="per_reference is empty"):
        gleu.best_reference([])
    with pytest.raises(TypeError, match="GLEUScore"):
        gleu.best_reference([0.5])


GLEU_HYPS = ["the cat sat on mat", "he go home"]
GLEU_REFS = [["the cat sat on the mat", "a cat sat on the mat"], ["he goes home", "he went home"]]
GLEU_SRCS = ["the cat sit on mat", "he go home"]


def test_score_assignments_reads_a_generator_once_and_refuses_empty_input():
    per_sentence = gleu.segment_stats(GLEU_HYPS, GLEU_REFS, GLEU_SRCS)
    picks = [[0, 1], [1, 0]]
    expected = gleu.score_assignments(per_sentence, picks)
    from_generator = gleu.score_assignments(per_sentence, (p for p in picks))
    assert len(from_generator) == 2
    assert [d.score for d in from_generator] == [d.score for d in expected]
    # each equals the score of the summed statistics, by hand
    for d, p in zip(expected, picks):
        assert math.isclose(d.score, gleu.score_stats(gleu.sum_selected(per_sentence, p)).score)
    with pytest.raises(ValueError, match="assignments is empty"):
        gleu.score_assignments(per_sentence, [])
    with pytest.raises(ValueError, match="per_sentence is empty"):
        gleu.score_assignments([], [])
    with pytest.raises(TypeError, match="per_sentence"):
        gleu.score_assignments([[]], [[0]])


def test_google_bleu_vs_gleu_table_refuses_mismatched_lengths():
    from evalkit.tables import google_bleu_vs_gleu_table

    with pytest.raises(ValueError, match="lengths differ"):
        google_bleu_vs_gleu_table(GLEU_HYPS, GLEU_REFS[:1], GLEU_SRCS)
    with pytest.raises(ValueError, match="lengths differ"):
        google_bleu_vs_gleu_table(GLEU_HYPS, GLEU_REFS, GLEU_SRCS[:1])
    with pytest.raises(ValueError, match="lengths differ"):
        google_bleu_vs_gleu_table(GLEU_HYPS, GLEU_REFS, GLEU_SRCS, names=["only one"])
    with pytest.raises(ValueError, match="empty"):
        google_bleu_vs_gleu_table([], [], [])
    assert len(google_bleu_vs_gleu_table(GLEU_HYPS, GLEU_REFS, GLEU_SRCS)) == 2


def test_ranks_refuse_nan_scores():
    from evalkit.ranking import competition_ranks
    from evalkit.tables import bleu_ranks

    for rank in (competition_ranks, bleu_ranks):
        with pytest.raises(ValueError, match="score of 'B' is NaN"):
            rank({"A": 0.3, "B": math.nan, "C": 0.1})
        with pytest.raises(TypeError, match="score of 'B'"):
            rank({"A": 0.3, "B": "0.2"})
        assert rank({"A": 0.3, "B": np.float64(0.3), "C": 0.1}) == {"A": 1, "B": 1, "C": 3}


# --------------------------------------------------------------------------------------------------------
# "`bootstrap_interval([])` IndexError, a list of floats AttributeError, mixed variants accepted";
# peers' APIs: "`confidence=0` (low = mid = high), and the bootstrap "mid" as rouge-score reports it
# (median) beside evalkit's mean"
# --------------------------------------------------------------------------------------------------------
from evalkit import rouge_corpus  # noqa: E402

CORPUS_H = ["the cat sat on the mat", "a quick brown fox", "hello world", "one two three four", "x y z"]
CORPUS_R = [["the cat is on the mat"], ["the quick brown fox jumps"], ["hello there world"], ["one two four"],
            ["a b c"]]


@pytest.mark.parametrize("segments, error, message", [
    ([], ValueError, "segments is empty"),
    ([0.5, 0.7], TypeError, r"segments\[0\] is a float"),
    ("rouge1", TypeError, "segments must be a list"),
    (None, TypeError, "segments must be a list"),
])
def test_bootstrap_interval_refuses_bad_segments(segments, error, message):
    with pytest.raises(error, match=message):
        rouge_corpus.bootstrap_interval(segments)


def test_bootstrap_interval_refuses_mixed_variants_and_betas():
    ones = rouge_corpus.segment_scores(CORPUS_H[:2], CORPUS_R[:2], "rouge1")
    twos = rouge_corpus.segment_scores(CORPUS_H[:2], CORPUS_R[:2], "rouge2")
    beta2 = rouge_corpus.segment_scores(CORPUS_H[:2], CORPUS_R[:2], "rouge1", beta=2)
    with pytest.raises(ValueError, match=r"segments\[2\] is 'rouge2'"):
        rouge_corpus.bootstrap_interval(ones + twos)
    with pytest.raises(ValueError, match="one variant and one beta"):
        rouge_corpus.bootstrap_interval(ones + beta2)


@pytest.mark.parametrize("confidence, error", [(1, ValueError), (-0.1, ValueError), (math.nan, ValueError),
                                               (True, TypeError), ("0.9", TypeError)])
def test_bad_confidence_is_refused(confidence, error):
    with pytest.raises(error, match="confidence"):
        rouge_corpus.corpus_rouge(CORPUS_H, CORPUS_R, "rouge1", confidence=confidence, n_samples=10)


@pytest.mark.parametrize("average", ["mean", "micro"])
def test_confidence_zero_gives_low_equal_median_equal_high(average):
    r = rouge_corpus.corpus_rouge(CORPUS_H, CORPUS_R, "rouge1", confidence=0, n_samples=101, average=average)
    for field in ("precision", "recall", "fmeasure"):
        assert getattr(r.low, field) == getattr(r.median, field) == getattr(r.high, field)


def test_bootstrap_median_equals_rouge_scores_mid_on_the_same_resamples(jfleg_test, monkeypatch):
    """rouge-score draws with np.random.choice; evalkit with a seeded Generator.  The resamples evalkit drew
    are recorded and handed to rouge-score's BootstrapAggregator, whose low/mid/high must then equal evalkit's
    low/median/high."""
    from rouge_score import scoring

    hyps, refs = jfleg_test.sources[:120], [r[:1] for r in jfleg_test.references[:120]]
    recorded = []
    real_draws = rouge_corpus.uniform_draws_in_chunks

    def recording_draws(*args, **kwargs):
        for chunk in real_draws(*args, **kwargs):  # the resamples evalkit uses, chunk by chunk
            recorded.append(np.array(chunk))
            yield chunk

    monkeypatch.setattr(rouge_corpus, "uniform_draws_in_chunks", recording_draws)
    ours = rouge_corpus.corpus_rouge(hyps, refs, "rouge2", n_samples=300, seed=5, confidence=0.9)
    monkeypatch.undo()

    rows = np.concatenate(recorded)
    assert rows.shape == (300, len(hyps))
    queue = list(rows)
    monkeypatch.setattr(scoring.np.random, "choice", lambda a, size: a[queue.pop(0)])
    aggregator = scoring.BootstrapAggregator(confidence_interval=0.9, n_samples=300)
    for s in ours.segments:
        aggregator.add_scores({"rouge2": scoring.Score(s.precision, s.recall, s.fmeasure)})
    theirs = aggregator.aggregate()["rouge2"]
    assert not queue  # every recorded resample was used once
    for ours_bound, their_bound in ((ours.low, theirs.low), (ours.median, theirs.mid), (ours.high, theirs.high)):
        assert math.isclose(ours_bound.precision, their_bound.precision, rel_tol=1e-12)
        assert math.isclose(ours_bound.recall, their_bound.recall, rel_tol=1e-12)
        assert math.isclose(ours_bound.fmeasure, their_bound.fmeasure, rel_tol=1e-12)
    # the median is not evalkit's point estimate (the mean of the segments), though close to it
    assert ours.median.fmeasure != ours.estimate.fmeasure
    assert abs(ours.median.fmeasure - ours.estimate.fmeasure) < ours.high.fmeasure - ours.low.fmeasure


def test_bootstrap_interval_returns_point_low_high_median():
    segments = rouge_corpus.segment_scores(CORPUS_H, CORPUS_R, "rouge1")
    out = rouge_corpus.bootstrap_interval(segments, n_samples=50)
    point, low, high, median = out
    assert out.median is median and low.fmeasure <= median.fmeasure <= high.fmeasure
    assert math.isclose(point.fmeasure, sum(s.fmeasure for s in segments) / len(segments))


# --------------------------------------------------------------------------------------------------------
# "`WeightsExplorer` splits a reference at a newline and shows 1.0 where `sentence_bleu` gives 0.8187."
# (Cause: the constructor joined the references with "\n" into the text box and counted the box's lines,
#  so a reference holding a newline became two references.)
# --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("tokenize", ["nltk", "none", "13a", "char"])
@pytest.mark.parametrize("references", [
    ["the cat sat on the mat\ntoday it rained"],
    ["the cat sat on the mat\ntoday it rained", "a cat\n\nsat on the mat today"],
    ["the cat sat\u2028on the mat today"],  # str.splitlines also splits at U+2028
])
def test_weights_explorer_scores_a_reference_with_a_newline_as_sentence_bleu(tokenize, references):
    from evalkit.widgets import WeightsExplorer

    hypothesis = "the cat sat on the mat today"
    explorer = WeightsExplorer(hypothesis, references, tokenize=tokenize)
    expected = bleu.sentence_bleu(hypothesis, references, tokenize=tokenize)
    assert math.isclose(explorer.view.score, expected.score, rel_tol=1e-12, abs_tol=0)
    assert explorer.view.result.stats.nrefs == len(references)
    # once the box is edited, each non-blank line is one reference
    explorer.references.value = "the cat sat on the mat\ntoday it rained\n"
    edited = bleu.sentence_bleu(hypothesis, ["the cat sat on the mat", "today it rained"], tokenize=tokenize)
    assert math.isclose(explorer.view.score, edited.score, rel_tol=1e-12, abs_tol=0)


# --------------------------------------------------------------------------------------------------------
# "`python -m evalkit.gleu -t char` counts `\r` of CRLF files (87.3922 vs 87.3355); a short hypothesis
#  file gives a traceback instead of a usage error."
# --------------------------------------------------------------------------------------------------------
import subprocess  # noqa: E402
import sys  # noqa: E402


def _write_jfleg(folder, jf, n, newline):
    folder.mkdir()
    hyps = [s.replace(" a ", " the ") for s in jf.sources[:n]]
    files = {"src": jf.sources[:n], "hyp": hyps, **{f"ref{k}": jf.reference_sets[k][:n] for k in range(4)}}
    for name, lines in files.items():
        (folder / name).write_bytes((newline.join(lines) + newline).encode("utf-8"))
    return files


def _gleu_cli(folder, *extra, hyp="hyp"):
    refs = [str(folder / f"ref{k}") for k in range(4)]
    return subprocess.run(
        [sys.executable, "-m", "evalkit.gleu", "-s", str(folder / "src"), "-r", *refs, "-o", str(folder / hyp),
         "-d", "10", *extra],
        capture_output=True, text=True,
    )


@pytest.mark.parametrize("tokens", ["char", "word"])
def test_gleu_command_reads_crlf_files_like_lf_files(jfleg_test, tmp_path, tokens):
    import gleu_package

    n = 120
    files = _write_jfleg(tmp_path / "lf", jfleg_test, n, "\n")
    _write_jfleg(tmp_path / "crlf", jfleg_test, n, "\r\n")
    assert b"\r\n" in (tmp_path / "crlf" / "src").read_bytes()
    lf = _gleu_cli(tmp_path / "lf", "-t", tokens, "-i", "20")
    crlf = _gleu_cli(tmp_path / "crlf", "-t", tokens, "-i", "20")
    assert lf.returncode == crlf.returncode == 0, crlf.stderr
    assert lf.stdout.split()[1:] == crlf.stdout.split()[1:]
    mean, _, _ = gleu_package.corpus(files["hyp"], [files[f"ref{k}"] for k in range(4)], files["src"],
                                     iterations=20, token=tokens)
    assert math.isclose(float(crlf.stdout.split()[1]) / 100, mean, rel_tol=0, abs_tol=1e-11)


def test_gleu_command_refuses_a_short_hypothesis_file_with_a_usage_error(jfleg_test, tmp_path):
    folder = tmp_path / "lf"
    files = _write_jfleg(folder, jfleg_test, 30, "\n")
    (folder / "short").write_text("\n".join(files["hyp"][:20]) + "\n", encoding="utf-8")
    out = _gleu_cli(folder, "-i", "5", hyp="short")
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert f"{folder / 'short'} has 20 lines, the source {folder / 'src'} has 30" in out.stderr
    missing = _gleu_cli(folder, hyp="nonexistent")
    assert missing.returncode == 2 and "cannot read" in missing.stderr and "Traceback" not in missing.stderr


# --------------------------------------------------------------------------------------------------------
# Peers' APIs: "rouge-score's `split_summaries` for Lsum".  rouge-score splits with nltk.sent_tokenize,
# which needs the downloaded Punkt model (absent here: evalkit never downloads); evalkit uses NLTK's Punkt
# class untrained.  rouge-score is run with its sent_tokenize replaced by that same splitter, which checks
# everything else (which text is split, empty sentences dropped, newlines as white space, the union LCS).
# --------------------------------------------------------------------------------------------------------
def test_split_summaries_by_hand():
    hyp, ref = "the cat sat on the mat. the dog ran home.", "the dog ran home. the cat sat on the mat."
    assert rouge.rouge_lsum(hyp, [ref], split_summaries=True).fmeasure == 1.0  # two sentences, each in full
    # one line each: without the option both are one sentence, and ROUGE-Lsum is ROUGE-L (LCS 6 of 10)
    assert rouge.rouge_lsum(hyp, [ref]).fmeasure == rouge.rouge_l(hyp, [ref]).fmeasure == 0.6
    # with the option, a newline inside a sentence is white space
    assert rouge.split_sentences("one two\nthree four. five six.", split_summaries=True) == [
        "one two\nthree four.", "five six."]
    with pytest.raises(TypeError, match="split_summaries must be True or False"):
        rouge.rouge_lsum("a", ["a"], split_summaries="yes")


def test_split_summaries_equals_rouge_score_with_the_same_sentence_splitter(jfleg_test, monkeypatch):
    import nltk
    from nltk.tokenize.punkt import PunktSentenceTokenizer
    from rouge_score import rouge_scorer

    with pytest.raises(LookupError):  # the trained model is not here, and evalkit must not download it
        nltk.sent_tokenize("One. Two.")
    monkeypatch.setattr(rouge_scorer.nltk, "sent_tokenize", PunktSentenceTokenizer().tokenize)
    scorer = rouge_scorer.RougeScorer(["rougeLsum"], split_summaries=True)
    jf = jfleg_test
    for i in range(0, 240, 3):  # three JFLEG sentences make one summary, some joined by newlines
        hyp = " ".join(jf.sources[i:i + 3])
        ref = "\n".join(jf.references[i][0:1] + jf.references[i + 1][0:1]) + " " + jf.references[i + 2][0]
        theirs = scorer.score(ref, hyp)["rougeLsum"]  # target first
        ours = rouge.rouge_lsum(hyp, [ref], split_summaries=True)
        assert math.isclose(ours.fmeasure, theirs.fmeasure, rel_tol=1e-12, abs_tol=1e-15)
        assert math.isclose(ours.recall, theirs.recall, rel_tol=1e-12, abs_tol=1e-15)


def test_split_summaries_through_corpus_rouge():
    hyps = ["the cat sat. the dog ran.", "one two three. four five six."]
    refs = [["the dog ran. the cat sat."], ["four five six. one two three."]]
    r = rouge_corpus.corpus_rouge(hyps, refs, "rougeLsum", split_summaries=True, n_samples=10)
    assert r.estimate.fmeasure == 1.0


# "Scores stay in [0, 1] or the input is refused": floor's value is a number of matches in place of 0, so
# above 1 the precision smooth_value / total (total >= 1) could exceed 1; add-k keeps (m + k) / (t + k) <= 1.
def test_floor_values_above_one_are_refused():
    with pytest.raises(ValueError, match=r"in \[0, 1\]"):
        bleu.sentence_bleu("a b c", ["a b x"], smoothing="floor", smooth_value=5)
    assert 0 < bleu.sentence_bleu("a b c d", ["a b x y"], smoothing="floor", smooth_value=1).score <= 1


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


def test_rouge_w_of_identical_texts_is_exactly_one_despite_rounding():
    # hypothesis found it: the WLCS (a sum of f(k+1) - f(k)) exceeded f(3) by an ulp, so R was 1.0000000000000002
    r = rouge.rouge_w("a a a", ["a a a"], weight=1.25)
    assert r.precision <= 1 and r.recall <= 1 and r.fmeasure <= 1
    assert math.isclose(r.fmeasure, 1.0)
