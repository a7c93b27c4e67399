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

Numbers are compared at four decimals (``2/3``, ``Fraction(2, 3)`` and ``0.66667`` are the same answer; one
that lies on a half of the fourth decimal is read both ways, see :func:`check_answer`), strings without
regard to case or repeated spaces (a one-string answer also without surrounding punctuation); lists and
tuples are the same, sets are unordered.  A digest is a salted scrypt key, slow on purpose (about 0.2 s a
check), so finding an answer by trying values costs far more than computing it, except for answers with a
few possible values (yes/no): the teacher's guide, notebooks/README.md, says how to grade those.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import math
import numbers
import os
import re
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


# ------------------------------------------------------------------------------------- self-checks

DECIMALS = 4            # numbers are compared at four decimals
HALF_TOLERANCE = 1e-9   # relative: a number this close to a half of the last decimal may round either way
HALF_CAP = Fraction(1, 100)  # ... but never further than 1/100 of the last decimal (numbers above 1000)
MAX_FORMS = 8           # at most this many readings of one answer are tried (2 ** 3 numbers near a half)
MAX_DEPTH = 100         # an answer nested deeper than this is refused
# scrypt's cost: n = 2 ** 16, so 2 ** 16 x 8 x 128 bytes = 64 MiB of memory, about 0.2 s a key (measured
# on the project's 2-core machine).  A digest names its parameters as letters and digits run together
# ("ln16r8p1": log2 n, r, p), so no number stands alone in it for tools.exercises' leak check to find.
SCRYPT_LOG_N, SCRYPT_R, SCRYPT_P = 16, 8, 1
SCRYPT_LIMITS = {"ln": (10, 20), "r": (1, 16), "p": (1, 4)}
SALT_BYTES, KEY_BYTES = 16, 16
RECORD_ENV = "EVALKIT_RECORD_ANSWERS"  # tools.redigest: a file to which each check appends what it compared
_SCRYPT = re.compile(r"scrypt:ln(\d+)r(\d+)p(\d+):([0-9a-f]{32}):([0-9a-f]{32})")
_SHA256 = re.compile(r"sha256:([0-9a-f]{24})")


class _Unreadable(Exception):
    """An answer that cannot be given a canonical form (its message is shown to the student)."""


def _number_forms(value: Any) -> list[str]:
    """A number at four decimals: one form, or two (rounded down and up) when it lies within a relative
    ``HALF_TOLERANCE`` of a half of the last decimal, where one ulp decides the rounding."""
    if isinstance(value, numbers.Rational):
        exact = Fraction(value.numerator, value.denominator)
    else:
        x = float(value)
        if math.isnan(x):
            return ["nan"]
        if math.isinf(x):
            return ["inf" if x > 0 else "-inf"]
        exact = Fraction(x)
    scaled = exact * 10 ** DECIMALS
    low = math.floor(scaled)
    if abs(scaled - low - Fraction(1, 2)) <= min(Fraction(HALF_TOLERANCE) * max(abs(scaled), 1), HALF_CAP):
        # on a half: away from zero first (the school's rounding, the form answer_digest keeps), then toward
        units = [low + 1, low] if scaled > 0 else [low, low + 1]
    else:
        units = [round(scaled)]
    return [_decimal(u) for u in units]


def _decimal(units: int) -> str:
    sign = "-" if units < 0 else ""
    whole, part = divmod(abs(units), 10 ** DECIMALS)
    return f"{sign}{whole}.{part:0{DECIMALS}d}"


def _combine(parts: list[list[str]]) -> list[list[str]]:
    """The readings of a sequence: each part's first reading first, then the alternatives, at most MAX_FORMS."""
    return [list(c) for c in itertools.islice(itertools.product(*parts), MAX_FORMS)]


