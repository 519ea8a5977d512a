"""PlaySession: autosave of every action, resume, ends; settings and web sessions.

The lifecycle (final results, leaving, play again, the clock, one writer per
game) has its own file, test_lifecycle.py.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from store_helpers import near_won_position, play_to_end, win_moves

from devilsgrip.errors import IllegalMoveError, MoveError
from devilsgrip.game import Game
from devilsgrip.notation import DEAL
from devilsgrip.session import PlaySession
from devilsgrip.store import Store, StoreError


def test_every_action_is_an_event(store: Store) -> None:
    session = PlaySession.start(store, number=42)
    assert session.saving and session.warning is None and session.warning_code is None
    gid = session.game_id
    assert gid is not None
    session.play_text("d")
    session.play_text("d")
    session.undo()
    session.record_hint("d")
    session.redo()
    session.undo()
    assert store.events(gid) == [
        ("move", "d"), ("move", "d"), ("undo", None), ("hint", "d"), ("redo", None),
        ("undo", None),
    ]
    info = store.game_info(gid)
    assert info is not None
    assert (info.moves, info.score, info.hints, info.status) == (1, 72, 1, "in progress")
    resumed = PlaySession.resume(store, gid)
    assert resumed.game.position() == session.game.position()
    assert resumed.game.redo_stack == session.game.redo_stack == [session.game.redo_stack[0]]
    assert resumed.game.can_redo
    resumed.redo()
    assert resumed.game.moves_played == 2


def test_rejected_move_changes_nothing(store: Store) -> None:
    session = PlaySession.start(store, number=42)
    gid = session.game_id
    assert gid is not None
    before = session.game.position()
    with pytest.raises(IllegalMoveError):
        session.play_text("t-a1")
    with pytest.raises(MoveError):
        session.play_text("zz")
    with pytest.raises(IllegalMoveError):
        session.undo()
    assert session.game.position() == before
    assert store.events(gid) == []


def test_play_takes_a_move_and_text_has_its_own_door(store: Store) -> None:
    session = PlaySession.start(store, number=42)
    gid = session.game_id
    assert gid is not None
    before = session.game.position()
    with pytest.raises(TypeError, match="play_text"):
        session.play("d")  # type: ignore[arg-type]
    assert session.game.position() == before and store.events(gid) == []
    assert session.play_text("d") == DEAL == session.play(DEAL)
    assert store.events(gid) == [("move", "d"), ("move", "d")]


def test_resume_replays_a_long_random_session(store: Store) -> None:
    session = PlaySession.start(store, number=77)
    rng = random.Random(77)
    for _ in range(300):
        r = rng.random()
        if r < 0.15 and session.game.can_undo:
            session.undo()
        elif r < 0.25 and session.game.can_redo:
            session.redo()
        else:
            session.play(rng.choice(session.game.generate_moves(swaps=r > 0.95)))
    assert session.game_id is not None
    again = PlaySession.resume(store, session.game_id)
    assert again.game.position() == session.game.position()
    assert again.game.move_stack == session.game.move_stack
    assert again.game.redo_stack == session.game.redo_stack


def test_over_is_a_status_until_the_game_is_left(store: Store) -> None:
    session = PlaySession.start(store, number=3, rules="single-pass")
    for move in play_to_end(Game(3, rules="single-pass"), seed=1).move_stack:
        session.play(move)
    gid = session.game_id
    assert gid is not None
    info = store.game_info(gid)
    assert info is not None and info.status == "over" and not info.final
    assert info.ended is None and session.ended is None
    final_score = info.score
    assert store.stats("single-pass").played == 0  # over but still open: not counted yet
    assert gid in [g.id for g in store.unfinished_games()]

    undone = 0
    while session.game.is_over():
        session.undo()
        undone += 1
    assert undone >= 1
    info = store.game_info(gid)
    assert info is not None and info.status == "in progress"
    for _ in range(undone):  # back to the end
        session.redo()
    assert session.leave() == "over"
    info = store.game_info(gid)
    assert info is not None and info.status == "over" and info.final
    assert info.score == final_score and info.ended is not None
    stats = store.stats("single-pass")
    assert (stats.played, stats.given_up, stats.unfinished) == (1, 0, 0)
    with pytest.raises(IllegalMoveError) as refused:
        session.undo()
    assert refused.value.code == "game-finished"


def test_win_is_final_and_cannot_be_given_up(store: Store) -> None:
    position = near_won_position(3)
    session = PlaySession.start(store, position=position)
    for move in win_moves(position):
        session.play(move)
    assert session.game_id is not None and session.final
    info = store.game_info(session.game_id)
    assert info is not None and info.status == "won" and info.score == 0 and info.final
    assert info.start_position == position
    with pytest.raises(IllegalMoveError) as refused:
        session.give_up()
    assert refused.value.code == "game-won"
    for action in (session.undo, session.redo,
                   lambda: session.play(session.game.arrangement()[0])):
        with pytest.raises(IllegalMoveError) as refused:
            action()
        assert refused.value.code == "game-finished"
    info = store.game_info(session.game_id)
    assert info is not None and info.status == "won" and info.moves == 3
    assert store.stats().won == 1
    resumed = PlaySession.resume(store, session.game_id)
    assert resumed.game.is_won() and resumed.final and not resumed.can_undo


def test_resume_unknown_game(store: Store) -> None:
    with pytest.raises(StoreError) as info:
        PlaySession.resume(store, 999)
    assert info.value.code == "store-no-game"


def test_unfinished_games_newest_first_per_owner(store: Store) -> None:
    a = PlaySession.start(store, number=1)
    b = PlaySession.start(store, number=2)
    PlaySession.start(store, number=3, owner="web:x")
    done = PlaySession.start(store, number=4)
    done.play_text("d")
    done.give_up()
    a.play_text("d")  # a was played last
    assert [g.id for g in store.unfinished_games()] == [a.game_id, b.game_id]
    assert [g.number for g in store.unfinished_games("web:x")] == [3]


def test_without_store_the_game_runs() -> None:
    session = PlaySession.start(None, number=5)
    assert not session.saving and session.game_id is None
    assert session.warning_code == "store-none" and session.warning
    session.play_text("d")
    session.undo()
    session.give_up()
    assert session.best_score() is None
    assert "given up" in session.record()


def test_settings_current_game_and_web_sessions(db: Path) -> None:
    with Store.open(db) as store:
        token, owner = store.create_web_session()
        assert token not in owner
        assert store.web_session_owner(token) == owner
        assert store.web_session_exists(token)
        assert not store.web_session_exists("nope")
        assert not store.web_session_exists("")
        store.set_setting(owner, "lang", "fr")
        store.set_setting(owner, "lang", "da")
        store.set_settings(owner, {"four_colour": "1", "rules": "single-pass"})
        session = PlaySession.start(store, number=12, owner=owner)
        session.play_text("d")
        assert store.current_game(owner) == session.game_id
        assert store.current_game("web:other") is None
        store.touch_web_session(token)
    with Store.open(db) as store:  # after a restart of the server
        assert store.web_session_exists(token)
        assert store.get_setting(owner, "lang") == "da"
        assert store.get_setting(owner, "missing") is None
        assert store.settings(owner) == {"four_colour": "1", "lang": "da",
                                         "rules": "single-pass"}
        gid = store.current_game(owner)
        assert gid is not None and gid == session.game_id
        assert PlaySession.resume(store, gid).game.moves_played == 1
        store.set_current_game(owner, None)
        assert store.current_game(owner) is None
        made = [store.create_web_session() for _ in range(20)]
        assert len({s.token for s in made}) == len({s.owner for s in made}) == 20
