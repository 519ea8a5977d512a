"""The player's stored games as the screens and the commands reach them: the store opened,
a player's games started and resumed (a :class:`~devilsgrip.table.controller.Table` each),
a finished game found and taken up again under its controller; and the store's plain
data a screen shows (GameInfo, Stats, the times it writes), its error and its import of
records."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, NamedTuple

from devilsgrip import codes
from devilsgrip.errors import DevilsGripError, IllegalMoveError
from devilsgrip.session import PlaySession
from devilsgrip.session import open_store as _open_or_why
from devilsgrip.store import (
    GameInfo,
    Stats,
    Store,
    StoreError,
    WebSession,
    default_path,
    import_records,
    parse_time,
    split_records,
    store_error_text,
)
from devilsgrip.table.controller import Table
from devilsgrip.table.history import HistoryEntry, history
from devilsgrip.table.records import ImportAnswer, export_to_file, import_from_file
from devilsgrip.table.words import Event, Words

__all__ = ["GameInfo", "Kept", "Player", "Stats", "Store", "StoreError", "WebSession",
           "current_table", "finished_table", "import_records", "keep_first_game",
           "last_finished", "open_existing", "open_for_play", "open_store", "parse_time",
           "split_records", "start_table", "store_error_text",
           "stored_table", "unkeep_first_game"]


def open_store(path: Path | str | None, *, create: bool = True, alone: bool = False) -> Store:
    """The store at ``path`` (``--db``, else ``$DEVILSGRIP_DB``, else the player's data
    folder); with ``create`` False a missing one is refused, nothing made; with ``alone``
    this program is its only user while it is open (the site's worker).  Raises
    :class:`~devilsgrip.store.StoreError` (a :class:`~devilsgrip.errors.DevilsGripError`)."""
    return Store.open(path, create=create, alone=alone)


def open_existing(path: Path | str | None) -> Store | None:
    """The store at ``path``, or the player's own when it exists (None: there is none, and
    none is made: a command that only shows the player's results opens it)."""
    if path is None and not default_path().exists():
        return None
    return Store.open(path)


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
        raise IllegalMoveError(codes.GAME_LIVE, "this game is still being played")
    return stored_table(store, game_id, words)


def open_for_play(path: Path | str | None) -> tuple[Store | None, StoreError | None]:
    """The store to play with, or None and why (never raises: the games then run unsaved,
    and the screen says why)."""
    return _open_or_why(path)


HISTORY_SHOWN: Final = 200
"""Finished games a game history lists at most, the latest first."""


@dataclass
class Player:
    """One player's games and settings, as a screen reaches them: ``store`` is None when
    there is no usable database (``store_error`` then says why, if known) and the games
    still run, unsaved."""

    store: Store | None
    owner: str = "local"
    store_error: StoreError | None = None

    def settings(self) -> dict[str, str]:
        """The player's saved settings (none when they cannot be read)."""
        if self.store is None:
            return {}
        try:
            return self.store.settings(self.owner)
        except DevilsGripError:
            return {}

    def set_setting(self, key: str, text: str) -> None:
        """Remember a setting (a store that fails keeps it for this run only)."""
        if self.store is not None:
            with contextlib.suppress(DevilsGripError):
                self.store.set_setting(self.owner, key, text)

    def unfinished(self) -> list[GameInfo]:
        """The player's games still in play, newest first (raises the store's error)."""
        return [] if self.store is None else self.store.unfinished_games(owner=self.owner)

    def stats(self, rules: str | None) -> Stats | None:
        """The player's statistics for ``rules`` (None: no store; raises the store's
        error)."""
        return None if self.store is None else self.store.stats(rules=rules, owner=self.owner)

    def rules_played(self) -> list[str]:
        """The rules texts of the player's games, most played first (raises the store's
        error)."""
        return [] if self.store is None else self.store.rules_played(owner=self.owner)

    def history(self, words: Words) -> tuple[list[HistoryEntry], int]:
        """The player's finished games, the latest to end first (at most
        :data:`HISTORY_SHOWN`), and how many there are in all (none without a store;
        raises the store's error)."""
        if self.store is None:
            return [], 0
        return history(self.store, self.owner, words, limit=HISTORY_SHOWN)

    def export_to(self, path: Path, words: Words) -> str:
        """Every game of the player written to a new records file at ``path``; what was
        done, said (raises :class:`~devilsgrip.table.controller.Refusal`: not saving, a
        file already there, one that cannot be written, the store's error)."""
        return export_to_file(self.store, self.owner, path, words)

    def import_from(self, path: Path, words: Words) -> ImportAnswer:
        """The records file at ``path`` read into the player's games (raises
        :class:`~devilsgrip.table.controller.Refusal`: not saving, a file that cannot be
        read or holds no record; the store's error)."""
        return import_from_file(self.store, self.owner, path, words)

    def finished(self, game_id: int, words: Words) -> Table | None:
        """The controller of the player's finished game ``game_id``, to review it (None:
        no such game of theirs; raises the store's error, or ``game-live`` for one in
        play)."""
        return None if self.store is None else finished_table(self.store, self.owner,
                                                              game_id, words)

    def start(self, words: Words, *, number: int | None = None, deck: str | None = None,
              rules: str = "classic") -> Table:
        """The controller of a new game (a random numbered deal unless ``number`` or
        ``deck``)."""
        session = PlaySession.start(self.store, number=number, deck=deck, rules=rules,
                                    owner=self.owner, store_error=self.store_error)
        return Table(session, words)

    def resume(self, game_id: int, words: Words) -> Table:
        """The controller of the stored game ``game_id``, its clock running again (raises
        the store's error when it cannot be taken up)."""
        assert self.store is not None, "a stored game needs the store"
        controller = Table(PlaySession.resume(self.store, game_id), words)
        controller.resume_clock()
        return controller


# ------------------------------------------------------------- a server's players
# A server's players (a browser each) share one store; their games are started, taken
# up and stored on their first action here, and a store that fails leaves them playing
# unsaved, as they say.


class Kept(NamedTuple):
    """What storing a game on its player's first action replaced: the session in memory
    and the stored session that took its place (None when it was not replaced)."""

    old: PlaySession
    fresh: PlaySession | None


def start_table(store: Store | None, *, owner: str, rules: str, number: int | None = None,
                deck: str | None = None, store_error: StoreError | None = None) -> Table:
    """The controller of ``owner``'s new game, told as dealt (a random numbered deal unless
    ``number`` or ``deck``; stored at once when ``store`` is given)."""
    session = PlaySession.start(store, number=number, deck=deck, rules=rules, owner=owner,
                                store_error=store_error)
    return Table(session, event=Event("new"))


def current_table(store: Store, owner: str) -> Table | None:
    """The controller of ``owner``'s current stored game taken up again, told as resumed
    (None: there is none, or it cannot be read)."""
    game_id = _quietly(lambda: store.current_game(owner), None)
    if not isinstance(game_id, int):
        return None
    try:
        session = PlaySession.resume(store, game_id)
    except (DevilsGripError, sqlite3.Error, OSError):
        return None
    return Table(session, event=Event("resume"))


def keep_first_game(store: Store, controller: Table, owner: str, token: str | None,
                    store_error: StoreError | None) -> Kept | None:
    """Store a player's session (``token``: its web session; None: none to store) and the
    game of ``controller``, on the player's first action; an untouched game is stored
    afresh, its clock kept.  None: the session could not be stored (the game goes on
    unsaved); else what :func:`unkeep_first_game` needs when the action is refused."""
    if token is not None and _quietly(
            lambda: store.create_web_session(WebSession(token, owner)), None) is None:
        return None
    old = controller.session
    if old.saving or old.game.moves_played or old.final:
        return Kept(old, None)
    fresh = PlaySession.begin(store, old.game, owner, store_error)
    fresh.play_seconds = old.elapsed()  # the clock ran since the page opened
    controller.session = fresh
    return Kept(old, fresh)


def unkeep_first_game(store: Store, controller: Table, owner: str, token: str | None,
                      kept: Kept) -> bool:
    """Undo :func:`keep_first_game` after a refused first action, when nothing was played
    or saved since (a refused request stores nothing); whether it was undone."""
    fresh = kept.fresh
    if fresh is not None:
        if controller.session is not fresh or fresh.game_id is None \
                or fresh.game.moves_played \
                or _quietly(lambda: store.event_count(fresh.game_id or 0), 1):
            return False
        _quietly(lambda: store.delete_game(fresh.game_id or 0), None)
        controller.session = kept.old
    elif _quietly(lambda: store.settings(owner), {}):
        return False
    if token is not None:
        _quietly(lambda: store.delete_web_session(token), None)
    return True


def _quietly(fn: Callable[[], Any], default: Any) -> Any:
    """``fn()``, or ``default`` when the store fails (the game goes on unsaved)."""
    try:
        return fn()
    except (DevilsGripError, sqlite3.Error, OSError):
        return default
