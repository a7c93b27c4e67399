"""Calls into the ``gleu`` package (gleu 1.1.0, a Python 3 reimplementation of the official GLEU script by Shota Koyama) for the tests.

The package's command line reads files and prints rounded numbers; its functions give the unrounded
values.  ``corpus`` and ``sentences`` below string together the same functions its ``gleu`` and ``sgleu``
commands call (gleu/corpus_main.py, gleu/sent_main.py); test_gleu.py checks once that they print what the
command prints.

The package caches n-gram counts by sentence text (functools.cache) whatever the tokenization, so the
caches are cleared before every call: otherwise a character-level call after a word-level one would reuse
word n-grams.
"""

from __future__ import annotations

import numpy as np
from gleu import aggreg, corpus_main, count, score, util


def _setup(token: str) -> None:
    count.set_tokenization(token)
    for fn in (count.ngram_counter, count.split_char_ngram, count.split_word_ngram, aggreg.make_n_accum):
        fn.cache_clear()


def _load(hypotheses, reference_sets, sources, n, token):
    _setup(token)
    rs_dat = list(zip(*reference_sets))
    dr_rlen = count.make_dx_xlen(rs_dat)
    d_hlen = count.make_dx_xlen([[h] for h in hypotheses])[:, 0]
    drn_accum = aggreg.make_drn_accum(n, list(sources), rs_dat, list(hypotheses))
    return drn_accum, dr_rlen, d_hlen


def corpus(hypotheses, reference_sets, sources, *, n=4, iterations=500, use_max=False, token="word"):
    """(mean, per-iteration scores) as ``gleu -f`` (or ``gleu -m``) computes them, unrounded.

    ``reference_sets[k]`` is the k-th reference file (one line per sentence), as the command takes them.
    """
    drn_accum, dr_rlen, d_hlen = _load(hypotheses, reference_sets, sources, n, token)
    if use_max:  # corpus_main.corpus_max
        d_rmax = score.drn_accum_to_d_rmax(drn_accum, dr_rlen, d_hlen)
        n_accum = score.drn_accum_to_n_accum(drn_accum, d_rmax)
        rlen, hlen = score.rindex_to_rhlen(dr_rlen, d_hlen, d_rmax)
        value = float(score.n_accum_to_gleu(n_accum, rlen, hlen))
        return value, [value], list(d_rmax)
    id_rindex = util.make_id_rindex(iterations, len(dr_rlen), len(reference_sets), True)  # -f: fixed seeds
    gleus = [corpus_main.drn_accum_to_gleu(drn_accum, d_rindex, dr_rlen, d_hlen) for d_rindex in id_rindex]
    return float(np.mean(gleus)), [float(g) for g in gleus], id_rindex.tolist()


def sentences(hypotheses, reference_sets, sources, *, n=4, use_max=False, token="word"):
    """Per-sentence scores as ``sgleu`` (mean over references) or ``sgleu -m`` (max) computes them."""
    drn_accum, dr_rlen, d_hlen = _load(hypotheses, reference_sets, sources, n, token)
    return [
        float(score.rn_accum_to_gleu(rn_accum, dr_rlen[d], d_hlen[d], use_max)) for d, rn_accum in enumerate(drn_accum)
    ]


def sentence_verbose(hypothesis, references, source, *, n=4, token="word"):
    """The package's verbose per-order table (``sgleu -v``) for one sentence, one NVerbose per reference."""
    from gleu.verbose import NVerbose

    drn_accum, dr_rlen, d_hlen = _load([hypothesis], [[r] for r in references], [source], n, token)
    return [NVerbose(n_accum, dr_rlen[0, r], d_hlen[0]) for r, n_accum in enumerate(drn_accum[0])]
