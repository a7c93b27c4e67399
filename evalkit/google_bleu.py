"""Google's GLEU (Wu et al. 2016): min(precision, recall) over the pooled 1- to 4-grams.

A sentence-level BLEU variant for training translation systems (NLTK's ``nltk.translate.gleu_score``):
all n-grams of orders 1 to 4 are pooled, and the score is matches / max(hypothesis n-grams, reference
n-grams).  It has no source and no brevity penalty.  Despite the name it is not the GLEU of grammatical
error correction, which is in :mod:`evalkit.gleu`.

    >>> round(float(sentence_google_bleu("the cat sat on the mat", ["the cat is on the mat"])), 4)
    0.5
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ._checks import as_tokens, check_bool, check_corpus, check_int, check_references, check_same_length
from .ngrams import ngram_counts
from .protocol import AdditiveStats, segment_count
from .tokenize import check_tokenize, get_tokenizer, warn_about_corpus_tokenization, warn_about_tokenization


@dataclass(frozen=True)
class GoogleBLEUStats(AdditiveStats):
    """Additive counts: ``matches`` (pooled n-gram overlap), ``hyp_len`` and ``ref_len`` (the pooled n-grams
    of the hypothesis and of the reference used) and ``denominator`` (each sentence's max(hyp_len, ref_len),
    summed)."""

    matches: int
    hyp_len: int
    ref_len: int
    denominator: int
    segments: int = segment_count()


@dataclass(frozen=True)
class GoogleBLEUResult:
    """Google's GLEU: ``score`` = matches / denominator = min(precision, recall) for one sentence."""

    score: float
    precision: float
    recall: float
    stats: GoogleBLEUStats

    def __float__(self) -> float:
        return self.score

    def __repr__(self) -> str:
        s = self.stats
        return (
            f"GoogleBLEUResult(score={self.score:.4f}, matches={s.matches}, hyp_len={s.hyp_len}, "
            f"ref_len={s.ref_len})"
        )


def pooled_ngram_counts(tokens: Sequence[str], min_order: int, max_order: int) -> Counter:
    """All n-grams of orders ``min_order`` to ``max_order`` in one Counter (n-grams of different orders
    are different tuples, so they never match each other)."""
    pooled: Counter = Counter()
    for n in range(min_order, max_order + 1):
        pooled.update(ngram_counts(tokens, n))
    return pooled


def google_bleu_stats(
    hypothesis: Sequence[str], references: Sequence[Sequence[str]], min_order: int = 1, max_order: int = 4
) -> GoogleBLEUStats | None:
    """The statistics against the reference with the best matches / max(hyp, ref) (first on ties);
    ``None`` when there is nothing to count (empty hypothesis and empty references)."""
    hyp = pooled_ngram_counts(hypothesis, min_order, max_order)
    hyp_len = sum(hyp.values())
    best = None
    for reference in references:
        ref = pooled_ngram_counts(reference, min_order, max_order)
        ref_len = sum(ref.values())
        denominator = max(hyp_len, ref_len)
        if denominator == 0:
            continue
        matches = sum((hyp & ref).values())  # Counter & Counter keeps min(count in hyp, count in ref)
        if best is None or matches / denominator > best.matches / best.denominator:
            best = GoogleBLEUStats(matches, hyp_len, ref_len, denominator)
    return best


def google_bleu_stats_fast(
    hypothesis: Sequence[str], references: Sequence[Sequence[str]], min_order: int = 1, max_order: int = 4
) -> GoogleBLEUStats | None:
    """:func:`google_bleu_stats` with each order counted in C (:func:`evalkit.fast.counts_and_once`) and no
    pooled Counter: n-grams of different orders never match, so the pooled overlap is the sum of each
    order's clipped matches, and a side's pooled total is its number of n-gram positions.  The tests prove
    the statistics equal."""
    from . import fast

    orders = range(min_order, max_order + 1)
    hyp = fast.counts_and_once(hypothesis, max_order)[min_order - 1 :]
    hyp_len = sum(max(0, len(hypothesis) - n + 1) for n in orders)
    best = None
    for reference in references:
        ref_len = sum(max(0, len(reference) - n + 1) for n in orders)
        denominator = max(hyp_len, ref_len)
        if denominator == 0:
            continue
        matches = 0
        for (h, h_once), (r, r_once) in zip(hyp, fast.counts_and_once(reference, max_order)[min_order - 1 :]):
            matches += fast.clipped_total(h, r, once=h_once or r_once)
        if best is None or matches / denominator > best.matches / best.denominator:
            best = GoogleBLEUStats(matches, hyp_len, ref_len, denominator)
    return best


