"""Every catalog is complete, not fuzzy, and keeps the source strings' placeholders."""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from devilsgrip.i18n import LANGUAGES, LOCALE_DIR, ngettext, set_language, translations
from devilsgrip.i18n_build import extract

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def _read(lang: str) -> Any:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "devilsgrip.po").open("rb") as f:
        return read_po(f)


def _fields(text: str) -> set[str]:
    # "{target_onto}" is the Hungarian "onto" form of {target}: it counts as {target}.
    return {
        name.removesuffix("_onto")
        for _lit, name, _spec, _conv in string.Formatter().parse(text)
        if name is not None
    }


@pytest.fixture(scope="module")
def source_ids() -> set[str]:
    template = extract()
    return {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_has_every_source_string(lang: str, source_ids: set[str]) -> None:
    catalog = _read(lang)
    have = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}
    missing = sorted(source_ids - have)
    assert not missing, f"{lang}: run `python -m devilsgrip.i18n_build update`: {missing[:5]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_complete_and_placeholders_match(lang: str) -> None:
    catalog = _read(lang)
    assert not catalog.fuzzy
    assert catalog.num_plurals == 2
    problems = []
    count = 0
    for message in catalog:
        if not message.id:
            continue
        count += 1
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        if message.fuzzy:
            problems.append(f"fuzzy: {ids[0]!r}")
        if not all(strings):
            problems.append(f"untranslated: {ids[0]!r}")
            continue
        wanted = set().union(*(_fields(i) for i in ids))
        for text in strings:
            if _fields(text) != wanted:
                problems.append(f"placeholders of {text!r} differ from {ids[0]!r}")
            text.format_map({name: 1 for name in _fields(text)} | {
                f"{name}_onto": 1 for name in _fields(text)})
    assert count > 50
    assert not problems, "\n".join(problems[:20])


def test_languages_differ_from_english() -> None:
    probe = "the stock is empty"
    seen = {lang: translations(lang).gettext(probe) for lang in LANGUAGES}
    assert seen["en"] == probe
    assert len(set(seen.values())) == len(LANGUAGES)
    assert seen["fr"] == "la pioche est vide"


PLURALS: dict[str, dict[int, str]] = {
    "en": {0: "0 cards", 1: "1 card", 2: "2 cards", 5: "5 cards"},
    "fr": {0: "0 carte", 1: "1 carte", 2: "2 cartes", 5: "5 cartes"},
    "da": {0: "0 kort", 1: "1 kort", 2: "2 kort", 5: "5 kort"},
    "es": {0: "0 cartas", 1: "1 carta", 2: "2 cartas", 5: "5 cartas"},
    "hu": {0: "0 lap", 1: "1 lap", 2: "2 lap", 5: "5 lap"},
}
MOVES: dict[str, dict[int, str]] = {
    "en": {0: "0 moves", 1: "1 move", 2: "2 moves", 5: "5 moves"},
    "fr": {0: "0 coup", 1: "1 coup", 2: "2 coups", 5: "5 coups"},
    "da": {0: "0 træk", 1: "1 træk", 2: "2 træk", 5: "5 træk"},
    "es": {0: "0 jugadas", 1: "1 jugada", 2: "2 jugadas", 5: "5 jugadas"},
    "hu": {0: "0 lépés", 1: "1 lépés", 2: "2 lépés", 5: "5 lépés"},
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_plural_forms(lang: str, n: int) -> None:
    set_language(lang)
    assert ngettext("{n} card", "{n} cards", n).format(n=n) == PLURALS[lang][n]
    assert ngettext("{n} move", "{n} moves", n).format(n=n) == MOVES[lang][n]
    cat = translations(lang)
    assert cat.ngettext("{n} move", "{n} moves", n).format(n=n) == MOVES[lang][n]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plural_header_is_gettext_classic(lang: str) -> None:
    header = (LOCALE_DIR / lang / "LC_MESSAGES" / "devilsgrip.po").read_text(encoding="utf-8")
    expected = "(n > 1)" if lang == "fr" else "(n != 1)"
    assert f"Plural-Forms: nplurals=2; plural={expected};" in header


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_text_exists_in_every_language(lang: str) -> None:
    path = Path(LOCALE_DIR / "rules" / f"{lang}.md")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Devil's Grip")
    for word in ("classic", "single-pass", "literal", "redeals", "move_unit",
                 "fill_from_talon", "draw"):
        assert word in text, (lang, word)
    assert text.count("\n## ") >= 8
