"""Plots for the lessons (matplotlib, imported inside the functions that draw).

Figure size and style are set here, not in the notebooks, so every lesson looks the same.  Each function
returns the matplotlib ``Axes`` it drew on (tests check what was drawn; notebooks end with ``plt.show()``).

Every text size is relative ('small', 'x-small', ...) or left to matplotlib's rcParams, so one setting,
``font.size``, scales all the text of every figure.  Two styles set it: ``"default"`` (matplotlib's own
defaults, what the lessons show) and ``"projector"`` (16 pt text, thick lines, large markers, high-contrast
colours, figures of ``SLIDES`` size) for a lecture hall.  Switch with :func:`use_style` or, for a few
figures, ``with plots.projector(): ...``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

FIGSIZE = (7.0, 4.0)
SLIDES = (6.0, 3.5)  # a figure for a 16:9 slide next to a few lines of text

# Okabe & Ito's colour-blind-safe palette without its yellow (too pale on a projected white), then black,
# brown and grey: ten colours, dark enough for a washed-out projector, told apart by colour-blind viewers.
PROJECTOR_COLORS = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#8C510A",
                    "#666666", "#7A5195")

# The projector style: the rcParams it changes, and the default figure size of the plotting functions.
_PROJECTOR_RC = {
    "font.size": 16.0,  # every other text size is relative to it
    "lines.linewidth": 2.5,
    "lines.markersize": 9.0,
    "patch.linewidth": 1.5,
    "axes.linewidth": 1.5,
    "axes.edgecolor": "black",
    "axes.labelcolor": "black",
    "text.color": "black",
    "xtick.color": "black",
    "ytick.color": "black",
    "xtick.major.width": 1.5,
    "ytick.major.width": 1.5,
    "xtick.major.size": 6.0,
    "ytick.major.size": 6.0,
    "grid.linewidth": 1.2,
    "legend.framealpha": 0.9,
    "figure.figsize": SLIDES,
}
STYLES = ("default", "projector")
_active = ["default"]  # the style use_style or a context manager switched on last


def style_params(name: str = "projector") -> dict:
    """The rcParams a style sets.  ``"default"`` gives matplotlib's own defaults for the same keys, so that
    ``use_style("default")`` undoes ``use_style("projector")``.

    >>> style_params("projector")["font.size"]
    16.0
    """
    import matplotlib

    if name not in STYLES:
        raise ValueError(f"unknown style {name!r}; expected one of {', '.join(STYLES)}")
    if name == "projector":
        from cycler import cycler

        return {**_PROJECTOR_RC, "axes.prop_cycle": cycler(color=list(PROJECTOR_COLORS))}
    return {key: matplotlib.rcParamsDefault[key] for key in (*_PROJECTOR_RC, "axes.prop_cycle")}


def use_style(name: str = "projector") -> None:
    """Switch a style on for every figure drawn from now on (``"projector"`` or ``"default"``).

    >>> use_style("projector"); current_style()
    'projector'
    >>> use_style("default"); current_style()
    'default'
    """
    import matplotlib

    params = style_params(name)
    matplotlib.rcParams.update(params)
    _active[0] = name


def current_style() -> str:
    """The name of the style :func:`use_style` or :func:`style` switched on last ("default" at start)."""
    return _active[0]


@contextlib.contextmanager
def style(name: str = "projector"):
    """A style for the figures drawn inside a ``with`` block; the previous settings come back after it."""
    import matplotlib

    params = style_params(name)
    before = _active[0]
    with matplotlib.rc_context(params):
        _active[0] = name
        try:
            yield
        finally:
            _active[0] = before


def projector():
    """``with plots.projector(): ax = plots.plot_brevity_penalty()``: the projector style for a block."""
    return style("projector")


def default_figsize():
    """The figure size a plotting function uses when given none: ``SLIDES`` under the projector style, else
    ``FIGSIZE``."""
    return SLIDES if _active[0] == "projector" else FIGSIZE


def _scaled(value: float) -> float:
    """A line width or marker size given for the default style (1.5 pt lines), scaled with the style's lines."""
    import matplotlib

    return value * matplotlib.rcParams["lines.linewidth"] / 1.5


def _marker(size: float) -> float:
    """A marker size given for the default style (6 pt markers), scaled with the style's markers."""
    import matplotlib

    return size * matplotlib.rcParams["lines.markersize"] / 6.0


def _font_scale() -> float:
    """font.size relative to the default style's 10 pt."""
    import matplotlib

    return matplotlib.rcParams["font.size"] / 10.0


def _text_width(text: str, font, renderer=None) -> float:
    """The width in points of a one-line text in a font (FontProperties), as ``renderer`` draws it (the
    figure's renderer hints glyphs a few per cent wider than their outlines, which is the fallback)."""
    if renderer is not None and hasattr(renderer, "get_text_width_height_descent"):
        return renderer.get_text_width_height_descent(text, font, ismath=False)[0] * 72.0 / renderer.dpi
    from matplotlib.textpath import TextToPath

    return 1.05 * TextToPath().get_text_width_height_descent(text, font, ismath=False)[0]


def _wrap(text: str, font, width: float, renderer=None) -> str:
    """``text`` broken at spaces into lines no wider than ``width`` points (a longer word keeps its line);
    math (``$...$``) is left alone."""
    if "$" in text or not text.strip():
        return text
    lines = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if line and _text_width(candidate, font, renderer) > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return "\n".join(lines)


