"""Step-by-step views of the metrics as pandas DataFrames, for the lessons.

pandas is imported inside each function, so ``import evalkit.bleu`` (or ``evalkit.gleu``/``evalkit.rouge``)
stays light.  Each section below belongs to one metric.
"""

from __future__ import annotations


def _pd():
    import pandas as pd

    return pd


# ======================================== BLEU ========================================
def bleu_ngram_table(hypothesis, references, n: int = 1, *, tokenize: str = "none", lowercase: bool = False):
    """One row per distinct hypothesis n-gram: its count in the hypothesis, in each reference, the max
    over references, and the clipped count min(hyp, max) that BLEU credits.  Rows in order of first use."""
    from ._checks import check_int
    from .bleu import _segment_tokens
    from .ngrams import ngram_counts, ngrams

    check_int("n", n, 1)
    hyp, refs = _segment_tokens(hypothesis, references, tokenize, lowercase)
    hyp_counts = ngram_counts(hyp, n)
    ref_counts = [ngram_counts(r, n) for r in refs]
    rows = []
    for gram in dict.fromkeys(ngrams(hyp, n)):  # distinct, in order of first occurrence
        row = {"n-gram": " ".join(gram), "hyp": hyp_counts[gram]}
        for j, counts in enumerate(ref_counts, start=1):
            row[f"ref{j}" if len(refs) > 1 else "ref"] = counts[gram]
        row["max ref"] = max(c[gram] for c in ref_counts)
        row["clipped"] = min(row["hyp"], row["max ref"])
        rows.append(row)
    columns = ["n-gram", "hyp", *[f"ref{j}" for j in range(1, len(refs) + 1)], "max ref", "clipped"]
    if len(refs) == 1:
        columns[2] = "ref"
    return _pd().DataFrame(rows, columns=columns)


def bleu_order_table(result):
    """Per order: matches, total, precision (as used, after smoothing), weight and the weighted log term
    w_n * log p_n.  ``df.attrs`` holds the brevity penalty, the lengths and the score."""
    import math

    rows = []
    for p, w in zip(result.precisions, list(result.weights) + [None] * len(result.precisions)):
        value = p.value
        log_term = None
        if value is not None and w is not None and w > 0:
            log_term = w * math.log(value) if value > 0 else -math.inf
        rows.append(
            {"n": p.n, "matches": p.matches, "total": p.total, "precision": value, "weight": w, "w·log p": log_term}
        )
    df = _pd().DataFrame(rows).set_index("n")
    df.attrs.update(
        brevity_penalty=result.brevity_penalty, hyp_len=result.hyp_len, ref_len=result.ref_len, score=result.score
    )
    return df


# ======================================== end BLEU ====================================


# ======================================== GLEU ========================================
# (per-order table)


# ======================================== end GLEU ====================================


# ======================================== ROUGE =======================================
# (LCS table, matched n-grams)


# ======================================== end ROUGE ===================================


# ======================================== widgets =====================================
def weights_table(view):
    """The explorer's per-order table as a DataFrame (index n): matches, total, the precision as used,
    the weight as used and w·log p.  ``view`` is a :class:`evalkit.widgets.WeightsView`."""
    rows = [
        {
            "matches": r.matches,
            "total": r.total,
            "precision": r.precision,
            "weight": r.weight,
            "w·log p": r.weighted_log,
        }
        for r in view.rows
    ]
    df = _pd().DataFrame(rows, index=_pd().Index([r.n for r in view.rows], name="n"))
    df.attrs.update(brevity_penalty=view.brevity_penalty, score=view.score)
    return df


def _cell(x, fmt: str = "{:.4f}") -> str:
    import math

    if x is None:
        return "–"
    if isinstance(x, float) and math.isinf(x):
        return "−∞"
    return fmt.format(x)


def weights_table_html(view) -> str:
    """The same table as HTML, without pandas (the explorer redraws it on every slider move)."""
    head = "".join(f"<th>{h}</th>" for h in ("n", "matches / total", "precision", "weight", "w·log p"))
    body = "".join(
        f"<tr><td>{r.n}</td><td>{r.matches} / {r.total}</td><td>{_cell(r.precision)}</td>"
        f"<td>{_cell(r.weight)}</td><td>{_cell(r.weighted_log)}</td></tr>"
        for r in view.rows
    )
    style = (
        "<style>.evalkit-weights-table th, .evalkit-weights-table td {padding: 2px 10px; text-align: right}"
        ".evalkit-weights-table {margin-right: 24px; border-collapse: collapse}</style>"
    )
    return f'{style}<table class="evalkit-weights-table"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'




# ======================================== end widgets =================================
