"""The table layer's numbers in each language, the deal number typed, why a game ended."""

from __future__ import annotations

import random

import pytest

from devilsgrip import table
from devilsgrip.cards import MAX_GAME_NUMBER
from devilsgrip.errors import DeckError
from devilsgrip.game import Game
from devilsgrip.i18n import LANGUAGES
from devilsgrip.session import PlaySession
from devilsgrip.table import Words


@pytest.mark.parametrize(("lang", "average", "rate", "pair"), [
    ("en", "2.5", "50%", "won: 1"),
    ("fr", "2,5", "50\xa0%", "gagné : 1"),
    ("da", "2,5", "50\xa0%", "vundet: 1"),
    ("es", "2,5", "50\xa0%", "ganada: 1"),
    ("hu", "2,5", "50%", "nyert: 1"),
])
def test_numbers_and_labels_are_written_as_each_language_writes_them(
        lang: str, average: str, rate: str, pair: str) -> None:
    words = Words(lang)
    assert words.decimal(2.5) == average
    assert words.decimal(0) == average.replace("2", "0").replace("5", "0")
    assert words.percent(0.5) == rate
    assert words.labelled(table.rating_label("won", words), 1) == pair


@pytest.mark.parametrize("text", ["42", " 42 ", "0042"])
def test_a_typed_deal_number_is_read(text: str) -> None:
    assert table.parse_deal_number(text) == 42


@pytest.mark.parametrize(("text", "code"), [
    ("", "game-number-bad"), ("abc", "game-number-bad"), ("-3", "game-number-bad"),
    ("4.5", "game-number-bad"), ("0", "game-number-range"),
    (str(MAX_GAME_NUMBER + 1), "game-number-range"),
])
def test_a_bad_deal_number_is_refused_with_the_engines_reason(text: str, code: str) -> None:
    with pytest.raises(DeckError) as info:
        table.parse_deal_number(text)
    assert info.value.code == code
    for lang in LANGUAGES:
        said = table.say_error(info.value, Words(lang))
        assert said[0].isupper() and said.endswith(".")
    assert table.parse_deal_number(str(MAX_GAME_NUMBER)) == MAX_GAME_NUMBER


def _played_to_the_end(number: int, rules: str) -> Game:
    game = Game(number, rules=rules)
    rng = random.Random(number)
    while not game.is_over():
        game.play(rng.choice(game.generate_moves()))
    while game.stock:  # an over game may still be dealt through to the end
        game.play_text("d")
    return game


def test_why_a_game_ended() -> None:
    words = Words("en")
    live = PlaySession.start(None, number=5)
    assert table.say_why_ended(live, words) == ""
    live.give_up()
    assert "gave up" in table.say_why_ended(live, words)
    # one pass through the stock, dealt to its end: no redeal is left
    one_pass = _played_to_the_end(3, "single-pass")
    assert not one_pass.stock and not one_pass.is_won()
    session = PlaySession.begin(None, Game(3, rules="single-pass"))
    for move in one_pass.move_stack:
        session.play(move)
    why = table.say_why_ended(session, words)
    assert why.startswith("The stock is used up, no redeal is left")
    for lang in LANGUAGES:
        said = table.say_why_ended(session, Words(lang))
        assert said[0].isupper() and said.endswith(".")
        if lang != "en":
            assert said != why


def test_why_a_game_is_over_while_the_stock_still_holds_cards() -> None:
    # 24 piles topped by jacks, queens and kings; three bases left in the stock
    piles = [
        [f"{r}{s}" for r in ranks]
        for _copy in range(2)
        for s in "SHDC"
        for ranks in (("2", "5", "8", "J"), ("3", "6", "9", "Q"), ("4", "7", "T", "K"))
    ]
    stock = [piles[i].pop(0) for i in range(3)]
    grid = "/".join(",".join("".join(p) for p in piles[r * 8:(r + 1) * 8]) for r in range(3))
    game = Game.from_position(f"{grid} {''.join(stock)} - 0 0 classic")
    assert game.is_over() and game.stock
    session = PlaySession.begin(None, game)
    assert table.say_why_ended(session, Words("en")).startswith("However the stock is dealt")


def test_a_won_game_says_every_card_is_in_the_grid() -> None:
    piles = [
        "".join(f"{r}{s}" for r in ranks)
        for _copy in range(2)
        for s in "SHDC"
        for ranks in (("2", "5", "8", "J"), ("3", "6", "9", "Q"), ("4", "7", "T", "K"))
    ]
    grid = "/".join(",".join(piles[r * 8:(r + 1) * 8]) for r in range(3))
    session = PlaySession.begin(None, Game.from_position(f"{grid} - - 0 0 classic"))
    assert session.game.is_won()
    assert table.say_why_ended(session, Words("en")) == "Every card is in the grid."
