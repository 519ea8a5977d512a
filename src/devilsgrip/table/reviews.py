"""A review as every screen tells it: the story, the costly moves, the progress of a
running review."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from devilsgrip.errors import DevilsGripError, IllegalMoveError
from devilsgrip.game import Game, Move, MoveEffect, MoveKind
from devilsgrip.machine import machine_megabytes
from devilsgrip.session import PlaySession

if TYPE_CHECKING:
    from devilsgrip.review import Review
from devilsgrip import codes
from devilsgrip.table.places import Place, move_arrow
from devilsgrip.table.words import Words, _move_words, sentence

LONGER_REVIEW: Final = 6.0
"""How many times the usual time a review made anew gets, where the player asks to look
longer at a review that left values open (every screen offers it)."""
LONG_SEARCH: Final = 30.0
"""The seconds from which a search or a review (a longer look among them) gets the larger
table, :func:`long_search_memory`: the default table fills long before then."""
LONG_SEARCH_MEMORY: Final = 1536
"""The MiB the table of a long search may take, and so may its win search's beside it:
the long proofs settle far sooner with room for their positions (a minute's review of
the greedy games of deals 33, 35 and 37 proves 80%, 76% and 74% of their values with the
default table, all of them with this one; proving deal 29 lost after move 74 takes 37.1 s
with the default table, 10.9 s with this one)."""


LONG_SEARCHES_AT_ONCE: Final = 2
"""How many searches of one program may hold the larger table at once (a review holds two
tables, its own and its win search's, each half as large again while it doubles: two
such reviews take at most half the machine's memory); the next one gets the core's
default table, so that players looking longer together never run the server out of
memory."""
_LONG_ROOMS = threading.BoundedSemaphore(LONG_SEARCHES_AT_ONCE)


def long_search_memory() -> int | None:
    """The MiB for the table of a long search (:data:`LONG_SEARCH_MEMORY`), at most a
    twelfth of the machine's memory (see :data:`LONG_SEARCHES_AT_ONCE`); None, the core's
    default table, where that is no more, where the machine's memory cannot be read, or
    with the pure-Python core (in a browser the page's memory is all there is).  A table's
    slots double, so a little less memory can mean half the table: 1536 MiB holds 25
    million positions, 1506 MiB 12.6 million."""
    from devilsgrip.solver import core
    from devilsgrip.solver.search import COMPILED_TT_ENTRIES, entries_within

    machine = machine_megabytes()
    if machine is None or core.compiled() is None:
        return None
    mib = min(LONG_SEARCH_MEMORY, machine // 12)
    return mib if entries_within(mib) > COMPILED_TT_ENTRIES else None


@contextlib.contextmanager
def search_room(time_limit: float, memory: int | None = None) -> Iterator[int | None]:
    """The MiB for the table of a search or a review of ``time_limit`` seconds, held while
    the ``with`` block runs: ``memory`` where one was asked for; else, from
    :data:`LONG_SEARCH` seconds on, :func:`long_search_memory` while fewer than
    :data:`LONG_SEARCHES_AT_ONCE` searches of this program hold it; else None (the core's
    default)."""
    if memory is not None or time_limit < LONG_SEARCH:
        yield memory
        return
    mib = long_search_memory()
    if mib is None or not _LONG_ROOMS.acquire(blocking=False):
        yield None
        return
    try:
        yield mib
    finally:
        _LONG_ROOMS.release()


def _move_phrase(effect: MoveEffect, words: Words) -> str:
    """A move as a phrase inside a sentence ("dealing 2♠, 8♥, 2♥", "10♣ from b2 onto 7♣
    in h3"), without what filled a space."""
    if effect.move.kind == MoveKind.DEAL:
        return words.gettext("dealing {cards}").format(
            cards=", ".join(words.card(c) for c in effect.cards))
    if effect.move.kind == MoveKind.REDEAL:
        return words.gettext("turning the talon over")
    return _move_words(effect, words, with_fill=False).rstrip(".")


def review_moves_in_words(review: Review, game: Game, words: Words) -> dict[int, tuple[str, str]]:
    """For each costly move of ``review`` (by its number): the played move and the
    better one, in words (the game has ended: the stock may be told)."""
    from devilsgrip.review import positions

    spots = positions(game)
    told: dict[int, tuple[str, str]] = {}
    for m in review.costly:
        before = spots[m.n - 1]
        played = _move_phrase(before.preview(Move.from_text(m.move)), words)
        better = ""
        if m.better is not None:
            better = _move_phrase(before.preview(Move.from_text(m.better)), words)
        told[m.n] = (played, better)
    return told


def say_review(review: Review, game: Game, words: Words) -> str:
    """The story of a review in a few sentences: where the win (or the cards) went."""
    w = words
    told = review_moves_in_words(review, game, w)
    final = review.final_score
    parts: list[str] = []
    if game.is_won():
        parts.append(w.gettext("Won: no move cost a card."))
    elif review.first_lost_win is not None:
        n = review.first_lost_win
        played, better = told.get(n, ("", ""))
        after = review.moves[n - 1]
        if review.first_lost_win_proven:
            opening = w.gettext("Winnable until move {n}.")
            lost = (w.gettext("{played} left the win behind: {better} kept it") if better
                    else w.gettext("{played} left the win behind"))
            ending = (w.gettext("After that the best possible was {best}; the game ended at "
                                "{final}.") if after.proven
                      else w.gettext("After that the best line found left {best}; the game "
                                     "ended at {final}."))
        else:
            # no win was found after the move, and none was proven impossible: say so
            opening = w.gettext("Winnable at least until move {n}.")
            lost = (w.gettext("After {played} the review found no win but could not prove "
                              "there was none; {better} keeps one") if better
                    else w.gettext("After {played} the review found no win but could not "
                                   "prove there was none"))
            ending = w.gettext("After that the best line found left {best}; the game ended "
                               "at {final}.")
        if n == 1:  # "winnable until move 1": the deal could be won, and its first move lost it
            opening = w.gettext("Winnable from the deal.")
        parts += [opening.format(n=n), sentence(lost.format(played=played, better=better)),
                  ending.format(best=after.best, final=final)]
    else:
        if review.start_best == 0:
            parts.append(w.gettext("Winnable from the deal."))
        else:
            parts.append(w.gettext("From the deal, the best possible was {best}.").format(
                best=review.start_best))
        costly = review.costly
        if costly:
            worst = max(costly, key=lambda m: (m.cost, -m.n))
            played, better = told[worst.n]
            parts.append(sentence(w.ngettext(
                "Move {n} cost the most, {cost} card: {played}",
                "Move {n} cost the most, {cost} cards: {played}", worst.cost).format(
                    n=worst.n, cost=worst.cost, played=played)))
            if better:
                parts.append(sentence(w.gettext("{better} kept them").format(better=better)))
        parts.append(w.gettext("The game ended at {final}.").format(final=final))
    if game.given_up:
        parts += _given_up_words(review, w)
    return " ".join(parts)


def say_open_values(review: Review, words: Words) -> str | None:
    """How much of a review is proven, where some of its values are only the best lines
    found (None where every value is proven): said after the story (the page says it under
    its chart, where a legend tells what ~ marks)."""
    if review.proven_share >= 1.0:
        return None
    return words.gettext("{share} of the values are proven; those marked ~ are the best "
                         "lines found in the time allowed.").format(
                             share=words.percent(review.proven_share))


def _given_up_words(review: Review, words: Words) -> list[str]:
    """What was still possible when the player gave the game up, if better than its end
    (a line found is a line that can be played: "possible" holds proven or not)."""
    last = review.moves[-1].best if review.moves else review.start_best
    if last >= review.final_score:
        return []
    n = len(review.moves)
    if n == 0:  # the story's first words told what the deal allowed
        return [words.gettext("It was given up before its first move.")]
    if last == 0:
        return [words.ngettext("It was given up after {n} move, when it could still be won.",
                               "It was given up after {n} moves, when it could still be won.",
                               n).format(n=n)]
    return [words.ngettext("It was given up after {n} move, when {best} was still possible.",
                           "It was given up after {n} moves, when {best} was still possible.",
                           n).format(n=n, best=last)]


def review_session(
    session: PlaySession, *, time_limit: float = 10.0,
    progress: Callable[[int, int], None] | None = None,
    sketch: Callable[[list[tuple[int, bool] | None]], None] | None = None,
    memory: int | None = None,
    again: bool = False,
) -> Review:
    """The review of the session's game, for any screen: kept in the store once made.

    Only a game that has ended is reviewed (``game-live`` otherwise: a review
    shows the stock); reviewing a game that is over makes it final, as showing
    its best line does.  ``progress`` and ``sketch`` are as for ``review_game``;
    ``memory``: the MiB its searches' table may take, and so may the win search's beside
    it (None: :func:`search_room`'s, by the time).
    ``again``: review it anew (given more time, to prove the values the kept review left
    open) rather than read the kept review; whichever of the two proves more values is
    kept and returned.
    """
    from devilsgrip.review import review_game
    from devilsgrip.solver.search import entries_within

    game = session.game
    if not (session.final or game.is_over()):
        raise IllegalMoveError(codes.GAME_LIVE, "this game is still being played")
    session.make_final()
    store, game_id = session.store, session.game_id
    kept = None
    with contextlib.suppress(DevilsGripError):
        kept = kept_review(session)
    if kept is not None and not again:
        return kept
    with search_room(time_limit, memory) as room:
        review = review_game(game, time_limit=time_limit, progress=progress, sketch=sketch,
                             table_entries=entries_within(room))
    if kept is not None and kept.proven_share > review.proven_share:
        return kept  # the time it was given ran short this time (a busy machine)
    if store is not None and game_id is not None:
        with contextlib.suppress(DevilsGripError):
            store.save_review(game_id, review.to_dict())
    return review


def kept_review(session: PlaySession) -> Review | None:
    """The review kept in the store for the session's game, once it is final (None: not
    final, not saved, or not reviewed yet)."""
    from devilsgrip.review import Review

    store, game_id = session.store, session.game_id
    if not session.final or store is None or game_id is None:
        return None
    kept = store.review(game_id)
    return None if kept is None else Review.from_dict(kept)


def review_record(game: Game, *, time_limit: float = 10.0,
                  progress: Callable[[int, int], None] | None = None,
                  memory: int | None = None) -> Review:
    """The review of a game that is not stored (read from its record): refused while it is
    in play (``game-live``: a review shows the stock).  ``memory``: as for
    :func:`review_session`."""
    from devilsgrip.review import review_game
    from devilsgrip.solver.search import entries_within

    if not (game.is_over() or game.given_up or game.is_won()):
        raise IllegalMoveError(codes.GAME_LIVE, "this game is still being played")
    with search_room(time_limit, memory) as room:
        return review_game(game, time_limit=time_limit, progress=progress,
                           table_entries=entries_within(room))


REVIEW_SHARE_BEFORE_END: Final = 0.98
"""The most a running review's progress shows: full only once it has ended."""


def review_share(done: int, total: int, elapsed: float, limit: float) -> float:
    """How far a running review is, as every screen shows it: the share of its positions
    solved or of the most time it may take, whichever is further (a hard game keeps
    its searches long, and the time limit ends it all the same)."""
    share = max(done / total if total > 0 else 0.0, elapsed / limit if limit > 0 else 0.0)
    return min(REVIEW_SHARE_BEFORE_END, max(0.0, share))


def say_review_progress(elapsed: float, limit: float, words: Words) -> str:
    """A running review in words: the seconds it has taken of the most it may take."""
    return words.gettext("Reviewing the game… {elapsed} s of at most {limit} s").format(
        elapsed=int(elapsed + 0.5), limit=int(limit + 0.5))


def position_text(game: Game, words: Words) -> str:
    """A position as a few lines of text: the grid's top cards with pile sizes, columns
    a..h and rows 1..3, then the talon's top and the stock (for read-only viewers)."""
    lines = ["    " + "".join(f"{c:<7}" for c in "abcdefgh").rstrip()]
    for row in range(3):
        cells = []
        for cell in range(row * 8, row * 8 + 8):
            pile = game.grid[cell]
            text = f"{words.card(pile[-1])}{'×' + str(len(pile)) if len(pile) > 1 else ''}" \
                if pile else "·"
            cells.append(f"{text:<7}")
        lines.append(f" {row + 1}  " + "".join(cells).rstrip())
    talon = words.card(game.talon[-1]) if game.talon else "·"
    lines.append(words.gettext("talon: {card} ({n})   stock: {m}").format(
        card=talon, n=len(game.talon), m=len(game.stock)))
    return "\n".join(lines)


def review_rows(review: Review, game: Game, words: Words) -> list[tuple[str, str]]:
    """For each costly move: a line for a list, and the position before it with the
    move played and the better one, in words."""
    from devilsgrip.review import positions

    w = words
    spots = positions(game)
    rows: list[tuple[str, str]] = []
    for m in costly_moves(review, game, w):
        shown = [position_text(spots[m.n - 1], w), "", m.played_text]
        if m.better_text:
            shown.append(m.better_text)
        if m.seen_words:
            shown.append(m.seen_words)
        rows.append((m.line, "\n".join(shown)))
    return rows


@dataclass(frozen=True)
class CostlyMove:
    """A move that cost cards, as a screen lists it and shows it on the table."""

    n: int
    move: str
    better: str | None
    cost: int
    best: int
    proven: bool
    seen: str | None
    line: str
    """The list's line: "Move 23: 9♠ from c1 onto 6♠ in a2 (+3, best after ~7)"."""
    played_words: str
    """The move played, as a phrase ("9♠ from c1 onto 6♠ in a2")."""
    better_words: str
    """The better move as a phrase ("" when none is known)."""
    played_text: str
    """"Played: 9♠ from c1 onto 6♠ in a2."."""
    better_text: str
    """"Better: dealing 3♦, 8♣, 5♠." ("" when none is known)."""
    seen_words: str
    """Whether a player could have seen it, as a sentence ("" when not judged)."""
    played_arrow: tuple[Place, Place]
    better_arrow: tuple[Place, Place] | None


def costly_moves(review: Review, game: Game, words: Words) -> list[CostlyMove]:
    """The moves of ``review`` that cost cards, in order, told in ``words``."""
    w = words
    told = review_moves_in_words(review, game, w)
    out: list[CostlyMove] = []
    for m in review.costly:
        played, better = told[m.n]
        mark = "" if m.proven else "~"
        seen = ""
        if m.seen == "mistake":
            seen = w.gettext("A player could have seen it from what was shown.")
        elif m.seen == "hindsight":
            seen = w.gettext("Only the order of the stock showed it.")
        out.append(CostlyMove(
            n=m.n, move=m.move, better=m.better, cost=m.cost, best=m.best, proven=m.proven,
            seen=m.seen,
            line=w.gettext("Move {n}: {played} (+{cost}, best after {mark}{best})").format(
                n=m.n, played=played, cost=m.cost, mark=mark, best=m.best),
            played_words=played, better_words=better,
            played_text=sentence(w.gettext("played: {move}").format(move=played)),
            better_text=sentence(w.gettext("better: {better}").format(better=better))
            if better else "",
            seen_words=seen,
            played_arrow=move_arrow(Move.from_text(m.move)),
            better_arrow=None if m.better is None else move_arrow(Move.from_text(m.better)),
        ))
    return out
