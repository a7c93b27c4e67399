"""ROUGE (Lin, 2004): recall-oriented overlap between a hypothesis (a summary) and its references.

Every variant counts *units* that the hypothesis shares with a reference, then divides:

- recall    = shared units / units in the reference,
- precision = shared units / units in the hypothesis,
- F_beta    = (1 + beta^2) P R / (beta^2 P + R)   (beta > 1 leans towards recall; beta = 1 is the usual F1).

The variants differ only in what a unit is:

============  ==============================================================================================
``rouge_n``   n-grams, clipped: an n-gram counts at most as often as it occurs on *both* sides.
``rouge_l``   the longest common subsequence (LCS) of the two token sequences (in order, gaps allowed).
``rouge_lsum`` summary level: one sentence per line; for every reference sentence, the *union* of its LCS
              with each hypothesis sentence; a token is credited at most as often as it occurs on both sides.
``rouge_w``   weighted LCS: a run of k consecutive matches is worth f(k) = k ** weight, so unbroken runs
              count more; recall and precision are mapped back with f^-1(x) = x ** (1 / weight).
``rouge_s``   skip-bigrams: ordered pairs of tokens with at most ``max_skip`` tokens between them.
``rouge_su``  skip-bigrams plus unigrams (so a hypothesis with the right words in the wrong order still scores).
============  ==============================================================================================

    >>> r = rouge_n("the cat sat on the mat", ["the cat is on the mat"], 2)
    >>> r
    RougeScore(rouge2: P=0.6000, R=0.6000, F=0.6000)
    >>> (r.stats.matches, r.stats.hyp_len, r.stats.ref_len), round(float(r), 4)
    ((3, 5, 5), 0.6)

Conventions (each one chosen on purpose; the lesson in ``notebooks/06-rouge.ipynb`` shows them):

- **Tokenization.**  The default, ``tokenize="rouge-score"``, reproduces the rouge-score library: lowercase,
  every character outside ``[a-z0-9]`` becomes a space, split.  Letters outside ASCII are therefore *lost*
  ("café" -> "caf", a Russian sentence -> no tokens at all).  ``tokenize="unicode"`` keeps letters, marks and
  digits of every script, ``"unicode-cjk"`` also splits Chinese and Japanese into characters.  A text that
  loses every letter, or Chinese/Japanese kept unsplit, gives one
  :class:`~evalkit.tokenize.TokenizationWarning` per call, naming the option to use.  With
  ``stemmer=True`` nltk's Porter stemmer is applied to tokens longer than three characters, as rouge-score
  (and ROUGE-1.5.5's ``-m``) does.
- **Several references.**  ``aggregation="best"`` (default) keeps the reference whose F is highest, the
  first one on a tie (rouge-score's ``score_multi``); ``"mean"`` averages P, R and F over the references;
  ``"jackknife"`` is the procedure of Lin (2004, section 2.1): with M references, take the best score
  among each of the M subsets of M - 1 references and average the M results (one reference: that score;
  ROUGE releases before 1.4 did this internally, 1.5.5's change log says it was removed there);
  ``"pooled"`` adds the counts of all references before dividing (ROUGE-1.5.5's default "-f A", model
  average).
- **ROUGE-Lsum** splits on ``"\\n"`` and drops empty lines, like rouge-score; it counts tokens, not
  positions, so the union LCS never credits a token more often than it occurs in either summary.  Without
  newlines it equals ROUGE-L.  Which LCS is read out of the table matters for the union; ties are broken
  the way rouge-score and ROUGE-1.5.5 do (on a mismatch, step to the cell above unless the cell to the left
  is strictly larger).
- **ROUGE-W** follows, by default (``convention="lin2004"``), the dynamic programme of Lin (2004, section
  4) on the whole token sequences.  ``convention="rouge-1.5.5"`` reproduces the Perl script instead: it
  works per reference *line*, marks the reference positions on the path read back from the WLCS table for
  each hypothesis line, weighs each run of consecutive marked reference positions (with the same clipping
  as ROUGE-Lsum; a run that ends on a clipped token is carried on or lost, as in the script), and divides
  by f(hypothesis length) for precision and, for recall, by f applied a *second* time to the sum of
  f(line length) over the reference lines.  That double weighting is a bug of the script (identical texts
  get a recall of 5 ** -0.2 = 0.72478 for five words, which is what ROUGE-1.5.5 prints); it is reproduced
  only under this convention.  The two agree when every run is consecutive on both sides but can
  differ otherwise ("a x b" against "a b": the paper's WLCS is 1 + 1 = 2, the script sees one run of two
  reference positions, 2 ** 1.2).  The script cannot even separate the two hypotheses
  of the paper's own example (Y1 = "a b c d h i k" and Y2 = "a h b k c i d" against "a b c d e f g" get
  the same score), because Y2's scattered matches are consecutive in the reference.
- **ROUGE-S/SU.**  ``max_skip`` is the largest number of tokens allowed *between* the two words of a
  skip-bigram: 0 gives ordinary bigrams, 4 gives the popular ROUGE-S4/SU4 (the default), ``None`` allows any
  gap (ROUGE-S*).  ROUGE-SU adds every unigram to the counts.  With an unlimited gap that is exactly Lin's
  definition (a start-of-sentence marker paired with every word).  ROUGE-1.5.5's loop skips the unigram
  of the last token; evalkit counts all of them unless ``convention="rouge-1.5.5"``.
- **An empty hypothesis** (or one that tokenizes to nothing) scores 0, as does an empty reference.

This module scores one hypothesis against its references.  The LCS tables are in :mod:`evalkit.lcs`, the
tokenizers in :mod:`evalkit.tokenize`; several variants of many pairs at once (rouge-score's
``RougeScorer``) are in :mod:`evalkit.rouge_many`; corpus scores with a bootstrap interval in
:mod:`evalkit.rouge_corpus`.
"""

