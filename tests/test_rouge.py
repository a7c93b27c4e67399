"""evalkit.rouge: conformance with rouge-score (called here, at test time), hand-computed values for the
variants rouge-score lacks (ROUGE-W, -S, -SU, following Lin 2004), properties and bad input."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer, tokenize as rs_tokenize
from nltk.stem import porter

from evalkit import rouge, rouge_many
from evalkit.fast import bit_parallel_lcs_length
from evalkit.lcs import lcs_length, lcs_path, lcs_table, union_lcs
from evalkit.rouge_corpus import corpus_rouge
from evalkit.tokenize import TokenizationWarning
from evalkit.rouge import (
    RougeStats,
    rouge_l,
    rouge_lsum,
    rouge_n,
    rouge_s,
    rouge_su,
    rouge_w,
    score_stats,
    skip_bigram_stats,
    summary_lcs_stats,
)

TOL = 1e-12
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def evalkit_scores(hypothesis, references, stemmer):
    return {
        "rouge1": rouge_n(hypothesis, references, 1, stemmer=stemmer),
        "rouge2": rouge_n(hypothesis, references, 2, stemmer=stemmer),
        "rougeL": rouge_l(hypothesis, references, stemmer=stemmer),
        "rougeLsum": rouge_lsum(hypothesis, references, stemmer=stemmer),
    }


def worst_difference(hypotheses, references, stemmer):
    """Largest |evalkit - rouge-score| over P, R, F of ROUGE-1/2/L/Lsum.  rouge-score takes the target
    (reference) first: score(target, prediction); score_multi(targets, prediction)."""
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stemmer)
    worst = 0.0
    for hyp, refs in zip(hypotheses, references):
        theirs = scorer.score(refs[0], hyp) if len(refs) == 1 else scorer.score_multi(refs, hyp)
        ours = evalkit_scores(hyp, refs, stemmer)
        for name in TYPES:
            mine = ours[name]
            for a, b in zip(theirs[name], (mine.precision, mine.recall, mine.fmeasure)):
                worst = max(worst, abs(a - b))
    return worst


# --------------------------------------------------------------------------------------------------------
# Conformance with rouge-score on JFLEG
# --------------------------------------------------------------------------------------------------------
@pytest.mark.conformance
@pytest.mark.parametrize("stemmer", [False, True])
def test_single_sentences_one_reference_match_rouge_score(jfleg_test, stemmer):
    # every source against each of its 4 corrections separately: 2,988 pairs
    hyps = [src for src in jfleg_test.sources for _ in range(4)]
    refs = [[ref] for refs in jfleg_test.references for ref in refs]
    assert len(hyps) == 2988
    assert worst_difference(hyps, refs, stemmer) <= TOL


@pytest.mark.conformance
@pytest.mark.parametrize("stemmer", [False, True])
def test_single_sentences_four_references_match_score_multi(jfleg_dev, stemmer):
    assert worst_difference(jfleg_dev.sources, jfleg_dev.references, stemmer) <= TOL


def _joined(lines, size):
    return ["\n".join(lines[i : i + size]) for i in range(0, len(lines) - size + 1, size)]


@pytest.mark.conformance
@pytest.mark.parametrize("stemmer", [False, True])
@pytest.mark.parametrize("size", [3, 5])
def test_multi_sentence_texts_match_rouge_score(jfleg_test, stemmer, size):
    # texts of 3 or 5 consecutive JFLEG sentences, one per line (the first 200 lines: rouge-score is slow)
    hyps = _joined(jfleg_test.sources[:200], size)
    ref_sets = [_joined(s[:200], size) for s in jfleg_test.reference_sets]
    one_ref = [[r] for r in ref_sets[0]]
    four_refs = [list(r) for r in zip(*ref_sets)]
    assert worst_difference(hyps, one_ref, stemmer) <= TOL
    assert worst_difference(hyps, four_refs, stemmer) <= TOL


@pytest.mark.conformance
@pytest.mark.parametrize("stemmer", [False, True])
def test_lsum_with_shuffled_sentences_and_blank_lines_matches_rouge_score(jfleg_dev, stemmer):
    # Sentence order matters for Lsum's union LCS; blank and punctuation-only lines are edge cases of the split.
    rng = random.Random(7)
    hyps, refs = [], []
    for i in range(0, 400, 4):
        sents = list(jfleg_dev.sources[i : i + 4])
        rng.shuffle(sents)
        sents.insert(rng.randrange(len(sents)), "" if i % 8 else " , . ")
        hyps.append("\n".join(sents))
        refs.append(["\n".join(jfleg_dev.reference_sets[k][i : i + 4]) for k in range(rng.randint(1, 4))])
    assert worst_difference(hyps, refs, stemmer) <= TOL


@pytest.mark.conformance
def test_worked_example_cat_mat_against_rouge_score_and_by_hand():
    hyp, ref = "the cat sat on the mat", "the cat is on the mat"
    theirs = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"]).score(ref, hyp)
    # by hand: unigrams the x2, cat, on, mat shared = 5 of 6 on each side; bigrams "the cat", "on the",
    # "the mat" = 3 of 5; LCS "the cat on the mat" = 5 of 6
    assert math.isclose(rouge_n(hyp, [ref], 1).fmeasure, 5 / 6, rel_tol=TOL)
    assert math.isclose(rouge_n(hyp, [ref], 2).fmeasure, 3 / 5, rel_tol=TOL)
    assert math.isclose(rouge_l(hyp, [ref]).fmeasure, 5 / 6, rel_tol=TOL)
    assert math.isclose(theirs["rouge1"].fmeasure, rouge_n(hyp, [ref], 1).fmeasure, rel_tol=TOL)
    assert math.isclose(theirs["rouge2"].fmeasure, rouge_n(hyp, [ref], 2).fmeasure, rel_tol=TOL)
    assert math.isclose(theirs["rougeL"].fmeasure, rouge_l(hyp, [ref]).fmeasure, rel_tol=TOL)


@pytest.mark.conformance
@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60), st.booleans())
def test_tokenizer_equals_rouge_score_on_any_text(text, stemmer):
    stem = porter.PorterStemmer() if stemmer else None
    assert list(rouge.rouge_tokens(text, stemmer=stemmer)) == rs_tokenize.tokenize(text, stem)


@pytest.mark.conformance
def test_tokenizer_equals_rouge_score_on_jfleg(jfleg_test):
    stem = porter.PorterStemmer()
    for text in jfleg_test.sources[:300]:
        assert list(rouge.rouge_tokens(text, stemmer=True)) == rs_tokenize.tokenize(text, stem)


@pytest.mark.conformance
def test_non_english_text_vanishes_in_rouge_score_but_not_with_unicode_tokenizer():
    text = "Кошка сидит на ковре"
    theirs = rouge_scorer.RougeScorer(["rouge1"]).score(text, text)["rouge1"]
    assert theirs.fmeasure == 0  # exact: rouge-score finds no token at all
    assert rouge.rouge_tokens(text) == ()
    with pytest.warns(TokenizationWarning, match='tokenize="unicode"'):  # evalkit says so
        assert rouge_n(text, [text], 1).fmeasure == 0
    assert math.isclose(rouge_n(text, [text], 1, tokenize="unicode").fmeasure, 1.0)
    assert rouge.rouge_tokens("Café naïve", tokenize="unicode") == ("café", "naïve")
    assert rouge.rouge_tokens("Café naïve") == ("caf", "na", "ve")


@pytest.mark.conformance
def test_stemming_only_touches_tokens_longer_than_three_characters():
    # Porter would turn "has" into "ha", but rouge-score leaves 3-letter tokens alone
    assert porter.PorterStemmer().stem("has") == "ha"
    assert rouge.rouge_tokens("has cats running", stemmer=True) == ("has", "cat", "run")
    assert rouge_n("has", ["ha"], 1, stemmer=True).fmeasure == 0
    # "the cats were running" vs "the cat runs": stems the cat were run / the cat run -> 3 hits, P 3/4, R 3/3
    r = rouge_n("the cats were running", ["the cat runs"], 1, stemmer=True)
    assert math.isclose(r.precision, 3 / 4) and math.isclose(r.recall, 1.0)
    assert math.isclose(rouge_n("the cats were running", ["the cat runs"], 1).recall, 1 / 3)


# --------------------------------------------------------------------------------------------------------
# ROUGE-N details
# --------------------------------------------------------------------------------------------------------
def test_rouge_n_clips_repeated_ngrams():
    # "the the the" vs "the cat": "the" counts min(3, 1) = 1 -> P 1/3, R 1/2 (unclipped would claim 3/2 recall)
    r = rouge_n("the the the", ["the cat"], 1)
    assert r.stats.matches == 1
    assert math.isclose(r.precision, 1 / 3) and math.isclose(r.recall, 1 / 2)


def test_hypothesis_shorter_than_n_scores_zero():
    r = rouge_n("cat", ["the cat"], 2)
    assert (r.stats.matches, r.stats.hyp_len, r.stats.ref_len) == (0, 0, 1)
    assert r.fmeasure == 0


def test_beta_weights_recall():
    # hyp "a b" vs ref "a c d e": P = 1/2, R = 1/4; beta 2: (1 + 4)(1/2)(1/4) / (4 * 1/2 + 1/4) = 0.625 / 2.25
    r = rouge_n("a b", ["a c d e"], 1, beta=2)
    assert math.isclose(r.fmeasure, 0.625 / 2.25, rel_tol=TOL)
    # beta 1 is the harmonic mean 2PR / (P + R) = 0.25 / 0.75
    assert math.isclose(rouge_n("a b", ["a c d e"], 1).fmeasure, 1 / 3, rel_tol=TOL)


# --------------------------------------------------------------------------------------------------------
# Several references
# --------------------------------------------------------------------------------------------------------
REFS3 = ["a b c d", "a b x y", "x y z w"]  # against "a b c d": ROUGE-1 F = 1, 1/2, 0


def test_aggregations_by_hand():
    hyp = "a b c d"
    assert math.isclose(rouge_n(hyp, REFS3, 1).fmeasure, 1.0)
    assert rouge_n(hyp, REFS3, 1).reference == 0
    assert math.isclose(rouge_n(hyp, REFS3, 1, aggregation="mean").fmeasure, (1 + 0.5 + 0) / 3)
    # jackknife: leave out ref0 -> best(1/2, 0) = 1/2; leave out ref1 -> 1; leave out ref2 -> 1; mean 2.5/3
    assert math.isclose(rouge_n(hyp, REFS3, 1, aggregation="jackknife").fmeasure, 2.5 / 3)
    # pooled (ROUGE-1.5.5 -f A): hits 4 + 2 + 0 = 6 over 12 reference and 12 hypothesis unigrams
    pooled = rouge_n(hyp, REFS3, 1, aggregation="pooled")
    assert (pooled.stats.matches, pooled.stats.hyp_len, pooled.stats.ref_len) == (6, 12, 12)
    assert math.isclose(pooled.fmeasure, 0.5)


def test_best_takes_first_reference_on_a_tie_and_jackknife_of_one_reference_is_the_score():
    r = rouge_n("a b", ["a x", "b y"], 1)  # both F = 1/2
    assert r.reference == 0
    one = rouge_n("a b", ["a x"], 1, aggregation="jackknife")
    assert math.isclose(one.fmeasure, 0.5)


@pytest.mark.conformance
def test_best_keeps_the_whole_triple_of_the_best_f():
    # ref0 has the higher recall, ref1 the higher F: all three numbers come from ref1, like score_multi
    hyp, refs = "a b c", ["a", "a b c d"]
    theirs = rouge_scorer.RougeScorer(["rouge1"]).score_multi(refs, hyp)["rouge1"]
    ours = rouge_n(hyp, refs, 1)
    assert ours.reference == 1
    assert all(math.isclose(a, b) for a, b in zip(theirs, (ours.precision, ours.recall, ours.fmeasure)))


# --------------------------------------------------------------------------------------------------------
# ROUGE-L and Lsum
# --------------------------------------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from("abcd"), max_size=12), st.lists(st.sampled_from("abcd"), max_size=12))
def test_fast_lcs_length_equals_the_table(ref, hyp):
    table = lcs_table(hyp, ref)  # rows: reference, columns: hypothesis
    assert len(table) == len(ref) + 1 and len(table[0]) == len(hyp) + 1
    assert bit_parallel_lcs_length(hyp, ref) == lcs_length(hyp, ref) == table[-1][-1]
    path = lcs_path(hyp, ref, table)
    assert len(path) == table[-1][-1]
    assert all(ref[i] == hyp[j] for i, j in path)
    assert all(a[0] < b[0] and a[1] < b[1] for a, b in zip(path, path[1:]))


def test_rouge_l_readable_by_default_and_fast_on_request_give_the_same_scores(jfleg_test):
    for src, refs in zip(jfleg_test.sources[:300], jfleg_test.references[:300]):
        for stemmer in (False, True):
            readable = rouge_l(src, refs, stemmer=stemmer)
            assert rouge_l(src, refs, stemmer=stemmer, fast=True) == readable
            assert readable.stats == rouge.lcs_stats(rouge.rouge_tokens(src, stemmer=stemmer),
                                                     rouge.rouge_tokens(refs[readable.reference], stemmer=stemmer))


def test_rouge_l_runs_the_readable_table_unless_fast(monkeypatch):
    import evalkit.fast

    calls = []
    original = evalkit.fast.bit_parallel_lcs_length
    monkeypatch.setattr(evalkit.fast, "bit_parallel_lcs_length", lambda h, r: calls.append(1) or original(h, r))
    rouge_l("the cat sat", ["the cat is here"])
    assert calls == []
    rouge_l("the cat sat", ["the cat is here"], fast=True)
    assert calls == [1]


def test_union_lcs_takes_the_hypothesis_sentences_first():
    r = ["w1", "w2", "w3", "w4", "w5"]
    c = [["w1", "w2", "w6", "w7", "w8"], ["w1", "w3", "w8", "w9", "w5"]]
    assert union_lcs(c, r) == [0, 1, 2, 4]  # Lin (2004), section 3.2: w1 w2 w3 w5


@pytest.mark.conformance
def test_lsum_union_lcs_example_of_lin_2004():
    # Lin (2004), section 3.2: r = w1..w5, c1 = w1 w2 w6 w7 w8, c2 = w1 w3 w8 w9 w5.
    # LCS(r, c1) = w1 w2, LCS(r, c2) = w1 w3 w5, union = w1 w2 w3 w5 -> 4 hits; R = 4/5, P = 4/10.
    r = "w1 w2 w3 w4 w5"
    c = "w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5"
    result = rouge_lsum(c, [r])
    assert (result.stats.matches, result.stats.hyp_len, result.stats.ref_len) == (4, 10, 5)
    assert math.isclose(result.recall, 4 / 5) and math.isclose(result.precision, 4 / 10)
    theirs = rouge_scorer.RougeScorer(["rougeLsum"]).score(r, c)["rougeLsum"]
    assert math.isclose(theirs.fmeasure, result.fmeasure, rel_tol=TOL)


def test_lsum_clips_tokens_used_by_several_reference_sentences():
    # two reference sentences "a b" and "a c" both take the single "a" of the hypothesis: only one hit for
    # "a" (the hypothesis has one), plus "b" -> 2 hits of 3 hypothesis and 4 reference tokens
    s = summary_lcs_stats([("a", "b")], [("a", "b"), ("a", "c")])
    assert (s.matches, s.hyp_len, s.ref_len) == (2, 2, 4)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["the", "cat", "sat", "on", "mat", "a"]), max_size=10),
       st.lists(st.sampled_from(["the", "cat", "sat", "on", "mat", "a"]), max_size=10))
def test_lsum_without_newlines_equals_rouge_l(hyp, ref):
    h, r = " ".join(hyp), " ".join(ref)
    a, b = rouge_lsum(h, [r]), rouge_l(h, [r])
    assert math.isclose(a.fmeasure, b.fmeasure) and math.isclose(a.recall, b.recall)


def test_lsum_ignores_sentence_order_where_rouge_l_does_not():
    h, r = "the cat sat\non the mat", "on the mat\nthe cat sat"
    assert math.isclose(rouge_lsum(h, [r]).fmeasure, 1.0)
    assert math.isclose(rouge_l(h, [r]).fmeasure, 0.5)  # LCS "the cat sat" or "on the mat": 3 of 6


# --------------------------------------------------------------------------------------------------------
# ROUGE-W (Lin 2004, section 4): hand-computed
# --------------------------------------------------------------------------------------------------------
def test_rouge_w_example_of_lin_2004():
    # X = A B C D E F G; Y1 = A B C D H I K has one run of 4 matches, Y2 = A H B K C I D four runs of 1.
    # Both have LCS 4 (ROUGE-L 4/7), but WLCS(X, Y1) = f(4) = 4^1.2 and WLCS(X, Y2) = 4 f(1) = 4.
    x = "a b c d e f g"
    y1, y2 = "a b c d h i k", "a h b k c i d"
    assert math.isclose(rouge_l(y1, [x]).fmeasure, rouge_l(y2, [x]).fmeasure)
    w1, w2 = rouge_w(y1, [x]), rouge_w(y2, [x])
    assert math.isclose(w1.stats.matches, 4**1.2, rel_tol=TOL)
    assert math.isclose(w2.stats.matches, 4.0, rel_tol=TOL)
    # R = f^-1(WLCS / f(7)) = (4^1.2 / 7^1.2)^(1/1.2) = 4/7 for Y1; (4 / 7^1.2)^(1/1.2) = 4^(1/1.2) / 7 for Y2
    assert math.isclose(w1.recall, 4 / 7, rel_tol=TOL) and math.isclose(w1.precision, 4 / 7, rel_tol=TOL)
    assert math.isclose(w2.recall, 4 ** (1 / 1.2) / 7, rel_tol=TOL)  # 0.4536
    assert w1.fmeasure > w2.fmeasure


def test_rouge_w_gap_in_the_hypothesis_breaks_the_run():
    # X = "a b", Y = "a x b": the match of b at (2, 3) follows a non-match cell, so its run restarts:
    # WLCS = f(1) + f(1) = 2; R = (2 / 2^1.2)^(1/1.2), P = (2 / 3^1.2)^(1/1.2)
    r = rouge_w("a x b", ["a b"])
    assert math.isclose(r.stats.matches, 2.0, rel_tol=TOL)
    assert math.isclose(r.recall, (2 / 2**1.2) ** (1 / 1.2), rel_tol=TOL)
    assert math.isclose(r.precision, (2 / 3**1.2) ** (1 / 1.2), rel_tol=TOL)
    # weight 2: runs a b c | d e in "a b c x d e" vs "a b c d e": WLCS = 9 + 4 = 13, R = sqrt(13 / 25)
    assert math.isclose(rouge_w("a b c x d e", ["a b c d e"], weight=2).recall, math.sqrt(13 / 25), rel_tol=TOL)


def test_rouge_w_with_weight_one_is_rouge_l(jfleg_test):
    for src, refs in zip(jfleg_test.sources[:100], jfleg_test.references[:100]):
        a, b = rouge_w(src, refs, weight=1), rouge_l(src, refs)
        assert math.isclose(a.fmeasure, b.fmeasure, rel_tol=1e-9, abs_tol=1e-12)


W155 = {"convention": "rouge-1.5.5"}


def test_rouge_w_rouge155_reproduces_the_scripts_printed_value():
    # ROUGE-1.5.5 prints ROUGE-W-1.2 R = 0.72478, P = 1.0, F = 0.84043 for "a b c d e" against itself
    # (reported in tagucci/pythonrouge issue #14).  By hand: hits = f(5) = 5^1.2; the script's recall base
    # is f(f(5)) = 5^1.44, so R = (5^1.2 / 5^1.44)^(1/1.2) = 5^-0.2; P = (5^1.2 / 5^1.2)^(1/1.2) = 1.
    r = rouge_w("a b c d e", ["a b c d e"], **W155)
    assert math.isclose(r.recall, 5**-0.2, rel_tol=TOL)
    assert math.isclose(r.recall, 0.72478, abs_tol=5e-6) and math.isclose(r.precision, 1.0, rel_tol=TOL)
    assert math.isclose(r.fmeasure, 0.84043, abs_tol=5e-6)
    # Lin's definition gives identical texts 1
    assert math.isclose(rouge_w("a b c d e", ["a b c d e"]).fmeasure, 1.0, rel_tol=TOL)


def test_rouge_w_rouge155_weighs_runs_of_reference_positions():
    # "a x b" vs reference "a b".  WLCS table (rows a, b; columns a, x, b): c[2][3] = c[1][2] + f(1) = 2.
    # Read back from (2, 3): b = b (mark ref 1); at (1, 2) the cell above (0) < the left one (1): go left;
    # (1, 1) a = a (mark ref 0).  Marked reference positions 0, 1 form one run of 2: hits = f(2) = 2^1.2.
    # R = f^-1(f(2) / f(f(2))) = (2^1.2 / 2^1.44)^(1/1.2) = 2^-0.2; P = f^-1(f(2) / f(3)) = 2/3.
    r = rouge_w("a x b", ["a b"], **W155)
    assert math.isclose(r.stats.matches, 2**1.2, rel_tol=TOL)
    assert math.isclose(r.recall, 2**-0.2, rel_tol=TOL) and math.isclose(r.precision, 2 / 3, rel_tol=TOL)
    # the paper's table: WLCS = f(1) + f(1) = 2, R = (2 / 2^1.2)^(1/1.2)
    assert math.isclose(rouge_w("a x b", ["a b"]).recall, (2 / 2**1.2) ** (1 / 1.2), rel_tol=TOL)


def test_rouge_w_rouge155_sums_over_reference_lines():
    # reference lines "a b" and "c d", hypothesis "a b c d" on one line: each reference line is one run of 2,
    # hits = 2 f(2) = B, the per-line base; R = f^-1(B / f(B)) = B^(1/1.2 - 1); P = f^-1(2 f(2) / f(4))
    b = 2 * 2**1.2
    r = rouge_w("a b c d", ["a b\nc d"], **W155)
    assert math.isclose(r.stats.matches, b, rel_tol=TOL)
    assert math.isclose(r.recall, b ** (1 / 1.2 - 1), rel_tol=TOL)
    assert math.isclose(r.precision, (b / 4**1.2) ** (1 / 1.2), rel_tol=TOL)  # = 2^(1/1.2) / 2
    # the paper's definition reads both texts as one sequence: a single run of 4 on both sides
    assert math.isclose(rouge_w("a b c d", ["a b\nc d"]).fmeasure, 1.0, rel_tol=TOL)


def test_rouge_w_rouge155_clips_repeated_tokens():
    # reference "a a", hypothesis "a": the path marks reference position 1 only (c[2][1] takes the diagonal);
    # hits = f(1) = 1, R = f^-1(1 / f(f(2))) = 2^-1.2, P = f^-1(1 / f(1)) = 1
    r = rouge_w("a", ["a a"], **W155)
    assert r.stats.matches == 1
    assert math.isclose(r.recall, 2**-1.2, rel_tol=TOL) and math.isclose(r.precision, 1.0, rel_tol=TOL)
    # hypothesis "a b a b" vs reference "a b": both tokens credited once, one run of 2: P = f^-1(f(2)/f(4)) = 1/2
    r = rouge_w("a b a b", ["a b"], **W155)
    assert math.isclose(r.stats.matches, 2**1.2) and math.isclose(r.precision, 0.5, rel_tol=TOL)


def test_rouge_w_conventions_on_lins_example():
    # Y2 = "a h b k c i d" matches reference positions 0, 1, 2, 3: consecutive in the reference, scattered in
    # the hypothesis.  The script only looks at reference positions, so it sees one run of 4 for Y2, just
    # as for Y1 = "a b c d h i k": hits = f(4) for both (R = 4^1.2 / 7^1.44 under f^-1 = 4 / 7^1.2), while
    # the paper's table separates them (4/7 and 4^(1/1.2) / 7).
    x = "a b c d e f g"
    for y in ("a b c d h i k", "a h b k c i d"):
        r = rouge_w(y, [x], **W155)
        assert math.isclose(r.stats.matches, 4**1.2, rel_tol=TOL)
        assert math.isclose(r.recall, 4 / 7**1.2, rel_tol=TOL)
    assert math.isclose(rouge_w("a h b k c i d", [x]).recall, 4 ** (1 / 1.2) / 7, rel_tol=TOL)


@pytest.mark.conformance
def test_rouge_w_rouge155_with_weight_one_is_rouge_l_on_single_lines(jfleg_dev):
    # with f(k) = k every credited position adds 1; for one line against one line nothing is clipped, so the
    # script's W-1 is the LCS count: rouge-score's rougeL, a check of the path read back from the table
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    for src, refs in zip(jfleg_dev.sources[:150], jfleg_dev.references[:150]):
        for ref in refs:
            theirs = scorer.score(ref, src)["rougeL"]
            ours = rouge_w(src, [ref], weight=1, **W155)
            for a, b in zip(theirs, (ours.precision, ours.recall, ours.fmeasure)):
                assert math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def test_rouge_w_rouge155_loses_a_run_that_ends_on_a_clipped_token():
    # hypothesis "a b", reference lines "b" and "a b".  Line 1: "b" is credited (run of 1, added at the line
    # end).  Line 2: "a" is credited (run 1, and the next position is marked, so the run goes on); "b" is
    # marked but the hypothesis has no "b" left, so it is not credited, and the script only closes a run at
    # a credited position: the run of "a" is never added.  hits = 1 (the union-LCS count would be 2).
    r = rouge_w("a b", ["b\na b"], weight=1, **W155)
    assert r.stats.matches == 1
    assert rouge_lsum("a b", ["b\na b"]).stats.matches == 2


def test_rouge_su_rouge155_skips_the_last_unigram():
    # S2 vs S1, any gap: 6 skip-bigrams + unigrams of the first 3 tokens only = 9 units per side;
    # hits: 3 skip-bigrams + "police", "the" = 5 -> 5/9 (Lin's convention: 6/10)
    r = rouge_su("police kill the gunman", [S1], max_skip=None, **W155)
    assert (r.stats.matches, r.stats.hyp_len, r.stats.ref_len) == (5, 9, 9)
    assert math.isclose(r.fmeasure, 5 / 9, rel_tol=TOL)
    # a one-word text has no unit at all under the script's loop
    assert rouge_su("police", ["police"], **W155).fmeasure == 0
    assert math.isclose(rouge_su("police", ["police"]).fmeasure, 1.0)


# --------------------------------------------------------------------------------------------------------
# ROUGE-S and SU (Lin 2004, section 5): hand-computed
# --------------------------------------------------------------------------------------------------------
S1 = "police killed the gunman"


@pytest.mark.parametrize(
    "hyp, hits",
    [
        # skip-bigrams shared with S1: police-the, police-gunman, the-gunman
        ("police kill the gunman", 3),
        # only the-gunman
        ("the gunman kill police", 1),
        # the-gunman and police-killed
        ("the gunman police killed", 2),
    ],
)
def test_rouge_s_examples_of_lin_2004(hyp, hits):
    # 4 words give C(4, 2) = 6 skip-bigrams on each side; Lin reports 0.5, 0.167, 0.333 with beta = 1
    r = rouge_s(hyp, [S1], max_skip=None)
    assert (r.stats.matches, r.stats.hyp_len, r.stats.ref_len) == (hits, 6, 6)
    assert math.isclose(r.fmeasure, hits / 6, rel_tol=TOL)


def test_rouge_su_adds_unigrams():
    # S2 vs S1 with any gap: 3 skip-bigrams + 3 unigrams (police, the, gunman) = 6 of 6 + 4 = 10 units
    r = rouge_su("police kill the gunman", [S1], max_skip=None)
    assert (r.stats.matches, r.stats.hyp_len) == (6, 10)
    assert math.isclose(r.fmeasure, 0.6, rel_tol=TOL)
    # S5 = "gunman the killed police" shares no skip-bigram with S1 (ROUGE-S 0) but SU credits its words
    assert rouge_s("gunman the killed police", [S1], max_skip=None).fmeasure == 0
    assert math.isclose(rouge_su("gunman the killed police", [S1], max_skip=None).fmeasure, 4 / 10)


def test_skip_distance_limits_the_pairs():
    # "a b c d e" with max_skip 1: pairs with at most one word between: ab ac bc bd cd ce de = 7
    assert len(rouge.skip_bigrams(list("abcde"), 1)) == 7
    # hypothesis "a x x b" vs reference "a b": the pair (a, b) has 2 words between -> S1 misses it, S2 has it
    assert rouge_s("a x x b", ["a b"], max_skip=1).stats.matches == 0
    assert rouge_s("a x x b", ["a b"], max_skip=2).stats.matches == 1


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from("abcdef"), max_size=12), st.one_of(st.none(), st.integers(0, 6)))
def test_skip_bigram_count_formula(tokens, max_skip):
    m = len(tokens)
    expected = m * (m - 1) // 2 if max_skip is None else sum(min(max_skip + 1, m - 1 - i) for i in range(m))
    assert len(rouge.skip_bigrams(tokens, max_skip)) == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from("abcd"), max_size=10), st.lists(st.sampled_from("abcd"), max_size=10))
def test_su_is_lins_start_marker_definition_for_any_gap(hyp, ref):
    # Lin (2004): ROUGE-SU = ROUGE-S after adding a begin-of-sentence marker to both sides
    su = skip_bigram_stats(hyp, ref, None, unigrams=True)
    marked = skip_bigram_stats(["<s>", *hyp], ["<s>", *ref], None)
    assert (su.matches, su.hyp_len, su.ref_len) == (marked.matches, marked.hyp_len, marked.ref_len)


def test_rouge_s0_is_rouge_2(jfleg_test):
    for src, refs in zip(jfleg_test.sources[:200], jfleg_test.references[:200]):
        a, b = rouge_s(src, refs, max_skip=0), rouge_n(src, refs, 2)
        assert math.isclose(a.fmeasure, b.fmeasure, rel_tol=TOL, abs_tol=TOL)


# --------------------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------------------
WORDS = st.lists(st.sampled_from(["the", "cat", "sat", "on", "mat", "a", "dog", "ran"]), max_size=12)
SCORERS = {
    "rouge1": lambda h, r: rouge_n(h, r, 1),
    "rouge2": lambda h, r: rouge_n(h, r, 2),
    "rougeL": rouge_l,
    "rougeLsum": rouge_lsum,
    "rougeW": rouge_w,
    "rougeS4": rouge_s,
    "rougeSU4": rouge_su,
    "rougeS*": lambda h, r: rouge_s(h, r, max_skip=None),
}


@settings(max_examples=60, deadline=None)
@given(WORDS, st.lists(WORDS, min_size=1, max_size=3), st.sampled_from(rouge.AGGREGATIONS),
       st.floats(0.25, 4))
def test_scores_are_in_range_and_f_lies_between_p_and_r(hyp, refs, aggregation, beta):
    h, rs = " ".join(hyp), [" ".join(r) for r in refs]
    for name, scorer in SCORERS.items():
        for r in (scorer(h, rs), rouge_n(h, rs, 1, aggregation=aggregation, beta=beta)):
            for v in (r.precision, r.recall, r.fmeasure):
                assert 0 <= v <= 1 + 1e-12, name
            if aggregation != "mean" and aggregation != "jackknife":  # a mean of Fs need not lie between
                assert min(r.precision, r.recall) - 1e-12 <= r.fmeasure <= max(r.precision, r.recall) + 1e-12


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["the", "cat", "sat", "on", "mat", "a"]), min_size=2, max_size=12))
def test_identical_texts_score_one(words):
    text = " ".join(words)
    for name, scorer in SCORERS.items():
        assert math.isclose(scorer(text, [text]).fmeasure, 1.0, rel_tol=1e-12), name


@pytest.mark.parametrize("name", list(SCORERS))
@pytest.mark.parametrize("hyp", ["", "   ", "!!! ...", "\n\n"])
def test_empty_hypothesis_scores_zero(name, hyp):
    r = SCORERS[name](hyp, ["the cat sat on the mat"])
    assert (r.precision, r.recall, r.fmeasure) == (0.0, 0.0, 0.0)


@pytest.mark.conformance
def test_empty_hypothesis_scores_zero_in_rouge_score_too():
    theirs = rouge_scorer.RougeScorer(TYPES).score("the cat sat", "")
    assert all(theirs[t].fmeasure == 0 for t in TYPES)


def test_results_are_immutable_and_inputs_untouched():
    refs = ["the cat is on the mat", "a cat"]
    copy = list(refs)
    r = rouge_n("the cat sat on the mat", refs, 1)
    assert refs == copy
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.fmeasure = 1.0  # type: ignore[misc]
    assert float(r) == r.fmeasure
    assert repr(r) == "RougeScore(rouge1: P=0.8333, R=0.8333, F=0.8333)"


def test_stats_add_and_rescore_without_recounting():
    a = rouge_n("the cat sat", ["the cat"], 1).stats
    b = rouge_n("a dog", ["a big dog"], 1).stats
    total = a + b
    assert (total.matches, total.hyp_len, total.ref_len, total.segments) == (4, 5, 5, 2)
    assert sum([a, b]) == total
    # re-scoring the same counts with another beta
    assert math.isclose(score_stats(total, beta=2).fmeasure, 0.8)


# --------------------------------------------------------------------------------------------------------
# Corpus level
# --------------------------------------------------------------------------------------------------------
@pytest.mark.conformance
def test_corpus_mean_equals_mean_of_rouge_score_segments(jfleg_test):
    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
    theirs = [scorer.score_multi(refs, src)["rougeL"] for src, refs in zip(jfleg_test.sources, jfleg_test.references)]
    ours = corpus_rouge(jfleg_test.sources, jfleg_test.references, "rougeL", stemmer=True, n_samples=200)
    assert math.isclose(ours.estimate.fmeasure, math.fsum(s.fmeasure for s in theirs) / len(theirs), rel_tol=1e-12)
    assert math.isclose(ours.estimate.recall, math.fsum(s.recall for s in theirs) / len(theirs), rel_tol=1e-12)
    assert ours.low.fmeasure < ours.estimate.fmeasure < ours.high.fmeasure


def test_bootstrap_is_seeded_and_micro_scores_summed_counts(jfleg_dev):
    hyps, refs = jfleg_dev.sources[:200], jfleg_dev.references[:200]
    a = corpus_rouge(hyps, refs, "rouge2", n_samples=300, seed=3)
    b = corpus_rouge(hyps, refs, "rouge2", n_samples=300, seed=3)
    c = corpus_rouge(hyps, refs, "rouge2", n_samples=300, seed=4)
    assert (a.low, a.high) == (b.low, b.high)
    assert (a.low, a.high) != (c.low, c.high)
    micro = corpus_rouge(hyps, refs, "rouge2", average="micro", n_samples=300)
    summed = sum(s.stats for s in micro.segments)
    assert math.isclose(micro.estimate.recall, summed.matches / summed.ref_len, rel_tol=1e-12)
    assert micro.low.fmeasure <= micro.estimate.fmeasure <= micro.high.fmeasure
    # the corpus score does not depend on segment order
    rev = corpus_rouge(hyps[::-1], refs[::-1], "rouge2", average="micro", n_samples=10)
    assert math.isclose(rev.estimate.fmeasure, micro.estimate.fmeasure, rel_tol=1e-12)


def test_micro_bootstrap_of_rouge_w_uses_the_inverse_weight(jfleg_dev):
    r = corpus_rouge(jfleg_dev.sources[:50], jfleg_dev.references[:50], "rougeW", average="micro", n_samples=200)
    assert 0 < r.low.fmeasure <= r.estimate.fmeasure <= r.high.fmeasure <= 1


# --------------------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("scorer", [lambda h, r, **k: rouge_n(h, r, 1, **k), rouge_l, rouge_lsum, rouge_w, rouge_s,
                                    rouge_su])
def test_bad_input_raises_clear_errors(scorer):
    with pytest.raises(ValueError, match="empty"):
        scorer("a b", [])
    with pytest.raises(TypeError, match="None"):
        scorer(None, ["a b"])
    with pytest.raises(TypeError, match="None"):
        scorer("a b", None)
    with pytest.raises(TypeError, match=r"references\[1\] is None"):
        scorer("a b", ["a", None])
    with pytest.raises(TypeError, match="expected a string"):
        scorer(["a", "b"], ["a b"])
    with pytest.raises(TypeError, match="expected a string"):
        scorer("a b", [["a", "b"]])
    with pytest.raises(TypeError, match="single string"):
        scorer("a b", "a b")
    with pytest.raises(ValueError, match="unknown tokenizer 'spacy'.*'rouge-score'.*'unicode'"):
        scorer("a b", ["a b"], tokenize="spacy")
    with pytest.raises(ValueError, match="unknown aggregation 'max'.*'best'"):
        scorer("a b", ["a b"], aggregation="max")
    with pytest.raises(TypeError, match="stemmer"):
        scorer("a b", ["a b"], stemmer="yes")
    with pytest.raises(ValueError, match="beta"):
        scorer("a b", ["a b"], beta=0)


def test_bad_n_skip_and_weight():
    for n in (0, -1):
        with pytest.raises(ValueError, match="n must be at least 1"):
            rouge_n("a b", ["a b"], n)
    with pytest.raises(TypeError, match="n must be an int"):
        rouge_n("a b", ["a b"], 1.0)
    for f in (rouge_s, rouge_su):
        with pytest.raises(ValueError, match="max_skip must be >= 0"):
            f("a b", ["a b"], max_skip=-1)
        with pytest.raises(TypeError, match="max_skip"):
            f("a b", ["a b"], max_skip=2.5)
    with pytest.raises(ValueError, match="weight"):
        rouge_w("a b", ["a b"], weight=0)
    with pytest.raises(ValueError, match="unknown convention 'perl'.*'lin2004'.*'rouge-1.5.5'"):
        rouge_w("a b", ["a b"], convention="perl")
    with pytest.raises(ValueError, match="unknown convention"):
        rouge_su("a b", ["a b"], convention="perl")
    with pytest.raises(ValueError, match="unknown ROUGE variant 'rougeX'"):
        corpus_rouge(["a"], [["a"]], "rougeX")
    with pytest.raises(ValueError, match="lengths differ"):
        corpus_rouge(["a", "b"], [["a"]], "rouge1")
    with pytest.raises(ValueError, match="unknown average"):
        corpus_rouge(["a"], [["a"]], "rouge1", average="macro")
    with pytest.raises(ValueError, match="needs counts"):
        corpus_rouge(["a"], [["a", "b"]], "rouge1", average="micro", aggregation="mean")
    with pytest.raises(TypeError, match="RougeStats"):
        score_stats((1, 2, 3))


def test_rouge_stats_refuse_mixed_weights():
    with pytest.raises(ValueError, match="weights"):
        RougeStats(1, 2, 2, 1.2) + RougeStats(1, 2, 2, 1.0)


# --------------------------------------------------------------------------------------------------------
# Lesson views (tables and plots)
# --------------------------------------------------------------------------------------------------------
def test_lcs_table_view_and_path():
    from evalkit.tables import rouge_lcs_table, rouge_ngram_table

    df = rouge_lcs_table("the cat sat on the mat", "the cat is on the mat")
    assert df.shape == (7, 7)
    assert df.iat[-1, -1] == 5 == df.attrs["length"]
    assert df.attrs["lcs"] == ["the", "cat", "on", "the", "mat"]
    assert df.attrs["path"] == [(1, 1), (2, 2), (4, 4), (5, 5), (6, 6)]
    ng = rouge_ngram_table("the cat sat on the mat", "the cat is on the mat", 2)
    assert ng["matched"].sum() == 3 == ng.attrs["matches"]
    assert ng["hyp"].sum() == 5 and ng["ref"].sum() == 5
    assert math.isclose(ng.attrs["fmeasure"], 0.6)


def test_lcs_heatmap_draws_the_path():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from evalkit.plots import plot_lcs_table

    ax = plot_lcs_table("the cat sat on the mat", "the cat is on the mat")
    xs, ys = ax.lines[0].get_data()
    cells = list(zip(ys, xs))  # (row, column)
    assert cells[0] == (0, 0) and cells[-1] == (6, 6)
    for cell in [(1, 1), (2, 2), (4, 4), (5, 5), (6, 6)]:
        assert cell in cells
    # each step moves one cell up, left or diagonally
    assert all(0 <= r2 - r1 <= 1 and 0 <= c2 - c1 <= 1 for (r1, c1), (r2, c2) in zip(cells, cells[1:]))
    assert len(ax.texts) == 49
    plt.close("all")


def test_variant_bar_plot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from evalkit.plots import plot_rouge_variants

    res = {v: corpus_rouge(["the cat sat"], [["the cat"]], v, n_samples=20) for v in ["rouge1", "rougeL"]}
    ax = plot_rouge_variants(res)
    heights = [p.get_height() for p in ax.patches]
    assert all(math.isclose(h, res[v].estimate.fmeasure) for h, v in zip(heights, res))
    plt.close("all")


def test_importing_rouge_is_light():
    import subprocess
    import sys

    code = "import sys, evalkit.rouge; print(any(m in sys.modules for m in ('pandas', 'matplotlib')))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"


def test_docstring_examples():
    import doctest

    result = doctest.testmod(rouge)
    assert result.attempted >= 20 and result.failed == 0


# --- text that rouge-score's tokenizer empties (or Chinese left unsplit) is named, once per call -----------
RU, HI = "Кошка сидит на ковре", "बिल्ली चटाई पर बैठी है"
ZH_HYP, ZH_REF = "猫坐在垫子上。", "猫坐在椅子上。"
EVERY_ROUGE = {
    "rouge_n": lambda h, r, **kw: rouge_n(h, r, 2, **kw),
    "rouge_l": rouge_l,
    "rouge_lsum": rouge_lsum,
    "rouge_w": rouge_w,
    "rouge_w 1.5.5": lambda h, r, **kw: rouge_w(h, r, convention="rouge-1.5.5", **kw),
    "rouge_s": rouge_s,
    "rouge_su": rouge_su,
    "rouge_scores": lambda h, r, **kw: rouge_many.rouge_scores(h, r, **kw),
    "rouge_scores_many": lambda h, r, **kw: rouge_many.rouge_scores_many([h, h], [r, r], **kw),
}


def tokenization_warnings(fn, *args, **kwargs):
    """(fn's result, the TokenizationWarnings it gave), every warning shown ("always")."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args, **kwargs)
    return result, [w for w in caught if issubclass(w.category, TokenizationWarning)]


@pytest.mark.parametrize("name", EVERY_ROUGE)
@pytest.mark.parametrize("text, option", [(RU, 'tokenize="unicode"'), (HI, 'tokenize="unicode"'),
                                          (ZH_HYP, 'tokenize="unicode-cjk"')])
def test_every_rouge_function_warns_once_when_rouge_score_drops_every_letter(name, text, option):
    score = EVERY_ROUGE[name]
    _, caught = tokenization_warnings(score, text, [text, "the cat", text])
    assert len(caught) == 1, [str(w.message) for w in caught]
    message = str(caught[0].message)
    assert 'tokenize="rouge-score" found no token in' in message and repr(text) in message
    assert f"Use {option}" in message
    assert caught[0].filename == __file__  # the caller's line


@pytest.mark.parametrize("name", EVERY_ROUGE)
@pytest.mark.parametrize(
    "hyp, ref, tokenize",
    [
        ("the cat sat on the mat", "the cat is on the mat", "rouge-score"),
        ("Über die Brücke gehen wir später", "Wir gehen später über die Brücke", "rouge-score"),
        ("Le café était très réputé", "Le café est réputé", "rouge-score"),
        (RU, "Кошка сидит на стуле", "unicode"),
        (HI, HI, "unicode"),
        ("猫 坐 在 垫子 上", "猫 坐 在 椅子 上", "unicode"),  # already segmented into words
        (ZH_HYP, ZH_REF, "unicode-cjk"),
    ],
)
def test_no_tokenization_warning_where_tokens_are_left(name, hyp, ref, tokenize):
    _, caught = tokenization_warnings(EVERY_ROUGE[name], hyp, [ref], tokenize=tokenize)
    assert caught == []


def test_unsplit_chinese_under_unicode_is_named_in_rouge_too():
    _, caught = tokenization_warnings(rouge_n, ZH_HYP, [ZH_REF], 1, tokenize="unicode")
    assert len(caught) == 1 and 'Use tokenize="zh"' in str(caught[0].message)
    assert 'or tokenize="unicode-cjk"' in str(caught[0].message)


@pytest.mark.conformance
def test_the_scores_are_unchanged_by_the_warning():
    import warnings

    for text in (RU, HI, ZH_HYP):
        theirs = rouge_scorer.RougeScorer(["rouge1", "rougeL"]).score(text, text)
        ours, caught = tokenization_warnings(rouge_many.rouge_scores, text, [text], ["rouge1", "rougeL"])
        assert len(caught) == 1
        for key in ("rouge1", "rougeL"):
            assert (ours[key].precision, ours[key].recall, ours[key].fmeasure) == tuple(theirs[key]) == (0, 0, 0)
        with warnings.catch_warnings():
            warnings.simplefilter("error", TokenizationWarning)  # were it raised, this would fail
            assert rouge_n(text, [text], 1, tokenize="unicode-cjk").fmeasure == 1.0


def test_rouge_scores_many_warns_once_for_a_whole_list_and_never_on_jfleg(jfleg_test):
    _, caught = tokenization_warnings(rouge_many.rouge_scores_many, [RU] * 20, [["the cat"]] * 20)
    assert len(caught) == 1 and "20 of the 40 texts checked" in str(caught[0].message)
    _, caught = tokenization_warnings(rouge_many.rouge_scores_many, jfleg_test.sources, jfleg_test.references)
    assert caught == []


def test_the_rouge_tables_warn_too():
    from evalkit.tables import rouge_lcs_table, rouge_ngram_table

    for table in (rouge_lcs_table, rouge_ngram_table):
        _, caught = tokenization_warnings(table, RU, RU)
        assert len(caught) == 1


@settings(max_examples=300, deadline=None)
@given(matches=st.integers(0, 50), extra_h=st.integers(0, 50), extra_r=st.integers(0, 50),
       beta=st.sampled_from([1.0, 2.0, 0.5, 1.2]))
def test_score_counts_is_score_stats_inlined(matches, extra_h, extra_r, beta):
    """rouge_many's hot path builds its results with rouge.score_counts; they equal score_stats's, field by field."""
    from evalkit.rouge import score_counts

    fast = score_counts(matches, matches + extra_h, matches + extra_r, beta, "rouge2")
    slow = score_stats(RougeStats(matches, matches + extra_h, matches + extra_r), beta=beta, variant="rouge2")
    assert fast == slow and fast.stats == slow.stats
    assert (fast.precision, fast.recall, fast.fmeasure) == (slow.precision, slow.recall, slow.fmeasure)


# ==========================================================================================================
# Moved from tests/test_fast_rouge.py:
# rouge_many.rouge_scores (profiles and engines of evalkit.fast) equals the readable rouge_n / rouge_l, and rouge-score.
# ==========================================================================================================
import evalkit  # noqa: E402
from evalkit import fast  # noqa: E402
from evalkit import tokenize  # noqa: E402


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


@pytest.mark.conformance
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


# ==========================================================================================================
# Moved from tests/test_bootstrap_memory.py (marks: hardening):
# The ROUGE bootstrap resamples in chunks: the same numbers as drawing every resample at once (so the
# lessons keep theirs), in memory proportional to the number of segments, not segments x resamples.
# (Issue 10: 1,000 resamples needed 3 GB at 100k segments and raised MemoryError at 150k.)
# ==========================================================================================================
import gc  # noqa: E402
import tracemalloc  # noqa: E402
import numpy as np  # noqa: E402
from evalkit import rouge_corpus  # noqa: E402
from evalkit.rouge import RougeScore  # noqa: E402


def all_at_once(segments, average, n_samples, confidence, seed):
    """The bootstrap as it was: the whole n_samples x n array of draws from one call, numpy throughout."""
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(segments), size=(n_samples, len(segments)))
    if average == "mean":
        estimates = np.array([[s.precision, s.recall, s.fmeasure] for s in segments])[draws].mean(axis=1)
    else:
        counts = np.array([[s.stats.matches, s.stats.hyp_len, s.stats.ref_len] for s in segments], dtype=float)
        summed = counts[draws].sum(axis=1)
        hits, hyp_len, ref_len = summed[:, 0], summed[:, 1], summed[:, 2]
        weight, b2 = segments[0].stats.weight, segments[0].beta ** 2
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(hyp_len > 0, (hits / np.where(hyp_len > 0, hyp_len, 1)) ** (1 / weight), 0.0)
            r = np.where(ref_len > 0, (hits / np.where(ref_len > 0, ref_len, 1)) ** (1 / weight), 0.0)
            f = np.where(b2 * p + r > 0, (1 + b2) * p * r / np.where(b2 * p + r > 0, b2 * p + r, 1), 0.0)
        estimates = np.stack([p, r, f], axis=1)
        # and those are what score_stats gives for the summed counts of each resample
        first = score_stats(RougeStats(*summed[0], weight=weight), beta=segments[0].beta)
        assert [first.precision, first.recall, first.fmeasure] == pytest.approx(estimates[0].tolist(), rel=1e-12)
    tail = (1 - confidence) / 2 * 100
    return np.percentile(estimates, [tail, 100 - tail], axis=0)


