"""Fast paths: second implementations of the slow steps, proven equal to the readable ones by the tests.

The readable code in ``bleu.py``, ``tokenize.py`` and ``ngrams.py`` is what the lessons show.  What is
here computes the same numbers with three ideas (lesson 08 explains them):

1. **Cache the references.**  When 16 systems are scored against one reference, the reference n-grams
   are the same every time: count them once, keep them (an LRU cache keyed by the reference text).
2. **Let C loops do the work.**  ``Counter.update(zip(...))`` counts all n-grams of one order in a single
   call; ``str.translate`` pads every punctuation mark in one pass instead of one regex match per mark.
3. **Add up plain integers** and build one statistics object per corpus, not one per segment.
4. **Count with integers instead of strings.**  Every token, then every n-gram, gets an integer id, and a
   whole corpus is matched at once with sorted numpy arrays (:class:`ReferenceIndex`).

Sections: 13a tokenization; per-segment counting with cached references (:func:`corpus_counts`); whole-
corpus counting with integer ids (:func:`corpus_counts_vectorized`); ROUGE profiles (tokens and counts
of each text, cached) with the bit-parallel LCS; GLEU counting with set operations and :class:`PackedRows`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from .tokenize import _13A_ENTITIES, get_tokenizer

# --------------------------------------------------------------------------------------------------------
# 13a tokenization in fewer passes
# --------------------------------------------------------------------------------------------------------
# Rule 1 of 13a pads every ASCII punctuation mark or symbol of the class { | } ~ [ \ ] ^ _ ` ! " # $ % &
# ( ) * + : ; < = > ? @ / with spaces.  (The readable regex class also contains the space itself, whose
# padding changes nothing once the text is split on white space.)  str.translate does it in one C pass.
_13A_PAD = {
    ord(c): f" {c} " for c in map(chr, range(33, 127)) if re.fullmatch(r"[{-~\[-`!-&(-+:-@/]", c)
}
_NON_DIGIT_THEN_PERIOD_COMMA = re.compile(r"([^0-9])([.,])")
_PERIOD_COMMA_THEN_NON_DIGIT = re.compile(r"([.,])([^0-9])")
_DIGIT_THEN_DASH = re.compile(r"([0-9])(-)")


@lru_cache(maxsize=2**17)
def tokenize_13a_fast(text: str) -> tuple[str, ...]:
    """The same tokens as :func:`evalkit.tokenize.tokenize_13a`, as a tuple."""
    text = text.rstrip()
    if "<skipped>" in text:
        text = text.replace("<skipped>", "")
    if "\n" in text:
        text = text.replace("-\n", "").replace("\n", " ")
    if "&" in text:
        for entity, char in _13A_ENTITIES:
            text = text.replace(entity, char)
    text = f" {text} ".translate(_13A_PAD)
    if "." in text or "," in text:
        text = _NON_DIGIT_THEN_PERIOD_COMMA.sub(r"\1 \2 ", text)
        text = _PERIOD_COMMA_THEN_NON_DIGIT.sub(r" \1 \2", text)
    if "-" in text:
        text = _DIGIT_THEN_DASH.sub(r"\1 \2 ", text)
    return tuple(text.split())


def fast_tokenizer(name: str):
    """A tokenizer returning tuples, cached; 13a uses the one-pass version above."""
    if name == "13a":
        return tokenize_13a_fast
    slow = get_tokenizer(name)
    return lru_cache(maxsize=2**17)(lambda text: tuple(slow(text)))


_FAST_TOKENIZERS: dict[str, object] = {}


def _tokenizer(name: str):
    if name not in _FAST_TOKENIZERS:
        _FAST_TOKENIZERS[name] = fast_tokenizer(name)
    return _FAST_TOKENIZERS[name]


# --------------------------------------------------------------------------------------------------------
# n-gram counting, one Counter per order
# --------------------------------------------------------------------------------------------------------
def order_counts(tokens: Sequence[str], n: int) -> Counter:
    """Counts of the n-grams of one order: ``zip`` of n shifted views, counted by Counter in C."""
    return Counter(zip(*[tokens[i:] for i in range(n)]))


@lru_cache(maxsize=2**15)
def reference_side(references: tuple[tuple[str, ...], ...], max_order: int) -> tuple[tuple[int, ...], list]:
    """(reference lengths, per order the max count of each n-gram over the references), cached."""
    pooled = []
    for n in range(1, max_order + 1):
        best = order_counts(references[0], n)
        for ref in references[1:]:
            for gram, count in order_counts(ref, n).items():
                if count > best[gram]:
                    best[gram] = count
        pooled.append(best)
    return tuple(len(r) for r in references), pooled


def clipped_total(hyp: Counter, ref: Counter) -> int:
    """sum over shared n-grams of min(hyp count, ref count), with the loops in C."""
    shared = hyp.keys() & ref.keys()
    return sum(map(min, map(hyp.__getitem__, shared), map(ref.__getitem__, shared)))


def _as_tuple(text, tokenizer, lowercase: bool) -> tuple[str, ...]:
    if isinstance(text, str):
        return tokenizer(text.lower() if lowercase else text)
    return tuple(t.lower() for t in text) if lowercase else tuple(text)


def corpus_counts(hypotheses, references, max_order: int, tokenize: str, lowercase: bool):
    """Summed BLEU counts of a corpus, validated by the caller, as a dict of plain numbers with the keys
    hyp_len, closest_ref_len, shortest_ref_len, matches, totals, empty, nrefs (None if it varies).
    """
    tok = _tokenizer(tokenize)
    orders = range(1, max_order + 1)
    hyp_len = closest = shortest = 0
    matches = [0] * max_order
    totals = [0] * max_order
    empty = [0] * max_order
    nrefs: set[int] = set()
    for hyp, refs in zip(hypotheses, references):
        h = _as_tuple(hyp, tok, lowercase)
        ref_lens, ref_counts = reference_side(tuple(_as_tuple(r, tok, lowercase) for r in refs), max_order)
        seg_matches = [clipped_total(order_counts(h, n), ref_counts[n - 1]) for n in orders]
        n_tokens = len(h)
        seg_totals = [max(0, n_tokens - n + 1) for n in orders]
        c = min(ref_lens, key=lambda r: (abs(r - n_tokens), r)) if len(ref_lens) > 1 else ref_lens[0]
        s = min(ref_lens)
        hyp_len += n_tokens
        closest += c
        shortest += s
        for i in range(max_order):
            matches[i] += seg_matches[i]
            totals[i] += seg_totals[i]
            if seg_totals[i] == 0:
                empty[i] += 1
        nrefs.add(len(refs))
    return dict(
        hyp_len=hyp_len,
        closest_ref_len=closest,
        shortest_ref_len=shortest,
        matches=tuple(matches),
        totals=tuple(totals),
        empty=tuple(empty),
        nrefs=nrefs.pop() if len(nrefs) == 1 else None,
    )


# --------------------------------------------------------------------------------------------------------
# Whole-corpus counting with integers (numpy)
# --------------------------------------------------------------------------------------------------------
# Every token gets an integer id; an n-gram gets the id of the pair (its (n-1)-gram prefix's id, its last
# token's id), ranked among the *reference* n-grams of that order.  A hypothesis n-gram that no reference
# has gets -1, and so does every longer n-gram that extends it.  Matching within a segment then compares
# integers `ngram_id * segments + segment`, sorted, for the whole corpus at once.  The reference side of
# these tables is built once and cached, keyed by the reference texts.


class ReferenceIndex:
    """Integer tables of the references of a corpus, for counting any hypothesis corpus against them."""

    def __init__(self, ref_tokens: list[tuple[tuple[str, ...], ...]], max_order: int):
        import numpy as np

        self.max_order = max_order
        self.segments = len(ref_tokens)
        self.ref_lens = [tuple(map(len, refs)) for refs in ref_tokens]
        rows = [r for refs in ref_tokens for r in refs]
        row_seg = np.repeat(np.arange(self.segments), [len(refs) for refs in ref_tokens])
        row_k = np.concatenate([np.arange(len(refs)) for refs in ref_tokens])
        self.kmax = int(max(len(refs) for refs in ref_tokens))
        flat = [t for r in rows for t in r]
        self.vocab = {t: i for i, t in enumerate(dict.fromkeys(flat))}
        self.lookup = _IdsOrMinusOne(self.vocab)  # a hypothesis token no reference has gets -1
        self.size = max(len(self.vocab), 1)
        ids = np.fromiter(map(self.vocab.__getitem__, flat), dtype=np.int64, count=len(flat))
        seg, rem, owner = _positions([len(r) for r in rows])
        seg = row_seg[owner] if len(owner) else seg
        k = row_k[owner] if len(owner) else seg
        self.pair_tables = []  # per order n >= 2: sorted distinct (prefix id * size + last token id)
        self.keys, self.counts = [], []  # per order: sorted (ngram id * segments + segment), max count
        code = ids
        for n in range(1, max_order + 1):
            if n > 1:
                code, table = _extend_reference_codes(code, ids, rem, n, self.size)
                self.pair_tables.append(table)
            valid = (rem >= n) & (code >= 0)
            key = (code[valid] * self.segments + seg[valid]) * self.kmax + k[valid]
            uniq, cnt = np.unique(key, return_counts=True)
            seg_key = uniq // self.kmax
            starts = np.flatnonzero(np.r_[True, seg_key[1:] != seg_key[:-1]]) if len(seg_key) else seg_key
            self.keys.append(seg_key[starts])
            self.counts.append(np.maximum.reduceat(cnt, starts) if len(cnt) else cnt)

    def matches(self, hyp_tokens: list[tuple[str, ...]], per_segment: bool = False) -> list:
        """Clipped matches per order of a hypothesis corpus (one tuple of tokens per segment): summed over
        the corpus, or (``per_segment=True``) as one numpy array per order with a value per segment."""
        import numpy as np

        flat = [t for h in hyp_tokens for t in h]
        ids = np.fromiter(map(self.lookup.__getitem__, flat), dtype=np.int64, count=len(flat))
        seg, rem, _ = _positions([len(h) for h in hyp_tokens])
        out = []
        code = ids
        for n in range(1, self.max_order + 1):
            if n > 1:
                code = _extend_hypothesis_codes(code, ids, rem, n, self.size, self.pair_tables[n - 2])
            valid = (rem >= n) & (code >= 0)
            uniq, hyp_count = np.unique(code[valid] * self.segments + seg[valid], return_counts=True)
            keys, ref_count = self.keys[n - 1], self.counts[n - 1]
            if len(keys) == 0 or len(uniq) == 0:
                out.append(np.zeros(len(hyp_tokens), dtype=np.int64) if per_segment else 0)
                continue
            j = np.minimum(np.searchsorted(keys, uniq), len(keys) - 1)
            hit = keys[j] == uniq
            clipped = np.minimum(hyp_count[hit], ref_count[j[hit]])
            if per_segment:  # the segment is the key modulo the number of segments
                out.append(np.bincount(uniq[hit] % self.segments, weights=clipped, minlength=len(hyp_tokens))
                           .astype(np.int64))
            else:
                out.append(int(clipped.sum()))
        return out


class _IdsOrMinusOne(dict):
    """A token -> id dict that answers -1 for an unknown token (looked up in C for known ones)."""

    def __missing__(self, key):
        return -1


def _positions(lengths: list[int]):
    """For a concatenation of sequences: each token's sequence index, how many tokens remain in its
    sequence from it on (itself included), and (again) its sequence index, as numpy arrays."""
    import numpy as np

    lens = np.asarray(lengths, dtype=np.int64)
    owner = np.repeat(np.arange(len(lens)), lens)
    starts = np.cumsum(lens) - lens
    rem = lens[owner] - (np.arange(int(lens.sum())) - starts[owner])
    return owner, rem, owner


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


_REFERENCE_INDEXES: dict = {}


def reference_index(references, tok, lowercase: bool, max_order: int, cache_key) -> ReferenceIndex:
    """The ReferenceIndex of a corpus's references, cached (the four most recently used) under ``cache_key``."""
    if cache_key is not None and cache_key in _REFERENCE_INDEXES:
        index = _REFERENCE_INDEXES.pop(cache_key)  # re-inserted last: the least recently used goes first
        _REFERENCE_INDEXES[cache_key] = index
        return index
    tokens = [tuple(_as_tuple(r, tok, lowercase) for r in refs) for refs in references]
    index = ReferenceIndex(tokens, max_order)
    if cache_key is not None:
        if len(_REFERENCE_INDEXES) >= 4:
            _REFERENCE_INDEXES.pop(next(iter(_REFERENCE_INDEXES)))
        _REFERENCE_INDEXES[cache_key] = index
    return index


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


