"""The human grammar of the game's texts: game numbers, lists of moves, a game record's
comments; with the text forms of cards, cells, decks and moves, where they live (the cards
and the cells in :mod:`devilsgrip.cards`, a move and its short text in
:mod:`devilsgrip.game`, beside the rules), so that one import gives them all.

>>> Move.from_text("A1-C2")
Move.from_text('a1-c2')
>>> str(Move.from_text("c2=a1"))
'a1=c2'
>>> [str(m) for m in parse_moves("d, t-c2 a1-c2")]
['d', 't-c2', 'a1-c2']
>>> parse_card("10♠") == parse_card("ts")
True
"""

from __future__ import annotations

from collections.abc import Iterable

from devilsgrip import codes
from devilsgrip.cards import (
    CELL_INDEX,
    MAX_GAME_NUMBER,
    format_cards,
    format_deck,
    parse_card,
    parse_cards,
    parse_cell,
    parse_deck,
    parse_number,
    short_text,
)
from devilsgrip.errors import DeckError
from devilsgrip.game import (
    DEAL,
    GRID_BUILDS,
    REDEAL,
    SWAPS,
    TALON_BUILDS,
    Move,
    MoveKind,
    grid_build,
    split_move_text,
    swap,
    talon_build,
)

__all__ = [
    "CELL_INDEX", "DEAL", "GRID_BUILDS", "REDEAL", "SWAPS", "TALON_BUILDS", "Move", "MoveKind",
    "format_cards", "format_deck", "format_moves", "grid_build", "parse_card", "parse_cards",
    "parse_cell", "parse_deck", "parse_game_number", "parse_moves", "split_move_text",
    "strip_comments", "swap", "talon_build",
]


def parse_game_number(text: str) -> int:
    """A game number (1 .. 2**63-1) written in ASCII digits; raises :class:`DeckError`.

    >>> parse_game_number(" 42 ")
    42
    """
    written = text.strip()
    shown = short_text(written)
    number = parse_number(written, MAX_GAME_NUMBER)
    if number is None:
        raise DeckError(codes.GAME_NUMBER_BAD, f"bad game number '{shown}'", number=shown)
    if not 1 <= number <= MAX_GAME_NUMBER:
        raise DeckError(
            codes.GAME_NUMBER_RANGE,
            f"game number {shown} is out of range: 1 .. {MAX_GAME_NUMBER}",
            number=shown,
        )
    return number


def strip_comments(text: str) -> str:
    """``text`` with each ``{...}`` comment and each ``;`` comment (to the end of its
    line) replaced by a space, as a game record's move list has them.

    One pass, so that a long run of ``{`` that no ``}`` closes takes linear time
    (the regular expression ``\\{[^}]*\\}|;[^\\n]*`` it replaces took quadratic time).

    >>> strip_comments("1. d {good; deal} 2. r ; no\\n3. d {")
    '1. d   2. r  \\n3. d {'
    """
    last_close = text.rfind("}")
    out: list[str] = []
    at = 0
    brace = semi = -2  # where the next "{" and ";" are; -2 when not looked for yet
    while True:
        if brace != -1 and brace < at:
            # a "{" opens a comment only with a "}" after it
            brace = text.find("{", at, max(last_close, 0))
        if semi != -1 and semi < at:
            semi = text.find(";", at)
        if brace < 0 and semi < 0:
            break
        out.append(text[at : brace if semi < 0 or 0 <= brace < semi else semi])
        out.append(" ")
        if semi < 0 or 0 <= brace < semi:
            at = text.index("}", brace) + 1
        else:
            end = text.find("\n", semi)
            at = len(text) if end < 0 else end
    out.append(text[at:])
    return "".join(out)


def parse_moves(text: str) -> list[Move]:
    """A list of moves separated by spaces or commas."""
    return [Move.from_text(t) for t in split_move_text(text)]


def format_moves(moves: Iterable[Move]) -> str:
    """The moves' text forms, separated by spaces (:func:`parse_moves` reads them back)."""
    return " ".join(m.text() for m in moves)


