"""The terminal game at the size it asks for (80x24): the end of a game, the key bar,
the talon's ink, the review and the best line on the grid."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from pilot_waits import until
from rich.console import Console
from rich.text import Text
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


def test_a_win_that_beats_the_deals_best_is_told_and_shown_as_the_best(store: Store) -> None:
    left = PlaySession.start(store, number=WINNABLE)
    left.play_text("d")
    left.give_up()
    line = solve(Game(WINNABLE), time_limit=10.0).moves

    async def scenario() -> None:
        app = DevilsGripApp(store, number=WINNABLE, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            for move in line[:-1]:
                screen.table.session.play(move)
            assert screen.play(line[-1])
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            body = str(app.screen.query_one("#gameover-body", Static).render())
            assert "New best on this deal! The best before was 72." in body
            assert "so far: 72" not in body
            info = screen.query_one("#info", InfoPanel)
            assert "best on this deal: 0" in [item.plain for item in info.items]

    asyncio.run(scenario())


def _luminance(colour: str) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(ink: str, ground: str) -> float:
    """The WCAG contrast ratio of two colours (``#rrggbb``)."""
    high, low = sorted((_luminance(ink), _luminance(ground)), reverse=True)
    return (high + 0.05) / (low + 0.05)


FELT = "#0f3d26"


def test_the_talons_covered_cards_are_readable() -> None:
    """Every card the talon shows has ink of 4.5:1 at least on what it is drawn on
    (the card's face, or the felt), undimmed, in both decks."""
    from devilsgrip.cards import parse_card_or_none
    from devilsgrip.tui.widgets import TalonBox

    cards = tuple(parse_card_or_none(c) for c in ("KS", "QH", "JD", "TC"))
    for four_colour in (False, True):
        for fan in (cards[:3], cards[1:]):
            talon = TalonBox()
            talon.set_reactive(TalonBox.cards, fan)  # type: ignore[arg-type]
            talon.set_reactive(TalonBox.four_colour, four_colour)
            text = talon.render()
            assert isinstance(text, Text)
            for segment in text.render(Console(color_system="truecolor")):
                style = segment.style
                if style is None or style.color is None or not segment.text.strip():
                    continue
                assert not style.dim
                ground = style.bgcolor.triplet.hex if style.bgcolor else FELT  # type: ignore[union-attr]
                ink = style.color.triplet.hex  # type: ignore[union-attr]
                assert contrast(ink, ground) >= 4.5, (ink, ground)


@pytest.mark.slow
def test_keys_that_do_not_fit_are_behind_more(store: Store) -> None:
    """At 80 columns in French every key of the bar is on one of its pages; m turns
    them, and each page says where it is."""
    from devilsgrip.i18n import set_language
    from devilsgrip.tui.widgets import KeyBar

    set_language("fr")

    async def scenario() -> None:
        app = DevilsGripApp(store, number=5, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pilot.press("d")
            await pilot.pause()
            bar = screen.query_one(KeyBar)
            wanted = {(h.key, h.label) for h in screen.key_hints()}
            assert ("n", "nouvelle partie") in wanted
            seen: set[tuple[str, str]] = set()
            pages = len(bar.pages(bar.hints, bar.content_size.width))
            assert pages > 1
            for page in range(pages):
                shown = str(bar.render())
                assert f"m more {page + 1}/{pages}" in shown or f"/{pages}" in shown
                assert len(shown) <= 78
                seen |= {(h.key, h.label) for h in bar.shown()}
                await pilot.press("m")
                await pilot.pause()
            assert wanted <= seen
            assert bar.page == 0  # round again

    asyncio.run(scenario())


def test_a_long_message_leaves_the_grid_its_rows(store: Store,
                                                 screen_text: ScreenText) -> None:
    async def scenario() -> None:
        app = DevilsGripApp(store, number=5, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            grid = screen.query_one("#grid").region
            screen.say("A long message. " * 40, error=True)
            await pilot.pause()
            assert screen.query_one("#grid").region == grid
            for cell in screen.query(".place"):
                if cell.id and cell.id.startswith("place-") and cell.id[-1] in "123":
                    assert cell.region.height == 5, cell.id
            rows = screen_text(app).splitlines()
            status = screen.query_one("#status").region
            assert rows[status.bottom - 1].rstrip().endswith("…")
            assert "F1" in rows[23]

    asyncio.run(scenario())


def test_three_cards_beneath_keep_their_spaces_and_marked_titles_their_name() -> None:
    from devilsgrip.cards import parse_card_or_none
    from devilsgrip.tui.widgets import BENEATH_MARK, CardLayout, pile_lines

    pile = [parse_card_or_none(c) for c in ("2S", "5S", "8S", "JS")]
    lines = [line.plain for line in pile_lines(pile, CardLayout(3, 8), 8, False)]  # type: ignore[arg-type]
    assert lines[1:] == [f"{BENEATH_MARK} 2♠ 5♠", "  8♠"]

    async def scenario() -> None:
        app = DevilsGripApp(None, number=5, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            cell = screen._places[0]
            cell.hinted = cell.picked = True
            await pilot.pause()
            assert str(cell.border_title) == "»↑a1"

    asyncio.run(scenario())


def _ended_game_app(store: Store) -> tuple[DevilsGripApp, list[Any]]:
    from devilsgrip.solver import play_game

    moves = play_game(Game(7), "greedy").move_stack
    return DevilsGripApp(store, number=7, flourish_delay=0.0, dialog_guard=0.0,
                         solve_time=10.0), moves


@pytest.mark.slow
def test_a_costly_move_of_the_review_is_shown_on_the_grid_at_80x24(
        store: Store, screen_text: ScreenText) -> None:
    from devilsgrip.tui.screens import ReviewScreen
    from devilsgrip.tui.viewer import LineViewer

    app, moves = _ended_game_app(store)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            for move in moves[:-1]:
                screen.table.session.play(move)
            assert screen.play(moves[-1])
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            await pilot.press("v")
            await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
            text = screen_text(app)
            assert "Enter: that move on the grid" in text  # the dialog fits, keys and all
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LineViewer))
            viewer = app.screen
            assert isinstance(viewer, LineViewer) and viewer.step.played
            text = screen_text(app)
            for row in ("╭─ a1", "╭─ a3", "stock", "talon", "Played:", "Better:",
                        "before move", "→ one move on", "Esc back to the game"):
                assert row in text, row
            assert sum(1 for line in text.splitlines() if "×" in line) == 3  # all rows whole
            before = viewer.index
            await pilot.press("right")
            assert viewer.index == before + 1 and "Played:" not in screen_text(app)
            await pilot.press("pageup")
            assert viewer.index == before
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, ReviewScreen))

    asyncio.run(scenario())


