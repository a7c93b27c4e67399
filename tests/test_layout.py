"""The package's layout, read from the source: no import cycle, fast.py knows no metric, no module reaches
into another module's private names, and every tokenizer is chosen with the keyword ``tokenize=``."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "evalkit"
MODULES = sorted(p.stem for p in ROOT.glob("*.py") if p.stem != "__init__")
METRICS = {"bleu", "gleu", "google_bleu", "rouge", "rouge_many", "rouge_corpus", "chrf", "ter", "ter_fast",
           "significance", "correlation", "mqm"}
# The code above the metrics: it sees a metric only through evalkit.protocol (rows of statistics, scores of
# summed rows) and resamples with evalkit.resample; it may use the argument checks, nothing else of evalkit.
ABOVE_THE_METRICS = {"significance", "correlation", "mqm"}
PROTOCOL_LAYER = {"protocol", "resample", "_checks"}
# mqm.py (expert MQM scores and their agreement with a metric) also uses correlation's Pearson and Kendall,
# and may read the annotations' types from data.
ALSO_ALLOWED = {"mqm": {"correlation", "data"}}


def evalkit_imports(module: str) -> list[tuple[str, list[str]]]:
    """Every import of another evalkit module in ``module`` (top level and inside functions alike), as
    (imported module, names taken from it)."""
    tree = ast.parse((ROOT / f"{module}.py").read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:  # from .x import a, b
                found.append((node.module, [a.name for a in node.names]))
            elif node.level == 1:  # from . import x, y
                found.extend((a.name, []) for a in node.names)
            elif node.module and node.module.startswith("evalkit."):
                found.append((node.module.split(".")[1], [a.name for a in node.names]))
            elif node.module == "evalkit":
                found.extend((a.name, []) for a in node.names)
        elif isinstance(node, ast.Import):
            found.extend((a.name.split(".")[1], []) for a in node.names if a.name.startswith("evalkit."))
    return [(m, names) for m, names in found if m in MODULES and m != module]


GRAPH = {m: sorted({dep for dep, _ in evalkit_imports(m)}) for m in MODULES}


def test_the_reader_sees_the_imports():
    # a check of the checker: known edges are found, at top level and inside functions
    assert "tokenize" in GRAPH["bleu"] and "fast" in GRAPH["bleu"]  # fast: inside corpus_stats_indexed
    assert "rouge" in GRAPH["rouge_many"] and "bleu" in GRAPH["tables"]


def test_no_import_cycle_among_evalkit_modules():
    state: dict[str, str] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = "open"
        for dep in GRAPH[module]:
            if state.get(dep) == "open":
                cycle = path[path.index(dep):] + [dep]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if dep not in state:
                visit(dep, path + [dep])
        state[module] = "done"

    for module in MODULES:
        if module not in state:
            visit(module, [module])


def test_fast_imports_no_metric_module():
    reachable, todo = set(), list(GRAPH["fast"])
    while todo:
        m = todo.pop()
        if m not in reachable:
            reachable.add(m)
            todo.extend(GRAPH[m])
    assert reachable & METRICS == set(), f"fast.py reaches the metric modules {reachable & METRICS}"


@pytest.mark.parametrize("module", MODULES)
def test_no_private_name_is_imported_from_another_module(module):
    private = [f"from .{dep} import {name}" for dep, names in evalkit_imports(module) for name in names
               if name.startswith("_")]
    private += [f"import .{dep}" for dep, _ in evalkit_imports(module) if dep.startswith("_") and dep != "_checks"]
    assert private == []


@pytest.mark.parametrize("module", MODULES)
def test_no_private_attribute_of_another_module_is_used(module):
    """``from . import bleu as b`` then ``b._segment_tokens`` is a private import too."""
    tree = ast.parse((ROOT / f"{module}.py").read_text(encoding="utf-8"))
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and not node.module:
            aliases.update({a.asname or a.name: a.name for a in node.names})
    bad = [f"{n.value.id}.{n.attr}" for n in ast.walk(tree) if isinstance(n, ast.Attribute)
           and isinstance(n.value, ast.Name) and n.value.id in aliases and n.attr.startswith("_")]
    assert bad == []


def public_functions():
    for module in MODULES:
        if module.startswith("_"):
            continue
        mod = importlib.import_module(f"evalkit.{module}")
        for name, obj in vars(mod).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != mod.__name__:
                continue
            if inspect.isfunction(obj):
                yield f"{module}.{name}", obj
            elif inspect.isclass(obj):
                for meth_name, meth in vars(obj).items():
                    if inspect.isfunction(meth) and (meth_name == "__init__" or not meth_name.startswith("_")):
                        yield f"{module}.{name}.{meth_name}", meth


def test_every_tokenizer_keyword_is_tokenize():
    functions = dict(public_functions())
    assert "bleu.sentence_bleu" in functions and "widgets.WeightsExplorer.__init__" in functions

    def chooses_a_tokenizer_by_another_name(param: inspect.Parameter) -> bool:
        # "tokens" for a token sequence is fine; "tokens" that defaults to a name ("word") chose a tokenizer
        return param.name == "tokenizer" or (param.name == "tokens" and isinstance(param.default, str))

    bad = [name for name, fn in functions.items()
           if any(map(chooses_a_tokenizer_by_another_name, inspect.signature(fn).parameters.values()))]
    assert bad == []
    takers = [name for name, fn in functions.items() if "tokenize" in inspect.signature(fn).parameters]
    for expected in ["bleu.corpus_bleu", "gleu.corpus_gleu", "google_bleu.corpus_google_bleu", "rouge.rouge_n",
                     "rouge_many.rouge_scores_many", "tables.rouge_lcs_table", "plots.plot_lcs_table",
                     "widgets.count_corpus"]:
        assert expected in takers


NOTEBOOKS = sorted((ROOT.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem[:2])
def test_lessons_use_public_names_only(path):
    """No sys.path edit, no benchmarks/ import, no private evalkit name (``from evalkit.x import _y`` or
    ``module._y`` on an evalkit module) in any code cell."""
    import json
    import re

    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    tree = ast.parse("\n".join(line for line in code.split("\n") if not line.lstrip().startswith(("%", "!"))))
    evalkit_names = set()
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in ("bench", "benchmarks") or node.module.startswith("bench_"):
                problems.append(f"imports {node.module}")
            if node.module.split(".")[0] == "evalkit":
                problems += [f"from {node.module} import {a.name}" for a in node.names if a.name.startswith("_")]
                evalkit_names.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "evalkit":
                    evalkit_names.add(a.asname or a.name.split(".")[0])
                if a.name.startswith("bench"):
                    problems.append(f"imports {a.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in evalkit_names:
                problems.append(f"{ast.unparse(node)}")
    if re.search(r"\bsys\.path\b", code):
        problems.append("edits sys.path")
    assert problems == []


def test_the_layers_above_the_metrics_use_only_the_protocol():
    """significance.py, correlation.py and mqm.py import no metric module and not fast.py, even inside a
    function: a paired test or a bootstrap resamples a metric's rows through evalkit.protocol, knowing no metric."""
    beyond = {m: sorted(set(GRAPH[m]) - PROTOCOL_LAYER - ALSO_ALLOWED.get(m, set())) for m in ABOVE_THE_METRICS}
    assert {m: deps for m, deps in beyond.items() if deps} == {}


