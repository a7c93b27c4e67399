"""The human-judgment data in data/human/: the loaders against the raw files, read here independently."""

from __future__ import annotations

import csv
import gzip
import json
import math
from dataclasses import FrozenInstanceError

import pytest

from evalkit import data


def test_wmt17_human_scores_cover_the_16_systems_by_their_file_names():
    human = data.wmt17_human_scores()
    assert len(human) == 16
    assert list(human) == list(data.wmt17_systems())  # same names, same order
    # the raw table, read with csv; each row matched to a system file by its submission id ("name.id")
    with open(data.data_dir() / "human" / "wmt17-en-de-da-system.tsv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    files = [p.name[: -len(".de.gz")] for p in (data.data_dir() / "wmt17-en-de" / "systems").glob("*.de.gz")]
    assert len(rows) == 16 and {r["language_pair"] for r in rows} == {"en-de"}
    for row in rows:
        name, submission = row["system"].rsplit(".", 1)
        if submission == "0":  # the online systems share id 0: their names agree
            match = [f for f in files if f == row["system"]]
        else:
            match = [f for f in files if f.endswith("." + submission)]
        assert len(match) == 1, row
        assert human[match[0].rsplit(".", 1)[0]] == float(row["human_z"])
    assert "fbk-nmt-combination" not in human and "FBK" in human


def _raw_realsumm():
    with gzip.open(data.data_dir() / "human" / "realsumm-cnndm.json.gz", "rt", encoding="utf-8") as f:
        return json.load(f)


def test_realsumm_counts_and_contents():
    r = data.realsumm()
    raw = _raw_realsumm()
    assert len(r.doc_ids) == len(r.references) == 100
    assert len(r.abstractive) == 14 and len(r.extractive) == 11
    for kind, systems in (("abs", r.abstractive), ("ext", r.extractive)):
        assert sorted(systems) == sorted(name[: -len(".txt")] for name in raw[kind][0]["systems"])
        for name, system in systems.items():
            assert system.name == name and system.kind == kind
            assert len(system.summaries) == len(system.litepyramid) == 100
            assert len(system.published) == 9
            for i, doc in enumerate(raw[kind]):
                entry = doc["systems"][name + ".txt"]
                assert doc["doc_id"] == r.doc_ids[i] and doc["reference"] == r.references[i]
                assert system.summaries[i] == entry["summary"]
                assert system.litepyramid[i] == entry["litepyramid_recall"]
                assert all(system.published[k][i] == v for k, v in entry["published"].items())
            assert all(0 <= v <= 1 for v in system.litepyramid)


def test_realsumm_is_frozen():
    r = data.realsumm()
    with pytest.raises(FrozenInstanceError):
        r.references = ()
    with pytest.raises(TypeError):
        r.abstractive["x"] = None
    with pytest.raises(TypeError):
        r.abstractive["bart_out"].published["rouge_1_recall"] = ()


def test_marked_sentences():
    assert data.marked_sentences("<t> a b . </t>  <t> c d . </t>") == ["a b .", "c d ."]
    assert data.marked_sentences("<t> a b . </t> <t> cut off") == ["a b .", "cut off"]
    assert data.marked_sentences("no marks at all") == ["no marks at all"]
    assert data.marked_sentences("") == []
    with pytest.raises(TypeError, match="expected a string"):
        data.marked_sentences(["<t> a </t>"])
    r = data.realsumm()
    texts = list(r.references) + [s for sy in (*r.abstractive.values(), *r.extractive.values()) for s in sy.summaries]
    for text in texts:
        sentences = data.marked_sentences(text)
        assert sentences and not any("<t>" in s or "</t>" in s for s in sentences)
        # nothing but the marks and the spaces around them is lost
        assert " ".join(text.replace("<t>", " ").replace("</t>", " ").split()) == " ".join(" ".join(sentences).split())



# ------------------------------------------------------------------------------------------ MQM (WMT21 TED)
@pytest.mark.parametrize("pair, systems, rows", [("en-de", 14, 8435), ("zh-en", 15, 9915)])
def test_mqm_ted_reads_every_row_and_one_text_per_system_and_segment(pair, systems, rows):
    mqm = data.mqm_ted(pair)
    assert len(mqm.errors) == rows and len(mqm.systems) == systems and len(mqm.seg_ids) == 529
    assert "ref-A" in mqm.systems and ("ref-B" in mqm.systems) == (pair == "zh-en")
    assert all(len(texts) == 529 for texts in mqm.texts.values()) and len(mqm.sources) == 529
    assert not any("<v>" in t or "</v>" in t for texts in mqm.texts.values() for t in texts)
    # the raw file, read here with the csv module's default quoting, would glue rows together at a quote
    # character: QUOTE_NONE reads one record per line
    path = data.data_dir() / "human" / "mqm-ted" / f"mqm_ted_{data.MQM_PAIRS[pair]}.tsv.gz"
    with gzip.open(path, "rt", encoding="utf-8", newline="") as f:
        lines = f.read().count("\n")
    assert lines == rows + 1
    first = mqm.errors[0]
    assert isinstance(first.seg_id, int) and first.target.count("<v>") == first.target.count("</v>")
    assert any('"' in t for texts in mqm.texts.values() for t in texts)


def test_mqm_ted_text_of_a_marked_row_is_the_text_without_its_marks():
    mqm = data.mqm_ted("en-de")
    marked = next(e for e in mqm.errors if "<v>" in e.target)
    position = mqm.seg_ids.index(marked.seg_id)
    assert mqm.texts[marked.system][position] == marked.target.replace("<v>", "").replace("</v>", "")
    assert data.strip_span_marks("a <v>b</v> c") == "a b c"
    with pytest.raises(TypeError):
        data.strip_span_marks(None)
    with pytest.raises(ValueError, match="pair"):
        data.mqm_ted("de-en")


def test_mqm_ted_avg_seg_scores_keep_the_files_sign_and_nones():
    avg = data.mqm_ted_avg_seg_scores("zh-en")
    assert set(avg) == set(data.mqm_ted("zh-en").systems)
    values = [v for by_seg in avg.values() for v in by_seg.values()]
    assert sum(v is None for v in values) == 4710 and all(v <= 0 for v in values if v is not None)


# Issue 32, item 11: "Malformed MQM files (through the data folder): an empty file IndexError, a non-integer
# `doc_id` with no line number, undecodable bytes and a corrupt gzip raw; NaN, inf and duplicate rows
# accepted in the averages file. Each a `ValueError` naming the file and line."
MQM_HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
MQM_ROW = "Nemo\ttalk.1\t{doc_id}\t1\trater1\tQuelle\tZiel\tNo-error\tNo-error\n"
AVG_HEADER = "system\tmqm_avg_score\tseg_id\n"


@pytest.fixture
def mqm_folder(tmp_path, monkeypatch):
    """A data folder of one's own (EVALKIT_DATA) with an MQM file and an avg file for en-de, written by
    ``write(name, bytes)``; the readers find them there."""
    folder = tmp_path / "human" / "mqm-ted"
    folder.mkdir(parents=True)
    monkeypatch.setenv("EVALKIT_DATA", str(tmp_path))

    def write(kind: str, content: bytes, compress: bool = True):
        path = folder / f"mqm_ted_ende{kind}.tsv.gz"
        path.write_bytes(gzip.compress(content) if compress else content)
        return path

    return write


@pytest.mark.hardening
def test_malformed_mqm_files_are_refused_naming_the_file_and_line(mqm_folder):
    good = (MQM_HEADER + MQM_ROW.format(doc_id=1)).encode()
    mqm_folder("", good)
    assert data.mqm_ted("en-de").errors[0].doc_id == 1  # the folder works: a well-formed file is read
    cases = [
        (b"", r"mqm_ted_ende\.tsv\.gz: the file is empty"),
        (MQM_HEADER.encode(), r"mqm_ted_ende\.tsv\.gz: a header line and no rows"),
        ((MQM_HEADER + MQM_ROW.format(doc_id=1) + MQM_ROW.format(doc_id="x1")).encode(),
         r"mqm_ted_ende\.tsv\.gz, line 3: doc_id is 'x1'; expected a whole number"),
        ((MQM_HEADER + MQM_ROW.format(doc_id=1)).encode() + b"Nemo\ttalk.1\t1\t2\tr\t\xff\tZiel\tNo-error\tNo-error\n",
         r"mqm_ted_ende\.tsv\.gz, line 3: byte 19 \(0xff\) is not UTF-8"),
        ((MQM_HEADER + "Nemo\t1\n").encode(), r"mqm_ted_ende\.tsv\.gz, line 2: 2 fields, expected 9"),
    ]
    for content, message in cases:
        mqm_folder("", content)
        with pytest.raises(ValueError, match=message):
            data.mqm_ted("en-de")
    mqm_folder("", gzip.compress(good)[:-12], compress=False)  # cut off: a corrupt gzip stream
    with pytest.raises(ValueError, match=r"mqm_ted_ende\.tsv\.gz: not a readable gzip file"):
        data.mqm_ted("en-de")
    mqm_folder("", b"not gzip at all", compress=False)
    with pytest.raises(ValueError, match=r"mqm_ted_ende\.tsv\.gz: not a readable gzip file"):
        data.mqm_ted("en-de")


@pytest.mark.hardening
def test_malformed_mqm_avg_files_are_refused_naming_the_file_and_line(mqm_folder):
    mqm_folder(".avg_seg_scores", (AVG_HEADER + "Nemo\t -1.5\t1\nNemo\t None\t2\n").encode())
    assert data.mqm_ted_avg_seg_scores("en-de") == {"Nemo": {1: -1.5, 2: None}}
    name = r"mqm_ted_ende\.avg_seg_scores\.tsv\.gz"
    cases = [
        ("", name + ", line 1: no header"),
        (AVG_HEADER, name + ": a header line and no rows"),
        (AVG_HEADER + "Nemo\t nan\t1\n", name + r", line 2: the score 'nan' is not finite"),
        (AVG_HEADER + "Nemo\t -1\t1\nNemo\t inf\t2\n", name + r", line 3: the score 'inf' is not finite"),
        (AVG_HEADER + "Nemo\t -1\t1\nNemo\t -2\t1\n", name + r", line 3: Nemo segment 1 again \(first on line 2\)"),
        (AVG_HEADER + "Nemo\t -1\tone\n", name + r", line 2: seg_id is 'one'"),
        (AVG_HEADER + "Nemo\t minus\t1\n", name + r", line 2: the score 'minus' is not a number"),
        (AVG_HEADER + "Nemo\t -1\n", name + r", line 2: 2 fields, expected 3"),
    ]
    for content, message in cases:
        mqm_folder(".avg_seg_scores", content.encode())
        with pytest.raises(ValueError, match=message):
            data.mqm_ted_avg_seg_scores("en-de")
    mqm_folder(".avg_seg_scores", AVG_HEADER.encode() + b"N\xe9mo\t -1\t1\n")
    with pytest.raises(ValueError, match=name + r", line 2: byte 2 \(0xe9\) is not UTF-8"):
        data.mqm_ted_avg_seg_scores("en-de")
    mqm_folder(".avg_seg_scores", b"\x1f\x8b\x08\x00garbage", compress=False)
    with pytest.raises(ValueError, match=name + ": not a readable gzip file"):
        data.mqm_ted_avg_seg_scores("en-de")

def _raw_mqm_rows(name):
    path = data.data_dir() / "human" / "mqm-ted" / f"mqm_ted_{name}.tsv.gz"
    with gzip.open(path, "rt", encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def test_ted_chinese_sources_come_in_talk_order():
    """Issue 30: the sources were sorted by (doc_id, seg_id), and doc_id is a segment's position within its
    talk, so the five talks interleaved.  Read here from the raw files, without seg_id: talk after talk (by
    the talk's number), each from its first segment to its last, and in that order the English originals
    (zh-en's ref-A, the file's "ref") are the en-de file's sources, read in the same way."""

    def plain(text):
        return text.replace("<v>", "").replace("</v>", "")

    def talk_order(rows, column):  # {(talk number, position in talk): text of the column}
        texts = {(int(r["doc"].removeprefix("talk.")), int(r["doc_id"])): plain(r[column]) for r in rows}
        return [texts[key] for key in sorted(texts)], sorted(texts)

    zhen = _raw_mqm_rows("zhen")
    expected, keys = talk_order(zhen, "source")
    assert data.ted_chinese_sources() == expected
    assert [t for i, (t, _) in enumerate(keys) if i == 0 or keys[i - 1][0] != t] == [2, 5, 6, 7, 9]
    for talk in (2, 5, 6, 7, 9):
        positions = [p for t, p in keys if t == talk]
        assert positions == list(range(1, len(positions) + 1))  # every segment of the talk, none missing
    assert [sum(t == talk for t, _ in keys) for talk in (2, 5, 6, 7, 9)] == [140, 31, 129, 70, 159]  # as documented
    english, _ = talk_order([r for r in zhen if r["system"] == "ref"], "target")
    assert english == talk_order(_raw_mqm_rows("ende"), "source")[0]
    assert expected[:2] == ["我希望大家能花点时间考虑一个非常简单的事实那就是，到目前为止， 我们对宇宙的大部分了解都来自于光。",
                            "我们站在地球上仰望夜空用肉眼就能看到天上的繁星。"]
