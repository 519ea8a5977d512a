"""Games for the terminal's tests to keep in a store."""

from __future__ import annotations

from devilsgrip.game import Game


def given_up(number: int, moves: str) -> Game:
    """Game ``number`` after ``moves``, given up (finished: it shows in the history)."""
    game = Game(number)
    game.play_all_text(moves)
    game.give_up()
    return game
