"""The examples in the analysis and table modules' docstrings run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", [
    "devilsgrip.analysis", "devilsgrip.analysis.runner", "devilsgrip.analysis.summary",
    "devilsgrip.analysis.report", "devilsgrip.table", "devilsgrip.table.places",
    "devilsgrip.table.lines",
])
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0
    assert failures == 0
