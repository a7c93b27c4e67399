"""The metric protocol: the few things every metric in evalkit shares, and all that the code above the
metrics (significance tests, bootstraps, views) may know about one.

Every metric here is computed in two steps, **statistics → score**:

1. *count*: each segment gives a few numbers (its sufficient statistics: matches, lengths, edits ...)
   that add up over segments;
2. *score*: the summed statistics give the number (BLEU, chrF, TER, ROUGE, GLEU).

Three things follow, and live here once:

- :class:`AdditiveStats`, the base of every metric's statistics class (``BLEUStats``, ``CHRFStats``, ...):
  ``a + b`` adds the counts field by field, ``sum(list_of_stats)`` adds a corpus, and statistics counted
  with different settings refuse to be added.
- :func:`f_score`, the F-measure, written once for a pair of numbers and for numpy arrays.
- :class:`Metric`, a metric as the code above it sees it: the statistics of whole corpora as integer
  rows (one row per segment, one column per statistic), and the score of summed rows.  A paired test or
  a bootstrap draws segments, adds their rows and asks the metric for the score: it never needs to know
  which metric it is resampling.  Each metric module registers its own (``evalkit.bleu.METRIC``, ...).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Counts(AdditiveStats):
    ...     matches: int
    ...     hyp_len: int
    ...     segments: int = segment_count()
    ...     lowercase: bool = setting(False)
    >>> Counts(2, 3) + Counts(1, 4)
    Counts(matches=3, hyp_len=7, segments=2, lowercase=False)
    >>> f_score(0.75, 0.5), f_score(0.75, 0.5, beta=2)
    (0.6, 0.5357142857142857)
"""

from __future__ import annotations

import importlib
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import MISSING, dataclass, field, fields
from fractions import Fraction
from typing import Any

# --------------------------------------------------------------------------------------------------------
# Additive statistics
# --------------------------------------------------------------------------------------------------------
# How a field of a statistics class combines when two are added (the field's metadata "add"):
SUM = "sum"  # counts: numbers add, tuples add order by order (the default)
SAME = "same"  # a setting the counts were made with: both sides must agree, and it is kept
COMMON = "common"  # kept when both sides agree, else None (the number of references per segment)
ROW = "row"  # metadata key: False for fields that are not one of the metric's per-segment statistics


def setting(default: Any = MISSING, what: str = "") -> Any:
    """A dataclass field holding a setting the statistics were counted with (``what``: its name in an
    error message, e.g. "tokenization"; "settings" by default)."""
    return field(default=default, metadata={"add": SAME, ROW: False, "what": what})


def segment_count() -> Any:
    """The ``segments`` field: how many segments were added up (1 for one segment)."""
    return field(default=1, metadata={"add": SUM, ROW: False})


def common(default: Any = None) -> Any:
    """A field kept when both sides agree and ``None`` otherwise (``nrefs``: references per segment)."""
    return field(default=default, metadata={"add": COMMON, ROW: False})


