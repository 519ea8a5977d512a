"""The places of the table (the 24 cells, the stock, the talon) and the numbers a player types."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from devilsgrip import codes
from devilsgrip.cards import CELL_NAMES, GRID_SIZE, short_text
from devilsgrip.errors import DeckError, DevilsGripError, MoveError
from devilsgrip.game import Game, Move, MoveKind
from devilsgrip.notation import parse_game_number

if TYPE_CHECKING:
    pass


Place = int
"""A place of the table: ``0 .. 23`` the grid cells, :data:`STOCK`, :data:`TALON`."""


STOCK: Final = GRID_SIZE


TALON: Final = GRID_SIZE + 1


PLACES: Final = tuple(range(GRID_SIZE + 2))


def place_name(place: Place) -> str:
    """``a1`` .. ``h3`` for cells; ``stock`` and ``talon`` otherwise (ids, not words)."""
    if place < GRID_SIZE:
        return CELL_NAMES[place]
    return "stock" if place == STOCK else "talon"


PLACE_NAMES: Final = tuple(place_name(p) for p in PLACES)
"""Each place's name (:func:`place_name`), by place."""
PLACE_INDEX: Final = {name: p for p, name in enumerate(PLACE_NAMES)}
"""Each place by its name as written (:func:`parse_place` reads any other way of writing it)."""


def parse_place(text: str) -> Place:
    """The place named ``a1`` .. ``h3``, ``stock`` or ``talon``; raises :class:`MoveError`."""
    place = PLACE_INDEX.get(str(text).strip().lower())
    if place is None:
        raise MoveError(codes.PLACE_UNKNOWN, f"unknown place '{str(text)[:20]}' (a1 .. h3, stock, "
                        "talon)", place=str(text)[:20])
    return place


def parse_deal_number(text: str) -> int:
    """The game number a player typed (``" 42 "``), checked as the engine checks it.

    Raises :class:`~devilsgrip.errors.DeckError` with the engine's reason
    (``game-number-bad``, ``game-number-range``) so a screen can say why.
    """
    return read_deal_number(str(text))  # one reading, one sentence, for every screen


def read_deal_number(value: int | str) -> int:
    """The deal number a player asked for, typed as text (or sent as a whole number).

    Decimal ASCII digits, 1 .. 2**63-1, exact however large (never through a float);
    anything else raises the engine's :class:`~devilsgrip.errors.DeckError`, whose
    reason the screens show in the player's language.

    >>> from devilsgrip.table.words import Words, say_error
    >>> read_deal_number(" 9007199254740993 ")
    9007199254740993
    >>> say_error(_caught(read_deal_number, "0"), Words("en"))
    "Game numbers are whole numbers from 1 to 9223372036854775807, not '0'."
    """
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise DeckError(codes.GAME_NUMBER_BAD, f"bad game number '{short_text(str(value))}'",
                        number=short_text(str(value)))
    text = value if isinstance(value, str) else str(value)
    return parse_game_number(text)


def _caught(fn: Callable[..., Any], *args: Any) -> BaseException | None:
    """The error ``fn(*args)`` raises (None when it raises none); for the examples."""
    try:
        fn(*args)
    except DevilsGripError as exc:
        return exc
    return None


def move_places(move: Move) -> tuple[Place, ...]:
    """The places a move touches, from where it starts to where it ends (for a hint)."""
    if move.kind in (MoveKind.DEAL, MoveKind.REDEAL):
        return (STOCK,)
    if move.kind == MoveKind.TALON:
        return (TALON, move.dst)
    return (move.src, move.dst)


def move_arrow(move: Move) -> tuple[Place, Place]:
    """Where an arrow showing ``move`` starts and ends: a deal from the stock to the talon,
    a redeal back, a build from its card to its pile, a swap from one pile to the other."""
    if move.kind == MoveKind.DEAL:
        return (STOCK, TALON)
    if move.kind == MoveKind.REDEAL:
        return (TALON, STOCK)
    if move.kind == MoveKind.TALON:
        return (TALON, move.dst)
    return (move.src, move.dst)


def targets(game: Game, place: Place) -> list[Place]:
    """The cells a card picked up at ``place`` can be built on now (every place at once,
    from the legal moves worked out once: :func:`devilsgrip.table.controller.picking`)."""
    if place != TALON and place >= GRID_SIZE:
        return []
    legal = game.generate_moves()
    if place == TALON:
        return [m.dst for m in legal if m.kind == MoveKind.TALON]
    return [m.dst for m in legal if m.kind == MoveKind.BUILD and m.src == place]
