"""The lifecycle actions on a play session (play, undo, redo, give up, leave, new game,
play again) and the summary a screen shows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from devilsgrip.game import Game, Move
from devilsgrip.rules import Rules
from devilsgrip.session import PlaySession
from devilsgrip.table.words import (
    Event,
)


def act(game: Game, move: Move) -> Event:
    """Play ``move`` on a bare game (no session) and return what happened."""
    game.play(move)
    return Event("move", game.last_effect())


Action = Callable[[], Event]
"""An action at the table that tells what happened (or raises the reason it is refused)."""


def close(session: PlaySession) -> str:
    """The screen closes (the terminal game quits): what becomes of the game.

    A game without a move, or one that is over, is left (see
    :meth:`PlaySession.leave`); a game in play stays open, offered again next
    time, with its clock stopped.
    """
    if not session.final and (not session.has_moves or session.game.is_over()):
        return session.leave()
    session.pause()
    return "kept"


def play(session: PlaySession, move: Move) -> Event:
    """Play ``move`` in the session (checked, saved) and return what happened."""
    session.play(move)
    return Event("move", session.game.last_effect())


def undo(session: PlaySession) -> Event:
    effect = session.game.last_effect()
    session.undo()
    return Event("undo", effect)


def redo(session: PlaySession) -> Event:
    session.redo()
    return Event("redo", session.game.last_effect())


def new_game(
    session: PlaySession,
    *,
    number: int | None = None,
    deck: str | None = None,
    rules: Rules | str | None = None,
    daily: str | None = None,
) -> tuple[PlaySession, Event]:
    """Leave ``session``'s game for a new one (a random deal by default; ``daily``: the
    day whose daily deal it is played as).

    The new deal is checked first: a bad number, deck or rules raises the
    engine's error and nothing changes.  The game left is ended as
    :meth:`PlaySession.leave` says; the screen asked the player first when
    ``session.leave_asks``.
    """
    game = deal_game(number, deck, rules if rules is not None else session.game.rules)
    left = session.leave()
    fresh = PlaySession.begin(session.store, game, session.owner, session.store_error,
                              daily=daily)
    return fresh, Event("new", left=left)


def deal_game(number: int | None, deck: str | None, rules: Rules | str) -> Game:
    """The deal a player asks for: ``deck``, else game ``number``, else a random numbered
    deal (a bad number, deck or rules raises the engine's error)."""
    from devilsgrip.session import random_deal_number

    if deck is not None:
        return Game(deck=deck, rules=rules)
    return Game(random_deal_number() if number is None else number, rules=rules)


def play_again(session: PlaySession) -> tuple[PlaySession, Event]:
    """Leave ``session``'s game for a new game of the same deal (play again, restart)."""
    left = session.leave()
    return session.again(), Event("again", left=left)


@dataclass(frozen=True)
class Summary:
    """What a screen shows about the game beside the cards, in the player's words."""

    deal: str
    rules: str
    status: str
    rating: str
    score: int
    moves: int
    redeals: str
    best: int | None
    """The best final score of this deal: of the other games, and of this one once its
    result stands (None: none yet or no store)."""
    new_best: bool
    """The game is final and beats every earlier game of this deal."""
    best_before: int | None
    """The best final score of the other games of this deal (None: none yet or no store)."""
    fastest_before: float | None
    """Once the game is won: the fastest of the player's other wins under its rules (None:
    none with its clock kept, or no store); None while it is not won."""
    new_fastest: bool
    """The game is won faster than every other win of the player under its rules."""
    end: str
    warning: str | None
    leave_asks: bool
    final: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal, "rules": self.rules, "status": self.status,
            "rating": self.rating, "score": self.score, "moves": self.moves,
            "redeals": self.redeals, "best": self.best, "new_best": self.new_best,
            "best_before": self.best_before, "fastest_before": self.fastest_before,
            "new_fastest": self.new_fastest, "end": self.end, "warning": self.warning,
            "leave_asks": self.leave_asks, "final": self.final,
        }
