"""TER: worked examples, the steps of the shift search, conformance with sacreBLEU 2.6.0 on WMT17 (segment by
segment called here, at test time; the corpus scores of the 16 systems recorded in tests/peers/ and recomputed
by make conformance), the fast search against the readable one, edge cases and bad input."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import peers
import pytest
from sacrebleu.metrics import TER
from sacrebleu.metrics.lib_ter import _perform_shift, translation_edit_rate
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer
from sampling import every

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
def test_the_wmt17_ter_lesson_12_quotes(wmt17, sacre_corpus):
    # The corpus TER lesson 12 quotes: sacreBLEU 2.6.0's (recorded in tests/peers/, recomputed by make
    # conformance) and evalkit's both round to them.
    reference, systems = wmt17
    for name, published in {"uedin-nmt": 61.20, "online-F": 75.58}.items():
        assert round(sacre_corpus[name], 2) == published
        assert round(corpus_ter(systems[name], [[r] for r in reference]).score * 100, 2) == published


@pytest.mark.conformance
@every(10)
def test_sentence_ter_equals_sacrebleu_on_every_segment_of_two_systems(wmt17, step):
    """make test compares every 10th segment (600 pairs, 2 s); make conformance all 6,008 (20 s)."""
    reference, systems = wmt17
    metric = TER()
    for name in TWO_SYSTEMS:
        for i, (hyp, ref) in list(enumerate(zip(systems[name], reference)))[::step]:
            ours = sentence_ter(hyp, [ref])  # the fast search, whose alignments are the readable search's
            theirs = metric.sentence_score(hyp, [ref])
            assert close(ours.score * 100, theirs.score), (name, i)
            assert ours.edits == theirs.num_edits


@pytest.mark.conformance
@pytest.mark.parametrize("options", OPTION_SETS[1:], ids=lambda o: ",".join(k for k, v in o.items() if v))
@every(3)
def test_options_equal_sacrebleu(options, wmt17, step):
    # make test: every 3rd of the first 300 segments of C-3MA (sacreBLEU's TER is slow); make conformance: all 300
    reference, systems = wmt17
    hyps, refs = systems["C-3MA"][:300:step], reference[:300:step]
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


# --- Chinese (issue 21): asian_support splits the characters TER would otherwise keep in one word ---------
@pytest.mark.conformance
@pytest.mark.parametrize("normalized, asian_support", [(True, True), (True, False), (False, True)])
def test_asian_support_equals_sacrebleu_on_the_chinese_ted_sources(normalized, asian_support):
    import cjk_texts

    from evalkit.data import ted_chinese_sources

    # every 8th of the 529 segments: sacreBLEU's TER takes 15 s on all of them with asian_support
    refs = ted_chinese_sources()[::8]
    hyps = [cjk_texts.edited(s, i) for i, s in enumerate(refs)]
    options = dict(normalized=normalized, asian_support=asian_support)
    ours = corpus_ter(hyps, [[r] for r in refs], **options)
    theirs = TER(**options).corpus_score(hyps, [refs])
    assert close(ours.score * 100, theirs.score), (ours.score, theirs.score)
    if normalized and asian_support:  # every Chinese character is a word: 20+ words a segment
        assert ours.ref_len > 20 * len(refs) and ours.score < 0.5
    else:
        # a sentence is a few words (split at its spaces and Latin punctuation): almost every word differs.
        # asian_support acts only inside TERCOM's normalization (and its punctuation removal), so without
        # normalized=True it changes nothing (sacreBLEU's TercomTokenizer, like TERCOM)
        assert ours.ref_len < 3 * len(refs) and ours.score > 0.9


# ------------------------------------------------------------------------------------------ issue 19
def test_a_row_of_the_table_keeps_only_its_beam():
    """Memory linear in the length: row i > 0 holds the cells of its beam, not one per reference word."""
    hyp = ref = [f"w{k}" for k in range(600)]
    table = ter.edit_table(hyp, ref)
    assert len(table[0]) == 601  # row 0: inserting the first j reference words, all of them
    assert max(len(row) for row in table[1:]) <= 2 * ter.BEAM_WIDTH + 1
    assert 0 not in table[300] and table[300][300] == (0, MATCH)
    assert edit_distance(hyp, ref) == (0, MATCH * 600)


def test_the_fast_search_holds_beam_sized_rows(monkeypatch):
    """ter_fast's forward and backward rows hold the cells of their beam only (rows of a 3,000-word
    pair): the widest row kept is the beam, plus row 0."""
    from evalkit import ter_fast

    widths = []
    real = ter_fast._ter_next_row
    monkeypatch.setattr(ter_fast, "_ter_next_row", lambda *a: widths.append(len(out := real(*a))) or out)
    ref = [f"w{k % 50}" for k in range(3000)]
    hyp = ref[1500:] + ref[:1500]
    ter_edits(hyp, ref, **search_limits())
    assert widths and max(widths) <= 2 * ter.BEAM_WIDTH + 1


def test_fast_sentence_ter_gives_the_readable_alignments(wmt17):
    """sentence_ter's default (fast) search gives the readable search's alignments, shift for shift and
    operation for operation, against one and two references."""
    reference, systems = wmt17
    hyps, second = systems["online-B"][:120], systems["uedin-nmt"][:120]
    for hyp, ref, other in zip(hyps, reference, second):
        for refs in ([ref], [ref, other]):
            fast, readable = sentence_ter(hyp, refs), sentence_ter(hyp, refs, fast=False)
            assert fast.alignments == readable.alignments and fast == readable


def test_sentence_ter_does_not_run_the_readable_search(monkeypatch):
    """A sentence costs what a corpus of one sentence costs: sentence_ter runs the engine corpus_ter runs
    (the readable search, which fills a table per candidate shift, is only behind fast=False)."""
    hyp, ref = "on the mat the cat sat".split(), "the cat sat on the mat".split()
    readable = ter_alignment(hyp, ref)

    def refuse(*args):
        raise AssertionError("the readable search ran")

    monkeypatch.setattr(ter, "ter_alignment", refuse)
    r = sentence_ter(" ".join(hyp), [" ".join(ref)])
    assert r.alignments == (readable,) and (r.shifts, r.edits) == (1, 1)
    with pytest.raises(AssertionError, match="readable search ran"):
        sentence_ter(" ".join(hyp), [" ".join(ref)], fast=False)


@pytest.mark.conformance
def test_possessives_sacrebleu_normalizes_references_twice():
    """sacreBLEU 2.6.0 normalizes a reference twice, and with normalized=True the second pass splits the
    possessive a first pass left joined: "it was the dog's ." becomes "it was the dog 's .".  So "It was
    the dog's." scores 2 edits / 6 reference words against itself (sacreBLEU: 33.3), and 0 by default."""
    text = "It was the dog's."
    assert normalize_ter(text, normalized=True) == "it was the dog's ."
    assert normalize_ter(normalize_ter(text, normalized=True), normalized=True) == "it was the dog 's ."
    theirs = TER(normalized=True).sentence_score(text, [text]).score
    assert round(theirs, 1) == 33.3
    for fast in (True, False):
        ours = sentence_ter(text, [text], normalized=True, fast=fast)
        assert (ours.score, ours.edits) == (0.0, 0)  # the right number: a text against itself
        twice = sentence_ter(text, [text], normalized=True, sacrebleu_double_normalization=True, fast=fast)
        assert (twice.edits, twice.ref_len) == (2, 6.0) and close(twice.score * 100, theirs)
        corpus = corpus_ter([text, "The cat's toy."], [[text], ["The cat's toy."]], normalized=True,
                            sacrebleu_double_normalization=True, fast=fast)
        assert close(corpus.score * 100, TER(normalized=True).corpus_score([text, "The cat's toy."],
                                                                          [[text, "The cat's toy."]]).score)
    assert "refs:normalized-twice" in twice.signature and "twice" not in ours.signature
    # Without normalized=True the normalizer is idempotent on these: the switch changes nothing.
    assert sentence_ter(text, [text], sacrebleu_double_normalization=True).score == 0.0
    with pytest.raises(ValueError, match="different normalization"):
        sentence_stats(text, [text]) + sentence_stats(text, [text], sacrebleu_double_normalization=True)


