"""The two search cores, compiled and pure Python, do the same work.

The compiled core (``devilsgrip.solver._core``) must give the same node counts,
scores, bounds and lines as the pure-Python reference, in every preset: on the
fixed-budget harness (``test_fixed_budget.py`` runs its cases under each core)
and here on random positions, for the optimizing search, the portfolio (the win
search beside it), the win hunt with a redeal left, a shared table, and the lower
bound alone.
"""

from __future__ import annotations

import gc
import importlib
import os
import random
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

import pytest
from helpers import late_position, split_position
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from devilsgrip import cli
from devilsgrip.cards import GRID_SIZE, LEVEL_OF, N_CARDS, PREV
from devilsgrip.game import Game, MoveKind
from devilsgrip.solver import core, portfolio
from devilsgrip.solver.bounds import bases_unmatched
from devilsgrip.solver.clairvoyant import new_search, solve
from devilsgrip.solver.players import candidate_moves, honest_move, information_state
from devilsgrip.solver.rollouts import (
    ModelMove,
    Table,
    model_move,
    order_scores,
    rollout_scores,
    table_of,
)
from devilsgrip.solver.search import SharedTable, shed
from devilsgrip.solver.winnable import Relaxation, new_win_search, prove_winnable
from devilsgrip.solver.wins import can_win

needs_compiled = pytest.mark.skipif(
    not core.available(), reason="the compiled search core is not built here")

PRESETS = ["classic", "single-pass", "literal"]
RULES = [*PRESETS, "classic,draw=1", "classic,redeals=1", "single-pass,redeals=1",
         "single-pass,move_unit=card", "literal,move_unit=run", "classic,fill_from_talon=false",
         "literal,redeals=unlimited"]


def both(work: Callable[[], Any]) -> tuple[Any, Any]:
    """``work()`` under the pure core, then under the compiled core."""
    with core.using(core.PYTHON):
        pure = work()
    with core.using(core.COMPILED):
        compiled = work()
    return pure, compiled


def walked(seed: int, outside: int, rules: str, steps: int, split: bool) -> Game:
    """A late position after ``steps`` random legal moves, without history."""
    game = (split_position if split else late_position)(seed, outside, rules)
    rng = random.Random(seed * 31 + steps)
    for _ in range(steps):
        moves = game.generate_moves(swaps=False)
        if not moves:
            break
        game.push(rng.choice(moves))
    return Game.from_position(game.position())


def summary(result: Any) -> tuple[Any, ...]:
    return (result.score, result.proven, result.bound, result.nodes,
            tuple(m.text() for m in result.moves))


positions = {
    "seed": st.integers(0, 10**6),
    "outside": st.integers(4, 40),
    "rules": st.sampled_from(RULES),
    "steps": st.integers(0, 8),
    "split": st.booleans(),
}


@needs_compiled
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**positions, budget=st.integers(1, 3000))
def test_the_search_does_the_same_work(seed: int, outside: int, rules: str, steps: int,
                                       split: bool, budget: int) -> None:
    game = walked(seed, outside, rules, steps, split)
    pure, compiled = both(lambda: summary(solve(game, time_limit=None, max_nodes=budget)))
    assert pure == compiled, game.position()


@needs_compiled
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**positions, budget=st.integers(1, 2000))
def test_the_portfolio_does_the_same_work(seed: int, outside: int, rules: str, steps: int,
                                          split: bool, budget: int) -> None:
    """The optimizing search, then the win search (with no redeal left) on a node budget."""
    game = walked(seed, outside, rules, steps, split)

    def work() -> tuple[Any, ...]:
        result = portfolio.solve(game, time_limit=None, max_nodes=budget)
        return (*summary(result), result.extra.get("win"))

    pure, compiled = both(work)
    assert pure == compiled, game.position()


