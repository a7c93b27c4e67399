"""Corpus chrF, chrF++ and TER on the 16 WMT17 en-de systems: evalkit against sacreBLEU, cold.

Every measurement runs in a fresh interpreter (this file, run as a script with ``--child``), so neither
library starts with anything cached: sacreBLEU builds its metric with the references (its reference
cache) and scores the 16 systems; evalkit scores them with ``corpus_chrf`` / ``corpus_ter`` (its reference
cache is filled by the first system).  Imports and reading the data are outside the timing.  The child
prints its scores with its time; the scores of the two sides are checked equal (1e-9) before the rows
are reported.  chrF and chrF++ take the fastest of three cold runs per side, alternating the sides (on a
shared machine one run is at the mercy of the load); TER, whose sacreBLEU run takes minutes, one each.

TER on long segments (issue 19): one 2,000-word pair, ``sentence_ter`` against sacreBLEU's
``sentence_score`` (time), and one 19,000-word line as a corpus of one segment (memory).  The long lines
are WMT17 joined end to end (:func:`long_pair`).  The memory child reads its peak with ``tracemalloc``
(Python's allocations: what the segment's tables take) and ``getrusage(RUSAGE_SELF).ru_maxrss`` (the
whole process); single cold runs.  ``python benchmarks/bench_chrf_ter.py long``: these rows only.
"""

from __future__ import annotations

import json
import math
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

TASKS = {
    "chrF": dict(word_order=0),
    "chrF++": dict(word_order=2),
    "TER": dict(),
}
RUNS = {"chrF": 3, "chrF++": 3, "TER": 1}
LONG = {"TER long pair": 2_000, "TER long line": 19_000}  # task: words in the hypothesis and the reference
MB = 2**20


def long_pair(n_words: int) -> tuple[str, str]:
    """(hypothesis, reference): WMT17's uedin-nmt output and reference, joined and cut to n_words each."""
    from evalkit.data import wmt17_reference, wmt17_systems

    reference, hypothesis = wmt17_reference(), wmt17_systems()["uedin-nmt"]
    ref_words, hyp_words, i = [], [], 0
    while len(ref_words) < n_words or len(hyp_words) < n_words:
        ref_words += reference[i].split()
        hyp_words += hypothesis[i].split()
        i += 1
    return " ".join(hyp_words[:n_words]), " ".join(ref_words[:n_words])


def _long_child(side: str, task: str) -> None:
    hyp, ref = long_pair(LONG[task])
    if side == "sacrebleu":
        from sacrebleu.metrics import TER

        score = lambda: TER().sentence_score(hyp, [ref]).score  # noqa: E731
    elif task == "TER long pair":
        from evalkit.ter import sentence_ter

        score = lambda: sentence_ter(hyp, [ref]).score * 100  # noqa: E731
    else:  # the line as a corpus of one segment: the engine sentence_ter shares
        from evalkit.ter import corpus_ter

        score = lambda: corpus_ter([hyp], [[ref]]).score * 100  # noqa: E731
    memory = task == "TER long line"
    if memory:
        tracemalloc.start()
    t0 = time.perf_counter()
    value = score()
    seconds = time.perf_counter() - t0
    print(json.dumps({"seconds": seconds, "scores": [value],
                      "traced_peak": tracemalloc.get_traced_memory()[1] if memory else None,
                      "maxrss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))


def _child(side: str, task: str) -> None:
    if task in LONG:
        _long_child(side, task)
        return
    from evalkit import data

    reference, systems = data.wmt17_reference(), data.wmt17_systems()
    if side == "sacrebleu":
        from sacrebleu.metrics import CHRF, TER

        t0 = time.perf_counter()
        metric = TER(references=[reference]) if task == "TER" else CHRF(references=[reference], **TASKS[task])
        scores = [metric.corpus_score(hyps, None).score for hyps in systems.values()]
    else:
        from evalkit.chrf import corpus_chrf
        from evalkit.ter import corpus_ter

        refs = [[r] for r in reference]
        t0 = time.perf_counter()
        if task == "TER":
            scores = [corpus_ter(hyps, refs).score * 100 for hyps in systems.values()]
        else:
            scores = [corpus_chrf(hyps, refs, **TASKS[task]).score * 100 for hyps in systems.values()]
    print(json.dumps({"seconds": time.perf_counter() - t0, "scores": scores}))


def _cold(side: str, task: str) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", side, task], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def long_rows() -> list:
    from bench import Row

    ours, theirs = _cold("evalkit", "TER long pair"), _cold("sacrebleu", "TER long pair")
    assert math.isclose(ours["scores"][0], theirs["scores"][0], rel_tol=1e-9, abs_tol=1e-9), (ours, theirs)
    rows = [Row(f"sentence_ter, one {LONG['TER long pair']:,}-word pair (WMT17 uedin-nmt joined; one cold run)",
                ours["seconds"], "sacreBLEU TER().sentence_score", theirs["seconds"],
                note=f"both {ours['scores'][0]:.4f}")]
    line = _cold("evalkit", "TER long line")
    rows.append(Row(f"corpus_ter of one {LONG['TER long line']:,}-word line (memory; one cold run, tracemalloc on)",
                    line["seconds"], "-", None,
                    note=f"peak traced {line['traced_peak'] / MB:.1f} MB, peak RSS {line['maxrss'] / MB:.0f} MB "
                         f"(TER {line['scores'][0]:.4f})"))
    return rows


def run():
    from bench import Row

    rows = []
    for task in TASKS:
        ours, theirs = [], []
        for _ in range(RUNS[task]):
            ours.append(_cold("evalkit", task))
            theirs.append(_cold("sacrebleu", task))
        for a, b in zip(ours[0]["scores"], theirs[0]["scores"]):
            assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9), (task, a, b)
        runs = "fastest of 3 cold runs" if RUNS[task] > 1 else "one cold run"
        rows.append(Row(f"corpus {task}, 16 WMT17 systems ({runs}: fresh interpreter, nothing cached)",
                        min(r["seconds"] for r in ours), "sacreBLEU, refs cached in the metric",
                        min(r["seconds"] for r in theirs), target=3.0))
    return rows + long_rows()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2], sys.argv[3])
    else:  # python benchmarks/bench_chrf_ter.py: this module's rows only
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from bench import render

        print(render(long_rows() if sys.argv[1:2] == ["long"] else run()))