@pytest.mark.hardening
@pytest.mark.parametrize("average,variant", [("mean", "rouge1"), ("mean", "rougeL"), ("micro", "rouge2"),
                                             ("micro", "rougeW")])
def test_chunked_bootstrap_equals_all_at_once(average, variant, jfleg_dev, monkeypatch):
    segments = rouge_corpus.segment_scores(jfleg_dev.sources[:300], jfleg_dev.references[:300], variant)
    expected_low, expected_high = all_at_once(segments, average, 200, 0.9, 3)
    for chunk in (300, 1000, 7 * 300 + 1, 200 * 300):  # one resample, three, seven, all 200 in one chunk
        monkeypatch.setattr(rouge_corpus, "BOOTSTRAP_CHUNK", chunk)
        _, low, high, _ = rouge_corpus.bootstrap_interval(segments, average, n_samples=200, confidence=0.9, seed=3)
        assert [low.precision, low.recall, low.fmeasure] == pytest.approx(expected_low, rel=1e-12, abs=1e-15)
        assert [high.precision, high.recall, high.fmeasure] == pytest.approx(expected_high, rel=1e-12, abs=1e-15)
        # the very same floating-point operations: equal to the last bit
        assert [low.precision, low.recall, low.fmeasure, high.precision, high.recall, high.fmeasure] == [
            *expected_low.tolist(), *expected_high.tolist()]


