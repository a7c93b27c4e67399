"""What the teacher's kit knows about the lessons, read from the lessons themselves and from the guide.

- The lessons are whatever ``notebooks/*.ipynb`` exist (sorted by name; the name starts with the number).
- A lesson's title is its notebook's first markdown heading.
- Minutes, prerequisites and the one-line summary come from one place: the table in the teacher's guide,
  ``notebooks/README.md`` (columns ``#``, ``notebook``, ``minutes``, ``needs``, ``kind``, ``summary``), and
  the 90-minute class paths from the tables with the columns ``step``, ``minutes``, ``lessons``, ``what``;
  the first class's sections, timed at the teaching rate (``TEACHING_RATE`` times the reading rule), from
  the table with the columns ``step``, ``lesson``, ``section``, ``counted``, ``words``, ``code``,
  ``exercises``, ``minutes`` (``python -m tools.lessons --class-path`` recounts it).
- A folder made for a class (``exercises/``, ``teacher-copy/``) keeps a record of what was made in it
  (``.evalkit-made.json``), so a later build can tell whether a person changed it.
- Markdown is turned into HTML offline: formulas (``$...$``, ``$$...$$``) are drawn by matplotlib's
  mathtext as inline SVG images at build time, so a page needs no MathJax (which nbconvert would load from
  a CDN).  A formula mathtext cannot draw is shown as its TeX source.
"""

from __future__ import annotations

import base64
import functools
import html
import io
import math
import re
from dataclasses import dataclass
from pathlib import Path

from tools.notebook_cells import exercise_questions, is_solution, remove_answers

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
GUIDE = NOTEBOOKS / "README.md"


def lesson_files(folder: Path = NOTEBOOKS) -> list[Path]:
    """Every lesson in ``folder``, in the order of their names (01-..., 02-..., ...)."""
    return sorted(Path(folder).glob("*.ipynb"))


def read_notebook(path: Path):
    import nbformat

    return nbformat.read(str(path), as_version=4)


HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.M)


def lesson_title(nb) -> str:
    """The text of the notebook's first markdown heading ("" if it has none)."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            match = HEADING.search(cell.source)
            if match:
                return match.group(1)
    return ""


# ---------------------------------------------------------------------------------------------- the guide

@dataclass(frozen=True)
class GuideRow:
    number: str
    notebook: str  # file name inside notebooks/
    minutes: int
    needs: str
    kind: str  # "core" or "deep dive"
    summary: str
    core: int = 0  # minutes of the cells tagged core, by the rule, rounded up ("–" in the guide: none)


@dataclass(frozen=True)
class PathStep:
    step: str
    minutes: int
    lessons: tuple[str, ...]  # lesson numbers
    what: str


def markdown_tables(text: str) -> list[list[dict[str, str]]]:
    """Every pipe table in ``text``, as a list of rows keyed by the lower-cased header cells."""
    tables, lines = [], text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].lstrip().startswith("|") and i + 1 < len(lines) and re.match(r"^\s*\|[\s:|-]+\|\s*$", lines[i + 1]):
            header = [c.strip().lower() for c in lines[i].strip().strip("|").split("|")]
            rows, i = [], i + 2
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                rows.append(dict(zip(header, cells)))
                i += 1
            tables.append(rows)
        else:
            i += 1
    return tables


def _table_with(text: str, *columns: str) -> list[dict[str, str]]:
    for table in markdown_tables(text):
        if table and all(c in table[0] for c in columns):
            return table
    raise ValueError(f"the teacher's guide has no table with the columns {', '.join(columns)}")


def _minutes(value: str, where: str) -> int:
    if not value.strip().isdigit():
        raise ValueError(f"{where}: minutes must be a whole number, got {value!r}")
    return int(value)


def notebook_names(cell: str) -> list[str]:
    """The file names in a table cell (``[06-rouge.ipynb](06-rouge.ipynb)``, ``06-rouge.ipynb``), first the
    lesson's name, then any name it had before a renumbering ("until the renumbering: ...")."""
    names = list(dict.fromkeys(re.findall(r"[\w.-]+\.ipynb", cell)))
    if not names:
        raise ValueError(f"no notebook file name in the guide's table cell {cell!r}")
    return names


