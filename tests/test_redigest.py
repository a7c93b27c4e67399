"""tools.redigest: a lesson's sha256 self-check digests re-made as salted scrypt digests of the same answers."""

from __future__ import annotations

import hashlib
import re

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from evalkit import lesson
from evalkit.lesson import check_answer
from tools import redigest


def sha256_digest(canonical: str) -> str:
    """A digest of the older form, made here from its documented recipe (not by evalkit)."""
    return "sha256:" + hashlib.sha256(("evalkit answer\n" + canonical).encode()).hexdigest()[:24]


HALF = sha256_digest("0.0312")   # 0.3 / 9.6 = 0.03125, as the old digests rounded it
WORDS = sha256_digest("[cat, sat]")
WRONG = sha256_digest("0.5000")


def tiny_lesson(answer_a: str = "0.3 / 9.6") -> nbformat.NotebookNode:
    stored = [new_output("stream", name="stdout", text="✓ Correct.\n✓ Correct.\n")]
    return new_notebook(cells=[
        new_markdown_cell("# Tiny\n\n1. Compute 0.3 / 9.6 (four decimals)."),
        new_code_cell("from evalkit.lesson import check_answer", execution_count=1),
        new_code_cell(f'e1 = {answer_a}\ne2 = ["Cat", "sat"]\ncheck_answer(e1, "{HALF}", hint="divide")\n'
                      f'check_answer(e2, "{WORDS}")', metadata={"tags": ["solution"]}, outputs=stored,
                      execution_count=2),
        new_markdown_cell(f"The student edition checks with `check_answer(e1, \"{HALF}\")`."),
    ])


def write(nb, path):
    nbformat.write(nb, str(path))
    return path.read_text(encoding="utf-8")


def test_redigest_remakes_every_digest_and_keeps_the_outputs(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(lesson, "SCRYPT_LOG_N", 10)  # the new digests' cost; check_answer reads it from them
    good, bad = tmp_path / "01-tiny.ipynb", tmp_path / "02-wrong.ipynb"
    write(tiny_lesson(), good)
    before_bad = write(tiny_lesson(answer_a="0.0314"), bad)  # its answer does not match its digest
    assert redigest.main([str(good), str(bad)]) == 1
    out, err = capsys.readouterr()
    assert f"{good}: 3 digest(s) re-made" in out and "3 digest(s) re-made in 1 notebook(s); 1 refused" in out
    assert f"{bad}: refused, left unchanged: the answer checked against {HALF} did not match it" in err
    assert bad.read_text(encoding="utf-8") == before_bad

    after = nbformat.read(str(good), as_version=4)
    before = tiny_lesson()
    assert [c.outputs for c in after.cells if c.cell_type == "code"] == \
        [c.outputs for c in before.cells if c.cell_type == "code"]
    assert [c.metadata for c in after.cells] == [c.metadata for c in before.cells]
    sources = "\n".join(c.source for c in after.cells)
    assert "sha256:" not in sources
    new = re.findall(r"scrypt:ln10r8p1:[0-9a-f]{32}:[0-9a-f]{32}", sources)
    assert len(new) == 3 and len(set(new)) == 2  # e1's digest in the solution and in the markdown: one digest
    half, words = re.search(r'check_answer\(e1, "([^"]+)"', after.cells[2].source)[1], \
        re.search(r'check_answer\(e2, "([^"]+)"', after.cells[2].source)[1]
    assert f'`check_answer(e1, "{half}")`' in after.cells[3].source
    # the new digests hold the same answers
    for value, digest, verdict in [((0.1 + 0.2) / 9.6, half, "✓"), (0.0313, half, "✓"), (0.0314, half, "✗"),
                                   (("CAT", "sat"), words, "✓"), ("cat sat", words, "✗")]:
        check_answer(value, digest)
        assert capsys.readouterr().out.startswith(verdict), (value, digest)
    # run again: nothing left to convert, the file is not touched
    text = good.read_text(encoding="utf-8")
    assert redigest.main([str(good)]) == 0 and good.read_text(encoding="utf-8") == text


def test_a_digest_never_checked_or_checked_wrong_is_refused():
    records = [{"digest": HALF, "answer": "0.0313"}, {"digest": HALF, "answer": "0.0312"}]
    with pytest.raises(redigest.Refused, match=f"1 digest\\(s\\) never checked while the notebook ran: {WORDS}"):
        redigest.new_digests([HALF, WORDS], records)
    with pytest.raises(redigest.Refused, match="did not match"):
        redigest.new_digests([WRONG], [{"digest": WRONG, "answer": None}])


def test_the_old_digest_pattern_finds_every_form_and_nothing_else():
    nb = new_notebook(cells=[new_code_cell(f'check_answer(e1, "{HALF}")  # {HALF}\ncheck_answer(e2, "sha256:00")'),
                             new_markdown_cell(f"{WORDS} and scrypt:ln10r8p1:{'0' * 32}:{'0' * 32}")])
    assert redigest.old_digests(nb) == [HALF, WORDS]
