"""The SQLite store: every game started, its events, results, settings, web sessions.

>>> import tempfile, pathlib
>>> tmp = pathlib.Path(tempfile.mkdtemp())
>>> store = Store.open(tmp / "games.db")
>>> store.stats().played
0
>>> store.close()

Where the file is, how two processes share it, when a game is final and the schema's
versions: [the store][database-location] (docs/library/store.md).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import sqlite3
import stat
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, NamedTuple

from devilsgrip import codes
from devilsgrip.cards import MAX_COUNT, format_deck, parse_number
from devilsgrip.errors import DevilsGripError
from devilsgrip.game import Game, Rating, Status
from devilsgrip.i18n import _
from devilsgrip.records import read_record, write_record
from devilsgrip.rules import Rules

APPLICATION_ID: Final = 0x44475250  # "DGRP"
"""The SQLite ``application_id`` that marks a devilsgrip database."""
SCHEMA_VERSION: Final = 7
"""The schema version this code writes (``PRAGMA user_version``)."""
SQLITE_MAGIC: Final = b"SQLite format 3\x00"
"""The first bytes of every SQLite file."""
BUSY_TIMEOUT_MS: Final = 15000
"""How long a write waits for another process's, in milliseconds."""
QUICK_CHECK_LIMIT: Final = 32 * 1024 * 1024
"""Files up to this size get ``PRAGMA quick_check`` on open (larger ones only the cheap checks)."""

ENV_VAR: Final = "DEVILSGRIP_DB"
"""The environment variable that names the database file when ``--db`` does not."""
DB_NAME: Final = "devilsgrip.sqlite3"
"""The database's file name in the user data directory."""

EVENT_KINDS: Final = ("move", "undo", "redo", "restart", "hint", "giveup", "final")
"""The kinds of events a game keeps."""
FINISHED: Final = (Status.OVER.value, Status.WON.value, Status.GIVEN_UP.value)
"""The statuses of a game that has ended."""


class StoreError(DevilsGripError):
    """The database cannot be used.  ``code``: ``store-corrupt``, ``store-newer``,
    ``store-unreadable``, ``store-write-failed``, ``store-no-game``, ``store-missing``
    (a command that only reads found no database) or
    ``store-game-changed`` (another writer changed the game since it was read);
    ``params["path"]``."""


_ERROR_TEXTS: Final[dict[str, str]] = {
    codes.STORE_CORRUPT: "the database {path} is damaged or is not a devilsgrip database; "
                     "it was left untouched",
    codes.STORE_NEWER: "the database {path} was written by a newer version of devilsgrip "
                   "(schema {found}, this version reads up to {supported}); it was left untouched",
    codes.STORE_UNREADABLE: "cannot open the database {path}: {reason}; it was left untouched",
    codes.STORE_WRITE_FAILED: "cannot save to the database {path}: {reason}",
    codes.STORE_CREATE_FAILED: "cannot create the database {path}: {reason}; nothing was left "
                           "behind",
    codes.STORE_NO_GAME: "there is no game {game_id} in the database {path}",
    codes.STORE_GAME_CHANGED: "game {game_id} was changed by another window or program",
    codes.STORE_NONE: "no database",
    codes.STORE_MISSING: "there is no database {path}",
}


def store_error_text(error: StoreError) -> str:
    """The error in the player's language (one line)."""
    from devilsgrip.i18n import translate_error

    return translate_error(error)


def _error(code: str, path: Path | str, **params: Any) -> StoreError:
    template = _ERROR_TEXTS[code]
    values = {"path": str(path), "reason": "", "found": "", "supported": SCHEMA_VERSION,
              "game_id": ""}
    values.update(params)
    params.setdefault("supported", SCHEMA_VERSION)
    return StoreError(code, template.format(**values), path=str(path), **params)


def default_path() -> Path:
    """``$DEVILSGRIP_DB``, else the database in the user data directory."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_path("devilsgrip", appauthor=False)) / DB_NAME


def now_text() -> str:
    """The current time as stored: ISO 8601, UTC, microseconds."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def parse_time(text: str | None) -> datetime | None:
    """The time a stored text names (UTC when it names no zone), or None."""
    if not text:
        return None
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


# ------------------------------------------------------------------ values
@dataclass(frozen=True)
class GameInfo:
    """One stored game (without its events)."""

    id: int
    owner: str
    number: int | None
    deck: str | None
    start_position: str | None
    rules: str
    started: str
    updated: str
    ended: str | None
    status: str
    score: int
    moves: int
    hints: int
    final: bool = False
    play_seconds: float = 0.0

    @property
    def finished(self) -> bool:
        """The game has ended and its result stands.

        See [final games][final-games] (docs/library/store.md).
        """
        return self.final

    @property
    def won(self) -> bool:
        return self.status == Status.WON.value

    def to_dict(self) -> dict[str, Any]:
        """The game's row as JSON-ready data."""
        return {
            "id": self.id, "owner": self.owner, "number": self.number, "deck": self.deck,
            "start_position": self.start_position, "rules": self.rules,
            "started": self.started, "updated": self.updated, "ended": self.ended,
            "status": self.status, "score": self.score, "moves": self.moves,
            "hints": self.hints, "final": self.final, "play_seconds": self.play_seconds,
        }


@dataclass(frozen=True)
class GameResult:
    """What statistics need of one finished game."""

    score: int
    status: str
    number: int | None = None
    hints: int = 0
    ended: str = ""
    seconds: float = 0.0
    """The game's clock (0: not kept, as for a game imported from a record without it)."""

    @property
    def won(self) -> bool:
        return self.status == Status.WON.value


RATING_ORDER: Final = tuple(r.value for r in Rating)
"""The ratings' values, best first."""


