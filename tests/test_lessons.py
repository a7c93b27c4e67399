"""tools/lessons.py and the teacher's guide it reads (notebooks/README.md): the minutes rule, the core cells
(tagged ``core``) and what the guide derives from them — the core minutes, the sections it names, the two
90-minute class paths that must fit."""

from __future__ import annotations

import base64
import math
import re

from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from tools import lessons

LESSONS = lessons.lesson_files()


def core(cell):
    cell.metadata["tags"] = cell.metadata.get("tags", []) + ["core"]
    return cell


def tiny_lesson():
    words = " ".join(["word"] * 150)  # a minute of reading
    return new_notebook(cells=[
        new_markdown_cell("# Tiny\n\nNot core."),
        core(new_markdown_cell(f"## The idea\n\n{words}")),
        core(new_code_cell("x = 1")),
        new_code_cell("y = 2"),
        new_markdown_cell("## More\n\nOptional."),
        core(new_markdown_cell("## On your own\n\n**1.** What is x?\n\n<details><summary>Answer</summary>\n\n"
                               + " ".join(["answer"] * 300) + "\n\n</details>")),
        core(new_code_cell("e1 = x\ncheck_answer(e1, 'sha256:00')", metadata={"tags": ["solution"]})),
    ])


def test_core_minutes_of_a_tiny_lesson():
    nb = tiny_lesson()
    # words: "## The idea" + 150 words = 153, "## On your own **1.** What is x?" (answer removed) = 8;
    # one core code cell that is not a solution; one core exercise
    assert math.isclose(lessons.core_minutes(nb), (153 + 8) / 150 + 1 + 3)
    assert lessons.core_sections(nb) == ["The idea", "On your own"]
    nb.cells = [c for c in nb.cells if not lessons.is_core(c)]
    assert lessons.core_minutes(nb) == 0.0 and lessons.core_sections(nb) == []


def test_core_sections_name_the_section_a_core_cell_sits_in():
    nb = new_notebook(cells=[new_markdown_cell("## 2. First part"), core(new_code_cell("x = 1")),
                             new_markdown_cell("## Second")])
    assert lessons.core_sections(nb) == ["First part"]


# ---------------------------------------------------------------------------------------- the guide

def test_every_notebook_is_in_the_guide():
    rows = lessons.read_guide()
    missing = [p.name for p in LESSONS if p.name not in rows]
    assert not missing, f"add these notebooks to the lesson table of notebooks/README.md: {missing}"


def test_the_guide_gives_each_lesson_the_minutes_of_its_rule():
    """The guide's minutes are the rule's (python -m tools.lessons), so they follow a lesson that grows."""
    rows = lessons.read_guide()
    differ = {}
    for path in LESSONS:
        nb = lessons.read_notebook(path)
        rule = (lessons.minutes_by_rule(nb), math.ceil(lessons.core_minutes(nb)))
        if (rows[path.name].minutes, rows[path.name].core) != rule:
            differ[path.name] = ((rows[path.name].minutes, rows[path.name].core), rule)
    assert not differ, f"(minutes, core) of the guide and of the rule differ; update notebooks/README.md: {differ}"


def test_the_guide_lists_the_lessons_under_their_numbers_from_01():
    rows = lessons.read_guide()
    numbers = sorted({row.number for row in rows.values()})
    assert numbers[:13] == [f"{n:02d}" for n in range(1, 14)]
    assert numbers == sorted(path.name[:2] for path in LESSONS)  # and every later lesson under its own number
    for row in set(rows.values()):
        assert row.notebook.startswith(row.number + "-"), row
        assert row.minutes > 0 and row.summary and row.kind in ("core", "deep dive")
        assert (row.core > 0) == (row.kind == "core"), f"lesson {row.number}: a core lesson has core cells, a deep dive none"
        for need in re.findall(r"\d\d", row.needs):
            assert need < row.number, f"lesson {row.number} needs a later lesson {need}"


def guide_bullets() -> dict[str, str]:
    text = lessons.GUIDE.read_text(encoding="utf-8")
    section = text.split("## Core and optional parts", 1)[1].split("\n## ", 1)[0]
    return {m.group(1): " ".join(m.group(2).split())
            for m in re.finditer(r"^- \*\*(\d\d) .*?\*\*(.*?)(?=^- \*\*|\Z)", section, re.M | re.S)}


def test_the_guide_names_the_sections_that_hold_each_lessons_core():
    bullets = guide_bullets()
    for path in LESSONS:
        number = path.name[:2]
        sections = lessons.core_sections(lessons.read_notebook(path))
        assert number in bullets, f"the guide has no bullet for lesson {number}"
        core_part = bullets[number].split("Optional:", 1)[0]
        missing = [title for title in sections if " ".join(title.split()) not in core_part]
        assert not missing, f"lesson {number}: the guide's core does not name the tagged sections {missing}"
        if not sections:
            assert "All optional" in bullets[number], number


