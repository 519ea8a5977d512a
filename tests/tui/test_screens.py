"""Snapshots of the screens, colours, room to grow, hints and other languages."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest
from rich.text import Text
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Static

from devilsgrip import table
from devilsgrip.cards import SUIT_OF, make_card
from devilsgrip.game import Game, Rating
from devilsgrip.i18n import rating_label, set_language, translations
from devilsgrip.notation import DEAL, Move, talon_build
from devilsgrip.session import PlaySession
from devilsgrip.solver import play_game
from devilsgrip.store import Store
from devilsgrip.table import GUIDE_SEEN, reviews
from devilsgrip.table.controller import Table
from devilsgrip.tui.app import OWNER, DevilsGripApp
from devilsgrip.tui.game_screen import GameScreen
from devilsgrip.tui.places import STOCK, TALON
from devilsgrip.tui.screens import GameOverScreen, HelpScreen, StatsScreen
from devilsgrip.tui.widgets import FOUR_COLOURS, TWO_COLOURS, InfoPanel, PileCell, card_text

ScreenText = Callable[[App[object]], str]
Snapshot = Callable[[str, str], None]
PathKeys = Callable[[int, int, int], tuple[list[str], int]]


def make_app(store: Store | None, **kwargs: Any) -> DevilsGripApp:
    kwargs.setdefault("flourish_delay", 0.0)
    kwargs.setdefault("dialog_guard", 0.0)
    return DevilsGripApp(store, **kwargs)


def game_screen(app: DevilsGripApp) -> GameScreen:
    assert isinstance(app.screen, GameScreen)
    return app.screen


async def wait_for(pilot: Pilot[Any], test: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.02)


def test_snapshot_main_screen(store: Store, screen_text: ScreenText, snapshot: Snapshot) -> None:
    async def scenario() -> None:
        app = make_app(store, number=1)
        async with app.run_test(size=(80, 24)) as pilot:
            snapshot("main_start_80x24", screen_text(app))  # type: ignore[arg-type]
            await pilot.press("d", "down", "down", "down", "right", "enter")
            assert game_screen(app).picked == TALON
            snapshot("main_picked_80x24", screen_text(app))  # type: ignore[arg-type]

    asyncio.run(scenario())


def test_snapshot_game_over_screen_after_a_win(store: Store, screen_text: ScreenText,
                                               snapshot: Snapshot,
                                               path_keys: PathKeys) -> None:
    # A fixed position one move from the win (independent of the solver's line):
    # 24 complete piles in a mixed order, the last king still on the talon.
    piles = [
        [f"{r}{s}" for r in ranks]
        for _copy in range(2)
        for s in "SHDC"
        for ranks in (("2", "5", "8", "J"), ("3", "6", "9", "Q"), ("4", "7", "T", "K"))
    ]
    piles = piles[5:] + piles[:5]
    talon = piles[23].pop()
    rows = ["/".join(",".join("".join(p) for p in piles[r * 8:(r + 1) * 8]) for r in range(3))]
    position = f"{rows[0]} - {talon} 0 0 classic"
    last = Move.from_text("t-h3")

    async def scenario() -> None:
        app = make_app(store, number=9)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = game_screen(app)
            app.show_controller(Table(PlaySession.start(store, position=position), table.Words()))
            await pilot.pause()
            source = TALON if last.kind.name == "TALON" else last.src
            keys, memory = path_keys(screen.cursor, screen.memory, source)
            more, _memory = path_keys(source, memory, last.dst)
            await pilot.press(*keys, "enter", *more, "enter")
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
            text = screen_text(app)  # type: ignore[arg-type]
            assert "You won!" in text
            snapshot("game_over_won_80x24", text)

    asyncio.run(scenario())


def test_snapshot_help_screen(store: Store, screen_text: ScreenText,
                              snapshot: Snapshot) -> None:
    async def scenario() -> None:
        app = make_app(store, number=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("f1")
            assert isinstance(app.screen, HelpScreen)
            snapshot("help_80x24", screen_text(app))  # type: ignore[arg-type]

    asyncio.run(scenario())


@pytest.mark.slow
def test_game_over_screen_when_no_card_can_enter(store: Store) -> None:
    # the greedy player's single-pass game, its last move played on the screen
    moves = play_game(Game(3, rules="single-pass"), "greedy").move_stack
    assert moves

    async def scenario() -> None:
        app = make_app(store, number=3, rules="single-pass")
        async with app.run_test(size=(80, 24)) as pilot:
            screen = game_screen(app)
            game = screen.table.session.game
            for move in moves[:-1]:
                screen.table.session.play(move)
            assert not game.is_over()
            assert screen.play(moves[-1])
            assert game.is_over() and not game.is_won()
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
            over = app.screen
            assert isinstance(over, GameOverScreen)
            assert not over.won and over.score == game.score
            assert over.best is None  # no other game of this deal has ended
            assert not over.final  # over, not left: it may still be undone
            await pilot.press("escape")
            assert app.screen is screen
            await pilot.press("s")
            stats = app.screen
            assert isinstance(stats, StatsScreen) and stats.stats is not None
            assert (stats.stats.played, stats.stats.unfinished) == (0, 1)  # over, still open
            body = str(stats.query_one("#stats-body", Static).render())
            assert "0 games finished" in body and "1 game unfinished" in body
            title = str(stats.query_one(".dialog-title", Static).render())
            assert title == "Statistics: Single pass"  # the rules' label, not their text
            await pilot.press("escape")
            # over is a status, not a lock: undo still works
            await pilot.press("u")
            assert app.screen is screen
            assert game.moves_played == over.moves - 1
            # the game ends again, and the dialog's own undo key takes the move back
            assert screen.play(moves[-1])
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
            await pilot.press("u")
            assert app.screen is screen
            assert game.moves_played == over.moves - 1

    asyncio.run(scenario())


def test_cards_in_colour_and_the_four_colour_deck() -> None:
    diamond = make_card(8, 2)
    spade = make_card(8, 0)

    def colour(text: Text) -> str:
        style = text.spans[0].style if text.spans else text.style
        assert not isinstance(style, str)
        assert style.color is not None
        return style.color.name

    assert SUIT_OF[diamond] == 2
    assert colour(card_text(diamond, False)) == TWO_COLOURS[2]
    assert colour(card_text(diamond, True)) == FOUR_COLOURS[2]
    assert TWO_COLOURS[2] == TWO_COLOURS[1] != TWO_COLOURS[0]
    assert len(set(FOUR_COLOURS)) == 4
    assert colour(card_text(spade, True)) == FOUR_COLOURS[0]
    assert card_text(make_card(10, 1), False).plain == "10♥"


def test_the_grid_grows_with_the_terminal(store: Store) -> None:
    async def size_of_a1(width: int, height: int) -> tuple[int, int]:
        app = make_app(store, number=1)
        async with app.run_test(size=(width, height)):
            cell = app.screen.query_one("#place-a1", PileCell)
            return cell.size.width, cell.size.height

    small = asyncio.run(size_of_a1(80, 24))
    large = asyncio.run(size_of_a1(160, 48))
    assert small[0] >= 7 and small[1] >= 2
    assert large[0] > small[0] and large[1] > small[1]


def test_a_hint_is_computed_in_a_worker_and_shown(store: Store) -> None:
    async def scenario() -> None:
        app = make_app(store, number=1, hint_time=0.3)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = game_screen(app)
            await pilot.press("question_mark")
            await app.workers.wait_for_complete()
            await wait_for(pilot, lambda: screen.hint_move is not None)
            move = screen.hint_move
            assert move is not None
            assert screen.table.session.game.reason(move) is None
            assert screen.status.startswith("Hint: ") and move.text() not in screen.status
            for place in screen.hint_places:
                name = "talon" if place == TALON else None
                widget = screen._places[place]
                assert widget.has_class("-hint"), name
            gid = screen.table.session.game_id
            assert gid is not None
            assert store.events(gid)[-1] == ("hint", move.text())
            # the next move clears the hint
            await pilot.press("d")
            assert screen.hint_move is None
            assert not any(w.has_class("-hint") for w in screen._places.values())

    asyncio.run(scenario())


def test_the_screen_speaks_french(store: Store) -> None:
    fr = translations("fr")
    for english in ("score: {score}", "stock", "talon"):
        assert fr.gettext(english) != english, f"no French for {english!r}"
    game = Game(1)
    game.play(DEAL)
    cell = next(c for c in range(24) if game.reason(talon_build(c)) is not None)
    reason = game.reason(talon_build(cell))
    assert reason is not None

    store.set_setting(OWNER, GUIDE_SEEN, "1")  # the first-game guide put away before

    async def scenario() -> None:
        app = make_app(store, number=1)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = game_screen(app)
            info = str(app.screen.query_one("#info", InfoPanel).render())
            assert fr.gettext("score: {score}").format(score=72) in info
            assert rating_label(Rating.NONE, "fr") in info
            assert fr.gettext("stock") in str(screen._places[STOCK].border_title)
            await pilot.press("d")
            screen.picked = TALON
            screen.cursor = cell
            await pilot.press("enter")
            assert screen.status == table.say_error(reason, table.Words("fr"))
            assert screen.status != table.say_error(reason, table.Words("en"))

    set_language("fr")
    asyncio.run(scenario())


def test_the_screen_answers_while_a_hint_is_thought_of_and_drops_a_stale_one(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from devilsgrip import solver

    release = threading.Event()

    def slow_hint(game: Game, **_kwargs: Any) -> solver.Hint | None:
        release.wait(5)
        return solver.explain(game, DEAL)

    monkeypatch.setattr(solver, "hint", slow_hint)

    async def scenario() -> None:
        app = make_app(store, number=1)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = game_screen(app)
            await pilot.press("question_mark")
            await pilot.press("d", "right")  # handled while the worker waits
            assert screen.table.session.game.moves_played == 1
            assert screen.cursor == 1
            release.set()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert screen.hint_move is None  # computed for a position that is gone
            assert screen.status.startswith("Dealt 3 cards: ")

    asyncio.run(scenario())


def test_a_failing_hint_is_reported_and_the_game_goes_on(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from devilsgrip import solver

    def broken_hint(game: Game, **_kwargs: Any) -> solver.Hint | None:
        raise RuntimeError("boom")

    monkeypatch.setattr(solver, "hint", broken_hint)

    async def scenario() -> None:
        app = make_app(store, number=1)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = game_screen(app)
            await pilot.press("question_mark")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert screen.status == "No hint this time: it could not be worked out."
            await pilot.press("d")
            assert screen.table.session.game.moves_played == 1

    asyncio.run(scenario())


def test_the_help_screen_shows_the_rules_in_the_players_language(store: Store) -> None:
    from textual.widgets import Markdown

    from devilsgrip.i18n import rules_text

    french = rules_text("fr")
    assert french and french != rules_text("en")

    async def scenario() -> None:
        app = make_app(store, number=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("f1")
            assert isinstance(app.screen, HelpScreen)
            rules = app.screen.query_one("#help-rules", Markdown)
            assert rules.source == french
            await pilot.press("f1")
            assert isinstance(app.screen, GameScreen)

    set_language("fr")
    asyncio.run(scenario())


def test_statistics_write_numbers_and_colons_as_each_language_does() -> None:
    from devilsgrip.store import Stats
    from devilsgrip.tui.screens import stats_text

    stats = Stats(rules="classic", owner="local", played=2, won=1, given_up=1, best_score=0,
                  average_score=2.5, ratings={"won": 1, "good": 1}, current_streak=0,
                  longest_streak=1, histogram={0: 1, 5: 1}, best_by_number={5: 0}, hints=0,
                  fastest_win=95.4, time_played=3725.0)
    english = stats_text(stats).plain
    assert "average score: 2.5" in english and "(50%)" in english and "won: 1" in english
    assert "fastest win: 1:35" in english and "time played: 1:02:05" in english
    set_language("fr")
    french = stats_text(stats).plain
    assert "score moyen : 2,5" in french and "(50\xa0%)" in french
    assert "temps de jeu : 1:02:05" in french
    assert "gagné : 1" in french and "gagné: " not in french
    set_language("hu")
    assert "2,5" in stats_text(stats).plain


def test_the_deal_number_dialog_is_centred_and_says_inside_why_a_number_is_refused(
        store: Store, screen_text: ScreenText) -> None:
    from devilsgrip.tui.screens import DealNumberScreen

    async def scenario() -> None:
        app = make_app(store, number=1)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = game_screen(app)
            await pilot.press("g")
            dialog = app.screen
            assert isinstance(dialog, DealNumberScreen)
            box = dialog.query_one("#deal-number").region
            assert abs(box.x - (80 - box.right)) <= 1 and abs(box.y - (24 - box.bottom)) <= 1
            await pilot.press(*"99999999999999999999", "enter")  # beyond the last deal
            assert app.screen is dialog
            error = str(dialog.query_one("#deal-number-error", Static).render())
            shown = screen_text(app)  # type: ignore[arg-type]
            assert "whole numbers from 1 to" in error
            assert all(word in shown for word in error.split())
            await pilot.press("escape")
            assert app.screen is screen and screen.table.session.game.number == 1

    asyncio.run(scenario())


@pytest.mark.slow
def test_the_game_over_dialog_says_why_and_ignores_the_keys_typed_as_it_appears(
        store: Store) -> None:
    moves = play_game(Game(3, rules="single-pass"), "greedy").move_stack

    async def scenario() -> None:
        # a guard long enough that a loaded machine still presses within it
        app = make_app(store, number=3, rules="single-pass", dialog_guard=4.0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = game_screen(app)
            for move in moves[:-1]:
                screen.table.session.play(move)
            assert screen.play(moves[-1])
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
            over = app.screen
            assert isinstance(over, GameOverScreen)
            why = str(over.query_one("#gameover-why", Static).render())
            assert why == table.say_why_ended(screen.table.session, table.Words("en")) and why
            await pilot.press("n")  # typed for the table: ignored
            assert app.screen is over and screen.table.session.game.moves_played == len(moves)
            # once the guard's time has passed (its timer, however busy the machine)
            await wait_for(pilot, lambda: over.ready)
            await pilot.press("escape")
            assert app.screen is screen
            # over: the key bar offers what is left to do (undo, another game)
            shown = {hint.label for hint in screen.key_hints()}
            assert {"undo", "new game", "restart", "help", "quit"} <= shown
            assert not shown & {"deal", "redeal", "hint", "give up"}

    asyncio.run(scenario())


def test_the_game_screen_asks_the_application_by_messages() -> None:
    from pathlib import Path

    import devilsgrip.tui.game_screen as module

    source = Path(module.__file__).read_text(encoding="utf-8")
    assert "self.app." not in source  # dialogs, workers' results: messages up


def test_a_failing_review_or_best_line_is_reported_as_such(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not as a hint: each says what could not be worked out, and the game stays."""
    from devilsgrip import solver

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(reviews, "review_session", broken)
    monkeypatch.setattr(solver, "solve", broken)

    async def scenario() -> None:
        app = make_app(store, number=1)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = game_screen(app)
            screen.table.session.play_text("d")
            screen.table.session.give_up()
            screen.show_review()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert screen.status == "The review could not be worked out this time."
            screen.show_best_line()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert screen.status == "The best line could not be worked out this time."
            assert screen.table.session.game.moves_played == 1

    asyncio.run(scenario())


def test_statistics_of_each_rules_a_key_away(store: Store) -> None:
    for number, rules in ((3, "classic"), (4, "classic"), (5, "single-pass")):
        store.save_game(play_game(Game(number, rules=rules), "greedy", time_limit=0.05),
                        owner=OWNER)

    async def scenario() -> None:
        app = make_app(store, number=7, rules="single-pass")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("s")
            stats = app.screen
            assert isinstance(stats, StatsScreen)

            def shown() -> tuple[str, str]:
                title = str(stats.query_one(".dialog-title", Static).render())
                return title, str(stats.query_one("#stats-body", Static).render())

            title, body = shown()
            assert title == "Statistics: Single pass" and "1 game finished" in body
            assert "r: other rules" in str(stats.query_one(".dialog-keys").render())
            await pilot.press("r")
            title, body = shown()
            assert title == "Statistics: Classic" and "2 games finished" in body
            await pilot.press("r")
            title, body = shown()
            assert title == "Statistics: All rules" and "3 games finished" in body
            await pilot.press("r")
            assert shown()[0] == "Statistics: Single pass"
            await pilot.press("escape")
            assert isinstance(app.screen, GameScreen)

    asyncio.run(scenario())
