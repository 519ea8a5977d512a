"""Compiled catalogs: made on first use when missing or stale, and by the build hook."""

from __future__ import annotations

import gettext
import importlib.util
import os
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from devilsgrip import i18n
from devilsgrip.i18n_build import check, compile_catalogs

ROOT = Path(__file__).resolve().parents[2]


def _copy_catalog(tmp_path: Path, lang: str = "fr") -> Path:
    locale = tmp_path / "locale"
    target = locale / lang / "LC_MESSAGES"
    target.mkdir(parents=True)
    shutil.copy(i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "devilsgrip.po", target)
    return locale


def test_mo_compiled_on_first_use(tmp_path: Path) -> None:
    locale = _copy_catalog(tmp_path)
    mo = locale / "fr" / "LC_MESSAGES" / "devilsgrip.mo"
    assert not mo.exists()
    cat = i18n.translations("fr", locale_dir=locale, cache_dir=tmp_path / "cache")
    assert mo.is_file()
    assert isinstance(cat, gettext.GNUTranslations)
    assert cat.gettext("the stock is empty") == "la pioche est vide"


def test_stale_mo_is_recompiled(tmp_path: Path) -> None:
    locale = _copy_catalog(tmp_path)
    po = locale / "fr" / "LC_MESSAGES" / "devilsgrip.po"
    i18n.translations("fr", locale_dir=locale, cache_dir=tmp_path / "cache")
    text = po.read_text(encoding="utf-8").replace(
        'msgstr "la pioche est vide"', 'msgstr "la pioche est toute vide"')
    po.write_text(text, encoding="utf-8")
    mo = po.with_suffix(".mo")
    os.utime(mo, (1, 1))
    cat = i18n.translations("fr", locale_dir=locale, cache_dir=tmp_path / "cache")
    assert cat.gettext("the stock is empty") == "la pioche est toute vide"


def test_unwritable_locale_uses_cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locale = _copy_catalog(tmp_path, "hu")
    cache = tmp_path / "cache"
    real = i18n.compile_po
    beside = locale / "hu" / "LC_MESSAGES" / "devilsgrip.mo"

    def refuse_beside(po: Path, mo: Path) -> None:
        if mo == beside:
            raise PermissionError("read-only")
        real(po, mo)

    monkeypatch.setattr(i18n, "compile_po", refuse_beside)
    cat = i18n.translations("hu", locale_dir=locale, cache_dir=cache)
    assert not beside.exists()
    assert (cache / "locale" / "hu" / "LC_MESSAGES" / "devilsgrip.mo").is_file()
    assert cat.gettext("the stock is empty") == "a húzópakli üres"


def test_no_catalog_gives_source_strings(tmp_path: Path) -> None:
    cat = i18n.translations("da", locale_dir=tmp_path, cache_dir=tmp_path)
    assert cat.gettext("the stock is empty") == "the stock is empty"
    assert i18n.translations("en").gettext("the stock is empty") == "the stock is empty"


def test_compile_catalogs(tmp_path: Path) -> None:
    locale = _copy_catalog(tmp_path, "es")
    assert [p.name for p in compile_catalogs(locale)] == ["devilsgrip.mo"]
    assert compile_catalogs(locale) == []
    assert len(compile_catalogs(locale, force=True)) == 1


def test_check_reports_untranslated(tmp_path: Path) -> None:
    for lang in ("fr", "da", "es", "hu"):
        _copy_catalog(tmp_path / lang, lang)
        shutil.copytree(tmp_path / lang / "locale" / lang, tmp_path / "all" / lang)
    po = tmp_path / "all" / "da" / "LC_MESSAGES" / "devilsgrip.po"
    po.write_text(po.read_text(encoding="utf-8").replace(
        'msgstr "bunken er tom"', 'msgstr ""'), encoding="utf-8")
    problems = check(tmp_path / "all")
    assert any("untranslated: 'the stock is empty'" in p for p in problems)


def test_hatch_hook_compiles_into_the_wheel(tmp_path: Path) -> None:
    pytest.importorskip("hatchling")
    spec = importlib.util.spec_from_file_location("hatch_build", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    build_data: dict[str, Any] = {"force_include": {}}
    # initialize() only reads self.root: call it on a stand-in for the hook.
    module.CatalogBuildHook.initialize(SimpleNamespace(root=str(ROOT)), "standard", build_data)
    included = build_data["force_include"]
    assert sorted(included.values()) == [
        f"devilsgrip/locale/{lang}/LC_MESSAGES/devilsgrip.mo" for lang in ("da", "es", "fr", "hu")
    ]
    for source in included:
        with open(source, "rb") as f:
            assert gettext.GNUTranslations(f).gettext("the stock is empty") != (
                "the stock is empty")
