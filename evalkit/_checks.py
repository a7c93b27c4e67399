"""Input checks shared by the public functions.

Every public function validates its arguments here, so that bad input fails early with a message that
says what was wrong and what was expected, instead of an IndexError or ZeroDivisionError from deep inside.
"""

from __future__ import annotations

import math
import numbers
import os
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

Tokens = tuple[str, ...]


def check_choice(name: str, value: Any, options: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``options``; otherwise raise a ValueError listing them."""
    if type(value) is str and isinstance(options, Collection) and value in options:
        return value  # the common case, without copying the options (an iterator is read once, below)
    options = list(options)
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"unknown {name} {value!r}; expected one of: {', '.join(repr(o) for o in options)}")
    return value


def check_text(value: Any, what: str) -> None:
    """A text is a string or a sequence of string tokens."""
    if isinstance(value, str):
        return
    if (type(value) is list or type(value) is tuple) and set(map(type, value)) <= {str}:
        return  # the common case, checked by a loop in C; anything else is looked at token by token below
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
    """References of one segment: a non-empty sequence of texts (not a bare string, not bytes)."""
    if type(references) is not list and type(references) is not tuple:  # lists and tuples need no more
        if references is None:
            raise TypeError(f"{what} is None; expected a list of reference texts")
        if isinstance(references, (bytes, bytearray)):
            raise TypeError(f"{what} is bytes; decode to str first, and give a list of reference texts")
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
    if isinstance(value, (bytes, bytearray)):
        raise TypeError(f"{name} is bytes; decode to str first, and give a list with one item per segment")
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
    """Non-empty, finite, non-negative, not all zero. Returned as floats, *not* normalized.

    The i-th weight belongs to the n-gram order i + 1, so the order of the weights matters: a set or a
    dict is refused (a set would also collapse equal weights: {0.25, 0.25, 0.25, 0.25} is {0.25}).  Any
    other iterable is read exactly once (a generator works); numpy numbers are numbers.

    >>> check_weights(w for w in (1, 1))
    (1.0, 1.0)
    """
    if isinstance(weights, (AbstractSet, Mapping)):
        raise TypeError(
            f"weights is a {type(weights).__name__}; the i-th weight belongs to n-gram order i + 1, so give "
            "a sequence such as a tuple or list, e.g. (0.25, 0.25, 0.25, 0.25)"
        )
    if isinstance(weights, (str, bytes)) or not isinstance(weights, Iterable):
        raise TypeError(f"weights must be a sequence of numbers such as a tuple or list, got {type(weights).__name__}")
    ws = tuple(weights)  # read once: a generator is consumed here, and only here
    if not ws:
        raise ValueError("weights is empty; give one weight per n-gram order, e.g. (0.25, 0.25, 0.25, 0.25)")
    for i, w in enumerate(ws):
        if isinstance(w, bool) or not isinstance(w, numbers.Real):
            raise TypeError(f"weights[{i}] is a {type(w).__name__}; weights must be numbers")
        if not math.isfinite(w):
            raise ValueError(f"weights[{i}] is {w}; weights must be finite")
        if w < 0:
            raise ValueError(f"weights[{i}] is {w}; weights must be non-negative")
    if not any(w > 0 for w in ws):
        raise ValueError("all weights are zero; at least one n-gram order must carry weight")
    return tuple(float(w) for w in ws)


def normalize_weights(weights: Sequence[float]) -> tuple[float, ...]:
    """Checked ``weights`` divided by their sum, so that they sum to 1.

    Huge weights, whose sum overflows a float, are first divided by the largest one (which does not
    change the result): ``(1e308, 1e308)`` gives ``(0.5, 0.5)``.  Ordinary weights are divided by their
    exact (``math.fsum``) sum directly, so their results do not change by a single bit.

    >>> normalize_weights((1e308, 1e308)), normalize_weights((1, 3))
    ((0.5, 0.5), (0.25, 0.75))
    """
    ws = check_weights(weights)
    try:
        total = math.fsum(ws)
    except OverflowError:
        total = math.inf
    if math.isinf(total):
        top = max(ws)
        ws = tuple(w / top for w in ws)
        total = math.fsum(ws)
    return tuple(w / total for w in ws)


def check_bool(name: str, value: Any) -> bool:
    """A yes/no option (a switch such as ``fast``, ``lowercase`` or ``sacrebleu_float32``) must be ``True``
    or ``False`` (numpy's bool too), returned as a Python bool.  Nothing else: ``"no"`` is a non-empty
    string, hence true, and would silently switch the option on; ``1`` and ``None`` are refused as well, so
    that every switch of evalkit follows this one rule.

    >>> check_bool("lowercase", False)
    False
    """
    if value is True or value is False:
        return value
    if type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_"):
        return bool(value)
    raise TypeError(f"{name} must be True or False, got {value!r}")


def check_nonnegative(name: str, value: Any, what: str = "a number") -> float:
    """A non-negative finite number (numpy numbers too, bool refused); ``what`` says what it stands for."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be {what} (a non-negative number), got {value!r}")
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(f"{name} must be {what} (a non-negative finite number), got {value}")
    return value


def check_length(name: str, value: Any) -> int:
    """A length (a count of tokens): a non-negative int (numpy integers too, bool refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a non-negative int (a number of tokens), got {value!r}")
    if value < 0:
        raise ValueError(f"{name} must be a non-negative int (a number of tokens), got {value}")
    return int(value)


def check_int(name: str, value: Any, minimum: int) -> int:
    """An int at least ``minimum`` (numpy integers too, as numpy floats are numbers; bool refused), returned
    as a Python int.  The wrong type is a TypeError, a value below ``minimum`` (``seed=-1``) a ValueError.

    >>> import numpy as np
    >>> check_int("n_samples", np.int64(100), 1)
    100
    """
    if type(value) is not int and (isinstance(value, bool) or not isinstance(value, numbers.Integral)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return int(value)


# F-measures weigh recall beta^2 times as much as precision: beyond this beta, beta^2 (1e300) is close to
# overflowing a float (above about 1.34e154 it does) and F equals recall to the last digit.
MAX_BETA = 1e150


def check_beta(beta: Any) -> float:
    """The beta of an F-measure (chrF, ROUGE): a positive finite number at most :data:`MAX_BETA` (numpy
    numbers too, bool refused), returned as a float.  A larger beta is refused with that limit: beta^2
    would overflow, and F is recall to double precision long before (use the recall itself).

    >>> check_beta(2), check_beta(1e150)
    (2.0, 1e+150)
    """
    if type(beta) is not float and type(beta) is not int:
        if isinstance(beta, bool) or not isinstance(beta, numbers.Real):
            raise TypeError(f"beta must be a number, got {type(beta).__name__}")
    if not (math.isfinite(beta) and 0 < beta <= MAX_BETA):
        raise ValueError(
            f"beta must be a positive finite number at most {MAX_BETA:g} (beta ** 2 must not overflow; F tends "
            f"to recall as beta grows), got {beta}"
        )
    return float(beta)


def check_string(value: Any, what: str) -> str:
    """A text that the metric tokenizes itself: a str (not a token list)."""
    if value is None:
        raise TypeError(f"{what} is None; expected a string")
    if not isinstance(value, str):
        raise TypeError(f"{what} is a {type(value).__name__}; expected a string (it is tokenized by the metric)")
    return value


def check_system_scores(scores: Any) -> list[str]:
    """A dict setting -> {system: score}, every setting scoring the same systems; returns the system names."""
    if not isinstance(scores, dict) or not scores:
        raise TypeError("scores must be a non-empty dict: setting (e.g. tokenizer) -> {system: score}")
    systems = None
    for setting, by_system in scores.items():
        if not isinstance(by_system, dict) or not by_system:
            raise TypeError(f"scores[{setting!r}] must be a non-empty dict of system -> score")
        if systems is None:
            systems = list(by_system)
        elif set(by_system) != set(systems):
            raise ValueError(f"scores[{setting!r}] does not score the same systems as the first setting")
    return systems


# --------------------------------------------------------------------------------------------------------
# The overall cap of evalkit's caches (evalkit.fast holds the caches to it, evalkit.tokenize its share)
# --------------------------------------------------------------------------------------------------------
DEFAULT_TOTAL_CACHE_BUDGET = 2**30  # 1 GiB
CACHE_BUDGET_VARIABLE = "EVALKIT_CACHE_BUDGET"


def parse_budget(text: str) -> int:
    """A number of bytes from a string: ``"1073741824"``, or a number with K, M or G (powers of 1024).

    >>> parse_budget("512M"), parse_budget("2G"), parse_budget("1000")
    (536870912, 2147483648, 1000)
    """
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMG]?)(?:I?B)?\s*", str(text), flags=re.IGNORECASE)
    if not found:
        raise ValueError(f"a cache budget is a number of bytes, or a number with K, M or G (e.g. 512M), got {text!r}")
    number, unit = found.groups()
    return int(float(number) * {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}[unit.upper()])


def cache_budget_from_environment() -> int:
    """The overall cap of evalkit's caches: ``$EVALKIT_CACHE_BUDGET`` (:func:`parse_budget`) if set, else
    1 GiB; a bad value is a ValueError naming the variable."""
    text = os.environ.get(CACHE_BUDGET_VARIABLE)
    if text is None:
        return DEFAULT_TOTAL_CACHE_BUDGET
    try:
        return parse_budget(text)
    except ValueError as error:
        raise ValueError(f"the environment variable {CACHE_BUDGET_VARIABLE}: {error}") from None
