"""How much code a student reads along a formula: the read-path table of issue 29.

For one call (``sentence_bleu(hyp, [ref])``, say) this runs the call under ``sys.setprofile``, collects every
function of the measured package that executed, and counts the lines of those functions: source lines that are
not blank, not comments and not docstrings, each line once (a nested function inside an executed one is not
counted twice). evalkit's input checks (``evalkit/_checks.py``) are left out, as the issue asks; the peers
(NLTK, rouge-score) are measured the same way in the same run, their own package's files only (the standard
library is left out for both sides).

    python -m tools.read_path            # the table, evalkit and the peers
"""

from __future__ import annotations

import ast
import io
import sys
import tokenize
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

HYP = "the cat sat on the mat"
REF = "the cat is on the mat"


@lru_cache(maxsize=None)
def _countable_lines(filename: str) -> dict[int, tuple[int, int]]:
    """For each function in the file: first line -> (first line, last line), plus the set of lines that hold
    code (not blank, not only a comment, not a docstring), as a dict under the key 0."""
    source = Path(filename).read_text(encoding="utf-8")
    tree = ast.parse(source)
    code_lines = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
                            tokenize.ENDMARKER):
            code_lines.update(range(tok.start[0], tok.end[0] + 1))
    spans = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
                    and isinstance(body[0].value.value, str):
                code_lines.difference_update(range(body[0].lineno, body[0].end_lineno + 1))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            spans[node.lineno] = (first, node.end_lineno)
    spans[0] = code_lines  # type: ignore[assignment]
    return spans


def measure(call: Callable[[], object], keep: Callable[[str], bool]) -> tuple[int, int]:
    """(functions, lines) executed by call() in the files keep() accepts."""
    executed: set[tuple[str, int]] = set()

    def profile(frame, event, arg):
        if event == "call" and keep(frame.f_code.co_filename):
            executed.add((frame.f_code.co_filename, frame.f_code.co_firstlineno))

    call()  # warm: imports and caches filled before the measured call
    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    functions = 0
    lines: set[tuple[str, int]] = set()
    for filename, first in executed:
        spans = _countable_lines(filename)
        code = spans[0]
        # a comprehension, lambda or generator expression has no FunctionDef of its own: it is read as part of
        # the function around it, which is counted when it runs (it always does, to create it)
        span = spans.get(first)
        if span is None:
            decorated = [s for s in spans.values() if isinstance(s, tuple) and s[0] == first]
            if not decorated:
                continue
            span = decorated[0]
        functions += 1
        lines.update((filename, n) for n in range(span[0], span[1] + 1) if n in code)
    return functions, len(lines)


def _in(folder: str, *, leave_out: tuple[str, ...] = ()) -> Callable[[str], bool]:
    def keep(filename: str) -> bool:
        path = Path(filename)
        return folder in path.parts and not any(path.name == name for name in leave_out)
    return keep


def rows() -> list[tuple[str, int, int, str, int, int]]:
    """(path, evalkit functions, evalkit lines, peer, peer functions, peer lines) for the four paths."""
    from nltk.translate import bleu_score
    from rouge_score import rouge_scorer

    from evalkit import rouge
    from evalkit.bleu import corpus_bleu, sentence_bleu

    hyp, ref = HYP.split(), REF.split()
    ours = _in("evalkit", leave_out=("_checks.py",))
    nltk_files = _in("nltk")
    rouge_files = _in("rouge_score")
    scorer_l = rouge_scorer.RougeScorer(["rougeL"])
    scorer_2 = rouge_scorer.RougeScorer(["rouge2"])
    table = [
        ("sentence_bleu(hyp, [ref])", lambda: sentence_bleu(HYP, [REF]),
         "NLTK", lambda: bleu_score.sentence_bleu([ref], hyp), nltk_files),
        ("corpus_bleu(..., fast=False)", lambda: corpus_bleu([HYP], [[REF]], fast=False),
         "NLTK", lambda: bleu_score.corpus_bleu([[ref]], [hyp]), nltk_files),
        ("rouge_l(hyp, [ref])", lambda: rouge.rouge_l(HYP, [REF]),
         "rouge-score", lambda: scorer_l.score(REF, HYP), rouge_files),
        ("rouge_n(hyp, [ref], 2)", lambda: rouge.rouge_n(HYP, [REF], 2),
         "rouge-score", lambda: scorer_2.score(REF, HYP), rouge_files),
    ]
    out = []
    for name, ours_call, peer, peer_call, peer_files in table:
        out.append((name, *measure(ours_call, ours), peer, *measure(peer_call, peer_files)))
    return out


def main() -> None:
    print("| path | evalkit functions / lines | peer functions / lines |")
    print("|---|---|---|")
    for name, f, n, peer, pf, pn in rows():
        print(f"| `{name}` | {f} / {n} | {peer} {pf} / {pn} |")


if __name__ == "__main__":
    main()
