"""A final game's events kept as one line (schema 7): the same game back, a tenth of the
bytes, and what was stored before it kept."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from devilsgrip import codes
from devilsgrip.game import Game
from devilsgrip.records import write_record
from devilsgrip.session import PlaySession
from devilsgrip.solver import play_game
from devilsgrip.store import (
    EVENT_KINDS,
    Store,
    StoreError,
    migrate,
    pack_events,
    unpack_events,
)

MOVE_TEXTS = st.sampled_from(["d", "r", "t-c2", "a1-c2", "a1=c2", "h3-a1", "t-h3"])
EVENTS = st.lists(st.one_of(
    st.tuples(st.just("move"), MOVE_TEXTS),
    st.tuples(st.sampled_from([k for k in EVENT_KINDS if k != "move"]),
              st.one_of(st.none(), MOVE_TEXTS)),
))


def _rows(db: Path, table: str, game_id: int) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute(f"SELECT COUNT(*) FROM {table} WHERE game_id = ?",
                               (game_id,)).fetchone()[0])
    finally:
        con.close()


@given(EVENTS)
def test_a_line_of_events_reads_back_as_written(events: list[tuple[str, str | None]]) -> None:
    assert unpack_events(pack_events(events)) == events


@pytest.mark.parametrize("word", ["!nothing", "!move", "!move:d"])
def test_a_word_the_store_never_writes_is_refused(word: str) -> None:
    with pytest.raises(ValueError):
        unpack_events(f"d {word}")


def test_a_game_that_ends_keeps_its_events_as_one_line(store: Store, db: Path) -> None:
    session = PlaySession.start(store, number=8)
    for text in ("d", "d", "d"):
        session.play_text(text)
    session.undo()
    session.record_hint("d")
    gid = session.game_id
    assert gid is not None
    before = store.events(gid)
    assert _rows(db, "events", gid) == 5 and _rows(db, "logs", gid) == 0
    session.give_up()
    assert _rows(db, "events", gid) == 0 and _rows(db, "logs", gid) == 1
    assert store.events(gid) == [*before, ("giveup", None)]
    assert store.event_count(gid) == 6
    again = PlaySession.resume(store, gid)
    assert again.final and again.game.given_up and again.game.moves_played == 2
    assert again.game.redo_stack == session.game.redo_stack


def test_an_event_after_the_end_joins_the_line_and_a_stale_writer_is_refused(
        store: Store, db: Path) -> None:
    session = PlaySession.start(store, number=8)
    session.play_text("d")
    session.give_up()
    gid = session.game_id
    assert gid is not None
    stale = PlaySession.resume(store, gid)
    session.record_hint(None)
    assert store.events(gid) == [("move", "d"), ("giveup", None), ("hint", None)]
    assert store.game_info(gid).hints == 1  # type: ignore[union-attr]
    with pytest.raises(StoreError) as refused:
        stale.record_hint("d")
    assert refused.value.code == codes.STORE_GAME_CHANGED
    assert store.event_count(gid) == 3 and _rows(db, "events", gid) == 0
    # a writer that saw no event at all (the game was new to it) writes nothing either
    with pytest.raises(StoreError) as refused:
        store.add_event(gid, "move", Game(8), "d", seen=0)
    assert refused.value.code == codes.STORE_GAME_CHANGED
    assert store.events(gid) == [("move", "d"), ("giveup", None), ("hint", None)]
    assert _rows(db, "events", gid) == 0


def test_imported_games_are_kept_as_lines_and_export_as_they_came(store: Store,
                                                                   db: Path) -> None:
    won = Game(17, rules="single-pass")
    line = Path(__file__).parents[2] / "src/devilsgrip/data/winnable-single-pass.txt"
    moves = next(row.split()[1:] for row in line.read_text().splitlines()
                 if row.startswith("17 "))
    for text in moves:
        won.play_text(text)
    over = play_game(Game(5, rules="classic"), "greedy", time_limit=0.05)
    for game in (won, over):
        gid = store.save_game(game)
        assert _rows(db, "events", gid) == 0 and _rows(db, "logs", gid) == 1
        assert store.load_game(gid).move_stack == game.move_stack
        assert store.record(gid).split("\n\n")[1] == write_record(game).split("\n\n")[1]


def test_a_damaged_line_is_reported_and_left_as_it_is(store: Store, db: Path) -> None:
    session = PlaySession.start(store, number=8)
    session.play_text("d")
    session.give_up()
    gid = session.game_id
    assert gid is not None
    con = sqlite3.connect(db)
    con.execute("UPDATE logs SET events = 'd !what' WHERE game_id = ?", (gid,))
    con.commit()
    con.close()
    with pytest.raises(StoreError) as damaged:
        store.load_game(gid)
    assert damaged.value.code == codes.STORE_CORRUPT
    con = sqlite3.connect(db)
    assert con.execute("SELECT events FROM logs").fetchone()[0] == "d !what"
    con.close()


def test_the_migration_folds_the_final_games_and_leaves_the_others(tmp_path: Path) -> None:
    db = tmp_path / "v6.db"
    con = sqlite3.connect(db, isolation_level=None)
    migrate(con, 6)
    # a final game and one in play, written as version 6 wrote them
    for gid, final in ((1, 1), (2, 0)):
        con.execute(
            "INSERT INTO games (id, owner, number, rules, started, updated, status, score, "
            "moves, final) VALUES (?, 'local', 8, 'classic', '2026-01-01T00:00:00+00:00', "
            "'2026-01-01T00:00:00+00:00', ?, 72, 1, ?)",
            (gid, "given up" if final else "in progress", final))
        events = [("move", "d"), ("undo", None), ("redo", None)]
        if final:
            events.append(("giveup", None))
        con.executemany(
            "INSERT INTO events (game_id, seq, kind, move, at) VALUES (?, ?, ?, ?, "
            "'2026-01-01T00:00:00+00:00')",
            [(gid, i, k, m) for i, (k, m) in enumerate(events, start=1)])
    con.close()
    with Store.open(db) as store:
        assert store.schema_version == 7
        assert _rows(db, "events", 1) == 0 and _rows(db, "logs", 1) == 1
        assert _rows(db, "events", 2) == 3 and _rows(db, "logs", 2) == 0
        assert store.events(1) == [("move", "d"), ("undo", None), ("redo", None),
                                   ("giveup", None)]
        assert store.event_count(1) == 4 and store.event_count(2) == 3
        assert store.load_game(1).given_up
        assert store.load_game(2).moves_played == 1


def test_a_history_takes_a_tenth_of_the_room(tmp_path: Path) -> None:
    games = [play_game(Game(n, rules="classic"), "greedy", time_limit=0.05)
             for n in range(1, 41)]
    empty = tmp_path / "empty.db"
    with Store.open(empty):
        pass
    sizes = [empty.stat().st_size]
    for fold in (False, True):
        db = tmp_path / f"{fold}.db"
        with Store.open(db) as store:
            for game in games:
                store.save_game(game)
            if not fold:  # as version 6 kept them: every event a row
                con = sqlite3.connect(db)
                for gid, _count, line in con.execute("SELECT * FROM logs").fetchall():
                    con.executemany(
                        "INSERT INTO events (game_id, seq, kind, move, at) VALUES "
                        "(?, ?, ?, ?, '2026-12-06T10:00:00.000000+00:00')",
                        [(gid, i, k, m) for i, (k, m) in
                         enumerate(unpack_events(line), start=1)])
                con.execute("DELETE FROM logs")
                con.commit()
                con.execute("VACUUM")
                con.close()
        con = sqlite3.connect(db)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.execute("VACUUM")
        sizes.append(db.stat().st_size)
        con.close()
    bare, rows, lines = sizes
    assert (lines - bare) * 8 < rows - bare


def test_the_migration_gives_the_room_of_the_folded_events_back(tmp_path: Path) -> None:
    db = tmp_path / "v6.db"
    con = sqlite3.connect(db, isolation_level=None)
    con.execute("PRAGMA journal_mode = WAL")
    migrate(con, 6)
    events = [("move", "d")] * 24 + [("undo", None), ("redo", None)] * 38 + [("giveup", None)]
    con.execute("BEGIN")
    for gid in range(1, 301):
        con.execute(
            "INSERT INTO games (id, owner, number, rules, started, updated, status, score, "
            "moves, final) VALUES (?, 'local', ?, 'classic', '2026-01-01T00:00:00+00:00', "
            "'2026-01-01T00:00:00+00:00', 'given up', 72, 100, 1)", (gid, gid))
        con.executemany(
            "INSERT INTO events (game_id, seq, kind, move, at) VALUES (?, ?, ?, ?, "
            "'2026-01-01T00:00:00.000000+00:00')",
            [(gid, i, kind, move) for i, (kind, move) in enumerate(events, start=1)])
    con.execute("COMMIT")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    before = db.stat().st_size
    with Store.open(db) as store:
        assert store.schema_version == 7 and len(store.games(finished=True)) == 300
        assert store.load_game(300).given_up
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    assert db.stat().st_size * 5 < before
