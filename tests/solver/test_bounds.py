"""The solver's lower bound: never above the true optimum, exact where it must be."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any
from unittest.mock import patch

import pytest
from helpers import brute_force, late_position, replay_score, split_position
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver import RULES

from devilsgrip.cards import LEVEL_OF, N_CARDS, PREV
from devilsgrip.game import Game
from devilsgrip.notation import DEAL, REDEAL, MoveKind
from devilsgrip.rules import Rules
from devilsgrip.solver import core, solve
from devilsgrip.solver.bounds import Bounds, any_light, light_front
from devilsgrip.solver.clairvoyant import new_search
from devilsgrip.solver.grids import BOTTOM_FIELD, TOP_FIELD, nonzero
from devilsgrip.solver.lines import realize
from devilsgrip.solver.moves import TALON


def root_bound(game: Game) -> int:
    search = new_search(game)
    return search.lower_bound(search.grid0, search.p0, search.r0)


def walked_position(seed: int, outside: int, rules: str, steps: int, split: bool = False) -> Game:
    """A late position after ``steps`` random legal moves (deals, redeals and builds).

    The walk reaches what the bare late positions rarely show: an empty stock,
    redeals used up, spaces left empty, talons of every length.  ``split``
    starts from piles cut anywhere (many piles that can be emptied).
    """
    game = (split_position if split else late_position)(seed, outside, rules)
    rng = random.Random(seed * 31 + steps)
    for _ in range(steps):
        moves = game.generate_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
    return Game.from_position(game.position())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    outside=st.integers(2, 9),
    steps=st.integers(0, 12),
    rules=st.sampled_from(RULES),
    split=st.booleans(),
)
def test_bound_never_exceeds_the_optimum(
    seed: int, outside: int, steps: int, rules: str, split: bool
) -> None:
    game = walked_position(seed, outside, rules, steps, split)
    try:
        best = brute_force(game, limit=100_000)
    except RuntimeError:
        return
    assert root_bound(game) <= best, game.position()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    outside=st.integers(2, 8),
    steps=st.integers(0, 12),
    rules=st.sampled_from(RULES),
    split=st.booleans(),
)
def test_proven_results_match_exhaustive_search_after_random_moves(
    seed: int, outside: int, steps: int, rules: str, split: bool
) -> None:
    """The cross-check of every pruning rule on positions the walk reaches."""
    game = walked_position(seed, outside, rules, steps, split)
    try:
        expected = brute_force(game, limit=100_000)
    except RuntimeError:
        return
    result = solve(game, time_limit=20)
    assert result.proven
    assert result.score == expected, game.position()
    assert replay_score(game, result) == expected


@pytest.mark.parametrize("rules", ["single-pass", "literal", "single-pass,redeals=1"])
def test_bound_is_exact_when_the_talon_is_stuck(rules: str) -> None:
    # every talon card's predecessor is covered or under it: nothing can come in
    found = 0
    for seed in range(400):
        game = walked_position(seed, 3 + seed % 7, rules, 4 + seed % 9)
        if game.stock or not game.talon or game.redeals_left or not game.is_over():
            continue
        found += 1
        assert root_bound(game) == game.score == brute_force(game), game.position()
    assert found >= 5


def test_bound_sees_a_base_that_needs_its_own_pile() -> None:
    # the 2 of spades can only come in by filling a space; the only pile that
    # could be emptied is the 5 of spades, and it needs the 2 of spades on top
    text = (
        "5S8SJS,2S5S8SJS,3H6H9HQH,3D6D9DQD,3S6S9SQS,3H6H9HQH,3D6D9DQD,2H5H8HJH/"
        "4D7DTDKD,2D5D8DJD,4C7CTCKC,2C5C8CJC,4H7HTHKH,2H5H8HJH,4H7HTHKH,4D7DTDKD/"
        "2D5D8DJD,3C6C9CQC,3S6S9SQS,3C6C9CQC,4S7STSKS,4S7STSKS,2C5C8CJC,4C7CTCKC "
        "2S - 0 0 classic"
    )
    game = Game.from_position(text)
    assert root_bound(game) == 1 == brute_force(game)
    result = solve(game)
    assert result.proven and result.score == 1 and result.nodes <= 2


# ------------------------------------------------------------------ light chains
def light_chains(game: Game) -> list[tuple[int, int]]:
    """The chains (suit, sequence) with a copy of each of their four ranks outside the grid,
    counted card by card from the engine's grid."""
    inside = Counter(c for pile in game.grid for c in pile)
    return [(suit, k) for suit in range(4) for k in range(3)
            if all(inside[suit * 12 + k + 3 * level] <= 1 for level in range(4))]