@dataclass(frozen=True)
class Stats:
    """Statistics of finished games (over, won or given up), oldest end first."""

    rules: str | None
    owner: str | None
    played: int
    won: int
    given_up: int
    best_score: int | None
    average_score: float | None
    ratings: dict[str, int]
    current_streak: int
    longest_streak: int
    histogram: dict[int, int]
    best_by_number: dict[int, int]
    hints: int
    unfinished: int = 0
    fastest_win: float | None = None
    """The shortest play time of a game won (None: no win with its clock kept)."""
    time_played: float = 0.0
    """The play time of the finished games, in seconds (those whose clock was kept)."""

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (dict keys are strings)."""
        return {
            "rules": self.rules,
            "owner": self.owner,
            "played": self.played,
            "won": self.won,
            "given_up": self.given_up,
            "win_rate": self.win_rate,
            "best_score": self.best_score,
            "average_score": self.average_score,
            "ratings": dict(self.ratings),
            "current_streak": self.current_streak,
            "longest_streak": self.longest_streak,
            "histogram": {str(k): v for k, v in sorted(self.histogram.items())},
            "best_by_number": {str(k): v for k, v in sorted(self.best_by_number.items())},
            "hints": self.hints,
            "unfinished": self.unfinished,
            "fastest_win": self.fastest_win,
            "time_played": self.time_played,
        }


def compute_stats(
    results: Iterable[GameResult],
    *,
    rules: str | None = None,
    owner: str | None = None,
    unfinished: int = 0,
) -> Stats:
    """Statistics of ``results`` in the order the games ended (oldest first).

    Games not finished are ignored.  A streak counts wins in a row; any other
    finished game (over or given up) ends it.
    """
    played = won = given_up = hints = 0
    total = 0
    best: int | None = None
    ratings = dict.fromkeys(RATING_ORDER, 0)
    histogram: dict[int, int] = {}
    best_by_number: dict[int, int] = {}
    streak = longest = 0
    fastest: float | None = None
    time_played = 0.0
    for r in results:
        if r.status not in FINISHED:
            continue
        played += 1
        total += r.score
        time_played += max(0.0, r.seconds)
        hints += r.hints
        best = r.score if best is None else min(best, r.score)
        histogram[r.score] = histogram.get(r.score, 0) + 1
        if r.won:
            won += 1
            if r.seconds > 0:
                fastest = r.seconds if fastest is None else min(fastest, r.seconds)
            ratings[Rating.WON.value] += 1
            streak += 1
            longest = max(longest, streak)
        else:
            ratings[Rating.of(r.score).value if r.score > 0 else Rating.BRILLIANT.value] += 1
            streak = 0
            if r.status == Status.GIVEN_UP.value:
                given_up += 1
        if r.number is not None:
            old = best_by_number.get(r.number)
            best_by_number[r.number] = r.score if old is None else min(old, r.score)
    return Stats(
        rules=rules,
        owner=owner,
        played=played,
        won=won,
        given_up=given_up,
        best_score=best,
        average_score=total / played if played else None,
        ratings=ratings,
        current_streak=streak,
        longest_streak=longest,
        histogram=dict(sorted(histogram.items())),
        best_by_number=dict(sorted(best_by_number.items())),
        hints=hints,
        unfinished=unfinished,
        fastest_win=fastest,
        time_played=time_played,
    )


# -------------------------------------------------------------- migrations
def _migrate_0_to_1(con: sqlite3.Connection) -> None:
    con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    con.execute(
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            number INTEGER,
            deck TEXT,
            rules TEXT NOT NULL,
            started TEXT NOT NULL,
            moves TEXT NOT NULL DEFAULT '',
            result TEXT NOT NULL DEFAULT 'in progress',
            score INTEGER NOT NULL,
            finished TEXT
        )"""
    )
    con.execute("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")


def _migrate_1_to_2(con: sqlite3.Connection) -> None:
    con.execute(
        """CREATE TABLE games2 (
            id INTEGER PRIMARY KEY,
            owner TEXT NOT NULL DEFAULT 'local',
            number INTEGER,
            deck TEXT,
            start_position TEXT,
            rules TEXT NOT NULL,
            started TEXT NOT NULL,
            updated TEXT NOT NULL,
            ended TEXT,
            status TEXT NOT NULL DEFAULT 'in progress',
            score INTEGER NOT NULL,
            moves INTEGER NOT NULL DEFAULT 0,
            hints INTEGER NOT NULL DEFAULT 0
        )"""
    )
    rows = con.execute(
        "SELECT id, number, deck, rules, started, moves, result, score, finished FROM games"
    ).fetchall()
    events: list[tuple[int, int, str, str | None, str]] = []
    for gid, number, deck, rules, started, moves, result, score, finished in rows:
        tokens = moves.split()
        status = result if result in (*FINISHED, Status.IN_PROGRESS.value) else "in progress"
        ended = (finished or started) if status in FINISHED else None
        con.execute(
            "INSERT INTO games2 (id, owner, number, deck, rules, started, updated, ended, "
            "status, score, moves) VALUES (?, 'local', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (gid, number, deck, rules, started, finished or started, ended, status, score,
             len(tokens)),
        )
        events.extend((gid, i, "move", t, started) for i, t in enumerate(tokens, start=1))
        if status == Status.GIVEN_UP.value:
            events.append((gid, len(tokens) + 1, "giveup", None, ended or started))
    con.execute("DROP TABLE games")
    con.execute("ALTER TABLE games2 RENAME TO games")
    con.execute(
        """CREATE TABLE events (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL,
            move TEXT,
            at TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID"""
    )
    con.executemany(
        "INSERT INTO events (game_id, seq, kind, move, at) VALUES (?, ?, ?, ?, ?)", events
    )
    con.execute("CREATE INDEX games_owner ON games (owner, status)")
    con.execute("CREATE INDEX games_rules ON games (rules, status)")
    con.execute(
        """CREATE TABLE settings2 (
            owner TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
            PRIMARY KEY (owner, key)
        ) WITHOUT ROWID"""
    )
    con.execute("INSERT INTO settings2 (owner, key, value) SELECT 'local', key, value "
                "FROM settings")
    con.execute("DROP TABLE settings")
    con.execute("ALTER TABLE settings2 RENAME TO settings")
    con.execute(
        """CREATE TABLE web_sessions (
            token TEXT PRIMARY KEY, created TEXT NOT NULL, last_seen TEXT NOT NULL
        ) WITHOUT ROWID"""
    )
    con.execute(
        """CREATE TABLE current_games (
            owner TEXT PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE
        ) WITHOUT ROWID"""
    )


def _migrate_2_to_3(con: sqlite3.Connection) -> None:
    con.execute("ALTER TABLE games ADD COLUMN final INTEGER NOT NULL DEFAULT 0")
    con.execute("ALTER TABLE games ADD COLUMN play_seconds REAL NOT NULL DEFAULT 0")
    # every result counted so far stands
    con.execute(f"UPDATE games SET final = 1, ended = COALESCE(ended, updated) "
                f"WHERE status IN ({', '.join('?' * len(FINISHED))})", FINISHED)
    # games left without a move were never played: they count nowhere
    empty = "SELECT id FROM games WHERE final = 0 AND moves = 0 AND NOT EXISTS " \
            "(SELECT 1 FROM events WHERE events.game_id = games.id AND events.kind = 'move')"
    con.execute(f"DELETE FROM current_games WHERE game_id IN ({empty})")
    con.execute(f"DELETE FROM events WHERE game_id IN ({empty})")
    con.execute(f"DELETE FROM games WHERE id IN ({empty})")
    con.execute("CREATE INDEX games_final ON games (owner, final)")
    # a game's id is never given again, even after a game without a move was deleted
    con.execute("CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) "
                "WITHOUT ROWID")
    con.execute("INSERT INTO counters (name, value) "
                "SELECT 'last_game_id', COALESCE(MAX(id), 0) FROM games")


def web_owner() -> str:
    """A new browser's owner id: random, and unrelated to its cookie."""
    return f"web:{secrets.token_hex(12)}"


