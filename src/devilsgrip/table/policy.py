"""The drop policy and the refusals: what a drop, a swap or a click on the stock plays,
and why an action is refused."""

from __future__ import annotations

from typing import Any

from devilsgrip import codes
from devilsgrip.cards import CELL_NAMES, GRID_SIZE
from devilsgrip.errors import IllegalMoveError
from devilsgrip.game import Game
from devilsgrip.notation import (
    DEAL,
    REDEAL,
    Move,
    grid_build,
    swap,
    talon_build,
)
from devilsgrip.session import PlaySession
from devilsgrip.table.places import STOCK, TALON, Place


def _refuse(code: str, message: str, **params: Any) -> IllegalMoveError:
    return IllegalMoveError(code, message, **params)


def pick_up_refusal(game: Game, place: Place) -> IllegalMoveError | None:
    """Why nothing can be picked up at ``place`` (None: it can)."""
    if game.given_up or place == STOCK:
        return None if not game.given_up else _refuse(codes.GAME_GIVEN_UP, "this game was given up")
    if place == TALON:
        return None if game.talon else _refuse(codes.TALON_EMPTY, "the talon is empty")
    if not game.grid[place]:
        return _refuse(codes.PICK_EMPTY,
                       f"{CELL_NAMES[place]} is empty: there is nothing to pick up",
                       cell=CELL_NAMES[place])
    return None


def drop_candidate(game: Game, source: Place, target: Place) -> Move | None:
    """The move that dropping what was picked up at ``source`` on ``target`` asks for.

    None when the drop puts the cards back (on their own place).  From the talon, a
    build; a pile dropped on an empty cell, a swap with it; on a pile, a build.  What
    the policy itself refuses (nothing to pick up, a drop off the grid, the stock
    dropped) raises :class:`IllegalMoveError`; the engine checks the move when it is
    played (:func:`drop_move` checks it at once).
    """
    if source == target:
        return None
    problem = pick_up_refusal(game, source)
    if problem is not None:
        raise problem
    if target >= GRID_SIZE:
        raise _refuse(codes.DROP_OFF_GRID, "cards are dropped on the grid, not on the stock or "
                      "the talon")
    if source == STOCK:
        raise _refuse(codes.DROP_FROM_STOCK, "the stock is dealt, not dropped")
    if source == TALON:
        return talon_build(target)
    if not game.grid[target]:
        return swap(source, target)
    return grid_build(source, target)


def drop_move(game: Game, source: Place, target: Place) -> Move | None:
    """The move that dropping what was picked up at ``source`` on ``target`` plays.

    None when the drop puts the cards back (on their own place).  A legal
    build is played; a pile dropped on an empty cell swaps with it; anything
    else raises the engine's :class:`IllegalMoveError` saying why, and
    nothing changes.  Swapping two piles is :func:`swap_move`, a deliberate
    action of its own.
    """
    move = drop_candidate(game, source, target)
    if move is not None:
        reason = game.reason(move)
        if reason is not None:
            raise reason
    return move


def swap_candidate(game: Game, a: Place, b: Place) -> Move:
    """The deliberate swap of the piles of cells ``a`` and ``b`` (the engine checks it as
    it is played)."""
    if a >= GRID_SIZE or b >= GRID_SIZE:
        raise _refuse(codes.SWAP_OFF_GRID, "only the cells of the grid swap their piles")
    if a == b:
        raise _refuse(codes.MOVE_SAME_CELL, "a swap needs two different cells")
    return swap(a, b)


def swap_move(game: Game, a: Place, b: Place) -> Move:
    """The deliberate swap of the piles of cells ``a`` and ``b`` (checked)."""
    move = swap_candidate(game, a, b)
    reason = game.reason(move)
    if reason is not None:
        raise reason
    return move


def refusal(game: Game, source: Place, target: Place) -> IllegalMoveError | None:
    """Why dropping ``source`` on ``target`` is refused (None when it plays or puts back)."""
    try:
        drop_move(game, source, target)
    except IllegalMoveError as exc:
        return exc
    return None


def final_refusal(session: PlaySession) -> IllegalMoveError | None:
    """Why nothing more is played in this game: its result stands (None: it is not final)."""
    if session.final:
        return _refuse(codes.GAME_FINISHED, "this game is finished: its result stands")
    return None


def move_refusal(session: PlaySession, move: Move) -> IllegalMoveError | None:
    """Why playing ``move`` in the session would be refused (None: it would be played).

    Asked before acting, so a screen need not send what will be refused; the move
    itself still refuses with the same reason.
    """
    return final_refusal(session) or session.game.reason(move)


def drop_refusal(session: PlaySession, source: Place, target: Place) -> IllegalMoveError | None:
    """Why the drop of ``source`` on ``target`` would be refused (None: it plays or puts back)."""
    return final_refusal(session) or refusal(session.game, source, target)


def swap_refusal(session: PlaySession, a: Place, b: Place) -> IllegalMoveError | None:
    """Why the deliberate swap of the piles of ``a`` and ``b`` would be refused (None: it
    would be played), so a screen offers it only where it plays."""
    try:
        move = swap_candidate(session.game, a, b)
    except IllegalMoveError as exc:
        return exc
    return move_refusal(session, move)


def stock_move(game: Game) -> Move:
    """What a click on the stock plays: a deal, or a redeal once the stock is empty."""
    return DEAL if game.stock else REDEAL


def give_up_refusal(session: PlaySession) -> IllegalMoveError | None:
    """Why this game cannot be given up (None: it can)."""
    if session.game.is_won():
        return _refuse(codes.GAME_WON, "the game is won: there is nothing to give up")
    if session.final:
        return _refuse(codes.GAME_FINISHED, "this game is finished: its result stands")
    return None


def review_refusal(session: PlaySession) -> IllegalMoveError | None:
    """Why this game cannot be reviewed yet (None: it can): a review shows the stock."""
    if session.final or session.game.is_over():
        return None
    return _refuse(codes.GAME_LIVE, "this game is still being played")
