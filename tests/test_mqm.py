"""evalkit.mqm: MQM scores from the raw annotation rows (against the per-segment averages shipped beside them
and the published system table), the agreement measures (by hand and against scipy), bad input, and the
seeded bootstrap over segments."""

from __future__ import annotations

import dataclasses
import math
import random
from itertools import combinations

import numpy as np
import pytest

from evalkit import data, mqm
from evalkit.bleu import corpus_bleu
from evalkit.protocol import get_metric

PAIRS = ("en-de", "zh-en")


@pytest.fixture(scope="module")
def annotations():
    return {pair: data.mqm_ted(pair) for pair in PAIRS}


@pytest.fixture(scope="module")
def segments(annotations):
    return {pair: mqm.segment_scores(annotations[pair].errors) for pair in PAIRS}


# ------------------------------------------------------------------------------------------ the reproduction
@pytest.mark.parametrize("pair", PAIRS)
def test_segment_scores_from_raw_rows_equal_the_shipped_averages(pair, segments):
    """Every rated (system, segment) of the avg file (which stores −MQM) is a segment scored from the raw
    rows, to 1e-12, and every segment scored from the rows is rated there."""
    avg = data.mqm_ted_avg_seg_scores(pair)
    ours = segments[pair]
    assert set(avg) == set(ours)
    rated = {(s, i): v for s, by_seg in avg.items() for i, v in by_seg.items() if v is not None}
    assert set(rated) == {(s, i) for s, by_seg in ours.items() for i in by_seg}
    assert len(rated) == {"en-de": 7406, "zh-en": 7935}[pair]
    worst = max(abs(ours[s][i] + v) for (s, i), v in rated.items())
    assert worst <= 1e-12


# The "expert-based MQM" tables of google/wmt-mqm-human-evaluation's README.md, "TED talks" (ref.A and ref.B
# there are the references ref-A and ref-B).  Rounded to two decimals, SMU's to three.
PUBLISHED = {
    "en-de": {"ref-A": "0.91", "Facebook-AI": "1.06", "Online-W": "1.12", "VolcTrans-AT": "1.24",
              "metricsystem3": "1.44", "VolcTrans-GLAT": "1.49", "HuaweiTSC": "1.50", "metricsystem1": "1.63",
              "metricsystem2": "1.69", "metricsystem5": "1.72", "UEdin": "1.77", "metricsystem4": "1.78",
              "eTranslation": "1.96", "Nemo": "2.14"},
    "zh-en": {"ref-B": "0.42", "DIDI-NLP": "1.65", "metricsystem2": "1.76", "metricsystem1": "1.90", "MiSS": "1.97",
              "IIE-MT": "1.98", "metricsystem4": "2.05", "metricsystem5": "2.15", "SMU": "2.202",
              "Borderline": "2.40", "NiuTrans": "2.49", "Facebook-AI": "2.64", "Online-W": "2.93",
              "metricsystem3": "2.99", "ref-A": "5.52"},
}
# Two published entries are one unit of their last digit below the computed mean rounded (the ranks agree):
# eTranslation's mean is 1.9688 (published 1.96) and Borderline's 2.4053 (published 2.40).
OFF_BY_ONE_UNIT = {("en-de", "eTranslation"): 1.9688090737240076, ("zh-en", "Borderline"): 2.4052930056710773}


@pytest.mark.parametrize("pair", PAIRS)
def test_system_scores_reproduce_the_published_table(pair, segments):
    ours = mqm.system_scores(segments[pair])
    published = PUBLISHED[pair]
    assert list(published) == sorted(ours, key=ours.get)  # the published order, best first
    for system, shown in published.items():
        decimals = len(shown.split(".")[1])
        if (pair, system) in OFF_BY_ONE_UNIT:
            assert ours[system] == pytest.approx(OFF_BY_ONE_UNIT[pair, system], abs=1e-15)
            assert f"{ours[system]:.{decimals}f}" == f"{float(shown) + 0.01:.2f}"
        else:
            assert f"{ours[system]:.{decimals}f}" == shown, system
    # the same means from the avg files (the data README's route): mean over rated segments of −score
    avg = data.mqm_ted_avg_seg_scores(pair)
    from_avg = {s: -v for s, v in mqm.system_scores(avg).items()}
    assert all(math.isclose(from_avg[s], ours[s], rel_tol=0, abs_tol=1e-12) for s in ours)
    assert all(len(by_seg) == 529 for by_seg in segments[pair].values())


