"""The honest player of the last pass: each move judged by playing on without peeking.

One step of rollout policy improvement over a greedy base policy, on a small model
of the game. See [the honest player of the last pass][rollouts] (docs/solver.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from devilsgrip.cards import GRID_SIZE, LEVEL_OF, N_CARDS, NEXT, PREV
from devilsgrip.game import Move, MoveKind, View
from devilsgrip.solver import core
from devilsgrip.solver.grids import pile_code

EMPTY_CELL: Final = -1
PEELS_BETWEEN_ENTRIES: Final = 4
"""The base policy makes at most this many peels (``card``-mode builds that bring no
card in) between two cards entering: two peels can undo each other."""
ROLLOUT_STEPS_PER_SECOND: Final = 120_000
"""The budget of rollout steps (moves of the model) per second of thinking in ``run``
mode, sized when the pure-Python core ran 218,000 a second of processor time (it
now runs about 540,000 and the compiled core 5.3 million, ``benchmarks/solver.py
--cores``), so that a hint in a browser, a slower interpreter, stays short.  Both
cores, and so the in-browser build, think with this budget and choose the same
moves: 17 times the budget (what a second buys in the compiled core) played no
better on deals 6001-6040 (docs/STATISTICS.md)."""
ROLLOUT_STEPS_PER_SECOND_CARD: Final = 60_000
"""The same in ``card`` mode, where the base policy looks for a peel at most steps
(the pure-Python core runs about 260,000 a second)."""
LEAST_ROLLOUTS: Final = 8
"""Each move is rolled out on at least this many stock orders."""


@dataclass(slots=True)
class Table:
    """The rollout model's position: grid cells (pile codes, -1 empty), stock and talon
    with their tops last, and the rules' two options that matter with no redeal left."""

    cells: list[int]
    stock: list[int]
    talon: list[int]
    run: bool
    fill_from_talon: bool
    draw: int

    def copy(self) -> Table:
        return Table(list(self.cells), list(self.stock), list(self.talon), self.run,
                     self.fill_from_talon, self.draw)

    @property
    def score(self) -> int:
        return len(self.stock) + len(self.talon)


def table_of(view: View, stock_top_first: Sequence[int]) -> Table:
    """The model of ``view`` with the stock in the order given (top first)."""
    cells = [pile_code(p[0], p[-1]) if p else EMPTY_CELL for p in view.grid]
    rules = view.rules
    return Table(cells, list(reversed(stock_top_first)), list(view.talon),
                 rules.move_unit == "run", rules.fill_from_talon, rules.draw)


def _fill(t: Table, cell: int) -> bool:
    """Fill the space at ``cell`` (stock first, then the talon if the rules say so);
    whether a card entered."""
    if t.stock:
        c = t.stock.pop()
    elif t.fill_from_talon and t.talon:
        c = t.talon.pop()
    else:
        t.cells[cell] = EMPTY_CELL
        return False
    t.cells[cell] = pile_code(c, c)
    return True


ModelMove = tuple[int, int, int]
"""A move of the model: ``(kind, src, dst)`` with kind :data:`TALON_BUILD` (onto
``dst``), :data:`GRID_BUILD` (from ``src`` onto ``dst``) or :data:`DEAL`."""
TALON_BUILD: Final = 0
GRID_BUILD: Final = 1
DEAL: Final = 2


def model_move(move: Move) -> ModelMove:
    """The model's form of an engine move (no swap, no redeal)."""
    kind = move.kind
    if kind == MoveKind.DEAL:
        return DEAL, -1, -1
    if kind == MoveKind.TALON:
        return TALON_BUILD, -1, move.dst
    if kind != MoveKind.BUILD:
        raise ValueError(f"the rollout model does not play {move.text()}")
    return GRID_BUILD, move.src, move.dst


def apply(t: Table, move: Move) -> None:
    """Play an engine move (no swap, no redeal) on the model."""
    _play(t, model_move(move))


