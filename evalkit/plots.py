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


# ======================================== end widgets =================================
