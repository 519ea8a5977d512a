"""An analysis run: which deals are left, send them out, keep every result.

The results file is the run's memory: deals already in it (same rules and
player) are skipped, so rerunning an interrupted command resumes it, and the
finished file is the same as an uninterrupted run's (apart from timings).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from devilsgrip import codes
from devilsgrip.analysis.backends import Backend, make_backend
from devilsgrip.analysis.results import PLAYERS, AnalysisError, DealResult, open_results
from devilsgrip.analysis.work import Task, auto_chunk_size, chunked
from devilsgrip.cards import MAX_GAME_NUMBER, parse_number
from devilsgrip.rules import Rules

_RANGE_RE: Final = re.compile(r"\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?")


MAX_DEALS: Final = 10_000_000
"""The most deals one run may ask for."""


def parse_games(text: str) -> list[int]:
    """Game numbers from text such as ``1-10000`` or ``1-5,9,20-22`` (sorted, no repeats).

    >>> parse_games("3,1-2,2")
    [1, 2, 3]
    """
    numbers: set[int] = set()
    for part in text.split(","):
        m = _RANGE_RE.fullmatch(part)
        if m is None:
            raise AnalysisError(
                codes.GAMES_BAD, f"bad game range '{part.strip()}': write e.g. 1-10000 or 1-5,9",
                games=part.strip(),
            )
        low = parse_number(m.group(1), MAX_GAME_NUMBER)
        high = parse_number(m.group(2), MAX_GAME_NUMBER) if m.group(2) else low
        if low is None or high is None or low < 1 or high > MAX_GAME_NUMBER or high < low:
            raise AnalysisError(
                codes.GAMES_BAD, f"bad game range '{part.strip()}': write e.g. 1-10000 or 1-5,9",
                games=part.strip(),
            )
        if high - low >= MAX_DEALS:
            raise AnalysisError(
                codes.GAMES_TOO_MANY,
                f"'{part.strip()}' names more than 10 million deals: analyse them in parts",
                games=part.strip(),
            )
        numbers.update(range(low, high + 1))
        if len(numbers) > MAX_DEALS:
            raise AnalysisError(
                codes.GAMES_TOO_MANY,
                f"'{text.strip()}' names more than 10 million deals: analyse them in parts",
                games=text.strip(),
            )
    return sorted(numbers)


def format_games(games: Iterable[int]) -> str:
    """The shortest range text for ``games`` (the inverse of :func:`parse_games`).

    >>> format_games([1, 2, 3, 7, 9, 10])
    '1-3,7,9-10'
    """
    parts: list[str] = []
    run: list[int] = []
    for g in sorted(set(games)):
        if run and g == run[-1] + 1:
            run.append(g)
            continue
        if run:
            parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
        run = [g]
    if run:
        parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
    return ",".join(parts)


@dataclass(frozen=True, slots=True)
class RunReport:
    """How a run went: deals asked for, already in the file, done now, and whether it stopped."""

    total: int
    skipped: int
    done: int
    interrupted: bool

    @property
    def remaining(self) -> int:
        return self.total - self.skipped - self.done


def run_analysis(
    out: str | os.PathLike[str],
    games: Iterable[int],
    *,
    rules: str = "classic",
    player: str = "clairvoyant",
    time_limit: float | None = None,
    max_nodes: int | None = None,
    seed: int = 0,
    jobs: int | None = None,
    backend: str | Backend = "local",
    scheduler: str | None = None,
    chunk_size: int | None = None,
    retry_unproven: bool = False,
    on_start: Callable[[int, int], None] | None = None,
    on_results: Callable[[list[DealResult]], None] | None = None,
) -> RunReport:
    """Analyse ``games`` into the results file ``out``; deals already there are skipped.

    With ``retry_unproven`` the deals whose clairvoyant result is not proven
    are done again (say with a longer time limit or a better solver) and
    their rows replaced.  ``on_start(total, already_done)`` is called once the work is known,
    ``on_results(batch)`` after every batch is safely written.  Ctrl-C (or a
    ``KeyboardInterrupt`` from a callback) stops the run cleanly: the report
    says ``interrupted`` and everything written so far stays.
    """
    if player not in PLAYERS:
        raise AnalysisError(
            codes.PLAYER_UNKNOWN, f"unknown player '{player}' (choose from {', '.join(PLAYERS)})",
            player=player, players=", ".join(PLAYERS),
        )
    rules_text = str(Rules.parse(rules))
    wanted = sorted(set(games))
    store = open_results(out, write=True)
    try:
        done_before = store.done(rules_text, player, proven_only=retry_unproven)
        todo = [g for g in wanted if g not in done_before]
        skipped = len(wanted) - len(todo)
        if on_start is not None:
            on_start(len(wanted), skipped)
        if not todo:
            return RunReport(len(wanted), skipped, 0, False)
        engine = (
            make_backend(backend, jobs=jobs, scheduler=scheduler)
            if isinstance(backend, str) else backend
        )
        done = 0
        interrupted = False
        try:
            size = chunk_size or auto_chunk_size(len(todo), engine.workers)
            tasks = [
                Task(games=chunk, rules=rules_text, player=player, time_limit=time_limit,
                     max_nodes=max_nodes, seed=seed)
                for chunk in chunked(todo, size)
            ]
            stream = engine.run(tasks)
            try:
                for batch in stream:
                    store.add(batch)
                    done += len(batch)
                    if on_results is not None:
                        on_results(batch)
            finally:
                stream.close()  # stops the workers at once if we leave early
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if isinstance(backend, str):
                engine.close()
        return RunReport(len(wanted), skipped, done, interrupted)
    finally:
        store.close()
