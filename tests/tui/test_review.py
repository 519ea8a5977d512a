"""The terminal game's review: offered once a game has ended, read-only, kept."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence

import pytest
from pilot_waits import until
from textual.widgets import OptionList, Static

from devilsgrip.game import Game
from devilsgrip.notation import Move
from devilsgrip.solver import play_game
from devilsgrip.store import Store
from devilsgrip.table import reviews
from devilsgrip.tui.app import DevilsGripApp
from devilsgrip.tui.game_screen import GameScreen
from devilsgrip.tui.screens import GameOverScreen, ReviewScreen
from devilsgrip.tui.viewer import LineViewer
from devilsgrip.tui.widgets import Packed


async def _play_to_its_end(pilot: object, app: DevilsGripApp,
                           moves: Sequence[Move]) -> GameScreen:
    """Play ``moves`` (the last one as a player does), until the end dialog is up."""
    screen = app.screen
    assert isinstance(screen, GameScreen)
    for move in moves[:-1]:
        screen.table.session.play(move)
    assert screen.play(moves[-1])
    await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
    return screen


def _app(store: Store) -> DevilsGripApp:
    """Deal 7 with no delays, and the solver's time of a review."""
    return DevilsGripApp(store, number=7, flourish_delay=0.0, dialog_guard=0.0,
                         solve_time=10.0)


@pytest.mark.slow
def test_a_game_over_is_reviewed_from_its_end_dialog(store: Store) -> None:
    moves = play_game(Game(7), "greedy").move_stack

    async def scenario() -> None:
        app = _app(store)
        async with app.run_test(size=(100, 40)) as pilot:
            screen = await _play_to_its_end(pilot, app, moves)
            assert not screen.table.session.final
            await pilot.press("v")
            await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
            review = app.screen
            assert isinstance(review, ReviewScreen)
            assert screen.table.session.final  # a review shows the stock: the result stands
            assert review.story.startswith(("Winnable until move", "Winnable at least until"))
            assert review.rows
            keys = [item.plain for item in review.query_one(".dialog-keys", Packed).items]
            assert keys == ["Enter: that move on the grid", "Esc: back to the game"]
            assert not review.query("#review-open")  # every value proven: nothing to say
            assert review.query_one(OptionList).option_count == len(review.rows)
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LineViewer))
            viewer = app.screen
            assert isinstance(viewer, LineViewer)
            notes = [item.plain for item in viewer.query_one("#info", Packed).items]
            assert any(note.startswith("↑ Played:") for note in notes)
            await pilot.press("escape")  # back to the list of costly moves
            await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
            assert screen.table.session.game_id is not None
            assert store.review(screen.table.session.game_id) is not None
            await pilot.press("escape")
            assert isinstance(app.screen, GameScreen)

    asyncio.run(scenario())


def test_a_review_with_no_costly_move_offers_no_move_to_choose(store: Store) -> None:
    """A game given up after a few deals lost nothing by its moves: the review says so
    and offers only the way back."""

    async def scenario() -> None:
        app = _app(store)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            for key in ("d", "d", "G", "y"):
                await pilot.press(key)
                await pilot.pause()
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            await pilot.press("v")
            await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
            review = app.screen
            assert isinstance(review, ReviewScreen)
            assert not review.rows and not review.query(OptionList)
            keys = [item.plain for item in review.query_one(".dialog-keys", Packed).items]
            assert keys == ["Esc: back to the game"]
            await pilot.press("escape")
            assert isinstance(app.screen, GameScreen)

    asyncio.run(scenario())