def walked_positions(rules: str, seeds: range) -> list[Game]:
    """Walked positions with a card outside."""
    games = []
    for seed in seeds:
        game = walked_position(seed, 2 + seed % 10, rules, seed % 13, seed % 2 == 0)
        if game.stock or game.talon:
            games.append(game)
    return games


@pytest.mark.parametrize("rules", ["classic", "literal", "classic,move_unit=card",
                                   "classic,fill_from_talon=false"])
def test_a_space_is_made_only_while_a_chain_is_light(rules: str) -> None:
    """The fact the light-chain bounds rest on, move by move: a grid build that empties a
    cell (filled at once or left empty) finds some chain light, whatever the cells."""
    spaces = 0
    for seed in range(120):
        game = walked_position(seed, 4 + seed % 20, rules, 0, split=True)
        rng = random.Random(seed)
        for _ in range(40):
            if not (game.stock or game.talon):
                break
            light = bool(light_chains(game))
            assert light == any_light(nonzero(new_search(game).seqcount)), game.position()
            for move in game.generate_moves(swaps=False):
                if move.kind != MoveKind.BUILD:
                    continue
                before = game.score, sum(not pile for pile in game.grid)
                game.push(move)
                if game.score < before[0] or sum(not pile for pile in game.grid) > before[1]:
                    spaces += 1
                    assert light, game.position()
                game.pop()
            moves = game.generate_moves(swaps=False)
            if not moves:
                break
            game.push(rng.choice(moves))
    assert spaces >= 50


def test_the_light_bounds_never_exceed_the_optimum() -> None:
    raised = 0
    for rules in ("classic", "classic,redeals=1", "literal,redeals=unlimited",
                  "classic,fill_from_talon=false"):
        for game in walked_positions(rules, range(300)):
            with core.using(core.PYTHON), \
                    patch("devilsgrip.solver.bounds.any_light", lambda out: True), \
                    patch("devilsgrip.solver.bounds.light_front", lambda *args: 0):
                without = root_bound(game)
            bound = root_bound(game)
            try:
                best = brute_force(game, limit=100_000)
            except RuntimeError:
                continue
            assert bound <= best, game.position()
            raised += bound > without
    assert raised >= 5  # they add to the other bounds


@pytest.mark.parametrize("number", [2, 3, 8, 20])
def test_no_bound_fires_along_a_winning_line(number: int) -> None:
    """Deep positions of real deals (many cards out, light chains in play) won all the same:
    every bound says 0 at each of them, and the light chains in particular (near the end,
    with no chain light, only talon builds are left to make)."""
    game = Game(number)
    result = solve(game, time_limit=60)
    assert result.proven and result.score == 0
    light = 0
    for move in result.moves:
        search = new_search(game)
        if any_light(nonzero(search.seqcount)):
            light += 1
            assert light_front(search.seq, search.seqcount, search.p0, 3) == 0, game.position()
        assert root_bound(game) == 0, game.position()
        game.push(move)
    assert game.score == 0
    assert light >= len(result.moves) // 2


@given(out=st.lists(st.integers(0, N_CARDS - 1), max_size=40), p=st.integers(0, 40))
def test_the_light_bounds_follow_their_definition(out: list[int], p: int) -> None:
    seq = [c for i, c in enumerate(out) if out[:i].count(c) < 2]  # two copies at most
    p = min(p, len(seq))
    seqcount = sum(TOP_FIELD[c] for c in seq)

    def light(outside: list[int]) -> bool:
        return any(all(s * 12 + k + 3 * level in outside for level in range(4))
                   for s in range(4) for k in range(3))

    def bases(cards: list[int]) -> int:
        return sum(LEVEL_OF[c] == 0 for c in cards)

    assert any_light(nonzero(seqcount)) == light(seq)
    if p in (1, 2) or len(seq) < 2:
        expected = 0
    elif not light(seq[1:]):
        expected = bases(seq[1:3])  # they enter only after seq[0]
    elif len(seq) > 2 and LEVEL_OF[seq[2]] == 0 and not light(seq[2:]):
        expected = 1  # it enters only after seq[0] and seq[1]
    else:
        expected = 0
    assert light_front(seq, seqcount, p, 3) == expected
    assert light_front(seq, seqcount, p, 1) == 0