def _possessive_fuzz(texts: list[str], rng: random.Random) -> list[str]:
    """Real segments with two words given a possessive and, mostly, punctuation after it."""
    out = []
    for text in texts:
        words = text.split() or ["x"]
        for _ in range(2):
            k = rng.randrange(len(words))
            words[k] += rng.choice(["'s.", "'s,", "'s", "'s!", "'s)", "'s .", "'s;"])
        out.append(" ".join(words))
    return out


@pytest.mark.conformance
def test_double_normalization_equals_sacrebleu_on_fuzzed_wmt17(wmt17):
    """WMT17 segments (online-B against the reference), each side given possessives at random words: with
    sacrebleu_double_normalization=True every sentence TER and the corpus TER (sacreBLEU's: its summed
    edits over its summed reference lengths) equal sacreBLEU's, with normalized=True (120 segments) and
    with asian_support and no_punct too (40); the default's numbers differ on many segments."""
    reference, systems = wmt17
    rng = random.Random(19)
    hyps = _possessive_fuzz(systems["online-B"][:120], rng)
    refs = _possessive_fuzz(reference[:120], rng)
    worst = differ = 0
    for options, size in ((dict(normalized=True), 120), (dict(normalized=True, asian_support=True, no_punct=True), 40)):
        metric = TER(**options)
        edits = length = 0
        for hyp, ref in zip(hyps[:size], refs[:size]):
            theirs = metric.sentence_score(hyp, [ref])
            edits, length = edits + theirs.num_edits, length + theirs.ref_length
            ours = sentence_ter(hyp, [ref], sacrebleu_double_normalization=True, **options).score * 100
            worst = max(worst, abs(ours - theirs.score))
            differ += not close(sentence_ter(hyp, [ref], **options).score * 100, theirs.score)
        corpus = corpus_ter(hyps[:size], [[r] for r in refs[:size]], sacrebleu_double_normalization=True, **options)
        assert (corpus.edits, corpus.ref_len) == (edits, length) and close(corpus.score, edits / length), options
    assert worst <= 1e-9, worst
    assert differ >= 30, differ  # the default's right numbers are not sacreBLEU's here


