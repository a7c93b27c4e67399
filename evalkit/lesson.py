"""Two small helpers the lessons use, so that a student can change an example and check an answer.

**Quoted numbers.**  A lesson's prose quotes numbers computed for its example ("p2 = 4/5").  The example's
inputs live in one cell tagged ``parameters``; a student may change them.  A :class:`Quotes` object knows
the inputs the prose was written for and the inputs now in use:

    >>> quote = Quotes(written_for={"hyp": "the cat sat"}, now={"hyp": "the cat sat"})
    >>> quote("p1", 1.0, "1.0000")          # the original inputs: the quoted number is checked (it asserts)
    >>> other = Quotes(written_for={"hyp": "the cat sat"}, now={"hyp": "a dog"})
    >>> other("p1", 0.5, "1.0000")          # other inputs: no error, a plain note instead
    Note: the text quotes p1 = 1.0000 for its own example; with your inputs it is 0.5000.

A float compared with a quoted string is compared at the number of decimals the string shows.  Checks that
compare evalkit with a peer library are plain ``assert`` statements: they hold for any input.

**Self-checks.**  An exercise's answer is checked against a digest of the right answer, so the check can stay
in the student edition without giving the answer away (the way nbgrader-style courses check answers):

    >>> digest = answer_digest([(2, 3), (1, 2)])
    >>> check_answer([(2, 3), (1, 2)], digest)
    ✓ Correct.
    >>> check_answer([(1, 3), (1, 2)], digest, hint="clip each n-gram to its count in the reference")
    ✗ Not yet: clip each n-gram to its count in the reference.

Numbers are compared at four decimals (``2/3``, ``Fraction(2, 3)`` and ``0.66667`` are the same answer),
strings without regard to case or repeated spaces (a one-string answer also without surrounding punctuation); lists and tuples are the same, sets are unordered.
"""

from __future__ import annotations

import hashlib
import math
import numbers
from fractions import Fraction
from typing import Any

__all__ = ["Quotes", "answer_digest", "check_answer"]

NOTE = "Note: the text quotes"
PUNCTUATION = " .,;:!?'\""


def _same(value: Any, quoted: Any, rel_tol: float) -> bool:
    if isinstance(quoted, str) and isinstance(value, numbers.Real) and not isinstance(value, bool):
        return _shown(value, quoted) == quoted.replace(",", "")
    if isinstance(quoted, float) or isinstance(value, float):
        try:
            # relative for every quoted number but zero, so a tiny quoted value (3.9e-78) is checked to its digits
            return math.isclose(float(value), float(quoted), rel_tol=rel_tol, abs_tol=0.0 if float(quoted) else 1e-15)
        except (TypeError, ValueError):
            return False
    return value == quoted


def _shown(value: Any, quoted: Any) -> str:
    """``value`` written the way ``quoted`` is (as many decimals, for a float and a quoted string)."""
    if isinstance(quoted, str) and isinstance(value, numbers.Real) and not isinstance(value, bool):
        plain = quoted.replace(",", "")
        decimals = len(plain.split(".")[1]) if "." in plain else 0
        return f"{float(value):.{decimals}f}"
    return str(value)


class Quotes:
    """Checks the numbers a lesson's prose quotes for its example.

    ``written_for`` holds the example inputs the prose was written for, ``now`` the inputs in use (the
    variables of the ``parameters`` cell).  Calling the object with ``(label, value, quoted)`` asserts
    ``value`` equals ``quoted`` when the inputs are the original ones; with other inputs it prints a note
    saying which quoted number no longer applies, and the lesson runs on.
    """

    def __init__(self, written_for: dict[str, Any], now: dict[str, Any]):
        if not isinstance(written_for, dict) or not isinstance(now, dict):
            raise TypeError("Quotes(written_for=..., now=...) takes two dicts of the example's inputs")
        if set(written_for) != set(now):
            raise ValueError(f"Quotes: written_for names {sorted(written_for)} but now names {sorted(now)}")
        self.original = written_for == now
        self.changed = sorted(name for name in now if now[name] != written_for[name])
        self.stale: list[str] = []

    def __call__(self, label: str, value: Any, quoted: Any, *, rel_tol: float = 1e-9) -> None:
        if _same(value, quoted, rel_tol):
            return
        if self.original:
            raise AssertionError(f"the text quotes {label} = {quoted}, but the lesson computes {_shown(value, quoted)}")
        self.stale.append(label)
        print(f"{NOTE} {label} = {quoted} for its own example; with your inputs it is {_shown(value, quoted)}.")

    def __repr__(self) -> str:
        if self.original:
            return "Quotes(the lesson's own example: every quoted number is checked)"
        return f"Quotes(changed inputs: {', '.join(self.changed)}; {len(self.stale)} quoted numbers differ so far)"


def _canonical(value: Any) -> str:
    """A text form of an answer in which equal answers are equal: numbers at four decimals, strings folded."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):  # numpy arrays and scalars
        value = value.tolist()
        if isinstance(value, bool):
            return repr(value)
    if isinstance(value, numbers.Real):
        x = float(value)
        if math.isnan(x):
            return "nan"
        shown = f"{x:.4f}"
        return "0.0000" if shown == "-0.0000" else shown
    if isinstance(value, str):  # case and repeated spaces do not matter
        return " ".join(value.casefold().split())
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_canonical(v) for v in value) + "]"
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(_canonical(v) for v in value)) + "}"
    if isinstance(value, dict):
        return "{" + ", ".join(sorted(f"{_canonical(k)}: {_canonical(v)}" for k, v in value.items())) + "}"
    raise TypeError(f"an answer is a number, string, bool, None, or a list, tuple, set or dict of them; got {type(value).__name__}")


def answer_digest(value: Any) -> str:
    """The digest ``check_answer`` compares with: a SHA-256 of the answer's canonical form.  An answer that is
    one string is also taken without its surrounding punctuation ("No." is "no"); strings inside a list, set
    or dict are tokens, compared with their punctuation ("," is not ".")."""
    canonical = _canonical(value)
    if isinstance(value, str) and canonical.strip(PUNCTUATION):
        canonical = canonical.strip(PUNCTUATION)
    return "sha256:" + hashlib.sha256(("evalkit answer\n" + canonical).encode("utf-8")).hexdigest()[:24]


def check_answer(value: Any, digest: str, hint: str = "") -> None:
    """Print ✓ when ``value`` is the answer whose digest is ``digest``, else ✗ and the hint.

    ``...`` (the placeholder of the student edition) means not answered yet.  Never raises for a wrong
    answer, so a notebook runs on to the next exercise.
    """
    if not isinstance(digest, str) or not digest.startswith("sha256:"):
        raise ValueError("check_answer: the digest is a string made by answer_digest(right_answer), 'sha256:...'")
    if value is Ellipsis:
        print("… Not answered yet: replace the ... with your answer and run the cell again.")
        return
    try:
        right = answer_digest(value) == digest
    except TypeError as error:
        print(f"✗ Not yet: {error}.")
        return
    if right:
        print("✓ Correct.")
    else:
        print("✗ Not yet" + (f": {hint.rstrip('.')}." if hint else "."))
