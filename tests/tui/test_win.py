"""A winnable deal played to the win by replaying the solver's line through key presses."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot

from devilsgrip.cards import RANK_OF
from devilsgrip.game import Game
from devilsgrip.notation import Move, MoveKind
from devilsgrip.solver import solve
from devilsgrip.store import Store
from devilsgrip.tui.app import DevilsGripApp
from devilsgrip.tui.game_screen import GameScreen
from devilsgrip.tui.places import TALON
from devilsgrip.tui.screens import GameOverScreen

NOTATION = re.compile(r"\b(?:[a-h][1-3]|t)\s*[-=]\s*[a-h][1-3]\b")
"""Move notation (``a1-c2``, ``a1=c2``, ``t-c2``) inside a sentence."""

PathKeys = Callable[[int, int, int], tuple[list[str], int]]
WINNABLE = 2
"""Game 2 (classic) is won by the clairvoyant solver in a split second."""


def move_keys(move: Move, place: int, memory: int, path_keys: PathKeys) -> tuple[list[str], int,
                                                                                 int]:
    """The key presses that play ``move`` from the cursor at ``place``; the new cursor too."""
    if move.kind == MoveKind.DEAL:
        return ["d"], place, memory
    if move.kind == MoveKind.REDEAL:
        return ["r"], place, memory
    source = TALON if move.kind == MoveKind.TALON else move.src
    keys, memory = path_keys(place, memory, source)
    more, memory = path_keys(source, memory, move.dst)
    drop = "x" if move.kind == MoveKind.SWAP else "enter"
    return [*keys, "enter", *more, drop], move.dst, memory


async def send_keys(app: DevilsGripApp, keys: list[str]) -> None:
    """Key presses as the terminal sends them, without the pilot's pause after each
    (about 40 ms a key: too slow for a whole game).  Keys are handled in order."""
    driver = app._driver
    assert driver is not None
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(app)
        driver.send_message(event)


async def wait_for(pilot: Pilot[Any], test: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.002)


@pytest.mark.slow
def test_solver_line_played_by_keys_wins_with_the_flourish(store: Store,
                                                           path_keys: PathKeys) -> None:
    result = solve(Game(WINNABLE), time_limit=10.0)
    assert result.score == 0
    place, memory = 0, 0
    presses: list[list[str]] = []
    for move in result.moves:
        keys, place, memory = move_keys(move, place, memory, path_keys)
        presses.append(keys)

    earlier = Game(WINNABLE)
    earlier.play_all(list(result.moves))
    store.save_game(earlier, play_seconds=9999.0)  # a slow win before: this one beats it

    async def scenario() -> None:
        app = DevilsGripApp(store, number=WINNABLE, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            game = screen.table.session.game
            said: list[str] = []
            for i, (move, keys) in enumerate(zip(result.moves, presses, strict=True)):
                for key in keys:  # every line the status shows on the way: picks, moves
                    await send_keys(app, [key])
                    said.append(screen.status)
                await wait_for(pilot, lambda i=i: game.moves_played > i)  # type: ignore[misc]
                assert game.move_stack[i] == move, (i, move, screen.status)
                said.append(screen.status)
            # every sentence reads as words, never as move notation
            assert not [s for s in said if NOTATION.search(s)]
            assert all(s[:1].isupper() or not s[:1].isalpha() for s in said if s)
            assert game.move_stack[: len(result.moves)] == list(result.moves)
            assert game.is_won()
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
            over = app.screen
            assert isinstance(over, GameOverScreen)
            assert over.won and over.score == 0
            await wait_for(pilot, lambda: bool(over.query("#gameover-body")))
            body = str(over.query_one("#gameover-body").render())
            assert "Your fastest win yet! The fastest before took 2:46:39." in body
            # the flourish showed the arrangement: jacks, queens, kings row by row, on
            # screen only; the arranging swaps are not moves of the game
            assert screen.display_grid is not None
            tops = [RANK_OF[pile[-1]] for pile in screen.display_grid]
            assert tops == [11] * 8 + [12] * 8 + [13] * 8
            shown = [str(screen.query_one(f"#place-{name}").render()) for name in ("a1", "a3")]
            assert shown[0].strip().startswith("J") and shown[1].strip().startswith("K")
            assert game.moves_played == len(result.moves)
            assert screen.table.session.game_id is not None
            info = store.game_info(screen.table.session.game_id)
            assert info is not None and info.status == "won" and info.final
            assert info.moves == len(result.moves)
            # a win is its own best line: b is not offered and does nothing
            assert not over.best_line
            keys = str(over.query_one("#gameover-keys").render())
            assert "b:" not in keys and "v: review" in keys
            await pilot.press("b")
            assert app.screen is over
            await pilot.press("n")
            assert app.screen is screen
            assert screen.table.session.game.moves_played == 0

    asyncio.run(scenario())
