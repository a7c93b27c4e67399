"""The peers' numbers that take minutes to compute, recorded as data (the JSON files beside this one).

sacreBLEU scoring 16 WMT17 systems (BLEU, chrF, chrF++, TER) and its paired significance tests take about
eight minutes on a small machine.  The tests compare evalkit with those numbers read from
``tests/peers/<name>.json``; ``make conformance`` (``EVALKIT_PEERS=live``) computes them again with the
pinned peer and fails if any recorded number drifted.

Each record below is one function computing the peer's numbers (the exact calls); its file holds the numbers
and their provenance: the package and its version, the function's source (the call that made them), the data
files it read with their SHA-256, the date.  To record them again (after a peer's pinned version changes,
or a record is added), from the repository's root::

    python -m tests.peers            # every record (about 8 minutes)
    python -m tests.peers ter_corpus # one

In a test::

    import peers
    theirs = peers.recorded("ter_corpus")   # the numbers: from the file, or live under make conformance
"""

from __future__ import annotations

import datetime
import hashlib
import inspect
import json
import math
import os
import platform
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LIVE_ENV = "EVALKIT_PEERS"  # "live": compute every record with the installed peer and compare with its file
BASELINE = "LIUM-NMT"  # the baseline of the paired tests (the first system of sacreBLEU's own examples)
WMT17_FILES = ["data/wmt17-en-de/reference.de.gz", "data/wmt17-en-de/systems/*.de.gz"]


def live() -> bool:
    """True under ``make conformance``: the peers are run, not read."""
    return os.environ.get(LIVE_ENV, "recorded") == "live"


@dataclass(frozen=True)
class PairedResult:
    """The four numbers of a sacreBLEU significance ``Result`` (on its 0-100 scale)."""

    score: float
    p_value: float | None
    mean: float | None
    ci: float | None


# ------------------------------------------------------------------------------------------ the records
def _wmt17():
    from evalkit import data

    return data.wmt17_reference(), data.wmt17_systems()


def bleu_corpus():
    """sacreBLEU's corpus BLEU of the 16 WMT17 systems for each tokenizer: {tokenize: {system: score}}."""
    import sacrebleu
    from sacrebleu.metrics.bleu import BLEU

    reference, systems = _wmt17()
    out = {}
    for tok in ["13a", "intl", "char", "none"]:
        # sacrebleu.corpus_bleu for 13a, literally; for the others a BLEU object that keeps the reference counts
        cached = BLEU(tokenize=tok, references=[reference])
        out[tok] = {name: (sacrebleu.corpus_bleu(hyps, [reference], tokenize=tok).score if tok == "13a"
                           else cached.corpus_score(hyps, None).score)
                    for name, hyps in systems.items()}
    return out


CHRF_CONFIGS = {"chrF": dict(word_order=0, eps_smoothing=False), "chrF-eps": dict(word_order=0, eps_smoothing=True),
                "chrF++": dict(word_order=2, eps_smoothing=False), "chrF++-eps": dict(word_order=2, eps_smoothing=True)}


def chrf_corpus():
    """sacreBLEU's corpus chrF of the 16 WMT17 systems under each configuration: {config: {system: score}}."""
    from sacrebleu.metrics import CHRF

    reference, systems = _wmt17()
    out = {}
    for cid, cfg in CHRF_CONFIGS.items():
        metric = CHRF(references=[reference], **cfg)
        out[cid] = {name: metric.corpus_score(hyps, None).score for name, hyps in systems.items()}
    return out


def ter_corpus():
    """sacreBLEU's corpus TER of the 16 WMT17 systems: {system: score}."""
    from sacrebleu.metrics import TER

    reference, systems = _wmt17()
    metric = TER(references=[reference])
    return {name: metric.corpus_score(hyps, None).score for name, hyps in systems.items()}


def _paired_test(named, metrics, references, test_type, **kwargs):
    """sacreBLEU's PairedTest with SACREBLEU_SEED unset (its default seed, 12345): {system: result fields}."""
    from sacrebleu.significance import PairedTest

    saved = os.environ.pop("SACREBLEU_SEED", None)
    try:
        _, scores = PairedTest(named, metrics, references, test_type=test_type, **kwargs)()
    finally:
        if saved is not None:
            os.environ["SACREBLEU_SEED"] = saved
    results = next(v for k, v in scores.items() if k != "System")
    return {name: _fields(r) for name, r in zip(scores["System"], results)}


def _fields(result):
    number = lambda x: None if x is None else float(x)  # noqa: E731 (chrF's and TER's are numpy float32)
    return {"score": number(result.score), "p_value": number(result.p_value), "mean": number(result.mean),
            "ci": number(result.ci)}


def bleu_paired():
    """sacreBLEU's PairedTest with BLEU on the 16 WMT17 systems, LIUM-NMT the baseline: the bootstrap (1,000
    samples) and approximate randomization (10,000 trials, a 1,000-sample interval): {"bs"|"ar": {system:
    result}}."""
    from sacrebleu.metrics.bleu import BLEU

    reference, systems = _wmt17()
    named = [(BASELINE, systems[BASELINE])] + [(n, h) for n, h in systems.items() if n != BASELINE]
    return {"bs": _paired_test(named, {"BLEU": BLEU()}, [reference], "bs", n_samples=1000),
            "ar": _paired_test(named, {"BLEU": BLEU()}, [reference], "ar", n_samples=10000, n_ar_confidence=1000)}


PAIRED_TER_SYSTEMS = (BASELINE, "online-B")  # sacreBLEU's TER takes about 7 s a system
PAIRED_SAMPLES = dict(bs=dict(n_samples=1000), ar=dict(n_samples=1000, n_ar_confidence=100))