@needs_compiled
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**positions, budget=st.integers(1, 20_000))
def test_the_win_searches_do_the_same_work(seed: int, outside: int, rules: str, steps: int,
                                           split: bool, budget: int) -> None:
    """The win search with no redeal left, the win hunt with one."""
    game = walked(seed, outside, rules, steps, split)

    def work() -> tuple[Any, ...]:
        found = can_win(game, time_limit=None, max_nodes=budget)
        return found.outcome, found.nodes, tuple(m.text() for m in found.moves)

    pure, compiled = both(work)
    assert pure == compiled, game.position()


@needs_compiled
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**positions, budget=st.integers(1, 20_000), entries=st.integers(4, 3_000))
def test_a_table_smaller_than_the_search_keeps_the_same_positions(
        seed: int, outside: int, rules: str, steps: int, split: bool, budget: int,
        entries: int) -> None:
    """A table cleared (and grown) again and again while the positions below a node are
    searched: the compiled core stores each value where it last found its position's
    key, and must then keep exactly the positions and values the pure core keeps."""
    game = walked(seed, outside, rules, steps, split)

    def work() -> tuple[tuple[Any, ...], Any]:
        search = new_search(game, time_limit=None, max_nodes=budget, tt_entries=entries)
        result = search.run()
        return (result.score, result.proven, result.bound, result.nodes), search.tt

    (pure, pure_table), (compiled, compiled_table) = both(work)
    assert pure == compiled, game.position()
    assert len(compiled_table) == len(pure_table), game.position()
    assert all(compiled_table[key] == value for key, value in pure_table.items())


@needs_compiled
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(1, 10**6),
       rules=st.sampled_from(["single-pass", "literal", "single-pass,draw=1"]),
       budget=st.integers(1, 3_000), entries=st.integers(4, 300))
def test_a_win_search_with_few_dead_entries_keeps_the_same_positions(
        number: int, rules: str, budget: int, entries: int) -> None:
    """The win search's positions proven lost, kept in far fewer entries than it proves
    (whole deals: later positions are mostly lost at once): a full set keeps those
    nearest the root, and both cores keep the same ones."""
    game = Game(number, rules=rules)

    def work() -> tuple[tuple[Any, ...], Any]:
        search = new_win_search(game, time_limit=None, max_nodes=budget, dead_entries=entries)
        return (search.prove(), search.nodes), search.dead

    (pure, pure_dead), (compiled, compiled_dead) = both(work)
    assert pure == compiled, number
    assert len(compiled_dead) == len(pure_dead) <= entries, number
    assert all(compiled_dead.get(key) == 0 for key in pure_dead)


@needs_compiled
@pytest.mark.parametrize("rules", PRESETS)
@pytest.mark.parametrize("number", [401, 402])
def test_whole_deals_do_the_same_work(number: int, rules: str) -> None:
    game = Game(number, rules=rules)
    pure, compiled = both(lambda: summary(solve(game, time_limit=None, max_nodes=4000)))
    assert pure == compiled


@needs_compiled
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), outside=st.integers(8, 20),
       rules=st.sampled_from(["classic", "single-pass", "classic,redeals=1"]))
def test_a_shared_table_does_the_same_work(seed: int, outside: int, rules: str) -> None:
    """The positions of one game solved in turn with one table, as a review does."""
    start = late_position(seed, outside, rules)
    rng = random.Random(seed)
    games = [start.copy()]
    walk = start.copy()
    for _ in range(6):
        moves = walk.generate_moves(swaps=False)
        if not moves:
            break
        walk.push(rng.choice(moves))
        games.append(Game.from_position(walk.position()))

    def work() -> list[tuple[Any, ...]]:
        table = SharedTable(games[0])
        return [summary(solve(g, time_limit=None, max_nodes=1500, table=table))
                for g in reversed(games)]

    pure, compiled = both(work)
    assert pure == compiled


@needs_compiled
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**positions, best=st.integers(1, 60), walk=st.integers(0, 30))
def test_the_lower_bounds_agree(seed: int, outside: int, rules: str, steps: int, split: bool,
                                best: int, walk: int) -> None:
    """At positions along a random line, for any score to beat (a win asked or not)."""
    game = walked(seed, outside, rules, steps, split)
    rng = random.Random(seed + walk)
    for _ in range(walk + 1):
        def bound() -> int:
            search = new_search(game)
            search.best = best
            return search.lower_bound(search.grid0, search.p0, search.r0)

        pure, compiled = both(bound)
        assert pure == compiled, (game.position(), best)
        moves = game.generate_moves(swaps=False)
        if not moves:
            break
        game.push(rng.choice(moves))


