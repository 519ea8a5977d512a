"""Playing through the keyboard and the mouse: the pilot presses keys and clicks."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from devilsgrip import table
from devilsgrip.cards import CELL_NAMES
from devilsgrip.game import Game
from devilsgrip.notation import DEAL, MoveKind, grid_build, swap, talon_build
from devilsgrip.session import PlaySession
from devilsgrip.store import Store
from devilsgrip.table.controller import Table
from devilsgrip.tui.app import DevilsGripApp
from devilsgrip.tui.game_screen import GameScreen
from devilsgrip.tui.places import STOCK, TALON
from devilsgrip.tui.screens import (
    ConfirmScreen,
    DealNumberScreen,
    HelpScreen,
    ResumeScreen,
    StatsScreen,
)

PathKeys = Callable[[int, int, int], tuple[list[str], int]]
SIZE = (80, 24)


def make_app(store: Store | None, **kwargs: Any) -> DevilsGripApp:
    kwargs.setdefault("flourish_delay", 0.0)
    kwargs.setdefault("dialog_guard", 0.0)
    kwargs.setdefault("hint_time", 0.5)
    return DevilsGripApp(store, **kwargs)


def game_screen(app: DevilsGripApp) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen), screen
    return screen


async def goto(pilot: Pilot[Any], path_keys: PathKeys, place: int) -> None:
    screen = game_screen(pilot.app)  # type: ignore[arg-type]
    keys, _memory = path_keys(screen.cursor, screen.memory, place)
    if keys:
        await pilot.press(*keys)
    assert screen.cursor == place


def status(app: DevilsGripApp) -> str:
    return game_screen(app).status


def test_cursor_moves_with_arrows_and_tab(store: Store) -> None:
    async def scenario() -> None:
        app = make_app(store, number=1)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            assert screen.cursor == 0
            assert app.screen.query_one("#place-a1").has_class("-cursor")
            await pilot.press("right", "right", "down")
            assert screen.cursor == CELL_NAMES.index("c2")
            await pilot.press("right", "down", "left", "up", "up")
            assert screen.cursor == CELL_NAMES.index("c1")
            assert app.screen.query_one("#place-c1").has_class("-cursor")
            assert not app.screen.query_one("#place-a1").has_class("-cursor")
            await pilot.press("down", "down", "down")
            assert screen.cursor == TALON
            assert app.screen.query_one("#place-talon").has_class("-cursor")
            await pilot.press("left")
            assert screen.cursor == STOCK
            # Tab and Shift+Tab go through the places in reading order, round the table
            await pilot.press("tab")
            assert screen.cursor == TALON
            await pilot.press("tab")
            assert screen.cursor == 0
            await pilot.press("shift+tab", "shift+tab", "shift+tab")
            assert screen.cursor == CELL_NAMES.index("h3")
            await pilot.press("down")
            assert screen.cursor == TALON  # back to the talon: h is its column

    asyncio.run(scenario())


def test_pick_and_drop_plays_a_grid_build_and_saves_it(store: Store,
                                                       path_keys: PathKeys) -> None:
    expected = Game(1)
    build = next(m for m in expected.generate_moves() if m.kind == MoveKind.BUILD)
    expected.play(build)

    async def scenario() -> None:
        app = make_app(store, number=1)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await goto(pilot, path_keys, build.src)
            await pilot.press("enter")
            assert screen.picked == build.src
            assert app.screen.query_one(f"#place-{CELL_NAMES[build.src]}").has_class("-picked")
            await goto(pilot, path_keys, build.dst)
            await pilot.press("space")
            assert screen.picked is None
            session = screen.table.session
            assert session.game.move_stack == [build]
            assert session.game.position() == expected.position()
            assert session.game_id is not None
            assert store.events(session.game_id) == [("move", build.text())]
            said = table.say_event(table.act(Game(1), build), expected, table.Words("en"))
            assert status(app) == said and build.text() not in said

    asyncio.run(scenario())


def test_illegal_drop_is_refused_with_its_reason(store: Store, path_keys: PathKeys) -> None:
    game = Game(1)
    game.play(DEAL)
    cell = next(c for c in range(24) if game.reason(talon_build(c)) is not None)
    reason = game.reason(talon_build(cell))
    assert reason is not None

    async def scenario() -> None:
        app = make_app(store, number=1)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await pilot.press("d")
            await goto(pilot, path_keys, TALON)
            await pilot.press("enter")
            assert screen.picked == TALON
            await goto(pilot, path_keys, cell)
            await pilot.press("enter")
            assert screen.table.session.game.moves_played == 1
            assert status(app) == table.say_error(reason, table.Words("en"))
            assert app.screen.query_one("#status", Static).has_class("-error")
            assert screen.picked is None

    asyncio.run(scenario())


def test_swap_with_x_and_drop_on_an_empty_cell(store: Store, path_keys: PathKeys) -> None:
    # a position with a space at b1: the pile dropped there swaps with it
    game = Game(2)
    empty = next(m for m in game.generate_moves()
                 if m.kind == MoveKind.BUILD and len(game.grid[m.src]) == 1)
    a1 = CELL_NAMES.index("a1")

    async def scenario() -> None:
        app = make_app(store, number=2)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await pilot.press("enter", "right", "x")
            assert screen.table.session.game.move_stack[-1] == swap(a1, a1 + 1)
            # every card turned and no filling from the talon: the build leaves a space
            position = Game(2).position().split()
            position[1], position[2] = "-", position[1]
            position[5] = "classic,fill_from_talon=false"
            session = PlaySession.start(store, position=" ".join(position))
            app.show_controller(Table(session, table.Words()))
            await pilot.pause()
            assert session.game.reason(empty) is None
            await goto(pilot, path_keys, empty.src)
            await pilot.press("enter")
            await goto(pilot, path_keys, empty.dst)
            await pilot.press("enter")
            assert session.game.move_stack[-1] == empty
            assert not session.game.grid[empty.src]
            other = next(c for c in range(24) if c != empty.src and session.game.grid[c])
            await goto(pilot, path_keys, other)
            await pilot.press("enter")
            await goto(pilot, path_keys, empty.src)
            await pilot.press("enter")
            assert session.game.move_stack[-1] == swap(other, empty.src)
            assert not session.game.grid[other]

    asyncio.run(scenario())


def test_deal_undo_redo_and_clicks(store: Store) -> None:
    async def scenario() -> None:
        app = make_app(store, number=1)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            game = screen.table.session.game
            await pilot.press("d")
            assert (len(game.stock), len(game.talon)) == (69, 3)
            assert "69 cards" in str(app.screen.query_one("#place-stock").render())
            await pilot.press("u")
            assert (len(game.stock), len(game.talon)) == (72, 0)
            assert status(app).startswith("Taken back: ") and "the stock" in status(app)
            await pilot.press("U")
            assert (len(game.stock), len(game.talon)) == (69, 3)
            await pilot.click("#place-stock")
            assert (len(game.stock), len(game.talon)) == (66, 6)
            assert screen.cursor == STOCK
            await pilot.press("u", "u", "u")
            assert game.moves_played == 0
            assert status(app) == table.say_error(_error_of(game.undo), table.Words("en"))
            gid = screen.table.session.game_id
            assert gid is not None
            kinds = [k for k, _m in store.events(gid)]
            assert kinds == ["move", "undo", "redo", "move", "undo", "undo"]

    asyncio.run(scenario())


def _error_of(action: Callable[[], object]) -> Exception:
    try:
        action()
    except Exception as exc:
        return exc
    raise AssertionError("no error")


def test_click_to_move_picks_and_drops(store: Store) -> None:
    game = Game(1)
    build = next(m for m in game.generate_moves() if m.kind == MoveKind.BUILD)

    async def scenario() -> None:
        app = make_app(store, number=1)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await pilot.click(f"#place-{CELL_NAMES[build.src]}")
            assert screen.picked == build.src
            await pilot.click(f"#place-{CELL_NAMES[build.dst]}")
            assert screen.table.session.game.move_stack == [grid_build(build.src, build.dst)]

    asyncio.run(scenario())


@pytest.mark.slow
def test_new_game_deal_by_number_stats_and_help(store: Store) -> None:
    async def scenario() -> None:
        app = make_app(store, number=1)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            first = screen.table.session
            await pilot.press("n")  # no move yet: nothing to ask, the old game is deleted
            assert screen.table.session is not first and screen.table.session.game.moves_played == 0
            assert first.game_id is not None and store.game_info(first.game_id) is None
            await pilot.press("d")
            await pilot.press("n")  # a game with a move: leaving it is asked first
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("n")  # no: keep playing
            assert app.screen is screen and screen.table.session.game.moves_played == 1
            await pilot.press("g")
            assert isinstance(app.screen, DealNumberScreen)
            await pilot.press("a", "enter")  # not a number: the dialog stays
            assert isinstance(app.screen, DealNumberScreen)
            await pilot.press("4", "2", "enter")
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("y")
            assert app.screen is screen
            assert screen.table.session.game.number == 42
            assert store.stats().given_up == 1  # the game left counts as given up
            await pilot.press("s")
            assert isinstance(app.screen, StatsScreen)
            await pilot.press("escape")
            await pilot.press("f1")
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            assert app.screen is screen
            await pilot.press("c")
            assert app.four_colour
            assert store.get_setting("local", "four_colour") == "1"

    asyncio.run(scenario())


@pytest.mark.slow
def test_resume_after_restart(db_path: Path, path_keys: PathKeys) -> None:
    async def first_run() -> str:
        store = Store.open(db_path)
        app = make_app(store, number=5)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("d", "d")
            screen = game_screen(app)
            builds = [m for m in screen.table.game.generate_moves() if m.kind != MoveKind.DEAL]
            if builds:
                screen.table.session.play(builds[0])
            await pilot.press("d", "u")
            position = screen.table.session.game.position()
            await pilot.press("q")
        store.close()
        return position

    async def second_run(position: str) -> None:
        store = Store.open(db_path)
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ResumeScreen)
            await pilot.press("enter")
            screen = game_screen(app)
            assert screen.table.session.game.number == 5
            assert screen.table.session.game.position() == position
            assert screen.table.session.game.can_redo
            await pilot.press("U")
            assert screen.table.session.game.position() != position
        store.close()

    position = asyncio.run(first_run())
    asyncio.run(second_run(position))


def test_playing_without_a_store_says_so() -> None:
    async def scenario() -> None:
        app = make_app(None, number=3)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            assert not screen.table.session.saving
            assert app.screen.query_one("#status", Static).has_class("-error")
            assert "not being saved" in status(app)
            assert app.screen.query_one("#info").border_subtitle.startswith("not saving  ·  ")
            await pilot.press("d")
            assert screen.table.session.game.moves_played == 1

    asyncio.run(scenario())


def test_the_resume_offer_can_be_declined(store: Store) -> None:
    old = PlaySession.start(store, number=77)
    old.play(DEAL)

    async def scenario() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            offer = app.screen
            assert isinstance(offer, ResumeScreen)
            assert [g.id for g in offer.games] == [old.game_id]
            assert offer.describe(offer.games[0]).startswith("game 77 · Classic · 1 move · ")
            assert "game over" not in offer.describe(offer.games[0])
            await pilot.press("escape")
            screen = game_screen(app)
            assert screen.table.session.game_id != old.game_id
            assert screen.table.session.game.moves_played == 0

    asyncio.run(scenario())
    assert [g.id for g in store.unfinished_games()][-1] == old.game_id


def test_an_over_game_is_offered_as_over_with_its_rules_named(store: Store) -> None:
    """A game that is over (not yet final: undo may reopen it) is offered with the others,
    saying so, and its rules by their name in the player's language."""
    from devilsgrip.solver import play_game

    over = PlaySession.start(store, number=7, rules="single-pass")
    for move in play_game(Game(7, rules="single-pass"), "greedy").move_stack:
        over.play(move)
    assert over.game.is_over() and not over.final

    async def scenario() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            offer = app.screen
            assert isinstance(offer, ResumeScreen)
            text = offer.describe(offer.games[0])
            assert text.startswith("game 7 · Single pass · ") and " · game over · " in text

    asyncio.run(scenario())