def test_source_errors_take_their_severity_weight(annotations):
    """Weighted 0, the 38 zh-en segments with a "Source error" (and nothing else changed) would no longer
    match the avg file: the shipped scores count them by severity."""
    rows = annotations["zh-en"].errors
    silenced = [dataclasses.replace(r, category="No-error", severity="No-error") if r.category == "Source error" else r
                for r in rows]
    avg = data.mqm_ted_avg_seg_scores("zh-en")
    ours = mqm.segment_scores(silenced)
    differ = sum(abs(ours[s][i] + avg[s][i]) > 1e-12 for s in ours for i in ours[s])
    assert differ == 38 and sum(r.category == "Source error" for r in rows) == 38


# ------------------------------------------------------------------------------------------ the weights, by hand
def test_error_weights():
    w = mqm.error_weight
    assert w("Accuracy/Mistranslation", "Major") == 5 and w("Style/Awkward", "Minor") == 1
    assert w("Fluency/Punctuation", "Minor") == 0.1 and w("Fluency/Punctuation", "Major") == 5
    assert w("Non-translation", "Major") == 25 and w("Non-translation!", "Major") == 25
    assert w("No-error", "No-error") == 0 and w("Style/Awkward", "Neutral") == 0
    assert w("Source error", "Major") == 5 and w("Source error", "Minor") == 1
    with pytest.raises(ValueError, match="unknown MQM severity 'Critical'"):
        w("Accuracy/Mistranslation", "Critical")
    with pytest.raises(TypeError):
        w(None, "Major")


def test_every_category_and_severity_in_the_data_has_a_weight(annotations):
    kinds = {(r.category, r.severity) for pair in PAIRS for r in annotations[pair].errors}
    assert {sev for _, sev in kinds} == {"Major", "Minor", "No-error"}
    assert all(mqm.error_weight(c, s) in (0.0, 0.1, 1.0, 5.0) for c, s in kinds)


def row(system, seg_id, rater, category="No-error", severity="No-error"):
    return data.MQMError(system, "talk.1", 1, seg_id, rater, "src", "tgt", category, severity)


def test_rating_segment_and_system_scores_by_hand():
    rows = [
        row("A", 1, "r1", "Accuracy/Mistranslation", "Major"), row("A", 1, "r1", "Fluency/Punctuation", "Minor"),
        row("A", 1, "r2", "Style/Awkward", "Minor"),  # a second rater of the same segment
        row("A", 2, "r1"),
        row("B", 1, "r3", "Non-translation!", "Major"), row("B", 2, "r3", "Fluency/Grammar", "Minor"),
    ]
    seg = mqm.segment_scores(rows)
    assert seg == {"A": {1: pytest.approx((5.1 + 1) / 2), 2: 0.0}, "B": {1: 25.0, 2: 1.0}}
    assert mqm.system_scores(seg) == {"A": pytest.approx(3.05 / 2), "B": 13.0}
    assert mqm.system_scores({"A": {1: 2.0, 2: None, 3: 4.0}}) == {"A": 3.0}  # None: not rated, left out
    assert mqm.human_scores({"A": 1.5}) == {"A": -1.5}
    assert mqm.rating_score([]) == 0.0
    with pytest.raises(ValueError, match="no MQM ratings"):
        mqm.segment_scores([])
    with pytest.raises(ValueError, match="no rated segment"):
        mqm.system_scores({"A": {1: None}})


# ------------------------------------------------------------------------------------------ the measures
def accuracy_by_definition(x, y):
    """Kocmi et al. (2021): |sign(metric Δ) = sign(human Δ)| / |all system pairs|, written with numpy."""
    pairs = list(combinations(range(len(x)), 2))
    return sum(np.sign(x[i] - x[j]) == np.sign(y[i] - y[j]) for i, j in pairs) / len(pairs)


