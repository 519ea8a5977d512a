"""The card images: valid SVG, one per card, readable faces, a back and an empty cell."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from devilsgrip.cards import CARD_CODES, N_CARDS, RANK_OF, SUIT_OF, card_name
from devilsgrip.errors import CardError
from devilsgrip.web import cards_svg
from devilsgrip.web.cards_svg import back_svg, card_svg, empty_svg, svg_for

SVG = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    assert root.get("viewBox") == f"0 0 {cards_svg.WIDTH} {cards_svg.HEIGHT}"
    return root


def rank_text(root: ET.Element) -> str:
    texts = [t.text for t in root.iter(SVG + "text")]
    assert len(texts) == 1
    assert texts[0] is not None
    return texts[0]


def fills(root: ET.Element) -> set[str]:
    return {e.get("fill", "") for e in root.iter()} - {"", "none"}


@pytest.mark.parametrize("four", [False, True])
def test_every_card_is_valid_svg_with_its_rank_and_suit(four: bool) -> None:
    seen = set()
    for card in range(N_CARDS):
        code = CARD_CODES[card]
        text = card_svg(code, four_colour=four)
        root = parse(text)
        assert root.get("data-card") == code
        assert root.findtext(SVG + "title") == card_name(card)
        expected_rank = {10: "10", 11: "J", 12: "Q", 13: "K"}.get(RANK_OF[card])
        assert rank_text(root) == (expected_rank or str(RANK_OF[card]))
        suit_path = cards_svg._SUIT_PATHS[SUIT_OF[card]]
        assert suit_path in text
        # no other suit's shape appears on the face
        for s, path in enumerate(cards_svg._SUIT_PATHS):
            if s != SUIT_OF[card]:
                assert path not in text
        ink = (cards_svg.FOUR_COLOURS if four else cards_svg.TWO_COLOURS)[SUIT_OF[card]]
        assert ink in fills(root)
        seen.add(text)
    assert len(seen) == N_CARDS


def test_four_colour_deck_differs_and_gives_four_inks() -> None:
    inks = set()
    for card in range(N_CARDS):
        code = CARD_CODES[card]
        two, four = card_svg(code), card_svg(code, four_colour=True)
        if SUIT_OF[card] in (2, 3):  # diamonds and clubs change colour
            assert two != four
            assert cards_svg.TWO_COLOURS[SUIT_OF[card]] not in fills(parse(four))
        inks |= fills(parse(four)) & set(cards_svg.FOUR_COLOURS)
    assert inks == set(cards_svg.FOUR_COLOURS)
    assert len(set(cards_svg.FOUR_COLOURS)) == 4
    assert len(set(cards_svg.TWO_COLOURS)) == 2


def test_inks_have_aa_contrast_on_the_card() -> None:
    def luminance(hex_colour: str) -> float:
        channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    paper = luminance("#fffdf8")
    for ink in {*cards_svg.TWO_COLOURS, *cards_svg.FOUR_COLOURS}:
        ratio = (paper + 0.05) / (luminance(ink) + 0.05)
        assert ratio >= 4.5, ink


def test_codes_are_read_like_the_engine_reads_them() -> None:
    assert card_svg("ts") == card_svg("TS") == card_svg("10♠")
    assert 'data-card="QH"' in card_svg("qh")
    for bad in ("", "X", "1S", "AS", "TT", "back"):
        with pytest.raises(CardError):
            card_svg(bad)
    with pytest.raises(ValueError):
        svg_for("ZZ")


def test_back_and_empty_are_distinct_valid_images() -> None:
    back, empty = parse(back_svg()), parse(empty_svg())
    assert back.get("data-card") == "back"
    assert empty.get("data-card") == "empty"
    assert not list(back.iter(SVG + "text"))  # the back gives nothing away
    assert re.search(r"stroke-dasharray", empty_svg())
    assert back_svg() != empty_svg()
    assert svg_for("back") == back_svg()
    assert svg_for("empty") == empty_svg()
    assert svg_for("8S", four_colour=True) == card_svg("8S", four_colour=True)
    assert back_svg() not in {card_svg(c) for c in CARD_CODES}


def test_no_external_references() -> None:
    """The images work under the strict CSP: nothing loaded from elsewhere."""
    for text in [back_svg(), empty_svg(), *(card_svg(c, four_colour=True) for c in CARD_CODES)]:
        assert "href" not in text
        assert "<script" not in text
        assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")


def _suit_boxes(root: ET.Element, suit: int) -> list[tuple[float, float, float]]:
    """(left, top, size) of every shape of ``suit`` on the face, in card units."""
    boxes = []
    for path in root.iter(SVG + "path"):
        if path.get("d") != cards_svg._SUIT_PATHS[suit]:
            continue
        found = re.fullmatch(r"translate\(([\d.]+) ([\d.]+)\) scale\(([\d.]+)\)",
                             path.get("transform", ""))
        assert found, path.get("transform")
        x, y, k = (float(v) for v in found.groups())
        boxes.append((x, y, 100 * k))
    return boxes


def test_corner_index_shows_rank_over_suit_within_the_index_width() -> None:
    """The talon's fan shows INDEX_WIDTH of each card beneath: rank AND suit must fit."""
    limit = cards_svg.INDEX_WIDTH
    assert limit <= cards_svg.WIDTH * 0.47  # the fan's offset in style.css (--fan)
    for card in range(N_CARDS):
        root = parse(card_svg(CARD_CODES[card]))
        (text,) = root.iter(SVG + "text")
        x = float(text.get("x", "0"))
        size = float(text.get("font-size", "0"))
        label = text.text or ""
        # a bold sans-serif capital is at most 0.8 em wide; a 10 is fitted to its textLength
        width = float(text.get("textLength", "0")) or 0.8 * size * len(label)
        assert len(label) == 1 or text.get("textLength"), label
        assert x > 0 and x + width <= limit, (CARD_CODES[card], x + width)
        baseline = float(text.get("y", "0"))
        under = [b for b in _suit_boxes(root, SUIT_OF[card])
                 if b[0] + b[2] <= limit and b[1] >= baseline - 4]
        assert under, CARD_CODES[card]  # the suit under the rank, inside the index
        _left, top, size = under[0]
        assert size >= 40 and top + size <= cards_svg.HEIGHT * 0.55  # in the upper part