def cookie_digest(token: str) -> str:
    """What the database keeps of a browser's cookie (never the cookie itself)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _migrate_3_to_4(con: sqlite3.Connection) -> None:
    con.execute(
        """CREATE TABLE reviews (
            game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            made TEXT NOT NULL,
            data TEXT NOT NULL
        )"""
    )


def _migrate_4_to_5(con: sqlite3.Connection) -> None:
    con.execute(
        """CREATE TABLE web_sessions2 (
            digest TEXT PRIMARY KEY, owner TEXT NOT NULL,
            created TEXT NOT NULL, last_seen TEXT NOT NULL
        ) WITHOUT ROWID"""
    )
    # every owner named after a cookie gets an opaque id, a forgotten session's included
    owners: dict[str, str] = {}
    for (old,) in con.execute(
            "SELECT owner FROM games WHERE owner LIKE 'web:%' UNION "
            "SELECT owner FROM settings WHERE owner LIKE 'web:%' UNION "
            "SELECT owner FROM current_games WHERE owner LIKE 'web:%' UNION "
            "SELECT 'web:' || token FROM web_sessions").fetchall():
        owners[old] = web_owner()
    for token, created, last_seen in con.execute(
            "SELECT token, created, last_seen FROM web_sessions").fetchall():
        con.execute("INSERT INTO web_sessions2 (digest, owner, created, last_seen) "
                    "VALUES (?, ?, ?, ?)",
                    (cookie_digest(token), owners[f"web:{token}"], created, last_seen))
    for old, new in owners.items():
        for table in ("games", "settings", "current_games"):
            con.execute(f"UPDATE {table} SET owner = ? WHERE owner = ?", (new, old))
    con.execute("DROP TABLE web_sessions")
    con.execute("ALTER TABLE web_sessions2 RENAME TO web_sessions")


def _migrate_5_to_6(con: sqlite3.Connection) -> None:
    # the games played as a day's daily deal (the first of them to end is the day's result)
    con.execute(
        """CREATE TABLE dailies (
            game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            day TEXT NOT NULL
        )"""
    )
    con.execute("CREATE INDEX dailies_day ON dailies (day)")


def pack_events(events: Iterable[tuple[str, str | None]]) -> str:
    """A game's events as one line: a move by its text, any other event as ``!kind``
    (``!kind:move`` with a move).  Move texts hold no space, ``!`` or ``:``.

    >>> pack_events([("move", "d"), ("undo", None), ("move", "t-c2"), ("giveup", None)])
    'd !undo t-c2 !giveup'
    """
    words = []
    for kind, move in events:
        if kind == "move" and move is not None:
            words.append(move)
        else:
            words.append(f"!{kind}" if move is None else f"!{kind}:{move}")
    return " ".join(words)


def unpack_events(text: str) -> list[tuple[str, str | None]]:
    """The events of :func:`pack_events`'s line; raises ValueError on a word it did not write."""
    events: list[tuple[str, str | None]] = []
    for word in text.split():
        if not word.startswith("!"):
            events.append(("move", word))
            continue
        kind, _, move = word[1:].partition(":")
        if kind not in EVENT_KINDS or kind == "move":
            raise ValueError(f"unknown event {word!r}")
        events.append((kind, move or None))
    return events


FOLDED_SINCE: Final = 7
"""The schema version from which a final game's events are one line (``logs``)."""

_EVENT_COUNT: Final = ("SELECT COALESCE((SELECT count FROM logs WHERE game_id = ?), "
                       "(SELECT MAX(seq) FROM events WHERE game_id = ?), 0)")
"""How many events a game has, kept as rows or as one line (game id twice)."""


def _fold_events(con: sqlite3.Connection, game_id: int) -> None:
    """Keep a final game's events as one line in ``logs`` (inside the caller's transaction)."""
    rows = con.execute("SELECT seq, kind, move FROM events WHERE game_id = ? ORDER BY seq",
                       (game_id,)).fetchall()
    if not rows:
        return
    con.execute("INSERT OR REPLACE INTO logs (game_id, count, events) VALUES (?, ?, ?)",
                (game_id, int(rows[-1][0]), pack_events((str(k), m) for _, k, m in rows)))
    con.execute("DELETE FROM events WHERE game_id = ?", (game_id,))


def _migrate_6_to_7(con: sqlite3.Connection) -> None:
    # a final game's events, which never change again, as one line of text (about a
    # seventh of the rows' room: the browser's file system copies the whole database file
    # at each checkpoint); the time of each event, which nothing read, is not kept for them
    con.execute(
        """CREATE TABLE logs (
            game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            count INTEGER NOT NULL,
            events TEXT NOT NULL
        )"""
    )
    for (game_id,) in con.execute("SELECT id FROM games WHERE final = 1").fetchall():
        _fold_events(con, int(game_id))


MIGRATIONS: Final[tuple[Callable[[sqlite3.Connection], None], ...]] = (
    _migrate_0_to_1,
    _migrate_1_to_2,
    _migrate_2_to_3,
    _migrate_3_to_4,
    _migrate_4_to_5,
    _migrate_5_to_6,
    _migrate_6_to_7,
)
"""The schema migrations: the ``n``-th takes a database from version ``n`` to ``n + 1``."""
assert len(MIGRATIONS) == SCHEMA_VERSION