def corpus_counts_vectorized(hypotheses, references, max_order: int, tokenize: str, lowercase: bool):
    """The same result as :func:`corpus_counts`, counting the whole corpus with integer arrays."""
    tok = _tokenizer(tokenize)
    key = _hashable(references)
    index = reference_index(
        references, tok, lowercase, max_order, None if key is None else (key, tokenize, lowercase, max_order)
    )
    hyp_tokens = [_as_tuple(h, tok, lowercase) for h in hypotheses]
    matches = index.matches(hyp_tokens)
    hyp_lens = list(map(len, hyp_tokens))
    closest = shortest = 0
    for n_tokens, ref_lens in zip(hyp_lens, index.ref_lens):
        if len(ref_lens) == 1:
            closest += ref_lens[0]
            shortest += ref_lens[0]
        else:
            closest += min(ref_lens, key=lambda r: (abs(r - n_tokens), r))
            shortest += min(ref_lens)
    import numpy as np

    lens = np.asarray(hyp_lens, dtype=np.int64)
    totals = tuple(int(np.maximum(lens - n + 1, 0).sum()) for n in range(1, max_order + 1))
    empty = tuple(int((lens < n).sum()) for n in range(1, max_order + 1))
    nrefs = {len(r) for r in index.ref_lens}
    return dict(
        hyp_len=sum(hyp_lens),
        closest_ref_len=closest,
        shortest_ref_len=shortest,
        matches=tuple(matches),
        totals=totals,
        empty=empty,
        nrefs=nrefs.pop() if len(nrefs) == 1 else None,
    )


