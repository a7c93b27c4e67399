"""The teacher's kit: student editions and exercise sheets (tools/exercises.py), the static site
(tools/site.py), the teacher's guide (notebooks/README.md) and the quiet install.

The transformation is tested exactly on a small synthetic notebook; on the real lessons (whatever
``notebooks/*.ipynb`` exist) the tests check what must hold for any lesson: no answer survives in a student
edition, every other cell is kept as it was, every lesson with an answer gets a sheet, every lesson is in
the guide.  The site is opened in a real browser by tests/test_site_browser.py.
"""

from __future__ import annotations

import base64
import html
import json
import re
import tomllib
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from tools import exercises, lessons, site

ROOT = Path(__file__).resolve().parent.parent
LESSONS = lessons.lesson_files()
LESSON_IDS = [p.name for p in LESSONS]
# a 1x1 PNG, as a figure output
PNG = base64.b64encode(
    bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                  "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")
).decode()


def tiny_lesson():
    """Title, a question with its answer in the same cell, a question with its answer in the next cell,
    a plain code cell with a figure, two solution cells (one with a second tag), a closing cell."""
    nb = new_notebook(cells=[
        new_markdown_cell("# 9. A tiny lesson\n\nWhat you'll learn: counting."),
        new_code_cell("x = 2\nprint(x)", execution_count=1,
                      outputs=[new_output("stream", name="stdout", text="2\n")]),
        new_code_cell("plot()", execution_count=2,
                      outputs=[new_output("display_data", data={"image/png": PNG, "text/plain": "<Figure>"})]),
        new_markdown_cell("## On your own\n\n1. What is $x + 1$?\n\n"
                          "<details><summary>Answer</summary>\n\nIt is **3**.\n\n</details>\n"),
        new_code_cell("assert x + 1 == 3\nprint('three')", execution_count=3, metadata={"tags": ["solution"]},
                      outputs=[new_output("stream", name="stdout", text="three\n")]),
        new_markdown_cell("2. Is `x` even?"),
        new_markdown_cell("<DETAILS><summary>Answer</summary>\n\nYes: 2 = 2 × 1.\n\n</details>"),
        new_code_cell("print(x % 2 == 0)", execution_count=4,
                      metadata={"tags": ["solution", "nbval-ignore-output"], "collapsed": True},
                      outputs=[new_output("stream", name="stdout", text="True\n")]),
        new_markdown_cell("Further reading: a 2002 paper."),
    ])
    nbformat.validate(nb)
    return nb


# ------------------------------------------------------------------------------ the transformation

def test_student_edition_of_a_tiny_lesson():
    nb = tiny_lesson()
    before = json.dumps(nb, sort_keys=True)
    student = exercises.student_edition(nb, "tiny")
    assert json.dumps(nb, sort_keys=True) == before, "the original must not change"
    nbformat.validate(student)
    original = nb.cells
    expected = [
        original[0], original[1], original[2],  # kept as they were, outputs included
        ("markdown", "## On your own\n\n1. What is $x + 1$?\n\n"),
        ("code", "# your answer here", [], None, {}),
        original[5],
        # cell 6 held only the answer: dropped
        ("code", "# your answer here", [], None, {"tags": ["nbval-ignore-output"]}),
        original[8],
    ]
    assert len(student.cells) == len(expected)
    for got, want in zip(student.cells, expected):
        if isinstance(want, tuple):
            assert got.cell_type == want[0] and got.source == want[1]
            if want[0] == "code":
                assert (got.outputs, got.execution_count, dict(got.metadata)) == want[2:]
        else:
            assert got == want
    # the cell ids are kept (a student edition is the same notebook, minus the answers)
    assert [c.id for c in student.cells] == [c.id for i, c in enumerate(original) if i != 6]


def test_a_self_checked_solution_becomes_blanks_and_its_checks():
    source = ('e1 = [clipped(n) for n in (1, 2)]\nassert e1 == [(2, 3), (1, 2)]\nprint(e1)\n'
              'check_answer(e1, "sha256:0123abcd", hint="clip each n-gram")\n'
              'e2 = "no"\ncheck_answer(e2,\n             "sha256:4567ef01")')
    assert exercises.student_cell_source(source) == (
        'e1 = ...  # your answer here\ne2 = ...  # your answer here\n\n'
        'check_answer(e1, "sha256:0123abcd", hint="clip each n-gram")\ncheck_answer(e2,\n             "sha256:4567ef01")')
    assert exercises.student_cell_source("assert x == 3") == exercises.PLACEHOLDER
    with pytest.raises(ValueError, match="first argument must be a variable name"):
        exercises.student_cell_source('check_answer(3, "sha256:00")')


