"""TER: worked examples, the steps of the shift search, conformance with sacreBLEU 2.6.0 (called here, at
test time) on WMT17, the fast search against the readable one, edge cases and bad input."""

from __future__ import annotations

import itertools
import math
import random

import peers
import pytest
from sacrebleu.metrics import TER
from sacrebleu.metrics.lib_ter import _perform_shift, translation_edit_rate
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

from evalkit import ter
from evalkit.ter_fast import ter_edits
from evalkit.ter import (
    DELETE,
    INSERT,
    MATCH,
    MAX_SHIFT_CANDIDATES,
    SUBSTITUTE,
    TERStats,
    alignment,
    best_shift,
    corpus_stats,
    corpus_ter,
    edit_distance,
    normalize_ter,
    score_stats,
    search_limits,
    segment_stats,
    sentence_stats,
    sentence_ter,
    shift_words,
    ter_alignment,
    ter_words,
)

TWO_SYSTEMS = ("uedin-nmt", "online-F")
# Every combination of sacreBLEU's TER options (its names); evalkit's lowercase is sacreBLEU's not case_sensitive.
OPTION_SETS = [dict(zip(("normalized", "no_punct", "asian_support", "case_sensitive"), flags))
               for flags in itertools.product((False, True), repeat=4)]


def ours(options: dict) -> dict:
    """sacreBLEU's TER options in evalkit's names."""
    out = dict(options)
    out["lowercase"] = not out.pop("case_sensitive", False)
    return out


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


@pytest.fixture(scope="module")
def sacre_corpus():
    """sacreBLEU's corpus TER of all 16 systems: recorded in tests/peers/ter_corpus.json (make conformance
    computes it again, 2 minutes)."""
    return peers.recorded("ter_corpus")


# ------------------------------------------------------------------------------------------ by hand
def test_one_substitution():
    r = sentence_ter("the cat sat on the mat", ["the cat is on the mat"])
    assert (r.edits, r.substitutions, r.insertions, r.deletions, r.shifts) == (1, 1, 0, 0, 0)
    assert close(r.score, 1 / 6)
    assert r.alignments[0].ops == "==S==="


def test_a_shift_counts_one_edit_where_word_edits_need_six():
    hyp, ref = "on the mat the cat sat".split(), "the cat sat on the mat".split()
    assert edit_distance(hyp, ref)[0] == 6  # without shifts: six word edits
    a = ter_alignment(hyp, ref)
    # the block "on the mat" (start 0, 3 words) goes to position 3 of the other words: after "sat"
    assert [(s.start, s.length, s.target) for s in a.shifts] == [(0, 3, 3)]
    assert a.shifted == tuple(ref) and a.edits == 1


def test_insertions_and_deletions_by_hand():
    r = sentence_ter("the cat sat", ["the big cat sat down"])
    assert (r.insertions, r.deletions, r.substitutions, r.edits) == (2, 0, 0, 2)
    assert close(r.score, 2 / 5)
    r = sentence_ter("the big cat sat down", ["the cat sat"])
    assert (r.insertions, r.deletions, r.edits) == (0, 2, 2)
    assert close(r.score, 2 / 3)


@pytest.mark.conformance
def test_ter_exceeds_one_when_the_hypothesis_is_long_and_wrong():
    r = sentence_ter("a b c d e f", ["x y"])
    assert r.edits == 6 and close(r.score, 3.0)
    assert close(r.score * 100, TER().sentence_score("a b c d e f", ["x y"]).score)


def test_alignment_reads_operations():
    a = alignment("=SI=D")
    assert a.ref_to_hyp == (0, 1, 1, 2)
    assert a.hyp_wrong == (False, True, False, True)
    assert a.ref_wrong == (False, True, True, False)
    assert {MATCH, SUBSTITUTE, INSERT, DELETE} == set("=SID")


def test_alignment_pairs_for_tables():
    a = sentence_ter("the cat sat down", ["the dog sat"]).alignments[0]
    assert a.pairs() == [("the", "the", "="), ("cat", "dog", "S"), ("sat", "sat", "="), ("down", "", "D")]


@pytest.mark.conformance
def test_shift_words_equals_sacrebleu_on_every_small_case():
    for n in range(1, 8):
        words = [str(k) for k in range(n)]
        for start in range(n):
            for length in range(1, n - start + 1):
                for target in range(n + 1):
                    assert shift_words(words, start, length, target) == _perform_shift(words, start, length, target)


