"""Slides-ready figures: every public plotting function takes ``figsize=``, draws nothing outside its canvas
(no clipped tick label, axis label, title, legend or colour bar) at its default size and at a small slides
size, and ``plots.save`` writes a cropped PNG at 150 dpi.  Then the figures' own checks (the agreement plot
and its label placement)."""

from __future__ import annotations

import inspect
import itertools

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from evalkit import bleu, data, gleu, plots, widgets  # noqa: E402
from evalkit.correlation import kendall_tau, pearson  # noqa: E402
from evalkit.rouge_corpus import corpus_rouge  # noqa: E402

SEGMENTS = 60  # small real inputs: the first segments of WMT17 and JFLEG


@pytest.fixture(scope="module")
def inputs():
    """name -> (function, args, kwargs) for every public plotting function, on real data."""
    reference = data.wmt17_reference()[:SEGMENTS]
    systems = {name: out[:SEGMENTS] for name, out in data.wmt17_systems().items()}
    refs = [[r] for r in reference]
    by_tokenizer = {tok: {name: 100 * bleu.corpus_bleu(out, refs, tokenize=tok).score
                          for name, out in systems.items()} for tok in ("13a", "intl", "char")}
    jf = data.jfleg("test")
    src, jrefs = jf.sources[:SEGMENTS], jf.references[:SEGMENTS]
    hyp, ref = jf.sources[0], jf.references[0][0]
    stats = bleu.sentence_stats(hyp, [ref])
    system_stats = {name: bleu.corpus_stats(out, refs, tokenize="13a") for name, out in systems.items()}
    bleu_by_system = {name: 100 * bleu.corpus_bleu(out, refs, tokenize="13a").score for name, out in systems.items()}
    view = widgets.weights_view(widgets.count_sentence(widgets.ROOKIE_PARAPHRASE, [widgets.ROOKIE_REFERENCE]),
                                (1, 1, 1, 0))
    return {
        "plot_brevity_penalty": (plots.plot_brevity_penalty, ({"'the cat': c = 2, r = 6": (2, 6)},), {}),
        "plot_precisions": (plots.plot_precisions,
                            ({name: bleu.corpus_bleu(out, refs) for name, out in list(systems.items())[:3]},), {}),
        "plot_smoothing": (plots.plot_smoothing, (stats,), {}),
        "plot_rank_changes": (plots.plot_rank_changes, (by_tokenizer,), {}),
        "plot_system_scores": (plots.plot_system_scores, (by_tokenizer,), {}),
        "gleu_iterations_plot": (plots.gleu_iterations_plot, (gleu.corpus_gleu(src, jrefs, src, iterations=50),),
                                 {"published": 40.0}),
        "plot_lcs_table": (plots.plot_lcs_table, (hyp, ref), {}),
        "plot_rouge_variants": (plots.plot_rouge_variants,
                                ({v: corpus_rouge(src, jrefs, v, n_samples=50) for v in ("rouge1", "rouge2", "rougeL")},),
                                {}),
        "weighted_log_bars": (plots.weighted_log_bars, (view,), {}),
        "plot_agreement": (plots.plot_agreement, (bleu_by_system, data.wmt17_human_scores()),
                           {"metric_name": "BLEU", "human_name": "DA z-score"}),
        "simplex_heatmap": (plots.simplex_heatmap, (widgets.simplex_scores(stats, 8),), {"title": "BLEU-3 of one pair"}),
        "rank_paths": (plots.rank_paths, (widgets.rankings(system_stats, widgets.uniform_path(4, 4)),),
                       {"tick_positions": [0, 4, 8, 12], "tick_labels": ["BLEU-1", "BLEU-2", "BLEU-3", "BLEU-4"],
                        "title": "WMT17 en-de: rank of each system from BLEU-1 to BLEU-4"}),
    }


def plotting_functions():
    """Every public function of evalkit.plots that draws (returns an Axes), found by its ``ax`` parameter."""
    return sorted(name for name, fn in vars(plots).items()
                  if inspect.isfunction(fn) and not name.startswith("_") and "ax" in inspect.signature(fn).parameters)


def test_every_plotting_function_is_covered_and_takes_a_figsize(inputs):
    assert plotting_functions() == sorted(inputs)
    for name in plotting_functions():
        assert "figsize" in inspect.signature(getattr(plots, name)).parameters, name


