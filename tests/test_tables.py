"""evalkit.tables: the pandas views of the metrics' steps agree with the metrics they show (the BLEU lessons'
tables checked against evalkit's scoring functions, or against arithmetic done by hand in a comment)."""

from __future__ import annotations

import math

import pytest

from evalkit import tables
from evalkit.bleu import SMOOTHING, score_stats, sentence_stats
from evalkit.chrf import sentence_chrf
from evalkit.tables import chrf_table

HYP = "the cat sat on the mat"
REF = "the cat is on the mat"


def test_chrf_table_lists_every_ngram():
    t = chrf_table("the cat", "the hat", 2)
    assert list(t.columns) == ["n-gram", "hypothesis", "reference", "matched"]
    assert t["matched"].sum() == sentence_chrf("the cat", ["the hat"]).orders[1].matches


def test_smoothing_table_rows_equal_score_stats():
    stats = sentence_stats(HYP, [REF], max_order=5)
    df = tables.bleu_smoothing_table(stats)
    assert list(df.index) == list(SMOOTHING)
    for method in SMOOTHING:
        result = score_stats(stats, smoothing=method)
        assert math.isclose(df.loc[method, "BLEU"], result.score, rel_tol=1e-12, abs_tol=1e-300)
        for p in result.precisions:
            assert math.isclose(df.loc[method, f"p{p.n}"], p.value, rel_tol=1e-12)
    # method2 by hand: add one to matches and totals from n = 2: 5/6, 4/6, 2/5, 1/4
    assert [df.loc["method2", f"p{n}"] for n in range(1, 5)] == pytest.approx([5 / 6, 4 / 6, 2 / 5, 1 / 4])


def test_smoothing_table_refused_method_shows_the_reason_not_nan():
    stats = sentence_stats("a b c", ["a b x"])
    df = tables.bleu_smoothing_table(stats, methods=["method1", "method5", "method6", "method7"])
    for method in ("method5", "method6", "method7"):
        with pytest.raises(ValueError) as refused:
            score_stats(stats, smoothing=method)
        # the row carries sentence_bleu's own message, and no number (not NaN: empty)
        assert df.loc[method, "note"] == str(refused.value)
        assert [df.loc[method, c] for c in ("p1", "p2", "p3", "p4", "BLEU")] == [""] * 5
    assert df.loc["method1", "note"] == ""
    assert math.isclose(df.loc["method1", "BLEU"], score_stats(stats, smoothing="method1").score, rel_tol=1e-12)
    assert not df.drop(columns="note").isna().any().any()
    rounded = tables.bleu_smoothing_table(stats, methods=["method1", "method6"], digits=4)
    assert rounded.loc["method1", "BLEU"] == round(score_stats(stats, smoothing="method1").score, 4)


def test_smoothing_table_is_numeric_when_every_method_scores():
    df = tables.bleu_smoothing_table(sentence_stats(HYP, [REF], max_order=5))
    assert all(df[c].dtype == float for c in ("p1", "p2", "p3", "p4", "BLEU"))
    assert (df["note"] == "").all()


# --- systems and rankings ----------------------------------------------------------------------------------
SCORES = {
    "13a": {"A": 30.0, "B": 28.0, "C": 20.0},
    "char": {"A": 60.0, "B": 62.0, "C": 50.0},
}


def test_ranks_by_hand():
    assert tables.bleu_ranks({"A": 3.0, "B": 5.0, "C": 1.0}) == {"B": 1, "A": 2, "C": 3}
    assert tables.bleu_ranks({"A": 2.0, "B": 2.0, "C": 1.0}) == {"A": 1, "B": 1, "C": 3}  # ties share


def test_system_table():
    df = tables.bleu_system_table(SCORES)
    assert list(df.index) == ["A", "B", "C"]
    assert list(df.columns) == ["13a", "char", "rank 13a", "rank char"]
    assert df.loc["B", "rank char"] == 1 and math.isclose(df.loc["B", "char"], 62.0)


# Issue 19: "chrf_table(None) -> AttributeError": a TypeError saying a string is expected; n >= 1.
@pytest.mark.hardening
@pytest.mark.parametrize("call, error, message", [
    (lambda: chrf_table(None, "the hat", 2), TypeError, "hypothesis is None; expected a string"),
    (lambda: chrf_table("the cat", None, 2), TypeError, "reference is None; expected a string"),
    (lambda: chrf_table("the cat", ["the hat"], 2), TypeError, "reference is a list; expected a string"),
    (lambda: chrf_table("the cat", "the hat", 0), ValueError, "n must be at least 1"),
    (lambda: chrf_table("the cat", "the hat", "2"), TypeError, "n must be an int"),
    (lambda: chrf_table("the cat", "the hat", 2, whitespace="no"), TypeError, "whitespace must be True or False"),
])
def test_chrf_table_refuses_bad_input_clearly(call, error, message):
    with pytest.raises(error, match=message):
        call()
