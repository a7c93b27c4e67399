"""Student editions of the lessons and one printable exercise sheet per lesson: ``make exercises``.

The lessons follow one convention for exercises (see the teacher's guide, notebooks/README.md):

- the answer to an exercise is a ``<details><summary>Answer</summary> ... </details>`` block in the
  question's markdown cell or in the next markdown cell;
- the code cells that compute and check an answer carry the cell tag ``solution``.

- a solution cell ends with a self-check, ``check_answer(name, "sha256:...", hint="...")`` (see
  ``evalkit.lesson``): it compares the answer held in ``name`` with a digest of the right one.

The student edition of a lesson is the lesson with every ``<details>`` block removed (a markdown cell left
empty is dropped) and every ``solution`` cell replaced, without outputs, by ``name = ...  # your answer
here`` for each self-checked name, followed by the cell's self-checks: the student's answer is checked
without the edition holding it.  A solution cell with no self-check becomes "# your answer here".  Every
other cell is kept as it is, stored outputs included.  The originals are not touched.

The exercise sheet of a lesson is an HTML page with the lesson's title and its exercise questions (the
markdown around each ``<details>`` block, answers removed), laid out for printing.

    python -m tools.exercises                 # every notebooks/*.ipynb -> exercises/
    python -m tools.exercises --out DIR A.ipynb B.ipynb
"""

from __future__ import annotations

import argparse
import ast
import copy
import html
import re
import sys
from pathlib import Path

from tools.lessons import MATH_CSS, ROOT, lesson_files, lesson_title, markdown_to_html, read_notebook

SOLUTION_TAG = "solution"
PLACEHOLDER = "# your answer here"
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


def self_checks(source: str, where: str = "a solution cell") -> list[tuple[str, str]]:
    """The ``check_answer(name, ...)`` calls of a solution cell: (the name checked, the call's source)."""
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        raise ValueError(f"{where}: not valid Python ({error.msg})") from None
    checks = []
    for node in tree.body:
        call = node.value if isinstance(node, ast.Expr) else None
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "check_answer":
            if not call.args or not isinstance(call.args[0], ast.Name):
                raise ValueError(f"{where}: check_answer's first argument must be a variable name, the student's answer")
            checks.append((call.args[0].id, ast.get_source_segment(source, node)))
    return checks


def student_cell_source(source: str, where: str = "a solution cell") -> str:
    """What a solution cell becomes in the student edition: an empty answer per self-check, then the checks."""
    checks = self_checks(source, where)
    if not checks:
        return PLACEHOLDER
    names = list(dict.fromkeys(name for name, _ in checks))
    blanks = [f"{name} = ...  # your answer here" for name in names]
    return "\n".join(blanks + [""] + [call for _, call in checks])


def student_edition(nb, name: str = "notebook"):
    """A copy of ``nb`` with the answers removed (the argument is not changed)."""
    student = copy.deepcopy(nb)
    cells = []
    for index, cell in enumerate(student.cells):
        if has_answer(cell):
            cell.source = remove_answers(cell.source, f"{name}, cell {index}")
            if not cell.source.strip():
                continue  # the cell held only the answer
        elif is_solution(cell):
            cell.source = student_cell_source(cell.source, f"{name}, cell {index}")
            cell.outputs = []
            cell.execution_count = None
            tags = [t for t in cell.metadata.get("tags", []) if t != SOLUTION_TAG]
            cell.metadata = {"tags": tags} if tags else {}
        cells.append(cell)
    student.cells = cells
    return student


