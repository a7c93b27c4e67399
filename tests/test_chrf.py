"""chrF and chrF++: hand-counted cases, conformance with sacreBLEU 2.6.0 and NLTK on WMT17 (segment by segment
called here, at test time; the corpus scores of the 16 systems recorded in tests/peers/ and recomputed by make
conformance), the fast path against the readable one, edge cases and bad input."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import peers
import pytest
from call_trace import calls
from nltk.translate import chrf_score as nltk_chrf
from sacrebleu.metrics import CHRF
from sampling import every

from evalkit.chrf import (
    CHRFStats,
    char_ngrams,
    corpus_chrf,
    corpus_stats,
    score_stats,
    segment_stats,
    sentence_chrf,
    sentence_stats,
    split_punctuation,
)
from evalkit.chrf import chrf_references, split_punctuation_fast

CONFIGS = [dict(word_order=0, eps_smoothing=False), dict(word_order=0, eps_smoothing=True),
           dict(word_order=2, eps_smoothing=False), dict(word_order=2, eps_smoothing=True)]
CONFIG_IDS = ["chrF", "chrF-eps", "chrF++", "chrF++-eps"]
TWO_SYSTEMS = ("uedin-nmt", "online-F")


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


@pytest.fixture(scope="module")
def sacre_corpus():
    """sacreBLEU's corpus chrF of every system under every configuration: recorded in
    tests/peers/chrf_corpus.json (make conformance computes it again, 2 minutes)."""
    recorded = peers.recorded("chrf_corpus")
    assert list(recorded) == CONFIG_IDS and list(peers.CHRF_CONFIGS.values()) == CONFIGS
    return recorded


# ------------------------------------------------------------------------------------------ by hand
def test_two_orders_by_hand():
    # "ab" against "abc", orders 1 and 2: P1 = 2/2, R1 = 2/3, P2 = 1/1, R2 = 1/2.
    r = sentence_chrf("ab", ["abc"], char_order=2)
    assert [(o.matches, o.hyp_len, o.ref_len) for o in r.orders] == [(2, 2, 3), (1, 1, 2)]
    p, rec = Fraction(1), (Fraction(2, 3) + Fraction(1, 2)) / 2
    assert close(r.score, float(5 * p * rec / (4 * p + rec)))  # = 7/11
    assert close(r.score, 7 / 11)


def test_cat_mat_unigrams_by_hand():
    # thecatsatonthemat (17 letters) against thecatisonthemat (16).
    hyp, ref = char_ngrams("the cat sat on the mat", 1), char_ngrams("the cat is on the mat", 1)
    assert sum(hyp.values()) == 17 and sum(ref.values()) == 16
    r = sentence_chrf("the cat sat on the mat", ["the cat is on the mat"])
    assert (r.orders[0].hyp_len, r.orders[0].ref_len) == (17, 16)
    # t: 5 in hyp, 4 in ref; a: 3 vs 2; everything else in hyp is in ref as often: 17 - 1 - 1 = 15
    assert hyp["t"] == 5 and ref["t"] == 4 and hyp["a"] == 3 and ref["a"] == 2
    assert r.orders[0].matches == 15


def test_beta_weights_recall():
    # A hypothesis that is a prefix of the reference: precision 1, recall low.  A larger beta lowers F.
    scores = [sentence_chrf("the cat", ["the cat sat on the mat"], beta=b).score for b in (1, 2, 3)]
    assert scores[0] > scores[1] > scores[2]


def test_word_ngrams_split_one_punctuation_mark():
    assert split_punctuation("(hi) end. ,x y") == ["(hi", ")", "end", ".", ",", "x", "y"]
    r = sentence_chrf("the cat.", ["the cat ."], word_order=2)
    assert [(o.kind, o.n, o.matches, o.hyp_len, o.ref_len) for o in r.words] == [("word", 1, 3, 3, 3), ("word", 2, 2, 2, 2)]


def test_fast_word_split_equals_the_readable_one(wmt17):
    reference, systems = wmt17
    rng = random.Random(0)
    alphabet = 'ab.(),!" \t\u00a0\x1c\u2003-\'x'
    texts = reference + systems["online-G"] + ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
                                               for _ in range(20000)]
    assert [split_punctuation_fast(t) for t in texts] == [split_punctuation(t) for t in texts]


# ------------------------------------------------------------------------------------------ sacreBLEU
@pytest.mark.conformance
@pytest.mark.parametrize("cfg", CONFIGS, ids=CONFIG_IDS)
def test_corpus_chrf_equals_sacrebleu_on_all_wmt17_systems(cfg, wmt17, sacre_corpus):
    reference, systems = wmt17
    refs = [[r] for r in reference]
    assert len(systems) == 16
    theirs = sacre_corpus[CONFIG_IDS[CONFIGS.index(cfg)]]
    for name, hyps in systems.items():
        ours = corpus_chrf(hyps, refs, **cfg).score * 100
        assert close(ours, theirs[name]), (name, ours, theirs[name])


@pytest.mark.conformance
def test_the_wmt17_chrf_lesson_12_quotes(wmt17, sacre_corpus):
    # The corpus chrF2 lesson 12 quotes: sacreBLEU 2.6.0's (recorded in tests/peers/, recomputed by make
    # conformance) and evalkit's both round to them.
    reference, systems = wmt17
    for name, published in {"uedin-nmt": 57.72, "LIUM-NMT": 55.93}.items():
        ours = corpus_chrf(systems[name], [[r] for r in reference]).score * 100
        assert round(sacre_corpus["chrF"][name], 2) == published
        assert round(ours, 2) == published


@pytest.mark.conformance
@every(5)
@pytest.mark.parametrize("cfg", CONFIGS, ids=CONFIG_IDS)
def test_sentence_chrf_equals_sacrebleu_on_every_segment_of_two_systems(cfg, wmt17, step):
    # make test: every 5th segment (sacreBLEU, called here, takes about 3 s for all of them); make conformance: all
    reference, systems = wmt17
    metric = CHRF(**cfg)
    for name in TWO_SYSTEMS:
        for i, (hyp, ref) in list(enumerate(zip(systems[name], reference)))[::step]:
            ours = sentence_chrf(hyp, [ref], **cfg).score * 100
            theirs = metric.sentence_score(hyp, [ref]).score
            assert close(ours, theirs), (name, i, ours, theirs)


@pytest.mark.conformance
@every(4)
@pytest.mark.parametrize("cfg", CONFIGS, ids=CONFIG_IDS)
def test_two_references_pick_the_best_per_segment_like_sacrebleu(cfg, wmt17, step):
    # make test: every 4th of the first 800 segments; make conformance: all 800
    reference, systems = wmt17
    second = systems["online-B"][:800:step]  # another system's output as a second reference
    hyps, first = systems["uedin-nmt"][:800:step], reference[:800:step]
    refs = [[a, b] for a, b in zip(first, second)]
    theirs = CHRF(**cfg).corpus_score(hyps, [first, second]).score
    for fast in (True, False):
        assert close(corpus_chrf(hyps, refs, fast=fast, **cfg).score * 100, theirs)
    assert segment_stats(hyps, refs, **cfg) == segment_stats(hyps, refs, fast=False, **cfg)
    for h, rs in list(zip(hyps, refs))[:200]:
        assert close(sentence_chrf(h, rs, **cfg).score * 100, CHRF(**cfg).sentence_score(h, rs).score)


@pytest.mark.conformance
@pytest.mark.parametrize("opts", [dict(lowercase=True), dict(whitespace=True), dict(beta=1, char_order=4),
                                  dict(word_order=1, char_order=0), dict(word_order=3, lowercase=True)])
@every(3)
def test_other_options_equal_sacrebleu(opts, wmt17, step):
    # make test: every 3rd segment of C-3MA; make conformance: all 3,004
    reference, systems = wmt17
    hyps, reference = systems["C-3MA"][::step], reference[::step]
    theirs = CHRF(**opts).corpus_score(hyps, [reference]).score
    for fast in (True, False):
        assert close(corpus_chrf(hyps, [[r] for r in reference], fast=fast, **opts).score * 100, theirs)


EDGE_CASES = [("", ["the cat"]), ("the cat", [""]), ("", [""]), ("a", ["a"]), ("a", ["b"]), ("ab", ["a"]),
              ("a b", ["ab"]), ("   ", ["x"]), ("x", ["   "]), ("the cat .", ["the cat ."]),
              ("a", ["", "a"]), ("", ["", "b"]), ("!", ["!"]), ("Ä ä", ["ä Ä"]),
              ("\ud800x", ["x\ud800x"])]


@pytest.mark.conformance
@pytest.mark.parametrize("hyp,refs", EDGE_CASES)
@pytest.mark.parametrize("cfg", CONFIGS, ids=CONFIG_IDS)
def test_edge_cases_equal_sacrebleu(hyp, refs, cfg):
    theirs = CHRF(**cfg).sentence_score(hyp, refs).score
    ours = sentence_chrf(hyp, refs, **cfg)
    assert close(ours.score * 100, theirs)
    assert 0 <= ours.score <= 1
    k = len(refs)
    for fast in (True, False):
        corpus = corpus_chrf([hyp, "the cat"], [refs, ["the cat"] * k], fast=fast, **cfg).score
        assert close(corpus * 100, CHRF(**cfg).corpus_score([hyp, "the cat"], [[r, "the cat"] for r in refs]).score)


# ------------------------------------------------------------------------------------------ NLTK
@pytest.mark.conformance
def test_nltk_sentence_chrf_is_eps_smoothing_with_beta_3(wmt17):
    """NLTK's sentence_chrf averages per-order F-scores: evalkit's eps_smoothing=True, with NLTK's beta."""
    reference, systems = wmt17
    hyps = systems["uedin-nmt"]
    for hyp, ref in list(zip(hyps, reference))[:600]:
        ours = sentence_chrf(hyp, [ref], beta=3, eps_smoothing=True).score
        assert close(ours, nltk_chrf.sentence_chrf(ref, hyp)), hyp  # NLTK: reference first
        ours = sentence_chrf(hyp, [ref], beta=2, eps_smoothing=True, whitespace=True).score
        assert close(ours, nltk_chrf.sentence_chrf(ref, hyp, beta=2, ignore_whitespace=False))


