"""Computer players: greedy, honest (sees only the view) and clairvoyant.

How each chooses its moves: [the players][players] (docs/solver.md).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from devilsgrip.cards import GRID_SIZE, PREV, format_cards
from devilsgrip.game import DEAL, GRID_BUILDS, REDEAL, TALON_BUILDS, Game, Move, MoveKind, View
from devilsgrip.solver.clairvoyant import solve
from devilsgrip.solver.limits import check_time_limit
from devilsgrip.solver.rollouts import rollout_scores, steps_per_second

PLAYERS: Final = ("greedy", "honest", "clairvoyant")
"""The computer players' names."""
SEED_FACTOR: Final = 1_000_003
"""A prime mixing the seed with the moves played into the random stock orders'
seed: the same information state and seed always draw the same orders."""
MAX_MOVES: Final = 20_000
"""A safety stop for :func:`play_game` (no real game comes near it)."""

NODES_PER_SECOND: Final = 150_000
"""The honest player's node budget per second of ``time_limit`` (a cautious rate)."""
NODES_PER_SECOND_LAST_PASS: Final = 12_000
"""The same with no redeal left, where the search's nodes cost far more (the stack
bounds, the beam's states): ``benchmarks/solver.py`` measures some 35,000 nodes
a second there against 140,000 in ``classic``, and the honest player's many
small solves, each with its own set-up, about 12,000."""
GUARD_Z: Final = 3.0
"""With no redeal left, how many standard errors of the paired difference a move
must beat greedy's move by, over the samples, for the honest player to leave
greedy's move (:func:`guarded_choice`)."""
LEAST_NODES: Final = 500
LEAST_NODES_LAST_PASS: Final = 250
"""The least budget of one sampled solve: with no redeal left, about what the
narrowest beam needs to reach the end of the pass from the deal.  When the
time does not allow that for every sample and move, fewer samples are drawn
(at least two)."""

Pile = tuple[int, ...]


@dataclass(frozen=True)
class InformationState:
    """What a player knows: the ``view`` (the rules included) and the positions it
    saw since a card last came in (``recent``, :func:`seen_key` each), which it
    remembers so as not to undo a move by another that brings nothing in."""

    view: View
    recent: frozenset[object] = frozenset()


def information_state(game: Game) -> InformationState:
    """The information state of the player of ``game``: the one door from a game to
    the honest player and the hints."""
    return InformationState(game.view(with_legal=False), frozenset(_seen_since_entering(game)))


# ------------------------------------------------------------------ greedy
def _can_fill(view_stock: int, talon: Sequence[int], fill_from_talon: bool) -> bool:
    return view_stock > 0 or (fill_from_talon and bool(talon))


def candidate_moves(
    grid: Sequence[Pile], talon: Sequence[int], stock_count: int, view: View
) -> list[Move]:
    """The moves worth considering, one per distinct effect, entering moves first.

    Talon builds (one per target card), builds that empty their source and fill
    the space, in ``card`` mode also builds that uncover (peel) a card, then
    the deal or redeal.  Swaps and, in ``run`` mode, builds that leave their
    source non-empty never change what can happen, so they are left out.
    """
    rules = view.rules
    run = rules.move_unit == "run"
    out: list[Move] = []
    if talon:
        want = PREV[talon[-1]]
        if want >= 0:
            for d in range(GRID_SIZE):
                if grid[d] and grid[d][-1] == want:
                    out.append(TALON_BUILDS[d])
                    if run:
                        break
    fill = _can_fill(stock_count, talon, rules.fill_from_talon)
    seen: set[object] = set()
    peels: list[Move] = []
    for s in range(GRID_SIZE):
        src = grid[s]
        if not src:
            continue
        if run:
            if not fill:
                continue
            b = src[0]
            want = PREV[b]
            if want < 0 or b in seen:
                continue
            for d in range(GRID_SIZE):
                if d != s and grid[d] and grid[d][-1] == want:
                    out.append(GRID_BUILDS[s][d])
                    seen.add(b)
                    break
            continue
        top = src[-1]
        want = PREV[top]
        if want < 0:
            continue
        for d in range(GRID_SIZE):
            tgt = grid[d]
            if d == s or not tgt or tgt[-1] != want:
                continue
            effect = (src[0], top, tgt[0])
            if effect in seen:
                continue
            seen.add(effect)
            if len(src) == 1:
                if fill:
                    out.append(GRID_BUILDS[s][d])
            else:
                peels.append(GRID_BUILDS[s][d])
    out += peels
    if stock_count:
        out.append(DEAL)
    elif talon and (view.redeals_left is None or view.redeals_left > 0):
        out.append(REDEAL)
    return out


