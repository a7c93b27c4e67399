"""Re-make the self-check digests of lessons as salted scrypt digests: ``python -m tools.redigest NB ...``.

The lessons' self-checks (``check_answer(e1, "sha256:…")``, see ``evalkit.lesson``) once held unsalted
SHA-256 digests of the answers, which a student could invert by trying values.  A digest cannot be turned
into another without the answer, and the answer is whatever the lesson's solution cell computes, so this
tool runs each notebook (nbclient, kernel ``python3``, in the notebook's folder, evalkit from this
checkout) with ``$EVALKIT_RECORD_ANSWERS`` set: every ``check_answer`` then appends the digest it was given
and the canonical form of the answer that matched it (or none) to a file.  Each ``sha256:`` digest in the
notebook's cell sources (solution cells and any other cell alike) is then replaced by
``answer_digest``'s ``scrypt:`` digest of the same canonical answer, with a fresh salt.  Only the sources
change: the stored outputs (each check's "✓ Correct.") are kept as they are, and nothing else in the file.

A notebook is refused (left unchanged, named on stderr, exit status 1 at the end) when a cell fails, when a
check's answer did not match its digest, or when a digest in its sources was never checked while it ran.
``scrypt:`` digests already there are left alone.  Each new digest costs one scrypt key (about 0.2 s).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import re
import sys
import tempfile
from pathlib import Path

from evalkit import lesson

ROOT = Path(__file__).resolve().parent.parent
OLD_DIGEST = re.compile(r"sha256:[0-9a-f]{24}\b")


class Refused(Exception):
    """A notebook whose digests cannot be re-made (the message says why)."""


def old_digests(nb) -> list[str]:
    """The ``sha256:`` digests in the notebook's cell sources, each once, in order."""
    return list(dict.fromkeys(d for cell in nb.cells for d in OLD_DIGEST.findall(cell.source)))


def recorded_answers(nb, folder: Path, timeout: int = 1800) -> list[dict]:
    """Run a copy of ``nb`` in ``folder`` and return what its self-checks recorded, in order."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "answers.jsonl"
        saved = {name: os.environ.get(name) for name in (lesson.RECORD_ENV, "PYTHONPATH")}
        os.environ[lesson.RECORD_ENV] = str(record)
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), saved["PYTHONPATH"]) if p)
        try:
            client = NotebookClient(copy.deepcopy(nb), timeout=timeout, kernel_name="python3",
                                    resources={"metadata": {"path": str(folder)}})
            client.execute()
        except CellExecutionError as error:
            first = str(error).strip().splitlines()
            raise Refused(f"a cell failed while it ran: {first[-1] if first else error}") from None
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
        if not record.exists():
            return []
        return [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines() if line.strip()]


def new_digests(digests: list[str], records: list[dict]) -> dict[str, str]:
    """For each old digest, a scrypt digest of the answer recorded against it; Refused when one is missing
    or did not match."""
    answers: dict[str, str] = {}
    for entry in records:
        digest, answer = entry["digest"], entry["answer"]
        if digest not in digests:
            continue
        if answer is None:
            raise Refused(f"the answer checked against {digest} did not match it (the lesson prints ✗ there)")
        if answers.setdefault(digest, answer) != answer:
            # two readings of one answer on a half: either is the answer, keep the first
            continue
    missing = [d for d in digests if d not in answers]
    if missing:
        raise Refused(f"{len(missing)} digest(s) never checked while the notebook ran: {', '.join(missing)}")
    return {digest: lesson.digest_of_form(answers[digest]) for digest in digests}


def rewrite(nb, mapping: dict[str, str]) -> int:
    """Replace each old digest by its new one in every cell source; the number of replacements."""
    count = 0
    for cell in nb.cells:
        for old, new in mapping.items():
            if old in cell.source:
                count += cell.source.count(old)
                cell.source = cell.source.replace(old, new)
    return count


def redigest(path: Path) -> int:
    """Re-make the digests of one notebook in place; the number of digest strings replaced."""
    import nbformat

    path = Path(path)
    text = path.read_text(encoding="utf-8")
    nb = nbformat.reads(text, as_version=4)
    if nbformat.writes(nb) + "\n" != text:
        raise Refused("nbformat would not write it back byte for byte; re-save it with nbformat first")
    digests = old_digests(nb)
    if not digests:
        return 0
    mapping = new_digests(digests, recorded_answers(nb, path.resolve().parent))
    count = rewrite(nb, mapping)
    path.write_text(nbformat.writes(nb) + "\n", encoding="utf-8")
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.redigest", description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="+", type=Path, help="lessons to convert (notebooks/NN-*.ipynb)")
    args = parser.parse_args(argv)
    refused = 0
    total = 0
    for path in args.notebooks:
        try:
            count = redigest(path)
        except (Refused, OSError, ValueError) as error:
            refused += 1
            print(f"{path}: refused, left unchanged: {error}", file=sys.stderr, flush=True)
            continue
        total += count
        print(f"{path}: {count} digest(s) re-made", flush=True)
    print(f"{total} digest(s) re-made in {len(args.notebooks) - refused} notebook(s); {refused} refused", flush=True)
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