def text_outside_canvas(fig):
    """The drawn, non-empty text artists (tick labels, axis labels, titles, legend and colour-bar texts,
    annotations) whose extent leaves the canvas by more than a pixel: [(text, extent in pixels)]."""
    renderer = fig.canvas.get_renderer()
    canvas = fig.bbox
    kept_tick_labels, drawn_tick_labels = set(), set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            kept = list(axis.majorTicks) + list(axis.minorTicks)  # matplotlib keeps spare Tick objects
            kept_tick_labels |= {id(label) for tick in kept for label in (tick.label1, tick.label2)}
            if not (ax.axison and axis.get_visible()):
                continue  # an axes switched off (set_axis_off) draws none of its tick labels
            lo, hi = sorted(axis.get_view_interval())
            span = (hi - lo) or 1.0
            drawn_tick_labels |= {id(label) for tick in axis.get_major_ticks() + axis.get_minor_ticks()
                                  if tick.get_visible() and lo - 1e-9 * span <= tick.get_loc() <= hi + 1e-9 * span
                                  for label in (tick.label1, tick.label2)}
    outside = []
    for text in fig.findobj(Text):
        if not text.get_visible() or not text.get_text().strip():
            continue
        if id(text) in kept_tick_labels and id(text) not in drawn_tick_labels:
            continue  # the label of a tick outside the view, or of a spare tick: not drawn
        box = text.get_window_extent(renderer)
        if (box.x0 < canvas.x0 - 1 or box.y0 < canvas.y0 - 1 or box.x1 > canvas.x1 + 1
                or box.y1 > canvas.y1 + 1):
            outside.append((text.get_text(), tuple(round(v) for v in box.extents)))
    return outside


@pytest.mark.parametrize("size", [None, plots.SLIDES], ids=["default size", "slides 6x3.5"])
@pytest.mark.parametrize("name", plotting_functions())
def test_no_text_is_cut_off_at_the_canvas_edge(inputs, name, size):
    fn, args, kwargs = inputs[name]
    ax = fn(*args, **kwargs, **({"figsize": size} if size else {}))
    fig = ax.figure
    try:
        if size:
            assert tuple(fig.get_size_inches()) == pytest.approx(size)
        fig.canvas.draw()
        assert fig.findobj(Text), name
        assert text_outside_canvas(fig) == [], name
    finally:
        plt.close(fig)


def test_the_check_finds_a_label_that_is_cut_off():
    """The clipping check can fail: a y label pushed off the left edge is reported (and nothing is, once the
    same figure uses constrained layout with a normal label)."""
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.set_ylabel("a label", labelpad=200)
    fig.canvas.draw()
    assert "a label" in [t for t, _ in text_outside_canvas(fig)]
    ax.set_ylabel("a label", labelpad=4)
    fig.set_layout_engine("constrained")
    fig.canvas.draw()
    assert text_outside_canvas(fig) == []
    plt.close(fig)


def test_save_writes_a_cropped_png_at_150_dpi_and_closes_the_figure(tmp_path, inputs):
    from PIL import Image

    fn, args, kwargs = inputs["plot_system_scores"]
    ax = fn(*args, **kwargs, figsize=plots.SLIDES)
    fig = ax.figure
    path = plots.save(ax, tmp_path / "scores.png")
    assert path == tmp_path / "scores.png" and not plt.fignum_exists(fig.number)
    with Image.open(path) as image:
        width, height = image.size
        dpi = image.info["dpi"]
    assert dpi == pytest.approx((150, 150), abs=0.5)
    # cropped to what was drawn: never larger than the canvas (plus the 0.05 in padding) at 150 dpi
    assert 0 < width <= 150 * (plots.SLIDES[0] + 0.1) + 1 and 0 < height <= 150 * (plots.SLIDES[1] + 0.1) + 1

    ax = plots.plot_brevity_penalty()
    plots.save(ax.figure, tmp_path / "bp.svg", close=False)
    assert plt.fignum_exists(ax.figure.number) and (tmp_path / "bp.svg").read_text().startswith("<?xml")
    plt.close(ax.figure)


