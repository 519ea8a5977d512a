"""The JSON a screen draws from: every field of the view, and never the unseen stock's order."""

from __future__ import annotations

import json
import random

import pytest

from devilsgrip.cards import CARD_CODES
from devilsgrip.game import Game
from devilsgrip.notation import DEAL, REDEAL
from devilsgrip.web.api import view_dict


def _played(number: int, steps: int, rules: str) -> Game:
    rng = random.Random(number)
    game = Game(number, rules=rules)
    for _ in range(steps):
        moves = game.generate_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
    return game


@pytest.mark.parametrize(("number", "steps", "rules"), [
    (1, 0, "classic"), (7, 40, "classic"), (12, 120, "classic"), (3, 90, "single-pass"),
])
def test_view_dict_tells_the_view_and_hides_the_unseen_stock(
        number: int, steps: int, rules: str) -> None:
    game = _played(number, steps, rules)
    data = view_dict(game.view())
    assert json.loads(json.dumps(data)) == data
    assert data["stock"] == len(game.stock) and data["score"] == game.score
    assert data["over"] == game.is_over() and data["won"] == game.is_won()
    assert data["legal"] == [m.text() for m in game.generate_moves()]
    assert data["grid"] == [[CARD_CODES[c] for c in pile] for pile in game.grid]
    assert data["talon"] == [CARD_CODES[c] for c in game.talon]
    assert data["moves"] == game.moves_played and data["rules"] == str(game.rules)
    if game.redeals_done == 0:
        assert data["stock_order"] is None
        assert data["unseen"] == [CARD_CODES[c] for c in sorted(game.stock)]
    else:
        assert data["stock_order"] == [CARD_CODES[c] for c in reversed(game.stock)]
        assert data["unseen"] == []


def test_a_redealt_game_shows_its_stock_in_order() -> None:
    game = Game(5)
    while game.stock:
        game.play(DEAL)
    game.play(REDEAL)
    data = view_dict(game.view())
    assert data["redeals_done"] == 1
    assert data["stock_order"] == [CARD_CODES[c] for c in reversed(game.stock)]