def _play(t: Table, move: ModelMove) -> None:
    kind, s, d = move
    cells = t.cells
    if kind == DEAL:
        for _ in range(min(t.draw, len(t.stock))):
            t.talon.append(t.stock.pop())
    elif kind == TALON_BUILD:
        dst = cells[d]
        cells[d] = pile_code(dst // N_CARDS, t.talon.pop())
    else:
        src, dst = cells[s], cells[d]
        onto = dst % N_CARDS
        cells[d] = pile_code(dst // N_CARDS, src % N_CARDS)
        if src // N_CARDS == NEXT[onto]:  # the lowest card moved is the bottom
            _fill(t, s)
        else:
            cells[s] = pile_code(src // N_CARDS, onto)


def _peel(cells: list[int]) -> tuple[int, int, int] | None:
    """The greedy player's peel: the shortest pile whose top can go onto another top,
    whose bottom's predecessor is another top, and whose other cards are all tops
    elsewhere too (so that it can then be emptied)."""
    tops = [0] * N_CARDS
    for p in cells:
        if p >= 0:
            tops[p % N_CARDS] += 1
    best: tuple[int, int, int] | None = None
    best_len = 0
    for s in range(GRID_SIZE):
        pile = cells[s]
        if pile < 0:
            continue
        b, top = pile // N_CARDS, pile % N_CARDS
        onto, under = PREV[top], PREV[b]
        # the other piles' tops: every top but this pile's own
        if b == top or onto < 0 or under < 0 or not tops[onto] or not tops[under]:
            continue
        if not all(tops[c] > (c == top) for c in range(b, top, 3)):
            continue
        length = (top - b) // 3 + 1
        if best is None or length < best_len:
            d = next(i for i in range(GRID_SIZE)
                     if i != s and cells[i] >= 0 and cells[i] % N_CARDS == onto)
            best, best_len = (1, s, d), length
    return best


NO_NEED: Final = -2
"""In :func:`roll_out`'s ``needs``: a cell whose pile cannot be emptied by a build (empty,
a base at its bottom, or in ``card`` mode more than one card)."""


def roll_out(t: Table, budget: int) -> tuple[int, int]:
    """Play the base policy on ``t`` to the end (or for ``budget`` steps); the final
    score and the steps taken.  ``t`` is changed.

    The base policy looks only at what is face up, as the greedy player does: a talon
    build first, onto the first cell whose top takes it; then an emptying build, of the
    first pile that can go whole onto a top (its space is filled); in ``card`` mode a
    peel of the shortest pile that can then be emptied (:func:`_peel`), at most
    :data:`PEELS_BETWEEN_ENTRIES` times between two cards entering; then a deal.  The
    compiled core's ``roll_out`` is its twin (``tests/solver/test_cores.py``).

    Each cell's top and, where a build could empty it, the card its bottom needs as a
    top are kept beside the piles, so that a step asks lists, not every pile.
    """
    cells, stock, talon = t.cells, t.stock, t.talon
    run, fill_from_talon, draw = t.run, t.fill_from_talon, t.draw
    tops = [p % N_CARDS if p >= 0 else EMPTY_CELL for p in cells]
    needs = [_need(p, run) for p in cells]
    peels = 0
    steps = 0
    while steps < budget:
        if talon:
            want = PREV[talon[-1]]
            if want >= 0 and want in tops:
                d = tops.index(want)
                c = talon.pop()
                cells[d] += c - want
                tops[d] = c
                if not run:
                    needs[d] = NO_NEED
                peels = 0
                steps += 1
                continue
        if stock or (fill_from_talon and talon):
            s = -1
            top_set = set(tops)
            if not top_set.isdisjoint(needs):
                s = next(i for i, need in enumerate(needs) if need in top_set)
            elif not run and peels < PEELS_BETWEEN_ENTRIES:
                peel = _peel(cells)
                if peel is not None:
                    _, src, d = peel
                    onto, moved = tops[d], tops[src]
                    cells[d] += moved - onto
                    tops[d] = moved
                    needs[d] = NO_NEED
                    cells[src] += onto - moved
                    tops[src] = onto
                    needs[src] = _need(cells[src], run)
                    peels += 1
                    steps += 1
                    continue
            if s >= 0:
                d = tops.index(needs[s])
                moved = tops[s]
                cells[d] += moved - tops[d]
                tops[d] = moved
                if not run:
                    needs[d] = NO_NEED
                _fill(t, s)
                pile = cells[s]
                tops[s] = pile % N_CARDS if pile >= 0 else EMPTY_CELL
                needs[s] = _need(pile, run)
                peels = 0
                steps += 1
                continue
        if not stock:
            break
        turned = stock[-draw:]
        del stock[-draw:]
        talon.extend(reversed(turned))
        steps += 1
    return t.score, steps


def _need(pile: int, run: bool) -> int:
    """The top that a build emptying ``pile`` goes onto (its bottom's predecessor), or
    :data:`NO_NEED` when no build empties it."""
    if pile < 0:
        return NO_NEED
    b = pile // N_CARDS
    if not LEVEL_OF[b] or (not run and b != pile % N_CARDS):
        return NO_NEED
    return PREV[b]


def order_scores(root: Table, moves: Sequence[ModelMove], horizon: int) -> tuple[list[int], int]:
    """For each of ``moves``, the final score of the move then a rollout of at most
    ``horizon`` steps from ``root`` (not changed), and the model moves spent in all.
    The compiled core's ``rollouts`` is its twin (``tests/solver/test_cores.py``)."""
    module = core.compiled()
    if module is not None:
        got: tuple[list[int], int] = module.rollouts(
            root.cells, root.stock, root.talon, list(moves), root.run, root.fill_from_talon,
            root.draw, horizon)
        return got
    scores: list[int] = []
    spent = 0
    for m in moves:
        t = root.copy()
        _play(t, m)
        score, used = roll_out(t, horizon)
        spent += used + 1
        scores.append(score)
    return scores, spent


def steps_per_second(run: bool) -> int:
    """The budget of rollout steps a second of thinking buys (the same in both cores)."""
    return ROLLOUT_STEPS_PER_SECOND if run else ROLLOUT_STEPS_PER_SECOND_CARD


def rollout_scores(view: View, moves: Sequence[Move], rng: random.Random, steps: int,
                   least: int = LEAST_ROLLOUTS) -> list[list[int]]:
    """For each of ``moves``, the final scores of its rollouts over the same sampled
    stock orders, as many orders as about ``steps`` model moves allow (at least
    ``least``).  Only ``view`` is read: the stock orders are drawn from its unseen
    cards."""
    unseen = list(view.unseen) if view.stock_order is None else list(view.stock_order)
    scores: list[list[int]] = [[] for _ in moves]
    spent = 0
    horizon = 4 * (view.stock_count + len(view.talon)) + 50
    model = [model_move(m) for m in moves]
    root = table_of(view, unseen)
    while True:
        order = list(unseen)
        if view.stock_order is None:
            rng.shuffle(order)
        order.reverse()
        root.stock = order
        got, used = order_scores(root, model, horizon)
        spent += used
        for row, score in zip(scores, got, strict=True):
            row.append(score)
        if view.stock_order is not None or (len(scores[0]) >= least and spent >= steps):
            return scores