def test_save_rejects_bad_input(tmp_path):
    with pytest.raises(TypeError, match="Figure or Axes"):
        plots.save("not a figure", tmp_path / "x.png")
    ax = plots.plot_brevity_penalty()
    with pytest.raises(ValueError, match="dpi"):
        plots.save(ax, tmp_path / "x.png", dpi=0)
    plt.close("all")


# ---------------------------------------- styles ----------------------------------------
def drawn_texts(fig):
    """(text with line breaks as spaces, font size in points, is a tick label) of every drawn, non-empty text."""
    fig.canvas.draw()
    ticks = {id(label) for ax in fig.axes for axis in (ax.xaxis, ax.yaxis)
             for tick in axis.get_major_ticks() + axis.get_minor_ticks() for label in (tick.label1, tick.label2)}
    return [(" ".join(t.get_text().split()), t.get_fontsize(), id(t) in ticks) for t in fig.findobj(Text)
            if t.get_visible() and t.get_text().strip()]


def draw(inputs, name, **extra):
    fn, args, kwargs = inputs[name]
    ax = fn(*args, **kwargs, **extra)
    try:
        return drawn_texts(ax.figure), tuple(ax.figure.get_size_inches())
    finally:
        plt.close(ax.figure)


@pytest.mark.parametrize("name", plotting_functions())
def test_every_text_is_larger_under_the_projector_style(inputs, name):
    """Each text is 16/10 times its default size (every size follows font.size); a tick label that exists
    in one style only (fewer ticks fit) is still a scaled default size."""
    default, default_size = draw(inputs, name)
    with plots.projector():
        projector, projector_size = draw(inputs, name)
    assert plots.current_style() == "default"
    scale = 16.0 / 10.0
    sizes = {}
    for text, size, _ in default:
        sizes.setdefault(text, set()).add(round(size, 3))
    matched = 0
    for text, size, is_tick in projector:
        if text in sizes:
            assert {round(size / scale, 3)} <= sizes[text], (name, text, size, sizes[text])
            matched += 1
        else:
            assert is_tick, (name, text)  # only tick labels may differ between the styles
            assert round(size / scale, 3) in {round(s, 3) for _, s, _ in default}, (name, text, size)
    assert matched and {t for t, _, tick in default if not tick} == {t for t, _, tick in projector if not tick}, name
    assert min(s for _, s, _ in projector) > min(s for _, s, _ in default)
    # the plotting functions' usual size becomes plots.SLIDES; the taller ones keep theirs
    if default_size == pytest.approx(plots.FIGSIZE):
        assert projector_size == pytest.approx(plots.SLIDES)


@pytest.mark.parametrize("size", [None, plots.SLIDES], ids=["default size", "slides 6x3.5"])
@pytest.mark.parametrize("name", plotting_functions())
def test_no_text_is_cut_off_under_the_projector_style(inputs, name, size):
    with plots.projector():
        fn, args, kwargs = inputs[name]
        ax = fn(*args, **kwargs, **({"figsize": size} if size else {}))
        fig = ax.figure
        try:
            fig.canvas.draw()
            assert text_outside_canvas(fig) == [], name
        finally:
            plt.close(fig)


def test_use_style_switches_and_restores_the_settings():
    before = {k: matplotlib.rcParams[k] for k in ("font.size", "lines.linewidth", "figure.figsize")}
    try:
        plots.use_style("projector")
        assert plots.current_style() == "projector" and matplotlib.rcParams["font.size"] == 16.0
        assert matplotlib.rcParams["lines.linewidth"] > before["lines.linewidth"]
        assert tuple(matplotlib.rcParams["figure.figsize"]) == plots.SLIDES
        assert plots.default_figsize() == plots.SLIDES
        assert [c["color"] for c in matplotlib.rcParams["axes.prop_cycle"]] == list(plots.PROJECTOR_COLORS)
    finally:
        plots.use_style("default")
    assert plots.current_style() == "default" and plots.default_figsize() == plots.FIGSIZE
    assert {k: matplotlib.rcParams[k] for k in before} == before
    with plots.style("projector"):
        assert matplotlib.rcParams["font.size"] == 16.0
        ax = plots.plot_brevity_penalty()
        assert ax.get_lines()[0].get_linewidth() == 2.5
        plt.close(ax.figure)
    assert plots.current_style() == "default" and matplotlib.rcParams["font.size"] == before["font.size"]
    with pytest.raises(ValueError, match="unknown style"):
        plots.use_style("dark")