from __future__ import annotations

import functools
import math
import numbers
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ._checks import MAX_BETA, check_beta, check_bool, check_choice, check_int, check_references, check_string
from .protocol import AdditiveStats, f_score, segment_count, setting
from .lcs import DEFAULT_WEIGHT, lcs_table, union_lcs, wlcs_hit_positions, wlcs_tables
from .tokenize import check_tokenize, get_tokenizer, stem, warn_about_tokenization

AGGREGATIONS = ("best", "mean", "jackknife", "pooled")
CONVENTIONS = ("lin2004", "rouge-1.5.5")  # for ROUGE-W and ROUGE-SU, where the paper and the script differ
DEFAULT_MAX_SKIP = 4  # ROUGE-S4 / ROUGE-SU4, the variant reported in DUC evaluations
# The largest n of ROUGE-N: rouge-score accepts the names "rouge1" ... "rouge9" only, and an n-gram of ten
# or more words shared by a summary and its reference says nothing that ROUGE-L does not.  A bound also
# keeps a typo (rouge_n(h, r, 10**7) took 6 s, "rouge1000000" 34 s and 671 MB) from running for ages.
MAX_N = 9
# ROUGE-W's weight: f(k) = k ** weight must reward consecutive matches, f(x + y) >= f(x) + f(y) (Lin 2004,
# section 4), which holds for weight >= 1 only; below 1 the WLCS can exceed
# f(length) and F exceeds 1 (weight 0.5 gave F = 1.65).  Above MAX_WEIGHT, f(length) of a long text
# overflows floats (1000 ** 103 > 1e308) and nobody uses such weights (ROUGE-1.5.5 suggests 1.2).
MAX_WEIGHT = 10.0
# beta of F_beta: beta ** 2 must be a finite float (beta = 1e155 gave F = nan); F tends to recall anyway.
# MAX_BETA (1e150) and the check are shared with chrF (evalkit._checks.check_beta).

Tokens = tuple[str, ...]


# --------------------------------------------------------------------------------------------------------
# Tokens
# --------------------------------------------------------------------------------------------------------
def rouge_tokens(text: str, *, tokenize: str = "rouge-score", stemmer: bool = False) -> Tokens:
    """The tokens ROUGE compares: ``text`` split by the tokenizer called ``tokenize`` (see
    :mod:`evalkit.tokenize`), each token stemmed if ``stemmer``.

    >>> rouge_tokens("The cats were running", stemmer=True)
    ('the', 'cat', 'were', 'run')
    """
    check_tokenize(tokenize)
    check_bool("stemmer", stemmer)
    check_string(text, "text")
    tokens = get_tokenizer(tokenize)(text)
    if stemmer:
        tokens = [stem(t) for t in tokens]
    return tuple(tokens)


def split_sentences(text: str, split_summaries: bool = False) -> list[str]:
    """ROUGE-Lsum's sentences: the lines of ``text``, empty lines dropped (rouge-score's rule).

    ``split_summaries=True`` (rouge-score's option of that name) finds the sentences with a sentence
    splitter instead of reading one per line.  rouge-score calls ``nltk.sent_tokenize``, which needs NLTK's
    trained English Punkt model, a download; evalkit never downloads, so it uses NLTK's Punkt *class*
    untrained (``PunktSentenceTokenizer()``): the same algorithm without the learned list of abbreviations.
    The two agree on sentences that end in ".", "?" or "!" followed by a space; they differ after an
    abbreviation such as "Mr." or "e.g.", where the untrained splitter also ends a sentence.  Newlines are
    then plain white space, as in rouge-score.

    >>> split_sentences("the cat sat. the dog ran\\nhome. ok?", split_summaries=True)
    ['the cat sat.', 'the dog ran\\nhome.', 'ok?']
    """
    if check_bool("split_summaries", split_summaries):
        return [s for s in _punkt().tokenize(text) if s]
    return [line for line in text.split("\n") if line]


