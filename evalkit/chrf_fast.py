"""chrF's fast path: the counts of :func:`evalkit.chrf.segment_stats` for a whole corpus at once.

The readable chrF (``chrf.py``) counts the character and word n-grams of each pair with Counters.  Here the
references' n-grams are packed into int64 keys (:class:`evalkit.fast.PackedNgramIndex`: each character or
word gets a small dense id, an n-gram of ids becomes one integer) and every hypothesis of the corpus is
matched against them with sorted numpy arrays.  ``chrf.py`` calls :func:`chrf_segment_counts` when
``fast=True`` (its default for corpora); the tests prove both give the same counts.
"""

from __future__ import annotations

import sys

from .fast import MB, BoundedCache, IdsOrMinusOne, PackedNgramIndex, code_points, register_cache

PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def split_punctuation_fast(text: str) -> list[str]:
    """The same words as :func:`evalkit.chrf.split_punctuation` (tuples extended in place, fewer lookups)."""
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
    """The reference side of chrF for a corpus: one row per (segment, reference)."""

    def __init__(self, ref_texts, char_order, word_order, lowercase, whitespace):
        import numpy as np
        from itertools import chain

        self.row_segment = np.repeat(np.arange(len(ref_texts)), [len(refs) for refs in ref_texts])
        rows = [t.lower() if lowercase else t for refs in ref_texts for t in refs]
        self.nrefs = [len(refs) for refs in ref_texts]
        chars = rows if whitespace else ["".join(t.split()) for t in rows]
        points, self.char_lengths = code_points(chars)
        self.chars = PackedNgramIndex(points, self.char_lengths, char_order) if char_order else None
        self.words = self.lookup = None
        if word_order:
            words = chain.from_iterable(map(split_punctuation_fast, rows))
            self.lookup = IdsOrMinusOne((w, i) for i, w in enumerate(dict.fromkeys(words)))
            ids, self.word_lengths = _word_units(rows, self.lookup)
            self.words = PackedNgramIndex(ids, self.word_lengths, word_order)
        self.fits = all(ix is None or ix.fits for ix in (self.chars, self.words))


CHRF_REFERENCES_BUDGET = 512 * MB
_CHRF_REFERENCES = register_cache(BoundedCache("chrF references", CHRF_REFERENCES_BUDGET, largest_share=0.5))


def references_bytes(refs: ChrfReferences) -> int:
    """Approximate bytes of the reference side: its numpy arrays, and the word lookup (a dict entry and a
    string head per word; the words' characters are the references' own)."""
    arrays = [refs.row_segment, refs.char_lengths]
    for index in (refs.chars, refs.words):
        if index is not None:
            arrays += [index.lengths, index.alphabet, *index.keys, *index.counts]
            arrays += [index.table] if getattr(index, "table", None) is not None else []
    lookup = sys.getsizeof(refs.lookup) + 60 * len(refs.lookup) if refs.lookup is not None else 0
    return sum(a.nbytes for a in arrays) + lookup


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
        _CHRF_REFERENCES.put(key, found, references_bytes(found) + key_bytes)
    return found


def chrf_segment_counts(hyp_texts, ref_texts, char_order, word_order, lowercase, whitespace, scorer):
    """The chrF counts of every segment as an int array [order, (hyp, ref, matches), segment]: the same
    numbers as the readable ``segment_stats``.  ``ref_texts[i]`` is a tuple of reference strings;
    ``scorer(hyp, ref, matches)`` ranks the references of a segment (the best one's counts are kept; the
    first on a tie).  None when the packed keys would not fit in 63 bits."""
    import numpy as np

    refs = chrf_references(ref_texts, char_order, word_order, lowercase, whitespace)
    if not refs.fits:
        return None
    seg = refs.row_segment
    hyps = [t.lower() if lowercase else t for t in hyp_texts]
    rows = hyps if len(seg) == len(hyps) else [hyps[s] for s in seg.tolist()]
    per_order = []  # (hyp, ref, matches) arrays per order, one value per row
    if char_order:
        chars = rows if whitespace else ["".join(t.split()) for t in rows]
        points, lengths = code_points(chars)
        matched = refs.chars.matches(points, lengths)
        for n in range(1, char_order + 1):
            ref_n = np.maximum(refs.char_lengths - n + 1, 0)
            hyp_n = np.where(ref_n > 0, np.maximum(lengths - n + 1, 0), 0)
            per_order.append((hyp_n, ref_n, matched[n - 1]))
    if word_order:
        ids, lengths = _word_units(rows, refs.lookup)
        matched = refs.words.matches(ids, lengths)
        for n in range(1, word_order + 1):
            ref_n = np.maximum(refs.word_lengths - n + 1, 0)
            hyp_n = np.where(ref_n > 0, np.maximum(lengths - n + 1, 0), 0)
            per_order.append((hyp_n, ref_n, matched[n - 1]))
    table = np.stack([np.stack(triple) for triple in per_order])  # order x (hyp, ref, matches) x row
    if len(seg) == len(hyps):  # one reference per segment: nothing to choose
        return table
    else:
        chosen = []
        start = 0
        for k in refs.nrefs:
            best, best_score = start, -1.0
            for r in range(start, start + k):
                h, rf, m = (table[:, i, r].tolist() for i in range(3))
                score = scorer(h, rf, m)
                if score > best_score:
                    best, best_score = r, score
            chosen.append(best)
            start += k
        return table[:, :, chosen]