def fit_text(fig) -> None:
    """Wrap every axes title, axis label and figure title that is wider than the space it has (its column
    of the figure, or the figure's height for a y label) onto more lines, so that a larger style cuts none
    of them off.  Text that fits is not changed.  Takes a Figure or an Axes."""
    fig = getattr(fig, "figure", fig) if not hasattr(fig, "savefig") else fig
    for ax in fig.axes:
        _fit_axes(ax)
    width = 72.0 * fig.get_size_inches()[0] - _MARGIN
    for text in (getattr(fig, "_suptitle", None), getattr(fig, "_supxlabel", None)):
        if text is not None:
            _wrap_artist(text, width)


_MARGIN = 18.0  # points (a quarter inch) kept free around a wrapped title or label
_CENTRED = 0.85


def _fit_axes(ax) -> None:
    """:func:`fit_text` for one Axes: its titles and x label fit its column of the figure, its y label the
    figure's height (its row of a grid)."""
    fig = ax.figure
    width_pt, height_pt = (72.0 * v for v in fig.get_size_inches())
    spec = ax.get_subplotspec() if hasattr(ax, "get_subplotspec") else None
    if spec is not None:
        rows, cols = spec.get_gridspec().get_geometry()
        width_pt *= len(spec.colspan) / cols
        height_pt *= len(spec.rowspan) / rows
    # a title or label is centred on the axes, which the tick labels push off the figure's centre: it gets
    # a bit less than the whole width, and then, once laid out, no more than twice the room on its
    # narrower side
    horizontal = (ax.title, ax.xaxis.label)
    for text in (*horizontal, ax._left_title, ax._right_title):
        _wrap_artist(text, _CENTRED * width_pt - _MARGIN)
    _wrap_artist(ax.yaxis.label, _CENTRED * height_pt - _MARGIN)
    if not any(t.get_text().strip() for t in (*horizontal, ax.yaxis.label)):
        return
    for _ in range(3):
        fig.draw_without_rendering()
        to_pt = 72.0 / fig.dpi
        box, canvas = ax.get_window_extent(), fig.bbox
        centre_x, centre_y = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
        room_x = 2 * min(centre_x - canvas.x0, canvas.x1 - centre_x) * to_pt - _MARGIN
        room_y = 2 * min(centre_y - canvas.y0, canvas.y1 - centre_y) * to_pt - _MARGIN
        changed = [_wrap_artist(t, min(room_x, _CENTRED * width_pt - _MARGIN)) for t in horizontal]
        changed.append(_wrap_artist(ax.yaxis.label, min(room_y, _CENTRED * height_pt - _MARGIN)))
        if not any(changed):
            return


def _wrap_artist(text, room: float) -> bool:
    """Wrap a Text to ``room`` points if it is wider; True if it changed."""
    content = text.get_text()
    if not content.strip():
        return False
    canvas = text.figure.canvas if text.figure is not None else None
    renderer = canvas.get_renderer() if hasattr(canvas, "get_renderer") else None
    font = text.get_fontproperties()
    if max(_text_width(line, font, renderer) for line in content.split("\n")) > room:
        wrapped = _wrap(content, font, room, renderer)
        text.set_text(wrapped)
        return wrapped != content
    return False


def _room_above(ax, labelled, legend=None) -> None:
    """Raise the top of the y range (never lower it) until every label in ``labelled``, a list of (bar top
    in data units, the Text drawn above it or None), ends inside the axes and below ``legend``: the labels
    keep their size in points, so a larger style needs a taller range."""
    fig = ax.figure
    for _ in range(4):  # the layout moves a little when the range changes: measure again
        fig.draw_without_rendering()
        renderer = None  # the figure's own (any backend)
        box = ax.get_window_extent(renderer)
        lo, hi = ax.get_ylim()
        ceiling = box.y1 if legend is None else min(box.y1, legend.get_window_extent(renderer).y0)
        free = ceiling - box.y0 - 4.0  # pixels
        need = hi
        for top, text in labelled:
            if text is not None and (not text.get_visible() or not text.get_text()):
                continue
            bar_top = ax.transData.transform((0.0, top))[1]
            above = 0.0 if text is None else text.get_window_extent(renderer).y1 - bar_top
            if 0 < free - above:
                need = max(need, lo + (top - lo) * box.height / (free - above))
        if need <= hi * (1 + 1e-9):
            return
        ax.set_ylim(lo, need)


def _room_sideways(ax, texts) -> None:
    """Widen the x range (never narrow it) until every Text in ``texts``, anchored at a data x position,
    ends inside the axes on the side it extends to."""
    fig = ax.figure
    for _ in range(4):
        fig.draw_without_rendering()
        renderer = None  # the figure's own (any backend)
        box = ax.get_window_extent(renderer)
        lo, hi = ax.get_xlim()
        new_lo, new_hi = lo, hi
        for text in texts:
            x = text.get_position()[0]
            anchor = ax.transData.transform((x, 0.0))[0]
            extent = text.get_window_extent(renderer)
            right, left = extent.x1 - anchor, anchor - extent.x0
            room = box.width - 6.0
            if extent.x1 > box.x1 - 3 and room > right:
                new_hi = max(new_hi, lo + (x - lo) * box.width / (room - right + 3.0))
            if extent.x0 < box.x0 + 3 and room > left:
                new_lo = min(new_lo, hi - (hi - x) * box.width / (room - left + 3.0))
        if (new_lo, new_hi) == (lo, hi):
            return
        ax.set_xlim(new_lo, new_hi)


