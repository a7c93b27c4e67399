"""The worked example A from the curriculum, computed by hand: P1 = 6/6, P2 = 4/5, BLEU-2 = sqrt(4/5)."""

import math

from evalkit.bleu import sentence_bleu


def test_worked_example_a_by_hand():
    r = sentence_bleu(
        "the cat sat on the mat", ["the cat is on the mat", "the bird sat on the bush"], weights=(0.5, 0.5)
    )
    assert [(p.matches, p.total) for p in r.precisions] == [(6, 6), (4, 5)]
    assert math.isclose(r.score, math.sqrt(4 / 5), rel_tol=1e-12)