def test_the_best_line_is_stepped_through_on_the_grid(store: Store,
                                                      screen_text: ScreenText) -> None:
    import re

    from devilsgrip.tui.viewer import LineViewer

    app, moves = _ended_game_app(store)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            for move in moves[:-1]:
                screen.table.session.play(move)
            assert screen.play(moves[-1])
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            await pilot.press("b")
            await until(pilot, lambda: isinstance(app.screen, LineViewer))
            viewer = app.screen
            assert isinstance(viewer, LineViewer)
            text = screen_text(app)
            assert "Best line: the deal as it was dealt" in text
            assert "╭─ a3" in text and "stock" in text and "→ one move on" in text
            await pilot.press("right")
            text = screen_text(app)
            assert "Best line: move 1 of" in text
            # moves in words, never in the notation (a1-c2, t-c2)
            assert not re.search(r"\b(?:[a-h][1-3]|t)\s*[-=]\s*[a-h][1-3]\b", text)
            await pilot.press("end")
            assert viewer.index == len(viewer.steps) - 1
            assert "moves played: score" in screen_text(app)
            # every key the viewer names exists: the bar shows only its bindings
            keys = {b.key_display for b in viewer.BINDINGS if hasattr(b, "key_display")}
            assert {h.key for h in viewer.key_hints()} <= keys | {"Space"}
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            assert screen.table.session.final

    asyncio.run(scenario())


@pytest.mark.slow
def test_french_cards_and_a_long_bad_number_at_80x24(screen_text: ScreenText) -> None:
    from devilsgrip.i18n import set_language
    from devilsgrip.tui.screens import DealNumberScreen

    set_language("fr")

    async def scenario() -> None:
        app = DevilsGripApp(None, number=5, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("d")
            await pilot.pause()
            text = screen_text(app)
            assert "R♦" in text and "D♦" in text and "K♦" not in text and "Q♦" not in text
            await pilot.press("g")
            await until(pilot, lambda: isinstance(app.screen, DealNumberScreen))
            await pilot.press(*("9" * 60), "enter")
            await pilot.pause()
            error = app.screen.query_one("#deal-number-error")
            assert "nombres entiers de 1 à" in str(error.render())
            dialog = app.screen.query_one("#deal-number").region
            assert dialog.right <= 80 and dialog.bottom <= 24
            rows = screen_text(app).splitlines()
            assert all(len(row) <= 80 for row in rows)

    asyncio.run(scenario())


def test_the_first_game_guide_goes_at_the_first_action_for_good(
        store: Store, screen_text: ScreenText) -> None:
    from devilsgrip.table import GUIDE_SEEN, decode_settings
    from devilsgrip.tui.app import OWNER
    from devilsgrip.tui.places import STOCK

    async def first_run() -> None:
        app = DevilsGripApp(store, number=5, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen) and screen.guide is not None
            text = screen_text(app)
            for order in ("2 → 5 → 8 → J", "3 → 6 → 9 → Q", "4 → 7 → 10 → K"):
                assert order in text
            assert "» stock" in text and screen._places[STOCK].hinted  # it points at the stock
            assert "Start here: the stock deals 3 cards" in screen.status
            assert "F1 help" in text and "╭─ a3" in text  # nothing of the table hidden
            await pilot.press("d")  # the first action plays as usual
            await pilot.pause()
            assert screen.table.session.game.moves_played == 1
            assert screen.guide is None and not screen._places[STOCK].hinted
            assert "2 → 5 → 8 → J" not in screen_text(app)
            assert screen.status.startswith("Dealt 3 cards")

    async def second_run() -> None:
        app = DevilsGripApp(store, number=6, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen) and screen.guide is None
            assert "2 → 5 → 8 → J" not in screen_text(app)

    asyncio.run(first_run())
    assert decode_settings(store.settings(OWNER))[GUIDE_SEEN] is True
    asyncio.run(second_run())
