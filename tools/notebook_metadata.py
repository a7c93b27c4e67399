"""The lessons' kernel spec, written as JupyterLab writes it, so that opening a lesson does not rewrite it.

When JupyterLab opens a notebook and starts its kernel it sets the notebook's ``metadata.kernelspec`` to the
kernel's name and the ``display_name`` and ``language`` of the kernel's spec (for ipykernel's ``python3``:
"Python 3 (ipykernel)", "python").  A notebook stored with another display name ("Python 3", as written by
hand or by older tools) is changed by a plain open, autosave writes it, and the file differs from git's.  This
tool writes that spec into each notebook, read from the installed kernel (``jupyter_client``'s kernel spec
manager), and nothing else: the rest of the file keeps its bytes (the notebooks are stored as nbformat writes
them: sorted keys, one-space indent, a final newline).

    python -m tools.notebook_metadata            # every notebooks/*.ipynb, rewritten where needed
    python -m tools.notebook_metadata --check    # exit 1 and list the notebooks that differ; write nothing

``metadata.language_info`` (the Python version among it) is left as the last execution wrote it: JupyterLab
writes the running kernel's, which is the same on a machine with the same Python.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tools.lessons import lesson_files

KERNEL = "python3"


def kernelspec(name: str = KERNEL) -> dict[str, str]:
    """The ``metadata.kernelspec`` JupyterLab writes for the installed kernel ``name``."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        spec = KernelSpecManager().get_kernel_spec(name)
    except NoSuchKernel:
        raise SystemExit(f"no Jupyter kernel named {name!r} is installed (ipykernel installs python3): run "
                         "`make lab` or `make test` first") from None
    return {"display_name": spec.display_name, "language": spec.language, "name": name}


def dumps(nb: dict) -> str:
    """A notebook's JSON as nbformat (and so JupyterLab's server) writes it."""
    return json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def with_kernelspec(text: str, spec: dict[str, str]) -> str:
    """The notebook ``text`` with its kernelspec set to ``spec``; the same text when it already is."""
    nb = json.loads(text)
    if not isinstance(nb, dict) or not isinstance(nb.get("metadata"), dict):
        raise ValueError("not a notebook: no metadata object at the top level")
    if nb["metadata"].get("kernelspec") == spec:
        return text
    nb["metadata"]["kernelspec"] = dict(spec)
    return dumps(nb)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="notebooks (default: every notebooks/*.ipynb)")
    parser.add_argument("--check", action="store_true", help="list the notebooks that differ; write nothing")
    args = parser.parse_args(argv)
    spec = kernelspec()
    differ = []
    for path in args.notebooks or lesson_files():
        text = path.read_text(encoding="utf-8")
        new = with_kernelspec(text, spec)
        if new != text:
            differ.append(path)
            if not args.check:
                path.write_text(new, encoding="utf-8", newline="\n")
    if args.check:
        for path in differ:
            print(f"{path}: kernelspec is not {spec}")
        return 1 if differ else 0
    print(f"kernelspec {spec} written into {len(differ)} notebooks" + (": " + ", ".join(p.name for p in differ)
                                                                       if differ else " (all were right)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
