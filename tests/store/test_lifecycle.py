"""The lifecycle of a saved game: final results, leaving, play again, the clock, one writer."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from store_helpers import near_won_position, play_to_end, win_moves

from devilsgrip import session as session_module
from devilsgrip.errors import IllegalMoveError
from devilsgrip.game import Game
from devilsgrip.session import PlaySession
from devilsgrip.store import MIGRATIONS, SCHEMA_VERSION, Store, StoreError, migrate


def test_leaving_a_game_with_no_move_deletes_it(store: Store) -> None:
    session = PlaySession.start(store, number=8)
    gid = session.game_id
    assert gid is not None and not session.leave_asks
    assert session.leave() == "deleted"
    assert store.game_info(gid) is None
    assert store.current_game("local") is None
    stats = store.stats()
    assert (stats.played, stats.unfinished) == (0, 0)


def test_a_move_taken_back_still_counts_as_a_move(store: Store) -> None:
    session = PlaySession.start(store, number=8)
    session.play_text("d")
    session.undo()
    assert session.game.moves_played == 0 and session.has_moves and session.leave_asks
    assert session.leave() == "given up"
    assert store.stats().given_up == 1


def test_leaving_mid_game_counts_as_given_up_with_its_score(store: Store) -> None:
    session = PlaySession.start(store, number=8)
    for _ in range(5):
        session.play_text("d")
    score = session.game.score
    assert session.leave() == "given up"
    assert session.final and session.game.given_up
    gid = session.game_id
    assert gid is not None
    info = store.game_info(gid)
    assert info is not None and info.final and info.status == "given up"
    assert info.score == score
    stats = store.stats()
    assert (stats.played, stats.given_up, stats.unfinished) == (1, 1, 0)
    assert session.leave() == "kept"  # leaving twice changes nothing
    assert store.stats().played == 1


def test_play_again_is_a_new_game_and_keeps_the_result(store: Store) -> None:
    position = near_won_position(2)
    session = PlaySession.start(store, position=position)
    for move in win_moves(position):
        session.play(move)
    first = session.game_id
    assert session.final and store.stats().won == 1
    assert session.leave() == "kept"
    again = session.again()
    assert again.game_id not in (None, first)
    assert again.game.position() == Game.from_position(position).position()
    assert not again.final and again.game.moves_played == 0
    assert again.elapsed() < 1.0 and again.started > session.started
    assert store.stats().won == 1 and store.stats().played == 1
    assert store.current_game("local") == again.game_id
    assert again.best_score() == 0  # the first game, not this one


def test_best_score_excludes_the_game_itself(store: Store) -> None:
    first = PlaySession.start(store, number=21)
    for _ in range(3):
        first.play_text("d")
    first.give_up()
    second = first.again()
    assert second.best_score() == first.game.score
    assert first.best_score() is None  # no other game of deal 21 is final


def test_the_best_line_makes_an_over_game_final(store: Store) -> None:
    session = PlaySession.start(store, number=3, rules="single-pass")
    with pytest.raises(IllegalMoveError) as refused:
        session.make_final()  # a game in play would show its stock
    assert refused.value.code == "game-live" and not session.final
    for move in play_to_end(Game(3, rules="single-pass"), seed=1).move_stack:
        session.play(move)
    assert session.game.is_over() and session.can_undo
    session.make_final()
    assert session.final and not session.can_undo
    with pytest.raises(IllegalMoveError) as refused:
        session.undo()
    assert refused.value.code == "game-finished"
    stats = store.stats("single-pass")
    assert (stats.played, stats.given_up) == (1, 0)
    assert session.game_id is not None
    assert store.events(session.game_id)[-1] == ("final", None)
    resumed = PlaySession.resume(store, session.game_id)
    assert resumed.final and not resumed.can_undo


def test_given_up_is_final(store: Store) -> None:
    session = PlaySession.start(store, number=4)
    session.play_text("d")
    session.give_up()
    for action in (session.undo, session.redo, lambda: session.play_text("d")):
        with pytest.raises(IllegalMoveError):
            action()
    assert session.game.generate_moves() == [] and not session.game.legal_moves
    session.give_up()  # twice: nothing more
    assert session.game_id is not None
    assert [k for k, _m in store.events(session.game_id)].count("giveup") == 1


def test_the_clock_counts_play_time_only(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr(session_module, "clock", lambda: now[0])
    session = PlaySession.start(store, number=6)
    now[0] += 10
    session.play_text("d")
    assert session.elapsed() == pytest.approx(10)
    session.pause()  # the page is hidden, the terminal game closed
    now[0] += 500
    assert session.elapsed() == pytest.approx(10) and not session.clock_running
    session.resume_clock()
    now[0] += 5
    session.play_text("d")
    assert session.elapsed() == pytest.approx(15)
    session.pause()
    assert session.game_id is not None
    info = store.game_info(session.game_id)
    assert info is not None and info.play_seconds == pytest.approx(15)
    resumed = PlaySession.resume(store, session.game_id)
    assert not resumed.clock_running and resumed.elapsed() == pytest.approx(15)
    resumed.resume_clock()
    now[0] += 2
    resumed.give_up()
    now[0] += 100  # a final game's clock has stopped
    assert resumed.elapsed() == pytest.approx(17)


def test_two_writers_never_interleave_in_one_game(store: Store, db: Path) -> None:
    first = PlaySession.start(store, number=10)
    first.play_text("d")
    assert first.game_id is not None
    with Store.open(db) as other_store:
        other = PlaySession.resume(other_store, first.game_id)
        other.play_text("d")  # the other window moves first
        with pytest.raises(StoreError) as refused:
            first.play_text("d")  # this one read the game before that move
        assert refused.value.code == "store-game-changed"
        # nothing acknowledged is lost; this session now shows the game as stored
        assert first.game.moves_played == 2
        assert first.game.position() == other.game.position()
        first.play_text("d")  # and plays on from there
        stored = PlaySession.resume(store, first.game_id)
        assert stored.game.move_stack == first.game.move_stack
        assert stored.game.moves_played == 3
        with pytest.raises(StoreError):
            other.play_text("d")
        assert other.game.moves_played == 3


def _v2_database(path: Path) -> None:
    con = sqlite3.connect(path, isolation_level=None)
    migrate(con, target=2)
    rows = [
        # id, number, status, score, moves, ended
        (1, 5, "won", 0, 150, "2026-01-01T00:00:00+00:00"),
        (2, 6, "over", 14, 60, "2026-01-02T00:00:00+00:00"),
        (3, 7, "given up", 40, 9, "2026-01-03T00:00:00+00:00"),
        (4, 8, "in progress", 66, 3, None),
        (5, 9, "in progress", 72, 0, None),
    ]
    for gid, number, status, score, moves, ended in rows:
        con.execute(
            "INSERT INTO games (id, owner, number, rules, started, updated, ended, status, "
            "score, moves) VALUES (?, 'local', ?, 'classic', '2026-01-01T00:00:00+00:00', "
            "'2026-01-01T00:00:00+00:00', ?, ?, ?, ?)",
            (gid, number, ended, status, score, moves))
    for seq in range(1, 4):
        con.execute("INSERT INTO events (game_id, seq, kind, move, at) VALUES "
                    "(4, ?, 'move', 'd', '2026-01-01T00:00:00+00:00')", (seq,))
    con.execute("INSERT INTO current_games (owner, game_id) VALUES ('local', 5)")
    con.close()


def test_migration_keeps_results_and_drops_games_never_played(db: Path) -> None:
    assert len(MIGRATIONS) == SCHEMA_VERSION == 7
    _v2_database(db)
    with Store.open(db) as store:
        assert store.schema_version == SCHEMA_VERSION
        stats = store.stats()
        assert (stats.played, stats.won, stats.given_up, stats.unfinished) == (3, 1, 1, 1)
        assert [g.id for g in store.games()] == [1, 2, 3, 4]
        assert [g.final for g in store.games()] == [True, True, True, False]
        assert store.current_game("local") is None
        resumed = PlaySession.resume(store, 4)
        assert resumed.game.moves_played == 3 and not resumed.final
        resumed.play_text("d")
        assert store.event_count(4) == 4


def test_a_game_id_is_never_given_twice(store: Store) -> None:
    first = PlaySession.start(store, number=8)
    assert first.leave() == "deleted"
    second = PlaySession.start(store, number=8)
    assert first.game_id is not None and second.game_id is not None
    assert second.game_id > first.game_id
