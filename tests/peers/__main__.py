"""Record the peers' numbers again: ``python -m tests.peers [name ...]`` from the repository's root (every
record when no name is given).  See tests/peers/__init__.py and tests/README.md."""

from __future__ import annotations

import sys
import time

from . import RECORDS, record


def main(argv: list[str]) -> int:
    names = argv or list(RECORDS)
    unknown = [n for n in names if n not in RECORDS]
    if unknown:
        print(f"unknown record(s) {unknown}; the records are {list(RECORDS)}", file=sys.stderr)
        return 2
    for name in names:
        start = time.perf_counter()
        out = record(name)
        print(f"{name}: {time.perf_counter() - start:.0f} s -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
