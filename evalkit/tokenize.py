"""Tokenizers, chosen by name.

A tokenizer is a plain function ``str -> list[str]``.  The names and behaviour follow sacreBLEU's, so that
``tokenize("13a")`` splits a sentence exactly as ``sacrebleu`` does before it counts n-grams:

- ``"none"``: split on white space, nothing else.
- ``"13a"``: the rules of the WMT scoring script ``mteval-v13a.pl``: unescape four HTML entities, put spaces
  around ASCII punctuation and symbols, and around ``.`` and ``,`` unless they sit between digits (3.5 and
  1,000 stay whole), and split a ``-`` off a preceding digit.
- ``"intl"``: the rules of ``mteval-v14.pl --international-tokenization``: the same idea with Unicode
  classes: punctuation (category P*) is split off unless it touches a digit on that side, every symbol
  (category S*) stands alone.
- ``"char"``: every non-space character is a token.

    >>> tokenize("It's 3.5% in the U.S.", "13a")
    ["It's", '3.5', '%', 'in', 'the', 'U', '.', 'S', '.']
    >>> tokenize("It's 3.5% in the U.S.", "intl")
    ['It', "'", 's', '3.5', '%', 'in', 'the', 'U', '.', 'S', '.']
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from ._checks import check_choice

Tokenizer = Callable[[str], list[str]]


def tokenize_none(text: str) -> list[str]:
    """Split on runs of white space."""
    return text.split()


# --- 13a -------------------------------------------------------------------------------------------------
# ASCII punctuation and symbols that always become tokens of their own: { | } ~ [ \ ] ^ _ ` space ! " # $ % &
# ( ) * + : ; < = > ? @ /   (not the apostrophe, which stays inside words, nor - , . which have rules below)
_13A_ALWAYS_SPLIT = re.compile(r"([{-~\[-` -&(-+:-@/])")
_13A_PERIOD_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([.,])")
_13A_PERIOD_COMMA_BEFORE_NON_DIGIT = re.compile(r"([.,])([^0-9])")
_13A_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")
_13A_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


@lru_cache(maxsize=2**16)
def _tokenize_13a_cached(text: str) -> tuple[str, ...]:
    text = text.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in text:
        for entity, char in _13A_ENTITIES:
            text = text.replace(entity, char)
    # Padding with spaces lets the period/comma rules see the first and last character.
    text = f" {text} "
    text = _13A_ALWAYS_SPLIT.sub(r" \1 ", text)
    text = _13A_PERIOD_COMMA_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
    text = _13A_PERIOD_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    text = _13A_DASH_AFTER_DIGIT.sub(r"\1 \2 ", text)
    return tuple(text.split())


def tokenize_13a(text: str) -> list[str]:
    """The WMT ``mteval-v13a`` tokenizer (sacreBLEU's default)."""
    return list(_tokenize_13a_cached(text.rstrip()))


# --- intl ------------------------------------------------------------------------------------------------
# The third-party ``regex`` module knows Unicode categories (\p{P}: punctuation, \p{S}: symbols, \p{N}:
# numbers); it is imported only when this tokenizer is first used.
@lru_cache(maxsize=1)
def _intl_rules():
    import regex

    return (
        (regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),  # punctuation after a non-number
        (regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),  # punctuation before a non-number
        (regex.compile(r"(\p{S})"), r" \1 "),  # every symbol
    )


@lru_cache(maxsize=2**16)
def _tokenize_intl_cached(text: str) -> tuple[str, ...]:
    for pattern, replacement in _intl_rules():
        text = pattern.sub(replacement, text)
    return tuple(text.split())


def tokenize_intl(text: str) -> list[str]:
    """The ``mteval-v14`` international tokenizer (Unicode punctuation and symbols)."""
    return list(_tokenize_intl_cached(text.rstrip()))


def tokenize_char(text: str) -> list[str]:
    """Every character that is not white space is a token."""
    return [ch for ch in text if not ch.isspace()]


TOKENIZERS: dict[str, Tokenizer] = {
    "none": tokenize_none,
    "13a": tokenize_13a,
    "intl": tokenize_intl,
    "char": tokenize_char,
}


def get_tokenizer(name: str) -> Tokenizer:
    """The tokenizer function called ``name`` (one of ``TOKENIZERS``)."""
    return TOKENIZERS[check_choice("tokenizer", name, TOKENIZERS)]


def tokenize(text: str, name: str = "13a") -> list[str]:
    """Tokenize one string with the tokenizer called ``name``."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return get_tokenizer(name)(text)