def new_axes(figsize=None, **subplot_kw):
    """A fresh figure and axes with evalkit's size and style (``figsize`` None: :func:`default_figsize`).

    The figure uses matplotlib's constrained layout: at every draw the axes shrink to leave room for tick
    labels, titles, legends and colour bars, so nothing is cut off at the canvas edge at any size.
    """
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=figsize or default_figsize(), subplot_kw=subplot_kw or None,
                           layout="constrained")
    ax.grid(True, alpha=0.3)
    return ax


def save(fig, path, dpi: int = 150, *, close: bool = True):
    """Save a figure (or the figure of an Axes) for slides: ``dpi`` dots per inch, cropped to what was drawn.

    Every plotting function here takes ``figsize=(width, height)`` in inches (``SLIDES`` is a good size for a
    slide).  The format follows the file's extension (.png, .svg, .pdf).  The figure is closed after saving
    (``close=True``, the default), so a loop that saves many figures does not keep them all in memory; in a
    notebook, call ``plt.show()`` first or pass ``close=False``.  Returns the path written.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> import os, tempfile
    >>> ax = plot_brevity_penalty(figsize=SLIDES)
    >>> path = save(ax, os.path.join(tempfile.mkdtemp(), "bp.png"))
    >>> os.path.getsize(path) > 0
    True
    """
    import matplotlib.pyplot as plt
    from pathlib import Path

    fig = getattr(fig, "figure", fig) if not hasattr(fig, "savefig") else fig
    if not hasattr(fig, "savefig"):
        raise TypeError(f"fig must be a matplotlib Figure or Axes, got {type(fig).__name__}")
    if isinstance(dpi, bool) or not isinstance(dpi, int) or dpi < 1:
        raise ValueError(f"dpi must be a positive int, got {dpi!r}")
    path = Path(path)
    fig.savefig(path, dpi=dpi, bbox_inches="tight", pad_inches=0.05)
    if close:
        plt.close(fig)
    return path


# ======================================== BLEU ========================================
def bleu_bp_curve(max_ratio: float = 2.0, points: int = 401):
    """(ratios c/r, brevity penalties) sampled on [0, max_ratio]: the curve :func:`plot_brevity_penalty` draws.

    BP depends on c and r only through c/r, so the curve is computed with r = 1.
    """
    from .bleu import brevity_penalty

    if not (isinstance(max_ratio, (int, float)) and max_ratio > 0):
        raise ValueError(f"max_ratio must be a positive number, got {max_ratio!r}")
    if isinstance(points, bool) or not isinstance(points, int) or points < 2:
        raise ValueError(f"points must be an int of at least 2, got {points!r}")
    ratios = [max_ratio * i / (points - 1) for i in range(points)]
    return ratios, [brevity_penalty(x, 1.0) for x in ratios]


def plot_brevity_penalty(marks=None, *, max_ratio: float = 2.0, ax=None, figsize=None):
    """The brevity penalty against the length ratio c/r, with optional marked (c, r) pairs.

    ``marks`` maps a label to a (hypothesis length c, reference length r) pair; each is drawn as a point
    at (c/r, BP(c, r)).  The curve is the line labelled ``"BP"``.
    """
    from .bleu import brevity_penalty

    ax = ax if ax is not None else new_axes(figsize=figsize)
    ratios, bps = bleu_bp_curve(max_ratio)
    ax.plot(ratios, bps, color="C0", label="BP")
    ax.axvline(1.0, color="grey", linestyle=":", linewidth=_scaled(1))
    for i, (label, (c, r)) in enumerate((marks or {}).items()):
        if r <= 0:
            raise ValueError(f"mark {label!r}: the reference length must be positive, got {r!r}")
        ax.plot([c / r], [brevity_penalty(c, r)], "o", color=f"C{i + 1}", label=label)
    ax.set_xlim(0, max_ratio)
    ax.set_ylim(-0.02, 1.05)
    ax.set_xlabel("length ratio c / r (hypothesis / reference)")
    ax.set_ylabel("brevity penalty")
    ax.set_title("BP = exp(1 - r/c) when c ≤ r, else 1")
    ax.legend(loc="lower right")
    _fit_axes(ax)
    return ax


def _as_labelled_results(results):
    from .bleu import BLEUResult

    if isinstance(results, BLEUResult):
        return {"": results}
    if not isinstance(results, dict) or not results:
        raise TypeError("results must be a BLEUResult or a non-empty dict of label -> BLEUResult")
    for label, r in results.items():
        if not isinstance(r, BLEUResult):
            raise TypeError(f"results[{label!r}] is a {type(r).__name__}; expected a BLEUResult")
    return results


