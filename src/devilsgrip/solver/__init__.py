"""Clairvoyant solver, honest and greedy players, hints.

>>> from devilsgrip import Game
>>> result = solve(Game(2))
>>> result.score, result.proven
(0, True)
"""

from __future__ import annotations

from devilsgrip.solver.clairvoyant import solve
from devilsgrip.solver.hints import HINT_CODES, Hint, explain, hint
from devilsgrip.solver.players import PLAYERS, choose_move, play_game, sample_game
from devilsgrip.solver.search import SolveResult

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
