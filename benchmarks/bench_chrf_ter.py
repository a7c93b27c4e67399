"""Corpus chrF, chrF++ and TER on the 16 WMT17 en-de systems: evalkit against sacreBLEU, cold.

Every measurement runs in a fresh interpreter (this file, run as a script with ``--child``), so neither
library starts with anything cached: sacreBLEU builds its metric with the references (its reference
cache) and scores the 16 systems; evalkit scores them with ``corpus_chrf`` / ``corpus_ter`` (its reference
cache is filled by the first system).  Imports and reading the data are outside the timing.  The child
prints its scores with its time; the scores of the two sides are checked equal (1e-9) before the rows
are reported.  chrF and chrF++ take the fastest of three cold runs per side, alternating the sides (on a
shared machine one run is at the mercy of the load); TER, whose sacreBLEU run takes minutes, one each.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time
from pathlib import Path

TASKS = {
    "chrF": dict(word_order=0),
    "chrF++": dict(word_order=2),
    "TER": dict(),
}
RUNS = {"chrF": 3, "chrF++": 3, "TER": 1}


def _child(side: str, task: str) -> None:
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
    return rows


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2], sys.argv[3])
    else:  # python benchmarks/bench_chrf_ter.py: this module's rows only
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from bench import render

        print(render(run()))
