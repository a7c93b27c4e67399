"""The lessons' exercise convention, read from a notebook's cells: what both halves of the teacher's kit need.

``tools.lessons`` (minutes, core cells) and ``tools.exercises`` (student editions, sheets, answer keys) both
read it from here, so neither imports the other for it (``tools.exercises`` imports ``tools.lessons``, never
the other way round; tests/test_layout.py checks it).

- The answer to an exercise is a ``<details><summary>Answer</summary> ... </details>`` block in the
  question's markdown cell or in the next markdown cell (:func:`has_answer`, :func:`remove_answers`).
- The code cells that compute and check an answer carry the cell tag ``solution`` (:func:`is_solution`).
- The text under the "On your own" heading, before the first numbered question, is the exercises' intro
  (:func:`split_intro`).

:func:`lesson_exercises` reads a lesson's intros and exercises (question, answers, solution cells) from them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SOLUTION_TAG = "solution"
DETAILS = re.compile(r"<details\b.*?</details\s*>[ \t]*\n?", re.S | re.I)


def remove_answers(markdown: str, where: str = "a markdown cell") -> str:
    """``markdown`` without its ``<details>...</details>`` blocks.  An unclosed block is an error (it would
    leave the answer in the student's copy)."""
    stripped = DETAILS.sub("", markdown)
    if re.search(r"<details\b", stripped, re.I):
        raise ValueError(f"{where}: a <details> block is not closed with </details>, so its answer cannot be removed")
    return stripped


def has_answer(cell) -> bool:
    return cell.cell_type == "markdown" and re.search(r"<details\b", cell.source, re.I) is not None


def is_solution(cell) -> bool:
    return cell.cell_type == "code" and SOLUTION_TAG in cell.metadata.get("tags", [])



NUMBERED = re.compile(r"^\s{0,3}(?:\*\*)?\d+\.(?:\*\*)?\s", re.M)
HEADING_LINE = re.compile(r"^\s{0,3}#{1,6}\s.*$", re.M)
ON_YOUR_OWN = re.compile(r"on your own", re.I)
SUMMARY = re.compile(r"<summary\b.*?</summary\s*>", re.S | re.I)


@dataclass(frozen=True)
class Exercise:
    """One exercise of a lesson: its question (markdown, answers removed), the markdown of its answers (the
    insides of its ``<details>`` blocks) and its solution cells (code and stored outputs)."""

    question: str
    answers: tuple[str, ...] = ()
    solutions: tuple = ()


def split_intro(text: str) -> tuple[str, str]:
    """A question cell's markdown as (intro, question).  When a heading ("## On your own") comes before the
    first numbered item, the text before the heading belongs to the lesson (it is dropped), the heading is
    dropped, and the text between the heading and the first item is the intro to the exercises."""
    first = NUMBERED.search(text)
    headings = list(HEADING_LINE.finditer(text[:first.start()])) if first else []
    if not headings:
        return "", text.strip()
    return text[headings[-1].end():first.start()].strip(), text[first.start():].strip()


def answer_blocks(markdown: str) -> list[str]:
    """The markdown inside each ``<details>`` block, its ``<summary>`` removed."""
    blocks = []
    for block in DETAILS.findall(markdown):
        inner = re.sub(r"^<details\b[^>]*>", "", block.strip(), flags=re.I)
        inner = re.sub(r"</details\s*>$", "", inner.strip(), flags=re.I)
        blocks.append(SUMMARY.sub("", inner).strip())
    return blocks


def lesson_exercises(nb, name: str = "notebook") -> tuple[list[str], list[Exercise]]:
    """The intros and the exercises of a lesson.  A question is the markdown cell holding a ``<details>``
    block, or, when that cell opens with the answer, the nearest markdown cell before it; the solution cells
    of an exercise are those between its question and the next one.  The intros are the text under the
    "On your own" heading: in the nearest markdown cell before the first question, or in a question's cell before its
    first numbered item (see :func:`split_intro`)."""
    found: list[tuple[int, list[str]]] = []  # (index of the question cell, answers)
    for index, cell in enumerate(nb.cells):
        if not has_answer(cell):
            continue
        remove_answers(cell.source, f"{name}, cell {index}")  # an unclosed block is an error
        source = index
        if not re.split(r"<details\b", cell.source, maxsplit=1, flags=re.I)[0].strip():
            source = next((j for j in range(index - 1, -1, -1) if nb.cells[j].cell_type == "markdown"), None)
            if source is None:
                continue
        if found and found[-1][0] == source:  # a second answer to the same question
            found[-1][1].extend(answer_blocks(cell.source))
            continue
        if remove_answers(nb.cells[source].source).strip():
            found.append((source, answer_blocks(cell.source)))
    intros, result = [], []
    # an "On your own" cell before the first question (the nearest markdown cell): its text is the intro
    before = next((nb.cells[j] for j in range(found[0][0] - 1, -1, -1) if nb.cells[j].cell_type == "markdown"),
                  None) if found else None
    if before is not None:
        heading = HEADING_LINE.match(before.source.lstrip())
        if heading and ON_YOUR_OWN.search(heading.group(0)) and not has_answer(before):
            intro = before.source.lstrip()[heading.end():].strip()
            if intro:
                intros.append(intro)
    for k, (source, answers) in enumerate(found):
        end = found[k + 1][0] if k + 1 < len(found) else len(nb.cells)
        intro, question = split_intro(remove_answers(nb.cells[source].source))
        if intro:
            intros.append(intro)
        solutions = tuple(c for c in nb.cells[source + 1:end] if is_solution(c))
        result.append(Exercise(question, tuple(answers), solutions))
    return intros, result


def exercise_questions(nb, name: str = "notebook") -> list[str]:
    """The markdown of each exercise's question, answers removed (see :func:`lesson_exercises`)."""
    return [exercise.question for exercise in lesson_exercises(nb, name)[1]]