@pytest.mark.conformance
def test_nltk_corpus_chrf_is_the_mean_of_sentence_scores_not_ours(wmt17):
    """Where they differ: NLTK's corpus_chrf averages sentence scores; evalkit scores summed statistics."""
    reference, systems = wmt17
    hyps, refs = systems["LIUM-NMT"][:500], reference[:500]
    nltk_value = nltk_chrf.corpus_chrf(refs, hyps)
    mean = sum(sentence_chrf(h, [r], beta=3, eps_smoothing=True).score for h, r in zip(hyps, refs)) / len(hyps)
    assert close(mean, nltk_value)
    summed = corpus_chrf(hyps, [[r] for r in refs], beta=3, eps_smoothing=True).score
    assert not math.isclose(summed, nltk_value, abs_tol=1e-4)


@pytest.mark.conformance
def test_nltk_differs_from_the_default_averaging():
    # The default (effective-order) averaging is sacreBLEU's own: a hypothesis of 3 characters has no
    # n-grams of orders 4-6; the default leaves those orders out, NLTK averages in F = 0 for each.
    # By hand: P_n = 1 and R_n = 3/6, 2/5, 1/4 for n = 1..3.
    recalls = [Fraction(3, 6), Fraction(2, 5), Fraction(1, 4)]
    f3 = lambda p, r: 10 * p * r / (9 * p + r)  # noqa: E731
    ours = sentence_chrf("cat", ["the cat"], beta=3)
    theirs = nltk_chrf.sentence_chrf("the cat", "cat")
    assert close(ours.score, float(f3(1, sum(recalls) / 3)))
    assert close(theirs, float(sum(f3(1, r) for r in recalls) / 6))
    assert close(sentence_chrf("cat", ["the cat"], beta=3, eps_smoothing=True).score, theirs)


