"""Fixtures for the store tests (helpers live in ``store_helpers.py`` next to this file)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from devilsgrip.i18n import set_language  # noqa: E402
from devilsgrip.store import Store  # noqa: E402


@pytest.fixture(autouse=True)
def _english_and_no_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("DEVILSGRIP_DB", raising=False)
    set_language("en")
    yield
    set_language("en")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def store(db: Path) -> Iterator[Store]:
    s = Store.open(db)
    yield s
    s.close()
