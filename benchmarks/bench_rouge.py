"""ROUGE-1, ROUGE-2 and ROUGE-L: evalkit against rouge-score's ``RougeScorer.score`` on the JFLEG test pairs.

Each of the 747 sources is scored against each of its 4 corrections separately: 2,988 pairs.  Both sides do
the same work (tokenize both texts, count, score); rouge-score takes the reference first.  The stemming row
clears evalkit's stem cache before every repeat, so its cache only helps within one pass over the data, as
nltk's stemmer would if rouge-score kept one.

    python benchmarks/bench.py rouge
"""

from __future__ import annotations

import math
import statistics
import time

from bench import Row, median_time
from rouge_score import rouge_scorer

from evalkit import fast, rouge, rouge_many
from evalkit.tokenize import stem
from evalkit.data import jfleg


def _pairs():
    data = jfleg("test")
    return [(src, ref) for src, refs in zip(data.sources, data.references) for ref in refs]


def run() -> list[Row]:
    pairs = _pairs()
    assert len(pairs) == 2988
    tasks = [
        # one variant per call, with the readable functions (each call tokenizes again)
        ("ROUGE-1", ["rouge1"], lambda h, r, s: [rouge.rouge_n(h, [r], 1, stemmer=s)], False),
        ("ROUGE-2", ["rouge2"], lambda h, r, s: [rouge.rouge_n(h, [r], 2, stemmer=s)], False),
        ("ROUGE-L", ["rougeL"], lambda h, r, s: [rouge.rouge_l(h, [r], stemmer=s)], False),
        (
            "ROUGE-1/2/L together",
            ["rouge1", "rouge2", "rougeL"],
            lambda h, r, s: [rouge.rouge_n(h, [r], 1, stemmer=s), rouge.rouge_n(h, [r], 2, stemmer=s),
                             rouge.rouge_l(h, [r], stemmer=s)],
            False,
        ),
        (
            "ROUGE-1/2/L together, stemmed",
            ["rouge1", "rouge2", "rougeL"],
            lambda h, r, s: [rouge.rouge_n(h, [r], 1, stemmer=s), rouge.rouge_n(h, [r], 2, stemmer=s),
                             rouge.rouge_l(h, [r], stemmer=s)],
            True,
        ),
    ]
    rows = []

    # The target row: all three variants of each pair at once, as RougeScorer(["rouge1", "rouge2", "rougeL"])
    # computes them; evalkit's rouge_scores tokenizes each text once.  Caches are cleared before every
    # repeat, so only what one pass over the data reuses (each source meets four corrections) is cached.
    scorer3 = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"])

    hyps, refs = [h for h, _ in pairs], [[r] for _, r in pairs]

    def evalkit_together():
        fast.clear_caches()
        return rouge_many.rouge_scores_many(hyps, refs)

    def peer_together():
        return [scorer3.score(r, h) for h, r in pairs]

    for m, t in zip(evalkit_together(), peer_together()):
        for key in ("rouge1", "rouge2", "rougeL"):
            assert math.isclose(m[key].fmeasure, t[key].fmeasure, rel_tol=1e-12, abs_tol=1e-12)

    # The headline: a user calling rouge_scores once per pair, as RougeScorer.score is called, with every
    # cache empty at the start of each pass (as in a fresh process, which has nothing to clear: the clearing
    # is outside the timing); the median of 5 passes on each side, interleaved.
    def evalkit_per_pair():
        return [rouge_many.rouge_scores(h, [r]) for h, r in pairs]

    def cold(fn):
        fast.clear_caches()
        t0 = time.perf_counter()
        fn()
        return time.perf_counter() - t0

    fast.clear_caches()
    for m, t in zip(evalkit_per_pair(), peer_together()):
        for key in ("rouge1", "rouge2", "rougeL"):
            for field in ("precision", "recall", "fmeasure"):
                assert math.isclose(getattr(m[key], field), getattr(t[key], field), rel_tol=1e-12, abs_tol=1e-12)
    cold_ek, cold_peer = [], []
    for _ in range(5):
        cold_ek.append(cold(evalkit_per_pair))
        cold_peer.append(cold(peer_together))
    rows.append(
        Row(
            task="ROUGE-1/2/L, rouge_scores once per pair, cold (caches emptied each pass), 2,988 JFLEG test pairs",
            evalkit_s=statistics.median(cold_ek),
            peer="rouge-score 0.1.2 RougeScorer.score",
            peer_s=statistics.median(cold_peer),
            target=3.0,
            note="same P, R, F on every pair (checked first)",
        )
    )
    rows.append(
        Row(
            task="ROUGE-1/2/L of each pair (rouge_scores_many), 2,988 JFLEG test pairs",
            evalkit_s=median_time(evalkit_together, 5),
            peer="rouge-score 0.1.2 RougeScorer.score",
            peer_s=median_time(peer_together, 5),
            note="same P, R, F on every pair (checked first); caches emptied each pass",
        )
    )
    for name, types, ours, stemmer in tasks:
        scorer = rouge_scorer.RougeScorer(types, use_stemmer=stemmer)

        def run_evalkit():
            stem.cache_clear()
            return [ours(h, r, stemmer) for h, r in pairs]

        def run_peer():
            return [scorer.score(r, h) for h, r in pairs]

        # the two must agree before their times mean anything
        mine, theirs = run_evalkit(), run_peer()
        for m, t in zip(mine, theirs):
            for result, key in zip(m, types):
                assert math.isclose(result.fmeasure, t[key].fmeasure, rel_tol=1e-12, abs_tol=1e-12)
        rows.append(
            Row(
                task=f"{name} with the readable rouge_n/rouge_l (one call per variant), 2,988 JFLEG test pairs",
                evalkit_s=median_time(run_evalkit),
                peer="rouge-score 0.1.2 RougeScorer.score",
                peer_s=median_time(run_peer),
                note="same F on every pair (checked first)",
            )
        )
    return rows


if __name__ == "__main__":
    from bench import render

    print(render(run()))
