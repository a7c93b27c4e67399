"""evalkit's tokenizers split exactly as sacreBLEU's tokenizers of the same name, on every WMT17 segment."""

from __future__ import annotations

import pytest
from sacrebleu.metrics.bleu import BLEU

from evalkit.tokenize import TOKENIZERS, get_tokenizer, tokenize


def sacrebleu_tokens(name: str):
    tok = BLEU(tokenize=name).tokenizer
    # sacreBLEU strips trailing white space, tokenizes, and its n-gram counter splits on white space.
    return lambda s: tok(s.rstrip()).split()


@pytest.mark.parametrize("name", ["none", "13a", "intl", "char"])
def test_every_wmt17_segment_tokenizes_as_sacrebleu(name, wmt17):
    reference, systems = wmt17
    segments = list(dict.fromkeys(reference + [s for out in systems.values() for s in out]))
    assert len(segments) > 40_000  # every distinct line of the reference and the 16 systems
    ours, theirs = get_tokenizer(name), sacrebleu_tokens(name)
    mismatches = [s for s in segments if ours(s) != theirs(s)]
    assert mismatches == []


@pytest.mark.parametrize(
    "text",
    [
        "It's a well-known fact: costs rose 3.5% in the U.S.",
        "1,000,000 people - 20-30 years &amp; &quot;older&quot;",
        "Preis: 3,50 € (inkl. MwSt.) — «Zitat» 2017.",
        "trailing space and tab \t ",
        "",
        "   ",
        "<skipped> line-\nbreak",
        "日本語の文。テスト！",
    ],
)
@pytest.mark.parametrize("name", ["none", "13a", "intl", "char"])
def test_tricky_strings_tokenize_as_sacrebleu(text, name):
    assert tokenize(text, name) == sacrebleu_tokens(name)(text)


def test_13a_keeps_numbers_whole_and_splits_punctuation():
    # By the 13a rules: '.' and ',' between digits stay; '%' always splits; a '.' after a letter splits.
    assert tokenize("costs rose 3.5% in the U.S.", "13a") == ["costs", "rose", "3.5", "%", "in", "the", "U", ".", "S", "."]


def test_char_drops_spaces():
    assert tokenize("a b\tc", "char") == ["a", "b", "c"]


def test_unknown_tokenizer_lists_valid_names():
    with pytest.raises(ValueError, match="'13a'") as err:
        get_tokenizer("moses")
    assert all(repr(n) in str(err.value) for n in TOKENIZERS)


def test_non_string_text_is_a_type_error():
    with pytest.raises(TypeError, match="str"):
        tokenize(["already", "split"], "13a")
