"""tools.figures (``make figures``): a lesson's figures as PNG and SVG, named by lesson and figure, in the
style asked for, with the notebook on disk untouched.  A tiny synthetic lesson keeps this fast."""

from __future__ import annotations

import base64
import hashlib
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from PIL import Image

from tools import figures

ROOT = Path(__file__).resolve().parent.parent


def make_figures(*args: str) -> subprocess.CompletedProcess:
    """``python -m tools.figures ARGS`` in its own process, as ``make figures`` runs it (a kernel client in
    pytest's own process shares its state with every test before it)."""
    return subprocess.run([sys.executable, "-m", "tools.figures", "--timeout", "120", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)

CELLS = [
    "import matplotlib.pyplot as plt\nfrom evalkit import plots",
    "ax = plots.plot_brevity_penalty({'short': (2, 6)})\nplt.show()",
    "print('no figure here')",
    # a widget's output is not a figure: skipped (a figure captured by an ipywidgets.Output would be the real
    # case, but nbclient hangs now and then on Output's capture when several kernels start at once)
    "import ipywidgets\nipywidgets.IntSlider(value=3, description='inside a widget')",
    "fig, ax = plt.subplots()\nax.plot([1, 2, 3], [2, 1, 3])\nplt.show()",  # no title: fig-02 alone
]


@pytest.fixture(scope="module")
def lesson(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lesson")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# A tiny lesson")] + [nbformat.v4.new_code_cell(c) for c in CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = folder / "99-tiny-lesson.ipynb"
    nbformat.write(nb, path)
    return path


@pytest.fixture(scope="module")
def exported(lesson, tmp_path_factory):
    """The tiny lesson exported in both styles through the command line: style -> (folder, printed, digest
    and mtime of the notebook before, after)."""
    runs = {}
    for style in ("projector", "default"):
        before = (hashlib.sha256(lesson.read_bytes()).hexdigest(), lesson.stat().st_mtime_ns)
        out = tmp_path_factory.mktemp(style)
        done = make_figures("--out", str(out), "--style", style, str(lesson))
        assert done.returncode == 0, done.stdout + done.stderr
        after = (hashlib.sha256(lesson.read_bytes()).hexdigest(), lesson.stat().st_mtime_ns)
        runs[style] = (out / lesson.stem, done.stdout, before, after)
    return runs


def test_two_figures_make_four_files_with_deterministic_names(exported):
    for style in ("projector", "default"):
        folder, printed, _, _ = exported[style]
        assert sorted(p.name for p in folder.iterdir()) == [
            "fig-01-bp-exp-1-r-c-when-c-r-else-1.png", "fig-01-bp-exp-1-r-c-when-c-r-else-1.svg",
            "fig-02.png", "fig-02.svg"], style
        assert re.search(r"^99-tiny-lesson: 2 figures, \d+\.\d s$", printed, re.M), printed
        for png in folder.glob("*.png"):
            with Image.open(png) as image:
                assert image.format == "PNG" and image.info["dpi"] == pytest.approx((150, 150), abs=0.5)
        for svg in folder.glob("*.svg"):
            text = svg.read_text()
            assert text.lstrip().startswith("<?xml") and "<svg" in text
            assert "<dc:date>" not in text  # the same figure gives the same file


def png_size(folder):
    with Image.open(folder / "fig-01-bp-exp-1-r-c-when-c-r-else-1.png") as image:
        return image.size


def svg_text_sizes(path):
    """The font sizes in the SVG: matplotlib draws text as glyph paths scaled by size / 100."""
    return sorted({round(100 * float(s), 2) for s in re.findall(r"scale\(([0-9.]+) -\1\)", path.read_text())})


def test_the_style_is_applied(exported):
    projector, default = exported["projector"][0], exported["default"][0]
    # the plotting functions draw at plots.SLIDES (6 x 3.5 in) under the projector style, else 7 x 4 in;
    # the saved PNG is cropped to what was drawn, at 150 dpi
    (pw, ph), (dw, dh) = png_size(projector), png_size(default)
    assert 820 <= pw <= 6 * 150 + 15 and 450 <= ph <= 3.5 * 150 + 15, (pw, ph)
    assert 960 <= dw <= 7 * 150 + 15 and 520 <= dh <= 4 * 150 + 15, (dw, dh)
    # every text 1.6 times larger: 16 pt instead of 10 pt tick labels, 19.2 instead of 12 pt titles
    p_sizes = svg_text_sizes(projector / "fig-01-bp-exp-1-r-c-when-c-r-else-1.svg")
    d_sizes = svg_text_sizes(default / "fig-01-bp-exp-1-r-c-when-c-r-else-1.svg")
    assert d_sizes and p_sizes == [round(1.6 * s, 2) for s in d_sizes], (d_sizes, p_sizes)
    assert 10.0 in d_sizes and 16.0 in p_sizes


def test_the_notebook_on_disk_is_unchanged(exported, lesson):
    for style in ("projector", "default"):
        _, _, before, after = exported[style]
        assert before == after, style
    assert "outputs" not in nbformat.read(lesson, 4).cells[2] or not nbformat.read(lesson, 4).cells[2].outputs


def test_the_setup_cell_shows_nothing_and_the_figures_follow_the_lesson(lesson, tmp_path):
    script = ("import sys, nbformat\nfrom pathlib import Path\nfrom tools import figures\n"
              "nbformat.write(figures.execute(Path(sys.argv[1]), 'default'), sys.argv[2])\n")
    done = subprocess.run([sys.executable, "-c", script, str(lesson), str(tmp_path / "run.ipynb")], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    run = nbformat.read(tmp_path / "run.ipynb", 4)
    assert run.cells[0].outputs == []  # the injected cell
    assert [c.source for c in run.cells[1:]] == [c.source for c in nbformat.read(lesson, 4).cells]
    records = figures.figure_outputs(run)
    assert [r["title"] for r in records] == ["BP = exp(1 - r/c) when c ≤ r, else 1", ""]
    # the inline PNG a notebook shows is still there beside each record
    shown = [o for c in run.cells for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
    assert len(shown) == 2 and all(figures.MIME in o["data"] for o in shown)


def test_write_figures_replaces_old_files_and_numbers_in_order(tmp_path):
    png = base64.b64encode(b"\x89PNG fake").decode()
    (tmp_path / "fig-07-old.png").write_bytes(b"old")
    (tmp_path / "notes.txt").write_text("kept")
    written = figures.write_figures([{"title": "Scores: BLEU vs chrF", "png": png, "svg": "<svg/>"},
                                     {"title": "", "png": png, "svg": "<svg/>"}], tmp_path)
    assert [p.name for p in written] == ["fig-01-scores-bleu-vs-chrf.png", "fig-01-scores-bleu-vs-chrf.svg",
                                         "fig-02.png", "fig-02.svg"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([p.name for p in written] + ["notes.txt"])


def test_a_figure_that_could_not_be_saved_is_an_error():
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("")
    cell.outputs = [nbformat.v4.new_output("display_data", data={figures.MIME: {"error": "ValueError: boom"}})]
    nb.cells = [cell]
    with pytest.raises(RuntimeError, match="boom"):
        figures.figure_outputs(nb)


def test_slug_and_lesson_names():
    assert figures.slug("BP = exp(1 - r/c) when c ≤ r, else 1") == "bp-exp-1-r-c-when-c-r-else-1"
    assert figures.slug("") == "" and figures.slug("≤ ≥") == ""
    assert len(figures.slug("word " * 40)) <= 60
    lessons = figures.find_lessons([])
    assert lessons == sorted(figures.NOTEBOOKS.glob("*.ipynb")) and len(lessons) >= 13
    assert figures.find_lessons(["02"]) == figures.find_lessons(["02-brevity-penalty"]) == \
        [figures.NOTEBOOKS / "02-brevity-penalty.ipynb"]
    with pytest.raises(SystemExit, match="no single lesson"):
        figures.find_lessons(["99"])
    with pytest.raises(ValueError, match="unknown style"):
        figures.setup_cell_source("dark")


def test_a_failing_lesson_is_reported_and_the_others_still_run(tmp_path, lesson):
    broken = tmp_path / "98-broken.ipynb"
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("raise ValueError('this lesson is broken')")]
    nbformat.write(nb, broken)
    printed = make_figures("--out", str(tmp_path / "out"), "--style", "default", str(broken), str(lesson))
    assert printed.returncode == 1, printed.stdout + printed.stderr
    assert re.search(r"^98-broken: FAILED after \d+\.\d s: .*this lesson is broken", printed.stdout, re.M), printed.stdout
    assert re.search(r"^99-tiny-lesson: 2 figures", printed.stdout, re.M)
    assert "failed: 98-broken" in printed.stderr
    assert len(list((tmp_path / "out" / "99-tiny-lesson").glob("fig-*"))) == 4
