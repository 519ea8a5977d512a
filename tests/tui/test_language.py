"""The language of the terminal game, chosen in the game (``l``) as in the page's settings:
everything on screen changes at once, the game goes on, and the choice is kept for the
next runs (and for the page: the same player); ``--lang`` speaks for one run only."""

from __future__ import annotations

import asyncio

from pilot_waits import until
from textual.widgets import OptionList

from devilsgrip.i18n import current_language
from devilsgrip.store import Store
from devilsgrip.tui.app import DevilsGripApp
from devilsgrip.tui.game_screen import GameScreen
from devilsgrip.tui.screens import LanguageScreen
from devilsgrip.tui.widgets import StockBox


def _labels(screen: GameScreen) -> list[str]:
    return [hint.label for hint in screen.key_hints()]


def test_the_language_chosen_changes_the_whole_screen_and_is_kept(store: Store) -> None:
    async def first_run() -> None:
        app = DevilsGripApp(store, number=5, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert "deal" in _labels(screen) and screen.guide is not None
            await pilot.press("d")  # a move before the change: the game goes on after it
            await pilot.press("l")
            await until(pilot, lambda: isinstance(app.screen, LanguageScreen))
            options = app.screen.query_one(OptionList)
            assert [str(options.get_option_at_index(i).prompt)
                    for i in range(options.option_count)] == [
                "English", "Français", "Dansk", "Español", "Magyar"]
            assert options.highlighted == 0  # the language spoken now
            await pilot.press("down", "enter")
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            assert current_language() == "fr"
            assert screen.said.text.startswith("Langue : Français.")
            # the guide put away by the first move: what it says now is the game's
            assert screen.guide is None
            assert "donner" in _labels(screen) and "deal" not in _labels(screen)
            stock = screen.query_one(StockBox)
            assert stock.border_title == "pioche" and "69 cartes" in str(stock.render())
            assert screen.table.game.moves_played == 1  # the game on screen stays
            assert app.title == "Devil's Grip"  # (a name, the same in French)
            await pilot.press("u")  # the controller speaks French too
            await until(pilot, lambda: not screen.said.text.startswith("Langue"))
            assert screen.table.game.moves_played == 0
            assert screen.said.text == screen.table.snapshot().announce
            assert screen.table.words.lang == "fr"

    asyncio.run(first_run())
    assert store.settings("local")["lang"] == "fr"

    async def next_run(lang: str | None, expected: str, deal_label: str) -> None:
        app = DevilsGripApp(store, number=6, lang=lang, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert current_language() == expected
            assert deal_label in _labels(screen)
            await pilot.press("q")

    asyncio.run(next_run(None, "fr", "donner"))  # the choice kept
    asyncio.run(next_run("hu", "hu", "osztás"))  # --lang: this run only
    assert store.settings("local")["lang"] == "fr"


def test_the_guide_is_told_again_in_the_language_chosen(store: Store) -> None:
    async def scenario() -> None:
        app = DevilsGripApp(store, number=5, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen) and screen.guide is not None
            assert screen.guide.title == "Your first game"
            await pilot.press("l")
            await until(pilot, lambda: isinstance(app.screen, LanguageScreen))
            await pilot.press("down", "down", "enter")  # Dansk
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            assert screen.guide is not None and screen.guide.title != "Your first game"
            assert screen.said.text == (f"Sprog: Dansk. {screen.guide.stock} "
                                        f"{screen.guide.build}")

    asyncio.run(scenario())


def test_escape_keeps_the_language(store: Store) -> None:
    async def scenario() -> None:
        app = DevilsGripApp(store, number=5, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            await pilot.press("l")
            await until(pilot, lambda: isinstance(app.screen, LanguageScreen))
            await pilot.press("down", "escape")
            await until(pilot, lambda: app.screen is screen)
            assert current_language() == "en"

    asyncio.run(scenario())
    assert "lang" not in store.settings("local")