def read_guide(path: Path = GUIDE) -> dict[str, GuideRow]:
    """The guide's lesson table, keyed by notebook file name (a row is found under each of its names)."""
    rows = {}
    for row in _table_with(Path(path).read_text(encoding="utf-8"), "#", "notebook", "minutes", "summary"):
        names = notebook_names(row["notebook"])
        core = row.get("core", "–").strip()
        entry = GuideRow(row["#"], names[0], _minutes(row["minutes"], names[0]), row.get("needs", ""),
                         row.get("kind", ""), row["summary"],
                         0 if core in ("–", "-", "") else _minutes(core, f"{names[0]} (core)"))
        for name in names:
            if name in rows:
                raise ValueError(f"the teacher's guide lists {name} twice")
            rows[name] = entry
    return rows


def read_class_paths(path: Path = GUIDE) -> list[list[PathStep]]:
    """The guide's 90-minute classes (every table with the columns step, minutes, lessons, what), each step
    by step, in the guide's order."""
    columns = ("step", "minutes", "lessons", "what")
    tables = [t for t in markdown_tables(Path(path).read_text(encoding="utf-8")) if t and all(c in t[0] for c in columns)]
    if not tables:
        raise ValueError(f"the teacher's guide has no table with the columns {', '.join(columns)}")
    return [[PathStep(r["step"], _minutes(r["minutes"], f"class path step {r['step']}"),
                      tuple(re.findall(r"\d+", r["lessons"])), r["what"]) for r in table] for table in tables]


def read_class_path(path: Path = GUIDE) -> list[PathStep]:
    """The guide's first 90-minute class, step by step."""
    return read_class_paths(path)[0]


# ----------------------------------------------------------------------------------- markdown, formulas

CODE = re.compile(r"(```.*?```|~~~.*?~~~|`[^`\n]*`)", re.S)
MATH = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$([^$\n]+?)\$", re.S)
# TeX that MathJax knows and mathtext spells differently (or does not need: the \big family only sizes
# the brackets that follow).
TEX_REWRITES = [
    (re.compile(r"\\(?:big|Big|bigg|Bigg)[lr]?(?![a-zA-Z])"), ""),
    (re.compile(r"\\tfrac(?![a-zA-Z])"), r"\\frac"),
    (re.compile(r"\\frac(\d)(\d)"), r"\\frac{\1}{\2}"),
    (re.compile(r"\\ge(?![a-zA-Z])"), r"\\geq"),
    (re.compile(r"\\le(?![a-zA-Z])"), r"\\leq"),
    (re.compile(r"\\operatorname\{([^}]*)\}"), r"\\mathrm{\1}"),
]


