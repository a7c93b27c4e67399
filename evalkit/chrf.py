"""chrF (Popović, 2015) and chrF++ (Popović, 2017): F-scores of character (and word) n-grams.

chrF compares the *character* n-grams of a hypothesis with those of a reference, for n = 1..6, so a
word that is almost right ("Katzen" for "Katze") still earns most of its n-grams.  For each order n:

- precision P_n = matched n-grams / hypothesis n-grams, recall R_n = matched n-grams / reference n-grams,
  where a matched count is clipped (an n-gram counts at most as often as the reference has it);
- the orders are averaged and combined into an F-score that weights recall ``beta`` times as much as
  precision:  F_beta = (1 + beta^2) P R / (beta^2 P + R).  chrF's default is beta = 2.

chrF++ (``word_order=2``) adds word unigrams and bigrams to the character n-grams, as extra orders.

As in :mod:`evalkit.bleu`, counting and scoring are kept apart: :func:`sentence_stats` counts
(:class:`CHRFStats`, additive), :func:`score_stats` scores, and corpus chrF is the score of the *summed*
statistics, not the mean of sentence scores.

    >>> r = sentence_chrf("the cat sat on the mat", ["the cat is on the mat"])
    >>> [(o.matches, o.hyp_len, o.ref_len) for o in r.orders[:2]], round(r.score, 4)
    ([(15, 17, 16), (12, 16, 15)], 0.6458)

The conventions are sacreBLEU's (2.6.0), which evalkit reproduces exactly:

- Characters: white space is removed before counting (``whitespace=True`` keeps it).
- Words (chrF++): the text is split on white space, then one punctuation mark is split off the end of
  each word, or else off its start: ``"(hi)"`` gives ``"(hi"`` and ``")"``.
- An order for which the reference has no n-gram counts no hypothesis n-grams either.
- Averaging (default): precision and recall are averaged over the orders where both the hypothesis and
  the reference have n-grams (an *effective order*, like sacreBLEU before 2.0), then combined into one F.
  ``eps_smoothing=True`` instead averages the per-order F-scores over all orders, with 1e-16 standing in
  for an undefined value: that is the original chrF++.py's, Moses' and NLTK's way.
- Several references: each segment keeps the statistics of the reference with the best sentence score
  (the first one on a tie).

NLTK's ``nltk.translate.chrf_score`` computes the same per-order F-scores as ``eps_smoothing=True``
(its default beta is 3, not 2), but its ``corpus_chrf`` is the *mean of sentence scores*, not the score
of summed statistics; it has no word n-grams and takes one reference per segment.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import __version__
from .fast import MB, BoundedCache, IdsOrMinusOne, ReferenceIndex, code_points, register_cache
from ._checks import (
    check_beta,
    check_bool,
    check_corpus,
    check_int,
    check_references,
    check_same_length,
    check_string,
    check_text,
)
from .protocol import AdditiveStats, Metric, common, f_score, register_metric, segment_count, setting

CHAR_ORDER = 6
WORD_ORDER = 0
BETA = 2
EPSILON = 1e-16  # stands in for an undefined precision, recall or F-score under eps_smoothing
PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")  # string.punctuation


# --------------------------------------------------------------------------------------------------------
# Preparing the text
# --------------------------------------------------------------------------------------------------------
def as_text(value: Any, what: str) -> str:
    """A text as a string: a string as it is, a sequence of tokens joined with spaces."""
    check_text(value, what)
    return value if isinstance(value, str) else " ".join(value)


def prepare(text: str, *, lowercase: bool = False) -> str:
    """Lowercase if asked; nothing else (white space is dealt with when n-grams are extracted)."""
    return text.lower() if check_bool("lowercase", lowercase) else text


def strip_whitespace(text: str) -> str:
    """The text with every white-space character removed: ``"the cat"`` -> ``"thecat"``."""
    return "".join(text.split())


def split_punctuation(text: str) -> list[str]:
    """Words for chrF++: split on white space, then split one punctuation mark off each word's end, or,
    if the end is not punctuation, off its start.

        >>> split_punctuation('He said: "(hi)" and left.')
        ['He', 'said', ':', '"(hi)', '"', 'and', 'left', '.']
    """
    words = []
    for word in text.split():
        if len(word) > 1 and word[-1] in PUNCTUATION:
            words += [word[:-1], word[-1]]
        elif len(word) > 1 and word[0] in PUNCTUATION:
            words += [word[0], word[1:]]
        else:
            words.append(word)
    return words


def char_ngrams(text: str, n: int, *, whitespace: bool = False) -> Counter:
    """The character n-grams of ``text`` with their counts (white space removed unless ``whitespace``);
    ``n`` >= 1 (there is no 0-gram to count).

        >>> char_ngrams("a cat", 2)
        Counter({'ac': 1, 'ca': 1, 'at': 1})
    """
    check_string(text, "text")
    check_int("n", n, 1)
    if not check_bool("whitespace", whitespace):
        text = strip_whitespace(text)
    return Counter(text[i : i + n] for i in range(len(text) - n + 1))


def word_ngrams(words: Sequence[str], n: int) -> Counter:
    """The word n-grams (as tuples) of a list of words, with their counts (``n`` >= 1)."""
    check_int("n", n, 1)
    return Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))


def all_ngrams(text: str, char_order: int, word_order: int, whitespace: bool) -> list[Counter]:
    """The n-gram counts of one text: character orders 1..char_order, then word orders 1..word_order."""
    counts = [char_ngrams(text, n, whitespace=whitespace) for n in range(1, char_order + 1)]
    if word_order:
        words = split_punctuation(text)
        counts += [word_ngrams(words, n) for n in range(1, word_order + 1)]
    return counts


def match_counts(hyp: Counter, ref: Counter) -> tuple[int, int, int]:
    """(hypothesis n-grams, reference n-grams, clipped matches) of one order.

    When the reference has no n-gram of this order, the hypothesis n-grams are not counted either
    (sacreBLEU's convention): the order then counts as absent on both sides.
    """
    ref_total = sum(ref.values())
    if not ref:
        return 0, ref_total, 0
    matches = sum(min(count, ref[g]) for g, count in hyp.items() if g in ref)
    return sum(hyp.values()), ref_total, matches


# --------------------------------------------------------------------------------------------------------
# Sufficient statistics
# --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CHRFStats(AdditiveStats):
    """Additive counts for one segment or a corpus (``a + b``, ``sum(list_of_stats)``).

    ``hyp_len[k]``, ``ref_len[k]`` (the hypothesis's and the reference's n-grams) and ``matches[k]`` belong
    to order k: the character orders 1..char_order
    first, then the word orders 1..word_order.  ``beta`` and ``eps_smoothing`` are the settings that
    chose the best reference of each segment (they matter only with several references).
    """

    hyp_len: tuple[int, ...]
    ref_len: tuple[int, ...]
    matches: tuple[int, ...]
    char_order: int = setting(CHAR_ORDER)
    word_order: int = setting(WORD_ORDER)
    segments: int = segment_count()
    nrefs: int | None = common(1)  # None when segments have different numbers of references
    lowercase: bool = setting(False)
    whitespace: bool = setting(False)
    beta: float = setting(BETA)
    eps_smoothing: bool = setting(False)



# --------------------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------------------
def chrf_percent(hyp: Sequence[int], ref: Sequence[int], matches: Sequence[int], beta: float, eps_smoothing: bool) -> float:
    """The chrF score on sacreBLEU's 0-100 scale, computed with sacreBLEU's arithmetic step for step (the
    best of several references is chosen on this number, so that ties fall exactly as in sacreBLEU).

    Default: average precision and recall over the orders where both sides have n-grams, then one F.
    ``eps_smoothing``: the mean over all orders of the per-order F, EPSILON standing in where undefined.
    """
    if eps_smoothing:
        total = 0.0
        for h, r, m in zip(hyp, ref, matches):
            p = m / h if h > 0 else EPSILON
            rec = m / r if r > 0 else EPSILON
            total += f_score(p, rec, beta) if beta * beta * p + rec > 0 else EPSILON
        return 100 * total / len(hyp)
    avg_p, avg_r, effective_order = average_precision_recall(hyp, ref, matches)
    if effective_order == 0 or avg_p + avg_r == 0:
        return 0.0
    return 100 * f_score(avg_p, avg_r, beta)


def average_precision_recall(hyp: Sequence[int], ref: Sequence[int], matches: Sequence[int]) -> tuple[float, float, int]:
    """(P, R, k): precision and recall averaged over the k orders where both sides have n-grams (0, 0, 0 when
    there is none), added up order by order as sacreBLEU adds them."""
    sum_p = sum_r = 0.0
    effective_order = 0
    for h, r, m in zip(hyp, ref, matches):
        if h > 0 and r > 0:
            sum_p += m / h
            sum_r += m / r
            effective_order += 1
    if effective_order == 0:
        return 0.0, 0.0, 0
    return sum_p / effective_order, sum_r / effective_order, effective_order


@dataclass(frozen=True)
class OrderScore:
    """One order's counts and scores: ``kind`` is ``"char"`` or ``"word"``; precision, recall and F are
    ``None`` where undefined (no hypothesis or no reference n-grams of this order)."""

    kind: str
    n: int
    hyp_len: int
    ref_len: int
    matches: int
    precision: float | None
    recall: float | None
    fmeasure: float | None

    def __repr__(self) -> str:
        return f"{self.kind}{self.n}:{self.matches}/{self.hyp_len}/{self.ref_len}"


@dataclass(frozen=True)
class CHRFResult:
    """An immutable chrF result. ``float(result)`` is the score, in [0, 1].

    ``orders`` lists every order (``chars`` and ``words`` split them by kind); ``precision`` and
    ``recall`` are the averages over the effective orders that the default score combines.
    """

    score: float
    orders: tuple[OrderScore, ...]
    precision: float
    recall: float
    beta: float
    eps_smoothing: bool
    signature: str
    stats: CHRFStats = field(repr=False)

    @property
    def chars(self) -> tuple[OrderScore, ...]:
        return tuple(o for o in self.orders if o.kind == "char")

    @property
    def words(self) -> tuple[OrderScore, ...]:
        return tuple(o for o in self.orders if o.kind == "word")

    @property
    def name(self) -> str:
        """sacreBLEU's name for the variant: chrF2, chrF2++ (one ``+`` per word order)."""
        # an integral beta as an int (chrF2), as sacreBLEU names it; a huge one as the float's repr (1e+20)
        beta = int(self.beta) if float(self.beta).is_integer() and abs(self.beta) < 1e16 else self.beta
        return f"chrF{beta}" + "+" * self.stats.word_order

    def __float__(self) -> float:
        return self.score

    def __repr__(self) -> str:
        return f"CHRFResult(score={self.score:.4f}, P={self.precision:.4f}, R={self.recall:.4f}, name={self.name})"


def signature(stats: CHRFStats, beta: float, eps_smoothing: bool) -> str:
    """A sacreBLEU-style signature: what a reader needs to reproduce the number."""
    return "|".join(
        [
            f"nrefs:{stats.nrefs if stats.nrefs is not None else 'var'}",
            f"case:{'lc' if stats.lowercase else 'mixed'}",
            f"eff:{'no' if eps_smoothing else 'yes'}",
            f"nc:{stats.char_order}",
            f"nw:{stats.word_order}",
            f"space:{'yes' if stats.whitespace else 'no'}",
            f"beta:{beta:g}",
            f"evalkit:{__version__}",
        ]
    )


def score_stats(stats: CHRFStats, *, beta: float | None = None, eps_smoothing: bool | None = None) -> CHRFResult:
    """Turn chrF statistics into a result; nothing is recounted.

    ``beta`` and ``eps_smoothing`` default to the ones the statistics were counted with (which chose
    the best of several references); another value re-scores the same counts.
    """
    if not isinstance(stats, CHRFStats):
        raise TypeError(f"stats must be CHRFStats, got {type(stats).__name__}")
    if beta is None:
        beta = stats.beta
    else:
        check_beta(beta)
    eps_smoothing = stats.eps_smoothing if eps_smoothing is None else check_bool("eps_smoothing", eps_smoothing)
    orders = []
    for k, (h, r, m) in enumerate(zip(stats.hyp_len, stats.ref_len, stats.matches)):
        kind, n = ("char", k + 1) if k < stats.char_order else ("word", k + 1 - stats.char_order)
        p = m / h if h else None
        rec = m / r if r else None
        orders.append(OrderScore(kind, n, h, r, m, p, rec, f_score(p, rec, beta) if p is not None and rec is not None else None))
    avg_p, avg_r, _ = average_precision_recall(stats.hyp_len, stats.ref_len, stats.matches)
    return CHRFResult(
        score=chrf_percent(stats.hyp_len, stats.ref_len, stats.matches, beta, eps_smoothing) / 100,
        orders=tuple(orders),
        precision=avg_p,
        recall=avg_r,
        beta=beta,
        eps_smoothing=eps_smoothing,
        signature=signature(stats, beta, eps_smoothing),
        stats=stats,
    )


# --------------------------------------------------------------------------------------------------------
# Counting
# --------------------------------------------------------------------------------------------------------
def _check_options(char_order, word_order, beta, lowercase, whitespace, eps_smoothing) -> None:
    check_int("char_order", char_order, 0)
    check_int("word_order", word_order, 0)
    if char_order + word_order == 0:
        raise ValueError("char_order and word_order are both 0; at least one n-gram order is needed")
    check_beta(beta)
    check_bool("lowercase", lowercase)
    check_bool("whitespace", whitespace)
    check_bool("eps_smoothing", eps_smoothing)


def best_reference_counts(
    hyp_ngrams: list[Counter], refs_ngrams: list[list[Counter]], beta: float, eps_smoothing: bool
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(hyp, ref, matches) per order against the reference whose sentence score is highest (first on a tie)."""
    best, best_score = None, -1.0
    for ref_ngrams in refs_ngrams:
        counts = [match_counts(h, r) for h, r in zip(hyp_ngrams, ref_ngrams)]
        hyp, ref, matches = (tuple(c[i] for c in counts) for i in range(3))
        value = chrf_percent(hyp, ref, matches, beta, eps_smoothing)
        if value > best_score:
            best, best_score = (hyp, ref, matches), value
    assert best is not None  # there is at least one reference
    return best


def _segment(hypothesis, references, settings: dict, where: str = "") -> CHRFStats:
    char_order, word_order = settings["char_order"], settings["word_order"]
    lowercase, whitespace = settings["lowercase"], settings["whitespace"]
    hyp = prepare(as_text(hypothesis, f"hypothesis{where}"), lowercase=lowercase)
    refs = check_references(references, f"references{where}")
    ref_texts = [prepare(as_text(r, f"references{where}[{j}]"), lowercase=lowercase) for j, r in enumerate(refs)]
    hyp_ngrams = all_ngrams(hyp, char_order, word_order, whitespace)
    refs_ngrams = [all_ngrams(r, char_order, word_order, whitespace) for r in ref_texts]
    hyp_counts, ref_counts, matches = best_reference_counts(
        hyp_ngrams, refs_ngrams, settings["beta"], settings["eps_smoothing"]
    )
    return CHRFStats(hyp_counts, ref_counts, matches, segments=1, nrefs=len(refs), **settings)


def sentence_stats(
    hypothesis: str | Sequence[str],
    references: Sequence[str | Sequence[str]],
    *,
    char_order: int = CHAR_ORDER,
    word_order: int = WORD_ORDER,
    beta: float = BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> CHRFStats:
    """The statistics of one segment: a string (or tokens, joined with spaces) against its references."""
    _check_options(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
    settings = dict(char_order=char_order, word_order=word_order, lowercase=lowercase, whitespace=whitespace,
                    beta=beta, eps_smoothing=eps_smoothing)
    return _segment(hypothesis, references, settings)


def segment_stats(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    *,
    char_order: int = CHAR_ORDER,
    word_order: int = WORD_ORDER,
    beta: float = BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    fast: bool = True,
) -> list[CHRFStats]:
    """One :class:`CHRFStats` per segment; ``references[i]`` lists the references of ``hypotheses[i]``.

    ``fast=False`` counts segment by segment with the functions above (:func:`all_ngrams`,
    :func:`best_reference_counts`); ``fast=True`` counts the whole corpus at once with integer n-gram tables
    (:func:`chrf_segment_counts`, in "the fast way" below).  Both give the same statistics.
    """
    _check_options(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
    fast = check_bool("fast", fast)
    check_corpus("hypotheses", hypotheses)
    check_corpus("references", references)
    check_same_length(hypotheses=hypotheses, references=references)
    settings = dict(char_order=char_order, word_order=word_order, lowercase=lowercase, whitespace=whitespace,
                    beta=beta, eps_smoothing=eps_smoothing)
    if fast:
        per_segment = _fast_counts(hypotheses, references, settings).transpose(2, 1, 0).tolist()
        return [CHRFStats(tuple(h), tuple(r), tuple(m), nrefs=len(refs), **settings)  # [hyp, ref, matches][order]
                for (h, r, m), refs in zip(per_segment, references)]
    return [_segment(h, r, settings, where=f"[{i}]") for i, (h, r) in enumerate(zip(hypotheses, references))]


def corpus_stats(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    *,
    char_order: int = CHAR_ORDER,
    word_order: int = WORD_ORDER,
    beta: float = BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    fast: bool = True,
) -> CHRFStats:
    """The summed statistics of a corpus: equal to ``sum(segment_stats(...))``.

    ``fast=False`` adds up :func:`segment_stats`, the readable way; ``fast=True`` sums the table of
    :func:`chrf_segment_counts` (cached reference n-grams as integers).  Both give the same statistics.
    """
    options = dict(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
                   whitespace=whitespace, eps_smoothing=eps_smoothing)
    fast = check_bool("fast", fast)
    if not fast:
        return sum(segment_stats(hypotheses, references, fast=False, **options))
    _check_options(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
    check_corpus("hypotheses", hypotheses)
    check_corpus("references", references)
    check_same_length(hypotheses=hypotheses, references=references)
    table = _fast_counts(hypotheses, references, options)
    counts = set(map(len, references))
    hyp, ref, matches = (tuple(int(x) for x in table[:, i, :].sum(axis=1)) for i in range(3))
    return CHRFStats(hyp, ref, matches, segments=len(hypotheses), nrefs=counts.pop() if len(counts) == 1 else None,
                     **options)


# --------------------------------------------------------------------------------------------------------
# Counting, the fast way (fast=True): a whole corpus at once, with integers
# --------------------------------------------------------------------------------------------------------
# The same counts as the readable functions above, for every segment of a corpus at once (the tests prove
# them equal).  Every character becomes its code point and every chrF++ word an integer id; the n-grams of
# all references then become tables of integers (evalkit.fast.ReferenceIndex, the n-gram index BLEU counts
# with too), and every hypothesis of the corpus is matched against them with sorted numpy arrays.  The
# reference side is kept in a cache, keyed by the reference texts and the settings: scoring 16 systems
# against one reference counts the reference once.  Each (segment, reference) pair is one row; with several
# references, each segment keeps the row of its best reference, as the readable best_reference_counts does.


def split_punctuation_fast(text: str) -> list[str]:
    """The same words as :func:`split_punctuation` (tuples extended in place, fewer lookups)."""
    words = []
    punctuation = PUNCTUATION
    for word in text.split():
        if len(word) > 1:
            if word[-1] in punctuation:
                words += (word[:-1], word[-1])
                continue
            if word[0] in punctuation:
                words += (word[0], word[1:])
                continue
        words.append(word)
    return words


def _word_units(texts, lookup):
    """Word ids (``lookup``'s; -1 for a word it lacks) of the concatenated texts' chrF++ words, and the
    number of words of each text."""
    import numpy as np
    from itertools import chain

    rows = list(map(split_punctuation_fast, texts))
    flat = list(chain.from_iterable(rows))
    return (np.fromiter(map(lookup.__getitem__, flat), dtype=np.int64, count=len(flat)),
            np.fromiter(map(len, rows), dtype=np.int64, count=len(rows)))


class ChrfReferences:
    """The reference side of chrF for a corpus: one row per (segment, reference), its character n-grams
    and (chrF++) word n-grams as :class:`evalkit.fast.ReferenceIndex` tables."""

    def __init__(self, ref_texts, char_order, word_order, lowercase, whitespace):
        import numpy as np
        from itertools import chain

        self.row_segment = np.repeat(np.arange(len(ref_texts)), [len(refs) for refs in ref_texts])
        rows = [t.lower() if lowercase else t for refs in ref_texts for t in refs]
        self.nrefs = [len(refs) for refs in ref_texts]
        chars = rows if whitespace else ["".join(t.split()) for t in rows]
        points, self.char_lengths = code_points(chars)
        self.chars = ReferenceIndex.of_units(points, self.char_lengths, char_order) if char_order else None
        self.words = self.lookup = None
        if word_order:
            words = chain.from_iterable(map(split_punctuation_fast, rows))
            self.lookup = IdsOrMinusOne((w, i) for i, w in enumerate(dict.fromkeys(words)))
            ids, self.word_lengths = _word_units(rows, self.lookup)
            self.words = ReferenceIndex.of_units(ids, self.word_lengths, word_order)

    def nbytes(self) -> int:
        """Approximate bytes: the numpy arrays, and the word lookup (a dict entry and a string head per
        word; the words' characters are the references' own)."""
        size = self.row_segment.nbytes + self.char_lengths.nbytes
        size += sum(index.nbytes() for index in (self.chars, self.words) if index is not None)
        if self.lookup is not None:
            size += self.word_lengths.nbytes + sys.getsizeof(self.lookup) + 60 * len(self.lookup)
        return size


CHRF_REFERENCES_BUDGET = 512 * MB
_CHRF_REFERENCES = register_cache(BoundedCache("chrF references", CHRF_REFERENCES_BUDGET, largest_share=0.5))


def chrf_references(ref_texts, *settings) -> ChrfReferences:
    """The reference side of a corpus, cached by its texts and settings (least recently used first out,
    bounded by :data:`CHRF_REFERENCES_BUDGET` bytes; thread-safe: built outside the lock and published
    finished, so a race only builds it twice)."""
    key = (tuple(ref_texts), *settings)
    found = _CHRF_REFERENCES.get(key)
    if found is None:
        found = ChrfReferences(ref_texts, *settings)
        # the key keeps the reference texts alive too: count them
        key_bytes = sys.getsizeof(key[0]) + sum(sys.getsizeof(refs) + sum(map(sys.getsizeof, refs)) for refs in key[0])
        _CHRF_REFERENCES.put(key, found, found.nbytes() + key_bytes)
    return found


def chrf_segment_counts(hyp_texts, ref_texts, char_order, word_order, lowercase, whitespace, beta, eps_smoothing):
    """The chrF counts of every segment as an int array [order, (hyp, ref, matches), segment]: the same
    numbers as the readable :func:`segment_stats`.  ``ref_texts[i]`` is a tuple of reference strings; with
    several, the one with the best sentence score (:func:`chrf_percent` with ``beta`` and
    ``eps_smoothing``) is kept, the first on a tie."""
    import numpy as np

    refs = chrf_references(ref_texts, char_order, word_order, lowercase, whitespace)
    seg = refs.row_segment
    hyps = [t.lower() if lowercase else t for t in hyp_texts]
    rows = hyps if len(seg) == len(hyps) else [hyps[s] for s in seg.tolist()]
    per_order = []  # (hyp, ref, matches) arrays per order, one value per row
    if char_order:
        chars = rows if whitespace else ["".join(t.split()) for t in rows]
        points, lengths = code_points(chars)
        matched = refs.chars.unit_matches(points, lengths)
        for n in range(1, char_order + 1):
            ref_n = np.maximum(refs.char_lengths - n + 1, 0)
            hyp_n = np.where(ref_n > 0, np.maximum(lengths - n + 1, 0), 0)  # match_counts' rule
            per_order.append((hyp_n, ref_n, matched[n - 1]))
    if word_order:
        ids, lengths = _word_units(rows, refs.lookup)
        matched = refs.words.unit_matches(ids, lengths)
        for n in range(1, word_order + 1):
            ref_n = np.maximum(refs.word_lengths - n + 1, 0)
            hyp_n = np.where(ref_n > 0, np.maximum(lengths - n + 1, 0), 0)
            per_order.append((hyp_n, ref_n, matched[n - 1]))
    table = np.stack([np.stack(triple) for triple in per_order])  # order x (hyp, ref, matches) x row
    if len(seg) == len(hyps):  # one reference per segment: nothing to choose
        return table
    chosen = []
    start = 0
    for k in refs.nrefs:
        best, best_score = start, -1.0
        for r in range(start, start + k):
            h, rf, m = (table[:, i, r].tolist() for i in range(3))
            score = chrf_percent(h, rf, m, beta, eps_smoothing)
            if score > best_score:
                best, best_score = r, score
        chosen.append(best)
        start += k
    return table[:, :, chosen]


def _fast_counts(hypotheses, references, settings):
    """:func:`chrf_segment_counts` of checked inputs and settings."""
    hyp_texts, ref_texts = _validated_texts(hypotheses, references)
    return chrf_segment_counts(hyp_texts, ref_texts, settings["char_order"], settings["word_order"],
                               settings["lowercase"], settings["whitespace"], settings["beta"],
                               settings["eps_smoothing"])


def _validated_texts(hypotheses, references) -> tuple[list[str], list[tuple[str, ...]]]:
    """Strings for the fast path (tokens joined with spaces), checked with the same messages."""
    hyp_texts = list(hypotheses) if all(type(h) is str for h in hypotheses) else [
        as_text(h, f"hypothesis[{i}]") for i, h in enumerate(hypotheses)
    ]
    ref_texts = []
    for i, refs in enumerate(references):
        if type(refs) is list and refs and all(type(r) is str for r in refs):
            ref_texts.append(tuple(refs))
        else:
            refs = check_references(refs, f"references[{i}]")
            ref_texts.append(tuple(as_text(r, f"references[{i}][{j}]") for j, r in enumerate(refs)))
    return hyp_texts, ref_texts


# --------------------------------------------------------------------------------------------------------
# The public scores
# --------------------------------------------------------------------------------------------------------
def sentence_chrf(
    hypothesis: str | Sequence[str],
    references: Sequence[str | Sequence[str]],
    *,
    char_order: int = CHAR_ORDER,
    word_order: int = WORD_ORDER,
    beta: float = BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> CHRFResult:
    """chrF of one hypothesis against its references (hypothesis first, then a list of references).

        >>> round(sentence_chrf("the cat sat on the mat", ["the cat is on the mat"], word_order=2).score, 4)
        0.6636
    """
    stats = sentence_stats(hypothesis, references, char_order=char_order, word_order=word_order, beta=beta,
                           lowercase=lowercase, whitespace=whitespace, eps_smoothing=eps_smoothing)
    return score_stats(stats)


def corpus_chrf(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    *,
    char_order: int = CHAR_ORDER,
    word_order: int = WORD_ORDER,
    beta: float = BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    fast: bool = True,
) -> CHRFResult:
    """Corpus chrF: the score of the *summed* statistics of all segments (not the mean of sentence scores).

    ``references[i]`` is the list of references of ``hypotheses[i]`` (segment-major, as in
    :func:`evalkit.bleu.corpus_bleu`); sacreBLEU takes the transpose, one list per reference set.

    The steps, for ``fast=False`` exactly as written (:func:`segment_stats`, then :func:`score_stats`):

    1. For each segment, the n-grams of the hypothesis and of every reference: characters of orders
       1..char_order, white space removed, then (chrF++) words of orders 1..word_order (:func:`all_ngrams`).
    2. For each order n, the hypothesis n-grams, the reference n-grams and the clipped matches
       (:func:`match_counts`), against the segment's best reference (:func:`best_reference_counts`).
    3. Add these counts up over the corpus (:class:`CHRFStats` are additive).
    4. Score the sums (:func:`score_stats`, whose arithmetic is :func:`chrf_percent`): per order
       P_n = matches_n / hyp_n and R_n = matches_n / ref_n; P and R are their averages over the orders
       where both are defined, and

           chrF = (1 + beta^2) P R / (beta^2 P + R)

    ``fast=True`` (the default) gets the sums of steps 1-3 for the whole corpus at once from integer n-gram
    tables (:func:`chrf_segment_counts`, "the fast way" above); the tests prove both give the same counts.

        >>> round(corpus_chrf(["the cat sat on the mat", "a dog"], [["the cat is on the mat"], ["a dog"]]).score, 4)
        0.6647
    """
    options = dict(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
                   whitespace=whitespace, eps_smoothing=eps_smoothing)
    fast = check_bool("fast", fast)
    if fast:  # the same sums, from the whole-corpus integer tables
        stats = corpus_stats(hypotheses, references, fast=True, **options)
    else:  # steps 1-3, one segment at a time
        stats = sum(segment_stats(hypotheses, references, fast=False, **options))
    return score_stats(stats)  # step 4


# --------------------------------------------------------------------------------------------------------
# The metric protocol (evalkit.protocol): what significance tests and bootstraps use
# --------------------------------------------------------------------------------------------------------
# A row is CHRFStats.row(): hyp_1..K, ref_1..K, matches_1..K, K = char_order + word_order.
METRIC_OPTIONS = frozenset({"char_order", "word_order", "beta", "lowercase", "whitespace", "eps_smoothing"})


def _settings(options: dict) -> dict:
    return dict(char_order=options.get("char_order", CHAR_ORDER), word_order=options.get("word_order", WORD_ORDER),
                beta=options.get("beta", BETA), lowercase=options.get("lowercase", False),
                whitespace=options.get("whitespace", False), eps_smoothing=options.get("eps_smoothing", False))


def corpus_rows(corpora: Sequence[Sequence[Any]], references: Sequence[Any], options: dict, fast: bool = True) -> list:
    """:func:`segment_stats` of each corpus as an int64 matrix, a row per segment (it checks the options)."""
    import numpy as np

    settings = _settings(options)
    per_corpus = [segment_stats(c, references, fast=fast, **settings) for c in corpora]  # checks the options
    k = settings["char_order"] + settings["word_order"]
    return [np.array([s.row() for s in stats], dtype=np.int64).reshape(len(stats), 3 * k) for stats in per_corpus]


def score_row(row: Sequence[int], options: dict) -> float:
    """The readable way: the summed row as :class:`CHRFStats`, scored by :func:`score_stats`."""
    return score_stats(CHRFStats.from_row([int(x) for x in row], **_settings(options))).score


def check_float32_beta(beta: float) -> None:
    """sacreBLEU's float32 chrF holds beta^2 as a float32 (numpy rounds the Python float), which overflows
    for beta above sqrt(3.4e38), about 1.8e19: every resampled score would be NaN (and a paired test would
    still print a p-value).  Such a beta is refused with a ValueError in float32 mode.

        >>> check_float32_beta(1e19)
        >>> check_float32_beta(2e19)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: sacrebleu_float32=True: ... beta ** 2 = 4e+38 overflows (... beta must be below about 1.8e+19) ...
    """
    import numpy as np

    with np.errstate(over="ignore"):
        square = np.float32(beta * beta)
    if not np.isfinite(square):
        limit = float(np.finfo(np.float32).max)
        raise ValueError(
            f"sacrebleu_float32=True: sacreBLEU computes chrF in float32, where beta ** 2 = {beta * beta:.3g} "
            f"overflows (float32 holds at most {limit:.2g}: beta must be below about {math.sqrt(limit):.2g}) and "
            "every score would be NaN; use a smaller beta, or sacrebleu_float32=False for exact float64 scores"
        )


def score_rows(rows, options: dict, float32: bool = False):
    """:func:`chrf_percent` of many summed rows at once (numpy), operation for operation (the same floats;
    tests/test_chrf.py proves it), divided by 100.

    ``float32=True``: sacreBLEU's float32 percentages (not divided by 100).  sacreBLEU scores resampled
    statistics held as float32 numpy numbers, so every division, sum and product of its ``_compute_f_score``
    is a float32 operation (numpy rounds the Python constants beta^2 and 1 + beta^2 to float32 first).  Not
    offered with ``eps_smoothing`` (there sacreBLEU mixes float32 with float64 constants order by order):
    ``None``.  A beta whose square overflows float32 (above about 1.8e19) is refused
    (:func:`check_float32_beta`).
    """
    import numpy as np

    settings = _settings(options)
    k = settings["char_order"] + settings["word_order"]
    beta = settings["beta"]
    if float32 and settings["eps_smoothing"]:
        return None
    if float32:
        check_float32_beta(beta)
    dtype = np.float32 if float32 else np.float64
    hyp, ref, matches = (rows[:, i * k : (i + 1) * k].astype(dtype) for i in range(3))
    safe_hyp, safe_ref = np.where(hyp > 0, hyp, 1), np.where(ref > 0, ref, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        if settings["eps_smoothing"]:  # the mean over all orders of the per-order F
            total = np.zeros(len(rows))
            for i in range(k):
                p = np.where(hyp[:, i] > 0, matches[:, i] / safe_hyp[:, i], EPSILON)
                r = np.where(ref[:, i] > 0, matches[:, i] / safe_ref[:, i], EPSILON)
                total = total + np.where(beta * beta * p + r > 0, f_score(p, r, beta), EPSILON)
            return 100 * total / k / 100
        # Precision and recall averaged over the orders where both sides have n-grams, then one F.
        sum_p, sum_r = np.zeros(len(rows), dtype=dtype), np.zeros(len(rows), dtype=dtype)
        effective = np.zeros(len(rows), dtype=np.int64)
        for i in range(k):
            both = (hyp[:, i] > 0) & (ref[:, i] > 0)
            sum_p = np.where(both, sum_p + matches[:, i] / safe_hyp[:, i], sum_p)
            sum_r = np.where(both, sum_r + matches[:, i] / safe_ref[:, i], sum_r)
            effective += both
        n = np.where(effective > 0, effective, 1).astype(dtype)
        avg_p, avg_r = sum_p / n, sum_r / n
        f = f_score(avg_p, avg_r, beta)
        zero = (effective == 0) | (avg_p + avg_r == 0)
    if float32:
        return np.where(zero, np.float32(0), np.float32(100) * f)  # sacreBLEU's percentages, float32
    return np.where(zero, 0.0, 100 * f) / 100


METRIC = register_metric(Metric("chrf", METRIC_OPTIONS, corpus_rows, score_row, score_rows, float32_scale=100.0))


__all__ = [
    "BETA",
    "CHAR_ORDER",
    "CHRFResult",
    "CHRFStats",
    "EPSILON",
    "OrderScore",
    "WORD_ORDER",
    "all_ngrams",
    "best_reference_counts",
    "char_ngrams",
    "check_float32_beta",
    "chrf_percent",
    "corpus_chrf",
    "corpus_rows",
    "corpus_stats",
    "average_precision_recall",
    "match_counts",
    "score_row",
    "score_rows",
    "score_stats",
    "segment_stats",
    "sentence_chrf",
    "sentence_stats",
    "signature",
    "split_punctuation",
    "strip_whitespace",
    "word_ngrams",
]
