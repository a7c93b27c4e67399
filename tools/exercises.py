"""Student editions of the lessons, printable exercise sheets and the teacher's answer keys: ``make exercises``.

The lessons follow one convention for exercises (see the teacher's guide, notebooks/README.md; the first
three rules are read by ``tools.notebook_cells``, which ``tools.lessons`` shares):

- the answer to an exercise is a ``<details><summary>Answer</summary> ... </details>`` block in the
  question's markdown cell or in the next markdown cell;
- the code cells that compute and check an answer carry the cell tag ``solution``; a solution cell ends
  with a self-check, ``check_answer(name, "scrypt:...", hint="...")`` (see ``evalkit.lesson``): it
  compares the answer held in ``name`` with a salted digest of the right one (this module reads only the
  name checked, never the digest);
- the text under the "On your own" heading, before the first numbered question, is the exercises' intro
  (what they use: the example, the formula);
- a cell tagged ``sheet`` is something a student needs on paper (an example, a formula, a table): a
  markdown cell is copied to the sheet, a code cell is shown by its stored outputs only (a table, a
  printed example), never its code.  A ``sheet`` cell that holds an answer is an error.

The student edition of a lesson is the lesson with every ``<details>`` block removed (a markdown cell left
empty is dropped) and every ``solution`` cell replaced, without outputs, by ``name = ...  # your answer
here`` for each self-checked name, followed by the cell's self-checks: the student's answer is checked
without the edition holding it.  A solution cell with no self-check becomes "# your answer here".  Every
other cell is kept as it is, stored outputs included.  The originals are not touched.

The exercise sheet of a lesson (``OUT/sheets/NN-....html``, and a PDF beside it when Chromium is there)
stands alone: the lesson's title, a line on how to answer, the intro, a "What you need" box with the
``sheet`` cells, then each question (answers removed) with ruled lines to write on (see
:func:`writing_lines`).  Formulas are drawn by matplotlib's mathtext (``tools.lessons``); a formula it
cannot draw is reported.  The answer key (``KEYS/NN-....html`` and PDF, for the teacher only, never
inside ``OUT``) holds each question, its answers and its solution cells' code with their stored outputs.
PDFs are printed by headless Chromium ($EVALKIT_CHROMIUM, else /usr/bin/chromium), offline.

    python -m tools.exercises --out exercises --keys answer-keys   # what make exercises runs
    python -m tools.exercises --out DIR --no-pdf A.ipynb B.ipynb
"""

from __future__ import annotations

import argparse
import ast
import base64
import copy
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools.lessons import (
    MATH_CSS, ROOT, changed_since_made, lesson_files, lesson_title, markdown_to_html, read_notebook, record_made,
)
from tools.notebook_cells import (
    DETAILS, NUMBERED, SOLUTION_TAG, Exercise, has_answer, is_solution, lesson_exercises, remove_answers,
)

PLACEHOLDER = "# your answer here"


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


def assigned_names(source: str) -> list[str]:
    """The names a cell assigns at its top level (``x = ...``, ``a, b = ...``), in order."""
    names = []
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        for target in targets:
            for leaf in ast.walk(target):
                if isinstance(leaf, ast.Name):
                    names.append(leaf.id)
    return list(dict.fromkeys(names))


def student_cell_source(source: str, where: str = "a solution cell", also: tuple[str, ...] = ()) -> str:
    """What a solution cell becomes in the student edition: an empty answer per self-check (and per name in
    ``also``, answers a later cell reads), then the checks."""
    checks = self_checks(source, where)
    if not checks and not also:
        return PLACEHOLDER
    names = list(dict.fromkeys([name for name, _ in checks] + list(also)))
    blanks = [f"{name} = ...  # your answer here" for name in names]
    return "\n".join(blanks + [""] + [call for _, call in checks])


def read_later(nb, index: int) -> tuple[str, ...]:
    """The names solution cell ``index`` assigns that a later cell outside the solutions reads (an answer that
    another cell checks, such as a student's own examples): the student edition leaves a blank for each."""
    later = "\n".join(c.source for c in nb.cells[index + 1:] if c.cell_type == "code" and not is_solution(c))
    checked = {name for name, _ in self_checks(nb.cells[index].source)}
    return tuple(n for n in assigned_names(nb.cells[index].source)
                 if n not in checked and re.search(rf"(?<![\w.]){re.escape(n)}\b", later))


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
            cell.source = student_cell_source(cell.source, f"{name}, cell {index}", read_later(nb, index))
            cell.outputs = []
            cell.execution_count = None
            tags = [t for t in cell.metadata.get("tags", []) if t != SOLUTION_TAG]
            cell.metadata = {"tags": tags} if tags else {}
        elif cell.cell_type == "code" and "check_answer(" in cell.source:
            # another cell that checks the student's work: its stored ✓ would say "right" before they tried
            cell.outputs = []
            cell.execution_count = None
        cells.append(cell)
    student.cells = cells
    return student


NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,/]\d+)*(?![\w])")


def numbers_in(text: str) -> set[str]:
    """The numbers written in ``text`` ("0.7071", "2/3", "1,000", "42"), as written."""
    return set(NUMBER.findall(text))


def rich_output_text(cell) -> str:
    """The markdown and HTML a code cell's stored outputs show (tables, formatted text)."""
    return "".join("".join(o.get("data", {}).get(kind, "")) for o in cell.get("outputs", [])
                   for kind in ("text/markdown", "text/html"))


def output_text(cell) -> str:
    """The text a code cell's stored outputs show (streams and text/plain; not images)."""
    return "".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
                   for o in cell.get("outputs", []))


def answer_values(nb) -> set[str]:
    """Numbers that only the answers of a lesson state: written in its ``<details>`` blocks or in its solution
    cells (sources and stored outputs), and nowhere else in the lesson (other cells' sources, and their
    outputs: text, markdown and HTML).  Single digits are left out (list
    items, "two systems").  A student artifact (edition, sheet, site page) that shows one of them leaks an
    answer."""
    def numbers(text):
        return {n for n in numbers_in(text) if len(n) > 1}

    in_answers, elsewhere = set(), set()
    for cell in nb.cells:
        if is_solution(cell):
            in_answers |= numbers(cell.source + output_text(cell))
        elif has_answer(cell):
            in_answers |= numbers("".join(DETAILS.findall(cell.source)))
            elsewhere |= numbers(remove_answers(cell.source))
        else:
            elsewhere |= numbers(cell.source + (output_text(cell) + rich_output_text(cell) if cell.cell_type == "code" else ""))
    return in_answers - elsewhere


SHEET_TAG = "sheet"


def sheet_cells(nb, name: str = "notebook") -> list:
    """The cells tagged ``sheet``: what a student needs on paper (examples, tables) before the questions.  A
    tagged cell that holds an answer is an error."""
    cells = []
    for index, cell in enumerate(nb.cells):
        if SHEET_TAG not in cell.metadata.get("tags", []):
            continue
        if is_solution(cell) or has_answer(cell):
            raise ValueError(f"{name}, cell {index}: tagged {SHEET_TAG!r} but holds an answer")
        if cell.cell_type == "code" and not cell.get("outputs"):
            raise ValueError(f"{name}, cell {index}: tagged {SHEET_TAG!r} but has no stored output to show")
        cells.append(cell)
    return cells


ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def outputs_html(cell) -> str:
    """A code cell's stored outputs as HTML (tables as tables, figures as images, text as text)."""
    parts = []
    for output in cell.get("outputs", []):
        kind = output.get("output_type")
        if kind == "stream" and output.get("name") == "stdout":
            parts.append(f'<pre class="output">{html.escape(ANSI.sub("", "".join(output["text"])))}</pre>')
        elif kind in ("execute_result", "display_data"):
            data = output.get("data", {})
            if "text/html" in data:
                parts.append(f'<div class="output">{"".join(data["text/html"])}</div>')
            elif "image/svg+xml" in data:
                svg = base64.b64encode("".join(data["image/svg+xml"]).encode()).decode()
                parts.append(f'<img class="output" alt="figure" src="data:image/svg+xml;base64,{svg}">')
            elif "image/png" in data:
                png = "".join(data["image/png"]).replace("\n", "")
                parts.append(f'<img class="output" alt="figure" src="data:image/png;base64,{png}">')
            elif "text/plain" in data:
                parts.append(f'<pre class="output">{html.escape(ANSI.sub("", "".join(data["text/plain"])))}</pre>')
        elif kind == "error":
            parts.append(f'<pre class="output">{html.escape(output.get("ename", ""))}: '
                         f'{html.escape(output.get("evalue", ""))}</pre>')
    return "\n".join(parts)