def test_the_corpus_bootstraps_do_not_reach_into_the_engines():
    """rouge_corpus resamples with evalkit.resample, not with fast.py's internals."""
    assert "fast" not in GRAPH["rouge_corpus"]


def test_every_built_in_metric_registers_itself_in_its_own_module():
    """protocol.BUILT_IN names the module of each metric; importing it registers a Metric of that name whose
    functions live in that module (not in significance.py)."""
    import importlib

    from evalkit import protocol

    for name, module in protocol.BUILT_IN.items():
        importlib.import_module(module)
        metric = protocol.get_metric(name)
        assert metric.name == name
        for fn in (metric.statistics, metric.score, metric.score_rows):
            assert fn is None or fn.__module__ == module, (name, fn)


VIEWS = {"tables", "plots", "widgets"}


def test_no_metric_module_imports_a_view():
    """The views (pandas tables, matplotlib figures, the widgets' HTML) sit above the metrics: a metric module
    never imports tables, plots or widgets, even inside a function (correlation's plot lives in plots)."""
    assert {m: sorted(set(GRAPH[m]) & VIEWS) for m in METRICS if set(GRAPH[m]) & VIEWS} == {}


# ------------------------------------------------------------------------------------------------ tools/
TOOLS = ROOT.parent / "tools"
TOOL_MODULES = sorted(p.stem for p in TOOLS.glob("*.py") if p.stem != "__init__")


