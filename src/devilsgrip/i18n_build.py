"""Build and maintain the gettext catalogs (Babel).

Commands (``python -m devilsgrip.i18n_build COMMAND``):

``compile`` (the default; ``--force`` to redo all)
    ``locale/*/LC_MESSAGES/devilsgrip.po`` -> ``.mo`` where missing or older.
    The setup commands run it; :mod:`devilsgrip.i18n` also does it on first
    use, and the hatch build hook for the wheel.  ``.mo`` files are not
    committed.
``update``
    Extract every ``_()``/``ngettext()``/``N_()``/``pgettext()`` string of the
    package's Python files and every ``t("...")``/``tn("...", "...", n)`` of
    ``web/static/*.js`` into ``locale/devilsgrip.pot``, then merge it into each
    language's ``.po``: existing translations are kept, new strings are added
    untranslated, strings no longer used are dropped.  Never marks anything
    fuzzy.
``todo [LANG ...]``
    Print the entries still to translate as JSON:
    ``{"fr": [{"msgid": .., "msgid_plural": .., "locations": [..]}], ..}``.
``apply FILE.json``
    Write translations into the catalogs: ``{"fr": {"msgid": "msgstr" or
    ["form 0", "form 1"]}, ..}`` (a plural entry is named by its singular msgid).
``check``
    Report untranslated and fuzzy entries and placeholder mismatches; exit 1
    when there is any.
"""

from __future__ import annotations

import json
import string
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from devilsgrip.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, compile_po

PACKAGE_DIR = Path(__file__).parent
POT_PATH = LOCALE_DIR / f"{DOMAIN}.pot"
BABEL_CFG = PACKAGE_DIR.parent.parent / "babel.cfg"
"""The repository's Babel mapping (``pybabel extract -F babel.cfg``), when present."""
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")
PLURAL_FORMS: dict[str, tuple[int, str]] = {
    "fr": (2, "(n > 1)"),
    "da": (2, "(n != 1)"),
    "es": (2, "(n != 1)"),
    "hu": (2, "(n != 1)"),
}
"""The classic gettext plural rules (Babel's CLDR-based rules add a form for millions)."""
LANGUAGE_TEAMS = {"fr": "French", "da": "Danish", "es": "Spanish", "hu": "Hungarian"}

DEFAULT_METHOD_MAP: list[tuple[str, str]] = [
    ("**/locale/**", "ignore"),
    ("**.py", "python"),
    ("web/static/**.js", "javascript"),
]
EXTRA_KEYWORDS: dict[str, Any] = {"t": None, "tn": (1, 2)}
"""The web page's markers: ``t("Undo")``, ``tn("{n} card", "{n} cards", n)``."""


