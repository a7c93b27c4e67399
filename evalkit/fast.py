"""Fast engines: metric-agnostic second implementations of the slow steps, and the caches they keep.

The readable code in ``bleu.py``, ``rouge.py``, ``lcs.py`` and ``ngrams.py`` is what the lessons show.
What is here computes the same things with a few ideas (lessons 09 and 10 explain them):

1. **Cache what repeats.**  When 16 systems are scored against one reference, the reference n-grams are
   the same every time: count them once and keep them (least-recently-used caches keyed by the text,
   each bounded by an approximate byte budget and safe to share between threads: :class:`BoundedCache`;
   together bounded by one overall cap, 1 GiB unless :func:`set_total_cache_budget` or the environment
   variable ``EVALKIT_CACHE_BUDGET`` says otherwise).
2. **Let C loops do the work.**  The C loop behind ``Counter`` counts all n-grams of one order in one
   call; set operations find shared n-grams; big-integer arithmetic runs a whole column of the LCS table at once.
3. **Count with integers instead of strings.**  Every token (or character), then every n-gram, gets an
   integer id, and a whole corpus is matched at once with sorted numpy arrays (:class:`ReferenceIndex`,
   the one n-gram index BLEU, ROUGE-N and chrF count with).

Nothing here knows a metric: this module imports no metric module.  Each metric module owns its ``fast=``
switch and assembles its statistics from these engines (what only one metric uses lives beside it: chrF's
in ``chrf.py``, TER's in ``ter_fast.py``).  Sections: a cache bounded by memory; one cap over all the
caches; cached tokenizers; n-gram counts; the integer n-gram index; text profiles (tokens and what is
derived from them); bit-parallel LCS; packed sums; bootstrap draws in chunks; texts as integer units (code
points); the caches (:func:`cache_info`, :func:`clear_caches`, also reachable as ``evalkit.cache_info()``
and ``evalkit.clear_caches()``).
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from ._checks import cache_budget_from_environment, check_bool, check_int, parse_budget  # noqa: F401 (parse_budget: here too)
from .tokenize import (TEXT_CACHE_PART, cached_functions, check_tokenize, get_tokenizer, set_text_cache_budget, stem,
                       text_cache_budget, tokenize_13a_fast, tokenize_rouge_score_fast, tokens_nbytes)

MB = 2**20
GiB = 2**30


# --------------------------------------------------------------------------------------------------------
# A cache bounded by memory, safe to share between threads
# --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CacheInfo:
    """What one cache holds: ``entries``, approximately ``nbytes`` bytes (``None`` where the cache counts
    entries only), out of a ``budget`` of bytes (for an entries-only cache: the most it can hold)."""

    entries: int
    nbytes: int | None
    budget: int | None


_MISSING = object()  # what a cache lookup finds when nothing is kept (None can be a value)


class BoundedCache:
    """A least-recently-used cache bounded by an approximate number of bytes, safe to share between threads.

    Each entry is stored with its approximate size (the caller estimates it: see :func:`tokens_bytes`).  When
    the total exceeds ``budget``, the least recently used entries go; an entry larger than
    ``largest_share`` of the budget is not kept at all (one huge input must not push out everything else).
    Every read and write holds one lock, so no thread sees the cache half-changed; values themselves are
    published finished, in one step (a value found here is never still being built).

    ``capped=True`` (evalkit's own caches, and every cache passed to :func:`register_cache`): the cache also
    counts against the one overall cap of all such caches together (:func:`set_total_cache_budget`).

    >>> cache = BoundedCache("demo", budget=100, largest_share=0.5)
    >>> for key in "abc":
    ...     _ = cache.put(key, f"value of {key}", nbytes=40)  # the third goes over budget: "a" goes
    >>> cache.get("a"), cache.get("b")
    (None, 'value of b')
    >>> _ = cache.put("big", "too large to keep", nbytes=60)  # more than half the budget: not kept
    >>> cache.get("big"), cache.info()
    (None, CacheInfo(entries=2, nbytes=80, budget=100))
    """

    def __init__(self, name: str, budget: int, largest_share: float = 0.25, *, capped: bool = False):
        self.name = name
        self.budget = budget
        self.largest_share = largest_share
        self.capped = capped
        # key -> value, oldest first; and key -> approximate bytes.  Two dicts rather than one of [value,
        # bytes] pairs: a pair per entry would be one more object for Python's garbage collector to walk.
        self._values: OrderedDict = OrderedDict()
        self._sizes: dict = {}
        self._nbytes = 0
        self._lock = threading.Lock()

    def get(self, key, default=None):
        """The value kept under ``key`` (now the most recently used), or ``default``."""
        with self._lock:
            value = self._values.get(key, _MISSING)
            if value is _MISSING:
                return default
            self._values.move_to_end(key)
            return value

    def _limit(self) -> int:
        """The bytes this cache may hold: its budget, and for a capped cache the overall cap too."""
        return min(self.budget, _capped_budget) if self.capped else self.budget

    def _count(self, nbytes: int) -> None:
        """Count ``nbytes`` more (or fewer) held, here and, for a capped cache, in the overall total.
        Called with this cache's lock held."""
        self._nbytes += nbytes
        if self.capped:
            _count_held(nbytes)

    def put(self, key, value, nbytes: int):
        """Keep ``value`` under ``key``, counted as ``nbytes`` bytes, and return it.  A value larger than
        ``largest_share`` of the budget (or of the overall cap, if lower) is returned without being kept."""
        if nbytes > self._limit() * self.largest_share:
            return value
        with self._lock:
            self._count(nbytes - self._sizes.get(key, 0))
            self._values.pop(key, None)  # a key put again becomes the most recently used
            self._values[key] = value
            self._sizes[key] = nbytes
            if self._nbytes > self.budget:
                self._shrink()
        if self.capped and _held > _capped_budget:
            enforce_total_budget()
        return value

    def grow(self, key, value, nbytes: int) -> None:
        """Count ``nbytes`` more for the entry ``key`` if it still holds ``value`` (something derived
        from the value was kept with it); evict as needed, the entry itself too if it got too large."""
        with self._lock:
            if self._values.get(key, _MISSING) is not value:
                return
            size = self._sizes[key] = self._sizes[key] + nbytes
            self._count(nbytes)
            if size > self._limit() * self.largest_share:
                del self._values[key]
                del self._sizes[key]
                self._count(-size)
            if self._nbytes > self.budget:
                self._shrink()
        if self.capped and _held > _capped_budget:
            enforce_total_budget()

    def _shrink(self) -> None:
        while self._nbytes > self.budget and self._values:
            key, _ = self._values.popitem(last=False)
            self._count(-self._sizes.pop(key))

    def evict_oldest(self) -> bool:
        """Forget the least recently used entry; ``False`` if there was none."""
        with self._lock:
            if not self._values:
                return False
            key, _ = self._values.popitem(last=False)
            self._count(-self._sizes.pop(key))
            return True

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._values.clear()
            self._sizes.clear()
            self._count(-self._nbytes)

    def info(self) -> CacheInfo:
        """Entries, approximate bytes and budget."""
        with self._lock:
            return CacheInfo(len(self._values), self._nbytes, self.budget)

    def __len__(self) -> int:
        return len(self._values)


# --------------------------------------------------------------------------------------------------------
# One cap over all of evalkit's byte-counted caches together
# --------------------------------------------------------------------------------------------------------
# Each cache has its own budget (256 MB per cached tokenizer, 512 MB each for text profiles, reference
# indexes and chrF's references: about 3.5 GiB together once a few tokenizers are used), and a long session
# could fill them all.  One overall cap bounds their sum: when a put takes the total over it, the cache
# holding the most bytes gives back its least recently used entries until the total fits again.
#
# The default, 1 GiB, holds a large working set with room to spare (measured when the cap was set: WMT17
# en-de, 16 systems x 3,004 segments, BLEU under the tokenizers 13a, intl, none and char, then chrF++ and
# ROUGE-1/2/L, left 0.51 GiB in the caches), and keeps a notebook kernel within a laptop's or a CI
# runner's memory (GitHub's standard Linux runners have 7 GB for everything).  Change it with
# set_total_cache_budget(bytes), or set the environment variable EVALKIT_CACHE_BUDGET (bytes, or a number
# with K, M or G: "512M", "2G"), read once, at import.  The caches of evalkit.tokenize (the slow tokenizers'
# and the stemmer's, by text) count their bytes too, and hold together at most 1/TEXT_CACHE_PART of the cap
# (tokenize.set_text_cache_budget; the 44,821 texts of WMT17 en-de in the 13a cache: 59 MiB measured,
# 97 MB counted, a bound); the caches here share the rest, so that all of them together stay within the one cap.
DEFAULT_TOTAL_CACHE_BUDGET = GiB
_total_budget = cache_budget_from_environment()  # the overall cap, in bytes
_capped_budget = _total_budget - _total_budget // TEXT_CACHE_PART  # what the BoundedCaches share
set_text_cache_budget(_total_budget // TEXT_CACHE_PART)
_held = 0  # bytes held by the capped caches together
_HELD_LOCK = threading.Lock()  # guards _held; taken while a cache's own lock is held, never the other way
_TOTAL_LOCK = threading.Lock()  # one thread at a time brings the total down (it takes caches' locks one by one)


def _count_held(nbytes: int) -> None:
    global _held
    with _HELD_LOCK:
        _held += nbytes


def enforce_total_budget() -> None:
    """Bring the bytes of the capped caches together down to their part of the overall cap (the rest is the
    tokenizer caches' of :mod:`evalkit.tokenize`): the cache holding the most
    gives back its least recently used entry, again and again.  Thread-safe."""
    with _TOTAL_LOCK:
        caches = [c for c in bounded_caches().values() if c.capped]
        while _held > _capped_budget:
            if not max(caches, key=lambda c: c._nbytes).evict_oldest():
                break


def total_cache_budget() -> int:
    """The overall cap, in bytes, of evalkit's byte-counted caches together."""
    return _total_budget


def set_total_cache_budget(nbytes: int) -> int:
    """Set the overall cap of evalkit's byte-counted caches together (bytes, an int >= 0; 0 keeps nothing)
    and return the previous one.  Entries over the new cap are forgotten at once.

    >>> previous = set_total_cache_budget(256 * MB)
    >>> total_cache_budget() == 256 * MB, cache_info(memory=True)["total"].budget == 256 * MB
    (True, True)
    >>> _ = set_total_cache_budget(previous)
    """
    global _total_budget, _capped_budget
    nbytes = check_int("nbytes", nbytes, 0)
    previous, _total_budget = _total_budget, nbytes
    _capped_budget = nbytes - nbytes // TEXT_CACHE_PART
    set_text_cache_budget(nbytes // TEXT_CACHE_PART)
    enforce_total_budget()
    return previous


# Approximate sizes, from sys.getsizeof of the containers and what only they hold, in constant time (a
# cache must not spend on measuring what it saves).  Strings shared with other structures (an n-gram table
# holds the tokens' own strings) are not counted again.
_STR = sys.getsizeof("")  # a str object without its characters (an ASCII character takes one byte more)


def tokens_bytes(tokens: tuple[str, ...], text: str | None = None) -> int:
    """Bytes of a tuple of tokens: the tuple, a string per token, and their characters (at most those of the
    ``text`` they came from, counted at its widest character's width: :func:`evalkit.tokenize.tokens_nbytes`;
    8 per token without a text)."""
    if text is None:
        return sys.getsizeof(tokens) + (_STR + 8) * len(tokens)
    return tokens_nbytes(tokens, text)


def grams_bytes(container, n: int, joined: bool = False) -> int:
    """Bytes of a set or dict of n-grams (tuples of n shared tokens; for n = 1 the shared tokens; with
    ``joined``, for n >= 2, one new string per n-gram, about 8 characters per token)."""
    size = sys.getsizeof(container)
    if n == 1:
        return size
    return size + len(container) * ((_STR if joined else _TUPLE) + 8 * n)


_TUPLE = sys.getsizeof(())  # a tuple without its items (8 bytes each)




# --------------------------------------------------------------------------------------------------------
# Cached tokenizers returning tuples
# --------------------------------------------------------------------------------------------------------
TOKEN_CACHE_BUDGET = 256 * MB  # per tokenizer
_FAST_TOKENIZERS: dict[str, object] = {}
_TOKEN_CACHES: dict[str, BoundedCache] = {}


def cached_tokenizer(name: str):
    """The tokenizer called ``name`` returning a tuple, cached by text (a :class:`BoundedCache` per
    tokenizer); 13a and rouge-score use their fast implementations (:mod:`evalkit.tokenize` proves them
    equal to the readable ones; 13a keeps its own cache there)."""
    found = _FAST_TOKENIZERS.get(name) if type(name) is str else None
    if found is not None:
        return found
    check_tokenize(name)
    if name == "13a":
        return _FAST_TOKENIZERS.setdefault(name, tokenize_13a_fast)
    split = tokenize_rouge_score_fast if name == "rouge-score" else get_tokenizer(name)
    cache = _TOKEN_CACHES.setdefault(name, BoundedCache(f"cached tokenizer {name}", TOKEN_CACHE_BUDGET, capped=True))

    def tokens_of(text: str) -> tuple[str, ...]:
        tokens = cache.get(text)
        if tokens is None:
            tokens = tuple(split(text))
            cache.put(text, tokens, sys.getsizeof(text) + tokens_bytes(tokens, text))
        return tokens

    # setdefault: two threads asking at once share one function (and so one cache)
    return _FAST_TOKENIZERS.setdefault(name, tokens_of)


def as_tuple(text, split, lowercase: bool) -> tuple[str, ...]:
    """A string tokenized by the function ``split`` (a cached tokenizer), or a token sequence used as it is."""
    if isinstance(text, str):
        return split(text.lower() if lowercase else text)
    return tuple(t.lower() for t in text) if lowercase else tuple(text)


# --------------------------------------------------------------------------------------------------------
# n-gram counting, one dict of counts per order
# --------------------------------------------------------------------------------------------------------
def clipped_total(hyp: dict, ref: dict, once: bool = False) -> int:
    """sum over shared n-grams of min(hyp count, ref count), with the loops in C.  With ``once`` (every
    n-gram occurs once on at least one side) each minimum is 1: the number of shared n-grams."""
    shared = hyp.keys() & ref.keys()
    if once:
        return len(shared)
    return sum(map(min, map(hyp.__getitem__, shared), map(ref.__getitem__, shared)))


try:  # the C loop behind Counter.update, without Counter's Python-level bookkeeping around it
    from _collections import _count_elements
except ImportError:  # pragma: no cover - other Python implementations

    def _count_elements(mapping, iterable):
        for item in iterable:
            mapping[item] = mapping.get(item, 0) + 1


# rouge-score's tokens are runs of [a-z0-9] (stemmed or not), so they never hold a space: for them an
# n-gram is kept as its tokens joined by spaces, one string (strings are not tracked by the garbage
# collector, tuples are until it has looked at them once).  Other tokenizers keep tuples of tokens.
JOINED_NGRAM_TOKENIZERS = frozenset({"rouge-score"})


def _grams_of(tokens, n: int, joined: bool):
    """The n-grams of ``tokens`` in order, as tuples or (``joined``) as space-joined strings."""
    grams = zip(tokens, tokens[1:]) if n == 2 else zip(*[tokens[i:] for i in range(n)])
    return map(" ".join, grams) if joined else grams


def count_ngrams(tokens: tuple[str, ...], n: int, joined: bool) -> dict:
    """The counts of the n-grams of ``tokens`` (as tuples, or ``joined`` space-joined strings), in a plain
    dict: the C loop behind Counter without a Counter."""
    counts: dict = {}
    _count_elements(counts, tokens if n == 1 else _grams_of(tokens, n, joined))
    return counts


def counts_and_once(tokens: Sequence[str], max_order: int) -> list[tuple[dict, bool]]:
    """Per order 1..max_order: the n-gram counts (:func:`count_ngrams`, n-grams as tuples; for n = 1 the
    tokens) and whether every n-gram occurs once (then a sum of minima is just the size of a set
    intersection: :func:`clipped_total` with ``once``)."""
    out = []
    for n in range(1, max_order + 1):
        counts = count_ngrams(tokens, n, False)
        out.append((counts, len(counts) == max(0, len(tokens) - n + 1)))
    return out


# --------------------------------------------------------------------------------------------------------
# Whole-corpus counting with integers (numpy): one n-gram index for BLEU, ROUGE-N and chrF
# --------------------------------------------------------------------------------------------------------
# Every unit (a token, a character, a word) gets a small integer id; an n-gram gets the id of the pair (its
# (n-1)-gram prefix's id, its last unit's id), ranked among the *reference* n-grams of that order.  A
# hypothesis n-gram that no reference has gets -1, and so does every longer n-gram that extends it.
# Matching within a segment then compares integers `ngram_id * segments + segment`, sorted, for the whole
# corpus at once.  The ids are ranks, so they stay small whatever the vocabulary and the order.  With a
# small alphabet (characters) the ranking is skipped where it is not needed: the pair code
# `prefix id * alphabet size + last unit id` is itself the n-gram's id while the keys fit in 62 bits.  The
# reference side of these tables is built once and cached by its callers.
_KEY_LIMIT = 2**62  # keys stay below this, far from int64's overflow


class ReferenceIndex:
    """Integer tables of the references of a corpus, for counting the clipped n-gram matches of any
    hypothesis corpus against them, per order 1..max_order: BLEU's corpus counting, ROUGE-N of many
    pairs and chrF's character and word n-grams all count with this one class.

    - ``ReferenceIndex(ref_tokens, max_order)``: ``ref_tokens[i]`` holds the token tuples of the
      references of segment i; an n-gram is clipped by its largest count in any one of them (BLEU's rule).
      :meth:`matches` takes hypothesis token tuples.
    - ``ReferenceIndex.of_units(units, lengths, max_order)``: one reference per segment, given as integer
      units (chrF: characters as code points, words as ids), all segments concatenated, with their
      lengths.  :meth:`unit_matches` takes hypothesis units the same way.
    """

    def __init__(self, ref_tokens: list[tuple[tuple[str, ...], ...]], max_order: int):
        import numpy as np

        self.ref_lens = [tuple(map(len, refs)) for refs in ref_tokens]
        rows = [r for refs in ref_tokens for r in refs]
        flat = [t for r in rows for t in r]
        self.vocab = {t: i for i, t in enumerate(dict.fromkeys(flat))}
        self.lookup = IdsOrMinusOne(self.vocab)  # a hypothesis token no reference has gets -1
        self.alphabet = self.table = None
        ids = np.fromiter(map(self.vocab.__getitem__, flat), dtype=np.int64, count=len(flat))
        self._build(ids, [len(r) for r in rows], [len(refs) for refs in ref_tokens], len(self.vocab), max_order,
                    rank_every_order=True)

    @classmethod
    def of_units(cls, units, lengths, max_order: int) -> ReferenceIndex:
        """The index of integer rows: ``units`` is every row's units concatenated (any int64 values),
        ``lengths`` the number of units of each row; row i is the one reference of segment i."""
        import numpy as np

        index = cls.__new__(cls)
        index.ref_lens = index.vocab = index.lookup = None
        units = np.asarray(units, dtype=np.int64)
        # the distinct units ("the alphabet") numbered 0..A-1; a lookup table when they are small numbers
        index.alphabet, index.table = np.unique(units), None
        if len(index.alphabet) and 0 <= index.alphabet[0] and index.alphabet[-1] < 2**21:
            index.table = np.full(int(index.alphabet[-1]) + 2, -1, dtype=np.int64)  # its last entry stays -1
            index.table[index.alphabet] = np.arange(len(index.alphabet))
        lengths = np.asarray(lengths, dtype=np.int64)
        index._build(index.unit_ids(units), lengths, np.ones(len(lengths), dtype=np.int64), len(index.alphabet),
                     max_order, rank_every_order=False)
        return index

    def unit_ids(self, units):
        """The dense id of each integer unit (an index built by :meth:`of_units`), -1 for a unit no
        reference has."""
        import numpy as np

        units = np.asarray(units, dtype=np.int64)
        if self.table is not None:
            top = len(self.table) - 1
            return self.table[np.where((units >= 0) & (units < top), units, top)]
        if len(self.alphabet) == 0:
            return np.full(len(units), -1, dtype=np.int64)
        j = np.minimum(np.searchsorted(self.alphabet, units), len(self.alphabet) - 1)
        return np.where(self.alphabet[j] == units, j, -1)

    def _build(self, ids, row_lengths, refs_per_segment, size: int, max_order: int, rank_every_order: bool) -> None:
        """The tables, from the reference units' ids (rows concatenated), each row's length, and how many
        rows (references) each segment has.  ``rank_every_order``: rank the pairs at every order (what
        lesson 10 shows), else only where the pair codes would not fit (see the comment above)."""
        import numpy as np

        self.max_order = max_order
        counts = np.asarray(refs_per_segment, dtype=np.int64)
        self.segments = len(counts)
        self.kmax = int(counts.max()) if len(counts) else 1
        self.size = max(size, 1)
        row_seg = np.repeat(np.arange(self.segments), counts)
        row_k = np.arange(len(row_seg)) - np.repeat(np.cumsum(counts) - counts, counts)  # reference k of its segment
        owner, rem = _positions(row_lengths)
        seg, k = row_seg[owner], row_k[owner]
        # per order n >= 2: sorted distinct (prefix id * size + last unit id), or None where the pair code
        # itself is the n-gram id
        self.pair_tables: list = []
        self.keys, self.counts = [], []  # per order: sorted (ngram id * segments + segment), max count
        code, bound = ids, self.size  # bound: every id of this order is below it
        room = _KEY_LIMIT // (max(self.segments, 1) * self.kmax)
        for n in range(1, max_order + 1):
            if n > 1 and (rank_every_order or bound * self.size >= room
                          or (n < max_order and bound * self.size * self.size >= _KEY_LIMIT)):
                code, table = _extend_reference_codes(code, ids, rem, n, self.size)
                self.pair_tables.append(table)
                bound = max(len(table), 1)
            elif n > 1:
                code = _pair_codes(code, ids, rem, n, self.size)
                self.pair_tables.append(None)
                bound *= self.size
            valid = (rem >= n) & (code >= 0)
            if self.kmax == 1:  # one reference per segment: its counts are the clip
                uniq, cnt = np.unique(code[valid] * self.segments + seg[valid], return_counts=True)
                self.keys.append(uniq)
                self.counts.append(cnt)
                continue
            key = (code[valid] * self.segments + seg[valid]) * self.kmax + k[valid]
            uniq, cnt = np.unique(key, return_counts=True)
            seg_key = uniq // self.kmax
            starts = np.flatnonzero(np.r_[True, seg_key[1:] != seg_key[:-1]]) if len(seg_key) else seg_key
            self.keys.append(seg_key[starts])
            self.counts.append(np.maximum.reduceat(cnt, starts) if len(cnt) else cnt)

    def nbytes(self) -> int:
        """Approximate bytes held: the arrays, the two token -> id dicts and their tokens, the lengths."""
        arrays = [t for t in self.pair_tables if t is not None] + [*self.keys, *self.counts]
        arrays += [a for a in (self.alphabet, self.table) if a is not None]
        size = sum(a.nbytes for a in arrays)
        if self.vocab is not None:
            size += 2 * sys.getsizeof(self.vocab) + sum(map(sys.getsizeof, self.vocab))
        if self.ref_lens is not None:
            size += sys.getsizeof(self.ref_lens) + sum(map(sys.getsizeof, self.ref_lens))
        return size

    def matches(self, hyp_tokens: list[tuple[str, ...]], per_segment: bool = False) -> list:
        """Clipped matches per order of a hypothesis corpus (one tuple of tokens per segment): summed over
        the corpus, or (``per_segment=True``) as one numpy array per order with a value per segment."""
        import numpy as np

        flat = [t for h in hyp_tokens for t in h]
        ids = np.fromiter(map(self.lookup.__getitem__, flat), dtype=np.int64, count=len(flat))
        return self._matched(ids, [len(h) for h in hyp_tokens], per_segment)

    def unit_matches(self, units, lengths) -> list:
        """Clipped matches per order and segment of hypothesis rows of integer units (row i against
        reference row i of an index built by :meth:`of_units`), as one numpy array per order."""
        return self._matched(self.unit_ids(units), lengths, per_segment=True)

    def _matched(self, ids, lengths, per_segment: bool) -> list:
        import numpy as np

        segments = len(lengths)
        owner, rem = _positions(lengths)
        out = []
        code = ids
        for n in range(1, self.max_order + 1):
            if n > 1 and self.pair_tables[n - 2] is None:
                code = _pair_codes(code, ids, rem, n, self.size)
            elif n > 1:
                code = _extend_hypothesis_codes(code, ids, rem, n, self.size, self.pair_tables[n - 2])
            valid = (rem >= n) & (code >= 0)
            uniq, hyp_count = np.unique(code[valid] * self.segments + owner[valid], return_counts=True)
            keys, ref_count = self.keys[n - 1], self.counts[n - 1]
            if len(keys) == 0 or len(uniq) == 0:
                out.append(np.zeros(segments, dtype=np.int64) if per_segment else 0)
                continue
            j = np.minimum(np.searchsorted(keys, uniq), len(keys) - 1)
            hit = keys[j] == uniq
            clipped = np.minimum(hyp_count[hit], ref_count[j[hit]])
            if per_segment:  # the segment is the key modulo the number of segments
                out.append(np.bincount(uniq[hit] % self.segments, weights=clipped, minlength=segments)
                           .astype(np.int64))
            else:
                out.append(int(clipped.sum()))
        return out


class IdsOrMinusOne(dict):
    """A token -> id dict that answers -1 for an unknown token (looked up in C for known ones)."""

    def __missing__(self, key):
        return -1


def _positions(lengths):
    """For a concatenation of sequences of the given lengths: each unit's sequence index, and how many
    units remain in its sequence from it on (itself included), as numpy arrays."""
    import numpy as np

    lens = np.asarray(lengths, dtype=np.int64)
    owner = np.repeat(np.arange(len(lens)), lens)
    starts = np.cumsum(lens) - lens
    rem = lens[owner] - (np.arange(int(lens.sum())) - starts[owner])
    return owner, rem


def _pair_codes(prev, ids, rem, n, size):
    """n-gram ids as pair codes, prefix id * size + last unit id; -1 where either is -1 (or no n-gram starts)."""
    import numpy as np

    total = len(ids)
    code = np.full(total, -1, dtype=np.int64)
    span = total - n + 1
    if span <= 0:
        return code
    prefix, last = prev[:span], ids[n - 1 :]
    code[:span] = np.where((rem[:span] >= n) & (prefix >= 0) & (last >= 0), prefix * size + last, -1)
    return code


def _extend_reference_codes(prev, ids, rem, n, size):
    """n-gram ids of the references: dense ranks of (prefix id, last token id) pairs."""
    import numpy as np

    total = len(ids)
    code = np.full(total, -1, dtype=np.int64)
    span = total - n + 1
    if span <= 0:
        return code, np.empty(0, dtype=np.int64)
    ok = rem[:span] >= n
    pairs = prev[:span][ok] * size + ids[n - 1 :][ok]
    table = np.unique(pairs)
    code[:span][ok] = np.searchsorted(table, pairs)
    return code, table


def _extend_hypothesis_codes(prev, ids, rem, n, size, table):
    """n-gram ids of the hypotheses in the references' numbering; -1 where no reference has the n-gram."""
    import numpy as np

    total = len(ids)
    code = np.full(total, -1, dtype=np.int64)
    span = total - n + 1
    if span <= 0 or len(table) == 0:
        return code
    last = ids[n - 1 :]
    ok = (rem[:span] >= n) & (prev[:span] >= 0) & (last >= 0)
    pairs = prev[:span][ok] * size + last[ok]
    # Binary search is faster for needles in sorted order (the table is read front to back): sort, search,
    # and put the answers back in the order of the pairs.
    order = np.argsort(pairs)
    j = np.empty_like(order)
    j[order] = np.searchsorted(table, pairs[order])
    j = np.minimum(j, len(table) - 1)
    found = table[j] == pairs
    code[:span][ok] = np.where(found, j, -1)
    return code


REFERENCE_INDEX_BUDGET = 512 * MB
_REFERENCE_INDEXES = BoundedCache("reference indexes", REFERENCE_INDEX_BUDGET, capped=True)


def _hashable(references):
    """A cache key for a corpus of references, or None when it cannot be hashed cheaply."""
    try:
        key = tuple(map(tuple, references))
        hash(key)
        return key
    except TypeError:  # token lists inside: make them tuples too
        try:
            return tuple(tuple(r if isinstance(r, str) else tuple(r) for r in refs) for refs in references)
        except TypeError:
            return None


def reference_index(references, tokenize: str, lowercase: bool, max_order: int) -> ReferenceIndex:
    """The :class:`ReferenceIndex` of a corpus's references (``references[i]``: the references of segment
    i, strings tokenized by ``tokenize`` or token lists), cached: the most recently used are kept, up to
    ``REFERENCE_INDEX_BUDGET`` bytes, each at most a quarter of it (a larger index is built, not kept)."""
    check_tokenize(tokenize)
    check_bool("lowercase", lowercase)
    check_int("max_order", max_order, 1)
    texts = _hashable(references)
    key = None if texts is None else (texts, tokenize, lowercase, max_order)
    index = None if key is None else _REFERENCE_INDEXES.get(key)
    if index is not None:
        return index
    tok = cached_tokenizer(tokenize)
    index = ReferenceIndex([tuple(as_tuple(r, tok, lowercase) for r in refs) for refs in references], max_order)
    if key is not None:  # the key holds the texts (a tuple per segment) besides the index
        _REFERENCE_INDEXES.put(key, index, index.nbytes() + sys.getsizeof(texts) + sum(map(sys.getsizeof, texts)))
    return index


# --------------------------------------------------------------------------------------------------------
# Text profiles: the tokens of a text and what is derived from them, cached by text
# --------------------------------------------------------------------------------------------------------
# Scoring several ROUGE variants of many pairs, the same text (a source against each of its corrections)
# would be tokenized and counted again and again: a profile keeps its tokens, n-gram counts and LCS bit
# masks, each computed the first time it is asked for.
#
# Scoring thousands of short pairs once, Python's garbage collector costs as much as the counting if every
# pair leaves many container objects behind, so a profile is built from few of them: the profile itself is
# the dict of what is derived, and an n-gram table is a plain dict of counts (no separate set), with
# strings for keys where it can (a dict holding only strings and numbers is not tracked by the collector).


PROFILE_BUDGET = 512 * MB
_PROFILES = BoundedCache("text profiles", PROFILE_BUDGET, capped=True)


class Profile(dict):
    """A text's ``tokens`` and its cache ``key`` (attributes), and, as dict items, what is derived from
    the tokens, each kept the first time it is asked for: ``profile[n]`` the counts of its n-grams (see
    :func:`ngram_counts`), ``profile["masks"]`` its LCS bit masks."""

    __slots__ = ("tokens", "key")

    def __init__(self, tokens: tuple[str, ...], key: tuple):
        super().__init__()
        self.tokens = tokens
        self.key = key


def text_profile(text: str, tokenize: str, stemmer: bool, orders: Sequence[int] = (), masks: bool = False) -> Profile:
    """The :class:`Profile` of a text, cached by text, tokenizer and stemming (up to ``PROFILE_BUDGET``
    bytes, derived n-grams and masks included).  A profile made now comes with the n-gram counts of
    ``orders`` and (``masks``) its LCS masks: built before any other thread can see it and counted in one
    step, instead of being published one by one (:func:`publish`) as they are asked for."""
    if type(tokenize) is not str:  # (a name, checked by get_tokenizer where it is first used)
        check_tokenize(tokenize)
    key = (text, tokenize, stemmer)
    profile = _PROFILES.get(key)
    if profile is None:
        tokens = tokenize_rouge_score_fast(text) if tokenize == "rouge-score" else get_tokenizer(tokenize)(text)
        tokens = tuple(map(stem, tokens)) if stemmer else tuple(tokens)
        profile = Profile(tokens, key)
        nbytes = sys.getsizeof(key) + sys.getsizeof(text) + tokens_bytes(tokens, text)
        for n in orders:
            joined = n > 1 and tokenize in JOINED_NGRAM_TOKENIZERS
            counts = profile[n] = count_ngrams(tokens, n, joined)
            nbytes += grams_bytes(counts, n, joined)
        if masks and tokens:
            profile["masks"] = lcs_masks(tokens)
            nbytes += masks_bytes(profile["masks"])
        _PROFILES.put(key, profile, nbytes + sys.getsizeof(profile))
    return profile


def publish(profile: Profile, what, value, nbytes: int):
    """Keep ``value`` (built, finished, by the caller) as ``profile[what]`` and count its ``nbytes`` in
    the profile's cache entry; return what is kept there.  One step (setdefault): another thread sees the
    value finished or not at all, and if two threads built it at once both get the first."""
    kept = profile.setdefault(what, value)
    if kept is value:
        _PROFILES.grow(profile.key, profile, nbytes)
    return kept


def ngram_counts(profile: Profile, n: int) -> tuple[dict, bool]:
    """(the counts of a profile's n-grams, whether every n-gram occurs just once).  For n = 1 an n-gram is
    a token; for n >= 2 a tuple of tokens, or a space-joined string for the tokenizers in
    ``JOINED_NGRAM_TOKENIZERS``."""
    tokens = profile.tokens
    counts = profile.get(n)
    if counts is None:
        joined = n > 1 and profile.key[1] in JOINED_NGRAM_TOKENIZERS
        counts = count_ngrams(tokens, n, joined)
        counts = publish(profile, n, counts, grams_bytes(counts, n, joined))
    # all distinct exactly when there are as many as there are positions (computed, not kept: a cached
    # (counts, flag) pair would be one more object for the garbage collector to walk)
    return counts, len(counts) == max(0, len(tokens) - n + 1)


def ngram_hits(hyp_profile, ref_profile, n: int) -> int:
    """Clipped n-gram matches of two profiles: sum over shared n-grams of min(count in each)."""
    (h, h_once), (r, r_once) = ngram_counts(hyp_profile, n), ngram_counts(ref_profile, n)
    return clipped_total(h, r, once=h_once or r_once)


# --------------------------------------------------------------------------------------------------------
# Bit-parallel LCS (Allison & Dix 1986; Hyyroe 2004)
# --------------------------------------------------------------------------------------------------------
def lcs_masks(tokens: Sequence[str]) -> dict:
    """Bit masks of the bit-parallel LCS: bit i of masks[token] is set where tokens[i] == token."""
    masks = {tok: 1 << i for i, tok in enumerate(tokens)}  # in C: one bit per token, its last position
    if len(masks) < len(tokens):  # some token occurs more than once: set the bits of every position
        for i, tok in enumerate(tokens):
            masks[tok] |= 1 << i
    return masks


def _lcs_from_masks(hypothesis: Sequence[str], masks: dict, m: int) -> int:
    get = masks.get
    full = (1 << m) - 1
    v = full
    for tok in hypothesis:
        u = v & get(tok, 0)
        v = ((v + u) | (v - u)) & full
    return m - v.bit_count()


def bit_parallel_lcs_length(hypothesis: Sequence[str], reference: Sequence[str]) -> int:
    """The LCS length, a whole column of :func:`evalkit.lcs.lcs_table` per hypothesis token.

    Bit i of ``v`` is 0 where the LCS of the reference prefix grows at row i; one addition updates the
    column.  Tests prove it equals :func:`evalkit.lcs.lcs_length`.

    >>> bit_parallel_lcs_length(["b", "c"], ["a", "b", "c"])
    2
    """
    if not reference or not hypothesis:
        return 0
    return _lcs_from_masks(hypothesis, lcs_masks(reference), len(reference))


def masks_bytes(masks: dict) -> int:
    """Bytes of a dict of LCS masks: the dict and its integers (the tokens are shared)."""
    return sys.getsizeof(masks) + sum(map(sys.getsizeof, masks.values()))


def profile_lcs_length(hyp_profile: Profile, ref_profile: Profile) -> int:
    """:func:`bit_parallel_lcs_length` of two profiles, the reference's masks kept in its profile."""
    hyp, ref = hyp_profile.tokens, ref_profile.tokens
    if not hyp or not ref:
        return 0
    masks = ref_profile.get("masks")
    if masks is None:
        masks = lcs_masks(ref)
        masks = publish(ref_profile, "masks", masks, masks_bytes(masks))
    return _lcs_from_masks(hyp, masks, len(ref))


# --------------------------------------------------------------------------------------------------------
# Sums of many choices of rows, as big integers
# --------------------------------------------------------------------------------------------------------
class PackedRows:
    """Rows of non-negative integers, each packed into one Python int, so that the sum of any choice of
    rows is a single C-level ``sum`` of big integers, unpacked afterwards.

    Field j of a row occupies bits [j * width, (j + 1) * width); ``width`` is chosen so that no column sum
    can overflow into the next field, which keeps the result exact.
    """

    def __init__(self, rows_per_item: Sequence[Sequence[Sequence[int]]]):
        columns = len(rows_per_item[0][0])
        # the largest possible column sum: every item contributing its largest value of that column
        bound = max(sum(max(row[j] for row in rows) for rows in rows_per_item) for j in range(columns))
        self.width = max(1, bound.bit_length())
        self.columns = columns
        shifts = [j * self.width for j in range(columns)]
        self.packed = [tuple(sum(v << s for v, s in zip(row, shifts)) for row in rows) for rows in rows_per_item]

    def sum_choice(self, picks: Sequence[int]) -> list[int]:
        """Column sums when item i contributes its row ``picks[i]``."""
        from operator import getitem

        total = sum(map(getitem, self.packed, picks))
        mask = (1 << self.width) - 1
        return [(total >> (j * self.width)) & mask for j in range(self.columns)]


# --------------------------------------------------------------------------------------------------------
# Texts as integer units
# --------------------------------------------------------------------------------------------------------
def code_points(texts):
    """All characters of the texts, concatenated, as an int64 array of code points, and the lengths."""
    import numpy as np

    joined = "".join(texts)  # (surrogatepass: a lone surrogate is a code point like any other)
    points = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype="<u4").astype(np.int64)
    return points, np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))