def test_an_unclosed_answer_is_an_error():
    nb = tiny_lesson()
    nb.cells[3].source = "1. What?\n\n<details><summary>Answer</summary>\n\nforty-two"
    with pytest.raises(ValueError, match=r"tiny, cell 3: a <details> block is not closed"):
        exercises.student_edition(nb, "tiny")


def test_exercise_questions_of_a_tiny_lesson():
    assert exercises.exercise_questions(tiny_lesson()) == [
        "## On your own\n\n1. What is $x + 1$?",
        "2. Is `x` even?",
    ]


def test_exercise_sheet_of_a_tiny_lesson():
    sheet = exercises.exercise_sheet(tiny_lesson(), "09-tiny.ipynb")
    assert "<h1>9. A tiny lesson</h1>" in sheet and "09-tiny.ipynb" in sheet
    assert "Exercise 1" in sheet and "Exercise 2" in sheet and "Exercise 3" not in sheet
    assert "<code>x</code> even?" in sheet
    assert 'alt="x + 1"' in sheet  # the formula, drawn
    for answer in ("<details", "Answer", "It is", "2 × 1", "assert", "Further reading"):
        assert answer not in sheet
    assert exercises.exercise_sheet(new_notebook(cells=[new_markdown_cell("# No exercises")]), "x") == ""


def test_build_writes_student_editions_and_sheets(tmp_path):
    nb = tiny_lesson()
    source = tmp_path / "09-tiny.ipynb"
    nbformat.write(nb, str(source))
    plain = tmp_path / "10-plain.ipynb"
    nbformat.write(new_notebook(cells=[new_markdown_cell("# 10. No exercises here")]), str(plain))
    out = tmp_path / "out"
    written = exercises.build([source, plain], out)
    assert sorted(p.relative_to(out).as_posix() for p in written) == [
        "09-tiny.ipynb", "10-plain.ipynb", "sheets/09-tiny.html"]
    assert nbformat.read(str(out / "09-tiny.ipynb"), as_version=4) == exercises.student_edition(nb)
    assert nbformat.read(str(source), as_version=4) == nb  # the lesson itself keeps its answers


def test_minutes_rule_on_a_tiny_lesson():
    # 4 code cells, 2 exercises ("1." and "2."), markdown words (split on white space): 9 + 15 + 4 + 8 + 5 = 41
    nb = tiny_lesson()
    words = sum(len(c.source.split()) for c in nb.cells if c.cell_type == "markdown")
    assert words == 41 and lessons.exercise_count(nb) == 2
    # 41/150 + 4 + 2 * 3 = 10.27 minutes, rounded up to 15
    assert lessons.minutes_by_rule(nb) == 15


# --------------------------------------------------------------------------------- the real lessons

@pytest.fixture(scope="module", params=LESSONS, ids=LESSON_IDS)
def lesson(request):
    return request.param, lessons.read_notebook(request.param)


def test_there_are_lessons():
    assert len(LESSONS) >= 8, LESSON_IDS


def test_student_edition_has_no_answers_and_keeps_everything_else(lesson):
    path, nb = lesson
    student = exercises.student_edition(nb, path.name)
    nbformat.validate(student)
    for cell in student.cells:
        assert "<details" not in cell.source.lower()
        if exercises.SOLUTION_TAG in cell.metadata.get("tags", []):
            pytest.fail(f"{path.name}: a solution cell is still tagged in the student edition")
    originals = {c.id: c for c in nb.cells}
    for cell in student.cells:
        original = originals[cell.id]
        if exercises.is_solution(original):
            assert cell.source == exercises.student_cell_source(original.source) and cell.outputs == []
        elif exercises.has_answer(original):
            assert cell.source == exercises.remove_answers(original.source)
        else:
            assert cell == original  # outputs, tags and all
    dropped = [c for c in nb.cells if exercises.has_answer(c) and not exercises.remove_answers(c.source).strip()]
    assert len(student.cells) == len(nb.cells) - len(dropped)


def test_every_lesson_with_an_answer_gets_a_sheet(lesson):
    path, nb = lesson
    sheet = exercises.exercise_sheet(nb, path.name)
    if not any(exercises.has_answer(c) for c in nb.cells):
        assert sheet == ""
        return
    assert f"<h1>{html.escape(lessons.lesson_title(nb))}</h1>" in sheet
    assert "<details" not in sheet.lower() and "<summary" not in sheet.lower()
    assert sheet.count('<section class="exercise">') == len(exercises.exercise_questions(nb, path.name)) >= 1


def test_solution_cells_belong_to_answered_exercises(lesson):
    """A lesson that tags cells `solution` also hides their answers in <details> (the sheet and the student
    edition rely on both halves of the convention)."""
    path, nb = lesson
    if any(exercises.is_solution(c) for c in nb.cells):
        assert any(exercises.has_answer(c) for c in nb.cells), f"{path.name}: solution cells but no <details> answer"


