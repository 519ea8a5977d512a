"""Widgets of the terminal game: grid cells drawn as cards, stock, talon and the text bars.

Widgets only draw what they are given (reactive attributes down) and report
clicks (messages up); they know no rule of the game.

Every grid cell draws its pile with the same :class:`CardLayout`, chosen from
the smallest cell, so that the top card sits on the same line of every cell
of a row, and the cards beneath it on fixed lines further down, off the
card's face, in quieter ink, after a mark (``└``): they cannot be taken for a top.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final, NamedTuple

from rich.style import Style
from rich.text import Text
from textual.app import RenderResult
from textual.containers import Grid
from textual.events import Click, Resize
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from devilsgrip.cards import (
    COLUMNS,
    IS_TOP,
    RANK_OF,
    ROWS,
    SUIT_OF,
    SUIT_SYMBOLS,
    Card,
)
from devilsgrip.i18n import RANK_LETTERS, _, card_symbol, current_language, ngettext
from devilsgrip.tui.places import STOCK, TALON, Place, place_name

TWO_COLOURS: Final = ("#1c1c1c", "#c8102e", "#c8102e", "#1c1c1c")
"""Ink of spades, hearts, diamonds, clubs on the card face: black and red."""
FOUR_COLOURS: Final = ("#1c1c1c", "#c8102e", "#1d5bc2", "#1b7a34")
"""The four-colour deck: black spades, red hearts, blue diamonds, green clubs."""
FACE: Final = "#f3efe2"
"""The card face."""
PICKED_FACE: Final = "#ffe98a"
"""The face of a picked-up card (also drawn in reverse, for terminals without colour)."""
BENEATH: Final = "#a8c0b0"
"""Ink of the cards beneath a top, on the felt: quieter than the text, still 6.3:1 (never
dimmed: a terminal's dim would take it below 4.5:1)."""
BACK_STYLE: Final = Style(color="#7fa7e8")

BENEATH_MARK: Final = "└"
"""Starts the line of the cards beneath the top card."""
HINT_MARK: Final = "»"
"""Before the name of a place the hint names."""
TITLE_FRAME: Final = 6
"""The cells of a border around its title: the corners, a line each side, a space each side."""
PICKED_MARK: Final = "↑"
"""Before the name of the place whose cards are picked up."""


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


# ------------------------------------------------------------------ cards
class CardLayout(NamedTuple):
    """How every grid cell draws its pile: ``lines`` x ``width`` inside its border.

    ``lines`` and ``width`` are those of the smallest cell, so every cell,
    in every row, draws the same lines.  The top card is always on line 0.
    """

    lines: int = 3
    width: int = 8

    @property
    def beneath(self) -> int:
        """Lines that list the cards beneath the top: two when a cell is too narrow for
        three of them spaced out on one line (and tall enough to keep a face line)."""
        if self.lines >= 3 and self.width < BENEATH_WIDEST:
            return 2
        return 1 if self.lines > 1 else 0

    @property
    def face(self) -> int:
        """Lines of the card face (the lines after it list the cards beneath)."""
        return max(1, self.lines - self.beneath)

    @property
    def corners(self) -> bool:
        """Rank and suit in two corners, as on a real card, and again in the middle."""
        return self.face >= 3 and self.width >= 9

    @property
    def big(self) -> bool:
        """The rank in large type in the middle of the face."""
        return self.face >= 7 and self.width >= 11


BENEATH_WIDEST: Final = len("└ 10♠ 10♥ 10♦")
"""The width that lists three cards beneath a top, spaced out, on one line."""
SMALL_LAYOUT: Final = CardLayout()
BIG_RANKS: Final[dict[int, tuple[str, str, str]]] = {
    2: ("╺━┓", "┏━┛", "┗━╸"),
    3: ("╺━┓", " ━┫", "╺━┛"),
    4: ("╻ ╻", "┗━┫", "  ╹"),
    5: ("┏━╸", "┗━┓", "╺━┛"),
    6: ("┏━╸", "┣━┓", "┗━┛"),
    7: ("╺━┓", "  ┃", "  ╹"),
    8: ("┏━┓", "┣━┫", "┗━┛"),
    9: ("┏━┓", "┗━┫", "╺━┛"),
    10: ("╻┏━┓", "┃┃ ┃", "╹┗━┛"),
    11: ("  ╻", "  ┃", "┗━┛"),
    12: ("┏━┓", "┃ ┃", "┗━╋"),
    13: ("┃┏┛", "┣┫ ", "┃┗┓"),
}
"""Ranks 2 .. K drawn three lines high, for the large cards (J, Q, K only where the
language writes them so: its own letters are drawn as they are)."""


def _line(text: Text, width: int, align: str, style: Style) -> Text:
    """``text`` placed in a line of exactly ``width`` cells, all of it on ``style``
    (the card's face: the text's own colours are drawn on its background)."""
    text = text.copy()
    text.truncate(width)
    room = width - text.cell_len
    left = {"left": 0, "right": room, "center": room // 2}[align]
    line = Text(" " * left, style=style)
    line.append_text(text)
    line.append(" " * (room - left))
    return line


def pile_lines(pile: Sequence[Card], layout: CardLayout, width: int, four_colour: bool, *,
               picked: bool = False, empty_word: str = "") -> list[Text]:
    """The lines that draw ``pile`` in a cell ``width`` wide: the face, then the cards beneath.

    An empty cell draws ``empty_word``, dim, on its first line and no face.
    """
    felt = Style()
    if not pile:
        word = _line(Text(empty_word, style=Style(dim=True, italic=True)), width, "center",
                     felt)
        return [word] + [Text("")] * (layout.lines - 1)
    top = pile[-1]
    face = Style(bgcolor=PICKED_FACE if picked else FACE, reverse=picked)
    ink = Style(color=suit_colour(top, four_colour), bold=True)
    symbol = card_symbol(top)
    lines: list[Text] = []
    if layout.corners:
        middle = [Text(symbol, style=ink)]
        if layout.big and not (IS_TOP[top] and current_language() in RANK_LETTERS):
            middle = [Text(row, style=ink) for row in BIG_RANKS[RANK_OF[top]]]
            middle.append(Text(SUIT_SYMBOLS[SUIT_OF[top]], style=ink))
        face_lines = [Text("")] * layout.face
        first = (layout.face - len(middle) + 1) // 2
        if first < 1 or first + len(middle) > layout.face - 1:  # it would touch a corner
            middle, first = [Text(symbol, style=ink)], layout.face // 2
        for i, row in enumerate(middle):
            face_lines[first + i] = row
        for i, row in enumerate(face_lines):
            if i == 0:
                lines.append(_line(Text(" ") + Text(symbol, style=ink), width, "left", face))
            elif i == layout.face - 1:
                lines.append(_line(Text(symbol, style=ink) + Text(" "), width, "right", face))
            else:
                lines.append(_line(row, width, "center", face))
    else:
        lines.append(_line(Text(symbol, style=ink), width, "center", face))
        lines.extend(_line(Text(""), width, "center", face) for _ in range(layout.face - 1))
    lines.extend(beneath_lines(pile[:-1], width, layout.beneath))
    return lines


def beneath_lines(beneath: Sequence[Card], width: int, count: int) -> list[Text]:
    """``count`` lines listing the cards beneath the top, bottom first, in quiet ink on
    the felt after :data:`BENEATH_MARK`: spaced out, on a second line when one is too
    narrow (run together only when even that is too narrow)."""
    if count <= 0:
        return []
    lines = [""] * count
    symbols = [card_symbol(c) for c in beneath]
    if symbols:
        row = 0
        lines[0] = BENEATH_MARK
        for symbol in symbols:
            if len(lines[row]) + 1 + len(symbol) > width and row + 1 < count \
                    and lines[row] != BENEATH_MARK:
                row += 1
                lines[row] = " "
            lines[row] += " " + symbol
        if any(len(line) > width for line in lines):  # too narrow even so
            lines = [BENEATH_MARK + "".join(symbols)] + [""] * (count - 1)
    out = []
    for line in lines:
        text = Text(line, style=Style(color=BENEATH))
        text.truncate(width)
        out.append(text)
    return out


# ----------------------------------------------------------------- places
class PlaceWidget(Widget):
    """A widget that stands for one place of the table; a click reports that place.

    ``cursor``, ``hinted`` and ``picked`` are set by the screen; each shows
    in the border (CSS classes) and, for the hint and the picked-up cards, as
    a mark before the place's name, so they differ without colour too.
    """

    cursor: reactive[bool] = reactive(False, toggle_class="-cursor")
    hinted: reactive[bool] = reactive(False, toggle_class="-hint")
    picked: reactive[bool] = reactive(False, toggle_class="-picked")
    four_colour: reactive[bool] = reactive(False)

    class Clicked(Message):
        """The player clicked a place."""

        def __init__(self, place: Place) -> None:
            super().__init__()
            self.place = place

    def __init__(self, place: Place) -> None:
        super().__init__(id=f"place-{place_name(place)}", classes="place")
        self.place = place

    def name_text(self) -> str:
        """The place's name as its border shows it (ids, not words, for the cells)."""
        return place_name(self.place)

    def _retitle(self) -> None:
        marks = (HINT_MARK if self.hinted else "") + (PICKED_MARK if self.picked else "")
        name = self.name_text()
        # the border keeps the name whole: the marks touch it when a space would not fit
        room = self.outer_size.width - TITLE_FRAME
        joint = " " if self.outer_size.width == 0 or len(marks) + 1 + len(name) <= room else ""
        self.border_title = f"{marks}{joint}{name}" if marks else name

    def relabel(self) -> None:
        """Name the place again and draw it again, in the process language (just changed)."""
        self._retitle()
        self.refresh()

    def on_resize(self) -> None:
        self._retitle()

    def watch_hinted(self) -> None:
        self._retitle()

    def watch_picked(self) -> None:
        self._retitle()

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.place))