@pytest.mark.slow
def test_a_long_review_shows_its_time_and_leaves_other_words_alone(store: Store) -> None:
    """A review whose searches run to its time limit: the status area counts its seconds
    of the most it may take, as the page does, while the searches run; what the player
    is told meanwhile (a refused deal: the game is final) is not written over."""
    moves = play_game(Game(197), "greedy").move_stack  # unproven values after 10 s

    async def scenario() -> None:
        app = DevilsGripApp(store, number=197, flourish_delay=0.0, dialog_guard=0.0,
                            solve_time=5.0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await _play_to_its_end(pilot, app, moves)
            said: list[tuple[str, bool]] = []
            say = screen.say

            def recorded(message: str, *, error: bool = False) -> None:
                said.append((message, error))
                say(message, error=error)

            screen.say = recorded  # type: ignore[method-assign]

            def counted() -> list[int]:
                return [i for i, (text, _) in enumerate(said)
                        if text.startswith("Reviewing the game… ")
                        and text.endswith(" s of at most 5 s")]

            await pilot.press("v")
            # the seconds are counted while the searches run (the screen is not held up)
            await until(pilot, lambda: len({said[i][0] for i in counted()}) >= 2, 4.5)
            await pilot.press("d")
            await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
            counting = counted()
            refusals = [i for i, (_, error) in enumerate(said) if error]
            assert refusals and counting, said
            assert said[-1][0].startswith("Winnable")  # the story, once the review is made
            # nothing counted over the refusal
            assert not [i for i in counting if i > refusals[0]], said

    asyncio.run(scenario())


def test_a_game_that_ended_is_reviewed_from_the_grid_too(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the end dialog is put away (or an over game is resumed), v reviews the game
    and b shows its best line, as the page's result button does; in a live game both
    are refused and change nothing, and the key bar offers them only once it has ended.
    Asked twice while it runs, the review is worked out once."""
    moves = play_game(Game(7), "greedy").move_stack
    made: list[int] = []
    review_session = reviews.review_session

    def counted(*args: object, **kwargs: object) -> object:
        made.append(1)
        return review_session(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(reviews, "review_session", counted)

    async def scenario() -> None:
        app = _app(store)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            actions = {hint.label for hint in screen.key_hints()}
            assert "review" not in actions
            await pilot.press("v")
            await pilot.pause()
            assert screen.said.error and not screen.table.session.final
            await pilot.press("b")
            await pilot.pause()
            assert screen.said.error and not screen.table.session.final
            assert not isinstance(app.screen, ReviewScreen)
            await _play_to_its_end(pilot, app, moves)
            await pilot.press("escape")  # the grid: the dialog put away
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            actions = {hint.label for hint in screen.key_hints()}
            assert "review" in actions and "undo" in actions
            await pilot.press("v")
            await pilot.press("v")
            assert screen.table.session.final  # at once: a review shows the stock
            assert "undo" not in {hint.label for hint in screen.key_hints()}
            await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
            await pilot.press("escape")
            await pilot.press("b")
            await until(pilot, lambda: isinstance(app.screen, LineViewer))
            assert len(made) == 1

    asyncio.run(scenario())


def test_a_review_that_left_values_open_looks_longer_with_l(store: Store) -> None:
    """A review of 0.5 s leaves values open in deal 143's greedy game: its dialog offers
    ``l``, which reviews the game anew with six times the time (counted as it runs) and
    keeps the review that proves more; a review with every value proven offers nothing
    (the dialog's keys in the tests above)."""
    moves = play_game(Game(143), "greedy").move_stack

    async def scenario() -> None:
        app = DevilsGripApp(store, number=143, flourish_delay=0.0, dialog_guard=0.0,
                            solve_time=0.5)
        async with app.run_test(size=(100, 40)) as pilot:
            screen = await _play_to_its_end(pilot, app, moves)
            said: list[str] = []
            say = screen.say

            def recorded(message: str, *, error: bool = False) -> None:
                said.append(message)
                say(message, error=error)

            screen.say = recorded  # type: ignore[method-assign]
            await pilot.press("v")
            await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
            review = app.screen
            assert isinstance(review, ReviewScreen) and review.open_values
            # how much is proven, as the page says it under its chart
            note = str(review.query_one("#review-open", Static).render())
            assert re.fullmatch(r"\d+% of the values are proven; those marked ~ are the best "
                                r"lines found in the time allowed\.", note), note
            keys = [item.plain for item in review.query_one(".dialog-keys", Packed).items]
            assert keys == ["Enter: that move on the grid", "l: look longer",
                            "Esc: back to the game"]
            game_id = screen.table.session.game_id
            assert game_id is not None
            first = store.review(game_id)
            assert first is not None
            await pilot.press("l")
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            await until(pilot, lambda: any(text.endswith(" s of at most 3 s") for text in said))
            await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
            kept = store.review(game_id)
            assert kept is not None

            def proven(data: dict[str, object]) -> int:
                moves = data["moves"]
                assert isinstance(moves, list)
                return sum(bool(m["proven"]) for m in moves)

            assert proven(kept) >= proven(first)
            await pilot.press("escape")
            assert isinstance(app.screen, GameScreen)

    asyncio.run(scenario())
