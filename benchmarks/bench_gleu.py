"""GLEU timings: evalkit against the ``gleu`` package (GEC GLEU) and NLTK (Google's GLEU), side by side.

The gleu package is called through the functions its ``gleu -f`` command runs (gleu/corpus_main.py),
from counting to the mean over iterations, with its n-gram caches cleared before every repeat so that
both sides count from scratch.  Both sides start from the same in-memory sentences: file reading and
interpreter start-up are left out.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

from bench import Row, median_time

from evalkit import data
from evalkit import gleu as g
from evalkit import google_bleu


def _gleu_package_corpus(hypotheses, reference_sets, sources, iterations=500, use_max=False):
    import numpy as np
    from gleu import aggreg, corpus_main, count, score, util

    count.set_tokenization("word")
    for fn in (count.ngram_counter, count.split_char_ngram, count.split_word_ngram, aggreg.make_n_accum):
        fn.cache_clear()
    rs_dat = list(zip(*reference_sets))
    dr_rlen = count.make_dx_xlen(rs_dat)
    d_hlen = count.make_dx_xlen([[h] for h in hypotheses])[:, 0]
    drn_accum = aggreg.make_drn_accum(4, list(sources), rs_dat, list(hypotheses))
    if use_max:
        d_rmax = score.drn_accum_to_d_rmax(drn_accum, dr_rlen, d_hlen)
        n_accum = score.drn_accum_to_n_accum(drn_accum, d_rmax)
        rlen, hlen = score.rindex_to_rhlen(dr_rlen, d_hlen, d_rmax)
        return float(score.n_accum_to_gleu(n_accum, rlen, hlen))
    id_rindex = util.make_id_rindex(iterations, len(dr_rlen), len(reference_sets), True)
    return float(np.mean([corpus_main.drn_accum_to_gleu(drn_accum, d, dr_rlen, d_hlen) for d in id_rindex]))


def _whole_process_row() -> Row:
    """The issue's target: a whole process each (start-up, imports, reading the files, 500 iterations)."""
    folder = data.data_dir() / "jfleg"
    files = ["-s", "test.src", "-r", "test.ref0", "test.ref1", "test.ref2", "test.ref3", "-o", "test.src"]
    ours_cmd = [sys.executable, "-m", "evalkit.gleu", *files, "-d", "6"]
    theirs_cmd = [str(Path(sys.executable).parent / "gleu"), *files, "-f", "-d", "6"]

    def run_cmd(cmd):
        out = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, check=True).stdout
        return float(out.split("\t")[1])

    ours, theirs = run_cmd(ours_cmd), run_cmd(theirs_cmd)
    assert math.isclose(ours, theirs, abs_tol=1e-6), (ours, theirs)  # both print six decimals of GLEU x 100
    return Row(
        task="corpus GLEU as a whole process: JFLEG test, 4 refs, 500 iterations",
        evalkit_s=median_time(lambda: run_cmd(ours_cmd)),
        peer="gleu 1.1.0 command (gleu -f)",
        peer_s=median_time(lambda: run_cmd(theirs_cmd)),
        target=5.0,
        note=f"python -m evalkit.gleu; both print {ours:.4f}",
    )


def run() -> list[Row]:
    from nltk.translate import gleu_score

    jf = data.jfleg("test")
    rows = [_whole_process_row()]

    ours = g.corpus_gleu(jf.sources, jf.references, jf.sources).score
    theirs = _gleu_package_corpus(jf.sources, jf.reference_sets, jf.sources)
    assert math.isclose(ours, theirs, rel_tol=0, abs_tol=1e-8), (ours, theirs)
    rows.append(
        Row(
            task="corpus GLEU, JFLEG test source, 4 refs, 500 iterations",
            evalkit_s=median_time(lambda: g.corpus_gleu(jf.sources, jf.references, jf.sources)),
            peer="gleu 1.1.0 (gleu -f)",
            peer_s=median_time(lambda: _gleu_package_corpus(jf.sources, jf.reference_sets, jf.sources)),
            note=f"both {100 * ours:.4f}",
        )
    )
    rows.append(
        Row(
            task="corpus GLEU max mode, JFLEG test source, 4 refs",
            evalkit_s=median_time(lambda: g.corpus_gleu(jf.sources, jf.references, jf.sources, mode="max")),
            peer="gleu 1.1.0 (gleu -m)",
            peer_s=median_time(lambda: _gleu_package_corpus(jf.sources, jf.reference_sets, jf.sources, use_max=True)),
        )
    )

    hyps = [s.split() for s in jf.sources]
    refs = [[r.split() for r in rs] for rs in jf.references]
    rows.append(
        Row(
            task="Google's GLEU, corpus, JFLEG test source, 4 refs",
            evalkit_s=median_time(lambda: google_bleu.corpus_google_bleu(hyps, refs)),
            peer="nltk 3.10.4 gleu_score.corpus_gleu",
            peer_s=median_time(lambda: gleu_score.corpus_gleu(refs, hyps)),
        )
    )
    return rows
