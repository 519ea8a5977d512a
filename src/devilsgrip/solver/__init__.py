"""Clairvoyant solver, honest and greedy players, hints.

>>> from devilsgrip import Game
>>> result = solve(Game(2))
>>> result.score, result.proven
(0, True)
"""

from __future__ import annotations

from devilsgrip.solver.core import SolveResult, solve
from devilsgrip.solver.hints import HINT_CODES, Hint, explain, hint
from devilsgrip.solver.players import PLAYERS, choose_move, play_game, sample_game

__all__ = [
    "HINT_CODES",
    "PLAYERS",
    "Hint",
    "SolveResult",
    "choose_move",
    "explain",
    "hint",
    "play_game",
    "sample_game",
    "solve",
]