def test_pairwise_accuracy_by_hand_and_by_its_definition():
    human = {"A": 3.0, "B": 2.0, "C": 1.0, "D": 0.0}
    assert mqm.pairwise_accuracy({"A": 4, "B": 3, "C": 2, "D": 1}, human) == 1.0
    assert mqm.pairwise_accuracy({"A": 1, "B": 2, "C": 3, "D": 4}, human) == 0.0
    assert mqm.pairwise_accuracy({"A": 4, "B": 2, "C": 3, "D": 1}, human) == 5 / 6  # (B, C) swapped
    # ties: tied by the metric only (A, B) disagrees; tied on both sides (C, D) agrees
    assert mqm.pairwise_accuracy({"A": 3, "B": 3, "C": 1, "D": 1}, {"A": 3, "B": 2, "C": 0, "D": 0}) == 5 / 6
    # the order of the dicts does not matter
    assert mqm.pairwise_accuracy({"D": 1, "C": 3, "B": 2, "A": 4}, human) == 5 / 6
    rng = random.Random(7)
    for _ in range(50):
        n = rng.randint(3, 9)
        x, y = [rng.randint(0, 4) for _ in range(n)], [rng.randint(0, 4) for _ in range(n)]
        assert mqm.pairwise_accuracy(dict(enumerate(x)), dict(enumerate(y))) == accuracy_by_definition(x, y)


@pytest.mark.conformance
def test_system_agreement_against_scipy(segments):
    """Pearson and Kendall's tau-b of BLEU against −MQM on the en-de systems: scipy's pearsonr and
    kendalltau (variant "b") give the same numbers."""
    from scipy import stats

    d = data.mqm_ted("en-de")
    refs = [[r] for r in d.texts["ref-A"]]
    names = [s for s in d.systems if s != "ref-A"]
    bleu = {s: corpus_bleu(d.texts[s], refs, tokenize="13a", smoothing="exp").score for s in names}
    human = {s: -v for s, v in mqm.system_scores(segments["en-de"]).items() if s in bleu}
    out = mqm.system_agreement(bleu, human)
    x, y = [bleu[s] for s in human], list(human.values())
    assert out["pearson"] == pytest.approx(stats.pearsonr(x, y).statistic, abs=1e-12)
    assert out["kendall"] == pytest.approx(stats.kendalltau(x, y, variant="b").statistic, abs=1e-12)
    assert out["accuracy"] == accuracy_by_definition(x, y)
    # without ties, pairwise accuracy is (1 + tau) / 2: the share of concordant pairs
    assert out["accuracy"] == pytest.approx((1 + out["kendall"]) / 2, abs=1e-12)


def test_segment_kendall_tau_by_hand():
    # items (metric, human): A1 (3, -1), B1 (2, -2), B2 (2, 0), C1 (1, -3); A2 is not rated
    metric = {"A": {1: 3.0, 2: 9.0}, "B": {1: 2.0, 2: 2.0}, "C": {1: 1.0}}
    human = {"A": {1: -1.0, 2: None}, "B": {1: -2.0, 2: 0.0}, "C": {1: -3.0}}
    # pairs: A1B1 C, A1B2 D, A1C1 C, B1B2 tied in the metric, B1C1 C, B2C1 C: C = 4, D = 1, P = 6,
    # one pair tied in the metric, none in the humans: tau-b = 3 / sqrt(5 * 6)
    assert mqm.segment_kendall_tau(metric, human) == pytest.approx(3 / math.sqrt(30), abs=1e-15)


@pytest.mark.conformance
def test_segment_kendall_tau_against_scipy_on_real_segments(annotations, segments):
    """Sentence BLEU of three en-de systems against their segments' −MQM (many ties on both sides):
    scipy's kendalltau, variant "b", over the same flattened items."""
    from scipy import stats

    d = annotations["en-de"]
    refs = [[r] for r in d.texts["ref-A"]]
    names = ["Facebook-AI", "Nemo", "UEdin"]
    stats_rows = mqm.system_statistics("bleu", {s: d.texts[s] for s in names}, refs, tokenize="13a",
                                       smoothing="exp", effective_order=True)
    bleu = get_metric("bleu")
    options = {"smoothing": "exp", "effective_order": True}
    metric = {s: dict(zip(d.seg_ids, bleu.scores(stats_rows[s], options).tolist())) for s in names}
    human = {s: {i: -v for i, v in segments["en-de"][s].items()} for s in names}
    tau = mqm.segment_kendall_tau(metric, human)
    x = [metric[s][i] for s in names for i in human[s]]
    y = [human[s][i] for s in names for i in human[s]]
    assert len(x) == 3 * 529 and len(set(y)) < len(y) / 10  # ties galore
    assert tau == pytest.approx(stats.kendalltau(x, y, variant="b").statistic, abs=1e-12)


