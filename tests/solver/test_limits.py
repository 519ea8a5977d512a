"""Every thinking entry point refuses a time limit that would never stop or never start."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from devilsgrip import DevilsGripError, Game, LimitError
from devilsgrip.i18n import translate_error
from devilsgrip.solver import choose_move, hint, play_game, solve

BAD_LIMITS: list[object] = [math.nan, -math.nan, math.inf, -math.inf, 0, 0.0, -1, -0.5,
                            10**400, True, "1"]

ENTRY_POINTS: dict[str, Callable[[Game, object], object]] = {
    "solve": lambda game, t: solve(game, time_limit=t),  # type: ignore[arg-type]
    "hint": lambda game, t: hint(game, time_limit=t),  # type: ignore[arg-type]
    "choose_move honest": lambda game, t: choose_move(game, "honest", time_limit=t),  # type: ignore[arg-type]
    "choose_move greedy": lambda game, t: choose_move(game, "greedy", time_limit=t),  # type: ignore[arg-type]
    "play_game": lambda game, t: play_game(game, "greedy", time_limit=t),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("name", list(ENTRY_POINTS))
@pytest.mark.parametrize("limit", BAD_LIMITS, ids=repr)
def test_a_bad_time_limit_is_a_typed_error(name: str, limit: object) -> None:
    game = Game(1)
    start = game.position()
    with pytest.raises(LimitError) as info:
        ENTRY_POINTS[name](game, limit)
    assert isinstance(info.value, DevilsGripError) and isinstance(info.value, ValueError)
    assert info.value.code == "time-limit-bad"
    assert "positive" in translate_error(info.value)
    assert game.position() == start  # refused before anything was played


def test_solve_still_takes_no_time_limit_with_a_node_budget() -> None:
    result = solve(Game(2), time_limit=None, max_nodes=200)
    assert result.nodes <= 400


def test_the_refusal_is_translated() -> None:
    with pytest.raises(LimitError) as info:
        solve(Game(1), time_limit=math.nan)
    assert translate_error(info.value, "fr") == (
        "la limite de temps doit être un nombre positif de secondes, pas nan"
    )
