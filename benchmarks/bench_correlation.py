"""Kendall's tau on 3,000 items, and its bootstrap: evalkit (Knight's algorithm) against scipy.stats.kendalltau.

The items: 3,000 seeded pairs (x, y) with y = 0.6 x + noise, x rounded to 2 decimals and y to 1 decimal, so
that both sides have ties (as metric and human scores do: 479 distinct x values and 70 distinct y values).
scipy 1.17.1 is the peer (scipy is installed for the tests and the benchmarks, never used by evalkit).

- ``kendall_tau`` (tau-b) of the 3,000 items against ``scipy.stats.kendalltau`` (its default variant, tau-b):
  equal to 1e-12 (checked first), median of 5.
- ``bootstrap_correlation(method="kendall")`` with 1,000 resamples (evalkit's default) against the same 1,000
  resamples (the same seeded draws, in evalkit's canonical order) each given to ``scipy.stats.kendalltau``,
  the percentile interval taken the same way: the two intervals are checked equal (1e-12) first; one run
  each.  Before Knight's algorithm evalkit counted each resample's 4.5 million pairs one by one in Python
  (``pair_counts``): 1.3 to 3.6 s a resample depending on the machine's load, 22 to 60 minutes for the
  1,000 (see the notes in results.md).
"""

from __future__ import annotations

import time

import numpy as np
from bench import Row, median_time
from scipy import stats

from evalkit.correlation import bootstrap_correlation, canonical_order, kendall_tau
from evalkit.resample import generator, uniform_draws_in_chunks

N_ITEMS, N_SAMPLES, SEED = 3000, 1000, 12345


def items() -> tuple[list[float], list[float]]:
    rng = np.random.default_rng(0)
    x = rng.normal(size=N_ITEMS)
    y = 0.6 * x + rng.normal(size=N_ITEMS)
    return np.round(x, 2).tolist(), np.round(y, 1).tolist()


def scipy_bootstrap(x: list[float], y: list[float]) -> tuple[float, float]:
    """The 95% percentile interval of scipy's tau-b over evalkit's resamples (same seed, same order)."""
    order = canonical_order(x, y)
    xs, ys = np.array(x)[order], np.array(y)[order]
    estimates = []
    for draws in uniform_draws_in_chunks(generator(SEED), N_ITEMS, (N_SAMPLES, N_ITEMS)):
        estimates += [stats.kendalltau(xs[row], ys[row]).statistic for row in draws]
    low, high = np.percentile(estimates, [2.5, 97.5])
    return float(low), float(high)


def run() -> list[Row]:
    x, y = items()
    assert abs(kendall_tau(x, y) - stats.kendalltau(x, y).statistic) <= 1e-12 * abs(kendall_tau(x, y))
    rows = [Row("Kendall's tau-b, 3,000 items with ties", median_time(lambda: kendall_tau(x, y), 5),
                "scipy.stats.kendalltau", median_time(lambda: stats.kendalltau(x, y), 5))]

    t0 = time.perf_counter()
    ours = bootstrap_correlation(x, y, method="kendall", n_samples=N_SAMPLES, seed=SEED)
    t_ours = time.perf_counter() - t0
    t0 = time.perf_counter()
    low, high = scipy_bootstrap(x, y)
    t_scipy = time.perf_counter() - t0
    assert ours.undefined == 0 and abs(ours.low - low) <= 1e-12 and abs(ours.high - high) <= 1e-12
    rows.append(Row("Kendall's tau-b bootstrap, 1,000 resamples of 3,000 items", t_ours,
                    "scipy.stats.kendalltau on each resample", t_scipy,
                    note=f"same interval [{ours.low:.4f}, {ours.high:.4f}]; before Knight's algorithm: 22 to 60 min"))
    return rows