def _forms(value: Any, legacy: bool, path: tuple[int, ...] = ()) -> list[str]:
    """The canonical forms of an answer (see :func:`check_answer`); several when numbers lie on a half.

    ``legacy`` gives the form the ``sha256:`` digests were made of (strings unquoted); the new form quotes
    strings, so the string "[a, b]" is not the list ["a", "b"], nor the string "nan" the number nan.  Both
    forms of one answer list the same readings in the same order."""
    if len(path) > MAX_DEPTH:
        raise _Unreadable(f"the answer is nested more than {MAX_DEPTH} levels deep")
    if value is None or isinstance(value, bool):
        return [repr(value)]
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):  # numpy arrays and scalars
        value = value.tolist()
        if value is None or isinstance(value, bool):
            return [repr(value)]
    if isinstance(value, numbers.Real):
        return ["0.0000" if f == "-0.0000" else f for f in _number_forms(value)]
    if isinstance(value, str):  # case and repeated spaces do not matter
        folded = " ".join(value.casefold().split())
        return [folded if legacy else json.dumps(folded, ensure_ascii=False)]
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        if id(value) in path:
            raise _Unreadable(f"the answer is a {type(value).__name__} that contains itself")
        inner = path + (id(value),)
        if isinstance(value, dict):
            items = [[f"{k}: {v}" for k, v in itertools.islice(itertools.product(
                _forms(key, legacy, inner), _forms(item, legacy, inner)), MAX_FORMS)] for key, item in value.items()]
            empty = "{}" if legacy else "{:}"
            return ["{" + ", ".join(sorted(r)) + "}" if r else empty for r in _combine(items)]
        parts = [_forms(v, legacy, inner) for v in value]
        if isinstance(value, (set, frozenset)):
            return ["{" + ", ".join(sorted(r)) + "}" for r in _combine(parts)]
        return ["[" + ", ".join(r) + "]" for r in _combine(parts)]
    raise _Unreadable("an answer is a number, string, bool, None, or a list, tuple, set or dict of them; "
                      f"got {type(value).__name__}")


def _answer_forms(value: Any, legacy: bool) -> list[str]:
    forms = _forms(value, legacy)
    if isinstance(value, str):  # one string: also without its surrounding punctuation ("No." is "no")
        folded = " ".join(value.casefold().split())
        if folded.strip(PUNCTUATION):
            bare = folded.strip(PUNCTUATION)
            forms = [bare if legacy else json.dumps(bare, ensure_ascii=False)]
    return forms


def _sha256(canonical: str) -> str:
    return "sha256:" + hashlib.sha256(("evalkit answer\n" + canonical).encode("utf-8")).hexdigest()[:24]


def _scrypt_key(canonical: str, salt: bytes, n: int, r: int, p: int) -> str:
    return hashlib.scrypt(("evalkit answer v2\n" + canonical).encode("utf-8"), salt=salt, n=n, r=r, p=p,
                          maxmem=2 * 128 * n * r * p + 2 ** 20, dklen=KEY_BYTES).hex()


def digest_of_form(canonical: str, *, salt: bytes | None = None) -> str:
    """The ``scrypt:`` digest of an answer's canonical form (``tools.redigest`` uses it)."""
    salt = os.urandom(SALT_BYTES) if salt is None else salt
    key = _scrypt_key(canonical, salt, 2 ** SCRYPT_LOG_N, SCRYPT_R, SCRYPT_P)
    return f"scrypt:ln{SCRYPT_LOG_N}r{SCRYPT_R}p{SCRYPT_P}:{salt.hex()}:{key}"


def answer_digest(value: Any) -> str:
    """The digest ``check_answer`` compares with: ``scrypt:ln16r8p1:<salt>:<key>``, the scrypt key of
    the answer's canonical form under a fresh random salt (so two digests of one answer differ, and no table
    of digests serves two answers).  scrypt is slow on purpose (about 0.2 s and 64 MiB a key): trying the
    10,001 four-decimal numbers in [0, 1] costs half an hour a digest, more than computing the answer.

    An answer that is one string is also taken without its surrounding punctuation ("No." is "no");
    strings inside a list, set or dict are tokens, compared with their punctuation ("," is not ".").
    Raises TypeError for an answer that has no canonical form (see :func:`check_answer`)."""
    try:
        canonical = _answer_forms(value, legacy=False)[0]
    except _Unreadable as error:
        raise TypeError(f"answer_digest: {error}") from None
    return digest_of_form(canonical)


