"""Errors read in the player's language, with grammatical card names."""

from __future__ import annotations

import random

import pytest

from devilsgrip.cards import CARD_CODES
from devilsgrip.errors import DevilsGripError, IllegalMoveError, RecordError
from devilsgrip.game import Game
from devilsgrip.i18n import (
    ERROR_MESSAGES,
    LANGUAGES,
    card_label,
    rating_label,
    set_language,
    translate_error,
    translations,
)
from devilsgrip.notation import Move, MoveKind
from devilsgrip.records import read_record
from devilsgrip.rules import Rules

EIGHT_OF_SPADES = CARD_CODES.index("8S")
QUEEN_OF_HEARTS = CARD_CODES.index("QH")


@pytest.mark.parametrize(
    ("lang", "plain", "definite"),
    [
        ("en", "8 of spades", "the 8 of spades"),
        ("fr", "huit de pique", "le huit de pique"),
        ("da", "spar otte", "spar otte"),
        ("es", "ocho de picas", "el ocho de picas"),
        ("hu", "pikk nyolcas", "a pikk nyolcas"),
    ],
)
def test_card_label(lang: str, plain: str, definite: str) -> None:
    assert card_label(EIGHT_OF_SPADES, lang) == plain
    assert card_label(EIGHT_OF_SPADES, lang, definite=True) == definite


def test_card_label_genders_and_current_language() -> None:
    assert card_label(QUEEN_OF_HEARTS, "fr", definite=True) == "la dame de cœur"
    assert card_label(QUEEN_OF_HEARTS, "es", definite=True) == "la reina de corazones"
    assert card_label(CARD_CODES.index("KC"), "es", definite=True) == "el rey de tréboles"
    assert card_label(QUEEN_OF_HEARTS, "da") == "hjerter dame"
    set_language("hu")
    assert card_label(QUEEN_OF_HEARTS) == "kőr dáma"
    assert len({card_label(c, "fr") for c in range(48)}) == 48


def _wrong_rank_error() -> IllegalMoveError:
    # game 1: c1 holds 9H, b1 holds 5H; 9H does not go on 5H (5H takes 8H).
    game = Game(1, rules="literal")
    error = game.reason(Move.from_text("c1-b1"))
    assert error is not None and error.code == "wrong-rank"
    return error


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "the 9 of hearts does not go on the 5 of hearts: it takes the 8 of hearts"),
        ("fr", "le neuf de cœur ne va pas sur le cinq de cœur : il y faut le huit de cœur"),
        ("da", "hjerter ni kan ikke lægges på hjerter fem: der skal hjerter otte på"),
        ("es", "el nueve de corazones no va sobre el cinco de corazones: lleva el ocho de "
               "corazones"),
        ("hu", "a kőr kilences nem kerülhet a kőr ötösre: oda a kőr nyolcas kell"),
    ],
)
def test_translate_error_wrong_rank(lang: str, expected: str) -> None:
    assert translate_error(_wrong_rank_error(), lang) == expected


def test_translate_error_uses_current_language() -> None:
    game = Game(1)
    while game.stock:
        game.play_text("d")
    with pytest.raises(IllegalMoveError) as info:
        game.play_text("d")
    set_language("da")
    assert translate_error(info.value) == "bunken er tom"
    assert translate_error(info.value, "es") == "el mazo está vacío"


def test_unknown_code_falls_back_to_english_message() -> None:
    error = DevilsGripError("no-such-code", "something odd happened")
    assert translate_error(error, "fr") == "something odd happened"
    assert translate_error(ValueError("plain"), "fr") == "plain"


def test_every_engine_code_has_a_translation() -> None:
    fr = translations("fr")
    for code, template in ERROR_MESSAGES.items():
        assert fr.gettext(template) != template, code


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_errors_translated(lang: str) -> None:
    with pytest.raises(DevilsGripError) as info:
        Rules.parse("classic,draw=zero")
    text = translate_error(info.value, lang)
    assert "zero" in text and "draw" in text and "96" in text
    with pytest.raises(DevilsGripError) as info2:
        Rules.parse("nosuch")
    assert "nosuch" in translate_error(info2.value, lang)


def test_record_error_wraps_the_translated_reason() -> None:
    record = '[Rules "literal"]\n[Game "1"]\n\n1. c1-b1 *\n'
    with pytest.raises(RecordError) as info:
        read_record(record)
    text = translate_error(info.value, "fr")
    assert text.startswith("coup 1 'c1-b1' : le neuf de cœur ne va pas")


def _no_card_fits() -> IllegalMoveError:
    """A real refusal of a run: a pile of several cards holds no card for the target."""
    game = Game(1)
    rng = random.Random(1)
    for _ in range(400):
        for src in range(24):
            for dst in range(24):
                if src != dst and len(game.grid[src]) > 1 and game.grid[dst]:
                    problem = game.reason(Move(MoveKind.BUILD, src, dst))
                    if problem is not None and problem.code == "no-card-fits":
                        return problem
        moves = game.generate_moves()
        builds = [m for m in moves if m.kind != MoveKind.DEAL]
        game.play(rng.choice(builds or moves))
    raise AssertionError("no pile of several cards met")


def test_no_card_fits_names_cell_and_cards() -> None:
    error = _no_card_fits()
    text = translate_error(error, "hu")
    assert text.startswith(f"a(z) {error.params['cell']} mezőből egy lap sem kerülhet a ")
    assert "oda a " in text and text.endswith(" kell")


def test_no_redeals_plural() -> None:
    game = Game(1, rules="single-pass")
    while game.stock:
        game.play_text("d")
    error = game.reason(Move.from_text("r"))
    assert error is not None and error.code == "no-redeals-left"
    assert translate_error(error, "en") == "no redeals left (these rules allow 0 redeals)"
    assert translate_error(error, "fr") == "plus de redonne (ces règles en permettent 0)"


def test_deck_error_lists_problems() -> None:
    with pytest.raises(DevilsGripError) as info:
        Game(deck="5S 8S")
    assert translate_error(info.value, "es").startswith("la baraja tiene 2 cartas en lugar de 96")


@pytest.mark.parametrize(
    ("lang", "good", "none"),
    [("en", "good", "no rating"), ("fr", "bon", "sans mention"), ("da", "god", "ingen vurdering"),
     ("es", "bueno", "sin calificación"), ("hu", "jó", "nincs értékelés")],
)
def test_rating_label(lang: str, good: str, none: str) -> None:
    assert rating_label("good", lang) == good
    assert rating_label("none", lang) == none
    assert rating_label(Game(1).rating, lang) == none
