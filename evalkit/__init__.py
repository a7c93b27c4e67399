"""evalkit: BLEU, GLEU and ROUGE computed step by step, for learning.

The metrics live in their own modules so that each can be read on its own:

    >>> from evalkit.bleu import sentence_bleu
    >>> round(sentence_bleu("the cat sat on the mat", ["the cat is on the mat"], weights=(0.5, 0.5)).score, 4)
    0.7071

Modules: ``tokenize`` (tokenizers by name), ``ngrams`` (counting), ``bleu``, ``gleu``, ``rouge``,
``tables`` (pandas views of every step), ``plots`` (matplotlib), ``widgets`` (ipywidgets),
``data`` (the corpora shipped in ``data/``).  Importing ``evalkit`` imports none of the heavy ones.
"""

__version__ = "0.1.0"