def peak_bytes(fn) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.hardening
def test_bootstrap_memory_grows_with_segments_not_segments_times_samples():
    gen = np.random.default_rng(0)
    n = 50_000
    segments = [RougeScore(p, r, f, "rouge1", 1.0) for p, r, f in gen.random((n, 3)).tolist()]
    peak = peak_bytes(lambda: rouge_corpus.bootstrap_interval(segments, n_samples=1000))
    # All at once: 1000 x 50,000 int64 draws (400 MB) and the 1000 x 50,000 x 3 floats they gather (1.2 GB).
    # In chunks: the table of the segments and one chunk of 2**20 draws (~80 MB) whatever the resamples.
    assert peak < 2000 * n, f"peak {peak / 2**20:.0f} MB for {n} segments"
    fewer_samples = peak_bytes(lambda: rouge_corpus.bootstrap_interval(segments, n_samples=100))
    assert peak < 1.2 * fewer_samples, (peak, fewer_samples)  # ten times the resamples, the same memory


# ==========================================================================================================
# Moved from tests/test_hardening.py (marks: hardening):
# Regression tests for issue 10 ("Hardening and the house"): bad input gets a clear error or a correct
# score, and the peers' own APIs work where a user would expect them.
#
# Each group quotes the finding it pins.  Expected numbers are computed by hand in the test or by the peer
# library (NLTK, sacreBLEU, rouge-score, gleu) at test time.
# ==========================================================================================================
from hypothesis import example  # noqa: E402
from evalkit.protocol import f_score  # noqa: E402


