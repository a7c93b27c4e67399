"""The live comparisons that take more than a few seconds on a whole corpus: ``make test`` compares every k-th
segment, ``make conformance`` (marked ``slow``) every one.  ``@every(5)`` gives the test a ``step`` of 5
(id ``every-5th``) and of 1 (id ``every``, slow)."""

from __future__ import annotations

import pytest


def every(k: int):
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th") if k % 100 not in (11, 12, 13) else "th"
    return pytest.mark.parametrize("step", [k, pytest.param(1, marks=pytest.mark.slow)],
                                   ids=[f"every-{k}{suffix}", "every"])
