"""``make lab``'s starter, tools/lab.py: JupyterLab comes up on the folder asked for, the student reads three
lines (the folder, the address with its token, how to stop) and no server log, and the page does not ask
about Jupyter's news (the announcements plugin is disabled).  Issue 31: the teacher edition is served from a
working copy (a change made in class never reaches notebooks/); a taken port is named with what holds it;
SIGTERM (make killed) and SIGHUP (the terminal closed) stop the server."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from test_browser import free_port

from tools import lab

ROOT = Path(__file__).resolve().parent.parent


started_process: dict[int, subprocess.Popen] = {}  # port -> the starter of the ``started`` fixture


@pytest.fixture(scope="module")
def started(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lessons")
    (folder / "a.ipynb").write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    log = folder.parent / "lab.log"
    port = free_port()
    starter = subprocess.Popen(
        [sys.executable, "-m", "tools.lab", "--dir", str(folder), "--port", str(port), "--no-browser", "--log", str(log)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    started_process[port] = starter
    lines = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not any(line.startswith("Stop with Ctrl-C") for line in lines):
        line = starter.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
    try:
        yield folder, port, lines, log
    finally:
        if starter.poll() is None:
            starter.send_signal(2)  # Ctrl-C
            rest, _ = starter.communicate(timeout=90)  # a loaded machine can take long to stop a Jupyter server
            lines.extend(rest.splitlines())


def test_the_starter_prints_three_lines_and_no_server_log(started):
    folder, port, lines, log = started
    assert len(lines) == 3, lines
    assert lines[0].startswith("Starting JupyterLab on ")
    assert re.fullmatch(rf"Open http://localhost:{port}/lab\?token=[0-9a-f]{{32}} in a browser .*", lines[1]), lines[1]
    assert not any(re.match(r"\[[CWEI] ", line) for line in lines), lines
    # the server's own lines went to the log, its CRITICAL token banner among them or not, never to the student
    assert "ServerApp" in log.read_text(encoding="utf-8")


def test_the_lab_serves_the_folder_and_does_not_ask_for_news(started):
    folder, port, lines, _ = started
    token = re.search(r"token=([0-9a-f]+)", lines[1]).group(1)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/contents?token={token}", timeout=10) as response:
        names = [item["name"] for item in json.load(response)["content"]]
    assert names == ["a.ipynb"]
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/lab?token={token}", timeout=10) as response:
        page = response.read().decode()
    config = json.loads(re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', page, re.S).group(1))
    assert lab.NEWS_PLUGIN in config["disabledExtensions"], config["disabledExtensions"]


def test_a_port_held_by_a_jupyter_server_is_named_and_its_log_left_alone(started):
    """The lecturer's case: a JupyterLab left running on the port.  The second start says so at once, starts
    nothing and does not empty the log the first server still writes to."""
    folder, port, lines, log = started
    before = log.read_text(encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "tools.lab", "--dir", str(folder), "--port", str(port), "--no-browser", "--log", str(log)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.startswith(f"Port {port} is not available: "), done.stdout
    assert "a Jupyter server" in done.stdout and f"PORT={port + 1} make lab" in done.stdout
    if sys.platform.startswith("linux"):  # /proc names the process: the server the first starter started
        assert re.search(r"process \d+ \(\S*python\S* -m jupyterlab --notebook-dir=", done.stdout), done.stdout
    assert "Starting JupyterLab" not in done.stdout and "403" not in done.stdout
    assert log.read_text(encoding="utf-8").startswith(before)


def test_a_hang_up_stops_the_server(started):
    """SIGHUP (the terminal closed) to the starter: the server stops and the port is free again.  (Last of
    the tests that use ``started``.)"""
    folder, port, lines, log = started
    starter = started_process[port]
    starter.send_signal(signal.SIGHUP)
    rest, _ = starter.communicate(timeout=90)
    assert starter.returncode == 0 and "Stopping JupyterLab (SIGHUP)" in rest and "JupyterLab stopped." in rest, rest
    assert lab.port_is_free(port)


def test_a_port_in_use_gives_advice_not_a_traceback(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "tools.lab", "--dir", str(tmp_path), "--port", str(port), "--no-browser",
             "--log", str(tmp_path / "lab.log")],
            cwd=ROOT, capture_output=True, text=True, timeout=120,
        )
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"PORT={port + 1} make lab" in done.stdout and "Traceback" not in done.stdout + done.stderr
    assert f"Port {port} is not available" in done.stdout and "Jupyter" not in done.stdout
    if sys.platform.startswith("linux"):  # the listening socket is this test's: /proc names its process
        assert f"process {os.getpid()} (" in done.stdout, done.stdout
    assert not (tmp_path / "lab.log").exists()  # nothing started, no log emptied


def test_a_missing_folder_is_named():
    done = subprocess.run([sys.executable, "-m", "tools.lab", "--dir", "no-such-folder", "--no-browser"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "no-such-folder/ does not exist" in done.stdout


# ------------------------------------------------------------------------- the teacher's working copy

def lesson(path: Path, text: str) -> None:
    cells = [{"cell_type": "markdown", "id": "a1", "metadata": {}, "source": text},
             {"cell_type": "code", "id": "b2", "metadata": {}, "execution_count": None, "outputs": [], "source": "x = 1"}]
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1))


def test_the_teacher_copy_keeps_the_teachers_changes_and_never_writes_the_lessons(tmp_path):
    lessons, copy = tmp_path / "notebooks", tmp_path / "teacher-copy"
    lessons.mkdir()
    lesson(lessons / "01-a.ipynb", "# A")
    lesson(lessons / "02-b.ipynb", "# B")
    originals = {p.name: p.read_bytes() for p in lessons.iterdir()}
    assert lab.teacher_copy(lessons, copy) == (["01-a.ipynb", "02-b.ipynb"], [])
    assert {p.name: p.read_bytes() for p in copy.glob("*.ipynb")} == originals
    assert lab.teacher_copy(lessons, copy) == ([], [])  # nothing to do
    # in class: lesson 01 edited, lesson 02 only run (outputs and counts stored, metadata rewritten)
    edited = json.loads((copy / "01-a.ipynb").read_text())
    edited["cells"][1]["source"] = "x = 2  # a student's sentence"
    (copy / "01-a.ipynb").write_text(json.dumps(edited))
    ran = json.loads((copy / "02-b.ipynb").read_text())
    ran["cells"][1].update(execution_count=1, outputs=[{"output_type": "stream", "name": "stdout", "text": "1\n"}])
    ran["metadata"]["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    (copy / "02-b.ipynb").write_text(json.dumps(ran))
    (copy / ".ipynb_checkpoints").mkdir()
    assert {p.name: p.read_bytes() for p in lessons.iterdir()} == originals  # the lessons never change
    # the lessons are updated (git pull): the untouched copy follows, the edited one is kept
    lesson(lessons / "01-a.ipynb", "# A, revised")
    lesson(lessons / "02-b.ipynb", "# B, revised")
    lesson(lessons / "03-c.ipynb", "# C")
    assert lab.teacher_copy(lessons, copy) == (["02-b.ipynb", "03-c.ipynb"], ["01-a.ipynb"])
    assert "a student's sentence" in (copy / "01-a.ipynb").read_text()
    assert (copy / "02-b.ipynb").read_bytes() == (lessons / "02-b.ipynb").read_bytes()
    # a lesson deleted from the copy comes back as it is
    (copy / "01-a.ipynb").unlink()
    assert lab.teacher_copy(lessons, copy) == (["01-a.ipynb"], [])
    assert (copy / "01-a.ipynb").read_bytes() == (lessons / "01-a.ipynb").read_bytes()


def test_make_lab_teacher_serves_a_copy_and_stops_when_make_is_killed(tmp_path):
    """Issue 31, items 4 and 5, end to end through the Makefile (its install step skipped with ``-o install``):
    ``make lab EDITION=teacher`` serves the working copy, a notebook saved through JupyterLab's API lands in
    the copy and not in the lessons, and SIGTERM to make's own process (the lecturer's ``kill``) stops the
    server: the port is free again."""
    if shutil.which("make") is None:
        pytest.skip("no make on this machine (the starter itself is tested above)")
    lessons, copy, log = tmp_path / "notebooks", tmp_path / "teacher-copy", tmp_path / "lab.log"
    lessons.mkdir()
    lesson(lessons / "01-a.ipynb", "# A")
    original = (lessons / "01-a.ipynb").read_bytes()
    port = free_port()
    make = subprocess.Popen(
        ["make", "--no-print-directory", "-o", "install", "lab", f"VENV={Path(sys.executable).parent.parent}",
         "EDITION=teacher", f"PORT={port}",
         f"LAB_ARGS=--no-browser --log {log} --lessons {lessons} --teacher-copy {copy}"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not any(line.startswith("Stop with") for line in lines):
            line = make.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
        assert lines and lines[-1].startswith("Stop with"), lines
        assert f"Starting JupyterLab on {copy}/ ..." in lines, lines
        token = re.search(r"token=([0-9a-f]+)", "\n".join(lines)).group(1)
        api = f"http://127.0.0.1:{port}/api/contents/01-a.ipynb?token={token}"
        with urllib.request.urlopen(api, timeout=10) as response:
            model = json.load(response)
        model["content"]["cells"][0]["source"] = "# A, changed in class"
        request = urllib.request.Request(api, method="PUT", data=json.dumps(
            {"type": "notebook", "format": "json", "content": model["content"]}).encode(),
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200
        assert "changed in class" in (copy / "01-a.ipynb").read_text()
        assert (lessons / "01-a.ipynb").read_bytes() == original
        make.send_signal(signal.SIGTERM)  # kill <make's PID>
        rest, _ = make.communicate(timeout=90)
        assert "Stopping JupyterLab (SIGTERM)" in rest, rest
        deadline = time.monotonic() + 30
        while not lab.port_is_free(port) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert lab.port_is_free(port), f"the server outlived make: {lab.port_taken_message(port)}"
    finally:
        if make.poll() is None:
            make.kill()
            make.communicate(timeout=30)
