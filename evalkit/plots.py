"""Plots for the lessons (matplotlib, imported inside the functions that draw).

Figure size and style are set here, not in the notebooks, so every lesson looks the same.  Each function
returns the matplotlib ``Axes`` it drew on (tests check what was drawn; notebooks end with ``plt.show()``).
"""

from __future__ import annotations

FIGSIZE = (7.0, 4.0)
SLIDES = (6.0, 3.5)  # a figure for a 16:9 slide next to a few lines of text


def new_axes(figsize=FIGSIZE, **subplot_kw):
    """A fresh figure and axes with evalkit's size and style.

    The figure uses matplotlib's constrained layout: at every draw the axes shrink to leave room for tick
    labels, titles, legends and colour bars, so nothing is cut off at the canvas edge at any size.
    """
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=figsize, subplot_kw=subplot_kw or None, layout="constrained")
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

    ax = ax if ax is not None else new_axes(figsize=figsize or FIGSIZE)
    ratios, bps = bleu_bp_curve(max_ratio)
    ax.plot(ratios, bps, color="C0", label="BP")
    ax.axvline(1.0, color="grey", linestyle=":", linewidth=1)
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
    ax = ax if ax is not None else new_axes(figsize=figsize or FIGSIZE)
    width = 0.8 / len(results)
    orders = max(len(r.precisions) for r in results.values())
    for k, (label, result) in enumerate(results.items()):
        xs = [p.n + (k - (len(results) - 1) / 2) * width for p in result.precisions]
        heights = [p.matches / p.total if p.total else 0.0 for p in result.precisions]
        bars = ax.bar(xs, heights, width=width * 0.95, label=label or None, color=f"C{k}")
        ax.bar_label(bars, labels=[f"{p.matches}/{p.total}" for p in result.precisions], fontsize=7)
    ax.set_xticks(range(1, orders + 1))
    ax.set_xlabel("n-gram order n")
    ax.set_ylabel("clipped precision p_n")
    ax.set_ylim(0, 1.3)  # room for the fraction labels and the legend above the bars
    ax.set_title("Clipped n-gram precision per order")
    if len(results) > 1:
        ax.legend(loc="upper right", fontsize=8)
    return ax


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
    ax = ax if ax is not None else new_axes(figsize=figsize or FIGSIZE)
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
    ax.bar_label(bars, labels=labels, fontsize=8, rotation=90, padding=2)
    ax.set_xticks(range(len(methods)), methods, rotation=45, ha="right")
    ax.set_ylabel("BLEU")
    ax.set_ylim(0, max([*heights, 0.01]) * 1.55)  # room for the rotated labels and the legend
    ax.set_title("The same statistics under each smoothing method")
    from matplotlib.patches import Patch

    ax.legend(handles=[Patch(color="C0", label="sacreBLEU's"), Patch(color="C1", label="NLTK's (Chen & Cherry 2014)")],
              loc="upper center", ncol=2, fontsize=8)
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
                    va="center", fontsize=8)
    ax.set_xticks(range(len(settings)), settings)
    ax.set_xlim(-0.3, len(settings) - 1 + 1.2)
    ax.set_yticks(range(1, len(systems) + 1))
    ax.invert_yaxis()
    ax.set_ylabel("rank (1 = highest BLEU)")
    ax.set_title("Ranking of the systems under each setting")
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
    return ax


# ======================================== end BLEU ====================================