def _greedy(game: Game) -> Move | None:
    return greedy_move(game.view(with_legal=False))


def greedy_move(view: View) -> Move | None:
    """The greedy player's move in ``view`` (it needs nothing more)."""
    grid, talon = view.grid, view.talon
    moves = candidate_moves(grid, talon, view.stock_count, view)
    for m in moves:
        if m.kind == MoveKind.TALON:
            return m
    for m in moves:
        if (m.kind == MoveKind.BUILD and len(grid[m.src]) == 1) or (
            m.kind == MoveKind.BUILD and view.rules.move_unit == "run"
        ):
            return m
    # card mode: peel the shortest pile that can then be emptied
    if view.rules.move_unit == "card" and _can_fill(
        view.stock_count, talon, view.rules.fill_from_talon
    ):
        tops = [p[-1] for p in grid if p]
        best: tuple[int, Move] | None = None
        for m in moves:
            if m.kind != MoveKind.BUILD:
                continue
            src = grid[m.src]
            others = list(tops)
            others.remove(src[-1])
            if PREV[src[0]] in others and all(c in others for c in src[:-1]) and (
                best is None or len(src) < best[0]
            ):
                best = (len(src), m)
        if best is not None:
            return best[1]
    for m in moves:
        if m.kind in (MoveKind.DEAL, MoveKind.REDEAL):
            return m
    return None


# ------------------------------------------------------------------ honest
def sample_game(view: View, rng: random.Random) -> Game:
    """A game consistent with ``view``: the unseen stock cards in a random order."""
    if view.stock_order is not None:
        stock_top_first = list(view.stock_order)
    else:
        stock_top_first = list(view.unseen)
        rng.shuffle(stock_top_first)
    rows = []
    for r in range(0, GRID_SIZE, 8):
        rows.append(",".join(format_cards(p) for p in view.grid[r : r + 8]))
    text = " ".join([
        "/".join(rows),
        format_cards(stock_top_first),
        format_cards(view.talon),
        str(view.redeals_done),
        "0",
        str(view.rules),
    ])
    return Game.from_position(text)


def honest_move(info: InformationState, seed: int, time_limit: float,
                samples: int) -> Move | None:
    """The honest player's move, from the information state alone."""
    view = info.view
    if not view.stock_count and not view.talon:
        return None  # won
    moves = candidate_moves(view.grid, view.talon, view.stock_count, view)
    moves, peel = _no_peel_back(info, moves)
    if len(moves) <= 1:
        return moves[0] if moves else None
    if view.stock_order is not None or not view.unseen:
        samples = 1
    rng = random.Random(seed * SEED_FACTOR + view.moves_played)
    # a budget of work, not a clock, so that the choice is the same on any machine
    rules = view.rules
    last_pass = rules.redeals is not None and view.redeals_done >= rules.redeals
    if last_pass and view.stock_order is None:
        steps = int(steps_per_second(rules.move_unit == "run") * time_limit)
        rolled = rollout_scores(view, moves, rng, steps)
        # on a tie, the earlier move: entering moves come before the deal
        return moves[min(range(len(moves)), key=lambda i: (sum(rolled[i]), peel[i], i))]
    if last_pass:
        rate, least = NODES_PER_SECOND_LAST_PASS, LEAST_NODES_LAST_PASS
        samples = max(min(2, samples), min(samples, int(rate * time_limit / (least * len(moves)))))
    else:
        rate, least = NODES_PER_SECOND, LEAST_NODES
    nodes = max(least, int(rate * time_limit / (samples * len(moves))))
    scores: list[list[int]] = [[] for _ in moves]
    for _ in range(samples):
        world = sample_game(view, rng)
        for i, m in enumerate(moves):
            world.push(m)
            result = solve(world, time_limit=None, max_nodes=nodes, tt_entries=200_000)
            world.pop()
            scores[i].append(result.score)
    if last_pass:
        greedy = greedy_move(view)
        if greedy in moves:
            return moves[guarded_choice(scores, moves.index(greedy))]
    # on a tie, a move that brings a card in or deals before a peel
    best = min(range(len(moves)), key=lambda i: (sum(scores[i]), peel[i], i))
    return moves[best]


