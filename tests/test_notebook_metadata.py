"""tools/notebook_metadata.py (issue 31, item 4): the lessons store the kernel spec JupyterLab writes when it
opens them, so that a plain open leaves a stored notebook as it is.

``test_every_lesson_stores_the_kernelspec_jupyterlab_writes`` checks the notebooks themselves: it fails until
``python -m tools.notebook_metadata`` has been run on them once (then commit notebooks/); after that it fails
only when a lesson is saved by a tool that writes another kernel spec.
"""

from __future__ import annotations

import difflib
import json

import pytest

from tools import lessons, notebook_metadata

LESSONS = lessons.lesson_files()


def test_the_spec_is_the_installed_kernels_as_ipykernel_defines_it():
    from ipykernel.kernelspec import get_kernel_dict

    spec = notebook_metadata.kernelspec()
    own = get_kernel_dict()  # what ipykernel writes into its kernel.json
    assert spec == {"display_name": own["display_name"], "language": own["language"], "name": "python3"}
    assert spec["display_name"] == "Python 3 (ipykernel)"  # the name the lecturer saw JupyterLab write


def test_only_the_kernelspec_lines_change_and_a_second_run_changes_nothing():
    spec = notebook_metadata.kernelspec()
    nb = {"cells": [{"cell_type": "markdown", "id": "x1", "metadata": {}, "source": ["# Ünïcode ✓\n", "text"]}],
          "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                       "language_info": {"name": "python", "version": "3.11.7"}},
          "nbformat": 4, "nbformat_minor": 5}
    text = notebook_metadata.dumps(nb)
    new = notebook_metadata.with_kernelspec(text, spec)
    changed = [line for line in difflib.ndiff(text.splitlines(), new.splitlines()) if line[:1] in "+-"]
    assert changed == ['-    "display_name": "Python 3",', '+    "display_name": "Python 3 (ipykernel)",'], changed
    assert notebook_metadata.with_kernelspec(new, spec) == new
    assert "Ünïcode ✓" in new  # written as nbformat writes, not escaped
    with pytest.raises(ValueError, match="not a notebook"):
        notebook_metadata.with_kernelspec("[]", spec)


def test_the_lessons_are_stored_as_nbformat_writes_them():
    """The tool rewrites a lesson with json.dumps as nbformat does: this must reproduce every stored lesson
    byte for byte (else running it would change more than the kernel spec)."""
    for path in LESSONS:
        text = path.read_text(encoding="utf-8")
        assert notebook_metadata.dumps(json.loads(text)) == text, path.name


def test_every_lesson_stores_the_kernelspec_jupyterlab_writes():
    """FAILS until `python -m tools.notebook_metadata` has been run once on notebooks/ (issue 31, item 4)."""
    spec = notebook_metadata.kernelspec()
    differ = [p.name for p in LESSONS if json.loads(p.read_text(encoding="utf-8"))["metadata"].get("kernelspec") != spec]
    assert not differ, (f"these lessons store another kernel spec than {spec}, so opening them in JupyterLab "
                        f"rewrites them: run `python -m tools.notebook_metadata` and commit notebooks/: {differ}")


def test_the_command_line_checks_and_writes(tmp_path, capsys):
    nb = tmp_path / "01-x.ipynb"
    nb.write_text(notebook_metadata.dumps({"cells": [], "metadata": {"kernelspec": {"name": "python3"}},
                                           "nbformat": 4, "nbformat_minor": 5}), encoding="utf-8")
    assert notebook_metadata.main(["--check", str(nb)]) == 1 and "kernelspec is not" in capsys.readouterr().out
    assert notebook_metadata.main([str(nb)]) == 0 and "written into 1 notebooks" in capsys.readouterr().out
    assert notebook_metadata.main(["--check", str(nb)]) == 0
