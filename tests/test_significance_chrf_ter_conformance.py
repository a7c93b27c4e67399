"""chrF, chrF++ and TER in evalkit.significance equal sacreBLEU 2.6.0's PairedTest (recorded in
tests/peers/chrf_ter_paired.json by peers.chrf_ter_paired; make conformance runs sacreBLEU again).

chrF and chrF++: the 16 WMT17 en-de systems, LIUM-NMT as the baseline, 1,000 bootstrap samples and 1,000
approximate-randomization trials with a 100-sample interval (fewer than sacreBLEU's default 10,000 trials to
keep the tests quick; evalkit is asked for the same numbers, so the draws are the same).  TER: sacreBLEU's
TER takes about 7 s per system, so the baseline and online-B.  About 85 s in all, most of it sacreBLEU
counting n-grams and edits (about 1 s a system for chrF): that is why they are recorded.

sacreBLEU's metrics are given their references up front (its reference cache, ``references=None`` in
PairedTest) and remember each system's statistics between the bootstrap and the randomization run
(``Remember`` in peers.chrf_ter_paired): the tests themselves are sacreBLEU's, unchanged.

sacreBLEU keeps chrF and TER resamples in float32 to the end (means, intervals, p-values); with
``sacrebleu_float32=True`` evalkit does the same and agrees to 1e-9 (in fact exactly).  evalkit's default
float64 arithmetic gives the same p-values, and means and intervals within 2e-5 points: float32's rounding
(checked on the chrF bootstrap; approximate randomization's trials are float64 in sacreBLEU too, and its
interval is the same bootstrap).
"""

from __future__ import annotations

import peers
import pytest

from evalkit.chrf import corpus_chrf
from evalkit.significance import paired_approximate_randomization, paired_bootstrap
from evalkit.ter import corpus_ter

BASELINE = "LIUM-NMT"
TER_SYSTEMS = (BASELINE, "online-B")
BS_SAMPLES, AR_TRIALS, AR_CONFIDENCE = 1000, 1000, 100
VARIANTS = {  # name: (evalkit metric, evalkit options); sacreBLEU's CHRF(), CHRF(word_order=2) and TER()
    "chrF": ("chrf", {}),
    "chrF++": ("chrf", {"word_order": 2}),
    "TER": ("ter", {}),
}


def _systems(variant, systems):
    names = TER_SYSTEMS if variant == "TER" else [BASELINE, *(n for n in systems if n != BASELINE)]
    return {n: systems[n] for n in names}


@pytest.fixture(scope="session")
def sacrebleu_chrf_ter():
    """{variant: {"bs" | "ar": {name: sacreBLEU Result}}}, SACREBLEU_SEED at its default 12345:
    tests/peers/chrf_ter_paired.json (peers.chrf_ter_paired, which make conformance runs again)."""
    recorded = peers.recorded("chrf_ter_paired")
    assert list(recorded) == list(VARIANTS) and peers.PAIRED_TER_SYSTEMS == TER_SYSTEMS
    assert peers.PAIRED_SAMPLES == dict(bs=dict(n_samples=BS_SAMPLES),
                                        ar=dict(n_samples=AR_TRIALS, n_ar_confidence=AR_CONFIDENCE))
    return {variant: {kind: peers.paired(results) for kind, results in by_kind.items()}
            for variant, by_kind in recorded.items()}


@pytest.fixture(scope="session")
def evalkit_chrf_ter(wmt17):
    """{variant: {(kind, float32): {name: PairedResult}}}: float32=False for the chrF bootstrap only."""
    reference, systems = wmt17
    refs = [[r] for r in reference]
    out = {}
    for variant, (metric, options) in VARIANTS.items():
        chosen = _systems(variant, systems)
        base, others = chosen[BASELINE], {n: h for n, h in chosen.items() if n != BASELINE}
        kw = dict(metric=metric, baseline_name=BASELINE, **options)
        out[variant] = {}
        for float32 in (True, False) if variant == "chrF" else (True,):
            out[variant]["bs", float32] = paired_bootstrap(base, others, refs, n_samples=BS_SAMPLES, null="sacrebleu",
                                                           sacrebleu_float32=float32, **kw)  # sacreBLEU's p-value
        out[variant]["ar", True] = paired_approximate_randomization(
            base, others, refs, n_samples=AR_TRIALS, confidence_samples=AR_CONFIDENCE, sacrebleu_float32=True, **kw)
    return out


@pytest.mark.parametrize("kind", ["bs", "ar"])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_equal_to_sacrebleu_with_its_float32_arithmetic(variant, kind, sacrebleu_chrf_ter, evalkit_chrf_ter):
    theirs = sacrebleu_chrf_ter[variant][kind]
    ours = evalkit_chrf_ter[variant][kind, True]
    assert list(ours) == list(theirs)  # the baseline first, then the systems in order
    assert len(ours) == (len(TER_SYSTEMS) if variant == "TER" else 16)
    for name, t in theirs.items():
        o = ours[name]
        assert abs(o.score * 100 - t.score) <= 1e-9, (name, o.score * 100, t.score)
        assert o.p_value == t.p_value, (name, o.p_value, t.p_value)  # the same draws: identical p-values
        assert abs(o.mean * 100 - float(t.mean)) <= 1e-9, (name, o.mean * 100, t.mean)
        assert abs(o.ci * 100 - float(t.ci)) <= 1e-9, (name, o.ci * 100, t.ci)


def test_exact_arithmetic_differs_from_sacrebleu_only_by_float32_rounding(sacrebleu_chrf_ter, evalkit_chrf_ter):
    """The default float64 arithmetic: the same p-values; means and intervals off by float32's rounding of
    numbers near 50 (a float32 step there is 4e-6, and a float32 mean adds a few steps), so within 2e-5
    points, but not within 1e-9."""
    theirs = sacrebleu_chrf_ter["chrF"]["bs"]
    ours = evalkit_chrf_ter["chrF"]["bs", False]
    worst = 0.0
    for name, t in theirs.items():
        o = ours[name]
        assert abs(o.score * 100 - t.score) <= 1e-9
        assert o.p_value == t.p_value, (name, o.p_value, t.p_value)
        worst = max(worst, abs(o.mean * 100 - float(t.mean)), abs(o.ci * 100 - float(t.ci)))
    assert 1e-9 < worst < 2e-5


def test_scores_are_corpus_chrf_and_corpus_ter(wmt17, evalkit_chrf_ter):
    reference, systems = wmt17
    refs = [[r] for r in reference]
    for name in (BASELINE, "online-B"):
        assert evalkit_chrf_ter["chrF"]["bs", False][name].score == corpus_chrf(systems[name], refs).score
        assert evalkit_chrf_ter["chrF++"]["bs", True][name].score == corpus_chrf(systems[name], refs,
                                                                                 word_order=2).score
        assert evalkit_chrf_ter["TER"]["ar", True][name].score == corpus_ter(systems[name], refs).score
