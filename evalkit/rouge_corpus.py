"""Corpus ROUGE: one score per segment, then their mean (or the score of the summed counts), with a
seeded bootstrap confidence interval, resampled the way rouge-score 0.1.2's ``BootstrapAggregator`` does
(``rouge_score/scoring.py``), but seeded (:mod:`evalkit.resample`'s seed rule and draws), and with the
corpus's own estimate as the point estimate: rouge-score reports as "mid" the median of the resampled means
(kept here as ``median``), and ROUGE-1.5.5's "Average" is the mean of its resampled means.

    >>> r = corpus_rouge(["the cat sat on the mat", "a quick brown fox"],
    ...                  [["the cat is on the mat"], ["the quick brown fox jumps"]], "rouge1", n_samples=200)
    >>> round(r.estimate.fmeasure, 4)
    0.75

The per-segment scores come from the readable functions of :mod:`evalkit.rouge` (:func:`get_scorer`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ._checks import check_choice, check_corpus, check_int, check_same_length
from .protocol import Metric, f_score, fixed_point_mean, fixed_point_rows, register_metric
from .resample import (
    DEFAULT_SEED,
    MAX_DRAWS_PER_CHUNK,
    Interval,
    check_confidence,
    check_seed,
    generator,
    uniform_draws_in_chunks,
)
from .rouge import (
    RougeScore,
    RougeStats,
    check_inputs,
    check_order,
    mean_score,
    precision_recall,
    rouge_l,
    rouge_lsum,
    rouge_n,
    rouge_s,
    rouge_su,
    rouge_w,
    score_stats,
)
from .tokenize import one_tokenization_warning

AVERAGES = ("mean", "micro")
_VARIANT = re.compile(r"rouge([1-9][0-9]*|L|Lsum|W|S|SU)")


def get_scorer(variant: str) -> Callable[..., RougeScore]:
    """The sentence-level function for a variant name: "rouge1", "rouge2", ... "rougeL", "rougeLsum",
    "rougeW", "rougeS", "rougeSU"."""
    match = _VARIANT.fullmatch(variant) if isinstance(variant, str) else None
    if match is None:
        raise ValueError(
            f"unknown ROUGE variant {variant!r}; expected 'rouge<n>' (e.g. 'rouge1', 'rouge2'), 'rougeL', "
            "'rougeLsum', 'rougeW', 'rougeS' or 'rougeSU'"
        )
    kind = match.group(1)
    if kind.isdigit():
        n = check_order(int(kind))
        return lambda h, refs, **kw: rouge_n(h, refs, n, **kw)
    return {"L": rouge_l, "Lsum": rouge_lsum, "W": rouge_w, "S": rouge_s, "SU": rouge_su}[kind]


@dataclass(frozen=True)
class RougeCorpusResult:
    """Corpus ROUGE: the corpus's own P, R and F, ``estimate``, and a bootstrap confidence interval [``low``,
    ``high``] (each a :class:`RougeScore`; P, R and F have their own percentiles).  ``median`` is the median
    of the resampled estimates, which rouge-score reports as "mid".  ``score`` and ``float(result)`` are F
    (a float, as every result's ``score`` in evalkit)."""

    estimate: RougeScore
    low: RougeScore
    high: RougeScore
    average: str
    confidence: float
    n_samples: int
    seed: int | None
    segments: tuple[RougeScore, ...] = field(repr=False)
    median: RougeScore | None = field(default=None, repr=False)  # rouge-score's "mid": the resamples' median

    @property
    def score(self) -> float:
        """The corpus F-measure."""
        return self.estimate.fmeasure

    def __float__(self) -> float:
        return self.estimate.fmeasure

    def __repr__(self) -> str:
        s, lo, hi = self.estimate, self.low, self.high
        return (
            f"RougeCorpusResult({s.variant}, {self.average}: P={s.precision:.4f}, R={s.recall:.4f}, "
            f"F={s.fmeasure:.4f} [{lo.fmeasure:.4f}, {hi.fmeasure:.4f}] at {self.confidence:.0%}, "
            f"{len(self.segments)} segments)"
        )


def segment_scores(hypotheses: Sequence[str], references: Sequence[Sequence[str]], variant: str = "rouge1",
                   **options: Any) -> list[RougeScore]:
    """One :class:`RougeScore` per segment; ``references[i]`` lists the references of ``hypotheses[i]``."""
    scorer = get_scorer(variant)
    check_corpus("hypotheses", hypotheses)
    check_corpus("references", references)
    check_same_length(hypotheses=hypotheses, references=references)
    out = []
    with one_tokenization_warning():  # one warning for the corpus, not one per segment
        for i, (hyp, refs) in enumerate(zip(hypotheses, references)):
            check_inputs(hyp, refs, where=f"[{i}]")
            out.append(scorer(hyp, refs, **options))
    return out


class BootstrapInterval(NamedTuple):
    """What :func:`bootstrap_interval` returns: the point estimate, the bounds, and the median of the
    resampled estimates (what rouge-score's ``BootstrapAggregator`` reports as "mid"): rouge-score's
    low/mid/high shape, with P, R and F side by side, of one :class:`evalkit.resample.Interval` per measure."""

    point: RougeScore
    low: RougeScore
    high: RougeScore
    median: RougeScore


def check_segment_scores(segments: Any) -> Sequence[RougeScore]:
    """A non-empty list of :class:`RougeScore` of one variant and one beta (what :func:`segment_scores` returns)."""
    if isinstance(segments, (str, bytes)) or not isinstance(segments, Sequence):
        raise TypeError(f"segments must be a list of RougeScore (from segment_scores), got {type(segments).__name__}")
    if len(segments) == 0:
        raise ValueError("segments is empty; the bootstrap needs the score of at least one segment")
    for i, s in enumerate(segments):
        if not isinstance(s, RougeScore):
            raise TypeError(
                f"segments[{i}] is a {type(s).__name__}; expected a RougeScore (from segment_scores), which carries "
                "precision, recall and F"
            )
    first = segments[0]
    for i, s in enumerate(segments):
        if (s.variant, s.beta) != (first.variant, first.beta):
            raise ValueError(
                f"segments[{i}] is {s.variant!r} with beta {s.beta}, segments[0] {first.variant!r} with beta "
                f"{first.beta}; a corpus score needs one variant and one beta"
            )
    return segments


BOOTSTRAP_CHUNK = MAX_DRAWS_PER_CHUNK  # draws held at once: resamples x segments, at least one resample


def micro_scores(summed, weight: float, beta: float):
    """(P, R, F) per row of summed (matches, hyp_len, ref_len), as :func:`evalkit.rouge.score_stats` computes
    them (the same floats)."""
    import numpy as np

    p, r = precision_recall(summed[:, 0], summed[:, 1], summed[:, 2], weight)
    return np.stack([p, r, f_score(p, r, beta)], axis=1)


def bootstrap_interval(segments: Sequence[RougeScore], average: str = "mean", *, n_samples: int = 1000,
                       confidence: float = 0.95, seed: int | None = DEFAULT_SEED) -> BootstrapInterval:
    """(point estimate, low, high, median) from ``n_samples`` resamples of the segments, drawn with
    :func:`evalkit.resample.generator` (``seed``: an int >= 0, or ``None`` for fresh OS entropy).

    ``median`` is the 50th percentile of the resampled estimates: what rouge-score's ``BootstrapAggregator``
    reports as "mid" (its docstring calls it the mean).  evalkit's point estimate is the estimate of the
    whole corpus itself; the two differ slightly.  ``confidence=0`` gives low = median = high.

    ``average="mean"``: the mean of the segments' P, R and F (what rouge-score and ROUGE-1.5.5 resample).  ``"micro"``: the
    score of the summed counts (ROUGE-1.5.5's ``-t 1``); it needs scores that carry their counts.
    The bounds are the (1 - confidence)/2 and (1 + confidence)/2 percentiles of the resampled estimates,
    interpolated linearly (numpy's default, as rouge-score's ``BootstrapAggregator`` does): one
    :meth:`evalkit.resample.Interval.from_samples` for each of P, R and F.
    """
    import numpy as np

    check_segment_scores(segments)
    check_choice("average", average, AVERAGES)
    check_int("n_samples", n_samples, 1)
    check_confidence(confidence)
    check_seed(seed)
    variant, beta = segments[0].variant, segments[0].beta
    if average == "mean":
        table = np.array([[s.precision, s.recall, s.fmeasure] for s in segments])
        point = mean_score(segments, variant, beta)
    else:
        if any(s.stats is None for s in segments):
            raise ValueError("average='micro' needs counts: use aggregation 'best' or 'pooled'")
        table = np.array([[s.stats.matches, s.stats.hyp_len, s.stats.ref_len] for s in segments], dtype=float)
        point = score_stats(sum(s.stats for s in segments), beta=beta, variant=variant)
    # Resample i: the rows of `table` at n draws of a segment index; the draws come a few resamples at a
    # time (the same numbers as drawing the whole n_samples x n array at once, in O(n) memory).
    draws = uniform_draws_in_chunks(generator(seed), len(segments), (n_samples, len(segments)), BOOTSTRAP_CHUNK)
    if average == "mean":
        estimates = np.concatenate([table[chunk].mean(axis=1) for chunk in draws])
    else:
        summed = np.concatenate([table[chunk].sum(axis=1) for chunk in draws])
        estimates = micro_scores(summed, segments[0].stats.weight, beta)
    # one interval per measure (columns P, R, F); rouge-score's "mid" is the median of the estimates
    p, r, f = (Interval.from_samples(estimates[:, j], confidence) for j in range(3))
    return BootstrapInterval(
        point,
        RougeScore(p.low, r.low, f.low, variant, beta),
        RougeScore(p.high, r.high, f.high, variant, beta),
        RougeScore(p.median, r.median, f.median, variant, beta),
    )


def corpus_rouge(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    variant: str = "rouge1",
    *,
    average: str = "mean",
    n_samples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = DEFAULT_SEED,
    **options: Any,
) -> RougeCorpusResult:
    """Corpus ROUGE with a seeded bootstrap confidence interval (:func:`bootstrap_interval`; ``seed`` as
    everywhere in evalkit: an int >= 0, 12345 by default, or ``None`` for fresh OS entropy).

    ``options`` go to the sentence-level function (``stemmer``, ``tokenize``, ``beta``, ``aggregation``,
    ``weight`` for ROUGE-W, ``max_skip`` for ROUGE-S/SU).

    >>> r = corpus_rouge(["the cat sat on the mat", "a quick brown fox"],
    ...                  [["the cat is on the mat"], ["the quick brown fox jumps"]], "rouge1", n_samples=200)
    >>> round(r.estimate.fmeasure, 4), round(r.estimate.recall, 4)
    (0.75, 0.7167)
    """
    check_choice("average", average, AVERAGES)
    check_confidence(confidence)
    segments = segment_scores(hypotheses, references, variant, **options)
    point, low, high, median = bootstrap_interval(segments, average, n_samples=n_samples, confidence=confidence,
                                                  seed=seed)
    return RougeCorpusResult(estimate=point, low=low, high=high, average=average, confidence=float(confidence),
                             n_samples=n_samples, seed=seed, segments=tuple(segments), median=median)


# --------------------------------------------------------------------------------------------------------
# The metric protocol (evalkit.protocol): what significance tests use
# --------------------------------------------------------------------------------------------------------
# Two corpus scores, as corpus_rouge computes them:
#  - average="micro" (ROUGE-1.5.5's -t 1): P, R and F of the summed counts.  A row: matches, hyp_len, ref_len,
#    integers (not offered for ROUGE-W, whose counts are floats).
#  - average="mean" (rouge-score, ROUGE-1.5.5's default): the mean of the segments' scores, each written as
#    exact integers (protocol.fixed_point_rows), so that every resampled mean is the float
#    math.fsum(scores) / n that corpus_rouge computes.
# ``score`` chooses which of precision, recall and F is tested (F by default, as float(RougeScore)).
ROUGE_SCORES = ("precision", "recall", "fmeasure")
_SENTENCE_OPTIONS = ("stemmer", "tokenize", "beta", "aggregation")
_VARIANT_OPTIONS = {"W": ("weight", "convention"), "S": ("max_skip",), "SU": ("max_skip", "convention"),
                          "Lsum": ("split_summaries",)}
METRIC_OPTIONS = frozenset(
    {"variant", "average", "score", *_SENTENCE_OPTIONS, *(o for v in _VARIANT_OPTIONS.values() for o in v)}
)
def _metric_settings(options: dict) -> tuple[str, str, str, dict]:
    """(variant, average, score, the options of the sentence-level function), checked."""
    variant = options.get("variant", "rouge1")
    get_scorer(variant)  # checks the name
    kind = variant[len("rouge"):]
    average = options.get("average", "mean")
    check_choice("average", average, AVERAGES)
    measure = options.get("score", "fmeasure")
    check_choice("score", measure, ROUGE_SCORES)
    allowed = (*_SENTENCE_OPTIONS, *_VARIANT_OPTIONS.get(kind, ()))
    extra = sorted(set(options) - {"variant", "average", "score", *allowed})
    if extra:
        raise TypeError(f"option(s) {', '.join(extra)} do not apply to {variant}; it takes: {', '.join(allowed)}")
    if average == "micro" and kind == "W":
        raise ValueError(
            "average='micro' is not offered for ROUGE-W: its counts are floats (f(k) = k ** weight); "
            "use average='mean'"
        )
    return variant, average, measure, {k: options[k] for k in allowed if k in options}


def corpus_rows(corpora: Sequence[Sequence[str]], references: Sequence[Any], options: dict, fast: bool = True) -> list:
    """Each corpus's segments scored by :func:`segment_scores` (which checks the texts and options), as rows."""
    import numpy as np

    variant, average, measure, sentence_options = _metric_settings(options)
    if variant in ("rougeL", "rougeLsum"):
        sentence_options["fast"] = fast  # the bit-parallel LCS: the same numbers
    per_corpus = [segment_scores(c, references, variant, **sentence_options) for c in corpora]
    if average == "mean":
        return fixed_point_rows([[getattr(s, measure) for s in scores] for scores in per_corpus])
    if any(s.stats is None for scores in per_corpus for s in scores):
        raise ValueError("average='micro' needs counts: use aggregation 'best' or 'pooled'")
    return [np.array([[s.stats.matches, s.stats.hyp_len, s.stats.ref_len] for s in scores], dtype=np.int64)
            for scores in per_corpus]


def score_row(row: Sequence[int], options: dict) -> float:
    """The readable way: the mean of the segments' scores, or :func:`evalkit.rouge.score_stats` of the counts."""
    _, average, measure, sentence_options = _metric_settings(options)
    if average == "mean":
        return fixed_point_mean(row)
    hits, hyp_len, ref_len = (int(x) for x in row)
    stats = RougeStats(hits, hyp_len, ref_len)
    return getattr(score_stats(stats, beta=sentence_options.get("beta", 1.0)), measure)


def score_rows(rows, options: dict, float32: bool = False):
    """Many rows at once: for "micro", ``rouge.score_stats``'s operations in numpy (the same floats)."""
    import numpy as np

    if float32:
        return None  # sacreBLEU has no ROUGE
    _, average, measure, sentence_options = _metric_settings(options)
    if average == "mean":
        return np.array([fixed_point_mean(row) for row in rows.tolist()])
    scores = micro_scores(rows, 1.0, float(sentence_options.get("beta", 1.0)))  # columns P, R, F
    return scores[:, ROUGE_SCORES.index(measure)]


METRIC = register_metric(Metric("rouge", METRIC_OPTIONS, corpus_rows, score_row, score_rows))


__all__ = ["AVERAGES", "ROUGE_SCORES", "corpus_rows", "score_row", "score_rows", "BootstrapInterval", "RougeCorpusResult", "bootstrap_interval", "check_confidence",
           "check_segment_scores", "corpus_rouge", "get_scorer", "micro_scores", "segment_scores"]
