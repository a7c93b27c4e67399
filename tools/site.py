"""The lesson site, in two editions that are two separate sites: ``make site``.

    python -m tools.site                          # both editions -> site/student/ and site/teacher/
    python -m tools.site --out DIR --edition student

- **student/**: the student edition of every lesson (tools.exercises.student_edition: the ``<details>``
  answers and the solution cells' code and outputs removed, the self-checks kept); no teacher's guide.
  It stands alone: no page of it links to the teacher edition or to anything outside its folder, and no
  file of the teacher edition is in it, so it can be served or copied by itself (what students get).
- **teacher/**: the lessons as they are, answers in closed ``<details>`` blocks and solution outputs shown,
  and the teacher's guide (notebooks/README.md) as a page.  Never give it to students.

There is no shared front page: each edition's own home page holds the lesson table (number, title, minutes,
kind, summary), and ``out/`` holds nothing but the edition folders.

Each edition is a Sphinx site built the way Jupyter Book 1 builds one (MyST-NB, sphinx-book-theme:
sidebar, per-page contents, full-text search), from copies of the notebooks in a temporary folder; the
notebooks/ folder is never written.  Nothing runs and nothing is fetched: notebooks are rendered with their
stored outputs, ``$...$``/``$$...$$`` become math drawn in the browser by MathJax 2.7 served from the site
itself (``_static/mathjax/``, from the jupyter-server-mathjax wheel, its LICENSE beside it), and an
interactive widget's output is replaced by a note.  Cells tagged ``core`` are marked on the pages (a green
rule and a "core" label).  The two editions are built at the same time, in two processes.

Titles come from each notebook's first heading; minutes, kind and summary from the teacher's guide's lesson
table, which must have a row for every lesson.  Needs requirements-site.txt (``make site`` installs it).
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools.exercises import student_edition
from tools.lessons import (
    GUIDE, NOTEBOOKS, ROOT, lesson_files, lesson_title, read_guide, read_notebook,
)

EDITIONS = ("student", "teacher")
CONFIG = Path(__file__).resolve().parent / "site_config"
CORE_TAG = "core"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_NOTE = (
    '<p class="evalkit-widget-note">An interactive widget is shown here when the lesson runs in JupyterLab '
    "(<code>make lab</code>); this static page cannot run it.</p>"
)
MATHJAX_SKIP = ("localization",)  # MathJax's translations of its menus: English is built in
CORE_KEY = (
    "Cells with a **green rule** on the left and a **core** label are the core of a lesson: what a class "
    "covers in the time the guide gives it. The other cells are optional reading."
)
INTRO = {
    "student": "The lessons without their answers: try each exercise yourself; the self-check cells tell you "
               "whether your answer is right. To run the code, open the lessons in JupyterLab.",
    "teacher": "The lessons as they are, with the answers (in closed *Answer* blocks) and the solution cells' "
               "outputs, and the [teacher's guide](guide.md). Students get the student edition, a separate site "
               "(its own folder, `site/student/`): never give them this one.",
}
FOOTER = {
    "student": "The student edition of the evalkit lessons.",
    "teacher": "The teacher edition, with the answers: for the teacher only (students get the student edition, "
               "a separate site).",
}


class SiteError(SystemExit):
    """The site cannot be built; the message says why and what to do."""


def page_name(notebook: Path) -> str:
    """The file name of a lesson's page inside an edition."""
    return Path(notebook).stem + ".html"


def link_pages(markdown: str, lessons: set[str]) -> str:
    """Links to lessons (``[..](06-rouge.ipynb)``) in ``lessons`` (file names) are kept, and MyST makes them
    links to their pages; a link to a lesson the site does not have becomes plain text."""
    def relink(match):
        return match.group(0) if match.group(2) in lessons else match.group(1)

    return re.sub(r"\[([^\]]*)\]\(([\w.-]+\.ipynb)\)", relink, markdown)


FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
ATX_HEADING = re.compile(r"^\s{0,3}#{1,6}(\s|$)")