def migrate(con: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Run the migrations from the database's version up to ``target`` in one transaction.

    The connection must be in autocommit mode (``isolation_level=None``).
    Returns the version found before.
    """
    con.execute("BEGIN IMMEDIATE")
    try:
        found = int(con.execute("PRAGMA user_version").fetchone()[0])
        for version in range(found, target):
            MIGRATIONS[version](con)
            con.execute(f"PRAGMA user_version = {version + 1}")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return found


_SCHEMAS: dict[int, dict[str, frozenset[str]]] = {}


def schema_of(version: int) -> dict[str, frozenset[str]]:
    """The tables of schema ``version`` and their columns, as its migrations make them."""
    known = _SCHEMAS.get(version)
    if known is None:
        con = sqlite3.connect(":memory:", isolation_level=None)
        try:
            migrate(con, version)
            known = _tables(con)
        finally:
            con.close()
        _SCHEMAS[version] = known
    return known


def _tables(con: sqlite3.Connection) -> dict[str, frozenset[str]]:
    names = [r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    return {name: frozenset(r[1] for r in con.execute(f'PRAGMA table_info("{name}")'))
            for name in names}


# ------------------------------------------------------------------ probing
def _check_file(path: Path) -> bool:
    """Cheap checks before SQLite sees the file; True when it exists and is not empty.

    Only a regular file is looked into (a device, a pipe or a socket is refused
    before anything opens it)."""
    try:
        if path.is_dir():
            raise _error(codes.STORE_UNREADABLE, path, reason=_("it is a directory"))
        if not path.exists():
            return False
        if not stat.S_ISREG(path.stat().st_mode):
            raise _error(codes.STORE_UNREADABLE, path, reason=_("it is not a regular file"))
        if not os.access(path, os.R_OK | os.W_OK):
            raise _error(codes.STORE_UNREADABLE, path, reason=_("permission denied"))
        size = path.stat().st_size
        if size == 0:
            return False
        with path.open("rb") as f:
            header = f.read(100)
    except OSError as exc:
        raise _error(codes.STORE_UNREADABLE, path, reason=exc.strerror or str(exc)) from exc
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        raise _error(codes.STORE_CORRUPT, path)
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    valid = header[24:28] == header[92:96]
    if page_size < 512 or page_size & (page_size - 1):
        raise _error(codes.STORE_CORRUPT, path)
    if valid and pages and size < pages * page_size:
        raise _error(codes.STORE_CORRUPT, path)  # truncated
    if size % page_size:
        raise _error(codes.STORE_CORRUPT, path)
    return True


def _probe(path: Path) -> int:
    """Read-only look at an existing database: its schema version (-1: no verdict),
    or StoreError.

    When no ``-wal``/``-shm``/``-journal`` file is beside it (nobody has it open),
    it is read as immutable, so that SQLite creates nothing beside it either.
    """
    side = any(Path(f"{path}{suffix}").exists() for suffix in ("-wal", "-shm", "-journal"))
    uri = f"{path.resolve().as_uri()}?mode=ro" + ("" if side else "&immutable=1")
    try:
        con = sqlite3.connect(uri, uri=True, isolation_level=None,
                              timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as exc:
        raise _error(codes.STORE_UNREADABLE, path, reason=str(exc)) from exc
    try:
        app = int(con.execute("PRAGMA application_id").fetchone()[0])
        version = int(con.execute("PRAGMA user_version").fetchone()[0])
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        found = _tables(con) if app == APPLICATION_ID and 0 < version <= SCHEMA_VERSION \
            else None
        if path.stat().st_size <= QUICK_CHECK_LIMIT:
            check = con.execute("PRAGMA quick_check(1)").fetchone()
            if not check or check[0] != "ok":
                raise _error(codes.STORE_CORRUPT, path)
    except sqlite3.OperationalError:
        # locked, busy, a -shm it may not map read-only ...: no verdict; the
        # read-write open that follows checks the version again in a transaction
        return -1
    except sqlite3.DatabaseError as exc:
        raise _error(codes.STORE_CORRUPT, path) from exc
    finally:
        con.close()
    if app == APPLICATION_ID:
        if version > SCHEMA_VERSION:
            raise _error(codes.STORE_NEWER, path, found=version)
        if found is not None and found != schema_of(version):
            raise _error(codes.STORE_CORRUPT, path)  # a table or a column is missing
        return version
    if app == 0 and version == 0 and not tables:
        return 0
    raise _error(codes.STORE_CORRUPT, path)


def _wal_mode(con: sqlite3.Connection) -> str:
    """Switch to WAL; retried while another process does the same (SQLite can answer
    "locked" at once there, without waiting out the busy timeout)."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            return str(con.execute("PRAGMA journal_mode = WAL").fetchone()[0])
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _signature(path: Path) -> tuple[tuple[int, int] | None, ...]:
    """Sizes and times of the file and its side files: they change while it is written."""
    out: list[tuple[int, int] | None] = []
    for suffix in ("", "-wal", "-journal"):
        try:
            st = os.stat(f"{path}{suffix}")
            out.append((st.st_size, st.st_mtime_ns))
        except OSError:
            out.append(None)
    return tuple(out)


def _checked(path: Path) -> bool:
    """:func:`_check_file` then :func:`_probe`: True when the database exists.

    A file that another process is creating at this very moment can look
    damaged for an instant; a "damaged" verdict therefore stands only when the
    file and its side files did not change while we looked again shortly after.
    """
    for _attempt in range(40):
        before = _signature(path)
        try:
            if _check_file(path):
                _probe(path)
                return True
            return False
        except StoreError as exc:
            if exc.code != codes.STORE_CORRUPT:
                raise
            time.sleep(0.05)
            if _signature(path) == before:
                raise
    return _check_file(path) and _probe(path) >= -1


# -------------------------------------------------------------------- store
def _start_of(game: Game) -> tuple[int | None, str | None, str | None]:
    if game.number is not None:
        return game.number, None, None
    if game.deck is not None:
        return None, format_deck(game.deck), None
    return None, None, game.start_position


_GAME_COLUMNS: Final = ("id, owner, number, deck, start_position, rules, started, updated, "
                        "ended, status, score, moves, hints, final, play_seconds")


def _next_game_id(con: sqlite3.Connection) -> int:
    """The id of the next game (in a write transaction): never one given before."""
    last = con.execute("SELECT value FROM counters WHERE name = 'last_game_id'").fetchone()
    top = con.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0]
    gid = max(int(last[0]) if last else 0, int(top)) + 1
    con.execute("INSERT INTO counters (name, value) VALUES ('last_game_id', ?) "
                "ON CONFLICT (name) DO UPDATE SET value = excluded.value", (gid,))
    return gid


_SIDE_FILES: Final = ("", "-wal", "-shm", "-journal")


def _files_of(path: Path) -> set[str]:
    """Which of the database file and its side files exist (their suffixes)."""
    return {suffix for suffix in _SIDE_FILES if Path(f"{path}{suffix}").exists()}


def _tidy(path: Path, present: set[str]) -> None:
    """After a failed open, remove the files the attempt created and left empty (a full
    disk leaves an empty database or empty side files): nothing is written in them, so
    nothing is lost, and what the message says about the disk stays true."""
    for suffix in _SIDE_FILES:
        if suffix in present:
            continue
        created = Path(f"{path}{suffix}")
        with suppress(OSError):
            if created.stat().st_size == 0:
                created.unlink()


def _info(row: tuple[Any, ...]) -> GameInfo:
    (gid, owner, number, deck, position, rules, started, updated, ended, status, score,
     moves, hints, final, seconds) = row
    return GameInfo(gid, owner, number, deck, position, rules, started, updated, ended,
                    status, score, moves, hints, bool(final), float(seconds))


