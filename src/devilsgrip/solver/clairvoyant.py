"""The clairvoyant solver's front door, and its two searches: one per kind of grid."""

from __future__ import annotations

import random
import weakref
from collections.abc import Sequence
from typing import Any

from devilsgrip.game import Game, Move
from devilsgrip.rules import Rules
from devilsgrip.solver import core
from devilsgrip.solver.bounds import Bounds
from devilsgrip.solver.grids import CardGrid, RunGrid, card_grid, run_grid
from devilsgrip.solver.limits import check_time_limit
from devilsgrip.solver.lines import realize
from devilsgrip.solver.moves import (
    Child,
    Cut,
    card_children,
    run_children,
    safe_at,
    safe_child,
)
from devilsgrip.solver.playouts import (
    PLAYOUT_SEED_FACTOR,
    Candidate,
    PlayoutSearch,
    run_candidates,
    run_entered,
)
from devilsgrip.solver.search import Search, SharedTable, SolveResult


def use_compiled(search: Search[Any], name: str, method: Any) -> None:
    """Let ``method`` (the compiled core's, bound to ``search``) stand for the search's
    method ``name``, unless the search's class overrides that method (a subclass then
    keeps its own).

    The search holds it through a weak reference to itself: a bound method kept on its
    own instance would be a reference cycle, and the search (with a table of hundreds of
    megabytes) would then live on until the cyclic garbage collector ran, which the
    table's memory does not prompt.
    """
    for cls in type(search).__mro__:
        if name in vars(cls):
            if cls.__module__ not in _PURE_MODULES:
                return
            break
    function = method.__func__
    owner = weakref.ref(search)

    def call(*args: Any, **kwargs: Any) -> Any:
        return function(owner(), *args, **kwargs)

    setattr(search, name, call)


_PURE_MODULES = frozenset({"devilsgrip.solver.search", "devilsgrip.solver.playouts",
                           "devilsgrip.solver.winnable"})
"""The modules whose methods the compiled core transcribes."""


class RunSearch(PlayoutSearch[RunGrid]):
    """The search with ``run``-mode grids (:data:`~devilsgrip.solver.grids.RunGrid`).

    Where the compiled core runs (:mod:`devilsgrip.solver.core`), its exhaustive
    search, its playouts and its beam are the compiled core's: the same nodes, in the same
    order, on compact state.
    """

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        self.compiled = self._compiled_core()
        if self.compiled is not None:
            use_compiled(self, "_dfs", self._compiled_dfs)
            use_compiled(self, "_probe", self._compiled_probe)
            use_compiled(self, "_beam", self._compiled_beam)

    def _compiled_core(self) -> Any:
        """The compiled core's module when it may run this search, else None."""
        module = core.compiled()
        if module is None or not isinstance(self.tt, module.Table):
            return None
        # a subclass that orders the children in a way of its own runs on the pure core
        if self.COMPILED_ORDER == 0 and type(self)._dfs_children is not RunSearch._dfs_children:
            return None
        return module

    def _compiled_dfs(self, g: RunGrid, p: int, r: int, mask: int = 0) -> int:
        value: int = self.compiled.dfs(self, g, p, r, mask)
        return value

    def _compiled_probe(self, budget: int | None = None) -> None:
        rng = random.Random(len(self.seq) * PLAYOUT_SEED_FACTOR + self.p0 + (budget or 0))
        self.compiled.probe(self, rng, self.grid0, self.p0, self.r0, self.mask0, budget)

    def _compiled_beam(self, width: int) -> None:
        self.compiled.beam(self, self.grid0, self.p0, self.r0, width)

    def grid_of(self, game: Game) -> RunGrid:
        return run_grid(game.grid)

    def make_bounds(self, rules: Rules) -> Bounds[RunGrid]:
        return core.run_bounds(rules)

    def _moves(self, g: RunGrid, p: int, r: int, n: int,
               cuts: list[Cut] | None = None) -> list[Child[RunGrid]]:
        if cuts is None:
            cuts = self._cuts(p, n, r)
        return run_children(g, self.seq, r, n, cuts, self.fill_talon)

    def _children(self, g: RunGrid, seq: list[int], p: int, r: int, n: int,
                  cuts: list[Cut]) -> list[Child[RunGrid]]:
        return run_children(g, seq, r, n, cuts, self.fill_talon)

    def _dfs_children(self, g: RunGrid, p: int, r: int, n: int,
                      cuts: list[Cut]) -> list[Child[RunGrid]]:
        safe = self._safe_cut(g, r, cuts)
        if safe is None:
            return run_children(g, self.seq, r, n, cuts, self.fill_talon)
        # every move at a later cut passes through the position the safe build is
        # made from, so the moves at the earlier cuts and the safe build are all
        # the search needs
        return [safe_child(g, self.seq, safe, r), *run_children(
            g, self.seq, r, n, [(q, rq) for q, rq in cuts if q < safe], self.fill_talon)]

    def _candidates(self, g: RunGrid, p: int, r: int, n: int) -> list[Candidate[RunGrid]]:
        return run_candidates(g, self.seq, n, self._cuts(p, n, r), self.unlimited,
                              self.fill_talon)

    def _entered(self, g: RunGrid, mv: Any, card: int) -> RunGrid:
        return run_entered(g, mv, card)

    def _safe_build(self, g: RunGrid, seq: list[int], seqcount: int, p: int,
                    r: int) -> list[Child[RunGrid]] | None:
        """The talon build of the talon's top card ``c`` when it provably loses nothing
        (no redeal left), as the only child; else None.

        Proof: [the safe talon build][safe-talon-build] (docs/solver.md).
        """
        if self._redeal_left(r) or not safe_at(g, seq, seqcount, p):
            return None
        return [safe_child(g, seq, p, r)]

    def _safe_cut(self, g: RunGrid, r: int, cuts: list[Cut]) -> int | None:
        """The first of ``cuts`` (those :meth:`_cuts` gives; with no redeal left, the
        ones reachable by deals alone: ``p``, ``p + draw``, .., ``n``) at which the
        talon build is safe, with no redeal left; else None.  Every line that
        deals past that cut passes through the position with that card on top of
        the talon, which the build dominates (:meth:`_safe_build`)."""
        if self._redeal_left(r):
            return None
        seq, seqcount = self.seq, self.seqcount
        return next((q for q, _ in cuts if safe_at(g, seq, seqcount, q)), None)