# --------------------------------------------------------------------------------------------------------
# "ROUGE-W `weight=0.5` gives F = 1.65 and huge or tiny weights overflow; `beta=1e155` gives F = nan.
#  Scores stay in [0, 1] or the input is refused."
# --------------------------------------------------------------------------------------------------------


@pytest.mark.hardening
@pytest.mark.parametrize("weight", [0.5, 0.999, 1e-300, 0, -1, 10.5, 1e6, math.inf, math.nan])
@pytest.mark.parametrize("convention", ["lin2004", "rouge-1.5.5"])
def test_rouge_w_weights_outside_1_to_10_are_refused(weight, convention):
    with pytest.raises(ValueError, match="weight must be a number from 1 to 10"):
        rouge.rouge_w("a b c d e f", ["a b c x d e f"], weight=weight, convention=convention)


@pytest.mark.hardening
def test_rouge_w_weight_half_used_to_score_above_one():
    # the finding: f(k) = k ** 0.5 is subadditive, so scattered matches outweigh f(length)
    with pytest.raises(ValueError, match="Lin 2004"):
        rouge.rouge_w("a x b y c", ["a b c"], weight=0.5)


@pytest.mark.hardening
@pytest.mark.parametrize("weight", [1, 1.2, np.float32(2), 10])
def test_rouge_w_weights_in_range_are_accepted(weight):
    r = rouge.rouge_w("a b c d h i k", ["a b c d e f g"], weight=weight)
    assert math.isclose(r.recall, 4 / 7, rel_tol=1e-9)  # one run of 4: f^-1(f(4) / f(7)) = 4/7 for any f


