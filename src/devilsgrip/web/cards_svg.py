"""Card images for the browser game, drawn as SVG by our own code.

Every image is a standalone SVG document (``viewBox 0 0 200 280``, a 5:7
card) that the server sends as ``image/svg+xml`` at ``/cards/{name}.svg``:

>>> svg = card_svg("TS")
>>> svg.startswith("<svg") and 'data-card="TS"' in svg
True
>>> card_svg("QH", four_colour=True) != card_svg("QH")
True

Faces carry a classic corner index, a large rank with its suit under it, in
the left :data:`INDEX_WIDTH` units (readable when a card is 40 px wide, as on
a 360 px phone with eight columns, and visible on the lower cards of the
talon's fan, which shows at least that much of each card), a second suit in
the top right corner and a big symbol below; jacks, queens and kings get a
framed emblem.  Suit shapes are
paths, not font glyphs, so they look the same everywhere.  The only text is
the rank, set in a common sans-serif system font.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from devilsgrip import codes
from devilsgrip.cards import RANK_OF, SUIT_OF, SUITS, card_name, parse_card_or_none
from devilsgrip.errors import CardError

WIDTH: Final = 200
HEIGHT: Final = 280
RADIUS: Final = 16
INDEX_WIDTH: Final = 92
"""The corner index (rank over suit) lies in ``0 <= x < INDEX_WIDTH``."""

TWO_COLOURS: Final = ("#1b1b1f", "#c0142c", "#c0142c", "#1b1b1f")
"""Ink per suit (spades, hearts, diamonds, clubs) for the usual deck."""
FOUR_COLOURS: Final = ("#1b1b1f", "#c0142c", "#0b57b8", "#137a35")
"""Ink per suit for the four-colour deck: black, red, blue, green."""
TINTS: Final = ("#eef0f4", "#fcecee", "#e9f0fb", "#e8f4ec")
"""Light panel fills behind the emblems of the court cards."""

_FONT: Final = "'DejaVu Sans','Liberation Sans',Arial,Helvetica,sans-serif"

# Suit shapes in a 100 x 100 box, drawn by hand for this project.
_SUIT_PATHS: Final = (
    # spades: a pointed leaf on a flared stem
    "M50 4C62 19 96 38 96 62C96 77 84 87 71 87C63 87 57 83 53.5 77"
    "C54.5 86 58 92 66 97H34C42 92 45.5 86 46.5 77C43 83 37 87 29 87"
    "C16 87 4 77 4 62C4 38 38 19 50 4Z",
    # hearts
    "M50 93C33 77 4 58 4 33C4 17 16 6 30 6C40 6 47 12 50 20"
    "C53 12 60 6 70 6C84 6 96 17 96 33C96 58 67 77 50 93Z",
    # diamonds: slightly curved sides
    "M50 3Q67 29 90 50Q67 71 50 97Q33 71 10 50Q33 29 50 3Z",
    # clubs: three lobes and a stem
    "M50 6A20 20 0 0 1 67.5 36A20 20 0 1 1 56 74C57 85 60 91 67 97H33"
    "C40 91 43 85 44 74A20 20 0 1 1 32.5 36A20 20 0 0 1 50 6Z",
)
SUIT_PATHS: Final = _SUIT_PATHS
"""The suits' shapes (spades, hearts, diamonds, clubs), also drawn as the app's icon."""

_RANK_TEXT: Final = {10: "10", 11: "J", 12: "Q", 13: "K"}


def _suit(suit: int, x: float, y: float, size: float, fill: str, extra: str = "") -> str:
    """The suit shape with its box's top left corner at (x, y), ``size`` wide."""
    k = size / 100
    return (
        f'<path transform="translate({x:g} {y:g}) scale({k:g})" fill="{fill}"{extra} '
        f'd="{_SUIT_PATHS[suit]}"/>'
    )


def _rank_label(rank: int) -> str:
    return _RANK_TEXT.get(rank, str(rank))


