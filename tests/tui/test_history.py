"""What the page's menu has, in the terminal game too: the game history (the player's
finished games, the latest first, and the review of one of them) and the rules of new
games."""

from __future__ import annotations

import asyncio

from pilot_waits import until
from stored_games import given_up
from textual.widgets import OptionList, Static

from devilsgrip.game import Game
from devilsgrip.store import Store
from devilsgrip.tui.app import DevilsGripApp
from devilsgrip.tui.game_screen import GameScreen
from devilsgrip.tui.screens import HistoryScreen, ReviewScreen, RulesScreen


def _texts(screen: HistoryScreen) -> str:
    return "\n".join(str(s.render()) for s in screen.query(Static))


def test_the_history_lists_the_finished_games_and_reviews_the_one_chosen(store: Store) -> None:
    older = store.save_game(given_up(7, "d d"), "local", play_seconds=75.0)
    newer = store.save_game(given_up(12, "d"), "local")
    store.save_game(given_up(13, "d"), "someone-else")
    store.new_game(Game(14), "local")  # in play: not in the history

    async def scenario() -> None:
        app = DevilsGripApp(store, number=5, flourish_delay=0.0, dialog_guard=0.0,
                            solve_time=2.0)
        async with app.run_test(size=(80, 24)) as pilot:
            game_screen = app.screen
            assert isinstance(game_screen, GameScreen)
            await pilot.press("H")
            await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
            history = app.screen
            assert isinstance(history, HistoryScreen)
            options = history.query_one(OptionList)
            ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
            assert ids == [f"game-{newer}", f"game-{older}"]  # the latest to end first
            first = str(options.get_option_at_index(1).prompt)
            assert "Game 7 · Classic · score: 72" in first and "given up" in first
            assert "2 moves · 1:15" in first
            await pilot.press("down", "enter")
            await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
            assert game_screen.table.game.number == 5  # the game on screen is unchanged
            assert store.review(older) is not None  # the review is kept with its game
            await pilot.press("escape", "H")
            await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
            again = app.screen.query_one(OptionList).get_option_at_index(1).prompt
            assert "reviewed" in str(again)

    asyncio.run(scenario())


def test_with_no_game_kept_the_history_says_so() -> None:
    async def scenario() -> None:
        app = DevilsGripApp(None, number=5, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("H")
            await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
            screen = app.screen
            assert isinstance(screen, HistoryScreen)
            assert "Games are not being saved, so there is no history." in _texts(screen)
            assert not screen.query(OptionList)
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, GameScreen))

    asyncio.run(scenario())


def test_an_empty_history_says_how_a_game_gets_there(store: Store) -> None:
    async def scenario() -> None:
        app = DevilsGripApp(store, number=5, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("H")
            await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
            assert "No finished game yet." in _texts(app.screen)  # type: ignore[arg-type]

    asyncio.run(scenario())


def test_the_rules_of_new_games_are_chosen_kept_and_used(store: Store) -> None:
    """``p`` chooses the rules of new games among the presets: the game on screen keeps
    its own, the next new game (and the next run of the terminal game without
    ``--rules``) has the rules chosen."""
    async def scenario(first: bool) -> None:
        app = DevilsGripApp(store, number=5, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            if not first:
                assert str(screen.table.game.rules) == "literal"
                return
            assert str(screen.table.game.rules) == "classic"
            await pilot.press("p")
            await until(pilot, lambda: isinstance(app.screen, RulesScreen))
            options = app.screen.query_one(OptionList)
            assert options.highlighted == 0  # the rules in force, classic, first
            names = [str(options.get_option_at_index(i).prompt).splitlines()[0]
                     for i in range(options.option_count)]
            assert names == ["Classic", "Single pass", "Literal"]
            await pilot.press("down", "down", "enter")
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            assert str(screen.table.game.rules) == "classic"  # the game on screen stays
            assert "Rules for new games: Literal." in screen.said.text
            await pilot.press("n")
            await until(pilot, lambda: str(screen.table.game.rules) == "literal")

    asyncio.run(scenario(True))
    assert store.settings("local")["rules"] == "literal"
    asyncio.run(scenario(False))


def test_rules_given_on_the_command_line_are_offered_beside_the_presets(store: Store) -> None:
    async def scenario() -> None:
        app = DevilsGripApp(store, number=5, rules="classic,draw=1", flourish_delay=0.0,
                            dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("p")
            await until(pilot, lambda: isinstance(app.screen, RulesScreen))
            options = app.screen.query_one(OptionList)
            assert options.option_count == 4 and options.highlighted == 3
            assert "deals 1 card" in str(options.get_option_at_index(3).prompt)
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert "rules" not in store.settings("local")  # nothing chosen, nothing kept

    asyncio.run(scenario())
