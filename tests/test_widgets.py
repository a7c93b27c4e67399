"""evalkit.widgets without a browser: the plain functions give exactly what evalkit.bleu computes, the
explorer re-scores without recounting, and bad input fails clearly."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.tokenize import NLTKWordTokenizer

from evalkit import bleu, plots, tables, widgets
from evalkit.widgets import (
    ROOKIE_PARAPHRASE,
    ROOKIE_REFERENCE,
    ROOKIE_SHORT,
    WeightsExplorer,
    count_corpus,
    count_sentence,
    normalized_weights,
    weights_view,
)

PAIRS = [
    ("the cat sat on the mat", ["the cat is on the mat", "the bird sat on the bush"]),
    ("the cat sat on the mat", ["the cat is on the mat"]),
    ("It's a well-known fact: costs rose 3.5% in the U.S.", ["It is a well-known fact that costs rose 3.5% in the U.S."]),
    ("a b c d e f g h i j", ["a b c d e f g h", "a b c d e f g h i j k"]),
    ("", ["the cat is on the mat"]),  # empty hypothesis: a legal edge case, BLEU 0
    ("cat", ["the cat"]),  # shorter than every n > 1
]
WEIGHTS = [(1.0,), (0.5, 0.5), (0.25, 0.25, 0.25, 0.0), (0.1, 0.2, 0.3, 0.4), (0.2, 0.0, 0.5, 0.3, 0.1)]


def assert_same_result(view, expected):
    assert math.isclose(view.score, expected.score, rel_tol=1e-12, abs_tol=1e-300)
    assert math.isclose(view.brevity_penalty, expected.brevity_penalty, rel_tol=1e-12)
    assert [(r.matches, r.total) for r in view.rows] == [(p.matches, p.total) for p in expected.precisions]
    for row, p in zip(view.rows, expected.precisions):
        assert (row.precision is None) == (p.value is None)
        if p.value is not None:
            assert math.isclose(row.precision, p.value, rel_tol=1e-12)
    assert view.score_text == f"BLEU = {expected.score:.4f}"


# ---------------------------------------------------------------------------------------------------------
# The plain functions equal evalkit.bleu
# ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("hyp, refs", PAIRS)
@pytest.mark.parametrize("weights", WEIGHTS)
@pytest.mark.parametrize("smoothing", ["none", "floor", "add-k", "exp", "method0", "method1", "method3", "method7"])
@pytest.mark.parametrize("ref_length", ["closest", "shortest"])
def test_view_equals_sentence_bleu(hyp, refs, weights, smoothing, ref_length):
    stats = count_sentence(hyp, refs, "13a")
    view = weights_view(stats, weights, smoothing=smoothing, ref_length=ref_length)
    expected = bleu.sentence_bleu(hyp, refs, weights=weights, smoothing=smoothing, tokenize="13a", ref_length=ref_length)
    assert_same_result(view, expected)
    total = math.fsum(weights)
    assert all(math.isclose(a, b / total) for a, b in zip(view.weights, weights))


@pytest.mark.parametrize("tokenize", ["none", "13a", "intl", "char", "nltk"])
def test_view_equals_sentence_bleu_for_every_evalkit_tokenizer(tokenize):
    hyp, refs = PAIRS[2]
    view = weights_view(count_sentence(hyp, refs, tokenize), (0.25,) * 4, smoothing="exp")
    assert_same_result(view, bleu.sentence_bleu(hyp, refs, smoothing="exp", tokenize=tokenize))


def test_max_order_takes_the_first_weights():
    stats = count_sentence(*PAIRS[0])
    view = weights_view(stats, (0.5, 0.5, 0.9, 0.9), max_order=2)
    assert view.weights == (0.5, 0.5)
    assert_same_result(view, bleu.sentence_bleu(*PAIRS[0], weights=(0.5, 0.5)))


@settings(max_examples=60, deadline=None)
@given(
    weights=st.lists(st.integers(0, 20), min_size=1, max_size=6).filter(any),
    smoothing=st.sampled_from(bleu.SMOOTHING),
    ref_length=st.sampled_from(bleu.REF_LENGTHS),
    pair=st.sampled_from(PAIRS[:4]),
)
def test_counting_once_at_order_six_then_rescoring_equals_counting_for_the_setting(weights, smoothing, ref_length, pair):
    """Counting at COUNT_ORDER and re-scoring gives what counting at exactly the needed order gives."""
    ws = tuple(k / 20 for k in weights)
    hyp, refs = pair
    try:
        expected = bleu.sentence_bleu(hyp, refs, weights=ws, smoothing=smoothing, ref_length=ref_length)
    except ValueError as exc:  # method6 without a 3-gram match: both refuse, with the same message
        with pytest.raises(ValueError, match="method6"):
            weights_view(count_sentence(hyp, refs), ws, smoothing=smoothing, ref_length=ref_length)
        assert "method6" in str(exc)
        return
    assert_same_result(weights_view(count_sentence(hyp, refs), ws, smoothing=smoothing, ref_length=ref_length), expected)


@pytest.mark.conformance
def test_nltk_tokenizer_is_nltk_word_tokenizer():
    tok = NLTKWordTokenizer()
    stats = count_sentence(ROOKIE_PARAPHRASE, [ROOKIE_REFERENCE], "nltk")
    expected = bleu.sentence_bleu(tok.tokenize(ROOKIE_PARAPHRASE), [tok.tokenize(ROOKIE_REFERENCE)], weights=(0.5, 0.5))
    assert_same_result(weights_view(stats, (0.5, 0.5)), expected)
    assert stats.tokenize == "nltk"


@pytest.mark.conformance
@pytest.mark.parametrize(
    "weights", [(0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.25, 0.25, 0.25, 0.25)], ids=["bleu2", "bleu3", "bleu4"]
)
def test_rookie_numbers_agree_with_nltk(weights):
    """The curriculum's weights example, against NLTK's sentence_bleu called now (method0 = NLTK's default:
    a zero precision becomes the smallest float, hence 3.9e-78 rather than 0 for the paraphrase at BLEU-4)."""
    import warnings

    from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

    tok = NLTKWordTokenizer()
    ref = tok.tokenize(ROOKIE_REFERENCE)
    for hyp in (ROOKIE_PARAPHRASE, ROOKIE_SHORT):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            peer = nltk_sentence_bleu([ref], tok.tokenize(hyp), weights=weights)
        view = weights_view(count_sentence(hyp, [ROOKIE_REFERENCE], "nltk"), weights, smoothing="method0")
        assert math.isclose(view.score, peer, rel_tol=1e-12), (hyp, weights)


@pytest.mark.conformance
def test_corpus_view_equals_corpus_bleu_and_sacrebleu(wmt17):
    import sacrebleu

    reference, systems = wmt17
    hyps = systems["uedin-nmt"]
    stats = count_corpus(hyps, [[r] for r in reference], "13a")
    for ws in [(0.25,) * 4, (0.5, 0.5), (0.1, 0.2, 0.3, 0.4)]:
        view = weights_view(stats, ws, smoothing="exp")
        assert math.isclose(view.score, float(bleu.score_stats(stats, weights=ws, smoothing="exp")), rel_tol=1e-12)
    peer = sacrebleu.corpus_bleu(hyps, [reference])  # 13a, exp smoothing, BLEU-4
    assert math.isclose(100 * weights_view(stats, (0.25,) * 4, smoothing="exp").score, peer.score, rel_tol=1e-9)
    assert stats.segments == 3004


def test_normalized_weights_by_hand():
    # 0.25 / (0.25 + 0.25 + 0.25) = 1/3 for each used order; a zero weight stays zero.
    ws = normalized_weights((0.25, 0.25, 0.25, 0.0))
    assert len(ws) == 4 and all(math.isclose(a, b, abs_tol=0) for a, b in zip(ws, (1 / 3, 1 / 3, 1 / 3, 0.0)))
    # only the first two of four count: 0.2 / (0.2 + 0.6) = 0.25 and 0.6 / 0.8 = 0.75
    ws = normalized_weights((0.2, 0.6, 0.5, 0.5), max_order=2)
    assert len(ws) == 2 and math.isclose(ws[0], 0.25) and math.isclose(ws[1], 0.75)


def test_rows_and_bars_by_hand():
    # Worked example B: p = 5/6, 3/5, 1/4, 0/3 with weights 1/4: w·log p = log(5/6)/4, ..., -inf.
    view = weights_view(count_sentence("the cat sat on the mat", ["the cat is on the mat"]), (0.25,) * 4)
    assert [(r.matches, r.total) for r in view.rows] == [(5, 6), (3, 5), (1, 4), (0, 3)]
    for row, p in zip(view.rows[:3], (5 / 6, 3 / 5, 1 / 4)):
        assert math.isclose(row.weighted_log, math.log(p) / 4)
    assert view.rows[3].weighted_log == -math.inf
    assert math.isclose(view.score, 0.0, abs_tol=0) and view.score_text == "BLEU = 0.0000"
    assert [label for label, _ in view.bars] == ["1-gram", "2-gram", "3-gram", "4-gram"]
    # Dropping the 4-gram weight: exp((log 5/6 + log 3/5 + log 1/4) / 3) = (1/8)^(1/3) = 0.5
    view = weights_view(view.result.stats, (1, 1, 1, 0))
    assert view.rows[3].weighted_log is None
    assert math.isclose(view.score, 0.5) and view.score_text == "BLEU = 0.5000"


# ---------------------------------------------------------------------------------------------------------
# The explorer: updates re-score, they do not recount
# ---------------------------------------------------------------------------------------------------------
@pytest.fixture
def count_calls(monkeypatch):
    """Counts every call of the two ways evalkit counts n-grams: evalkit.bleu.stats_from_tokens (one
    segment, the readable way) and evalkit.bleu.corpus_stats_indexed (a whole corpus, the fast way)."""
    calls = []

    def counting(original):
        def wrapper(*args, **kwargs):
            calls.append(args)
            return original(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(bleu, "stats_from_tokens", counting(bleu.stats_from_tokens))
    monkeypatch.setattr(bleu, "corpus_stats_indexed", counting(bleu.corpus_stats_indexed))
    return calls


def test_weight_smoothing_reflength_changes_do_not_recount(count_calls):
    ex = WeightsExplorer()
    assert len(count_calls) == 1  # one segment counted once
    for value in (0.0, 0.1, 0.7):
        ex.sliders[3].value = value
    ex.sliders[0].value = 0.6
    ex.max_order.value = 2
    ex.max_order.value = 5
    ex.smoothing.value = "exp"
    ex.smoothing.value = "method7"
    ex.ref_length.value = "shortest"
    ex.apply_preset("BLEU-2 (uniform)")
    ex.apply_preset("BLEU-4 (uniform)")
    assert len(count_calls) == 1, "a weight/smoothing/ref-length change recounted n-grams"
    ex.hypothesis.value = ROOKIE_SHORT
    assert len(count_calls) == 2
    ex.tokenize.value = "13a"
    assert len(count_calls) == 3
    ex.apply_preset("worked example A (BLEU-2, two references)")  # text, tokenizer and weights: one recount
    assert len(count_calls) == 4
    ex.sliders[1].value = 0.0
    assert len(count_calls) == 4


def test_weights_view_itself_never_counts(count_calls):
    stats = count_sentence(*PAIRS[0])
    assert len(count_calls) == 1
    for ws in WEIGHTS:
        weights_view(stats, ws, smoothing="floor")
    assert len(count_calls) == 1


def test_corpus_explorer_counts_the_corpus_once(count_calls):
    hyps = ["the cat sat on the mat", "a quick brown fox"]
    refs = [["the cat is on the mat"], ["the quick brown fox jumps"]]
    ex = WeightsExplorer(corpus=(hyps, refs), tokenize="none", smoothing="method1")
    assert len(count_calls) == 1  # one pass of the fast corpus counter
    ex.sliders[2].value = 0.0
    ex.smoothing.value = "floor"
    assert len(count_calls) == 1
    expected = bleu.corpus_bleu(hyps, refs, weights=(0.25, 0.25, 0.0, 0.25), smoothing="floor")
    assert math.isclose(ex.view.score, expected.score, rel_tol=1e-12)


@pytest.mark.conformance
def test_explorer_shows_what_the_plain_functions_compute():
    ex = WeightsExplorer()
    assert ex.view.score_text == "BLEU = 0.0000"  # paraphrase, BLEU-4, no smoothing: p4 = 0/10
    ex.sliders[3].value = 0.0
    tok = NLTKWordTokenizer()
    expected = bleu.sentence_bleu(
        tok.tokenize(ROOKIE_PARAPHRASE), [tok.tokenize(ROOKIE_REFERENCE)], weights=(0.25, 0.25, 0.25, 0.0)
    )
    assert_same_result(ex.view, expected)
    assert expected.score > 0.2  # the curriculum's 0.2189 for BLEU-3
    assert ex.view.score_text in ex.score.value
    assert "(0.3333, 0.3333, 0.3333, 0.0000)" in ex.weights_text.value
    assert f"BP = {expected.brevity_penalty:.4f}" in ex.details.value
    assert ex.table.value == widgets.weights_table_html(ex.view)
    assert ex.bars.value == widgets.weighted_log_bars_svg(ex.view)
    assert [s.layout.display for s in ex.sliders] == [None] * 4 + ["none"] * 2
    assert repr(ex) == f"WeightsExplorer({ex.view.score_text})"
    assert ex._repr_mimebundle_()["text/plain"] == repr(ex)
    assert ex.last_update_s is not None and ex.last_update_s >= 0


def test_weights_above_one_are_scaled_onto_the_sliders():
    # (2, 1) and (1, 0.5) normalize to the same (2/3, 1/3); the sliders only reach 1
    ex = WeightsExplorer(weights=(2, 1))
    assert all(math.isclose(s.value, v) for s, v in zip(ex.sliders[:2], (1.0, 0.5)))
    assert math.isclose(ex.view.weights[0], 2 / 3) and math.isclose(ex.view.weights[1], 1 / 3)


def test_presets_set_what_they_name():
    ex = WeightsExplorer()
    ex.apply_preset("rookie numbers: short and exact")
    assert ex.hypothesis.value == ROOKIE_SHORT and ex.tokenize.value == "nltk"
    # all precisions are 1; BP = exp(1 - 13/7) for c = 7 and r = 13 tokens
    assert math.isclose(ex.view.score, math.exp(1 - 13 / 7), rel_tol=1e-12)
    ex.apply_preset("BLEU-3 (uniform)")
    assert ex.max_order.value == 3 and all(math.isclose(w, 1 / 3) for w in ex.view.weights)
    assert ex.hypothesis.value == ROOKIE_SHORT  # a weights-only preset keeps the text
    ex.preset.value = "closest vs shortest reference length"
    assert ex.ref_length.value == "shortest" and ex.view.result.ref_len == 8


# ---------------------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda s: weights_view("not stats", (1,)), TypeError, "BLEUStats"),
        (lambda s: weights_view(s, (0, 0)), ValueError, "all weights are zero"),
        (lambda s: weights_view(s, (1, 0, 0), max_order=3), ValueError, None),  # fine: not an error
        (lambda s: weights_view(s, (0, 0, 1), max_order=2), ValueError, "all weights are zero"),
        (lambda s: weights_view(s, (1, 1), max_order=3), ValueError, "only 2 weights"),
        (lambda s: weights_view(s, (1,) * 7), ValueError, "order 6"),
        (lambda s: weights_view(s, (1, -1)), ValueError, "non-negative"),
        (lambda s: weights_view(s, "0.5 0.5"), TypeError, "sequence of numbers"),
        (lambda s: weights_view(s, (1,), smoothing="laplace"), ValueError, "'exp'"),
        (lambda s: weights_view(s, (1,), ref_length="longest"), ValueError, "'closest'"),
        (lambda s: weights_view(s, (1,), max_order=0), ValueError, "at least 1"),
        (lambda s: count_sentence(None, ["a"]), TypeError, "hypothesis is None"),
        (lambda s: count_sentence("a", "a b"), TypeError, "single string"),
        (lambda s: count_sentence("a", []), ValueError, "empty"),
        (lambda s: count_sentence("a", ["a"], "moses"), ValueError, "'nltk'"),
        (lambda s: count_sentence(None, ["a"], "nltk"), TypeError, "hypothesis is None"),
        (lambda s: count_corpus([], [], "13a"), ValueError, "empty"),
        (lambda s: count_corpus(["a"], [["a"], ["b"]], "13a"), ValueError, "lengths differ"),
        (lambda s: widgets.preset("BLEU-9"), ValueError, "BLEU-4"),
        (lambda s: widgets.tokenize_text(b"bytes", "none"), TypeError, "bytes"),
        (lambda s: widgets.simplex_weights(0), ValueError, "at least 1"),
        (lambda s: widgets.rankings({}, [(1,)]), ValueError, "non-empty"),
    ],
)
def test_bad_input(call, error, match):
    stats = count_sentence(*PAIRS[0])
    if match is None:
        call(stats)  # a legal call among the illegal ones: must not raise
        return
    with pytest.raises(error, match=match):
        call(stats)


def test_explorer_shows_errors_instead_of_crashing():
    ex = WeightsExplorer()
    for s in ex.sliders[:4]:
        s.value = 0.0
    assert ex.view is None and "all weights are zero" in ex.error and "BLEU = –" in ex.score.value
    ex.sliders[0].value = 1.0
    assert ex.view.score_text.startswith("BLEU = 0.")
    ex.references.value = "\n  \n"
    assert ex.view is None and "at least one reference" in ex.error
    ex.references.value = ROOKIE_REFERENCE
    ex.smoothing.value = "method6"  # needs three orders: max order 4, but 3-gram precision 1/11 is fine
    assert ex.view is not None
    ex.max_order.value = 2
    assert ex.view is None and "method6" in ex.error


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(weights=(0, 0)), ValueError, "all weights are zero"),
        (dict(weights=(1,) * 7), ValueError, "at most 6"),
        (dict(smoothing="nope"), ValueError, "smoothing"),
        (dict(tokenize="nope"), ValueError, "tokenizer"),
        (dict(ref_length="nope"), ValueError, "ref_length"),
        (dict(hypothesis=None), TypeError, "hypothesis is None"),
        (dict(references=[]), ValueError, "empty"),
        (dict(references="a bare string"), TypeError, "single string"),
        (dict(references=[["tokens"]]), TypeError, "must be a str"),
        (dict(hypothesis=["tokens"]), TypeError, "must be a str"),
    ],
)
def test_explorer_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        WeightsExplorer(**kwargs)


def test_imports_stay_light():
    code = (
        "import sys, evalkit.bleu; assert 'ipywidgets' not in sys.modules, 'bleu imported ipywidgets'; "
        "import evalkit.widgets; heavy = {'ipywidgets', 'pandas', 'matplotlib'} & set(sys.modules); "
        "assert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ---------------------------------------------------------------------------------------------------------
# Static views, tables and plots
# ---------------------------------------------------------------------------------------------------------
def test_simplex_grid_and_scores():
    pts = widgets.simplex_weights(20)
    assert len(pts) == 21 * 22 // 2  # k1 + k2 + k3 = 20 with k_i >= 0: C(22, 2) = 231 points
    assert all(math.isclose(sum(p), 1.0) for p in pts)
    stats = count_sentence(ROOKIE_PARAPHRASE, [ROOKIE_REFERENCE], "nltk")
    scores = widgets.simplex_scores(stats, 4)
    for w1, w2, w3, value in scores:
        assert math.isclose(value, float(bleu.score_stats(stats, weights=(w1, w2, w3))), rel_tol=1e-12)


def test_uniform_path_and_rankings():
    path = widgets.uniform_path(4, 10)
    assert len(path) == 31 and path[0] == (1.0, 0.0, 0.0, 0.0)
    assert all(math.isclose(a, 0.25) for a in path[-1]) and all(math.isclose(sum(w), 1) for w in path)
    assert all(math.isclose(a, b) for a, b in zip(path[10], (0.5, 0.5, 0, 0)))
    stats = {
        "paraphrase": count_sentence(ROOKIE_PARAPHRASE, [ROOKIE_REFERENCE], "nltk"),
        "short": count_sentence(ROOKIE_SHORT, [ROOKIE_REFERENCE], "nltk"),
    }
    ranks = widgets.rankings(stats, [(1.0,), (0.5, 0.5)])
    # BLEU-1: paraphrase 6/13 = 0.4615 > short exp(1 - 13/7) = 0.4244; BLEU-2: 0.3397 < 0.4244
    assert ranks == {"paraphrase": [1, 2], "short": [2, 1]}


def test_weights_table_and_html():
    view = weights_view(count_sentence("the cat sat on the mat", ["the cat is on the mat"]), (0.25,) * 4)
    df = tables.weights_table(view)
    assert list(df.columns) == ["matches", "total", "precision", "weight", "w·log p"]
    assert list(df.index) == [1, 2, 3, 4] and list(df["matches"]) == [5, 3, 1, 0]
    assert math.isclose(df.loc[2, "precision"], 3 / 5) and df.loc[4, "w·log p"] == -math.inf
    html = widgets.weights_table_html(view)
    assert html.count("<tr>") == 5 and "5 / 6" in html and "−∞" in html and "0.8333" in html


def test_bar_svg_and_matplotlib_bars():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    view = weights_view(count_sentence("the cat sat on the mat", ["the cat is on the mat"]), (1, 1, 1, 0))
    svg = widgets.weighted_log_bars_svg(view)
    for label in ("1-gram", "4-gram", "log BP", "log BLEU", "weight 0", f"{math.log(5 / 6) / 3:.4f}"):
        assert label in svg
    ax = plots.weighted_log_bars(view)
    assert len(ax.patches) == 5  # three weighted orders, log BP, log BLEU (the 4-gram has weight 0)
    total = [p.get_width() for p in ax.patches][-1]
    assert math.isclose(total, math.log(view.score))  # log BLEU = sum of the terms + log BP (BP = 1)
    assert ax.get_title() == "BLEU = 0.5000"
    plt.close("all")


def test_heatmap_and_rank_plot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    stats = count_sentence(ROOKIE_PARAPHRASE, [ROOKIE_REFERENCE], "nltk")
    pts = widgets.simplex_scores(stats, 10)
    ax = plots.simplex_heatmap(pts, title="paraphrase")
    mesh = ax.collections[0]
    assert len(mesh.get_array()) == len(pts)
    assert math.isclose(max(mesh.get_array()), max(v for *_, v in pts))
    ranks = {"a": [1, 2, 1], "b": [2, 1, 2]}
    ax = plots.rank_paths(ranks, tick_positions=[0, 2], tick_labels=["BLEU-1", "BLEU-2"])
    assert len(ax.lines) == 2 and list(ax.lines[0].get_ydata()) in ([1, 2, 1], [2, 1, 2])
    with pytest.raises(ValueError, match="empty"):
        plots.simplex_heatmap([])
    plt.close("all")


def _inside_canvas(fig):
    # every drawn artist's box (titles, tick labels, texts, the colour bar) lies inside the saved canvas
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    canvas = fig.bbox
    tight = fig.get_tightbbox(renderer).transformed(fig.dpi_scale_trans)
    return (tight.x0 >= canvas.x0 - 1 and tight.y0 >= canvas.y0 - 1
            and tight.x1 <= canvas.x1 + 1 and tight.y1 <= canvas.y1 + 1)


def test_difference_heatmap_scales_each_side_to_its_own_extreme():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    para = widgets.simplex_scores(count_sentence(ROOKIE_PARAPHRASE, [ROOKIE_REFERENCE], "nltk"), 20)
    short = widgets.simplex_scores(count_sentence(ROOKIE_SHORT, [ROOKIE_REFERENCE], "nltk"), 20)
    diff = [(w1, w2, w3, p - s) for (w1, w2, w3, p), (*_, s) in zip(para, short)]
    values = [d for *_, d in diff]
    ax = plots.simplex_heatmap(diff, cmap="RdBu", center=0, label="difference")
    mesh = ax.collections[0]
    norm = mesh.norm
    # the small positive side (the paraphrase's wins) reaches the end of the colour scale, not near white
    assert math.isclose(norm.vmax, max(values)) and math.isclose(norm.vmin, min(values)) and norm.vcenter == 0
    assert math.isclose(norm(max(values)), 1.0) and math.isclose(norm(0.0), 0.5)
    colorbar = mesh.colorbar
    assert colorbar.ax.get_ylabel() == "difference"
    assert len(ax.collections) >= 2  # the tie line (value = 0) is drawn
    texts = [t.get_text() for t in ax.texts]
    assert "uniform BLEU-3" in texts and {"w1 = 1", "w2 = 1", "w3 = 1"} <= set(texts)
    assert _inside_canvas(ax.figure)
    # w2 = 1 is drawn left of the colour bar, not under it
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    w2 = next(t for t in ax.texts if t.get_text() == "w2 = 1").get_window_extent(renderer)
    assert w2.x1 < colorbar.ax.get_window_extent(renderer).x0
    plt.close("all")


def test_rank_paths_names_every_system_on_both_sides_inside_the_canvas():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ranks = {"RWTH-nmt-ensemble": [1, 2, 3], "LMU-nmt-reranked": [2, 1, 1], "c": [3, 3, 2]}
    ax = plots.rank_paths(ranks, tick_positions=[0, 2], tick_labels=["BLEU-1", "BLEU-2"])
    left = [t.get_text() for t in ax.get_yticklabels()]
    right_axis = next(a for a in ax.figure.axes if a is not ax)
    right = [t.get_text() for t in right_axis.get_yticklabels()]
    assert left == ["RWTH-nmt-ensemble  1", "LMU-nmt-reranked  2", "c  3"]
    assert right == ["1  LMU-nmt-reranked", "2  c", "3  RWTH-nmt-ensemble"]
    assert _inside_canvas(ax.figure)
    plt.close("all")


def test_log_bar_labels_stay_inside_the_axes_and_off_the_bars():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    stats = count_sentence(ROOKIE_PARAPHRASE, [ROOKIE_REFERENCE], "nltk")
    for weights in ((1, 1, 1, 0), (1, 1, 1, 1)):  # a weight-0 order; a zero factor (-inf)
        ax = plots.weighted_log_bars(widgets.weights_view(stats, weights))
        ax.figure.canvas.draw()
        renderer = ax.figure.canvas.get_renderer()
        box = ax.get_window_extent(renderer)
        bars = [p.get_window_extent(renderer) for p in ax.patches]
        for text in ax.texts:
            extent = text.get_window_extent(renderer)
            assert box.x0 <= extent.x0 and extent.x1 <= box.x1, text.get_text()
            for b in bars:  # no label drawn over a bar (touching its end is fine)
                overlap_w = min(extent.x1, b.x1) - max(extent.x0, b.x0)
                overlap_h = min(extent.y1, b.y1) - max(extent.y0, b.y0)
                assert not (overlap_w > 1 and overlap_h > 1), text.get_text()
        plt.close("all")


def test_one_tie_rule_for_tables_plots_and_widgets():
    from evalkit.ranking import competition_ranks

    scores = {"A": 0.2, "B": 0.3, "C": 0.3, "D": 0.1}
    assert competition_ranks(scores) == {"A": 3, "B": 1, "C": 1, "D": 4}  # by hand: 1, 1, 3, 4
    assert tables.bleu_ranks(scores) == competition_ranks(scores)
    # two systems with the same statistics tie at every weight setting, and share the better rank
    same = count_sentence("the cat sat on the mat", ["the cat is on the mat"])
    worse = count_sentence("a dog", ["the cat is on the mat"])
    ranks = widgets.rankings({"z": same, "a": same, "m": worse}, [(1.0,), (0.5, 0.5)])
    assert ranks == {"z": [1, 1], "a": [1, 1], "m": [3, 3]}


@pytest.mark.parametrize("tokenize", ["nltk", "13a"])
def test_count_sentence_warns_once_about_unsplit_chinese_as_sentence_bleu_does(tokenize):
    import warnings

    from evalkit.tokenize import TokenizationWarning

    def caught_warnings(hypothesis, references):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            stats = count_sentence(hypothesis, references, tokenize)
        return stats, [w for w in caught if issubclass(w.category, TokenizationWarning)]

    stats, caught = caught_warnings("猫坐在垫子上", ["猫在垫子上", "狗坐在垫子上"])
    assert len(caught) == 1  # one per call, however many texts fail
    assert f'tokenize="{tokenize}"' in str(caught[0].message) and 'tokenize="char"' in str(caught[0].message)
    assert caught[0].filename == __file__  # pointed at the caller's line
    assert stats.matches[0] == 0  # the whole sentence is one token, and it matches nothing: why it warns
    assert caught_warnings(ROOKIE_PARAPHRASE, [ROOKIE_REFERENCE])[1] == []  # English: no warning
    assert caught_warnings("die Katze saß auf der Matte", ["die Katze ist auf der Matte"])[1] == []  # German neither


# ==========================================================================================================
# Moved from tests/test_hardening.py (marks: hardening):
# Regression tests for issue 10 ("Hardening and the house"): bad input gets a clear error or a correct
# score, and the peers' own APIs work where a user would expect them.
#
# Each group quotes the finding it pins.  Expected numbers are computed by hand in the test or by the peer
# library (NLTK, sacreBLEU, rouge-score, gleu) at test time.
# ==========================================================================================================


HYP = "the cat sat on the mat"
REFS = ["the cat is on the mat", "the bird sat on the bush"]


@pytest.mark.hardening
def test_huge_weights_in_the_explorer_functions():
    from evalkit.widgets import count_sentence, normalized_weights, weights_view

    assert normalized_weights((1e308, 1e308)) == (0.5, 0.5)
    view = weights_view(count_sentence(HYP, REFS), (1e308, 1e308))
    assert view.weights == (0.5, 0.5)


# --------------------------------------------------------------------------------------------------------
# "`WeightsExplorer` splits a reference at a newline and shows 1.0 where `sentence_bleu` gives 0.8187."
# (Cause: the constructor joined the references with "\n" into the text box and counted the box's lines,
#  so a reference holding a newline became two references.)
# --------------------------------------------------------------------------------------------------------
@pytest.mark.hardening
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