def plot_precisions(results, *, ax=None, figsize=None):
    """Bars of the clipped precision matches/total per n-gram order (0 where there are no n-grams).

    ``results`` is one :class:`~evalkit.bleu.BLEUResult` or a dict label -> result, drawn as grouped bars
    (one bar container per label, in order).  Each bar is annotated with its fraction.
    """
    results = _as_labelled_results(results)
    ax = ax if ax is not None else new_axes(figsize=figsize)
    width = 0.8 / len(results)
    orders = max(len(r.precisions) for r in results.values())
    labelled = []
    for k, (label, result) in enumerate(results.items()):
        xs = [p.n + (k - (len(results) - 1) / 2) * width for p in result.precisions]
        heights = [p.matches / p.total if p.total else 0.0 for p in result.precisions]
        bars = ax.bar(xs, heights, width=width * 0.95, label=label or None, color=f"C{k}")
        texts = ax.bar_label(bars, labels=[f"{p.matches}/{p.total}" for p in result.precisions], fontsize="x-small")
        labelled += zip(heights, texts)
    ax.set_xticks(range(1, orders + 1))
    ax.set_xlabel("n-gram order n")
    ax.set_ylabel("clipped precision p_n")
    ax.set_ylim(0, 1.3)  # room for the fraction labels and the legend above the bars
    ax.set_title("Clipped n-gram precision per order")
    legend = ax.legend(loc="upper right", fontsize="small") if len(results) > 1 else None
    _fit_axes(ax)
    ax.figure.draw_without_rendering()
    if labelled and max(text.get_window_extent().width for _, text in labelled) > 1.02 * _bar_pixels(ax, width):
        for _, text in labelled:  # the fractions are wider than the bars (a larger style): stand them up
            text.set_rotation(90)
    _room_above(ax, labelled, legend)
    _ticks_up_to_one(ax)
    return ax


def _ticks_up_to_one(ax) -> None:
    """A score between 0 and 1 drawn with room above it: no tick beyond 1."""
    if ax.get_ylim()[1] > 1.0:
        from matplotlib.ticker import MaxNLocator

        ax.set_yticks([t for t in MaxNLocator(nbins=5).tick_values(0.0, 1.0) if 0.0 <= t <= 1.0])


def _bar_pixels(ax, width: float) -> float:
    """The width in pixels of ``width`` x units."""
    return abs(ax.transData.transform((width, 0.0))[0] - ax.transData.transform((0.0, 0.0))[0])


def plot_smoothing(stats, *, methods=None, weights=(0.25, 0.25, 0.25, 0.25), effective_order=False, ax=None,
                   figsize=None):
    """One bar per smoothing method: the BLEU score of the same statistics under each method.

    Bars are drawn in the order of ``methods`` (default: every name in ``evalkit.bleu.SMOOTHING``);
    sacreBLEU's family is blue, NLTK's orange.  A method that refuses these statistics (``method6`` needs
    a non-zero 3-gram precision) gets a zero-height bar labelled "refused".
    """
    from ._checks import check_weights
    from .bleu import NLTK_SMOOTHING, SMOOTHING, score_stats

    weights = check_weights(weights)  # read once (a generator works), bad weights refused before the loop
    methods = list(SMOOTHING if methods is None else methods)
    ax = ax if ax is not None else new_axes(figsize=figsize)
    heights, labels = [], []
    for m in methods:
        try:
            score = score_stats(stats, weights=weights, smoothing=m, effective_order=effective_order).score
            heights.append(score)
            # NLTK's method0 gives tiny non-zero scores such as 7.26e-78: show them, not "0.0000"
            labels.append(f"{score:.4f}" if score == 0 or score >= 1e-4 else f"{score:.2e}")
        except ValueError:
            if m not in SMOOTHING:
                raise
            heights.append(0.0)
            labels.append("refused")
    colors = ["C1" if m in NLTK_SMOOTHING else "C0" for m in methods]
    bars = ax.bar(range(len(methods)), heights, color=colors)
    texts = ax.bar_label(bars, labels=labels, fontsize="small", rotation=90, padding=2)
    ax.set_xticks(range(len(methods)), methods, rotation=45, ha="right")
    ax.set_ylabel("BLEU")
    ax.set_ylim(0, max([*heights, 0.01]) * 1.55)  # room for the rotated labels and the legend
    ax.set_title("The same statistics under each smoothing method")
    from matplotlib.patches import Patch

    handles = [Patch(color="C0", label="sacreBLEU's"), Patch(color="C1", label="NLTK's (Chen & Cherry 2014)")]
    legend = ax.legend(handles=handles, loc="upper center", ncol=2, fontsize="small")
    _fit_axes(ax)
    ax.figure.draw_without_rendering()
    if legend.get_window_extent().width > ax.get_window_extent().width:  # a larger style: one entry a row
        legend = ax.legend(handles=handles, loc="upper center", ncol=1, fontsize="small")
    _room_above(ax, list(zip(heights, texts)), legend)
    _ticks_up_to_one(ax)
    return ax


