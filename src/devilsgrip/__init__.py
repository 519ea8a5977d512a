"""Devil's Grip solitaire: the engine.

>>> from devilsgrip import Game
>>> game = Game(1)
>>> game.play_text("d")
Move.from_text('d')
"""

from devilsgrip.cards import Card, card_code, card_name, numbered_deck
from devilsgrip.errors import (
    CardError,
    DeckError,
    DevilsGripError,
    IllegalMoveError,
    LimitError,
    MoveError,
    PositionError,
    RecordError,
    RulesError,
)
from devilsgrip.game import Game, LegalMoves, Rating, Status, View
from devilsgrip.notation import (
    DEAL,
    REDEAL,
    Move,
    MoveKind,
    format_deck,
    format_moves,
    grid_build,
    parse_card,
    parse_cell,
    parse_deck,
    parse_moves,
    swap,
    talon_build,
)
from devilsgrip.rules import PRESETS, Rules

__version__ = "0.1.0"

__all__ = [
    "DEAL",
    "PRESETS",
    "REDEAL",
    "Card",
    "CardError",
    "DeckError",
    "DevilsGripError",
    "Game",
    "IllegalMoveError",
    "LegalMoves",
    "LimitError",
    "Move",
    "MoveError",
    "MoveKind",
    "PositionError",
    "Rating",
    "RecordError",
    "Rules",
    "RulesError",
    "Status",
    "View",
    "__version__",
    "card_code",
    "card_name",
    "format_deck",
    "format_moves",
    "grid_build",
    "numbered_deck",
    "parse_card",
    "parse_cell",
    "parse_deck",
    "parse_moves",
    "swap",
    "talon_build",
]
