"""Paired significance tests on the 16 WMT17 en-de systems: evalkit against sacreBLEU's PairedTest, in one run.

LIUM-NMT is the baseline, BLEU with sacreBLEU's defaults (13a, exp smoothing), seed 12345: the paired
bootstrap with 1,000 resamples and approximate randomization with 10,000 trials.  Each side starts cold:
the timing includes extracting every system's per-segment statistics, with the tokenizer caches of both
libraries cleared first.  The results are checked equal (identical p-values, means and intervals to 1e-9
BLEU points, with ``sacrebleu_float32=True``) before anything is timed.  One timed pass per side (sacreBLEU
takes about 11 s and 32 s here).

chrF (sacreBLEU's chrF2 defaults) the same way, except that sacreBLEU's metric is built with its references
(its reference cache, inside the timing) and its one timed run is also the run checked for agreement (about
25 s and a minute here, most of it counting character n-grams in Python); evalkit starts with
``evalkit.clear_caches()``.
"""

from __future__ import annotations

import os
import time

from bench import Row
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.significance import PairedTest

import evalkit
from evalkit import data
from evalkit.significance import paired_approximate_randomization, paired_bootstrap

BASELINE = "LIUM-NMT"


def _clear_token_caches():
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

    from evalkit.fast import tokenize_13a_fast

    Tokenizer13a.__call__.cache_clear()
    TokenizerRegexp.__call__.cache_clear()
    tokenize_13a_fast.cache_clear()


def run() -> list[Row]:
    os.environ.pop("SACREBLEU_SEED", None)  # sacreBLEU's default seed, 12345
    reference, systems = data.wmt17_reference(), data.wmt17_systems()
    refs = [[r] for r in reference]
    base = systems[BASELINE]
    others = {n: h for n, h in systems.items() if n != BASELINE}
    named = [(BASELINE, base), *others.items()]

    def sacre(test_type, n):
        return PairedTest(named, {"BLEU": BLEU()}, [reference], test_type=test_type, n_samples=n)()[1]["BLEU"]

    def ours(test, n, float32=True):
        # the bootstrap's p-value as sacreBLEU computes it (null="sacrebleu"), to compare; the default differs
        extra = {"null": "sacrebleu"} if test is paired_bootstrap else {}
        return test(base, others, refs, n_samples=n, tokenize="13a", smoothing="exp", baseline_name=BASELINE,
                    sacrebleu_float32=float32, **extra)

    tasks = [("paired bootstrap, 1,000 resamples", "bs", paired_bootstrap, 1000),
             ("approximate randomization, 10,000 trials", "ar", paired_approximate_randomization, 10000)]
    rows = []
    for label, kind, test, n in tasks:
        theirs, mine = sacre(kind, n), ours(test, n)  # agreement first
        for t, o in zip(theirs, mine.values()):
            assert o.p_value == t.p_value
            assert abs(o.score * 100 - t.score) <= 1e-9
            if t.mean is not None:
                assert abs(o.mean * 100 - t.mean) <= 1e-9 and abs(o.ci * 100 - t.ci) <= 1e-9

        def timed(fn):
            _clear_token_caches()
            t0 = time.perf_counter()
            fn()
            return time.perf_counter() - t0

        t_sacre = timed(lambda: sacre(kind, n))
        t_ours = timed(lambda: ours(test, n))
        t_exact = timed(lambda: ours(test, n, float32=False))
        rows.append(Row(f"{label}, 16 WMT17 systems, cold (statistics included)", t_ours,
                        "sacreBLEU PairedTest", t_sacre, target=3.0, note="sacrebleu_float32=True"))
        rows.append(Row(f"{label}, 16 WMT17 systems, cold, exact arithmetic (default)", t_exact,
                        "sacreBLEU PairedTest", t_sacre))
    rows += _chrf_rows(reference, refs, base, others, named, tasks)
    return rows


def _chrf_rows(reference, refs, base, others, named, tasks) -> list[Row]:
    def timed(fn):
        evalkit.clear_caches()
        t0 = time.perf_counter()
        out = fn()
        return out, time.perf_counter() - t0

    rows = []
    for label, kind, test, n in tasks:
        extra = {"null": "sacrebleu"} if test is paired_bootstrap else {}  # sacreBLEU's bootstrap p-value
        theirs, t_sacre = timed(lambda: PairedTest(named, {"chrF": CHRF(references=[reference])}, None,
                                                   test_type=kind, n_samples=n)()[1]["chrF2"])
        mine, t_ours = timed(lambda: test(base, others, refs, metric="chrf", n_samples=n, baseline_name=BASELINE,
                                          sacrebleu_float32=True, **extra))
        for t, o in zip(theirs, mine.values()):
            assert o.p_value == t.p_value
            assert abs(o.score * 100 - t.score) <= 1e-9
            if t.mean is not None:
                assert abs(o.mean * 100 - float(t.mean)) <= 1e-9 and abs(o.ci * 100 - float(t.ci)) <= 1e-9
        _, t_exact = timed(lambda: test(base, others, refs, metric="chrf", n_samples=n, baseline_name=BASELINE,
                                        **extra))
        rows.append(Row(f"chrF {label}, 16 WMT17 systems, cold (statistics included)", t_ours,
                        "sacreBLEU PairedTest", t_sacre, note="sacrebleu_float32=True"))
        rows.append(Row(f"chrF {label}, 16 WMT17 systems, cold, exact arithmetic (default)", t_exact,
                        "sacreBLEU PairedTest", t_sacre))
    return rows