def plot_rank_changes(scores, *, ax=None, figsize=None):
    """A bump chart: for each setting (x axis, e.g. the tokenizer) the rank of every system (1 at the top).

    ``scores`` maps setting -> {system: score}.  One line per system, labelled with its name, whose
    y-values are its ranks (:func:`evalkit.ranking.competition_ranks`: ties share the better rank); a line that crosses another is a ranking change.
    """
    from ._checks import check_system_scores
    from .ranking import competition_ranks

    systems = check_system_scores(scores)
    settings = list(scores)
    ranks = {s: competition_ranks(scores[s]) for s in settings}
    ax = ax if ax is not None else new_axes(figsize=figsize or (7.0, 6.0))
    first = ranks[settings[0]]
    for k, name in enumerate(sorted(systems, key=lambda n: first[n])):
        ys = [ranks[s][name] for s in settings]
        style = "o-" if k < 10 else "s--"  # 16 systems, 10 colours: the second ten are dashed squares
        ax.plot(range(len(settings)), ys, style, label=name, color=f"C{k % 10}")
        ax.annotate(name, (len(settings) - 1, ys[-1]), xytext=(6, 0), textcoords="offset points",
                    va="center", fontsize="small")
    ax.set_xticks(range(len(settings)), settings)
    ax.set_xlim(-0.3, len(settings) - 1 + 1.2)
    ax.set_yticks(range(1, len(systems) + 1))
    ax.invert_yaxis()
    ax.set_ylabel("rank (1 = highest BLEU)")
    ax.set_title("Ranking of the systems under each setting")
    _fit_axes(ax)
    return ax


def plot_system_scores(scores, *, ax=None, figsize=None):
    """A dot plot: one row per system (sorted by the first setting's score), one marker per setting.

    ``scores`` maps setting -> {system: score}; each setting is one line (markers only) labelled with the
    setting, whose x-values are the scores and y-values the row positions 0, 1, ... from the top.
    """
    from ._checks import check_system_scores

    systems = check_system_scores(scores)
    settings = list(scores)
    order = sorted(systems, key=lambda n: -scores[settings[0]][n])
    ax = ax if ax is not None else new_axes(figsize=figsize or (7.0, 6.0))
    for k, setting in enumerate(settings):
        ax.plot([scores[setting][n] for n in order], range(len(order)), "o", label=setting, color=f"C{k}")
    ax.set_yticks(range(len(order)), order)
    ax.invert_yaxis()
    ax.set_xlabel("score")
    ax.set_title("Scores of the systems under each setting")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))  # outside the axes: it hides no point
    _fit_axes(ax)
    return ax


# ======================================== end BLEU ====================================


# ======================================== GLEU ========================================
def gleu_iterations_plot(result, ax=None, *, bins: int = 30, published: float | None = None, title: str = "",
                         figsize=None):
    """Histogram of the corpus GLEU of each sampling iteration (x 100), with the mean and the script's
    95% interval (mean +- 1.96 std) as vertical lines; ``published`` adds a dotted line at that value.
    The y range leaves the legend room above the bars (pass ``title`` here rather than setting it after:
    a title changes that room)."""
    if len(result.scores) < 2:
        raise ValueError("this result has a single iteration: there is no distribution to plot")
    ax = ax if ax is not None else new_axes(figsize=figsize)
    values = [100 * s for s in result.scores]
    ax.hist(values, bins=bins, color="C0", alpha=0.7, label=f"{len(values)} iterations")
    ax.axvline(100 * result.score, color="black", linewidth=_scaled(2), label=f"mean {100 * result.score:.2f}")
    lo, hi = result.ci
    ax.axvline(100 * lo, color="C3", linestyle="--", label=f"95% interval {100 * lo:.2f} to {100 * hi:.2f}")
    ax.axvline(100 * hi, color="C3", linestyle="--")
    if published is not None:
        ax.axvline(published, color="C2", linestyle=":", linewidth=_scaled(2), label=f"published {published:.2f}")
    ax.set_xlabel("corpus GLEU x 100 (one reference sampled per sentence)")
    ax.set_ylabel("iterations")
    ax.set_title(title)
    legend = ax.legend(loc="upper left", fontsize="small")
    _fit_axes(ax)
    # the bars under the legend stay below it
    ax.figure.draw_without_rendering()
    left, right = sorted(ax.transData.inverted().transform(legend.get_window_extent().get_points())[:, 0])
    _room_above(ax, [(bar.get_height(), None) for bar in ax.patches
                     if bar.get_x() < right and bar.get_x() + bar.get_width() > left], legend)
    return ax



# ======================================== end GLEU ====================================


# ======================================== ROUGE =======================================
def plot_lcs_table(hypothesis: str, reference: str, *, stemmer: bool = False, tokenize: str = "rouge-score",
                   ax=None, figsize=None):
    """ROUGE-L's dynamic-programming table as a heatmap, each cell annotated with its LCS length, and the
    path rouge-score reads back drawn from the bottom-right corner; matched cells are circled.
    The drawn line is ``ax.lines[0]`` (x: hypothesis column, y: reference row, in table positions)."""
    from .tables import rouge_lcs_table

    df = rouge_lcs_table(hypothesis, reference, stemmer=stemmer, tokenize=tokenize)
    rows, cols = df.shape
    if ax is None:
        scale = _font_scale()  # larger text needs wider margins for the words
        ax = new_axes(figsize=figsize or (max(4.0, 0.6 * cols + 2 * scale), max(3.0, 0.5 * rows + 1.5 * scale)))
    ax.grid(False)
    ax.imshow(df.to_numpy(), cmap="Blues", aspect="auto", vmin=0, vmax=max(1, df.attrs["length"]) * 1.6)
    for i in range(rows):
        for j in range(cols):
            ax.text(j, i, str(df.iat[i, j]), ha="center", va="center", fontsize="medium")
    cells = _lcs_walk(df)
    ax.plot([j for _, j in cells], [i for i, _ in cells], color="C3", linewidth=_scaled(2), alpha=0.8)
    matched = df.attrs["path"]
    ax.scatter([j for _, j in matched], [i for i, _ in matched], s=260 * _font_scale() ** 2, facecolors="none",
               edgecolors="C3", linewidths=_scaled(2))
    ax.set_xticks(range(cols), list(df.columns), rotation=45, ha="right")
    ax.set_yticks(range(rows), list(df.index))
    ax.set_xlabel("hypothesis")
    ax.set_ylabel("reference")
    ax.set_title(f"LCS table: length {df.attrs['length']} ({' '.join(df.attrs['lcs'])})")
    _fit_axes(ax)  # a long common subsequence wraps onto more lines
    return ax