_GRID = (
    "2S,5S8SJS,5S8SJS,3D6D9DQD,3S6S9SQS,3H6H9HQH,3D6D9DQD,2H5H8HJH/"
    "4D7DTDKD,2D5D8DJD,4C7CTCKC,2C5C8CJC,4H7HTHKH,2H5H8HJH,4H7HTHKH,4D7DTDKD/"
    "2D5D8DJD,3C6C9CQC,3S6S9SQS,3C6C9CQC,4S7STSKS,4S7STSKS,2C5C8CJC,4C7CTCKC"
)
"""Two piles on a 5 of spades that may go onto the lone 2 of spades: two spaces to fill."""


@pytest.mark.parametrize(
    ("stock", "talon", "rules", "bound", "best"),
    [
        # two fills bring both bases in, then the rest follows
        ("2S3H6H9HQH", "-", "classic,draw=1", 0, 0),
        ("2S3H6H9HQH", "-", "classic", 0, 3),
        ("-", "QH9H6H3H2S", "single-pass", 0, 0),
        # no fill from the talon: the 2 of spades on top blocks everything
        ("-", "QH9H6H3H2S", "literal", 5, 5),
        # the 6 of hearts needs the 3 of hearts, which lies under it
        ("2S", "3HQH9H6H", "literal", 4, 5),
        # the stock is out: fills bring in the 6 and queen of hearts, the 9 goes on
        # the 6 and frees the queen's cell for the 2 of spades; nothing is left
        # for the 3 of hearts: the one 2 of spades top takes one 5 of spades pile,
        # so one space in all, and the counting bound sees it
        ("-", "3H2S9HQH6H", "single-pass", 4, 4),
    ],
)
def test_bound_on_fills_and_the_talon_stack(
    stock: str, talon: str, rules: str, bound: int, best: int
) -> None:
    game = Game.from_position(f"{_GRID} {stock} {talon} 0 0 {rules}")
    assert root_bound(game) == bound
    assert brute_force(game) == best
    result = solve(game)
    assert result.proven and result.score == best
    assert replay_score(game, result) == best


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    outside=st.integers(2, 30),
    steps=st.integers(0, 12),
    rules=st.sampled_from(RULES),
    split=st.booleans(),
)
def test_playout_candidates_are_the_entering_moves(
    seed: int, outside: int, steps: int, rules: str, split: bool
) -> None:
    """The playouts' lean move list is the search's list of entering moves, grids included."""
    game = walked_position(seed, outside, rules, steps, split)
    search = new_search(game)
    g, p, r, n = search.grid0, search.p0, search.r0, len(search.seq)
    full = sorted(
        (mv, g2, p2, r2, i) for mv, g2, p2, r2, i in search._moves(g, p, r, n) if i >= 0
    )
    lean = []
    for _key, mv, g2, p2, r2, i in search._candidates(g, p, r, n):
        _, kind, a, _ = mv
        if g2 is None:
            f = search.seq[i]
            if kind == TALON:
                g2 = g - TOP_FIELD[PREV[f]] + TOP_FIELD[f]
            else:
                g2 = g - TOP_FIELD[a - 3] - BOTTOM_FIELD[a] + TOP_FIELD[f] + BOTTOM_FIELD[f]
        lean.append((mv, g2, p2, r2, i))
    assert sorted(lean) == full, game.position()


@pytest.mark.parametrize("rules", ["classic", "single-pass", "literal"])
def test_playouts_alone_give_lines_that_replay(rules: str) -> None:
    for number in (1, 4):
        game = Game(number, rules=rules)
        search = new_search(game, time_limit=None, max_nodes=3000)
        search.best = len(search.seq)
        search.floor = search.lower_bound(search.grid0, search.p0, search.r0)
        search.deadline = float("inf")
        search._probe(2000)
        assert search.seq == [*game.talon, *reversed(game.stock)]  # unwound
        moves = realize(game, search.best_path)
        g = game.copy()
        for move in moves:
            g.play(move)
        assert g.score == search.best < game.score


_LAST_PASS_RULES = [
    "single-pass",
    "literal",
    "single-pass,draw=1",
    "literal,fill_from_talon=true",
    "single-pass,fill_from_talon=false",
    "single-pass,redeals=1",
]


