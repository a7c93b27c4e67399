"""Fast paths: second implementations of the slow steps, proven equal to the readable ones by the tests.

The readable code in ``bleu.py``, ``tokenize.py`` and ``ngrams.py`` is what the lessons show.  What is
here computes the same numbers with three ideas (lesson 08 explains them):

1. **Cache the references.**  When 16 systems are scored against one reference, the reference n-grams
   are the same every time: count them once, keep them (an LRU cache keyed by the reference text).
2. **Let C loops do the work.**  ``Counter.update(zip(...))`` counts all n-grams of one order in a single
   call; ``str.translate`` pads every punctuation mark in one pass instead of one regex match per mark.
3. **Add up plain integers** and build one statistics object per corpus, not one per segment.
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
# n-gram counting
# --------------------------------------------------------------------------------------------------------
def all_ngram_counts(tokens: Sequence[str], max_order: int) -> Counter:
    """Counts of every n-gram of orders 1..max_order in one Counter (an n-gram's order is its length)."""
    counts: Counter = Counter()
    for n in range(1, max_order + 1):
        counts.update(zip(*[tokens[i:] for i in range(n)]))
    return counts


@lru_cache(maxsize=2**15)
def reference_side(references: tuple[tuple[str, ...], ...], max_order: int) -> tuple[tuple[int, ...], dict]:
    """(reference lengths, the max count of each n-gram over the references), cached."""
    if len(references) == 1:
        return (len(references[0]),), all_ngram_counts(references[0], max_order)
    pooled: dict = {}
    for ref in references:
        for gram, count in all_ngram_counts(ref, max_order).items():
            if count > pooled.get(gram, 0):
                pooled[gram] = count
    return tuple(len(r) for r in references), pooled


def _as_tuple(text, tokenizer, lowercase: bool) -> tuple[str, ...]:
    if isinstance(text, str):
        return tokenizer(text.lower() if lowercase else text)
    return tuple(t.lower() for t in text) if lowercase else tuple(text)


def corpus_counts(hypotheses, references, max_order: int, tokenize: str, lowercase: bool):
    """Summed BLEU counts of a corpus, validated by the caller.

    Returns two dicts of plain numbers, (corpus totals, last segment), each with keys hyp_len,
    closest_ref_len, shortest_ref_len, matches, totals, empty, nrefs (None if it varies).
    """
    tok = _tokenizer(tokenize)
    hyp_len = closest = shortest = 0
    matches = [0] * max_order
    totals = [0] * max_order
    empty = [0] * max_order
    nrefs: set[int] = set()
    last = None
    for hyp, refs in zip(hypotheses, references):
        h = _as_tuple(hyp, tok, lowercase)
        ref_key = tuple(_as_tuple(r, tok, lowercase) for r in refs)
        ref_lens, ref_max = reference_side(ref_key, max_order)
        seg_matches = [0] * max_order
        for gram, count in all_ngram_counts(h, max_order).items():
            available = ref_max.get(gram)
            if available:
                seg_matches[len(gram) - 1] += count if count < available else available
        n_tokens = len(h)
        seg_totals = [max(0, n_tokens - n) for n in range(max_order)]
        c = min(ref_lens, key=lambda r: (abs(r - n_tokens), r))
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
        last = (n_tokens, c, s, seg_matches, seg_totals, len(refs))
    corpus = dict(
        hyp_len=hyp_len,
        closest_ref_len=closest,
        shortest_ref_len=shortest,
        matches=tuple(matches),
        totals=tuple(totals),
        empty=tuple(empty),
        nrefs=nrefs.pop() if len(nrefs) == 1 else None,
    )
    n_tokens, c, s, seg_matches, seg_totals, k = last
    last_segment = dict(
        hyp_len=n_tokens,
        closest_ref_len=c,
        shortest_ref_len=s,
        matches=tuple(seg_matches),
        totals=tuple(seg_totals),
        empty=tuple(1 if t == 0 else 0 for t in seg_totals),
        nrefs=k,
    )
    return corpus, last_segment