def _frame(body: str, label: str, data: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" {data}>'
        f"<title>{label}</title>{body}</svg>"
    )


def _card_base(fill: str = "#fffdf8", stroke: str = "#9a9384") -> str:
    return (
        f'<rect x="1.5" y="1.5" width="{WIDTH - 3}" height="{HEIGHT - 3}" rx="{RADIUS}" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="3"/>'
    )


INDEX_RANK_X: Final = 12
INDEX_RANK_SIZE: Final = 84
INDEX_TEN_LENGTH: Final = 76
"""The two digits of a 10 are fitted into this width (the widest rank)."""
INDEX_SUIT: Final = (16, 96, 52)
"""The suit under the rank: box left, top, size."""


def _index(rank: int, suit: int, ink: str) -> str:
    """The corner index: the rank with its suit under it, and the suit again top right.

    The rank and the suit under it stay left of :data:`INDEX_WIDTH`, so a card
    covered by another card shifted that far still shows both.
    """
    label = _rank_label(rank)
    fit = (f' textLength="{INDEX_TEN_LENGTH}" lengthAdjust="spacingAndGlyphs"'
           if rank == 10 else "")
    x, y, size = INDEX_SUIT
    return (
        f'<text x="{INDEX_RANK_X}" y="84" font-family="{_FONT}" font-weight="bold" '
        f'font-size="{INDEX_RANK_SIZE}" fill="{ink}"{fit}>{label}</text>'
        + _suit(suit, x, y, size, ink)
        + _suit(suit, 126, 16, 62, ink)
    )


def _pip_face(suit: int, ink: str) -> str:
    """Number cards: one big suit symbol in the lower part."""
    return _suit(suit, 54, 158, 100, ink)


_EMBLEMS: Final = {
    # jack: a feathered cap
    11: (
        '<path d="M56 212C56 184 76 166 100 166C124 166 144 184 144 212Z" fill="{ink}"/>'
        '<path d="M50 212H150V224H50Z" fill="{ink}"/>'
        '<path d="M118 170C130 150 150 140 168 142C156 150 146 160 134 176Z" '
        'fill="none" stroke="{ink}" stroke-width="6" stroke-linecap="round"/>'
        '<circle cx="100" cy="190" r="9" fill="{tint}"/>'
    ),
    # queen: a rounded crown with a jewel
    12: (
        '<path d="M54 222L48 166Q66 190 76 172Q88 196 100 162Q112 196 124 172'
        'Q134 190 152 166L146 222Z" fill="{ink}"/>'
        '<circle cx="48" cy="162" r="7" fill="{ink}"/><circle cx="152" cy="162" r="7" '
        'fill="{ink}"/><circle cx="100" cy="156" r="8" fill="{ink}"/>'
        '<ellipse cx="100" cy="204" rx="10" ry="12" fill="{tint}"/>'
    ),
    # king: a three-pointed crown on a band
    13: (
        '<path d="M50 224V162L75 190L100 150L125 190L150 162V224Z" fill="{ink}"/>'
        '<circle cx="50" cy="156" r="8" fill="{ink}"/><circle cx="100" cy="144" r="9" '
        'fill="{ink}"/><circle cx="150" cy="156" r="8" fill="{ink}"/>'
        '<path d="M50 206H150" stroke="{tint}" stroke-width="6"/>'
        '<circle cx="100" cy="190" r="7" fill="{tint}"/>'
    ),
}


def _court_face(rank: int, suit: int, ink: str) -> str:
    """Jacks, queens and kings: a tinted frame holding an emblem."""
    tint = TINTS[suit]
    panel = (
        f'<rect x="28" y="122" width="144" height="140" rx="12" fill="{tint}" '
        f'stroke="{ink}" stroke-width="4"/>'
    )
    emblem = _EMBLEMS[rank].format(ink=ink, tint=tint)
    small = _suit(suit, 88, 230, 24, ink)
    # drawn for the box (28, 122)-(172, 262), shrunk below the corner index
    return (
        '<g transform="translate(46 158) scale(0.78) translate(-28 -122)">'
        + panel + emblem + small + "</g>"
    )


