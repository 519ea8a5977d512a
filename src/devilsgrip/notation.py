"""Text forms of cards, cells, moves and deck strings.

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

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from devilsgrip import codes
from devilsgrip.cards import (
    CARD_CODES,
    CELL_NAMES,
    DECK_SIZE,
    GRID_SIZE,
    MAX_GAME_NUMBER,
    Card,
    parse_card_or_none,
    parse_number,
    short_text,
)
from devilsgrip.errors import CardError, DeckError, MoveError

CELL_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(CELL_NAMES)}
"""Each cell's index in the grid, by its name (``"a1"`` is 0, ``"h3"`` is 23)."""


def parse_card(text: str) -> Card:
    """The card named by ``text``; raises :class:`CardError`."""
    card = parse_card_or_none(text)
    if card is None:
        raise CardError(codes.CARD_UNKNOWN, f"unknown card '{text}'", card=text)
    return card


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


def parse_cell(text: str) -> int:
    """Cell index (0 .. 23) of ``a1`` .. ``h3``; raises :class:`MoveError`."""
    cell = CELL_INDEX.get(text.strip().lower())
    if cell is None:
        raise MoveError(
            codes.CELL_UNKNOWN, f"unknown cell '{text}' (cells are a1 .. h3)", cell=text
        )
    return cell


class MoveKind(IntEnum):
    """What a move does: deal, redeal, talon build, grid build or swap."""
    DEAL = 0
    REDEAL = 1
    TALON = 2
    BUILD = 3
    SWAP = 4


@dataclass(frozen=True, slots=True)
class Move:
    """A move: a value with a text form that round-trips.

    ``d`` deal, ``r`` redeal, ``t-c2`` talon build onto c2, ``a1-c2`` grid
    build from a1 onto c2, ``a1=c2`` swap (stored with the lower cell first,
    so ``Move(MoveKind.SWAP, 5, 2) == Move.from_text("c1=f1")``).
    Use :meth:`from_text` or the ready-made values :data:`DEAL`,
    :data:`REDEAL`, :func:`talon_build`, :func:`grid_build`, :func:`swap`.
    """

    kind: MoveKind
    src: int = -1
    dst: int = -1

    def __post_init__(self) -> None:
        # a swap is the same move whichever cell is named first: stored lower cell first
        if self.kind == MoveKind.SWAP and self.src > self.dst:
            src, dst = self.dst, self.src
            object.__setattr__(self, "src", src)
            object.__setattr__(self, "dst", dst)

    @staticmethod
    def from_text(text: str) -> Move:
        """Parse one move; raises :class:`MoveError` naming the problem."""
        t = text.strip().lower()
        if t in ("d", "deal"):
            return DEAL
        if t in ("r", "redeal"):
            return REDEAL
        m = _MOVE_RE.fullmatch(t)
        if m is None:
            raise MoveError(
                codes.MOVE_BAD_TEXT,
                f"cannot read move '{text}' (write d, r, t-c2, a1-c2 or a1=c2)",
                text=text,
            )
        src, op, dst = m.group(1), m.group(2), m.group(3)
        d = parse_cell(dst)
        if src == "t":
            if op != "-":
                raise MoveError(
                    codes.MOVE_BAD_TEXT,
                    f"cannot read move '{text}': the talon only builds (t-c2)",
                    text=text,
                )
            return TALON_BUILDS[d]
        s = parse_cell(src)
        if s == d:
            raise MoveError(
                codes.MOVE_SAME_CELL, f"move '{text}' names the same cell twice", text=text
            )
        return GRID_BUILDS[s][d] if op == "-" else SWAPS[s][d]

    def text(self) -> str:
        """The move's short text form (``"d"``, ``"t-c2"``, ``"a1-c2"``, ``"a1=c2"``)."""
        k = self.kind
        if k == MoveKind.DEAL:
            return "d"
        if k == MoveKind.REDEAL:
            return "r"
        if k == MoveKind.TALON:
            return "t-" + CELL_NAMES[self.dst]
        sep = "-" if k == MoveKind.BUILD else "="
        return CELL_NAMES[self.src] + sep + CELL_NAMES[self.dst]

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Move.from_text({self.text()!r})"

    @property
    def is_swap(self) -> bool:
        return self.kind == MoveKind.SWAP


