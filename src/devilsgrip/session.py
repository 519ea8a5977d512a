"""A saved game in play: the engine game, its autosave and its lifecycle.

>>> session = PlaySession.start(None, number=1)
>>> session.saving, session.warning_code
(False, 'store-none')
>>> session.play_text("d")
Move.from_text('d')
>>> session.game.score
72

Every action the engine accepts (move, undo, redo, give up, hint) is
committed to the store before the method returns, so killing the process at
any moment loses nothing acknowledged.  A rejected move raises the engine's
error and changes nothing.  Without a usable store (``PlaySession.start(None,
...)``) the game runs the same without saving; ``saving`` is False and
``warning`` says why.  If a write fails in mid-game the move stands, saving
stops and ``warning`` says so.

The lifecycle, the same for every screen:

- A game ends when it is won, given up, or left (:meth:`leave`).  Its result
  is then *final*: nothing changes it, undo and redo are refused
  (``game-finished``), and it counts in the statistics.
- A game that is over (no card can enter) may still be undone and played on;
  once its best line has been shown (:meth:`make_final`) it is final with
  the result it had.
- Leaving a game that is not final: with no move it is deleted and counts
  nowhere; over, it counts as over; else as given up, with its score as it
  stands.  "Play again" and "restart" are :meth:`again`: a new stored game
  of the same deal, with its own id and clock.
- The clock counts play time: :meth:`pause` and :meth:`resume_clock` stop
  and start it while the game is off screen.
- One writer per game: a write to a game that another program changed since
  this session read it is refused; the session then reloads the stored game
  and raises :class:`~devilsgrip.store.StoreError` ``store-game-changed``
  (nothing acknowledged is lost: the refused action was not acknowledged).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from devilsgrip import codes
from devilsgrip.cards import MAX_GAME_NUMBER
from devilsgrip.errors import IllegalMoveError
from devilsgrip.game import Game, Move, Status, View
from devilsgrip.i18n import _, translate_error, translations
from devilsgrip.records import write_record
from devilsgrip.store import Store, StoreError, now_text

RANDOM_DEALS = 10**9
"""Random deals are numbered 1 .. this (the rest of the range is there for deals by number)."""
assert RANDOM_DEALS <= MAX_GAME_NUMBER


clock: Callable[[], float] = time.monotonic
"""The clock that play time is measured by (tests may replace it)."""


def random_deal_number(rng: random.Random | None = None) -> int:
    """The number of a random deal (the one place a screen's "new game" draws it)."""
    return (rng or random.SystemRandom()).randint(1, RANDOM_DEALS)


def open_store(path: Any = None) -> tuple[Store | None, StoreError | None]:
    """The store, or None and the reason (for ``PlaySession.start(None, store_error=...)``)."""
    try:
        return Store.open(path), None
    except StoreError as exc:
        return None, exc


def _finished_error() -> IllegalMoveError:
    return IllegalMoveError(codes.GAME_FINISHED, "this game is finished: its result stands")


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
        *,
        final: bool = False,
        play_seconds: float = 0.0,
        seen: int = 0,
        daily: str | None = None,
    ) -> None:
        self.store = store
        self.daily = daily
        """The day (``YYYY-MM-DD``) whose daily deal this game is played as (None: not one)."""
        self.game = game
        self.game_id = game_id
        self.owner = owner
        self.started = started
        self.ended: str | None = ended
        self.final = final or game.is_won() or game.given_up
        """The result stands: won, given up, left, or made final (see the module docs)."""
        self.play_seconds = play_seconds
        self._since: float | None = None
        self._seen = seen
        self._viewed: tuple[Game, View] | None = None
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
        The clock runs from now.
        """
        if position is not None:
            game = Game.from_position(position)
        elif deck is not None:
            game = Game(deck=deck, rules=rules)
        else:
            game = Game(random_deal_number() if number is None else number, rules=rules)
        return cls.begin(store, game, owner, store_error)

    @classmethod
    def begin(cls, store: Store | None, game: Game, owner: str = "local",
              store_error: StoreError | None = None, *, daily: str | None = None,
              ) -> PlaySession:
        """A new stored game of ``game`` (at its start), its clock running (``daily``: the
        day whose daily deal it is played as)."""
        started = now_text()
        session = cls(None, game, None, owner, started, store_error=store_error, daily=daily)
        if store is not None:
            try:
                gid = store.new_game(game, owner, started=started, daily=daily)
                store.set_current_game(owner, gid)
            except StoreError as exc:
                session._set_warning(exc)
            else:
                session.store = store
                session.game_id = gid
                session._clear_warning()
        session.resume_clock()
        return session

    @classmethod
    def resume(cls, store: Store, game_id: int) -> PlaySession:
        """A stored game, exactly where it was (redo list included); its clock is stopped.

        Raises StoreError ``store-no-game`` when there is no such game.
        """
        info = store.game_info(game_id)
        if info is None:
            raise StoreError(codes.STORE_NO_GAME, f"there is no game {game_id} in the database "
                             f"{store.path}", path=str(store.path), game_id=game_id)
        seen = store.event_count(game_id)
        game = store.load_game(game_id)
        session = cls(store, game, game_id, info.owner, info.started, info.ended,
                      final=info.final, play_seconds=info.play_seconds, seen=seen,
                      daily=store.daily_of(game_id))
        if not session.final:
            try:
                store.set_current_game(info.owner, game_id)
            except StoreError as exc:  # the game reads but cannot be saved: say so at once
                session._stop_saving(exc)
        return session

    def again(self) -> PlaySession:
        """A new stored game of the same deal and rules (play again, restart).

        Leave this one first (:meth:`leave`): its result stays as it is.
        """
        return self.begin(self.store, _fresh_copy(self.game), self.owner, self._store_error)

    # ---------------------------------------------------------------- status
    @property
    def saving(self) -> bool:
        return self.store is not None and self.game_id is not None

    @property
    def store_error(self) -> StoreError | None:
        """The store's failure that stopped saving (None when saving or no store was given)."""
        return self._store_error

    @property
    def warning(self) -> str | None:
        """Why the game is not being saved, in the player's language (None when saving)."""
        return self.warning_text()

    def warning_text(self, lang: str | None = None) -> str | None:
        """Why the game is not being saved, in ``lang`` (None: the process language)."""
        if self.warning_code is None:
            return None
        cat = translations(lang) if lang is not None else None
        gettext = cat.gettext if cat is not None else _
        if self._store_error is not None:
            return gettext("the game is not being saved: {reason}").format(
                reason=translate_error(self._store_error, lang))
        return gettext("the game is not being saved: there is no database")

    @property
    def finished(self) -> bool:
        """The same as :attr:`final`: the game has ended and its result stands."""
        return self.final

    @property
    def has_moves(self) -> bool:
        """A move was played in this game (even if taken back since)."""
        return self.game.moves_played > 0 or bool(self.game.redo_stack)

    @property
    def leave_asks(self) -> bool:
        """Leaving this game ends it with a result: a screen asks the player first."""
        return not self.final and self.has_moves

    @property
    def can_undo(self) -> bool:
        return not self.final and self.game.can_undo

    @property
    def can_redo(self) -> bool:
        return not self.final and self.game.can_redo

    def view(self) -> View:
        """What the player sees of the game now (see :meth:`Game.view`), worked out once per
        state: the session's actions start it anew, every reader of the state shares it."""
        viewed = self._viewed
        if viewed is None or viewed[0] is not self.game:
            viewed = self._viewed = (self.game, self.game.view())
        return viewed[1]

    @property
    def status(self) -> Status:
        """Where the game stands now (as :attr:`Game.status`, from :meth:`view`)."""
        return view_status(self.view())

    @property
    def result(self) -> Status | None:
        """How the game ended (None while it is not final)."""
        if not self.final:
            return None
        status = self.status
        return Status.OVER if status == Status.IN_PROGRESS else status

    @property
    def clock_running(self) -> bool:
        return self._since is not None

    def elapsed(self) -> float:
        """Seconds of play: the clock runs only while the game is on screen and not final."""
        running = clock() - self._since if self._since is not None else 0.0
        return self.play_seconds + running

    def best_score(self) -> int | None:
        """The best final score of the player's other games of this deal and rules (None: no
        store)."""
        if self.store is None:
            return None
        try:
            return self.store.best_score(self.game, exclude=self.game_id, owner=self.owner)
        except StoreError:
            return None

    def fastest_win(self) -> float | None:
        """The fastest of the player's other wins under these rules, its clock kept (None:
        none, or no store)."""
        if self.store is None:
            return None
        try:
            return self.store.fastest_win(self.game.rules, self.owner, exclude=self.game_id)
        except StoreError:
            return None

    # ----------------------------------------------------------------- clock
    def resume_clock(self) -> None:
        """The game is on screen: its clock runs (a final game's clock stays stopped)."""
        if self._since is None and not self.final:
            self._since = clock()

    def pause(self) -> None:
        """The game left the screen: stop its clock and store the time played."""
        if self._since is None:
            return
        self._fold_clock()
        if self.store is not None and self.game_id is not None:
            try:
                self.store.set_play_time(self.game_id, self.play_seconds)
            except StoreError as exc:
                self._stop_saving(exc)

    def _fold_clock(self, keep_running: bool = False) -> None:
        now = clock()
        if self._since is not None:
            self.play_seconds += now - self._since
        self._since = now if keep_running else None

    # --------------------------------------------------------------- actions
    def play(self, move: Move) -> Move:
        """Play a move (engine-checked); it is committed before this returns.

        Refused with ``game-finished`` once the game is final.  Text is read by
        :meth:`play_text`.
        """
        if not isinstance(move, Move):
            raise TypeError(
                f"play takes a Move, not {type(move).__name__} (text goes to play_text)"
            )
        if self.final:
            raise _finished_error()
        before = self.game.copy()
        played = self.game.play(move)
        self._save("move", before, played.text())
        return played

    def play_text(self, text: str) -> Move:
        """The text door: read one move (:class:`~devilsgrip.errors.MoveError` if unreadable),
        then :meth:`play` it.

        >>> PlaySession.start(None, number=1).play_text("zz")
        Traceback (most recent call last):
        ...
        devilsgrip.errors.MoveError: cannot read move 'zz' ...
        """
        return self.play(Move.from_text(text))

    def undo(self) -> Move:
        if self.final:
            raise _finished_error()
        before = self.game.copy()
        move = self.game.undo()
        self._save("undo", before)
        return move

    def redo(self) -> Move:
        if self.final:
            raise _finished_error()
        before = self.game.copy()
        move = self.game.redo()
        self._save("redo", before)
        return move

    def give_up(self) -> None:
        """End the game now: its score counts as it stands.

        Giving up a given-up game does nothing; any other final game, and a
        won game, refuse (``game-finished``, ``game-won``).
        """
        if self.game.given_up:
            return
        if self.final and not self.game.is_won():
            raise _finished_error()
        before = self.game.copy()
        self.game.give_up()  # the engine refuses a won game (game-won)
        self._save("giveup", before)

    def make_final(self) -> None:
        """The best line is shown: the game's result stands as it is.

        Only a game that has ended may be made final (an over game, or one
        already final); a game still in play is refused with ``game-live``,
        so nothing can show its stock.
        """
        if self.final:
            return
        if not self.game.is_over():
            raise IllegalMoveError(codes.GAME_LIVE, "this game is still being played")
        before = self.game.copy()
        self.final = True
        self._save("final", before)

    def leave(self) -> str:
        """The player leaves the game for another one; returns what became of it.

        ``"kept"``: it was final already; ``"deleted"``: it had no move, it is
        gone; ``"over"``: it counts as over; ``"given up"``: it counts as given
        up with its score as it stands.
        """
        self.pause()
        if self.final:
            return "kept"
        if not self.has_moves:
            if self.store is not None and self.game_id is not None:
                try:
                    self.store.delete_game(self.game_id)
                except StoreError as exc:
                    self._stop_saving(exc)
            self.final = True
            return "deleted"
        before = self.game.copy()
        if self.game.is_over():
            self.final = True
            self._save("final", before)
            return "over"
        self.game.give_up()
        self._save("giveup", before)
        return "given up"

    def record_hint(self, move: Move | str | None) -> None:
        """Note that a hint was shown (its move, if any)."""
        text = move.text() if isinstance(move, Move) else move
        self._save("hint", None, text)

    def record(self) -> str:
        """The game's record (the engine's format)."""
        if self.store is not None and self.game_id is not None:
            try:
                return self.store.record(self.game_id)
            except StoreError:
                pass
        return write_record(self.game)

    def reload(self) -> None:
        """Read the stored game again (after another program changed it)."""
        if self.store is None or self.game_id is None:
            return
        fresh = PlaySession.resume(self.store, self.game_id)
        self.game = fresh.game
        self.final = fresh.final
        self.ended = fresh.ended
        self.play_seconds = fresh.play_seconds
        self._seen = fresh._seen
        if self._since is not None and not self.final:
            self._since = clock()
        elif self.final:
            self._since = None

    # ------------------------------------------------------------- internals
    def _save(self, kind: str, before: Game | None, move: str | None = None) -> None:
        """Commit the event just applied; ``before`` is the game before it (for a refusal)."""
        game = self.game
        self._viewed = None  # a new state: its view and status are worked out once, here
        status = self.status
        if status in (Status.WON, Status.GIVEN_UP):
            self.final = True
        if self.final:
            self._fold_clock()
            if self.ended is None:
                self.ended = now_text()
        else:
            self._fold_clock(keep_running=True)
        if self.store is None or self.game_id is None:
            return
        try:
            self._seen = self.store.add_event(
                self.game_id, kind, game, move, final=self.final,
                play_seconds=self.play_seconds, seen=self._seen, status=status)
        except StoreError as exc:
            if exc.code == codes.STORE_GAME_CHANGED:
                if before is not None:
                    self.game = before
                self.reload()
                raise
            self._stop_saving(exc)

    def _stop_saving(self, exc: StoreError) -> None:
        self.store = None
        self.game_id = None
        self._set_warning(exc)

    def _set_warning(self, exc: StoreError | None) -> None:
        self._store_error = exc
        self.warning_code = exc.code if exc is not None else codes.STORE_NONE
        self.warning_params = dict(exc.params) if exc is not None else {}

    def _clear_warning(self) -> None:
        self._store_error = None
        self.warning_code = None
        self.warning_params = {}

    def __repr__(self) -> str:
        return (f"<PlaySession game_id={self.game_id} saving={self.saving} "
                f"score={self.game.score} status={self.game.status.value!r} final={self.final}>")


def view_status(view: View) -> Status:
    """Where the game of ``view`` stands (what :attr:`Game.status` says, read from the view
    already worked out)."""
    if view.given_up:
        return Status.GIVEN_UP
    if view.won:
        return Status.WON
    return Status.OVER if view.over else Status.IN_PROGRESS


def _fresh_copy(game: Game) -> Game:
    """The same deal and rules at its start, with no history."""
    if game.number is not None:
        return Game(game.number, rules=game.rules)
    if game.deck is not None:
        return Game(deck=game.deck, rules=game.rules)
    return Game.from_position(game.start_position)
