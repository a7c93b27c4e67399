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
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from test_browser import HOW_TO_ENABLE, browser_test_required
from tools import exercises, lessons, notebook_cells

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
    # the heading before the first numbered question is not part of it
    assert notebook_cells.exercise_questions(tiny_lesson()) == ["1. What is $x + 1$?", "2. Is `x` even?"]


def test_text_between_the_heading_and_the_first_question_is_the_intro():
    assert notebook_cells.split_intro("Lesson text.\n\n## On your own\n\nUse seed 0.\n\n**1.** Why?") == (
        "Use seed 0.", "**1.** Why?")
    assert notebook_cells.split_intro("Compute it.\n\n1. Why?") == ("", "Compute it.\n\n1. Why?")  # no heading
    nb = tiny_lesson()
    nb.cells[3].source = nb.cells[3].source.replace("## On your own\n\n", "Text.\n\n## On your own\n\nUse seed 0.\n\n")
    intros, items = notebook_cells.lesson_exercises(nb, "tiny")
    assert intros == ["Use seed 0."] and items[0].question == "1. What is $x + 1$?"
    sheet = exercises.exercise_sheet(nb, "tiny")
    assert "Use seed 0." in sheet and "Text." not in sheet


def test_exercises_of_a_tiny_lesson_with_their_answers_and_solutions():
    nb = tiny_lesson()
    _, items = notebook_cells.lesson_exercises(nb, "tiny")
    assert [item.answers for item in items] == [("It is **3**.",), ("Yes: 2 = 2 × 1.",)]
    assert [item.solutions for item in items] == [(nb.cells[4],), (nb.cells[7],)]


def test_exercise_sheet_of_a_tiny_lesson():
    sheet = exercises.exercise_sheet(tiny_lesson(), "09-tiny.ipynb")
    assert "<h1>9. A tiny lesson</h1>" in sheet and "09-tiny.ipynb" in sheet
    assert sheet.count('<section class="exercise">') == 2
    assert "Exercise 1" not in sheet  # the questions are numbered themselves
    assert "<code>x</code> even?" in sheet
    assert 'alt="x + 1"' in sheet  # the formula, drawn
    assert "What you need" not in sheet  # no cell is tagged "sheet"
    for answer in ("<details", "Answer", "It is", "2 × 1", "assert", "three", "Further reading", "x = 2"):
        assert answer not in sheet
    assert exercises.exercise_sheet(new_notebook(cells=[new_markdown_cell("# No exercises")]), "x") == ""


def test_cells_tagged_sheet_are_on_the_sheet_without_their_code():
    nb = tiny_lesson()
    nb.cells[1].metadata["tags"] = ["sheet"]  # x = 2, printed
    nb.cells[2].metadata["tags"] = ["sheet"]  # a figure
    nb.cells[0].metadata["tags"] = ["sheet"]  # the title cell, markdown
    sheet = exercises.exercise_sheet(nb, "tiny")
    need = sheet.split('<section class="need">', 1)[1].split("</section>", 1)[0]
    assert "<h2>What you need</h2>" in need and "What you'll learn: counting." in need
    assert '<pre class="output">2\n</pre>' in need and "x = 2" not in sheet and "print(x)" not in sheet
    assert f'src="data:image/png;base64,{PNG}"' in need
    assert sheet.index("What you need") < sheet.index('<section class="exercise">')
    for index in (4, 6):  # a solution cell, an answer cell: tagged by mistake, they would give the answer away
        wrong = tiny_lesson()
        wrong.cells[index].metadata["tags"] = wrong.cells[index].metadata.get("tags", []) + ["sheet"]
        with pytest.raises(ValueError, match=rf"tiny, cell {index}: tagged 'sheet' but holds an answer"):
            exercises.exercise_sheet(wrong, "tiny")
    silent = tiny_lesson()
    silent.cells[1].outputs = []
    silent.cells[1].metadata["tags"] = ["sheet"]
    with pytest.raises(ValueError, match="no stored output"):
        exercises.exercise_sheet(silent, "tiny")


def test_room_to_write_grows_with_the_sub_questions():
    assert exercises.writing_lines("Compute it.") == exercises.writing_lines("Why?") == 6
    assert exercises.writing_lines("Which? And why? Is `x?` code?") == 14  # the ? in code is not a question
    assert exercises.writing_lines("Compute it by hand.") == 10
    assert exercises.writing_lines("?" * 30) == 22
    sheet = exercises.exercise_sheet(tiny_lesson(), "tiny")
    for section in sheet.split('<section class="exercise">')[1:]:
        assert section.split('<div class="lines">', 1)[1].count("<div></div>") == 6