def test_a_larger_font_size_alone_scales_every_text(inputs):
    """No size is fixed in points: doubling font.size (any style, not only ours) doubles every text."""
    fn, args, kwargs = inputs["weighted_log_bars"]
    sizes = []
    for base in (10.0, 20.0):
        with matplotlib.rc_context({"font.size": base}):
            ax = fn(*args, **kwargs)
            sizes.append(sorted(s for _, s, tick in drawn_texts(ax.figure) if not tick))
            plt.close(ax.figure)
    assert sizes[0] and [2 * s for s in sizes[0]] == pytest.approx(sizes[1])


def test_fit_text_wraps_only_what_does_not_fit():
    fig, ax = plt.subplots(figsize=plots.SLIDES, layout="constrained")
    long_title = "a title far too long to fit on one line of a figure six inches wide at this size"
    ax.set_title(long_title, fontsize=20)
    ax.set_xlabel("short")
    plots.fit_text(fig)
    assert "\n" in ax.get_title() and " ".join(ax.get_title().split()) == long_title
    assert ax.get_xlabel() == "short"
    fig.canvas.draw()
    assert text_outside_canvas(fig) == []
    plt.close(fig)


# ---------------------------------------- the agreement plot ----------------------------------------
def test_plot_agreement_draws_each_item_labelled():
    metric, human = {"A": 1.0, "B": 2.0, "C": 4.0}, {"A": 0.1, "B": 0.0, "C": 0.5}
    ax = plots.plot_agreement(metric, human, metric_name="BLEU", human_name="DA z")
    offsets = ax.collections[0].get_offsets().tolist()
    assert offsets == [[1.0, 0.1], [2.0, 0.0], [4.0, 0.5]]
    assert [t.get_text() for t in ax.texts] == ["A", "B", "C"]
    r, tau = pearson([1, 2, 4], [0.1, 0, 0.5]), kendall_tau([1, 2, 4], [0.1, 0, 0.5])
    assert ax.get_title() == f"BLEU against DA z: r = {r:.3f}, Kendall tau = {tau:.3f} (3 items)"
    assert ax.get_xlabel() == "BLEU" and ax.get_ylabel() == "DA z"
    plt.close("all")
    with pytest.raises(ValueError, match="same items"):
        plots.plot_agreement({"A": 1.0, "B": 2, "C": 3}, {"A": 1.0, "B": 2, "D": 3})


def test_plot_agreement_takes_any_item_names():
    # issue 19, item 9: int or tuple item names crashed inside matplotlib; a label is str(name)
    metric, human = {1: 1.0, (2, "b"): 2.0, 3: 4.0}, {3: 0.5, 1: 0.1, (2, "b"): 0.0}
    ax = plots.plot_agreement(metric, human)
    assert [t.get_text() for t in ax.texts] == ["1", "(2, 'b')", "3"]
    assert ax.collections[0].get_offsets().tolist() == [[1.0, 0.1], [2.0, 0.0], [4.0, 0.5]]
    plt.close("all")
    with pytest.raises(ValueError, match=r"only in one of them: \['2', 'b'\]"):  # names of mixed types, sorted as text
        plots.plot_agreement({1: 1.0, 2: 2.0, 3: 3.0}, {1: 1.0, "b": 2.0, 3: 3.0})


def test_place_labels_avoids_overlaps():
    # two points almost on top of each other: the upper one is labelled first, to the right; the lower
    # one's label would cover it there, so it goes to the left
    offsets = plots.place_labels([(0.0, 0.0), (0.0, 0.1)], [50.0, 50.0], 10.0)
    assert offsets == [(-4, 3), (4, 3)]
    # a third point: right and left are taken at the same height, so it goes down a line
    offsets = plots.place_labels([(0.0, 0.0), (0.0, 0.1), (0.0, 0.2)], [50.0] * 3, 10.0)
    assert offsets == [(4, -11), (-4, 3), (4, 3)]
    assert plots.place_labels([(0.0, 0.0), (500.0, 500.0)], [50.0, 50.0], 10.0) == [(4, 3), (4, 3)]


