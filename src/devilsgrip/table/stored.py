"""The player's stored games as the commands reach them: the store opened, a finished game
found, and a stored game taken up again under its controller."""

from __future__ import annotations

from pathlib import Path

from devilsgrip.errors import IllegalMoveError
from devilsgrip.session import PlaySession
from devilsgrip.store import GameInfo, Store, StoreError
from devilsgrip.table.controller import Table
from devilsgrip.table.words import Event, Words

__all__ = ["GameInfo", "Store", "StoreError", "finished_table", "last_finished", "open_store",
           "stored_table"]


def open_store(path: Path | str | None, *, create: bool = True) -> Store:
    """The store at ``path`` (``--db``, else ``$DEVILSGRIP_DB``, else the player's data
    folder); with ``create`` False a missing one is refused, nothing made.  Raises
    :class:`~devilsgrip.store.StoreError` (a :class:`~devilsgrip.errors.DevilsGripError`)."""
    return Store.open(path, create=create)


def last_finished(store: Store) -> GameInfo | None:
    """The stored game that ended last (None: no game has ended)."""
    finished = store.games(finished=True)
    if not finished:
        return None
    return max(finished, key=lambda g: (g.ended or "", g.id))


def stored_table(store: Store, game_id: int, words: Words | None = None) -> Table:
    """The controller of the stored game ``game_id``, taken up again where it was left
    (StoreError ``store-no-game`` when there is none)."""
    return Table(PlaySession.resume(store, game_id), words or Words(), Event("resume"))


def finished_table(store: Store, owner: str, game_id: int, words: Words) -> Table | None:
    """The controller of ``owner``'s finished stored game ``game_id`` (None: there is no
    such game among that owner's games); refused with ``game-live`` while it is in play."""
    info = store.game_info(game_id)
    if info is None or info.owner != owner:
        return None
    if not info.final:
        raise IllegalMoveError("game-live", "this game is still being played")
    return stored_table(store, game_id, words)