class PileCell(PlaceWidget):
    """A grid cell: its pile drawn as a card (see :func:`pile_lines`), the pile's size below."""

    pile: reactive[tuple[Card, ...]] = reactive(())
    card_layout: reactive[CardLayout] = reactive(SMALL_LAYOUT)

    def on_mount(self) -> None:
        self._retitle()

    def watch_pile(self, pile: tuple[Card, ...]) -> None:
        self.set_class(not pile, "-empty")
        self.set_class(bool(pile), "-filled")
        self.border_subtitle = f"×{len(pile)}" if pile else ""

    def render(self) -> RenderResult:
        width = max(1, self.content_size.width)
        grid = self.parent
        # the grid's layout, also when the cell was not yet there as the grid got its size
        layout = grid.card_layout if isinstance(grid, PileGrid) else self.card_layout
        lines = pile_lines(self.pile, layout, width, self.four_colour, picked=self.picked,
                           empty_word=_("empty"))
        return Text("\n").join(lines)


class PileGrid(Grid):
    """The 3 x 8 grid of cells; it hands every cell the layout of the smallest one."""

    card_layout: reactive[CardLayout] = reactive(SMALL_LAYOUT)

    def on_resize(self, event: Resize) -> None:
        width, height = event.size
        # cells of 1fr: the smallest is the floor of the share; 2 for the border
        self.card_layout = CardLayout(lines=max(1, height // ROWS - 2),
                                      width=max(1, width // COLUMNS - 2))

    def watch_card_layout(self, card_layout: CardLayout) -> None:
        for cell in self.query(PileCell):
            cell.card_layout = card_layout


class StockBox(PlaceWidget):
    """The stock, face down: a card back and how many cards are left."""

    count: reactive[int] = reactive(0)

    def __init__(self) -> None:
        super().__init__(STOCK)

    def name_text(self) -> str:
        return _("stock")

    def on_mount(self) -> None:
        self._retitle()

    def watch_count(self, count: int) -> None:
        self.set_class(count == 0, "-empty")

    def render(self) -> RenderResult:
        text = Text()
        if self.count:
            text.append("░▒▓▒░▒▓", style=BACK_STYLE)
        text.append("\n")
        text.append(ngettext("{n} card", "{n} cards", self.count).format(n=self.count))
        return text


class TalonBox(PlaceWidget):
    """The talon: the last three cards turned, fanned, its top (playable) last on its face."""

    cards: reactive[tuple[Card, ...]] = reactive(())
    count: reactive[int] = reactive(0)

    def __init__(self) -> None:
        super().__init__(TALON)

    def name_text(self) -> str:
        return _("talon")

    def on_mount(self) -> None:
        self._retitle()

    def watch_count(self, count: int) -> None:
        self.set_class(count == 0, "-empty")

    def render(self) -> RenderResult:
        text = Text()
        if not self.cards:
            text.append(_("empty"), style=Style(dim=True, italic=True))
        *fanned, top = self.cards or (None,)
        for card in fanned:  # covered: plain ink on the card's face, readable (>= 4.5:1)
            assert card is not None
            covered = card_text(card, self.four_colour, bold=False)
            covered.stylize(Style(bgcolor=FACE))
            text.append_text(covered)
            text.append(" ")
        if top is not None:
            face = Style(bgcolor=PICKED_FACE if self.picked else FACE, reverse=self.picked)
            shown = Text(" ", style=face)
            shown.append_text(card_text(top, self.four_colour))
            shown.append(" ")
            text.append_text(shown)
        text.append("\n")
        text.append(ngettext("{n} card", "{n} cards", self.count).format(n=self.count))
        return text


# -------------------------------------------------------------- text bars
def pack(items: Sequence[Text], width: int, sep: str = "   ") -> Text:
    """``items`` in lines at most ``width`` wide, never breaking an item across lines
    (unless it is wider than a line by itself)."""
    lines: list[Text] = []
    line = Text()
    for item in items:
        if line.cell_len and line.cell_len + len(sep) + item.cell_len > width:
            lines.append(line)
            line = Text()
        if line.cell_len:
            line.append(sep)
        line.append_text(item)
    if line.cell_len:
        lines.append(line)
    return Text("\n").join(lines)


class Packed(Widget):
    """Items in as many lines as they need, each kept whole (see :func:`pack`)."""

    items: reactive[tuple[Text, ...]] = reactive((), layout=True)

    DEFAULT_CSS = "Packed { height: auto; }"

    def __init__(self, items: Sequence[Text | str] = (), *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.set_reactive(Packed.items, tuple(Text(i) if isinstance(i, str) else i
                                              for i in items))

    def render(self) -> RenderResult:
        return pack(self.items, max(1, self.content_size.width))


class InfoPanel(Widget):
    """Score, rating, moves, redeals, status, best: items that wrap as a whole.

    Its border names the deal and the rules; rules too long for the border
    are told as the last item instead (nothing is cut).
    """

    heading: reactive[tuple[str, str]] = reactive(("", ""))
    """The deal and the rules."""
    items: reactive[tuple[Text, ...]] = reactive(())

    def _titled(self) -> bool:
        """Whether the rules fit in the border after the deal."""
        deal, rules = self.heading
        return len(f"{deal}  ·  {rules}") + 6 <= self.size.width

    def watch_heading(self) -> None:
        self._retitle()

    def on_resize(self) -> None:
        self._retitle()

    def _retitle(self) -> None:
        deal, rules = self.heading
        self.border_title = f"{deal}  ·  {rules}" if self._titled() else deal

    def render(self) -> RenderResult:
        items = self.items if self._titled() else (*self.items, Text(self.heading[1]))
        return pack(items, max(1, self.content_size.width))


class KeyHint(NamedTuple):
    """One key of the key bar: what to press, what it does now, and whether it always shows."""

    key: str
    label: str
    pinned: bool = False


class KeyBar(Widget):
    """The keys that apply now, in order; pinned keys always show.  When they do not all
    fit, they are shown in pages, each with :attr:`MORE` (the key that turns the page)
    and where it is ("2/2"): no key is left out without a sign."""

    GAP: ClassVar[str] = "  "
    MORE: ClassVar[str] = "m"
    hints: reactive[tuple[KeyHint, ...]] = reactive(())
    page: reactive[int] = reactive(0)
    """The page shown (see :meth:`pages`); back to the first when the keys change."""

    @staticmethod
    def fitting(hints: Sequence[KeyHint], width: int, gap: str = "  ") -> list[KeyHint]:
        """The hints of the first page in ``width`` cells (see :meth:`pages`)."""
        return KeyBar.pages(hints, width, gap)[0]

    @staticmethod
    def pages(hints: Sequence[KeyHint], width: int, gap: str = "  ",
              more: str = "m") -> list[list[KeyHint]]:
        """The hints in pages of ``width`` cells: all on one page when they fit; else every
        page has the pinned ones, as many others as fit in order, and ``more`` with the
        page's number, so that every key is on a page."""

        def size(hint: KeyHint) -> int:
            return Text(f"{hint.key} {hint.label}").cell_len + len(gap)

        pinned = sum(size(h) for h in hints if h.pinned)
        if pinned + sum(size(h) for h in hints if not h.pinned) <= width + len(gap):
            return [list(hints)]
        others = [h for h in hints if not h.pinned]
        label = _("more")
        room = width + len(gap) - pinned - size(KeyHint(more, f"{label} 9/9"))
        chunks: list[list[KeyHint]] = []
        for hint in others:
            if chunks and sum(size(h) for h in chunks[-1]) + size(hint) <= room:
                chunks[-1].append(hint)
            else:
                chunks.append([hint])
        pages: list[list[KeyHint]] = []
        for n, chunk in enumerate(chunks, 1):
            page = [h for h in hints if h.pinned or h in chunk]
            turn = KeyHint(more, f"{label} {n}/{len(chunks)}", True)
            # the page's own keys, then "more", then the pinned key that closes the bar
            page.insert(len(page) - 1 if len(page) > 1 and page[-1].pinned else len(page),
                        turn)
            pages.append(page)
        return pages

    def watch_hints(self, old: tuple[KeyHint, ...], new: tuple[KeyHint, ...]) -> None:
        if old != new:
            self.page = 0

    def turn_page(self) -> bool:
        """Show the next page of keys (the first after the last); False when all fit."""
        count = len(self.pages(self.hints, self.content_size.width, self.GAP, self.MORE))
        if count <= 1:
            return False
        self.page = (self.page + 1) % count
        return True

    def shown(self) -> list[KeyHint]:
        """The hints on the page shown."""
        pages = self.pages(self.hints, self.content_size.width, self.GAP, self.MORE)
        return pages[self.page % len(pages)]

    def render(self) -> RenderResult:
        text = Text(no_wrap=True)
        for i, hint in enumerate(self.shown()):
            if i:
                text.append(self.GAP)
            text.append(hint.key, style="bold")
            text.append(" " + hint.label)
        return text