def _lcs_walk(df):
    """Every cell the back-trace visits, from the bottom-right corner to the border (rouge-score's rule)."""
    table = df.to_numpy()
    ref, hyp = list(df.index), list(df.columns)
    i, j = table.shape[0] - 1, table.shape[1] - 1
    cells = [(i, j)]
    while i > 0 and j > 0:
        if ref[i] == hyp[j]:
            i, j = i - 1, j - 1
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1
        else:
            i -= 1
        cells.append((i, j))
    return cells[::-1]


def plot_rouge_variants(results, ax=None, *, figsize=None):
    """Bars of corpus F per variant with their bootstrap intervals; ``results`` maps a label to a
    :class:`evalkit.rouge.RougeCorpusResult`."""
    labels = list(results)
    values = [results[k].estimate.fmeasure for k in labels]
    lower = [results[k].estimate.fmeasure - results[k].low.fmeasure for k in labels]
    upper = [results[k].high.fmeasure - results[k].estimate.fmeasure for k in labels]
    if ax is None:
        ax = new_axes(figsize=figsize)
    ax.bar(labels, values, yerr=[lower, upper], capsize=_scaled(4), color="C0", alpha=0.8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("F (mean over segments)")
    ax.set_title("ROUGE variants on the same text, with bootstrap intervals")
    ax.tick_params(axis="x", labelrotation=30)
    _fit_axes(ax)
    return ax



# ======================================== end ROUGE ===================================


# ======================================== correlation =================================
# Where a label may go, in points from its point: right of it first, then left, each further up or down.
LABEL_OFFSETS = tuple((side, dy) for dy in (3, -11, 13, -21, 23, -31, 33, -41, 43, -51) for side in (4, -4))


def _overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(box: tuple[float, float, float, float], bounds: tuple[float, float, float, float] | None) -> bool:
    return bounds is None or (bounds[0] <= box[0] and box[2] <= bounds[2] and bounds[1] <= box[1] and box[3] <= bounds[3])


def place_labels(points: Sequence[tuple[float, float]], widths: Sequence[float], height: float,
                 offsets: Sequence[tuple[float, float]] = LABEL_OFFSETS, marker: float = 3.0,
                 bounds: tuple[float, float, float, float] | None = None):
    """Greedy label placement, in display units: for each point (top one first), the first offset in
    ``offsets`` whose label box (``widths[i]`` x ``height``, to the right of the offset if it points right,
    else to the left) overlaps neither a label placed before nor any point's marker (a square of
    ``marker`` around it), and stays inside ``bounds`` (x0, y0, x1, y1), the plot area, if given.
    Returns one (dx, dy) offset per point; if nothing fits, the first offset.

    >>> place_labels([(10.0, 50.0)], [40.0], 10.0)                        # right of the point
    [(4, 3)]
    >>> place_labels([(90.0, 50.0)], [40.0], 10.0, bounds=(0, 0, 100, 100))  # no room on the right
    [(-4, 3)]
    """
    markers = [(x - marker, y - marker, x + marker, y + marker) for x, y in points]
    placed: list[tuple[float, float, float, float]] = []
    chosen: list[tuple[float, float]] = [offsets[0]] * len(points)
    for i in sorted(range(len(points)), key=lambda k: (-points[k][1], points[k][0])):
        x, y = points[i]
        for dx, dy in offsets:
            left = x + dx if dx >= 0 else x + dx - widths[i]
            box = (left, y + dy, left + widths[i], y + dy + height)
            if _inside(box, bounds) and not any(_overlaps(box, b) for b in placed) and not any(
                _overlaps(box, m) for k, m in enumerate(markers) if k != i
            ):
                chosen[i] = (dx, dy)
                break
        dx, dy = chosen[i]
        left = x + dx if dx >= 0 else x + dx - widths[i]
        placed.append((left, y + dy, left + widths[i], y + dy + height))
    return chosen


def plot_agreement(metric: Mapping[Any, float], human: Mapping[Any, float], *, metric_name: str = "metric",
                   human_name: str = "human score", ax=None, figsize=None):
    """Scatter plot of one point per item (metric score on x, human score on y), each labelled with its
    name, and Pearson's r and Kendall's tau (:mod:`evalkit.correlation`) in the title.  The labels are
    placed by :func:`place_labels`.  Returns the matplotlib Axes.

    The item names may be anything hashable (strings, ints, tuples): a label is ``str(name)``.
    """
    if not isinstance(metric, Mapping) or not isinstance(human, Mapping):
        raise TypeError("metric and human must be mappings from item name to score")
    if set(metric) != set(human):
        raise ValueError(f"metric and human must score the same items; only in one of them: "
                         f"{sorted(map(str, set(metric) ^ set(human)))}")
    from matplotlib.font_manager import FontProperties

    from .correlation import kendall_tau, pearson

    names = list(metric)
    xs, ys = [metric[k] for k in names], [human[k] for k in names]
    labels = [str(k) for k in names]
    r, tau = pearson(xs, ys), kendall_tau(xs, ys)
    own_figure = ax is None
    ax = new_axes(figsize=figsize or (7.0, 5.0)) if own_figure else ax
    ax.scatter(xs, ys, color="C0", zorder=3)
    ax.set_xlabel(metric_name)
    ax.set_ylabel(human_name)
    ax.set_title(f"{metric_name} against {human_name}: r = {r:.3f}, Kendall tau = {tau:.3f} ({len(names)} items)")
    ax.autoscale_view()
    if own_figure:  # a title too wide for the figure goes on two lines (an ax given: its title is the caller's)
        _fit_axes(ax)
    ax.figure.draw_without_rendering()  # let the layout settle (axes in a grid shrink) before measuring
    # labels placed in points (1/72 inch) so that they cover neither each other nor the other points, and
    # stay inside the plot area (a label sticking out would cover the tick labels)
    to_points = 72.0 / ax.figure.dpi
    points = [(px * to_points, py * to_points) for px, py in ax.transData.transform(list(zip(xs, ys)))]
    area = tuple(v * to_points for v in ax.get_window_extent().extents)
    fontsize = FontProperties(size="small").get_size_in_points()  # follows the style's font.size
    renderer, font = ax.figure.canvas.get_renderer(), FontProperties(size=fontsize)
    widths = [renderer.get_text_width_height_descent(label, font, ismath=False)[0] * to_points for label in labels]
    offsets = place_labels(points, widths, 1.2 * fontsize, bounds=area)
    for label, x, y, (dx, dy) in zip(labels, xs, ys, offsets):
        far = abs(dy) > 3  # moved off its usual place: draw a thin line back to the point
        ax.annotate(label, (x, y), xytext=(dx, dy), textcoords="offset points", fontsize=fontsize,
                    ha="left" if dx >= 0 else "right", va="bottom",
                    arrowprops={"arrowstyle": "-", "color": "grey", "lw": 0.5} if far else None)
    return ax


# ======================================== end correlation =============================


# ======================================== widgets =====================================
def weighted_log_bars(view, ax=None, *, figsize=None):
    """Matplotlib version of the explorer's bars (``view.log_terms`` of a :class:`evalkit.widgets.WeightsView`):
    w_n·log p_n per order, log BP and log BLEU (their sum).
    A zero factor (log = −∞) is drawn as a hatched bar to the axis edge and labelled −∞."""
    import math

    items = view.log_terms
    ax = ax or new_axes(figsize=figsize)
    finite = [v for _, v in items if v is not None and math.isfinite(v)]
    floor = 1.15 * min(finite + [-1.0])
    labels = [label for label, _ in items]
    for i, (label, v) in enumerate(items):
        color = "C0" if i < len(view.bars) else ("C1" if label == "log BP" else "C2")
        if v is None:
            ax.text(0, i, "  weight 0", va="center", ha="left", fontsize="small")
            continue
        if math.isinf(v):
            ax.barh(i, floor, color=color, hatch="//", alpha=0.5)
            ax.text(floor, i, "−∞ ", va="center", ha="right", fontsize="small")
        else:
            ax.barh(i, v, color=color)
            # the value just outside the bar's end (left of a negative bar, right of a zero one)
            ax.text(v, i, f"{v:.3f} " if v < 0 else f" {v:.3f}", va="center", ha="right" if v < 0 else "left",
                    fontsize="small")
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=_scaled(0.8))
    ax.set_xlim(floor * 1.25, 0.3 * abs(floor))  # room for the labels at both ends
    ax.set_xlabel("contribution to log BLEU")
    ax.set_title(view.score_text)
    _fit_axes(ax)
    _room_sideways(ax, ax.texts)  # larger text needs more room at the ends
    return ax