class Store:
    """The database.  Open with :meth:`open`; safe to share between threads."""

    def __init__(self, path: Path, con: sqlite3.Connection) -> None:
        self.path = path
        self._con = con
        self._lock = threading.RLock()
        self.closed = False

    # --------------------------------------------------------------- opening
    @classmethod
    def open(cls, path: Path | str | None = None, *, create: bool = True,
             alone: bool = False) -> Store:
        """Open (and create or migrate) the database; raises :class:`StoreError`.

        ``path``: ``--db``, else ``$DEVILSGRIP_DB``, else the user data directory
        (the only folder made when missing).  With ``create`` False (a command
        that only reads) a missing or empty file is ``store-missing``, and
        nothing is made.  ``alone``: this connection is the database's only user
        for as long as it is open (the static site's worker): it keeps the database
        locked, and the index of the write-ahead log lives in its memory, with no
        ``-shm`` file beside the database to write back after every change.
        """
        made_folder = path is None and not os.environ.get(ENV_VAR)
        p = Path(path) if path is not None else default_path()
        p = p.expanduser()
        exists = _checked(p)
        if not exists and not create:
            raise _error(codes.STORE_MISSING, p)
        if not exists:
            try:
                if made_folder:
                    p.parent.mkdir(parents=True, exist_ok=True)
                elif not p.parent.is_dir():
                    raise _error(codes.STORE_UNREADABLE, p, reason=_(
                        "there is no such folder {folder}").format(folder=p.parent))
            except OSError as exc:
                raise _error(codes.STORE_UNREADABLE, p, reason=exc.strerror or str(exc)) from exc
        present = _files_of(p)
        try:
            return cls._connect(p, alone)
        except StoreError as exc:
            _tidy(p, present)
            if exists:
                raise
            reason = exc.params.get("reason") or exc.message
            if _files_of(p) - present:  # something could not be removed: no promise made
                raise _error(codes.STORE_WRITE_FAILED, p, reason=reason) from exc
            # a new database that could not be made: nothing of it is left behind
            raise _error(codes.STORE_CREATE_FAILED, p, reason=reason) from exc

    @classmethod
    def _connect(cls, p: Path, alone: bool = False) -> Store:
        try:
            con = sqlite3.connect(str(p), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                                  check_same_thread=False)
        except sqlite3.Error as exc:
            raise _error(codes.STORE_UNREADABLE, p, reason=str(exc)) from exc
        try:
            con.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            if alone:  # before the log is first used: its index is then kept in memory
                con.execute("PRAGMA locking_mode = EXCLUSIVE")
            mode = _wal_mode(con)
            if str(mode).lower() != "wal":
                raise _error(codes.STORE_UNREADABLE, p, reason=f"journal mode {mode}")
            # NORMAL in WAL mode: a commit is in the WAL file (the OS has it) when it returns,
            # so killing the process (even SIGKILL) loses nothing acknowledged; only a power
            # cut could lose the last commits.  FULL would add a disk flush (~5 ms) per move.
            con.execute("PRAGMA synchronous = NORMAL")
            con.execute("PRAGMA foreign_keys = ON")
            con.execute("BEGIN IMMEDIATE")
            try:
                app = int(con.execute("PRAGMA application_id").fetchone()[0])
                version = int(con.execute("PRAGMA user_version").fetchone()[0])
                tables = con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            finally:
                con.execute("ROLLBACK")
            if version > SCHEMA_VERSION and app == APPLICATION_ID:
                raise _error(codes.STORE_NEWER, p, found=version)
            if app not in (0, APPLICATION_ID) or (app == 0 and (version or tables)):
                raise _error(codes.STORE_CORRUPT, p)
            if version < SCHEMA_VERSION and 0 < migrate(con) < FOLDED_SINCE:
                # the events of final games were folded into lines: give the room back
                # (one transaction of its own; a database left as it was is as good)
                with suppress(sqlite3.Error):
                    con.execute("VACUUM")
            version = int(con.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise _error(codes.STORE_NEWER, p, found=version)
        except StoreError:
            con.close()
            raise
        except sqlite3.OperationalError as exc:
            con.close()
            raise _error(codes.STORE_UNREADABLE, p, reason=str(exc)) from exc
        except sqlite3.DatabaseError as exc:
            con.close()
            raise _error(codes.STORE_CORRUPT, p) from exc
        return cls(p, con)

    def close(self) -> None:
        """Close the database; the store cannot be used after."""
        with self._lock:
            if not self.closed:
                self.closed = True
                self._con.close()

    def bound_log(self, pages: int) -> None:
        """Keep the write-ahead log under about ``pages`` pages: checkpointed at that size
        and cut back after, for a file system that copies each changed file whole on
        every save (the browser's, under the static site)."""
        with self._lock:
            self._con.execute(f"PRAGMA wal_autocheckpoint = {int(pages)}")
            self._con.execute("PRAGMA journal_size_limit = 0")

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        return int(self._read("PRAGMA user_version")[0][0])

    # ------------------------------------------------------------ low level
    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One short write transaction (``BEGIN IMMEDIATE``), committed on exit."""
        with self._lock:
            con = self._con
            try:
                con.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise _error(codes.STORE_WRITE_FAILED, self.path, reason=str(exc)) from exc
            try:
                yield con
                con.execute("COMMIT")
            except BaseException as exc:
                with suppress(sqlite3.Error):
                    con.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise _error(codes.STORE_WRITE_FAILED, self.path, reason=str(exc)) from exc
                raise

    def _read(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return list(self._con.execute(sql, tuple(params)).fetchall())
            except sqlite3.DatabaseError as exc:
                raise _error(codes.STORE_CORRUPT, self.path, reason=str(exc)) from exc

    # ---------------------------------------------------------------- games
    def new_game(self, game: Game, owner: str = "local", *, started: str | None = None,
                 daily: str | None = None) -> int:
        """Store a game about to be played (its start only); returns its id.

        ``daily``: the day (``YYYY-MM-DD``) whose daily deal the game is played as."""
        number, deck, position = _start_of(game)
        when = started or now_text()
        with self._write() as con:
            gid = _next_game_id(con)
            con.execute(
                "INSERT INTO games (id, owner, number, deck, start_position, rules, started, "
                "updated, status, score, moves) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (gid, owner, number, deck, position, str(game.rules), when, when,
                 game.status.value, game.score, game.moves_played),
            )
            if daily is not None:
                con.execute("INSERT INTO dailies (game_id, day) VALUES (?, ?)", (gid, daily))
        return gid

    def daily_of(self, game_id: int) -> str | None:
        """The day whose daily deal game ``game_id`` is played as (None: not a daily)."""
        rows = self._read("SELECT day FROM dailies WHERE game_id = ?", (game_id,))
        return str(rows[0][0]) if rows else None

    def daily_results(self, owner: str, rules: str | Rules) -> dict[str, GameInfo]:
        """Each day's daily result of ``owner`` with ``rules``: the first of the day's daily
        games to end (later ones are practice), by day."""
        columns = ", ".join(f"games.{c.strip()}" for c in _GAME_COLUMNS.split(","))
        rows = self._read(
            f"SELECT dailies.day, {columns} FROM dailies JOIN games ON games.id = "
            "dailies.game_id WHERE games.owner = ? AND games.rules = ? AND games.final = 1 "
            "ORDER BY games.ended, games.id",
            (owner, str(Rules.parse(rules))),
        )
        results: dict[str, GameInfo] = {}
        for row in rows:
            results.setdefault(str(row[0]), _info(row[1:]))
        return dict(sorted(results.items()))

    def add_event(
        self,
        game_id: int,
        kind: str,
        game: Game,
        move: str | None = None,
        *,
        final: bool | None = None,
        play_seconds: float | None = None,
        seen: int | None = None,
        status: Status | None = None,
    ) -> int:
        """Append one event and the game's new state, in one committed transaction.

        ``final``: the game's result now stands (default: it is won or given
        up).  ``play_seconds``: the clock.  ``seen``: the number of events
        the writer has read or written; when another writer added events
        since, nothing is written and :class:`StoreError`
        ``store-game-changed`` is raised.  ``status``: the game's status when the
        writer has it already (default: asked of the game).  Returns the number
        of the event.
        """
        if kind not in EVENT_KINDS:
            raise ValueError(f"unknown event kind {kind!r}")
        when = now_text()
        state = (game.status if status is None else status).value
        if final is None:
            final = state in (Status.WON.value, Status.GIVEN_UP.value)
        with self._write() as con:
            if seen is None:
                seen = int(con.execute(_EVENT_COUNT, (game_id, game_id)).fetchone()[0])
            seq = seen + 1
            # written only when event ``seen`` is still the last and the events are not one
            # line yet: the checks and the insert are one statement
            added = con.execute(
                "INSERT INTO events (game_id, seq, kind, move, at) SELECT ?, ?, ?, ?, ? "
                "WHERE NOT EXISTS (SELECT 1 FROM events WHERE game_id = ? AND seq >= ?)"
                " AND (? = 0 OR EXISTS (SELECT 1 FROM events WHERE game_id = ? AND seq = ?))"
                " AND NOT EXISTS (SELECT 1 FROM logs WHERE game_id = ?)",
                (game_id, seq, kind, move, when, game_id, seq, seen, game_id, seen, game_id),
            ).rowcount
            folded = False
            if added != 1:
                # a final game's events are one line (see _fold_events): added to its end
                folded = con.execute(
                    "UPDATE logs SET count = ?, events = events || ' ' || ? "
                    "WHERE game_id = ? AND count = ?",
                    (seq, pack_events([(kind, move)]), game_id, seen)).rowcount == 1
                if not folded:
                    raise _error(codes.STORE_GAME_CHANGED, self.path, game_id=game_id)
            con.execute(
                "UPDATE games SET status = ?, score = ?, moves = ?, updated = ?, "
                "hints = hints + ?, final = ?, play_seconds = COALESCE(?, play_seconds), "
                "ended = CASE WHEN ? THEN COALESCE(ended, ?) ELSE NULL END "
                "WHERE id = ?",
                (state, game.score, game.moves_played, when, int(kind == "hint"), int(final),
                 play_seconds, int(final), when, game_id),
            )
            if final and not folded:
                _fold_events(con, game_id)
        return seq

    def event_count(self, game_id: int) -> int:
        """How many events the game has (what a writer passes as ``seen``)."""
        rows = self._read(_EVENT_COUNT, (game_id, game_id))
        return int(rows[0][0])

    def set_play_time(self, game_id: int, seconds: float) -> None:
        """Store the clock of a game (it runs only while the game is on screen)."""
        with self._write() as con:
            con.execute("UPDATE games SET play_seconds = ? WHERE id = ?", (seconds, game_id))

    def save_game(
        self,
        game: Game,
        owner: str = "local",
        *,
        started: str | None = None,
        ended: str | None = None,
        hints: int = 0,
        play_seconds: float = 0.0,
    ) -> int:
        """Store a whole game at once (its move stack as events): for import and tests.

        A game that has ended (won, over or given up) is stored final.  ``play_seconds``:
        its clock (0: not kept).
        """
        number, deck, position = _start_of(game)
        when = started or now_text()
        status = game.status.value
        end = (ended or when) if status in FINISHED else None
        events: list[tuple[str, str | None]] = [("move", m.text()) for m in game.move_stack]
        if game.given_up:
            events.append(("giveup", None))
        with self._write() as con:
            gid = _next_game_id(con)
            con.execute(
                "INSERT INTO games (id, owner, number, deck, start_position, rules, started, "
                "updated, ended, status, score, moves, hints, final, play_seconds) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (gid, owner, number, deck, position, str(game.rules), when, end or when, end,
                 status, game.score, game.moves_played, hints, int(end is not None),
                 play_seconds),
            )
            if end is not None and events:
                con.execute("INSERT INTO logs (game_id, count, events) VALUES (?, ?, ?)",
                            (gid, len(events), pack_events(events)))
            else:
                con.executemany(
                    "INSERT INTO events (game_id, seq, kind, move, at) VALUES (?, ?, ?, ?, ?)",
                    [(gid, i, k, m, when) for i, (k, m) in enumerate(events, start=1)],
                )
        return gid

    def game_info(self, game_id: int) -> GameInfo | None:
        """The stored row of game ``game_id``, or None."""
        rows = self._read(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _info(rows[0]) if rows else None

    def games(
        self,
        *,
        owner: str | None = None,
        rules: str | Rules | None = None,
        finished: bool | None = None,
    ) -> list[GameInfo]:
        """Stored games, oldest first, filtered by owner, exact rules and final or not."""
        where, params = self._filter(owner, rules)
        if finished is True:
            where.append("final = 1")
        elif finished is False:
            where.append("final = 0")
        sql = f"SELECT {_GAME_COLUMNS} FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        return [_info(r) for r in self._read(sql + " ORDER BY id", params)]

    @staticmethod
    def _filter(owner: str | None, rules: str | Rules | None) -> tuple[list[str], list[Any]]:
        where: list[str] = []
        params: list[Any] = []
        if owner is not None:
            where.append("owner = ?")
            params.append(owner)
        if rules is not None:
            where.append("rules = ?")
            params.append(str(Rules.parse(rules)))
        return where, params

    def unfinished_games(self, owner: str = "local") -> list[GameInfo]:
        """Games of ``owner`` not final (in play, or over and still open), newest first."""
        rows = self._read(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE owner = ? AND final = 0 "
            "ORDER BY updated DESC, id DESC",
            (owner,),
        )
        return [_info(r) for r in rows]

    def events(self, game_id: int) -> list[tuple[str, str | None]]:
        """A game's events in order: (kind, move text or None)."""
        log = self._read("SELECT events FROM logs WHERE game_id = ?", (game_id,))
        if log:
            try:
                return unpack_events(str(log[0][0]))
            except ValueError as exc:
                raise _error(codes.STORE_CORRUPT, self.path) from exc
        return [(k, m) for k, m in self._read(
            "SELECT kind, move FROM events WHERE game_id = ? ORDER BY seq", (game_id,))]

    def load_game(self, game_id: int) -> Game:
        """The game replayed from its start through every event: exactly where it was,
        redo list included.  Raises StoreError ``store-no-game`` or RecordError-like
        engine errors if the stored events do not replay."""
        info = self.game_info(game_id)
        if info is None:
            raise _error(codes.STORE_NO_GAME, self.path, game_id=game_id)
        game = start_game(info.number, info.deck, info.start_position, info.rules)
        replay_events(game, self.events(game_id))
        return game

    def save_review(self, game_id: int, data: Mapping[str, Any]) -> None:
        """Keep the finished review of a game (its JSON form), replacing an older one."""
        text = json.dumps(dict(data), separators=(",", ":"))
        with self._write() as con:
            con.execute(
                "INSERT INTO reviews (game_id, made, data) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET made = excluded.made, data = excluded.data",
                (game_id, now_text(), text))

    def review(self, game_id: int) -> dict[str, Any] | None:
        """The kept review of a game, or None."""
        rows = self._read("SELECT data FROM reviews WHERE game_id = ?", (game_id,))
        if not rows:
            return None
        try:
            data = json.loads(rows[0][0])
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    def reviewed(self, owner: str) -> set[int]:
        """The ids of the games of ``owner`` that have a kept review."""
        rows = self._read("SELECT r.game_id FROM reviews r JOIN games g ON g.id = r.game_id "
                          "WHERE g.owner = ?", (owner,))
        return {int(r[0]) for r in rows}

    def delete_game(self, game_id: int) -> None:
        """Delete game ``game_id`` with its events and review."""
        with self._write() as con:
            con.execute("DELETE FROM reviews WHERE game_id = ?", (game_id,))
            con.execute("DELETE FROM current_games WHERE game_id = ?", (game_id,))
            con.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
            con.execute("DELETE FROM logs WHERE game_id = ?", (game_id,))
            con.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def record(self, game_id: int) -> str:
        """The game's record (the engine's format) with Started/Ended/Owner/Hints tags, and
        PlayTime (the clock, in seconds) when it was kept."""
        info = self.game_info(game_id)
        if info is None:
            raise _error(codes.STORE_NO_GAME, self.path, game_id=game_id)
        game = self.load_game(game_id)
        game.tags["Started"] = info.started
        if info.ended:
            game.tags["Ended"] = info.ended
        game.tags["Owner"] = info.owner
        game.tags["Hints"] = str(info.hints)
        if info.play_seconds > 0:
            game.tags["PlayTime"] = f"{max(0.1, info.play_seconds):.1f}"  # kept: never 0
        return write_record(game)

    def find_duplicate(self, game: Game, started: str, owner: str | None = None) -> int | None:
        """The id of a stored game with the same start, rules, start time and moves (of
        ``owner`` when given: another player's copy of a game is not this player's)."""
        number, deck, position = _start_of(game)
        rows = self._read(
            "SELECT id FROM games WHERE number IS ? AND deck IS ? AND start_position IS ? "
            "AND rules = ? AND started = ? AND moves = ? AND score = ? AND status = ?"
            + ("" if owner is None else " AND owner = ?"),
            (number, deck, position, str(game.rules), started, game.moves_played, game.score,
             game.status.value, *(() if owner is None else (owner,))),
        )
        for (gid,) in rows:
            if self.load_game(gid).move_stack == game.move_stack:
                return int(gid)
        return None

    def best_score(self, game: Game | GameInfo, *, exclude: int | None = None,
                   owner: str | None = None) -> int | None:
        """The best final score on this deal with these rules (of every game but ``exclude``;
        of ``owner``'s games when given, as the statistics count them)."""
        if isinstance(game, GameInfo):
            number, deck, position, rules = game.number, game.deck, game.start_position, game.rules
        else:
            number, deck, position = _start_of(game)
            rules = str(game.rules)
        rows = self._read(
            "SELECT MIN(score) FROM games WHERE number IS ? AND deck IS ? "
            "AND start_position IS ? AND rules = ? AND final = 1 AND id IS NOT ? "
            "AND (? IS NULL OR owner = ?)",
            (number, deck, position, rules, exclude, owner, owner),
        )
        value = rows[0][0] if rows else None
        return None if value is None else int(value)

    def fastest_win(self, rules: str | Rules, owner: str | None = None, *,
                    exclude: int | None = None) -> float | None:
        """The shortest clock of a game won under ``rules`` (of ``owner`` when given, of
        every game but ``exclude``), among those whose clock was kept; None: no such win."""
        where, params = self._filter(owner, rules)
        rows = self._read(
            f"SELECT MIN(play_seconds) FROM games WHERE {' AND '.join(where)} AND status = ? "
            "AND final = 1 AND play_seconds > 0 AND id IS NOT ?",
            (*params, Status.WON.value, exclude),
        )
        value = rows[0][0] if rows else None
        return None if value is None else float(value)

    # ---------------------------------------------------------------- stats
    def stats(self, rules: str | Rules | None = None, owner: str | None = None) -> Stats:
        """Statistics of final games (all rules when ``rules`` is None)."""
        where, params = self._filter(owner, rules)
        cond = " AND ".join(where) if where else "1"
        rows = self._read(
            f"SELECT score, status, number, hints, ended, play_seconds FROM games WHERE {cond} "
            "AND final = 1 ORDER BY ended, id",
            params,
        )
        open_count = self._read(
            f"SELECT count(*) FROM games WHERE {cond} AND final = 0", params
        )[0][0]
        return compute_stats(
            (GameResult(s, st, n, h, e or "", float(t)) for s, st, n, h, e, t in rows),
            rules=None if rules is None else str(Rules.parse(rules)),
            owner=owner,
            unfinished=int(open_count),
        )

    def rules_played(self, owner: str | None = None) -> list[str]:
        """The rules texts of stored games, most played first."""
        where, params = self._filter(owner, None)
        cond = " AND ".join(where) if where else "1"
        return [r for (r,) in self._read(
            f"SELECT rules FROM games WHERE {cond} GROUP BY rules ORDER BY count(*) DESC, rules",
            params)]

    # ------------------------------------------------------------- settings
    def get_setting(self, owner: str, key: str) -> str | None:
        """The value of setting ``key`` of ``owner``, or None."""
        rows = self._read("SELECT value FROM settings WHERE owner = ? AND key = ?", (owner, key))
        return str(rows[0][0]) if rows else None

    def set_setting(self, owner: str, key: str, value: str) -> None:
        """Set setting ``key`` of ``owner`` to ``value``."""
        with self._write() as con:
            con.execute(
                "INSERT INTO settings (owner, key, value) VALUES (?, ?, ?) "
                "ON CONFLICT (owner, key) DO UPDATE SET value = excluded.value",
                (owner, key, str(value)),
            )

    def settings(self, owner: str) -> dict[str, str]:
        """Every setting of ``owner``, by key."""
        return {k: v for k, v in self._read(
            "SELECT key, value FROM settings WHERE owner = ? ORDER BY key", (owner,))}

    def set_settings(self, owner: str, values: Mapping[str, str]) -> None:
        """Set several settings of ``owner`` at once."""
        with self._write() as con:
            con.executemany(
                "INSERT INTO settings (owner, key, value) VALUES (?, ?, ?) "
                "ON CONFLICT (owner, key) DO UPDATE SET value = excluded.value",
                [(owner, k, str(v)) for k, v in values.items()],
            )

    # --------------------------------------------------------- current game
    def current_game(self, owner: str) -> int | None:
        """The id of the game ``owner`` is playing (set by PlaySession), or None."""
        rows = self._read("SELECT game_id FROM current_games WHERE owner = ?", (owner,))
        return int(rows[0][0]) if rows else None

    def set_current_game(self, owner: str, game_id: int | None) -> None:
        """Make ``game_id`` the game ``owner`` is playing (None: no game)."""
        with self._write() as con:
            if game_id is None:
                con.execute("DELETE FROM current_games WHERE owner = ?", (owner,))
            else:
                con.execute(
                    "INSERT INTO current_games (owner, game_id) VALUES (?, ?) "
                    "ON CONFLICT (owner) DO UPDATE SET game_id = excluded.game_id",
                    (owner, game_id),
                )

    # --------------------------------------------------------- web sessions
    def create_web_session(self, session: WebSession | None = None) -> WebSession:
        """Store a browser's session (a new one by default): only a digest of its
        cookie is kept, beside its owner id."""
        made = session or WebSession.new()
        when = now_text()
        with self._write() as con:
            con.execute(
                "INSERT INTO web_sessions (digest, owner, created, last_seen) "
                "VALUES (?, ?, ?, ?)",
                (cookie_digest(made.token), made.owner, when, when),
            )
        return made

    def web_session_owner(self, token: str) -> str | None:
        """The owner id of the browser with this cookie, or None."""
        if not token or len(token) > 200:
            return None
        rows = self._read("SELECT owner FROM web_sessions WHERE digest = ?",
                          (cookie_digest(token),))
        return str(rows[0][0]) if rows else None

    def set_web_session_owner(self, token: str, owner: str) -> None:
        """The browser of cookie ``token`` plays as ``owner`` from now on (a browser let in
        as this computer's player: ``local``); its session is stored if it was not."""
        when = now_text()
        with self._write() as con:
            con.execute(
                "INSERT INTO web_sessions (digest, owner, created, last_seen) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (digest) DO UPDATE SET "
                "owner = excluded.owner, last_seen = excluded.last_seen",
                (cookie_digest(token), owner, when, when),
            )

    def adopt_owner(self, old: str, new: str) -> None:
        """The games and settings of ``old`` become ``new``'s (``new``'s settings win, and
        its current game stays its current game)."""
        if old == new:
            return
        with self._write() as con:
            con.execute("UPDATE games SET owner = ? WHERE owner = ?", (new, old))
            con.execute("INSERT OR IGNORE INTO settings (owner, key, value) "
                        "SELECT ?, key, value FROM settings WHERE owner = ?", (new, old))
            con.execute("DELETE FROM settings WHERE owner = ?", (old,))
            con.execute("INSERT OR IGNORE INTO current_games (owner, game_id) "
                        "SELECT ?, game_id FROM current_games WHERE owner = ?", (new, old))
            con.execute("DELETE FROM current_games WHERE owner = ?", (old,))
            con.execute("UPDATE web_sessions SET owner = ? WHERE owner = ?", (new, old))

    def delete_web_session(self, token: str) -> None:
        """Forget the browser session of cookie ``token`` (its games stay)."""
        with self._write() as con:
            con.execute("DELETE FROM web_sessions WHERE digest = ?", (cookie_digest(token),))

    def web_session_exists(self, token: str) -> bool:
        """Whether ``token`` names a known browser session."""
        return self.web_session_owner(token) is not None

    def touch_web_session(self, token: str) -> None:
        """Note that browser session ``token`` was seen now."""
        with self._write() as con:
            con.execute("UPDATE web_sessions SET last_seen = ? WHERE digest = ?",
                        (now_text(), cookie_digest(token)))