def test_plot_agreement_labels_do_not_overlap_on_wmt17():
    from evalkit.data import wmt17_human_scores

    human = wmt17_human_scores()
    # a metric with the crowded top-right cluster of lesson 13's BLEU plot
    metric = {name: 26 + 0.2 * i if z > -0.01 else 15 + i for i, (name, z) in enumerate(human.items())}
    ax = plots.plot_agreement(metric, human)
    renderer = ax.figure.canvas.get_renderer()
    boxes = []
    for t in ax.texts:
        t.update_positions(renderer)
        boxes.append(Text.get_window_extent(t, renderer))  # the text alone, not its leader line
    assert len(boxes) == 16
    assert not any(a.overlaps(b) for a, b in itertools.combinations(boxes, 2))
    plt.close("all")


def test_plot_agreement_labels_stay_inside_the_plot_area_in_a_grid():
    # lesson 13 draws four metrics in a 2 x 2 grid; a label to the left of the leftmost point used to
    # stick out of its axes over the tick labels (the grid shrinks the axes after the labels were placed)
    from evalkit.data import wmt17_human_scores

    human = wmt17_human_scores()
    # PROMT-Rule-based leftmost, level with online-A and close to it: no room on its right at its height
    metric = {name: 56 + 0.1 * i if z > -0.01 else 52 + 0.3 * i for i, (name, z) in enumerate(human.items())}
    metric["PROMT-Rule-based"], metric["online-A"] = 50.4, 52.0
    fig, axes = plt.subplots(2, 2, figsize=(13, 10), layout="constrained")
    for ax in axes.flat:
        plots.plot_agreement(metric, human, ax=ax)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for ax in axes.flat:
        area = ax.get_window_extent(renderer)
        for t in ax.texts:
            box = Text.get_window_extent(t, renderer)
            assert area.x0 - 1 <= box.x0 and box.x1 <= area.x1 + 1 and area.y0 - 1 <= box.y0 and box.y1 <= area.y1 + 1, (
                t.get_text(), box.extents, area.extents)
    plt.close("all")


def test_place_labels_keeps_inside_bounds():
    # a point at the right edge: the label goes to the left; with no bounds, to the right as usual
    assert plots.place_labels([(95.0, 50.0)], [40.0], 10.0) == [(4, 3)]
    assert plots.place_labels([(95.0, 50.0)], [40.0], 10.0, bounds=(0, 0, 100, 100)) == [(-4, 3)]
    # at the top right corner: left and down a line
    assert plots.place_labels([(95.0, 95.0)], [40.0], 10.0, bounds=(0, 0, 100, 100)) == [(-4, -11)]


# ==========================================================================================================
# Moved from tests/test_bleu_lessons.py:
# The BLEU lessons' plots and tables: each test checks the numbers a figure or table shows against
# evalkit's scoring functions (or against arithmetic done by hand in a comment).
# ==========================================================================================================
import math  # noqa: E402
from evalkit import tables  # noqa: E402
from evalkit.bleu import brevity_penalty  # noqa: E402
from evalkit.bleu import score_stats  # noqa: E402
from evalkit.bleu import sentence_bleu  # noqa: E402
from evalkit.bleu import sentence_stats  # noqa: E402
from evalkit.bleu import SMOOTHING  # noqa: E402


HYP = "the cat sat on the mat"
REF = "the cat is on the mat"


@pytest.fixture
def _close_figures():
    yield
    plt.close("all")


def _line(ax, label):
    (line,) = [ln for ln in ax.get_lines() if ln.get_label() == label]
    return list(line.get_xdata()), list(line.get_ydata())


# --- brevity penalty ---------------------------------------------------------------------------------------
@pytest.mark.usefixtures('_close_figures')
def test_bp_curve_values_by_hand():
    ratios, bps = plots.bleu_bp_curve(max_ratio=2.0, points=5)  # ratios 0, 0.5, 1, 1.5, 2
    assert ratios == [0.0, 0.5, 1.0, 1.5, 2.0]
    # c = 0 -> 0; c/r = 1/2 -> exp(1 - 2) = e^-1; c = r -> exp(0) = 1; longer -> 1
    expected = [0.0, math.exp(-1), 1.0, 1.0, 1.0]
    assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in zip(bps, expected))


@pytest.mark.usefixtures('_close_figures')
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


