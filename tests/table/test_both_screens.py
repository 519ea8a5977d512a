"""The lifecycle of a game, written once and played through both screens.

Each scenario runs against the web API and against the terminal game's pilot
(see conftest.py): the two screens share one table layer and one session, so
they must give the same results.
"""

from __future__ import annotations

import asyncio
import random
from datetime import date
from functools import cache
from pathlib import Path

import pytest
from drivers import Driver, Scenario, driving

from devilsgrip import session as session_module
from devilsgrip.catalog import winnable_line
from devilsgrip.daily import daily_deal
from devilsgrip.game import Game
from devilsgrip.solver import solve

SCREENS = ("web", "tui")
WON_DEAL = 2
"""A classic deal the solver wins in 165 moves."""


@cache
def winning_line(number: int) -> tuple[str, ...]:
    result = solve(Game(number), time_limit=30)
    assert result.score == 0 and result.proven
    return tuple(m.text() for m in result.moves)


@cache
def line_to_over(number: int, rules: str = "single-pass") -> tuple[str, ...]:
    """Random moves that end a one-pass game over (not won)."""
    game = Game(number, rules=rules)
    rng = random.Random(number)
    while not game.is_over():
        game.play(rng.choice(game.generate_moves()))
    assert not game.is_won()
    return tuple(m.text() for m in game.move_stack)


# ------------------------------------------------------------- scenarios
async def win_then_undo(d: Driver) -> None:
    line = winning_line(WON_DEAL)
    for move in line:
        await d.play(move)
    state = d.state()
    assert state["won"] and state["final"] and not state["can_undo"]
    # the jacks, queens and kings are arranged on screen, not played as moves
    assert state["moves"] == len(line)
    message = await d.undo()
    assert "finished" in message.lower(), message
    assert d.state()["moves"] == len(line) and d.state()["won"]
    stats = d.stats()
    assert (stats.played, stats.won) == (1, 1)


async def play_again_after_a_win(d: Driver) -> None:
    for move in winning_line(WON_DEAL):
        await d.play(move)
    first = d.state()
    await d.play_again()
    again = d.state()
    assert again["id"] != first["id"] and again["number"] == WON_DEAL
    assert again["moves"] == 0 and not again["final"] and again["elapsed"] < 5
    stats = d.stats()
    assert (stats.played, stats.won, stats.unfinished) == (1, 1, 1)


async def leave_mid_game(d: Driver) -> None:
    for _ in range(4):
        await d.play("d")
    score = d.state()["score"]
    first = d.state()["id"]
    await d.new_game(17)
    assert d.state()["id"] != first and d.state()["number"] == 17
    stats = d.stats()
    assert (stats.played, stats.given_up, stats.won) == (1, 1, 0)
    assert stats.best_score == score


async def leave_with_no_move(d: Driver) -> None:
    await d.new_game(17)
    assert d.state()["number"] == 17 and d.state()["moves"] == 0
    stats = d.stats()
    assert (stats.played, stats.unfinished) == (0, 1)  # the game left is gone


async def solution_then_undo(d: Driver) -> None:
    for move in line_to_over(3):
        await d.play(move)
    state = d.state()
    assert state["over"] and not state["final"] and state["can_undo"]
    assert d.stats().played == 0  # over but open: not counted yet
    await d.show_solution()
    assert d.state()["final"] and not d.state()["can_undo"]
    message = await d.undo()
    assert "finished" in message.lower(), message
    stats = d.stats()
    assert (stats.played, stats.given_up) == (1, 0)


async def give_up(d: Driver) -> None:
    for _ in range(3):
        await d.play("d")
    await d.give_up()
    state = d.state()
    assert state["final"] and not state["can_undo"]
    message = await d.undo()
    assert "finished" in message.lower(), message
    stats = d.stats()
    assert (stats.played, stats.given_up) == (1, 1)


async def restart(d: Driver) -> None:
    await d.play("d")
    first = d.state()
    await d.play_again()
    again = d.state()
    assert again["id"] != first["id"] and again["number"] == first["number"]
    assert again["moves"] == 0
    stats = d.stats()
    assert (stats.played, stats.given_up, stats.unfinished) == (1, 1, 1)


async def clock(d: Driver) -> None:
    now = session_module.clock  # patched by the test: a clock we move by hand
    await d.play("d")
    now.advance(30)  # type: ignore[attr-defined]
    await d.play("d")
    await d.hide()
    now.advance(600)  # type: ignore[attr-defined]
    assert d.state()["elapsed"] == pytest.approx(30, abs=0.2)
    await d.show()
    now.advance(5)  # type: ignore[attr-defined]
    assert d.state()["elapsed"] == pytest.approx(35, abs=0.2)


async def daily_twice_counts_once(d: Driver) -> None:
    today = date.today()
    await d.play("d")
    await d.daily()  # the game left counts as given up
    assert d.state()["number"] == daily_deal(today, "single-pass")
    await d.play("d")
    await d.give_up()
    text = await d.share()
    assert f"daily deal of {today.isoformat()}" in text
    assert "Best possible score of this deal: 0" in text
    first = d.state()["id"]
    await d.daily()  # practice: it is won, the day's result stays the first game's
    line = winnable_line(daily_deal(today, "single-pass"))
    assert line is not None
    for move in line:
        await d.play(move.text())
    assert d.state()["won"]
    assert "Won: no card left!" in await d.share()
    stats = d.stats()
    assert (stats.played, stats.won, stats.given_up) == (3, 1, 2)
    assert d.daily_results("single-pass") == {today.isoformat(): first}


SCENARIOS: dict[str, tuple[Scenario, int, str]] = {
    "win then undo": (win_then_undo, WON_DEAL, "classic"),
    "play again after a win": (play_again_after_a_win, WON_DEAL, "classic"),
    "leave mid-game": (leave_mid_game, 9, "classic"),
    "leave with no move": (leave_with_no_move, 9, "classic"),
    "solution then undo": (solution_then_undo, 3, "single-pass"),
    "give up": (give_up, 9, "classic"),
    "restart": (restart, 9, "classic"),
    "clock": (clock, 9, "classic"),
    "daily twice counts once": (daily_twice_counts_once, 9, "single-pass"),
}


class HandClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


WINS = ("win then undo", "play again after a win", "solution then undo", "daily twice counts once")
"""The scenarios that play a whole deal: on the terminal screen each key is drawn (10-40 s)."""


@pytest.mark.parametrize(("name", "screen"), [
    pytest.param(name, screen, id=f"{name}-{screen}",
                 marks=[pytest.mark.slow] if (name, screen) in ((w, "tui") for w in WINS) else [])
    for name in SCENARIOS for screen in SCREENS])
def test_lifecycle(name: str, screen: str, tmp_path: Path,
                   monkeypatch: pytest.MonkeyPatch) -> None:
    scenario, number, rules = SCENARIOS[name]
    if name == "clock":
        monkeypatch.setattr(session_module, "clock", HandClock())

    async def run() -> None:
        async with driving(screen, tmp_path, number, rules) as driver:
            await scenario(driver)

    asyncio.run(run())