@functools.lru_cache(maxsize=None)
def formula_svg(tex: str) -> tuple[str, float] | None:
    """``tex`` drawn by matplotlib's mathtext as an SVG document and the depth below the baseline (pt);
    None when mathtext cannot parse it."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import mathtext, rc_context
    from matplotlib.font_manager import FontProperties

    for pattern, replacement in TEX_REWRITES:
        tex = pattern.sub(replacement, tex)
    buffer = io.BytesIO()
    try:
        with rc_context({"mathtext.fontset": "cm", "svg.fonttype": "path", "svg.hashsalt": "evalkit"}):
            depth = mathtext.math_to_image(f"${' '.join(tex.split())}$", buffer, prop=FontProperties(size=13),
                                           format="svg")
    except (ValueError, RuntimeError):  # pyparsing's ParseException is a ValueError subclass
        return None
    return buffer.getvalue().decode(), float(depth or 0.0)


def formula_html(tex: str, display: bool) -> str:
    """An <img> with the drawn formula (alt text: the TeX), or the TeX in <code> if it cannot be drawn."""
    drawn = formula_svg(tex.strip())
    alt = html.escape(" ".join(tex.split()), quote=True)
    if drawn is None:
        return f'<code class="tex">{alt}</code>'
    svg, depth = drawn
    data = base64.b64encode(svg.encode()).decode()
    css = "math display" if display else "math"
    style = "" if display else f' style="vertical-align: -{depth:.1f}pt"'
    return f'<img class="{css}" alt="{alt}"{style} src="data:image/svg+xml;base64,{data}">'


def formulas_to_images(markdown: str) -> str:
    """Replace every formula outside code spans and code blocks with its drawn image."""
    parts = CODE.split(markdown)
    for i in range(0, len(parts), 2):  # even parts are outside code
        parts[i] = MATH.sub(lambda m: formula_html(m.group(1) or m.group(2), display=m.group(1) is not None),
                            parts[i])
    return "".join(parts)


def markdown_to_html(markdown: str) -> str:
    """Markdown (as in a notebook cell) to HTML, formulas drawn, with nbconvert's own renderer.  Each formula's
    HTML is put in after the markdown is rendered (the renderer would escape the ``&`` of its entities again)."""
    from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath

    drawn = []

    def hold(match):
        drawn.append(formula_html(match.group(1) or match.group(2), display=match.group(1) is not None))
        return f"EVALKITFORMULA{len(drawn) - 1}X"

    parts = CODE.split(markdown)
    for i in range(0, len(parts), 2):  # even parts are outside code
        parts[i] = MATH.sub(hold, parts[i])
    renderer = IPythonRenderer(escape=False, exclude_anchor_links=True)
    rendered = MarkdownWithMath(renderer=renderer).render("".join(parts))
    return re.sub(r"EVALKITFORMULA(\d+)X", lambda m: drawn[int(m.group(1))], rendered)


MATH_CSS = """
img.math { height: auto; max-width: 100%; }
img.math.display { display: block; margin: 0.6em auto; }
code.tex { white-space: pre-wrap; }
"""


# ------------------------------------------------------------------------------------ minutes, by rule

WORDS_PER_MINUTE = 150
MINUTES_PER_CODE_CELL = 1
MINUTES_PER_EXERCISE = 3


def exercise_count(nb) -> int:
    """Exercises in a lesson: the numbered items of each exercise question (a question without a numbered
    list counts as one)."""
    return sum(max(1, len(re.findall(r"^\s{0,3}\d+\.\s", q, re.M))) for q in exercise_questions(nb))


def minutes_by_rule(nb) -> int:
    """The guide's rule: a minute per 150 words of markdown, per code cell, three per exercise, rounded up
    to the next 5 minutes."""
    words = sum(len(c.source.split()) for c in nb.cells if c.cell_type == "markdown")
    code_cells = sum(c.cell_type == "code" for c in nb.cells)
    raw = words / WORDS_PER_MINUTE + MINUTES_PER_CODE_CELL * code_cells + MINUTES_PER_EXERCISE * exercise_count(nb)
    return 5 * math.ceil(raw / 5)


CORE_TAG = "core"


def is_core(cell) -> bool:
    return CORE_TAG in cell.metadata.get("tags", [])


def core_minutes(nb) -> float:
    """The guide's rule on the cells tagged ``core`` only (what a class covers of the lesson): a minute per
    150 words of their markdown (exercise answers left out: the exercise's own three minutes cover them), a
    minute per core code cell that is not an exercise's solution, three minutes per core exercise.  Not
    rounded; 0.0 for a lesson with no core cell."""
    import nbformat

    core = [c for c in nb.cells if is_core(c)]
    words = sum(len(remove_answers(c.source).split()) for c in core if c.cell_type == "markdown")
    code_cells = sum(c.cell_type == "code" and not is_solution(c) for c in core)
    exercises = exercise_count(nbformat.v4.new_notebook(cells=core)) if core else 0
    return words / WORDS_PER_MINUTE + MINUTES_PER_CODE_CELL * code_cells + MINUTES_PER_EXERCISE * exercises


SECTION = re.compile(r"^#{1,3}\s+(.+?)\s*$", re.M)


def core_sections(nb) -> list[str]:
    """The headings (levels 1-3, numbering like "2. " dropped) of the sections that hold core cells, in order:
    what the guide names as a lesson's core."""
    found, current = [], None
    for cell in nb.cells:
        headings = SECTION.findall(cell.source) if cell.cell_type == "markdown" else []
        if is_core(cell):
            # the section a core cell starts in is core, and so is each heading of a core markdown cell that has
            # text after it (a heading that ends the cell opens a section the cell holds nothing of)
            spans = list(SECTION.finditer(cell.source)) if cell.cell_type == "markdown" else []
            filled = [m.group(1) for m in spans if cell.source[m.end():].strip()]
            for title in ([current] if current and not cell.source.lstrip().startswith("#") else []) + filled:
                title = re.sub(r"^\d+\.\s+", "", title)
                if title not in found:
                    found.append(title)
        if headings:
            current = headings[-1]
    return found


# ------------------------------------------------------------------------ the class path, section by section

# Teaching a section to a class takes longer than reading it: the class path's minutes are the rule's
# (a minute per 150 words, per code cell, three per exercise) times this rate, i.e. 100 words of text
# explained a minute, a minute and a half per code cell run and read together, four and a half per exercise
# done by hand in class.  Why 1.5: see the guide, "A 90-minute class".
TEACHING_RATE = 1.5
COUNTED = ("core", "all", "figures")  # and "exercise N"
SECTION_HEADING = re.compile(r"^\s{0,3}#{1,3}\s+(.+?)\s*#*\s*$", re.M)


def section_title(heading: str) -> str:
    return re.sub(r"^\d+\.\s+", "", heading.strip())


def section_parts(nb) -> list[tuple[str, object, str]]:
    """The lesson as (section title, cell, text) in order: a markdown cell is cut at its headings (levels 1-3,
    the heading line going with the section it opens), a code cell is one part with its source."""
    parts, current = [], ""
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            parts.append((current, cell, cell.source))
            continue
        start = 0
        for match in SECTION_HEADING.finditer(cell.source):
            if cell.source[start:match.start()].strip():
                parts.append((current, cell, cell.source[start:match.start()]))
            current, start = section_title(match.group(1)), match.start()
        parts.append((current, cell, cell.source[start:]))
    return parts


def has_figure(cell) -> bool:
    return any(k.startswith("image/") for o in cell.get("outputs", []) for k in o.get("data", {}))


def section_counts(nb, section: str, counted: str, name: str = "notebook") -> tuple[int, int, int]:
    """(words, code cells, exercises) of what a class does of ``section`` of a lesson:

    - ``core``: its cells tagged ``core`` (markdown with the answers removed; code cells but exercises'
      solutions; the exercises they hold);
    - ``all``: all its cells, counted the same way;
    - ``figures``: only its code cells that show a figure (shown and talked over, no text read);
    - ``exercise N``: the N-th exercise of the lesson (its question's words and one exercise), done by hand.
    """
    from tools.notebook_cells import lesson_exercises

    found = re.fullmatch(r"exercise (\d+)", counted)
    if found:
        questions = lesson_exercises(nb, name)[1]
        number = int(found.group(1))
        if not 1 <= number <= len(questions):
            raise ValueError(f"{name} has no exercise {number} (it has {len(questions)})")
        return len(questions[number - 1].question.split()), 0, 1
    if counted not in COUNTED:
        raise ValueError(f"what is counted of a section must be one of {', '.join(COUNTED)} or 'exercise N', "
                         f"not {counted!r}")
    parts = [(cell, text) for title, cell, text in section_parts(nb) if title == section]
    if not parts:
        raise ValueError(f"{name} has no section {section!r}")
    if counted == "figures":
        return 0, sum(cell.cell_type == "code" and has_figure(cell) for cell, _ in parts), 0
    if counted == "core":
        parts = [(cell, text) for cell, text in parts if is_core(cell)]
    markdown = [remove_answers(text) for cell, text in parts if cell.cell_type == "markdown"]
    code = sum(cell.cell_type == "code" and not is_solution(cell) for cell, _ in parts)
    exercises = sum(max(1, len(re.findall(r"^\s{0,3}\d+\.\s", q, re.M))) for q in
                    exercise_questions(_markdown_notebook(markdown))) if markdown else 0
    return sum(len(t.split()) for t in markdown), code, exercises


def _markdown_notebook(texts: list[str]):
    import nbformat

    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(t) for t in texts])