def _stock_out(
    seed: int, outside: int, rules: str, steps: int, split: bool, stock_left: int = 0
) -> Game:
    """A walked position dealt on until no redeal is left and the stock is down to
    ``stock_left`` cards or fewer."""
    game = walked_position(seed, outside, rules, steps, split)
    while len(game.stock) > stock_left or game.redeals_left:
        game.push(DEAL if game.stock else REDEAL)
    return Game.from_position(game.position())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    outside=st.integers(2, 30),
    steps=st.integers(0, 10),
    rules=st.sampled_from(_LAST_PASS_RULES),
    split=st.booleans(),
    stock_left=st.integers(1, 20),
)
def test_last_pass_bound_never_exceeds_the_optimum(
    seed: int, outside: int, steps: int, rules: str, split: bool, stock_left: int
) -> None:
    """The talon bound in the last pass, with stock cards still to come.

    The search tries it only with few stock cards left; here it is tried always.
    """
    game = _stock_out(seed, outside, rules, steps, split, stock_left)
    try:
        best = brute_force(game, limit=100_000)
    except RuntimeError:
        return
    assert root_bound(game) <= best, game.position()
    with core.using("python"), patch("devilsgrip.solver.bounds.TALON_BOUND_STOCK", 96):
        assert root_bound(game) <= best, game.position()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    outside=st.integers(2, 40),
    steps=st.integers(0, 10),
    rules=st.sampled_from(_LAST_PASS_RULES),
    split=st.booleans(),
)
def test_end_of_pass_bound_never_exceeds_the_optimum(
    seed: int, outside: int, steps: int, rules: str, split: bool
) -> None:
    """The bound once the stock is out and no redeal is left (talon order forced).

    Such positions stay small for the exhaustive search even with 40 cards out.
    """
    game = _stock_out(seed, outside, rules, steps, split)
    try:
        best = brute_force(game, limit=100_000)
    except RuntimeError:
        return
    assert root_bound(game) <= best, game.position()


def test_end_of_pass_bound_is_mostly_exact() -> None:
    """Not vacuous: with 20 to 39 cards in the talon it meets the optimum most of the time.

    (The bound without the end-of-pass simulation met it on 43 of these 60.)
    """
    exact = 0
    for seed in range(60):
        rules = _LAST_PASS_RULES[seed % len(_LAST_PASS_RULES)]
        game = _stock_out(seed, 20 + seed % 20, rules, seed % 8, split=True)
        best = brute_force(game, limit=100_000)
        bound = root_bound(game)
        assert bound <= best, game.position()
        exact += bound == best
    assert exact >= 50


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    outside=st.integers(2, 40),
    steps=st.integers(0, 10),
    rules=st.sampled_from(_LAST_PASS_RULES),
    split=st.booleans(),
)
def test_stock_out_solves_match_exhaustive_search(
    seed: int, outside: int, steps: int, rules: str, split: bool
) -> None:
    game = _stock_out(seed, outside, rules, steps, split)
    try:
        expected = brute_force(game, limit=100_000)
    except RuntimeError:
        return
    result = solve(game, time_limit=20)
    assert result.proven
    assert result.score == expected, game.position()
    assert replay_score(game, result) == expected


def stack_bound(game: Game) -> int:
    """:meth:`Bounds._stack_bound` alone, at the root (with no redeal left)."""
    search = new_search(game)
    tops = 0
    bcount = 0
    for pile in game.grid:
        if pile:
            tops |= TOP_FIELD[pile[-1]]
            if LEVEL_OF[pile[0]]:
                bcount += TOP_FIELD[pile[0]]
    return search.bounds._stack_bound(search.seq, tops, bcount, search.p0)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    outside=st.integers(2, 30),
    steps=st.integers(0, 10),
    rules=st.sampled_from(_LAST_PASS_RULES),
    split=st.booleans(),
    stock_left=st.integers(1, 30),
)
def test_stack_bound_never_exceeds_the_optimum(
    seed: int, outside: int, steps: int, rules: str, split: bool, stock_left: int
) -> None:
    """Talon cards waiting for stock cards, on their own, with a stock and a talon."""
    game = _stock_out(seed, outside, rules, steps, split, stock_left)
    try:
        best = brute_force(game, limit=100_000)
    except RuntimeError:
        return
    assert stack_bound(game) <= best, game.position()


@pytest.mark.slow
def test_stack_bound_is_not_vacuous() -> None:
    """On last-pass positions with stock left it is sometimes above the rest of the bound."""
    above = 0
    for seed in range(150):
        rules = _LAST_PASS_RULES[seed % len(_LAST_PASS_RULES)]
        game = _stock_out(seed, 10 + seed % 25, rules, seed % 8, split=True,
                          stock_left=3 + seed % 15)
        with core.using("python"), patch.object(Bounds, "_stack_bound", lambda self, *args: 0):
            rest = root_bound(game)
        above += stack_bound(game) > rest
    assert above >= 3


