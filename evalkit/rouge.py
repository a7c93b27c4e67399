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
    >>> (r.stats.hits, r.stats.hyp_total, r.stats.ref_total), round(float(r), 4)
    ((3, 5, 5), 0.6)

Conventions (each one chosen on purpose; the lesson in ``notebooks/06-rouge.ipynb`` shows them):

- **Tokenization.**  The default, ``tokenizer="rouge-score"``, reproduces the rouge-score library: lowercase,
  every character outside ``[a-z0-9]`` becomes a space, split.  Letters outside ASCII are therefore *lost*
  ("café" -> "caf", a Russian sentence -> no tokens at all).  ``tokenizer="unicode"`` keeps letters, marks and
  digits of every script.  With ``stemmer=True`` nltk's Porter stemmer is applied to tokens longer than
  three characters, as rouge-score (and ROUGE-1.5.5's ``-m``) does.
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
  3.3) on the whole token sequences.  ``convention="rouge-1.5.5"`` reproduces the Perl script instead: it
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
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import chain
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ._checks import check_choice, check_corpus, check_int, check_references, check_same_length

TOKENIZERS = ("rouge-score", "unicode")
AGGREGATIONS = ("best", "mean", "jackknife", "pooled")
AVERAGES = ("mean", "micro")
CONVENTIONS = ("lin2004", "rouge-1.5.5")  # for ROUGE-W and ROUGE-SU, where the paper and the script differ
DEFAULT_WEIGHT = 1.2  # ROUGE-1.5.5's suggested -w
DEFAULT_MAX_SKIP = 4  # ROUGE-S4 / ROUGE-SU4, the variant reported in DUC evaluations

Tokens = tuple[str, ...]


# --------------------------------------------------------------------------------------------------------
# Tokenization
# --------------------------------------------------------------------------------------------------------
_NOT_ASCII_ALNUM = re.compile(r"[^a-z0-9]+")


def tokenize_rouge_score(text: str) -> list[str]:
    """rouge-score's tokenizer (without stemming): lowercase, non-[a-z0-9] -> space, split.

    >>> tokenize_rouge_score("The café's 2 dogs!")
    ['the', 'caf', 's', '2', 'dogs']
    """
    return _NOT_ASCII_ALNUM.sub(" ", text.lower()).split()


@lru_cache(maxsize=1)
def _unicode_word():
    import regex  # knows Unicode categories; loaded only when this tokenizer is used

    return regex.compile(r"[\p{L}\p{M}\p{N}]+")


def tokenize_unicode(text: str) -> list[str]:
    """Lowercase, then keep runs of letters, combining marks and digits of any script.

    >>> tokenize_unicode("Привет, мир! The café's 2 dogs")
    ['привет', 'мир', 'the', 'café', 's', '2', 'dogs']
    """
    return _unicode_word().findall(text.lower())


_TOKENIZER_FUNCTIONS: dict[str, Callable[[str], list[str]]] = {
    "rouge-score": tokenize_rouge_score,
    "unicode": tokenize_unicode,
}


@lru_cache(maxsize=1)
def _porter():
    from nltk.stem.porter import PorterStemmer  # the stemmer rouge-score uses, in its default mode

    return PorterStemmer()


@lru_cache(maxsize=2**17)
def stem(token: str) -> str:
    """Porter stem of ``token`` if it is longer than 3 characters (rouge-score's rule), else ``token``."""
    return _porter().stem(token) if len(token) > 3 else token


def tokenize(text: str, *, tokenizer: str = "rouge-score", stemmer: bool = False) -> Tokens:
    """The tokens ROUGE compares.

    >>> tokenize("The cats were running", stemmer=True)
    ('the', 'cat', 'were', 'run')
    """
    check_choice("tokenizer", tokenizer, TOKENIZERS)
    _check_string(text, "text")
    tokens = _TOKENIZER_FUNCTIONS[tokenizer](text)
    if stemmer:
        tokens = [stem(t) for t in tokens]
    return tuple(tokens)


def split_sentences(text: str) -> list[str]:
    """ROUGE-Lsum's sentences: the lines of ``text``, empty lines dropped (rouge-score's rule)."""
    return [line for line in text.split("\n") if line]


