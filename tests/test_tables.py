"""evalkit.tables: the pandas views of the metrics' steps agree with the metrics they show."""

from __future__ import annotations

from evalkit.chrf import sentence_chrf
from evalkit.tables import chrf_table


def test_chrf_table_lists_every_ngram():
    t = chrf_table("the cat", "the hat", 2)
    assert list(t.columns) == ["n-gram", "hypothesis", "reference", "matched"]
    assert t["matched"].sum() == sentence_chrf("the cat", ["the hat"]).orders[1].matches