@pytest.mark.parametrize(
    ("stock", "talon", "rules", "bound", "best"),
    [
        # the 6 of hearts waits for the 3 of hearts, dealt after the 2 of spades and
        # the 9 of hearts: with the 3 of hearts three cards need a fill before the
        # 6 of hearts can leave the talon, and only the two 5 of spades piles can
        # be emptied to make room
        ("2S9H3HQH", "6H", "single-pass", 1, 2),
        ("2S9H3HQH", "6H", "single-pass,draw=1", 1, 2),
        ("2S9H3H", "QH6H", "single-pass", 2, 3),
    ],
)
def test_bound_sees_talon_cards_waiting_for_the_stock(
    stock: str, talon: str, rules: str, bound: int, best: int
) -> None:
    game = Game.from_position(f"{_GRID} {stock} {talon} 0 0 {rules}")
    assert stack_bound(game) == bound
    assert root_bound(game) == bound
    assert brute_force(game) == best
    result = solve(game)
    assert result.proven and result.score == best
    assert replay_score(game, result) == best


def _stack_bound_by_definition(game: Game) -> int:
    """:meth:`Bounds._stack_bound` as its proof states it, without shortcuts
    (docs/solver.md#stack-bound)."""
    talon = list(reversed(game.talon))  # t_1 first
    stock = list(reversed(game.stock))  # s_1 first
    tops = {pile[-1] for pile in game.grid if pile}
    bottoms = [pile[0] for pile in game.grid if pile and LEVEL_OF[pile[0]]]
    fill = game.rules.fill_from_talon
    least = 0
    for j in range(1, len(talon) + 1):
        for m in range(least, len(stock) + 1):
            seen = tops | set(talon[:j - 1]) | set(stock[:m])
            blocked = [c for c in talon[:j] + stock[:m] if PREV[c] not in seen]
            talon_blocked = any(PREV[c] not in seen for c in talon[:j])
            live = sum(1 for b in bottoms if PREV[b] in seen)
            if talon_blocked and not (fill and m == len(stock)):
                continue
            if len(blocked) <= live:
                least = m
                break
        else:
            return len(talon) - j + 1
    return 0


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    outside=st.integers(2, 60),
    steps=st.integers(0, 10),
    rules=st.sampled_from(_LAST_PASS_RULES),
    split=st.booleans(),
    stock_left=st.integers(0, 40),
)
def test_stack_bound_follows_its_definition(
    seed: int, outside: int, steps: int, rules: str, split: bool, stock_left: int
) -> None:
    game = _stock_out(seed, outside, rules, steps, split, stock_left)
    assert stack_bound(game) == _stack_bound_by_definition(game), game.position()


def count_bound(game: Game) -> int:
    """:meth:`Bounds._count_bound` alone, at the root."""
    search = new_search(game)
    fixed = game.redeals_left == 0
    return search.bounds._count_bound(search.grid0, search.seq, search.p0, fixed)


def _deficit(cards: list[int], tops: Counter[int], bottoms: Counter[int]) -> int:
    """``-D`` of :meth:`Bounds._count_bound` for the entering set ``cards``."""
    entering = Counter(cards)
    total = 0
    for w in range(N_CARDS):
        if LEVEL_OF[w]:
            total += min(bottoms[w], tops[w - 3] + entering[w - 3] - entering[w])
        else:
            total -= entering[w]
    return -total


def _fills_keep_pace(
    above: list[int], stock: list[int], tops: Counter[int], bottoms: Counter[int]
) -> bool:
    """The blocked stock cards fill spaces when they come up (:meth:`Bounds._prefix_ok`)."""
    present = {c for c, n in tops.items() if n} | set(above) | set(stock)
    blocked = [not LEVEL_OF[c] or c - 3 not in present for c in stock]
    for i, is_blocked in enumerate(blocked):
        if not is_blocked:
            continue
        supply = Counter(above + stock[:i + 1])
        demand = Counter(c for c, b in zip(stock[:i + 1], blocked[:i + 1], strict=True) if b)
        total = 0
        for w in range(N_CARDS):
            if LEVEL_OF[w]:
                total += min(bottoms[w], tops[w - 3] + supply[w - 3] - demand[w])
            else:
                total -= demand[w]
        if total < 0:
            return False
    return True


def _tops_and_bottoms(game: Game) -> tuple[Counter[int], Counter[int]]:
    """The grid's tops and its non-base bottoms, counted per card."""
    tops = Counter(pile[-1] for pile in game.grid if pile)
    bottoms = Counter(pile[0] for pile in game.grid if pile and LEVEL_OF[pile[0]])
    return tops, bottoms