@pytest.mark.hardening
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


@pytest.mark.hardening
@pytest.mark.parametrize("beta", [1e155, 1.5e154, math.inf, math.nan, 0, -1])
def test_betas_whose_square_overflows_are_refused(beta):
    for call in (lambda: rouge.rouge_l("a b", ["a c"], beta=beta), lambda: rouge.rouge_n("a b", ["a c"], 1, beta=beta),
                 lambda: rouge.score_stats(rouge.RougeStats(1, 2, 2), beta=beta)):
        with pytest.raises(ValueError, match="beta must be a positive finite number at most 1e"):
            call()


@pytest.mark.hardening
@settings(max_examples=200, deadline=None)
@given(p=st.floats(0, 1), r=st.floats(0, 1), beta=st.floats(min_value=1e-300, max_value=1e150))
@example(p=0.75, r=5e-324, beta=1e-300)  # found by hypothesis: beta ** 2 and P * R underflowed, F came out 1.0
def test_property_f_measure_is_between_precision_and_recall_for_any_allowed_beta(p, r, beta):
    f = f_score(p, r, beta)
    assert 0 <= f <= 1
    assert f <= max(p, r) * (1 + 1e-12)
    if min(p, r) > 1e-150:  # below that P * R underflows to 0 (counts never give such precisions)
        assert min(p, r) * (1 - 1e-12) <= f


