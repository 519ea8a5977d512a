"""The cursor's geometry: steps, wrapping, the bottom row, hint places."""

from __future__ import annotations

from devilsgrip.cards import CELL_NAMES
from devilsgrip.notation import DEAL, REDEAL, Move
from devilsgrip.tui.places import STOCK, TALON, move_places, place_name, row_col, step

A1, B1, H1, A2, A3, B3, E3 = (CELL_NAMES.index(n) for n in ("a1", "b1", "h1", "a2", "a3", "b3",
                                                            "e3"))


def test_right_and_left_wrap_within_a_row() -> None:
    assert step(A1, 1, 0, 0) == (B1, 1)
    assert step(H1, 1, 0, 7) == (A1, 0)
    assert step(A1, -1, 0, 0) == (H1, 7)


def test_down_through_the_rows_to_the_bottom_row_and_back() -> None:
    assert step(A1, 0, 1, 0) == (A2, 0)
    assert step(A3, 0, 1, 0) == (STOCK, 0)
    assert step(E3, 0, 1, 4) == (TALON, 4)
    # back up returns to the column the cursor came from
    assert step(TALON, 0, -1, 4) == (E3, 4)
    # and down from the bottom row wraps to the top row
    assert step(TALON, 0, 1, 4) == (CELL_NAMES.index("e1"), 4)
    assert step(A1, 0, -1, 0) == (STOCK, 0)


def test_bottom_row_has_two_places() -> None:
    assert step(STOCK, 1, 0, 0) == (TALON, 0)
    assert step(TALON, 1, 0, 0) == (STOCK, 0)
    assert step(TALON, -1, 0, 3) == (STOCK, 3)
    assert row_col(STOCK) == (3, 0)
    assert row_col(TALON) == (3, 1)
    assert row_col(B3) == (2, 1)


def test_names_and_move_places() -> None:
    assert place_name(A1) == "a1"
    assert place_name(STOCK) == "stock"
    assert place_name(TALON) == "talon"
    assert move_places(DEAL) == (STOCK,)
    assert move_places(REDEAL) == (STOCK,)
    assert move_places(Move.from_text("t-c2")) == (TALON, CELL_NAMES.index("c2"))
    assert move_places(Move.from_text("a1-b1")) == (A1, B1)