@pytest.mark.slow
def test_quitting_keeps_a_game_in_play_and_leaves_nothing_behind(store: Store) -> None:
    """A game with moves is kept for next time; one without a move, or over, is left."""

    async def launch(moves: int) -> None:
        app = make_app(store, number=6)
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(moves):
                await pilot.press("d")
            await pilot.press("q")

    for _ in range(3):  # launching `tui --game 6` and quitting at once, three times
        asyncio.run(launch(0))
    assert store.games() == []  # no 0-move game is left behind
    asyncio.run(launch(2))
    kept = store.unfinished_games()
    assert [g.moves for g in kept] == [2] and not kept[0].final
    assert store.stats().played == 0


def test_the_info_panel_shows_the_play_clock_as_it_runs(store: Store,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal shows the game's clock (on the info panel's lower border, out of the
    way of its items), as the page does, and it moves on by itself; the clock stops where
    the game's result stands."""
    now = [5000.0]
    monkeypatch.setattr("devilsgrip.session.clock", lambda: now[0])
    monkeypatch.setattr("devilsgrip.tui.game_screen.CLOCK_TICK", 0.05)

    def info(app: DevilsGripApp) -> str:
        return str(app.screen.query_one("#info").border_subtitle)

    def game_screen_of(app: DevilsGripApp) -> GameScreen:
        assert app.game_screen is not None
        return app.game_screen

    async def scenario() -> None:
        app = make_app(store, number=1)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("d")
            assert "time: 0:00" in info(app)
            now[0] += 83.0  # a minute and 23 seconds later, nobody pressing a key
            for _ in range(100):
                if "time: 1:23" in info(app):
                    break
                await asyncio.sleep(0.02)
            assert "time: 1:23" in info(app)
            await pilot.press("G")  # give up: the result stands, the clock stops
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("y")
            assert game_screen_of(app).table.session.final
            while not isinstance(app.screen, GameScreen):
                await pilot.press("escape")
            now[0] += 600.0
            await asyncio.sleep(0.2)
            assert "time: 1:23" in info(app)

    asyncio.run(scenario())