def mark_core(markdown: str) -> str:
    """A core markdown cell's text with every run of lines between headings wrapped in a MyST container of
    class ``tag-core`` (MyST-NB gives core code cells the class ``tag_core``; docutils spells a directive's
    class with a hyphen).  Headings stay outside, so the page's sections and contents are the lesson's."""
    colons = ":" * max(3, 1 + max((len(run) for run in re.findall(r":{3,}", markdown)), default=0))
    out, run, fence = [], [], None

    def flush():
        if any(line.strip() for line in run):
            while run and not run[0].strip():
                run.pop(0)
            out.extend([f"{colons}{{container}} tag-core", *run, colons, ""])
        run.clear()

    for line in markdown.splitlines():
        opened = FENCE.match(line)
        if fence is None and opened:
            fence = opened.group(1)[0] * len(opened.group(1))
        elif fence is not None and line.strip().startswith(fence):
            fence = None
        elif fence is None and ATX_HEADING.match(line):
            flush()
            out.extend([line, ""])
            continue
        run.append(line)
    flush()
    return "\n".join(out).rstrip("\n") + "\n"


def for_the_site(nb, edition: str, name: str = "notebook", lessons: set[str] = frozenset()):
    """A copy of the notebook as the edition shows it: the student edition or the lesson itself, links to other
    lessons kept or unlinked, core markdown cells marked, widget outputs replaced by a note."""
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}: {' or '.join(EDITIONS)}")
    nb = student_edition(nb, name) if edition == "student" else copy.deepcopy(nb)
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = link_pages(cell.source, lessons)
            if CORE_TAG in cell.metadata.get("tags", []):
                cell.source = mark_core(cell.source)
        elif cell.cell_type == "code":
            for output in cell.get("outputs", []):
                if WIDGET_VIEW in output.get("data", {}):
                    output["data"] = {"text/html": WIDGET_NOTE}
    return nb


def guide_rows(notebooks: list[Path], guide: Path) -> dict:
    rows = read_guide(guide)
    missing = [p.name for p in notebooks if p.name not in rows]
    if missing:
        raise SiteError(f"the teacher's guide ({guide}) has no row for {', '.join(missing)}: add one to its "
                        "lesson table (number, notebook, minutes, needs, kind, summary)")
    return rows


def lesson_number(path: Path, row) -> str:
    return re.match(r"\d*", path.name).group(0) or row.number


def edition_index(edition: str, notebooks: list[Path], titles: dict[str, str], rows: dict) -> str:
    """The MyST markdown of an edition's home page: the lesson table and the (hidden) table of contents."""
    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    table = ["| # | lesson | minutes | kind | summary |", "|---|---|---:|---|---|"]
    for path in notebooks:
        row = rows[path.name]
        table.append(f"| {lesson_number(path, row)} | [{cell(titles[path.name])}]({path.name}) | {row.minutes} "
                     f"| {cell(row.kind)} | {cell(row.summary)} |")
    pages = [p.stem for p in notebooks] + (["guide"] if edition == "teacher" else [])
    return "\n".join([
        f"# evalkit lessons: the {edition} edition", "",
        "BLEU, GLEU, ROUGE and friends derived step by step. These pages show each lesson as it was last run, "
        "with its stored outputs. " + INTRO[edition], "",
        ":::{container} evalkit-core-key", CORE_KEY, ":::", "",
        *table, "",
        "```{toctree}", ":hidden:", ":maxdepth: 1", "", *pages, "```", "",
    ])


def mathjax_folder() -> Path:
    """The MathJax the site serves; a clear error when the site builder is not installed."""
    try:
        import jupyter_server_mathjax
        import myst_nb  # noqa: F401
        import sphinx_book_theme  # noqa: F401
    except ImportError:
        raise SiteError("the site needs the packages of requirements-site.txt: run `make site` (or "
                        ".venv/bin/pip install -r requirements-site.txt)") from None
    folder = Path(jupyter_server_mathjax.__file__).parent / "static"
    if not (folder / "MathJax.js").is_file() or not (folder / "LICENSE").is_file():
        raise SiteError(f"no MathJax.js and LICENSE in {folder}: reinstall jupyter-server-mathjax")
    return folder