def simplex_heatmap(points, ax=None, *, title: str = "", cmap: str = "viridis", vmin=None, vmax=None,
                    center=None, label: str = "BLEU", figsize=None):
    """A heatmap of a value over the triangle of weights (w1, w2, w3), w1 + w2 + w3 = 1.

    ``points`` are (w1, w2, w3, value) tuples, e.g. from :func:`evalkit.widgets.simplex_scores`.  The
    corners are pure 1-gram, 2-gram and 3-gram weight; the black dot is uniform BLEU-3 (1/3 each).  The
    colour bar is labelled ``label``.  For a difference, pass ``center=0``: the colours then diverge from
    ``center`` with each side scaled to its own extreme (``vmin``/``vmax``, by default the data's), so a
    small positive region is as visible as a large negative one, and the line where the value equals
    ``center`` is drawn.  Returns the Axes (its colour bar is attached to the figure)."""
    import math

    import matplotlib.colors as mcolors
    import matplotlib.tri as mtri

    if not points:
        raise ValueError("points is empty; compute them with evalkit.widgets.simplex_scores")
    ax = ax or new_axes(figsize=figsize or (5.6, 4.6))
    # Barycentric to Cartesian: corner 1-gram at (0, 0), 2-gram at (1, 0), 3-gram at (1/2, sqrt(3)/2).
    xs = [w2 + w3 / 2 for _, w2, w3, _ in points]
    ys = [w3 * math.sqrt(3) / 2 for _, _, w3, _ in points]
    values = [v for *_, v in points]
    tri = mtri.Triangulation(xs, ys)
    if center is None:
        mesh = ax.tripcolor(tri, values, shading="gouraud", cmap=cmap, vmin=vmin, vmax=vmax)
    else:
        low = min(values) if vmin is None else vmin
        high = max(values) if vmax is None else vmax
        # a side with no data still needs a width: make it a tiny sliver
        spread = max(abs(low - center), abs(high - center), 1e-12)
        low, high = min(low, center - 1e-6 * spread), max(high, center + 1e-6 * spread)
        norm = mcolors.TwoSlopeNorm(vcenter=center, vmin=low, vmax=high)
        mesh = ax.tripcolor(tri, values, shading="gouraud", cmap=cmap, norm=norm)
        if min(values) < center < max(values):
            ax.tricontour(tri, values, levels=[center], colors="black", linewidths=_scaled(1.2))
    bar = ax.figure.colorbar(mesh, ax=ax, shrink=0.8, pad=0.08)
    bar.set_label(label)
    if center is not None:  # ticks on both sides, each side's extreme labelled
        below = [low + (center - low) * k / 3 for k in range(3)]
        above = [center + (high - center) * k / 2 for k in range(1, 3)]
        bar.set_ticks([*below, center, *above], labels=[f"{t:+.3f}" if t != center else f"{center:g}"
                                                        for t in [*below, center, *above]])
    ax.plot([0, 1, 0.5, 0], [0, 0, math.sqrt(3) / 2, 0], color="black", linewidth=_scaled(0.8))
    ax.text(0.0, -0.04, "w1 = 1", ha="center", va="top")
    ax.text(1.0, -0.04, "w2 = 1", ha="center", va="top")
    ax.text(0.5, math.sqrt(3) / 2 + 0.03, "w3 = 1", ha="center", va="bottom")
    ax.plot([1 / 2], [math.sqrt(3) / 6], marker="o", color="black", markersize=_marker(4))
    ax.annotate("uniform BLEU-3", (1 / 2, math.sqrt(3) / 6), xytext=(6, 4), textcoords="offset points",
                fontsize="small", color="black")
    ax.set_xlim(-0.12, 1.12)
    ax.set_ylim(-0.12, math.sqrt(3) / 2 + 0.1)
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.set_title(title)
    _fit_axes(ax)
    return ax


