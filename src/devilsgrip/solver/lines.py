"""Turning a line of macro moves back into the engine's moves."""

from __future__ import annotations

from collections.abc import Sequence

from devilsgrip.cards import CARD_CODES, GRID_SIZE, N_CARDS, PREV
from devilsgrip.game import DEAL, GRID_BUILDS, REDEAL, TALON_BUILDS, Game, Move
from devilsgrip.solver.moves import EMPTY, TALON, MacroMove


def realize(game: Game, path: Sequence[MacroMove]) -> list[Move]:
    """The engine moves of a line of macro moves, played on a copy of ``game``."""
    g = game.copy()
    moves: list[Move] = []

    def play(m: Move) -> None:
        g.push(m)
        moves.append(m)

    for q, kind, a, b in path:
        if len(g.talon) != q:
            # deal on in this pass if q is reachable, else go round
            p, n, k = len(g.talon), len(g.talon) + len(g.stock), g.rules.draw
            in_pass = q >= p and ((q - p) % k == 0 or q == n)
            if not in_pass:
                while g.stock:
                    play(DEAL)
                play(REDEAL)
            while len(g.talon) != q:
                if not g.stock:
                    raise AssertionError("cut not reachable")  # pragma: no cover
                play(DEAL)
        grid = g.grid
        if kind == TALON:
            want = PREV[g.talon[-1]]
            cell = _find_cell(grid, top=want, pile=a)
            play(TALON_BUILDS[cell])
        elif kind == EMPTY:
            if b < 0:  # run mode: a is the bottom card
                src = next(i for i, pl in enumerate(grid) if pl and pl[0] == a)
                dst = next(
                    i for i, pl in enumerate(grid) if pl and i != src and pl[-1] == PREV[a]
                )
            else:
                src = _find_cell(grid, top=a % N_CARDS, pile=a)
                dst = _find_cell(grid, top=b % N_CARDS, pile=b, avoid=src)
            play(GRID_BUILDS[src][dst])
        else:
            src = _find_cell(grid, top=a % N_CARDS, pile=a)
            dst = _find_cell(grid, top=b % N_CARDS, pile=b, avoid=src)
            play(GRID_BUILDS[src][dst])
    return moves


def _find_cell(grid: list[tuple[int, ...]], *, top: int, pile: int = -1, avoid: int = -1) -> int:
    for i in range(GRID_SIZE):
        pl = grid[i]
        if not pl or i == avoid or pl[-1] != top:
            continue
        if pile >= 0 and pl[0] != pile // N_CARDS:
            continue
        return i
    raise AssertionError(f"no pile with top {CARD_CODES[top]}")  # pragma: no cover