def exercise_questions(nb, name: str = "notebook") -> list[str]:
    """The markdown of each exercise, answers removed: the cell holding a ``<details>`` block, or, when that
    cell opens with the answer, the nearest markdown cell before it."""
    questions, used = [], set()
    for index, cell in enumerate(nb.cells):
        if not has_answer(cell):
            continue
        text = remove_answers(cell.source, f"{name}, cell {index}").strip()
        source = index
        if not re.split(r"<details\b", cell.source, maxsplit=1, flags=re.I)[0].strip():
            # the cell opens with the answer: the question is the markdown cell before it
            source = next((j for j in range(index - 1, -1, -1) if nb.cells[j].cell_type == "markdown"), None)
            if source is None or source in used:
                continue
            text = remove_answers(nb.cells[source].source, f"{name}, cell {source}").strip()
        if text and source not in used:
            used.add(source)
            questions.append(text)
    return questions


SHEET_CSS = """
body { font-family: "DejaVu Serif", Georgia, serif; font-size: 12pt; line-height: 1.45; color: #000;
       max-width: 44em; margin: 2em auto; padding: 0 1em; }
header { border-bottom: 1px solid #000; margin-bottom: 1.2em; }
header p { margin: 0.2em 0; font-size: 10pt; }
h1 { font-size: 18pt; margin: 0 0 0.3em 0; }
h2, h3, h4 { font-size: 13pt; margin: 0.8em 0 0.3em 0; }
section.exercise { break-inside: avoid; page-break-inside: avoid; margin-bottom: 1.2em; }
section.exercise > h2.number { font-size: 11pt; font-weight: bold; margin: 0 0 0.2em 0; }
code, pre { font-family: "DejaVu Sans Mono", monospace; font-size: 10pt; }
pre { white-space: pre-wrap; border-left: 2px solid #999; padding-left: 0.6em; }
section.exercise > ol > li { margin-bottom: 4em; }  /* room to write under each numbered question */
.space { height: 3em; border-bottom: 1px dotted #999; }
@page { margin: 2cm; }
@media print { body { margin: 0; max-width: none; } a { color: #000; text-decoration: none; } }
""" + MATH_CSS


def exercise_sheet(nb, name: str) -> str:
    """The printable exercise sheet of a lesson (HTML), or "" when the lesson has no exercise."""
    questions = exercise_questions(nb, name)
    if not questions:
        return ""
    title = lesson_title(nb) or name
    sections = "\n".join(
        '<section class="exercise">\n'
        + (f'<h2 class="number">Exercise {i}</h2>\n' if len(questions) > 1 else "")
        + f'{markdown_to_html(q)}\n<div class="space"></div>\n</section>'
        for i, q in enumerate(questions, 1)
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Exercises: {html.escape(title)}</title>
<style>{SHEET_CSS}</style>
</head>
<body>
<header>
<h1>{html.escape(title)}</h1>
<p>Exercises from the evalkit lesson <code>{html.escape(name)}</code>. Name: ____________________</p>
</header>
{sections}
</body>
</html>
"""


def build(notebooks: list[Path], out: Path) -> list[Path]:
    """Write the student edition of each lesson to ``out/`` and its sheet to ``out/sheets/``; returns the files."""
    import nbformat

    out.mkdir(parents=True, exist_ok=True)
    (out / "sheets").mkdir(exist_ok=True)
    written = []
    for path in notebooks:
        nb = read_notebook(path)
        student = student_edition(nb, path.name)
        nbformat.validate(student)
        nbformat.write(student, str(out / path.name))
        written.append(out / path.name)
        sheet = exercise_sheet(nb, path.name)
        if sheet:
            target = out / "sheets" / f"{path.stem}.html"
            target.write_text(sheet, encoding="utf-8")
            written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="lessons (default: every notebooks/*.ipynb)")
    parser.add_argument("--out", type=Path, default=ROOT / "exercises", help="output folder (default: exercises/)")
    args = parser.parse_args(argv)
    notebooks = args.notebooks or lesson_files()
    written = build(notebooks, args.out)
    sheets = sum(1 for p in written if p.suffix == ".html")
    print(f"{len(notebooks)} student editions and {sheets} exercise sheets in {args.out}/ "
          f"(open {args.out}/sheets/*.html in a browser to print)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
