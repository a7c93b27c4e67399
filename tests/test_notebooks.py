"""Every number a lesson's prose states is computed and asserted by one of its code cells.

The brief's standard: "A number or comparison stated in a lesson's prose is computed by a cell that asserts
it (or the prose is rendered from the value), so nbval catches drift."  This test reads each lesson's
markdown, takes out what is not a claim (formulas, code spans, headings, links, years, lesson and section
numbers, version strings, single digits), and looks for every remaining number, as written, in the source
or stored output of a code cell that asserts something.  A number that is not found must be listed in
``NOT_COMPUTED`` below with the reason it needs no assert (a definition, a cited figure, an exercise's
input, a value asserted through a variable...).  So a new number in the prose fails here until it is
asserted or explained, and an entry that no longer matches any prose fails too (the list stays true).

What it cannot see: a literal found in an asserting cell need not be the assert that checks that sentence,
and comparisons made in words ("falls behind") carry no number.  It is a tripwire, not a proof.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("[0-9][0-9]-*.ipynb"))

NUMBER = re.compile(r"(?<![\w.])[−-]?\d+(?:[.,]\d+)*(?:e[−-]?\d+)?(?:%|st|nd|rd|th)?(?![\w])")

# Not claims: what the prose uses a number for other than stating a result.
NOT_A_CLAIM = [
    r"\$\$(?:.|\n)*?\$\$",  # display formulas
    r"\$[^$\n]*\$",  # inline formulas
    r"`[^`]*`",  # code spans
    r"^#+ .*$",  # headings
    r"\]\([^)]*\)",  # link targets
    r"\b(?:19|20)\d\d[a-z]?\b",  # years (citations)
    r"\b[Ll]essons? \d+(?:\s*(?:[–-]|and|,|or)\s*\d+)*",  # lesson numbers
    r"(?:\b(?:[Ss]ections?|part|step|[Ee]xercise|[Tt]able|[Ff]igure|[Qq]uestion)\s+|§\s*)\d+(?:\.\d+)*",  # pointers
    r"\b\d+\.\d+\.\d+\b",  # version strings
    r"\b0\d\b",  # zero-padded lesson numbers: "01", "13-metrics..."
]

# Numbers in the prose that no asserting cell states, each with the reason it needs none.
NOT_COMPUTED: dict[str, dict[str, str]] = {
    "02-brevity-penalty": {
        "0.2": "c/r column of the hand table: an input, 2/10 (the BP column is asserted)",
        "0.8": "c/r column of the hand table: an input, 8/10 (the BP column is asserted)",
        "1.2": "c/r column of the hand table: an input, 12/10 (BP(12, 10) == 1 is asserted)",
    },
    "06-rouge": {
        "1.33": "8/6 rounded; the cell above asserts the unclipped recall equals 8 / 6",
    },
    "07-rouge-deep-dive": {
        "0.4535": "the asserted 0.45354 rounded to four places, as the prose says",
        "2.5": "definition of the 95% interval (the 2.5th percentile)",
        "95": "definition: a 95% bootstrap confidence interval",
        "97.5": "definition of the 95% interval (the 97.5th percentile)",
    },
    "08-exploring-weights": {
        "0.35": "a hypothetical pair of reported scores (pitfall 3), not a computed one",
        "0.30": "a hypothetical pair of reported scores (pitfall 3), not a computed one",
    },
    "10-fast-deep-dive": {
        "100": "bit masks and V written out in the hand run of exercise 1; its solution cell asserts V after each token",
        "001": "bit masks and V written out in the hand run of exercise 1; its solution cell asserts V after each token",
        "111": "the starting V (all ones) of the hand run of exercise 1",
    },
    "11-significance": {
        "2.5": "definition of the 95% interval: 2.5% cut off each end",
        "0.27": "published figure, BLEU row of the threshold table in Kocmi, Zouhar, Federmann & Post (2024), not computed here",
        "50": "published figure, BLEU row of the threshold table in Kocmi, Zouhar, Federmann & Post (2024), not computed here: 50% accuracy",
        "80": "published figure, BLEU row of the threshold table in Kocmi, Zouhar, Federmann & Post (2024), not computed here: 80% accuracy",
    },
    "13-metrics-and-people": {
        "0.25": "definition: what a z-score of +0.25 means",
        "0.5": "tau = 0.5 as a definition; r = 1/2 asserted as a fraction; hand arithmetic in an exercise answer",
        "0.75": "hand arithmetic in an exercise answer (each product); the answer r = 0.6 is asserted",
        "0.57": "the asserted top-9 BLEU r, 0.567, rounded to two places in the lesson's overview",
        "0.82": "the asserted 16-system BLEU r, 0.820, rounded to two places in the lesson's overview",
        "0.93": "13/14 rounded; the toy example's r is asserted equal to 13 / 14",
        "97.5": "definition of the 95% interval (the 97.5th percentile)",
    },
    "15-beyond-english": {
        "34.3": "a user's own number in the sacreBLEU issue the overview links (13a BLEU on their test set), cited, not computed",
        "56.0": "a user's own number in the sacreBLEU issue the overview links (zh BLEU on their test set), cited, not computed",
    },
}


def _claims(markdown: str) -> list[str]:
    body = markdown
    for pattern in NOT_A_CLAIM:
        body = re.sub(pattern, " ", body, flags=re.M)
    found = []
    for match in NUMBER.finditer(body):
        number = re.sub(r"(?:%|st|nd|rd|th)$", "", match.group(0).replace("−", "-").lstrip("-"))
        if len(number) == 1:  # single digits: "two systems", list items, "n = 4"
            continue
        found.append(number)
    return found


def _spellings(number: str) -> set[str]:
    """How a code cell may write the number: as in the prose, without thousands separators, without
    trailing zeros after the point."""
    plain = number.replace(",", "")
    out = {number, plain}
    if "." in plain and "e" not in plain:
        out.add(plain.rstrip("0").rstrip("."))
    return out


def _cell_text(cell) -> str:
    text = "".join(cell["source"])
    for out in cell.get("outputs", []):
        text += "".join(out.get("text", ""))
        data = out.get("data", {})
        text += "".join(data.get("text/plain", "")) + "".join(data.get("text/markdown", ""))
    return text


def _asserts(source: str) -> bool:
    """A cell that checks a number: an ``assert``, or a quoted number checked by ``evalkit.lesson.Quotes``
    (which asserts on the lesson's own example) or a self-check."""
    return re.search(r"\bassert\b|\bquote\(|\bcheck_answer\(", source) is not None


def _unasserted(path: Path) -> list[tuple[int, str]]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    asserting = [_cell_text(c).replace("_", "") for c in cells if c["cell_type"] == "code" and _asserts("".join(c["source"]))]
    missing = []
    for i, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] != "markdown" or source.startswith("## Further reading"):  # titles, volumes, arXiv ids
            continue
        for number in _claims(source):
            # the whole number, not a piece of a longer one ("97" is not in "0.4970")
            found = re.compile("|".join(rf"(?<![\d.]){re.escape(s)}(?![\d])" for s in _spellings(number)))
            if not any(found.search(text) for text in asserting):
                missing.append((i, number))
    return missing


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_number_in_the_prose_is_asserted_or_explained(path):
    allowed = NOT_COMPUTED.get(path.stem, {})
    missing = [(i, n) for i, n in _unasserted(path) if n not in allowed]
    assert not missing, (
        f"{path.name}: numbers in the prose that no asserting code cell states (cell index, number): {missing}. "
        "Assert them in a code cell, render the prose from the value, or add them to NOT_COMPUTED with the reason."
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_explained_number_is_still_in_the_prose(path):
    stale = set(NOT_COMPUTED.get(path.stem, {})) - {n for _, n in _unasserted(path)}
    assert not stale, f"{path.name}: NOT_COMPUTED lists {sorted(stale)}, which the prose no longer leaves unasserted"


def test_the_tripwire_sees_a_new_unasserted_number(tmp_path):
    """A lesson with one asserted and one unasserted number: only the second is reported; formulas, code,
    lesson numbers, years and versions are not claims."""
    notebook = {
        "cells": [
            {"cell_type": "markdown", "source": ["BLEU is 0.4970 here and 0.8187 there (lesson 03, Papineni 2002, "
                                                 "sacreBLEU 2.6.0, $e^{-0.25} = 0.7788$, `round(x, 4)`)."]},
            {"cell_type": "code", "source": ["assert round(score, 4) == 0.497"], "outputs": []},
        ]
    }
    path = tmp_path / "99-example.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    assert _unasserted(path) == [(0, "0.8187")]


# ---- attributions -------------------------------------------------------------------------------------------
# A sentence that attributes something ("published", "the paper", "the documentation", "introduced", a peer
# library's default) names its exact source in the same sentence: a section, table, figure, page or equation
# of a paper, a peer library with its version, a file, or a link; or it says the number was computed here.
ATTRIBUTION = re.compile(
    r"\b(published|publishes|the paper|the papers|documentation|documented|introduced|proposed|README"
    r"|(?:NLTK|sacreBLEU|rouge-score|gleu|scipy|ROUGE-1\.5\.5)(?:'s)? default)\b",
    re.I,
)
SOURCE = re.compile(
    r"§\s*\d|\b[Ss]ection \d|\bTable \d|\b[Ff]ig(?:ure|\.)\s*\d|\bp\.\s*\d|\bEq(?:uation|\.)\s*\(?\d|\]\(https?://"
    r"|\b(?:NLTK|sacreBLEU|rouge-score|rouge_score|gleu|scipy|nltk|sacrebleu)\s*(?:==|v)?\s*\d+\.\d+"
    r"|\bcomputed\b|`[\w./-]+\.(?:py|md|pl|txt|tsv)`"
)


def _sentences(markdown: str) -> list[str]:
    flat = re.sub(r"\s+", " ", re.sub(r"^#+ .*$", " ", markdown, flags=re.M))
    return re.split(r"(?<=[.!?])\s+(?=[A-Z*(\[])", flat)


def _unsourced(path: Path) -> list[tuple[int, str]]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    found = []
    for i, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] != "markdown" or source.startswith("## Further reading"):
            continue
        for sentence in _sentences(source):
            if ATTRIBUTION.search(sentence) and not SOURCE.search(sentence):
                found.append((i, sentence[:160]))
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_attribution_names_its_source(path):
    unsourced = _unsourced(path)
    assert not unsourced, (
        f"{path.name}: sentences that attribute without naming the exact source (cell index, sentence): {unsourced}. "
        "Name the paper's section/table, the package and version (and file), or say the number was computed."
    )


def test_the_attribution_tripwire_sees_an_unsourced_claim(tmp_path):
    notebook = {"cells": [{"cell_type": "markdown", "source": [
        "The published score is 38.21. Napoles et al. (2016, Table 3) published 38.21. ",
        "sacreBLEU 2.6.0's documentation shows it. The paper says so."]}]}
    path = tmp_path / "99-example.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    assert [s for _, s in _unsourced(path)] == ["The published score is 38.21.", "The paper says so."]
