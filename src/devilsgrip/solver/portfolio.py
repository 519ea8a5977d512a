"""The clairvoyant solver's portfolio: the optimizing search beside the win search.

A win found replaces the line; a proof that there is none raises the bound to 1.
See [the portfolio][portfolio] (docs/solver.md).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, Final, Generic, TypeVar

from devilsgrip.game import Game
from devilsgrip.solver import clairvoyant as core
from devilsgrip.solver.limits import check_time_limit
from devilsgrip.solver.search import SolveResult
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
    tt_entries: int | None = None,
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
        win = prove_winnable(game, time_limit=time_limit, max_nodes=max_nodes,
                             dead_entries=tt_entries)
        return _combine(game, result, win, start)
    if not (asks and beside_possible()):
        return core.solve(game, time_limit=time_limit, max_nodes=max_nodes,
                          tt_entries=tt_entries)
    beside = Beside(_win_search, game.copy(), time_limit, tt_entries)
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


def _win_search(game: Game, time_limit: float | None,
                entries: int | None = None) -> WinResult:
    return prove_winnable(game, time_limit=time_limit, dead_entries=entries)


T = TypeVar("T")


class Beside(Generic[T]):
    """``target(*args)`` run in a process of its own, beside the caller's work.

    The process is a fresh interpreter that runs :mod:`devilsgrip.solver._beside`: it takes
    ``target`` (found by its module) and ``args`` from a file and leaves its answer in
    another, with no standard stream of the program's (the terminal game's screen holds
    them) and without importing the program that asked (a script needs no
    ``if __name__ == "__main__"`` guard).  Its answer is None when it failed, took longer
    than it was waited for, or could not start (one core, no process to be had); the
    caller then has nothing from it and goes on without.
    """

    def __init__(self, target: Callable[..., T], *args: Any) -> None:
        self._worker: subprocess.Popen[bytes] | None = None
        self._files: tempfile.TemporaryDirectory[str] | None = None
        self._answer = Path()
        if not beside_possible():
            return
        try:
            self._files = tempfile.TemporaryDirectory(prefix="devilsgrip-beside-")
            order = Path(self._files.name) / "order"
            self._answer = Path(self._files.name) / "answer"
            order.write_bytes(pickle.dumps((target, args), protocol=pickle.HIGHEST_PROTOCOL))
            self._worker = subprocess.Popen(
                [sys.executable, "-m", "devilsgrip.solver._beside", str(order),
                 str(self._answer)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, env=_beside_environment())
        except (OSError, ValueError, pickle.PicklingError, AttributeError, TypeError):
            self.close()  # no process or no file to be had, or a target that cannot go

    @property
    def started(self) -> bool:
        return self._worker is not None

    def done(self) -> bool:
        """Whether its answer is in (or it ended without one)."""
        return self._worker is None or self._worker.poll() is not None

    def answer(self, wait: float | None) -> T | None:
        """Its answer, waited for at most ``wait`` seconds (None: as long as it runs);
        the process is ended then."""
        found: T | None = None
        if self._worker is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._worker.wait(None if wait is None else max(0.0, wait))
            if self._worker.poll() is not None:
                with contextlib.suppress(OSError, EOFError, pickle.UnpicklingError,
                                         AttributeError, ImportError):
                    found = pickle.loads(self._answer.read_bytes())
        self.close()
        return found

    def close(self) -> None:
        """End the process (its answer is no longer needed) and remove its files."""
        worker, files = self._worker, self._files
        self._worker = self._files = None
        if worker is not None:
            if worker.poll() is None:
                worker.terminate()
            worker.wait()
        if files is not None:
            files.cleanup()

    def __del__(self) -> None:
        self.close()


def _beside_environment() -> dict[str, str]:
    """The program's environment, with the directory this package was imported from
    first on the process's import path (a checkout that is not installed works too)."""
    env = dict(os.environ)
    home = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [home, env.get("PYTHONPATH")]))
    return env


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