def cell_html(cell) -> str:
    """A ``sheet`` cell as it appears on the sheet: markdown rendered, a code cell by its outputs only."""
    if cell.cell_type == "markdown":
        return markdown_to_html(cell.source)
    return outputs_html(cell)


def writing_lines(question: str) -> int:
    """Ruled lines to write on under a question: six, four more per question mark (a sub-question) after the
    first and four more for a question to work out "by hand"; at most twenty-two."""
    prose = CODE_SPANS.sub("", question)
    parts = max(1, len(re.findall(r"\?(?![\w\"'`])", prose))) + bool(re.search(r"\bby hand\b", prose, re.I))
    return min(22, 2 + 4 * parts)


CODE_SPANS = re.compile(r"```.*?```|`[^`\n]*`", re.S)

SHEET_CSS = """
body { font-family: "DejaVu Serif", Georgia, serif; font-size: 12pt; line-height: 1.45; color: #000;
       max-width: 44em; margin: 2em auto; padding: 0 1em; }
header { border-bottom: 1px solid #000; margin-bottom: 1em; }
header p { margin: 0.2em 0; font-size: 10pt; }
header p.name { font-size: 11pt; margin: 0.6em 0 0.4em 0; }
h1 { font-size: 18pt; margin: 0 0 0.3em 0; }
h2, h3, h4 { font-size: 13pt; margin: 0.8em 0 0.3em 0; }
p.how, div.intro { font-size: 10.5pt; }
section.need { border: 1px solid #999; padding: 0.2em 0.8em 0.6em 0.8em; margin-bottom: 1.2em; }
section.need > h2 { font-size: 12pt; margin-top: 0.4em; }
section.need h1, section.need h2:not(:first-child), section.need h3 { font-size: 11pt; }
section.exercise, section.answer { margin-bottom: 1.2em; }
section.exercise { break-inside: avoid; page-break-inside: avoid; }
section.exercise > h2.number, section.answer > h2.number { font-size: 11pt; font-weight: bold; margin: 0 0 0.2em 0; }
code, pre { font-family: "DejaVu Sans Mono", monospace; font-size: 9.5pt; }
pre { white-space: pre-wrap; border-left: 2px solid #999; padding-left: 0.6em; }
pre.code { background: #f3f3f3; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
table { border-collapse: collapse; font-size: 8.5pt; margin: 0.4em 0; max-width: 100%; }
th, td { border: 1px solid #aaa; padding: 0.1em 0.3em; text-align: left; }
table.dataframe th, table.dataframe td { text-align: right; }
th { white-space: normal; }
img.output { max-width: 100%; }
.lines { margin-top: 0.6em; }
.lines div { height: 2.1em; border-bottom: 1px solid #bbb; }
.key { border-left: 3px solid #000; padding-left: 0.8em; margin: 0.4em 0; }
@media print { body { margin: 0; max-width: none; } a { color: #000; text-decoration: none; } }
""" + MATH_CSS

HOW = ("Write your answers on this sheet. The names in <code>code</code> (<code>e1</code>, …) are the "
       "variables the lesson's student edition checks: at a computer, put your answer in that variable in "
       "the exercise's cell and run it; the check says ✓ or ✗ without showing the answer.")


def _number(i: int, item: Exercise, count: int) -> str:
    """An "Exercise i" heading, unless the question is numbered itself (or is the only one)."""
    if count == 1 or NUMBERED.match(item.question):
        return ""
    return f'<h2 class="number">Exercise {i}</h2>\n'


PAPER_SIZES = {"a4": "A4", "letter": "letter"}  # the sheets' paper: A4 by default, US Letter on request


def _page(title: str, header: str, body: str, paper: str = "a4") -> str:
    if paper not in PAPER_SIZES:
        raise ValueError(f"paper must be one of {sorted(PAPER_SIZES)}, not {paper!r}")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{html.escape(title)}</title>
