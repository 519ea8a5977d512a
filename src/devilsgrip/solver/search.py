"""The clairvoyant solver: the best final score of a position, knowing the stock.

A depth-first branch and bound over macro moves (move the cut, then make one card
enter), with a bounded transposition table, taking turns with playouts or a beam
search. How it models the game and why that is sound:
[how the search sees the game][search-model] (docs/solver.md).
"""


from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Generic, Protocol, cast, overload

from devilsgrip.game import Game, Move
from devilsgrip.rules import Rules
from devilsgrip.solver import core
from devilsgrip.solver.bounds import Bounds
from devilsgrip.solver.grids import TOP_FIELD
from devilsgrip.solver.limits import PhaseEnd, TimeUp
from devilsgrip.solver.moves import Child, Cut, G, MacroMove, reachable_cuts

DEFAULT_TT_ENTRIES: Final = 2_000_000
"""The pure-Python core's transposition table at most: a dict, about 200 bytes an entry,
well under 2 GiB (:func:`shed` when full)."""
COMPILED_TT_ENTRIES: Final = 3_000_000
"""The compiled core's table at most (:func:`shed` when full): 48 bytes a slot, at most
three quarters full, so 192 MiB when full (it grows as it fills).  A proof that no line
wins near the move that lost a win can need ten million entries and more; a table that
large held a review's searches to a gigabyte each and proved one review more in 19
(docs/changelog.md, 6 December 2026), so the default stays small."""
FIRST_BUDGET: Final = 20_000
"""Nodes of the first exhaustive turn; each turn after doubles it."""
ROLLOUTS: Final = 3000
"""Greedy playouts a turn at most (:mod:`devilsgrip.solver.playouts`)."""
BEAM_FIRST_WIDTH: Final = 4
"""The beam's first width (with no redeal left): a quick first line."""
BEAM_NODES_PER_STATE: Final = 200
"""After each exhaustive turn of ``N`` nodes the beam runs about ``N / 200`` states
wide (doubling at least): about as long as that turn, as a beam state costs
several nodes' work."""
PROOF_PLAYOUT_SHARE: Final = 4
"""With ``playouts=False`` a playout turn gets this fraction of the exhaustive turn's
nodes before it (1/4): enough to find most wins the exhaustive search would reach
late, little next to the proof."""
CLOCK_EVERY: Final = 1024
"""The exhaustive search reads the clock once in this many nodes (a power of 2)."""

TableKey = tuple[Any, ...]
"""A transposition-table key: the grid, the cards entered (a bit per card of the
root's ``seq``), the cut, and with limited redeals the redeals done."""
Applied = tuple[int, int, int]
"""What a move took out of ``seq``: the index, the card and its index at the root
(all -1 for a peel, which takes nothing)."""
NOTHING_TAKEN: Final[Applied] = (-1, -1, -1)


class Table(Protocol):
    """A transposition table: a dict, or the compiled core's table of ``run``-mode keys."""

    def get(self, key: TableKey, /) -> int | None: ...

    def __setitem__(self, key: TableKey, value: int, /) -> None: ...

    def __len__(self) -> int: ...

    def clear(self) -> None: ...


def table_entries(entries: int | None = None) -> int:
    """``entries``, or the running core's default table size (:data:`COMPILED_TT_ENTRIES`
    or :data:`DEFAULT_TT_ENTRIES`) when None."""
    if entries is not None:
        return entries
    return COMPILED_TT_ENTRIES if core.compiled() is not None else DEFAULT_TT_ENTRIES


COMPILED_SLOT_BYTES: Final = 48
"""A slot of the compiled core's table: the tops, the bottoms (with the cut and the
value) and the cards taken, 128 bits each."""
PURE_ENTRY_BYTES: Final = 200
"""About what an entry of the pure-Python core's dict costs (its key, a tuple of two
large ints and a small one, and its slot in the dict)."""


@overload
def entries_within(megabytes: int) -> int: ...


@overload
def entries_within(megabytes: int | None) -> int | None: ...


