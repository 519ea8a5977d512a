"""The clairvoyant solver: lines replay to the claimed score; proven results are right."""

from __future__ import annotations

import pytest
from helpers import brute_force, late_position, replay_score
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from devilsgrip.game import Game
from devilsgrip.solver import solve

RULES = [
    "classic",
    "single-pass",
    "literal",
    "classic,draw=1",
    "single-pass,redeals=1",
    "literal,redeals=1",
    "classic,fill_from_talon=false",
    "literal,move_unit=run",
    "classic,move_unit=card",
]


def test_won_deal_is_proven_and_replays() -> None:
    game = Game(2)
    before = game.position()
    result = solve(game, time_limit=5)
    assert (result.score, result.proven) == (0, True)
    assert game.position() == before  # unchanged
    assert replay_score(game, result) == 0
    assert result.moves[-1].text() != "d"


@pytest.mark.parametrize("rules", ["classic", "single-pass", "literal"])
@pytest.mark.parametrize("number", [1, 3, 7])
def test_lines_replay_to_the_claimed_score(number: int, rules: str) -> None:
    game = Game(number, rules=rules)
    result = solve(game, time_limit=0.3)
    assert replay_score(game, result) == result.score
    assert result.score <= game.score
    assert result.rules == str(game.rules)


def test_time_out_gives_best_line_so_far_unproven() -> None:
    game = Game(1, rules="single-pass")
    result = solve(game, max_nodes=2000, time_limit=None)
    assert not result.proven
    assert replay_score(game, result) == result.score
    assert 2000 <= result.nodes < 4000


def test_to_dict() -> None:
    result = solve(Game(2), time_limit=5)
    d = result.to_dict()
    assert set(d) == {"score", "proven", "bound", "moves", "nodes", "seconds", "rules"}
    assert d["bound"] == d["score"]
    assert d["rules"] == "classic" and d["score"] == 0 and d["proven"] is True
    assert all(isinstance(m, str) for m in d["moves"])


def test_over_position_solves_to_its_score() -> None:
    # a won grid: nothing to do
    game = late_position(1, 0, "classic")
    assert game.score == 0 and solve(game).score == 0


def test_known_small_position() -> None:
    # found by the cross-check: needs a redeal with draw=1 to reach score 1
    text = (
        "2S5S8SJS,2S5S8SJS,3H6H9HQH,3D6D9DQD,3S6S9SQS,3H6H9HQH,3D6D9DQD,2H5H8HJH/"
        "4D7DTDKD,2D5D8DJD,4C7CTCKC,2C5C8CJC,4H7HTHKH,2H5H8HJH,4H7HTHKH,7DTDKD/"
        "2D5D8D,3C6C9CQC,3S6S9SQS,3C6C9CQC,4S7S,4S7STSKS,2C5C8CJC,4C7CTCKC "
        "JDKS TS4D 0 0 classic,draw=1"
    )
    game = Game.from_position(text)
    result = solve(game)
    assert result.proven and result.score == 1 == brute_force(game)
    assert replay_score(game, result) == 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    outside=st.integers(2, 8),
    rules=st.sampled_from(RULES),
)
def test_proven_results_match_exhaustive_search(seed: int, outside: int, rules: str) -> None:
    game = late_position(seed, outside, rules)
    expected = brute_force(game)
    result = solve(game, time_limit=20)
    assert result.proven
    assert result.score == expected
    assert replay_score(game, result) == expected


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES)
def test_many_positions_match_exhaustive_search(rules: str) -> None:
    for seed in range(40):
        game = late_position(seed, 4 + seed % 6, rules)
        try:
            expected = brute_force(game)
        except RuntimeError:
            continue
        result = solve(game, time_limit=20)
        assert result.proven, game.position()
        assert result.score == expected, game.position()
        assert replay_score(game, result) == expected