@pytest.mark.hardening
def test_beta_at_the_bound_gives_recall():
    r = rouge.rouge_n("a b c d", ["a b x"], 1, beta=1e150)
    assert math.isclose(r.fmeasure, r.recall, rel_tol=1e-12)


# --------------------------------------------------------------------------------------------------------
# "`rouge_n(h, r, 10**7)` runs 6 s and `rouge_scores_many(..., ["rouge1000000"])` 34 s / 671 MB
#  (bound the order)"
# --------------------------------------------------------------------------------------------------------
@pytest.mark.hardening
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


@pytest.mark.conformance
@pytest.mark.hardening
def test_rouge_n_orders_up_to_nine_equal_rouge_score():
    from rouge_score import rouge_scorer

    from evalkit.rouge_many import rouge_scores

    text = "one two three four five six seven eight nine ten eleven"
    hyp, ref = text, text.replace("six", "6")
    theirs = rouge_scorer.RougeScorer(["rouge9"]).score(ref, hyp)["rouge9"]  # target first
    assert math.isclose(rouge.rouge_n(hyp, [ref], 9).fmeasure, theirs.fmeasure, rel_tol=1e-12)
    assert math.isclose(rouge_scores(hyp, [ref], ["rouge9"])["rouge9"].fmeasure, theirs.fmeasure, rel_tol=1e-12)


