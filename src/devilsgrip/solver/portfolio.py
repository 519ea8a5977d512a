"""The front door of the clairvoyant solver: the optimizing search beside the win search.

With no redeal left, :func:`solve` first asks whether the position can be won
(:mod:`devilsgrip.solver.winnable`) with half of the time (or node) limit,
then gives what is left to the optimizing search (:mod:`devilsgrip.solver.core`).
A win found ends it at once; a proof that there is none raises the optimizing
search's floor to 1, so that a line leaving one card is then proven optimal.
Either way the result's ``bound`` is the best lower bound proven: a deal is
*resolved* when a win is found or ``bound >= 1``.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Final

from devilsgrip.game import Game
from devilsgrip.solver.core import DEFAULT_TT_ENTRIES, Search, SolveResult, realize
from devilsgrip.solver.limits import check_time_limit
from devilsgrip.solver.winnable import LOST, WON, WinResult, no_redeal_left, prove_winnable

WIN_SHARE: Final = 0.5
"""The share of the limits the win search may use first."""


def solve(
    game: Game,
    *,
    time_limit: float | None = 10.0,
    max_nodes: int | None = None,
    tt_entries: int = DEFAULT_TT_ENTRIES,
) -> SolveResult:
    """The best final score from ``game``'s position, knowing the stock; ``game`` is unchanged.

    ``proven`` is True when the score is optimal, and then ``bound == score``;
    else ``bound`` is a proven lower bound, below ``score``.  The line of
    ``moves`` (deals and redeals included, no swaps) replays legally to exactly
    ``score``.  ``time_limit`` is a positive, finite number of seconds, or None
    for none (then ``max_nodes`` stops the search); else ``LimitError``.
    ``extra["win"]`` is the win search's verdict (``won``, ``lost``, ``unknown``)
    when it ran, and ``extra["certificate"]`` its loss certificate when it has one.
    """
    check_time_limit(time_limit, none_ok=True)
    start = time.perf_counter()
    win: WinResult | None = None
    if no_redeal_left(game) and game.score:
        win = prove_winnable(
            game,
            time_limit=None if time_limit is None else time_limit * WIN_SHARE,
            max_nodes=None if max_nodes is None else max(1, int(max_nodes * WIN_SHARE)),
        )
        if win.outcome == WON:
            return SolveResult(
                score=0, proven=True, moves=win.moves, nodes=win.nodes,
                seconds=time.perf_counter() - start, rules=str(game.rules), bound=0,
                extra={"win": WON},
            )
    spent = time.perf_counter() - start
    left_time = None if time_limit is None else max(1e-3, time_limit - spent)
    left_nodes = None if max_nodes is None else max(1, max_nodes - (win.nodes if win else 0))
    search = Search(game, time_limit=left_time, max_nodes=left_nodes, tt_entries=tt_entries)
    floor = 1 if win is not None and win.outcome == LOST else 0
    result = search.run(floor=floor)
    moves = realize(game, search.best_path)
    extra: dict[str, object] = {}
    if win is not None:
        extra["win"] = win.outcome
        if win.certificate is not None:
            extra["certificate"] = win.certificate.to_dict()
    return replace(
        result, moves=tuple(moves), nodes=result.nodes + (win.nodes if win else 0),
        seconds=time.perf_counter() - start, bound=max(result.bound, floor), extra=extra,
    )