class WebSession(NamedTuple):
    """A browser's session: its cookie (sent to it alone) and its owner id (stored)."""

    token: str
    owner: str

    @classmethod
    def new(cls) -> WebSession:
        """A new session: a random cookie and a random owner id, unrelated to each other."""
        return cls(secrets.token_urlsafe(32), web_owner())


# ---------------------------------------------------------------- replaying
def start_game(number: int | None, deck: str | None, position: str | None, rules: str) -> Game:
    """The game at its start, from how a store row names it."""
    if number is not None:
        return Game(number, rules=rules)
    if deck is not None:
        return Game(deck=deck, rules=rules)
    if position is not None:
        return Game.from_position(position)
    raise ValueError("a stored game needs a number, a deck or a start position")


def replay_events(game: Game, events: Iterable[tuple[str, str | None]]) -> Game:
    """Apply stored events to ``game`` (engine-checked)."""
    for kind, move in events:
        if kind == "move":
            assert move is not None
            game.play_text(move)
        elif kind == "undo":
            game.undo()
        elif kind == "redo":
            game.redo()
        elif kind == "restart":
            game.restart()
        elif kind == "giveup":
            game.give_up()
        # "hint" and "final" change nothing in the game itself
    return game


@dataclass
class ImportReport:
    """What :func:`import_records` did: ids imported, indexes skipped or bad (from 1)."""

    imported: list[int] = field(default_factory=list)
    duplicates: list[int] = field(default_factory=list)
    bad: list[tuple[int, DevilsGripError]] = field(default_factory=list)