# ------------------------------------------------------------------------------------------ bad input
def test_bad_input_is_refused_clearly():
    three = {"A": 1.0, "B": 2.0, "C": 3.0}
    with pytest.raises(ValueError, match="same systems"):
        mqm.pairwise_accuracy(three, {"A": 1.0, "B": 2.0, "D": 3.0})
    with pytest.raises(ValueError, match="at least 3 systems"):
        mqm.pairwise_accuracy({"A": 1.0, "B": 2.0}, {"A": 1.0, "B": 2.0})
    with pytest.raises(ValueError, match="NaN|nan"):
        mqm.system_agreement({**three, "C": float("nan")}, three)
    with pytest.raises(TypeError, match="dict of system name"):
        mqm.pairwise_accuracy([1, 2, 3], three)
    with pytest.raises(TypeError, match="expected a number"):
        mqm.pairwise_accuracy({**three, "A": "1"}, three)
    seg = {"A": {1: 1.0, 2: 2.0}, "B": {1: 1.0, 2: 0.0}, "C": {1: 3.0, 2: 1.0}}
    with pytest.raises(ValueError, match="different segments"):
        mqm.segment_kendall_tau(seg, {**seg, "C": {1: 3.0}})
    with pytest.raises(ValueError, match="same systems"):
        mqm.segment_kendall_tau(seg, {"A": seg["A"], "B": seg["B"], "D": seg["C"]})
    with pytest.raises(ValueError, match="at least 3 systems"):
        mqm.segment_kendall_tau({"A": seg["A"]}, {"A": seg["A"]})
    with pytest.raises(ValueError, match="nan"):
        mqm.segment_kendall_tau(seg, {**seg, "B": {1: float("nan"), 2: 0.0}})
    with pytest.raises(TypeError, match="dict of system -> dict"):
        mqm.segment_kendall_tau(seg, {"A": [1.0, 2.0]})


# ------------------------------------------------------------------------------------------ the bootstrap
@pytest.fixture(scope="module")
def small(annotations, segments):
    """Four en-de systems on their first 40 segments, with BLEU's rows."""
    d = annotations["en-de"]
    ids = d.seg_ids[:40]
    names = ["Facebook-AI", "Nemo", "Online-W", "UEdin"]
    corpora = {s: list(d.texts[s][:40]) for s in names}
    refs = [[r] for r in d.texts["ref-A"][:40]]
    rows = mqm.system_statistics("bleu", corpora, refs, tokenize="13a", smoothing="exp")
    human = {s: [segments["en-de"][s][i] for i in ids] for s in names}
    return corpora, refs, rows, human


def test_bootstrap_is_seeded_and_its_estimate_is_the_real_agreement(small):
    corpora, refs, rows, human = small
    a = mqm.bootstrap_system_agreement("bleu", rows, human, n_samples=200, seed=3, smoothing="exp")
    b = mqm.bootstrap_system_agreement("bleu", rows, human, n_samples=200, seed=3, smoothing="exp")
    c = mqm.bootstrap_system_agreement("bleu", rows, human, n_samples=200, seed=4, smoothing="exp")
    assert a == b and [x.samples for x in a.values()] == [x.samples for x in b.values()]
    assert a["pearson"].samples != c["pearson"].samples
    bleu = {s: corpus_bleu(corpora[s], refs, tokenize="13a", smoothing="exp").score for s in corpora}
    real = mqm.system_agreement(bleu, {s: -float(np.mean(v)) for s, v in human.items()})
    for key in mqm.MEASURES:
        assert a[key].estimate == pytest.approx(real[key], abs=1e-12)
        assert a[key].low <= a[key].median <= a[key].high and a[key].seed == 3 and a[key].n_samples == 200