# ------------------------------------------------------------------------------------------ additivity, fast path
@every(4)
@pytest.mark.parametrize("cfg", CONFIGS, ids=CONFIG_IDS)
def test_fast_statistics_equal_the_readable_sum(cfg, wmt17, step):
    # make test: every 4th segment (the readable counting takes about 3 s for all of them); make conformance: all
    reference, systems = wmt17
    refs = [[r] for r in reference][::step]
    for name in ("online-A", "xmu"):
        hyps = systems[name][::step]
        fast = corpus_stats(hyps, refs, **cfg)
        readable = segment_stats(hyps, refs, fast=False, **cfg)
        assert segment_stats(hyps, refs, **cfg) == readable  # segment by segment
        assert fast == sum(readable)
        assert fast == corpus_stats(hyps, refs, fast=False, **cfg)


@pytest.mark.conformance
def test_a_huge_alphabet_is_counted_with_ranked_ngram_ids():
    # 3,000 distinct characters: a 6-gram as a pair code of pair codes (3,000^6) would not fit in an int64
    # key, so the index ranks the n-grams among the references' instead; the counts stay the readable ones
    ref = "".join(chr(0x4E00 + i) for i in range(3000))
    hyps, refs = [ref[::2], ref[:500]], [[ref], [ref[100:900]]]
    index = chrf_references([(ref,), (ref[100:900],)], 6, 0, False, False).chars
    assert index.pair_tables[0] is None and any(t is not None for t in index.pair_tables)  # packed, then ranked
    for cfg in CONFIGS:
        assert corpus_stats(hyps, refs, **cfg) == corpus_stats(hyps, refs, fast=False, **cfg)
        assert close(corpus_chrf(hyps, refs, **cfg).score * 100,
                     CHRF(**cfg).corpus_score(hyps, [[ref, ref[100:900]]]).score)


