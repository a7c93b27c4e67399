"""Latency of the weights explorer (evalkit.widgets): from a slider change to the new numbers.

A slider move re-scores cached statistics; the peer row "recount" is what the explorer would cost if it
counted n-grams from scratch on every move (count + score).  Targets (issue 5): under 50 ms for a
100-token sentence pair, under 200 ms for a 3,000-segment corpus.  Measured in the kernel's Python
process, from setting the slider's value to the explorer's widgets holding the new table, BP, score and
bars; the browser's own drawing is not included (tests/test_browser.py checks the page end to end).
"""

from __future__ import annotations

import itertools

from bench import Row, median_time

from evalkit import data
from evalkit.tokenize import tokenize_13a
from evalkit.widgets import WeightsExplorer, count_corpus, count_sentence, weights_view

SENTENCE_TARGET_S, CORPUS_TARGET_S = 0.050, 0.200
SLIDER_VALUES = itertools.cycle([0.0, 0.05, 0.1, 0.25, 0.4, 0.6, 0.9])


def _hundred_token_pair(reference: list[str], hypotheses: list[str]) -> tuple[str, str]:
    """A 100-token hypothesis and its reference: consecutive WMT17 segments, 13a-tokenized, joined and cut."""
    hyp_tokens: list[str] = []
    ref_tokens: list[str] = []
    for hyp, ref in zip(hypotheses, reference):
        hyp_tokens += tokenize_13a(hyp)
        ref_tokens += tokenize_13a(ref)
        if len(hyp_tokens) >= 100:
            break
    return " ".join(hyp_tokens[:100]), " ".join(ref_tokens[: len(ref_tokens) * 100 // len(hyp_tokens)])


def _slider_latency(explorer: WeightsExplorer, repeats: int = 21) -> float:
    def move():
        explorer.sliders[3].value = next(SLIDER_VALUES)
        assert explorer.view is not None  # the new numbers are on the widgets

    return median_time(move, repeats)


def _verdict(seconds: float, target: float) -> str:
    return f"target < {target * 1000:.0f} ms: {'met' if seconds < target else 'MISSED'}"


def run() -> list[Row]:
    reference, systems = data.wmt17_reference(), data.wmt17_systems()
    hyps = systems["uedin-nmt"]
    hyp, ref = _hundred_token_pair(reference, hyps)

    sentence = WeightsExplorer(hyp, [ref], tokenize="none")
    sentence_s = _slider_latency(sentence)
    sentence_recount_s = median_time(lambda: weights_view(count_sentence(hyp, [ref], "none"), (1, 1, 1, 0.5)), 21)

    refs = [[r] for r in reference]
    corpus = WeightsExplorer(corpus=(hyps, refs), tokenize="13a", smoothing="exp")
    corpus_s = _slider_latency(corpus)
    corpus_recount_s = median_time(lambda: weights_view(count_corpus(hyps, refs, "13a"), (1, 1, 1, 0.5)), 3)

    return [
        Row(
            "widgets: slider move, 100-token sentence pair",
            sentence_s,
            "recount",
            sentence_recount_s,
            note=_verdict(sentence_s, SENTENCE_TARGET_S),
        ),
        Row(
            f"widgets: slider move, WMT17 uedin-nmt ({len(hyps):,} segments)",
            corpus_s,
            "recount",
            corpus_recount_s,
            note=_verdict(corpus_s, CORPUS_TARGET_S),
        ),
    ]


if __name__ == "__main__":
    from bench import render

    print(render(run()))
