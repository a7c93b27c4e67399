"""``make lab``: JupyterLab on a folder of lessons, started quietly.

A student should see a few lines they can act on, not the server's log: JupyterLab's own start-up prints a
token banner at the CRITICAL level ("[C ...]"), warnings about ports and extensions, and the web page then
asks whether to fetch Jupyter's news.  This starter

- writes the server's whole log to ``.venv/lab.log`` and prints three lines: where the lessons are, the
  address to open (with its token) and how to stop;
- switches off the news question and the update check (``tools/jupyter_config/labconfig/page_config.json``
  disables the ``@jupyterlab/apputils-extension:announcements`` plugin; nothing is fetched);
- when the server does not come up (a port in use, say), prints the end of the log and what to try.

    python -m tools.lab --dir exercises --port 8888
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = Path(__file__).resolve().parent / "jupyter_config"
NEWS_PLUGIN = "@jupyterlab/apputils-extension:announcements"


def lab_command(folder: Path, port: int, token: str, open_browser: bool = True) -> list[str]:
    command = [
        sys.executable, "-m", "jupyterlab",
        f"--notebook-dir={folder}", f"--port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        f"--ServerApp.open_browser={open_browser}",
    ]
    if hasattr(os, "getuid") and os.getuid() == 0:
        command.append("--allow-root")
    return command


def lab_environment() -> dict[str, str]:
    """The environment for the server: the project's Jupyter configuration first on the search path."""
    env = dict(os.environ)
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(p for p in (str(CONFIG), env.get("JUPYTER_CONFIG_PATH", "")) if p)
    return env


def wait_until_up(port: int, token: str, server: subprocess.Popen, timeout: float = 120.0) -> bool:
    """True once the server answers on ``port``; False if it exits or ``timeout`` seconds pass."""
    url = f"http://127.0.0.1:{port}/api/status?token={token}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return True
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.3)
    return False


def tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, default=ROOT / "notebooks", help="the folder to open")
    parser.add_argument("--port", type=int, default=8888)
    parser.add_argument("--log", type=Path, default=ROOT / ".venv" / "lab.log", help="the server's log")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser window")
    args = parser.parse_args(argv)
    folder = args.dir.resolve()
    if not folder.is_dir():
        print(f"{args.dir}/ does not exist (the student editions are made by `make exercises`)")
        return 2
    token = secrets.token_hex(16)
    args.log.parent.mkdir(parents=True, exist_ok=True)
    with open(args.log, "w", encoding="utf-8") as log:
        server = subprocess.Popen(lab_command(folder, args.port, token, not args.no_browser), cwd=folder,
                                  env=lab_environment(), stdout=log, stderr=subprocess.STDOUT)
    print(f"Starting JupyterLab on {args.dir}/ ...", flush=True)
    try:
        if not wait_until_up(args.port, token, server):
            server.terminate()
            server.wait(timeout=10)
            print(tail(args.log))
            print(f"JupyterLab did not start; the end of its log ({args.log}) is above. If the port is in use, "
                  f"try another: PORT={args.port + 1} make lab")
            return 1
        print(f"Open http://localhost:{args.port}/lab?token={token} in a browser (it may have opened already).")
        print(f"Stop with Ctrl-C. The server's log is in {args.log}.", flush=True)
        server.wait()
    except KeyboardInterrupt:
        print("\nStopping JupyterLab ...", flush=True)
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        print("JupyterLab stopped.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
