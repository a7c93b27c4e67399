"""Resampling: seeded bootstrap draws, a chunk of resamples at a time, and the interval they give.

Three parts of evalkit resample a corpus or a list of items: the paired significance tests
(:mod:`evalkit.significance`), the corpus ROUGE bootstrap (:mod:`evalkit.rouge_corpus`) and the correlation
bootstrap (:mod:`evalkit.correlation`).  They all draw here, with one seed rule, and summarise their
resampled estimates with one :class:`Interval`.

**The seed rule.**  ``seed`` is an int >= 0 or ``None``.  An int seeds numpy's default generator
(``numpy.random.default_rng(seed)``, PCG64): the same seed gives the same draws on every run.  ``None``
takes fresh entropy from the operating system, so the results change from run to run.  Every function
that resamples defaults to :data:`DEFAULT_SEED`, 12345, sacreBLEU's default (its ``SACREBLEU_SEED``).

**Draws.**  A bootstrap resample of n items draws n item indexes, uniformly and with replacement
(:func:`uniform_draws_in_chunks`); the significance tests only need how often each item was drawn
(:func:`draw_counts`).  Approximate randomization flips one coin per item instead (:func:`coin_flips`).
All of them hand out a chunk of resamples at a time, so memory grows with the number of items, not with
items x resamples (1,000 resamples of 300,000 segments would be 2.4 GB of indexes at once), and the chunks
hold exactly the numbers one big call would draw:

- an index below 2**32 is made from 32 random bits, half of one 64-bit word of the generator, and numpy
  keeps an unused half in the generator's state for its next call, so consecutive calls continue one stream;
- a coin flip takes one bit of a 32-bit number, and a call drops the bits it did not use; a chunk of
  a multiple of 32 resamples uses whole 32-bit numbers only (``coin_flips`` refuses other chunk sizes).

sacreBLEU 2.6.0 draws its bootstrap with ``rng.choice(n, size=(n_samples, n), replace=True)``, which gives
the same numbers as ``rng.integers(0, n, size=(n_samples, n))``, and its coin flips with
``rng.integers(2, size=(n_samples, n), dtype=bool)``: with the same seed, the draws here are sacreBLEU's,
draw for draw (``tests/test_resample.py`` pins both).

**Intervals.**  :meth:`Interval.from_samples` summarises the resampled estimates by one of two rules:

- ``rule="percentile"`` (the default): the (1 - confidence) / 2 and (1 + confidence) / 2 percentiles,
  interpolated linearly between neighbouring estimates (numpy's default, as rouge-score's
  ``BootstrapAggregator``);
- ``rule="sacrebleu"``: Koehn's (2004) 95% interval as Moses and sacreBLEU compute it: sort the n
  estimates and take those ranked ``n // 40`` from either end (no interpolation; with fewer than 40
  estimates nothing is cut).  sacreBLEU reports it as the mean ± half the distance between those two
  (:meth:`Interval.mean_and_half_width`, :func:`confidence_interval`).

    >>> iv = Interval.from_samples([3.0, 1.0, 2.0, 5.0, 4.0], confidence=0.5)
    >>> iv.low, iv.median, iv.high
    (2.0, 3.0, 4.0)
    >>> confidence_interval(range(1, 81))   # 80 scores: ranks 2 and 77 (from 0), mean 40.5
    (40.5, 37.5)
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ._checks import check_choice, check_int

if TYPE_CHECKING:
    import numpy as np

DEFAULT_SEED = 12345  # sacreBLEU's default seed (its SACREBLEU_SEED environment variable)
# Resamples the significance tests draw and score at once.  A multiple of 32, so that coin flips come in
# whole 32-bit numbers (see the module's docstring).
SAMPLES_PER_CHUNK = 256
# Indexes held at once by the ROUGE and correlation bootstraps: resamples x items, at least one resample.
MAX_DRAWS_PER_CHUNK = 2**20
RULES = ("percentile", "sacrebleu")


# --------------------------------------------------------------------------------------------------------
# The seed and the confidence level
# --------------------------------------------------------------------------------------------------------
def check_seed(seed: Any) -> int | None:
    """A seed: an int >= 0 (numpy integers too), or ``None`` for fresh entropy from the operating system.
    Every function that resamples checks its seed here: another type is a TypeError, a negative int a
    ValueError (numpy refuses negative seeds).

    >>> import numpy as np
    >>> check_seed(np.int64(7)), check_seed(None)
    (7, None)
    """
    if seed is None:
        return None
    return check_int("seed (an int >= 0, or None for fresh entropy)", seed, 0)


def generator(seed: int | None = DEFAULT_SEED) -> np.random.Generator:
    """numpy's default generator (PCG64) seeded with ``seed``; ``None``: seeded from fresh OS entropy.

    >>> generator(7).integers(0, 10, size=5).tolist() == generator(7).integers(0, 10, size=5).tolist()
    True
    """
    import numpy as np

    return np.random.default_rng(check_seed(seed))


def check_confidence(confidence: Any) -> float:
    """A confidence level in [0, 1): 0.95 cuts 2.5% of the estimates from each end, 0 gives the median twice."""
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real):
        raise TypeError(f"confidence must be a number in [0, 1), got {confidence!r}")
    if not 0 <= confidence < 1:
        raise ValueError(f"confidence must be a number in [0, 1) (e.g. 0.95), got {confidence!r}")
    return float(confidence)


# --------------------------------------------------------------------------------------------------------
# Draws, in chunks of resamples
# --------------------------------------------------------------------------------------------------------
def chunk_sizes(n_samples: int, per_chunk: int) -> Iterator[int]:
    """How many resamples each chunk holds: ``per_chunk`` each, the rest in the last one.

    >>> list(chunk_sizes(600, 256))
    [256, 256, 88]
    """
    check_int("per_chunk", per_chunk, 1)
    for start in range(0, n_samples, per_chunk):
        yield min(per_chunk, n_samples - start)


def uniform_draws_in_chunks(rng: np.random.Generator, high: int, shape: tuple[int, int],
                            max_elements: int = MAX_DRAWS_PER_CHUNK) -> Iterator[np.ndarray]:
    """The rows of ``rng.integers(0, high, size=shape)``, a few rows at a time (at most ``max_elements``
    numbers, at least one row): the same numbers as the one call, in memory for one chunk only.

    A bootstrap of n items draws ``shape = (n_samples, n)`` with ``high = n``: row i lists the items of
    resample i.

    >>> import numpy as np
    >>> chunks = uniform_draws_in_chunks(np.random.default_rng(5), 7, (5, 3), max_elements=6)
    >>> [chunk.shape for chunk in chunks]
    [(2, 3), (2, 3), (1, 3)]
    >>> chunks = uniform_draws_in_chunks(np.random.default_rng(5), 7, (5, 3), max_elements=6)
    >>> np.array_equal(np.concatenate(list(chunks)), np.random.default_rng(5).integers(0, 7, size=(5, 3)))
    True
    """
    rows, cols = shape
    for size in chunk_sizes(rows, max(1, min(rows, max_elements // max(cols, 1)))):
        yield rng.integers(0, high, size=(size, cols))


def draw_counts(rng: np.random.Generator, n_items: int, n_samples: int,
                per_chunk: int = SAMPLES_PER_CHUNK) -> Iterator[np.ndarray]:
    """Bootstrap resamples of ``n_items`` items as counts: a (chunk size x n_items) int array per chunk,
    whose entry [i, j] says how often resample i drew item j (each row sums to n_items).

    The draws are those of :func:`uniform_draws_in_chunks` (sacreBLEU's, with its seed).  A resample's
    sum of per-item statistics is then ``counts @ table``, one matrix product per chunk.

    >>> import numpy as np
    >>> counts = next(draw_counts(np.random.default_rng(1), 4, 2))
    >>> draws = np.random.default_rng(1).integers(0, 4, size=(2, 4))
    >>> draws.tolist(), counts.tolist()
    ([[1, 2, 3, 3], [0, 0, 3, 3]], [[0, 1, 1, 2], [2, 0, 0, 2]])
    """
    import numpy as np

    for draws in uniform_draws_in_chunks(rng, n_items, (n_samples, n_items), per_chunk * n_items):
        size = len(draws)
        # item j of resample i counted in bin i * n_items + j: one bincount for the whole chunk
        flat = (draws + np.arange(size)[:, None] * n_items).ravel()
        yield np.bincount(flat, minlength=size * n_items).reshape(size, n_items)


def coin_flips(rng: np.random.Generator, n_items: int, n_samples: int,
               per_chunk: int = SAMPLES_PER_CHUNK) -> Iterator[np.ndarray]:
    """One fair coin per item and resample, ``per_chunk`` resamples at a time: the rows of
    ``rng.integers(2, size=(n_samples, n_items), dtype=bool)`` (sacreBLEU's approximate randomization).

    ``per_chunk`` must be a multiple of 32: numpy takes 32 flips from one 32-bit number and a call drops
    the flips it leaves unused, so only whole 32-bit numbers per chunk give the one call's flips.

    >>> import numpy as np
    >>> flips = np.concatenate(list(coin_flips(np.random.default_rng(3), 5, 100, per_chunk=32)))
    >>> np.array_equal(flips, np.random.default_rng(3).integers(2, size=(100, 5), dtype=bool))
    True
    """
    check_int("per_chunk", per_chunk, 1)
    if per_chunk % 32:
        raise ValueError(f"per_chunk must be a multiple of 32 for the chunks to flip the one call's coins, "
                         f"got {per_chunk}")
    for size in chunk_sizes(n_samples, per_chunk):
        yield rng.integers(2, size=(size, n_items), dtype=bool)


# --------------------------------------------------------------------------------------------------------
# The interval
# --------------------------------------------------------------------------------------------------------
def _samples_array(samples: Any, rule: str):
    """The estimates as a 1-D array: float64, or float32 kept as it is under sacreBLEU's rule (sacreBLEU
    keeps its chrF and TER scores in float32 and averages them so)."""
    import numpy as np

    array = np.asarray(samples)
    if array.ndim != 1 or len(array) == 0 or not np.issubdtype(array.dtype, np.number):
        raise ValueError("samples must be a non-empty list of numbers (one estimate per resample)")
    if rule != "sacrebleu" or array.dtype != np.float32:
        array = array.astype(np.float64)
    if not np.isfinite(array).all():  # a NaN sorts nowhere and makes the mean and both ends NaN
        raise ValueError(f"samples hold NaN or infinite values (at index {int(np.argmin(np.isfinite(array)))}); "
                         "an interval needs finite estimates")
    return array


@dataclass(frozen=True)
class Interval:
    """A bootstrap confidence interval [``low``, ``high``] from ``n_samples`` resamples.

    ``mean`` and ``median`` are those of the resampled estimates (the median is what rouge-score reports
    as "mid"); ``half_width`` is half the distance from ``low`` to ``high``, computed in the estimates' own
    precision (float32 for sacreBLEU's chrF and TER, as sacreBLEU computes it).  ``rule`` says how the
    bounds were cut (see the module's docstring); ``estimate`` is the statistic on the data itself, when
    known (``float(interval)``), and ``seed`` the seed of the draws.  ``samples`` keeps the resampled
    estimates (not compared, not shown).
    """

    low: float
    high: float
    confidence: float
    n_samples: int
    mean: float
    median: float
    half_width: float
    rule: str = "percentile"
    estimate: float | None = None
    seed: int | None = None
    samples: tuple[float, ...] = field(default=(), repr=False, compare=False)

    @classmethod
    def from_samples(cls, samples: Sequence[float], confidence: float = 0.95, *, rule: str = "percentile",
                     **fields: Any) -> Interval:
        """The interval of the resampled estimates ``samples`` (finite numbers: a NaN or an infinity is a
        ValueError) under ``rule`` ("percentile" or "sacrebleu", which is 95% only).  ``fields`` fill the others (``estimate``, ``seed``, a subclass's
        own; ``n_samples`` when some resamples were left out of ``samples``, else ``len(samples)``).

        >>> Interval.from_samples(range(100, 0, -1), rule="sacrebleu").mean_and_half_width()
        (50.5, 47.5)
        """
        import numpy as np

        check_choice("rule", rule, RULES)
        confidence = check_confidence(confidence)
        s = _samples_array(samples, rule)
        if rule == "sacrebleu":
            if confidence != 0.95:
                raise ValueError(f"sacreBLEU's rule cuts n // 40 estimates from each end: 95% only, got {confidence}")
            ordered = np.sort(s)
            cut = len(s) // 40
            # the mean of the sorted scores, as sacreBLEU takes it (float32 stays float32 throughout)
            low, high, mean = ordered[cut], ordered[len(s) - cut - 1], ordered.mean()
            median = np.percentile(ordered, 50)
        else:
            tail = (1 - confidence) / 2 * 100
            low, median, high = np.percentile(s, [tail, 50, 100 - tail])  # linear interpolation
            mean = s.mean()
        fields.setdefault("n_samples", len(s))
        return cls(low=float(low), high=float(high), confidence=confidence, mean=float(mean), median=float(median),
                   half_width=float(0.5 * (high - low)), rule=rule, samples=tuple(s.tolist()), **fields)

    def __float__(self) -> float:
        if self.estimate is None:
            raise TypeError("this interval has no estimate of its own: read low, high, mean or median")
        return float(self.estimate)

    def mean_and_half_width(self) -> tuple[float, float]:
        """``(mean, half_width)``: the interval as sacreBLEU reports it, mean ± half-width (centred on the
        mean, so its ends are ``low`` and ``high`` only when the mean lies halfway between them)."""
        return self.mean, self.half_width

    def __repr__(self) -> str:
        point = "" if self.estimate is None else f"{self.estimate:.4f} "
        return (f"{type(self).__name__}({point}[{self.low:.4f}, {self.high:.4f}] at {self.confidence:.0%}, "
                f"{self.n_samples} resamples)")


def confidence_interval(scores: Sequence[float]) -> tuple[float, float]:
    """The mean of bootstrap ``scores`` and the half-width of their 95% interval, as sacreBLEU computes
    them (``estimate_ci`` in ``sacrebleu/significance.py``): :meth:`Interval.from_samples` with
    ``rule="sacrebleu"``, reported as :meth:`Interval.mean_and_half_width`.

    The interval runs from the score ranked ``n // 40`` (2.5% from the bottom) to the one ranked the same
    distance from the top, as in Koehn (2004), Moses and sacreBLEU.  With fewer than 40 scores nothing is
    cut (``n // 40 == 0``): the "interval" is then the range of all the scores.  The half-width is half the
    distance between the two scores at those ranks; ``mean ± half`` is centred on the mean, so its ends are
    those two scores only when the mean lies halfway between them.  float32 scores are averaged in float32
    (numpy's own way), as sacreBLEU averages its float32 chrF and TER scores; anything else in float64.

        >>> mean, half = confidence_interval(range(1, 81))   # 80 scores: ranks 2 and 77 (from 0)
        >>> mean, half
        (40.5, 37.5)
    """
    return Interval.from_samples(scores, rule="sacrebleu").mean_and_half_width()


__all__ = [
    "DEFAULT_SEED",
    "MAX_DRAWS_PER_CHUNK",
    "RULES",
    "SAMPLES_PER_CHUNK",
    "Interval",
    "check_confidence",
    "check_seed",
    "chunk_sizes",
    "coin_flips",
    "confidence_interval",
    "draw_counts",
    "generator",
    "uniform_draws_in_chunks",
]
