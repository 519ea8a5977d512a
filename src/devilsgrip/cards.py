"""Cards, the 96-card deck and numbered deals; the cells' names and the cards' and decks'
text forms.

A card is a small int ``0 <= card < 48``: ``card = suit * 12 + (rank - 2)``
with suits in the order spades, hearts, diamonds, clubs and ranks 2 .. 13
(jack 11, queen 12, king 13).  Every card exists twice in the deck; the two
copies are the same int.

With this numbering the card that goes on ``card`` in its suit sequence
(2-5-8-J, 3-6-9-Q, 4-7-10-K) is simply ``card + 3``, when
``card % 12 < 9``.

Numbered deals
--------------
Game number ``n`` (``1 <= n < 2**63``) gives one deal on every platform and in
every version.  The shuffle does not use Python's :mod:`random`:

1. start from the deck in *reference order*: two copies, each copy the suits
   spades, hearts, diamonds, clubs, each suit ranks 2 .. K
   (``2S 3S .. KS 2H .. KC 2S .. KC``);
2. seed a SplitMix64 generator with ``n``: ``state = n``; every call does
   ``state = (state + 0x9E3779B97F4A7C15) mod 2**64`` and returns
   ``z = state``, ``z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9``,
   ``z = (z ^ z >> 27) * 0x94D049BB133111EB``, ``z ^ z >> 31`` (mod ``2**64``);
3. Fisher-Yates from the end: for ``i`` from 95 down to 1, draw ``j`` uniform
   in ``0 .. i`` by rejection (draw ``x``; reject while
   ``x >= 2**64 - 2**64 % (i + 1)``; ``j = x % (i + 1)``) and exchange
   positions ``i`` and ``j``.

The result is the deck string order: the first 24 cards fill the grid row by
row, the 25th is the top of the stock.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Final

from devilsgrip import codes
from devilsgrip.errors import CardError, DeckError, MoveError

Card = int
"""A card: an int ``0 <= card < 48``, ``suit * 12 + rank - 2`` (both copies share it)."""

SUITS: Final = "SHDC"
"""The suits' codes, in card order: spades, hearts, diamonds, clubs."""
SUIT_SYMBOLS: Final = "♠♥♦♣"
"""The suits' symbols, in card order."""
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
"""The suits' English names, in card order."""
RANKS: Final = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
"""The ranks in the deck, 2 .. 13 (jack 11, queen 12, king 13; no aces)."""
RANK_CODES: Final = "23456789TJQK"
"""The ranks' one-letter codes, in rank order (``T`` for 10)."""
RANK_NAMES: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
"""The ranks' English names, in rank order."""

N_CARDS: Final = 48
"""Distinct cards (each exists twice)."""
DECK_SIZE: Final = 96
"""Cards in the deck: two 48-card packs without aces."""
GRID_SIZE: Final = 24
"""Cells of the grid: 3 rows of 8."""
COLUMNS: Final = 8
"""Columns of the grid (``a`` .. ``h``)."""
ROWS: Final = 3
"""Rows of the grid (``1`` .. ``3``, top to bottom)."""
MAX_GAME_NUMBER: Final = 2**63 - 1
"""The largest game number: numbered deals are 1 .. ``2**63 - 1``."""
MAX_COUNT: Final = 10**9
"""The largest count a text may give: redeals allowed or done, moves played
(no game comes near it)."""

