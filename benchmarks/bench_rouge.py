"""ROUGE-1, ROUGE-2 and ROUGE-L: evalkit against rouge-score's ``RougeScorer.score`` on the JFLEG test pairs.

Each of the 747 sources is scored against each of its 4 corrections separately: 2,988 pairs.  Both sides do
the same work (tokenize both texts, count, score); rouge-score takes the reference first.  The stemming row
clears evalkit's stem cache before every repeat, so its cache only helps within one pass over the data, as
nltk's stemmer would if rouge-score kept one.

    python benchmarks/bench.py rouge
"""

from __future__ import annotations

import math

from bench import Row, median_time
from rouge_score import rouge_scorer

from evalkit import rouge
from evalkit.data import jfleg


def _pairs():
    data = jfleg("test")
    return [(src, ref) for src, refs in zip(data.sources, data.references) for ref in refs]


def run() -> list[Row]:
    pairs = _pairs()
    assert len(pairs) == 2988
    tasks = [
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
    for name, types, ours, stemmer in tasks:
        scorer = rouge_scorer.RougeScorer(types, use_stemmer=stemmer)

        def run_evalkit():
            rouge.stem.cache_clear()
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
                task=f"{name}, 2,988 JFLEG test pairs",
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
