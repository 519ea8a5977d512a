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


# ------------------------------------------------------------ shared table, incumbent
RUN_RULES = ["classic", "single-pass", "classic,draw=1", "single-pass,redeals=1",
             "literal,move_unit=run"]


def _walk(seed: int, outside: int, rules: str, steps: int) -> list[Game]:
    """The positions of one random game from a late position, each without history."""
    import random

    game = late_position(seed, outside, rules)
    rng = random.Random(seed)
    out = [Game.from_position(game.position())]
    for _ in range(steps):
        moves = game.generate_moves(swaps=False)
        if not moves:
            break
        game.push(rng.choice(moves))
        out.append(Game.from_position(game.position()))
    return out


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), outside=st.integers(6, 14),
       rules=st.sampled_from(RUN_RULES), order=st.randoms(use_true_random=False))
def test_a_shared_table_keeps_every_value_right(
    seed: int, outside: int, rules: str, order: object
) -> None:
    """The positions of one game solved in any order with one table, each against the
    plain exhaustive search: what one search stored is true in every other."""
    import random

    from devilsgrip.solver.search import SharedTable

    spots = _walk(seed, outside, rules, 8)
    table = SharedTable(spots[0])
    assert isinstance(order, random.Random)
    for g in order.sample(spots, len(spots)):
        assert table.identify([*g.talon, *reversed(g.stock)]) is not None
        result = solve(g, time_limit=None, max_nodes=20_000, table=table)
        assert replay_score(g, result) == result.score
        if result.proven:
            try:
                exact = brute_force(g, limit=50_000)
            except RuntimeError:  # too big for the plain search
                continue
            assert result.score == exact, g.position()


def test_the_table_names_the_cards_of_later_positions() -> None:
    from devilsgrip.solver import play_game
    from devilsgrip.solver.clairvoyant import new_search
    from devilsgrip.solver.search import SharedTable

    game = Game(5)
    table = SharedTable(game)
    played = play_game(Game(5), "greedy")
    for move in played.move_stack[: len(played.move_stack) // 2]:
        game.push(move)
    assert 0 < game.score < 72
    search = new_search(Game.from_position(game.position()), table=table)
    assert search.tt is table.entries
    assert [table.seq[i] for i in search.orig] == search.seq
    assert search.orig == sorted(search.orig)
    assert bin(search.mask0).count("1") == len(table.seq) - len(search.seq)
    # another deal's cards do not fit: its search keeps a table of its own
    other = new_search(Game(6), table=table)
    assert other.tt is not table.entries and other.mask0 == 0
    # a card-mode search never shares (a value stored on a cycle holds only in it)
    literal = Game(5, rules="literal")
    shared = SharedTable(literal)
    own = new_search(literal, table=shared).tt
    assert own is not shared.entries and len(own) == 0


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["classic", "single-pass", "literal"])
def test_an_incumbent_line_is_beaten_or_kept(rules: str) -> None:
    game = Game(9, rules=rules)
    for move in ("d", "d"):
        game.play_text(move)
    known = solve(game, time_limit=0.2)
    kept = solve(game, time_limit=5, incumbent=known.moves)
    assert kept.score <= known.score
    assert replay_score(game, kept) == kept.score
    if kept.score == known.score:
        assert kept.moves == known.moves
    # a poor line to beat: the moves of a greedy player
    from devilsgrip.solver import play_game

    played = play_game(Game.from_position(game.position()), "greedy")
    beaten = solve(game, time_limit=1, incumbent=played.move_stack)
    assert beaten.score <= played.score and replay_score(game, beaten) == beaten.score


def test_an_incumbent_at_the_optimum_is_proven_as_it_stands() -> None:
    game = Game(1)
    best = solve(game, time_limit=10)
    assert best.proven
    again = solve(game, time_limit=10, incumbent=best.moves)
    assert (again.score, again.proven, again.moves) == (best.score, True, best.moves)