def test_a_formula_mathtext_cannot_draw_is_reported():
    nb = tiny_lesson()
    nb.cells[5].source = r"2. Is $$\begin{cases} 1 & x > 0 \\ 0 & x \le 0 \end{cases}$$ even?"
    sheet = exercises.exercise_sheet(nb, "tiny")
    assert exercises.raw_formulas(sheet) == [r"\begin{cases} 1 & x > 0 \\ 0 & x \le 0 \end{cases}"]
    assert exercises.raw_formulas(exercises.exercise_sheet(tiny_lesson(), "tiny")) == []


def test_answer_key_of_a_tiny_lesson():
    key = exercises.answer_key(tiny_lesson(), "09-tiny.ipynb")
    assert "Answer key: 9. A tiny lesson" in key
    for shown in ("What is", "It is <strong>3</strong>", "Yes: 2 = 2 × 1", "assert x + 1 == 3", "three\n",
                  "print(x % 2 == 0)", "True\n"):
        assert shown in key, shown
    assert "<summary" not in key and "Further reading" not in key
    assert key.index("It is") < key.index("assert x + 1") < key.index("Is <code>x</code> even") < key.index("Yes: 2")
    assert exercises.answer_key(new_notebook(cells=[new_markdown_cell("# No exercises")]), "x") == ""


def test_build_writes_student_editions_sheets_and_keys(tmp_path):
    nb = tiny_lesson()
    source = tmp_path / "09-tiny.ipynb"
    nbformat.write(nb, str(source))
    plain = tmp_path / "10-plain.ipynb"
    nbformat.write(new_notebook(cells=[new_markdown_cell("# 10. No exercises here")]), str(plain))
    out, keys = tmp_path / "out", tmp_path / "keys"
    written = exercises.build([source, plain], out, keys)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in written) == [
        "keys/09-tiny.html", "out/09-tiny.ipynb", "out/10-plain.ipynb", "out/sheets/09-tiny.html"]
    assert nbformat.read(str(out / "09-tiny.ipynb"), as_version=4) == exercises.student_edition(nb)
    assert nbformat.read(str(source), as_version=4) == nb  # the lesson itself keeps its answers
    assert "It is <strong>3</strong>" in (keys / "09-tiny.html").read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="must not be inside the students' folder"):
        exercises.build([source], out, out / "keys")


def test_sheets_and_keys_print_to_pdf(tmp_path):
    chromium = exercises.find_chromium()
    if chromium is None:
        if browser_test_required():
            pytest.fail(f"no Chromium to print the sheets with; {HOW_TO_ENABLE}", pytrace=False)
        pytest.skip(f"no Chromium: printing the sheets to PDF is not tested; to test it, {HOW_TO_ENABLE}")
    source = tmp_path / "09-tiny.ipynb"
    nbformat.write(tiny_lesson(), str(source))
    written = exercises.build([source], tmp_path / "out", tmp_path / "keys", chromium)
    pdfs = sorted(p.relative_to(tmp_path).as_posix() for p in written if p.suffix == ".pdf")
    assert pdfs == ["keys/09-tiny.pdf", "out/sheets/09-tiny.pdf"]
    for pdf in pdfs:
        data = (tmp_path / pdf).read_bytes()
        assert data.startswith(b"%PDF-") and b"/Type /Page" in data.replace(b"/Type/Page", b"/Type /Page")