# --------------------------------------------------------------------------------------------------------
# "`bootstrap_interval([])` IndexError, a list of floats AttributeError, mixed variants accepted";
# peers' APIs: "`confidence=0` (low = mid = high), and the bootstrap "mid" as rouge-score reports it
# (median) beside evalkit's mean"
# --------------------------------------------------------------------------------------------------------

CORPUS_H = ["the cat sat on the mat", "a quick brown fox", "hello world", "one two three four", "x y z"]
CORPUS_R = [["the cat is on the mat"], ["the quick brown fox jumps"], ["hello there world"], ["one two four"],
            ["a b c"]]


@pytest.mark.hardening
@pytest.mark.parametrize("segments, error, message", [
    ([], ValueError, "segments is empty"),
    ([0.5, 0.7], TypeError, r"segments\[0\] is a float"),
    ("rouge1", TypeError, "segments must be a list"),
    (None, TypeError, "segments must be a list"),
])
def test_bootstrap_interval_refuses_bad_segments(segments, error, message):
    with pytest.raises(error, match=message):
        rouge_corpus.bootstrap_interval(segments)


@pytest.mark.hardening
def test_bootstrap_interval_refuses_mixed_variants_and_betas():
    ones = rouge_corpus.segment_scores(CORPUS_H[:2], CORPUS_R[:2], "rouge1")
    twos = rouge_corpus.segment_scores(CORPUS_H[:2], CORPUS_R[:2], "rouge2")
    beta2 = rouge_corpus.segment_scores(CORPUS_H[:2], CORPUS_R[:2], "rouge1", beta=2)
    with pytest.raises(ValueError, match=r"segments\[2\] is 'rouge2'"):
        rouge_corpus.bootstrap_interval(ones + twos)
    with pytest.raises(ValueError, match="one variant and one beta"):
        rouge_corpus.bootstrap_interval(ones + beta2)


