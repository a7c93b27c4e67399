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
def plot_lcs_table(hypothesis: str, reference: str, *, stemmer: bool = False, tokenizer: str = "rouge-score",
                   ax=None):
    """ROUGE-L's dynamic-programming table as a heatmap, each cell annotated with its LCS length, and the
    path rouge-score reads back drawn from the bottom-right corner; matched cells are circled.
    The drawn line is ``ax.lines[0]`` (x: hypothesis column, y: reference row, in table positions)."""
    from .tables import rouge_lcs_table

    df = rouge_lcs_table(hypothesis, reference, stemmer=stemmer, tokenizer=tokenizer)
    rows, cols = df.shape
    if ax is None:
        ax = new_axes(figsize=(max(4.0, 0.6 * cols + 2), max(3.0, 0.5 * rows + 1.5)))
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
    ax.set_title(f"LCS table: length {df.attrs['length']} ({' '.join(df.attrs['lcs'])})")
    ax.figure.tight_layout()
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


def plot_rouge_variants(results, ax=None):
    """Bars of corpus F per variant with their bootstrap intervals; ``results`` maps a label to a
    :class:`evalkit.rouge.RougeCorpusResult`."""
    labels = list(results)
    values = [results[k].score.fmeasure for k in labels]
    lower = [results[k].score.fmeasure - results[k].low.fmeasure for k in labels]
    upper = [results[k].high.fmeasure - results[k].score.fmeasure for k in labels]
    if ax is None:
        ax = new_axes()
    ax.bar(labels, values, yerr=[lower, upper], capsize=4, color="tab:blue", alpha=0.8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("F (mean over segments)")
    ax.set_title("ROUGE variants on the same text, with bootstrap intervals")
    ax.tick_params(axis="x", labelrotation=30)
    ax.figure.tight_layout()
    return ax



# ======================================== end ROUGE ===================================


# ======================================== widgets =====================================


# ======================================== end widgets =================================
