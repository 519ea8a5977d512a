"""A player's games as a file of game records, out and in (any screen's export and import).

The file is what ``devilsgrip export`` writes and ``devilsgrip import`` reads: the
records of the engine's format, separated by blank lines.  An import checks each
record by replaying it, keeps the good ones as the player's games, skips those
already kept and tells, in the player's words, how many came in and which were
refused and why.  A file that holds no game the game can read is damaged: it is
refused whole, and nothing is written.

>>> import tempfile
>>> from pathlib import Path
>>> from devilsgrip.game import Game
>>> from devilsgrip.store import Store
>>> store = Store.open(Path(tempfile.mkdtemp()) / "games.sqlite3")
>>> game = Game(5)
>>> _ = game.play_text("d")
>>> _ = store.save_game(game, "me", started="2026-01-01T10:00:00")
>>> out = export_records(store, "me")
>>> out.count, out.text.startswith("[Event")
(1, True)
>>> import_records(store, "me", out.text, Words("en")).said
'No game imported. 1 game was already kept.'
>>> import_records(store, "you", out.text, Words("en")).said
'1 game imported.'
>>> store.close()
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Final

from devilsgrip import codes
from devilsgrip.errors import DevilsGripError
from devilsgrip.i18n import N_
from devilsgrip.table.controller import Refusal
from devilsgrip.table.words import Words, say_error, sentence

if TYPE_CHECKING:
    from devilsgrip.store import Store

FILE_PREFIX: Final = "devilsgrip-games"
"""The start of an exported file's name (the day and ``.txt`` follow)."""
REFUSALS_TOLD: Final = 50
"""Refused records told one by one at most (the count tells the rest)."""
FILE_MOST: Final = 16 * 1024 * 1024
"""The largest records file read (some 20,000 games)."""


@dataclass(frozen=True)
class RecordsFile:
    """A player's games as the text of a records file, and the file's name."""

    text: str
    count: int
    name: str


@dataclass(frozen=True)
class ImportAnswer:
    """What an import did: games kept, games already kept, the records refused (their
    number in the file from 1, and the reason in words), and all of it said."""

    imported: tuple[int, ...]
    duplicates: int
    refused: tuple[tuple[int, str], ...]
    said: str


def _no_store(words: Words, what: str) -> Refusal:
    return Refusal(codes.NOT_SAVING, sentence(words.gettext(what)), "illegal")


def export_records(store: Store | None, owner: str, *, words: Words | None = None,
                   today: date | None = None) -> RecordsFile:
    """Every game of ``owner``, oldest first, as one records file (refused when games are
    not kept at all)."""
    if store is None:
        raise _no_store(words or Words(), N_("games are not being saved here, so there is "
                                             "nothing to export"))
    records = [store.record(info.id) for info in sorted(store.games(owner=owner),
                                                        key=lambda g: g.id)]
    return RecordsFile("\n".join(records), len(records), export_file_name(today))


def export_file_name(today: date | None = None, folder: Path | None = None) -> str:
    """The name an export suggests: ``devilsgrip-games-`` and the day; with ``folder``,
    one not taken there yet (``-2``, ``-3`` ... after the day)."""
    stem = f"{FILE_PREFIX}-{(today or date.today()).isoformat()}"
    name, more = f"{stem}.txt", 1
    while folder is not None and (folder / name).exists():
        more += 1
        name = f"{stem}-{more}.txt"
    return name


def _damaged(words: Words, reason: str) -> Refusal:
    return Refusal(codes.RECORDS_DAMAGED, sentence(words.gettext(reason)), "input")


def import_records(store: Store | None, owner: str, text: str, words: Words) -> ImportAnswer:
    """The records in ``text`` kept as ``owner``'s games (see the module's documentation).

    Raises :class:`Refusal` ``records-damaged`` when no record in the file can be read
    (nothing is written), ``not-saving`` when games are not kept here.
    """
    from devilsgrip.store import import_records as store_import
    from devilsgrip.store import split_records

    if store is None:
        raise _no_store(words, N_("games are not being saved here, so nothing can be "
                                  "imported"))
    if "\x00" in text or not split_records(text):
        raise _damaged(words, N_("this file holds no game record (is it a file that "
                                 "'Export games' or devilsgrip export wrote?); nothing was "
                                 "imported"))
    try:
        report = store_import(store, text, owner=owner)
    except ValueError as exc:
        if isinstance(exc, DevilsGripError):
            raise
        raise _damaged(words, N_("a record's Hints tag is not a whole number; nothing was "
                                 "imported")) from exc
    refused = tuple((index, say_error(error, words)) for index, error in report.bad)
    if refused and not report.imported and not report.duplicates:
        first = refused[0]
        raise Refusal(codes.RECORDS_DAMAGED, sentence(words.gettext(
            "no game in this file could be read (record {index}: {reason}); nothing was "
            "imported").format(index=first[0], reason=first[1].rstrip("."))), "input")
    parts = [words.ngettext("{n} game imported.", "{n} games imported.",
                            len(report.imported)).format(n=len(report.imported))
             if report.imported else words.gettext("No game imported.")]
    if report.duplicates:
        parts.append(words.ngettext("{n} game was already kept.", "{n} games were already kept.",
                                    len(report.duplicates)).format(n=len(report.duplicates)))
    if refused:
        parts.append(words.ngettext("{n} record was refused:", "{n} records were refused:",
                                    len(refused)).format(n=len(refused)))
    return ImportAnswer(tuple(report.imported), len(report.duplicates),
                        refused[:REFUSALS_TOLD], " ".join(parts))


