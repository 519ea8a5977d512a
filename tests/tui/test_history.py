"""The terminal game's history: the player's finished games, the latest first, and the
review of one of them (as the page's game history has them)."""

from __future__ import annotations

import asyncio
import time

from textual.widgets import OptionList, Static

from devilsgrip.game import Game
from devilsgrip.store import Store
from devilsgrip.tui.app import DevilsGripApp
from devilsgrip.tui.game_screen import GameScreen
from devilsgrip.tui.screens import HistoryScreen, ReviewScreen


async def _until(pilot: object, test: object, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not test():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)
        await pilot.pause()  # type: ignore[attr-defined]


def _given_up(number: int, moves: str) -> Game:
    game = Game(number)
    game.play_all_text(moves)
    game.give_up()
    return game


def _texts(screen: HistoryScreen) -> str:
    return "\n".join(str(s.render()) for s in screen.query(Static))


def test_the_history_lists_the_finished_games_and_reviews_the_one_chosen(store: Store) -> None:
    older = store.save_game(_given_up(7, "d d"), "local", play_seconds=75.0)
    newer = store.save_game(_given_up(12, "d"), "local")
    store.save_game(_given_up(13, "d"), "someone-else")
    store.new_game(Game(14), "local")  # in play: not in the history

    async def scenario() -> None:
        app = DevilsGripApp(store, number=5, flourish_delay=0.0, dialog_guard=0.0,
                            solve_time=2.0)
        async with app.run_test(size=(80, 24)) as pilot:
            game_screen = app.screen
            assert isinstance(game_screen, GameScreen)
            await pilot.press("H")
            await _until(pilot, lambda: isinstance(app.screen, HistoryScreen))
            history = app.screen
            assert isinstance(history, HistoryScreen)
            options = history.query_one(OptionList)
            ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
            assert ids == [f"game-{newer}", f"game-{older}"]  # the latest to end first
            first = str(options.get_option_at_index(1).prompt)
            assert "Game 7 · Classic · score: 72" in first and "given up" in first
            assert "2 moves · 1:15" in first
            await pilot.press("down", "enter")
            await _until(pilot, lambda: isinstance(app.screen, ReviewScreen))
            assert game_screen.table.game.number == 5  # the game on screen is unchanged
            assert store.review(older) is not None  # the review is kept with its game
            await pilot.press("escape", "H")
            await _until(pilot, lambda: isinstance(app.screen, HistoryScreen))
            again = app.screen.query_one(OptionList).get_option_at_index(1).prompt
            assert "reviewed" in str(again)

    asyncio.run(scenario())


def test_with_no_game_kept_the_history_says_so() -> None:
    async def scenario() -> None:
        app = DevilsGripApp(None, number=5, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("H")
            await _until(pilot, lambda: isinstance(app.screen, HistoryScreen))
            screen = app.screen
            assert isinstance(screen, HistoryScreen)
            assert "Games are not being saved, so there is no history." in _texts(screen)
            assert not screen.query(OptionList)
            await pilot.press("escape")
            await _until(pilot, lambda: isinstance(app.screen, GameScreen))

    asyncio.run(scenario())


def test_an_empty_history_says_how_a_game_gets_there(store: Store) -> None:
    async def scenario() -> None:
        app = DevilsGripApp(store, number=5, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("H")
            await _until(pilot, lambda: isinstance(app.screen, HistoryScreen))
            assert "No finished game yet." in _texts(app.screen)  # type: ignore[arg-type]

    asyncio.run(scenario())
