"""A saved game in play: the engine game plus its autosave.

>>> session = PlaySession.start(None, number=1)
>>> session.saving, session.warning_code
(False, 'store-none')
>>> session.play("d")
Move.from_text('d')
>>> session.game.score
72

Every action the engine accepts (move, undo, redo, restart, give up, hint) is
committed to the store before the method returns, so killing the process at
any moment loses nothing acknowledged.  A rejected move raises the engine's
error and changes nothing.  Without a usable store (``PlaySession.start(None,
...)``) the game runs the same without saving; ``saving`` is False and
``warning`` says why.  If a write fails in mid-game the move stands, saving
stops and ``warning`` says so.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from devilsgrip.errors import IllegalMoveError
from devilsgrip.game import Game, Status
from devilsgrip.i18n import _
from devilsgrip.notation import Move
from devilsgrip.store import (
    Store,
    StoreError,
    now_text,
    parse_time,
    store_error_text,
)

_NO_STORE_TEXT = "the game is not being saved: there is no database"


def open_store(path: Path | str | None = None) -> tuple[Store | None, StoreError | None]:
    """The store, or None and the reason (for ``PlaySession.start(None, store_error=...)``)."""
    try:
        return Store.open(path), None
    except StoreError as exc:
        return None, exc


class PlaySession:
    """One game being played, saved as it goes.  Build with :meth:`start` or :meth:`resume`."""

    def __init__(
        self,
        store: Store | None,
        game: Game,
        game_id: int | None,
        owner: str,
        started: str,
        ended: str | None = None,
        store_error: StoreError | None = None,
    ) -> None:
        self.store = store
        self.game = game
        self.game_id = game_id
        self.owner = owner
        self.started = started
        self.ended: str | None = ended
        self.warning_code: str | None = None
        self.warning_params: dict[str, Any] = {}
        self._store_error: StoreError | None = None
        if store is None or game_id is None:
            self._set_warning(store_error)

    # -------------------------------------------------------------- building
    @classmethod
    def start(
        cls,
        store: Store | None,
        number: int | None = None,
        deck: str | None = None,
        rules: str = "classic",
        owner: str = "local",
        *,
        position: str | None = None,
        store_error: StoreError | None = None,
    ) -> PlaySession:
        """A new game (a random numbered deal when no number, deck or position is given).

        With ``store`` None the game is not saved; ``store_error`` tells why.
        Bad input raises the engine's errors (DeckError, RulesError, PositionError).
        """
        if position is not None:
            game = Game.from_position(position)
        elif deck is not None:
            game = Game(deck=deck, rules=rules)
        else:
            if number is None:
                number = random.randint(1, 10**9)
            game = Game(number, rules=rules)
        started = now_text()
        session = cls(None, game, None, owner, started, store_error=store_error)
        if store is not None:
            try:
                gid = store.new_game(game, owner, started=started)
                store.set_current_game(owner, gid)
            except StoreError as exc:
                session._set_warning(exc)
            else:
                session.store = store
                session.game_id = gid
                session._clear_warning()
        return session

    @classmethod
    def resume(cls, store: Store, game_id: int) -> PlaySession:
        """A stored game, exactly where it was (redo list included).

        Raises StoreError ``store-no-game`` when there is no such game.
        """
        info = store.game_info(game_id)
        if info is None:
            from devilsgrip.store import _error

            raise _error("store-no-game", store.path, game_id=game_id)
        game = store.load_game(game_id)
        session = cls(store, game, game_id, info.owner, info.started, info.ended)
        if not game.is_over() and not game.given_up:
            try:
                store.set_current_game(info.owner, game_id)
            except StoreError as exc:
                session._set_warning(exc)
        return session

    # ---------------------------------------------------------------- status
    @property
    def saving(self) -> bool:
        return self.store is not None and self.game_id is not None

    @property
    def warning(self) -> str | None:
        """Why the game is not being saved, in the player's language (None when saving)."""
        if self.warning_code is None:
            return None
        if self._store_error is not None:
            return _("the game is not being saved: {reason}").format(
                reason=store_error_text(self._store_error)
            )
        return _(_NO_STORE_TEXT)

    @property
    def finished(self) -> bool:
        return self.game.status != Status.IN_PROGRESS

    def elapsed(self) -> float:
        """Seconds from the start to the end (or to now while the game is open)."""
        start = parse_time(self.started)
        end = parse_time(self.ended) if self.ended else None
        if start is None:
            return 0.0
        return max(0.0, ((end or datetime.now(UTC)) - start).total_seconds())

    def best_score(self) -> int | None:
        """The best finished score on this deal and rules (None without a store)."""
        if self.store is None:
            return None
        try:
            return self.store.best_score(self.game)
        except StoreError:
            return None

    # --------------------------------------------------------------- actions
    def play(self, move: Move | str) -> Move:
        """Play a move (engine-checked); it is committed before this returns."""
        played = self.game.play(move)
        self._save("move", played.text())
        return played

    def undo(self) -> Move:
        move = self.game.undo()
        self._save("undo")
        return move

    def redo(self) -> Move:
        move = self.game.redo()
        self._save("redo")
        return move

    def restart(self) -> None:
        """Back to the start of the deal.

        A given-up game stays given up in the store: restarting it starts a new
        stored game on the same deal (``game_id`` changes).  Any other game goes
        back to its start with its moves kept for redo.
        """
        if self.game.given_up:
            game = _fresh_copy(self.game)
            self.game = game
            self.started = now_text()
            self.ended = None
            if self.store is not None and self.game_id is not None:
                try:
                    gid = self.store.new_game(game, self.owner, started=self.started)
                    self.store.set_current_game(self.owner, gid)
                except StoreError as exc:
                    self._stop_saving(exc)
                else:
                    self.game_id = gid
            return
        self.game.restart()
        self._save("restart")

    def give_up(self) -> None:
        """End the game now (its score counts as it stands).  Giving up twice does nothing."""
        if self.game.given_up:
            return
        if self.game.is_won():
            raise IllegalMoveError("game-won", "the game is won: there is nothing to give up")
        self.game.give_up()
        self._save("giveup")

    def record_hint(self, move: Move | str | None) -> None:
        """Note that a hint was shown (its move, if any)."""
        text = move.text() if isinstance(move, Move) else move
        self._save("hint", text)

    def record(self) -> str:
        """The game's record (the engine's format)."""
        if self.store is not None and self.game_id is not None:
            try:
                return self.store.record(self.game_id)
            except StoreError:
                pass
        return self.game.record()

    # ------------------------------------------------------------- internals
    def _save(self, kind: str, move: str | None = None) -> None:
        status = self.game.status
        if status == Status.IN_PROGRESS:
            self.ended = None
        elif self.ended is None:
            self.ended = now_text()
        if self.store is None or self.game_id is None:
            return
        try:
            self.store.add_event(self.game_id, kind, self.game, move)
        except StoreError as exc:
            self._stop_saving(exc)

    def _stop_saving(self, exc: StoreError) -> None:
        self.store = None
        self.game_id = None
        self._set_warning(exc)

    def _set_warning(self, exc: StoreError | None) -> None:
        self._store_error = exc
        self.warning_code = exc.code if exc is not None else "store-none"
        self.warning_params = dict(exc.params) if exc is not None else {}

    def _clear_warning(self) -> None:
        self._store_error = None
        self.warning_code = None
        self.warning_params = {}

    def __repr__(self) -> str:
        return (f"<PlaySession game_id={self.game_id} saving={self.saving} "
                f"score={self.game.score} status={self.game.status.value!r}>")


def _fresh_copy(game: Game) -> Game:
    """The same deal and rules at its start, with no history."""
    if game.number is not None:
        return Game(game.number, rules=game.rules)
    if game.deck is not None:
        return Game(deck=game.deck, rules=game.rules)
    return Game.from_position(game.start_position)
