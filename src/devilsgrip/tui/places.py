"""The places the cursor can stand on: the 24 grid cells, the stock and the talon.

A place is an int: ``0 .. 23`` are the grid cells (cell ``i`` is column
``i % 8``, row ``i // 8``), :data:`STOCK` and :data:`TALON` the two places of
the bottom row.  Moving the cursor is plain geometry, no rule of the game.
"""

from __future__ import annotations

from typing import Final

from devilsgrip.cards import CELL_NAMES, COLUMNS, GRID_SIZE, ROWS
from devilsgrip.notation import Move, MoveKind

Place = int

STOCK: Final = GRID_SIZE
TALON: Final = GRID_SIZE + 1
PLACES: Final = tuple(range(GRID_SIZE + 2))
BOTTOM_ROW: Final = ROWS
"""The row index of the stock and talon (below the grid)."""
_BOTTOM: Final = (STOCK, TALON)


def row_col(place: Place) -> tuple[int, int]:
    """``(row, column)`` of a place; the stock is column 0, the talon column 1 of row 3."""
    if place < GRID_SIZE:
        return place // COLUMNS, place % COLUMNS
    return BOTTOM_ROW, place - GRID_SIZE


def step(place: Place, dx: int, dy: int, memory: int) -> tuple[Place, int]:
    """The place one step right (``dx``) or down (``dy``) from ``place``, wrapping around.

    ``memory`` is the grid column the cursor last stood on, so that going down
    to the talon and back up returns to the same column.  Returns the new place
    and the new memory.
    """
    row, col = row_col(place)
    if dx:
        if row == BOTTOM_ROW:
            return _BOTTOM[(col + dx) % len(_BOTTOM)], memory
        col = (col + dx) % COLUMNS
        return row * COLUMNS + col, col
    if not dy:
        return place, memory
    if row != BOTTOM_ROW:
        memory = col
    row = (row + dy) % (ROWS + 1)
    if row == BOTTOM_ROW:
        return (STOCK if memory == 0 else TALON), memory
    return row * COLUMNS + memory, memory


def place_name(place: Place) -> str:
    """``a1`` .. ``h3`` for cells; ``stock`` and ``talon`` otherwise (not translated: ids)."""
    if place < GRID_SIZE:
        return CELL_NAMES[place]
    return "stock" if place == STOCK else "talon"


def move_places(move: Move) -> tuple[Place, ...]:
    """The places a move touches (for highlighting a hint)."""
    if move.kind in (MoveKind.DEAL, MoveKind.REDEAL):
        return (STOCK,)
    if move.kind == MoveKind.TALON:
        return (TALON, move.dst)
    return (move.src, move.dst)
