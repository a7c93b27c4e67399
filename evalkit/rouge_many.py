"""ROUGE-N and ROUGE-L of many pairs, several variants at once (like rouge-score's ``RougeScorer``).

The readable per-pair functions of :mod:`evalkit.rouge` tokenize both texts for every call and every
variant.  Scoring several variants of thousands of pairs, the same text (a source against each of its
corrections) would be tokenized and counted again and again.  Here each text becomes a cached *profile*
(:func:`evalkit.fast.text_profile`: its tokens, n-gram counts, LCS bit masks), and every variant
of a pair is scored from the two profiles.  The tests prove the numbers equal :func:`evalkit.rouge.rouge_n`
and :func:`evalkit.rouge.rouge_l`.

    >>> s = rouge_scores("the cat sat on the mat", ["the cat is on the mat"])
    >>> {k: round(v.fmeasure, 4) for k, v in s.items()}
    {'rouge1': 0.8333, 'rouge2': 0.6, 'rougeL': 0.8333}
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import chain
from typing import Any

from ._checks import check_corpus, check_same_length
from .fast import ReferenceIndex, ngram_hits, profile_lcs_length, text_profile
from .rouge import RougeScore, RougeStats, check_inputs, check_order, check_options, combine_references, score_counts
from .tokenize import warn_about_tokenization


def frozen(cls, **fields):
    """An instance of the frozen dataclass ``cls`` with these fields, made without running its __init__
    (which checks nothing here and costs a call per field): for results made by the thousand."""
    obj = object.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(obj, name, value)
    return obj


def pair_stats(hyp, ref, variant: str) -> tuple[int, int, int]:
    """(hits, hypothesis units, reference units) of two profiles, for ``"rouge<n>"`` or ``"rougeL"``."""
    h_tokens, r_tokens = hyp.tokens, ref.tokens
    if variant == "rougeL":
        return profile_lcs_length(hyp, ref), len(h_tokens), len(r_tokens)
    n = int(variant[5:])
    return ngram_hits(hyp, ref, n), max(0, len(h_tokens) - n + 1), max(0, len(r_tokens) - n + 1)


FAST_VARIANTS = re.compile(r"rouge([1-9][0-9]*|L)")


DEFAULT_VARIANTS = ("rouge1", "rouge2", "rougeL")


def _check_variants(variants: Any) -> tuple[str, ...]:
    if variants is DEFAULT_VARIANTS:  # the default, known good: skip the checks (called once per pair)
        return variants
    if isinstance(variants, str) or not isinstance(variants, Sequence) or not variants or not all(
        isinstance(v, str) and FAST_VARIANTS.fullmatch(v) for v in variants
    ):
        raise ValueError(f"variants must be a non-empty list of 'rouge<n>' or 'rougeL' names, got {variants!r}")
    for v in variants:
        if v != "rougeL":
            check_order(int(v[5:]))
    return tuple(variants)


def _needs(variants: tuple[str, ...]) -> tuple[tuple[int, ...], bool]:
    """(the n-gram orders, whether LCS masks are needed) to score ``variants`` from two profiles."""
    if variants is DEFAULT_VARIANTS:
        return (1, 2), True
    return tuple(sorted({int(v[5:]) for v in variants if v != "rougeL"})), "rougeL" in variants


def _scores_of_profiles(hyp, refs, variants, beta, aggregation, known_hits=None) -> dict[str, RougeScore]:
    out = {}
    for variant in variants:
        if len(refs) == 1:  # every aggregation of one reference is that reference's score
            if known_hits and variant in known_hits:  # counted already, for the whole list at once
                n = int(variant[5:])
                hits = known_hits[variant]
                hyp_len, ref_len = max(0, len(hyp.tokens) - n + 1), max(0, len(refs[0].tokens) - n + 1)
            else:
                hits, hyp_len, ref_len = pair_stats(hyp, refs[0], variant)
            out[variant] = score_counts(hits, hyp_len, ref_len, beta, variant)
        else:
            per_reference = [RougeStats(*pair_stats(hyp, r, variant)) for r in refs]
            out[variant] = combine_references(per_reference, aggregation, beta=beta, variant=variant)
    return out


def rouge_scores(
    hypothesis: str,
    references: Sequence[str],
    variants: Sequence[str] = DEFAULT_VARIANTS,
    *,
    stemmer: bool = False,
    tokenize: str = "rouge-score",
    beta: float = 1.0,
    aggregation: str = "best",
) -> dict[str, RougeScore]:
    """Several ROUGE-N / ROUGE-L scores of one pair at once, like rouge-score's ``RougeScorer.score``.

    Equal to calling :func:`rouge_n` / :func:`rouge_l` for each variant (the tests prove it), but each
    text is tokenized and counted once and cached (:func:`evalkit.fast.text_profile`), which is what makes scoring
    thousands of pairs fast.

    >>> s = rouge_scores("the cat sat on the mat", ["the cat is on the mat"])
    >>> {k: round(v.fmeasure, 4) for k, v in s.items()}
    {'rouge1': 0.8333, 'rouge2': 0.6, 'rougeL': 0.8333}
    """
    check_options(stemmer, tokenize, beta, aggregation)
    hypothesis, references = check_inputs(hypothesis, references)
    variants = _check_variants(variants)
    orders, lcs = _needs(variants)
    hyp = text_profile(hypothesis, tokenize, stemmer, orders)
    refs = [text_profile(r, tokenize, stemmer, orders, lcs) for r in references]
    warn_about_tokenization([hypothesis, *references], tokenize, [hyp.tokens, *[r.tokens for r in refs]])
    return _scores_of_profiles(hyp, refs, variants, beta, aggregation)


def rouge_scores_many(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    variants: Sequence[str] = DEFAULT_VARIANTS,
    *,
    stemmer: bool = False,
    tokenize: str = "rouge-score",
    beta: float = 1.0,
    aggregation: str = "best",
) -> list[dict[str, RougeScore]]:
    """:func:`rouge_scores` for every segment: ``references[i]`` lists the references of ``hypotheses[i]``.

    The checks run once for the whole list, which is all that distinguishes this from a loop; so does the
    look at the tokens (:func:`evalkit.tokenize.warn_about_tokenization`): one warning for the whole list.

    >>> [round(s["rouge1"].fmeasure, 4) for s in rouge_scores_many(["a b", "c"], [["a b c"], ["c", "d"]])]
    [0.8, 1.0]
    """
    check_options(stemmer, tokenize, beta, aggregation)
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
            check_inputs(hyp, refs, where=f"[{i}]")
    orders, lcs = _needs(variants)
    one_reference = all(len(refs) == 1 for refs in references)
    counted = () if one_reference else orders  # with one reference each, the hits come from an index (below)
    hyp_profiles = [text_profile(h, tokenize, stemmer, counted) for h in hypotheses]
    ref_profiles = [[text_profile(r, tokenize, stemmer, counted, lcs) for r in refs] for refs in references]
    known: list[dict[str, int]] = [{} for _ in hyp_profiles]
    if orders and one_reference:
        # One reference per segment: ROUGE-N's hits are BLEU's clipped matches against that reference,
        # counted for the whole list at once with integer n-gram ids (evalkit.fast.ReferenceIndex).
        index = ReferenceIndex([(refs[0].tokens,) for refs in ref_profiles], max(orders))
        per_order = index.matches([p.tokens for p in hyp_profiles], per_segment=True)
        for n in orders:
            for seen, hits in zip(known, per_order[n - 1].tolist()):
                seen[f"rouge{n}"] = hits
    texts = [*hypotheses, *chain.from_iterable(references)]
    tokens = [p.tokens for p in hyp_profiles] + [r.tokens for refs in ref_profiles for r in refs]
    warn_about_tokenization(texts, tokenize, tokens)
    return [
        _scores_of_profiles(hyp, refs, variants, beta, aggregation, seen)
        for hyp, refs, seen in zip(hyp_profiles, ref_profiles, known)
    ]


__all__ = ["DEFAULT_VARIANTS", "FAST_VARIANTS", "frozen", "pair_stats", "rouge_scores", "rouge_scores_many"]
