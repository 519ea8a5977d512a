"""The beam search of the last pass: its lines are legal, and unbounded it is exact."""

from __future__ import annotations

import pytest
from helpers import brute_force, late_position, replay_score, split_position
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from devilsgrip.game import Game
from devilsgrip.solver import SolveResult, solve
from devilsgrip.solver.clairvoyant import RunSearch, new_search
from devilsgrip.solver.lines import realize

LAST_PASS = [
    "single-pass",
    "literal",
    "literal,move_unit=run",
    "single-pass,fill_from_talon=false",
    "single-pass,move_unit=card",
    "single-pass,draw=1",
]


def beam_only(game: Game, width: int) -> tuple[int, list[str]]:
    """The best score and line of one beam of ``width`` from ``game``, and nothing else."""
    search = new_search(game, time_limit=None)
    search.best = len(search.seq) + 1
    search.deadline = float("inf")
    search._beam(width)
    moves = realize(game, search.best_path)
    return search.best, [m.text() for m in moves]


def line_score(game: Game, moves: list[str]) -> int:
    g = game.copy()
    for m in moves:
        g.play_text(m)
    return g.score


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    outside=st.integers(2, 10),
    rules=st.sampled_from(LAST_PASS),
    split=st.booleans(),
)
def test_unbounded_beam_is_exact(seed: int, outside: int, rules: str, split: bool) -> None:
    # wide enough to keep every state, the beam only drops states whose lower
    # bound cannot beat its best line: it must reach the optimum
    game = (split_position if split else late_position)(seed, outside, rules)
    try:
        expected = brute_force(game)
    except RuntimeError:
        return
    score, moves = beam_only(game, 10**9)
    assert score == expected, game.position()
    assert line_score(game, moves) == expected


@pytest.mark.parametrize("rules", LAST_PASS)
@pytest.mark.parametrize(("seed", "outside"), [(3, 6), (89, 11), (160, 10), (170, 11)])
def test_unbounded_beam_is_exact_where_stock_fills_count(seed: int, outside: int,
                                                          rules: str) -> None:
    # positions (found by search) whose optimum needs fills from the stock under
    # most of these rules; random ones rarely do
    game = split_position(seed, outside, rules)
    expected = brute_force(game)
    score, moves = beam_only(game, 10**9)
    assert score == expected, game.position()
    assert line_score(game, moves) == expected


@pytest.mark.parametrize("rules", ["single-pass", "literal"])
@pytest.mark.parametrize("width", [1, 4, 32])
def test_narrow_beam_lines_replay(rules: str, width: int) -> None:
    game = Game(5, rules=rules)
    for move in ["d", "d"]:
        game.play_text(move)
    score, moves = beam_only(game, width)
    assert score < game.score
    assert line_score(game, moves) == score
    assert moves and all(isinstance(m, str) for m in moves)


def test_beam_leaves_the_search_as_it_was() -> None:
    game = Game(3, rules="single-pass")
    search = new_search(game, time_limit=None)
    seq, count = list(search.seq), search.seqcount
    search.best = len(seq) + 1
    search.deadline = float("inf")
    search._beam(8)
    assert search.seq == seq and search.seqcount == count


def test_beam_respects_the_node_budget() -> None:
    game = Game(1, rules="single-pass")
    result = solve(game, max_nodes=700, time_limit=None)
    assert isinstance(result, SolveResult) and not result.proven
    assert result.nodes < 700 + 1100
    assert replay_score(game, result) == result.score


def test_no_beam_while_a_redeal_is_left() -> None:
    # classic has unlimited redeals: the playouts supply lines, the beam never runs
    calls: list[int] = []

    class Spy(RunSearch):
        def _beam(self, width: int) -> None:
            calls.append(width)
            super()._beam(width)

    Spy(Game(1), time_limit=0.2).run()
    assert calls == []
    Spy(Game(1, rules="single-pass"), time_limit=0.2).run()
    assert calls and calls[0] == 4
