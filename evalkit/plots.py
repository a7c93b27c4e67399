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
def gleu_iterations_plot(result, ax=None, *, bins: int = 30, published: float | None = None):
    """Histogram of the corpus GLEU of each sampling iteration (x 100), with the mean and the script's
    95% interval (mean +- 1.96 std) as vertical lines; ``published`` adds a dotted line at that value."""
    if len(result.scores) < 2:
        raise ValueError("this result has a single iteration: there is no distribution to plot")
    ax = ax if ax is not None else new_axes()
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


# ======================================== end ROUGE ===================================


# ======================================== widgets =====================================


# ======================================== end widgets =================================