@functools.lru_cache(maxsize=1)
def _punkt():
    from nltk.tokenize.punkt import PunktSentenceTokenizer  # imported when first needed: nltk is heavy

    return PunktSentenceTokenizer()


# --------------------------------------------------------------------------------------------------------
# Statistics and results
# --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RougeStats(AdditiveStats):
    """Additive counts behind one ROUGE score: ``matches`` shared units, ``hyp_len`` units in the hypothesis,
    ``ref_len`` units in the reference.

    For ROUGE-W, ``matches`` is the weighted LCS and the totals are f(length) = length ** ``weight``; for every
    other variant ``weight`` is 1.  ``a + b`` and ``sum(...)`` add the counts (corpus "micro" averaging).
    """

    matches: float
    hyp_len: float
    ref_len: float
    weight: float = setting(1.0, "weights")
    segments: int = segment_count()


@dataclass(frozen=True, slots=True)
class RougeScore:
    """An immutable ROUGE result.  ``float(result)`` is the F-measure.

    ``stats`` holds the counts when the score comes from one set of counts (``aggregation`` "best" or
    "pooled"), else ``None``; ``reference`` is the index of the reference "best" kept.
    """

    precision: float
    recall: float
    fmeasure: float
    variant: str = ""
    beta: float = 1.0
    stats: RougeStats | None = field(default=None, repr=False, compare=False)
    reference: int | None = field(default=None, repr=False, compare=False)

    def __float__(self) -> float:
        return self.fmeasure

    def __repr__(self) -> str:
        name = f"{self.variant}: " if self.variant else ""
        return f"RougeScore({name}P={self.precision:.4f}, R={self.recall:.4f}, F={self.fmeasure:.4f})"


def precision_recall(matches, hyp_len, ref_len, weight: float = 1.0):
    """(P, R) of counts: P = f^-1(matches / hyp_len), R = f^-1(matches / ref_len), with f^-1(x) =
    x ** (1 / weight) (the identity unless this is ROUGE-W); a zero total gives 0.  Numbers, or numpy arrays
    of summed counts (a bootstrap's resamples): the same floats either way.

        >>> precision_recall(3, 4, 6)
        (0.75, 0.5)
    """
    if not hasattr(matches, "shape"):
        precision = _inverse_weight(matches / hyp_len, weight) if hyp_len > 0 else 0.0
        recall = _inverse_weight(matches / ref_len, weight) if ref_len > 0 else 0.0
        return precision, recall
    import numpy as np

    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(hyp_len > 0, matches / np.where(hyp_len > 0, hyp_len, 1), 0.0)
        r = np.where(ref_len > 0, matches / np.where(ref_len > 0, ref_len, 1), 0.0)
    if weight != 1:
        p, r = np.minimum(1.0, p ** (1 / weight)), np.minimum(1.0, r ** (1 / weight))
    return p, r


def score_stats(stats: RougeStats, *, beta: float = 1.0, variant: str = "") -> RougeScore:
    """Turn counts into precision, recall and F; nothing is recounted.

    P = f^-1(matches / hyp_len), R = f^-1(matches / ref_len), with f^-1(x) = x ** (1 / weight) (the identity
    unless this is ROUGE-W); a zero total gives 0.

    >>> score_stats(RougeStats(matches=3, hyp_len=4, ref_len=6), beta=2)
    RougeScore(P=0.7500, R=0.5000, F=0.5357)
    """
    if not isinstance(stats, RougeStats):
        raise TypeError(f"stats must be RougeStats, got {type(stats).__name__}")
    check_beta(beta)
    precision, recall = precision_recall(stats.matches, stats.hyp_len, stats.ref_len, stats.weight)
    return RougeScore(precision, recall, f_score(precision, recall, beta), variant, beta, stats)


def score_counts(matches: int, hyp_len: int, ref_len: int, beta: float, variant: str) -> RougeScore:
    """``score_stats(RougeStats(matches, hyp_len, ref_len), beta=beta, variant=variant)`` for counts already
    checked, built without the dataclasses' ``__init__`` (rouge_many calls it three times per pair; the
    tests prove the two equal)."""
    precision = matches / hyp_len if hyp_len > 0 else 0.0  # precision_recall and f_score, inlined
    recall = matches / ref_len if ref_len > 0 else 0.0
    if beta == 1:
        denominator = precision + recall
        fmeasure = 2.0 * precision * recall / denominator if denominator > 0 else 0.0
    else:
        fmeasure = f_score(precision, recall, beta)
    new, put = object.__new__, object.__setattr__
    # RougeScore and RougeStats have __slots__ (no __dict__): fewer objects for the garbage collector to walk.
    stats = new(RougeStats)
    put(stats, "matches", matches)
    put(stats, "hyp_len", hyp_len)
    put(stats, "ref_len", ref_len)
    put(stats, "weight", 1.0)
    put(stats, "segments", 1)
    score = new(RougeScore)
    put(score, "precision", precision)
    put(score, "recall", recall)
    put(score, "fmeasure", fmeasure)
    put(score, "variant", variant)
    put(score, "beta", beta)
    put(score, "stats", stats)
    put(score, "reference", 0)
    return score