def teaching_minutes(words: int, code: int, exercises: int, rate: float = TEACHING_RATE) -> float:
    """The rule's minutes times the teaching rate (not rounded)."""
    return rate * (words / WORDS_PER_MINUTE + MINUTES_PER_CODE_CELL * code + MINUTES_PER_EXERCISE * exercises)


@dataclass(frozen=True)
class PathSection:
    step: str
    lesson: str  # the lesson's number
    section: str
    counted: str
    words: int
    code: int
    exercises: int
    minutes: float


def read_path_sections(path: Path = GUIDE) -> list[PathSection]:
    """The guide's table of the class path's sections (columns step, lesson, section, counted, words, code,
    exercises, minutes)."""
    rows = _table_with(Path(path).read_text(encoding="utf-8"), "step", "lesson", "section", "counted", "words")
    return [PathSection(r["step"], r["lesson"], r["section"].strip("*\" "), r["counted"], int(r["words"]),
                        int(r["code"]), int(r["exercises"]), float(r["minutes"])) for r in rows]


# ------------------------------------------------------------------- folders made for a class, and changed

MADE = ".evalkit-made.json"
# what JupyterLab and Python add to a folder by opening it: not a change of the student's or the teacher's
NOT_A_CHANGE = (".ipynb_checkpoints", "__pycache__", ".virtual_documents", MADE)