def _count_bound_by_definition(game: Game) -> int:
    """:meth:`Bounds._count_bound` as its proof states it, without shortcuts
    (docs/solver.md#counting-bound)."""
    talon = list(reversed(game.talon))  # t_1 first
    stock = list(reversed(game.stock))  # s_1 first
    tops, bottoms = _tops_and_bottoms(game)
    fill = game.rules.fill_from_talon
    stuck = 0
    if game.redeals_left == 0:
        least = 0
        for j in range(1, len(talon) + 1):
            for m in range(least, len(stock) + 1):
                entering = talon[:j] + stock[:m]
                if not (fill and m == len(stock)):
                    # no talon card has filled a space: each came in by a talon build
                    from_talon = Counter(talon[:j])
                    count = Counter(entering)
                    if any(
                        n > (tops[w - 3] + count[w - 3] if LEVEL_OF[w] else 0)
                        for w, n in from_talon.items()
                    ):
                        continue
                if _deficit(entering, tops, bottoms) > 0:
                    continue
                if not (fill and m == len(stock)) and not _fills_keep_pace(
                    talon[:j - 1], stock[:m], tops, bottoms
                ):
                    continue
                least = m
                break
            else:
                stuck = len(talon) - j + 1
                break
    rest = talon[:len(talon) - stuck] + stock
    return stuck + max(0, _deficit(rest, tops, bottoms))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    outside=st.integers(2, 70),
    steps=st.integers(0, 10),
    rules=st.sampled_from([*_LAST_PASS_RULES, *RULES]),
    split=st.booleans(),
    stock_left=st.integers(0, 60),
    last_pass=st.booleans(),
)
def test_count_bound_follows_its_definition(
    seed: int, outside: int, steps: int, rules: str, split: bool, stock_left: int,
    last_pass: bool,
) -> None:
    if last_pass and Rules.parse(rules).redeals is not None:
        game = _stock_out(seed, outside, rules, steps, split, stock_left)
    else:
        game = walked_position(seed, outside, rules, steps, split)
    assert count_bound(game) == _count_bound_by_definition(game), game.position()


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    outside=st.integers(2, 30),
    steps=st.integers(0, 10),
    rules=st.sampled_from([*_LAST_PASS_RULES, *RULES]),
    split=st.booleans(),
    stock_left=st.integers(0, 20),
)
def test_count_bound_never_exceeds_the_optimum(
    seed: int, outside: int, steps: int, rules: str, split: bool, stock_left: int
) -> None:
    """The counting bound on its own, in every pass, with or without stock left."""
    if Rules.parse(rules).redeals is not None:
        game = _stock_out(seed, outside, rules, steps, split, stock_left)
    else:
        game = walked_position(seed, outside, rules, steps, split)
    try:
        best = brute_force(game, limit=100_000)
    except RuntimeError:
        return
    assert count_bound(game) <= best, game.position()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    outside=st.integers(2, 70),
    steps=st.integers(0, 30),
    rules=st.sampled_from([*_LAST_PASS_RULES, *RULES]),
    split=st.booleans(),
)
def test_counts_balance_whenever_every_cell_is_occupied(
    seed: int, outside: int, steps: int, rules: str, split: bool
) -> None:
    """With every cell occupied the counting sum ``D`` of all the cards out is exactly
    0 (the identity that lets the bound skip it), and the bound with it."""
    game = walked_position(seed, outside, rules, steps, split)
    if not all(game.grid):
        return
    tops, bottoms = _tops_and_bottoms(game)
    assert _deficit([*game.talon, *game.stock], tops, bottoms) == 0
    search = new_search(game)
    assert search.bounds._count_bound(search.grid0, search.seq, search.p0, False) == 0