def guarded_choice(scores: Sequence[Sequence[int]], default: int, z: float = GUARD_Z) -> int:
    """The move to make, given each move's final scores over the same sampled stock
    orders: ``default`` unless another move beats it by more than ``z`` standard errors.

    See [the guard on greedy's move][guarded-choice] (docs/solver.md).
    """
    n = len(scores[default])
    best, best_mean = default, 0.0
    for i, row in enumerate(scores):
        if i == default:
            continue
        diffs = [a - b for a, b in zip(row, scores[default], strict=True)]
        mean = sum(diffs) / n
        if mean >= best_mean:
            continue
        spread = statistics.stdev(diffs) if n > 1 else 0.0
        if mean < -z * spread / math.sqrt(n):
            best, best_mean = i, mean
    return best


def _no_peel_back(info: InformationState, moves: list[Move]) -> tuple[list[Move], list[bool]]:
    """``moves`` without the peels back to a position seen since the last card came
    in (a peel brings no card in, and two could undo each other forever), and for
    each move left whether it is a peel."""
    view = info.view
    peel = [view.rules.move_unit == "card" and m.kind == MoveKind.BUILD
            and len(view.grid[m.src]) > 1 for m in moves]
    if not any(peel):
        return moves, peel
    keep: list[tuple[Move, bool]] = []
    for m, p in zip(moves, peel, strict=True):
        if p and _key_after_peel(view, m) in info.recent:
            continue
        keep.append((m, p))
    return [m for m, _ in keep], [p for _, p in keep]


def _key_after_peel(view: View, move: Move) -> object:
    """:func:`seen_key` of the position after the peel ``move`` (the top card of its
    source onto its target; nothing else changes)."""
    grid = list(view.grid)
    src, dst = grid[move.src], grid[move.dst]
    grid[move.src], grid[move.dst] = src[:-1], (*dst, src[-1])
    return (tuple(sorted(grid)), view.talon, view.stock_count, view.redeals_done)


_LOOP_MEMORY: Final = 500
"""How many moves back :func:`_seen_since_entering` looks at most."""


def seen_key(game: Game) -> object:
    """A position as a player sees it: the grid as a multiset (swaps are free), the
    talon, the stock's size and the redeals done."""
    return (tuple(sorted(game.grid)), tuple(game.talon), len(game.stock), game.redeals_done)


def _seen_since_entering(game: Game) -> set[object]:
    """The positions of ``game`` since the last move that brought a card in (this
    one included), from its history: what the player has seen and remembers."""
    g = game.copy()
    seen = {seen_key(g)}
    for _ in range(_LOOP_MEMORY):
        if not g.can_undo:
            break
        score = g.score
        g.pop()
        if g.score != score:
            break
        seen.add(seen_key(g))
    return seen


# ------------------------------------------------------------------ public
def choose_move(
    game: Game,
    player: str,
    *,
    seed: int = 0,
    time_limit: float = 1.0,
    samples: int = 6,
) -> Move | None:
    """The move ``player`` ("greedy", "honest" or "clairvoyant") makes here, or None.

    ``time_limit`` bounds the thinking of the honest and clairvoyant players;
    ``samples`` is how many stock orders the honest player draws at most for a
    move (at least 1; fewer when the time is short with no redeal left).  A
    ``time_limit`` that is not a positive, finite number of seconds raises
    ``LimitError``, whoever plays.
    """
    check_time_limit(time_limit)
    if player == "greedy":
        return _greedy(game)
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    if player == "honest":
        return honest_move(information_state(game), seed, time_limit, samples)
    if player == "clairvoyant":
        result = solve(game, time_limit=time_limit)
        if result.moves:
            return result.moves[0]
        return None if game.is_over() else _greedy(game)
    raise ValueError(f"unknown player '{player}' (choose from {', '.join(PLAYERS)})")


def play_game(
    game: Game,
    player: str,
    *,
    seed: int = 0,
    time_limit: float = 1.0,
    samples: int = 6,
    max_moves: int = MAX_MOVES,
) -> Game:
    """Let ``player`` play ``game`` until it is over; returns the same game."""
    check_time_limit(time_limit)
    if player not in PLAYERS:
        raise ValueError(f"unknown player '{player}' (choose from {', '.join(PLAYERS)})")
    if player == "clairvoyant":
        while not game.is_over() and game.moves_played < max_moves:
            result = solve(game, time_limit=time_limit)
            if result.moves:
                for m in result.moves:
                    game.play(m)
                continue
            fallback = _greedy(game)
            if fallback is None:
                break
            game.play(fallback)
        return game
    while not game.is_over() and game.moves_played < max_moves:
        chosen = choose_move(game, player, seed=seed, time_limit=time_limit, samples=samples)
        if chosen is None:
            break
        game.play(chosen)
    return game