_MOVE_RE: Final = re.compile(r"(t|[a-h][1-3])\s*([-=])\s*([a-z]\w*)")

DEAL: Final = Move(MoveKind.DEAL)
"""The move that deals cards from the stock onto the talon (``d``)."""
REDEAL: Final = Move(MoveKind.REDEAL)
"""The move that turns the talon over into a new stock (``r``)."""
TALON_BUILDS: Final[tuple[Move, ...]] = tuple(
    Move(MoveKind.TALON, -1, d) for d in range(GRID_SIZE)
)
"""The talon build onto each cell, by the cell's index."""
GRID_BUILDS: Final[tuple[tuple[Move, ...], ...]] = tuple(
    tuple(Move(MoveKind.BUILD, s, d) for d in range(GRID_SIZE)) for s in range(GRID_SIZE)
)
"""The grid build from each cell onto each other, by their indices."""
SWAPS: Final[tuple[tuple[Move, ...], ...]] = tuple(
    tuple(Move(MoveKind.SWAP, min(s, d), max(s, d)) for d in range(GRID_SIZE))
    for s in range(GRID_SIZE)
)
"""The swap of each two cells, by their indices (either order)."""


def talon_build(dst: int) -> Move:
    """The move of the talon's top card onto the pile of cell ``dst``."""
    return TALON_BUILDS[dst]


def grid_build(src: int, dst: int) -> Move:
    """The move of cards from the pile of cell ``src`` onto that of cell ``dst``."""
    return GRID_BUILDS[src][dst]


def swap(a: int, b: int) -> Move:
    """The move that exchanges the piles of cells ``a`` and ``b``."""
    return SWAPS[a][b]


_SPLIT_RE: Final = re.compile(r"[\s,]+")


def split_move_text(text: str) -> list[str]:
    """Move tokens of a list separated by spaces or commas (numbers ``12.`` dropped)."""
    return [t for t in _SPLIT_RE.split(text.strip()) if t and not _NUMBER_RE.fullmatch(t)]


_NUMBER_RE: Final = re.compile(r"[0-9]+\.+")


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


def parse_deck(text: str) -> list[Card]:
    """A deck string: 96 card codes separated by spaces; raises :class:`DeckError`.

    The first 24 fill the grid row by row, the rest are the stock from its top.
    """
    tokens = [t for t in _SPLIT_RE.split(text.strip()) if t]
    cards: list[Card] = []
    for pos, token in enumerate(tokens, start=1):
        card = parse_card_or_none(token)
        if card is None:
            raise DeckError(
                codes.DECK_UNKNOWN_CARD,
                f"position {pos}: unknown card '{token}'",
                position=pos,
                card=token,
            )
        cards.append(card)
    problems: list[str] = []
    if len(cards) != DECK_SIZE:
        problems.append(f"{len(cards)} cards, expected {DECK_SIZE}")
    counts = Counter(cards)
    wrong = [
        (c, counts.get(c, 0)) for c in range(len(CARD_CODES)) if counts.get(c, 0) != 2
    ]
    if wrong:
        problems.append(", ".join(f"{CARD_CODES[c]} {_times(n)}" for c, n in wrong))
    if problems:
        raise DeckError(
            codes.DECK_WRONG_CARDS,
            "; ".join(problems),
            count=len(cards),
            wrong={CARD_CODES[c]: n for c, n in wrong},
        )
    return cards


def _times(n: int) -> str:
    if n == 0:
        return "is missing"
    if n == 1:
        return "appears once"
    return f"appears {n} times"


def format_deck(cards: Iterable[Card]) -> str:
    """The cards' codes, separated by spaces: a deck string when all 96 are given."""
    return " ".join(CARD_CODES[c] for c in cards)


def format_cards(cards: Iterable[Card]) -> str:
    """Card codes run together (``5S8SJS``), or ``-`` for none."""
    text = "".join(CARD_CODES[c] for c in cards)
    return text or "-"


def parse_cards(text: str) -> list[Card]:
    """Inverse of :func:`format_cards`; raises :class:`CardError`."""
    if text == "-":
        return []
    if len(text) % 2:
        raise CardError(codes.CARDS_BAD_TEXT, f"cannot read cards '{text}'", card=text)
    return [parse_card(text[i : i + 2]) for i in range(0, len(text), 2)]
