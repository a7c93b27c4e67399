"""Ranking systems by score, with one tie rule for every table, plot and widget.

    >>> competition_ranks({"A": 0.31, "B": 0.28, "C": 0.28, "D": 0.20})
    {'A': 1, 'B': 2, 'C': 2, 'D': 4}

The rule is "standard competition ranking" (1, 2, 2, 4): 1 is the best (highest) score, systems with
equal scores share the better rank, and the next system's rank counts everyone above it.  It is how WMT
result tables and sacreBLEU users read a leaderboard: a rank says how many systems scored strictly better.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping


def competition_ranks(scores: Mapping[str, float]) -> dict[str, int]:
    """Rank of each system (1 = best): one more than the number of systems with a strictly higher score,
    so equal scores share the better rank (1, 2, 2, 4).  Systems keep the order of ``scores``.

    >>> competition_ranks({"x": 1.0, "y": 1.0, "z": 0.5})
    {'x': 1, 'y': 1, 'z': 3}
    """
    if not isinstance(scores, Mapping):
        raise TypeError(f"scores must be a dict of system name -> score, got {type(scores).__name__}")
    for name, score in scores.items():
        if isinstance(score, bool) or not isinstance(score, numbers.Real):
            raise TypeError(f"the score of {name!r} is a {type(score).__name__}; scores must be numbers")
        if math.isnan(score):
            raise ValueError(
                f"the score of {name!r} is NaN; a NaN compares false with everything, so it would be ranked "
                "first. Score the system again or leave it out"
            )
    values = list(scores.values())
    return {name: 1 + sum(1 for other in values if other > score) for name, score in scores.items()}


__all__ = ["competition_ranks"]