def test_sheets_are_a4_unless_letter_is_asked_for(tmp_path):
    # Issue 31 item 7: the sheets followed the machine's locale (US Letter on the lecturer's machine).
    nb = tiny_lesson()
    for make in (exercises.exercise_sheet, exercises.answer_key):
        assert "size: A4;" in make(nb, "09-tiny.ipynb")
        assert "size: letter;" in make(nb, "09-tiny.ipynb", "letter")
        with pytest.raises(ValueError, match="paper must be one of"):
            make(nb, "09-tiny.ipynb", "a3")
    chromium = exercises.find_chromium()
    if chromium is None:
        if browser_test_required():
            pytest.fail(f"no Chromium to print the sheets with; {HOW_TO_ENABLE}", pytrace=False)
        pytest.skip(f"no Chromium: the printed paper size is not tested; to test it, {HOW_TO_ENABLE}")
    source = tmp_path / "09-tiny.ipynb"
    nbformat.write(nb, str(source))
    # The PDF's page box, in points: A4 is 210 x 297 mm = 595.3 x 841.9 pt, US Letter 8.5 x 11 in = 612 x 792 pt.
    for paper, (width, height) in (("a4", (595.3, 841.9)), ("letter", (612.0, 792.0))):
        written = exercises.build([source], tmp_path / paper, None, chromium, paper)
        pdf = next(p for p in written if p.suffix == ".pdf").read_bytes()
        box = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf)
        assert box is not None, "no /MediaBox in the PDF"
        assert abs(float(box.group(1)) - width) < 1.5 and abs(float(box.group(2)) - height) < 1.5, (paper, box.group(0))


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
        if notebook_cells.SOLUTION_TAG in cell.metadata.get("tags", []):
            pytest.fail(f"{path.name}: a solution cell is still tagged in the student edition")
    originals = {c.id: c for c in nb.cells}
    positions = {c.id: i for i, c in enumerate(nb.cells)}
    for cell in student.cells:
        original = originals[cell.id]
        if notebook_cells.is_solution(original):
            also = exercises.read_later(nb, positions[cell.id])
            assert cell.source == exercises.student_cell_source(original.source, also=also) and cell.outputs == []
        elif notebook_cells.has_answer(original):
            assert cell.source == notebook_cells.remove_answers(original.source)
        elif original.cell_type == "code" and "check_answer(" in original.source:
            # a cell that checks the student's own work keeps its code, not a stored ✓
            assert cell.source == original.source and cell.outputs == [] and cell.metadata == original.metadata
        else:
            assert cell == original  # outputs, tags and all
    dropped = [c for c in nb.cells if notebook_cells.has_answer(c) and not notebook_cells.remove_answers(c.source).strip()]
    assert len(student.cells) == len(nb.cells) - len(dropped)


def test_every_lesson_with_an_answer_gets_a_sheet(lesson):
    path, nb = lesson
    sheet = exercises.exercise_sheet(nb, path.name)
    if not any(notebook_cells.has_answer(c) for c in nb.cells):
        assert sheet == ""
        return
    assert f"<h1>{html.escape(lessons.lesson_title(nb))}</h1>" in sheet
    assert "<details" not in sheet.lower() and "<summary" not in sheet.lower()
    assert sheet.count('<section class="exercise">') == len(notebook_cells.exercise_questions(nb, path.name)) >= 1


def test_solution_cells_belong_to_answered_exercises(lesson):
    """A lesson that tags cells `solution` also hides their answers in <details> (the sheet and the student
    edition rely on both halves of the convention)."""
    path, nb = lesson
    if any(notebook_cells.is_solution(c) for c in nb.cells):
        assert any(notebook_cells.has_answer(c) for c in nb.cells), f"{path.name}: solution cells but no <details> answer"


def test_every_solution_cell_checks_itself_and_its_stored_checks_pass(lesson):
    """Each solution cell ends with self-checks (kept in the student edition), and in the lesson as stored every
    one of them printed ✓: the digest pasted into the cell is the digest of the lesson's own answer."""
    path, nb = lesson
    for index, cell in enumerate(nb.cells):
        if not notebook_cells.is_solution(cell):
            continue
        checks = exercises.self_checks(cell.source, f"{path.name}, cell {index}")
        assert checks, f"{path.name}, cell {index}: a solution cell without check_answer(...)"
        printed = "".join("".join(o.get("text", "")) for o in cell.outputs)
        assert printed.count("✓ Correct.") == len(checks) and "✗" not in printed, f"{path.name}, cell {index}"


def test_no_answer_value_reaches_a_student_edition_or_a_sheet(tmp_path):
    exercises.build(LESSONS, tmp_path)
    total = 0
    for path in LESSONS:
        secret = exercises.answer_values(lessons.read_notebook(path))
        total += len(secret)
        student = lessons.read_notebook(tmp_path / path.name)
        texts = [c.source + "".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
                                    for o in c.get("outputs", [])) for c in student.cells]
        sheet = tmp_path / "sheets" / f"{path.stem}.html"
        if sheet.exists():
            texts.append(re.sub(r'"data:[^"]*"', '""', sheet.read_text(encoding="utf-8")))  # not inside a drawn formula
        leaked = sorted({n for text in texts for n in exercises.NUMBER.findall(text)} & secret)
        assert not leaked, f"{path.name}: answer values in the student edition or sheet: {leaked}"
    assert total >= 50, "the answers hold numbers that appear nowhere else: the test has something to look for"


