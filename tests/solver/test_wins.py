"""Can this position be won, under any rules: the win hunt with a redeal left."""

from __future__ import annotations

import pytest
from helpers import brute_force, late_position, split_position
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from devilsgrip.errors import LimitError
from devilsgrip.game import Game
from devilsgrip.notation import Move, parse_card
from devilsgrip.solver import play_game
from devilsgrip.solver.clairvoyant import RunSearch
from devilsgrip.solver.grids import run_grid
from devilsgrip.solver.winnable import LOST, UNKNOWN, WON, prove_winnable
from devilsgrip.solver.wins import WinHunt, can_win, spaces_to_make

WITH_REDEALS = ["classic", "classic,move_unit=card", "single-pass,redeals=1",
                "literal,redeals=2", "classic,draw=1"]
"""Rules where a redeal is left at the start (the win hunt's own ground)."""

small = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _replays_to_a_win(game: Game, moves: tuple[Move, ...]) -> bool:
    check = game.copy()
    for move in moves:
        check.play(move)
    return check.score == 0


@small
@given(seed=st.integers(0, 10**6), outside=st.integers(2, 8),
       rules=st.sampled_from(WITH_REDEALS), split=st.booleans())
def test_the_win_hunt_agrees_with_exhaustive_search(
        seed: int, outside: int, rules: str, split: bool) -> None:
    game = (split_position if split else late_position)(seed, outside, rules)
    try:
        best = brute_force(game, limit=150_000)
    except RuntimeError:
        return
    before = game.position()
    answer = can_win(game, time_limit=None, max_nodes=400_000)
    assert game.position() == before
    assert answer.outcome == (WON if best == 0 else LOST)
    if answer.outcome == WON:
        assert _replays_to_a_win(game, answer.moves)


@small
@given(seed=st.integers(0, 10**6), outside=st.integers(2, 9),
       rules=st.sampled_from(["single-pass", "literal"]))
def test_with_no_redeal_left_it_is_the_one_pass_win_search(
        seed: int, outside: int, rules: str) -> None:
    game = late_position(seed, outside, rules)
    answer = can_win(game, time_limit=None, max_nodes=200_000)
    alone = prove_winnable(game, time_limit=None, max_nodes=200_000)
    assert (answer.outcome, answer.moves, answer.nodes) == (alone.outcome, alone.moves,
                                                            alone.nodes)


def test_a_classic_deal_is_won_and_its_line_replays() -> None:
    game = Game(2)
    answer = can_win(game, time_limit=10)
    assert answer.outcome == WON and _replays_to_a_win(game, answer.moves)
    assert game.position() == Game(2).position()


def test_a_classic_game_over_with_cards_out_is_lost() -> None:
    game = play_game(Game(3), "greedy")
    assert game.is_over() and game.score > 0
    assert can_win(game, time_limit=10).outcome == LOST


def test_a_search_stopped_by_its_budget_says_it_does_not_know() -> None:
    answer = can_win(Game(2), time_limit=None, max_nodes=1)
    assert answer.outcome == UNKNOWN and answer.moves == ()


def test_a_bad_time_limit_is_refused() -> None:
    with pytest.raises(LimitError):
        can_win(Game(2), time_limit=-1)


def test_spaces_to_make_counts_the_piles_that_can_be_moved_onto_a_top() -> None:
    # 5♠ (bottom of its own pile) can go onto a 2♠ top; a 3♥ bottom is a base (no
    # space to make there); 8♦ has no 5♦ top to go onto
    s2, s5, h3, h6, d8 = (parse_card(t) for t in ("2S", "5S", "3H", "6H", "8D"))
    grid = [[s2], [s5], [h3, h6], [d8]]
    assert spaces_to_make(run_grid(grid)) == 1
    assert spaces_to_make(run_grid([[s2], [s5], [s5]])) == 1  # one value, counted once
    assert spaces_to_make(run_grid([[s5]])) == 0


def test_the_win_hunt_tries_the_children_that_leave_most_spaces_first() -> None:
    game = Game(11)
    hunt = WinHunt(game, time_limit=None)
    plain = RunSearch(game, time_limit=None)
    g, p, r, n = hunt.grid0, hunt.p0, hunt.r0, len(hunt.seq)
    ordered = hunt._dfs_children(g, p, r, n, hunt._cuts(p, n, r))
    usual = plain._dfs_children(g, p, r, n, plain._cuts(p, n, r))
    assert sorted(ordered) == sorted(usual)
    counts = [spaces_to_make(child[1]) for child in ordered]
    assert counts == sorted(counts, reverse=True)