@needs_compiled
def test_a_position_with_no_card_out_is_won_by_both() -> None:
    game = late_position(7, 0, "single-pass")
    pure, compiled = both(lambda: prove_winnable(game, time_limit=None).outcome)
    assert pure == compiled == "won"


# ------------------------------------------------------------------ the core chosen
@needs_compiled
def test_the_compiled_table_is_a_mapping_of_run_keys() -> None:
    with core.using(core.COMPILED):
        module = core.compiled()
    assert module is not None
    table = module.Table()
    key = (3 | 5 << 100, 1 << 70, 4, 2)
    assert table.get(key) is None and key not in table and len(table) == 0
    table[key] = 7
    table[(3, 0, 4)] = 1  # no redeals in the key (unlimited redeals)
    assert table.get(key) == 7 and table[key] == 7 and key in table and len(table) == 2
    assert table.get((3, 0, 4, 2)) is None
    table.clear()
    assert len(table) == 0 and table.get(key) is None
    table[key] = 7
    card = ((16 * 48 + 16, 13 * 48 + 19, 16 * 48 + 16), 0, 5)  # a card-mode grid
    table[card] = 3
    assert table.get(card) == 3
    assert table.get(((16 * 48 + 16, 16 * 48 + 16, 13 * 48 + 19), 0, 5)) == 3  # any order
    assert table.get(((16 * 48 + 16, 13 * 48 + 19), 0, 5)) is None
    with pytest.raises(ValueError, match="suit sequence"):
        table.get(((16 * 48 + 17,), 0, 5))
    with pytest.raises(TypeError):
        table.get((1, 2))
    with pytest.raises(ValueError):
        table[key] = -1


@needs_compiled
def test_the_compiled_table_keeps_the_largest_key_fields_exactly() -> None:
    """A slot packs the cut, the redeals done and the value into bits no key uses (48
    bytes a slot): the largest of each is kept, and keys that differ in one field alone
    are different keys."""
    module = importlib.import_module("devilsgrip.solver._core")
    table = module.Table()
    full = (1 << 96) - 1
    grid = full | full << 96
    edge = (grid, full, 255, 2**32 - 2)
    table[edge] = 254
    neighbours = [(grid, full, 254, 2**32 - 2), (grid, full, 255, 2**32 - 3),
                  (grid, full >> 1, 255, 2**32 - 2), (grid >> 1, full, 255, 2**32 - 2),
                  (grid, full, 255), (grid, full, 255, 0)]
    for value, key in enumerate(neighbours):
        assert table.get(key) is None
        table[key] = value
    assert table[edge] == 254 and len(table) == 1 + len(neighbours)
    assert [table[key] for key in neighbours] == list(range(len(neighbours)))


@needs_compiled
@pytest.mark.parametrize("key", [(0, 1 << 96, 0), (0, 0, 256), (0, 0, -1), (0, 0, 0, -1),
                                 (0, 0, 0, 2**32 - 1)])
def test_the_compiled_table_refuses_a_key_it_cannot_hold(key: tuple[int, ...]) -> None:
    """A search never makes such a key (at most 96 cards are outside the grid); the
    mapping says so rather than keep a wrong one."""
    table = importlib.import_module("devilsgrip.solver._core").Table()
    with pytest.raises(ValueError, match=r"out of range|0 or more"):
        table[key] = 1
    with pytest.raises(ValueError, match=r"out of range|0 or more"):
        table.get(key)
    with pytest.raises(ValueError, match="0 to 254"):
        table[(0, 0, 0)] = 255
    assert len(table) == 0