def test_bootstrap_resamples_segments_as_a_recount_would(small):
    """Resample i of the bootstrap is the corpus of the segments numpy's generator draws for it (the same
    draws for every system): recounted from the texts with corpus_bleu, it gives the same agreement."""
    corpora, refs, rows, human = small
    n, k = len(refs), 5
    out = mqm.bootstrap_system_agreement("bleu", rows, human, n_samples=k, seed=11, smoothing="exp")
    draws = np.random.default_rng(11).integers(0, n, size=(k, n))
    expected = {key: [] for key in mqm.MEASURES}
    for picked in draws.tolist():
        bleu = {s: corpus_bleu([corpora[s][i] for i in picked], [refs[i] for i in picked], tokenize="13a",
                               smoothing="exp").score for s in corpora}
        people = {s: -sum(human[s][i] for i in picked) / n for s in corpora}
        for key, value in mqm.system_agreement(bleu, people).items():
            expected[key].append(value)
    for key in mqm.MEASURES:
        assert np.allclose(out[key].samples, expected[key], rtol=0, atol=1e-12)


def test_bootstrap_refuses_bad_input(small):
    _, _, rows, human = small
    with pytest.raises(ValueError, match="same systems"):
        mqm.bootstrap_system_agreement("bleu", rows, {**human, "extra": human["Nemo"]})
    with pytest.raises(ValueError, match="at least 3 systems"):
        mqm.bootstrap_system_agreement("bleu", {s: rows[s] for s in ("Nemo", "UEdin")},
                                       {s: human[s] for s in ("Nemo", "UEdin")})
    with pytest.raises(ValueError, match="one of each per segment"):
        mqm.bootstrap_system_agreement("bleu", rows, {**human, "Nemo": human["Nemo"][:-1]})
    with pytest.raises(ValueError, match="NaN"):
        mqm.bootstrap_system_agreement("bleu", rows, {**human, "Nemo": [float("nan")] + human["Nemo"][1:]})
    with pytest.raises(TypeError, match="unknown option"):
        mqm.bootstrap_system_agreement("bleu", rows, human, word_order=2)
    with pytest.raises(ValueError, match="unknown metric"):
        mqm.bootstrap_system_agreement("blue", rows, human)
    with pytest.raises(ValueError, match="one translation per segment"):
        mqm.system_statistics("bleu", {"A": ["x"]}, [["x"], ["y"]])


# ------------------------------------------------------------------------------------------ issue 32 (round 4)
# Issue 32, item 4: "`mqm.bootstrap_system_agreement` accepts chrF statistics under `metric="bleu"`,
# `tokenize="bogus"`, and MQM scores given as strings, and returns numbers. Check statistics against the
# metric, options, and types."
@pytest.mark.hardening
def test_bootstrap_checks_statistics_against_the_metric_options_and_types(small):
    corpora, refs, rows, human = small
    chrf_rows = mqm.system_statistics("chrf", corpora, refs)
    with pytest.raises(ValueError, match=r"rows of 18 numbers; bleu with these options has rows of 15"):
        mqm.bootstrap_system_agreement("bleu", chrf_rows, human, n_samples=10)
    with pytest.raises(ValueError, match=r"rows of 15 numbers; chrf with these options has rows of 18"):
        mqm.bootstrap_system_agreement("chrf", rows, human, n_samples=10)
    with pytest.raises(ValueError, match="are not ter rows"):
        mqm.bootstrap_system_agreement("ter", rows, human, n_samples=10)
    bleu5 = mqm.system_statistics("bleu", corpora, refs, weights=(0.2,) * 5)  # 18 numbers a row, like chrF's
    with pytest.raises(ValueError, match="are not chrf rows"):
        mqm.bootstrap_system_agreement("chrf", bleu5, human, n_samples=10)
    with pytest.raises(ValueError, match="unknown tokenizer 'bogus'"):
        mqm.bootstrap_system_agreement("bleu", rows, human, n_samples=10, tokenize="bogus")
    with pytest.raises(TypeError, match="lowercase must be True or False"):
        mqm.bootstrap_system_agreement("bleu", rows, human, n_samples=10, lowercase="yes")
    with pytest.raises(TypeError, match="negate must be True or False"):
        mqm.bootstrap_system_agreement("bleu", rows, human, n_samples=10, negate="no")
    with pytest.raises(TypeError, match=r"mqm\['Nemo'\]\[0\] is a str"):
        mqm.bootstrap_system_agreement("bleu", rows, {**human, "Nemo": [str(v) for v in human["Nemo"]]}, n_samples=10)
    with pytest.raises(TypeError, match="holds float64 values; expected integer counts"):
        mqm.bootstrap_system_agreement("bleu", {s: r.astype(float) for s, r in rows.items()}, human, n_samples=10)
    with pytest.raises(TypeError, match=r"mqm\['Nemo'\] is a dict"):
        mqm.bootstrap_system_agreement("bleu", rows, {**human, "Nemo": dict(enumerate(human["Nemo"]))}, n_samples=10)
    with pytest.raises(ValueError, match="negative"):
        mqm.bootstrap_system_agreement("bleu", {**rows, "Nemo": -rows["Nemo"]}, human, n_samples=10)
    with pytest.raises(ValueError, match=r"weighted error counts >= 0.*negate"):  # the avg files' sign
        mqm.bootstrap_system_agreement("bleu", rows, {s: [-v for v in h] for s, h in human.items()}, n_samples=10)
    # the right rows and options still give the same numbers
    assert mqm.bootstrap_system_agreement("bleu", rows, human, n_samples=10, seed=1, smoothing="exp") == \
        mqm.bootstrap_system_agreement("bleu", {s: r.tolist() for s, r in rows.items()}, human, n_samples=10, seed=1,
                                       smoothing="exp")