@pytest.mark.usefixtures('_close_figures')
def test_plot_brevity_penalty_bad_input():
    with pytest.raises(ValueError, match="reference length"):
        plots.plot_brevity_penalty({"bad": (3, 0)})
    with pytest.raises(ValueError, match="max_ratio"):
        plots.bleu_bp_curve(max_ratio=0)
    with pytest.raises(ValueError, match="points"):
        plots.bleu_bp_curve(points=1)


# --- precisions --------------------------------------------------------------------------------------------
@pytest.mark.usefixtures('_close_figures')
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


@pytest.mark.usefixtures('_close_figures')
def test_plot_precisions_groups_several_results():
    a = sentence_bleu(HYP, [REF])
    b = sentence_bleu("the cat", [REF])  # 2/2, 1/1, then no 3- or 4-grams: drawn as 0
    ax = plots.plot_precisions({"long": a, "short": b})
    containers = ax.containers
    assert len(containers) == 2
    assert [bar.get_height() for bar in containers[1]] == pytest.approx([1.0, 1.0, 0.0, 0.0])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["long", "short"]


@pytest.mark.usefixtures('_close_figures')
def test_plot_precisions_bad_input():
    with pytest.raises(TypeError, match="BLEUResult"):
        plots.plot_precisions([0.5, 0.25])
    with pytest.raises(TypeError, match="BLEUResult"):
        plots.plot_precisions({"x": 0.5})


# --- smoothing ---------------------------------------------------------------------------------------------
@pytest.mark.usefixtures('_close_figures')
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


@pytest.mark.usefixtures('_close_figures')
def test_plot_smoothing_floor_by_hand():
    # floor: the 0/3 four-gram precision becomes 0.1/3; BLEU = (5/6 * 3/5 * 1/4 * 0.1/3)^(1/4), BP = 1
    stats = sentence_stats(HYP, [REF])
    ax = plots.plot_smoothing(stats, methods=["none", "floor"])
    heights = [bar.get_height() for bar in ax.patches]
    assert heights[0] == 0.0
    assert math.isclose(heights[1], (5 / 6 * 3 / 5 * 1 / 4 * 0.1 / 3) ** 0.25, rel_tol=1e-12)


@pytest.mark.usefixtures('_close_figures')
def test_plot_smoothing_marks_a_refusing_method():
    # "a b c" against "a b x": 3-gram precision 0/1, so method6 refuses (as NLTK does)
    stats = sentence_stats("a b c", ["a b x"])
    with pytest.raises(ValueError):
        score_stats(stats, smoothing="method6")
    ax = plots.plot_smoothing(stats, methods=["method1", "method6"])
    assert ax.patches[1].get_height() == 0.0
    assert [t.get_text() for t in ax.texts][1] == "refused"


@pytest.mark.usefixtures('_close_figures')
def test_plot_smoothing_unknown_method():
    with pytest.raises(ValueError, match="unknown smoothing"):
        plots.plot_smoothing(sentence_stats(HYP, [REF]), methods=["nope"])


# --- systems and rankings ----------------------------------------------------------------------------------
SCORES = {
    "13a": {"A": 30.0, "B": 28.0, "C": 20.0},
    "char": {"A": 60.0, "B": 62.0, "C": 50.0},
}


@pytest.mark.usefixtures('_close_figures')
def test_plot_rank_changes_lines_are_ranks():
    ax = plots.plot_rank_changes(SCORES)
    xs, ys = _line(ax, "A")
    assert xs == [0, 1] and ys == [1, 2]  # A first under 13a, second under char
    assert _line(ax, "B")[1] == [2, 1]
    assert _line(ax, "C")[1] == [3, 3]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["13a", "char"]


@pytest.mark.usefixtures('_close_figures')
def test_plot_system_scores_markers_are_scores():
    ax = plots.plot_system_scores(SCORES)
    xs, ys = _line(ax, "char")
    # rows sorted by the first setting's score: A (30), B (28), C (20)
    assert xs == [60.0, 62.0, 50.0] and ys == [0, 1, 2]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["A", "B", "C"]


@pytest.mark.usefixtures('_close_figures')
def test_system_scores_bad_input():
    with pytest.raises(TypeError):
        plots.plot_rank_changes({})
    with pytest.raises(TypeError):
        tables.bleu_system_table({"13a": [1, 2]})
    with pytest.raises(ValueError, match="same systems"):
        plots.plot_system_scores({"13a": {"A": 1.0}, "char": {"B": 1.0}})
