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
    from .bleu import segment_tokens
    from .ngrams import ngram_counts, ngrams
    from .tokenize import warn_about_tokenization

    check_int("n", n, 1)
    hyp, refs = segment_tokens(hypothesis, references, tokenize, lowercase)
    warn_about_tokenization([hypothesis, *references], tokenize, [hyp, *refs], char_option="char")
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


def bleu_smoothing_table(stats, *, methods=None, weights=(0.25, 0.25, 0.25, 0.25), effective_order=False,
                         digits=None):
    """One row per smoothing method: the precision p_n each method puts into the geometric mean, the
    score, and a note.  Re-scores the same :class:`~evalkit.bleu.BLEUStats` (no recounting).

    A method that refuses these statistics (``method5``/``method7`` need 5-gram counts, ``method6`` a
    non-zero 3-gram precision) gets empty cells and, in the ``note`` column, the message
    :func:`~evalkit.bleu.score_stats` raises; the note is empty for every method that scored.  The
    precision and score columns then hold numbers and empty strings, which ``DataFrame.round`` skips:
    pass ``digits`` to round the numbers instead.

    >>> from evalkit.bleu import sentence_stats
    >>> t = bleu_smoothing_table(sentence_stats("a b c", ["a b x"]), methods=["method1", "method6"], digits=4)
    >>> t.loc["method6", "BLEU"], t.loc["method6", "note"][:40], t.loc["method1", "note"]
    ('', "smoothing 'method6' needs at least three", '')
    """
    from ._checks import check_weights
    from .bleu import SMOOTHING, score_stats

    weights = check_weights(weights)  # read once (a generator works), bad weights refused before the loop
    methods = list(SMOOTHING if methods is None else methods)
    order = len(weights)
    columns = [*(f"p{n}" for n in range(1, order + 1)), "BLEU"]

    def shown(x):
        return x if digits is None else round(x, digits)

    rows = []
    for m in methods:
        try:
            result = score_stats(stats, weights=weights, smoothing=m, effective_order=effective_order)
        except ValueError as error:
            if m not in SMOOTHING:
                raise
            rows.append({"smoothing": m, **dict.fromkeys(columns, ""), "note": str(error)})
            continue
        # a precision that does not exist (an order with no n-grams, under effective order) stays empty
        values = {f"p{p.n}": ("" if p.value is None else shown(p.value)) for p in result.precisions}
        rows.append({"smoothing": m, **values, "BLEU": shown(result.score), "note": ""})
    table = _pd().DataFrame(rows, columns=["smoothing", *columns, "note"]).set_index("smoothing")
    for column in columns:  # plain float columns when nothing is empty, so DataFrame.round still works
        if not (table[column].astype(object) == "").any():
            table[column] = table[column].astype(float)
    return table


def bleu_ranks(by_system):
    """Rank of each system by score, 1 = best; equal scores share the better rank (1, 2, 2, 4): see
    :func:`evalkit.ranking.competition_ranks`."""
    from .ranking import competition_ranks

    return competition_ranks(by_system)


def bleu_system_table(scores):
    """Systems (rows) by setting (columns, e.g. tokenizers): the score and the rank (1 = best) under each.

    ``scores`` maps setting -> {system: score}.  Rows are sorted by the first setting's score.
    """
    from ._checks import check_system_scores

    systems = check_system_scores(scores)
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
def gleu_order_table(score):
    """GEC GLEU step by step, one row per n-gram order, like the ``gleu`` package's verbose mode:
    matches, source penalty, numerator (matches - penalty, floored at 0 per sentence), denominator
    (hypothesis n-grams), precision p_n, BP and BP * p_n; a last row "total" sums the counts and gives
    the geometric mean of the precisions and the GLEU score.

    ``score`` is a :class:`evalkit.gleu.GLEUScore` (one entry of ``result.details``) or a
    :class:`evalkit.gleu.GLEUResult` with a single entry (``corpus_gleu(..., mode="max")``, or a sentence
    with one reference).  ``df.attrs`` holds the score, BP and the lengths.
    """
    import math

    from .gleu import GLEUResult, GLEUScore

    if isinstance(score, GLEUResult):
        if len(score.details) != 1:
            raise ValueError(
                f"this result has {len(score.details)} scored parts (iterations or references); "
                "pass one of them, e.g. result.details[0]"
            )
        score = score.details[0]
    if not isinstance(score, GLEUScore):
        raise TypeError(f"expected a GLEUScore or a single-part GLEUResult, got {type(score).__name__}")
    st, bp = score.stats, score.brevity_penalty
    rows = [
        {
            "n": str(n),
            "matches": st.matches[n - 1],
            "penalty": st.penalties[n - 1],
            "numerator": st.numerators[n - 1],
            "denominator": st.totals[n - 1],
            "precision": p,
            "BP": bp,
            "GLEU": bp * p,
        }
        for n, p in zip(range(1, st.max_order + 1), score.precisions)
    ]
    geo_mean = 0.0 if any(p == 0 for p in score.precisions) else math.exp(
        sum(math.log(p) for p in score.precisions) / len(score.precisions)
    )
    rows.append(
        {
            "n": "total",
            "matches": sum(st.matches),
            "penalty": sum(st.penalties),
            "numerator": sum(st.numerators),
            "denominator": sum(st.totals),
            "precision": geo_mean,
            "BP": bp,
            "GLEU": score.score,
        }
    )
    df = _pd().DataFrame(rows).set_index("n")
    df.attrs.update(score=score.score, brevity_penalty=bp, hyp_len=score.hyp_len, ref_len=score.ref_len)
    return df