# ------------------------------------------------------------------------------------------ normalizer
@pytest.mark.conformance
def test_normalizer_equals_tercom_tokenizer_on_wmt17(wmt17):
    reference, systems = wmt17
    texts = reference[:400] + systems["online-F"][:400] + [
        "A &quot;quote&quot; &amp; &lt;tag&gt; it's 3.5, 1,000 and 10-20.\nNext-\nline",
        "日本語のテキスト、カタカナ。ひらがな！（全角）",
        "", "   ", "Mr. Smith's dog's bone.",
    ]
    for options in OPTION_SETS:
        tokenizer = TercomTokenizer(**options)
        for text in texts:
            assert normalize_ter(text, **ours(options)) == tokenizer(text), (options, text)


# ------------------------------------------------------------------------------------------ sacreBLEU
@pytest.mark.conformance
def test_corpus_ter_equals_sacrebleu_on_all_wmt17_systems(wmt17, sacre_corpus):
    reference, systems = wmt17
    refs = [[r] for r in reference]
    assert len(systems) == 16
    for name, hyps in systems.items():
        ours = corpus_ter(hyps, refs).score * 100
        assert close(ours, sacre_corpus[name]), (name, ours, sacre_corpus[name])


@pytest.mark.conformance
def test_published_wmt17_ter(wmt17, sacre_corpus):
    reference, systems = wmt17
    for name, published in {"uedin-nmt": 61.20, "online-F": 75.58}.items():
        assert round(sacre_corpus[name], 2) == published
        assert round(corpus_ter(systems[name], [[r] for r in reference]).score * 100, 2) == published


@pytest.mark.conformance
def test_sentence_ter_equals_sacrebleu_on_every_segment_of_two_systems(wmt17):
    reference, systems = wmt17
    metric = TER()
    for name in TWO_SYSTEMS:
        for i, (hyp, ref) in enumerate(zip(systems[name], reference)):
            ours = sentence_ter(hyp, [ref])  # the readable search
            theirs = metric.sentence_score(hyp, [ref])
            assert close(ours.score * 100, theirs.score), (name, i)
            assert ours.edits == theirs.num_edits


@pytest.mark.conformance
@pytest.mark.parametrize("options", OPTION_SETS[1:], ids=lambda o: ",".join(k for k, v in o.items() if v))
def test_options_equal_sacrebleu(options, wmt17):
    reference, systems = wmt17
    hyps, refs = systems["C-3MA"][:300], reference[:300]
    theirs = TER(**options).corpus_score(hyps, [refs]).score
    assert close(corpus_ter(hyps, [[r] for r in refs], **ours(options)).score * 100, theirs)


@pytest.mark.conformance
def test_two_references_take_the_fewest_edits_and_the_average_length(wmt17):
    reference, systems = wmt17
    hyps, second = systems["uedin-nmt"][:400], systems["online-B"][:400]
    theirs = TER().corpus_score(hyps, [reference[:400], second]).score
    refs = [[a, b] for a, b in zip(reference, second)]
    for fast in (True, False):
        assert close(corpus_ter(hyps, refs, fast=fast).score * 100, theirs)


EDGE_CASES = [("", ["the cat"]), ("the cat", [""]), ("", [""]), ("a", ["a"]), ("a", ["b"]), ("a", ["", "a"]),
              ("the cat", ["", ""]), ("  ", ["x  "]), ("A B", ["a b"]), ("x y z", ["z y x"])]


@pytest.mark.conformance
@pytest.mark.parametrize("hyp,refs", EDGE_CASES)
def test_edge_cases_equal_sacrebleu(hyp, refs):
    theirs = TER().sentence_score(hyp, refs).score
    assert close(sentence_ter(hyp, refs).score * 100, theirs)
    k = len(refs)
    corpus = TER().corpus_score([hyp, "the cat"], [[r, "the cat"] for r in refs]).score
    for fast in (True, False):
        assert close(corpus_ter([hyp, "the cat"], [refs, ["the cat"] * k], fast=fast).score * 100, corpus)


# ------------------------------------------------------------------------------------------ fast = readable
def test_fast_search_equals_readable_search(wmt17):
    reference, systems = wmt17
    for name in ("online-A", "PROMT-Rule-based"):
        for hyp, ref in list(zip(systems[name], reference))[:700]:
            h, r = ter_words(hyp), ter_words(ref)
            a = ter_alignment(h, r)
            counts = (a.ops.count(INSERT), a.ops.count(DELETE), a.ops.count(SUBSTITUTE))
            assert ter_edits(h, r, **search_limits()) == (a.edits, *counts, len(a.shifts), len(r))


@pytest.mark.conformance
def test_the_candidate_limit_stops_the_search_like_sacrebleu():
    # Long sentences over four words, rotated and partly replaced: so many blocks match that the first
    # round alone scores more than MAX_SHIFT_CANDIDATES candidates.
    rng = random.Random(1)
    capped = 0
    for _ in range(4):
        ref = [rng.choice("abcd") for _ in range(40)]
        hyp = [w if rng.random() > 0.2 else "x" for w in ref[20:] + ref[:20]]
        capped += best_shift(hyp, ref)[2] >= MAX_SHIFT_CANDIDATES
        a = ter_alignment(hyp, ref)
        assert a.edits == translation_edit_rate(hyp, ref)[0] == ter_edits(hyp, ref, **search_limits())[0]
    assert capped >= 1