class AdditiveStats:
    """The base of a frozen dataclass of counts: ``a + b`` and ``sum(stats)``.

    Fields add according to their metadata: counts (the default) add, tuples order by order; fields made
    with :func:`setting` must be equal on both sides (statistics counted with different settings cannot be
    added); fields made with :func:`common` are kept when equal and become ``None`` otherwise.
    """

    __slots__ = ()

    def __add__(self, other: Any) -> Any:
        cls = type(self)
        if type(other) is not cls:
            return NotImplemented
        same, kept, summed = _PLANS.get(cls) or _plan(cls)
        for name, what in same:  # the settings first: statistics counted differently do not add
            a, b = getattr(self, name), getattr(other, name)
            if a != b:
                raise ValueError(f"cannot add {cls.__name__} counted with different {what} ({name}={a!r} and {b!r})")
        values = {name: getattr(self, name) for name, _ in same}
        for name in kept:
            a = getattr(self, name)
            values[name] = a if a == getattr(other, name) else None
        for name in summed:
            a, b = getattr(self, name), getattr(other, name)
            if isinstance(a, tuple):
                if len(a) != len(b):
                    raise ValueError(f"cannot add {cls.__name__} of max order {len(a)} and {len(b)} ({name} has "
                                     f"{len(a)} and {len(b)} orders)")
                values[name] = tuple(x + y for x, y in zip(a, b))
            else:
                values[name] = a + b
        return cls(**values)

    def __radd__(self, other: Any) -> Any:
        if other == 0:  # lets the built-in sum() start from 0
            return self
        return NotImplemented

    def row(self) -> list:
        """The per-segment statistics as one flat list, in field order (tuples spread out).

        The settings, ``segments`` and ``nrefs`` are not part of it."""
        out: list = []
        for name in _row_fields(type(self)):
            value = getattr(self, name)
            out.extend(value) if isinstance(value, tuple) else out.append(value)
        return out

    @classmethod
    def from_row(cls, row: Sequence[Any], **settings: Any):
        """The inverse of :meth:`row`: the tuples share one length, found from the row's length."""
        counted = [f for f in fields(cls) if f.metadata.get(ROW, True)]  # type: ignore[arg-type]
        tuples = [f for f in counted if _is_tuple(f)]
        singles = len(counted) - len(tuples)
        order = (len(row) - singles) // len(tuples) if tuples else 0
        if singles + order * len(tuples) != len(row):
            raise ValueError(f"a row of {len(row)} numbers is not a {cls.__name__}")
        values, i = {}, 0
        for f in counted:
            if _is_tuple(f):
                values[f.name], i = tuple(row[i : i + order]), i + order
            else:
                values[f.name], i = row[i], i + 1
        return cls(**values, **settings)


# How each statistics class adds, worked out once per class from its fields' metadata:
# (settings as (name, what), fields kept when equal, fields summed).
_PLANS: dict[type, tuple[tuple[tuple[str, str], ...], tuple[str, ...], tuple[str, ...]]] = {}


def _plan(cls: type) -> tuple:
    same, kept, summed = [], [], []
    for f in fields(cls):  # type: ignore[arg-type]
        rule = f.metadata.get("add", SUM)
        if rule == SAME:
            same.append((f.name, f.metadata.get("what") or "settings"))
        elif rule == COMMON:
            kept.append(f.name)
        else:
            summed.append(f.name)
    _PLANS[cls] = plan = (tuple(same), tuple(kept), tuple(summed))
    return plan


# The names of the fields that make up a row, in order, worked out once per class.
_ROW_FIELDS: dict[type, tuple[str, ...]] = {}


def _row_fields(cls: type) -> tuple[str, ...]:
    names = _ROW_FIELDS.get(cls)
    if names is None:
        names = _ROW_FIELDS[cls] = tuple(f.name for f in fields(cls) if f.metadata.get(ROW, True))  # type: ignore[arg-type]
    return names


def _is_tuple(f) -> bool:
    return str(f.type).startswith("tuple")


# --------------------------------------------------------------------------------------------------------
# The F-measure
# --------------------------------------------------------------------------------------------------------
def f_score(precision, recall, beta: float = 1.0):
    """F_beta = (1 + beta^2) P R / (beta^2 P + R), and 0 when P and R are both 0.

    ``precision`` and ``recall`` are two numbers or two numpy arrays (then an array, in their dtype: float32
    arrays give float32 arithmetic, as sacreBLEU's resampled chrF).  With beta = 1 this is 2PR / (P + R) in
    rouge-score's and sacreBLEU's floating-point steps.  F is a weighted harmonic mean, so it lies between P
    and R; where beta^2 or a product underflows (beta below about 1e-154, or P and R near the smallest
    float) the formula can leave that range (1.0 for P = 0.75, R = 5e-324, beta = 1e-300), and for betas
    other than 1 the result is then held in it.

        >>> f_score(1.0, 0.0), round(f_score(0.5, 1.0, beta=3), 4)
        (0.0, 0.9091)
    """
    b2 = beta * beta
    if not hasattr(precision, "shape"):
        denominator = b2 * precision + recall
        if denominator <= 0:
            return 0.0
        f = (1 + b2) * precision * recall / denominator
        if beta != 1 and precision > 0 and recall > 0 and min(b2, precision * recall, b2 * precision) < sys.float_info.min:
            f = min(max(f, min(precision, recall)), max(precision, recall))
        return f
    import numpy as np

    p, r = precision, recall
    with np.errstate(divide="ignore", invalid="ignore", under="ignore"):
        denominator = b2 * p + r
        f = np.where(denominator > 0, (1 + b2) * p * r / np.where(denominator > 0, denominator, 1), 0)
        if beta == 1:
            return f.astype(p.dtype, copy=False)
        tiny = (p > 0) & (r > 0) & (np.minimum(np.minimum(b2, p * r), b2 * p) < sys.float_info.min)
    return np.where(tiny, np.clip(f, np.minimum(p, r), np.maximum(p, r)), f).astype(p.dtype, copy=False)


