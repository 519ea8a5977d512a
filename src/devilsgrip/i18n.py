"""Translations: every string a person sees goes through :func:`_`.

The language comes from ``set_language`` (``--lang``), else the environment
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English.
"""

from __future__ import annotations

import gettext
import os
from pathlib import Path
from typing import Final

LANGUAGES: Final = ("en", "fr", "da", "es", "hu")
LOCALE_DIR: Final = Path(__file__).parent / "locale"
DOMAIN: Final = "devilsgrip"

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def normalize_language(value: str | None) -> str | None:
    """``fr_FR.UTF-8`` -> ``fr``; None when not one of :data:`LANGUAGES`."""
    if not value:
        return None
    code = value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def language_from_environment() -> str:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            for part in value.split(":"):
                code = normalize_language(part)
                if code:
                    return code
            if var != "LANGUAGE":
                break
    return "en"


def translations(language: str) -> gettext.NullTranslations:
    """The catalog of ``language`` (English falls back to the source strings)."""
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True)


def set_language(language: str | None) -> str:
    """Switch the process language; returns the language in force."""
    global _current, _language
    code = normalize_language(language) if language else language_from_environment()
    if language and code is None:
        raise ValueError(f"unknown language '{language}' (choose from {', '.join(LANGUAGES)})")
    _language = code or "en"
    _current = translations(_language)
    return _language


def current_language() -> str:
    return _language


def _(message: str) -> str:
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)


def translate_error(error: Exception) -> str:
    """The player-language text of a library error (by its reason code).

    Falls back to the error's English message when no translation exists.
    """
    from devilsgrip.errors import DevilsGripError

    if not isinstance(error, DevilsGripError):
        return str(error)
    return _(error.message)
