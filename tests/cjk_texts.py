"""Chinese, Japanese and Korean text for the tokenizer tests (tests/test_tokenize.py, tests/test_bleu.py).

- Chinese: the 529 source segments of the WMT21 TED talks MQM data (``evalkit.data.ted_chinese_sources``;
  Freitag et al., 2021, Apache License 2.0), and a "system output" made from each by :func:`edited`.
- Japanese and Korean: sentence pairs written for evalkit's tests by its authors (so under evalkit's MIT
  licence). Each pair says one thing two ways, as a reference and a translation would: different particles,
  word order, endings, numbers in digits or words, full-width and half-width forms, Latin words, quotes.
"""

from __future__ import annotations

# (reference, hypothesis)
JAPANESE = [
    ("猫がマットの上に座った。", "猫はマットの上に座っていた。"),
    ("今日は東京で雨が降っています。", "東京では今日、雨が降っている。"),
    ("私は毎朝コーヒーを二杯飲みます。", "毎朝、私はコーヒーを2杯飲む。"),
    ("この本は図書館で借りました。", "図書館でこの本を借りた。"),
    ("会議は午後3時に始まる予定です。", "会議は15時から始まる予定だ。"),
    ("彼女は日本語と英語を話せます。", "彼女は英語と日本語が話せる。"),
    ("新しいスマートフォンの価格は約10万円です。", "新型スマホの値段はおよそ100,000円だ。"),
    ("駅までの道を教えていただけますか？", "駅への行き方を教えてもらえますか?"),
    ("「ありがとう」と彼は小さな声で言った。", "彼は小声で「ありがとう」と言った。"),
    ("気候変動は世界中の農業に影響を与えている。", "気候の変化が世界の農業に影響している。"),
    ("ＡＩ研究は２０２４年に大きく進歩した。", "AIの研究は2024年に大きく進んだ。"),
    ("明日の天気は晴れのち曇りでしょう。", "明日は晴れ、その後曇りになるでしょう。"),
    ("ｶﾀｶﾅの半角文字もテストします。", "半角のｶﾀｶﾅもテストする。"),
    ("私たちは宇宙の大部分を光を通して知っている。", "宇宙について知っていることの大半は光から来ている。"),
    ("子どもたちは公園でサッカーをして遊んだ。", "子供達は公園でサッカーをした。"),
    ("東京タワーの高さは333メートルです。", "東京タワーは高さ333mだ。"),
    ("The cat と犬は仲が良い。", "猫と dog は仲良しだ。"),
    ("  前後に空白がある文。  ", "前後に空白のある文です。"),
]

KOREAN = [
    ("고양이가 매트 위에 앉았다.", "고양이는 매트 위에 앉아 있었다."),
    ("오늘 서울에는 비가 내리고 있습니다.", "서울에는 오늘 비가 온다."),
    ("저는 매일 아침 커피를 두 잔 마십니다.", "나는 아침마다 커피 2잔을 마신다."),
    ("회의는 오후 3시에 시작할 예정입니다.", "회의는 15시에 시작됩니다."),
    ("그녀는 한국어와 영어를 할 수 있다.", "그녀는 영어와 한국어를 말할 수 있어요."),
    ("새 스마트폰의 가격은 약 100만 원이다.", "새로운 스마트폰은 대략 1,000,000원이다."),
    ("역까지 가는 길을 알려 주시겠어요?", "역으로 가는 방법을 가르쳐 주실 수 있나요?"),
    ('"고맙습니다"라고 그는 작은 목소리로 말했다.', '그는 작은 소리로 "고마워요"라고 말했다.'),
    ("기후 변화는 전 세계 농업에 영향을 미치고 있다.", "기후 변화가 세계 농업에 영향을 준다."),
    ("AI 연구는 2024년에 크게 발전했다.", "인공지능 연구가 2024년에 많이 진보했다."),
    ("내일 날씨는 맑다가 흐려지겠습니다.", "내일은 맑은 뒤 흐리겠습니다."),
    ("아이들은 공원에서 축구를 하며 놀았다.", "아이들이 공원에서 축구를 했다."),
    ("우리가 우주에 대해 아는 것의 대부분은 빛에서 왔다.", "우주에 관한 지식의 대부분은 빛으로부터 온다."),
    ("남산타워의 높이는 236미터입니다.", "N서울타워는 높이가 236m이다."),
    ("한자 漢字도 섞인 문장입니다.", "漢字가 섞인 문장이다."),
    ("  앞뒤에 공백이 있는 문장.  ", "앞뒤에 공백이 있는 문장이에요."),
]


def edited(text: str, i: int) -> str:
    """A deterministic stand-in for a system's output of segment ``i``: every 7th character removed
    (starting at character i % 7), and for odd ``i`` the first clause (up to the first "，") moved to the
    end. Real text stays real text, with the errors a system makes: missing characters, another order."""
    chars = list(text)
    del chars[i % 7 :: 7]
    out = "".join(chars)
    if i % 2 and "，" in out:
        head, tail = out.split("，", 1)
        out = f"{tail}，{head}"
    return out