def po_path(lang: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


# ------------------------------------------------------------------ compile
def compile_catalogs(locale_dir: Path = LOCALE_DIR, force: bool = False) -> list[Path]:
    """Compile every ``.po`` whose ``.mo`` is missing or older; returns those written."""
    written: list[Path] = []
    if not locale_dir.is_dir():
        return written
    for po in sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        mo = po.with_suffix(".mo")
        if not force and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        try:
            compile_po(po, mo)
        except OSError as exc:
            print(f"cannot write {mo}: {exc}", file=sys.stderr)
            continue
        written.append(mo)
    return written


# ------------------------------------------------------------------ extract
def placeholders(text: str) -> set[str]:
    """The ``str.format`` field names of ``text`` (``"{n} cards"`` -> ``{"n"}``)."""
    names: set[str] = set()
    try:
        for _literal, field, _spec, _conv in string.Formatter().parse(text):
            if field is not None:
                names.add(field.split(".")[0].split("[")[0])
    except ValueError:
        names.add("<malformed>")
    return names


def _method_map() -> tuple[list[tuple[str, str]], dict[str, dict[str, str]]]:
    if BABEL_CFG.is_file():
        from babel.messages.frontend import parse_mapping_cfg

        with BABEL_CFG.open(encoding="utf-8") as f:
            method_map, options_map = parse_mapping_cfg(f, str(BABEL_CFG))  # type: ignore[no-untyped-call]
        return list(method_map), dict(options_map)
    return DEFAULT_METHOD_MAP, {}


def extract(source_dir: Path = PACKAGE_DIR) -> Any:
    """A Babel catalog (the template) of every marked string under ``source_dir``."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir

    from devilsgrip import __version__

    keywords = {**DEFAULT_KEYWORDS, **EXTRA_KEYWORDS}
    method_map, options_map = _method_map()
    template = Catalog(
        project="devilsgrip", version=__version__, domain=DOMAIN,
        msgid_bugs_address="", copyright_holder="The devilsgrip developers",
        fuzzy=False,
    )
    prefix = source_dir.parent
    for filename, lineno, message, comments, context in extract_from_dir(
        str(source_dir), method_map, options_map, keywords=keywords,
        comment_tags=("TRANSLATORS:",), strip_comment_tags=True,
    ):
        path = (source_dir / filename).relative_to(prefix).as_posix()
        msgid = message if isinstance(message, str) else tuple(message)
        texts = [msgid] if isinstance(msgid, str) else list(msgid)
        if not any(texts):
            continue
        flags = ["python-brace-format"] if any(placeholders(t) for t in texts if t) else []
        template.add(
            msgid, locations=[(path, lineno)], auto_comments=comments, context=context,
            flags=flags,
        )
    return template


def _set_headers(catalog: Any, lang: str, version: str | None) -> None:
    catalog.project = "devilsgrip"
    catalog.version = version
    catalog.msgid_bugs_address = ""
    catalog.last_translator = "The devilsgrip developers"
    catalog.language_team = LANGUAGE_TEAMS.get(lang, lang)
    if lang in PLURAL_FORMS:
        catalog._num_plurals, catalog._plural_expr = PLURAL_FORMS[lang]


def _write(catalog: Any, path: Path) -> None:
    from babel.messages.pofile import write_po

    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, sort_output=True, include_lineno=False,
                 omit_header=False, ignore_obsolete=True)


def _read(path: Path, lang: str | None = None) -> Any:
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def update(locale_dir: Path = LOCALE_DIR, source_dir: Path = PACKAGE_DIR) -> dict[str, int]:
    """Extract, write the ``.pot`` and merge into every ``.po``; returns untranslated counts."""
    from babel.messages.catalog import Catalog

    template = extract(source_dir)
    _write(template, locale_dir / f"{DOMAIN}.pot")
    todo: dict[str, int] = {}
    for lang in TRANSLATED:
        path = po_path(lang, locale_dir)
        if path.is_file():
            catalog = _read(path, lang)
        else:
            catalog = Catalog(
                locale=lang, domain=DOMAIN, project="devilsgrip", fuzzy=False,
                copyright_holder="The devilsgrip developers",
                header_comment=f"# {LANGUAGE_TEAMS.get(lang, lang)} translation of devilsgrip.\n"
                "# This file is distributed under the same license as devilsgrip (MIT).\n#",
            )
        _set_headers(catalog, lang, template.version)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()
        catalog.fuzzy = False
        _write(catalog, path)
        todo[lang] = len(missing(catalog))
    return todo


# ------------------------------------------------------------- translating
def _is_translated(message: Any) -> bool:
    if isinstance(message.string, (list, tuple)):
        return all(message.string)
    return bool(message.string)


def missing(catalog: Any) -> list[Any]:
    """The entries of ``catalog`` without a complete translation (or marked fuzzy)."""
    return [m for m in catalog if m.id and (not _is_translated(m) or m.fuzzy)]


def todo(langs: Sequence[str] = TRANSLATED, locale_dir: Path = LOCALE_DIR) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for lang in langs:
        catalog = _read(po_path(lang, locale_dir), lang)
        result[lang] = [
            {
                "msgid": m.id if isinstance(m.id, str) else m.id[0],
                "msgid_plural": None if isinstance(m.id, str) else m.id[1],
                "context": m.context,
                "locations": sorted({p for p, _n in m.locations}),
            }
            for m in missing(catalog)
        ]
    return result


def apply(translations: dict[str, dict[str, Any]], locale_dir: Path = LOCALE_DIR) -> int:
    """Write ``{lang: {msgid: msgstr | [forms]}}`` into the catalogs; returns entries set."""
    done = 0
    for lang, entries in translations.items():
        path = po_path(lang, locale_dir)
        catalog = _read(path, lang)
        for message in catalog:
            if not message.id:
                continue
            key = message.id if isinstance(message.id, str) else message.id[0]
            if key not in entries:
                continue
            value = entries[key]
            if isinstance(message.id, str):
                if not isinstance(value, str):
                    raise ValueError(f"{lang}: {key!r} takes one string")
                message.string = value
            else:
                forms = [value] * catalog.num_plurals if isinstance(value, str) else list(value)
                if len(forms) != catalog.num_plurals:
                    raise ValueError(f"{lang}: {key!r} needs {catalog.num_plurals} forms")
                message.string = tuple(forms)
            message.flags.discard("fuzzy")
            done += 1
        _write(catalog, path)
    return done


# ------------------------------------------------------------------- check
def check_catalog(path: Path) -> list[str]:
    """Problems of one ``.po``: untranslated, fuzzy, placeholders unlike the source."""
    catalog = _read(path)
    problems: list[str] = []
    if catalog.fuzzy:
        problems.append(f"{path}: the catalog header is fuzzy")
    for message in catalog:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        label = ids[0]
        if message.fuzzy:
            problems.append(f"{path}: fuzzy: {label!r}")
        if not _is_translated(message):
            problems.append(f"{path}: untranslated: {label!r}")
            continue
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        wanted = set().union(*(placeholders(i) for i in ids))
        for text in strings:
            found = {p.removesuffix("_onto") for p in placeholders(text)}
            if found != wanted:
                problems.append(
                    f"{path}: placeholders {sorted(found)} != {sorted(wanted)} in {text!r}"
                )
    return problems


def check(locale_dir: Path = LOCALE_DIR) -> list[str]:
    problems: list[str] = []
    for lang in TRANSLATED:
        path = po_path(lang, locale_dir)
        if not path.is_file():
            problems.append(f"{path}: missing")
            continue
        problems.extend(check_catalog(path))
    return problems


def main(argv: Iterable[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args[0] if args and not args[0].startswith("-") else "compile"
    rest = args[1:] if args and args[0] == command else args
    if command == "compile":
        for path in compile_catalogs(force="--force" in rest):
            print(f"compiled {path}")
        return 0
    if command == "update":
        for lang, count in update().items():
            print(f"{lang}: {count} to translate")
        compile_catalogs()
        return 0
    if command == "todo":
        print(json.dumps(todo(rest or TRANSLATED), ensure_ascii=False, indent=1))
        return 0
    if command == "apply":
        if len(rest) != 1:
            print("usage: python -m devilsgrip.i18n_build apply FILE.json", file=sys.stderr)
            return 2
        data = json.loads(Path(rest[0]).read_text(encoding="utf-8"))
        print(f"{apply(data)} entries written")
        compile_catalogs()
        return 0
    if command == "check":
        problems = check()
        for line in problems:
            print(line)
        return 1 if problems else 0
    print(f"unknown command {command!r}: compile, update, todo, apply or check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