# --------------------------------------------------------------------------------------------------------
# Statistics and results
# --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RougeStats:
    """Additive counts behind one ROUGE score: ``hits`` shared units, ``hyp_total`` units in the hypothesis,
    ``ref_total`` units in the reference.

    For ROUGE-W, ``hits`` is the weighted LCS and the totals are f(length) = length ** ``weight``; for every
    other variant ``weight`` is 1.  ``a + b`` and ``sum(...)`` add the counts (corpus "micro" averaging).
    """

    hits: float
    hyp_total: float
    ref_total: float
    weight: float = 1.0
    segments: int = 1

    def __add__(self, other: RougeStats) -> RougeStats:
        if not isinstance(other, RougeStats):
            return NotImplemented
        if self.weight != other.weight:
            raise ValueError(f"cannot add ROUGE statistics with weights {self.weight} and {other.weight}")
        return RougeStats(
            self.hits + other.hits,
            self.hyp_total + other.hyp_total,
            self.ref_total + other.ref_total,
            self.weight,
            self.segments + other.segments,
        )

    def __radd__(self, other: Any) -> RougeStats:
        if other == 0:  # lets the built-in sum() start from 0
            return self
        return NotImplemented


@dataclass(frozen=True)
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


def f_measure(precision: float, recall: float, beta: float = 1.0) -> float:
    """F_beta = (1 + beta^2) P R / (beta^2 P + R); 0 when P and R are both 0.

    With beta = 1 this is 2PR / (P + R), computed in the same floating-point steps as rouge-score.
    """
    b2 = beta * beta
    denominator = b2 * precision + recall
    if denominator <= 0:
        return 0.0
    return (1 + b2) * precision * recall / denominator


def score_stats(stats: RougeStats, *, beta: float = 1.0, variant: str = "") -> RougeScore:
    """Turn counts into precision, recall and F; nothing is recounted.

    P = f^-1(hits / hyp_total), R = f^-1(hits / ref_total), with f^-1(x) = x ** (1 / weight) (the identity
    unless this is ROUGE-W); a zero total gives 0.

    >>> score_stats(RougeStats(hits=3, hyp_total=4, ref_total=6), beta=2)
    RougeScore(P=0.7500, R=0.5000, F=0.5357)
    """
    if not isinstance(stats, RougeStats):
        raise TypeError(f"stats must be RougeStats, got {type(stats).__name__}")
    _check_beta(beta)
    precision = _inverse_weight(stats.hits / stats.hyp_total, stats.weight) if stats.hyp_total > 0 else 0.0
    recall = _inverse_weight(stats.hits / stats.ref_total, stats.weight) if stats.ref_total > 0 else 0.0
    return RougeScore(precision, recall, f_measure(precision, recall, beta), variant, beta, stats)