def tools_imports(module: str, source: str | None = None) -> set[str]:
    """The tools/ modules that ``module`` (or ``source``, read as that module) imports, at top level or inside
    a function (``from tools.x import``, ``from tools import x``, ``import tools.x``, ``from .x import``)."""
    tree = ast.parse(source if source is not None else (TOOLS / f"{module}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                found.update([node.module.split(".")[0]] if node.module else [a.name for a in node.names])
            elif node.module == "tools":
                found.update(a.name for a in node.names)
            elif node.module and node.module.startswith("tools."):
                found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names if a.name.startswith("tools."))
    return {m for m in found if m in TOOL_MODULES and m != module}


TOOLS_GRAPH = {m: tools_imports(m) for m in TOOL_MODULES}


def test_the_reader_sees_the_tools_imports():
    assert {"lessons", "notebook_cells"} <= TOOLS_GRAPH["exercises"] and "exercises" in TOOLS_GRAPH["site"]
    # the lazy import lessons.py once had, inside a function, is found, and so is every other spelling
    lazy = "import re\n\n\ndef exercise_count(nb):\n    from tools.exercises import exercise_questions\n"
    assert tools_imports("lessons", lazy) == {"exercises"}
    for spelling in ("from tools import exercises", "import tools.exercises", "from .exercises import build",
                     "from . import exercises"):
        assert tools_imports("lessons", f"def f():\n    {spelling}\n") == {"exercises"}, spelling


def test_no_import_cycle_among_tools_modules():
    """tools/exercises.py imports tools/lessons.py, never the other way round (what both need is in
    tools/notebook_cells.py), and no other circle closes among the tools."""
    assert "exercises" not in TOOLS_GRAPH["lessons"], "tools/lessons.py imports tools/exercises.py again"
    for start in TOOL_MODULES:
        reachable, todo = set(), list(TOOLS_GRAPH[start])
        while todo:
            m = todo.pop()
            if m not in reachable:
                reachable.add(m)
                todo.extend(TOOLS_GRAPH[m])
        assert start not in reachable, f"import cycle through tools/{start}.py"


# ------------------------------------------------------------------------------------------ the tests' own layout
# Tests are organised by module: tests/test_<module>.py for evalkit/<module>.py or tools/<module>.py, and
# these, named after what they test across modules (tests/README.md says where a new test goes).
TEST_FILES_ACROSS_MODULES = {
    "notebooks": "checks over every lesson in notebooks/ (the prose's numbers and attributions)",
    "package": "what the whole package keeps: light imports, no peer inside, options every function shares",
    "layout": "what imports what",
    "makefile": "the Makefile, the install and CI",
    "peers": "the recorded peer numbers of tests/peers/ and the conformance mark",
    "browser": "lesson 08 in JupyterLab, in a real browser",
    "site_browser": "the static site, in a real browser",
}


def test_each_test_file_is_named_after_a_module_or_listed():
    root = Path(__file__).resolve().parent.parent
    modules = {p.stem for folder in ("evalkit", "tools") for p in (root / folder).glob("*.py")}
    tests = {p.stem[len("test_"):] for p in (root / "tests").glob("test_*.py")}
    assert not tests - modules - set(TEST_FILES_ACROSS_MODULES), "name a test file after the module it tests"
    assert set(TEST_FILES_ACROSS_MODULES) <= tests  # the list stays true
