"""``make lab``: JupyterLab on a working copy of the lessons, started quietly, stopped however it is stopped.

    python -m tools.lab                      # the student editions (exercises/, made if missing)
    python -m tools.lab --edition teacher    # the lessons with their answers, from a working copy
    python -m tools.lab --dir FOLDER --port 8888

What it opens:

- **student** (the default): ``exercises/``, the student editions, written by ``tools.exercises`` when the
  folder is missing.
- **teacher**: ``teacher-copy/``, a working copy of ``notebooks/`` (see :func:`teacher_copy`).  Opening a
  lesson, Run All and autosave write into the copy, never into ``notebooks/``, so nothing done in class
  reaches ``make exercises``, ``make site`` or ``make test``.  A lesson the teacher changed in the copy is
  kept as it is; an untouched one is refreshed when its lesson changes; delete the copy to start afresh.

How it runs:

- the server's whole log goes to ``.venv/lab.log``; the student reads three lines: where the lessons are,
  the address to open (with its token) and how to stop;
- the news question and the update check are off (``tools/jupyter_config/labconfig/page_config.json``
  disables the ``@jupyterlab/apputils-extension:announcements`` plugin; nothing is fetched);
- before starting, the port is checked: when something listens on it the starter says so, names the process
  when it can (its id and command; on Linux from /proc, elsewhere from ``lsof``), says whether it is a
  Jupyter server (one left running by an earlier ``make lab``, say), and starts nothing (the log of that
  other server is left alone);
- Ctrl-C, SIGTERM (``kill``, or make itself killed: the Makefile ``exec``s this starter, so make's signal
  reaches it) and SIGHUP (the terminal closed) all stop the server before the starter exits; on Linux the
  server is also told to stop if the starter dies without a word (SIGKILL);
- when the server does not come up, the end of its log and what to try.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = Path(__file__).resolve().parent / "jupyter_config"
NEWS_PLUGIN = "@jupyterlab/apputils-extension:announcements"
EDITIONS = ("student", "teacher")
STUDENT_FOLDER = ROOT / "exercises"
TEACHER_FOLDER = ROOT / "teacher-copy"


class Stop(Exception):
    """A signal asked the starter to stop (SIGTERM, SIGHUP)."""


# ------------------------------------------------------------------------------------------ the folders

def teacher_copy(lessons: Path, copy: Path) -> tuple[list[str], list[str]]:
    """Make or update ``copy``, a working copy of every lesson in ``lessons``; returns (the lessons copied or
    refreshed, the lessons kept because they were changed in the copy).

    A lesson missing from the copy is copied.  One present is compared with what was copied (the record in
    ``copy/.evalkit-made.json``, by its cells' sources: running cells and saving is not a change): changed,
    or there before any record, it is the teacher's and is kept; untouched, it is refreshed when its lesson
    in ``lessons`` changed since it was copied.  ``lessons`` is only read."""
    import hashlib

    from tools.lessons import content_digest, lesson_files, read_made, record_made

    copy.mkdir(parents=True, exist_ok=True)
    made = read_made(copy) or {"files": {}, "sources": {}}
    files, sources = made["files"], made.setdefault("sources", {})
    copied, kept = [], []
    for source in lesson_files(lessons):
        name, target = source.name, copy / source.name
        source_digest = hashlib.sha256(source.read_bytes()).hexdigest()
        if target.exists():
            if name not in files or content_digest(target) != files[name]:
                kept.append(name)
                continue
            if sources.get(name) == source_digest:
                continue  # the lesson has not changed since it was copied: the copy stays, outputs and all
        shutil.copyfile(source, target)
        files[name], sources[name] = content_digest(target), source_digest
        copied.append(name)
    record_made(copy, files, sources=sources)
    return copied, kept


def shown(path: Path) -> str:
    """``path`` as the student reads it: relative to the current folder when inside it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def prepare(edition: str, lessons: Path | None = None, student: Path = STUDENT_FOLDER,
            teacher: Path = TEACHER_FOLDER) -> Path:
    """The folder JupyterLab opens for ``edition``, made or updated first."""
    from tools.lessons import NOTEBOOKS, lesson_files

    lessons = NOTEBOOKS if lessons is None else lessons
    if edition == "student":
        if not student.is_dir():
            from tools import exercises

            exercises.build(lesson_files(lessons), student)
            print(f"Wrote the student editions into {shown(student)}/.")
        return student
    if edition == "teacher":
        copied, kept = teacher_copy(lessons, teacher)
        if copied:
            print(f"Copied {len(copied)} lessons into {shown(teacher)}/, the teacher's working copy (notebooks/ is not "
                  "opened, so nothing done in class changes the lessons).")
        if kept:
            print(f"Kept {len(kept)} lessons you changed in {shown(teacher)}/ ({', '.join(kept)}); delete one to get "
                  "the lesson back as it is in notebooks/.")
        return teacher
    raise ValueError(f"edition must be {' or '.join(EDITIONS)}, not {edition!r}")


# --------------------------------------------------------------------------------------------- the port

def port_is_free(port: int) -> bool:
    """True when nothing listens on ``port`` of this machine and a server may bind it."""
    for family, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
        try:
            with socket.socket(family, socket.SOCK_STREAM) as probe:
                probe.settimeout(1)
                if probe.connect_ex((host, port)) == 0:
                    return False
        except OSError:  # no IPv6 here
            pass
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            if os.name != "nt":
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
            probe.bind(("127.0.0.1", port))
    except OSError:
        return False
    return True


def _listening_inodes(port: int) -> set[str]:
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 9 and fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(fields[9])
    return inodes


def listening_process(port: int) -> tuple[int, str] | None:
    """(process id, command line) of the process listening on ``port``, when the system lets us see it
    (Linux's /proc for our own processes; ``lsof`` elsewhere); None otherwise."""
    inodes = _listening_inodes(port)
    if inodes:
        wanted = {f"socket:[{inode}]" for inode in inodes}
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                if any(os.readlink(fd) in wanted for fd in (proc / "fd").iterdir()):
                    command = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
                    return int(proc.name), command
            except OSError:  # gone, or another user's
                continue
        return None
    if shutil.which("lsof"):
        try:
            found = subprocess.run(["lsof", "-nP", f"-iTCP:{port}", "-sTCP:LISTEN", "-Fpc"], capture_output=True,
                                   text=True, timeout=10).stdout
        except (OSError, subprocess.TimeoutExpired):
            return None
        pid, name = re.search(r"^p(\d+)", found, re.M), re.search(r"^c(.+)", found, re.M)
        if pid:
            return int(pid.group(1)), name.group(1) if name else "?"
    return None


def is_jupyter(port: int) -> bool:
    """True when what answers on ``port`` is a Jupyter server (it answers /api/status, with or without a
    token: 200 or 403 and Jupyter's JSON)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=3) as response:
            return b"started" in response.read() or "jupyter" in response.headers.get("Server", "").lower()
    except urllib.error.HTTPError as error:
        return error.code == 403 and b"Forbidden" in error.read() or "Tornado" in error.headers.get("Server", "")
    except (urllib.error.URLError, OSError, ValueError):
        return False


def port_taken_message(port: int) -> str:
    """What the student reads when ``port`` is taken: by what, and what to do."""
    owner = listening_process(port)
    jupyter = is_jupyter(port)
    what = f"process {owner[0]} ({shorten(owner[1])})" if owner else "another program"
    if jupyter:
        what += ", a Jupyter server (perhaps one an earlier `make lab` left running)"
    stop = f"stop it (kill {owner[0]}), or " if owner else ""
    return (f"Port {port} is not available: {what} is listening on it. Nothing was started. To go on, "
            f"{stop}use another port: PORT={port + 1} make lab (or python -m tools.lab --port {port + 1}).")


def shorten(command: str, width: int = 100) -> str:
    return command if len(command) <= width else command[:width - 3] + "..."


# ------------------------------------------------------------------------------------------- the server

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


def _die_with_parent() -> None:  # pragma: no cover - runs in the child, between fork and exec
    """Linux: the server gets SIGTERM when the starter dies, even by SIGKILL."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def start_server(command: list[str], folder: Path, log) -> subprocess.Popen:
    """The server, in its own process group (a Ctrl-C or a hang-up reaches the starter only, which then stops
    the server the one way it knows)."""
    options = {}
    if os.name == "posix":
        options["start_new_session"] = True
        if sys.platform.startswith("linux"):
            options["preexec_fn"] = _die_with_parent
    else:
        options["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
    return subprocess.Popen(command, cwd=folder, env=lab_environment(), stdout=log, stderr=subprocess.STDOUT, **options)


def stop_server(server: subprocess.Popen, timeout: float = 15.0) -> None:
    if server.poll() is not None:
        return
    server.terminate()
    try:
        server.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=timeout)


def wait_until_up(port: int, token: str, server: subprocess.Popen, timeout: float = 120.0) -> bool:
    """True once our server (our token) answers on ``port``; False if it exits or ``timeout`` seconds pass."""
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


def _raise_stop(signum, frame):
    raise Stop(signal.Signals(signum).name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edition", choices=EDITIONS, default=None,
                        help="student (exercises/, the default) or teacher (a working copy of notebooks/)")
    parser.add_argument("--dir", type=Path, default=None, help="open this folder instead of an edition's")
    parser.add_argument("--lessons", type=Path, default=None, help="where the lessons are (default: notebooks/)")
    parser.add_argument("--teacher-copy", type=Path, default=TEACHER_FOLDER,
                        help="the teacher's working copy (default: teacher-copy/)")
    parser.add_argument("--port", type=int, default=8888)
    parser.add_argument("--log", type=Path, default=ROOT / ".venv" / "lab.log", help="the server's log")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser window")
    args = parser.parse_args(argv)
    if args.dir is not None:
        folder = args.dir
        if not folder.is_dir():
            print(f"{args.dir}/ does not exist (the student editions are made by `make exercises`)")
            return 2
    else:
        folder = prepare(args.edition or "student", args.lessons, teacher=args.teacher_copy)
    name = shown(folder)
    folder = folder.resolve()
    if not port_is_free(args.port):
        print(port_taken_message(args.port), flush=True)
        return 1
    token = secrets.token_hex(16)
    args.log.parent.mkdir(parents=True, exist_ok=True)
    handled = [s for s in ("SIGTERM", "SIGHUP") if hasattr(signal, s)]
    previous = {name: signal.signal(getattr(signal, name), _raise_stop) for name in handled}
    server = None
    try:
        with open(args.log, "w", encoding="utf-8") as log:
            server = start_server(lab_command(folder, args.port, token, not args.no_browser), folder, log)
        print(f"Starting JupyterLab on {name}/ ...", flush=True)
        if not wait_until_up(args.port, token, server):
            stop_server(server, timeout=10)
            print(tail(args.log))
            if not port_is_free(args.port):
                print(port_taken_message(args.port))
            print(f"JupyterLab did not start; the end of its log ({args.log}) is above. If the port is in use, "
                  f"try another: PORT={args.port + 1} make lab")
            return 1
        print(f"Open http://localhost:{args.port}/lab?token={token} in a browser (it may have opened already).")
        print(f"Stop with Ctrl-C. The server's log is in {args.log}.", flush=True)
        server.wait()
    except (KeyboardInterrupt, Stop) as stop:
        why = "" if isinstance(stop, KeyboardInterrupt) else f" ({stop})"
        print(f"\nStopping JupyterLab{why} ...", flush=True)
        if server is not None:
            stop_server(server)
        print("JupyterLab stopped.", flush=True)
    finally:
        if server is not None and server.poll() is None:
            stop_server(server)
        for name, handler in previous.items():
            signal.signal(getattr(signal, name), handler)
    return 0


if __name__ == "__main__":
    sys.exit(main())
