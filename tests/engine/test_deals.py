"""Numbered deals (golden decks and an independent shuffle) and deck strings."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from engine_ref import RANK_CODES, SUIT_CODES

from devilsgrip import DeckError, Game, numbered_deck, parse_deck
from devilsgrip.notation import format_deck

GOLDEN = {
    1: "6D 5H 9H 4D 8H 9D QD 8C 6D 6H KC QH 6S 9C QC 8D 5S JD TH KS QS 5S 5D 3H "
       "6C 5C KS 7S KC QS 4D 2H 5D 4H 2D 5C 3S 9S TC 6S 2H TD 7D 2C 7H 8S TH 4C "
       "TS 4C 3D JD KH 2D 3S QH 3C 8D 3C 7S QC 3D 6H 7C TD QD 9S KH 8C JS KD 5H "
       "8H 3H JH JC 9C TC 8S KD 7D 4S 2S TS 6C JH 9D 2S 9H JC 4S JS 7C 4H 2C 7H",
    2: "8C 7D 2C 4H 2D TD 6S 4C KS 4S JH 3H QC 7H 6S 9D 8H 4S 5C JD 5D 9S 3C 3S "
       "2H TC 8S 5S 6D KH 4D TS 9D TH KS JS 6H 9S 9H KC TC KC KD 9C 7C JH JS 6C "
       "6H 5S QS TS KD 8D 8H QS 2S JC QH 2C JC 7S 5H 9H 3H 5C TD 7H QH 7C 2S 6D "
       "6C 5D QD 3D 8C 4D 4C QD JD KH TH 7D 2H 9C 7S 5H 8D 4H 2D 3C 8S 3D 3S QC",
    1000000: "4C 9D QS TS 4D 9C 4D 4C 4S QD JS 6S QC 4H 8S 5H TC QS 2H JH KC 8C 9S KD "
             "JD 2C 8H 8D TH JS QH TD 5D 8S 2S KS QC TH 8C 7S 6C TD 9S 3S 2C 6H 3S 2H "
             "JC 3H 5H 6D 3C JD 9C 3C TC 3D 9D 7C 6S QD KH 4H 9H KD 5D 7D 7S 8D 7H 2S "
             "7H 8H 6C 7D JH JC 9H KS QH 5S 7C TS 6D 4S 3H 5C 5S KH 2D 2D 3D 6H KC 5C",
}


@pytest.mark.parametrize("number", sorted(GOLDEN))
def test_golden_deals(number: int) -> None:
    game = Game(number)
    assert format_deck(game.deck or ()) == GOLDEN[number]
    assert game.number == number
    cards = GOLDEN[number].split()
    # the first 24 fill the grid row by row; the 25th is the top of the stock
    assert [format_deck(p) for p in game.grid] == cards[:24]
    assert format_deck(reversed(game.stock)) == " ".join(cards[24:])
    assert game.talon == []
    assert game.position().split()[0].split("/")[0].split(",")[0] == cards[0]


def test_largest_number_works_and_out_of_range_is_refused() -> None:
    game = Game(2**63 - 1)
    assert len(game.deck or ()) == 96
    assert format_deck(game.deck or ()).startswith("2D 9S TD 4H 9S KD TS TC")
    for bad in (0, -1, 2**63, 2**64 + 1):
        with pytest.raises(DeckError) as info:
            Game(bad)
        assert info.value.code == "game-number-range"
        with pytest.raises(ValueError):
            numbered_deck(bad)
    with pytest.raises(DeckError):
        Game(True)


# --------------------------------------------- the documented shuffle, again
def splitmix64(seed: int) -> Iterator[int]:
    m = 2**64
    state = seed % m
    while True:
        state = (state + 0x9E3779B97F4A7C15) % m
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % m
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % m
        yield z ^ (z >> 31)


def shuffled_codes(number: int) -> list[str]:
    """cards.py's documented shuffle, written again from its docstring."""
    one_copy = [r + s for s in SUIT_CODES for r in RANK_CODES]
    deck = one_copy + one_copy
    draws = splitmix64(number)
    for i in range(95, 0, -1):
        n = i + 1
        limit = 2**64 - 2**64 % n
        while True:
            x = next(draws)
            if x < limit:
                break
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_splitmix_reference_values() -> None:
    # SplitMix64 seeded with 0: published first outputs of the reference generator
    first = splitmix64(0)
    assert next(first) == 0xE220A8397B1DCDAF
    assert next(first) == 0x6E789E6AA1B965F4


@pytest.mark.parametrize(
    "numbers",
    [range(1, 200), [2**63 - k for k in range(1, 40)], [10**k for k in range(19)],
     [2**k for k in range(63)]],
    ids=["small", "largest", "powers-of-ten", "powers-of-two"],
)
def test_independent_shuffle_agrees(numbers: range | list[int]) -> None:
    for n in numbers:
        assert format_deck(numbered_deck(n)) == " ".join(shuffled_codes(n)), n


def test_deals_differ() -> None:
    decks = {format_deck(numbered_deck(n)) for n in range(1, 300)}
    assert len(decks) == 299


# ---------------------------------------------------------------- deck strings
def test_deck_string_round_trip_and_aliases() -> None:
    text = GOLDEN[2]
    assert format_deck(parse_deck(text)) == text
    lower = text.lower()
    symbols = (
        text.replace("S", "♠").replace("H", "♥").replace("D", "♦").replace("C", "♣")
        .replace("T", "10")
    )
    for variant in (lower, symbols, "  " + text.replace(" ", "\n  ") + "\n"):
        assert format_deck(parse_deck(variant)) == text
    assert Game(deck=symbols).deck == Game(2).deck


def test_deck_unknown_card_names_position_and_text() -> None:
    cards = GOLDEN[1].split()
    cards[16] = "1X"
    with pytest.raises(DeckError) as info:
        parse_deck(" ".join(cards))
    assert str(info.value) == "position 17: unknown card '1X'"
    assert info.value.code == "deck-unknown-card"
    assert info.value.params["position"] == 17


def test_deck_wrong_count() -> None:
    cards = GOLDEN[1].split()
    with pytest.raises(DeckError) as info:
        parse_deck(" ".join(cards[:95]))
    assert str(info.value).startswith("95 cards, expected 96")
    assert f"{cards[95]} appears once" in str(info.value)
    with pytest.raises(DeckError) as info:
        parse_deck(" ".join([*cards, "2S"]))
    assert str(info.value).startswith("97 cards, expected 96")
    with pytest.raises(DeckError) as info:
        parse_deck("")
    assert str(info.value).startswith("0 cards, expected 96")


def test_deck_cards_not_twice() -> None:
    cards = GOLDEN[1].split()
    # one KD becomes an 8H: 8H three times, KD once, still 96 cards
    cards[cards.index("KD")] = "8H"
    with pytest.raises(DeckError) as info:
        parse_deck(" ".join(cards))
    assert str(info.value) == "8H appears 3 times, KD appears once"
    assert info.value.params["wrong"] == {"8H": 3, "KD": 1}
    with pytest.raises(DeckError) as info:
        Game(deck=" ".join(cards))
    assert str(info.value) == "8H appears 3 times, KD appears once"


def test_deck_list_of_cards() -> None:
    deck = numbered_deck(9)
    assert Game(deck=deck).deck == Game(9).deck
    assert Game(deck=deck).number is None
