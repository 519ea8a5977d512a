"""Widgets of the terminal game: grid cells, stock, talon and the text bars.

Widgets only draw what they are given (attributes down) and report clicks
(messages up); they know no rule of the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.style import Style
from rich.text import Text
from textual.app import RenderResult
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from devilsgrip.cards import SUIT_OF, Card, card_symbol
from devilsgrip.i18n import _, ngettext
from devilsgrip.tui.places import STOCK, TALON, Place, place_name

TWO_COLOURS: Final = ("#1c1c1c", "#c8102e", "#c8102e", "#1c1c1c")
"""Ink of spades, hearts, diamonds, clubs on the card face: black and red."""
FOUR_COLOURS: Final = ("#1c1c1c", "#c8102e", "#1d5bc2", "#1b7a34")
"""The four-colour deck: black spades, red hearts, blue diamonds, green clubs."""
BACK_STYLE: Final = Style(color="#7fa7e8")


def suit_colour(card: Card, four_colour: bool) -> str:
    return (FOUR_COLOURS if four_colour else TWO_COLOURS)[SUIT_OF[card]]


def card_text(card: Card, four_colour: bool, *, bold: bool = True, dim: bool = False) -> Text:
    """The card as rank and suit symbol (``10♠``) in its suit's colour."""
    return Text(card_symbol(card), style=Style(color=suit_colour(card, four_colour),
                                               bold=bold, dim=dim))


def cards_text(cards: Sequence[Card], four_colour: bool, *, sep: str = "") -> Text:
    """Several cards in a row, plainly (no bold)."""
    text = Text()
    for i, card in enumerate(cards):
        if i and sep:
            text.append(sep)
        text.append_text(card_text(card, four_colour, bold=False))
    return text


class PlaceWidget(Widget):
    """A widget that stands for one place of the table; a click reports that place."""

    class Clicked(Message):
        """The player clicked a place."""

        def __init__(self, place: Place) -> None:
            super().__init__()
            self.place = place

    def __init__(self, place: Place) -> None:
        super().__init__(id=f"place-{place_name(place)}", classes="place")
        self.place = place
        self.four_colour = False

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.place))


class PileCell(PlaceWidget):
    """A grid cell: its top card large, the cards beneath it small, the size below."""

    def __init__(self, place: Place) -> None:
        super().__init__(place)
        self.pile: tuple[Card, ...] = ()
        self.border_title = place_name(place)

    def show(self, pile: tuple[Card, ...], four_colour: bool) -> None:
        if pile == self.pile and four_colour == self.four_colour and self.border_subtitle:
            return
        self.pile = pile
        self.four_colour = four_colour
        self.set_class(not pile, "-empty")
        self.set_class(bool(pile), "-filled")
        self.border_subtitle = f"×{len(pile)}" if pile else ""
        self.refresh()

    def render(self) -> RenderResult:
        if not self.pile:
            return Text("")
        text = card_text(self.pile[-1], self.four_colour)
        beneath = self.pile[:-1]
        if beneath:
            text.append("\n")
            text.append_text(cards_text(beneath, self.four_colour))
        return text


class StockBox(PlaceWidget):
    """The stock, face down: a card back and how many cards are left."""

    def __init__(self) -> None:
        super().__init__(STOCK)
        self.count = 0

    def show(self, count: int) -> None:
        self.count = count
        self.border_title = _("stock")
        self.set_class(count == 0, "-empty")
        self.refresh()

    def render(self) -> RenderResult:
        text = Text()
        if self.count:
            text.append("░▒▓▒░▒▓", style=BACK_STYLE)
        text.append("\n")
        text.append(ngettext("{n} card", "{n} cards", self.count).format(n=self.count))
        return text


class TalonBox(PlaceWidget):
    """The talon: the last three cards turned, fanned, its top (playable) last."""

    def __init__(self) -> None:
        super().__init__(TALON)
        self.cards: tuple[Card, ...] = ()
        self.count = 0

    def show(self, talon: Sequence[Card], four_colour: bool) -> None:
        self.cards = tuple(talon[-3:])
        self.count = len(talon)
        self.four_colour = four_colour
        self.border_title = _("talon")
        self.set_class(not talon, "-empty")
        self.refresh()

    def render(self) -> RenderResult:
        text = Text()
        for i, card in enumerate(self.cards):
            top = i == len(self.cards) - 1
            if i:
                text.append(" ")
            text.append_text(card_text(card, self.four_colour, bold=top, dim=not top))
        text.append("\n")
        text.append(ngettext("{n} card", "{n} cards", self.count).format(n=self.count),
                    style="default")
        return text