<style>{SHEET_CSS}@page {{ size: {PAPER_SIZES[paper]}; margin: 1.8cm; }}
</style>
</head>
<body>
<header>
{header}
</header>
{body}
</body>
</html>
"""


def exercise_sheet(nb, name: str, paper: str = "a4") -> str:
    """The printable exercise sheet of a lesson (HTML), or "" when the lesson has no exercise: what a
    student needs (the cells tagged ``sheet``), then each question with ruled lines to write on."""
    intros, items = lesson_exercises(nb, name)
    if not items:
        return ""
    title = lesson_title(nb) or name
    body = [f'<p class="how">{HOW}</p>']
    body += [f'<div class="intro">{markdown_to_html(intro)}</div>' for intro in intros]
    needed = sheet_cells(nb, name)
    if needed:
        body.append('<section class="need">\n<h2>What you need</h2>\n'
                    + "\n".join(cell_html(c) for c in needed) + "\n</section>")
    for i, item in enumerate(items, 1):
        lines = "".join("<div></div>" for _ in range(writing_lines(item.question)))
        body.append('<section class="exercise">\n'
                    + _number(i, item, len(items))
                    + f'{markdown_to_html(item.question)}\n<div class="lines">{lines}</div>\n</section>')
    header = (f"<h1>{html.escape(title)}</h1>\n<p>Exercises from the evalkit lesson <code>{html.escape(name)}"
              '</code>.</p>\n<p class="name">Name: ______________________________ Date: ______________</p>')
    return _page(f"Exercises: {title}", header, "\n".join(body), paper)


def answer_key(nb, name: str, paper: str = "a4") -> str:
    """The teacher's answer key of a lesson (HTML), or "" when the lesson has no exercise: each question, its
    answers, and its solution cells' code with their stored outputs."""
    intros, items = lesson_exercises(nb, name)
    if not items:
        return ""
    title = lesson_title(nb) or name
    body = [f'<div class="intro">{markdown_to_html(intro)}</div>' for intro in intros]
    for i, item in enumerate(items, 1):
        parts = ['<section class="answer">\n' + _number(i, item, len(items)) + markdown_to_html(item.question)]
        parts += [f'<div class="key">{markdown_to_html(answer)}</div>' for answer in item.answers]
        for cell in item.solutions:
            parts.append(f'<pre class="code">{html.escape(cell.source)}</pre>')
            parts.append(outputs_html(cell))
        body.append("\n".join(parts) + "\n</section>")
    header = (f"<h1>Answer key: {html.escape(title)}</h1>\n<p>For the teacher, not for the students: the "
              f"answers and solution code of <code>{html.escape(name)}</code>, with their stored outputs.</p>")
    return _page(f"Answer key: {title}", header, "\n".join(body), paper)


def raw_formulas(page: str) -> list[str]:
    """The formulas of a page that mathtext could not draw (shown as TeX)."""
    def unescaped(text):  # markdown_to_html escapes the fallback twice ("&amp;amp;")
        while html.unescape(text) != text:
            text = html.unescape(text)
        return text

    return [unescaped(t) for t in re.findall(r'<code class="tex">(.*?)</code>', page, re.S)]


# ------------------------------------------------------------------------------------------------ PDFs

# headless and offline: nothing fetched in the background (the browser tests launch Chromium with these too)
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
CHROMIUM_PRINT_ARGS = CHROMIUM_ARGS + ["--no-pdf-header-footer"]


