"""The command line: ``python -m evalkit`` against ``sacrebleu`` on the 16 WMT17 systems, and its memory on
1M segments.

Each timing is a whole cold process (interpreter start-up, imports, reading the gzip files, scoring,
printing), the same flags on both sides: the reference and the 16 system files of ``data/wmt17-en-de`` with
``-i``, which both read as a multi-system run and print one score per system and metric.  Both outputs are
compared first (``-w 6``, the version field aside).  The paired bootstrap prints ``-f text`` on both sides
(sacreBLEU's JSON crashes there under numpy 2) with ``--paired-bs-null sacrebleu`` for evalkit, so that both
print the same p-values; the tables differ in layout, so only the scores are compared there.

Memory: ``python -m evalkit REF -i HYP -m bleu`` on files of 250,000 and 1,000,000 segments (WMT17 repeated
as in ``bench_scale.py``: no two segments alike), peak resident memory of the child process, read by a
measuring process of its own with ``getrusage(RUSAGE_CHILDREN)``.  The CLI sums BLEU's statistics chunk by
chunk (``evalkit.cli.CHUNK`` segments), so its memory should not grow with the file.

    python benchmarks/bench.py cli
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import Row

from evalkit.data import data_dir

FOLDER = data_dir() / "wmt17-en-de"
SACREBLEU = str(Path(sys.executable).parent / "sacrebleu")
GB = 2**30


def _files() -> list[str]:
    systems = sorted(str(p.relative_to(FOLDER)) for p in (FOLDER / "systems").glob("*.de.gz"))
    return ["reference.de.gz", "-i", *systems]


def _run(cmd: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    out = subprocess.run(cmd, cwd=FOLDER, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - t0, out


def _same_version(text: str) -> str:
    return re.sub(r"version:(2\.6\.0|evalkit-[0-9.]+)", "version:V", text)


def _scores(text: str) -> list[str]:
    return re.findall(r"\d+\.\d+", text.split("Paired")[0].split("Signatures")[0])


def _row(task: str, flags: list[str], repeats: int, ours_extra: tuple[str, ...] = (), compare=_same_version) -> Row:
    ours_cmd = [sys.executable, "-m", "evalkit", *_files(), *flags, *ours_extra]
    theirs_cmd = [SACREBLEU, *_files(), *flags]
    ours_times, theirs_times, outputs = [], [], None
    for _ in range(repeats):
        t, ours = _run(ours_cmd)
        ours_times.append(t)
        t, theirs = _run(theirs_cmd)
        theirs_times.append(t)
        outputs = ours, theirs
    assert compare(outputs[0]) == compare(outputs[1]), (outputs[0][:500], outputs[1][:500])
    how = f"fastest of {repeats} cold processes" if repeats > 1 else "one cold process each"
    return Row(task=f"{task} ({how})", evalkit_s=min(ours_times), peer="sacreBLEU 2.6.0 command (same flags)",
               peer_s=min(theirs_times), note="same output, checked first (" + ("the scores" if compare is _scores
                                                                            else "-w 6, version aside") + ")")


def _peak_rss(cmd: list[str]) -> tuple[float, float]:
    """(seconds, peak RSS in bytes) of ``cmd`` run by a measuring process of its own."""
    probe = ("import resource, subprocess, sys, time; t0 = time.perf_counter(); "
             "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
             "print(time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", probe, *cmd], capture_output=True, text=True, check=True).stdout
    seconds, kib = out.split()
    return float(seconds), int(kib) * 1024


def _memory_rows() -> list[Row]:
    from bench_scale import wmt17_corpus

    rows, peaks = [], {}
    with tempfile.TemporaryDirectory() as folder:
        for size in (250_000, 1_000_000):
            hyps, refs = wmt17_corpus(size)
            ref, hyp = Path(folder, "ref.txt"), Path(folder, "hyp.txt")
            ref.write_text("\n".join(refs) + "\n", encoding="utf-8")
            hyp.write_text("\n".join(hyps) + "\n", encoding="utf-8")
            megabytes = (ref.stat().st_size + hyp.stat().st_size) / 2**20
            del hyps, refs
            seconds, peak = _peak_rss([sys.executable, "-m", "evalkit", str(ref), "-i", str(hyp), "-m", "bleu", "-b"])
            peaks[size] = peak
            growth = f"; from 250,000: x4 segments, peak x{peak / peaks[250_000]:.2f}" if size > 250_000 else ""
            rows.append(Row(task=f"python -m evalkit -m bleu, {size:,} segments from files (memory)", evalkit_s=seconds,
                            peer="-", peer_s=None,
                            note=f"peak RSS {peak / GB:.2f} GB, files {megabytes:.0f} MB, target <= 4 GB: "
                                 f"{'met' if peak <= 4 * GB else 'MISSED'} (streamed in chunks){growth}"))
    return rows


def run() -> list[Row]:
    return [
        _row("python -m evalkit vs sacrebleu: -m bleu, 16 WMT17 systems", ["-m", "bleu", "-w", "6"], 3),
        _row("python -m evalkit vs sacrebleu: -m bleu chrf, 16 WMT17 systems", ["-m", "bleu", "chrf", "-w", "6"], 3),
        _row("python -m evalkit vs sacrebleu: -m bleu chrf ter, 16 WMT17 systems", ["-m", "bleu", "chrf", "ter", "-w", "6"],
             1),
        _row("python -m evalkit vs sacrebleu: -m bleu chrf --paired-bs (1,000 resamples), 16 WMT17 systems",
             ["-m", "bleu", "chrf", "--paired-bs", "-f", "text"], 1, ("--paired-bs-null", "sacrebleu"), _scores),
        *_memory_rows(),
    ]
