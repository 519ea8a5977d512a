"""Translations: every string a person sees goes through :func:`_`.

English is the source language: the source strings are English and a
missing translation falls back to them.  The catalogs are Babel-managed
gettext ``.po`` files in ``locale/<lang>/LC_MESSAGES/devilsgrip.po``; their
compiled ``.mo`` files are built with the package, by
``python -m devilsgrip.i18n_build``, or here on first use when missing or
older than the ``.po`` (written next to it when possible, else into the
user cache directory).

The language comes from ``set_language`` (``--lang``), else the environment
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else (in the browser)
``Accept-Language`` (:func:`language_from_accept`), else English.

>>> set_language("fr")
'fr'
>>> card_label(30)
'huit de carreau'
>>> ngettext("{n} move", "{n} moves", 2).format(n=2)
'2 coups'
>>> _ = set_language("en")
"""

from __future__ import annotations

import gettext
import os
import re
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from devilsgrip import codes

LANGUAGES: Final = ("en", "fr", "da", "es", "hu")
LANGUAGE_NAMES: Final = {
    "en": "English",
    "fr": "Français",
    "da": "Dansk",
    "es": "Español",
    "hu": "Magyar",
}
"""Each language's name in that language (for language menus)."""
LOCALE_DIR: Final = Path(__file__).parent / "locale"
RULES_DIR: Final = LOCALE_DIR / "rules"
DOMAIN: Final = "devilsgrip"

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"
_lock = threading.Lock()
_cache: dict[tuple[str, Path], tuple[float, gettext.NullTranslations]] = {}


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now."""
    return message


# ---------------------------------------------------------------- languages
def normalize_language(value: str | None) -> str | None:
    """``fr_FR.UTF-8`` -> ``fr``; None when not one of :data:`LANGUAGES`."""
    if not value:
        return None
    code = value.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def language_from_environment(default: str = "en") -> str:
    """The language of ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG`` (gettext's order).

    ``LANGUAGE`` may list several (``da:fr``); the first known one wins.
    The first of the other variables that is set decides; ``default`` when
    none names a known language.
    """
    found = _environment_language()
    return found or default


def _environment_language() -> str | None:
    value = os.environ.get("LANGUAGE")
    if value:
        for part in value.split(":"):
            code = normalize_language(part)
            if code:
                return code
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return normalize_language(value)
    return None


def language_from_accept(header: str | None, default: str = "en") -> str:
    """The best known language of an HTTP ``Accept-Language`` header.

    >>> language_from_accept("de-DE,de;q=0.9,da;q=0.8,en;q=0.5")
    'da'
    >>> language_from_accept("pt-BR")
    'en'
    """
    if not header:
        return default
    choices: list[tuple[float, int, str]] = []
    for index, item in enumerate(header.split(",")):
        parts = item.strip().split(";")
        code = normalize_language(parts[0])
        if code is None:
            continue
        quality = 1.0
        for param in parts[1:]:
            key, _eq, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality > 0:
            choices.append((-quality, index, code))
    return min(choices)[2] if choices else default


def detect_language(
    lang: str | None = None, accept_language: str | None = None, default: str = "en"
) -> str:
    """``lang`` (e.g. ``--lang``) if known, else the environment, else Accept-Language."""
    return (
        normalize_language(lang)
        or _environment_language()
        or language_from_accept(accept_language, default)
    )


# ------------------------------------------------------------------ catalogs
def _cache_dir() -> Path:
    env = os.environ.get("DEVILSGRIP_CACHE")
    if env:
        return Path(env)
    try:
        from platformdirs import user_cache_dir

        return Path(user_cache_dir("devilsgrip", appauthor=False))
    except ImportError:  # pragma: no cover - platformdirs is a dependency
        return Path(tempfile.gettempdir()) / "devilsgrip-cache"


def _fresh(mo: Path, po: Path | None) -> bool:
    if not mo.is_file():
        return False
    return po is None or not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime


def compile_po(po: Path, mo: Path) -> None:
    """Compile one ``.po`` into ``mo`` (atomically; raises OSError when not writable)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f)
    mo.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".devilsgrip-", suffix=".mo", dir=mo.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            write_mo(f, catalog, use_fuzzy=False)
        os.replace(tmp, mo)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def mo_path(language: str, locale_dir: Path = LOCALE_DIR, cache_dir: Path | None = None) -> (
    Path | None
):
    """The compiled catalog of ``language``, compiling it first if missing or stale.

    None when the language has no catalog (English) or it cannot be compiled.
    """
    po = locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    beside = po.with_suffix(".mo")
    if not po.is_file():
        return beside if beside.is_file() else None
    if _fresh(beside, po):
        return beside
    try:
        compile_po(po, beside)
        return beside
    except ImportError:
        return beside if beside.is_file() else None
    except OSError:
        pass
    cached = (cache_dir or _cache_dir()) / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if _fresh(cached, po):
        return cached
    try:
        compile_po(po, cached)
        return cached
    except (OSError, ImportError):
        return beside if beside.is_file() else None