def find_chromium() -> str | None:
    """$EVALKIT_CHROMIUM, else /usr/bin/chromium, else a ``chromium`` on the PATH; None if there is none."""
    for candidate in (os.environ.get("EVALKIT_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def print_pdf(page: Path, pdf: Path, chromium: str) -> Path:
    """Print the HTML file ``page`` to ``pdf`` with headless Chromium (the paper size is the page's own
    ``@page`` rule: A4 unless ``paper="letter"`` was asked for; no header or footer)."""
    with tempfile.TemporaryDirectory(prefix="evalkit-chromium-") as profile:
        run = subprocess.run([chromium, *CHROMIUM_PRINT_ARGS, f"--user-data-dir={profile}",
                              f"--print-to-pdf={pdf.resolve()}", page.resolve().as_uri()],
                             capture_output=True, text=True, timeout=180)
    if run.returncode != 0 or not pdf.is_file() or pdf.stat().st_size == 0:
        raise RuntimeError(f"Chromium could not print {page} to PDF:\n{run.stderr[-2000:]}")
    return pdf


def print_pdfs(pages: list[Path], chromium: str) -> list[Path]:
    """Each HTML file in ``pages`` printed to a PDF beside it, a few at a time."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        return list(pool.map(lambda page: print_pdf(page, page.with_suffix(".pdf"), chromium), pages))


# ----------------------------------------------------------------------------------------------- build

def build(notebooks: list[Path], out: Path, keys: Path | None = None, chromium: str | None = None,
          paper: str = "a4") -> list[Path]:
    """Write the student edition of each lesson to ``out/``, its sheet to ``out/sheets/`` and, with ``keys``,
    its answer key to ``keys/``; with ``chromium``, a PDF beside each sheet and key; sheets and keys on A4
    paper, or US Letter with ``paper="letter"``.  Returns the files."""
    import nbformat

    out.mkdir(parents=True, exist_ok=True)
    (out / "sheets").mkdir(exist_ok=True)
    if keys is not None:
        if keys.resolve() == out.resolve() or out.resolve() in keys.resolve().parents:
            raise ValueError(f"the answer keys ({keys}) must not be inside the students' folder ({out})")
        keys.mkdir(parents=True, exist_ok=True)
    written, pages = [], []
    for path in notebooks:
        nb = read_notebook(path)
        student = student_edition(nb, path.name)
        nbformat.validate(student)
        nbformat.write(student, str(out / path.name))
        written.append(out / path.name)
        for folder, make in ((out / "sheets", exercise_sheet), (keys, answer_key)):
            page = make(nb, path.name, paper) if folder is not None else ""
            if page:
                target = folder / f"{path.stem}.html"
                target.write_text(page, encoding="utf-8")
                pages.append(target)
    written += pages
    if chromium:
        written += print_pdfs(pages, chromium)
    record_made(out)  # what was made, so that a later build can tell whether a student changed the folder
    return written


def set_aside_if_changed(out: Path, stamp: str | None = None) -> Path | None:
    """Before a new build into ``out``: when a student changed it since it was made (an answer written, a file
    added or removed: :func:`tools.lessons.changed_since_made`; merely running cells is no change), or when
    it has no record of what was made (made before there were records), move it to ``out.old-<time>`` and
    return that folder; an untouched ``out`` is removed (the build writes it again) and None is returned."""
    if not out.exists():
        return None
    changed = changed_since_made(out)
    if changed == []:
        shutil.rmtree(out)
        return None
    stamp = stamp or time.strftime("%Y%m%d-%H%M%S")
    aside = out.with_name(f"{out.name}.old-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = out.with_name(f"{out.name}.old-{stamp}-{n}")
    out.rename(aside)
    return aside


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="lessons (default: every notebooks/*.ipynb)")
    parser.add_argument("--out", type=Path, default=ROOT / "exercises",
                        help="the students' folder (default: exercises/); an existing one a student changed is "
                             "kept as OUT.old-<time>/, an untouched one replaced")
    parser.add_argument("--keys", type=Path, default=None,
                        help="the teacher's folder for the answer keys (default: none written)")
    parser.add_argument("--no-pdf", action="store_true", help="write HTML only, even if Chromium is there")
    parser.add_argument("--paper", choices=sorted(PAPER_SIZES), default="a4",
                        help="the sheets' paper size (default: a4; letter for US Letter)")
    args = parser.parse_args(argv)
    notebooks = args.notebooks or lesson_files()
    chromium = None if args.no_pdf else find_chromium()
    changed = changed_since_made(args.out) if args.out.exists() else []
    aside = set_aside_if_changed(args.out)
    if aside is not None:
        what = (f"changed since it was made: {', '.join(changed[:5])}{' ...' if len(changed) > 5 else ''}"
                if changed else "made by an older version, so it may hold a student's answers")
        print(f"The previous {args.out}/ ({what}) is kept as {aside}/.")
    start = time.perf_counter()
    written = build(notebooks, args.out, args.keys, chromium, args.paper)
    seconds = time.perf_counter() - start
    sheets = [p for p in written if p.suffix == ".html" and p.parent == args.out / "sheets"]
    keys = [p for p in written if p.suffix == ".html" and args.keys is not None and p.parent == args.keys]
    pdfs = sum(p.suffix == ".pdf" for p in written)
    print(f"{len(notebooks)} student editions and {len(sheets)} exercise sheets in {args.out}/"
          + (f"; {len(keys)} answer keys in {args.keys}/ (for the teacher only)" if args.keys else "")
          + (f"; {pdfs} PDFs" if chromium else "") + f" ({seconds:.1f} s)")
    if not chromium and not args.no_pdf:
        print(f"No Chromium found (set EVALKIT_CHROMIUM to its path for PDFs): to print, open "
              f"{args.out}/sheets/*.html in a browser and print it (Ctrl+P), headers and footers off.")
    for page in sheets + keys:
        raw = raw_formulas(page.read_text(encoding="utf-8"))
        if raw:
            print(f"warning: {page}: formulas shown as TeX (mathtext cannot draw them): {raw}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
