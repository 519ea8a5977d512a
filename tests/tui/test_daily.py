"""The terminal game's daily deal, winnable deals and share, driven with the pilot."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from textual.app import App

from devilsgrip import i18n
from devilsgrip.catalog import winnable_deals
from devilsgrip.daily import daily_deal
from devilsgrip.store import Store
from devilsgrip.tui.app import DevilsGripApp
from devilsgrip.tui.game_screen import GameScreen
from devilsgrip.tui.screens import ConfirmScreen, DailyScreen, GameOverScreen, ShareScreen

ScreenText = Callable[[App[object]], str]
SHOTS = Path(__file__).parent / "screenshots"


def make_app(store: Store | None, **kwargs: Any) -> DevilsGripApp:
    kwargs.setdefault("flourish_delay", 0.0)
    kwargs.setdefault("dialog_guard", 0.0)
    return DevilsGripApp(store, **kwargs)


@pytest.mark.slow
def test_daily_calendar_plays_the_days_deal_and_counts_once(
        store: Store, screen_text: ScreenText, tmp_path: Path) -> None:
    today = date.today()

    async def scenario() -> None:
        app = make_app(store, number=1, rules="single-pass")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("D")
            assert isinstance(app.screen, DailyScreen)
            text = screen_text(app)  # type: ignore[arg-type]
            assert f"Today, {today.isoformat()}: game {daily_deal(today, 'single-pass')}" in text
            assert "Not played yet." in text and "Daily streak: 0 days" in text
            assert "Mo" in text and "Su" in text
            app.save_screenshot(str(tmp_path / "daily.svg"))
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
            assert app.table is not None and app.table.session.daily == today.isoformat()
            assert app.table.session.game.number == daily_deal(today, "single-pass")
            # give up: the game over dialog offers the share
            await pilot.press("d", "G")
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("y")
            await pilot.pause()
            assert isinstance(app.screen, GameOverScreen)
            assert "S: share" in screen_text(app)  # type: ignore[arg-type]
            await pilot.press("S")
            await pilot.pause()
            assert isinstance(app.screen, ShareScreen)
            shared = screen_text(app)  # type: ignore[arg-type]
            assert f"daily deal of {today.isoformat()}" in shared
            assert "Best possible score of this deal: 0" in shared
            cards = {i18n.card_label(c, "en") for c in app.table.session.game.stock}
            assert not any(card in app.screen.text for card in cards)
            app.save_screenshot(str(tmp_path / "share.svg"))
            await pilot.press("c")
            assert "Copied" in screen_text(app)  # type: ignore[arg-type]
            await pilot.press("escape")
            # the day has its result; a second daily of the day is practice
            await pilot.press("D")
            assert isinstance(app.screen, DailyScreen)
            text = screen_text(app)  # type: ignore[arg-type]
            assert "Your result: score" in text and "Daily streak: 1 day" in text
            await pilot.press("enter")
            await pilot.pause()
            assert app.table.session.daily == today.isoformat()
            results = store.daily_results("local", "single-pass")
            assert len(results) == 1 and results[today.isoformat()].status == "given up"

    asyncio.run(scenario())


def test_winnable_deals_only_for_new_single_pass_games(store: Store) -> None:
    catalogued = {e.game for e in winnable_deals()}

    async def scenario() -> None:
        app = make_app(store, number=22, rules="single-pass")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("w")
            assert app.winnable
            assert isinstance(app.screen, GameScreen)
            assert "Winnable deals only" in app.screen.status
            for _ in range(3):
                await pilot.press("n")
                await pilot.pause()
                assert app.table is not None and app.table.session.game.number in catalogued
            await pilot.press("w")
            assert not app.winnable
        again = make_app(store, number=22, rules="single-pass")
        async with again.run_test(size=(80, 24)):
            assert not again.winnable

    asyncio.run(scenario())


def test_share_is_refused_while_the_game_is_played(store: Store) -> None:
    async def scenario() -> None:
        app = make_app(store, number=5)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("S")
            assert isinstance(app.screen, GameScreen)
            assert app.screen.said.error and "still being played" in app.screen.status

    asyncio.run(scenario())


def test_tui_command_opens_the_daily_deal(store: Store, db_path: Path) -> None:
    today = date.today()

    async def scenario() -> None:
        app = make_app(store, rules="literal", daily=today)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.table is not None and app.table.session.daily == today.isoformat()
            assert app.table.session.game.number == daily_deal(today, "literal")

    asyncio.run(scenario())