# --------------------------------------------------------------------------------------------------------
# A metric as the code above it sees it
# --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Metric:
    """What a paired test or a bootstrap needs from a metric whose statistics add up over segments.

    ``statistics(corpora, references, options, fast)``: one integer matrix per corpus (numpy, int64), a row per
    segment and a column per statistic, for the metric's keyword ``options``.  ``score(row, options)``:
    the score of one row of *summed* statistics, the readable way (the metric's ``score_stats``).
    ``score_rows(rows, options, float32)``: optional, the scores of many summed rows at once (numpy),
    equal to ``score`` row by row (each metric's tests prove it); ``None`` for options it does not cover.
    ``float32=True`` reproduces sacreBLEU, which scores resampled statistics from float32 copies.
    ``options``: the keywords the metric accepts.  ``float32_scale``: the scale of the float32 scores
    (1 for BLEU, scored on evalkit's scale; 100 for chrF and TER, whose float32 percentages sacreBLEU keeps
    to the end).
    """

    name: str
    options: frozenset[str]
    statistics: Callable[[Sequence[Sequence[Any]], Sequence[Any], dict, bool], list]
    score: Callable[[Any, dict], float]
    score_rows: Callable[[Any, dict, bool], Any] | None = None
    float32_scale: float = 1.0

    def check_options(self, options: dict) -> None:
        """Refuse keywords the metric does not take (TypeError, naming the ones it does)."""
        unknown = sorted(set(options) - self.options)
        if unknown:
            raise TypeError(f"unknown option(s) for {self.name}: {', '.join(unknown)}; "
                            f"expected some of: {', '.join(sorted(self.options))}")

    def checked_statistics(self, corpora: Sequence[Sequence[Any]], references: Sequence[Any], options: dict,
                           fast: bool = True) -> list:
        """:attr:`statistics`, checked: non-negative integers, and options whose values the scorer accepts."""
        import numpy as np

        self.check_options(options)
        mats = self.statistics(corpora, references, options, fast)
        if any(np.any(m < 0) for m in mats):
            raise ValueError(f"{self.name}: statistics must be non-negative integers")
        self.score(mats[0].sum(axis=0), options)  # the readable scorer checks the options' values
        return mats

    def scores(self, rows: Any, options: dict, *, fast: bool = True, float32: bool = False):
        """The scores of many summed rows: :attr:`score_rows` at once (``fast``, when the metric has it and
        covers the options), else :attr:`score` row by row (float64).  ``float32=True``: sacreBLEU's float32
        scores, refused (ValueError) where the metric cannot give them."""
        import numpy as np

        rows = np.asarray(rows, dtype=np.int64)
        if fast and self.score_rows is not None:
            out = self.score_rows(rows, options, float32)
            if out is not None:
                return out if float32 and out.dtype == np.float32 else np.asarray(out, dtype=np.float64)
        if float32:
            raise ValueError(f"sacrebleu_float32=True is not available for these {self.name} options"
                             + ("" if fast else " with fast=False"))
        return np.array([self.score(row, options) for row in rows], dtype=np.float64)


