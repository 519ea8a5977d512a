"""The terminal game at the size it asks for (80x24): the end of a game, the key bar,
the talon's ink, the review and the best line on the grid."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.widgets import Static

from devilsgrip.game import Game
from devilsgrip.session import PlaySession
from devilsgrip.solver import solve
from devilsgrip.store import Store
from devilsgrip.tui.app import DevilsGripApp
from devilsgrip.tui.game_screen import GameScreen
from devilsgrip.tui.screens import GameOverScreen
from devilsgrip.tui.widgets import InfoPanel

WINNABLE = 2
"""Deal 2 (classic) is won by the clairvoyant solver in a split second."""

ScreenText = Callable[[App[Any]], str]


async def until(pilot: Any, test: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)
        await pilot.pause()


def test_a_win_that_beats_the_deals_best_is_told_and_shown_as_the_best(store: Store) -> None:
    left = PlaySession.start(store, number=WINNABLE)
    left.play("d")
    left.give_up()
    line = solve(Game(WINNABLE), time_limit=10.0).moves

    async def scenario() -> None:
        app = DevilsGripApp(store, number=WINNABLE, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            for move in line[:-1]:
                screen.session.play(move)
            assert screen.play(line[-1])
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            body = str(app.screen.query_one("#gameover-body", Static).render())
            assert "New best on this deal! The best before was 72." in body
            assert "so far: 72" not in body
            info = screen.query_one("#info", InfoPanel)
            assert "best on this deal: 0" in [item.plain for item in info.items]

    asyncio.run(scenario())
