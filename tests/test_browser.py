"""Notebook 08 in a real browser: JupyterLab + Chromium, driven by Playwright.

What a learner does: open the lesson, run all cells, move the 4-gram weight slider with the keyboard, and
read the new BLEU score.  The test asserts that the figure on the page is the one evalkit computes for the
weights the page now shows.

- Chromium: Debian's ``/usr/bin/chromium`` (or ``$EVALKIT_CHROMIUM``).  Playwright cannot download its
  own browser here, so it is launched with ``executable_path``.
- Without Chromium the test is skipped with a message saying how to enable it; with ``CI=true`` or
  ``EVALKIT_REQUIRE_BROWSER=1`` (set by ``.ci/run``) a missing Chromium is a failure.
- JupyterLab runs from this Python environment on a free loopback port with a random token, in its own
  process group, with temporary config/data/runtime folders and a copy of the notebook in a temporary
  folder; the group is ended when the test ends.  On failure a screenshot goes to ``tests/artifacts/``.
"""

from __future__ import annotations

import json
import math
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tools.exercises import CHROMIUM_ARGS  # the headless, offline flags every Chromium here starts with

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "08-exploring-weights.ipynb"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM = os.environ.get("EVALKIT_CHROMIUM", "/usr/bin/chromium")
HOW_TO_ENABLE = (
    "install Chromium with `apt-get install chromium` (Debian/Ubuntu, as root) or point EVALKIT_CHROMIUM "
    "at a Chromium binary"
)


def browser_test_required() -> bool:
    """In CI (CI=true, or EVALKIT_REQUIRE_BROWSER=1 from .ci/run) the browser test must run."""
    return os.environ.get("CI", "").lower() == "true" or os.environ.get("EVALKIT_REQUIRE_BROWSER") == "1"


def require_chromium(what: str) -> str:
    """The Chromium binary for the browser test of ``what``, or a skip saying why it cannot run (a failure
    where the browser test is required)."""
    problem = None
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        problem = f"Chromium not found at {CHROMIUM}"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            problem = "the playwright package is not installed (it is pinned in requirements.txt: run `make install`)"
    if problem is None:
        return CHROMIUM
    if browser_test_required():
        pytest.fail(f"{problem}; the browser test is mandatory in CI: {HOW_TO_ENABLE}", pytrace=False)
    pytest.skip(f"{problem}: the browser test of {what} is skipped; to enable it, {HOW_TO_ENABLE}")


@pytest.fixture(scope="module")
def chromium() -> str:
    return require_chromium("notebook 08 in JupyterLab")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, timeout: float = 5.0):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return json.loads(response.read().decode() or "null")