def gleu_penalty_table(hypothesis, reference, source, n: int = 1, *, formula: str = "code"):
    """One row per distinct hypothesis n-gram: its count in the source, the reference and the hypothesis,
    the match min(hyp, ref) and the source penalty under ``formula`` ("code" or "paper"), and what it
    adds to the numerator before the per-sentence floor.  Rows in order of first use."""
    from ._checks import check_choice, check_int
    from .gleu import FORMULAS, as_units, source_penalty
    from .ngrams import ngram_counts, ngrams
    from .tokenize import warn_about_tokenization

    check_int("n", n, 1)
    check_choice("formula", formula, FORMULAS)
    hyp = as_units(hypothesis, "hypothesis")
    ref = as_units(reference, "reference")
    src = as_units(source, "source")
    warn_about_tokenization([hypothesis, reference, source], "none", [hyp, ref, src])
    h, r, s = ngram_counts(hyp, n), ngram_counts(ref, n), ngram_counts(src, n)
    rows = []
    for gram in dict.fromkeys(ngrams(hyp, n)):
        match = min(h[gram], r[gram])
        penalty = source_penalty(h[gram], r[gram], s[gram], formula)
        rows.append(
            {"n-gram": " ".join(gram), "source": s[gram], "ref": r[gram], "hyp": h[gram], "match": match,
             "penalty": penalty, "match - penalty": match - penalty}
        )
    columns = ["n-gram", "source", "ref", "hyp", "match", "penalty", "match - penalty"]
    return _pd().DataFrame(rows, columns=columns)


def google_bleu_vs_gleu_table(hypotheses, references, sources, *, names=None):
    """One row per hypothesis: BLEU (sentence, sacreBLEU's exp smoothing), Google's GLEU and GEC GLEU
    (sentence, mean over references, the script's smoothing): the same sentences under three metrics."""
    from .bleu import sentence_bleu
    from .gleu import sentence_gleu
    from .google_bleu import sentence_google_bleu
    from .tokenize import one_tokenization_warning

    from ._checks import check_corpus, check_same_length

    check_corpus("hypotheses", hypotheses)
    check_corpus("references", references)
    check_corpus("sources", sources)
    names = list(names) if names is not None else [f"hyp {i + 1}" for i in range(len(hypotheses))]
    check_same_length(hypotheses=hypotheses, references=references, sources=sources, names=names)
    rows = []
    with one_tokenization_warning():  # one warning for the table, not one per metric and row
        for name, hyp, refs, src in zip(names, hypotheses, references, sources):
            rows.append(
                {
                    "hypothesis": name,
                    "BLEU": sentence_bleu(hyp, refs, smoothing="exp").score,
                    "Google GLEU": sentence_google_bleu(hyp, refs).score,
                    "GEC GLEU": sentence_gleu(hyp, refs, src, smoothing="official").score,
                }
            )
    return _pd().DataFrame(rows).set_index("hypothesis")



# ======================================== end GLEU ====================================


