"""Corpus BLEU on the 16 WMT17 en-de systems: evalkit against sacreBLEU and NLTK, in one run.

- sacreBLEU with its references cached: ``BLEU(references=[ref])`` built once, then ``corpus_score`` per
  system; evalkit: ``corpus_bleu`` once per system (its reference counts are cached after the first call).
  The headline is the cold figure: every cache emptied before each pass (as in a fresh process), the
  references tokenized inside the timing on both sides; the warm figure (caches from earlier passes) follows.
- NLTK's ``corpus_bleu`` on pre-split text (13a tokens, split before timing), one pass.
- Re-scoring cached statistics with new weights, against recounting.
Scores are checked equal (1e-9) before anything is timed.
"""

from __future__ import annotations

import math
import statistics
import time

from bench import Row, median_time
from nltk.translate import bleu_score as nltk_bleu
from sacrebleu.metrics.bleu import BLEU

from evalkit import data
from evalkit.bleu import corpus_bleu, corpus_stats, score_stats
from evalkit.tokenize import tokenize_13a


def _clear_all_token_caches():
    """Cold start for both libraries, as in a fresh process: every tokenizer cache and evalkit's reference
    index and counts are emptied (sacreBLEU's cached references live in its BLEU object, built anew)."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

    from evalkit import clear_caches

    Tokenizer13a.__call__.cache_clear()
    TokenizerRegexp.__call__.cache_clear()
    clear_caches()


def run() -> list[Row]:
    reference, systems = data.wmt17_reference(), data.wmt17_systems()
    refs = [[r] for r in reference]
    sacre = BLEU(references=[reference])

    for hyps in systems.values():  # agreement first
        ours = corpus_bleu(hyps, refs, tokenize="13a", smoothing="exp").score * 100
        theirs = sacre.corpus_score(hyps, None).score
        assert math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-9)

    def evalkit_all():
        for hyps in systems.values():
            corpus_bleu(hyps, refs, tokenize="13a", smoothing="exp")

    def sacre_all(metric=sacre):
        for hyps in systems.values():
            metric.corpus_score(hyps, None)

    # Cold: what a user scoring the 16 systems once in a fresh process waits for, references included
    # (sacreBLEU tokenizes them when its BLEU object is built, evalkit when it builds its reference index).
    # Every pass starts with all caches empty; the median of 3 such passes on each side.
    def cold_evalkit():
        _clear_all_token_caches()
        t0 = time.perf_counter()
        evalkit_all()
        return time.perf_counter() - t0

    def cold_sacre():
        _clear_all_token_caches()
        t0 = time.perf_counter()
        sacre_all(BLEU(references=[reference]))
        return time.perf_counter() - t0

    cold_ek, cold_sb = [], []
    for _ in range(3):  # interleaved, so that a noisy moment on the machine hits both sides
        cold_ek.append(cold_evalkit())
        cold_sb.append(cold_sacre())
    cold_ek, cold_sb = statistics.median(cold_ek), statistics.median(cold_sb)
    warm_ek, warm_sb = median_time(evalkit_all, 5), median_time(sacre_all, 5)
    rows = [
        Row("corpus BLEU 13a, 16 WMT17 systems, cold (fresh-process caches, median of 3)", cold_ek,
            "sacreBLEU, BLEU(references) + corpus_score", cold_sb, target=3.0,
            note="all caches empty on both sides: every reference and hypothesis tokenized afresh"),
        Row("corpus BLEU 13a, 16 WMT17 systems, warm (caches from earlier passes, median of 5)", warm_ek,
            "sacreBLEU, cached refs", warm_sb, note="both reuse their tokenizer caches"),
    ]

    # NLTK on pre-split text: tokenization outside the timing, 4 systems (NLTK is slow), scaled to 16.
    split_refs = [[tokenize_13a(r)] for r in reference]
    some = list(systems)[:4]
    split_hyps = {name: [tokenize_13a(h) for h in systems[name]] for name in some}
    for name in some:
        a = corpus_bleu(split_hyps[name], split_refs, smoothing="method0").score
        b = nltk_bleu.corpus_bleu(split_refs, split_hyps[name])
        assert math.isclose(a, b, rel_tol=1e-9)
    t_nltk = median_time(lambda: [nltk_bleu.corpus_bleu(split_refs, split_hyps[n]) for n in some], 1)
    t_ek = median_time(lambda: [corpus_bleu(split_hyps[n], split_refs, smoothing="method0") for n in some], 3)
    rows.append(Row("corpus BLEU on pre-split text, 4 WMT17 systems", t_ek, "NLTK corpus_bleu", t_nltk))

    # Re-weighting: score cached statistics vs count and score again.
    hyps = systems["uedin-nmt"]
    stats = corpus_stats(hyps, refs, tokenize="13a")
    weights = (0.4, 0.3, 0.2, 0.1)
    assert score_stats(stats, weights=weights).score == corpus_bleu(hyps, refs, tokenize="13a", weights=weights).score
    t_rescore = median_time(lambda: [score_stats(stats, weights=weights) for _ in range(1000)], 5) / 1000
    t_recount = median_time(lambda: corpus_bleu(hyps, refs, tokenize="13a", weights=weights, fast=False), 3)
    rows.append(Row("new weights on one WMT17 system: re-score cached stats", t_rescore,
                    "recount (readable evalkit)", t_recount, target=1000.0))
    return rows
