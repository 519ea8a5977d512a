"""Random playouts under every preset and variant must reach ``is_over``.

The policy picks uniformly among the legal moves without swaps (no
preference at all), with a cap on the number of moves: failing to end is a
failure.  At the end no card may enter: every legal move keeps the score.
"""

from __future__ import annotations

import random

import pytest
from variants import VARIANT_NAMES

from devilsgrip import Game, Status

CAP = 6000


def random_playout(number: int, rules: str, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(number, rules=rules)
    for _ in range(CAP):
        if game.is_over():
            return game
        moves = game.generate_moves()
        assert moves, f"stuck but not over: {game.position()}"
        game.push(rng.choice(moves))
    raise AssertionError(f"{rules} game {number}: no end after {CAP} moves")


@pytest.mark.parametrize("rules", VARIANT_NAMES)
def test_random_playouts_end(rules: str) -> None:
    scores = []
    for number in range(1, 11):
        game = random_playout(number, rules, seed=number)
        assert game.status in (Status.OVER, Status.WON)
        scores.append(game.score)
        for move in game.generate_moves(swaps=True):
            game.push(move)
            assert game.score == scores[-1], f"{move} let a card in after the end"
            game.pop()
    assert all(0 <= s <= 72 for s in scores)


@pytest.mark.slow
@pytest.mark.parametrize("rules", VARIANT_NAMES)
def test_many_random_playouts_end(rules: str) -> None:
    for number in range(11, 111):
        random_playout(number, rules, seed=number)