def translations(
    language: str, locale_dir: Path = LOCALE_DIR, cache_dir: Path | None = None
) -> gettext.NullTranslations:
    """The catalog of ``language`` (with ``gettext``/``ngettext``), for one request.

    English, an unknown language or a missing catalog give the source strings.
    """
    code = normalize_language(language) or "en"
    if code == "en":
        return gettext.NullTranslations()
    with _lock:
        mo = mo_path(code, locale_dir, cache_dir)
        if mo is None:
            return gettext.NullTranslations()
        mtime = mo.stat().st_mtime
        key = (code, mo)
        hit = _cache.get(key)
        if hit is not None and hit[0] == mtime:
            return hit[1]
        with mo.open("rb") as f:
            catalog = gettext.GNUTranslations(f)
        _cache[key] = (mtime, catalog)
        return catalog


def catalog_strings(language: str) -> dict[str, str]:
    """Every singular source string of the catalog and its translation (for the web page)."""
    cat = translations(language)
    raw: Mapping[Any, str] = getattr(cat, "_catalog", {})
    return {k: v for k, v in raw.items() if isinstance(k, str) and k and v}


PLURAL_RULES: Final[dict[str, str]] = {
    "en": "n!=1", "fr": "n>1", "da": "n!=1", "es": "n!=1", "hu": "n!=1",
}
"""Each language's plural rule, as the web page applies it (the catalogs' Plural-Forms)."""


def catalog_plurals(language: str) -> dict[str, list[str]]:
    """Every plural entry of the catalog: singular source string -> translated forms."""
    cat = translations(language)
    raw: Mapping[Any, str] = getattr(cat, "_catalog", {})
    forms: dict[str, dict[int, str]] = {}
    for key, value in raw.items():
        if isinstance(key, tuple) and len(key) == 2 and value:
            msgid, index = key
            forms.setdefault(str(msgid), {})[int(index)] = value
    return {k: [v[i] for i in sorted(v)] for k, v in forms.items()}


def set_language(language: str | None) -> str:
    """Switch the process language (None: from the environment); returns it.

    Raises ValueError for a language that is not one of :data:`LANGUAGES`.
    """
    global _current, _language
    code = normalize_language(language) if language else language_from_environment()
    if language and code is None:
        raise ValueError(f"unknown language '{language}' (choose from {', '.join(LANGUAGES)})")
    _language = code or "en"
    _current = translations(_language)
    return _language


def current_language() -> str:
    return _language


def _catalog(lang: str | None) -> gettext.NullTranslations:
    return _current if lang is None else translations(lang)


def _(message: str) -> str:
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return _current.pgettext(context, message)


