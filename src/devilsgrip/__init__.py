"""Devil's Grip solitaire: the engine.

>>> from devilsgrip import Game
>>> game = Game(1)
>>> game.play_text("d")
Move.from_text('d')
"""

from devilsgrip.cards import (
    Card,
    card_code,
    card_name,
    format_deck,
    numbered_deck,
    parse_card,
    parse_cell,
    parse_deck,
)
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
from devilsgrip.game import (
    DEAL,
    REDEAL,
    Game,
    LegalMoves,
    Move,
    MoveKind,
    Rating,
    Status,
    View,
    grid_build,
    swap,
    talon_build,
)
from devilsgrip.notation import format_moves, parse_moves
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