# --------------------------------------------------------------------------------------------------------
# The caches
# --------------------------------------------------------------------------------------------------------
# Every cache of evalkit, by name.  Those of evalkit.tokenize keep short texts only and count their bytes
# (see tokenize.cache_short_texts); every other one is a BoundedCache, bounded by an approximate byte budget.
def bounded_caches() -> dict[str, BoundedCache]:
    """The caches bounded by bytes, by name (each has a ``budget`` attribute one may change)."""
    caches = {cache.name: cache for cache in list(_TOKEN_CACHES.values())}
    for cache in (_PROFILES, _REFERENCE_INDEXES, *_REGISTERED):
        caches[cache.name] = cache
    return caches


_REGISTERED: list[BoundedCache] = []  # caches that metric modules keep for their engines (chrF's references, ...)


def register_cache(cache: BoundedCache) -> BoundedCache:
    """Count a cache kept elsewhere in :func:`cache_info`, empty it in :func:`clear_caches`, and hold it to
    the overall cap (:func:`set_total_cache_budget`) with evalkit's other caches."""
    if not isinstance(cache, BoundedCache):
        raise TypeError(f"expected a BoundedCache, got {type(cache).__name__}")
    with cache._lock:
        if not cache.capped:
            cache.capped = True
            _count_held(cache._nbytes)
    _REGISTERED.append(cache)
    if _held > _capped_budget:
        enforce_total_budget()
    return cache


