"""Scale: peak memory of whole runs at hundreds of thousands of segments (issue 10's targets).

* corpus BLEU (13a) of 1M segments within 4 GB;
* corpus ROUGE-1 with a 1,000-resample bootstrap of 300k segments within 1 GB;
* memory linear in the input: each is also run at a quarter of the size, and the ratio of the memory
  beyond a bare interpreter with the inputs (peak RSS minus the RSS once the inputs exist) is reported.

The corpora are WMT17 en-de (the 16 systems' outputs against the reference) and JFLEG test (each source
against its first correction), repeated: segment i is line i mod n of the data, with the round number
i // n appended to hypothesis and reference alike, so that no two segments repeat a text (no cache can
fold them) and every round has the statistics of the real data.

Each measurement runs in a fresh process; its peak resident memory is read by the parent with
``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss`` (one child per measuring process, so the figure is that
child's alone).  rouge-score runs the same bootstrap task at the full size; sacreBLEU the BLEU task at
250k segments (at 1M it needs ~10 GB and four minutes).

    python benchmarks/bench.py scale
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time

from bench import Row

GB = 2**30


def wmt17_corpus(size: int) -> tuple[list[str], list[str]]:
    from evalkit.data import wmt17_reference, wmt17_systems

    reference = wmt17_reference()
    systems = list(wmt17_systems().values())
    n = len(reference)
    hyps = [f"{systems[(i // n) % len(systems)][i % n]} {i // n}" for i in range(size)]
    refs = [f"{reference[i % n]} {i // n}" for i in range(size)]
    return hyps, refs


def jfleg_corpus(size: int) -> tuple[list[str], list[str]]:
    from evalkit.data import jfleg

    data = jfleg("test")
    n = len(data.sources)
    hyps = [f"{data.sources[i % n]} {i // n}" for i in range(size)]
    refs = [f"{data.references[i % n][0]} {i // n}" for i in range(size)]
    return hyps, refs


def task_bleu(size: int):
    hyps, refs = wmt17_corpus(size)
    segment_refs = [[r] for r in refs]
    inputs = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    from evalkit.bleu import corpus_bleu

    t0 = time.perf_counter()
    score = corpus_bleu(hyps, segment_refs, tokenize="13a").score
    return time.perf_counter() - t0, inputs, score


def task_bleu_sacrebleu(size: int):
    hyps, refs = wmt17_corpus(size)
    inputs = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    from sacrebleu.metrics.bleu import BLEU

    t0 = time.perf_counter()
    score = BLEU().corpus_score(hyps, [refs]).score / 100
    return time.perf_counter() - t0, inputs, score


def task_bootstrap(size: int):
    hyps, refs = jfleg_corpus(size)
    segment_refs = [[r] for r in refs]
    inputs = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    from evalkit.rouge_corpus import corpus_rouge

    t0 = time.perf_counter()
    result = corpus_rouge(hyps, segment_refs, "rouge1", n_samples=1000, seed=0)
    return time.perf_counter() - t0, inputs, result.estimate.fmeasure


def task_bootstrap_rouge_score(size: int):
    hyps, refs = jfleg_corpus(size)
    inputs = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    import numpy as np
    from rouge_score import rouge_scorer, scoring

    np.random.seed(0)  # rouge-score's aggregator draws from numpy's global generator
    t0 = time.perf_counter()
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    aggregator = scoring.BootstrapAggregator(confidence_interval=0.95, n_samples=1000)
    for h, r in zip(hyps, refs):
        aggregator.add_scores(scorer.score(r, h))  # rouge-score takes the reference first
    result = aggregator.aggregate()
    return time.perf_counter() - t0, inputs, result["rouge1"].mid.fmeasure


TASKS = {
    "bleu": task_bleu,
    "bleu-sacrebleu": task_bleu_sacrebleu,
    "bootstrap": task_bootstrap,
    "bootstrap-rouge-score": task_bootstrap_rouge_score,
}


def measure(task: str, size: int) -> dict:
    """Run ``task`` at ``size`` in a child of a fresh process; seconds, peak RSS and RSS with the inputs."""
    out = subprocess.run([sys.executable, __file__, "--measure", task, str(size)], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def _measure_child(task: str, size: int) -> None:
    out = subprocess.run([sys.executable, __file__, "--worker", task, str(size)], capture_output=True, text=True,
                         check=True).stdout
    result = json.loads(out.strip().splitlines()[-1])
    result["peak"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024  # kilobytes on Linux
    print(json.dumps(result))


def _worker(task: str, size: int) -> None:
    seconds, inputs, score = TASKS[task](size)
    print(json.dumps({"seconds": seconds, "inputs": inputs * 1024, "score": score}))


def _gb(x: float) -> str:
    return f"{x / GB:.2f} GB"


def _growth(small: dict, large: dict, sizes: tuple[int, int]) -> str:
    beyond = (large["peak"] - large["inputs"]) / max(small["peak"] - small["inputs"], 1)
    return (f"x{sizes[1] / sizes[0]:g} segments: peak x{large['peak'] / small['peak']:.2f}, inputs"
            f" x{large['inputs'] / small['inputs']:.2f}, the rest x{beyond:.2f}")


def run() -> list[Row]:
    rows = []
    # BLEU: sacreBLEU at a quarter of the size only (at 1M segments it needs ~10 GB and four minutes).
    sizes = (250_000, 1_000_000)
    small, large = (measure("bleu", s) for s in sizes)
    theirs = measure("bleu-sacrebleu", sizes[0])
    assert abs(small["score"] - theirs["score"]) < 1e-9  # the same corpus BLEU
    rows.append(Row(f"corpus BLEU 13a, {sizes[0]:,} segments (memory)", small["seconds"], "sacreBLEU corpus_score",
                    theirs["seconds"], None, f"peak RSS {_gb(small['peak'])} (inputs alone {_gb(small['inputs'])});"
                    f" sacreBLEU peak {_gb(theirs['peak'])}"))
    verdict = "met" if large["peak"] <= 4 * GB else "MISSED"
    rows.append(Row(f"corpus BLEU 13a, {sizes[1]:,} segments (memory)", large["seconds"], "-", None, None,
                    f"peak RSS {_gb(large['peak'])}, target <= 4 GB: {verdict} (inputs alone {_gb(large['inputs'])});"
                    f" from {sizes[0]:,}: {_growth(small, large, sizes)}"))
    # The bootstrap: rouge-score at the full size (cheap).
    sizes = (75_000, 300_000)
    small, large = (measure("bootstrap", s) for s in sizes)
    theirs = measure("bootstrap-rouge-score", sizes[1])
    assert abs(large["score"] - theirs["score"]) < 1e-3  # mean F; the peers' bootstrap reports a median
    verdict = "met" if large["peak"] <= 1 * GB else "MISSED"
    rows.append(Row(f"corpus ROUGE-1 + 1,000-resample bootstrap, {sizes[1]:,} segments (memory)", large["seconds"],
                    "rouge-score BootstrapAggregator", theirs["seconds"], None,
                    f"peak RSS {_gb(large['peak'])}, target <= 1 GB: {verdict} (inputs alone {_gb(large['inputs'])});"
                    f" rouge-score peak {_gb(theirs['peak'])}; from {sizes[0]:,}: {_growth(small, large, sizes)}"))
    return rows


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        _measure_child(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1:2] == ["--worker"]:
        _worker(sys.argv[2], int(sys.argv[3]))
    else:
        for row in run():
            print(row)