def refusal_line(index: int, reason: str, words: Words) -> str:
    """One refused record told: its number in the file and why."""
    return words.gettext("Record {index}: {reason}").format(index=index, reason=reason)


def import_told(answer: ImportAnswer, words: Words) -> str:
    """An import's answer as lines: what came in, then each record refused and why."""
    return "\n".join([answer.said, *(refusal_line(index, reason, words)
                                    for index, reason in answer.refused)])


# ------------------------------------------------------------------ files on disk
def records_path(text: str, words: Words) -> Path:
    """The file a player typed the name of, as a whole path (``~`` for their home folder,
    a relative name from the current folder); a blank name is refused."""
    name = text.strip()
    if not name:
        raise Refusal(codes.MISSING_FIELD, sentence(words.gettext(
            "write the name of a file")), "input")
    return Path(name).expanduser().absolute()


def export_to_file(store: Store | None, owner: str, path: Path, words: Words, *,
                   today: date | None = None) -> str:
    """Every game of ``owner`` written to a new file at ``path``; what was done, said.

    A file already at ``path`` is never written over, and a write that fails leaves no
    file behind: both are refused (``file-exists``, ``file-unwritable``).  With no game
    to export nothing is written.
    """
    out = export_records(store, owner, words=words, today=today)
    if not out.count:
        return words.gettext("There is no game to export yet.")
    shown = str(path)
    try:
        handle = path.open("x", encoding="utf-8")
    except FileExistsError as exc:
        raise Refusal(codes.FILE_EXISTS, sentence(words.gettext(
            "{path} is already there; choose another name (nothing was written)").format(
                path=shown)), "input", exc) from exc
    except OSError as exc:
        raise _unwritable(words, shown, exc) from exc
    try:
        with handle:
            handle.write(out.text)
    except OSError as exc:
        with contextlib.suppress(OSError):
            path.unlink()  # no half-written file is left
        raise _unwritable(words, shown, exc) from exc
    return sentence(words.ngettext("{n} game exported to {path}", "{n} games exported to {path}",
                                   out.count).format(n=out.count, path=shown))


def _unwritable(words: Words, path: str, exc: OSError) -> Refusal:
    return Refusal(codes.FILE_UNWRITABLE, sentence(words.gettext(
        "cannot write {path}: {reason}").format(path=path, reason=exc.strerror or exc)),
        "input", exc)


def import_from_file(store: Store | None, owner: str, path: Path, words: Words) -> ImportAnswer:
    """The records of the file at ``path`` kept as ``owner``'s games (see
    :func:`import_records`); a file that cannot be read is refused (``file-unreadable``)
    and nothing is written."""
    shown = str(path)

    def unreadable(reason: str) -> Refusal:
        return Refusal(codes.FILE_UNREADABLE, sentence(reason), "input")

    try:
        if path.is_dir():
            raise unreadable(words.gettext("{path} is a folder, not a records file").format(
                path=shown))
        with path.open("rb") as handle:
            data = handle.read(FILE_MOST + 1)
    except FileNotFoundError as exc:
        raise unreadable(words.gettext("there is no file {path}").format(path=shown)) from exc
    except OSError as exc:
        raise unreadable(words.gettext("cannot read {path}: {reason}").format(
            path=shown, reason=exc.strerror or exc)) from exc
    if len(data) > FILE_MOST:
        raise unreadable(words.gettext(
            "{path} is too large for a records file (more than {mb} MB)").format(
                path=shown, mb=FILE_MOST // (1024 * 1024)))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise unreadable(words.gettext("cannot read {path}: it is not UTF-8 text").format(
            path=shown)) from exc
    return import_records(store, owner, text, words)