run_keys = st.tuples(st.integers(0, 2**192 - 1), st.integers(0, 2**96 - 1),
                     st.integers(0, 255)) | st.tuples(
    st.integers(0, 2**192 - 1), st.integers(0, 2**96 - 1), st.integers(0, 255),
    st.integers(0, 2**32 - 2))


@needs_compiled
@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(run_keys, st.integers(0, 254)), max_size=3000),
       st.lists(run_keys, max_size=50))
def test_the_compiled_table_is_a_dict_of_the_keys_it_holds(
        items: list[tuple[tuple[int, ...], int]], others: list[tuple[int, ...]]) -> None:
    """Through its growths (from 1,024 slots), the table answers as a dict would."""
    table = importlib.import_module("devilsgrip.solver._core").Table()
    expected: dict[tuple[int, ...], int] = {}
    for key, value in items:
        table[key] = value
        expected[key] = value
    assert len(table) == len(expected)
    assert all(table[key] == value for key, value in expected.items())
    assert all(table.get(key) == expected.get(key) for key in others)


masks = st.builds(lambda bits, shift: bits >> shift, st.integers(0, 2**96 - 1),
                  st.integers(0, 96))


@needs_compiled
@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2**192 - 1), masks, st.integers(0, 255),
                          st.integers(0, 254)), max_size=3000))
def test_a_full_table_keeps_the_positions_nearest_the_root(
        items: list[tuple[int, int, int, int]]) -> None:
    """A full table (through its growths, from 1,024 slots) keeps the positions with the
    fewest cards taken, as many as half its entries allow, whole depths, in both cores."""
    table = importlib.import_module("devilsgrip.solver._core").Table()
    expected: dict[tuple[int, ...], int] = {}
    for grid, mask, cut, value in items:
        table[(grid, mask, cut)] = value
        expected[(grid, mask, cut)] = value
    before = dict(expected)
    shed(expected)
    table.shed()
    assert len(table) == len(expected) <= len(before) // 2
    assert all(table[key] == value for key, value in expected.items())
    kept = {key[1].bit_count() for key in expected}
    dropped = {key[1].bit_count() for key in before if key not in expected}
    assert not kept or not dropped or max(kept) < min(dropped)
    if dropped:  # the next depth would have made it more than half
        nearest = min(dropped)
        assert len(expected) + sum(1 for key in before if key[1].bit_count() == nearest) > \
            len(before) // 2
    assert all(before[key] == value for key, value in expected.items())


@pytest.mark.parametrize("rules", PRESETS)
def test_a_search_is_freed_as_soon_as_it_is_dropped(rules: str) -> None:
    """No reference cycle keeps a search (and its table) alive after its last use: the
    cyclic collector, which a table's memory does not prompt, is not waited for."""
    game = late_position(3, 20, rules)
    gc.disable()
    try:
        search = new_search(game, time_limit=None, max_nodes=5_000)
        search.run()
        gone = weakref.ref(search)
        del search
        assert gone() is None
    finally:
        gc.enable()


def test_the_compiled_core_is_built_where_the_suite_runs_in_ci() -> None:
    """CI machines have a C compiler: a core that fails to build there must fail the
    suite, not leave the compiled core's tests skipped."""
    if not os.environ.get("CI"):
        pytest.skip("not in CI")
    assert core.available(), "the compiled search core did not build"


def test_a_core_is_chosen_by_name() -> None:
    with core.using(core.PYTHON):
        assert core.name() == "pure Python"
        assert core.compiled() is None
    if core.available():
        with core.using(core.COMPILED):
            assert core.name() == "compiled"
    else:
        with pytest.raises(core.CoreError, match="not built"), core.using(core.COMPILED):
            pass
    with pytest.raises(core.CoreError, match="names no search core"), core.using("fast"):
        pass


