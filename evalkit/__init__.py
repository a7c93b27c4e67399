"""evalkit: BLEU, GLEU and ROUGE computed step by step, for learning.

The metrics live in their own modules so that each can be read on its own:

    >>> from evalkit.bleu import sentence_bleu
    >>> round(sentence_bleu("the cat sat on the mat", ["the cat is on the mat"], weights=(0.5, 0.5)).score, 4)
    0.7071

Where things live (hypothesis first, references second, everywhere; a tokenizer is chosen by name with
``tokenize=``):

==================  ======================================================================================
``tokenize``        every tokenizer, by name (none, 13a, intl, char, char-with-spaces, rouge-score, unicode,
                    unicode-cjk, nltk), and the Porter ``stem``
``ngrams``          n-grams and clipped counts
``protocol``        what every metric shares: the additive statistics base, the one F-measure, and the
                    ``Metric`` each metric module registers (its statistics as rows, the score of summed rows)
``lcs``             longest common subsequence tables and paths (ROUGE-L, -Lsum, -W)
``bleu``            BLEU: statistics, smoothing, sentence and corpus scores
``gleu``            GLEU for grammatical error correction, and ``python -m evalkit.gleu``
``google_bleu``     Google's GLEU (Wu et al. 2016), a different metric with the same name
``chrf``            chrF and chrF++ (Popović 2015, 2017), its whole-corpus counting beside the readable one
``ter``             TER with TERCOM's greedy shift search (Snover et al. 2006); ``ter_fast``: a faster search
``significance``    paired bootstrap and approximate randomization (Koehn 2004; Riezler & Maxwell 2005)
                    of any registered metric (BLEU, chrF/chrF++, TER, ROUGE, GEC GLEU), through the protocol
``correlation``     Pearson and Kendall correlation with human scores, with bootstrap intervals
``resample``        seeded bootstrap draws in chunks and the one ``Interval`` (significance, rouge_corpus and
                    correlation resample through it)
``rouge``           ROUGE of one hypothesis: N, L, Lsum, W, S, SU, and the multi-reference rules
``rouge_many``      several ROUGE variants of many pairs at once (rouge-score's ``RougeScorer``)
``rouge_corpus``    corpus ROUGE with a bootstrap confidence interval
``ranking``         ranking systems by score (one tie rule)
``fast``            metric-agnostic fast engines and their caches (no metric lives there)
``tables``          the views (above the metrics; no metric module imports them): pandas tables of every
                    step, ``chrf_table`` among them
``plots``           matplotlib figures, ``plot_agreement`` (metric against human scores) among them
``widgets``         the BLEU weights explorer (ipywidgets), with its table and bars as HTML and SVG
``data``            the corpora shipped in ``data/``
==================  ======================================================================================

Importing ``evalkit`` imports none of them; :func:`clear_caches` and :func:`cache_info` reach the caches
of the fast paths (lessons 09 and 10).
"""

__version__ = "0.1.0"


def clear_caches() -> None:
    """Forget every cached tokenization, reference count, ROUGE profile and reference index, so that the
    next call starts cold, as in a new process."""
    from . import fast

    fast.clear_caches()


def cache_info(memory: bool = False) -> dict:
    """How many entries each of evalkit's caches holds, by cache name; with ``memory=True``, per cache its
    entries, approximate bytes and byte budget, and under ``"total"`` the byte-counted caches together and
    the overall cap that bounds them, 1 GiB by default (:func:`evalkit.fast.cache_info`; change the cap
    with :func:`evalkit.fast.set_total_cache_budget` or the environment variable ``EVALKIT_CACHE_BUDGET``).

    >>> clear_caches(); sum(cache_info().values())
    0
    """
    from . import fast

    return fast.cache_info(memory)
