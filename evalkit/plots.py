"""Plots for the lessons (matplotlib, imported inside the functions that draw).

Figure size and style are set here, not in the notebooks, so every lesson looks the same.  Each function
returns the matplotlib ``Axes`` it drew on (tests check what was drawn; notebooks end with ``plt.show()``).
"""

from __future__ import annotations

FIGSIZE = (7.0, 4.0)


def new_axes(figsize=FIGSIZE, **subplot_kw):
    """A fresh figure and axes with evalkit's size and style."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=figsize, subplot_kw=subplot_kw or None)
    ax.grid(True, alpha=0.3)
    return ax


# ======================================== BLEU ========================================


# ======================================== end BLEU ====================================


# ======================================== GLEU ========================================


# ======================================== end GLEU ====================================


# ======================================== ROUGE =======================================


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


def weighted_log_bars(view, ax=None):
    """Matplotlib version of the explorer's bars: w_n·log p_n per order, log BP and log BLEU (their sum).
    A zero factor (log = −∞) is drawn as a hatched bar to the axis edge and labelled −∞."""
    import math

    items = _log_bar_items(view)
    ax = ax or new_axes()
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
            ax.text(floor, i, " −∞", va="center", ha="left", fontsize=9)
        else:
            ax.barh(i, v, color=color)
            ax.text(v, i, f" {v:.3f}", va="center", ha="right" if v < 0 else "left", fontsize=9)
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlim(floor * 1.1, 0.05 * abs(floor))
    ax.set_xlabel("contribution to log BLEU")
    ax.set_title(view.score_text)
    return ax


def simplex_heatmap(points, ax=None, *, title: str = "", cmap: str = "viridis", vmin=None, vmax=None):
    """A heatmap of a value over the triangle of weights (w1, w2, w3), w1 + w2 + w3 = 1.

    ``points`` are (w1, w2, w3, value) tuples, e.g. from :func:`evalkit.widgets.simplex_scores`.  The
    corners are pure 1-gram, 2-gram and 3-gram weight; the centre is uniform BLEU-3.  Returns the Axes
    (its colour bar is attached to the figure)."""
    import math

    import matplotlib.tri as mtri

    if not points:
        raise ValueError("points is empty; compute them with evalkit.widgets.simplex_scores")
    ax = ax or new_axes(figsize=(5.0, 4.4))
    # Barycentric to Cartesian: corner 1-gram at (0, 0), 2-gram at (1, 0), 3-gram at (1/2, sqrt(3)/2).
    xs = [w2 + w3 / 2 for _, w2, w3, _ in points]
    ys = [w3 * math.sqrt(3) / 2 for _, _, w3, _ in points]
    values = [v for *_, v in points]
    tri = mtri.Triangulation(xs, ys)
    mesh = ax.tripcolor(tri, values, shading="gouraud", cmap=cmap, vmin=vmin, vmax=vmax)
    ax.figure.colorbar(mesh, ax=ax, shrink=0.8)
    ax.plot([0, 1, 0.5, 0], [0, 0, math.sqrt(3) / 2, 0], color="black", linewidth=0.8)
    ax.text(-0.02, -0.04, "w1 = 1", ha="right", va="top")
    ax.text(1.02, -0.04, "w2 = 1", ha="left", va="top")
    ax.text(0.5, math.sqrt(3) / 2 + 0.03, "w3 = 1", ha="center", va="bottom")
    ax.plot([1 / 2], [math.sqrt(3) / 6], marker="+", color="white", markersize=10)  # uniform BLEU-3
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.set_title(title, pad=20)
    return ax


def rank_paths(ranks, n_points: int | None = None, ax=None, *, tick_positions=(), tick_labels=(), title=""):
    """A bump chart: one line per system, its rank (1 at the top) at each step of a path of weights.

    ``ranks`` is ``{system: [rank at step 0, rank at step 1, ...]}`` (see :func:`evalkit.widgets.rankings`);
    ``tick_positions``/``tick_labels`` name some steps (e.g. BLEU-1 ... BLEU-4)."""
    if not ranks:
        raise ValueError("ranks is empty; compute them with evalkit.widgets.rankings")
    ax = ax or new_axes(figsize=(8.0, 6.0))
    steps = n_points or len(next(iter(ranks.values())))
    margin = max(1.0, 0.3 * steps)  # room for the system names at both ends
    for i, (name, rs) in enumerate(sorted(ranks.items(), key=lambda kv: kv[1][-1])):
        line = ax.plot(range(steps), rs, marker="o", markersize=3, linewidth=1.5, color=f"C{i % 10}",
                       linestyle="-" if i < 10 else "--")[0]
        ax.text(steps - 1 + margin / 10, rs[-1], name, va="center", fontsize=8, color=line.get_color())
        ax.text(-margin / 10, rs[0], name, va="center", ha="right", fontsize=8, color=line.get_color())
    ax.set_ylim(len(ranks) + 0.5, 0.5)
    ax.set_yticks(range(1, len(ranks) + 1))
    ax.set_ylabel("rank (1 = highest BLEU)")
    ax.set_xticks(list(tick_positions), list(tick_labels))
    ax.set_xlim(-margin, steps - 1 + margin)
    ax.set_title(title)
    return ax




# ======================================== end widgets =================================
