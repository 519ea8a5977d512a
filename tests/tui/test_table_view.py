"""How the table reads: cards on fixed lines at every size, messages whole, the key bar,
the notice of a terminal too small, and the states of a place without colour."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from devilsgrip import table
from devilsgrip.cards import CELL_NAMES, COLUMNS, GRID_SIZE, card_symbol
from devilsgrip.game import Game
from devilsgrip.i18n import LANGUAGES, set_language, translations
from devilsgrip.notation import REDEAL, Move
from devilsgrip.session import PlaySession
from devilsgrip.store import Store, StoreError
from devilsgrip.table.controller import Table
from devilsgrip.tui.app import DevilsGripApp
from devilsgrip.tui.game_screen import MIN_HEIGHT, MIN_WIDTH, GameScreen
from devilsgrip.tui.places import STOCK, TALON
from devilsgrip.tui.screens import HelpScreen
from devilsgrip.tui.widgets import BENEATH_MARK, HINT_MARK, PICKED_MARK, KeyBar, PileCell

ScreenText = Callable[[App[object]], str]
Snapshot = Callable[[str, str], None]

MID_GAME_LINE = (
    "b1-e3 f1-b3 f1-f3 f1-e3 b2-h3 c3-c2 d3-h2 e3-a1 h3-g1 d d d t-e2 d d t-c3 d t-b3 g2-b3 "
    "a2-g2 a2-e1 g2-g3 d2-g2 g2-b2 e3-a2 d t-h3 t-e1 t-g1 c1-h3 d3-e1 d t-f2 d t-g3 t-d1 "
    "b1-d1 b1-c1 f1-b1 b1-f1"
)
"""40 moves of game 5 (the greedy player's): piles of one to four cards in every row."""
MID_GAME = tuple(MID_GAME_LINE.split())


def make_app(store: Store | None, **kwargs: Any) -> DevilsGripApp:
    kwargs.setdefault("flourish_delay", 0.0)
    kwargs.setdefault("dialog_guard", 0.0)
    return DevilsGripApp(store, **kwargs)


def game_screen(app: DevilsGripApp) -> GameScreen:
    assert isinstance(app.screen, GameScreen)
    return app.screen


async def mid_game(app: DevilsGripApp, pilot: Pilot[Any]) -> GameScreen:
    screen = game_screen(app)
    for move in MID_GAME:
        assert screen.play(Move.from_text(move)), (move, screen.status)
    await pilot.pause()
    return screen


async def settle(pilot: Pilot[Any], test: Callable[[], bool], seconds: float = 5.0) -> None:
    """Wait until ``test()`` holds (a resize reaches the screen a few messages later)."""
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.02)


def lines_of(text: str) -> list[str]:
    return text.split("\n")


def cell_lines(text: str, cell: PileCell) -> list[str]:
    """The lines inside ``cell``'s border, as the screen shows them."""
    region = cell.region
    rows = lines_of(text)
    return [rows[y][region.x + 1:region.x + region.width - 1].ljust(region.width - 2)
            for y in range(region.y + 1, region.y + region.height - 1)]


def key_bar(app: DevilsGripApp, screen_text: ScreenText) -> str:
    region = app.screen.query_one(KeyBar).region
    return lines_of(screen_text(app))[region.y]  # type: ignore[arg-type]


def flat(text: str) -> str:
    """``text`` with every run of white space as one space (as wrapping leaves it)."""
    return " ".join(text.split())


