"""Autosave: a child killed with SIGKILL mid-stream loses no acknowledged action."""

from __future__ import annotations

import importlib.util
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from store_helpers import STORE_CHILD

from devilsgrip.game import Game
from devilsgrip.session import PlaySession
from devilsgrip.store import Store

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


def _child_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("store_child", STORE_CHILD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _expected(seed: int, steps: int) -> tuple[Game, list[tuple[str, str | None]]]:
    """The child's game and actions after ``steps`` actions, recomputed here."""
    child = _child_module()
    game = Game(seed, rules="classic")
    rng = random.Random(seed)
    actions: list[tuple[str, str | None]] = []
    for _ in range(steps):
        kind, move = child.choose(game, rng)
        child.apply(game, kind, move)
        actions.append((kind, move))
    return game, actions


@pytest.mark.parametrize(("seed", "kill_after"), [(11, 40), (12, 150), (13, 400)])
def test_sigkill_loses_no_acknowledged_action(db: Path, seed: int, kill_after: int) -> None:
    proc = subprocess.Popen(
        [sys.executable, str(STORE_CHILD), str(db), str(seed)],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    acked: list[tuple[str, str | None]] = []
    try:
        first = proc.stdout.readline().split()
        assert first[0] == "game", first
        game_id = int(first[1])
        while len(acked) < kill_after:
            line = proc.stdout.readline()
            assert line, "the child stopped early"
            _ack, _n, kind, move = line.split()
            acked.append((kind, None if move == "-" else move))
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL

    with Store.open(db) as store:
        stored = store.events(game_id)
        # every acknowledged action is there, in order (one more may have been committed
        # after the last acknowledgement was printed, or while the pipe was being read)
        assert len(stored) >= len(acked)
        assert [(k, m if k in ("move", "hint") else None) for k, m in stored[: len(acked)]] \
            == [(k, m if k in ("move", "hint") else None) for k, m in acked]
        game, actions = _expected(seed, len(stored))
        assert [(k, m if k in ("move", "hint") else None) for k, m in stored] == actions
        assert game_id in [g.id for g in store.unfinished_games()]
        session = PlaySession.resume(store, game_id)
        assert session.game.position() == game.position()
        assert session.game.redo_stack == game.redo_stack
        assert session.game.move_stack == game.move_stack
        info = store.game_info(game_id)
        assert info is not None and info.score == game.score
        assert info.moves == game.moves_played
        # the resumed game goes on saving
        next_move = session.game.generate_moves()[0]
        session.play(next_move)
        assert store.events(game_id)[-1] == ("move", next_move.text())
