"""The clairvoyant solver's portfolio: the optimizing search beside the win search.

A win found replaces the line; a proof that there is none raises the bound to 1.
See [the portfolio][portfolio] (docs/solver.md).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.process
import os
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final, Generic, TypeVar

from devilsgrip.game import Game
from devilsgrip.solver import clairvoyant as core
from devilsgrip.solver.limits import check_time_limit
from devilsgrip.solver.search import DEFAULT_TT_ENTRIES, SolveResult
from devilsgrip.solver.winnable import (
    LOST,
    UNKNOWN,
    WON,
    WinResult,
    no_redeal_left,
    prove_winnable,
)

JOIN_GRACE: Final = 5.0
"""Seconds past the time limit the win search's process is waited for (its start-up)."""


def beside_possible() -> bool:
    """Whether a search can run beside another on a core of its own (never in a browser:
    Pyodide has no processes)."""
    return sys.platform != "emscripten" and (os.cpu_count() or 1) >= 2


def solve(
    game: Game,
    *,
    time_limit: float | None = 10.0,
    max_nodes: int | None = None,
    tt_entries: int = DEFAULT_TT_ENTRIES,
) -> SolveResult:
    """The best final score from ``game``'s position with its proven bound; ``game`` is unchanged.

    As :func:`devilsgrip.solver.clairvoyant.solve`, with the win search beside it:
    ``proven`` is True when the score is optimal, and then ``bound == score``;
    else ``bound`` is a proven lower bound, below ``score``.
    ``extra["win"]`` is the win search's verdict (``won``, ``lost``, ``unknown``)
    when it ran, and ``extra["certificate"]`` its loss certificate when it has one.
    """
    check_time_limit(time_limit, none_ok=True)
    start = time.perf_counter()
    asks = no_redeal_left(game) and game.score > 0
    if asks and max_nodes is not None:
        result = core.solve(game, time_limit=time_limit, max_nodes=max_nodes,
                            tt_entries=tt_entries)
        if result.proven or result.bound >= 1:
            return result
        win = prove_winnable(game, time_limit=time_limit, max_nodes=max_nodes)
        return _combine(game, result, win, start)
    if not (asks and beside_possible()):
        return core.solve(game, time_limit=time_limit, max_nodes=max_nodes,
                          tt_entries=tt_entries)
    beside = Beside(_win_search, game.copy(), time_limit)
    try:
        result = core.solve(game, time_limit=time_limit, tt_entries=tt_entries)
        if result.proven:
            return result
        answer = beside.answer(None if time_limit is None
                               else start + time_limit + JOIN_GRACE - time.perf_counter())
    finally:
        beside.close()
    if answer is None:  # a win search that could not run, or not in time, adds nothing
        return replace(result, seconds=time.perf_counter() - start, extra={"win": UNKNOWN})
    return _combine(game, result, answer, start)


def _win_search(game: Game, time_limit: float | None) -> WinResult:
    return prove_winnable(game, time_limit=time_limit)


T = TypeVar("T")


class Beside(Generic[T]):
    """``target(*args)`` run in a process of its own, beside the caller's work.

    Its answer is None when it failed, took longer than it was waited for, or could
    not start (one core, or a program whose standard streams are not files: the
    terminal game, when :func:`prepare_beside` was not called before its screen
    took them); the caller then has nothing from it and goes on without.
    """

    def __init__(self, target: Callable[..., T], *args: Any) -> None:
        self._worker: multiprocessing.process.BaseProcess | None = None
        self._answers: multiprocessing.SimpleQueue[T | None] | None = None
        if not beside_possible():
            return
        context = multiprocessing.get_context("spawn")  # no fork of a program's threads
        try:
            self._answers = context.SimpleQueue()
            self._worker = context.Process(target=_answer, args=(target, args, self._answers),
                                           daemon=True)
            self._worker.start()
        except (OSError, ValueError):  # no process to be had
            self.close()

    @property
    def started(self) -> bool:
        return self._worker is not None

    def done(self) -> bool:
        """Whether its answer is in (or it ended without one)."""
        return self._worker is None or self._answers is None or \
            not self._answers.empty() or not self._worker.is_alive()

    def answer(self, wait: float | None) -> T | None:
        """Its answer, waited for at most ``wait`` seconds (None: as long as it runs);
        the process is ended then."""
        found: T | None = None
        if self._worker is not None and self._answers is not None:
            until = None if wait is None else time.perf_counter() + wait
            while self._answers.empty() and self._worker.is_alive():
                if until is not None and time.perf_counter() > until:
                    break
                self._worker.join(0.02)
            found = self._answers.get() if not self._answers.empty() else None
        self.close()
        return found

    def close(self) -> None:
        """End the process (its answer is no longer needed)."""
        worker, answers = self._worker, self._answers
        self._worker = self._answers = None
        if worker is not None:
            if worker.is_alive():
                worker.terminate()
            worker.join()
        if answers is not None:
            answers.close()


def _answer(target: Callable[..., T], args: tuple[Any, ...],
            answers: multiprocessing.SimpleQueue[T | None]) -> None:
    """The process beside: its answer, or None when it failed (nothing is printed: the
    terminal game's screen shares the terminal)."""
    try:
        found: T | None = target(*args)
    except Exception:
        found = None
    answers.put(found)


def prepare_beside() -> None:
    """Start what a process beside needs from the program's standard streams (the
    resource tracker of :mod:`multiprocessing`) while they are still the program's
    own: a screen library that replaces them leaves none to hand on."""
    if not beside_possible():
        return
    with contextlib.suppress(Exception):
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()


def _combine(game: Game, result: SolveResult, win: WinResult, start: float) -> SolveResult:
    extra: dict[str, object] = {"win": win.outcome}
    if win.certificate is not None:
        extra["certificate"] = win.certificate.to_dict()
    nodes = result.nodes + win.nodes
    seconds = time.perf_counter() - start
    if win.outcome == WON:
        return SolveResult(score=0, proven=True, moves=win.moves, nodes=nodes,
                           seconds=seconds, rules=str(game.rules), bound=0, extra=extra)
    bound = max(result.bound, 1 if win.outcome == LOST else 0)
    return replace(result, proven=result.proven or bound >= result.score, bound=bound,
                   nodes=nodes, seconds=seconds, extra=extra)
