"""Fixtures of the table-layer tests (the drivers of both screens are in ``drivers.py``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from devilsgrip.i18n import set_language  # noqa: E402


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """Every test starts and ends in English."""
    set_language("en")
    yield
    set_language("en")
