"""Words every screen shares: local rank letters, one sentence for a bad game number,
a move played again told after its colon."""

from __future__ import annotations

import pytest

from devilsgrip.cards import parse_card_or_none
from devilsgrip.errors import DeckError
from devilsgrip.game import Game
from devilsgrip.notation import DEAL, Move, parse_card
from devilsgrip.session import PlaySession
from devilsgrip.table import Event, Words, parse_deal_number, read_deal_number, say_error, say_event
from devilsgrip.table.controller import Table


@pytest.mark.parametrize(("lang", "jack", "queen", "king"), [
    ("en", "J♠", "Q♥", "K♦"), ("fr", "V♠", "D♥", "R♦"), ("hu", "B♠", "D♥", "K♦")])
def test_cards_are_named_with_the_languages_own_rank_letters(
        lang: str, jack: str, queen: str, king: str) -> None:
    words = Words(lang)
    cards = [parse_card_or_none(code) for code in ("JS", "QH", "KD", "TC")]
    assert [words.card(c) for c in cards] == [jack, queen, king, "10♣"]  # type: ignore[arg-type]
    # the notation keeps its codes in every language
    assert parse_card("QH") == cards[1] and parse_card("10♣") == cards[3]
    assert Move.from_text("a1-c2").text() == "a1-c2"


def test_a_french_deal_is_told_with_french_letters() -> None:
    table = Table(PlaySession.start(None, number=5), Words("fr"))
    assert table.stock().said == "3 cartes données : 8♥, R♦, D♦."


BAD = ["", "abc", "-5", "0", "4.5", str(2**63), "9" * 500]


@pytest.mark.parametrize("lang", ["en", "fr", "hu"])
def test_every_bad_game_number_gets_the_same_sentence(lang: str) -> None:
    words = Words(lang)
    told = []
    for typed in BAD:
        for read in (parse_deal_number, read_deal_number):
            with pytest.raises(DeckError) as caught:
                read(typed)
            told.append(say_error(caught.value, words))
    template = say_error(_error("X"), words)
    head, tail = template.split("X")
    for text in told:
        assert text.startswith(head) and text.endswith(tail), text
        assert len(text) <= len(template) + 40  # a long number is shortened
    if lang == "en":
        assert told[0] == ("Game numbers are whole numbers from 1 to 9223372036854775807, "
                           "not ''.")


def _error(number: str) -> DeckError:
    return DeckError("game-number-bad", "bad", number=number)


def test_a_move_played_again_goes_on_after_its_colon() -> None:
    game = Game(5)
    game.play(DEAL)
    game.undo()
    game.redo()
    told = say_event(Event("redo", game.last_effect()), game, Words("en"))
    assert told == "Played again: dealt 3 cards: 8♥, K♦, Q♦."
