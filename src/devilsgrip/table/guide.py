"""The first-game guide: what a new player is shown on the table until their first action.

Every screen draws the same guide from :func:`first_steps` (the three build orders, one
on each row of the grid, and a pointer at the stock) and shows it while the player's
:data:`~devilsgrip.table.settings.GUIDE_SEEN` setting is off; the first action puts it
away and turns the setting on, for every screen.

>>> guide = first_steps(Words("en"), Rules())
>>> guide.rows
('2 → 5 → 8 → J', '3 → 6 → 9 → Q', '4 → 7 → 10 → K')
>>> guide.stock
'Start here: the stock deals 3 cards onto the talon.'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final

from devilsgrip.cards import COLUMNS, ROWS, SUIT_SYMBOLS, make_card
from devilsgrip.i18n import N_
from devilsgrip.rules import Rules
from devilsgrip.table.words import Words

SEQUENCE_BASES: Final = (2, 3, 4)
"""The base of each row's build order, top row first (a won grid ends with its jacks in
row 1, its queens in row 2 and its kings in row 3)."""


@dataclass(frozen=True)
class Guide:
    """The guide's words: its title, the sentence pointing at the stock, the build order
    shown on each row (top row first), how building goes, how the guide goes away, and
    the label of the button that puts it away."""

    title: str
    stock: str
    rows: tuple[str, ...]
    build: str
    away: str
    close: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _rank(words: Words, rank: int) -> str:
    """A rank as the table writes it on a card (the card's text without its suit)."""
    return words.card(make_card(rank, 0)).rstrip(SUIT_SYMBOLS)


def build_orders(words: Words) -> tuple[str, ...]:
    """The three build orders, one per row: ``2 → 5 → 8 → J`` ..."""
    assert len(SEQUENCE_BASES) == ROWS and COLUMNS == 8
    return tuple(" → ".join(_rank(words, base + 3 * k) for k in range(4))
                 for base in SEQUENCE_BASES)


def first_steps(words: Words, rules: Rules | str) -> Guide:
    """The first-game guide in the player's words, for a game under ``rules``."""
    draw = Rules.parse(rules).draw
    eight, five = (words.card(make_card(rank, 0)) for rank in (8, 5))
    return Guide(
        title=words.gettext(N_("Your first game")),
        stock=words.ngettext("Start here: the stock deals {count} card onto the talon.",
                             "Start here: the stock deals {count} cards onto the talon.",
                             draw).format(count=draw),
        rows=build_orders(words),
        build=words.gettext(N_("Build up in suit along the orders on the rows, in any cell: "
                               "{card} goes on {onto}. Empty the stock and the talon to win."))
        .format(card=eight, onto=five),
        away=words.gettext(N_("Your first move puts this guide away.")),
        close=words.gettext(N_("Got it")),
    )