def test_the_version_names_the_core(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--version"])
    assert f"search core: {core.name()}" in capsys.readouterr().out


def pile_for_every_base_case(seed: int, outside: int, talon: int) -> tuple[
        list[int], list[int], list[int], int]:
    """Counts of tops and bottoms and a sequence cut at ``talon``, from a shuffled deck: as
    many non-base bottoms as bases outside (so that the test reads on past its first
    count), the tops drawn from the cards left."""
    rng = random.Random(seed)
    deck = [c for c in range(N_CARDS) for _ in range(2)]
    rng.shuffle(deck)
    seq, rest = deck[:outside], deck[outside:]
    tops = [0] * N_CARDS
    bots = [0] * N_CARDS
    bases = sum(1 for c in seq if not LEVEL_OF[c])
    for c in [c for c in rest if LEVEL_OF[c]][:bases]:
        bots[c] += 1
    for c in rng.sample(rest, min(len(rest), rng.randint(0, GRID_SIZE))):
        tops[c] += 1
    return tops, bots, seq, min(talon, outside)


@needs_compiled
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), outside=st.integers(1, 72), talon=st.integers(0, 12),
       fill=st.booleans())
def test_a_pile_for_every_base_is_read_alike(seed: int, outside: int, talon: int,
                                             fill: bool) -> None:
    """The compiled core's test of a pile for every base answers as the reference does."""
    tops, bots, seq, p = pile_for_every_base_case(seed, outside, talon)
    compiled = importlib.import_module("devilsgrip.solver._core")
    assert compiled.bases_unmatched(tops, bots, seq, p, fill) == bases_unmatched(
        tops, bots, seq, p, fill)


@needs_compiled
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), outside=st.integers(4, 40),
       rules=st.sampled_from(["single-pass", "literal", "single-pass,draw=1",
                              "literal,fill_from_talon=true"]),
       steps=st.integers(0, 8), split=st.booleans(), budget=st.sampled_from([50, 2000, None]))
def test_the_relaxations_do_the_same_work(seed: int, outside: int, rules: str, steps: int,
                                          split: bool, budget: int | None) -> None:
    """The monotone relaxation's verdict and nodes, with and without a node budget."""
    game = walked(seed, outside, rules, steps, split)

    def work() -> tuple[bool | None, int]:
        relaxation = Relaxation.of_game(game)
        return relaxation.winnable(budget), relaxation.nodes

    pure, compiled = both(work)
    assert pure == compiled, game.position()


@needs_compiled
def test_whole_deals_relax_alike() -> None:
    """From the deal, where the relaxation settles (lost, won) or runs out of nodes."""
    seen = set()
    for number in range(1, 13):
        for rules in ("single-pass", "literal"):
            game = Game(number, rules=rules)

            def work(game: Game = game) -> tuple[bool | None, int]:
                relaxation = Relaxation.of_game(game)
                return relaxation.winnable(5000), relaxation.nodes

            pure, compiled = both(work)
            assert pure == compiled, (number, rules)
            seen.add(pure[0])
    assert seen == {True, False, None}


ROLLOUT_RULES = ["single-pass", "literal", "single-pass,move_unit=card", "literal,move_unit=run",
                 "literal,draw=1", "single-pass,fill_from_talon=false"]


def one_pass_game(number: int, rules: str, picks: list[int]) -> Game:
    """Deal ``number`` after the random legal moves ``picks`` choose (no swap, no redeal)."""
    game = Game(number, rules=rules)
    for pick in picks:
        legal = [m for m in game.generate_moves(swaps=False) if m.kind != MoveKind.REDEAL]
        if not legal:
            break
        game.push(legal[pick % len(legal)])
    return game


@needs_compiled
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(1, 10**6), rules=st.sampled_from(ROLLOUT_RULES),
       picks=st.lists(st.integers(0, 10**6), max_size=120), order=st.randoms(use_true_random=False),
       horizon=st.sampled_from([0, 1, 5, 30, 10**6]))
def test_rollouts_of_one_order_agree(number: int, rules: str, picks: list[int],
                                     order: random.Random, horizon: int) -> None:
    """Every candidate move's rollout on one stock order: the same scores and steps."""
    game = one_pass_game(number, rules, picks)
    view = game.view(with_legal=False)
    moves = [model_move(m) for m in candidate_moves(view.grid, view.talon, view.stock_count, view)
             if m.kind != MoveKind.REDEAL]
    stock = list(view.unseen)
    order.shuffle(stock)
    root = table_of(view, stock)
    before = root.copy()
    pure, compiled = both(lambda: order_scores(root, moves, horizon))
    assert pure == compiled, game.position()
    assert root == before  # the root is read, not played on
    assert len(pure[0]) == len(moves)