METRICS: dict[str, Metric] = {}
# The metrics evalkit ships, by name, and the module that registers each (imported when first asked for).
BUILT_IN = {"bleu": "evalkit.bleu", "chrf": "evalkit.chrf", "ter": "evalkit.ter", "rouge": "evalkit.rouge_corpus",
            "gleu": "evalkit.gleu"}


def register_metric(metric: Metric) -> Metric:
    """Make ``metric`` available by its name (replacing one of that name)."""
    if not isinstance(metric, Metric):
        raise TypeError(f"expected a Metric, got {type(metric).__name__}")
    METRICS[metric.name] = metric
    return metric


def get_metric(name: Any) -> Metric:
    """The registered metric called ``name`` (a built-in one is imported on first use)."""
    if isinstance(name, str) and name not in METRICS and name in BUILT_IN:
        importlib.import_module(BUILT_IN[name])
    if not isinstance(name, str) or name not in METRICS:
        known = sorted({*BUILT_IN, *METRICS})
        raise ValueError(f"unknown metric {name!r}; expected one of: {', '.join(map(repr, known))}")
    return METRICS[name]


# --------------------------------------------------------------------------------------------------------
# Float statistics as exact integer rows
# --------------------------------------------------------------------------------------------------------
# Some corpus scores are a mean of the segments' scores (ROUGE as rouge-score computes it).  Floats do not
# add up exactly in floating point, so each score v is written exactly as an integer number of 2**-E (E: the
# most binary digits any score needs after the point) and split into pieces of LIMB_BITS bits.  Sums of the
# pieces stay exact in a resampler's float64 matrix products, and fixed_point_mean rebuilds the exact sum
# and rounds it once (math.fsum), so the mean is math.fsum(scores) / n to the last bit.
# A row: the pieces of v * 2**E (lowest first), E, 1 (summed over n segments: n * E and n).
LIMB_BITS = 26  # a piece of a fixed-point score: a sum over n < 2**27 segments stays below 2**53


def fixed_point_rows(values: Sequence[Sequence[float]]) -> list[np.ndarray]:
    """Floats >= 0 as exact integer rows, one matrix per list of ``values`` (all with one scale E):
    the pieces of v * 2**E, LIMB_BITS bits each (lowest first), then E, then 1.

        >>> fixed_point_rows([[0.5, 0.75]])[0].tolist()   # E = 2: 0.5 = 2 / 4, 0.75 = 3 / 4
        [[2, 2, 1], [3, 2, 1]]
    """
    import numpy as np

    exact = [[Fraction(v) for v in column] for column in values]  # a float is a fraction over a power of 2
    for column in exact:
        for v in column:
            if v < 0:
                raise ValueError(f"fixed-point statistics must be >= 0, got {float(v)}")
    e = max(v.denominator.bit_length() - 1 for column in exact for v in column)
    scaled = [[int(v * 2**e) for v in column] for column in exact]
    limbs = max(1, math.ceil(max(x for column in scaled for x in column).bit_length() / LIMB_BITS))
    mask = (1 << LIMB_BITS) - 1
    return [
        np.array([[(x >> (LIMB_BITS * j)) & mask for j in range(limbs)] + [e, 1] for x in column], dtype=np.int64)
        for column in scaled
    ]


def fixed_point_mean(row: Sequence[int]) -> float:
    """The mean of the floats summed into ``row`` (of :func:`fixed_point_rows`): their exact sum rounded
    once to a float, divided by their number (math.fsum(values) / n, to the last bit)."""
    *limbs, e_sum, n = (int(x) for x in row)
    e = e_sum // n
    # Each piece times 2**(LIMB_BITS * j - e) is an exact float; fsum rounds their exact sum once.
    return math.fsum(math.ldexp(limb, LIMB_BITS * j - e) for j, limb in enumerate(limbs)) / n


__all__ = ["AdditiveStats", "BUILT_IN", "LIMB_BITS", "METRICS", "Metric", "common", "f_score", "fixed_point_mean", "fixed_point_rows", "get_metric", "register_metric",
           "segment_count", "setting"]