def test_every_solution_cell_checks_itself_and_its_stored_checks_pass(lesson):
    """Each solution cell ends with self-checks (kept in the student edition), and in the lesson as stored every
    one of them printed ✓: the digest pasted into the cell is the digest of the lesson's own answer."""
    path, nb = lesson
    for index, cell in enumerate(nb.cells):
        if not exercises.is_solution(cell):
            continue
        checks = exercises.self_checks(cell.source, f"{path.name}, cell {index}")
        assert checks, f"{path.name}, cell {index}: a solution cell without check_answer(...)"
        printed = "".join("".join(o.get("text", "")) for o in cell.outputs)
        assert printed.count("✓ Correct.") == len(checks) and "✗" not in printed, f"{path.name}, cell {index}"


NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,/]\d+)*(?![\w])")


def answer_only_numbers(nb) -> set[str]:
    """Numbers that only the answers state: in <details> blocks and solution cells (sources and outputs), and
    nowhere else in the lesson.  Single digits are left out (list items, "two systems")."""
    def numbers(text):
        return {n for n in NUMBER.findall(text) if len(n) > 1}

    def outputs(cell):
        return "".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
                       for o in cell.get("outputs", []))

    in_answers, elsewhere = set(), set()
    for cell in nb.cells:
        if exercises.is_solution(cell):
            in_answers |= numbers(cell.source + outputs(cell))
        elif exercises.has_answer(cell):
            answers = "".join(exercises.DETAILS.findall(cell.source))
            in_answers |= numbers(answers)
            elsewhere |= numbers(exercises.remove_answers(cell.source))
        else:
            elsewhere |= numbers(cell.source + (outputs(cell) if cell.cell_type == "code" else ""))
    return in_answers - elsewhere


def test_no_answer_value_reaches_a_student_edition_or_a_sheet(tmp_path):
    exercises.build(LESSONS, tmp_path)
    total = 0
    for path in LESSONS:
        secret = answer_only_numbers(lessons.read_notebook(path))
        total += len(secret)
        student = lessons.read_notebook(tmp_path / path.name)
        texts = [c.source + "".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
                                    for o in c.get("outputs", [])) for c in student.cells]
        sheet = tmp_path / "sheets" / f"{path.stem}.html"
        if sheet.exists():
            texts.append(re.sub(r'"data:[^"]*"', '""', sheet.read_text(encoding="utf-8")))  # not inside a drawn formula
        leaked = sorted({n for text in texts for n in NUMBER.findall(text)} & secret)
        assert not leaked, f"{path.name}: answer values in the student edition or sheet: {leaked}"
    assert total >= 50, "the answers hold numbers that appear nowhere else: the test has something to look for"


def test_a_leaked_answer_is_seen():
    nb = tiny_lesson()
    assert answer_only_numbers(nb) == set()  # "3" is a single digit
    nb.cells[4].outputs = [new_output("stream", name="stdout", text="0.7071\n")]
    assert answer_only_numbers(nb) == {"0.7071"}
    nb.cells[4].metadata = {}  # untagged: its output stays in the student edition, and is no longer an answer
    assert answer_only_numbers(nb) == set()


def test_make_exercises_on_the_real_lessons(tmp_path):
    written = exercises.build(LESSONS, tmp_path)
    for path in LESSONS:
        assert (tmp_path / path.name).is_file()
        text = (tmp_path / path.name).read_text(encoding="utf-8")
        assert "<details" not in text.lower()
    answered = [p for p in LESSONS if any(exercises.has_answer(c) for c in lessons.read_notebook(p).cells)]
    assert sorted(p.name for p in written if p.suffix == ".html") == sorted(p.stem + ".html" for p in answered)


# ---------------------------------------------------------------------------------------- the guide

def test_every_notebook_is_in_the_guide():
    rows = lessons.read_guide()
    missing = [name for name in LESSON_IDS if name not in rows]
    assert not missing, f"add these notebooks to the lesson table of notebooks/README.md: {missing}"


def test_the_guide_gives_each_lesson_the_minutes_of_its_rule():
    """The guide's minutes are the rule's (python -m tools.lessons), so they follow a lesson that grows."""
    rows = lessons.read_guide()
    differ = {p.name: (rows[p.name].minutes, lessons.minutes_by_rule(lessons.read_notebook(p)))
              for p in lessons.lesson_files() if p.name in rows}
    differ = {name: pair for name, pair in differ.items() if pair[0] != pair[1]}
    assert not differ, f"(guide, rule) minutes differ; update notebooks/README.md: {differ}"


