"""The lesson site (tools/site.py): both editions built once per run from the real lessons (conftest.py's
``built_site``), then read as files.  What a browser makes of the pages (math drawn, search, no request leaving the machine) is
tests/test_site_browser.py's part.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from tools import exercises, lessons, site

LESSONS = lessons.lesson_files()
OFF_MACHINE = r"""["']?(?:https?:)?//"""
LOADS_FROM_ELSEWHERE = [
    re.compile(rf"<script\b[^>]*\bsrc={OFF_MACHINE}", re.I),
    re.compile(rf"<link\b[^>]*\bhref={OFF_MACHINE}", re.I),
    re.compile(rf"<(?:img|iframe|source|video|audio|embed)\b[^>]*\bsrc={OFF_MACHINE}", re.I),
    re.compile(r"""@import\s+(?:url\()?["']?(?:https?:)?//|url\(\s*["']?(?:https?:)?//""", re.I),
]
DISPLAY_MATH = re.compile(r'<div class="math notranslate nohighlight[^"]*">(.*?)</div>', re.S)


@pytest.fixture(scope="module")
def built(built_site):
    """Both editions of the real lessons (conftest's built_site: built once per run, the notebooks folder
    checked unchanged)."""
    return built_site


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def visible_text(page: str) -> str:
    """A page's text as a reader could see it (scripts, styles and tags dropped)."""
    page = re.sub(r"<(script|style)\b.*?</\1\s*>", " ", page, flags=re.S | re.I)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def article(page: str) -> str:
    """The lesson itself on a page, without the navigation around it (whose lesson titles hold numbers)."""
    found = re.search(r'<article class="bd-article"[^>]*>(.*)</article>', page, re.S)
    assert found, "no <article> on the page"
    return found.group(1)


def notebook_text(path: Path) -> str:
    """What a notebook shows: its cells' sources and every text its outputs hold (not the images)."""
    nb = lessons.read_notebook(path)
    texts = []
    for cell in nb.cells:
        texts.append(cell.source)
        for output in cell.get("outputs", []):
            texts.append("".join(output.get("text", "")))
            texts += ["".join(v) for k, v in output.get("data", {}).items() if k.startswith("text/")]
    return "\n".join(texts)


def edition_notebook(path: Path, edition: str):
    return site.for_the_site(lessons.read_notebook(path), edition, path.name, {p.name for p in LESSONS})


# ------------------------------------------------------------------------------------------- pieces

def test_links_to_lessons_are_kept_and_links_to_missing_lessons_become_text():
    text = "See [lesson 02](02-bp.ipynb), [the plan](13-later.ipynb) and [a paper](https://example.org/p.pdf)."
    assert site.link_pages(text, {"02-bp.ipynb"}) == (
        "See [lesson 02](02-bp.ipynb), the plan and [a paper](https://example.org/p.pdf).")


def test_a_core_markdown_cell_is_wrapped_between_its_headings():
    text = "## The formula\n\nLet $c$ be\n\n$$\nx\n$$\n\n```python\n# not a heading\n:::: a run\n```\n### Next\nMore."
    marked = site.mark_core(text)
    assert marked == (
        "## The formula\n\n"
        ":::::{container} tag-core\nLet $c$ be\n\n$$\nx\n$$\n\n```python\n# not a heading\n:::: a run\n```\n:::::\n\n"
        "### Next\n\n"
        ":::::{container} tag-core\nMore.\n:::::\n")
    assert site.mark_core("## Only a heading") == "## Only a heading\n"


def test_the_student_copy_of_a_lesson_has_no_answer_and_a_widget_becomes_a_note():
    nb = new_notebook(cells=[
        new_markdown_cell("**1.** BP for c = 5, r = 10?\n\n<details><summary>Answer</summary>0.3679</details>\n",
                          metadata={"tags": ["core"]}),
        new_code_cell("e1 = 0.3679\ncheck_answer(e1, 'sha256:00')", metadata={"tags": ["solution"]},
                      outputs=[nbformat.v4.new_output("stream", text="✓ Correct.\n")]),
        new_code_cell("explorer", outputs=[nbformat.v4.new_output("display_data", data={
            site.WIDGET_VIEW: {"model_id": "x"}, "text/plain": "Box()"})]),
    ], metadata={"widgets": {"state": {}}})
    student = site.for_the_site(nb, "student", "x.ipynb")
    text = nbformat.writes(student)
    assert "0.3679" not in text and "<details" not in text and "✓ Correct." not in text
    assert "check_answer(e1" in text and "tag-core" in student.cells[0].source
    assert student.cells[2].outputs[0]["data"] == {"text/html": site.WIDGET_NOTE} and "widgets" not in student.metadata
    teacher = site.for_the_site(nb, "teacher", "x.ipynb")
    assert "<details>" in teacher.cells[0].source and teacher.cells[1].outputs and "widgets" in nb.metadata
    with pytest.raises(ValueError, match="unknown edition"):
        site.for_the_site(nb, "parent", "x.ipynb")


# ---------------------------------------------------------------------------------------- the build

def test_every_lesson_has_a_page_in_both_editions_and_each_edition_is_a_site_of_its_own(built):
    rows = lessons.read_guide()
    assert sorted(p.name for p in built.iterdir()) == ["student", "teacher"]  # no front page linking both
    for edition in site.EDITIONS:
        home = read(built / edition / "index.html")
        for path in LESSONS:
            title = lessons.lesson_title(lessons.read_notebook(path))
            page = read(built / edition / site.page_name(path))
            assert f"<title>{title}" in html.unescape(page), (edition, path.name)
            row = re.search(rf'<tr[^>]*>(?:(?!</tr>).)*href="{re.escape(site.page_name(path))}".*?</tr>', home, re.S)
            assert row and f">{rows[path.name].minutes}<" in row.group(0), (edition, path.name)
        assert "green rule" in visible_text(home)
        assert (built / edition / "search.html").is_file() and (built / edition / "searchindex.js").is_file()
    # the search index knows the words of the lessons
    assert "brevity" in read(built / "student" / "searchindex.js")


def test_the_student_edition_holds_no_link_to_and_no_file_of_the_teacher_edition(built):
    """Issue 31, item 1, as files (tests/test_site_browser.py follows the links in Chromium): no page, script or
    notebook of site/student/ names a path out of its folder or the teacher edition, none says "both editions",
    and no file of it is a teacher-only file (the guide) or holds an answer block."""
    student, teacher = built / "student", built / "teacher"
    teacher_only = {p.relative_to(teacher) for p in teacher.rglob("*") if p.is_file()} - {
        p.relative_to(student) for p in student.rglob("*") if p.is_file()}
    assert Path("guide.html") in teacher_only and Path("_sources/guide.md") in teacher_only
    texts = 0
    for path in student.rglob("*"):
        if path.is_dir() or path.suffix not in (".html", ".js", ".ipynb", ".txt", ".md", ".css"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        where = path.relative_to(student)
        assert not re.search(r"""(?:href|src)=["']?(?:\.\./|/)""", text), f"{where} links out of the edition"
        assert "teacher/" not in text and "Both editions" not in text and "guide.html" not in text, where
        assert "<details" not in text and "Teacher's guide" not in text, where
        texts += 1
    assert texts > len(LESSONS)
    assert "The student edition" in read(student / "index.html")
    assert "for the teacher only" in read(teacher / "index.html")


def test_no_page_loads_anything_from_off_the_machine(built):
    pages = sorted(built.rglob("*.html"))
    styles = sorted(built.rglob("*.css"))
    assert len(pages) > 2 * len(LESSONS) and styles
    for path in pages + styles:
        text = read(path)
        for pattern in LOADS_FROM_ELSEWHERE:
            found = pattern.search(text)
            assert not found, f"{path.relative_to(built)} loads {found.group(0)!r}"
    # what the lesson pages load is on the site itself
    for edition in site.EDITIONS:
        page = read(built / edition / "02-brevity-penalty.html")
        sources = re.findall(r"""<script\b[^>]*\bsrc=["']([^"']+)""", page)
        assert sources and all((built / edition / s.split("?")[0]).is_file() for s in sources), sources
        assert "_static/mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full" in sources


def test_mathjax_is_served_from_the_site_with_its_licence(built):
    for edition in site.EDITIONS:
        folder = built / edition / "_static" / "mathjax"
        for name in ("MathJax.js", "LICENSE", "config/TeX-AMS-MML_HTMLorMML-full.js", "extensions/tex2jax.js",
                     "jax/output/HTML-CSS/fonts/STIX-Web", "fonts/HTML-CSS/STIX-Web/woff"):
            assert (folder / name).exists(), (edition, name)
        assert "Apache License" in read(folder / "LICENSE")
        page = read(built / edition / "06-rouge.html")
        config = re.search(r'<script type="text/x-mathjax-config">(.*?)</script>', page, re.S).group(1)
        assert '"processClass": "tex2jax_process|mathjax_process|math|output_area"' in config
        assert "window.MathJax" not in page  # a MathJax 3 configuration would confuse MathJax 2


def test_every_display_formula_of_the_markdown_is_a_math_element_with_its_tex_intact(built):
    for path in LESSONS:
        for edition in site.EDITIONS:
            nb = edition_notebook(path, edition)
            formulas = [" ".join(m.split()) for c in nb.cells if c.cell_type == "markdown"
                        for m in re.findall(r"\$\$(.+?)\$\$", c.source, re.S)]
            page = read(built / edition / site.page_name(path))
            shown = [html.unescape(m).strip() for m in DISPLAY_MATH.findall(page)]
            assert len(shown) == len(formulas), (edition, path.name, len(shown), len(formulas))
            for tex, element in zip(formulas, shown):
                assert element.startswith(r"\[") and element.endswith(r"\]"), (edition, path.name, element)
                # Sphinx wraps a formula holding a top-level \\ in a split environment
                inside = re.sub(r"^\\begin\{split\}(.*)\\end\{split\}$", r"\1", element[2:-2].strip(), flags=re.S)
                assert " ".join(inside.split()) == tex, (edition, path.name, element, tex)
            assert "$$" not in visible_text(page), (edition, path.name)
    # the formulas the old site garbled, as the browser reads them
    bp = read(built / "student" / "02-brevity-penalty.html")
    assert r"\mathrm{BP} \;=\;" + "\n" + r"\begin{cases}" + "\n1 &amp; \\text{if } c &gt; r \\\\" in bp
    lcs = read(built / "teacher" / "06-rouge.html")
    assert r"T[i][j] = \begin{cases} 0 &amp; i = 0 \text{ or } j = 0\\ T[i-1][j-1] + 1 &amp; r_i = h_j\\" in lcs
    chrf = read(built / "student" / "12-chrf-and-ter.html")
    assert r"\mathrm{chrF}_\beta = \frac{(1 + \beta^2)\, P\, R}{\beta^2 P + R} ." in chrf


def test_the_student_edition_has_no_guide_and_no_answer(built):
    assert (built / "teacher" / "guide.html").is_file()
    assert "Teacher's guide" in visible_text(read(built / "teacher" / "guide.html"))
    assert not (built / "student" / "guide.html").exists()
    assert "guide.html" not in read(built / "student" / "index.html")
    checked = 0
    for path in LESSONS:
        nb = lessons.read_notebook(path)
        secret = exercises.answer_values(nb)
        student_page = read(built / "student" / site.page_name(path))
        student_source = notebook_text(built / "student" / "_sources" / path.name)
        teacher_page = read(built / "teacher" / site.page_name(path))
        shown = exercises.numbers_in(visible_text(article(student_page))) | exercises.numbers_in(student_source)
        assert not secret & shown, f"{path.name}: the student edition shows the answers' {sorted(secret & shown)}"
        assert "<details" not in student_page and "<details" not in student_source, path.name
        if any(exercises.is_solution(c) for c in nb.cells):
            # the self-checks are kept, and no stored result of a check (a ✓ before the student tried)
            assert "check_answer" in visible_text(student_page), path.name
            assert "✓ Correct." not in student_page, path.name
            assert "<details>" in teacher_page and "✓ Correct." in teacher_page, path.name
        checked += len(secret)
        # the teacher edition states what the student edition hides
        assert secret <= exercises.numbers_in(visible_text(teacher_page)), (path.name, secret)
    assert checked > 20  # the check would catch something


def test_core_cells_are_marked_and_nothing_else(built):
    css = read(built / "student" / "_static" / "evalkit.css")
    assert ".tag_core, .tag-core {" in css and 'content: "core"' in css
    marked_lessons = 0
    for path in LESSONS:
        nb = lessons.read_notebook(path)
        core = [c for c in nb.cells if site.CORE_TAG in c.metadata.get("tags", [])]
        marked_lessons += bool(core)
        code = sum(c.cell_type == "code" for c in core)
        prose = sum(len([r for r in re.split(r"^\s{0,3}#{1,6}\s.*$", c.source, flags=re.M) if r.strip()])
                    for c in core if c.cell_type == "markdown")
        for edition in site.EDITIONS:
            page = read(built / edition / site.page_name(path))
            assert len(re.findall(r'<div class="cell [^"]*\btag_core\b', page)) == code, (edition, path.name)
            assert page.count('<div class="tag-core docutils container">') == prose, (edition, path.name)
    assert marked_lessons >= 10


def test_the_widget_is_a_note_and_nothing_loads_require_js(built):
    for edition in site.EDITIONS:
        page = read(built / edition / "08-exploring-weights.html")
        assert site.WIDGET_NOTE in page
        assert "require.js" not in page and "widget-view+json" not in page and "html-manager" not in page


def test_the_site_refuses_a_lesson_missing_from_the_guide(tmp_path):
    stray = tmp_path / "99-stray.ipynb"
    nbformat.write(new_notebook(cells=[new_markdown_cell("# Stray")]), str(stray))
    with pytest.raises(SystemExit, match=r"no row for 99-stray\.ipynb: add one to its lesson table"):
        site.build([stray], tmp_path / "site")
    assert not (tmp_path / "site").exists()


def test_one_edition_alone_from_the_command_line(tmp_path, capsys):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    for path in LESSONS[:2]:
        (folder / path.name).write_bytes(path.read_bytes())
    (folder / "README.md").write_bytes(lessons.GUIDE.read_bytes())
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "index.html").write_text("the front page of an older build, linking both editions")
    assert site.main(["--out", str(tmp_path / "out"), "--notebooks", str(folder), "--edition", "student"]) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["student"]
    home = read(tmp_path / "out" / "student" / "index.html")
    assert "teacher/" not in home and len(re.findall(r'href="0\d-[\w-]+\.html"', article(home))) == 2
    printed = capsys.readouterr().out
    assert "2 lessons" in printed and "give students this folder alone" in printed
    with pytest.raises(SystemExit):
        site.main(["--out", str(tmp_path / "out"), "--edition", "parents"])
