"""Fixtures for the translation tests: every test leaves the process language English."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from devilsgrip import i18n


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    return monkeypatch
