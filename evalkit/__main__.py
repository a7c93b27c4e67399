"""``python -m evalkit``: the command line of :mod:`evalkit.cli`."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