def _digest_matcher(digest: Any):
    """A function telling whether a canonical form (new, legacy) is the digest's answer, or a message saying
    what is wrong with the digest."""
    if not isinstance(digest, str):
        return f"the digest is a {type(digest).__name__}, not a string"
    if digest.startswith("sha256:"):
        if not _SHA256.fullmatch(digest):
            return "a 'sha256:' digest has 24 lowercase hex digits after the colon"
        return lambda new, old: hmac.compare_digest(_sha256(old), digest)
    if digest.startswith("scrypt:"):
        found = _SCRYPT.fullmatch(digest)
        if not found:
            return ("a 'scrypt:' digest reads 'scrypt:ln<log2 n>r<r>p<p>:<32 hex digits of salt>:<32 hex digits "
                    "of key>'")
        ln, r, p = (int(g) for g in found.group(1, 2, 3))
        for name, number in zip(("ln", "r", "p"), (ln, r, p)):
            lowest, highest = SCRYPT_LIMITS[name]
            if not lowest <= number <= highest:
                return f"its scrypt parameter {name}{number} is outside {lowest}..{highest}"
        n = 2 ** ln
        if 128 * n * r * p > 2 ** 28:
            return f"its scrypt parameters ask for {128 * n * r * p // 2 ** 20} MiB of memory, more than 256"
        salt, key = bytes.fromhex(found.group(4)), found.group(5)
        return lambda new, old: hmac.compare_digest(_scrypt_key(new, salt, n, r, p), key)
    return "a digest starts with 'scrypt:' (made by answer_digest(right_answer)) or the older 'sha256:'"


def _record(digest: str, form: str | None) -> None:
    """Under tools.redigest ($EVALKIT_RECORD_ANSWERS names a file): note the answer a digest was checked with."""
    path = os.environ.get(RECORD_ENV)
    if path:
        try:
            with open(path, "a", encoding="utf-8") as out:
                out.write(json.dumps({"digest": digest, "answer": form}, ensure_ascii=False) + "\n")
        except OSError as error:  # tools.redigest then finds the digest unchecked and refuses the notebook
            print(f"(the answer could not be recorded in ${RECORD_ENV}: {error})")


def check_answer(value: Any, digest: str, hint: str = "") -> None:
    """Print ✓ when ``value`` is the answer whose digest is ``digest``, else ✗ and the hint.

    ``...`` (the placeholder of the student edition) means not answered yet.  Never raises: a wrong or
    unreadable answer, or a malformed digest, is said in the printed line, so a notebook runs on to the
    next exercise.

    How answers are compared (their canonical form): strings without regard to case or repeated spaces,
    lists and tuples alike, sets and dicts in any order, ``True`` apart from ``1`` and ``"1"`` apart from
    ``1``.  Numbers at four decimals, rounded, fairly: ``2/3``, ``Fraction(2, 3)`` and ``0.66667`` are the
    same answer, and ``0.6666`` is a different one.  A number within a relative 1e-9 of a half of the last
    decimal (``0.3 / 9.6 = 0.03125``) is read both ways, ``0.0312`` and ``0.0313``, since one ulp of
    rounding error decides which it becomes (``(0.1 + 0.2) / 9.6`` rounds up, ``0.3 / 9.6`` down): the right
    answer computed another way gets ✓, whichever way the digest's own computation rounded, while an answer
    wrong at four decimals (``0.0314``) gets ✗.  ``answer_digest`` keeps the school's reading of a half
    (away from zero: ``0.0313``), so the hand-rounded answer is right too.  What is accepted beyond the
    answer's own readings is only a number on the neighbouring half (``0.03135`` also reads ``0.0313``).
    The tolerance is relative (peers agree to 1e-9) but never more than 1/100 of the last decimal, so a large
    number (``123456.789``) is not taken for a half.  At most eight readings are tried (three numbers on a
    half), each a slow scrypt key.
    """
    matcher = _digest_matcher(digest)
    if isinstance(matcher, str):
        print(f"⚠ This self-check cannot check answers: {matcher} (the digest is {digest!r:.60}). "
              "Tell your teacher; your answer was not checked.")
        return
    if value is Ellipsis:
        print("… Not answered yet: replace the ... with your answer and run the cell again.")
        return
    try:
        new, old = _answer_forms(value, legacy=False), _answer_forms(value, legacy=True)
        right = next((form for form, legacy in zip(new, old) if matcher(form, legacy)), None)
    except _Unreadable as error:
        print(f"✗ Not yet: {error}.")
        return
    except Exception as error:  # noqa: BLE001 - an odd object must not stop the lesson
        print(f"✗ Not yet: this answer could not be read ({type(error).__name__}: {error!s:.80}).")
        return
    _record(digest, new[0] if right is not None else None)  # the form answer_digest(value) would take
    if right is not None:
        print("✓ Correct.")
    elif hint:
        hint = str(hint).strip()
        print(f"✗ Not yet: {hint}" + ("" if hint.endswith((".", "?", "!", "…")) else "."))
    else:
        print("✗ Not yet.")