# --------------------------------------------------------------- card names
_RANKS: Final[dict[str, tuple[str, ...]]] = {
    "en": ("2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king"),
    "fr": ("deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix",
           "valet", "dame", "roi"),
    "da": ("to", "tre", "fire", "fem", "seks", "syv", "otte", "ni", "ti",
           "knægt", "dame", "konge"),
    "es": ("dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez",
           "jota", "reina", "rey"),
    "hu": ("kettes", "hármas", "négyes", "ötös", "hatos", "hetes", "nyolcas", "kilences",
           "tízes", "bubi", "dáma", "király"),
}
_SUITS: Final[dict[str, tuple[str, ...]]] = {
    "en": ("spades", "hearts", "diamonds", "clubs"),
    "fr": ("pique", "cœur", "carreau", "trèfle"),
    "da": ("spar", "hjerter", "ruder", "klør"),
    "es": ("picas", "corazones", "diamantes", "tréboles"),
    "hu": ("pikk", "kőr", "káró", "treff"),
}
_HU_ONTO: Final = ("kettesre", "hármasra", "négyesre", "ötösre", "hatosra", "hetesre",
                   "nyolcasra", "kilencesre", "tízesre", "bubira", "dámára", "királyra")
"""Hungarian rank names with the sublative ending ("onto the ...")."""


RANK_LETTERS: Final[dict[str, tuple[str, str, str]]] = {
    "fr": ("V", "D", "R"),  # valet, dame, roi
    "hu": ("B", "D", "K"),  # bubi, dáma, király
}
"""The letters of the jack, queen and king where a language's cards have their own (the
others write J, Q, K).  The notation keeps its codes (``QH``) in every language."""


def card_symbol(card: int, lang: str | None = None) -> str:
    """The card as the screens show it: rank and suit symbol in the player's language
    (``"10♠"``, ``"Q♥"``; ``"D♥"`` in French and Hungarian)."""
    code = _lang(lang)
    symbols = _CARD_SYMBOLS.get(code)
    if symbols is None:
        symbols = _CARD_SYMBOLS[code] = _card_symbols(code)
    return symbols[card]


def _card_symbols(code: str) -> tuple[str, ...]:
    """Every card's symbol in language ``code``, by card (made once per language)."""
    from devilsgrip.cards import N_CARDS, RANK_OF
    from devilsgrip.cards import card_symbol as plain

    letters = RANK_LETTERS.get(code)
    return tuple(plain(card) if letters is None or RANK_OF[card] < 11
                 else letters[RANK_OF[card] - 11] + plain(card)[-1]
                 for card in range(N_CARDS))


_CARD_SYMBOLS: dict[str, tuple[str, ...]] = {}


def _lang(lang: str | None) -> str:
    if lang is None:
        return _language
    return normalize_language(lang) or "en"


def card_label(card: int, lang: str | None = None, *, definite: bool = False) -> str:
    """The card's name: ``"8 of spades"``, ``"huit de pique"``, ``"spar otte"``.

    With ``definite``, the form with the article a sentence uses:
    ``"the 8 of spades"``, ``"le huit de pique"``, ``"el ocho de picas"``,
    ``"a pikk nyolcas"`` (Danish names take none: ``"spar otte"``).
    """
    code = _lang(lang)
    rank, suit = card % 12, card // 12
    r, s = _RANKS[code][rank], _SUITS[code][suit]
    if code in ("da", "hu"):
        label = f"{s} {r}"
    elif code == "en":
        label = f"{r} of {s}"
    else:
        label = f"{r} de {s}"
    if not definite:
        return label
    if code == "en":
        return "the " + label
    if code == "fr":
        return ("la " if rank == 10 else "le ") + label
    if code == "es":
        return ("la " if rank in (9, 10) else "el ") + label
    if code == "hu":
        return "a " + label
    return label


def _card_onto(card: int, code: str) -> str:
    """The definite form after "onto" (Hungarian adds the sublative ending)."""
    if code == "hu":
        return f"a {_SUITS['hu'][card // 12]} {_HU_ONTO[card % 12]}"
    return card_label(card, code, definite=True)


# ------------------------------------------------------------------- ratings
RATING_LABELS: Final = {
    "won": N_("won"),
    "brilliant": N_("brilliant"),
    "excellent": N_("excellent"),
    "good": N_("good"),
    "none": N_("no rating"),
}