# --------------------------------------------------------------------------------------------------------
# ROUGE-N and ROUGE-L for many pairs
# --------------------------------------------------------------------------------------------------------
# The readable rouge.rouge_n / rouge.rouge_l tokenize both texts for every call and every variant.  Scoring
# several variants of many pairs, the same text (a source against each of its corrections) is tokenized
# and counted again and again: cache the tokens and the n-gram counts of each text, and score all
# variants of a pair from them.


@lru_cache(maxsize=2**16)
def rouge_profile(text: str, tokenizer: str, stemmer: bool) -> tuple[tuple[str, ...], dict]:
    """(tokens, a dict for what is derived from them: n-gram Counters, LCS bit masks), cached by text."""
    from .rouge import _TOKENIZER_FUNCTIONS, stem

    tokens = tokenize_rouge_score_fast(text) if tokenizer == "rouge-score" else _TOKENIZER_FUNCTIONS[tokenizer](text)
    return (tuple(map(stem, tokens)) if stemmer else tuple(tokens)), {}


# rouge-score's rule, "lowercase, then every character outside [a-z0-9] is a space", in C loops: lowercase,
# turn every non-ASCII character into "?", then map every ASCII character outside [a-z0-9] to a space.
_ROUGE_SPACES = {i: " " for i in range(128) if not ("a" <= chr(i) <= "z" or "0" <= chr(i) <= "9")}