def test_corpus_is_summed_statistics_and_order_free(wmt17):
    reference, systems = wmt17
    hyps, refs = systems["SYSTRAN"][:300], [[r] for r in reference[:300]]
    stats = segment_stats(hyps, refs)
    assert score_stats(sum(stats)).score == corpus_chrf(hyps, refs).score
    mean = sum(score_stats(s).score for s in stats) / len(stats)
    assert not math.isclose(mean, corpus_chrf(hyps, refs).score, abs_tol=1e-4)
    order = list(range(300))
    random.Random(0).shuffle(order)
    shuffled = corpus_chrf([hyps[i] for i in order], [refs[i] for i in order])
    assert close(shuffled.score, corpus_chrf(hyps, refs).score)


def test_identical_and_disjoint():
    assert sentence_chrf("the cat sat on the mat", ["the cat sat on the mat"], word_order=2).score == 1.0
    assert sentence_chrf("xyz", ["abc"]).score == 0.0


def test_tokens_are_joined_with_spaces():
    a = sentence_chrf(["the", "cat", "."], [["the", "cat."]], word_order=2)
    assert a.score == sentence_chrf("the cat .", ["the cat."], word_order=2).score


def test_rescoring_with_another_beta_needs_no_recount():
    stats = sentence_stats("the cat", ["the cat sat"])
    assert score_stats(stats, beta=1).score == sentence_chrf("the cat", ["the cat sat"], beta=1).score
    assert score_stats(stats, eps_smoothing=True).score == sentence_chrf("the cat", ["the cat sat"],
                                                                         eps_smoothing=True).score


def test_result_reprs_and_signature():
    r = sentence_chrf("the cat", ["the cat sat"], word_order=2)
    assert repr(r).startswith("CHRFResult(score=") and r.name == "chrF2++"
    assert float(r) == r.score
    assert r.signature.startswith("nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no")


