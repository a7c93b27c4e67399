"""Run every benchmark in this folder and print one table: task, evalkit, peer, ratio.

Each ``bench_*.py`` module here defines ``run() -> list[Row]``; this script imports them in name order,
prints the rows and writes them to ``benchmarks/results.md`` (which the README links).  Peers and evalkit
are timed side by side in the same process, as medians of repeats.

    python benchmarks/bench.py            # all
    python benchmarks/bench.py bleu       # only bench_bleu.py
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOTES_MARKER = "<!-- notes: kept when bench.py rewrites this file -->"


@dataclass
class Row:
    task: str
    evalkit_s: float | None  # seconds (median)
    peer: str
    peer_s: float | None
    target: float | None = None  # required ratio peer/evalkit, if any
    note: str = ""

    @property
    def ratio(self) -> float | None:
        if self.evalkit_s and self.peer_s:
            return self.peer_s / self.evalkit_s
        return None

    @property
    def verdict(self) -> str:
        if self.target is None or self.ratio is None:
            return ""
        return "met" if self.ratio >= self.target else f"MISSED (target {self.target:g}x)"


def median_time(fn, repeats: int = 3) -> float:
    """Median wall-clock seconds of ``repeats`` calls of ``fn()``."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _fmt(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x * 1000:.1f} ms" if x < 1 else f"{x:.2f} s"


def render(rows: list[Row]) -> str:
    lines = [
        "| task | evalkit | peer | peer time | ratio (peer / evalkit) | target | note |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        ratio = f"{r.ratio:.2f}x" if r.ratio is not None else "-"
        target = f"{r.target:g}x: {r.verdict}" if r.target is not None else "-"
        lines.append(f"| {r.task} | {_fmt(r.evalkit_s)} | {r.peer} | {_fmt(r.peer_s)} | {ratio} | {target} | {r.note} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(HERE))
    if argv[:1] == ["--one"]:  # the child process: run one module, print its rows as JSON
        rows = importlib.import_module(argv[1]).run()
        print(json.dumps([dataclasses.asdict(r) for r in rows]))
        return 0
    names = sorted(p.stem for p in HERE.glob("bench_*.py"))
    if argv:
        names = [n for n in names if any(a in n for a in argv)]
    rows: list[Row] = []
    for name in names:
        # Each benchmark runs in a fresh interpreter, so that what an earlier one left in memory (caches,
        # corpora) does not slow the garbage collector during a later one.
        print(f"running {name} ...", flush=True)
        out = subprocess.run(
            [sys.executable, __file__, "--one", name], capture_output=True, text=True, check=True
        ).stdout
        rows.extend(Row(**r) for r in json.loads(out.strip().splitlines()[-1]))
    table = render(rows)
    print(table)
    header = (
        "# Benchmark results\n\n"
        f"Produced by `python benchmarks/bench.py` on {platform.machine()} with Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}. Times are medians of repeats, evalkit and the peer timed in the same run.\n\n"
    )
    if not argv:
        path = HERE / "results.md"
        # Notes written by hand below NOTES_MARKER (what a row means, figures from before a change) are kept.
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        notes = old[old.index(NOTES_MARKER):] if NOTES_MARKER in old else ""
        path.write_text(header + table + "\n" + ("\n" + notes if notes else ""), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