_PLAY_TIME: Final = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,3})?")
"""A record's PlayTime: whole seconds, with up to three decimals."""


def parse_play_time(text: str) -> float | None:
    """The seconds of a record's ``PlayTime`` tag (``83.4``), or None when it is not one."""
    return float(text) if _PLAY_TIME.fullmatch(text) else None


def split_records(text: str) -> list[str]:
    """Records separated by a blank line before the next ``[Event`` tag."""
    records: list[list[str]] = []
    current: list[str] = []
    blank = True
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("[Event") and (blank or not current) and any(
            s.strip() and not s.strip().startswith("[") for s in current
        ):
            records.append(current)
            current = []
        if stripped or current:
            current.append(line)
        blank = not stripped
    if any(s.strip() for s in current):
        records.append(current)
    return ["\n".join(r).strip() + "\n" for r in records]


def import_records(store: Store, text: str, owner: str = "local") -> ImportReport:
    """Verify each record by replay and store the good ones as ``owner``'s games (not the
    ones ``owner`` has already)."""
    report = ImportReport()
    for index, record in enumerate(split_records(text), start=1):
        try:
            game = read_record(record)
        except DevilsGripError as exc:
            report.bad.append((index, exc))
            continue
        except ValueError as exc:
            report.bad.append((index, DevilsGripError(codes.RECORD_BAD, str(exc))))
            continue
        started = game.tags.pop("Started", None)
        ended = game.tags.pop("Ended", None)
        game.tags.pop("Owner", None)
        hints_text = game.tags.pop("Hints", "0")
        hints = parse_number(hints_text, MAX_COUNT)
        if hints is None or hints > MAX_COUNT:
            report.bad.append((index, DevilsGripError(
                codes.RECORD_BAD_HINTS, f"bad Hints count '{hints_text[:20]}' in the record")))
            continue
        time_text = game.tags.pop("PlayTime", "0")
        seconds = parse_play_time(time_text)
        if seconds is None:
            report.bad.append((index, DevilsGripError(
                codes.RECORD_BAD_TIME, f"bad PlayTime '{time_text[:20]}' in the record")))
            continue
        if started is not None and parse_time(started) is None:
            started = None
        if started is not None:
            dup = store.find_duplicate(game, started, owner)
            if dup is not None:
                report.duplicates.append(index)
                continue
        report.imported.append(
            store.save_game(game, owner, started=started, ended=ended, hints=hints,
                            play_seconds=seconds)
        )
    return report