# ------------------------------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: sentence_chrf(None, ["a"]), TypeError, "hypothesis is None"),
        (lambda: sentence_chrf("a", "a"), TypeError, "single string"),
        (lambda: sentence_chrf("a", []), ValueError, "empty"),
        (lambda: sentence_chrf("a", [3]), TypeError, "references[0]"),
        (lambda: sentence_chrf("a", ["a"], char_order=-1), ValueError, "char_order"),
        (lambda: sentence_chrf("a", ["a"], char_order=0, word_order=0), ValueError, "both 0"),
        (lambda: sentence_chrf("a", ["a"], beta=0), ValueError, "beta"),
        (lambda: sentence_chrf("a", ["a"], beta="2"), TypeError, "beta"),
        (lambda: sentence_chrf("a", ["a"], lowercase="yes"), TypeError, "lowercase"),
        (lambda: sentence_chrf("a", ["a"], smoothing="eps"), TypeError, "smoothing"),
        (lambda: corpus_chrf([], []), ValueError, "hypotheses is empty"),
        (lambda: corpus_chrf(["a", "b"], [["a"]]), ValueError, "lengths differ"),
        (lambda: corpus_chrf("ab", [["a"], ["b"]]), TypeError, "hypotheses is a str"),
        (lambda: corpus_chrf(["a"], [["a"]], fast="yes"), TypeError, "fast"),
        (lambda: corpus_chrf(["a", 5], [["a"], ["b"]]), TypeError, "hypothesis[1]"),
        (lambda: corpus_chrf(["a", "b"], [["a"], []]), ValueError, "references[1] is empty"),
        (lambda: score_stats("stats"), TypeError, "CHRFStats"),
    ],
)
def test_bad_input_is_refused_clearly(call, error, message):
    with pytest.raises(error, match=None) as info:
        call()
    assert message in str(info.value)


def test_stats_with_different_settings_do_not_add():
    with pytest.raises(ValueError, match="different settings"):
        sentence_stats("a", ["a"]) + sentence_stats("a", ["a"], word_order=2)
    assert isinstance(sum([sentence_stats("a", ["a"])] * 3), CHRFStats)


# ------------------------------------------------------------------------------------------ click to the formula
def test_corpus_chrf_reads_as_its_steps_and_reaches_the_formula():
    doc = corpus_chrf.__doc__
    steps = [doc.index(f"\n    {k}. ") for k in (1, 2, 3, 4)]
    assert steps == sorted(steps), "the docstring numbers the steps 1-4"
    for name in ("all_ngrams", "match_counts", "best_reference_counts", "segment_stats", "score_stats",
                 "chrf_percent", "chrf_segment_counts"):
        assert f":func:`{name}`" in doc
    assert "chrF = (1 + beta^2) P R / (beta^2 P + R)" in doc

    hyps, refs = ["the cat sat on the mat", "a dog"], [["the cat is on the mat"], ["a dog", "the dog"]]
    for word_order in (0, 2):
        readable = calls(lambda: corpus_chrf(hyps, refs, word_order=word_order, fast=False))
        pairs = {(caller, callee) for caller, callee, _ in readable}
        assert {("corpus_chrf", "segment_stats"), ("corpus_chrf", "score_stats")} <= pairs
        assert ("best_reference_counts", "chrf_percent") in pairs and ("_segment", "all_ngrams") in pairs
        assert not [c for c in readable if c[2].endswith("fast.py")], "fast=False ran an engine of evalkit.fast"
        assert not [c for c in readable if c[1] in ("chrf_segment_counts", "chrf_references")]
        engine = calls(lambda: corpus_chrf(hyps, refs, word_order=word_order))
        assert ("_fast_counts", "chrf_segment_counts") in {(a, b) for a, b, _ in engine}
        assert [c for c in engine if c[2].endswith("fast.py")]


# --- Chinese, Japanese and Korean (issue 21): chrF needs no tokenizer ------------------------------------
@pytest.mark.conformance
@pytest.mark.parametrize("word_order", [0, 2])
@pytest.mark.parametrize("lang", ["zh", "ja", "ko"])
def test_chrf_equals_sacrebleu_on_chinese_japanese_and_korean(lang, word_order):
    import cjk_texts

    from evalkit.data import ted_chinese_sources

    if lang == "zh":
        refs = ted_chinese_sources()
        hyps = [cjk_texts.edited(s, i) for i, s in enumerate(refs)]
    else:
        pairs = cjk_texts.JAPANESE if lang == "ja" else cjk_texts.KOREAN
        refs, hyps = [r for r, _ in pairs], [h for _, h in pairs]
    ours = corpus_chrf(hyps, [[r] for r in refs], word_order=word_order).score * 100
    theirs = CHRF(word_order=word_order).corpus_score(hyps, [refs]).score
    assert math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-9)
    assert 20 < ours < 100  # no tokenizer needed: the pairs share character n-grams whatever their words