def _processes_mentioning(text: str) -> list[int]:
    """Pids of live processes whose command line mentions ``text`` (the kernels we started name our
    temporary runtime folder in their connection-file argument)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if text in cmdline:
                pids.append(int(entry.name))
    return pids


def write_cleared_copy(source: Path, target: Path) -> None:
    """Copy a notebook without its stored outputs and widget state, so that every output on the page
    comes from running it in the browser."""
    import nbformat

    nb = nbformat.read(source, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nb.metadata.pop("widgets", None)
    nbformat.write(nb, target)


@pytest.fixture
def jupyter_lab(tmp_path, chromium):
    """A JupyterLab server on a copy of notebook 08; yields (base url, token, log path)."""
    workdir = tmp_path / "lessons"
    workdir.mkdir()
    write_cleared_copy(NOTEBOOK, workdir / NOTEBOOK.name)
    config, runtime, data_dir = tmp_path / "config", tmp_path / "runtime", tmp_path / "data"
    # No news or update checks from the test server (they would try the network).
    settings = config / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    tracker = config / "lab" / "user-settings" / "@jupyterlab" / "notebook-extension"
    tracker.mkdir(parents=True)
    (tracker / "tracker.jupyterlab-settings").write_text(json.dumps({"autoStartDefaultKernel": True}))
    env = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(config),
        JUPYTER_RUNTIME_DIR=str(runtime),
        JUPYTER_DATA_DIR=str(data_dir),
        IPYTHONDIR=str(tmp_path / "ipython"),
        MPLBACKEND="module://matplotlib_inline.backend_inline",
        PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p),
    )
    port, token = free_port(), secrets.token_hex(16)
    log_path = tmp_path / "jupyter.log"
    log = open(log_path, "wb")
    cmd = [
        sys.executable, "-m", "jupyterlab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={workdir}",
        "--LabApp.news_url=",
        "--ServerApp.open_browser=False",
        "--LabApp.extension_manager=readonly",  # no PyPI queries for extensions
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # CI containers run as root
    proc = subprocess.Popen(cmd, cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"JupyterLab exited with {proc.returncode}:\n{log_path.read_text(errors='replace')}")
            try:
                _get(f"{base}/api/status?token={token}")
                break
            except (urllib.error.URLError, ConnectionError, OSError):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"JupyterLab did not answer in 90 s:\n{log_path.read_text(errors='replace')}")
                time.sleep(0.5)
        yield base, token, log_path
    finally:
        # Shut the kernels down through the server (they run in sessions of their own), then end the
        # server's process group, and finally any kernel that still names our runtime folder.
        try:
            for kernel in _get(f"{base}/api/kernels?token={token}") or []:
                req = urllib.request.Request(f"{base}/api/kernels/{kernel['id']}?token={token}", method="DELETE")
                urllib.request.urlopen(req, timeout=10).close()
        except Exception:
            pass
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        log.close()
        for pid in _processes_mentioning(str(runtime)):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def expected_score_text(weights) -> str:
    """What evalkit computes for the explorer's first example (notebook 08: the rookie-numbers paraphrase,
    NLTKWordTokenizer, no smoothing, closest reference length) with these raw slider weights."""
    from nltk.tokenize import NLTKWordTokenizer

    from evalkit.bleu import sentence_bleu
    from evalkit.widgets import ROOKIE_PARAPHRASE, ROOKIE_REFERENCE

    tok = NLTKWordTokenizer()
    result = sentence_bleu(tok.tokenize(ROOKIE_PARAPHRASE), [tok.tokenize(ROOKIE_REFERENCE)], weights=weights)
    return f"BLEU = {result.score:.4f}"


def slider_value(explorer, n: int) -> float:
    """The value that the n-gram weight slider's readout shows (waiting until it shows a number)."""
    from playwright.sync_api import expect

    readout = explorer.locator(f".evalkit-weight-{n} .widget-readout")
    expect(readout).to_have_text(re.compile(r"^\s*\d+\.\d+\s*$"), timeout=30_000)
    return float(readout.text_content())


