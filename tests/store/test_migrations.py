"""Schema versions: a fresh database, a real version-1 database, a newer one."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from store_helpers import given_up_game, make_v1_database, over_game

from devilsgrip.game import Game
from devilsgrip.notation import format_deck
from devilsgrip.session import PlaySession
from devilsgrip.store import APPLICATION_ID, SCHEMA_VERSION, Store, StoreError


def _tables(path: Path) -> set[str]:
    con = sqlite3.connect(path)
    try:
        return {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        con.close()


def test_fresh_database_gets_current_schema(db: Path) -> None:
    with Store.open(db) as store:
        assert store.schema_version == SCHEMA_VERSION
    assert _tables(db) == {"games", "events", "settings", "web_sessions", "current_games",
                           "counters", "reviews", "dailies", "logs"}
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


def test_opening_twice_is_harmless(db: Path) -> None:
    with Store.open(db) as store:
        gid = PlaySession.start(store, number=3).game_id
    with Store.open(db) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert [g.id for g in store.games()] == [gid]


def test_empty_file_is_a_new_database(db: Path) -> None:
    db.write_bytes(b"")
    with Store.open(db) as store:
        assert store.games() == []


def test_a_new_database_in_an_existing_folder(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        assert store.path == path
    assert path.exists()


def test_environment_variable_names_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "env.db"
    monkeypatch.setenv("DEVILSGRIP_DB", str(path))
    with Store.open() as store:
        assert store.path == path
    assert path.exists()


def test_migration_from_version_1(db: Path) -> None:
    in_progress = Game(7)
    for move in ("d", "d", "d"):
        in_progress.play_text(move)
    over = over_game(8)
    gave_up = given_up_game(9, 12)
    decked = Game(deck=format_deck(Game(10).deck or ()), rules="single-pass")
    decked.play_text("d")
    rows = [
        (7, None, "classic", "2024-01-01T10:00:00+00:00",
         " ".join(m.text() for m in in_progress.move_stack), "in progress",
         in_progress.score, None),
        (8, None, "single-pass", "2024-01-02T10:00:00+00:00",
         " ".join(m.text() for m in over.move_stack), "over", over.score,
         "2024-01-02T10:30:00+00:00"),
        (9, None, "classic", "2024-01-03T10:00:00+00:00",
         " ".join(m.text() for m in gave_up.move_stack), "given up", gave_up.score,
         "2024-01-03T10:05:00+00:00"),
        (None, format_deck(decked.deck or ()), "single-pass", "2024-01-04T10:00:00+00:00",
         "d", "in progress", decked.score, None),
    ]
    make_v1_database(db, rows, {"lang": "fr", "four_colour": "1"})
    assert _tables(db) == {"games", "settings"}

    with Store.open(db) as store:
        assert store.schema_version == SCHEMA_VERSION
        games = store.games()
        assert [g.number for g in games] == [7, 8, 9, None]
        assert all(g.owner == "local" for g in games)
        assert [g.status for g in games] == ["in progress", "over", "given up", "in progress"]
        assert games[1].ended == "2024-01-02T10:30:00+00:00"
        assert games[0].ended is None
        # every game replays to where version 1 left it
        assert store.load_game(games[0].id).position() == in_progress.position()
        assert store.load_game(games[1].id).position() == over.position()
        loaded = store.load_game(games[2].id)
        assert loaded.given_up and loaded.position() == gave_up.position()
        assert store.load_game(games[3].id).position() == decked.position()
        # most recently played first
        assert [g.id for g in store.unfinished_games()] == [games[3].id, games[0].id]
        assert store.settings("local") == {"four_colour": "1", "lang": "fr"}
        stats = store.stats()
        assert stats.played == 2 and stats.given_up == 1
        assert stats.best_score == min(over.score, gave_up.score)
        # and the migrated store goes on working
        session = PlaySession.resume(store, games[0].id)
        session.play_text("d")
        assert store.load_game(games[0].id).position() == session.game.position()


def test_failed_migration_changes_nothing(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_v1_database(db, [(5, None, "classic", "2024-01-01T00:00:00+00:00", "d d x9-zz",
                           "in progress", 66, None)], {})
    import devilsgrip.store as store_module

    def broken(con: sqlite3.Connection) -> None:
        con.execute("CREATE TABLE half_done (x)")
        raise RuntimeError("boom")

    monkeypatch.setattr(store_module, "MIGRATIONS", (store_module.MIGRATIONS[0], broken))
    with pytest.raises(RuntimeError):
        Store.open(db)
    assert _tables(db) == {"games", "settings"}
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 1
    con.close()


def test_newer_schema_is_refused_untouched(db: Path) -> None:
    con = sqlite3.connect(db)
    con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, future TEXT)")
    con.commit()
    con.close()
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    with pytest.raises(StoreError) as info:
        Store.open(db)
    assert info.value.code == "store-newer"
    assert info.value.params["path"] == str(db)
    assert info.value.params["found"] == SCHEMA_VERSION + 1
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in db.parent.iterdir()) == [db.name]