# ======================================== ROUGE =======================================
def _rouge_pair_tokens(hypothesis, reference, stemmer, tokenize):
    from ._checks import check_string
    from .rouge import rouge_tokens
    from .tokenize import warn_about_tokenization

    check_string(hypothesis, "hypothesis")
    check_string(reference, "reference")
    tokens = (
        rouge_tokens(hypothesis, tokenize=tokenize, stemmer=stemmer),
        rouge_tokens(reference, tokenize=tokenize, stemmer=stemmer),
    )
    warn_about_tokenization([hypothesis, reference], tokenize, tokens)
    return tokens


def rouge_lcs_table(hypothesis: str, reference: str, *, stemmer: bool = False, tokenize: str = "rouge-score"):
    """ROUGE-L's dynamic-programming table for one pair: rows are the reference tokens, columns the
    hypothesis tokens, each after an empty prefix "∅"; cell (i, j) is the LCS length of the first i reference
    and first j hypothesis tokens.  ``df.attrs["path"]`` lists the matched cells of the LCS that rouge-score
    reads back, as (row, column) positions in the table (1-based, because of the empty prefix), and
    ``df.attrs["lcs"]`` its tokens."""
    from .lcs import lcs_path, lcs_table

    hyp, ref = _rouge_pair_tokens(hypothesis, reference, stemmer, tokenize)
    table = lcs_table(hyp, ref)
    df = _pd().DataFrame(table, index=["∅", *ref], columns=["∅", *hyp])
    df.index.name, df.columns.name = "reference", "hypothesis"
    path = lcs_path(hyp, ref, table)
    df.attrs.update(path=[(i + 1, j + 1) for i, j in path], lcs=[ref[i] for i, _ in path], length=table[-1][-1])
    return df


def rouge_ngram_table(hypothesis: str, reference: str, n: int = 1, *, stemmer: bool = False,
                      tokenize: str = "rouge-score"):
    """The n-grams of a pair: one row per distinct n-gram (hypothesis n-grams first, in order of first use,
    then those only in the reference), its count on each side and the clipped match min(hyp, ref).
    ``df.attrs`` holds the totals (matches, hyp_len, ref_len) and precision, recall and F."""
    from ._checks import check_int
    from .rouge import ngram_counts, ngram_stats, score_stats

    check_int("n", n, 1)
    hyp, ref = _rouge_pair_tokens(hypothesis, reference, stemmer, tokenize)
    hyp_counts, ref_counts = ngram_counts(hyp, n), ngram_counts(ref, n)
    rows = []
    for gram in dict.fromkeys([*hyp_counts, *ref_counts]):
        h, r = hyp_counts[gram], ref_counts[gram]
        rows.append({"n-gram": " ".join(gram), "hyp": h, "ref": r, "matched": min(h, r)})
    df = _pd().DataFrame(rows, columns=["n-gram", "hyp", "ref", "matched"])
    stats = ngram_stats(hyp, ref, n)
    result = score_stats(stats)
    df.attrs.update(matches=stats.matches, hyp_len=stats.hyp_len, ref_len=stats.ref_len,
                    precision=result.precision, recall=result.recall, fmeasure=result.fmeasure)
    return df



# ======================================== end ROUGE ===================================


# ======================================== chrF ========================================
def chrf_table(hypothesis: str, reference: str, n: int, *, whitespace: bool = False, lowercase: bool = False):
    """The character n-grams of order ``n`` (:func:`evalkit.chrf.char_ngrams`, after the same lowercasing
    and white-space rule as chrF): count in the hypothesis, in the reference, and the clipped match.
    Two strings and an order ``n`` >= 1; anything else is a TypeError or ValueError saying what is expected."""
    from ._checks import check_bool, check_int, check_string
    from .chrf import char_ngrams, prepare

    check_string(hypothesis, "hypothesis")
    check_string(reference, "reference")
    check_int("n", n, 1)
    check_bool("whitespace", whitespace)
    check_bool("lowercase", lowercase)
    hyp = char_ngrams(prepare(hypothesis, lowercase=lowercase), n, whitespace=whitespace)
    ref = char_ngrams(prepare(reference, lowercase=lowercase), n, whitespace=whitespace)
    grams = list(hyp) + [g for g in ref if g not in hyp]
    rows = [{"n-gram": g, "hypothesis": hyp[g], "reference": ref[g], "matched": min(hyp[g], ref[g])} for g in grams]
    return _pd().DataFrame(rows, columns=["n-gram", "hypothesis", "reference", "matched"])


# ======================================== end chrF ====================================


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


# ======================================== end widgets =================================