@needs_compiled
@pytest.mark.parametrize("rules", ROLLOUT_RULES)
@pytest.mark.parametrize("number", [3, 4])
def test_the_honest_player_rolls_out_alike(number: int, rules: str) -> None:
    """The rollouts' scores over many orders, and the move chosen, on whole games."""
    game = one_pass_game(number, rules, list(range(7, 200, 37)))
    view = game.view(with_legal=False)
    moves = [m for m in candidate_moves(view.grid, view.talon, view.stock_count, view)
             if m.kind != MoveKind.REDEAL]
    pure, compiled = both(lambda: rollout_scores(view, moves, random.Random(number), 20_000))
    assert pure == compiled
    info = information_state(game)
    pure_move, compiled_move = both(lambda: honest_move(info, number, 0.05, 6))
    assert pure_move == compiled_move


def random_table(rng: random.Random, run: bool) -> tuple[Table, list[ModelMove]]:
    """A model position of piles drawn at random (not always one a game reaches, which
    tries the base policy's corners: long runs of peels, spaces left empty), and every
    move of the model there."""
    cells = []
    for _ in range(GRID_SIZE):
        if rng.random() < 0.15:
            cells.append(-1)
            continue
        b = rng.randrange(N_CARDS)
        top = b + 3 * rng.randrange((11 - b % 12) // 3 + 1)
        cells.append(b * N_CARDS + top)
    stock = [rng.randrange(N_CARDS) for _ in range(rng.randrange(30))]
    talon = [rng.randrange(N_CARDS) for _ in range(rng.randrange(20))]
    t = Table(cells, stock, talon, run, rng.random() < 0.5, rng.choice([1, 3]))
    moves: list[ModelMove] = [(2, -1, -1)] if stock else []
    for d in range(GRID_SIZE):
        if cells[d] < 0:
            continue
        if talon and PREV[talon[-1]] == cells[d] % N_CARDS:
            moves.append((0, -1, d))
        moved = cells[d] % N_CARDS + 3
        for s in range(GRID_SIZE):
            if s != d and cells[s] >= 0 and moved % 12 >= 3 and (
                    cells[s] // N_CARDS <= moved <= cells[s] % N_CARDS) and (
                    (moved - cells[s] // N_CARDS) % 3 == 0):
                moves.append((1, s, d))
    return t, moves[:64]


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(rng=st.randoms(use_true_random=False), run=st.booleans(),
       horizon=st.sampled_from([3, 40, 10**6]))
def test_rollouts_of_random_tables_agree(rng: random.Random, run: bool, horizon: int) -> None:
    """The base policy's corners, on positions of random piles: the same scores and steps."""
    root, moves = random_table(rng, run)
    pure, compiled = both(lambda: order_scores(root, moves, horizon))
    assert pure == compiled, (root, moves)


@needs_compiled
def test_the_compiled_rollouts_refuse_what_is_no_position() -> None:
    """A cell that is no pile, a move the position does not allow: a ValueError, no crash."""
    compiled = importlib.import_module("devilsgrip.solver._core")
    root = table_of(Game(5, rules="single-pass").view(with_legal=False), list(range(3)))
    args = (root.stock, root.talon, True, True, 3, 100)
    assert compiled.rollouts(root.cells, root.stock, root.talon, [(2, -1, -1)], *args[2:])
    bad_cells = [*root.cells[:-1], 47 * N_CARDS]  # a pile from a king down to an ace
    with pytest.raises(ValueError, match="no pile code"):
        compiled.rollouts(bad_cells, *args[:2], [(2, -1, -1)], *args[2:])
    with pytest.raises(ValueError, match="no move of the model"):
        compiled.rollouts(root.cells, *args[:2], [(1, 0, 0)], *args[2:])
    with pytest.raises(ValueError, match="no move of the model"):
        compiled.rollouts(root.cells, [], root.talon, [(2, -1, -1)], *args[2:])


LONG_PROOF = ("4C7C,9DQD,2S5S8SJS,4C7C,6C,TSKS,4D7DTDKD,2D5D8DJD/2S5S8SJS,7DTDKD,2D5D8DJD,"
              "6H9HQH,4H7HTHKH,5C8CJC,4H,8HJH/3C6C9CQC,9SQS,3D6D9DQD,3S6S9SQS,2H5H8H,KC,3D,"
              "6H9HQH 4S3S5H4S7STCJHKHTC6SKC6D3H3C7H4D3H5C JC9C2H7S8CQC2CTHTS2CKS 4 102 classic")
"""Deal 93 after the greedy player's 102nd move: lost by one card, which no search proves
in seconds, so a search of it runs to its time limit."""


@needs_compiled
@pytest.mark.slow
def test_a_compiled_search_in_a_thread_lets_the_others_run() -> None:
    """A server answers other requests, and a screen draws itself, while a search runs in
    a thread of theirs: the compiled core lets the GIL go now and then.  Holding it, it
    let a thread that sleeps 10 ms at a time wake about twice a second."""
    game = Game.from_position(LONG_PROOF)
    seconds = 3.0
    finished = threading.Event()

    def search() -> None:
        with core.using(core.COMPILED):
            solve(game, time_limit=seconds)
        finished.set()

    worker = threading.Thread(target=search)
    worker.start()
    gaps = []
    last = time.perf_counter()
    while not finished.is_set():
        time.sleep(0.01)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
    worker.join()
    gaps.sort()
    assert len(gaps) >= seconds / 0.1, gaps[-5:]  # woken at least ten times a second
    assert gaps[len(gaps) // 2] < 0.05, gaps[len(gaps) // 2]


@needs_compiled
@pytest.mark.slow
def test_a_large_table_is_rebuilt_while_the_other_threads_run() -> None:
    """A search's table doubles now and then; its last doublings, to millions of slots,
    took a fifth of a second each, the GIL held.  They now let it go: another thread runs
    while the table is rebuilt, and reads it, and nothing stored is lost."""
    compiled = importlib.import_module("devilsgrip.solver._core")
    table = compiled.Table()
    count = 600_000  # past the doubling to 2**21 slots (at 2**19 entries)
    done = threading.Event()

    def fill() -> None:
        for i in range(count):
            table[(i, i % 4096, i % 97)] = i % 50
        done.set()

    worker = threading.Thread(target=fill)
    worker.start()
    seen_rebuilding = 0
    while not done.is_set():
        if table.rebuilding:
            seen_rebuilding += 1
            assert table.get((0, 0, 0)) == 0  # read as it was
        time.sleep(0)
    worker.join()
    assert seen_rebuilding, "no other thread ran while the table was rebuilt"
    assert not table.rebuilding and len(table) == count
    assert all(table[(i, i % 4096, i % 97)] == i % 50 for i in range(0, count, 997))


@needs_compiled
def test_what_is_stored_while_another_thread_rebuilds_the_table_is_dropped() -> None:
    """Two searches in two threads may share a table: while one rebuilds it (the GIL let
    go), the other reads it but stores nothing (it would store into slots being moved), and
    a clear waits for no one: it is skipped.  A table keeps proven values only, so one that
    forgets costs time, never a wrong answer; both searches end with the same answer."""
    game = Game.from_position(LONG_PROOF)
    alone = new_search(game, time_limit=None, max_nodes=200_000).run()
    table = SharedTable(game, entries=50_000)  # cleared (and so rebuilt) again and again
    answers: list[int] = []

    def search() -> None:
        with core.using(core.COMPILED):
            for _ in range(3):
                answers.append(new_search(game, time_limit=0.7, table=table).run().score)

    workers = [threading.Thread(target=search) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert answers == [alone.score] * 6