# ======================================== GLEU ========================================
def gleu_iterations_plot(result, ax=None, *, bins: int = 30, published: float | None = None, figsize=None):
    """Histogram of the corpus GLEU of each sampling iteration (x 100), with the mean and the script's
    95% interval (mean +- 1.96 std) as vertical lines; ``published`` adds a dotted line at that value."""
    if len(result.scores) < 2:
        raise ValueError("this result has a single iteration: there is no distribution to plot")
    ax = ax if ax is not None else new_axes(figsize=figsize or FIGSIZE)
    values = [100 * s for s in result.scores]
    ax.hist(values, bins=bins, color="tab:blue", alpha=0.7, label=f"{len(values)} iterations")
    ax.axvline(100 * result.score, color="black", linewidth=2, label=f"mean {100 * result.score:.2f}")
    lo, hi = result.ci
    ax.axvline(100 * lo, color="tab:red", linestyle="--", label=f"95% interval {100 * lo:.2f} to {100 * hi:.2f}")
    ax.axvline(100 * hi, color="tab:red", linestyle="--")
    if published is not None:
        ax.axvline(published, color="tab:green", linestyle=":", linewidth=2, label=f"published {published:.2f}")
    ax.set_xlabel("corpus GLEU x 100 (one reference sampled per sentence)")
    ax.set_ylabel("iterations")
    ax.legend(loc="upper left", fontsize="small")
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
        ax = new_axes(figsize=figsize or (max(4.0, 0.6 * cols + 2), max(3.0, 0.5 * rows + 1.5)))
    ax.grid(False)
    ax.imshow(df.to_numpy(), cmap="Blues", aspect="auto", vmin=0, vmax=max(1, df.attrs["length"]) * 1.6)
    for i in range(rows):
        for j in range(cols):
            ax.text(j, i, str(df.iat[i, j]), ha="center", va="center", fontsize=9)
    cells = _lcs_walk(df)
    ax.plot([j for _, j in cells], [i for i, _ in cells], color="tab:red", linewidth=2, alpha=0.8)
    matched = df.attrs["path"]
    ax.scatter([j for _, j in matched], [i for i, _ in matched], s=260, facecolors="none",
               edgecolors="tab:red", linewidths=2)
    ax.set_xticks(range(cols), list(df.columns), rotation=45, ha="right")
    ax.set_yticks(range(rows), list(df.index))
    ax.set_xlabel("hypothesis")
    ax.set_ylabel("reference")
    import textwrap

    title = f"LCS table: length {df.attrs['length']} ({' '.join(df.attrs['lcs'])})"
    ax.set_title("\n".join(textwrap.wrap(title, width=int(8 * ax.figure.get_figwidth()))))  # ~8 characters an inch
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
    values = [results[k].score.fmeasure for k in labels]
    lower = [results[k].score.fmeasure - results[k].low.fmeasure for k in labels]
    upper = [results[k].high.fmeasure - results[k].score.fmeasure for k in labels]
    if ax is None:
        ax = new_axes(figsize=figsize or FIGSIZE)
    ax.bar(labels, values, yerr=[lower, upper], capsize=4, color="tab:blue", alpha=0.8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("F (mean over segments)")
    ax.set_title("ROUGE variants on the same text, with bootstrap intervals")
    ax.tick_params(axis="x", labelrotation=30)
    return ax



# ======================================== end ROUGE ===================================


# ======================================== widgets =====================================
def _log_bar_items(view):
    """(label, value) for the bars: w_n·log p_n per order (None: weight 0 or order unused), then log BP,
    then their sum log BLEU (-inf stands for a factor 0)."""
    import math

    items = list(view.bars)
    bp = view.brevity_penalty
    items.append(("log BP", math.log(bp) if bp > 0 else -math.inf))
    finite = [v for _, v in items if v is not None]
    items.append(("log BLEU", math.fsum(finite) if all(math.isfinite(v) for v in finite) else -math.inf))
    return items


def weighted_log_bars_svg(view, width: int = 320) -> str:
    """The explorer's bar chart as a small SVG (no matplotlib, so it redraws in well under a millisecond):
    one bar per order for w_n·log p_n, then log BP and log BLEU = their sum; a bar reaching the left
    edge and marked −∞ is a zero factor."""
    import math

    items = _log_bar_items(view)
    finite = [abs(v) for _, v in items if v is not None and math.isfinite(v)]
    scale = max(finite + [1e-12])
    label_w, value_w, bar_h, gap = 70, 64, 16, 6
    plot_w = width - label_w - value_w
    height = len(items) * (bar_h + gap) + gap
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" class="evalkit-log-bars">']
    for i, (label, v) in enumerate(items):
        y = gap + i * (bar_h + gap)
        parts.append(f'<text x="0" y="{y + bar_h - 4}" font-size="12">{label}</text>')
        if v is None:
            text, length = "weight 0", 0.0
        elif math.isinf(v):
            text, length = "−∞", plot_w
        else:
            text, length = f"{v:.4f}", plot_w * abs(v) / scale
        color = "#4c72b0" if i < len(view.bars) else ("#dd8452" if label == "log BP" else "#55a868")
        x0 = label_w + plot_w - length  # bars grow leftwards from 0 (every term is <= 0)
        parts.append(f'<rect x="{x0:.1f}" y="{y}" width="{length:.1f}" height="{bar_h}" fill="{color}"/>')
        parts.append(f'<text x="{label_w + plot_w + 4}" y="{y + bar_h - 4}" font-size="12">{text}</text>')
    parts.append("</svg>")
    return "".join(parts)


def weighted_log_bars(view, ax=None, *, figsize=None):
    """Matplotlib version of the explorer's bars: w_n·log p_n per order, log BP and log BLEU (their sum).
    A zero factor (log = −∞) is drawn as a hatched bar to the axis edge and labelled −∞."""
    import math

    items = _log_bar_items(view)
    ax = ax or new_axes(figsize=figsize or FIGSIZE)
    finite = [v for _, v in items if v is not None and math.isfinite(v)]
    floor = 1.15 * min(finite + [-1.0])
    labels = [label for label, _ in items]
    for i, (label, v) in enumerate(items):
        color = "C0" if i < len(view.bars) else ("C1" if label == "log BP" else "C2")
        if v is None:
            ax.text(0, i, "  weight 0", va="center", ha="left", fontsize=9)
            continue
        if math.isinf(v):
            ax.barh(i, floor, color=color, hatch="//", alpha=0.5)
            ax.text(floor, i, "−∞ ", va="center", ha="right", fontsize=9)
        else:
            ax.barh(i, v, color=color)
            # the value just outside the bar's end (left of a negative bar, right of a zero one)
            ax.text(v, i, f"{v:.3f} " if v < 0 else f" {v:.3f}", va="center", ha="right" if v < 0 else "left",
                    fontsize=9)
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlim(floor * 1.25, 0.3 * abs(floor))  # room for the labels at both ends
    ax.set_xlabel("contribution to log BLEU")
    ax.set_title(view.score_text)
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
            ax.tricontour(tri, values, levels=[center], colors="black", linewidths=1.2)
    bar = ax.figure.colorbar(mesh, ax=ax, shrink=0.8, pad=0.08)
    bar.set_label(label)
    if center is not None:  # ticks on both sides, each side's extreme labelled
        below = [low + (center - low) * k / 3 for k in range(3)]
        above = [center + (high - center) * k / 2 for k in range(1, 3)]
        bar.set_ticks([*below, center, *above], labels=[f"{t:+.3f}" if t != center else f"{center:g}"
                                                        for t in [*below, center, *above]])
    ax.plot([0, 1, 0.5, 0], [0, 0, math.sqrt(3) / 2, 0], color="black", linewidth=0.8)
    ax.text(0.0, -0.04, "w1 = 1", ha="center", va="top")
    ax.text(1.0, -0.04, "w2 = 1", ha="center", va="top")
    ax.text(0.5, math.sqrt(3) / 2 + 0.03, "w3 = 1", ha="center", va="bottom")
    ax.plot([1 / 2], [math.sqrt(3) / 6], marker="o", color="black", markersize=4)
    ax.annotate("uniform BLEU-3", (1 / 2, math.sqrt(3) / 6), xytext=(6, 4), textcoords="offset points",
                fontsize=8, color="black")
    ax.set_xlim(-0.12, 1.12)
    ax.set_ylim(-0.12, math.sqrt(3) / 2 + 0.1)
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.set_title(title)
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
        line = ax.plot(range(steps), rs[:steps], marker="o", markersize=3, linewidth=1.5, color=f"C{i % 10}",
                       linestyle="-" if i < 10 else "--")[0]
        colors[name] = line.get_color()
    right = ax.twinx()

    def name_ticks(axis, step, fmt):
        # one tick per rank; systems sharing a rank share its label
        by_rank = {}
        for name, rs in ranks.items():
            by_rank.setdefault(rs[step], []).append(name)
        positions = sorted(by_rank)
        axis.set_yticks(positions, [fmt(r, ", ".join(sorted(by_rank[r]))) for r in positions], fontsize=8)
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
    return ax




# ======================================== end widgets =================================