def tokenize_rouge_score_fast(text: str) -> list[str]:
    """The same tokens as :func:`evalkit.rouge.tokenize_rouge_score`."""
    return text.lower().encode("ascii", "replace").decode("ascii").translate(_ROUGE_SPACES).split()


def frozen(cls, **fields):
    """An instance of the frozen dataclass ``cls`` with these fields, made without running its __init__
    (which sets the fields one by one through object.__setattr__): for results made by the thousand."""
    obj = object.__new__(cls)
    obj.__dict__.update(fields)
    return obj


def _ngram_set(profile, n: int) -> tuple[set, bool]:
    """(the distinct n-grams, whether every n-gram occurs just once)."""
    tokens, derived = profile
    entry = derived.get(n)
    if entry is None:
        grams = set(tokens) if n == 1 else set(zip(*[tokens[i:] for i in range(n)]))
        entry = derived[n] = (grams, len(grams) == max(0, len(tokens) - n + 1))
    return entry


def _ngram_counter(profile, n: int) -> Counter:
    tokens, derived = profile
    counts = derived.get(-n)
    if counts is None:
        counts = derived[-n] = Counter(tokens) if n == 1 else order_counts(tokens, n)
    return counts


def _lcs_masks(profile) -> dict:
    """Bit masks of the bit-parallel LCS: bit i of masks[token] is set where tokens[i] == token."""
    tokens, derived = profile
    masks = derived.get("masks")
    if masks is None:
        masks = derived["masks"] = {}
        for i, tok in enumerate(tokens):
            masks[tok] = masks.get(tok, 0) | (1 << i)
    return masks


