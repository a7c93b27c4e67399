"""evalkit's caches under threads: many threads scoring against one shared, cached reference get the same
numbers as the readable code.  (Issue 10: the ROUGE-L bit masks of a cached reference were published
half-built, and 4 threads scoring against one long reference gave 29 of 40 wrong ROUGE-L values.)"""

from __future__ import annotations

import random
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

import evalkit
from evalkit import bleu, fast, lcs, rouge, rouge_many

WORDS = [f"w{i}" for i in range(200)]


@pytest.fixture
def tiny_switch_interval():
    """Let the interpreter switch threads every microsecond (the default is 5 ms), so that a thread meets
    another one's half-finished work if there is any to meet."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def test_rouge_l_of_many_threads_against_one_long_reference(tiny_switch_interval):
    gen = random.Random(0)
    reference = " ".join(gen.choice(WORDS) for _ in range(4000))
    hypotheses = [" ".join(gen.choice(WORDS) for _ in range(gen.randint(3, 15))) for _ in range(40)]
    ref_tokens = rouge.rouge_tokens(reference)
    expected = [lcs.lcs_length(rouge.rouge_tokens(h), ref_tokens) for h in hypotheses]  # the readable DP
    assert len(set(expected)) > 3  # the hypotheses differ in their answer, so a wrong mask shows

    def lcs_hits(hypothesis):
        return rouge_many.rouge_scores(hypothesis, [reference], ["rougeL"])["rougeL"].stats.matches

    wrong = 0
    for _ in range(6):
        evalkit.clear_caches()
        rouge_many.rouge_scores(reference, [reference], ["rouge1"])  # the reference's profile cached, no masks yet
        with ThreadPoolExecutor(max_workers=6) as pool:
            got = list(pool.map(lcs_hits, hypotheses))
        wrong += sum(g != e for g, e in zip(got, expected))
    assert wrong == 0, f"{wrong} of {6 * len(hypotheses)} ROUGE-L values wrong under threads"


def test_rouge_n_of_many_threads_against_shared_profiles(tiny_switch_interval):
    gen = random.Random(1)
    references = [" ".join(gen.choice(WORDS[:30]) for _ in range(300)) for _ in range(3)]
    hypotheses = [" ".join(gen.choice(WORDS[:30]) for _ in range(gen.randint(1, 40))) for _ in range(60)]
    expected = [[rouge.rouge_n(h, [r], n).stats.matches for n in (1, 2, 3) for r in references] for h in hypotheses]

    def hits(hypothesis):
        scores = [rouge_many.rouge_scores(hypothesis, [r], ["rouge1", "rouge2", "rouge3"]) for r in references]
        return [s[f"rouge{n}"].stats.matches for n in (1, 2, 3) for s in scores]

    for _ in range(3):
        evalkit.clear_caches()
        with ThreadPoolExecutor(max_workers=6) as pool:
            assert list(pool.map(hits, hypotheses)) == expected


def test_corpus_bleu_from_many_threads_while_caches_evict(tiny_switch_interval, wmt17, monkeypatch):
    """Threads scoring systems against two reference corpora in turn, with budgets so small that the
    caches evict all the time: every statistic equals the readable count, and every cache stays within its
    budget by its own accounting."""
    reference, systems = wmt17
    refs_a = [[r] for r in reference[:150]]
    refs_b = [[r] for r in reference[150:300]]
    outputs = [(name, refs) for name in list(systems)[:4] for refs in (refs_a, refs_b)]
    offset = {id(refs_a): 0, id(refs_b): 150}
    expected = {(name, id(refs)): bleu.corpus_stats(systems[name][offset[id(refs)]:offset[id(refs)] + 150], refs,
                                                    tokenize="13a", fast=False) for name, refs in outputs}
    evalkit.clear_caches()
    for cache in fast.bounded_caches().values():  # room for a few entries: eviction on most inserts
        monkeypatch.setattr(cache, "budget", 50_000)
    monkeypatch.setattr(fast.bounded_caches()["reference indexes"], "budget", 800_000)  # one or two indexes
    monkeypatch.setattr(fast.bounded_caches()["reference indexes"], "largest_share", 0.5)

    def score(job):
        name, refs = job
        hyps = systems[name][offset[id(refs)]:offset[id(refs)] + 150]
        return (bleu.corpus_stats(hyps, refs, tokenize="13a"),
                bleu.segment_matrix(hyps, refs, tokenize="13a").sum(axis=0).tolist())

    with ThreadPoolExecutor(max_workers=6) as pool:
        for job, (indexed, summed_rows) in zip(outputs * 3, pool.map(score, outputs * 3)):
            name, refs = job
            s = expected[(name, id(refs))]
            assert indexed == s
            assert summed_rows == [s.hyp_len, s.closest_ref_len, s.shortest_ref_len, *s.matches, *s.totals, *s.empty]
    for name, cache in fast.bounded_caches().items():
        assert cache.info().nbytes <= cache.budget, name
    assert len(fast.bounded_caches()["reference indexes"])