def rating_label(value: object, lang: str | None = None) -> str:
    """The translated rating: ``Rating.GOOD``, ``"good"`` -> ``"bon"`` ..."""
    key = str(getattr(value, "value", value))
    message = RATING_LABELS.get(key)
    if message is None:
        return key
    return _catalog(lang).gettext(message)


# -------------------------------------------------------------------- errors
ERROR_MESSAGES: Final[dict[str, str]] = {
    # illegal moves (IllegalMoveError)
    codes.STOCK_EMPTY: N_("the stock is empty"),
    codes.STOCK_NOT_EMPTY: N_("the stock is not empty yet: deal it first"),
    codes.TALON_EMPTY: N_("the talon is empty"),
    codes.SWAP_BOTH_EMPTY: N_("{a} and {b} are both empty"),
    codes.SOURCE_EMPTY: N_("{cell} is empty"),
    codes.NO_CARD_FITS: N_("no card of {cell} goes on {target}: it takes {need}"),
    codes.TARGET_EMPTY: N_("{cell} is empty: a space takes a pile only by a swap"),
    codes.CARD_IS_BASE: N_("{card} is a base: bases reach the grid only by filling a space"),
    codes.TARGET_COMPLETE: N_("nothing goes on {target}: its sequence ends there"),
    codes.WRONG_SUIT: N_("{card} does not go on {target}: piles are built in suit"),
    codes.WRONG_RANK: N_("{card} does not go on {target}: it takes {need}"),
    codes.GAME_GIVEN_UP: N_("this game was given up"),
    codes.NOTHING_TO_UNDO: N_("there is no move to undo"),
    codes.NOTHING_TO_REDO: N_("there is no move to redo"),
    # move text (MoveError) and cards (CardError)
    codes.MOVE_BAD_TEXT: N_("cannot read move '{text}' (write d, r, t-c2, a1-c2 or a1=c2)"),
    codes.CELL_UNKNOWN: N_("unknown cell '{cell}' (cells are a1 .. h3)"),
    codes.MOVE_SAME_CELL: N_("move '{text}' names the same cell twice"),
    codes.CARD_UNKNOWN: N_("unknown card '{card}'"),
    codes.CARDS_BAD_TEXT: N_("cannot read cards '{card}'"),
    # decks and game numbers (DeckError)
    codes.DECK_UNKNOWN_CARD: N_("position {position}: unknown card '{card}'"),
    codes.DECK_WRONG_CARDS: N_("this is not a deck of 96 cards, two of each"),
    codes.GAME_NUMBER_RANGE: N_("game numbers are whole numbers from 1 to {max}, not '{number}'"),
    codes.GAME_NUMBER_BAD: N_("game numbers are whole numbers from 1 to {max}, not '{number}'"),
    # rules (RulesError)
    codes.RULES_EMPTY: N_("no rules given: name a preset such as 'classic'"),
    codes.RULES_UNKNOWN_PRESET: N_("unknown rules preset '{preset}' (choose from {presets})"),
    codes.RULES_BAD_OPTION: N_("bad rules option '{option}': write name=value"),
    codes.RULES_BAD_VALUE: N_("bad value '{value}' for {option}: {expected}"),
    codes.RULES_UNKNOWN_OPTION: N_("unknown rules option '{option}' (choose from {options})"),
    # positions (PositionError)
    codes.POSITION_FIELDS: N_("a position has 6 fields separated by spaces, found {found}"),
    codes.POSITION_RULES: N_("bad rules in the position"),
    codes.POSITION_GRID: N_("the grid needs 3 rows of 8 cells (rows by '/', cells by ',')"),
    codes.POSITION_CARD: N_("bad card in the position"),
    codes.POSITION_PILE: N_("pile {cell} is not built in suit sequence"),
    codes.POSITION_CARDS: N_("every card must appear exactly twice"),
    codes.POSITION_COUNTS: N_("redeals and moves must be whole numbers from 0 to {max}"),
    codes.POSITION_REDEALS: N_("more redeals done than the rules allow"),
    # game records (RecordError)
    codes.RECORD_BAD_TAG: N_("cannot read tag line: {line}"),
    codes.RECORD_BAD_GAME: N_("bad game number in the record"),
    codes.RECORD_DECK_MISMATCH: N_("the Deck tag is not the deck of Game"),
    codes.RECORD_RULES_MISMATCH: N_("Rules and Position disagree"),
    codes.RECORD_NO_START: N_("the record has no Game, Deck or Position tag"),
    codes.RECORD_ILLEGAL_MOVE: N_("move {number} '{move}': {reason}"),
    codes.RECORD_MISMATCH: N_("the record does not agree with its moves"),
    codes.RECORD_BAD_HINTS: N_("bad number of hints in the record"),
    codes.RECORD_BAD_TIME: N_("bad play time in the record"),
    # analysis runs and results files (AnalysisError)
    codes.RESULTS_MISSING: N_("no results file at {path}"),
    codes.RESULTS_UNREADABLE: N_("cannot use {path} as a results file: {reason}"),
    codes.RESULTS_NEWER: N_("{path} was written by a newer version of devilsgrip"),
    codes.RESULTS_BUSY: N_(
        "another run is writing {path}: wait for it, or write to a SQLite file, "
        "which several runs can share"
    ),
    codes.PARQUET_UNAVAILABLE: N_("Parquet needs pyarrow: pip install 'devilsgrip[analysis]'"),
    codes.DASK_UNAVAILABLE: N_(
        "the Dask backend needs dask.distributed: pip install 'devilsgrip[cluster]'"
    ),
    codes.DASK_UNREACHABLE: N_("cannot reach the Dask scheduler {scheduler}: {reason}"),
    codes.WORKER_DIED: N_(
        "a worker process died (out of memory?): rerun the same command to resume"
    ),
    codes.GAMES_BAD: N_("bad game range '{games}': write e.g. 1-10000 or 1-5,9"),
    codes.GAMES_TOO_MANY: N_("'{games}' names more than 10 million deals: analyse them in parts"),
    codes.JOBS_BAD: N_("--jobs must be at least 1, not {jobs}"),
    codes.BACKEND_UNKNOWN: N_("unknown backend '{backend}' (choose from {backends})"),
    codes.SCHEDULER_NEEDS_DASK: N_("--scheduler needs --backend dask"),
    codes.PLAYER_UNKNOWN: N_("unknown player '{player}' (choose from {players})"),
    codes.SOLVER_MISMATCH: N_(
        "game {game}: the solver claims score {claimed} but its moves reach {reached}"
    ),
    # thinking time (LimitError)
    codes.TIME_LIMIT_BAD: N_("the time limit must be a positive number of seconds, not {limit}"),
    # the search core (CoreError): DEVILSGRIP_CORE, read by every command
    codes.CORE_UNKNOWN: N_(
        "DEVILSGRIP_CORE='{choice}' names no search core: choose 'python' or 'compiled'"),
    codes.CORE_MISSING: N_(
        "DEVILSGRIP_CORE=compiled, but the compiled search core is not built ({reason}): "
        "reinstall devilsgrip where a C compiler is, or set DEVILSGRIP_CORE=python"),
    # the store (StoreError); the same English as store.py
    codes.STORE_CORRUPT: N_(
        "the database {path} is damaged or is not a devilsgrip database; it was left untouched"
    ),
    codes.STORE_NEWER: N_(
        "the database {path} was written by a newer version of devilsgrip "
        "(schema {found}, this version reads up to {supported}); it was left untouched"
    ),
    codes.STORE_UNREADABLE: N_("cannot open the database {path}: {reason}; it was left untouched"),
    codes.STORE_WRITE_FAILED: N_("cannot save to the database {path}: {reason}"),
    codes.STORE_CREATE_FAILED: N_(
        "cannot create the database {path}: {reason}; nothing was left behind"),
    codes.STORE_NO_GAME: N_("there is no game {game_id} in the database {path}"),
    codes.STORE_GAME_CHANGED: N_("game {game_id} was changed by another window or program"),
    codes.STORE_MISSING: N_("there is no database {path}"),
    # picking up and dropping (the table layer)
    codes.PICK_EMPTY: N_("{cell} is empty: there is nothing to pick up"),
    codes.DROP_OFF_GRID: N_("cards are dropped on the grid, not on the stock or the talon"),
    codes.DROP_FROM_STOCK: N_("the stock is dealt, not dropped"),
    codes.SWAP_OFF_GRID: N_("only the cells of the grid swap their piles"),
    codes.PLACE_UNKNOWN: N_("unknown place '{place}' (a1 .. h3, stock, talon)"),
    # the lifecycle of a game (PlaySession)
    codes.GAME_FINISHED: N_("this game is finished: its result stands"),
    codes.GAME_WON: N_("the game is won: there is nothing to give up"),
    codes.GAME_LIVE: N_("this game is still being played"),
    codes.REVIEW_PROVEN: N_("every value of this review is proven already"),
    codes.BEST_LINE_WON: N_("the game is won: no score is better than 0"),
    codes.STORE_NONE: N_("no database"),
    # the daily deal and the winnable deals
    codes.DAILY_DATE_BAD: N_("bad date '{date}': write it YYYY-MM-DD, e.g. 2026-12-05"),
    codes.DAILY_DATE_RANGE: N_("there is no daily deal on {date}: the days run from 2000-01-01 "
                           "to 2999-12-31"),
    codes.DAILY_FUTURE: N_("the daily deal of {date} cannot be played yet"),
    codes.WINNABLE_RULES: N_("winnable deals are catalogued for single-pass only"),
    codes.CATALOG_RULES: N_("winnable deals are catalogued for single-pass only, not {rules}"),
}
"""English template (a catalog source string) of every known reason code."""