def write_sources(edition: str, notebooks: list[Path], src: Path, guide: Path, titles: dict, rows: dict) -> None:
    """The Sphinx source folder of an edition: conf.py and its settings, the edition's notebooks, home page and
    (teacher) guide, the stylesheet."""
    import nbformat

    src.mkdir(parents=True)
    (src / "_static").mkdir()
    shutil.copy2(CONFIG / "conf.py", src / "conf.py")
    shutil.copy2(CONFIG / "evalkit.css", src / "_static" / "evalkit.css")
    settings = {
        "project": "evalkit lessons",
        "title": f"evalkit lessons ({edition} edition)",
        "footer": FOOTER[edition],
    }
    (src / "settings.json").write_text(json.dumps(settings, indent=1), encoding="utf-8")
    names = {p.name for p in notebooks}
    for path in notebooks:
        nb = for_the_site(read_notebook(path), edition, path.name, names)
        nbformat.write(nb, str(src / path.name))
    (src / "index.md").write_text(edition_index(edition, notebooks, titles, rows), encoding="utf-8")
    if edition == "teacher":
        (src / "guide.md").write_text(link_pages(guide.read_text(encoding="utf-8"), names), encoding="utf-8")


def run_sphinx(jobs: dict[str, tuple[Path, Path]], work: Path) -> None:
    """Build every edition (source folder, output folder) at once, one process each."""
    running = {}
    for edition, (src, dest) in jobs.items():
        command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-d", str(work / f"doctrees-{edition}"),
                   str(src), str(dest)]
        log = open(work / f"sphinx-{edition}.log", "w+", encoding="utf-8")
        running[edition] = (subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=src), log)
    failed = []
    for edition, (process, log) in running.items():
        code = process.wait()
        log.seek(0)
        text = log.read()
        log.close()
        if code != 0:
            failed.append(f"the {edition} edition failed (sphinx-build exit {code}):\n{text[-4000:]}")
        elif text.strip():
            print(f"sphinx-build, {edition} edition:\n{text.strip()}", file=sys.stderr)
    if failed:
        raise SiteError("\n".join(failed))


def build(notebooks: list[Path], out: Path, guide: Path = GUIDE, editions: tuple[str, ...] = EDITIONS) -> list[Path]:
    """Build ``out/<edition>/`` for each edition, each a site of its own; returns each edition's folder.  An
    edition's folder is replaced as a whole; the front page linking both editions that older builds wrote
    (``out/index.html``) is removed."""
    editions = tuple(e for e in EDITIONS if e in editions)
    if not editions:
        raise SiteError(f"no edition to build: choose among {', '.join(EDITIONS)}")
    if not notebooks:
        raise SiteError("no lesson to build the site from")
    rows = guide_rows(notebooks, guide)
    mathjax = mathjax_folder()
    titles = {p.name: lesson_title(read_notebook(p)) or p.stem for p in notebooks}
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="evalkit-site-") as tmp:
        work = Path(tmp)
        jobs = {}
        for edition in editions:
            src = work / edition
            write_sources(edition, notebooks, src, guide, titles, rows)
            jobs[edition] = (src, work / "html" / edition)
        run_sphinx(jobs, work)
        for edition, (_, html_dir) in jobs.items():
            shutil.copytree(mathjax, html_dir / "_static" / "mathjax", ignore=shutil.ignore_patterns(*MATHJAX_SKIP))
            for stale in (".buildinfo", ".doctrees"):
                target = html_dir / stale
                if target.is_dir():
                    shutil.rmtree(target)
                elif target.exists():
                    target.unlink()
            dest = out / edition
            if dest.exists():
                shutil.rmtree(dest)
            shutil.move(str(html_dir), str(dest))
    stale_front_page = out / "index.html"
    if stale_front_page.is_file():
        stale_front_page.unlink()
    return [out / e for e in editions]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "site", help="output folder (default: site/)")
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help="lesson folder (default: notebooks/)")
    parser.add_argument("--edition", choices=[*EDITIONS, "both"], default="both",
                        help="which edition to build (default: both)")
    args = parser.parse_args(argv)
    notebooks = lesson_files(args.notebooks)
    editions = EDITIONS if args.edition == "both" else (args.edition,)
    start = time.perf_counter()
    build(notebooks, args.out, args.notebooks / "README.md", editions)
    seconds = time.perf_counter() - start
    print(f"{len(notebooks)} lessons ({seconds:.0f} s), each edition a site of its own (works offline):")
    for edition in editions:
        print(f"  {edition}: open {args.out}/{edition}/index.html"
              + ("; give students this folder alone" if edition == "student" else "; for the teacher only"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