def visible_text(page: str) -> str:
    """What a reader of a sheet sees as text: no tags, no drawn formulas' sources, no data URIs."""
    page = re.sub(r"<style\b.*?</style>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def sheet_sections(sheet: str) -> tuple[str, list[str]]:
    """The "What you need" section of a sheet (or "") and its exercise sections."""
    need = sheet.split('<section class="need">', 1)[1].split("</section>", 1)[0] if 'class="need"' in sheet else ""
    return need, [part.split("</section>", 1)[0] for part in sheet.split('<section class="exercise">')[1:]]


def test_every_sheet_stands_alone(lesson):
    """A student with only the paper can find what each question uses: an "example X" is stated on the sheet
    (a mention not followed by "'s" has its text in quotes right after it), "the table" is on the sheet, nothing is "above" or "below" (in the
    notebook), and each question has room to write."""
    path, nb = lesson
    sheet = exercises.exercise_sheet(nb, path.name)
    if not sheet:
        return
    text = " ".join(visible_text(sheet).split())
    for letter in set(re.findall(r"\bexample ([A-Z])\b", text)):
        assert re.search(rf'\bexample {letter}\b(?!\')[^"“]{{0,80}}["“]', text), \
            f"{path.name}: the sheet names example {letter} but never states it"
    pointing = r"\b(?:table|cells?|figure|plot|output|list|shown|printed|computed|see|as)\s+(?:above|below)\b" \
               r"|\b(?:above|below)\s*[).,;:]"  # "the table above", "(P_1 above)"; not "ROUGE-L above ROUGE-2"
    assert not re.findall(pointing, text, re.I), f"{path.name}: the sheet points into the notebook"
    need, sections = sheet_sections(sheet)
    if re.search(r"\bthe table\b", " ".join(visible_text(s) for s in sections), re.I):
        assert "<table" in need or "<pre" in need, f"{path.name}: a question uses a table the sheet does not hold"
    for section in sections:
        assert section.split('<div class="lines">', 1)[1].count("<div></div>") >= 6, f"{path.name}: no room"


def test_every_formula_on_a_sheet_or_key_is_drawn(lesson):
    """No formula falls back to its TeX source (mathtext could not draw it), and none is left as raw text
    (a "$" or a TeX command outside code)."""
    path, nb = lesson
    for page in (exercises.exercise_sheet(nb, path.name), exercises.answer_key(nb, path.name)):
        assert exercises.raw_formulas(page) == [], path.name
        prose = re.sub(r"<(code|pre)\b.*?</\1>", " ", page, flags=re.S)
        text = visible_text(prose)
        assert "$" not in text and not re.search(r"\\[a-zA-Z]+", text), (path.name, re.findall(r".{30}[$\\].{30}", text))


def test_the_answer_key_holds_every_answer(lesson):
    path, nb = lesson
    key = exercises.answer_key(nb, path.name)
    _, items = notebook_cells.lesson_exercises(nb, path.name)
    if not items:
        assert key == ""
        return
    shown = exercises.numbers_in(re.sub(r'"data:[^"]*"', '""', key))
    missing = sorted(exercises.answer_values(nb) - shown)
    assert not missing, f"{path.name}: answer values missing from the key: {missing}"
    for item in items:
        assert item.answers or item.solutions, f"{path.name}: an exercise with neither an answer nor a solution"
        for cell in item.solutions:
            assert html.escape(cell.source) in key


def test_the_students_folder_holds_no_key(tmp_path):
    written = exercises.build(LESSONS, tmp_path / "exercises", tmp_path / "answer-keys")
    students = sorted(p.relative_to(tmp_path / "exercises").as_posix()
                      for p in (tmp_path / "exercises").rglob("*") if p.is_file())
    assert students == sorted([p.name for p in LESSONS] + [lessons.MADE] + [
        f"sheets/{p.stem}.html" for p in LESSONS if exercises.exercise_sheet(lessons.read_notebook(p), p.name)])
    keys = [p for p in written if p.parent == tmp_path / "answer-keys"]
    assert len(keys) == len(students) - len(LESSONS) - 1


def test_a_leaked_answer_is_seen():
    nb = tiny_lesson()
    assert exercises.answer_values(nb) == set()  # "3" is a single digit
    nb.cells[4].outputs = [new_output("stream", name="stdout", text="0.7071\n")]
    assert exercises.answer_values(nb) == {"0.7071"}
    nb.cells[4].metadata = {}  # untagged: its output stays in the student edition, and is no longer an answer
    assert exercises.answer_values(nb) == set()


def test_make_exercises_on_the_real_lessons(tmp_path):
    written = exercises.build(LESSONS, tmp_path)
    for path in LESSONS:
        assert (tmp_path / path.name).is_file()
        text = (tmp_path / path.name).read_text(encoding="utf-8")
        assert "<details" not in text.lower()
    answered = [p for p in LESSONS if any(notebook_cells.has_answer(c) for c in lessons.read_notebook(p).cells)]
    assert sorted(p.name for p in written if p.suffix == ".html") == sorted(p.stem + ".html" for p in answered)


def test_an_answer_a_later_cell_reads_gets_its_own_blank():
    nb = new_notebook(cells=[
        new_markdown_cell("**1.** Give two pairs.\n\n<details><summary>Answer</summary>\n\nAny.\n\n</details>"),
        new_code_cell("helper = 3\nmine = [(1, 2)]\ne1 = 5\ncheck_answer(e1, 'sha256:00')", metadata={"tags": ["solution"]}),
        new_code_cell("ok = len(mine) == 1\ncheck_answer(ok, 'sha256:11')"),
    ])
    assert exercises.read_later(nb, 1) == ("mine",)  # helper is read by no later cell, e1 has its own check
    student = exercises.student_edition(nb)
    assert student.cells[1].source == "e1 = ...  # your answer here\nmine = ...  # your answer here\n\ncheck_answer(e1, 'sha256:00')"
    assert student.cells[2].outputs == [] and student.cells[2].source == nb.cells[2].source


# ------------------------------------------------- make exercises again: an untouched exercises/ is replaced

def test_make_exercises_moves_the_folder_aside_only_when_a_student_changed_it(tmp_path, capsys):
    """Issue 31, item 8: `make exercises` (tools.exercises.main) replaces an untouched exercises/, even one whose
    lessons were opened and run (outputs, counts and metadata are not a student's change), and keeps one with
    an answer written in it (or a file added) as exercises.old-<time>/, untouched."""
    lesson = next(p for p in LESSONS if p.name.startswith("02"))
    out = tmp_path / "exercises"
    arguments = ["--out", str(out), "--no-pdf", str(lesson)]
    assert exercises.main(arguments) == 0
    assert lessons.changed_since_made(out) == []
    # opened and run: outputs, execution counts and the kernel spec JupyterLab writes
    path = out / lesson.name
    nb = json.loads(path.read_text(encoding="utf-8"))
    code = next(c for c in nb["cells"] if c["cell_type"] == "code")
    code.update(execution_count=7, outputs=[{"output_type": "stream", "name": "stdout", "text": "ran\n"}])
    nb["metadata"]["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    path.write_text(json.dumps(nb), encoding="utf-8")
    (out / ".ipynb_checkpoints").mkdir()
    (out / ".ipynb_checkpoints" / f"{lesson.stem}-checkpoint.ipynb").write_text("{}")
    assert lessons.changed_since_made(out) == []
    capsys.readouterr()
    assert exercises.main(arguments) == 0
    assert "is kept as" not in capsys.readouterr().out and not list(tmp_path.glob("exercises.old-*"))
    # a student's answer: the folder is kept aside as it is, and a fresh one written
    nb = json.loads(path.read_text(encoding="utf-8"))
    blank = next(c for c in nb["cells"] if "# your answer here" in "".join(c["source"]))
    blank["source"] = "".join(blank["source"]).replace("...  # your answer here", "0.5  # mine", 1)
    path.write_text(json.dumps(nb), encoding="utf-8")
    (out / "notes.txt").write_text("my notes")
    assert lessons.changed_since_made(out) == [lesson.name, "notes.txt"]
    assert exercises.main(arguments) == 0
    printed = capsys.readouterr().out
    (aside,) = tmp_path.glob("exercises.old-*")
    assert f"is kept as {aside}/" in printed and f"changed since it was made: {lesson.name}, notes.txt" in printed
    assert "0.5  # mine" in (aside / lesson.name).read_text(encoding="utf-8") and (aside / "notes.txt").exists()
    assert "# mine" not in (out / lesson.name).read_text(encoding="utf-8") and lessons.changed_since_made(out) == []
    # a folder with no record (made before records existed) may hold answers: kept aside too
    (out / lessons.MADE).unlink()
    assert exercises.set_aside_if_changed(out, stamp="then") == tmp_path / "exercises.old-then"
    assert not out.exists() and (tmp_path / "exercises.old-then" / lesson.name).is_file()
