"""Can this position be won?  One question for any rules.

>>> from devilsgrip.game import Game
>>> can_win(Game(2), time_limit=5.0).outcome
'won'

See [can a position be won][can-win] (docs/solver.md).
"""

from __future__ import annotations

import time

from devilsgrip.game import Game
from devilsgrip.solver.clairvoyant import RunSearch, search_class
from devilsgrip.solver.grids import RunGrid
from devilsgrip.solver.limits import check_time_limit
from devilsgrip.solver.lines import realize
from devilsgrip.solver.moves import Child, Cut, run_emptiable
from devilsgrip.solver.search import SharedTable
from devilsgrip.solver.winnable import (
    LOST,
    UNKNOWN,
    WON,
    WinResult,
    no_redeal_left,
    prove_winnable,
)


def spaces_to_make(g: RunGrid) -> int:
    """How many different non-base bottoms of ``g`` lie under a pile that can be moved
    whole onto a top now: the spaces that grid builds could make at once."""
    return run_emptiable(g).bit_count()


class WinHunt(RunSearch):
    """The ``run``-mode search with its children tried in the order of the spaces they
    leave to be made, the most first (the usual order among equals)."""

    COMPILED_ORDER = 1

    def _dfs_children(self, g: RunGrid, p: int, r: int, n: int,
                      cuts: list[Cut]) -> list[Child[RunGrid]]:
        children = super()._dfs_children(g, p, r, n, cuts)
        children.sort(key=lambda child: -spaces_to_make(child[1]))
        return children


def can_win(game: Game, *, time_limit: float | None = 10.0, max_nodes: int | None = None,
            table: SharedTable | None = None, entries: int | None = None) -> WinResult:
    """Whether ``game``'s position can be won, knowing the stock; ``game`` is unchanged.

    ``won`` (its ``moves`` replay to score 0), ``lost`` (proven) or ``unknown`` (the
    limits stopped the search).  ``table``: what searches of other positions of the
    same game proved, read and added to (where no redeal is left it is not used).
    ``entries``: the positions the search's own table may hold, where it has one (the
    running core's default when None; with no redeal left, the positions proven lost).
    """
    check_time_limit(time_limit, none_ok=True)
    if no_redeal_left(game):
        return prove_winnable(game, time_limit=time_limit, max_nodes=max_nodes,
                              dead_entries=entries)
    start = time.perf_counter()
    if not game.score:
        return WinResult(WON, (), None, 0, 0.0)
    search = (WinHunt if game.rules.move_unit == "run" else search_class(game.rules))(
        game, time_limit=time_limit, max_nodes=max_nodes, table=table, tt_entries=entries)
    result = search.run(ceiling=1)
    seconds = time.perf_counter() - start
    if result.score == 0:
        return WinResult(WON, tuple(realize(game, search.best_path)), None, result.nodes,
                         seconds)
    return WinResult(LOST if result.proven else UNKNOWN, (), None, result.nodes, seconds)