def test_bool_switches_take_numpy_bools_and_nothing_else():
    import numpy as np

    text, refs = "The dog's bone, 3.5 kg.", ["the dog 's bone , 3.5 kg ."]
    for name in ("normalized", "no_punct", "lowercase", "sacrebleu_double_normalization", "fast"):
        for value in (True, False):
            expected = sentence_ter(text, refs, **{name: value})
            assert sentence_ter(text, refs, **{name: np.bool_(value)}) == expected
            assert corpus_ter([text], [refs], **{name: np.bool_(value)}) == score_stats(expected.stats)
        for bad in (1, 0, "no", None, 1.0):
            with pytest.raises(TypeError, match=f"{name} must be True or False"):
                sentence_ter(text, refs, **{name: bad})
            with pytest.raises(TypeError, match=f"{name} must be True or False"):
                corpus_ter([text], [refs], **{name: bad})
    with pytest.raises(TypeError, match="lowercase must be True or False"):
        normalize_ter("a", lowercase=1)
    assert normalize_ter("A.", normalized=np.bool_(True)) == "a ."


@pytest.mark.parametrize("bad", [None, 3, b"text", ["a", "b"]])
def test_normalize_ter_refuses_what_is_not_a_string(bad):
    with pytest.raises(TypeError, match="text must be a string"):
        normalize_ter(bad)
    assert normalize_ter("") == ""


PRIME_COUNTS = (23, 29, 31, 37, 41, 43, 47, 53, 59, 61)  # ten numbers of references between 23 and 61


def test_paired_test_rows_stay_exact_with_ten_reference_counts():
    """Segment i has PRIME_COUNTS[i] references, all "w{i} a b" but one "w{i} a b c": an average length of
    (3k + 1) / k.  The least common multiple of the ten denominators is above 2**53, where int64 rows
    overflowed and float64 sums rounded.  The paired bootstrap's scores and means must still be exact:
    computed here by hand from sacreBLEU's draws (numpy's default_rng(seed).integers, evalkit.resample)."""
    import numpy as np

    from evalkit.resample import confidence_interval
    from evalkit.significance import paired_bootstrap

    refs = [[f"w{i} a b"] * (k - 1) + [f"w{i} a b c"] for i, k in enumerate(PRIME_COUNTS)]
    hyps = {"A": [f"w{i} a" for i in range(10)], "B": [f"w{i} a b c d" if i % 2 else "x" for i in range(10)]}
    edits = {"A": [1] * 10, "B": [1 if i % 2 else 3 for i in range(10)]}  # an insertion; a deletion or 3
    averages = [Fraction(3 * k + 1, k) for k in PRIME_COUNTS]
    assert math.lcm(*(a.denominator for a in averages)) > 2**53
    assert [s.edits for s in segment_stats(hyps["B"], refs)] == edits["B"]
    seed, n_samples = 7, 1000
    out = paired_bootstrap(hyps["A"], {"B": hyps["B"]}, refs, metric="ter", baseline_name="A", seed=seed,
                           n_samples=n_samples)
    draws = np.random.default_rng(seed).integers(0, 10, size=(n_samples, 10)).tolist()
    for name in hyps:
        assert out[name].score == sum(edits[name]) / float(sum(averages))
        exact = [sum(edits[name][d] for d in row) / float(sum(averages[d] for d in row)) for row in draws]
        assert out[name].mean == confidence_interval(exact)[0], name


def test_ter_rows_in_pieces_score_like_the_statistics():
    """Rows with L * length and L in two pieces of LIMB_BITS bits: score_row and score_rows give edits /
    (exact length) as score_stats does; a one-piece row is the row of before."""
    import numpy as np

    from evalkit.protocol import LIMB_BITS

    for edits, length, scale, n in [(5, Fraction(7, 3), 3 * 2**30, 2), (0, Fraction(0), 2**27, 1),
                                    (4, Fraction(0), 2**27, 1), (9, Fraction(2**40 + 1, 5), 5 * 7, 3)]:
        scaled = int(length * scale)
        total = n * scale
        mask = (1 << LIMB_BITS) - 1
        row = [edits, scaled & mask, scaled >> LIMB_BITS, total & mask, total >> LIMB_BITS, n]
        expected = score_stats(TERStats(edits, float(length), 0, 0, 0, 0)).score
        assert ter.score_row(row, {}) == expected
        assert ter.score_rows(np.array([row], dtype=np.int64), {})[0] == expected