_MASK64: Final = (1 << 64) - 1


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (2 .. 13) and ``suit`` (0 .. 3, spades first)."""
    if not 2 <= rank <= 13 or not 0 <= suit <= 3:
        raise ValueError(f"no such card: rank {rank}, suit {suit}")
    return suit * 12 + rank - 2


RANK_OF: Final[tuple[int, ...]] = tuple(c % 12 + 2 for c in range(N_CARDS))
"""The rank (2 .. 13) of each card."""
SUIT_OF: Final[tuple[int, ...]] = tuple(c // 12 for c in range(N_CARDS))
"""The suit (0 .. 3, spades first) of each card."""
LEVEL_OF: Final[tuple[int, ...]] = tuple(c % 12 // 3 for c in range(N_CARDS))
"""Position in its sequence: 0 for the bases 2, 3, 4; 3 for J, Q, K."""
SEQUENCE_OF: Final[tuple[int, ...]] = tuple(c % 3 for c in range(N_CARDS))
"""0 for 2-5-8-J, 1 for 3-6-9-Q, 2 for 4-7-10-K."""
NEXT: Final[tuple[int, ...]] = tuple(c + 3 if c % 12 < 9 else -1 for c in range(N_CARDS))
"""The card that may be placed on this one, or -1 (nothing goes on J, Q, K)."""
PREV: Final[tuple[int, ...]] = tuple(c - 3 if c % 12 >= 3 else -1 for c in range(N_CARDS))
"""The card this one may be placed on, or -1 (bases go on nothing)."""
IS_BASE: Final[tuple[bool, ...]] = tuple(c % 12 < 3 for c in range(N_CARDS))
"""Whether each card is a base (a 2, 3 or 4): it enters the grid only by a fill."""
IS_TOP: Final[tuple[bool, ...]] = tuple(c % 12 >= 9 for c in range(N_CARDS))
"""Whether each card ends its sequence (a jack, queen or king): nothing goes on it."""

CARD_CODES: Final[tuple[str, ...]] = tuple(
    RANK_CODES[c % 12] + SUITS[c // 12] for c in range(N_CARDS)
)
"""The two-letter code of each card (``"TS"``, ``"8H"``)."""

_SUIT_ALIASES: Final = {
    "S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3,
    "♤": 0, "♡": 1, "♢": 2, "♧": 3,
}
_RANK_ALIASES: Final = {code: i + 2 for i, code in enumerate(RANK_CODES)} | {"10": 10}


def parse_card_or_none(text: str) -> Card | None:
    """The card named by ``text`` (``"TS"``, ``"10♠"``, ``"qh"``) or None."""
    t = text.strip().upper()
    if len(t) < 2:
        return None
    rank = _RANK_ALIASES.get(t[:-1])
    suit = _SUIT_ALIASES.get(t[-1])
    if rank is None or suit is None:
        return None
    return suit * 12 + rank - 2


def parse_number(text: str, high: int) -> int | None:
    """The whole number ``text`` writes in ASCII digits (``"0042"`` is 42), or None.

    Signs, spaces, ``_`` and other scripts' digits (``"²"``, ``"٣"``, ``"１"``)
    are not digits here, though :func:`int` takes some of them.  A number above
    ``high`` gives ``high + 1``, so that no huge int is ever built (:func:`int`
    refuses more than 4,300 digits) and the caller reports it out of range.

    >>> parse_number("0042", 96), parse_number("²", 96), parse_number("9" * 5000, 96)
    (42, None, 97)
    """
    if not text or not text.isascii() or not text.isdigit():
        return None
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(high)):
        return high + 1
    return min(int(digits), high + 1)


def number_text(number: int) -> str:
    """``str(number)``, or its last 12 digits after ``…`` when it has more than 40.

    :func:`str` refuses ints of more than 4,300 digits; a message never needs them all.
    """
    if -(10**40) < number < 10**40:
        return str(number)
    return ("-" if number < 0 else "") + "…" + f"{abs(number) % 10**12:012d}"


def short_text(text: str, limit: int = 40) -> str:
    """``text`` for a message: when longer than ``limit``, its start and end around ``…``."""
    if len(text) <= limit:
        return text
    return text[: limit // 2] + "…" + text[-12:]


def card_code(card: Card) -> str:
    """Canonical two-letter code: ``"TS"`` for the ten of spades."""
    return CARD_CODES[card]


def card_symbol(card: Card) -> str:
    """Short form with a suit symbol: ``"10♠"``."""
    rank = RANK_OF[card]
    r = "10" if rank == 10 else RANK_CODES[rank - 2]
    return r + SUIT_SYMBOLS[SUIT_OF[card]]


def card_name(card: Card) -> str:
    """English name: ``"8 of spades"``, ``"queen of hearts"``."""
    return f"{RANK_NAMES[card % 12]} of {SUIT_NAMES[card // 12]}"


def reference_deck() -> list[Card]:
    """The unshuffled deck: two copies of 2S .. KS 2H .. KC."""
    return [c for _ in range(2) for c in range(N_CARDS)]


def _splitmix64(seed: int) -> Iterator[int]:
    state = seed & _MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        yield z ^ (z >> 31)


def numbered_deck(number: int) -> list[Card]:
    """The deck of game ``number`` (see the module documentation)."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise TypeError("a game number is an int")
    if not 1 <= number <= MAX_GAME_NUMBER:
        raise ValueError(f"game number {number} out of range 1 .. {MAX_GAME_NUMBER}")
    deck = reference_deck()
    rng = _splitmix64(number)
    for i in range(DECK_SIZE - 1, 0, -1):
        bound = i + 1
        limit = (1 << 64) - (1 << 64) % bound
        x = next(rng)
        while x >= limit:
            x = next(rng)
        j = x % bound
        deck[i], deck[j] = deck[j], deck[i]
    return deck


CELL_NAMES: Final[tuple[str, ...]] = tuple(
    "abcdefgh"[i % COLUMNS] + str(i // COLUMNS + 1) for i in range(GRID_SIZE)
)
"""``a1`` .. ``h1``, ``a2`` .. ``h3``: cell ``i`` is column ``i % 8``, row ``i // 8``."""
CELL_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(CELL_NAMES)}
"""Each cell's index in the grid, by its name (``"a1"`` is 0, ``"h3"`` is 23)."""


def parse_cell(text: str) -> int:
    """Cell index (0 .. 23) of ``a1`` .. ``h3``; raises :class:`MoveError`."""
    cell = CELL_INDEX.get(text.strip().lower())
    if cell is None:
        raise MoveError(
            codes.CELL_UNKNOWN, f"unknown cell '{text}' (cells are a1 .. h3)", cell=text
        )
    return cell


def parse_card(text: str) -> Card:
    """The card named by ``text``; raises :class:`CardError`."""
    card = parse_card_or_none(text)
    if card is None:
        raise CardError(codes.CARD_UNKNOWN, f"unknown card '{text}'", card=text)
    return card


SEPARATORS: Final = re.compile(r"[\s,]+")
"""What separates the items of a list written as text (a deck string, a list of moves):
spaces or commas."""


def parse_deck(text: str) -> list[Card]:
    """A deck string: 96 card codes separated by spaces; raises :class:`DeckError`.

    The first 24 fill the grid row by row, the rest are the stock from its top.
    """
    tokens = [t for t in SEPARATORS.split(text.strip()) if t]
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
