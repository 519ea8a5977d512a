"""The one door to a game: every action a player can take, on any screen.

A :class:`Table` sits over a :class:`~devilsgrip.session.PlaySession` and the
player's words.  Each action (pick up, drop, stock, play, undo, redo, hint,
best line, review, give up, leave, new game, play again) is one method that
returns an :class:`Outcome` (what happened, told in words, and the new
:class:`Snapshot` a screen draws) or raises a :class:`Refusal` (the reason
code and the sentence); a refused action leaves the game as it was.  The
screens turn clicks and keys into these calls and draw what comes back; the
decisions (the drop policy, the lifecycle, which actions apply now) are made
here once.

>>> from devilsgrip.session import PlaySession
>>> table = Table(PlaySession.start(None, number=5), Words("en"))
>>> table.stock().said
'Dealt 3 cards: 8♥, K♦, Q♦.'
>>> try:
...     table.drop(0, 1)
... except Refusal as refusal:
...     print(refusal.code, "|", refusal.text)
card-is-base | The 3 of diamonds is a base: bases reach the grid only by filling a space.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, Final

from devilsgrip import codes
from devilsgrip.cards import CELL_NAMES, GRID_SIZE
from devilsgrip.errors import DevilsGripError, IllegalMoveError
from devilsgrip.game import DEAL, REDEAL, Game, Move, MoveKind, View, grid_build, swap, talon_build
from devilsgrip.i18n import N_
from devilsgrip.rules import Rules
from devilsgrip.session import PlaySession
from devilsgrip.store import StoreError
from devilsgrip.table.actions import Summary
from devilsgrip.table.places import STOCK, TALON, Place, move_places
from devilsgrip.table.words import (
    Event,
    Words,
    deal_label,
    rating_label,
    redeals_label,
    rules_label,
    saving_warning,
    say_end,
    say_error,
    say_event,
    say_hint,
    say_picked,
    sentence,
    status_label,
)

if TYPE_CHECKING:
    from devilsgrip.review import Review as Review
    from devilsgrip.solver import Hint as Hint
    from devilsgrip.table.daily import DailyCalendar

__all__ = ["ACTIONS", "BestLine", "HintFound", "HintJob", "Outcome", "Picking", "Refusal",
           "Snapshot", "Table", "best_line_refusal", "drop_candidate", "drop_move", "drop_refusal",
           "final_refusal", "find_best_line", "give_up", "give_up_refusal", "move_refusal",
           "pick_up_refusal", "picking", "refusal", "review_refusal", "search_hint", "stock_move",
           "swap_candidate", "swap_move", "swap_refusal"]

ACTIONS: Final = ("deal", "redeal", "undo", "redo", "hint", "give_up", "best_line", "review",
                  "new_game", "restart", "share")
"""The actions :meth:`Table.applies` answers for (the key bars and menus show those that do)."""

_TOLD_WITH_END: Final = frozenset({"move", "undo", "redo", "resume", "load", "changed"})


class Refusal(Exception):
    """An action refused: its reason ``code``, the sentence ``text`` in the player's words,
    and its ``kind``: ``illegal`` (the rules or the lifecycle say no), ``input`` (what was
    asked cannot be read), ``changed`` (another window changed the game: it is shown again
    as stored) or ``store`` (the database failed).  Nothing changed."""

    def __init__(self, code: str, text: str, kind: str = "illegal",
                 cause: BaseException | None = None) -> None:
        super().__init__(text)
        self.code = code
        self.text = text
        self.kind = kind
        self.cause = cause


@dataclass(frozen=True)
class Snapshot:
    """The state a screen draws, worked out once per state."""

    view: View
    summary: Summary
    game_id: int | None
    number: int | None
    rules: str
    saving: bool
    started: str
    elapsed: float
    clock_running: bool
    can_undo: bool
    can_redo: bool
    last_move: Move | None
    announce: str
    """What happened last, told in words, with how the game stands when it has ended."""
    arrangement: tuple[Move, ...]
    """The swaps that arrange a won grid (shown, never played)."""
    applies: frozenset[str]
    """The actions of :data:`ACTIONS` that may be taken now."""
    leave_warning: str | None
    """What leaving the game does to it, to ask the player first (None: no need to ask)."""
    picking: Picking = field(default_factory=lambda: Picking({}, {}, {}, None))
    """What picking up each place means now, and what a click on the stock plays."""
    daily: str | None = None
    """The day whose daily deal this game is played as (None: not a daily)."""


@dataclass(frozen=True)
class Picking:
    """What the player may pick up now and where it may go, read from the state's legal
    moves (the drop policy's answers for every place at once, no move checked again)."""

    said: dict[Place, str]
    """The places where something can be picked up, with what picking it up means, in words."""
    targets: dict[Place, list[Place]]
    """The cells each of those places can be built on."""
    swaps: dict[Place, list[Place]]
    """The empty cells a pile dropped from each of those places swaps with."""
    stock: Move | None
    """What a click on the stock plays (None: it is refused)."""


def picking(session: PlaySession, view: View, words: Words) -> Picking:
    """What picking up each place means in the state of ``view`` (the game of ``session``
    now), as :func:`pick_up_refusal`,
    :func:`drop_refusal` and
    :func:`move_refusal` answer it place by place (a test holds
    them equal): from the legal moves worked out once with the view."""
    if view.given_up:
        return Picking({}, {}, {}, None)
    grid, final = view.grid, session.final
    places = [c for c in range(len(grid)) if grid[c]]
    if view.talon:
        places.append(TALON)
    targets: dict[Place, list[Place]] = {p: [] for p in places}
    stock = None
    for move in view.legal:
        if move.kind is MoveKind.BUILD:
            targets[move.src].append(move.dst)
        elif move.kind is MoveKind.TALON:
            targets[TALON].append(move.dst)
        elif not final:
            stock = move
    empty = [c for c in range(len(grid)) if not grid[c]]
    return Picking(
        said={p: say_picked(session.game, p, words, targets[p]) for p in places},
        targets=targets,
        swaps={p: [] if final or p == TALON else [c for c in empty if c != p]
               for p in places},
        stock=stock,
    )


@dataclass(frozen=True)
class Outcome:
    """What an action did: the event, told in words (``said``), and the state it left (whose
    ``announce`` adds how the game stands once it has ended)."""

    event: Event
    said: str
    state: Snapshot


@dataclass(frozen=True)
class HintJob:
    """A hint being looked for: a copy of the game as it was asked for."""

    game: Game
    key: object
    session: PlaySession


@dataclass(frozen=True)
class HintFound:
    """A hint found: its move (None: no move helps), reason code, sentence and places."""

    move: Move | None
    code: str
    text: str
    places: tuple[Place, ...]


@dataclass(frozen=True)
class BestLine:
    """The solver's line from the deal's start: score, proven, moves, and the game at its
    start (a copy: watching the line changes nothing of the player's game)."""

    score: int
    proven: bool
    moves: tuple[Move, ...]
    start: Game


def find_best_line(start: Game, *, time_limit: float = 10.0) -> BestLine:
    """The solver's line from ``start`` (a deal at its start); a plain function of plain
    values: a server runs it apart from the player's game, in its solver's threads."""
    from devilsgrip.solver import solve

    result = solve(start, time_limit=time_limit)
    return BestLine(result.score, bool(result.proven), tuple(result.moves), start)


def deal_best(session: PlaySession, before: int | None) -> int | None:
    """The deal's best final score: ``before`` (the other games'), and this game's score
    once its result stands."""
    if not session.final:
        return before
    score = session.game.score
    return score if before is None else min(before, score)


def summary(session: PlaySession, words: Words, best: int | None,
            view: View | None = None) -> Summary:
    """The summary of ``session`` (``best``: the other games' best on this deal, looked up
    once by the caller; ``view``: the session's view, when the caller has it)."""
    game = session.game
    before = best
    status = session.result or session.status
    fastest = session.fastest_win() if game.is_won() else None
    return Summary(
        deal=deal_label(game, words),
        rules=rules_label(game.rules, words),
        status=status_label(status, words),
        rating=rating_label(game.rating.value, words),
        score=game.score,
        moves=game.moves_played,
        redeals=redeals_label(game, words),
        best=deal_best(session, before),
        new_best=session.final and before is not None and game.score < before,
        best_before=before,
        fastest_before=fastest,
        new_fastest=fastest is not None and 0 < session.elapsed() < fastest,
        end=say_end(session, words, view),
        warning=saving_warning(session, words),
        leave_asks=session.leave_asks,
        final=session.final,
    )


def search_hint(job: HintJob, *, time_limit: float = 1.0) -> Hint | None:
    """The honest player's move for the game of ``job`` (the stock's order unread); a plain
    function of plain values, run apart from the player's game, in a screen's worker thread
    or a server's solver threads.  :meth:`Table.hint_found` tells it."""
    from devilsgrip.solver import hint

    return hint(job.game.copy(), time_limit=time_limit)


# ------------------------------------------------------------- the drop policy
# What a drop, a swap or a click on the stock plays, and why an action is refused.
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


def best_line_refusal(session: PlaySession) -> IllegalMoveError | None:
    """Why this game's best line is not shown (None: it is, once the game has ended): a
    game won has the best score there is, its own."""
    if session.game.is_won():
        return _refuse(codes.BEST_LINE_WON, "the game is won: no score is better than 0")
    return None


def review_refusal(session: PlaySession) -> IllegalMoveError | None:
    """Why this game cannot be reviewed yet (None: it can): a review shows the stock."""
    if session.final or session.game.is_over():
        return None
    return _refuse(codes.GAME_LIVE, "this game is still being played")


def give_up(session: PlaySession) -> Event:
    problem = give_up_refusal(session)
    if problem is not None:
        raise problem
    session.give_up()
    return Event("giveup")


@dataclass
class Table:
    """The controller of one player's game.  Build it over a session and the player's words.

    ``event`` and ``last_move`` are what the last action did (told in the snapshot's
    ``announce``); ``session`` changes when a new game or the same deal again is started.
    """

    session: PlaySession
    words: Words = field(default_factory=Words)
    event: Event = field(default_factory=lambda: Event("load"))
    last_move: Move | None = None
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    """Held while an action reads or changes the game (one action at a time, any thread)."""
    _best: tuple[object, int | None] | None = field(default=None, repr=False)
    _solution: dict[object, BestLine] = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------- state
    @property
    def game(self) -> Game:
        return self.session.game

    def use_words(self, words: Words) -> None:
        """Tell everything from now on in ``words`` (the player chose another language)."""
        with self.lock:
            self.words = words

    def snapshot(self) -> Snapshot:
        """The state now, each status worked out once."""
        session, game, words = self.session, self.session.game, self.words
        view = session.view()  # the legal moves and the status, worked out once
        best = self.best_score()
        about = summary(session, words, best, view)
        told = say_event(self.event, game, words)
        end = about.end if self.event.kind in _TOLD_WITH_END else ""
        won = view.won
        return Snapshot(
            view=view, summary=about, game_id=session.game_id, number=game.number,
            rules=game.rules.text, saving=session.saving, started=session.started,
            elapsed=round(session.elapsed(), 1), clock_running=session.clock_running,
            can_undo=session.can_undo, can_redo=session.can_redo, last_move=self.last_move,
            announce=" ".join(s for s in (told, end) if s),
            arrangement=tuple(game.arrangement()) if won else (),
            applies=self._applies(view),
            leave_warning=self._leave_warning(view),
            picking=picking(session, view, words),
            daily=session.daily,
        )

    def best_score(self) -> int | None:
        """The best final score of the other games of this deal (None: none, or no store);
        read from the store once per game and finished state."""
        key = (self.session.game_id, id(self.session), self.session.final)
        if self._best is None or self._best[0] != key:
            best: int | None = None
            with contextlib.suppress(DevilsGripError, sqlite3.Error, OSError):
                best = self.session.best_score()
            self._best = (key, best)
        return self._best[1]

    def deal_best(self) -> int | None:
        """The best final score on this deal, this game's own counted once it is final (what
        statistics show: the totals count a final game, so the deal's best does too)."""
        with self.lock:
            others = self.best_score()
            if not self.session.final:
                return others
            own = self.game.score
            return own if others is None else min(others, own)

    def applies(self, action: str) -> bool:
        """Whether ``action`` (one of :data:`ACTIONS`) may be taken now."""
        return action in self._applies(self.session.view())

    def _applies(self, view: View) -> frozenset[str]:
        session = self.session
        out = {"new_game", "restart"}
        if session.can_undo:
            out.add("undo")
        if session.final or view.over:
            # what is left to do: undo, look back at the game, or another game; a win is
            # its own best line
            out |= {"review", "share"}
            if best_line_refusal(session) is None:
                out.add("best_line")
            return frozenset(out)
        if DEAL in view.legal:
            out.add("deal")
        if REDEAL in view.legal:
            out.add("redeal")
        if session.can_redo:
            out.add("redo")
        # neither final nor over (so not won): what give_up_refusal refuses cannot be here
        out |= {"hint", "give_up"}
        return frozenset(out)

    def leave_warning(self) -> str | None:
        """What leaving this game does to it, as the sentence a screen asks the player
        with (None: leaving costs nothing, a screen need not ask)."""
        with self.lock:
            return self._leave_warning(self.session.view())

    def _leave_warning(self, view: View) -> str | None:
        if not self.session.leave_asks:
            return None
        if view.over:
            return self.words.gettext(N_("It then counts as over, with score {score}."))\
                .format(score=view.score)
        return self.words.gettext(N_("It then counts as given up, with score {score}."))\
            .format(score=view.score)

    def give_up_refusal(self) -> Refusal | None:
        """Why this game cannot be given up (None: it can)."""
        return self.why_not(lambda: give_up_refusal(self.session))

    # ------------------------------------------------------------- refusals
    def refusal(self, exc: BaseException) -> Refusal:
        """``exc`` (a refusal of the engine, the session or the store) as a :class:`Refusal`
        in the player's words."""
        if isinstance(exc, Refusal):
            return exc
        if isinstance(exc, StoreError) and exc.code == codes.STORE_GAME_CHANGED:
            # another window or server wrote this game: the session reloaded it
            self.event = Event("changed")
            self.last_move = None
            return Refusal(codes.GAME_CHANGED, sentence(self.words.gettext(N_(
                "this game was changed in another window: it is shown again as it "
                "stands"))), "changed", exc)
        if isinstance(exc, IllegalMoveError):
            return Refusal(exc.code, say_error(exc, self.words), "illegal", exc)
        if isinstance(exc, DevilsGripError):
            return Refusal(exc.code, say_error(exc, self.words), "input", exc)
        return Refusal(codes.STORE_FAILED, sentence(self.words.gettext(N_(
            "the game could not be saved: {reason}")).format(reason=str(exc))), "store", exc)

    def _do(self, action: Callable[[], Event]) -> Outcome:
        with self.lock:
            try:
                event = action()
            except (DevilsGripError, sqlite3.Error, OSError) as exc:
                raise self.refusal(exc) from exc
            self.event = event
            if event.kind in ("move", "redo") and event.effect is not None:
                self.last_move = event.effect.move
            elif event.kind != "putback":
                self.last_move = None
            return Outcome(event, say_event(event, self.game, self.words), self.snapshot())

    def why_not(self, action: Callable[[], IllegalMoveError | None]) -> Refusal | None:
        """The refusal ``action`` would meet, asked before acting (nothing changes)."""
        with self.lock:
            try:
                problem = action()
            except DevilsGripError as exc:
                return self.refusal(exc)
            return None if problem is None else self.refusal(problem)

    # ------------------------------------------------------------- play
    def _play(self, move: Move) -> Event:
        self.session.play(move)  # the engine's one check of the move
        return Event("move", self.session.game.last_effect())

    def play(self, move: Move) -> Outcome:
        """Play ``move`` (checked by the engine, saved before this returns)."""
        return self._do(lambda: self._play(move))

    def play_text(self, text: str) -> Outcome:
        """Play the move written ``text`` in the project's notation."""
        return self._do(lambda: self._play(Move.from_text(text)))

    def pick_up(self, place: Place) -> Outcome:
        """Pick up what lies at ``place``: said is the card and where it can go."""
        with self.lock:
            game = self.game
            problem = pick_up_refusal(game, place)
            if problem is None and place == STOCK:
                problem = refusal(game, STOCK, 0)
            if problem is not None:
                raise self.refusal(problem)
            state = self.snapshot()
            return Outcome(Event("picked"), say_picked(game, place, self.words), state)

    def drop(self, source: Place, target: Place, *, swap: bool = False) -> Outcome:
        """Drop what was picked up at ``source`` on ``target`` (``swap``: swap the piles).

        The drop policy decides the move; the engine checks it once as it is played.
        """
        def act() -> Event:
            game = self.game
            if swap:
                move: Move | None = swap_candidate(game, source, target)
            else:
                move = drop_candidate(game, source, target)
            if move is None:
                return Event("putback")
            if self.session.final:  # the move's own reason first, then that the game is final
                reason = game.reason(move)
                if reason is not None:
                    raise reason
            return self._play(move)

        return self._do(act)

    def stock(self) -> Outcome:
        """A click on the stock: deal, or redeal once the stock is empty."""
        return self._do(lambda: self._play(stock_move(self.game)))

    def undo(self) -> Outcome:
        def act() -> Event:
            effect = self.game.last_effect()
            self.session.undo()
            return Event("undo", effect)
        return self._do(act)

    def redo(self) -> Outcome:
        def act() -> Event:
            self.session.redo()
            return Event("redo", self.game.last_effect())
        return self._do(act)

    def give_up(self) -> Outcome:
        """Give up this game (refused once it is won or its result stands)."""
        return self._do(lambda: give_up(self.session))

    # ------------------------------------------------------------- games
    def _switch(self, session: PlaySession, event: Event) -> Event:
        self.session = session
        self._solution.clear()
        return event

    def new_game(self, *, number: int | None = None, deck: str | None = None,
                 rules: Rules | str | None = None, winnable: bool = False) -> Outcome:
        """Leave this game for a new one (a random deal by default; with ``winnable``, a
        random deal of the catalog of winnable deals, refused for rules that have none);
        the screen asked the player first when the snapshot's ``summary.leave_asks``."""
        from devilsgrip.table.actions import new_game
        from devilsgrip.table.daily import winnable_number

        def act() -> Event:
            chosen = number
            if winnable and number is None and deck is None:
                chosen = winnable_number(rules if rules is not None else self.game.rules)
            session, event = new_game(self.session, number=chosen, deck=deck, rules=rules)
            return self._switch(session, event)
        return self._do(act)

    def daily(self, day: date, *, rules: Rules | str | None = None) -> Outcome:
        """Leave this game for ``day``'s daily deal (with ``rules``, else this game's),
        played as that day's daily: the first such game to end is the day's result."""
        from devilsgrip.daily import daily_deal
        from devilsgrip.table.actions import new_game

        def act() -> Event:
            from devilsgrip.table.daily import check_daily_day

            check_daily_day(day)
            chosen = Rules.parse(str(rules if rules is not None else self.game.rules))
            session, event = new_game(self.session, number=daily_deal(day, chosen),
                                      rules=chosen, daily=day.isoformat())
            return self._switch(session, event)
        return self._do(act)

    def daily_calendar(self, today: date, *, rules: Rules | str | None = None,
                       ) -> DailyCalendar:
        """The player's daily deals up to ``today``: today's deal, the last days' results,
        the current and the best streak."""
        from devilsgrip.table.daily import daily_calendar

        with self.lock:
            session = self.session
            chosen = rules if rules is not None else session.game.rules
            try:
                return daily_calendar(session.store, session.owner, chosen, today)
            except (DevilsGripError, sqlite3.Error, OSError) as exc:
                raise self.refusal(exc) from exc

    def share(self) -> str:
        """The text to share about this game once it has ended (no card named); refused
        with ``game-live`` while it is being played."""
        from devilsgrip.table.daily import best_possible, share_text

        with self.lock:
            solved = None
            for key, line in self._solution.items():
                if key == (self.session.game_id, id(self.session), self.game.start_position,
                           str(self.game.rules)) and line.proven:
                    solved = line.score
            try:
                return share_text(self.session, self.words,
                                  best_possible(self.session, solved))
            except DevilsGripError as exc:
                raise self.refusal(exc) from exc

    def again(self) -> Outcome:
        """Leave this game for a new game of the same deal (play again, restart)."""
        from devilsgrip.table.actions import play_again

        def act() -> Event:
            session, event = play_again(self.session)
            return self._switch(session, event)
        return self._do(act)

    def resume(self, session: PlaySession) -> Outcome:
        """Show ``session`` (a stored game taken up again)."""
        return self._do(lambda: self._switch(session, Event("resume")))

    def leave(self) -> str:
        """The player leaves the game: what became of it (see :meth:`PlaySession.leave`)."""
        with self.lock:
            return self.session.leave()

    def close(self) -> str:
        """The screen closes: a game without a move or one that is over is left, a game in
        play stays open with its clock stopped (``kept``)."""
        from devilsgrip.table.actions import close

        with self.lock:
            return close(self.session)

    def pause(self) -> None:
        with self.lock:
            self.session.pause()

    def elapsed(self) -> float:
        """The game's play time so far, in seconds (what a screen's clock shows)."""
        with self.lock:
            return self.session.elapsed()

    def resume_clock(self) -> None:
        with self.lock:
            self.session.resume_clock()

    # ------------------------------------------------------------- help
    def hint_job(self) -> HintJob:
        """Start looking for a hint: refused once the game is over or final."""
        with self.lock:
            if self.session.final or self.game.is_over():
                raise Refusal(codes.NO_HINT, self.words.gettext(N_("The game is over: no hint.")))
            return HintJob(self.game.copy(), self.game.key(), self.session)

    def hint_found(self, job: HintJob, hint: Hint | None) -> HintFound:
        """The hint told in words, and noted with the game when the game has not moved."""
        if hint is None:
            return HintFound(None, codes.NO_HINT, say_hint(None, job.game, self.words), ())
        with self.lock:
            if self.session is job.session and self.game.key() == job.key:
                with contextlib.suppress(DevilsGripError, sqlite3.Error, OSError):
                    self.session.record_hint(hint.move)
        return HintFound(hint.move, hint.code, say_hint(hint, job.game, self.words),
                         move_places(hint.move))

    def hint(self, *, time_limit: float = 1.0) -> HintFound:
        """A hint for the game as it stands (an honest one: the stock's order unread)."""
        job = self.hint_job()
        return self.hint_found(job, search_hint(job, time_limit=time_limit))

    def best_line_start(self) -> tuple[object, Game]:
        """Make the game final (it has ended; refused with ``game-live`` while in play) and
        return the key of its best line and the game at its start."""
        with self.lock:
            problem = best_line_refusal(self.session)
            if problem is not None:
                raise self.refusal(problem)
            try:
                self.session.make_final()
            except (DevilsGripError, sqlite3.Error, OSError) as exc:
                raise self.refusal(exc) from exc
            game = self.game
            key = (self.session.game_id, id(self.session), game.start_position,
                   str(game.rules))
            start = game.copy()
            start.restart()
            return key, start

    def best_line(self, *, time_limit: float = 10.0) -> BestLine:
        """The solver's line from this deal's start, once the game has ended (the game is
        then final: undo can no longer reopen it).  Worked out once per game."""
        key, start = self.best_line_start()
        found = self._solution.get(key)
        if found is None:
            found = find_best_line(start, time_limit=time_limit)
            with self.lock:
                self._solution[key] = found
        return found

    def review_start(self) -> None:
        """Make the game final for its review: refused while it is in play (``game-live``:
        a review shows the stock); a game that is over is made final."""
        with self.lock:
            problem = review_refusal(self.session)
            if problem is not None:
                raise self.refusal(problem)
            try:
                self.session.make_final()
            except (DevilsGripError, sqlite3.Error, OSError) as exc:
                raise self.refusal(exc) from exc

    def review_again_start(self, known: Review | None = None) -> None:
        """Ready this game for a review anew, given more time (see :meth:`review_start`):
        refused (``review-proven``) where its review, ``known`` or else the one kept in
        the store, proves every value already: more time cannot change it."""
        self.review_start()
        review = known if known is not None else self.kept_review()
        if review is not None and review.proven_share >= 1.0:
            raise self.refusal(_refuse(codes.REVIEW_PROVEN,
                                       "every value of this review is proven already"))

    def review(self, *, time_limit: float = 10.0,
               progress: Callable[[int, int], None] | None = None,
               sketch: Callable[[list[tuple[int, bool] | None]], None] | None = None,
               memory: int | None = None, again: bool = False) -> Review:
        """The review of this game (see :meth:`review_start`); a review kept in the store
        is read back, a new one kept there.  ``memory``: MiB for its searches' table;
        ``again``: review it anew, the better of the two kept (see
        :func:`~devilsgrip.table.reviews.review_session`)."""
        from devilsgrip.table.reviews import review_session

        self.review_start()
        return review_session(self.session, time_limit=time_limit, progress=progress,
                              sketch=sketch, memory=memory, again=again)

    def kept_review(self) -> Review | None:
        """The review kept in the store for this game (None: it has none yet; a review is
        kept once the game is final); refused with ``game-live`` while the game is in play.
        Nothing changes."""
        from devilsgrip.table.reviews import kept_review

        with self.lock:
            problem = review_refusal(self.session)
            if problem is not None:
                raise self.refusal(problem)
            try:
                return kept_review(self.session)
            except (DevilsGripError, sqlite3.Error, OSError) as exc:
                raise self.refusal(exc) from exc

    def end_text(self) -> str:
        """How the game stands when it has ended or is over (empty while in play)."""
        return say_end(self.session, self.words)