def test_a_space_lets_the_counting_bound_bite() -> None:
    """The identity needs every cell occupied: with a space that nothing can fill, the
    base out has no pile to be emptied for it."""
    game = Game.from_position(
        "2S5S8SJS,2S5S8SJS,2H5H8HJH,2H5H8HJH,2D5D8DJD,2D5D8DJD,2C5C8CJC,-/"
        "3S6S9SQS,3S6S9SQS,3H6H9HQH,3H6H9HQH,3D6D9DQD,3D6D9DQD,3C6C9CQC,3C6C9CQC/"
        "4S7STSKS,4S7STSKS,4H7HTHKH,4H7HTHKH,4D7DTDKD,4D7DTDKD,4C7CTCKC,2C5C8CJC"
        " - KCTC7C4C 0 0 literal")
    search = new_search(game)
    assert search.bounds.piles(search.grid0) == 23
    assert search.bounds._count_bound(search.grid0, search.seq, search.p0, False) == 1
    assert search.lower_bound(search.grid0) == 4  # the base on top keeps all four out


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10**9), rules=st.sampled_from([*_LAST_PASS_RULES, *RULES]))
def test_counts_balance_at_every_deal(seed: int, rules: str) -> None:
    """At a deal every cell holds one card, both its top and its bottom, so the
    counting sum ``D`` is the 24 cards of the grid less the 24 bases of the deck:
    exactly 0 whatever the order (the README's reason why no count alone can
    show a loss from the deal on)."""
    game = Game(rng=random.Random(seed), rules=rules)
    tops, bottoms = _tops_and_bottoms(game)
    assert _deficit(list(game.stock), tops, bottoms) == 0
    assert count_bound(game) == 0


@pytest.mark.slow
def test_count_bound_is_not_vacuous() -> None:
    """With stock left in the last pass it is often above all the other bounds."""
    above = 0
    for seed in range(100):
        rules = _LAST_PASS_RULES[seed % len(_LAST_PASS_RULES)]
        game = _stock_out(seed, 10 + seed % 25, rules, seed % 8, split=True,
                          stock_left=3 + seed % 15)
        with core.using("python"), patch.object(Bounds, "_count_bound", lambda self, *args: 0):
            rest = root_bound(game)
        above += count_bound(game) > rest
    assert above >= 10


def test_count_bound_sees_fills_that_cannot_keep_pace() -> None:
    """Deal 2 of single-pass, mid-game: the 7 of hearts on the talon needs the 4 of
    hearts, thirteenth in the stock; the bases and the cards with no predecessor
    to come before it must fill spaces as they come up, and four live piles are
    not enough for five of them, so the 7 and the talon under it never leave."""
    game = Game.from_position(
        "8CJC,7DTDKD,2C5C,4H7HTH,2D5D8DJD,2C,2H5H8H,4C7CTCKC/8C,4S7STSKS,2S5S,3H6H9HQH,QC"
        ",3D6D9DQD,6S9SQS,6C/8HJH,4S,2S,3H6H9HQH,JC,5D,3C,3S6S9SQS"
        " "
        "4D4CQDJDKHTH7D2H9C7S5H8D4H2D3C8S3D3SQC "
        "TC8S5S6DKH4DTS9DKSJSKCKD9C7CJHJS6C5CTD7H 0 44 single-pass"
    )
    best = solve(game, time_limit=20)
    assert best.proven and best.score == 25
    assert count_bound(game) == 24
    with core.using("python"), patch.object(Bounds, "_prefix_ok", lambda self, *args: True):
        assert count_bound(game) == 12


def root_safe_build(search: Any) -> object:
    """The safe build's child at the root, or None."""
    return search._safe_build(search.grid0, search.seq, search.seqcount, search.p0, search.r0)


@pytest.mark.slow
def test_a_safe_talon_build_keeps_the_optimum() -> None:
    """:meth:`RunSearch._safe_build`: where the search takes the talon build as the only
    child, the position after it is worth exactly the position before (plain
    exhaustive search of engine states), and so are the search's results."""
    checked = 0
    for seed in range(400):
        rules = ["single-pass", "single-pass,draw=1", "single-pass,fill_from_talon=false",
                 "single-pass,redeals=1"][seed % 4]
        game = _stock_out(seed, 6 + seed % 14, rules, seed % 7, split=seed % 2 == 0,
                          stock_left=seed % 9)
        search = new_search(game)
        if not game.talon or root_safe_build(search) is None:
            continue
        after = game.copy()
        build = next(m for m in after.generate_moves() if m.kind == MoveKind.TALON)
        after.push(build)
        try:
            before_value = brute_force(game, limit=60_000)
            after_value = brute_force(after, limit=60_000)
        except RuntimeError:
            continue
        assert after_value == before_value, game.position()
        result = solve(game, time_limit=20)
        assert result.proven and result.score == before_value, game.position()
        checked += 1
    assert checked >= 40