class CardSearch(PlayoutSearch[CardGrid]):
    """The search with ``card``-mode grids (:data:`~devilsgrip.solver.grids.CardGrid`):
    peels are searched too, and a line may come back to a position (``CYCLES``).

    Where the compiled core runs, its exhaustive search and its beam are the compiled
    core's (its playouts, with a redeal left, stay in Python)."""

    CYCLES = True
    SHARES_TABLE = False  # a value stored on a cycle is only good within its search

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        module = core.compiled()
        self.compiled: Any = (module if module is not None and isinstance(self.tt, module.Table)
                              else None)
        if self.compiled is not None:
            use_compiled(self, "_dfs", self._compiled_dfs)
            use_compiled(self, "_beam", self._compiled_beam)

    def _compiled_dfs(self, g: CardGrid, p: int, r: int, mask: int = 0) -> int:
        value: int = self.compiled.dfs(self, g, p, r, mask)
        return value

    def _compiled_beam(self, width: int) -> None:
        self.compiled.beam(self, self.grid0, self.p0, self.r0, width)

    def grid_of(self, game: Game) -> CardGrid:
        return card_grid(game.grid)

    def make_bounds(self, rules: Rules) -> Bounds[CardGrid]:
        return core.card_bounds(rules)

    def _moves(self, g: CardGrid, p: int, r: int, n: int,
               cuts: list[Cut] | None = None) -> list[Child[CardGrid]]:
        if cuts is None:
            cuts = self._cuts(p, n, r)
        return card_children(g, self.seq, p, r, n, cuts, self.fill_talon)

    def _children(self, g: CardGrid, seq: list[int], p: int, r: int, n: int,
                  cuts: list[Cut]) -> list[Child[CardGrid]]:
        return card_children(g, seq, p, r, n, cuts, self.fill_talon)

    def _dfs_children(self, g: CardGrid, p: int, r: int, n: int,
                      cuts: list[Cut]) -> list[Child[CardGrid]]:
        return card_children(g, self.seq, p, r, n, cuts, self.fill_talon)

    def _candidates(self, g: CardGrid, p: int, r: int, n: int) -> list[Candidate[CardGrid]]:
        """The entering moves in the order of :meth:`_moves`."""
        return [(j, mv, g2, p2, r2, i)
                for j, (mv, g2, p2, r2, i) in enumerate(self._moves(g, p, r, n)) if i >= 0]


def search_class(rules: Rules) -> type[RunSearch] | type[CardSearch]:
    """The search for ``rules``: by the kind of grid its moves need."""
    return RunSearch if rules.move_unit == "run" else CardSearch


def new_search(game: Game, **options: Any) -> RunSearch | CardSearch:
    """The search for ``game``'s rules, from its current position (``options``: those
    of :class:`~devilsgrip.solver.search.Search`)."""
    return search_class(game.rules)(game, **options)


def shares_table(rules: Rules) -> bool:
    """Whether the searches of positions under ``rules`` share a
    :class:`~devilsgrip.solver.search.SharedTable` (else each keeps its own)."""
    return search_class(rules).SHARES_TABLE


def solve(
    game: Game,
    *,
    time_limit: float | None = 10.0,
    max_nodes: int | None = None,
    tt_entries: int | None = None,
    incumbent: Sequence[Move] | None = None,
    table: SharedTable | None = None,
    playouts: bool = True,
) -> SolveResult:
    """The best final score from ``game``'s position, knowing the stock; ``game`` is unchanged.

    ``proven`` is True when the search finished (the score is optimal).  The
    line of ``moves`` (deals and redeals included, no swaps) replays legally
    to exactly ``score``.  ``time_limit`` is a positive, finite number of seconds,
    or None for none (then ``max_nodes`` stops the search); else ``LimitError``.
    ``incumbent``: a line known to be legal from this position; only better lines
    are looked for, and it is the answer when none is found.  ``table``: what
    the searches of other positions of the same game proved (:class:`SharedTable`),
    read and added to.  ``playouts=False``: short turns of playouts between the
    exhaustive search's (for a search expected to prove its incumbent); with no
    redeal left the beam keeps its turns.
    """
    check_time_limit(time_limit, none_ok=True)
    ceiling = None
    if incumbent is not None:
        replay = game.copy()
        for move in incumbent:
            replay.push(move)
        ceiling = replay.score
    search = new_search(game, time_limit=time_limit, max_nodes=max_nodes, tt_entries=tt_entries,
                        table=table, playouts=playouts)
    result = search.run(ceiling=ceiling)
    if incumbent is not None and result.score == ceiling and not search.best_path:
        moves = list(incumbent)
    else:
        moves = realize(game, search.best_path)
    return SolveResult(
        score=result.score,
        proven=result.proven,
        moves=tuple(moves),
        nodes=result.nodes,
        seconds=result.seconds,
        rules=result.rules,
        bound=result.bound,
    )
