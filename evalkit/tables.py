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


def bleu_smoothing_table(stats, *, methods=None, weights=(0.25, 0.25, 0.25, 0.25), effective_order=False):
    """One row per smoothing method: the precision p_n each method puts into the geometric mean, and the
    score.  Re-scores the same :class:`~evalkit.bleu.BLEUStats` (no recounting).  A method that refuses
    these statistics (``method6`` needs a non-zero 3-gram precision) gets NaN everywhere."""
    import math

    from .bleu import SMOOTHING, score_stats

    methods = list(SMOOTHING if methods is None else methods)
    order = len(weights)
    rows = []
    for m in methods:
        try:
            result = score_stats(stats, weights=weights, smoothing=m, effective_order=effective_order)
        except ValueError:
            if m not in SMOOTHING:
                raise
            rows.append({"smoothing": m, **{f"p{n}": math.nan for n in range(1, order + 1)}, "BLEU": math.nan})
            continue
        values = {f"p{p.n}": (math.nan if p.value is None else p.value) for p in result.precisions}
        rows.append({"smoothing": m, **values, "BLEU": result.score})
    return _pd().DataFrame(rows).set_index("smoothing")


def _check_system_scores(scores):
    """Check a dict setting -> {system: score} (every setting scoring the same systems); the system names."""
    if not isinstance(scores, dict) or not scores:
        raise TypeError("scores must be a non-empty dict: setting (e.g. tokenizer) -> {system: score}")
    systems = None
    for setting, by_system in scores.items():
        if not isinstance(by_system, dict) or not by_system:
            raise TypeError(f"scores[{setting!r}] must be a non-empty dict of system -> score")
        if systems is None:
            systems = list(by_system)
        elif set(by_system) != set(systems):
            raise ValueError(f"scores[{setting!r}] does not score the same systems as the first setting")
    return systems


def bleu_ranks(by_system):
    """Rank of each system by score, 1 = best; equal scores share the better rank."""
    ordered = sorted(by_system.values(), reverse=True)
    return {name: 1 + sum(1 for s in ordered if s > score) for name, score in by_system.items()}


def bleu_system_table(scores):
    """Systems (rows) by setting (columns, e.g. tokenizers): the score and the rank (1 = best) under each.

    ``scores`` maps setting -> {system: score}.  Rows are sorted by the first setting's score.
    """
    systems = _check_system_scores(scores)
    settings = list(scores)
    first = settings[0]
    ranks = {s: bleu_ranks(scores[s]) for s in settings}
    rows = []
    for name in sorted(systems, key=lambda n: -scores[first][n]):
        row = {"system": name}
        row.update({s: scores[s][name] for s in settings})
        row.update({f"rank {s}": ranks[s][name] for s in settings})
        rows.append(row)
    return _pd().DataFrame(rows).set_index("system")


# ======================================== end BLEU ====================================


# ======================================== GLEU ========================================
# (per-order table)


# ======================================== end GLEU ====================================


# ======================================== ROUGE =======================================
# (LCS table, matched n-grams)


# ======================================== end ROUGE ===================================


# ======================================== widgets =====================================


# ======================================== end widgets =================================
