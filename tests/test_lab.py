"""``make lab``'s starter, tools/lab.py: JupyterLab comes up on the folder asked for, the student reads three
lines (the folder, the address with its token, how to stop) and no server log, and the page does not ask
about Jupyter's news (the announcements plugin is disabled)."""

from __future__ import annotations

import json
import re
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


def test_a_missing_folder_is_named():
    done = subprocess.run([sys.executable, "-m", "tools.lab", "--dir", "no-such-folder", "--no-browser"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "no-such-folder/ does not exist" in done.stdout