def test_the_guide_lists_lessons_01_to_13_under_their_numbers():
    rows = lessons.read_guide()
    numbers = sorted({row.number for row in rows.values()})
    assert numbers == [f"{n:02d}" for n in range(1, 14)]
    for row in set(rows.values()):
        assert row.notebook.startswith(row.number + "-"), row
        assert row.minutes > 0 and row.summary and row.kind in ("core", "deep dive")
        for need in re.findall(r"\d\d", row.needs):
            assert need < row.number, f"lesson {row.number} needs a later lesson {need}"


def test_the_class_path_takes_90_minutes_and_names_real_lessons():
    steps = lessons.read_class_path()
    assert sum(step.minutes for step in steps) == 90, [(s.step, s.minutes) for s in steps]
    numbers = {row.number for row in lessons.read_guide().values()}
    for step in steps:
        assert step.lessons and set(step.lessons) <= numbers, step


# ------------------------------------------------------------------------------------ the site

def test_formulas_become_images_outside_code():
    html = lessons.formulas_to_images(r"Then $p_1 = \frac{2}{3}$, see `$HOME`, and $$\begin{cases} a \end{cases}$$.")
    assert html.count('<img class="math"') == 1 and 'alt="p_1 = \\frac{2}{3}"' in html
    assert "`$HOME`" in html  # code untouched
    assert '<code class="tex">\\begin{cases} a \\end{cases}</code>' in html  # mathtext cannot: shown as TeX
    svg = base64.b64decode(re.search(r"base64,([^\"]+)", html).group(1)).decode()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg


def test_links_to_lessons_point_to_their_pages():
    text = "See [lesson 02](02-bp.ipynb), [the plan](13-later.ipynb) and [a paper](https://example.org/p.pdf)."
    assert site.link_pages(text, {"02-bp.html"}) == (
        "See [lesson 02](02-bp.html), the plan and [a paper](https://example.org/p.pdf).")


def test_site_pages_need_nothing_from_the_network(tmp_path):
    site.build(LESSONS, tmp_path)
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    rows = lessons.read_guide()
    for path in LESSONS:
        nb = lessons.read_notebook(path)
        page = (tmp_path / site.page_name(path)).read_text(encoding="utf-8")
        assert f'href="{site.page_name(path)}"' in index
        title = lessons.lesson_title(nb)
        row = re.search(rf'<tr>.*href="{re.escape(site.page_name(path))}".*</tr>', index).group(0)
        assert title in html.unescape(row) and f'<td class="minutes">{rows[path.name].minutes}</td>' in row
        assert f"<title>{title}</title>" in html.unescape(page)
        # nothing loaded from elsewhere: no script files at all, no remote images, styles or fonts
        assert not re.search(r"<script[^>]*\bsrc=", page), f"{path.name} loads a script"
        assert not re.search(r"""\bsrc=["']?(https?:)?//""", page), path.name
        assert not re.search(r"""<link[^>]*href=["']?(https?:)?//|@import|url\(\s*["']?(https?:)?//""", page), path.name
        pngs = sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code" for o in c.outputs)
        assert page.count('src="data:image/png;base64,') == pngs, path.name
    guide = (tmp_path / "guide.html").read_text(encoding="utf-8")
    linked = set(re.findall(r'href="([\w.-]+\.html)"', guide))
    assert linked and all((tmp_path / page).is_file() for page in linked), linked


def test_the_site_refuses_a_lesson_missing_from_the_guide(tmp_path):
    stray = tmp_path / "99-stray.ipynb"
    nbformat.write(new_notebook(cells=[new_markdown_cell("# Stray")]), str(stray))
    with pytest.raises(SystemExit, match="no row for 99-stray.ipynb"):
        site.build([stray], tmp_path / "site")


# ------------------------------------------------------------------------------- the quiet install

def test_license_is_an_spdx_string_and_setuptools_understands_it():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["license"] == "MIT"
    requires = pyproject["build-system"]["requires"]
    assert any(re.fullmatch(r"setuptools\s*>=\s*(\d+).*", r) and int(re.match(r"\D*(\d+)", r.split(">=")[1]).group(1)) >= 77
               for r in requires), requires


def test_make_install_keeps_pip_quiet_unless_it_fails():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("$(STAMP):", 1)[1].split("\n\n", 1)[0]
    pip_lines = [line for line in recipe.splitlines() if "pip install" in line]
    assert pip_lines, recipe
    assert "> $(INSTALL_LOG) 2>&1" in recipe and "|| { tail" in recipe
    for target in ("exercises:", "site:"):
        assert re.search(rf"^{target} install$", makefile, re.M), target
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert "exercises/" in ignored and "site/" in ignored