def chrf_ter_paired():
    """sacreBLEU's PairedTest with chrF, chrF++ (16 systems) and TER (LIUM-NMT and online-B), LIUM-NMT the
    baseline, 1,000 bootstrap samples and 1,000 randomization trials with a 100-sample interval, each metric
    given the references up front and remembering each system's statistics between the two tests (as a
    PairedTest over both would): {variant: {"bs"|"ar": {system: result}}}."""
    from sacrebleu.metrics.chrf import CHRF
    from sacrebleu.metrics.ter import TER

    def remember(metric_class):
        class Remember(metric_class):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                self._seen = {}

            def _extract_corpus_statistics(self, hypotheses, references):
                if id(hypotheses) not in self._seen:
                    self._seen[id(hypotheses)] = (hypotheses, super()._extract_corpus_statistics(hypotheses,
                                                                                                   references))
                return self._seen[id(hypotheses)][1]

        return Remember

    reference, systems = _wmt17()
    out = {}
    for variant, metric_class, kwargs in (("chrF", CHRF, {}), ("chrF++", CHRF, {"word_order": 2}), ("TER", TER, {})):
        metric = remember(metric_class)(references=[reference], **kwargs)
        names = PAIRED_TER_SYSTEMS if variant == "TER" else [BASELINE, *(n for n in systems if n != BASELINE)]
        named = [(n, systems[n]) for n in names]
        out[variant] = {kind: _paired_test(named, {variant: metric}, None, kind, **extra)
                        for kind, extra in PAIRED_SAMPLES.items()}
    return out


# name: (function, peer package, data files read)
RECORDS = {
    "bleu_corpus": (bleu_corpus, "sacrebleu", WMT17_FILES),
    "chrf_corpus": (chrf_corpus, "sacrebleu", WMT17_FILES),
    "ter_corpus": (ter_corpus, "sacrebleu", WMT17_FILES),
    "bleu_paired": (bleu_paired, "sacrebleu", WMT17_FILES),
    "chrf_ter_paired": (chrf_ter_paired, "sacrebleu", WMT17_FILES),
}


# ------------------------------------------------------------------------------------------ reading
def path(name: str) -> Path:
    return HERE / f"{name}.json"


def load(name: str) -> dict:
    """The whole recorded file: {"provenance": {...}, "values": {...}}."""
    with open(path(name), encoding="utf-8") as f:
        return json.load(f)


_live_cache: dict[str, object] = {}


def recorded(name: str):
    """The peer's numbers of record ``name``: read from its file, or, under ``make conformance``, computed now
    by the peer (once per process) after checking that they equal the recorded ones."""
    if name not in RECORDS:
        raise KeyError(f"no peer record {name!r}; the records are {sorted(RECORDS)}")
    if not live():
        return load(name)["values"]
    if name not in _live_cache:
        fresh = _plain(RECORDS[name][0]())
        drift = differences(load(name)["values"], fresh)
        if drift:
            raise AssertionError(f"{name}: the peer's numbers drifted from tests/peers/{name}.json "
                                 f"({len(drift)} differ; first: {drift[:5]}). If the change is the peer's and "
                                 f"intended, re-record: python -m tests.peers {name}")
        _live_cache[name] = fresh
    return _live_cache[name]


def paired(values: dict) -> dict:
    """{system: PairedResult} from a record's {system: {score, p_value, mean, ci}}."""
    return {name: PairedResult(**fields) for name, fields in values.items()}


def differences(old, new, where: str = "", rel: float = 1e-12) -> list[str]:
    """Where two records differ: keys and order exactly, p-values exactly, other numbers to ``rel``."""
    if isinstance(old, dict) and isinstance(new, dict):
        if list(old) != list(new):
            return [f"{where or 'top'}: keys {list(old)} != {list(new)}"]
        return [d for k in old for d in differences(old[k], new[k], f"{where}/{k}", rel)]
    if isinstance(old, float) and isinstance(new, float):
        exact = where.endswith("p_value")
        same = old == new if exact else math.isclose(old, new, rel_tol=rel, abs_tol=rel)
        return [] if same else [f"{where}: recorded {old!r}, now {new!r}"]
    return [] if old == new and type(old) is type(new) else [f"{where}: recorded {old!r}, now {new!r}"]


def _plain(values):
    """JSON's view of the values (tuples become lists), so live and recorded numbers compare alike."""
    return json.loads(json.dumps(values))


# ------------------------------------------------------------------------------------------ recording
def data_files(patterns: list[str]) -> dict[str, str]:
    """{path relative to the repository: SHA-256} of the files the patterns name."""
    files = sorted(p for pattern in patterns for p in ROOT.glob(pattern))
    return {str(p.relative_to(ROOT)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def provenance(name: str) -> dict:
    function, package, patterns = RECORDS[name]
    return {
        "package": package,
        "version": metadata.version(package),
        "alongside": {p: metadata.version(p) for p in ("numpy", "regex")},  # sacreBLEU's draws and tokenizers
        "python": platform.python_version(),
        "call": inspect.getsource(function),
        "made_by": f"python -m tests.peers {name} (tests/peers/__init__.py, function {function.__name__})",
        "data": data_files(patterns),
        "date": datetime.date.today().isoformat(),
    }


def record(name: str) -> Path:
    """Compute record ``name`` with the installed peer and write it with its provenance."""
    values = _plain(RECORDS[name][0]())
    out = path(name)
    out.write_text(json.dumps({"provenance": provenance(name), "values": values}, indent=1) + "\n",
                   encoding="utf-8")
    return out