def test_no_safe_talon_build_while_the_other_copy_is_to_come() -> None:
    """The jack of clubs tops the talon and its 8 is a top, but the other jack of
    clubs is still in the stock: building this one at once loses a card (found by
    a search of random positions), so :meth:`RunSearch._safe_build` must not."""
    _check_building_at_once_loses(
        "3D6D9D,TCKC,6S9S,2S5S8SJS,3S6S9S,4D7DTDKD,2H,3H6H9HQH/"
        "3C6C9CQC,4D7DTDKD,2D5D8DJD,3H6H9HQH,3D6D9DQD,2C5C8C,4C7CTCKC,4H7HTHKH/"
        "5C,7STSKS,2S5S8SJS,2D5D8D,2H5H8HJH,4H7HTHKH,8HJH,7STSKS "
        "5H2CQC9C6C3SJC4S4S 3CQD7C8CQSQS4CJDJC 0 7 single-pass,draw=1",
        best=9, after_build=10,
    )


def _check_building_at_once_loses(position: str, best: int, after_build: int) -> None:
    """The position is worth ``best`` and ``after_build`` once its talon build is made
    (exhaustive search); the search does not take the build as safe, and proves
    ``best``."""
    game = Game.from_position(position)
    after = game.copy()
    after.push(next(m for m in after.generate_moves() if m.kind == MoveKind.TALON))
    assert (brute_force(game), brute_force(after)) == (best, after_build)
    search = new_search(game)
    assert root_safe_build(search) is None
    result = solve(game, time_limit=20)
    assert result.proven and result.score == best


def test_no_safe_talon_build_while_a_pile_waits_for_the_same_top() -> None:
    """The 10 of hearts tops the talon and a 7 of hearts is a top, but a pile has the
    other 10 of hearts at its bottom and needs that 7 to be emptied: building at
    once loses three cards (found by a search of random positions)."""
    _check_building_at_once_loses(
        "4S7STSKS,3D6D9D,8S,2D5D8DJD,3H6H9HQH,4H7H,2C5C8CJC,2C5C8CJC/"
        "2D5D8DJD,3D6D9D,3C6C9CQC,4D7DTDKD,9C,4C7CTCKC,3H6H9H,2H5H8HJH/"
        "7STSKS,3S6S9S,THKH,5H8HJH,3S6S9SQS,7CTCKC,2S5S8SJS,4D7D "
        "QHJS4HKD4CQD4S 3C2HQSQC6C2STD7HKH5SQDTH 0 6 single-pass",
        best=13, after_build=16,
    )


@pytest.mark.slow
def test_moves_past_a_safe_build_are_left_out_soundly() -> None:
    """:meth:`RunSearch._safe_cut`: when a deal or more would bring up a card whose talon
    build is safe, the search leaves out every move at a later cut; its results
    still match the plain exhaustive search."""
    checked = 0
    for seed in range(600):
        rules = ["single-pass", "single-pass,draw=1", "single-pass,redeals=1"][seed % 3]
        game = _stock_out(seed, 8 + seed % 12, rules, seed % 5, split=seed % 2 == 0,
                          stock_left=3 + seed % 8)
        search = new_search(game)
        cuts = search._cuts(search.p0, len(search.seq), search.r0)
        safe = search._safe_cut(search.grid0, search.r0, cuts)
        if safe is None or safe == search.p0:
            continue
        try:
            expected = brute_force(game, limit=60_000)
        except RuntimeError:
            continue
        result = solve(game, time_limit=20)
        assert result.proven and result.score == expected, game.position()
        assert replay_score(game, result) == expected
        checked += 1
    assert checked >= 40


def test_moves_before_a_safe_build_are_kept() -> None:
    """Three deals on, the talon build of the card then on top is safe, but a move
    before it is needed: without the moves at the earlier cuts the search ends
    one card worse (a position found by a search of random positions)."""
    game = Game.from_position(
        "TC,4H7HTHKH,2D5D8DJD,8CJC,2S5S8SJS,3D6D,4S7STSKS,3H6H9HQH/"
        "4H7HTHKH,3D6D9DQD,TDKD,2H5H8HJH,4C7CTCKC,2D5D8DJD,3C6C9CQC,2H5H8H/"
        "3S6S9SQS,8S,4D,6H9HQH,3S6S,QD,2C,2C5C8CJC "
        "KD4CQCKS6C4D9STS4SJSJH7D9D 3H9C2SQSKC5S7STD5C7C3C7D 0 11 single-pass,draw=1"
    )
    search = new_search(game)
    cuts = search._cuts(search.p0, len(search.seq), search.r0)
    assert search._safe_cut(search.grid0, search.r0, cuts) > search.p0
    assert brute_force(game) == 17
    result = solve(game, time_limit=20)
    assert result.proven and result.score == 17
