"""The places the cursor can stand on: the 24 grid cells, the stock and the talon.

A place is an int: ``0 .. 23`` are the grid cells (cell ``i`` is column
``i % 8``, row ``i // 8``), :data:`STOCK` and :data:`TALON` the two places of
the bottom row.  Moving the cursor is plain geometry, no rule of the game.
"""

from __future__ import annotations

from typing import Final

from devilsgrip.cards import COLUMNS, GRID_SIZE, ROWS
from devilsgrip.table import PLACES, STOCK, TALON, Place, move_places, place_name

__all__ = ["PLACES", "STOCK", "TALON", "Place", "move_places", "place_name", "row_col", "step"]

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