# --------------------------------------------------------------------------------------------------------
# Issue 19: "Large chrF beta: beta >= 1e155 raises OverflowError from deep inside; with the float32
# reproduction, beta >= ~2e19 gives NaN means and a 'significant' p = 0.0196."  (beta^2 overflowed: F was
# inf/inf = NaN, and a NaN score never beat -1, so no reference was "best".)  Now a beta up to 1e150 (ROUGE's
# limit, one shared check) scores, and F there is the recall to the last digits; above it a ValueError
# names the limit; in float32 mode a beta whose square overflows float32 is refused.
# --------------------------------------------------------------------------------------------------------
@pytest.mark.hardening
@pytest.mark.parametrize("fast", [True, False])
def test_a_huge_beta_gives_recall_and_beyond_the_limit_a_clear_error(fast):
    hyps, refs = ["the cat sat on the mat", "a dog"], [["the cat is on the mat", "a cat sat"], ["a dog barked"]]
    result = corpus_chrf(hyps, refs, beta=1e150, fast=fast)
    # F = (1 + b^2) P R / (b^2 P + R) = R (1 + 1/b^2) / (1 + R / (b^2 P)): R to far below a double's precision
    assert math.isfinite(result.score) and result.score == pytest.approx(result.recall, rel=1e-15)
    assert abs(result.precision - result.recall) > 0.05 and result.name == "chrF1e+150"  # F is R, not P
    stats = corpus_stats(hyps, refs, fast=fast)
    assert score_stats(stats, beta=1e150).score == pytest.approx(score_stats(stats).recall, rel=1e-15)
    for beta in (1.0000001e150, 1e155, 1e300):
        for call in (lambda: corpus_chrf(hyps, refs, beta=beta, fast=fast),
                     lambda: sentence_chrf(hyps[0], refs[0], beta=beta),
                     lambda: score_stats(stats, beta=beta)):
            with pytest.raises(ValueError, match=r"beta must be a positive finite number at most 1e\+150"):
                call()


@pytest.mark.hardening
def test_float32_reproduction_refuses_a_beta_whose_square_overflows_float32():
    import warnings

    import numpy as np

    from evalkit import significance
    from evalkit.chrf import check_float32_beta

    base, systems = ["a cat sat", "a dog", "it rains today", "we go"], {"B": ["the cat sat", "a dog barked",
                                                                             "it rains", "we went home"]}
    refs = [["the cat sat"], ["the dog barked"], ["it is raining"], ["we went home"]]
    for beta in (2e19, 1e30, 1e150):
        with pytest.raises(ValueError, match=r"sacrebleu_float32=True: .* overflows .* below about 1\.8e\+19"):
            significance.paired_bootstrap(base, systems, refs, metric="chrf", beta=beta, n_samples=50,
                                          sacrebleu_float32=True)
        with pytest.raises(ValueError, match="overflows"):
            check_float32_beta(beta)
    check_float32_beta(float(np.sqrt(np.finfo(np.float32).max)) * (1 - 1e-7))  # just below: accepted
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", significance.SignificanceWarning)
        for beta, float32 in ((1e19, True), (2e19, False), (1e150, False)):  # finite means, a p-value of a number
            out = significance.paired_bootstrap(base, systems, refs, metric="chrf", beta=beta, n_samples=50,
                                                sacrebleu_float32=float32)
            assert all(math.isfinite(r.score) and math.isfinite(r.mean) and math.isfinite(r.ci) for r in out.values())
            assert 0 < out["B"].p_value <= 1


# Issue 19: "char_ngrams(n=0) counts the empty n-gram 18 times".
@pytest.mark.hardening
def test_char_ngrams_needs_an_order_of_at_least_one():
    from evalkit.chrf import word_ngrams

    for call in (lambda: char_ngrams("the cat sat", 0), lambda: char_ngrams("the cat", -1),
                 lambda: word_ngrams(["the", "cat"], 0)):
        with pytest.raises(ValueError, match="n must be at least 1"):
            call()
    with pytest.raises(TypeError, match="n must be an int"):
        char_ngrams("the cat", 1.0)
    with pytest.raises(TypeError, match="text is None"):
        char_ngrams(None, 1)
    assert char_ngrams("a cat", 1) == {"a": 2, "c": 1, "t": 1}