def test_moving_a_weight_slider_updates_bleu_in_jupyterlab(jupyter_lab, chromium):
    from playwright.sync_api import expect, sync_playwright

    base, token, log_path = jupyter_lab
    started = time.monotonic()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        # JupyterLab may ask which kernel to start: take the proposed one (Python 3), as a learner would.
        console = []
        page.on("console", lambda msg: console.append(f"{msg.type}: {msg.text}"))
        kernel_dialog = page.locator(".jp-Dialog").filter(has_text="Select Kernel")
        page.add_locator_handler(kernel_dialog, lambda d: d.get_by_role("button", name="Select").click())
        try:
            page.goto(f"{base}/lab/tree/{NOTEBOOK.name}?token={token}")
            # The notebook opens and its kernel starts.
            page.locator(".jp-Notebook").first.wait_for(timeout=90_000)
            expect(page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first).to_be_attached(
                timeout=90_000
            )
            # Click into the notebook (so the Run menu acts on it), then Run > Run All Cells, as a learner would.
            # On a loaded machine the first Run All can be lost while the kernel connects (CI saw the menu
            # act and no cell start): if no cell has started after a while, ask again, up to three times.
            started_running = page.locator(".jp-InputPrompt").filter(has_text=re.compile(r"\[(\*|\d+)\]"))
            for attempt in range(3):
                page.locator(".jp-Notebook .jp-Cell").first.click()
                page.locator(".lm-MenuBar-item", has_text="Run").first.click()
                page.locator(".lm-Menu-item:visible", has_text="Run All Cells").first.click()
                try:
                    expect(started_running.first).to_be_attached(timeout=45_000)
                    break
                except AssertionError:
                    if attempt == 2:
                        raise
                    print(f"Run All Cells started no cell in 45 s (attempt {attempt + 1}); asking again")
            # The last cell's output appears once every cell has run (the WMT17 counting takes a while).
            last_output = re.compile(r"3\. \S+: from rank \d+ to \d+")  # the answers cell, printed last
            expect(page.locator(".jp-OutputArea-output").filter(has_text=last_output).first).to_be_attached(
                timeout=240_000
            )

            explorer = page.locator(".evalkit-weights-explorer").first
            score = explorer.locator(".evalkit-bleu-score")
            explorer.scroll_into_view_if_needed()
            expect(score).to_have_text("BLEU = 0.0000", timeout=30_000)  # BLEU-4: p4 = 0/10
            weights_before = [slider_value(explorer, n) for n in range(1, 5)]
            assert all(math.isclose(w, 0.25) for w in weights_before), weights_before

            # Move w4 with the keyboard: focus the slider handle, press the left arrow five times (step 0.05).
            handle = explorer.locator(".evalkit-weight-4 .noUi-handle")
            w4 = explorer.locator(".evalkit-weight-4 .widget-readout")
            handle.focus()
            for _ in range(4):
                handle.press("ArrowLeft")
            expect(w4).to_have_text("0.05", timeout=30_000)
            expect(score).to_have_text(expected_score_text((0.25, 0.25, 0.25, 0.05)), timeout=30_000)
            # The last press is timed in the page: from the keydown to the new text in the score widget.
            score.evaluate(
                """el => {
                    window.evalkitLatency = null;
                    let t0 = null;
                    document.addEventListener('keydown', () => { t0 = performance.now(); }, {capture: true, once: true});
                    new MutationObserver((_, obs) => {
                        if (t0 !== null) { window.evalkitLatency = performance.now() - t0; obs.disconnect(); }
                    }).observe(el, {subtree: true, childList: true, characterData: true});
                }"""
            )
            handle.press("ArrowLeft")
            expect(w4).to_have_text("0.00", timeout=30_000)

            weights_after = [slider_value(explorer, n) for n in range(1, 5)]
            expected = expected_score_text(weights_after)
            assert expected != "BLEU = 0.0000"  # the figure must change: (1/3, 1/3, 1/3, 0) gives 0.2189
            expect(score).to_have_text(expected, timeout=30_000)
            expect(explorer).to_contain_text("(0.3333, 0.3333, 0.3333, 0.0000)")
            ARTIFACTS.mkdir(exist_ok=True)
            explorer.screenshot(path=str(ARTIFACTS / "notebook08-explorer.png"))  # for a reviewer's eyes
            latency_ms = page.evaluate("window.evalkitLatency")
            print(f"in the browser, key press to new BLEU on the page: {latency_ms:.0f} ms")
        except BaseException:
            ARTIFACTS.mkdir(exist_ok=True)
            shot = ARTIFACTS / f"browser-failure-{time.strftime('%Y%m%d-%H%M%S')}.png"
            try:
                page.screenshot(path=str(shot), full_page=True)
                print(f"screenshot saved to {shot}")
            except Exception as exc:  # the page itself may be gone
                print(f"could not save a screenshot: {exc}")
            print("browser console (last 30 messages):\n" + "\n".join(console[-30:]))
            print("JupyterLab log (last 3000 characters):\n" + log_path.read_text(errors="replace")[-3000:])
            raise
        finally:
            browser.close()
    print(f"browser test took {time.monotonic() - started:.1f} s")
