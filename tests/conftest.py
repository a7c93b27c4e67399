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


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """xdist's loadscope scheduling, with each test of SPREAD a scope of its own."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SpreadSlowTests(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            return nodeid if nodeid.startswith(SPREAD) else super()._split_scope(nodeid)

    return SpreadSlowTests(config, log)


def _runs_a_lesson(item) -> bool:
    return item.nodeid.startswith(SPREAD) or item.nodeid.split("::")[0].endswith(".ipynb")


def pytest_collection_modifyitems(config, items):
    """Run the lessons first (the notebooks and SPREAD, the longest units, so that the workers finish
    together); mark the property tests, and under the ``test`` profile cap their examples at TEST_EXAMPLES."""
    items[:] = sorted(items, key=lambda item: not _runs_a_lesson(item))  # stable: each unit keeps its order
    for item in items:
        test = getattr(item, "obj", None)
        if not getattr(test, "is_hypothesis_test", False):
            continue
        item.add_marker(pytest.mark.property)
        own = test._hypothesis_internal_use_settings  # what the test's @settings asked for
        if PROFILE == "test" and own.max_examples > TEST_EXAMPLES:
            test._hypothesis_internal_use_settings = settings(own, max_examples=TEST_EXAMPLES)


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
