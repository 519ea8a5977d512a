"""Typed errors.  Each carries a reason ``code`` and its ``params``.

The English text (``str(error)``) is for logs and programmers; interfaces
translate ``code`` with ``params`` into the player's language.
"""

from __future__ import annotations

from typing import Any


class DevilsGripError(ValueError):
    """Base of every error the library raises for bad input or illegal play."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, Any] = params

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class CardError(DevilsGripError):
    """A card code that names no card."""


class DeckError(DevilsGripError):
    """A deck string or game number that gives no valid deal."""


class RulesError(DevilsGripError):
    """Rules text that names no preset or a bad option."""


class MoveError(DevilsGripError):
    """Move text that does not parse."""


class IllegalMoveError(DevilsGripError):
    """A well-formed move that the rules do not allow in this position."""

    def __init__(self, code: str, message: str, move: str = "", **params: Any) -> None:
        super().__init__(code, message, move=move, **params)
        self.move = move


class PositionError(DevilsGripError):
    """A position string that does not describe a valid position."""


class RecordError(DevilsGripError):
    """A game record that does not parse or does not replay as it claims."""


class LimitError(DevilsGripError):
    """A time limit that is not a positive, finite number of seconds."""