def _parse(code: str) -> int:
    card = parse_card_or_none(code) if isinstance(code, str) else None
    if card is None:
        raise CardError(codes.CARD_UNKNOWN, f"unknown card '{code}'", card=str(code))
    return card


@lru_cache(maxsize=128)
def card_svg(code: str, *, four_colour: bool = False) -> str:
    """The face of the card ``code`` (``"TS"``, ``"qh"``, ``"10♠"``).

    Raises :class:`~devilsgrip.errors.CardError` (a ``ValueError``) for a code
    that names no card.
    """
    card = _parse(code)
    rank, suit = RANK_OF[card], SUIT_OF[card]
    ink = (FOUR_COLOURS if four_colour else TWO_COLOURS)[suit]
    face = _court_face(rank, suit, ink) if rank >= 11 else _pip_face(suit, ink)
    canonical = _rank_label(rank).replace("10", "T") + SUITS[suit]
    data = f'data-card="{canonical}" data-four="{int(four_colour)}"'
    return _frame(_card_base() + _index(rank, suit, ink) + face, card_name(card), data)


@lru_cache(maxsize=1)
def back_svg() -> str:
    """The back of every card: a crimson lattice with a horned medallion."""
    body = (
        "<defs>"
        '<pattern id="dg-lattice" width="20" height="20" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)">'
        '<rect width="20" height="20" fill="#7d1a2b"/>'
        '<path d="M0 10H20M10 0V20" stroke="#9c2c3f" stroke-width="3"/>'
        '<circle cx="10" cy="10" r="2.6" fill="#d8b25c"/>'
        "</pattern>"
        "</defs>"
        f'<rect x="1.5" y="1.5" width="{WIDTH - 3}" height="{HEIGHT - 3}" rx="{RADIUS}" '
        'fill="#fffdf8" stroke="#5a1420" stroke-width="3"/>'
        f'<rect x="12" y="12" width="{WIDTH - 24}" height="{HEIGHT - 24}" rx="10" '
        'fill="url(#dg-lattice)" stroke="#d8b25c" stroke-width="4"/>'
        '<ellipse cx="100" cy="140" rx="50" ry="58" fill="#5a1420" stroke="#d8b25c" '
        'stroke-width="5"/>'
        # two horns curling up from the medallion
        '<path d="M70 128C58 110 60 88 74 76C72 94 78 110 90 120Z" fill="#d8b25c"/>'
        '<path d="M130 128C142 110 140 88 126 76C128 94 122 110 110 120Z" fill="#d8b25c"/>'
        + _suit(0, 76, 126, 22, "#f4e6c4")
        + _suit(1, 102, 126, 22, "#f4e6c4")
        + _suit(2, 76, 152, 22, "#f4e6c4")
        + _suit(3, 102, 152, 22, "#f4e6c4")
    )
    return _frame(body, "card back", 'data-card="back"')


@lru_cache(maxsize=1)
def empty_svg() -> str:
    """An empty cell (a space): a dashed outline on a faint fill."""
    body = (
        f'<rect x="4" y="4" width="{WIDTH - 8}" height="{HEIGHT - 8}" rx="{RADIUS}" '
        'fill="#ffffff" fill-opacity="0.10" stroke="#ffffff" stroke-opacity="0.75" '
        'stroke-width="5" stroke-dasharray="16 11"/>'
    )
    return _frame(body, "empty cell", 'data-card="empty"')


def svg_for(name: str, *, four_colour: bool = False) -> str:
    """The image named in ``/cards/{name}.svg``: a card code, ``back`` or ``empty``."""
    if name == "back":
        return back_svg()
    if name == "empty":
        return empty_svg()
    return card_svg(name, four_colour=four_colour)