def _inverse_weight(x: float, weight: float) -> float:
    return x if weight == 1 else x ** (1 / weight)


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
    RougeStats(hits=2, hyp_total=3, ref_total=3, weight=1.0, segments=1)
    """
    hyp, ref = ngram_counts(hypothesis, n), ngram_counts(reference, n)
    return RougeStats(overlap(hyp, ref), max(len(hypothesis) - n + 1, 0), max(len(reference) - n + 1, 0))


# --------------------------------------------------------------------------------------------------------
# ROUGE-L: longest common subsequence
# --------------------------------------------------------------------------------------------------------
def lcs_table(reference: Sequence[str], hypothesis: Sequence[str]) -> list[list[int]]:
    """The dynamic-programming table: ``table[i][j]`` is the LCS length of ``reference[:i]`` and
    ``hypothesis[:j]`` (rows: reference, columns: hypothesis, as in rouge-score).

    A match extends the diagonal neighbour by one; otherwise the cell copies the larger of the cell above
    (drop a reference token) and the cell to the left (drop a hypothesis token).

    >>> lcs_table(["a", "b", "c"], ["b", "c"])
    [[0, 0, 0], [0, 0, 0], [0, 1, 1], [0, 1, 2]]
    """
    table = [[0] * (len(hypothesis) + 1)]
    for r_tok in reference:
        above = table[-1]
        row = [0]
        for j, h_tok in enumerate(hypothesis, start=1):
            row.append(above[j - 1] + 1 if r_tok == h_tok else max(above[j], row[j - 1]))
        table.append(row)
    return table


def lcs_path(reference: Sequence[str], hypothesis: Sequence[str], table: list[list[int]] | None = None):
    """One LCS, read back from the bottom-right corner of :func:`lcs_table`: the matched cells as
    (reference index, hypothesis index) pairs, in order.

    Tie rule (rouge-score's and ROUGE-1.5.5's): equal tokens -> diagonal; otherwise go left only if the
    cell to the left is strictly larger than the cell above, else go up.

    >>> lcs_path(["a", "b", "c"], ["b", "a", "c"])  # "a c" and "b c" are both LCSs; the tie rule picks "a c"
    [(0, 1), (2, 2)]
    """
    if table is None:
        table = lcs_table(reference, hypothesis)
    i, j = len(reference), len(hypothesis)
    path = []
    while i > 0 and j > 0:
        if reference[i - 1] == hypothesis[j - 1]:
            path.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return path[::-1]


def lcs_length(reference: Sequence[str], hypothesis: Sequence[str]) -> int:
    """LCS length, fast: the bit-parallel algorithm of Allison & Dix (1986) / Hyyrö (2004).

    Bit i of ``v`` is 0 where the LCS of the reference prefix grows at row i; one addition per hypothesis
    token updates a whole column of the table at once.  Tests prove it equals ``lcs_table(...)[-1][-1]``.
    """
    if not reference or not hypothesis:
        return 0
    masks: dict[str, int] = {}
    for i, tok in enumerate(reference):
        masks[tok] = masks.get(tok, 0) | (1 << i)
    full = (1 << len(reference)) - 1
    v = full
    for tok in hypothesis:
        u = v & masks.get(tok, 0)
        v = ((v + u) | (v - u)) & full
    return len(reference) - v.bit_count()


def lcs_stats(hypothesis: Sequence[str], reference: Sequence[str]) -> RougeStats:
    """ROUGE-L counts: (LCS length, hypothesis length, reference length)."""
    return RougeStats(lcs_length(reference, hypothesis), len(hypothesis), len(reference))


def union_lcs(reference_sentence: Sequence[str], hypothesis_sentences: Sequence[Sequence[str]]) -> list[int]:
    """Positions of ``reference_sentence`` that lie on the LCS with at least one hypothesis sentence."""
    hit: set[int] = set()
    for sentence in hypothesis_sentences:
        hit.update(i for i, _ in lcs_path(reference_sentence, sentence))
    return sorted(hit)


def summary_lcs_stats(
    hypothesis_sentences: Sequence[Sequence[str]], reference_sentences: Sequence[Sequence[str]]
) -> RougeStats:
    """ROUGE-Lsum counts (Lin 2004, section 3.2, with ROUGE-1.5.5's clipping).

    hits = sum over token types t of min(u_t, c_t), where u_t counts the union-LCS positions holding t over
    all reference sentences and c_t is how often t occurs in the hypothesis.  (u_t never exceeds the
    reference count, so each token is credited at most as often as it occurs in both summaries.)

    >>> r = [["w1", "w2", "w3", "w4", "w5"]]                             # Lin (2004), section 3.2
    >>> c = [["w1", "w2", "w6", "w7", "w8"], ["w1", "w3", "w8", "w9", "w5"]]
    >>> union_lcs(r[0], c), summary_lcs_stats(c, r).hits
    ([0, 1, 2, 4], 4)
    """
    hyp_len = sum(len(s) for s in hypothesis_sentences)
    ref_len = sum(len(s) for s in reference_sentences)
    if hyp_len == 0 or ref_len == 0:
        return RougeStats(0, hyp_len, ref_len)
    union_tokens: Counter[str] = Counter()
    for sentence in reference_sentences:
        union_tokens.update(sentence[i] for i in union_lcs(sentence, hypothesis_sentences))
    hyp_counts = Counter(t for s in hypothesis_sentences for t in s)
    return RougeStats(overlap(union_tokens, hyp_counts), hyp_len, ref_len)


# --------------------------------------------------------------------------------------------------------
# ROUGE-W: weighted LCS
# --------------------------------------------------------------------------------------------------------
def wlcs_tables(reference: Sequence[str], hypothesis: Sequence[str], weight: float = DEFAULT_WEIGHT):
    """Lin's (2004) WLCS programme: ``c[i][j]`` is the weighted score, ``k[i][j]`` the length of the run of
    consecutive matches ending at (i, j).  A match that extends a run of length k adds f(k+1) - f(k)."""

    def f(length: int) -> float:
        return float(length) ** weight

    c = [[0.0] * (len(hypothesis) + 1)]
    k = [[0] * (len(hypothesis) + 1)]
    for r_tok in reference:
        c_above, k_above = c[-1], k[-1]
        c_row, k_row = [0.0], [0]
        for j, h_tok in enumerate(hypothesis, start=1):
            if r_tok == h_tok:
                run = k_above[j - 1]
                c_row.append(c_above[j - 1] + f(run + 1) - f(run))
                k_row.append(run + 1)
            else:
                c_row.append(c_above[j] if c_above[j] > c_row[j - 1] else c_row[j - 1])
                k_row.append(0)
        c.append(c_row)
        k.append(k_row)
    return c, k


def wlcs_stats(hypothesis: Sequence[str], reference: Sequence[str], weight: float = DEFAULT_WEIGHT) -> RougeStats:
    """ROUGE-W counts: (WLCS, f(hypothesis length), f(reference length)) with f(k) = k ** weight."""
    wlcs = wlcs_tables(reference, hypothesis, weight)[0][-1][-1] if reference and hypothesis else 0.0
    return RougeStats(wlcs, float(len(hypothesis)) ** weight, float(len(reference)) ** weight, weight)


def wlcs_hit_positions(reference: Sequence[str], hypothesis: Sequence[str], weight: float = DEFAULT_WEIGHT) -> list[int]:
    """Reference positions matched on the path read back from the WLCS table (ROUGE-1.5.5's ``markLCS``:
    diagonal on equal tokens, else up when the cell above is at least the cell to the left, else left)."""
    if not reference or not hypothesis:
        return []
    c = wlcs_tables(reference, hypothesis, weight)[0]
    i, j = len(reference), len(hypothesis)
    hits = []
    while i > 0 and j > 0:
        if reference[i - 1] == hypothesis[j - 1]:
            hits.append(i - 1)
            i, j = i - 1, j - 1
        elif c[i - 1][j] >= c[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return hits[::-1]


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
            marked.update(wlcs_hit_positions(sentence, hyp_sentence, weight))
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
    if unigrams:
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


def _mean(scores: Sequence[RougeScore], variant: str, beta: float) -> RougeScore:
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
        return _mean(scores, variant, beta)
    # jackknife (Lin 2004): the best of each leave-one-out subset, averaged
    if len(scores) == 1:
        return scores[0]
    left_out = [_best(scores[:k] + scores[k + 1 :]) for k in range(len(scores))]
    return _mean(left_out, variant, beta)


# --------------------------------------------------------------------------------------------------------
# Input checks
# --------------------------------------------------------------------------------------------------------
def _check_string(value: Any, what: str) -> str:
    if value is None:
        raise TypeError(f"{what} is None; expected a string")
    if not isinstance(value, str):
        raise TypeError(f"{what} is a {type(value).__name__}; expected a string (ROUGE tokenizes it itself)")
    return value


def _check_beta(beta: Any) -> float:
    if isinstance(beta, bool) or not isinstance(beta, (int, float)):
        raise TypeError(f"beta must be a number, got {type(beta).__name__}")
    if not (math.isfinite(beta) and beta > 0):
        raise ValueError(f"beta must be a positive finite number, got {beta}")
    return float(beta)


def _check_options(stemmer: Any, tokenizer: Any, beta: Any, aggregation: Any) -> None:
    if not isinstance(stemmer, bool):
        raise TypeError(f"stemmer must be True or False, got {stemmer!r}")
    check_choice("tokenizer", tokenizer, TOKENIZERS)
    _check_beta(beta)
    check_choice("aggregation", aggregation, AGGREGATIONS)


def _check_inputs(hypothesis: Any, references: Any, where: str = "") -> tuple[str, list[str]]:
    _check_string(hypothesis, f"hypothesis{where}")
    check_references(references, f"references{where}")
    for j, ref in enumerate(references):
        _check_string(ref, f"references{where}[{j}]")
    return hypothesis, list(references)


def _check_weight(weight: Any) -> float:
    if isinstance(weight, bool) or not isinstance(weight, (int, float)):
        raise TypeError(f"weight must be a number, got {type(weight).__name__}")
    if not (math.isfinite(weight) and weight > 0):
        raise ValueError(f"weight must be a positive finite number (ROUGE-1.5.5 suggests 1.2), got {weight}")
    return float(weight)


def _check_max_skip(max_skip: Any) -> int | None:
    if max_skip is None:
        return None
    if isinstance(max_skip, bool) or not isinstance(max_skip, int):
        raise TypeError(f"max_skip must be an int or None (any gap), got {type(max_skip).__name__}")
    if max_skip < 0:
        raise ValueError(
            f"max_skip must be >= 0 (0 gives ordinary bigrams) or None for an unlimited gap, got {max_skip}"
        )
    return max_skip


# --------------------------------------------------------------------------------------------------------
# The public scores
# --------------------------------------------------------------------------------------------------------
def _score(hypothesis, references, pair_stats, variant, stemmer, tokenizer, beta, aggregation) -> RougeScore:
    _check_options(stemmer, tokenizer, beta, aggregation)
    hypothesis, references = _check_inputs(hypothesis, references)
    hyp = tokenize(hypothesis, tokenizer=tokenizer, stemmer=stemmer)
    per_reference = [pair_stats(hyp, tokenize(r, tokenizer=tokenizer, stemmer=stemmer)) for r in references]
    return combine_references(per_reference, aggregation, beta=beta, variant=variant)


def rouge_n(
    hypothesis: str,
    references: Sequence[str],
    n: int,
    *,
    stemmer: bool = False,
    tokenizer: str = "rouge-score",
    beta: float = 1.0,
    aggregation: str = "best",
) -> RougeScore:
    """ROUGE-N: clipped n-gram overlap of ``hypothesis`` with its ``references`` (a non-empty list).

    >>> rouge_n("the cat sat on the mat", ["the cat is on the mat"], 1)
    RougeScore(rouge1: P=0.8333, R=0.8333, F=0.8333)
    """
    check_int("n", n, 1)
    return _score(hypothesis, references, lambda h, r: ngram_stats(h, r, n), f"rouge{n}", stemmer, tokenizer, beta,
                  aggregation)


def rouge_l(
    hypothesis: str,
    references: Sequence[str],
    *,
    stemmer: bool = False,
    tokenizer: str = "rouge-score",
    beta: float = 1.0,
    aggregation: str = "best",
) -> RougeScore:
    """ROUGE-L: the longest common subsequence of the whole token sequences (newlines are just spaces).

    >>> rouge_l("the cat sat on the mat", ["the cat is on the mat"])
    RougeScore(rougeL: P=0.8333, R=0.8333, F=0.8333)
    """
    return _score(hypothesis, references, lcs_stats, "rougeL", stemmer, tokenizer, beta, aggregation)


def rouge_lsum(
    hypothesis: str,
    references: Sequence[str],
    *,
    stemmer: bool = False,
    tokenizer: str = "rouge-score",
    beta: float = 1.0,
    aggregation: str = "best",
) -> RougeScore:
    """ROUGE-Lsum: summary-level union LCS; sentences are the non-empty lines of each text.

    >>> rouge_lsum("the cat sat\\non the mat", ["on the mat\\nthe cat sat"])
    RougeScore(rougeLsum: P=1.0000, R=1.0000, F=1.0000)
    >>> rouge_l("the cat sat\\non the mat", ["on the mat\\nthe cat sat"])
    RougeScore(rougeL: P=0.5000, R=0.5000, F=0.5000)
    """
    _check_options(stemmer, tokenizer, beta, aggregation)
    hypothesis, references = _check_inputs(hypothesis, references)

    def sentences(text: str) -> list[Tokens]:
        return [tokenize(s, tokenizer=tokenizer, stemmer=stemmer) for s in split_sentences(text)]

    hyp = sentences(hypothesis)
    per_reference = [summary_lcs_stats(hyp, sentences(r)) for r in references]
    return combine_references(per_reference, aggregation, beta=beta, variant="rougeLsum")


def rouge_w(
    hypothesis: str,
    references: Sequence[str],
    *,
    weight: float = DEFAULT_WEIGHT,
    stemmer: bool = False,
    tokenizer: str = "rouge-score",
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
        return _score(hypothesis, references, lambda h, r: wlcs_stats(h, r, weight), name, stemmer, tokenizer, beta,
                      aggregation)
    _check_options(stemmer, tokenizer, beta, aggregation)
    hypothesis, references = _check_inputs(hypothesis, references)

    def sentences(text: str) -> list[Tokens]:
        return [tokenize(s, tokenizer=tokenizer, stemmer=stemmer) for s in split_sentences(text)]

    hyp = sentences(hypothesis)
    per_reference = [wlcs_stats_rouge155(hyp, sentences(r), weight) for r in references]
    return combine_references(per_reference, aggregation, beta=beta, variant=name)


def rouge_s(
    hypothesis: str,
    references: Sequence[str],
    *,
    max_skip: int | None = DEFAULT_MAX_SKIP,
    stemmer: bool = False,
    tokenizer: str = "rouge-score",
    beta: float = 1.0,
    aggregation: str = "best",
) -> RougeScore:
    """ROUGE-S: skip-bigram overlap, at most ``max_skip`` tokens between the two words (None: any gap).

    >>> rouge_s("police kill the gunman", ["police killed the gunman"], max_skip=None)  # Lin's S2: 3/6
    RougeScore(rougeS*: P=0.5000, R=0.5000, F=0.5000)
    """
    max_skip = _check_max_skip(max_skip)
    name = "rougeS" + ("*" if max_skip is None else str(max_skip))
    return _score(hypothesis, references, lambda h, r: skip_bigram_stats(h, r, max_skip), name, stemmer, tokenizer,
                  beta, aggregation)


def rouge_su(
    hypothesis: str,
    references: Sequence[str],
    *,
    max_skip: int | None = DEFAULT_MAX_SKIP,
    stemmer: bool = False,
    tokenizer: str = "rouge-score",
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
                  stemmer, tokenizer, beta, aggregation)


# --------------------------------------------------------------------------------------------------------
# Several variants at once
# --------------------------------------------------------------------------------------------------------
FAST_VARIANTS = re.compile(r"rouge([1-9][0-9]*|L)")


def _check_variants(variants: Any) -> tuple[str, ...]:
    if isinstance(variants, str) or not isinstance(variants, Sequence) or not variants or not all(
        isinstance(v, str) and FAST_VARIANTS.fullmatch(v) for v in variants
    ):
        raise ValueError(f"variants must be a non-empty list of 'rouge<n>' or 'rougeL' names, got {variants!r}")
    return tuple(variants)


def _scores_of_profiles(hyp, refs, variants, beta, aggregation, known_hits=None) -> dict[str, RougeScore]:
    from .fast import frozen, rouge_pair_stats

    out = {}
    for variant in variants:
        if len(refs) == 1:  # every aggregation of one reference is that reference's score
            if known_hits and variant in known_hits:  # counted already, for the whole list at once
                n = int(variant[5:])
                hits = known_hits[variant]
                hyp_total, ref_total = max(0, len(hyp[0]) - n + 1), max(0, len(refs[0][0]) - n + 1)
            else:
                hits, hyp_total, ref_total = rouge_pair_stats(hyp, refs[0], variant)
            precision = hits / hyp_total if hyp_total > 0 else 0.0
            recall = hits / ref_total if ref_total > 0 else 0.0
            stats = frozen(RougeStats, hits=hits, hyp_total=hyp_total, ref_total=ref_total, weight=1.0, segments=1)
            out[variant] = frozen(
                RougeScore,
                precision=precision,
                recall=recall,
                fmeasure=f_measure(precision, recall, beta),
                variant=variant,
                beta=beta,
                stats=stats,
                reference=0,
            )
        else:
            per_reference = [RougeStats(*rouge_pair_stats(hyp, r, variant)) for r in refs]
            out[variant] = combine_references(per_reference, aggregation, beta=beta, variant=variant)
    return out


def rouge_scores(
    hypothesis: str,
    references: Sequence[str],
    variants: Sequence[str] = ("rouge1", "rouge2", "rougeL"),
    *,
    stemmer: bool = False,
    tokenizer: str = "rouge-score",
    beta: float = 1.0,
    aggregation: str = "best",
) -> dict[str, RougeScore]:
    """Several ROUGE-N / ROUGE-L scores of one pair at once, like rouge-score's ``RougeScorer.score``.

    Equal to calling :func:`rouge_n` / :func:`rouge_l` for each variant (the tests prove it), but each
    text is tokenized and counted once and cached (see :mod:`evalkit.fast`), which is what makes scoring
    thousands of pairs fast.

    >>> s = rouge_scores("the cat sat on the mat", ["the cat is on the mat"])
    >>> {k: round(v.fmeasure, 4) for k, v in s.items()}
    {'rouge1': 0.8333, 'rouge2': 0.6, 'rougeL': 0.8333}
    """
    from .fast import rouge_profile

    _check_options(stemmer, tokenizer, beta, aggregation)
    hypothesis, references = _check_inputs(hypothesis, references)
    variants = _check_variants(variants)
    hyp = rouge_profile(hypothesis, tokenizer, stemmer)
    refs = [rouge_profile(r, tokenizer, stemmer) for r in references]
    return _scores_of_profiles(hyp, refs, variants, beta, aggregation)


def rouge_scores_many(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    variants: Sequence[str] = ("rouge1", "rouge2", "rougeL"),
    *,
    stemmer: bool = False,
    tokenizer: str = "rouge-score",
    beta: float = 1.0,
    aggregation: str = "best",
) -> list[dict[str, RougeScore]]:
    """:func:`rouge_scores` for every segment: ``references[i]`` lists the references of ``hypotheses[i]``.

    The checks run once for the whole list, which is all that distinguishes this from a loop.

    >>> [round(s["rouge1"].fmeasure, 4) for s in rouge_scores_many(["a b", "c"], [["a b c"], ["c", "d"]])]
    [0.8, 1.0]
    """
    from .fast import rouge_profile

    _check_options(stemmer, tokenizer, beta, aggregation)
    variants = _check_variants(variants)
    check_corpus("hypotheses", hypotheses)
    check_corpus("references", references)
    check_same_length(hypotheses=hypotheses, references=references)
    simple = (  # the common case, checked with C-level loops; anything else is checked segment by segment
        set(map(type, hypotheses)) == {str}
        and set(map(type, references)) <= {list, tuple}
        and 0 not in map(len, references)
        and set(map(type, chain.from_iterable(references))) == {str}
    )
    if not simple:
        for i, (hyp, refs) in enumerate(zip(hypotheses, references)):
            _check_inputs(hyp, refs, where=f"[{i}]")
    hyp_profiles = [rouge_profile(h, tokenizer, stemmer) for h in hypotheses]
    ref_profiles = [[rouge_profile(r, tokenizer, stemmer) for r in refs] for refs in references]
    known: list[dict[str, int]] = [{} for _ in hyp_profiles]
    orders = sorted({int(v[5:]) for v in variants if v != "rougeL"})
    if orders and all(len(refs) == 1 for refs in ref_profiles):
        # One reference per segment: ROUGE-N's hits are BLEU's clipped matches against that reference,
        # counted for the whole list at once with integer n-gram ids (evalkit.fast.ReferenceIndex).
        from .fast import ReferenceIndex

        index = ReferenceIndex([(refs[0][0],) for refs in ref_profiles], max(orders))
        per_order = index.matches([p[0] for p in hyp_profiles], per_segment=True)
        for n in orders:
            for seen, hits in zip(known, per_order[n - 1].tolist()):
                seen[f"rouge{n}"] = hits
    return [
        _scores_of_profiles(hyp, refs, variants, beta, aggregation, seen)
        for hyp, refs, seen in zip(hyp_profiles, ref_profiles, known)
    ]


# --------------------------------------------------------------------------------------------------------
# Corpus level
# --------------------------------------------------------------------------------------------------------
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
        n = int(kind)
        return lambda h, refs, **kw: rouge_n(h, refs, n, **kw)
    return {"L": rouge_l, "Lsum": rouge_lsum, "W": rouge_w, "S": rouge_s, "SU": rouge_su}[kind]


@dataclass(frozen=True)
class RougeCorpusResult:
    """Corpus ROUGE: the point estimate ``score`` and a bootstrap confidence interval [``low``, ``high``]
    (each a :class:`RougeScore`; P, R and F have their own percentiles).  ``float(result)`` is F."""

    score: RougeScore
    low: RougeScore
    high: RougeScore
    average: str
    confidence: float
    n_samples: int
    seed: int
    segments: tuple[RougeScore, ...] = field(repr=False)

    def __float__(self) -> float:
        return self.score.fmeasure

    def __repr__(self) -> str:
        s, lo, hi = self.score, self.low, self.high
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
    for i, (hyp, refs) in enumerate(zip(hypotheses, references)):
        _check_inputs(hyp, refs, where=f"[{i}]")
        out.append(scorer(hyp, refs, **options))
    return out


def bootstrap_interval(segments: Sequence[RougeScore], average: str = "mean", *, n_samples: int = 1000,
                       confidence: float = 0.95, seed: int = 0) -> tuple[RougeScore, RougeScore, RougeScore]:
    """(point estimate, low, high) from ``n_samples`` resamples of the segments, with a seeded generator.

    ``average="mean"``: the mean of the segments' P, R and F (rouge-score and ROUGE-1.5.5).  ``"micro"``: the
    score of the summed counts (ROUGE-1.5.5's ``-t 1``); it needs scores that carry their counts.
    The bounds are the (1 - confidence)/2 and (1 + confidence)/2 percentiles of the resampled estimates,
    interpolated linearly (numpy's default, as rouge-score's ``BootstrapAggregator`` does).
    """
    import numpy as np

    check_choice("average", average, AVERAGES)
    check_int("n_samples", n_samples, 1)
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
        raise ValueError(f"confidence must be a number strictly between 0 and 1, got {confidence!r}")
    check_int("seed", seed, 0)
    variant, beta = segments[0].variant, segments[0].beta
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(segments), size=(n_samples, len(segments)))
    if average == "mean":
        matrix = np.array([[s.precision, s.recall, s.fmeasure] for s in segments])
        point = _mean(segments, variant, beta)
        estimates = matrix[draws].mean(axis=1)
    else:
        if any(s.stats is None for s in segments):
            raise ValueError("average='micro' needs counts: use aggregation 'best' or 'pooled'")
        weight = segments[0].stats.weight
        counts = np.array([[s.stats.hits, s.stats.hyp_total, s.stats.ref_total] for s in segments], dtype=float)
        point = score_stats(sum(s.stats for s in segments), beta=beta, variant=variant)
        summed = counts[draws].sum(axis=1)
        hits, hyp_total, ref_total = summed[:, 0], summed[:, 1], summed[:, 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(hyp_total > 0, (hits / np.where(hyp_total > 0, hyp_total, 1)) ** (1 / weight), 0.0)
            r = np.where(ref_total > 0, (hits / np.where(ref_total > 0, ref_total, 1)) ** (1 / weight), 0.0)
            b2 = beta * beta
            den = b2 * p + r
            f = np.where(den > 0, (1 + b2) * p * r / np.where(den > 0, den, 1), 0.0)
        estimates = np.stack([p, r, f], axis=1)
    tail = (1 - confidence) / 2 * 100
    lo, hi = np.percentile(estimates, [tail, 100 - tail], axis=0)
    return (
        point,
        RougeScore(float(lo[0]), float(lo[1]), float(lo[2]), variant, beta),
        RougeScore(float(hi[0]), float(hi[1]), float(hi[2]), variant, beta),
    )


def corpus_rouge(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    variant: str = "rouge1",
    *,
    average: str = "mean",
    n_samples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    **options: Any,
) -> RougeCorpusResult:
    """Corpus ROUGE with a seeded bootstrap confidence interval.

    ``options`` go to the sentence-level function (``stemmer``, ``tokenizer``, ``beta``, ``aggregation``,
    ``weight`` for ROUGE-W, ``max_skip`` for ROUGE-S/SU).

    >>> r = corpus_rouge(["the cat sat on the mat", "a quick brown fox"],
    ...                  [["the cat is on the mat"], ["the quick brown fox jumps"]], "rouge1", n_samples=200)
    >>> round(r.score.fmeasure, 4), round(r.score.recall, 4)
    (0.75, 0.7167)
    """
    check_choice("average", average, AVERAGES)
    segments = segment_scores(hypotheses, references, variant, **options)
    point, low, high = bootstrap_interval(segments, average, n_samples=n_samples, confidence=confidence, seed=seed)
    return RougeCorpusResult(point, low, high, average, float(confidence), n_samples, seed, tuple(segments))


__all__ = [
    "AGGREGATIONS",
    "CONVENTIONS",
    "TOKENIZERS",
    "RougeCorpusResult",
    "RougeScore",
    "RougeStats",
    "bootstrap_interval",
    "combine_references",
    "corpus_rouge",
    "f_measure",
    "get_scorer",
    "lcs_length",
    "lcs_path",
    "lcs_stats",
    "lcs_table",
    "ngram_counts",
    "ngram_stats",
    "rouge_l",
    "rouge_lsum",
    "rouge_n",
    "rouge_s",
    "rouge_scores",
    "rouge_scores_many",
    "rouge_su",
    "rouge_w",
    "score_stats",
    "segment_scores",
    "skip_bigram_counts",
    "skip_bigram_stats",
    "skip_bigrams",
    "split_sentences",
    "stem",
    "summary_lcs_stats",
    "tokenize",
    "tokenize_rouge_score",
    "tokenize_unicode",
    "union_lcs",
    "wlcs_hit_positions",
    "wlcs_stats",
    "wlcs_stats_rouge155",
    "wlcs_tables",
]
