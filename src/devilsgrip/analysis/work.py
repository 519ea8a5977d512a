"""The work itself: one deal, one player, one result; deals go out in chunks.

Everything here runs in worker processes (or on Dask workers), so it is
plain module-level functions on picklable values.  A deal's result depends
on the deal, the rules, the player, the seed and the limits, never on which
worker ran it or in what order; only a time limit (when it, not the search,
ends the thinking) and ``seconds`` depend on the machine's speed.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from devilsgrip import codes
from devilsgrip.analysis.results import PLAYERS, AnalysisError, DealResult
from devilsgrip.game import Game


@dataclass(frozen=True, slots=True)
class Task:
    """A chunk of deals for one worker, and how to play them."""

    games: tuple[int, ...]
    rules: str
    player: str
    time_limit: float | None = None
    max_nodes: int | None = None
    seed: int = 0


def analyze_deal(
    number: int,
    rules: str,
    player: str,
    *,
    time_limit: float | None = None,
    max_nodes: int | None = None,
    seed: int = 0,
) -> DealResult:
    """Solve (``clairvoyant``) or play (``honest``, ``greedy``) deal ``number``.

    ``time_limit`` (seconds) and ``max_nodes`` bound the clairvoyant solver
    on each deal; for the honest player ``time_limit`` bounds each move.  With a
    node budget and no time limit a result is the same on every machine.

    The clairvoyant solver's line is replayed on the engine, so a result
    whose moves do not reach the score it claims is an error, never a
    published figure.
    """
    if player not in PLAYERS:
        raise AnalysisError(
            codes.PLAYER_UNKNOWN,
            f"unknown player '{player}' (choose from {', '.join(PLAYERS)})",
            player=player, players=", ".join(PLAYERS),
        )
    # imported when the work starts, so the command line stays quick
    from devilsgrip.solver import play_game, solve

    game = Game(number, rules=rules)
    start = time.perf_counter()
    if player == "clairvoyant":
        solved = solve(game, time_limit=time_limit, max_nodes=max_nodes)
        seconds = round(time.perf_counter() - start, 4)
        check = game.copy()
        for move in solved.moves:
            check.play(move)
        if check.score != solved.score:
            raise AnalysisError(
                codes.SOLVER_MISMATCH,
                f"game {number}: the solver claims score {solved.score} "
                f"but its moves reach {check.score}",
                game=number, claimed=solved.score, reached=check.score,
            )
        return DealResult(
            game=number, rules=rules, player=player, score=int(solved.score),
            proven=bool(solved.proven), moves=len(solved.moves), nodes=int(solved.nodes),
            seconds=seconds, time_limit=time_limit, max_nodes=max_nodes, seed=seed,
        )
    if player == "greedy":
        time_limit = None  # greedy does not think: no limit to record
        end = play_game(game, player, seed=seed)
    elif time_limit is None:
        end = play_game(game, player, seed=seed)
    else:
        end = play_game(game, player, seed=seed, time_limit=time_limit)
    seconds = round(time.perf_counter() - start, 4)
    return DealResult(
        game=number, rules=rules, player=player, score=end.score, proven=None,
        moves=end.moves_played, nodes=None, seconds=seconds, time_limit=time_limit, seed=seed,
    )


def run_task(task: Task) -> list[DealResult]:
    """Every deal of a chunk, in order."""
    return [
        analyze_deal(n, task.rules, task.player, time_limit=task.time_limit,
                     max_nodes=task.max_nodes, seed=task.seed)
        for n in task.games
    ]


def chunked(games: Sequence[int], size: int) -> list[tuple[int, ...]]:
    """``games`` cut into consecutive chunks of at most ``size``."""
    size = max(1, size)
    return [tuple(games[i : i + size]) for i in range(0, len(games), size)]


def auto_chunk_size(remaining: int, workers: int) -> int:
    """Small enough to keep every worker busy to the end and the bar moving, at most 16."""
    if remaining <= 0:
        return 1
    return max(1, min(16, remaining // max(1, workers * 8)))
