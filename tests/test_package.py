"""Standards the whole package keeps: light imports, no peer metric library inside evalkit, no network."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted(p.stem for p in (ROOT / "evalkit").glob("*.py") if not p.stem.startswith("__"))
PEERS = ("sacrebleu", "rouge_score", "gleu", "nltk.translate")


LIGHT = ["bleu", "gleu", "google_bleu", "rouge", "rouge_many", "rouge_corpus", "lcs", "ranking", "fast", "tokenize",
         "ngrams", "data", "widgets", "tables", "plots",
         "significance", "chrf", "ter", "ter_fast", "correlation", "lesson", "resample", "protocol"]
# numerical modules built on numpy arrays throughout (numpy is a dependency; pandas and matplotlib stay out)
NUMPY_AT_IMPORT = {"significance"}


@pytest.mark.parametrize("module", LIGHT)
def test_metric_modules_import_light(module):
    code = (
        f"import sys, evalkit.{module}; "
        "print(sorted(m for m in ('pandas', 'matplotlib', 'ipywidgets', 'sacrebleu', 'rouge_score', 'numpy', 'nltk') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ("['numpy']" if module in NUMPY_AT_IMPORT else "[]")


def test_light_list_names_every_module():
    assert set(LIGHT) | {"_checks"} == set(MODULES)


def test_import_evalkit_loads_no_submodule_and_clears_caches():
    loaded = "print(sorted(m for m in sys.modules if m.startswith('evalkit.') or m in ('numpy', 'pandas')))"
    out = subprocess.run([sys.executable, "-c", f"import sys, evalkit; {loaded}"], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
    code = f"import sys, evalkit; evalkit.clear_caches(); {loaded}"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['evalkit._checks', 'evalkit.fast', 'evalkit.tokenize']"  # the caches' modules only


@pytest.mark.parametrize("module", MODULES)
def test_evalkit_never_imports_a_peer_metric_library(module):
    tree = ast.parse((ROOT / "evalkit" / f"{module}.py").read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            imported.add(node.module)
    bad = {name for name in imported for peer in PEERS if name == peer or name.startswith(peer + ".")}
    assert bad == set(), f"evalkit/{module}.py imports {bad}; peers belong in tests and lesson comparison cells"


NETWORK = re.compile(r"nltk\.download\(|urlopen\(|requests\.get\(|urllib\.request|http\.client")


def test_nothing_reaches_for_the_network():
    offenders = []
    for path in list((ROOT / "evalkit").glob("*.py")) + list((ROOT / "notebooks").glob("*.ipynb")):
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".ipynb":
            cells = json.loads(text)["cells"]
            text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        if NETWORK.search(text):
            offenders.append(path.name)
    assert offenders == []


def test_every_lesson_is_executed_in_order_without_errors():
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    assert len(notebooks) >= 7
    for path in notebooks:
        cells = [c for c in json.loads(path.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
        counts = [c["execution_count"] for c in cells if "".join(c["source"]).strip()]
        assert None not in counts and counts == sorted(counts), path.name
        assert not any(o.get("output_type") == "error" for c in cells for o in c["outputs"]), path.name


# ==========================================================================================================
# Moved from tests/test_hardening.py (marks: hardening):
# Regression tests for issue 10 ("Hardening and the house"): bad input gets a clear error or a correct
# score, and the peers' own APIs work where a user would expect them.
#
# Each group quotes the finding it pins.  Expected numbers are computed by hand in the test or by the peer
# library (NLTK, sacreBLEU, rouge-score, gleu) at test time.
# ==========================================================================================================
import numpy as np  # noqa: E402
from evalkit import bleu  # noqa: E402


HYP = "the cat sat on the mat"
REFS = ["the cat is on the mat", "the bird sat on the bush"]


# --------------------------------------------------------------------------------------------------------
# "`lowercase="no"` lowercases (booleans must be booleans)"
# --------------------------------------------------------------------------------------------------------
BOOL_CALLS = {
    "sentence_bleu lowercase": lambda v: bleu.sentence_bleu(HYP, REFS, lowercase=v),
    "sentence_bleu effective_order": lambda v: bleu.sentence_bleu(HYP, REFS, effective_order=v),
    "corpus_bleu lowercase": lambda v: bleu.corpus_bleu([HYP], [REFS], lowercase=v),
    "corpus_bleu lowercase slow": lambda v: bleu.corpus_bleu([HYP], [REFS], lowercase=v, fast=False),
    "corpus_bleu fast": lambda v: bleu.corpus_bleu([HYP], [REFS], fast=v),
    "corpus_bleu nltk_last_hypothesis": lambda v: bleu.corpus_bleu([HYP], [REFS], nltk_last_hypothesis=v),
    "sentence_stats lowercase": lambda v: bleu.sentence_stats(HYP, REFS, lowercase=v),
    "segment_stats lowercase": lambda v: bleu.segment_stats([HYP], [REFS], lowercase=v),
    "corpus_stats fast": lambda v: bleu.corpus_stats([HYP], [REFS], fast=v),
    "segment_matrix lowercase": lambda v: bleu.segment_matrix([HYP], [REFS], lowercase=v),
    "segment_matrix fast": lambda v: bleu.segment_matrix([HYP], [REFS], fast=v),
    "corpus_stats_indexed lowercase": lambda v: bleu.corpus_stats_indexed([HYP], [REFS], lowercase=v),
    "system_stats lowercase": lambda v: bleu.system_stats({"A": [HYP]}, [REFS], lowercase=v),
    "score_stats effective_order": lambda v: bleu.score_stats(bleu.sentence_stats(HYP, REFS), effective_order=v),
    "rouge_n stemmer": lambda v: __import__("evalkit.rouge").rouge.rouge_n(HYP, REFS, 1, stemmer=v),
    "rouge_l fast": lambda v: __import__("evalkit.rouge").rouge.rouge_l(HYP, REFS, fast=v),
    "rouge_tokens stemmer": lambda v: __import__("evalkit.rouge").rouge.rouge_tokens(HYP, stemmer=v),
    "rouge_scores stemmer": lambda v: __import__("evalkit.rouge_many").rouge_many.rouge_scores(HYP, REFS, stemmer=v),
    "gleu segment_stats fast": lambda v: __import__("evalkit.gleu").gleu.segment_stats([HYP], [REFS], [HYP], fast=v),
    "bleu_ngram_table lowercase": lambda v: __import__("evalkit.tables").tables.bleu_ngram_table(HYP, REFS,
                                                                                                  lowercase=v),
}


# Issue 19: "Switches accept anything: sacrebleu_float32=1 or "no" (which turns float32 on) and fast="no" for
# BLEU/ROUGE/GLEU are accepted silently; chrF and TER refuse them" (chrF refused numpy's bool too).  One rule,
# evalkit._checks.check_bool, for every switch of the package.
def _module(name):
    return __import__(f"evalkit.{name}").__dict__[name]


def _paired(test="paired_bootstrap", **switch):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(_module("significance"), test)([HYP, "a dog"], {"B": ["the cat", "a dog barked"]},
                                                      [REFS, ["a dog barked"]], n_samples=32, **switch)


BOOL_CALLS.update({
    "paired_bootstrap sacrebleu_float32": lambda v: _paired(sacrebleu_float32=v),
    "paired_bootstrap fast": lambda v: _paired(fast=v),
    "paired_approximate_randomization sacrebleu_float32": lambda v: _paired("paired_approximate_randomization",
                                                                           sacrebleu_float32=v),
    "corpus_chrf fast": lambda v: _module("chrf").corpus_chrf([HYP], [REFS], fast=v),
    "sentence_chrf lowercase": lambda v: _module("chrf").sentence_chrf(HYP, REFS, lowercase=v),
    "segment_stats (chrF) whitespace": lambda v: _module("chrf").segment_stats([HYP], [REFS], whitespace=v),
    "corpus_stats (chrF) eps_smoothing": lambda v: _module("chrf").corpus_stats([HYP], [REFS], eps_smoothing=v),
    "char_ngrams whitespace": lambda v: _module("chrf").char_ngrams(HYP, 2, whitespace=v),
    "prepare lowercase": lambda v: _module("chrf").prepare(HYP, lowercase=v),
    "corpus_google_bleu fast": lambda v: _module("google_bleu").corpus_google_bleu([HYP], [REFS], fast=v),
    "rouge_lsum fast": lambda v: _module("rouge").rouge_lsum(HYP, REFS, fast=v),
    "lcs_stats fast": lambda v: _module("rouge").lcs_stats(HYP.split(), REFS[0].split(), fast=v),
    "split_sentences split_summaries": lambda v: _module("rouge").split_sentences(HYP, split_summaries=v),
    "skip_bigram_stats unigrams": lambda v: _module("rouge").skip_bigram_stats(HYP.split(), REFS[0].split(),
                                                                               unigrams=v),
    "rouge_scores_many stemmer": lambda v: _module("rouge_many").rouge_scores_many([HYP], [REFS], stemmer=v),
    "corpus_rouge stemmer": lambda v: _module("rouge_corpus").corpus_rouge([HYP], [REFS], stemmer=v),
    "chrf_table lowercase": lambda v: _module("tables").chrf_table(HYP, REFS[0], 2, lowercase=v),
    "bleu_smoothing_table effective_order": lambda v: _module("tables").bleu_smoothing_table(
        bleu.sentence_stats(HYP, REFS), effective_order=v),
    "cache_info memory": lambda v: _module("fast").cache_info(memory=v),
})


@pytest.mark.hardening
@pytest.mark.parametrize("value", ["no", "False", 0, 1, None, 1.0])
@pytest.mark.parametrize("call", list(BOOL_CALLS))
def test_yes_no_options_must_be_booleans(call, value):
    with pytest.raises(TypeError, match="must be True or False"):
        BOOL_CALLS[call](value)


@pytest.mark.hardening
@pytest.mark.parametrize("call", list(BOOL_CALLS))
def test_yes_no_options_accept_booleans(call):
    BOOL_CALLS[call](True)
    BOOL_CALLS[call](np.bool_(False))


@pytest.mark.hardening
def test_lowercase_no_used_to_lowercase():
    # the finding itself: "no" is truthy, so the text was lowercased and "The" matched "the"
    with pytest.raises(TypeError, match="lowercase must be True or False, got 'no'"):
        bleu.sentence_bleu("The cat", ["the cat"], lowercase="no", weights=(1,))


# --------------------------------------------------------------------------------------------------------
# Issue 19: "references=b"x" is reported as "references[0] is a int"; numpy ints refused where np.float64 is
# accepted"
# --------------------------------------------------------------------------------------------------------
@pytest.mark.hardening
@pytest.mark.parametrize("metric", ["bleu", "chrf", "gleu", "google_bleu"])
def test_bytes_are_told_to_decode(metric):
    corpus = {"bleu": bleu.corpus_bleu, "chrf": _module("chrf").corpus_chrf,
              "google_bleu": _module("google_bleu").corpus_google_bleu,
              "gleu": lambda h, r: _module("gleu").corpus_gleu(h, r, [HYP])}[metric]
    with pytest.raises(TypeError, match=r"references\[0\] is bytes; decode to str first"):
        corpus([HYP], [b"the cat"])
    with pytest.raises(TypeError, match="references is bytes; decode to str first"):
        corpus([HYP], b"the cat")
    with pytest.raises(TypeError, match="hypotheses is bytes; decode to str first"):
        corpus(b"the cat", [REFS])


@pytest.mark.hardening
def test_numpy_integers_are_ints():
    chrf, rouge, tables = _module("chrf"), _module("rouge"), _module("tables")
    assert bleu.sentence_stats(HYP, REFS, max_order=np.int64(2)) == bleu.sentence_stats(HYP, REFS, max_order=2)
    assert chrf.sentence_chrf(HYP, REFS, char_order=np.int32(4), word_order=np.int64(2)) == chrf.sentence_chrf(
        HYP, REFS, char_order=4, word_order=2)
    assert rouge.rouge_n(HYP, REFS, np.int64(2)) == rouge.rouge_n(HYP, REFS, 2)
    assert tables.chrf_table(HYP, REFS[0], np.uint8(3)).equals(tables.chrf_table(HYP, REFS[0], 3))
    assert rouge.rouge_s(HYP, REFS, max_skip=np.int64(2)) == rouge.rouge_s(HYP, REFS, max_skip=2)
    gleu = _module("gleu")
    stats = gleu.segment_stats([HYP, "a dog"], [REFS, ["a dog barked", "the dog"]], [HYP, "un chien"])
    assert gleu.score_assignments(stats, [np.array([1, 0])]) == gleu.score_assignments(stats, [[1, 0]])
    assert bleu.sentence_bleu(HYP, REFS, weights=np.array([1, 1])) == bleu.sentence_bleu(HYP, REFS, weights=(1, 1))
    with pytest.raises(TypeError, match="char_order must be an int"):
        chrf.sentence_chrf(HYP, REFS, char_order=np.float64(4))  # a float is not an order, numpy's or not