def score_stats(stats: GoogleBLEUStats | None) -> GoogleBLEUResult:
    """matches / denominator, with 0 when nothing was counted; precision and recall alongside."""
    if stats is None:
        stats = GoogleBLEUStats(0, 0, 0, 0, segments=0)
    return GoogleBLEUResult(
        score=stats.matches / stats.denominator if stats.denominator else 0.0,
        precision=stats.matches / stats.hyp_len if stats.hyp_len else 0.0,
        recall=stats.matches / stats.ref_len if stats.ref_len else 0.0,
        stats=stats,
    )


def _check_orders(min_order: int, max_order: int) -> None:
    check_int("min_order", min_order, 1)
    check_int("max_order", max_order, 1)
    if min_order > max_order:
        raise ValueError(f"min_order ({min_order}) must not exceed max_order ({max_order})")


def sentence_stats(
    hypothesis: str | Sequence[str],
    references: Sequence[str | Sequence[str]],
    *,
    min_order: int = 1,
    max_order: int = 4,
    tokenize: str = "none",
) -> GoogleBLEUStats | None:
    """The statistics of one sentence against its best reference (``None``: nothing to count)."""
    _check_orders(min_order, max_order)
    tokenizer = get_tokenizer(tokenize)
    hyp = as_tokens(hypothesis, "hypothesis", tokenizer)
    refs = [as_tokens(r, f"references[{k}]", tokenizer) for k, r in enumerate(check_references(references))]
    warn_about_tokenization([hypothesis, *references], tokenize, [hyp, *refs])
    return google_bleu_stats(hyp, refs, min_order, max_order)


def segment_stats(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    *,
    min_order: int = 1,
    max_order: int = 4,
    tokenize: str = "none",
    fast: bool = True,
) -> list[GoogleBLEUStats | None]:
    """The statistics of every sentence (``None`` where there is nothing to count).  ``fast=False`` counts
    with the readable :func:`google_bleu_stats` (pooled Counters), the default with
    :func:`google_bleu_stats_fast` (each order in C); the tests prove them equal."""
    _check_orders(min_order, max_order)
    check_tokenize(tokenize)
    check_bool("fast", fast)
    check_corpus("hypotheses", hypotheses)
    check_corpus("references", references)
    check_same_length(hypotheses=hypotheses, references=references)
    tokenizer = get_tokenizer(tokenize)
    stats_of = google_bleu_stats_fast if fast else google_bleu_stats
    out = []
    for i, (hyp, refs) in enumerate(zip(hypotheses, references)):
        h = as_tokens(hyp, f"hypotheses[{i}]", tokenizer)
        checked = check_references(refs, f"references[{i}]")
        rs = [as_tokens(r, f"references[{i}][{k}]", tokenizer) for k, r in enumerate(checked)]
        out.append(stats_of(h, rs, min_order, max_order))
    warn_about_corpus_tokenization(hypotheses, references, tokenize)
    return out


def sentence_google_bleu(
    hypothesis: str | Sequence[str],
    references: Sequence[str | Sequence[str]],
    *,
    min_order: int = 1,
    max_order: int = 4,
    tokenize: str = "none",
) -> GoogleBLEUResult:
    """Google's GLEU of one sentence (NLTK's ``gleu_score.sentence_gleu``, which takes references first):
    :func:`score_stats` of :func:`sentence_stats`.

    >>> round(float(sentence_google_bleu("the the the the the the the", ["the cat is on the mat"])), 4)
    0.0909
    """
    return score_stats(sentence_stats(hypothesis, references, min_order=min_order, max_order=max_order,
                                      tokenize=tokenize))


def corpus_google_bleu(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    *,
    min_order: int = 1,
    max_order: int = 4,
    tokenize: str = "none",
    fast: bool = True,
) -> GoogleBLEUResult:
    """Google's GLEU of a corpus: summed matches over summed denominators (not a mean of sentence scores):
    :func:`score_stats` of the sum of :func:`segment_stats`.

    Each sentence contributes its best reference's counts, as NLTK's ``gleu_score.corpus_gleu``.
    ``fast=False`` counts each sentence with the readable :func:`google_bleu_stats` (pooled Counters);
    the default counts the same statistics with :func:`google_bleu_stats_fast` (each order in C).
    """
    stats = segment_stats(hypotheses, references, min_order=min_order, max_order=max_order, tokenize=tokenize,
                          fast=fast)
    return score_stats(sum((s for s in stats if s is not None), GoogleBLEUStats(0, 0, 0, 0, segments=0)))


__all__ = [
    "GoogleBLEUResult",
    "GoogleBLEUStats",
    "corpus_google_bleu",
    "google_bleu_stats",
    "google_bleu_stats_fast",
    "pooled_ngram_counts",
    "score_stats",
    "segment_stats",
    "sentence_google_bleu",
    "sentence_stats",
]
