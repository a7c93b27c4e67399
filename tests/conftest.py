"""Shared fixtures: the real corpora, loaded once per test session."""

from __future__ import annotations

import pytest

from evalkit import data


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
