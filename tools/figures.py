"""Every figure of every lesson as PNG and SVG, for slides: ``python -m tools.figures --out figures``.

Each lesson is executed (nbclient, the python3 kernel, the working directory notebooks/, as ``make
notebooks`` does) on a copy in memory, with one cell put before its first: it switches on an
``evalkit.plots`` style (``--style projector``, the default, or ``default``) and asks the kernel to send,
beside each matplotlib figure it displays, the figure saved at 150 dpi as PNG and as SVG.  The files are
written from those outputs, in the order the lesson shows them:

    figures/<lesson>/fig-01-<title>.png, fig-01-<title>.svg, fig-02-...

where <title> is a slug of the figure's title, else of its first axes title (no title: ``fig-01``).  A
figure drawn inside a widget is not a cell output and is skipped.  The notebooks on disk are read, never
written; nothing is fetched from the network.  A lesson's old fig-* files are replaced.
"""

from __future__ import annotations

import argparse
import base64
import copy
import inspect
import re
import sys
import time
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
MIME = "application/vnd.evalkit.figure+json"  # the output the injected cell adds beside each figure
STYLES = ("projector", "default")
CELL_TIMEOUT = 600


def _kernel_setup(style: str, dpi: int, mime: str) -> None:  # runs inside the lesson's kernel
    """Switch the style on and register a display formatter that adds, to every matplotlib figure the
    kernel displays, {"title", "png" (base64), "svg"} under ``mime``."""
    import base64
    import io

    import matplotlib
    import matplotlib.pyplot as plt
    from IPython import get_ipython
    from IPython.core.formatters import BaseFormatter
    from matplotlib.figure import Figure
    from traitlets import ObjectName, Unicode

    from evalkit import plots

    plt.close(plt.figure())  # load the inline backend now: it resets the figure formatters when it loads
    plots.use_style(style)

    def title_of(fig):
        texts = [getattr(fig, "_suptitle", None)] + [ax.title for ax in fig.axes]
        texts += [t for ax in fig.axes for t in (ax._left_title, ax._right_title)]
        return next((t.get_text() for t in texts if t is not None and t.get_text().strip()), "")

    def save(fig):
        try:
            plots.fit_text(fig)  # a title the lesson set itself may be too long for the larger text
            files = {}
            for fmt in ("png", "svg"):
                buffer = io.BytesIO()
                # the same figure gives the same bytes: no date in the SVG, its element ids from a fixed salt
                with matplotlib.rc_context({"svg.hashsalt": "evalkit-figures"}):
                    fig.savefig(buffer, format=fmt, dpi=dpi, bbox_inches="tight", pad_inches=0.05,
                                metadata={"Date": None} if fmt == "svg" else None)
                files[fmt] = buffer.getvalue()
            return {"title": title_of(fig), "png": base64.b64encode(files["png"]).decode("ascii"),
                    "svg": files["svg"].decode("utf-8")}
        except Exception as error:  # reported by tools.figures, not swallowed by IPython
            return {"error": f"{type(error).__name__}: {error}"}

    class FigureFiles(BaseFormatter):
        format_type = Unicode(mime)
        print_method = ObjectName("_evalkit_figure_files_")
        _return_type = dict

    shell = get_ipython()
    formatters = shell.display_formatter.formatters
    formatters[mime] = FigureFiles(parent=shell.display_formatter)
    formatters[mime].for_type(Figure, save)

    def keep_registered(*_):  # `%matplotlib inline` in a lesson would remove it again
        if Figure not in formatters[mime].type_printers:
            formatters[mime].for_type(Figure, save)

    shell.events.register("pre_run_cell", keep_registered)


def setup_cell_source(style: str, dpi: int = 150) -> str:
    """The code of the cell put before a lesson's first cell."""
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r}; expected one of {', '.join(STYLES)}")
    return (inspect.getsource(_kernel_setup) + f"\n_kernel_setup({style!r}, {dpi!r}, {MIME!r})\n"
            + "del _kernel_setup\n")


def slug(text: str, limit: int = 60) -> str:
    """A file-name part from a title: ASCII letters and digits, words joined by '-', at most ``limit``
    characters (cut at a word).

    >>> slug("BP = exp(1 - r/c) when c ≤ r, else 1")
    'bp-exp-1-r-c-when-c-r-else-1'
    >>> slug("Präzision: 90 %")
    'prazision-90'
    """
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[a-z0-9]+", ascii_text.lower())
    out = ""
    for word in words:
        candidate = f"{out}-{word}" if out else word
        if len(candidate) > limit:
            return out or word[:limit]
        out = candidate
    return out