def entries_within(megabytes: int | None) -> int | None:
    """The most positions the running core's table may hold in ``megabytes`` (MiB), None
    (the core's default table) for None:
    the compiled table doubles its slots (a power of two, 1024 at least) so as never to be
    more than three quarters full, so it holds three quarters of the largest number of
    slots that fit (while it doubles, the slots it leaves stay until the new ones are
    filled: half as much again, for a moment); the pure core's dict, about
    :data:`PURE_ENTRY_BYTES` an entry.  At least 1024 either way.

    >>> entries_within(192) if core.compiled() is not None else 3 * 2 ** 20
    3145728
    """
    if megabytes is None:
        return None
    size = megabytes * 2 ** 20
    if core.compiled() is None:
        return max(1024, size // PURE_ENTRY_BYTES)
    slots = 1024
    while 2 * slots * COMPILED_SLOT_BYTES <= size:
        slots *= 2
    return 3 * slots // 4


def shed(table: Table | set[TableKey]) -> None:
    """What a full table keeps: the positions nearest the root, those with the fewest
    cards taken out of the root's sequence (the bits of a key's mask), whose searches
    were the longest; as many as half its entries allow, every position of a depth kept
    or none.  The others are forgotten (a table may forget, never mislead).  The
    compiled core's table does the same itself; a set (the win search's positions
    proven lost) is kept the same way."""
    if not isinstance(table, dict | set):
        cast(Any, table).shed()
        return
    depths = Counter(key[1].bit_count() for key in table)
    kept, most = 0, -1
    for depth in sorted(depths):
        if kept + depths[depth] > len(table) // 2:
            break
        kept += depths[depth]
        most = depth
    # the keys to forget, listed (a list costs far less than a copy of what is kept)
    dropped = [key for key in table if key[1].bit_count() > most]
    if isinstance(table, set):
        table.difference_update(dropped)
        return
    for key in dropped:
        del table[key]


def new_table(rules: Rules) -> Table:
    """An empty transposition table for searches under ``rules``: the compiled core's
    where it runs, else a dict."""
    module = core.compiled()
    if module is not None:
        table: Table = module.Table()
        return table
    return {}


class SharedTable:
    """A transposition table shared by the searches of the positions of one game.

    The table holds proven lower bounds on the best final score, keyed by the
    grid, the cut and the cards outside the grid.  The cards outside form one
    sequence that only ever loses cards (deals and redeals move the cut), so
    every later position's sequence is a subsequence of the first one's, and a
    card can be named by its index there: the same key then means the same
    position in every search that shares the table.  Where a search's
    sequence does not fit (a position of another game), the search keeps a
    table of its own.  Only searches whose stored values are true lower bounds
    share one (``run`` mode: no line comes back to a position).
    """

    def __init__(self, game: Game, entries: int | None = None) -> None:
        self.seq: tuple[int, ...] = (*game.talon, *reversed(game.stock))
        self.rules = game.rules
        self.entries: Table = new_table(self.rules)
        self.max_entries = table_entries(entries)

    def identify(self, seq: Sequence[int]) -> tuple[list[int], int] | None:
        """The index in this table's sequence of each card of ``seq`` and the mask of
        the cards of the table's sequence missing from it; None when ``seq`` is
        not a subsequence of it.

        Any way of finding ``seq`` in the table's sequence names the same cards
        in the same order, so any one keeps keys sound; this takes the earliest.
        """
        ids: list[int] = []
        j = 0
        full = self.seq
        for card in seq:
            while j < len(full) and full[j] != card:
                j += 1
            if j == len(full):
                return None
            ids.append(j)
            j += 1
        mask = (1 << len(full)) - 1
        for i in ids:
            mask &= ~(1 << i)
        return ids, mask


@dataclass(frozen=True)
class SolveResult:
    """The solver's answer: the best score found and a line of moves reaching it."""

    score: int
    proven: bool
    moves: tuple[Move, ...]
    nodes: int
    seconds: float
    rules: str = ""
    bound: int = 0
    """A proven lower bound on the best score: ``bound <= score``, equal when ``proven``."""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    """What the portfolio adds: the win search's verdict and its loss certificate."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "proven": self.proven,
            "bound": self.bound,
            "moves": [m.text() for m in self.moves],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
            "rules": self.rules,
        }


class Search(Generic[G]):
    """One clairvoyant search from a game's current position (the game is not changed).

    The parts that depend on how a grid is held are left to the subclasses
    (:class:`~devilsgrip.solver.clairvoyant.RunSearch`,
    :class:`~devilsgrip.solver.clairvoyant.CardSearch`), and the turns of
    playouts or beam to :class:`~devilsgrip.solver.playouts.PlayoutSearch`.
    """

    CYCLES: ClassVar[bool] = False
    """Whether a line can come back to a position with no card entered (peels can)."""
    COMPILED_ORDER: ClassVar[int] = 0
    """The order of the children the compiled core follows (:mod:`devilsgrip.solver.core`):
    0 for :meth:`_dfs_children`'s, 1 for the spaces each leaves to be made, the most
    first (:class:`~devilsgrip.solver.wins.WinHunt`)."""
    SHARES_TABLE: ClassVar[bool] = True
    """Whether every value the search stores is a true lower bound, so that other
    searches may use them (:class:`SharedTable`)."""

    def __init__(
        self,
        game: Game,
        *,
        time_limit: float | None = 10.0,
        max_nodes: int | None = None,
        tt_entries: int | None = None,
        rollouts: int = ROLLOUTS,
        table: SharedTable | None = None,
        playouts: bool = True,
    ) -> None:
        rules = game.rules
        self.rules: Rules = rules
        self.k = rules.draw
        self.redeals_max = rules.redeals
        self.unlimited = rules.redeals is None
        self.fill_talon = rules.fill_from_talon
        self.seq: list[int] = [*game.talon, *reversed(game.stock)]
        self.orig: list[int] = list(range(len(self.seq)))
        self.seqcount = sum(TOP_FIELD[c] for c in self.seq)
        """The multiset of ``seq`` in 2-bit counters (bits ``2c``), kept up to date."""
        self.p0 = len(game.talon)
        self.r0 = game.redeals_done
        self.grid0: G = self.grid_of(game)
        self.bounds: Bounds[G] = self.make_bounds(rules)
        self.time_limit = time_limit
        self.max_nodes = max_nodes
        self.tt: Table = new_table(rules)
        self.tt_entries = table_entries(tt_entries)
        self.mask0 = 0
        """The cards missing from ``seq`` at the root, a bit per card's index in ``orig``'s
        numbering (none but with a shared table)."""
        found = (table.identify(self.seq)
                 if table is not None and self.SHARES_TABLE and table.rules == rules else None)
        if table is not None and found is not None:
            self.orig, self.mask0 = found
            self.tt = table.entries
            self.tt_entries = table.max_entries
        self.nodes = 0
        self.best = len(self.seq) + 1
        self.best_path: list[MacroMove] = []
        self.path: list[MacroMove] = []
        self.onpath: set[TableKey] = set()
        self.deadline = 0.0
        self.floor = 0
        self._applied: list[Applied] = []
        self.rollouts = rollouts
        self.playouts = playouts
        """False: short playout turns (:data:`PROOF_PLAYOUT_SHARE`), for a search that
        expects to prove its incumbent."""
        self.node_cap: int | None = None
        self.first_budget = FIRST_BUDGET

    # ---------------------------------------------------- what subclasses give
    def grid_of(self, game: Game) -> G:
        """The search's grid of ``game``'s grid."""
        raise NotImplementedError

    def make_bounds(self, rules: Rules) -> Bounds[G]:
        raise NotImplementedError

    def _moves(self, g: G, p: int, r: int, n: int,
               cuts: list[Cut] | None = None) -> list[Child[G]]:
        """The children of a position, at ``cuts`` (all reachable ones by default)."""
        raise NotImplementedError

    def _dfs_children(self, g: G, p: int, r: int, n: int, cuts: list[Cut]) -> list[Child[G]]:
        """The children the exhaustive search tries (:meth:`_moves` unless some are
        dominated)."""
        return self._moves(g, p, r, n, cuts)

    def _probe(self, budget: int | None = None) -> None:
        """A turn of playouts that may improve the incumbent line."""
        raise NotImplementedError

    def _beam(self, width: int) -> None:
        """A beam search through the pass that may improve the incumbent line."""
        raise NotImplementedError

    # ------------------------------------------------------------ positions
    def _cuts(self, p: int, n: int, r: int) -> list[Cut]:
        """Cuts reachable by deals/redeals alone, with the redeals done there."""
        return reachable_cuts(p, n, r, self.k, self.redeals_max)

    def _redeal_left(self, r: int) -> bool:
        return self.unlimited or r < (self.redeals_max or 0)

    def lower_bound(self, g: G, p: int | None = None, r: int | None = None) -> int:
        """:meth:`Bounds.lower_bound` of ``g`` with this search's ``seq``, at cut ``p``
        with ``r`` redeals done (the root's when omitted)."""
        return self.bounds.lower_bound(g, self.seq, self.seqcount,
                                       self.p0 if p is None else p,
                                       self.r0 if r is None else r, self.best)

    # --------------------------------------------------------------- search
    def run(self, floor: int = 0, ceiling: int | None = None) -> SolveResult:
        """Search; ``floor`` is a lower bound on the best score proven elsewhere,
        ``ceiling`` a score a line known elsewhere reaches: only better lines are
        looked for, and when none is found the result's score is ``ceiling`` (proven
        when the search finished) and ``best_path`` is empty."""
        start = time.perf_counter()
        self.deadline = start + self.time_limit if self.time_limit is not None else float("inf")
        n = len(self.seq)
        self.best = n if ceiling is None else min(n, ceiling)
        self.best_path = []
        self.floor = max(floor, self.lower_bound(self.grid0, self.p0, self.r0))
        proven = True
        beam = bool(self.rollouts) and not self._redeal_left(self.r0)
        try:
            budget = self.first_budget
            width = BEAM_FIRST_WIDTH
            if beam:
                if self.max_nodes is not None:
                    # a small node budget (the honest player's samples): the first
                    # beam must still reach the end of the pass
                    stock_left = len(self.seq) - self.p0
                    width = max(1, min(width, self.max_nodes // (4 * max(1, stock_left))))
                self._beam(width)
            while self.best > self.floor:
                # exhaustive search and playouts take turns with doubling node budgets:
                # the search proves most deals at once, the playouts find the wins it
                # misses; the transposition table keeps what each search proved
                self.node_cap = self.nodes + budget if self.rollouts else None
                try:
                    self._dfs(self.grid0, self.p0, self.r0, self.mask0)
                    break
                except PhaseEnd:
                    self._unwind()
                    self.onpath.clear()
                finally:
                    self.node_cap = None
                if beam:
                    width = max(2 * width, budget // BEAM_NODES_PER_STATE)
                    self._beam(width)
                else:
                    self._probe(budget if self.playouts else budget // PROOF_PLAYOUT_SHARE)
                budget *= 2
        except TimeUp:
            proven = False
            self._unwind()
        seconds = time.perf_counter() - start
        return SolveResult(
            score=self.best, proven=proven, moves=(), nodes=self.nodes, seconds=seconds,
            rules=str(self.rules), bound=self.best if proven else min(self.floor, self.best),
        )

    def _unwind(self) -> None:
        """Put back every card the line being searched took out of ``seq``."""
        while self.path:
            self._undo_seq(self._applied.pop())
            self.path.pop()

    def _check_time(self) -> None:
        if time.perf_counter() > self.deadline or (
            self.max_nodes is not None and self.nodes > self.max_nodes
        ):
            raise TimeUp

    def _undo_seq(self, info: Applied) -> None:
        i, card, orig = info
        if i >= 0:
            self.seq.insert(i, card)
            self.seqcount += TOP_FIELD[card]
            self.orig.insert(i, orig)

    def _key(self, g: G, p: int, r: int, mask: int, n: int | None = None) -> TableKey:
        """The table's key of a position with ``n`` cards out (``len(seq)`` by default)."""
        if self.unlimited:
            if p % self.k == 0 or p == (len(self.seq) if n is None else n):
                p = 0
            return (g, mask, p)
        return (g, mask, p, r)

    def _dfs(self, g: G, p: int, r: int, mask: int = 0) -> int:
        self.nodes += 1
        if (self.nodes & (CLOCK_EVERY - 1) == 0 and time.perf_counter() > self.deadline) or (
            self.max_nodes is not None and self.nodes > self.max_nodes
        ):
            raise TimeUp  # the clock is read now and then, the node budget kept exactly
        if self.node_cap is not None and self.nodes > self.node_cap:
            raise PhaseEnd
        seq = self.seq
        n = len(seq)
        if n < self.best:
            self.best = n
            self.best_path = list(self.path)
        if n <= self.floor:
            return n
        key = self._key(g, p, r, mask)
        tt = self.tt
        known = tt.get(key)
        if known is not None and known >= self.best:
            return known
        cycles = self.CYCLES
        if cycles and key in self.onpath:
            return self.best
        lb = self.bounds.lower_bound(g, seq, self.seqcount, p, r, self.best)
        if lb >= self.best:
            self._store(key, lb)
            return lb
        value = n
        moves = self._dfs_children(g, p, r, n, self._cuts(p, n, r))
        if cycles:
            self.onpath.add(key)
        applied = self._applied
        orig = self.orig
        max_nodes = self.max_nodes
        for mv, g2, p2, r2, i in moves:
            # most children are settled by the table: look there first, as the child's
            # own call would, when that call would do nothing else (no clock or budget
            # to read, no better line to note), and count the node all the same
            n2 = n - 1 if i >= 0 else n
            nodes = self.nodes + 1
            if n2 >= self.best and nodes & (CLOCK_EVERY - 1) and (
                max_nodes is None or nodes <= max_nodes) and (
                    self.node_cap is None or nodes <= self.node_cap):
                known = tt.get(self._key(g2, p2, r2, mask | (1 << orig[i]) if i >= 0 else mask,
                                         n2))
                if known is not None and known >= self.best:
                    self.nodes = nodes
                    if known < value:
                        value = known
                    continue
            if i >= 0:
                card = seq.pop(i)
                self.seqcount -= TOP_FIELD[card]
                o = orig.pop(i)
                applied.append((i, card, o))
                mask2 = mask | (1 << o)
            else:
                applied.append(NOTHING_TAKEN)
                mask2 = mask
            self.path.append(mv)
            v = self._dfs(g2, p2, r2, mask2)
            self.path.pop()
            self._undo_seq(applied.pop())
            if v < value:
                value = v
            if self.best <= self.floor:
                break
        if cycles:
            self.onpath.discard(key)
        self._store(key, value)
        return value

    def _store(self, key: TableKey, value: int) -> None:
        tt = self.tt
        if len(tt) >= self.tt_entries:
            shed(tt)
        old = tt.get(key)
        if old is None or value > old:
            tt[key] = value
