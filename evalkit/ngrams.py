"""N-grams and their counts: the building block of BLEU, GLEU and ROUGE-N.

An n-gram is a tuple of ``n`` consecutive tokens.  Counting is done on token tuples, never on the raw
string: ``"the there other".count("the")`` is 3, but the token "the" occurs once.

    >>> ngrams(["the", "cat", "sat"], 2)
    [('the', 'cat'), ('cat', 'sat')]
    >>> clipped_matches(["the"] * 7, [["the", "cat", "is", "walking", "in", "the", "garden"]], 1)
    (2, 7)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

Ngram = tuple[str, ...]


def ngrams(tokens: Sequence[str], n: int) -> list[Ngram]:
    """All n-grams of ``tokens`` in order (an empty list when there are fewer than ``n`` tokens)."""
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def ngram_counts(tokens: Sequence[str], n: int) -> Counter[Ngram]:
    """How often each n-gram of ``tokens`` occurs."""
    return Counter(ngrams(tokens, n))


def max_reference_counts(references: Iterable[Sequence[str]], n: int) -> Counter[Ngram]:
    """For each n-gram, the largest count it has in any one reference (BLEU's pooled references)."""
    pooled: Counter[Ngram] = Counter()
    for reference in references:
        for gram, count in ngram_counts(reference, n).items():
            if count > pooled[gram]:
                pooled[gram] = count
    return pooled


def clipped_counts(hypothesis_counts: Counter[Ngram], reference_counts: Counter[Ngram]) -> Counter[Ngram]:
    """Each hypothesis n-gram counted at most as often as the reference side allows: min(hyp, ref)."""
    return Counter({g: min(c, reference_counts[g]) for g, c in hypothesis_counts.items() if reference_counts[g]})


def clipped_matches(hypothesis: Sequence[str], references: Iterable[Sequence[str]], n: int) -> tuple[int, int]:
    """(clipped matches, hypothesis n-grams) for order ``n``: the numerator and denominator of BLEU's p_n."""
    hyp = ngram_counts(hypothesis, n)
    clipped = clipped_counts(hyp, max_reference_counts(references, n))
    return sum(clipped.values()), sum(hyp.values())
