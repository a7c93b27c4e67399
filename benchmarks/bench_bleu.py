"""Corpus BLEU on the 16 WMT17 en-de systems: evalkit against sacreBLEU and NLTK, in one run.

- sacreBLEU with its references cached: ``BLEU(references=[ref])`` built once, then ``corpus_score`` per
  system; evalkit: ``corpus_bleu`` once per system (its reference counts are cached after the first call).
  Timed as the median of repeats of the whole 16-system loop; the first (cold) pass is reported as well.
- NLTK's ``corpus_bleu`` on pre-split text (13a tokens, split before timing), one pass.
- Re-scoring cached statistics with new weights, against recounting.
Scores are checked equal (1e-9) before anything is timed.
"""

from __future__ import annotations

import math
import time

from bench import Row, median_time
from nltk.translate import bleu_score as nltk_bleu
from sacrebleu.metrics.bleu import BLEU

from evalkit import data
from evalkit.bleu import corpus_bleu, corpus_stats, score_stats
from evalkit.tokenize import tokenize_13a


def _clear_hypothesis_token_caches():
    """Cold start for both libraries' tokenizer caches (references stay cached on both sides)."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

    from evalkit.fast import tokenize_13a_fast

    Tokenizer13a.__call__.cache_clear()
    TokenizerRegexp.__call__.cache_clear()
    tokenize_13a_fast.cache_clear()


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

    def sacre_all():
        for hyps in systems.values():
            sacre.corpus_score(hyps, None)

    def cold(fn):
        _clear_hypothesis_token_caches()
        t0 = time.perf_counter()
        fn()
        return time.perf_counter() - t0

    cold_ek, cold_sb = cold(evalkit_all), cold(sacre_all)
    warm_ek, warm_sb = median_time(evalkit_all, 5), median_time(sacre_all, 5)
    rows = [
        Row("corpus BLEU 13a, 16 WMT17 systems (median of 5, tokenizer caches warm)", warm_ek,
            "sacreBLEU, cached refs", warm_sb, target=3.0),
        Row("corpus BLEU 13a, 16 WMT17 systems (first pass, tokenizer caches cold)", cold_ek,
            "sacreBLEU, cached refs", cold_sb, note="both tokenize every hypothesis afresh"),
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
