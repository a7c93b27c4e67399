"""The recorded peer numbers of tests/peers/ and the conformance mark.

A record is trusted only while it says where it came from and that is still true: the pinned peer version,
the function that computed it (its source, as recorded), the data files (their SHA-256).  Each record is
read by at least one test marked ``conformance``, so that ``make conformance`` (``EVALKIT_PEERS=live``)
computes it again and fails if it drifted (peers.recorded does the comparison).  And every test that calls a
peer library carries the ``conformance`` mark, so ``make conformance`` runs it.
"""

from __future__ import annotations

import ast
import inspect
import json
import re
from pathlib import Path

import peers
import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
PEER_MODULES = ("sacrebleu", "nltk", "rouge_score", "gleu", "gleu_package", "peers", "scipy")


def pinned(package: str) -> str:
    text = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    return re.search(rf"^{re.escape(package)}==(\S+)", text, re.M | re.I).group(1)


@pytest.mark.parametrize("name", list(peers.RECORDS))
def test_each_record_says_where_it_came_from_and_that_is_still_true(name):
    record = peers.load(name)
    assert set(record) == {"provenance", "values"}
    made = record["provenance"]
    function, package, patterns = peers.RECORDS[name]
    stale = f"tests/peers/{name}.json is stale: record it again with `python -m tests.peers {name}`"
    assert made["package"] == package
    assert made["version"] == pinned(package), stale + f" (recorded with {package} {made['version']})"
    assert made["call"] == inspect.getsource(function), stale + " (its function changed)"
    assert made["data"] == peers.data_files(patterns), stale + " (its data files changed)"
    assert made["made_by"].startswith(f"python -m tests.peers {name}") and re.fullmatch(r"\d{4}-\d\d-\d\d", made["date"])
    assert record["values"], name


def test_no_file_without_a_record():
    assert sorted(p.stem for p in (TESTS / "peers").glob("*.json")) == sorted(peers.RECORDS)


def test_differences_compares_keys_p_values_exactly_and_other_numbers_to_1e_12():
    old = {"a": {"score": 26.5, "p_value": 0.001}, "b": {"score": 1.0, "p_value": None}}
    assert peers.differences(old, json.loads(json.dumps(old))) == []
    assert peers.differences(old, {"b": old["b"], "a": old["a"]})  # the order of the systems counts
    assert peers.differences(old, {**old, "a": {"score": 26.5 * (1 + 1e-14), "p_value": 0.001}}) == []
    assert peers.differences(old, {**old, "a": {"score": 26.5 * (1 + 1e-10), "p_value": 0.001}})
    assert peers.differences(old, {**old, "a": {"score": 26.5, "p_value": 0.001 * (1 + 1e-14)}})
    assert peers.differences(old, {**old, "b": {"score": 1.0, "p_value": 0.5}})


def test_recorded_reads_the_file_unless_live(monkeypatch):
    monkeypatch.delenv(peers.LIVE_ENV, raising=False)
    assert peers.recorded("ter_corpus") == peers.load("ter_corpus")["values"]
    monkeypatch.setenv(peers.LIVE_ENV, "live")
    monkeypatch.setitem(peers.RECORDS, "ter_corpus", (lambda: {"x": 1.0}, "sacrebleu", []))
    monkeypatch.setattr(peers, "_live_cache", {})
    with pytest.raises(AssertionError, match="drifted.*python -m tests.peers ter_corpus"):
        peers.recorded("ter_corpus")
    with pytest.raises(KeyError, match="no peer record"):
        peers.recorded("bleu")


# ------------------------------------------------------------------------------------------ the marks
def _marks(node: ast.FunctionDef) -> set[str]:
    names = set()
    for deco in node.decorator_list:
        text = ast.unparse(deco)
        match = re.match(r"pytest\.mark\.(\w+)", text)
        if match:
            names.add(match.group(1))
    return names


def _module_marks(tree: ast.Module) -> set[str]:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "pytestmark" for t in node.targets):
            return set(re.findall(r"pytest\.mark\.(\w+)", ast.unparse(node.value)))
    return set()


def _test_files():
    return sorted(p for p in TESTS.glob("test_*.py"))


def _peer_names(tree: ast.Module) -> set[str]:
    """The names a test module binds to a peer library (import sacrebleu, from rouge_score import ...)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names if a.name.split(".")[0] in PEER_MODULES}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in PEER_MODULES:
            names |= {a.asname or a.name for a in node.names}
    return names


def _calling_a_peer(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """The module's test functions that reach a peer: through its names, through a module-level helper or a
    fixture that does."""
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    reach = _peer_names(tree)
    reaching: set[str] = set()
    grew = True
    while grew:
        grew = False
        for name, node in functions.items():
            used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {a.arg for a in node.args.args}
            if name not in reaching and used & (reach | reaching):
                reaching.add(name)
                grew = True
    return {n: functions[n] for n in reaching if n.startswith("test_")}


def test_every_test_that_calls_a_peer_is_marked_conformance():
    unmarked = []
    for path in _test_files():
        if path.name == Path(__file__).name:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = _module_marks(tree)
        for name, node in _calling_a_peer(tree).items():
            if "conformance" not in _marks(node) | module and "browser" not in _marks(node) | module:
                unmarked.append(f"{path.name}::{name}")
    assert not unmarked, f"tests calling a peer without @pytest.mark.conformance: {unmarked}"


@pytest.mark.parametrize("name", list(peers.RECORDS))
def test_each_record_is_read_by_a_conformance_test(name):
    """So that make conformance computes it again."""
    readers = []
    for path in _test_files():
        text = path.read_text(encoding="utf-8")
        if f'peers.recorded("{name}")' not in text:
            continue
        tree = ast.parse(text)
        module = _module_marks(tree)
        functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
        holders = {f.name for f in functions if f'peers.recorded("{name}")' in ast.get_source_segment(text, f)}
        for f in functions:
            args = {a.arg for a in f.args.args}
            if f.name.startswith("test_") and (f.name in holders or args & holders):
                if "conformance" in _marks(f) | module:
                    readers.append(f"{path.name}::{f.name}")
    assert readers, f"no test marked conformance reads the record {name!r}"