_RULES_EXPECTED: Final = {
    "draw": N_("a whole number from 1 to 96"),
    "redeals": N_("a whole number from 0 to {max} or 'unlimited'"),
    "move_unit": N_("'run' or 'card'"),
    "fill_from_talon": N_("'true' or 'false'"),
}
_CARD_PARAMS: Final = ("card", "target", "need")
NUMBER_SHOWN: Final = 40
"""The most characters of a bad game number a message repeats (its start and end)."""


class _Params(dict[str, Any]):
    """Format arguments that leave an unknown placeholder as it is."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def error_text(
    code: str, params: Mapping[str, Any], lang: str | None = None, fallback: str | None = None
) -> str:
    """The translated text of reason ``code`` with ``params`` (``fallback`` if unknown)."""
    from devilsgrip.cards import (
        CARD_CODES,
        MAX_COUNT,
        MAX_GAME_NUMBER,
        parse_card_or_none,
        short_text,
    )

    cat = _catalog(lang)
    language = _lang(lang)
    values = _Params(params)
    for name in _CARD_PARAMS:
        value = params.get(name)
        card = parse_card_or_none(value) if isinstance(value, str) and value in CARD_CODES \
            else None
        if card is not None:
            values[name] = card_label(card, language, definite=True)
            values[name + "_onto"] = _card_onto(card, language)
    if code == codes.TALON_EMPTY and params.get("move") == "r":
        return cat.gettext("the talon is empty: nothing to redeal")
    if code == codes.NO_REDEALS_LEFT:
        allowed = params.get("allowed")
        n = allowed if isinstance(allowed, int) else 0
        return cat.ngettext(
            "no redeals left (these rules allow {n} redeal)",
            "no redeals left (these rules allow {n} redeals)",
            n,
        ).format(n=n)
    if code == codes.DECK_WRONG_CARDS:
        return _deck_problem(params, cat)
    if code.startswith("store-"):
        # the store names its schema version in "supported" (i18n does not import the store)
        for name in ("path", "reason", "found", "supported", "game_id"):
            values.setdefault(name, "")
    if code in (codes.GAME_NUMBER_RANGE, codes.GAME_NUMBER_BAD):  # one sentence for every case
        values["max"] = MAX_GAME_NUMBER
        values["number"] = short_text(str(params.get("number", "")).strip(), NUMBER_SHOWN)
    if code in (codes.GAMES_BAD, codes.GAMES_TOO_MANY):  # the player's own text, cut short
        values["games"] = short_text(str(params.get("games", "")).strip(), NUMBER_SHOWN)
    if code == codes.RULES_BAD_VALUE:
        expected = _RULES_EXPECTED.get(str(params.get("option")))
        values["expected"] = (
            cat.gettext(expected).format(max=MAX_COUNT) if expected else ""
        )
    if code == codes.RECORD_ILLEGAL_MOVE:
        inner = params.get("reason")
        inner_params = params.get("reason_params")
        values["reason"] = error_text(
            str(inner), inner_params if isinstance(inner_params, Mapping) else {}, lang,
            fallback=str(inner),
        )
    template = ERROR_MESSAGES.get(code)
    if template is None:
        return fallback if fallback is not None else code
    return cat.gettext(template).format_map(values)


def _deck_problem(params: Mapping[str, Any], cat: gettext.NullTranslations) -> str:
    """``95 cards, expected 96; 8H appears 3 times, KD appears once`` (translated)."""
    parts: list[str] = []
    count = params.get("count")
    if isinstance(count, int) and count != 96:
        parts.append(cat.ngettext(
            "{n} card, expected 96",
            "{n} cards, expected 96",
            count,
        ).format(n=count))
    wrong = params.get("wrong")
    cards: list[str] = []
    if isinstance(wrong, Mapping):
        for card, n in wrong.items():
            if n == 0:
                cards.append(cat.gettext("{card} is missing").format(card=card))
            elif n == 1:
                cards.append(cat.gettext("{card} appears once").format(card=card))
            else:
                cards.append(cat.ngettext(
                    "{card} appears {n} time", "{card} appears {n} times", int(n)
                ).format(card=card, n=n))
    if cards:
        parts.append(", ".join(cards))
    if not parts:
        return cat.gettext(ERROR_MESSAGES[codes.DECK_WRONG_CARDS])
    return "; ".join(parts)


def translate_error(error: BaseException, lang: str | None = None) -> str:
    """The player-language text of a library error, by its reason code and params.

    Falls back to the error's English message for an unknown code, and to
    ``str(error)`` for any other exception.
    """
    from devilsgrip.errors import DevilsGripError

    if not isinstance(error, DevilsGripError):
        return str(error)
    try:
        return error_text(error.code, error.params, lang, fallback=error.message)
    except (KeyError, ValueError, IndexError, TypeError):
        return error.message


# --------------------------------------------------------------- rules text
def rules_text(lang: str | None = None) -> str:
    """The rules for players (Markdown) in ``lang`` (English when missing)."""
    code = _lang(lang)
    for candidate in (code, "en"):
        path = RULES_DIR / f"{candidate}.md"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return ""


_BOLD_RE: Final = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_CODE_RE: Final = re.compile(r"`([^`]*)`")


def markdown_to_plain(text: str) -> str:
    """The rules' simple Markdown as plain text for a terminal."""
    out: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        plain = _CODE_RE.sub(r"\1", _BOLD_RE.sub(lambda m: m.group(1) or m.group(2), line))
        if stripped.startswith("#"):
            level = len(stripped) - len(stripped.lstrip("#"))
            title = plain.strip().lstrip("#").strip()
            if level == 1:
                out.extend([title.upper(), "=" * len(title)])
            else:
                out.extend([title, "-" * len(title)])
        elif stripped.startswith("|") and set(stripped) <= set("|-: "):
            continue
        elif stripped.startswith("|"):
            cells = [c.strip() for c in plain.strip().strip("|").split("|")]
            out.append("  " + "  ".join(f"{c:<18}" for c in cells).rstrip())
        else:
            out.append(plain.rstrip())
    return "\n".join(out).strip() + "\n"