def figure_outputs(nb) -> list[dict]:
    """The figure records in a lesson's cell outputs, in order (the injected cell has none)."""
    records = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {}) if output.get("output_type") in ("display_data", "execute_result") else {}
            if MIME in data:
                record = data[MIME]
                if "error" in record:
                    raise RuntimeError(f"a figure could not be saved: {record['error']}")
                records.append(record)
    return records


def write_figures(records, folder: Path) -> list[Path]:
    """fig-NN[-slug].png and .svg for each record; the folder's old fig-* files are removed first."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in list(folder.glob("fig-*.png")) + list(folder.glob("fig-*.svg")):
        old.unlink()
    width = max(2, len(str(len(records))))
    written = []
    for number, record in enumerate(records, start=1):
        name = f"fig-{number:0{width}d}" + (f"-{slug(record['title'])}" if slug(record["title"]) else "")
        png, svg = folder / f"{name}.png", folder / f"{name}.svg"
        png.write_bytes(base64.b64decode(record["png"]))
        svg.write_text(record["svg"], encoding="utf-8")
        written += [png, svg]
    return written


def execute(path: Path, style: str, *, timeout: int = CELL_TIMEOUT, cwd: Path | None = None):
    """A copy of the lesson at ``path`` executed with the style on; the file is not changed."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    run = copy.deepcopy(nb)
    run.cells.insert(0, nbformat.v4.new_code_cell(setup_cell_source(style)))
    # the kernel logs only errors: no warning about its local TCP ports for a teacher to worry about
    client = NotebookClient(run, timeout=timeout, kernel_name="python3", allow_errors=False,
                            extra_arguments=["--IPKernelApp.log_level=ERROR"],
                            resources={"metadata": {"path": str(cwd or path.parent)}})
    client.execute()
    return run


def find_lessons(names, folder: Path = NOTEBOOKS) -> list[Path]:
    """Lessons by path, file name, stem or number ("02"); none given: every notebooks/*.ipynb."""
    every = sorted(folder.glob("*.ipynb"))
    if not names:
        return every
    chosen = []
    for name in names:
        as_path = Path(name)
        if as_path.suffix == ".ipynb" and as_path.exists():
            chosen.append(as_path.resolve())
            continue
        matches = [p for p in every if p.stem == name or p.name == name or p.stem.split("-")[0] == name]
        if len(matches) != 1:
            raise SystemExit(f"no single lesson called {name!r} in {folder} "
                             f"(try a number such as 02 or a name such as {every[0].stem if every else '01-...'})")
        chosen.append(matches[0])
    return chosen


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.figures", description=__doc__.split("\n\n")[0])
    parser.add_argument("lessons", nargs="*", help="lessons to export (number, name or path); default: all")
    parser.add_argument("--out", default="figures", help="output folder (default: figures)")
    parser.add_argument("--style", choices=STYLES, default="projector",
                        help="evalkit.plots style switched on before the first cell (default: projector)")
    parser.add_argument("--timeout", type=int, default=CELL_TIMEOUT, help="seconds per cell (default: 600)")
    args = parser.parse_args(argv)
    lessons = find_lessons(args.lessons)
    out = Path(args.out)
    start, total, failed = time.perf_counter(), 0, []
    print(f"Exporting the figures of {len(lessons)} lesson(s) in the {args.style} style to {out}/ ...", flush=True)
    for path in lessons:
        began = time.perf_counter()
        try:
            # the lessons open their data relative to notebooks/, wherever the file itself is
            executed = execute(path, args.style, timeout=args.timeout, cwd=NOTEBOOKS)
            records = figure_outputs(executed)
            write_figures(records, out / path.stem)
        except Exception as error:  # one broken lesson does not stop the others
            failed.append(path.stem)
            message = str(error).strip().splitlines()
            print(f"{path.stem}: FAILED after {time.perf_counter() - began:.1f} s: "
                  f"{message[-1] if message else type(error).__name__}", flush=True)
            continue
        total += len(records)
        print(f"{path.stem}: {len(records)} figure{'s' if len(records) != 1 else ''}, "
              f"{time.perf_counter() - began:.1f} s", flush=True)
    print(f"{total} figures from {len(lessons) - len(failed)} lesson(s) in {time.perf_counter() - start:.1f} s "
          f"-> {out}/", flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