def rouge_pair_stats(hyp, ref, variant: str) -> tuple[int, int, int]:
    """(hits, hypothesis units, reference units) of one pair of profiles, for "rouge<n>" or "rougeL"."""
    h_tokens, r_tokens = hyp[0], ref[0]
    if variant == "rougeL":  # the same bit-parallel LCS as rouge.lcs_length, the reference's masks cached
        if not h_tokens or not r_tokens:
            return 0, len(h_tokens), len(r_tokens)
        get = _lcs_masks(ref).get
        full = (1 << len(r_tokens)) - 1
        v = full
        for tok in h_tokens:
            u = v & get(tok, 0)
            v = ((v + u) | (v - u)) & full
        return len(r_tokens) - v.bit_count(), len(h_tokens), len(r_tokens)
    n = int(variant[5:])
    (h_set, h_once), (r_set, r_once) = _ngram_set(hyp, n), _ngram_set(ref, n)
    shared = h_set & r_set
    if h_once or r_once:  # every min(count in hyp, count in ref) is 1
        hits = len(shared)
    else:
        h, r = _ngram_counter(hyp, n), _ngram_counter(ref, n)
        hits = sum(map(min, map(h.__getitem__, shared), map(r.__getitem__, shared)))
    return hits, max(0, len(h_tokens) - n + 1), max(0, len(r_tokens) - n + 1)


def clear_caches() -> None:
    """Forget every cached tokenization and count (for benchmarks that start cold)."""
    for fn in (rouge_profile, tokenize_13a_fast, reference_side):
        fn.cache_clear()
    for fn in _FAST_TOKENIZERS.values():
        fn.cache_clear()
    _REFERENCE_INDEXES.clear()


# --------------------------------------------------------------------------------------------------------
# GEC GLEU: counting with set operations, and summing 500 corpus draws as big integers
# --------------------------------------------------------------------------------------------------------
try:  # the C loop behind Counter.update, without Counter's Python-level bookkeeping around it
    from _collections import _count_elements
except ImportError:  # pragma: no cover - other Python implementations

    def _count_elements(mapping, iterable):
        for item in iterable:
            mapping[item] = mapping.get(item, 0) + 1


def _counts_and_once(tokens: Sequence[str], max_order: int) -> list[tuple[dict, bool]]:
    """Per order: the n-gram counts (n-grams as tuples, as evalkit.ngrams makes them, in a plain dict) and
    whether every n-gram occurs once."""
    out = []
    for n in range(1, max_order + 1):
        counts: dict = {}
        _count_elements(counts, zip(*[tokens[i:] for i in range(n)]))
        out.append((counts, len(counts) == max(0, len(tokens) - n + 1)))
    return out


def gleu_sentence_counts(hyp, refs, src, max_order: int) -> list[list[tuple[int, int, int]]]:
    """For each reference, per order: (matches, penalty, hypothesis n-grams) under the official code's
    formula, as gleu.count_order computes them, with the loops in C.

    An n-gram is penalized min(source, hypothesis) times when the hypothesis kept it from the source and
    the reference does not have it: the set (hyp & src) - ref.  Where every count on one side is 1, the
    sum of minima is simply the size of the set.
    """
    hyp_counts = _counts_and_once(hyp, max_order)
    src_counts = hyp_counts if src == hyp else _counts_and_once(src, max_order)  # a copied source: count once
    kept_from_source = [h.keys() & s.keys() for (h, _), (s, _) in zip(hyp_counts, src_counts)]
    totals = [max(0, len(hyp) - n) for n in range(max_order)]
    out = []
    for ref in refs:
        per_order = []
        for (h, h_once), (r, r_once), (s, s_once), kept, total in zip(
            hyp_counts, _counts_and_once(ref, max_order), src_counts, kept_from_source, totals
        ):
            shared = h.keys() & r.keys()
            if h_once or r_once:
                matches = len(shared)
            else:
                matches = sum(map(min, map(h.__getitem__, shared), map(r.__getitem__, shared)))
            penalized = kept - shared
            if h_once or s_once:
                penalty = len(penalized)
            else:
                penalty = sum(map(min, map(h.__getitem__, penalized), map(s.__getitem__, penalized)))
            per_order.append((matches, penalty, total))
        out.append(per_order)
    return out


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
