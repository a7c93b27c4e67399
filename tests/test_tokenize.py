"""evalkit's tokenizers split exactly as sacreBLEU's tokenizers of the same name, on every WMT17 segment."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
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


def test_every_tokenizer_of_every_metric_is_in_the_one_registry():
    assert list(TOKENIZERS) == ["none", "13a", "intl", "char", "char-with-spaces", "rouge-score", "unicode",
                               "unicode-cjk", "nltk"]
    for name, fn in TOKENIZERS.items():
        tokens = fn("It's 3.5% in the U.S., Привет!")
        assert isinstance(tokens, list) and all(isinstance(t, str) and t for t in tokens), name
    with pytest.raises(ValueError, match="unknown tokenizer 'spacy'; expected one of: 'none'"):
        get_tokenizer("spacy")


def test_nltk_is_nltks_word_tokenizer_and_the_rouge_tokenizers_are_rouge_scores(wmt17):
    from nltk.tokenize import NLTKWordTokenizer
    from rouge_score import tokenize as rs_tokenize

    reference, _ = wmt17
    nltk_tok = NLTKWordTokenizer()
    for line in reference[:500]:
        assert tokenize(line, "nltk") == nltk_tok.tokenize(line)
        assert tokenize(line, "rouge-score") == rs_tokenize.tokenize(line, None)
    assert tokenize("a b", "char-with-spaces") == ["a", " ", "b"]
    assert tokenize("Café naïve", "unicode") == ["café", "naïve"]


def test_fast_rouge_score_tokenizer_equals_the_readable_one_on_wmt17(wmt17):
    from evalkit.tokenize import tokenize_rouge_score, tokenize_rouge_score_fast

    reference, systems = wmt17
    for line in reference + systems["online-B"]:
        assert tokenize_rouge_score_fast(line) == tokenize_rouge_score(line)


# --- unicode-cjk: one token per CJK character -------------------------------------------------------------
def test_unicode_cjk_splits_every_han_kana_and_hangul_character_by_hand():
    assert tokenize("猫坐在垫子上", "unicode-cjk") == ["猫", "坐", "在", "垫", "子", "上"]
    assert tokenize("猫坐在垫子上", "unicode") == ["猫坐在垫子上"]  # the whole sentence is one "word"
    assert tokenize("ひらがなとカタカナ", "unicode-cjk") == list("ひらがなとカタカナ")
    assert tokenize("한국어 문장", "unicode-cjk") == ["한", "국", "어", "문", "장"]
    # other scripts as under "unicode": words stay whole, lowercased; punctuation goes
    mixed = "Über die Brücke, 2 Кошки!"
    assert tokenize(mixed, "unicode-cjk") == tokenize(mixed, "unicode") == ["über", "die", "brücke", "2", "кошки"]
    assert tokenize("ABC中文def", "unicode-cjk") == ["abc", "中", "文", "def"]
    # a combining mark stays with the kana it modifies (か + U+3099 = が written in two code points)
    assert tokenize("か\u3099き", "unicode-cjk") == ["か\u3099", "き"]
    assert tokenize("", "unicode-cjk") == [] and tokenize("。、！", "unicode-cjk") == []


def test_unicode_cjk_scores_two_near_identical_chinese_sentences_as_near_identical():
    from evalkit.rouge import rouge_n

    hyp, ref = "猫坐在垫子上", "猫坐在椅子上"  # one character differs
    assert rouge_n(hyp, [ref], 1, tokenize="unicode").fmeasure == 0.0
    assert rouge_n(hyp, [ref], 1, tokenize="unicode-cjk").fmeasure == pytest.approx(5 / 6, abs=1e-12)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.characters(min_codepoint=0x4E00, max_codepoint=0x9FA5),
                          st.sampled_from("abcxyz0189"), st.just(" ")), max_size=40))
def test_unicode_cjk_equals_sacrebleus_zh_tokenizer_on_chinese_characters_and_ascii_words(chars):
    """sacreBLEU's 'zh' splits off every Chinese character and leaves lowercase ASCII words whole; on text
    of Chinese characters (U+4E00-U+9FA5, its main range), lowercase letters, digits and spaces the two agree."""
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    text = "".join(chars)
    assert tokenize(text, "unicode-cjk") == TokenizerZh()(text).split()