def rank_paths(ranks, n_points: int | None = None, ax=None, *, tick_positions=(), tick_labels=(), title="",
               figsize=None):
    """A bump chart: one line per system, its rank (1 at the top) at each step of a path of weights.

    ``ranks`` is ``{system: [rank at step 0, rank at step 1, ...]}`` (see :func:`evalkit.widgets.rankings`);
    ``tick_positions``/``tick_labels`` name some steps (e.g. BLEU-1 ... BLEU-4).  The system names are the
    tick labels of the left axis (order at the first step) and of the right axis (order at the last step),
    so the layout makes room for them and no name is cut off."""
    if not ranks:
        raise ValueError("ranks is empty; compute them with evalkit.widgets.rankings")
    ax = ax or new_axes(figsize=figsize or (8.0, 6.0))
    steps = n_points or len(next(iter(ranks.values())))
    colors = {}
    for i, (name, rs) in enumerate(sorted(ranks.items(), key=lambda kv: kv[1][-1])):
        line = ax.plot(range(steps), rs[:steps], marker="o", markersize=_marker(3), linewidth=_scaled(1.5),
                       color=f"C{i % 10}", linestyle="-" if i < 10 else "--")[0]
        colors[name] = line.get_color()
    right = ax.twinx()

    def name_ticks(axis, step, fmt):
        # one tick per rank; systems sharing a rank share its label
        by_rank = {}
        for name, rs in ranks.items():
            by_rank.setdefault(rs[step], []).append(name)
        positions = sorted(by_rank)
        axis.set_yticks(positions, [fmt(r, ", ".join(sorted(by_rank[r]))) for r in positions], fontsize="small")
        for tick, r in zip(axis.get_yticklabels(), positions):
            tick.set_color(colors[sorted(by_rank[r])[0]])

    for axis in (ax, right):
        axis.set_ylim(len(ranks) + 0.5, 0.5)
    name_ticks(ax, 0, lambda r, names: f"{names}  {r}")
    name_ticks(right, steps - 1, lambda r, names: f"{r}  {names}")
    ax.set_ylabel("rank (1 = highest BLEU)")
    ax.set_xticks(list(tick_positions), list(tick_labels))
    ax.set_xlim(-0.5, steps - 0.5)
    ax.set_title(title)
    _fit_axes(ax)
    return ax




# ======================================== end widgets =================================
