"""A game's review: where it lost its cards, and whether the player could have seen it.

>>> from devilsgrip.game import Game
>>> game = Game(2)
>>> _ = game.play_all_text("d d d")
>>> review = review_game(game, time_limit=5.0, judge=False)
>>> review.start_best, [m.best for m in review.moves]
(0, [0, 0, 0])

How a review works and why its values hold: [the review of a game][review-method] (docs/solver.md).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from devilsgrip.game import Game, Move, View
from devilsgrip.solver import sample_game, solve
from devilsgrip.solver.clairvoyant import shares_table
from devilsgrip.solver.limits import check_time_limit
from devilsgrip.solver.players import candidate_moves
from devilsgrip.solver.portfolio import Beside
from devilsgrip.solver.search import SharedTable, SolveResult
from devilsgrip.solver.winnable import LOST, WON, no_redeal_left
from devilsgrip.solver.wins import can_win

SEEN_SAMPLES: Final = 8
"""Stock orders the honest player draws to judge a costly move."""
SEEN_Z: Final = 2.0
"""How many standard errors of the paired difference the honest player's preferred
move must beat the played one by for a costly move to count as a mistake."""
SEEN_SHARE: Final = 0.25
"""The share of the review's time kept for the verdicts on the costly moves; what they
leave of it goes back to the rises still open."""
BACKWARD_SHARE: Final = 0.6
"""The share of the search time for the backward scan, from the end of the game."""
BACKWARD_CAP: Final = 1.0
"""The most time, in seconds, the backward scan gives one position before it stops
there (the halving and the proofs of the rises then take over, and a search tried
again goes on from what the shared table kept)."""
HALVING_SHARE: Final = 0.8
"""The share of the search time (the backward scan's included) before which halving
what the scan left into stretches of one value ends; the rest is spent proving the
positions where the value rises."""
WIN_SHARE: Final = 0.5
"""The share of the search time the win search may take, where no redeal is left, to
find the move that lost the win, on a machine with one core (it stops sooner when it
has found it, or when the deal is left open); with two or more it runs beside the
review's searches, for as long as they run, under any rules."""
BESIDE_GRACE: Final = 0.5
"""Seconds before the end of the review's searches the win search beside is to end,
and past it that it is waited for (its halving goes on to the end of its time, and on
a busy machine a process comes late)."""
LEFTOVER_MARGIN: Final = 0.5
"""Seconds before the review's end the searches given what the verdicts left stop: a
search stops only between nodes and then realizes its line, and on a busy machine a
process comes late (without the margin, reviews ended up to half a second late)."""
LEAST_SOLVE: Final = 0.02
"""The least time, in seconds, a single solve of the review is given."""

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` while a review runs."""
Sketch = Callable[[list[tuple[int, bool] | None]], None]
"""Called with the values found so far while a review runs, one per position (the deal,
then after each move): ``(best, proven)``, or None where nothing is known yet.  They
never decrease along the game; the finished review can still lower those not proven."""


@dataclass(frozen=True)
class MoveReview:
    """One move of the review (``n`` counted from 1)."""

    n: int
    move: str
    best: int
    proven: bool
    cost: int
    better: str | None
    seen: str | None

    def to_dict(self) -> dict[str, Any]:
        """The move's review as JSON-ready data."""
        return {"n": self.n, "move": self.move, "best": self.best, "proven": self.proven,
                "cost": self.cost, "better": self.better, "seen": self.seen}


@dataclass
class Review:
    """The review of a whole game ([how a review works][review-method] (docs/solver.md))."""

    rules: str
    final_score: int
    start_best: int
    start_proven: bool
    moves: list[MoveReview] = field(default_factory=list)
    first_lost_win: int | None = None
    first_lost_win_proven: bool = False
    """Whether the position after move ``first_lost_win`` is proven to have no win (by its
    value, or by the win search, where its value may still be only the best line found)."""
    seconds: float = 0.0

    @property
    def costly(self) -> list[MoveReview]:
        return [m for m in self.moves if m.cost > 0]

    @property
    def proven_share(self) -> float:
        values = [self.start_proven, *(m.proven for m in self.moves)]
        return sum(values) / len(values)

    def to_dict(self) -> dict[str, Any]:
        """The review as JSON-ready data (:meth:`from_dict` reads it back)."""
        return {
            "rules": self.rules,
            "final_score": self.final_score,
            "start": {"best": self.start_best, "proven": self.start_proven},
            "moves": [m.to_dict() for m in self.moves],
            "first_lost_win": self.first_lost_win,
            "first_lost_win_proven": self.first_lost_win_proven,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Review:
        """The review that :meth:`to_dict` wrote."""
        lost = data.get("first_lost_win")
        kept = data.get("first_lost_win_proven")
        if kept is None:  # a review kept before the field: its value told
            kept = lost is not None and bool(data["moves"][lost - 1]["proven"])
        return cls(
            rules=str(data["rules"]),
            final_score=int(data["final_score"]),
            start_best=int(data["start"]["best"]),
            start_proven=bool(data["start"]["proven"]),
            moves=[MoveReview(int(m["n"]), str(m["move"]), int(m["best"]), bool(m["proven"]),
                              int(m["cost"]), m.get("better"), m.get("seen"))
                   for m in data["moves"]],
            first_lost_win=lost,
            first_lost_win_proven=bool(kept),
        )


@dataclass
class _Point:
    """What is known of one position of the game: its best and a line reaching it."""

    best: int
    proven: bool
    line: list[Move]


def positions(game: Game) -> list[Game]:
    """The game at its start and after each move played (copies, no history)."""
    start = game.copy()
    start.restart()
    return _walk(start, game.move_stack)


def _walk(start: Game, played: Sequence[Move]) -> list[Game]:
    """``start`` and the position after each of the moves ``played`` from it (copies,
    no history)."""
    out = [Game.from_position(start.position())]
    walker = Game.from_position(start.position())
    for move in played:
        walker.push(move)
        out.append(Game.from_position(walker.position()))
    return out


def review_game(
    game: Game,
    *,
    time_limit: float = 10.0,
    judge: bool = True,
    progress: Progress | None = None,
    sketch: Sketch | None = None,
    seed: int = 0,
    table_entries: int | None = None,
) -> Review:
    """Review ``game`` (its move stack from its start) within ``time_limit`` seconds.

    ``judge``: also tell for each costly move whether the player could have seen
    it (the honest player's verdict, from the view the player had).  ``progress`` hears
    how far the review is, ``sketch`` the values found so far (the first results).
    ``table_entries``: the positions the table its searches share may hold, and so may
    the win search's beside it (the running core's default when None; see
    :func:`~devilsgrip.solver.search.entries_within`).
    """
    check_time_limit(time_limit)
    began = time.monotonic()
    deadline = began + time_limit
    played = game.move_stack
    spots = positions(game)
    n = len(played)
    total = n + 1
    judging = judge and n > 0
    steps = total + 1 if judging else total
    search_until = began + time_limit * (1 - SEEN_SHARE if judging else 1.0)

    # first a scan from the end, then halving what it left, then proving the rises
    # (the scan pays only where the searches share their table: without it each position
    # would prove again what the one after it proved)
    backward_until = began + (search_until - began) * (
        BACKWARD_SHARE if shares_table(game.rules) else 0.0)
    halving_until = began + (search_until - began) * HALVING_SHARE
    points: list[_Point | None] = [None] * total
    # every solve of the review shares one table: what one position's search proved
    # holds in every other position of the game (``run`` mode; see SharedTable)
    table = SharedTable(spots[0], table_entries)
    last = spots[n]
    if last.is_won() or last.is_over():
        points[n] = _Point(last.score, True, [])  # nothing can change the end any more
    solved = 0
    # positions from ``lost_from`` on are proven to have no win: their best is at least 1
    lost_from: int | None = None

    def known_point(i: int, result: SolveResult) -> _Point:
        """What a solve of position ``i`` tells (a line of one card is the best where
        the position was proven lost)."""
        floor = 1 if lost_from is not None and i >= lost_from else 0
        return _Point(result.score, bool(result.proven) or result.score <= floor,
                      list(result.moves))

    def later_line(i: int) -> list[Move] | None:
        """The moves played from position ``i`` to the next position with a known
        line, then that line: it reaches that position's value."""
        j = next((k for k in range(i + 1, total) if points[k] is not None), None)
        if j is None:
            return None
        point = points[j]
        assert point is not None
        return [*played[i:j], *point.line]

    def search(i: int, limit: float, beat: list[Move] | None) -> SolveResult:
        """Solve position ``i``, looking only for lines better than ``beat``."""
        nonlocal solved
        result = solve(spots[i], time_limit=max(LEAST_SOLVE, limit),
                       incumbent=beat, table=table, playouts=False)
        solved += 1
        if progress is not None:
            progress(min(solved, steps - 1), steps)
        return result

    def settle(i: int, share: int) -> None:
        """Solve position ``i`` (unless known), then follow its line along the moves
        played while they agree with it: those positions are known for free."""
        if points[i] is None:
            left = (halving_until - time.monotonic()) / max(1, share)
            result = search(i, left, later_line(i))
            points[i] = known_point(i, result)
            if sketch is not None:
                sketch(_so_far(points))
        follow(i)

    def follow(i: int) -> int:
        """Follow position ``i``'s line along the moves played while they agree with
        it: those positions are known for free.  The last position reached."""
        known = points[i]
        assert known is not None
        j, line = i, known.line
        while j < n and line and line[0] == played[j] and points[j + 1] is None:
            points[j + 1] = _Point(known.best, known.proven, line[1:])
            j, line = j + 1, line[1:]
        return j

    def take(boundary: _Boundary) -> None:
        """What the win search found: a win (its line) and the first position lost."""
        nonlocal lost_from
        if boundary.line is not None:
            points[boundary.won] = _Point(0, True, boundary.line)
            follow(boundary.won)
        lost_from = boundary.lost
        if sketch is not None:
            sketch(_so_far(points))

    # the win search finds the move that lost the win: beside the review on a second
    # core; on one core first, with a share of the time, where no redeal is left (with
    # one left the review's own searches settle most games, and need the time)
    beside: Beside[_Boundary] | None = None
    if not last.is_won():
        lost_end = n if last.is_over() else None
        # (a process beside that fails answers that it found nothing; the review does
        # not wait for it past its searches)
        beside = Beside(_boundary_beside, spots[0], list(played), lost_end,
                        search_until - BESIDE_GRACE, table_entries)
        if not beside.started:  # one core, or no process to be had
            beside = None
            if no_redeal_left(last):
                take(_win_boundary(spots, played, lost_end,
                                   (search_until - began) * WIN_SHARE,
                                   past_open_deal=False, table_entries=table_entries))

    def take_if_done() -> None:
        """What the win search beside found, when it is done."""
        nonlocal beside
        if beside is not None and beside.done():
            take(beside.answer(0.0) or NO_BOUNDARY)
            beside = None

    # the backward scan: the line through the next position is the one to beat, so
    # where a move cost nothing the search needs only prove it (wins cost nothing to
    # carry back), and what it proves is kept in the table for the positions before;
    # the scan ends at the first position its time does not settle, and what is left
    # goes to the halving and the rises
    if points[n] is None:
        settle(n, 4)
    for i in range(n - 1, -1, -1):
        left = backward_until - time.monotonic()
        if left <= 0:
            break
        beat = later_line(i)
        result = search(i, min(left, BACKWARD_CAP), beat)
        # settled: proven, or a better line found (the line to beat comes back unchanged
        # when none is)
        known = known_point(i, result)
        if not (known.proven or beat is None or known.line != beat):
            break
        points[i] = known
        if sketch is not None:
            sketch(_so_far(points))

    take_if_done()

    # the values never decrease along the game: an interval whose two ends are the
    # same proven value is that value all through; the others are halved
    settle(0, 4)
    intervals = [(0, n)]
    while intervals and time.monotonic() < halving_until:
        # where the value changes first (the cards are lost there), earliest first; the
        # intervals of one unproven value after them
        def rank(ab: tuple[int, int]) -> tuple[int, int]:
            ea, eb = points[ab[0]], points[ab[1]]
            assert ea is not None and eb is not None
            return (0 if ea.best != eb.best else 1, ab[0])

        intervals.sort(key=rank)
        a, b = intervals.pop(0)
        ends = points[a], points[b]
        assert ends[0] is not None and ends[1] is not None
        if b - a <= 1:
            continue
        if ends[0].best == ends[1].best and ends[0].proven:
            # each value is at least the one before it (the position before can play
            # the move) and at most the one after it was found to be: all are equal
            if not ends[1].proven:
                points[b] = _Point(ends[1].best, True, ends[1].line)
            for k in range(a + 1, b):
                if points[k] is None:
                    points[k] = _Point(ends[0].best, True, [])
            continue
        mid = next((k for k in range(a + 1, b) if points[k] is None), None)
        if mid is None:  # all known already (lines followed)
            intervals.extend((k, k + 1) for k in range(a, b))
            continue
        mid = (a + b) // 2 if points[(a + b) // 2] is None else mid
        # a halving search needs few solves, each one with time enough to prove
        settle(mid, min(8, 2 + len(intervals)))
        intervals.extend(((a, mid), (mid, b)))
    take_if_done()
    floors = _floors(total, lost_from)
    # what the time did not reach: the next known position, through the moves played
    for i in range(n - 1, -1, -1):
        if points[i] is None:
            later = points[i + 1]
            assert later is not None
            points[i] = _Point(later.best, later.best <= floors[i], [played[i], *later.line])

    settled = [p for p in points if p is not None]

    def merge(boundary: _Boundary | None) -> None:
        """What the win search beside found, into the values settled (and the floors)."""
        nonlocal lost_from
        if boundary is None:
            return
        if boundary.line is not None:
            settled[boundary.won] = _Point(0, True, boundary.line)
        if boundary.lost is not None:
            lost_from = boundary.lost
            floors[:] = _floors(total, lost_from)

    def merge_if_done() -> None:
        """The win search beside's answer, when it is in, while the rises are proved."""
        nonlocal beside
        if beside is not None and beside.done():
            merge(beside.answer(0.0))
            beside = None

    _refine(spots, settled, played, search_until, table, floors, merge_if_done)
    if beside is not None:
        _make_consistent(settled, played, floors)
        if all(point.proven for point in settled):
            beside.close()  # nothing left that it could settle
        else:  # the win search's last word, on what the searches found
            merge(beside.answer(search_until + BESIDE_GRACE - time.monotonic()))
    _make_consistent(settled, played, floors)
    review = _assemble(game, settled, played, lost_from)
    if judging:
        review = _judge(review, spots, played, deadline, seed)
        if not all(point.proven for point in settled) and \
                deadline - LEFTOVER_MARGIN - time.monotonic() >= LEAST_SOLVE:
            # the verdicts took less than their share: the rest of it goes to the rises
            # still open, from what the shared table kept
            _refine(spots, settled, played, deadline - LEFTOVER_MARGIN, table, floors)
            _make_consistent(settled, played, floors)
            review = _kept_verdicts(_assemble(game, settled, played, lost_from), review)
    review.seconds = time.monotonic() - began
    if progress is not None:
        progress(steps, steps)
    return review


def _kept_verdicts(review: Review, judged: Review) -> Review:
    """``review`` with the verdicts of ``judged`` (the same game, judged on values found
    earlier) on the costly moves whose better move is still the same: a verdict weighs
    the played move against that one alone.  A move costly only now has none."""
    review.moves = [
        replace(m, seen=old.seen) if m.cost > 0 and old.cost > 0 and m.better == old.better
        else m
        for m, old in zip(review.moves, judged.moves, strict=True)]
    return review


def _floors(total: int, lost_from: int | None) -> list[int]:
    """The least each of ``total`` positions' best can be: 1 from ``lost_from`` on (no win
    is left there), else 0."""
    return [1 if lost_from is not None and i >= lost_from else 0 for i in range(total)]


@dataclass(frozen=True)
class _Boundary:
    """What the win search found along a game: the latest position ``won`` it proved can
    be won (-1 when none) with a winning ``line`` from there (None when none), and the
    earliest position ``lost`` it proved cannot (None when none)."""

    won: int
    line: list[Move] | None
    lost: int | None


NO_BOUNDARY: Final = _Boundary(-1, None, None)
"""Nothing known of where the win was lost."""


def _win_boundary(spots: Sequence[Game], played: Sequence[Move], lost_end: int | None,
                  budget: float, *, past_open_deal: bool,
                  deal_share: float = 0.5, table_entries: int | None = None) -> _Boundary:
    """Halve, with the win search (:func:`~devilsgrip.solver.wins.can_win`), between the
    latest position known won and the earliest known lost, within ``budget`` seconds
    (``lost_end``: the end of a game over with cards out, known lost).

    Whether a position can be won changes once along a game at most: the position
    before one that can be won can play the move to it.  The deal goes first, with
    ``deal_share`` of the time: most one-pass deals cannot be won at all, and a deal that
    can is the hardest position of its game to win.  ``past_open_deal``: go on halving when the
    deal is left open (a win found later shows the deal could be won too).  The searches
    share one table where the rules let them, of ``table_entries`` positions (the
    running core's default when None).
    """
    until = time.monotonic() + budget
    n = len(played)
    total = n + 1
    table = SharedTable(spots[0], table_entries) if shares_table(spots[0].rules) else None
    won, line = -1, None
    lost = total if lost_end is None else lost_end
    tried: dict[int, float] = {}  # the positions the win search left open: its time
    hardest = 0.0  # the longest a win search that settled its position took
    while lost - won > 1:
        left = until - time.monotonic()
        if left < LEAST_SOLVE:
            break
        todo = [k for k in range(won + 1, lost) if k not in tried]
        if won < 0 and 0 not in tried:
            i, share = 0, left * deal_share
        elif won < 0 and not past_open_deal:
            break
        elif todo:
            # halving: a share of the time for each halving still to come, and at least
            # twice what the hardest position settled so far took
            i = min(todo, key=lambda k: (abs(2 * k - won - lost), k))
            halvings = max(1, math.ceil(math.log2(lost - won)))
            share = min(left, max(left / halvings, 2 * hardest))
        else:
            # all between were left open: the one given least, with all the time left
            i = min(tried, key=lambda k: (tried[k], abs(2 * k - won - lost)))
            if left < 2 * tried[i]:
                break
            share = left
        answer = can_win(spots[i], time_limit=max(LEAST_SOLVE, share), table=table,
                         entries=table_entries)
        if answer.outcome == WON:
            # the line, followed along the moves played while they agree with it
            won, line = i, list(answer.moves)
            while won < n and line and line[0] == played[won]:
                won, line = won + 1, line[1:]
        elif answer.outcome == LOST:
            lost = i
        else:
            tried[i] = share
            continue
        hardest = max(hardest, answer.seconds)
        tried = {k: t for k, t in tried.items() if won < k < lost}
    return _Boundary(won, line, lost if lost < total else None)


def _boundary_beside(start: Game, played: list[Move], lost_end: int | None,
                     until: float, table_entries: int | None = None) -> _Boundary:
    """:func:`_win_boundary` in the process beside the review, from the game's ``start``
    and its moves (handed over in a few kilobytes: the positions themselves are many
    times more, and the review would wait while the process starts to take them in),
    until ``until`` on :func:`time.monotonic`'s clock (the machine's, the same in every
    process: the time the process took to start counts).  Its time is its own: the deal
    gets two thirds of it."""
    spots = _walk(start, played)
    return _win_boundary(spots, played, lost_end, until - time.monotonic(),
                         past_open_deal=True, deal_share=2 / 3, table_entries=table_entries)


def _so_far(points: Sequence[_Point | None]) -> list[tuple[int, bool] | None]:
    """The values known so far, made consistent: a known value above a later one is
    lowered to it (it is reached by playing the moves between)."""
    out: list[tuple[int, bool] | None] = [None] * len(points)
    later: tuple[int, bool] | None = None
    for i in range(len(points) - 1, -1, -1):
        point = points[i]
        if point is None:
            continue
        value = (point.best, point.proven)
        if later is not None and later[0] < value[0]:
            value = (later[0], later[0] == 0)
        out[i] = later = value
    return out


def _refine(spots: Sequence[Game], points: list[_Point], played: Sequence[Move],
            until: float, table: SharedTable | None = None,
            floors: Sequence[int] | None = None,
            between: Callable[[], None] | None = None) -> None:
    """Solve again, with the time left, the unproven positions where the value rises
    (the latest first), each looking only for a line better than the one known there.

    ``floors``: the least each position's best is proven to be; ``between``: called
    before each search, it may settle points and raise floors. See
    [proving where the cards were lost][review-rises] (docs/solver.md).
    """
    floors = floors if floors is not None else [0] * len(points)
    failed: set[int] = set()
    while True:
        if between is not None:
            between()
        _make_consistent(points, played, floors)
        rises = sorted(
            (i for i in range(1, len(points)) if not points[i].proven
             and points[i].best > points[i - 1].best),
            key=lambda i: (i in failed, -i))
        left = until - time.monotonic()
        if not rises or left < LEAST_SOLVE:
            return
        i = rises[0]
        fresh = sum(1 for k in rises if k not in failed)
        share = left / fresh if i not in failed else left
        result = solve(spots[i], time_limit=max(LEAST_SOLVE, share),
                       incumbent=points[i].line, table=table, playouts=False)
        if result.proven or result.score < points[i].best:
            points[i] = _Point(result.score, bool(result.proven) or result.score <= floors[i],
                               list(result.moves))
        if not points[i].proven:
            if i in failed:
                return  # it had the whole time left, and that did not suffice
            failed.add(i)


def _make_consistent(points: list[_Point], played: Sequence[Move],
                     floors: Sequence[int] | None = None) -> None:
    """No value after a move is better than before it; an earlier value too high is
    lowered to a later one (its line: the played moves, then the later line).  A line
    that begins with the move played reaches its value after that move too, so a later
    value above it is lowered to it (a move on the best line costs nothing).  A value is
    at least the one before it, so a line reaching a proven earlier value is proven.
    ``floors``: the least each value is proven to be; a value at its floor is proven."""
    floors = floors if floors is not None else [0] * len(points)
    for i in range(len(points) - 1):
        line = points[i].line
        if line and line[0] == played[i] and points[i + 1].best > points[i].best:
            points[i + 1] = _Point(points[i].best, points[i].proven, line[1:])
    for i in range(len(points) - 2, -1, -1):
        later = points[i + 1]
        if later.best < points[i].best:
            # reachable by playing the next move: an upper bound, proven only at its floor
            points[i] = _Point(later.best, later.best <= floors[i], [played[i], *later.line])
    for i, point in enumerate(points):
        if point.best <= floors[i] and not point.proven:
            # nothing beats its floor: a win, or one card where no win is left
            points[i] = _Point(point.best, True, point.line)
    for i in range(1, len(points)):
        # a value is at least the one before it: a line found that reaches a proven
        # earlier value is the best there too
        if points[i - 1].proven and not points[i].proven and \
                points[i].best == points[i - 1].best:
            points[i] = _Point(points[i].best, True, points[i].line)
    for i in range(1, len(points)):
        if points[i].best < points[i - 1].best:  # cannot happen after the pass above
            raise AssertionError("a review's values decreased")


def _assemble(game: Game, points: list[_Point], played: Sequence[Move],
              lost_from: int | None = None) -> Review:
    review = Review(rules=str(game.rules), final_score=game.score,
                    start_best=points[0].best, start_proven=points[0].proven)
    for i, move in enumerate(played, start=1):
        cost = points[i].best - points[i - 1].best
        better = None
        if cost > 0:
            before = points[i - 1].line
            better = before[0].text() if before else None
        review.moves.append(MoveReview(i, move.text(), points[i].best, points[i].proven,
                                       cost, better, None))
    if not game.is_won() and points[0].best == 0:
        review.first_lost_win = lost = next(
            (m.n for m in review.moves if m.best > 0), None)
        review.first_lost_win_proven = lost is not None and (
            review.moves[lost - 1].proven or (lost_from is not None and lost_from <= lost))
    return review


# ------------------------------------------------------------------- verdicts
def mistake(view: View, played: Move, better: Move, *, samples: int = SEEN_SAMPLES,
            time_limit: float = 0.5, seed: int = 0,
            max_nodes: int | None = None) -> bool | None:
    """Could a player who saw only ``view`` have known that ``played`` was worse?

    The honest player draws stock orders consistent with ``view`` (never the
    true one), solves each after every candidate move (the played and the
    better one among them) and takes the move with the best mean; the played
    move was a mistake when that move beats it, sample by sample, by more than
    :data:`SEEN_Z` standard errors.  Only the view is read.  None when the time
    did not allow two samples of every candidate.  ``max_nodes``: each solve is
    given that many nodes instead of a share of the time, and every sample is
    drawn (the same verdict on any machine).
    """
    until = time.monotonic() + time_limit
    moves = list(candidate_moves(view.grid, view.talon, view.stock_count, view))
    for m in (played, better):
        if m not in moves:
            moves.append(m)
    if view.stock_order is not None or not view.unseen:
        samples = 1
    rng = random.Random(seed * 7_919 + view.moves_played)
    per_solve = time_limit / max(1, samples * len(moves))
    scores: list[list[int]] = [[] for _ in moves]
    for drawn in range(samples):
        if drawn >= 2 and max_nodes is None and time.monotonic() > until:
            break
        world = sample_game(view, rng)
        for k, m in enumerate(moves):
            if world.reason(m) is not None:
                scores[k].append(96)
                continue
            world.push(m)
            result = (solve(world, time_limit=None, max_nodes=max_nodes)
                      if max_nodes is not None
                      else solve(world, time_limit=max(LEAST_SOLVE / 2, per_solve)))
            world.pop()
            scores[k].append(result.score)
    if max_nodes is None and time.monotonic() > until + time_limit:
        return None  # far over the time: the samples are too few to judge by
    p = moves.index(played)
    best = min(range(len(moves)), key=lambda k: (sum(scores[k]), k != p))
    if best == p:
        return False
    diffs = [a - b for a, b in zip(scores[best], scores[p], strict=True)]
    mean = sum(diffs) / len(diffs)
    if len(diffs) == 1:
        return mean < 0
    spread = statistics.stdev(diffs)
    return mean < 0 and (spread == 0 or mean < -SEEN_Z * spread / math.sqrt(len(diffs)))


def _judge(review: Review, spots: Sequence[Game], played: Sequence[Move], deadline: float,
           seed: int) -> Review:
    costly = review.costly
    if not costly:
        return review
    moves = list(review.moves)
    for k, m in enumerate(sorted(costly, key=lambda m: -m.cost)):
        left = deadline - time.monotonic()
        if left <= 0 or m.better is None:
            break
        before = spots[m.n - 1]
        verdict = mistake(before.view(with_legal=False), played[m.n - 1],
                          Move.from_text(m.better), time_limit=left / (len(costly) - k),
                          seed=seed)
        if verdict is None:
            continue
        moves[m.n - 1] = MoveReview(m.n, m.move, m.best, m.proven, m.cost, m.better,
                                    "mistake" if verdict else "hindsight")
    review.moves = moves
    return review