def test_each_class_takes_90_minutes_and_each_lesson_fits_its_slot():
    paths = lessons.read_class_paths()
    assert len(paths) == 2
    rows = {row.number: row for row in lessons.read_guide().values()}
    for steps in paths:
        assert sum(step.minutes for step in steps) == 90, [(s.step, s.minutes) for s in steps]
        for step in steps:
            assert step.lessons and set(step.lessons) <= set(rows), step
            if step.what.startswith("Core of"):
                (number,) = step.lessons
                assert step.what.startswith(f"Core of {number}:"), step
                assert step.minutes >= rows[number].core, f"step {step.step}: {step.minutes} min for {rows[number].core} of core"
        buffer = sum(step.minutes for step in steps if step.what.startswith("Buffer"))
        assert buffer >= 10, "each class keeps at least 10 minutes for questions and install trouble"


def test_the_teaching_rate_by_hand_and_the_sections_of_a_tiny_lesson():
    assert lessons.TEACHING_RATE == 1.5
    assert lessons.teaching_minutes(150, 1, 0) == 1.5 * (1 + 1) == 3.0  # 100 words a minute, 1.5 per code cell
    assert lessons.teaching_minutes(0, 0, 1) == 4.5  # an exercise by hand
    nb = tiny_lesson()
    # "## The idea" and 150 words, one core code cell; the optional cell after it is not counted as core
    assert lessons.section_counts(nb, "The idea", "core") == (153, 1, 0)
    assert lessons.section_counts(nb, "The idea", "all") == (153, 2, 0)
    assert lessons.section_counts(nb, "The idea", "figures") == (0, 0, 0)
    assert lessons.section_counts(nb, "On your own", "exercise 1") == (4, 0, 1)  # "**1.** What is x?"
    for section, counted, message in (("Nowhere", "core", "no section 'Nowhere'"),
                                      ("On your own", "exercise 2", "no exercise 2"),
                                      ("The idea", "some", "must be one of")):
        try:
            lessons.section_counts(nb, section, counted)
        except ValueError as error:
            assert message in str(error)
        else:
            raise AssertionError((section, counted))


def test_the_first_class_teaches_bleu_the_brevity_penalty_gleu_and_rouge_at_the_teaching_rate():
    """Issue 31, item 2: every section row of the guide's first class is recounted from its lesson (words,
    code cells, exercises, minutes at the teaching rate); a taught step's minutes are its rows' sum rounded
    up, and the class's steps add up to 90 (test above)."""
    first = lessons.read_class_paths()[0]
    steps = {step.step: step for step in first}
    totals: dict[str, float] = {}
    for row, counts, minutes in lessons.class_path_rows():
        assert (row.words, row.code, row.exercises) == counts, (row, counts)
        assert row.minutes == round(minutes, 1), (row, minutes)
        assert row.step in steps and steps[row.step].what.startswith(f"Teach {row.lesson}"), row
        totals[row.step] = totals.get(row.step, 0.0) + minutes
    taught = [step for step in first if step.what.startswith("Teach")]
    assert sorted(step.step for step in taught) == sorted(totals)
    for step in taught:
        assert step.minutes == math.ceil(totals[step.step] - 1e-9), (step.step, step.minutes, totals[step.step])
    lessons_taught = {number for step in taught for number in step.lessons}
    assert {"01", "02", "03", "05", "06"} <= lessons_taught  # BLEU, the brevity penalty, GLEU, ROUGE
    assert sum(step.minutes for step in first) == 90
    guide = lessons.GUIDE.read_text(encoding="utf-8")
    assert "**1.5 times the\nreading rule**" in guide and "How the rate was chosen" in guide


# ------------------------------------------------------------------------------------ formulas

def test_formulas_become_images_outside_code():
    html = lessons.formulas_to_images(r"Then $p_1 = \frac{2}{3}$, see `$HOME`, and $$\begin{cases} a \end{cases}$$.")
    assert html.count('<img class="math"') == 1 and 'alt="p_1 = \\frac{2}{3}"' in html
    assert "`$HOME`" in html  # code untouched
    assert '<code class="tex">\\begin{cases} a \\end{cases}</code>' in html  # mathtext cannot: shown as TeX
    svg = base64.b64decode(re.search(r"base64,([^\"]+)", html).group(1)).decode()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg


def test_a_formula_mathtext_cannot_draw_is_shown_as_its_tex_escaped_once():
    page = lessons.markdown_to_html(r"Cases: $$\begin{cases} a & b \end{cases}$$ and $x < y$, not `$HOME`.")
    assert '<code class="tex">\\begin{cases} a &amp; b \\end{cases}</code>' in page
    assert "&amp;amp;" not in page and 'alt="x &lt; y"' in page and "<code>$HOME</code>" in page
