"""The real corpora shipped in the repository's ``data/`` folder (see ``data/README.md`` for attribution).

Nothing is downloaded: the files are part of the repository, so the lessons work offline.

    >>> ref = wmt17_reference()
    >>> len(ref)
    3004
"""

from __future__ import annotations

import gzip
import os
from dataclasses import dataclass
from pathlib import Path

from ._checks import check_choice


def data_dir() -> Path:
    """The ``data/`` folder: ``$EVALKIT_DATA`` if set, else the one beside the ``evalkit`` package."""
    env = os.environ.get("EVALKIT_DATA")
    path = Path(env) if env else Path(__file__).resolve().parent.parent / "data"
    if not path.is_dir():
        raise FileNotFoundError(f"evalkit's data folder is missing: {path} (set EVALKIT_DATA to its location)")
    return path


def read_lines(path: str | os.PathLike) -> list[str]:
    """The lines of a UTF-8 text file (gzip-compressed if it ends in .gz), without their newlines.

    Only "\\n" ends a line: other Unicode line separators inside a segment stay where they are.
    """
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8", newline="\n") as f:
        return [line[:-1] if line.endswith("\n") else line for line in f]


# --- WMT17 English-German, newstest2017 ------------------------------------------------------------------
def wmt17_reference() -> list[str]:
    """The German reference translation of newstest2017 (3,004 segments, detokenized)."""
    return read_lines(data_dir() / "wmt17-en-de" / "reference.de.gz")


def wmt17_systems() -> dict[str, list[str]]:
    """The 16 systems' outputs, by system name (the file name without submission id), sorted by name."""
    folder = data_dir() / "wmt17-en-de" / "systems"
    systems = {}
    for path in sorted(folder.glob("*.de.gz"), key=lambda p: p.name.lower()):
        name = path.name[: -len(".de.gz")].rsplit(".", 1)[0]
        systems[name] = read_lines(path)
    return systems


# --- JFLEG ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class JFLEG:
    """One JFLEG split: ``sources[i]`` is an uncorrected sentence and ``references[i]`` its four
    corrections (segment-major); ``reference_sets[k]`` is the k-th correction of every sentence."""

    split: str
    sources: list[str]
    references: list[list[str]]
    reference_sets: list[list[str]]


def jfleg(split: str = "test") -> JFLEG:
    """The JFLEG ``"dev"`` (754 sentences) or ``"test"`` (747) split, tokenized text split on spaces."""
    check_choice("split", split, ("dev", "test"))
    folder = data_dir() / "jfleg"
    sources = read_lines(folder / f"{split}.src")
    sets = [read_lines(folder / f"{split}.ref{k}") for k in range(4)]
    if any(len(s) != len(sources) for s in sets):
        raise ValueError(f"JFLEG {split}: the reference files do not have one line per source sentence")
    return JFLEG(split, sources, [list(refs) for refs in zip(*sets)], sets)