def cache_info(memory: bool = False) -> dict:
    """How many entries each cache holds, by name (``"reference indexes"``: whole-corpus integer tables);
    with ``memory=True`` a :class:`CacheInfo` per cache: entries, approximate bytes, budget (for the
    tokenizer caches of :mod:`evalkit.tokenize`, the budget they share: their part of the overall cap), and
    under ``"total"`` every cache together: their entries, their bytes and the overall cap that bounds them
    (:func:`set_total_cache_budget`).

    >>> clear_caches(); cache_info()["text profiles"]
    0
    >>> cache_info(memory=True)["text profiles"].nbytes
    0
    """
    memory = check_bool("memory", memory)
    info = {}
    text_budget = text_cache_budget()
    for name, fn in cached_functions().items():
        entries, nbytes = fn.cache_info()
        info[f"tokenize {name}"] = CacheInfo(entries, nbytes, text_budget)
    bounded = bounded_caches()
    info.update({name: cache.info() for name, cache in bounded.items()})
    if not memory:
        return {name: entry.entries for name, entry in info.items()}
    capped = [info[f"tokenize {name}"] for name in cached_functions()]
    capped += [info[name] for name, cache in bounded.items() if cache.capped]
    info["total"] = CacheInfo(sum(c.entries for c in capped), sum(c.nbytes for c in capped), _total_budget)
    return info


def clear_caches() -> None:
    """Forget every cached tokenization, count, profile and index (a cold start, as a new process has)."""
    for fn in cached_functions().values():
        fn.cache_clear()
    for cache in bounded_caches().values():
        cache.clear()
