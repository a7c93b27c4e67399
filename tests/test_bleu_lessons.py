"""The BLEU lessons' plots and tables: each test checks the numbers a figure or table shows against
evalkit's scoring functions (or against arithmetic done by hand in a comment)."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from evalkit import plots, tables  # noqa: E402
from evalkit.bleu import SMOOTHING, brevity_penalty, score_stats, sentence_bleu, sentence_stats  # noqa: E402

HYP = "the cat sat on the mat"
REF = "the cat is on the mat"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _line(ax, label):
    (line,) = [ln for ln in ax.get_lines() if ln.get_label() == label]
    return list(line.get_xdata()), list(line.get_ydata())


# --- brevity penalty ---------------------------------------------------------------------------------------
def test_bp_curve_values_by_hand():
    ratios, bps = plots.bleu_bp_curve(max_ratio=2.0, points=5)  # ratios 0, 0.5, 1, 1.5, 2
    assert ratios == [0.0, 0.5, 1.0, 1.5, 2.0]
    # c = 0 -> 0; c/r = 1/2 -> exp(1 - 2) = e^-1; c = r -> exp(0) = 1; longer -> 1
    expected = [0.0, math.exp(-1), 1.0, 1.0, 1.0]
    assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in zip(bps, expected))


def test_plot_brevity_penalty_draws_curve_and_marks():
    ax = plots.plot_brevity_penalty({"10 vs 11": (10, 11), "short": (3, 6)})
    xs, ys = _line(ax, "BP")
    ratios, bps = plots.bleu_bp_curve()
    assert xs == ratios and ys == bps
    x, y = _line(ax, "10 vs 11")
    assert math.isclose(x[0], 10 / 11) and math.isclose(y[0], brevity_penalty(10, 11))
    assert math.isclose(y[0], math.exp(1 - 11 / 10))  # 0.9048, the curriculum's closest-reference example
    x, y = _line(ax, "short")
    assert math.isclose(x[0], 0.5) and math.isclose(y[0], math.exp(-1))


def test_plot_brevity_penalty_bad_input():
    with pytest.raises(ValueError, match="reference length"):
        plots.plot_brevity_penalty({"bad": (3, 0)})
    with pytest.raises(ValueError, match="max_ratio"):
        plots.bleu_bp_curve(max_ratio=0)
    with pytest.raises(ValueError, match="points"):
        plots.bleu_bp_curve(points=1)


# --- precisions --------------------------------------------------------------------------------------------
def test_plot_precisions_bars_are_the_clipped_precisions():
    result = sentence_bleu(HYP, [REF])
    ax = plots.plot_precisions(result)
    heights = [bar.get_height() for bar in ax.patches]
    # by hand: 5/6, 3/5, 1/4, 0/3 (worked example B)
    expected = [5 / 6, 3 / 5, 1 / 4, 0.0]
    assert all(math.isclose(h, e) for h, e in zip(heights, expected)) and len(heights) == 4
    assert [p.matches / p.total for p in result.precisions] == pytest.approx(heights)
    labels = [t.get_text() for t in ax.texts]
    assert labels == ["5/6", "3/5", "1/4", "0/3"]


def test_plot_precisions_groups_several_results():
    a = sentence_bleu(HYP, [REF])
    b = sentence_bleu("the cat", [REF])  # 2/2, 1/1, then no 3- or 4-grams: drawn as 0
    ax = plots.plot_precisions({"long": a, "short": b})
    containers = ax.containers
    assert len(containers) == 2
    assert [bar.get_height() for bar in containers[1]] == pytest.approx([1.0, 1.0, 0.0, 0.0])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["long", "short"]


def test_plot_precisions_bad_input():
    with pytest.raises(TypeError, match="BLEUResult"):
        plots.plot_precisions([0.5, 0.25])
    with pytest.raises(TypeError, match="BLEUResult"):
        plots.plot_precisions({"x": 0.5})


# --- smoothing ---------------------------------------------------------------------------------------------
def test_plot_smoothing_bars_equal_score_stats():
    stats = sentence_stats(HYP, [REF], max_order=5)
    ax = plots.plot_smoothing(stats)
    heights = [bar.get_height() for bar in ax.patches]
    assert len(heights) == len(SMOOTHING)
    for method, height in zip(SMOOTHING, heights):
        assert math.isclose(height, score_stats(stats, smoothing=method).score, rel_tol=1e-12, abs_tol=1e-300)
    assert [t.get_text() for t in ax.get_xticklabels()] == list(SMOOTHING)
    labels = dict(zip(SMOOTHING, (t.get_text() for t in ax.texts)))
    # NLTK's method0 score is tiny but not zero (about 7.26e-78): the label must not round it to 0
    tiny = score_stats(stats, smoothing="method0").score
    assert 0 < tiny < 1e-70 and labels["method0"] == f"{tiny:.2e}" and labels["none"] == "0.0000"


def test_plot_smoothing_floor_by_hand():
    # floor: the 0/3 four-gram precision becomes 0.1/3; BLEU = (5/6 * 3/5 * 1/4 * 0.1/3)^(1/4), BP = 1
    stats = sentence_stats(HYP, [REF])
    ax = plots.plot_smoothing(stats, methods=["none", "floor"])
    heights = [bar.get_height() for bar in ax.patches]
    assert heights[0] == 0.0
    assert math.isclose(heights[1], (5 / 6 * 3 / 5 * 1 / 4 * 0.1 / 3) ** 0.25, rel_tol=1e-12)


def test_plot_smoothing_marks_a_refusing_method():
    # "a b c" against "a b x": 3-gram precision 0/1, so method6 refuses (as NLTK does)
    stats = sentence_stats("a b c", ["a b x"])
    with pytest.raises(ValueError):
        score_stats(stats, smoothing="method6")
    ax = plots.plot_smoothing(stats, methods=["method1", "method6"])
    assert ax.patches[1].get_height() == 0.0
    assert [t.get_text() for t in ax.texts][1] == "refused"


def test_plot_smoothing_unknown_method():
    with pytest.raises(ValueError, match="unknown smoothing"):
        plots.plot_smoothing(sentence_stats(HYP, [REF]), methods=["nope"])


def test_smoothing_table_rows_equal_score_stats():
    stats = sentence_stats(HYP, [REF], max_order=5)
    df = tables.bleu_smoothing_table(stats)
    assert list(df.index) == list(SMOOTHING)
    for method in SMOOTHING:
        result = score_stats(stats, smoothing=method)
        assert math.isclose(df.loc[method, "BLEU"], result.score, rel_tol=1e-12, abs_tol=1e-300)
        for p in result.precisions:
            assert math.isclose(df.loc[method, f"p{p.n}"], p.value, rel_tol=1e-12)
    # method2 by hand: add one to matches and totals from n = 2: 5/6, 4/6, 2/5, 1/4
    assert [df.loc["method2", f"p{n}"] for n in range(1, 5)] == pytest.approx([5 / 6, 4 / 6, 2 / 5, 1 / 4])


def test_smoothing_table_refused_method_shows_the_reason_not_nan():
    stats = sentence_stats("a b c", ["a b x"])
    df = tables.bleu_smoothing_table(stats, methods=["method1", "method5", "method6", "method7"])
    for method in ("method5", "method6", "method7"):
        with pytest.raises(ValueError) as refused:
            score_stats(stats, smoothing=method)
        # the row carries sentence_bleu's own message, and no number (not NaN: empty)
        assert df.loc[method, "note"] == str(refused.value)
        assert [df.loc[method, c] for c in ("p1", "p2", "p3", "p4", "BLEU")] == [""] * 5
    assert df.loc["method1", "note"] == ""
    assert math.isclose(df.loc["method1", "BLEU"], score_stats(stats, smoothing="method1").score, rel_tol=1e-12)
    assert not df.drop(columns="note").isna().any().any()
    rounded = tables.bleu_smoothing_table(stats, methods=["method1", "method6"], digits=4)
    assert rounded.loc["method1", "BLEU"] == round(score_stats(stats, smoothing="method1").score, 4)


def test_smoothing_table_is_numeric_when_every_method_scores():
    df = tables.bleu_smoothing_table(sentence_stats(HYP, [REF], max_order=5))
    assert all(df[c].dtype == float for c in ("p1", "p2", "p3", "p4", "BLEU"))
    assert (df["note"] == "").all()


# --- systems and rankings ----------------------------------------------------------------------------------
SCORES = {
    "13a": {"A": 30.0, "B": 28.0, "C": 20.0},
    "char": {"A": 60.0, "B": 62.0, "C": 50.0},
}


def test_ranks_by_hand():
    assert tables.bleu_ranks({"A": 3.0, "B": 5.0, "C": 1.0}) == {"B": 1, "A": 2, "C": 3}
    assert tables.bleu_ranks({"A": 2.0, "B": 2.0, "C": 1.0}) == {"A": 1, "B": 1, "C": 3}  # ties share


def test_plot_rank_changes_lines_are_ranks():
    ax = plots.plot_rank_changes(SCORES)
    xs, ys = _line(ax, "A")
    assert xs == [0, 1] and ys == [1, 2]  # A first under 13a, second under char
    assert _line(ax, "B")[1] == [2, 1]
    assert _line(ax, "C")[1] == [3, 3]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["13a", "char"]


def test_plot_system_scores_markers_are_scores():
    ax = plots.plot_system_scores(SCORES)
    xs, ys = _line(ax, "char")
    # rows sorted by the first setting's score: A (30), B (28), C (20)
    assert xs == [60.0, 62.0, 50.0] and ys == [0, 1, 2]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["A", "B", "C"]


def test_system_table():
    df = tables.bleu_system_table(SCORES)
    assert list(df.index) == ["A", "B", "C"]
    assert list(df.columns) == ["13a", "char", "rank 13a", "rank char"]
    assert df.loc["B", "rank char"] == 1 and math.isclose(df.loc["B", "char"], 62.0)


def test_system_scores_bad_input():
    with pytest.raises(TypeError):
        plots.plot_rank_changes({})
    with pytest.raises(TypeError):
        tables.bleu_system_table({"13a": [1, 2]})
    with pytest.raises(ValueError, match="same systems"):
        plots.plot_system_scores({"13a": {"A": 1.0}, "char": {"B": 1.0}})


def test_importing_bleu_stays_light():
    import subprocess
    import sys

    code = "import evalkit.bleu, sys; print('pandas' in sys.modules, 'matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False False"


# --- system_stats: the second, faster way to count many systems (lesson 04) -------------------------------
def test_system_stats_by_hand():
    from evalkit.bleu import system_stats

    s = system_stats({"A": ["the cat sat"], "B": ["a cat sat"]}, [["the cat sat down"]])
    # A: unigrams 3/3, bigrams 2/2, trigram 1/1, no 4-gram; B: "cat", "sat" and "cat sat" match
    assert (s["A"].matches, s["A"].totals, s["A"].empty) == ((3, 2, 1, 0), (3, 2, 1, 0), (0, 0, 0, 1))
    assert (s["B"].matches, s["B"].totals) == ((2, 1, 0, 0), (3, 2, 1, 0))
    assert s["A"].closest_ref_len == 4 and s["A"].hyp_len == 3


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


def test_system_stats_equals_corpus_stats_multi_reference(jfleg_dev):
    from evalkit.bleu import corpus_stats, system_stats

    refs = jfleg_dev.references
    chosen = {"source": jfleg_dev.sources, "reference 0": jfleg_dev.reference_sets[0]}
    fast = system_stats(chosen, refs, max_order=5, lowercase=True)
    for name, outputs in chosen.items():
        assert fast[name] == corpus_stats(outputs, refs, max_order=5, lowercase=True, fast=False)


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


# --- the tokenizer module's documented example (lesson 04 relies on it) -----------------------------------
def test_tokenize_docstring_examples_match_sacrebleu():
    import doctest

    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

    import evalkit.tokenize as module

    # the module's examples run as written (the 13a example once claimed the apostrophe was split off)
    assert doctest.testmod(module).failed == 0
    text = "It's 3.5% in the U.S."
    assert module.tokenize(text, "13a") == Tokenizer13a()(text).split()
    assert module.tokenize(text, "intl") == TokenizerV14International()(text).split()


# A small vocabulary makes matches (and repeated n-grams, which clipping must handle) likely.
_sentence = st.lists(st.sampled_from(["a", "b", "c", "the", "cat"]), min_size=0, max_size=8)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), segments=st.integers(min_value=1, max_value=4), systems=st.integers(min_value=1, max_value=3))
def test_system_stats_equals_corpus_stats_property(data, segments, systems):
    from evalkit.bleu import corpus_stats, system_stats

    refs = [data.draw(st.lists(_sentence, min_size=1, max_size=3)) for _ in range(segments)]
    outputs = {f"S{k}": [data.draw(_sentence) for _ in range(segments)] for k in range(systems)}
    fast = system_stats(outputs, refs, max_order=5)
    for name, hyps in outputs.items():
        assert fast[name] == corpus_stats(hyps, refs, max_order=5)