# Issue 32, item 11: "`None` (unrated) segments give `float() argument … 'NoneType'`; a constant human side
# "samples must be a non-empty list"" (in the bootstrap, which needs every segment rated).
@pytest.mark.hardening
def test_bootstrap_refuses_unrated_segments_and_a_constant_side_clearly(small):
    _, _, rows, human = small
    with pytest.raises(ValueError, match=r"mqm\['Nemo'\]\[0\] is None \(not rated\)"):
        mqm.bootstrap_system_agreement("bleu", rows, {**human, "Nemo": [None] + human["Nemo"][1:]}, n_samples=10)
    with pytest.raises(ValueError, match="the humans' system scores are all equal"):
        mqm.bootstrap_system_agreement("bleu", rows, {s: [1.0] * len(h) for s, h in human.items()}, n_samples=10)
    same = {s: rows["Nemo"] for s in rows}
    with pytest.raises(ValueError, match="the metric's system scores are all equal"):
        mqm.bootstrap_system_agreement("bleu", same, human, n_samples=10)


# Issue 32, item 11: "`system_scores` returns NaN or inf for odd input; `None` (unrated) segments ...;
# `segment_scores` of dict rows AttributeError."  None stays "not rated, left out" (documented; the avg
# files mark unrated segments so); anything else that is not a finite number is refused.
@pytest.mark.hardening
def test_system_and_segment_scores_refuse_odd_input():
    assert mqm.system_scores({"A": {1: 1e308, 2: 1e308}}) == {"A": 1e308}  # finite scores: a finite mean
    assert mqm.system_scores({"A": {1: 2.0, 2: None, 3: 4.0}}) == {"A": 3.0}
    for bad in (float("nan"), float("inf"), -float("inf")):
        with pytest.raises(ValueError, match=r"segments\['A'\]\[2\] is .*finite"):
            mqm.system_scores({"A": {1: 1.0, 2: bad}})
    with pytest.raises(TypeError, match=r"segments\['A'\]\[1\] is a str"):
        mqm.system_scores({"A": {1: "1.5"}})
    with pytest.raises(TypeError, match=r"segments\['A'\] is a list"):
        mqm.system_scores({"A": [1.0, 2.0]})
    with pytest.raises(TypeError, match="segments must be a dict"):
        mqm.system_scores([1.0])
    with pytest.raises(TypeError, match=r"errors\[1\] is a dict.*MQMError\(\*\*row\)"):
        mqm.segment_scores([row("A", 1, "r1"), {"system": "A", "seg_id": 2, "rater": "r1",
                                                "category": "No-error", "severity": "No-error"}])
    with pytest.raises(TypeError, match=r"errors\[0\]\.seg_id is '1'"):
        mqm.segment_scores([row("A", "1", "r1")])
    with pytest.raises(TypeError, match="errors must be a list"):
        mqm.segment_scores("A 1 r1")