@pytest.mark.hardening
@pytest.mark.parametrize("confidence, error", [(1, ValueError), (-0.1, ValueError), (math.nan, ValueError),
                                               (True, TypeError), ("0.9", TypeError)])
def test_bad_confidence_is_refused(confidence, error):
    with pytest.raises(error, match="confidence"):
        rouge_corpus.corpus_rouge(CORPUS_H, CORPUS_R, "rouge1", confidence=confidence, n_samples=10)


@pytest.mark.hardening
@pytest.mark.parametrize("average", ["mean", "micro"])
def test_confidence_zero_gives_low_equal_median_equal_high(average):
    r = rouge_corpus.corpus_rouge(CORPUS_H, CORPUS_R, "rouge1", confidence=0, n_samples=101, average=average)
    for field in ("precision", "recall", "fmeasure"):
        assert getattr(r.low, field) == getattr(r.median, field) == getattr(r.high, field)


@pytest.mark.conformance
@pytest.mark.hardening
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


@pytest.mark.hardening
def test_bootstrap_interval_returns_point_low_high_median():
    segments = rouge_corpus.segment_scores(CORPUS_H, CORPUS_R, "rouge1")
    out = rouge_corpus.bootstrap_interval(segments, n_samples=50)
    point, low, high, median = out
    assert out.median is median and low.fmeasure <= median.fmeasure <= high.fmeasure
    assert math.isclose(point.fmeasure, sum(s.fmeasure for s in segments) / len(segments))


# --------------------------------------------------------------------------------------------------------
# Peers' APIs: "rouge-score's `split_summaries` for Lsum".  rouge-score splits with nltk.sent_tokenize,
# which needs the downloaded Punkt model (absent here: evalkit never downloads); evalkit uses NLTK's Punkt
# class untrained.  rouge-score is run with its sent_tokenize replaced by that same splitter, which checks
# everything else (which text is split, empty sentences dropped, newlines as white space, the union LCS).
# --------------------------------------------------------------------------------------------------------
@pytest.mark.hardening
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


@pytest.mark.conformance
@pytest.mark.hardening
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


@pytest.mark.hardening
def test_split_summaries_through_corpus_rouge():
    hyps = ["the cat sat. the dog ran.", "one two three. four five six."]
    refs = [["the dog ran. the cat sat."], ["four five six. one two three."]]
    r = rouge_corpus.corpus_rouge(hyps, refs, "rougeLsum", split_summaries=True, n_samples=10)
    assert r.estimate.fmeasure == 1.0


@pytest.mark.hardening
def test_rouge_w_of_identical_texts_is_exactly_one_despite_rounding():
    # hypothesis found it: the WLCS (a sum of f(k+1) - f(k)) exceeded f(3) by an ulp, so R was 1.0000000000000002
    r = rouge.rouge_w("a a a", ["a a a"], weight=1.25)
    assert r.precision <= 1 and r.recall <= 1 and r.fmeasure <= 1
    assert math.isclose(r.fmeasure, 1.0)


# --- Chinese, Japanese and Korean (issue 21): rouge-score's tokenizer loses them, a CJK tokenizer fixes it -
@pytest.mark.conformance
@pytest.mark.parametrize("tok", ["zh", "unicode-cjk", "ja-mecab", "ko-mecab"])
def test_rouge_under_a_cjk_tokenizer_equals_rouge_score_given_the_same_tokenizer(tok):
    import warnings

    import cjk_texts

    from evalkit.data import ted_chinese_sources
    from evalkit.tokenize import TokenizationWarning, tokenize

    class SameTokens:  # rouge-score takes any object with a tokenize(text) method
        def tokenize(self, text):
            return tokenize(text, tok)

    refs = ted_chinese_sources()[::4] + [r for r, _ in cjk_texts.JAPANESE + cjk_texts.KOREAN]
    hyps = [cjk_texts.edited(s, i) for i, s in enumerate(refs[: len(refs) - 34])]
    hyps += [h for _, h in cjk_texts.JAPANESE + cjk_texts.KOREAN]
    default = rouge_scorer.RougeScorer(["rouge1"])
    fixed = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=SameTokens())
    lost = 0
    for hyp, ref in zip(hyps, refs):
        theirs = fixed.score(ref, hyp)
        for key, ours in (("rouge1", rouge.rouge_n(hyp, [ref], 1, tokenize=tok)),
                          ("rouge2", rouge.rouge_n(hyp, [ref], 2, tokenize=tok)),
                          ("rougeL", rouge.rouge_l(hyp, [ref], tokenize=tok))):
            assert math.isclose(ours.fmeasure, theirs[key].fmeasure, rel_tol=1e-12, abs_tol=1e-12), (hyp, key)
        assert rouge.rouge_n(hyp, [ref], 1, tokenize=tok).fmeasure > 0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", TokenizationWarning)
            evalkit_default = rouge.rouge_n(hyp, [ref], 1).fmeasure
        rouge_score_default = default.score(ref, hyp)["rouge1"].fmeasure
        assert evalkit_default == rouge_score_default  # evalkit's default is rouge-score's tokenizer
        lost += rouge_score_default == 0
    # rouge-score's own tokenizer keeps [a-z0-9] only: every pair without a shared Latin word or number is 0
    assert lost > 0.8 * len(hyps)