def test_the_fast_search_keeps_no_copy_of_ters_limits():
    """ter_fast defines no constant but its operation codes, and takes every limit from evalkit.ter."""
    import ast
    import inspect

    from evalkit import ter_fast

    tree = ast.parse(inspect.getsource(ter_fast))
    names = [t.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
             for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
             for t in ast.walk(target) if isinstance(t, ast.Name)]
    assert names == ["_TER_MATCH", "_TER_SUB", "_TER_INS", "_TER_DEL"]
    literals = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, int)}
    limits = {ter.MAX_SHIFT_SIZE, ter.MAX_SHIFT_DISTANCE, ter.BEAM_WIDTH, ter.MAX_SHIFT_CANDIDATES, ter.INFINITY}
    assert literals & limits == set(), "ter_fast.py spells out one of TER's limits"
    params = inspect.signature(ter_fast.ter_search).parameters
    assert set(search_limits()) <= set(params) and all(params[k].default is params[k].empty for k in search_limits())


def test_the_fast_search_follows_ters_limits_when_they_change(monkeypatch, wmt17):
    """Tight limits set on evalkit.ter reach both searches: the fast statistics still equal the readable."""
    reference, systems = wmt17
    hyps, refs = systems["online-A"][:60], [[r] for r in reference[:60]]
    default = segment_stats(hyps, refs)
    for name, value in [("BEAM_WIDTH", 2), ("MAX_SHIFT_SIZE", 2), ("MAX_SHIFT_DISTANCE", 3),
                        ("MAX_SHIFT_CANDIDATES", 5)]:
        with monkeypatch.context() as patch:
            patch.setattr(ter, name, value)
            tight = segment_stats(hyps, refs)
            assert tight == segment_stats(hyps, refs, fast=False), name
            assert tight != default, name  # the limit mattered on these segments


def test_fast_statistics_equal_readable_statistics(wmt17):
    reference, systems = wmt17
    hyps, refs = systems["KIT"][:400], [[r] for r in reference[:400]]
    assert segment_stats(hyps, refs) == segment_stats(hyps, refs, fast=False)
    assert corpus_stats(hyps, refs) == sum(segment_stats(hyps, refs, fast=False))


def test_corpus_is_summed_statistics(wmt17):
    reference, systems = wmt17
    hyps, refs = systems["SYSTRAN"][:200], [[r] for r in reference[:200]]
    stats = segment_stats(hyps, refs)
    total = sum(stats)
    assert total.edits == sum(s.edits for s in stats)
    assert total.edits == total.insertions + total.deletions + total.substitutions + total.shifts
    assert score_stats(total).score == corpus_ter(hyps, refs).score


def test_result_repr_and_signature():
    r = sentence_ter("the cat", ["the cat sat"])
    assert repr(r) == "TERResult(score=0.3333, edits=1, ref_len=3.0000, ins=1, del=0, sub=0, shifts=0)"
    assert float(r) == r.score
    assert r.signature.startswith("nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no")


# ------------------------------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: sentence_ter(None, ["a"]), TypeError, "hypothesis is None"),
        (lambda: sentence_ter("a", "a"), TypeError, "single string"),
        (lambda: sentence_ter("a", []), ValueError, "empty"),
        (lambda: sentence_ter("a", [b"a"]), TypeError, "bytes"),
        (lambda: sentence_ter("a", ["a"], normalized="yes"), TypeError, "normalized"),
        (lambda: sentence_ter("a", ["a"], lowercase="no"), TypeError, "lowercase must be True or False"),
        (lambda: sentence_ter("a", ["a"], case_sensitive=True), TypeError, "case_sensitive"),
        (lambda: corpus_ter([], []), ValueError, "hypotheses is empty"),
        (lambda: corpus_ter(["a", "b"], [["a"]]), ValueError, "lengths differ"),
        (lambda: corpus_ter(["a"], ["a"]), TypeError, "references[0] is a single string"),
        (lambda: corpus_ter(["a"], [["a"]], fast=1), TypeError, "fast"),
        (lambda: score_stats(3), TypeError, "TERStats"),
    ],
)
def test_bad_input_is_refused_clearly(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert message in str(info.value)


def test_stats_with_different_options_do_not_add():
    with pytest.raises(ValueError, match="different normalization"):
        sentence_stats("a", ["a"]) + sentence_stats("a", ["a"], normalized=True)
    assert isinstance(sum([sentence_stats("a", ["a"])] * 2), TERStats)