def _inverse_weight(x: float, weight: float) -> float:
    # WLCS <= f(length) exactly, but the WLCS is a sum of differences f(k+1) - f(k) in floating point and
    # can exceed f(length) by an ulp ("a a a" against itself, weight 1.25: 1.0000000000000002): clipped at 1.
    return x if weight == 1 else min(1.0, x ** (1 / weight))


# --------------------------------------------------------------------------------------------------------
# ROUGE-N: clipped n-gram overlap
# --------------------------------------------------------------------------------------------------------
def ngram_counts(tokens: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    """How often each n-gram (a tuple of n consecutive tokens) occurs.

    ``zip(tokens, tokens[1:], ..., tokens[n-1:])`` walks n copies of the sequence, each shifted by one more
    token, and stops at the end of the shortest: the n-grams, in order.
    """
    return Counter(zip(*(tokens[i:] for i in range(n))))


def overlap(hyp_counts: Counter, ref_counts: Counter) -> int:
    """Clipped overlap: each unit counts min(count in hypothesis, count in reference) times."""
    if len(ref_counts) < len(hyp_counts):
        hyp_counts, ref_counts = ref_counts, hyp_counts
    return sum(min(c, ref_counts[g]) for g, c in hyp_counts.items() if g in ref_counts)


def ngram_stats(hypothesis: Sequence[str], reference: Sequence[str], n: int) -> RougeStats:
    """ROUGE-N counts of two token sequences.

    >>> ngram_stats(["the", "the", "cat"], ["the", "cat", "sat"], 1)  # "the" clipped to 1, plus "cat"
    RougeStats(matches=2, hyp_len=3, ref_len=3, weight=1.0, segments=1)
    """
    hyp, ref = ngram_counts(hypothesis, n), ngram_counts(reference, n)
    return RougeStats(overlap(hyp, ref), max(len(hypothesis) - n + 1, 0), max(len(reference) - n + 1, 0))


# --------------------------------------------------------------------------------------------------------
# ROUGE-L: longest common subsequence
# --------------------------------------------------------------------------------------------------------
def lcs_stats(hypothesis: Sequence[str], reference: Sequence[str], *, fast: bool = False) -> RougeStats:
    """ROUGE-L counts: (LCS length, hypothesis length, reference length).

    The LCS length is the corner of the readable table of :func:`evalkit.lcs.lcs_table`; ``fast=True``
    computes it with the bit-parallel :func:`evalkit.fast.bit_parallel_lcs_length` (proven equal).

    >>> lcs_stats(["the", "cat", "sat"], ["the", "cat", "is", "sat"])
    RougeStats(matches=3, hyp_len=3, ref_len=4, weight=1.0, segments=1)
    """
    if check_bool("fast", fast):
        from .fast import bit_parallel_lcs_length

        length = bit_parallel_lcs_length(hypothesis, reference)
    else:
        length = lcs_table(hypothesis, reference)[-1][-1]
    return RougeStats(length, len(hypothesis), len(reference))


def summary_lcs_stats(
    hypothesis_sentences: Sequence[Sequence[str]], reference_sentences: Sequence[Sequence[str]]
) -> RougeStats:
    """ROUGE-Lsum counts (Lin 2004, section 3.2, with ROUGE-1.5.5's clipping).

    hits = sum over token types t of min(u_t, c_t), where u_t counts the union-LCS positions holding t over
    all reference sentences and c_t is how often t occurs in the hypothesis.  (u_t never exceeds the
    reference count, so each token is credited at most as often as it occurs in both summaries.)

    >>> r = [["w1", "w2", "w3", "w4", "w5"]]                             # Lin (2004), section 3.2
    >>> c = [["w1", "w2", "w6", "w7", "w8"], ["w1", "w3", "w8", "w9", "w5"]]
    >>> union_lcs(c, r[0]), summary_lcs_stats(c, r).matches
    ([0, 1, 2, 4], 4)
    """
    hyp_len = sum(len(s) for s in hypothesis_sentences)
    ref_len = sum(len(s) for s in reference_sentences)
    if hyp_len == 0 or ref_len == 0:
        return RougeStats(0, hyp_len, ref_len)
    union_tokens: Counter[str] = Counter()
    for sentence in reference_sentences:
        union_tokens.update(sentence[i] for i in union_lcs(hypothesis_sentences, sentence))
    hyp_counts = Counter(t for s in hypothesis_sentences for t in s)
    return RougeStats(overlap(union_tokens, hyp_counts), hyp_len, ref_len)


# --------------------------------------------------------------------------------------------------------
# ROUGE-W: weighted LCS
# --------------------------------------------------------------------------------------------------------
def wlcs_stats(hypothesis: Sequence[str], reference: Sequence[str], weight: float = DEFAULT_WEIGHT) -> RougeStats:
    """ROUGE-W counts: (WLCS, f(hypothesis length), f(reference length)) with f(k) = k ** weight."""
    wlcs = wlcs_tables(hypothesis, reference, weight)[0][-1][-1] if reference and hypothesis else 0.0
    return RougeStats(wlcs, float(len(hypothesis)) ** weight, float(len(reference)) ** weight, weight)


def wlcs_stats_rouge155(
    hypothesis_sentences: Sequence[Sequence[str]],
    reference_sentences: Sequence[Sequence[str]],
    weight: float = DEFAULT_WEIGHT,
) -> RougeStats:
    """ROUGE-W counts as ROUGE-1.5.5 computes them (summary level).

    For each reference line: mark the positions that lie on the WLCS path with any hypothesis line; walk
    the line and credit each marked token whose type is still available on both sides (the counts go down
    as they are used, as in ROUGE-Lsum); a run of k credited positions adds f(k) = k ** weight when it
    ends.  hits / sum of f(reference line length) gives recall, hits / f(hypothesis length) precision.

    Reproduced quirks of the script:

    - its recall denominator is weighted twice: the per-line sum B = sum of f(line length) is passed
      through f again, so R = f^-1(hits / f(B)).  Identical texts therefore get a recall below 1: "a b c d e"
      against itself gives R = f^-1(f(5) / f(f(5))) = 5 ** -0.2 = 0.72478, the number ROUGE-1.5.5 prints;
    - it closes a run only at a credited position (when the next position is unmarked, or at the end of the
      line).  If a run ends on a marked but clipped token, it is carried into the next run of the line, or
      lost at the line's end.
    """

    def f(length: int) -> float:
        return float(length) ** weight

    hyp_left = Counter(t for s in hypothesis_sentences for t in s)
    ref_left = Counter(t for s in reference_sentences for t in s)
    hyp_len = sum(hyp_left.values())
    hits, base = 0.0, 0.0
    for sentence in reference_sentences:
        base += f(len(sentence))
        marked = set()
        for hyp_sentence in hypothesis_sentences:
            marked.update(wlcs_hit_positions(hyp_sentence, sentence, weight))
        run = 0
        for j, tok in enumerate(sentence):
            if j in marked and hyp_left[tok] > 0 and ref_left[tok] > 0:
                run += 1
                if j + 1 == len(sentence) or j + 1 not in marked:  # the run ends here
                    hits += f(run)
                    run = 0
                hyp_left[tok] -= 1
                ref_left[tok] -= 1
    return RougeStats(hits, f(hyp_len), base**weight, weight)  # f(base): the script's second weighting


# --------------------------------------------------------------------------------------------------------
# ROUGE-S and ROUGE-SU: skip-bigrams
# --------------------------------------------------------------------------------------------------------
def skip_bigrams(tokens: Sequence[str], max_skip: int | None = DEFAULT_MAX_SKIP) -> list[tuple[str, str]]:
    """Ordered pairs (tokens[i], tokens[j]), i < j, with at most ``max_skip`` tokens between them
    (``None``: any gap, so a sentence of m tokens has m (m - 1) / 2 of them).

    >>> skip_bigrams(["a", "b", "c"], max_skip=0)
    [('a', 'b'), ('b', 'c')]
    >>> skip_bigrams(["a", "b", "c"], max_skip=None)
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    """
    pairs = []
    for i, first in enumerate(tokens):
        stop = len(tokens) if max_skip is None else min(len(tokens), i + max_skip + 2)
        pairs.extend((first, tokens[j]) for j in range(i + 1, stop))
    return pairs


def skip_bigram_counts(tokens: Sequence[str], max_skip: int | None, unigrams: bool = False,
                       convention: str = "lin2004") -> Counter:
    """Counts of skip-bigrams; with ``unigrams`` also of 1-tuples (ROUGE-SU).  Under
    ``convention="rouge-1.5.5"`` the last token's unigram is not counted (the script's loop stops early)."""
    counts: Counter = Counter(skip_bigrams(tokens, max_skip))
    if check_bool("unigrams", unigrams):
        counted = tokens[:-1] if convention == "rouge-1.5.5" else tokens
        counts.update((t,) for t in counted)
    return counts


def skip_bigram_stats(
    hypothesis: Sequence[str],
    reference: Sequence[str],
    max_skip: int | None = DEFAULT_MAX_SKIP,
    unigrams: bool = False,
    convention: str = "lin2004",
) -> RougeStats:
    """ROUGE-S (or, with ``unigrams``, ROUGE-SU) counts of two token sequences."""
    hyp = skip_bigram_counts(hypothesis, max_skip, unigrams, convention)
    ref = skip_bigram_counts(reference, max_skip, unigrams, convention)
    return RougeStats(overlap(hyp, ref), sum(hyp.values()), sum(ref.values()))


# --------------------------------------------------------------------------------------------------------
# Several references
# --------------------------------------------------------------------------------------------------------
def _best(scores: Sequence[RougeScore]) -> RougeScore:
    """The score with the highest F; the first one on a tie (like numpy's argmax in rouge-score)."""
    best = 0
    for i, s in enumerate(scores):
        if s.fmeasure > scores[best].fmeasure:
            best = i
    return scores[best]


def mean_score(scores: Sequence[RougeScore], variant: str = "", beta: float = 1.0) -> RougeScore:
    """The mean of the precisions, recalls and F-measures of ``scores`` (each averaged on its own)."""
    k = len(scores)
    return RougeScore(
        math.fsum(s.precision for s in scores) / k,
        math.fsum(s.recall for s in scores) / k,
        math.fsum(s.fmeasure for s in scores) / k,
        variant,
        beta,
    )


def combine_references(per_reference: Sequence[RougeStats], aggregation: str = "best", *, beta: float = 1.0,
                       variant: str = "") -> RougeScore:
    """One score from the counts against each reference (see the module docstring for the four rules).

    >>> per_ref = [RougeStats(4, 4, 4), RougeStats(2, 4, 4), RougeStats(0, 4, 4)]  # F = 1, 1/2, 0
    >>> [round(combine_references(per_ref, a).fmeasure, 4) for a in AGGREGATIONS]  # best mean jackknife pooled
    [1.0, 0.5, 0.8333, 0.5]
    """
    check_choice("aggregation", aggregation, AGGREGATIONS)
    if not per_reference:
        raise ValueError("no references to combine")
    if aggregation == "pooled":
        return score_stats(sum(per_reference), beta=beta, variant=variant)
    scores = [
        RougeScore(s.precision, s.recall, s.fmeasure, variant, beta, s.stats, i)
        for i, s in enumerate(score_stats(st, beta=beta) for st in per_reference)
    ]
    if aggregation == "best":
        return _best(scores)
    if aggregation == "mean":
        return mean_score(scores, variant, beta)
    # jackknife (Lin 2004): the best of each leave-one-out subset, averaged
    if len(scores) == 1:
        return scores[0]
    left_out = [_best(scores[:k] + scores[k + 1 :]) for k in range(len(scores))]
    return mean_score(left_out, variant, beta)


# --------------------------------------------------------------------------------------------------------
# Input checks
# --------------------------------------------------------------------------------------------------------
def check_order(n: Any) -> int:
    """ROUGE-N's n: an int from 1 to ``MAX_N`` (9, as rouge-score's "rouge1" ... "rouge9")."""
    check_int("n", n, 1)
    if n > MAX_N:
        raise ValueError(f"n must be at most {MAX_N} (rouge-score's rouge1 ... rouge9), got {n}")
    return n


def check_options(stemmer: Any, tokenize: Any, beta: Any, aggregation: Any) -> None:
    """Check the options every ROUGE function takes; a TypeError or ValueError names the bad one."""
    check_bool("stemmer", stemmer)
    check_tokenize(tokenize)
    check_beta(beta)
    check_choice("aggregation", aggregation, AGGREGATIONS)


def check_inputs(hypothesis: Any, references: Any, where: str = "") -> tuple[str, list[str]]:
    """A hypothesis string and a non-empty list of reference strings; ``where`` names the segment."""
    check_string(hypothesis, f"hypothesis{where}")
    check_references(references, f"references{where}")
    for j, ref in enumerate(references):
        check_string(ref, f"references{where}[{j}]")
    return hypothesis, list(references)


def _check_weight(weight: Any) -> float:
    if isinstance(weight, bool) or not isinstance(weight, numbers.Real):
        raise TypeError(f"weight must be a number, got {type(weight).__name__}")
    if not (math.isfinite(weight) and 1 <= weight <= MAX_WEIGHT):
        raise ValueError(
            f"weight must be a number from 1 to {MAX_WEIGHT:g}: ROUGE-W's f(k) = k ** weight must not credit scattered "
            f"matches above consecutive ones (Lin 2004, section 4), so a weight below 1 is refused; ROUGE-1.5.5 "
            f"suggests 1.2, and lesson 07 (notebooks/07-rouge-deep-dive.ipynb) explains the weight; got {weight}"
        )
    return float(weight)


def _check_max_skip(max_skip: Any) -> int | None:
    if max_skip is None:
        return None
    if isinstance(max_skip, bool) or not isinstance(max_skip, numbers.Integral):  # numpy integers too
        raise TypeError(f"max_skip must be an int or None (any gap), got {type(max_skip).__name__}")
    if max_skip < 0:
        raise ValueError(
            f"max_skip must be >= 0 (0 gives ordinary bigrams) or None for an unlimited gap, got {max_skip}"
        )
    return int(max_skip)


# --------------------------------------------------------------------------------------------------------
# The public scores
# --------------------------------------------------------------------------------------------------------
def _score(hypothesis, references, pair_stats, variant, stemmer, tokenize, beta, aggregation) -> RougeScore:
    check_options(stemmer, tokenize, beta, aggregation)
    hypothesis, references = check_inputs(hypothesis, references)
    hyp = rouge_tokens(hypothesis, tokenize=tokenize, stemmer=stemmer)
    refs = [rouge_tokens(r, tokenize=tokenize, stemmer=stemmer) for r in references]
    per_reference = [pair_stats(hyp, r) for r in refs]
    warn_about_tokenization([hypothesis, *references], tokenize, [hyp, *refs])
    return combine_references(per_reference, aggregation, beta=beta, variant=variant)


def rouge_n(
    hypothesis: str,
    references: Sequence[str],
    n: int,
    *,
    stemmer: bool = False,
    tokenize: str = "rouge-score",
    beta: float = 1.0,
    aggregation: str = "best",
) -> RougeScore:
    """ROUGE-N: clipped n-gram overlap of ``hypothesis`` with its ``references`` (a non-empty list).

    >>> rouge_n("the cat sat on the mat", ["the cat is on the mat"], 1)
    RougeScore(rouge1: P=0.8333, R=0.8333, F=0.8333)
    """
    check_order(n)
    return _score(hypothesis, references, lambda h, r: ngram_stats(h, r, n), f"rouge{n}", stemmer, tokenize, beta,
                  aggregation)


def rouge_l(
    hypothesis: str,
    references: Sequence[str],
    *,
    stemmer: bool = False,
    tokenize: str = "rouge-score",
    beta: float = 1.0,
    aggregation: str = "best",
    fast: bool = False,
) -> RougeScore:
    """ROUGE-L: the longest common subsequence of the whole token sequences (newlines are just spaces).

    The LCS comes from the readable dynamic-programming table (:func:`evalkit.lcs.lcs_table`);
    ``fast=True`` uses the bit-parallel LCS instead (:func:`evalkit.fast.bit_parallel_lcs_length`,
    the same numbers).

    >>> rouge_l("the cat sat on the mat", ["the cat is on the mat"])
    RougeScore(rougeL: P=0.8333, R=0.8333, F=0.8333)
    """
    check_bool("fast", fast)
    return _score(hypothesis, references, lambda h, r: lcs_stats(h, r, fast=fast), "rougeL", stemmer, tokenize, beta,
                  aggregation)


def rouge_lsum(
    hypothesis: str,
    references: Sequence[str],
    *,
    stemmer: bool = False,
    tokenize: str = "rouge-score",
    beta: float = 1.0,
    aggregation: str = "best",
    split_summaries: bool = False,
    fast: bool = False,
) -> RougeScore:
    """ROUGE-Lsum: summary-level union LCS; sentences are the non-empty lines of each text, or, with
    ``split_summaries=True`` (rouge-score's option), the sentences an untrained Punkt splitter finds
    (see :func:`split_sentences` for how that differs from rouge-score's trained model).

    When both texts are one line, the union LCS is the LCS itself and ROUGE-Lsum is ROUGE-L: it is computed
    by ROUGE-L's :func:`lcs_stats` (with ``fast=True``, the bit-parallel LCS, as :func:`rouge_l` does).

    >>> rouge_lsum("the cat sat\\non the mat", ["on the mat\\nthe cat sat"])
    RougeScore(rougeLsum: P=1.0000, R=1.0000, F=1.0000)
    >>> rouge_l("the cat sat\\non the mat", ["on the mat\\nthe cat sat"])
    RougeScore(rougeL: P=0.5000, R=0.5000, F=0.5000)
    """
    check_options(stemmer, tokenize, beta, aggregation)
    fast = check_bool("fast", fast)
    hypothesis, references = check_inputs(hypothesis, references)

    split_summaries = check_bool("split_summaries", split_summaries)

    def sentences(text: str) -> list[Tokens]:
        return [rouge_tokens(s, tokenize=tokenize, stemmer=stemmer) for s in split_sentences(text, split_summaries)]

    def stats(hyp: list[Tokens], ref: list[Tokens]) -> RougeStats:
        if len(hyp) == 1 and len(ref) == 1:  # one line each: every clipped union-LCS hit is an LCS hit
            return lcs_stats(hyp[0], ref[0], fast=fast)
        return summary_lcs_stats(hyp, ref)

    hyp = sentences(hypothesis)
    per_reference = [stats(hyp, sentences(r)) for r in references]
    warn_about_tokenization([hypothesis, *references], tokenize)
    return combine_references(per_reference, aggregation, beta=beta, variant="rougeLsum")


def rouge_w(
    hypothesis: str,
    references: Sequence[str],
    *,
    weight: float = DEFAULT_WEIGHT,
    stemmer: bool = False,
    tokenize: str = "rouge-score",
    beta: float = 1.0,
    aggregation: str = "best",
    convention: str = "lin2004",
) -> RougeScore:
    """ROUGE-W: weighted LCS with f(k) = k ** ``weight``; R = f^-1(WLCS / f(m)), P = f^-1(WLCS / f(n)).

    ``convention="rouge-1.5.5"`` computes it as the Perl script does (see the module docstring).

    >>> rouge_w("a b c d h i k", ["a b c d e f g"])    # one run of 4: R = f^-1(f(4) / f(7)) = 4/7
    RougeScore(rougeW-1.2: P=0.5714, R=0.5714, F=0.5714)
    >>> round(rouge_w("a b c d e", ["a b c d e"], convention="rouge-1.5.5").recall, 5)  # the script's bug
    0.72478
    """
    weight = _check_weight(weight)
    check_choice("convention", convention, CONVENTIONS)
    name = f"rougeW-{weight:g}"
    if convention == "lin2004":
        return _score(hypothesis, references, lambda h, r: wlcs_stats(h, r, weight), name, stemmer, tokenize, beta,
                      aggregation)
    check_options(stemmer, tokenize, beta, aggregation)
    hypothesis, references = check_inputs(hypothesis, references)

    def sentences(text: str) -> list[Tokens]:
        return [rouge_tokens(s, tokenize=tokenize, stemmer=stemmer) for s in split_sentences(text)]

    hyp = sentences(hypothesis)
    per_reference = [wlcs_stats_rouge155(hyp, sentences(r), weight) for r in references]
    warn_about_tokenization([hypothesis, *references], tokenize)
    return combine_references(per_reference, aggregation, beta=beta, variant=name)


def rouge_s(
    hypothesis: str,
    references: Sequence[str],
    *,
    max_skip: int | None = DEFAULT_MAX_SKIP,
    stemmer: bool = False,
    tokenize: str = "rouge-score",
    beta: float = 1.0,
    aggregation: str = "best",
) -> RougeScore:
    """ROUGE-S: skip-bigram overlap, at most ``max_skip`` tokens between the two words (None: any gap).

    >>> rouge_s("police kill the gunman", ["police killed the gunman"], max_skip=None)  # Lin's S2: 3/6
    RougeScore(rougeS*: P=0.5000, R=0.5000, F=0.5000)
    """
    max_skip = _check_max_skip(max_skip)
    name = "rougeS" + ("*" if max_skip is None else str(max_skip))
    return _score(hypothesis, references, lambda h, r: skip_bigram_stats(h, r, max_skip), name, stemmer, tokenize,
                  beta, aggregation)


def rouge_su(
    hypothesis: str,
    references: Sequence[str],
    *,
    max_skip: int | None = DEFAULT_MAX_SKIP,
    stemmer: bool = False,
    tokenize: str = "rouge-score",
    beta: float = 1.0,
    aggregation: str = "best",
    convention: str = "lin2004",
) -> RougeScore:
    """ROUGE-SU: skip-bigrams plus unigrams (``convention="rouge-1.5.5"``: all but the last token's unigram).

    >>> rouge_su("gunman the", ["the gunman"], max_skip=None)  # no skip-bigram matches, 2 unigrams do: 2/3
    RougeScore(rougeSU*: P=0.6667, R=0.6667, F=0.6667)
    """
    max_skip = _check_max_skip(max_skip)
    check_choice("convention", convention, CONVENTIONS)
    name = "rougeSU" + ("*" if max_skip is None else str(max_skip))
    return _score(hypothesis, references,
                  lambda h, r: skip_bigram_stats(h, r, max_skip, unigrams=True, convention=convention), name,
                  stemmer, tokenize, beta, aggregation)


__all__ = [
    "AGGREGATIONS",
    "CONVENTIONS",
    "MAX_BETA",
    "MAX_N",
    "MAX_WEIGHT",
    "RougeScore",
    "RougeStats",
    "check_inputs",
    "check_options",
    "check_order",
    "combine_references",
    "precision_recall",
    "score_counts",
    "lcs_stats",
    "mean_score",
    "ngram_counts",
    "ngram_stats",
    "overlap",
    "rouge_l",
    "rouge_lsum",
    "rouge_n",
    "rouge_s",
    "rouge_su",
    "rouge_tokens",
    "rouge_w",
    "score_stats",
    "skip_bigram_counts",
    "skip_bigram_stats",
    "skip_bigrams",
    "split_sentences",
    "summary_lcs_stats",
    "wlcs_stats",
    "wlcs_stats_rouge155",
]
