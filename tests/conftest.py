"""Shared fixtures (the real corpora, loaded once per test session), the hypothesis profiles and the marks.

- ``EVALKIT_HYPOTHESIS`` picks the hypothesis profile: ``test`` (the default, what ``make test`` runs) or
  ``thorough`` (``make conformance``).  A property test's own ``@settings(max_examples=N)`` is what it runs
  under ``thorough``; under ``test`` it runs at most ``TEST_EXAMPLES`` of them.  The assertions are the same.
- ``EVALKIT_PEERS=live`` (``make conformance``) computes the recorded peer numbers of tests/peers/ again
  instead of reading them (see tests/peers/__init__.py).
- Every test that uses hypothesis is marked ``property`` here; ``conformance`` and ``hardening`` are marked in
  the test files.  The marks are listed in pyproject.toml and explained in tests/README.md.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from evalkit import data

PROFILE_ENV = "EVALKIT_HYPOTHESIS"
TEST_EXAMPLES = 60  # the most examples a property test runs under make test
settings.register_profile("test", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", deadline=None, suppress_health_check=[HealthCheck.too_slow])
PROFILE = os.environ.get(PROFILE_ENV, "test")
if PROFILE not in ("test", "thorough"):
    raise ValueError(f"{PROFILE_ENV} must be 'test' or 'thorough', not {PROFILE!r}")
settings.load_profile(PROFILE)


def pytest_report_header(config):
    peers = "live (recomputed by the peers)" if os.environ.get("EVALKIT_PEERS") == "live" else "recorded (tests/peers/)"
    return f"evalkit: hypothesis profile {PROFILE!r}, peer numbers {peers}"


# make test and make conformance run in parallel with pytest-xdist's --dist loadscope: a test module (with its
# fixtures), a notebook (its cells, in order) and a module's doctests are each one unit, run in order in one
# worker.  The tests below are slow and independent (each runs a lesson in a kernel of its own): each is a unit
# of its own and goes to whichever worker is free, so that no worker waits for one long module.
SPREAD = ("tests/test_lesson.py::test_a_lesson_runs_to_the_end_on_other_inputs[",)

# The units are handed out in the order collected (xdist's own reordering, by number of tests, is switched off):
# the longest first, so that the workers finish together.  Seconds measured by `make test --durations=0` on the
# 2-core machine (2026-11-24); a unit not listed counts as short and keeps its place after these.
LONGEST_FIRST = {
    "tests/test_significance.py": 44,
    "notebooks/11-significance.ipynb": 44,
    "notebooks/13-metrics-and-people.ipynb": 42,
    "tests/test_ter.py": 42,
    "tests/test_bleu.py": 27,
    "tests/test_site_browser.py": 31,
    "notebooks/12-chrf-and-ter.ipynb": 30,
    "notebooks/05-gleu.ipynb": 28,
    "tests/test_rouge.py": 25,
    "tests/test_chrf.py": 25,
    "tests/test_gleu.py": 20,
    "tests/test_browser.py": 19,
    "notebooks/14-experts-against-metrics.ipynb": 15,
    "notebooks/04-tokenization.ipynb": 13,
    "tests/test_figures.py": 13,
    "tests/test_plots.py": 13,
}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """xdist's loadscope scheduling, with each test of SPREAD a scope of its own and the units in our order."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    config.option.loadscopereorder = False  # keep the order of pytest_collection_modifyitems below

    class SpreadSlowTests(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            return nodeid if nodeid.startswith(SPREAD) else super()._split_scope(nodeid)

    return SpreadSlowTests(config, log)


def _unit(item) -> str:
    return item.nodeid if item.nodeid.startswith(SPREAD) else item.nodeid.split("::")[0]


def _runs_a_lesson(item) -> bool:
    return item.nodeid.startswith(SPREAD) or item.nodeid.split("::")[0].endswith(".ipynb")


def pytest_collection_modifyitems(config, items):
    """Run the longest units first (LONGEST_FIRST, then the other lessons, then the rest as collected), so
    that the workers finish together; mark the property tests, and under the ``test`` profile cap their
    examples at TEST_EXAMPLES."""
    # stable: each unit keeps the order of its tests
    items[:] = sorted(items, key=lambda item: (-LONGEST_FIRST.get(_unit(item), 0), not _runs_a_lesson(item)))
    for item in items:
        test = getattr(item, "obj", None)
        if not getattr(test, "is_hypothesis_test", False):
            continue
        item.add_marker(pytest.mark.property)
        own = test._hypothesis_internal_use_settings  # what the test's @settings asked for
        if PROFILE == "test" and own.max_examples > TEST_EXAMPLES:
            test._hypothesis_internal_use_settings = settings(own, max_examples=TEST_EXAMPLES)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """Both editions of the real lessons built once per run (``make site``'s build, about 10 s), read by
    test_site.py and served by test_site_browser.py.  Under pytest-xdist the workers share one build through a
    lock in the run's temporary folder; the notebooks folder is checked unchanged by the build."""
    import hashlib
    import time

    from tools import lessons, site

    def digest(folder):
        return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}

    def build(out):
        before = digest(lessons.NOTEBOOKS)
        start = time.perf_counter()
        written = site.build(lessons.lesson_files(), out)
        print(f"both editions of the lessons built in {time.perf_counter() - start:.1f} s")
        assert digest(lessons.NOTEBOOKS) == before, "the build wrote into notebooks/"
        assert written == [out / "student", out / "teacher"]

    base = tmp_path_factory.getbasetemp()
    try:
        import fcntl
    except ImportError:  # no POSIX locks (Windows): each process builds its own
        build(base / "site")
        return base / "site"
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the run's folder, shared by its workers
    out, done = root / "site", root / "site.built"
    with open(root / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.exists():
            build(out)
            done.write_text("built\n")
    return out


@pytest.fixture(scope="session")
def wmt17():
    """(reference lines, {system name: output lines}) for WMT17 en-de newstest2017."""
    return data.wmt17_reference(), data.wmt17_systems()


@pytest.fixture(scope="session")
def jfleg_dev():
    return data.jfleg("dev")


@pytest.fixture(scope="session")
def jfleg_test():
    return data.jfleg("test")