def content_digest(path: Path) -> str:
    """A digest of what a person can change in a file: a notebook's cells' types and sources (running cells,
    their outputs and counts, and the metadata JupyterLab writes do not count), any other file's bytes."""
    import hashlib
    import json

    path = Path(path)
    data = path.read_bytes()
    if path.suffix == ".ipynb":
        try:
            cells = json.loads(data.decode("utf-8")).get("cells", [])
            data = json.dumps([[c.get("cell_type"), "".join(c.get("source", ""))] for c in cells]).encode()
        except (ValueError, AttributeError):
            pass  # not a notebook JSON: its bytes
    return hashlib.sha256(data).hexdigest()


def folder_files(folder: Path) -> list[str]:
    """The files of ``folder`` (relative, with /), without what merely opening it adds."""
    folder = Path(folder)
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.is_file() and not set(p.relative_to(folder).parts) & set(NOT_A_CHANGE))


def record_made(folder: Path, files: dict[str, str] | None = None, **extra) -> None:
    """Write ``folder``'s record of what was made in it: each file's :func:`content_digest` (by default every
    file now there), and any ``extra`` fields."""
    import json

    folder = Path(folder)
    files = {name: content_digest(folder / name) for name in folder_files(folder)} if files is None else files
    (folder / MADE).write_text(json.dumps({"files": files, **extra}, indent=1, sort_keys=True) + "\n",
                               encoding="utf-8")


def read_made(folder: Path) -> dict | None:
    """The record :func:`record_made` wrote in ``folder``; None when there is none (or it is unreadable)."""
    import json

    try:
        made = json.loads((Path(folder) / MADE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return made if isinstance(made, dict) and isinstance(made.get("files"), dict) else None


def changed_since_made(folder: Path) -> list[str] | None:
    """The files of ``folder`` changed, added or removed since it was made (:func:`content_digest` against the
    record); None when the folder has no record (made by an older version: assume a person changed it)."""
    made = read_made(folder)
    if made is None:
        return None
    files, now = made["files"], folder_files(folder)
    changed = [n for n in now if n not in files or content_digest(Path(folder) / n) != files[n]]
    return sorted(changed + [n for n in files if n not in now])


def class_path_rows(path: Path = GUIDE) -> list[tuple[PathSection, tuple[int, int, int], float]]:
    """Each row of the guide's class-path sections, with its counts and minutes recomputed from the lesson."""
    files = {p.name[:2]: p for p in lesson_files(Path(path).parent)}
    out = []
    for row in read_path_sections(path):
        if row.lesson not in files:
            raise ValueError(f"the class path names lesson {row.lesson}, which is not in {Path(path).parent}")
        counts = section_counts(read_notebook(files[row.lesson]), row.section, row.counted, files[row.lesson].name)
        out.append((row, counts, teaching_minutes(*counts)))
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the rule's minutes for every lesson next to the guide's; with --class-path, the first class's
    sections recounted at the teaching rate, as the guide's table."""
    import sys

    argv = sys.argv[1:] if argv is None else argv
    if "--class-path" in argv:
        totals: dict[str, float] = {}
        print("| step | lesson | section | counted | words | code | exercises | minutes |")
        print("|------|--------|---------|---------|------:|-----:|----------:|--------:|")
        for row, (words, code, exercises), minutes in class_path_rows():
            totals[row.step] = totals.get(row.step, 0.0) + minutes
            print(f"| {row.step} | {row.lesson} | {row.section} | {row.counted} | {words} | {code} | {exercises} | {minutes:.1f} |")
        print(f"\nat {TEACHING_RATE} times the reading rule; minutes per step (rounded up): "
              + ", ".join(f"step {step}: {math.ceil(total)}" for step, total in totals.items()))
        return 0
    rows = read_guide()
    print(f"{'notebook':45} {'words':>6} {'code':>5} {'exerc.':>6} {'rule':>5} {'guide':>6} {'core':>5}")
    for path in lesson_files():
        nb = read_notebook(path)
        words = sum(len(c.source.split()) for c in nb.cells if c.cell_type == "markdown")
        code_cells = sum(c.cell_type == "code" for c in nb.cells)
        guide = rows[path.name].minutes if path.name in rows else "-"
        print(f"{path.name:45} {words:6} {code_cells:5} {exercise_count(nb):6} {minutes_by_rule(nb):5} {guide:>6} {core_minutes(nb):5.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