# ------------------------------------------------------- sizes and snapshots
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_mid_game_the_top_card_is_on_the_same_line_of_every_cell(size: tuple[int, int],
                                                        screen_text: ScreenText,
                                                        snapshot: Snapshot) -> None:
    async def scenario() -> None:
        app = make_app(None, number=5)
        async with app.run_test(size=size) as pilot:
            screen = await mid_game(app, pilot)
            text = screen_text(app)  # type: ignore[arg-type]
            snapshot(f"main_mid_game_{size[0]}x{size[1]}", text)
            grid = screen.table.session.game.grid
            assert {len(p) for p in grid} == {1, 2, 3, 4}
            beneath_lines = set()
            tops_by_row: dict[int, set[int]] = {}
            for place in range(GRID_SIZE):
                cell = screen.query_one(f"#place-{CELL_NAMES[place]}", PileCell)
                inside = cell_lines(text, cell)
                pile = grid[place]
                top = card_symbol(pile[-1])
                # the top card on the first line inside the border, in every cell
                assert top in inside[0], (CELL_NAMES[place], inside)
                tops_by_row.setdefault(place // COLUMNS, set()).add(cell.region.y + 1)
                # the cards beneath: after the mark (never on the first line), spaced
                # out, on the next line too when a cell is narrow
                marked = [i for i, line in enumerate(inside) if BENEATH_MARK in line]
                if len(pile) > 1:
                    assert len(marked) == 1 and marked[0] > 0, inside
                    beneath = " ".join(inside[marked[0]:]).split()
                    assert beneath[0] == BENEATH_MARK
                    assert beneath[1:] == [card_symbol(c) for c in pile[:-1]], inside
                    beneath_lines.add(marked[0])
                else:
                    assert marked == []
            # one screen line for the tops of each row; the same layout in every row
            assert all(len(lines) == 1 for lines in tops_by_row.values())
            assert len(beneath_lines) == 1

    asyncio.run(scenario())


@pytest.mark.slow
def test_a_larger_terminal_draws_larger_cards(screen_text: ScreenText) -> None:
    async def scenario() -> None:
        app = make_app(None, number=5)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await mid_game(app, pilot)
            text = screen_text(app)  # type: ignore[arg-type]
            queen = screen.query_one("#place-a1", PileCell)  # Q♦ on 3♦ 6♦ 9♦
            inside = cell_lines(text, queen)
            assert inside[0].strip() == "Q♦"  # the top left corner
            assert "┏━┓" in inside[2] and "┗━╋" in inside[4]  # the queen in large type
            assert inside[6].strip() == "Q♦" and inside[6].rstrip().endswith("Q♦")
            assert inside[7].strip() == f"{BENEATH_MARK} 3♦ 6♦ 9♦"

    asyncio.run(scenario())


def test_snapshot_too_small_a_terminal_says_what_it_needs_and_the_game_comes_back(
        screen_text: ScreenText, snapshot: Snapshot) -> None:
    async def scenario() -> None:
        app = make_app(None, number=5)
        async with app.run_test(size=(60, 20)) as pilot:
            await pilot.pause()
            screen = game_screen(app)
            assert screen.too_small
            text = screen_text(app)  # type: ignore[arg-type]
            snapshot("too_small_60x20", text)
            assert f"{MIN_WIDTH}x{MIN_HEIGHT}" in text and "60x20" in text
            assert "♦" not in text  # no table cut in pieces
            await pilot.press("d")  # keys wait while nothing can be seen
            assert screen.table.session.game.moves_played == 0
            await pilot.resize_terminal(40, 15)
            await settle(pilot, lambda: "40x15" in flat(screen_text(app)))  # type: ignore[arg-type]
            await pilot.resize_terminal(80, 24)
            await settle(pilot, lambda: not screen.too_small)
            text = screen_text(app)  # type: ignore[arg-type]
            assert f"{MIN_WIDTH}x{MIN_HEIGHT}" not in text and "╭─ b1" in text
            await pilot.press("d")
            assert screen.table.session.game.moves_played == 1

    asyncio.run(scenario())


# --------------------------------------------------------------- messages
def _longest_messages(lang: str) -> list[tuple[str, str]]:
    """The longest status messages of ``lang``: the damaged and the newer database
    with a long path, a card picked up that has nowhere to go, a drop refused."""
    words = table.Words(lang)
    path = "/home/a-player-with-a-long-name/.local/share/devilsgrip/games.sqlite3"
    messages = []
    for code, params in (("store-newer", {"found": 9, "supported": 8}),
                         ("store-corrupt", {}), ("store-unreadable", {"reason": "disk I/O"})):
        session = PlaySession.start(None, number=5,
                                    store_error=StoreError(code, code, path=path, **params))
        warning = table.saving_warning(session, words)
        assert warning is not None
        messages.append((code, warning))
    game = Game(5)
    for move in MID_GAME:
        game.play_text(move)
    cell = CELL_NAMES.index("a1")  # Q♦: nowhere to go
    messages.append(("picked", table.say_picked(game, cell, words)))
    messages.append(("refused", table.say_error(table.refusal(game, CELL_NAMES.index("c1"),
                                                              cell) or Exception(), words)))
    return sorted(messages, key=lambda m: -len(m[1]))


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_longest_message_of_each_language_is_shown_whole(lang: str,
                                                             screen_text: ScreenText) -> None:
    messages = _longest_messages(lang)
    assert len(messages[0][1]) > 2 * (MIN_WIDTH - 2)  # more than two lines

    async def scenario() -> None:
        app = make_app(None, number=5)
        async with app.run_test(size=(MIN_WIDTH, MIN_HEIGHT)) as pilot:
            screen = game_screen(app)
            for name, message in messages:
                screen.say(message, error=True)
                await pilot.pause()
                status = screen.query_one("#status")
                rows = lines_of(screen_text(app))[  # type: ignore[arg-type]
                    status.region.y:status.region.y + status.region.height]
                assert flat(message) in flat(" ".join(rows)), (name, rows)
                # the table is still all there, every row drawn alike
                text = screen_text(app)  # type: ignore[arg-type]
                assert "h3" in text and ("stock" in text or lang != "en")

    set_language(lang)
    asyncio.run(scenario())


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_info_panel_wraps_and_keeps_the_best_score_in_every_language(
        lang: str, store: Store, screen_text: ScreenText) -> None:
    earlier = PlaySession.start(store, number=5)
    earlier.play_text("d")
    earlier.give_up()  # the deal's best so far: 72 - 3 = 69

    async def scenario() -> None:
        app = make_app(store, number=5)
        async with app.run_test(size=(MIN_WIDTH, MIN_HEIGHT)) as pilot:
            screen = await mid_game(app, pilot)
            info = screen.query_one("#info")
            rows = lines_of(screen_text(app))[  # type: ignore[arg-type]
                info.region.y + 1:info.region.y + info.region.height - 1]
            shown = flat(" ".join(row[info.region.x:info.region.x + info.region.width]
                                  .strip("│") for row in rows))
            fr = translations(lang)
            for item in screen.info_items():
                assert flat(item.plain) in shown, (item.plain, rows)
            assert fr.gettext("best on this deal: {score}").format(score=earlier.game.score) \
                in shown
            assert "…" not in shown

    set_language(lang)
    asyncio.run(scenario())


# ----------------------------------------------------------------- the keys
def test_the_key_bar_shows_what_applies_now(screen_text: ScreenText) -> None:
    async def scenario() -> None:
        app = make_app(None, number=5)
        async with app.run_test(size=(MIN_WIDTH, MIN_HEIGHT)) as pilot:
            screen = game_screen(app)
            bar = key_bar(app, screen_text)
            assert "F1 help" in bar and "⏎ pick up" in bar and "d deal" in bar
            assert "G give up" in bar and "q quit" in bar
            assert "Esc" not in bar and "r redeal" not in bar and "u undo" not in bar
            assert "…" not in bar
            await pilot.press("enter")  # a pile held: drop it, put it back, swap it
            bar = key_bar(app, screen_text)
            assert "⏎ drop" in bar and "Esc put back" in bar and "x swap" in bar
            assert "d deal" not in bar and "G give up" not in bar and "F1 help" in bar
            await pilot.press("escape", "d")
            assert "u undo" in key_bar(app, screen_text)
            # the stock used up: r, not d; Enter on the stock redeals
            game = screen.table.session.game
            while game.stock:
                screen.play(Move.from_text("d"))
            await pilot.press("down", "down", "down")
            assert screen.cursor == STOCK
            bar = key_bar(app, screen_text)
            assert "r redeal" in bar and "d deal" not in bar and "⏎ redeal" in bar
            await pilot.press("d")  # d on an empty stock says which key turns it over
            assert "Press r" in screen.status
            await pilot.press("r")
            assert game.move_stack[-1] == REDEAL
            assert "d deal" in key_bar(app, screen_text)

    asyncio.run(scenario())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_key_bar_keeps_to_its_line_in_every_language(lang: str,
                                                         screen_text: ScreenText) -> None:
    async def scenario() -> None:
        app = make_app(None, number=5)
        async with app.run_test(size=(MIN_WIDTH, MIN_HEIGHT)) as pilot:
            await pilot.pause()
            bar = key_bar(app, screen_text)
            words = translations(lang)
            assert bar.strip().startswith(f"F1 {words.gettext('help')}")
            assert bar.rstrip().endswith(f"q {words.gettext('quit')}")
            assert words.gettext("give up") in bar
            assert "…" not in bar and len(bar) <= MIN_WIDTH

    set_language(lang)
    asyncio.run(scenario())


@pytest.mark.slow
def test_the_help_lists_every_key_from_the_bindings() -> None:
    rows = GameScreen.help_rows()
    keys = " ".join(key for key, _what in rows)
    for key in ("F1", "Enter", "Esc", "x", "d", "r", "u", "U", "h", "?", "G", "n", "R", "q",
                "g", "s", "c", "Tab", "←"):
        assert re.search(rf"(^|[ ,]){re.escape(key)}($|[ ,])", keys) or key == "←", key
    assert "←→↑↓" in keys
    whats = " ".join(what for _key, what in rows)
    assert "give up" in whats and "restart" in whats and "hint" in whats
    set_language("fr")
    french = dict(GameScreen.help_rows())
    assert french["G"].startswith("abandonner") and french["Entrée, Espace"]

    async def scenario() -> None:
        app = make_app(None, number=5)
        async with app.run_test(size=(MIN_WIDTH, MIN_HEIGHT)) as pilot:
            await pilot.press("f1")
            assert isinstance(app.screen, HelpScreen)
            assert app.screen.keys == GameScreen.help_rows()

    asyncio.run(scenario())


def test_h_asks_for_a_hint_as_in_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    from devilsgrip import solver

    monkeypatch.setattr(solver, "hint", lambda game, **_kw: solver.explain(game,
                                                                         Move.from_text("d")))

    async def scenario() -> None:
        app = make_app(None, number=5)
        async with app.run_test(size=(MIN_WIDTH, MIN_HEIGHT)) as pilot:
            screen = game_screen(app)
            await pilot.press("h")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert screen.cursor == 0  # h is not a cursor key
            assert screen.hint_places == (STOCK,)
            assert screen.status.startswith("Hint: ")

    asyncio.run(scenario())


def test_ctrl_c_says_how_to_quit_in_the_players_language() -> None:
    async def scenario() -> None:
        app = make_app(None, number=5)
        async with app.run_test(size=(MIN_WIDTH, MIN_HEIGHT)) as pilot:
            await pilot.press("ctrl+c")
            await pilot.pause()
            shown = list(app._notifications)
            assert shown and shown[-1].title == "Voulez-vous quitter ?"
            assert shown[-1].message.startswith("Appuyez sur q")

    set_language("fr")
    asyncio.run(scenario())


# ------------------------------------------------------------ without colour
def _spaced_position() -> tuple[str, Move]:
    """Game 2 with the stock turned and no filling from the talon, and a build
    that leaves a space."""
    game = Game(2)
    build = next(m for m in game.generate_moves()
                 if m.kind.name == "BUILD" and len(game.grid[m.src]) == 1)
    position = game.position().split()
    position[1], position[2] = "-", position[1]
    position[5] = "classic,fill_from_talon=false"
    return " ".join(position), build


def test_snapshot_without_colour_cursor_hint_picked_and_empty_cells_differ(
        monkeypatch: pytest.MonkeyPatch, screen_text: ScreenText, snapshot: Snapshot) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    position, build = _spaced_position()

    async def scenario() -> None:
        app = make_app(None, number=2)
        async with app.run_test(size=(MIN_WIDTH, MIN_HEIGHT)) as pilot:
            assert app.no_color
            screen = game_screen(app)
            app.show_controller(Table(PlaySession.start(None, position=position), table.Words()))
            await pilot.pause()
            assert screen.play(build)  # build.src is empty now
            empty = build.src
            hinted = next(c for c in range(GRID_SIZE) if c not in (0, 1, empty))
            screen.hint_places = (TALON, hinted)
            screen.picked = TALON
            screen.cursor = 1
            await pilot.pause()
            text = screen_text(app)  # type: ignore[arg-type]
            snapshot("no_colour_states_80x24", text)
            rows = lines_of(text)

            def corner(place: int) -> str:
                region = screen._places[place].region
                return rows[region.y][region.x:region.x + 2]

            shapes = {"plain": corner(0), "cursor": corner(1), "empty": corner(empty),
                      "hint": corner(hinted), "picked": corner(TALON)}
            assert len(set(shapes.values())) == len(shapes), shapes
            assert shapes["plain"] == "╭─" and shapes["cursor"] == "╔═"
            title = rows[screen._places[hinted].region.y]
            assert f"{HINT_MARK} {CELL_NAMES[hinted]}" in title
            talon_title = rows[screen._places[TALON].region.y]
            assert f"{HINT_MARK}{PICKED_MARK} talon" in talon_title
            empty_region = screen._places[empty].region
            assert "empty" in rows[empty_region.y + 1]

    asyncio.run(scenario())
