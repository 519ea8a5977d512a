"""Language detection: --lang, then the environment, then Accept-Language."""

from __future__ import annotations

import pytest

from devilsgrip.i18n import (
    current_language,
    detect_language,
    language_from_accept,
    language_from_environment,
    normalize_language,
    set_language,
)


@pytest.mark.parametrize(
    ("value", "code"),
    [("fr_FR.UTF-8", "fr"), ("da-DK", "da"), ("HU", "hu"), ("es_MX@euro", "es"),
     ("de_DE", None), ("C", None), ("", None), (None, None)],
)
def test_normalize(value: str | None, code: str | None) -> None:
    assert normalize_language(value) == code


def test_environment_order(clean_env: pytest.MonkeyPatch) -> None:
    assert language_from_environment() == "en"
    clean_env.setenv("LANG", "hu_HU.UTF-8")
    assert language_from_environment() == "hu"
    clean_env.setenv("LC_MESSAGES", "da_DK.UTF-8")
    assert language_from_environment() == "da"
    clean_env.setenv("LC_ALL", "fr_FR.UTF-8")
    assert language_from_environment() == "fr"
    clean_env.setenv("LANGUAGE", "de:es:fr")
    assert language_from_environment() == "es"
    assert set_language(None) == "es"
    assert current_language() == "es"


def test_unknown_environment_language_gives_english(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("LANG", "de_DE.UTF-8")
    assert language_from_environment() == "en"
    assert set_language(None) == "en"


def test_set_language_rejects_unknown() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        set_language("xx")


@pytest.mark.parametrize(
    ("header", "code"),
    [
        ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr"),
        ("de-DE,de;q=0.9,da;q=0.8,en;q=0.5", "da"),
        ("en;q=0.2, hu;q=0.9", "hu"),
        ("es;q=0, fr;q=0.1", "fr"),
        ("pt-BR,pt;q=0.9", "en"),
        ("", "en"),
        (None, "en"),
        ("hu;q=bad, es", "es"),
    ],
)
def test_accept_language(header: str | None, code: str) -> None:
    assert language_from_accept(header) == code


def test_detect_chain(clean_env: pytest.MonkeyPatch) -> None:
    assert detect_language(None, "da,en;q=0.5") == "da"
    assert detect_language("hu", "da") == "hu"
    clean_env.setenv("LANG", "es_ES.UTF-8")
    assert detect_language(None, "da") == "es"
    clean_env.setenv("LANG", "C.UTF-8")
    assert detect_language(None, "da") == "da"
    assert detect_language(None, None) == "en"


def test_module_doctests() -> None:
    import doctest

    from devilsgrip import i18n

    result = doctest.testmod(i18n)
    assert result.attempted >= 5
    assert result.failed == 0
