"""A static HTML site of the executed lessons: ``make site``, then open site/index.html.

No kernel and no re-execution: each page is nbconvert's HTML of the notebook with its stored outputs
(figures are the stored PNGs, embedded in the page).  Nothing is fetched when the site is built or viewed:

- the pages use nbconvert's "lab" template without its CDN scripts (require.js, MathJax, mermaid, the
  widgets manager): see tools/templates/evalkit-site/index.html.j2;
- formulas in the markdown are drawn by matplotlib's mathtext as inline SVG images at build time
  (tools/lessons.py), in place of MathJax;
- an interactive widget's output is replaced by a note saying to run the lesson in JupyterLab.

The index lists the lessons: number (from the file name), title (the notebook's first heading), minutes and
summary (from the teacher's guide, notebooks/README.md, the one source of both).  The guide itself is
rendered as guide.html.

    python -m tools.site                # every notebooks/*.ipynb -> site/
    python -m tools.site --out DIR
"""

from __future__ import annotations

import argparse
import copy
import html
import re
import sys
from pathlib import Path

from tools.lessons import (
    GUIDE, MATH_CSS, NOTEBOOKS, ROOT, formulas_to_images, lesson_files, lesson_title, markdown_to_html,
    read_class_path, read_guide, read_notebook,
)

TEMPLATES = Path(__file__).resolve().parent / "templates"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_NOTE = (
    '<p class="evalkit-widget-note"><em>An interactive widget is shown here when the lesson runs in '
    "JupyterLab (<code>make lab</code>); this static page cannot run it.</em></p>"
)
SITE_CSS = MATH_CSS + """
nav.evalkit-nav { max-width: 1100px; margin: 0 auto; padding: 0.5em 1em; font-family: var(--jp-ui-font-family, sans-serif); }
.evalkit-widget-note { color: #555; }
"""
INDEX_CSS = MATH_CSS + """
body { font-family: system-ui, "DejaVu Sans", sans-serif; line-height: 1.5; max-width: 60em; margin: 2em auto;
       padding: 0 1em; color: #222; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 0.35em 0.6em; border-bottom: 1px solid #ddd; }
td.number, td.minutes { white-space: nowrap; }
td.minutes, th.minutes { text-align: right; }
"""


def page_name(notebook: Path) -> str:
    return notebook.stem + ".html"


def link_pages(markdown: str, pages: set[str]) -> str:
    """Links to lessons (``[..](06-rouge.ipynb)``) point to their pages; a link to a lesson that has no page
    (one the guide plans but that does not exist yet) becomes plain text."""
    def relink(match):
        page = match.group(2) + ".html"
        return f"[{match.group(1)}]({page})" if page in pages else match.group(1)

    return re.sub(r"\[([^\]]*)\]\(([\w.-]+)\.ipynb\)", relink, markdown)


def for_the_site(nb, pages: set[str] = frozenset()):
    """A copy of the notebook ready for the static page: formulas drawn, links to other lessons pointing to
    their pages, widget outputs replaced."""
    nb = copy.deepcopy(nb)
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = formulas_to_images(link_pages(cell.source, pages))
        elif cell.cell_type == "code":
            for output in cell.get("outputs", []):
                if WIDGET_VIEW in output.get("data", {}):
                    output["data"] = {"text/html": WIDGET_NOTE}
    return nb


def lesson_page(nb, resources: dict, pages: set[str] = frozenset()) -> str:
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(extra_template_basedirs=[str(TEMPLATES)], template_name="evalkit-site",
                            exclude_anchor_links=True)
    body, _ = exporter.from_notebook_node(for_the_site(nb, pages), resources={**resources, "evalkit_css": SITE_CSS})
    return body


def guide_rows(notebooks: list[Path], guide: Path) -> dict:
    rows = read_guide(guide)
    missing = [p.name for p in notebooks if p.name not in rows]
    if missing:
        raise SystemExit(f"the teacher's guide ({guide}) has no row for {', '.join(missing)}: add one to its "
                         "lesson table (number, notebook, minutes, needs, kind, summary)")
    return rows


def index_page(notebooks: list[Path], titles: dict[str, str], rows: dict, guide: Path) -> str:
    lines = []
    for path in notebooks:
        row = rows[path.name]
        number = re.match(r"\d*", path.name).group(0) or row.number
        lines.append(
            f'<tr><td class="number">{html.escape(number)}</td>'
            f'<td><a href="{page_name(path)}">{html.escape(titles[path.name])}</a></td>'
            f'<td class="minutes">{row.minutes}</td><td>{html.escape(row.kind)}</td>'
            f"<td>{markdown_to_html(row.summary).strip().removeprefix('<p>').removesuffix('</p>')}</td></tr>"
        )
    class_path = sum(step.minutes for step in read_class_path(guide))
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>evalkit lessons</title>
<style>{INDEX_CSS}</style>
</head>
<body>
<h1>evalkit lessons</h1>
<p>BLEU, GLEU, ROUGE and friends derived step by step. These pages show each lesson as it was last run,
with its stored outputs; to run the code, use JupyterLab (<code>make lab</code>).
The <a href="guide.html">teacher's guide</a> gives prerequisites, core and optional sections, and a
{class_path}-minute class path.</p>
<table>
<thead><tr><th>#</th><th>lesson</th><th class="minutes">minutes</th><th>kind</th><th>summary</th></tr></thead>
<tbody>
{chr(10).join(lines)}
</tbody>
</table>
</body>
</html>
"""


def guide_page(guide: Path, pages: set[str]) -> str:
    text = link_pages(guide.read_text(encoding="utf-8"), pages)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>evalkit: the teacher's guide</title>
<style>{INDEX_CSS}</style>
</head>
<body>
<p><a href="index.html">evalkit lessons</a></p>
{markdown_to_html(text)}
</body>
</html>
"""


def build(notebooks: list[Path], out: Path, guide: Path = GUIDE) -> list[Path]:
    """Write one page per lesson, index.html and guide.html to ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    rows = guide_rows(notebooks, guide)
    titles, written = {}, []
    pages = {page_name(p) for p in notebooks}
    for i, path in enumerate(notebooks):
        nb = read_notebook(path)
        titles[path.name] = lesson_title(nb) or path.stem
        resources = {
            "metadata": {"name": titles[path.name]},
            "evalkit_prev": page_name(notebooks[i - 1]) if i > 0 else "",
            "evalkit_next": page_name(notebooks[i + 1]) if i + 1 < len(notebooks) else "",
        }
        target = out / page_name(path)
        target.write_text(lesson_page(nb, resources, pages), encoding="utf-8")
        written.append(target)
    for name, text in (("index.html", index_page(notebooks, titles, rows, guide)), ("guide.html", guide_page(guide, pages))):
        (out / name).write_text(text, encoding="utf-8")
        written.append(out / name)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "site", help="output folder (default: site/)")
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help="lesson folder (default: notebooks/)")
    args = parser.parse_args(argv)
    notebooks = lesson_files(args.notebooks)
    build(notebooks, args.out, args.notebooks / "README.md")
    print(f"{len(notebooks)} lessons in {args.out}/: open {args.out}/index.html in a browser (works offline)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
