"""Input checks shared by the public functions.

Every public function validates its arguments here, so that bad input fails early with a message that
says what was wrong and what was expected, instead of an IndexError or ZeroDivisionError from deep inside.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

Tokens = tuple[str, ...]


def check_choice(name: str, value: Any, options: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``options``; otherwise raise a ValueError listing them."""
    options = list(options)
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"unknown {name} {value!r}; expected one of: {', '.join(repr(o) for o in options)}")
    return value


def check_text(value: Any, what: str) -> None:
    """A text is a string or a sequence of string tokens."""
    if isinstance(value, str):
        return
    if value is None:
        raise TypeError(f"{what} is None; expected a string or a sequence of string tokens")
    if isinstance(value, (bytes, bytearray)):
        raise TypeError(f"{what} is bytes; decode it to str first")
    if not isinstance(value, Sequence):
        raise TypeError(f"{what} is a {type(value).__name__}; expected a string or a sequence of string tokens")
    for i, tok in enumerate(value):
        if not isinstance(tok, str):
            raise TypeError(f"{what} has a {type(tok).__name__} at position {i}; tokens must be strings")


def as_tokens(value: Any, what: str, tokenizer: Callable[[str], list[str]], lowercase: bool = False) -> Tokens:
    """Turn a string (tokenized by ``tokenizer``) or a token sequence (used as it is) into a tuple of tokens."""
    check_text(value, what)
    if isinstance(value, str):
        return tuple(tokenizer(value.lower() if lowercase else value))
    return tuple(t.lower() for t in value) if lowercase else tuple(value)


def check_references(references: Any, what: str = "references") -> Sequence[Any]:
    """References of one segment: a non-empty sequence of texts (not a bare string)."""
    if references is None:
        raise TypeError(f"{what} is None; expected a list of reference texts")
    if isinstance(references, str):
        raise TypeError(
            f"{what} is a single string; expected a list of reference texts, e.g. [{references[:30]!r}] "
            "(a bare string would be read character by character)"
        )
    if not isinstance(references, Sequence):
        raise TypeError(f"{what} is a {type(references).__name__}; expected a list of reference texts")
    if len(references) == 0:
        raise ValueError(f"{what} is empty; every hypothesis needs at least one reference")
    for i, ref in enumerate(references):
        check_text(ref, f"{what}[{i}]")
    return references


def check_corpus(name: str, value: Any) -> Sequence[Any]:
    """A corpus-level argument: a non-empty list (one item per segment), not a string."""
    if value is None:
        raise TypeError(f"{name} is None; expected a list with one item per segment")
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise TypeError(f"{name} is a {type(value).__name__}; expected a list with one item per segment")
    if len(value) == 0:
        raise ValueError(f"{name} is empty; a corpus needs at least one segment")
    return value


def check_same_length(**lists: Sequence[Any]) -> None:
    lengths = {name: len(v) for name, v in lists.items()}
    if len(set(lengths.values())) > 1:
        detail = ", ".join(f"{n}={k}" for n, k in lengths.items())
        raise ValueError(f"one item per segment is expected in each list, but the lengths differ: {detail}")


def check_weights(weights: Any) -> tuple[float, ...]:
    """Non-empty, finite, non-negative, not all zero. Returned as floats, *not* normalized."""
    if isinstance(weights, (str, bytes)) or not isinstance(weights, Iterable):
        raise TypeError(f"weights must be a sequence of numbers, got {type(weights).__name__}")
    ws = tuple(weights)
    if not ws:
        raise ValueError("weights is empty; give one weight per n-gram order, e.g. (0.25, 0.25, 0.25, 0.25)")
    for i, w in enumerate(ws):
        if isinstance(w, bool) or not isinstance(w, (int, float)):
            raise TypeError(f"weights[{i}] is a {type(w).__name__}; weights must be numbers")
        if not math.isfinite(w):
            raise ValueError(f"weights[{i}] is {w}; weights must be finite")
        if w < 0:
            raise ValueError(f"weights[{i}] is {w}; weights must be non-negative")
    if not any(w > 0 for w in ws):
        raise ValueError("all weights are zero; at least one n-gram order must carry weight")
    return tuple(float(w) for w in ws)


def check_int(name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return value
