"""The clairvoyant solver: the best final score of a position, knowing the stock.

How the search sees the game
----------------------------
Only moves through which a card *enters* the grid change the score: a talon
build, and a grid build that empties its source and so fills the space.
Deals, redeals and swaps never do; neither do grid builds that leave their
source non-empty, and those never change the multiset of pile tops either
(they uncover the other copy of the card they cover).

* The cards outside the grid form one fixed sequence ``seq`` (the talon from
  its bottom, then the stock from its top) cut at ``p = len(talon)``.  Deals
  and redeals only move the cut: from ``p`` to ``min(p + draw, n)``, and from
  ``n`` back to ``0``.  An entering move deletes one card of ``seq``.  So the
  search plays *macro moves*: "move the cut to ``q`` (dealing, redealing if
  needed), then make a card enter".
* ``run`` mode: what matters about the grid is the multiset of tops ``T`` and
  the multiset of bottoms ``B``.  A talon build of ``c`` needs ``c - 3`` in
  ``T``; an emptying build needs a bottom ``b`` with ``b - 3`` in ``T`` (move
  that whole pile onto it, always legal), after which ``T`` loses ``b - 3``,
  ``B`` loses ``b`` and the filling card becomes both a top and a bottom.
  The grid is one int: ``T`` in 2-bit counters (bits ``2c``), ``B`` above
  bit 96.  Non-emptying builds are never needed.
* ``card`` mode: pile structure matters, and a pile of one suit sequence is
  fixed by its bottom and top, so the grid is the sorted tuple of
  ``bottom * 48 + top``; non-emptying builds ("peels") are searched too.

Soundness of what is dropped: swaps never matter; an emptying build that fills
nothing only removes a top and a bottom, and in ``run`` mode the value of a
state is monotone in ``T`` and ``B`` (more tops and bottoms allow every move
fewer allow, and keep the inclusion after it), so it is dominated.  With
unlimited redeals a cut at a multiple of ``draw`` (or at ``n``) reaches
exactly the cuts ``0, draw, 2 draw, .., n``, so those cuts share one key.
With no redeal left, in ``run`` mode, a talon build whose covered top can
serve no other card is the only child tried (:meth:`Search._safe_build`), and
no move is tried at a cut past the first one where such a build would be
made (:meth:`Search._safe_cut`).

The search is a depth-first branch and bound on the final score with a
bounded transposition table holding proven lower bounds.  It takes turns
with greedy playouts (:meth:`Search._probe`), with node budgets doubling
each turn: the exhaustive search proves most deals within its first budget,
and the playouts find the wins it would reach late.  The playouts only
improve the incumbent line (and read the table and the bound to avoid
children that cannot beat it), so a proof rests on the exhaustive search
alone; the table keeps what each turn proved for the next.  With no redeal
left (a whole ``single-pass`` or ``literal`` game, the last pass of any
other) a beam search through the pass (:meth:`Search._beam`) takes the
playouts' place, its width doubling each turn: there it finds lines scoring
about half as many cards in the same time.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, Final

from devilsgrip.cards import CARD_CODES, GRID_SIZE, LEVEL_OF, N_CARDS, PREV
from devilsgrip.game import Game
from devilsgrip.notation import DEAL, GRID_BUILDS, REDEAL, TALON_BUILDS, Move
from devilsgrip.solver.limits import check_time_limit

_B_SHIFT: Final = 96
_M01: Final = int("01" * 48, 2)
_NONBASE: Final = sum(1 << (2 * c) for c in range(N_CARDS) if LEVEL_OF[c] >= 1)
_NONBASE_BOTH: Final = _NONBASE * 3
_FIELD: Final[tuple[int, ...]] = tuple(1 << (2 * c) for c in range(N_CARDS))
_BFIELD: Final[tuple[int, ...]] = tuple(1 << (_B_SHIFT + 2 * c) for c in range(N_CARDS))
_BIT_CARD: Final[dict[int, int]] = {1 << (2 * c): c for c in range(N_CARDS)}
_T_MASK: Final = (1 << _B_SHIFT) - 1
_NONBASE_CARDS: Final = tuple(c for c in range(N_CARDS) if LEVEL_OF[c])
_TB_NONBASE: Final = _T_MASK | (_NONBASE_BOTH << _B_SHIFT)
"""A run-mode grid's tops and its non-base bottoms."""
_BYTE_COUNTERS: Final[tuple[tuple[int, int, int, int], ...]] = tuple(
    (b & 3, (b >> 2) & 3, (b >> 4) & 3, b >> 6) for b in range(256))

_REJECTED: Final = 1 << 30
BEAM_FIRST_WIDTH: Final = 4
""":meth:`Search._beam`'s first width (with no redeal left): a quick first line."""
BEAM_NODES_PER_STATE: Final = 200
"""After each exhaustive turn of ``N`` nodes the beam runs about ``N / 200`` states
wide (doubling at least): about as long as that turn, as a beam state costs
several nodes' work."""
_COUNTS_CACHE: Final = 100_000
"""Grids whose per-value counts :meth:`Search._grid_counts` keeps."""
_TALON_BOUND_STOCK: Final = 12
""":meth:`Search._talon_bound` is tried only with at most this many stock cards left:
with more, the stock's values let nearly every talon card off and it costs more than
it prunes (any subset of sound bounds is sound)."""

DEFAULT_TT_ENTRIES: Final = 2_000_000
"""Transposition-table bound: about 200 bytes an entry, well under 2 GiB."""

# macro move kinds
TALON: Final = 0
EMPTY: Final = 1
PEEL: Final = 2

MacroMove = tuple[int, int, int, int]
"""``(q, kind, a, b)``: move the cut to ``q``, then ``kind``.

``TALON``: ``a`` the target pile (card mode, else -1).  ``EMPTY``: ``a`` the
source pile's bottom (run mode) or pile (card mode), ``b`` the target pile
(card mode, else -1).  ``PEEL``: ``a`` source pile, ``b`` target pile.  A pile
is ``bottom * 48 + top``.
"""


class _TimeUp(Exception):
    pass


class _PhaseEnd(Exception):
    pass


@dataclass(frozen=True)
class SolveResult:
    """The solver's answer: the best score found and a line of moves reaching it."""

    score: int
    proven: bool
    moves: tuple[Move, ...]
    nodes: int
    seconds: float
    rules: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    bound: int = 0
    """A proven lower bound on the best score: ``bound <= score``, equal when ``proven``."""

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


def _nonzero(x: int) -> int:
    """The low bit of every non-zero 2-bit counter of ``x``."""
    return (x | (x >> 1)) & _M01


def _count(x: int) -> int:
    """The sum of the 2-bit counters of ``x``."""
    return (x & _M01).bit_count() + 2 * ((x >> 1) & _M01).bit_count()


def _count_terms(tops: list[int], bots: list[int], cnt: list[int]) -> list[int]:
    """The terms of ``D`` in :meth:`Search._count_bound`, one per value, for the
    entering cards ``cnt`` (counts per value)."""
    return [
        min(bots[w], tops[w - 3] + cnt[w - 3] - cnt[w]) if LEVEL_OF[w] else -cnt[w]
        for w in range(N_CARDS)
    ]


def _term_change(x: int, tops: list[int], bots: list[int], cnt: list[int],
                 contrib: list[int]) -> int:
    """How much the terms of ``x`` and ``x + 3`` (``contrib``) change once ``cnt``
    has changed at ``x``."""
    delta = 0
    w = x
    while True:
        if LEVEL_OF[w]:
            delta += min(bots[w], tops[w - 3] + cnt[w - 3] - cnt[w]) - contrib[w]
        else:
            delta += -cnt[w] - contrib[w]
        if w != x or LEVEL_OF[x] == 3:
            return delta
        w = x + 3


class Search:
    """One clairvoyant search from a game's current position (the game is not changed)."""

    def __init__(
        self,
        game: Game,
        *,
        time_limit: float | None = 10.0,
        max_nodes: int | None = None,
        tt_entries: int = DEFAULT_TT_ENTRIES,
        tt: dict[Any, int] | None = None,
        rollouts: int = 3000,
    ) -> None:
        rules = game.rules
        self.rules = rules
        self.k = rules.draw
        self.redeals_max = rules.redeals
        self.unlimited = rules.redeals is None
        self.fill_talon = rules.fill_from_talon
        self.run_mode = rules.move_unit == "run"
        self.seq: list[int] = [*game.talon, *reversed(game.stock)]
        self.orig: list[int] = list(range(len(self.seq)))
        self.seqcount = sum(_FIELD[c] for c in self.seq)
        """The multiset of ``seq`` in 2-bit counters (bits ``2c``), kept up to date."""
        self.p0 = len(game.talon)
        self.r0 = game.redeals_done
        self.grid0: Any
        if self.run_mode:
            g = 0
            for pile in game.grid:
                if pile:
                    g += _FIELD[pile[-1]] + _BFIELD[pile[0]]
            self.grid0 = g
        else:
            self.grid0 = tuple(sorted(pile[0] * N_CARDS + pile[-1] for pile in game.grid if pile))
        self.time_limit = time_limit
        self.max_nodes = max_nodes
        self.tt: dict[Any, int] = {} if tt is None else tt
        self.tt_entries = tt_entries
        self.nodes = 0
        self.best = len(self.seq) + 1
        self.best_path: list[MacroMove] = []
        self.path: list[MacroMove] = []
        self.onpath: set[Any] = set()
        self.deadline = 0.0
        self.floor = 0
        self._applied: list[tuple[int, int, int]] = []
        self.rollouts = rollouts
        self.node_cap: int | None = None
        self._counts_cache: dict[Any, tuple[list[int], list[int], list[int]]] = {}
        self.first_budget = 20_000
        """Nodes of the first exhaustive turn; each turn after doubles it."""

    # ------------------------------------------------------------ positions
    def _cuts(self, p: int, n: int, r: int) -> list[tuple[int, int]]:
        """Cuts reachable by deals/redeals alone, with the redeals done there."""
        k = self.k
        chain = [*list(range(p, n, k)), n]
        out = [(q, r) for q in chain]
        if n == 0:
            return out
        if self.unlimited:
            if p:
                stop = p if p % k == 0 else n
                out += [(q, r + 1) for q in range(0, stop, k)]
            return out
        assert self.redeals_max is not None
        if r < self.redeals_max and p:
            stop = p if p % k == 0 else n
            out += [(q, r + 1) for q in range(0, stop, k)]
        return out

    # --------------------------------------------------------------- bounds
    def lower_bound(self, g: Any, p: int | None = None, r: int | None = None) -> int:
        """Cards of ``seq`` that provably never enter: a lower bound on the final score.

        ``p`` is the cut and ``r`` the redeals done (the root's when omitted).
        The argument, for any rules (a ``card``-mode game can make only moves a
        ``run``-mode game can, so one relaxation serves both):

        * Tops change only when a card enters (module documentation), so a
          value can ever be a top only if it is one now or a card of ``seq``
          of that value enters.  ``reach`` is a least fixpoint over-approximating
          those values: a non-base card enters by a talon build only when its
          predecessor is in ``reach``; once any emptying build is possible
          (a *live* cell: a non-base bottom whose predecessor is in ``reach``)
          any card might fill a space, so all of ``seq`` joins ``reach``.
        * A cell's bottom changes only when the cell is emptied and filled, and
          a cell is emptied only while its bottom is live.  A card that is a
          base, or whose predecessor is not in ``reach`` (a *fill-only* card),
          enters only by filling a space, and then is a bottom that never
          leaves: its cell is dead for good.  So at most ``live`` fill-only
          cards enter, ``live`` the live cells now (none when no card can ever
          fill a space): the score is at least ``fill-only - live``.
        * With no redeal left the talon only loses cards from its top.  A card
          can come off the talon by a talon build only if its predecessor is a
          top now or can enter before it, so not when every copy of the
          predecessor outside the grid lies under it in the talon.  Such a
          card, and any fill-only card, can come off only by filling a space
          from the talon: never when spaces are not filled from the talon or
          no cell is live, and then it and everything under it stay out.
          Otherwise the fill-only cards under the ``live`` topmost fill-only
          talon cards stay out, with everything under them.
        * Also with no redeal left, a talon card leaves only after every stock
          card consumed by then has entered (:meth:`_stack_bound`): the first
          one that would need more fills than there are live cells stays out
          with everything under it, and the fill-only cards above it still
          need live cells of their own (the two sets are disjoint).
        """
        seq = self.seq
        n = len(seq)
        if not n:
            return 0
        if p is None:
            p = self.p0
        if r is None:
            r = self.r0
        if self.run_mode:
            tops = _nonzero(g & _T_MASK)
            bcount = (g >> _B_SHIFT) & _NONBASE_BOTH
        else:
            tops = 0
            bcount = 0
            for pile in g:
                tops |= _FIELD[pile % N_CARDS]
                b = pile // N_CARDS
                if LEVEL_OF[b]:
                    bcount += _FIELD[b]
        seqcount = self.seqcount
        fixed = not self.unlimited and r >= (self.redeals_max or 0)
        if not fixed or not p:
            pending = _nonzero(seqcount)
            # could a space ever be filled?
            fill_source = p < n or (p > 0 and (self.fill_talon or self._redeal_left(r)))
            reach = tops
            live = 0
            while True:
                grow = pending & (reach << 6) & _NONBASE
                if grow:
                    reach |= grow
                    pending &= ~grow
                    continue
                if not fill_source:
                    break
                live = _count(bcount & ((reach << 6) * 3))
                if not live or not pending:
                    break
                reach |= pending  # any card of seq may fill a space
                pending = 0
            ok = (reach << 6) & _NONBASE  # cards whose predecessor may be a top
            return max(_count(seqcount & ~(ok * 3)) - live, self._count_bound(g, p, False))
        # no redeal left: the talon is a stack, entered only from its top
        counted = self._count_bound(g, p, True)
        if counted >= self.best:
            return counted  # the cheapest test that settles most nodes
        stock_pending = 0
        for c in seq[p:]:
            stock_pending |= _FIELD[c]
        above = above_all = stock_pending
        fill_talon = self.fill_talon
        reach = tops
        live = 0
        fills = False  # may a space be filled?
        i = p - 1  # the topmost talon card the scan has not let in
        while True:
            changed = False
            grow = stock_pending & (reach << 6) & _NONBASE
            if grow:
                reach |= grow
                stock_pending &= ~grow
                changed = True
            while i >= 0:
                bit = _FIELD[seq[i]]
                if not (fills and fill_talon) and not ((reach << 6) & _NONBASE & bit):
                    break
                reach |= bit
                i -= 1
                changed = True
            if not fills and (p < n or fill_talon):
                live = _count(bcount & ((reach << 6) * 3))
                if live:
                    fills = True
                    reach |= stock_pending  # a stock card may fill a space
                    stock_pending = 0
                    changed = True
            if not changed:
                break
        if fills:
            live = _count(bcount & ((reach << 6) * 3))
        ok = (reach << 6) & _NONBASE  # cards whose predecessor may be a top
        # the talon under ``i`` never comes in; under the (live + 1)-th fill-only
        # talon card from the top neither, nor under a card that needs a fill
        # when no fill from the talon can happen
        cut = i
        chains = live if fill_talon else 0
        uses = 0
        for j in range(p - 1, cut, -1):
            c = seq[j]
            bit = _FIELD[c]
            if not (ok & bit):
                uses += 1
                if uses > chains:
                    cut = j
                    break
            elif not chains and not ((tops | above) & (bit >> 6)):
                cut = j
                break
            above |= bit
        if cut < 0:
            dead = _count(seqcount & ~(ok * 3))
        else:
            dead = sum(1 for c in seq[cut + 1:] if not (ok >> (2 * c)) & 1)
        bound = cut + 1 + max(0, dead - live)
        # the talon cards under a card that waits for too many fills stay out too,
        # and the fill-only cards above them still need live cells (disjoint sets)
        stuck = self._stack_bound(tops, bcount, p)
        if stuck > cut + 1:
            dead = sum(1 for c in seq[stuck:] if not (ok >> (2 * c)) & 1)
            bound = max(bound, stuck + max(0, dead - live))
        bound = max(bound, counted)
        if n - p > _TALON_BOUND_STOCK:
            return bound
        return max(bound, self._talon_bound(tops | above_all, bcount, p))

    def _count_bound(self, g: Any, p: int, fixed: bool) -> int:
        """Cards that never enter, counted by the tops each entering move covers.

        Take any set ``E`` of cards of ``seq`` that have entered by some moment,
        and count per value: ``top_v`` the tops of value ``v`` now, ``bot_w`` the
        non-base bottoms of value ``w`` now, ``e_v`` the cards of value ``v`` in
        ``E``.  The number of tops of value ``v`` changes only when a card of
        value ``v`` enters (one more) or something is put on one (one fewer), and
        only a card of value ``v + 3`` is: by a talon build of it, or by an
        emptying build moving a pile with bottom ``v + 3``.  (Builds that leave
        their source non-empty keep the multiset of tops.)  So with ``b_w`` the
        talon builds of value ``w`` and ``x_w`` the emptying builds of piles with
        bottom ``w``: ``b_w + x_w <= top_(w-3) + e_(w-3)``.  A pile with bottom
        ``w`` is one of now or was made by a fill of a ``w``: with ``f_w`` the
        fills, ``x_w <= bot_w + f_w``.  Every fill needs an emptying build, so
        ``sum f <= sum x``; each card of ``E`` entered by a build or a fill
        (``b_w + f_w = e_w``), a base only by a fill.  Hence
        ``x_w - f_w <= min(bot_w, top_(w-3) + e_(w-3) - e_w)`` and, for a base,
        ``x_w - f_w = -e_w``: the sum ``D(E)`` of these must be at least 0.
        Taking one card out of ``E`` raises ``D`` by at most 1 (its own term by
        at most 1, its successor's term only falls), so at least ``-D(seq)``
        cards of ``seq`` never enter: the bound for any rules.

        With no redeal left (``fixed``) the talon is a stack.  Number the talon
        from its top ``t_1, t_2, ..`` and the stock from its top ``s_1, ..``.
        When ``t_j`` leaves with ``m`` stock cards consumed (dealt or filled),
        the cards that have entered are exactly ``t_1 .. t_j`` and
        ``s_1 .. s_m`` (stock cards dealt since lie above ``t_j``); and unless
        ``m`` is the whole stock and spaces are filled from the talon, no talon
        card has filled a space: the talon cards of value ``w`` need
        ``b_w >= e_w - (stock cards of value w in E)``, at most
        ``top_(w-3) + e_(w-3)``, and a talon base cannot enter at all.  If no
        ``m`` (from the least one for ``t_(j-1)`` on, which left first) meets
        these and ``D >= 0``, ``t_j`` never leaves and neither does anything
        under it; of the cards above, at least ``-D`` more stay out.
        ``card`` mode makes only moves ``run`` mode can, so it is bounded too.
        """
        seq = self.seq
        if fixed and p:
            tops, bots, base_terms = self._grid_counts(g)
            cut, rest = self._count_cut(seq, p, tops, bots, base_terms)
            if rest is not None:
                return cut + 1 + max(0, -rest)
        else:
            tops, bots = self._tops_bots(g)
            cut = -1
        cnt = [0] * N_CARDS
        for c in seq[cut + 1:]:
            cnt[c] += 1
        return cut + 1 + max(0, -sum(_count_terms(tops, bots, cnt)))

    def _grid_counts(self, g: Any) -> tuple[list[int], list[int], list[int]]:
        """Per value: the tops, the non-base bottoms, and the terms of
        :meth:`_count_bound` with no card entered (a small cache by grid)."""
        cache = self._counts_cache
        got = cache.get(g)
        if got is not None:
            return got
        tops, bots = self._tops_bots(g)
        # with no card entered the term of w is min(bots[w], tops[w - 3]); a base
        # has no bottoms counted, so its term is 0 whatever tops[w - 3] reads
        below = [0, 0, 0, *tops[:-3]]
        got = (tops, bots, [b if b < t else t for b, t in zip(bots, below, strict=True)])
        if len(cache) >= _COUNTS_CACHE:
            cache.clear()
        cache[g] = got
        return got

    def _tops_bots(self, g: Any) -> tuple[list[int], list[int]]:
        """Per value: the tops and the non-base bottoms of grid ``g``."""
        if self.run_mode:
            # four 2-bit counters a byte: tops in the first 12 bytes, bottoms after
            counts = list(chain.from_iterable(
                [_BYTE_COUNTERS[x] for x in (g & _TB_NONBASE).to_bytes(24, "little")]))
            return counts[:N_CARDS], counts[N_CARDS:]
        tops = [0] * N_CARDS
        bots = [0] * N_CARDS
        for pile in g:
            tops[pile % N_CARDS] += 1
            b = pile // N_CARDS
            if LEVEL_OF[b]:
                bots[b] += 1
        return tops, bots

    def _count_cut(
        self, seq: list[int], p: int, tops: list[int], bots: list[int], base_terms: list[int]
    ) -> tuple[int, int | None]:
        """The stack part of :meth:`_count_bound`: the index ``cut`` of the topmost talon
        card that never leaves (everything from it down stays out), or -1; and the
        sum ``D`` for the cards above it (``seq[cut + 1:]``) when the scan has it."""
        n = len(seq)
        fill = self.fill_talon
        cnt = [0] * N_CARDS  # e_v
        cs = [0] * N_CARDS  # the stock cards among them
        contrib = list(base_terms)
        total = sum(contrib)
        badf = [False] * N_CARDS
        bad = 0
        full = fill and p == n  # may talon cards fill spaces?
        m = p
        level_of = LEVEL_OF
        for j in range(p - 1, -1, -1):
            x = seq[j]
            stock = False
            while True:
                # add card x to E and update the terms of x and x + 3 (inlined: hot)
                cx = cnt[x] + 1
                cnt[x] = cx
                if stock:
                    cs[x] += 1
                level = level_of[x]
                if level:
                    sup = tops[x - 3] + cnt[x - 3]
                    c = sup - cx
                    if bots[x] < c:
                        c = bots[x]
                    b = not full and cx - cs[x] > sup
                else:
                    c = -cx
                    b = not full and cx > cs[x]
                total += c - contrib[x]
                contrib[x] = c
                if b != badf[x]:
                    bad += 1 if b else -1
                    badf[x] = b
                if level < 3:
                    w = x + 3
                    sup = tops[x] + cx
                    c = sup - cnt[w]
                    if bots[w] < c:
                        c = bots[w]
                    total += c - contrib[w]
                    contrib[w] = c
                    b = not full and cnt[w] - cs[w] > sup
                    if b != badf[w]:
                        bad += 1 if b else -1
                        badf[w] = b
                if not bad and total >= 0 and (
                    full or self._prefix_ok(seq, p, j, m, tops, bots)
                ):
                    break  # t_j may leave with m stock cards consumed
                if m == n:
                    # E is seq[j:]: the cards above t_j are E without it
                    cnt[seq[j]] -= 1
                    return j, total + _term_change(seq[j], tops, bots, cnt, contrib)
                x = seq[m]
                stock = True
                m += 1
                if m == n and fill and not full:
                    full = True  # talon cards may fill from now on
                    bad = 0
                    badf = [False] * N_CARDS
        return -1, None

    def _prefix_ok(
        self, seq: list[int], p: int, j: int, m: int, tops: list[int], bots: list[int]
    ) -> bool:
        """Whether the stock's fills can keep pace, for ``seq[j]`` to leave at ``m``.

        Part of :meth:`_count_cut`, when no talon card may fill a space.  A card
        of ``s_1 .. s_m`` is *blocked* if it is a base or no card of its
        predecessor's value is a top now or among ``t_1 .. t_(j-1), s_1 .. s_m``:
        it cannot come in by a talon build before ``t_j`` leaves, nor wait on
        the talon for a fill (no talon card fills a space here), so it fills a
        space when it is the stock's top card, ``s_i``.  By then the cards that
        have entered are among ``t_1 .. t_(j-1), s_1 .. s_i`` (supply) and
        include every blocked card of ``s_1 .. s_i`` (demand), and the count of
        :meth:`_count_bound` must hold for them: a term can only grow with more
        supply and less demand, so with all the supply and only the blocked
        demand it is at least the true sum, which is at least 0.
        """
        # room[w]: the copies of w - 3 that may be tops (now, or from the talon
        # above t_j, or from the stock so far) less the blocked demand for w;
        # the term of w is min(bots[w], room[w]), kept up to date as it changes
        level_of = LEVEL_OF
        present = [t > 0 for t in tops]
        room = [0] * N_CARDS
        for w in _NONBASE_CARDS:
            room[w] = tops[w - 3]
        for i in range(j + 1, p):
            c = seq[i]
            present[c] = True
            if level_of[c] < 3:
                room[c + 3] += 1
        for i in range(p, m):
            present[seq[i]] = True
        total = 0
        for w in _NONBASE_CARDS:
            r = room[w]
            b = bots[w]
            total += r if r < b else b
        for i in range(p, m):
            x = seq[i]
            level = level_of[x]
            if level < 3:
                w = x + 3
                r = room[w] + 1
                room[w] = r
                if r <= bots[w]:
                    total += 1
            if level == 0:
                total -= 1
            elif not present[x - 3]:
                r = room[x] - 1
                room[x] = r
                if r < bots[x]:
                    total -= 1
            else:
                continue
            if total < 0:
                return False
        return True

    def _stack_bound(self, tops: int, bcount: int, p: int) -> int:
        """With no redeal left: talon cards that never leave, as the stock dealt on them must first.

        ``tops`` has bit ``2c`` set for each top value, ``bcount`` holds the
        non-base bottoms in 2-bit counters.  Number the talon from its top
        ``t_1, t_2, ..`` and the stock from its top ``s_1, s_2, ..``.  Every card
        dealt from now on lies above every ``t_j``, and the talon loses cards only
        from its top, so when ``t_j`` leaves with ``m`` stock cards consumed
        (dealt or filled), ``t_1 .. t_(j-1)`` and ``s_1 .. s_m`` have all entered
        already: ``s_1 .. s_m`` were dealt above ``t_j`` or filled a space.
        Until ``t_j`` has left, then, every top is in
        ``S = tops + t_1 .. t_(j-1) + s_1 .. s_m`` (a value becomes a top only
        by entering).  Call a card of ``t_1 .. t_j, s_1 .. s_m`` *blocked* if it
        is a base or its predecessor is not in ``S``: it can enter only by
        filling a space.  A fill needs an emptying build, which needs a bottom
        whose predecessor is a top; a blocked card filled in becomes a bottom
        whose predecessor is not a top before ``t_j`` leaves (or never leaves,
        for a base), so its cell can be emptied no more in that time: every
        cell whose fills bring in blocked cards before ``t_j`` leaves is a
        chain of fills ending there, and starts from a bottom of now whose
        predecessor is in ``S``.  So the blocked cards number at most the
        ``live`` bottoms of now with predecessor in ``S``.  A blocked talon
        card can come in only by a fill from the talon: only with the stock
        out (``m`` the whole stock) and spaces filled from the talon.  If no
        ``m`` meets these conditions, ``t_j`` never leaves, and neither does
        anything under it.  ``t_(j-1)`` leaves before ``t_j``, so with at least
        as many stock cards consumed: ``m`` can start where ``t_(j-1)``'s least
        possible ``m`` was; and that ``m`` serves ``t_j`` too when ``t_j`` is not
        blocked there (``S`` only grows from ``j - 1`` to ``j``, so no card is
        newly blocked and no live bottom is lost).  ``card`` mode makes only
        moves ``run`` mode can, so it is bounded too.
        """
        seq = self.seq
        n = len(seq)
        fill = self.fill_talon
        talon_seen = tops  # tops + t_1 .. t_(j-1)
        talon_need = 0  # non-base talon cards t_1 .. t_j, counted at their predecessors
        talon_bases = 0
        m0 = p  # stock cards seq[p:m0] consumed at least
        # stock cards s_1 .. s_m (seq[p:m0]) as counters at their predecessors, and bases
        stock_seen = 0
        stock_need = 0
        stock_bases = 0
        for j in range(p - 1, -1, -1):
            x = seq[j]
            if LEVEL_OF[x]:
                talon_need += _FIELD[x - 3]
                if ((talon_seen | stock_seen) >> (2 * x - 6)) & 1:
                    # t_(j-1)'s least m serves: S only grew, and t_j is not blocked
                    talon_seen |= _FIELD[x]
                    continue
            else:
                talon_bases += 1
            m = m0
            s_seen, s_need, s_bases = stock_seen, stock_need, stock_bases
            if talon_bases and not fill:
                return j + 1  # a base in the talon, and no fill from the talon
            failed = -1  # the S of the last failed count: with S unchanged it fails again
            while True:
                seen = talon_seen | s_seen
                miss = ~(seen * 3)
                # a blocked talon card waits for the stock to run out
                if seen != failed and (
                    (fill and m == n) or not (talon_bases or talon_need & miss)
                ):
                    blocked = (talon_bases + _count(talon_need & miss) + s_bases
                               + _count(s_need & miss))
                    if blocked == 0 or blocked <= _count(bcount & ((seen << 6) * 3)):
                        break
                    failed = seen
                if m == n:
                    return j + 1
                y = seq[m]
                s_seen |= _FIELD[y]
                if LEVEL_OF[y]:
                    s_need += _FIELD[y - 3]
                else:
                    s_bases += 1
                m += 1
            m0, stock_seen, stock_need, stock_bases = m, s_seen, s_need, s_bases
            talon_seen |= _FIELD[x]
            if m0 == n:
                return self._stack_tail(j, talon_seen | stock_seen, talon_need + stock_need,
                                        talon_bases + stock_bases, bcount)
        return 0

    def _stack_tail(self, j: int, seen: int, need: int, bases: int, bcount: int) -> int:
        """:meth:`_stack_bound` for ``seq[j - 1]`` on down, once ``m`` is the whole stock.

        The same test, counted as it goes: ``seen`` is ``S``, ``need`` the
        non-base cards of the talon above ``seq[j - 1]`` and of the stock as
        counters at their predecessors, ``bases`` their bases.
        """
        seq = self.seq
        fill = self.fill_talon
        blocked = bases + _count(need & ~(seen * 3))
        live = _count(bcount & ((seen << 6) * 3))
        for i in range(j - 1, -1, -1):
            x = seq[i]
            if LEVEL_OF[x]:
                need += _FIELD[x - 3]
                if not (seen >> (2 * x - 6)) & 1:
                    if not fill:
                        return i + 1
                    blocked += 1
            else:
                if not fill:
                    return i + 1
                blocked += 1
            if blocked > live:
                return i + 1
            if not (seen >> (2 * x)) & 1:
                seen |= _FIELD[x]
                blocked -= (need >> (2 * x)) & 3
                if LEVEL_OF[x] < 3:
                    live += (bcount >> (2 * x + 6)) & 3
        return 0

    def _talon_bound(self, seen: int, bcount: int, p: int) -> int:
        """With no redeal left: talon cards that can never come off, and all under them.

        ``seen`` has bit ``2c`` set for each value ``c`` that is a top now or a
        card of the stock; ``bcount`` holds the non-base bottoms in 2-bit
        counters.  The talon's cards can leave only from its top, so in the
        order ``t_1, t_2, ..`` from the top (stock cards dealt later lie above
        them and do not change that order).  Let ``S_j`` be ``seen`` plus
        ``t_1 .. t_(j-1)``: when ``t_j`` leaves, every top is in ``S_j`` (a
        value becomes a top only by entering, and only stock cards and the
        talon cards above ``t_j`` can have entered).  For a multiset of
        bottoms ``B`` let ``e_k(B)`` count the non-base ``b`` in ``B`` with
        ``b - 3`` in ``S_k``; a fill needs a bottom ``b`` with ``b - 3`` a
        top, so when ``t_j`` would fill a space, ``e_j(B) > 0``.

        The simulation below takes ``t_j`` (value ``x``) off by a talon build
        when ``x - 3`` is in ``S_j``, else by a fill (when ``e_j > 0`` and
        spaces are filled from the talon; it ignores that this waits for the
        stock to run out), and stops otherwise.  Any real line has
        ``e_k(B) <= e_k(B')`` for all ``k >= j`` once ``t_1 .. t_(j-1)``
        are off, ``B'`` the simulation's bottoms: at the start they are
        equal; a fill from the stock replaces a bottom counted from ``S_j`` on
        by one that may be counted or not; at ``t_j`` with ``x - 3`` in
        ``S_j`` the simulation keeps its bottoms and a real fill replaces a
        counted bottom by ``x``, counted too; at any other ``t_j`` both fill,
        each replacing a counted bottom by the same ``x``.  Moves through
        which nothing enters keep the tops and never add a bottom.  So where
        the simulation stops (``x - 3`` not in ``S_j``, ``e_j(B') = 0``),
        no real line can ever take ``t_j`` off: no talon build (``x - 3`` is
        not a top) and no fill.  ``t_j`` and everything under it stay out.
        ``card`` mode makes only moves ``run`` mode can, so it is bounded too.
        With the stock out this is often exact: the order of entry is forced.
        """
        seq = self.seq
        fill = self.fill_talon
        ready = bcount & ((seen << 6) * 3)  # bottoms whose predecessor is in S
        spare = _count(ready)
        waiting = bcount & ~ready
        for i in range(p - 1, -1, -1):
            x = seq[i]
            prev = PREV[x]
            if prev < 0 or not (seen >> (2 * prev)) & 1:
                if not (fill and spare):
                    return i + 1
                spare -= 1
                if prev >= 0:
                    waiting += _FIELD[x]
            bit = _FIELD[x]
            if not seen & bit:
                seen |= bit
                if LEVEL_OF[x] < 3:
                    shift = 2 * x + 6
                    released = (waiting >> shift) & 3
                    if released:
                        spare += released
                        waiting -= released << shift
        return 0

    def _redeal_left(self, r: int) -> bool:
        return self.unlimited or r < (self.redeals_max or 0)

    # --------------------------------------------------------------- search
    def run(self, floor: int = 0) -> SolveResult:
        """Search; ``floor`` is a lower bound on the best score proven elsewhere."""
        start = time.perf_counter()
        self.deadline = start + self.time_limit if self.time_limit is not None else float("inf")
        n = len(self.seq)
        self.best = n
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
                    self._dfs(self.grid0, self.p0, self.r0)
                    break
                except _PhaseEnd:
                    while self.path:
                        self._undo_seq(self._applied.pop())
                        self.path.pop()
                    self.onpath.clear()
                finally:
                    self.node_cap = None
                if beam:
                    width = max(2 * width, budget // BEAM_NODES_PER_STATE)
                    self._beam(width)
                else:
                    self._probe(budget)
                budget *= 2
        except _TimeUp:
            proven = False
            # unwind the mutable sequence to the root
            while self.path:
                self._undo_seq(self._applied.pop())
                self.path.pop()
        seconds = time.perf_counter() - start
        return SolveResult(
            score=self.best, proven=proven, moves=(), nodes=self.nodes, seconds=seconds,
            rules=str(self.rules), bound=self.best if proven else min(self.floor, self.best),
        )

    def _beam(self, width: int) -> None:
        """Beam search through the rest of the pass (no redeal left): it finds far
        better lines than the playouts there.

        A *state* is a grid and a talon, with ``s`` stock cards consumed (dealt
        or filled).  With no redeal left ``s`` only grows, so the states are
        taken in layers of equal ``s``.  A layer is first closed under the
        entering moves that consume no stock card (talon builds, fills from the
        talon once the stock is out, and in ``card`` mode the other grid
        builds); then its states are ranked by their lower bound plus their
        talon size (the cards provably lost, and those dealt that have yet to
        come in; ties: the lower bound), those whose bound cannot beat the best
        line found are dropped, and the ``width`` best go on: by a fill from the
        stock (to layer
        ``s + 1``) and by a deal (to layer ``s + draw``).  Every state also ends
        a line (deal the rest, nothing more enters), and the best of those
        becomes the incumbent when it beats it.  Like the playouts, the beam
        only improves the incumbent; proofs come from the exhaustive search.
        """
        saved = self.seq, self.seqcount
        stock = self.seq[self.p0:]
        n_stock = len(stock)
        r = self.r0
        k = self.k
        Layer = dict[tuple[Any, tuple[int, ...]], tuple[MacroMove, ...]]
        layers: dict[int, Layer] = {0: {(self.grid0, tuple(self.seq[:self.p0])): ()}}
        try:
            for s in range(n_stock + 1):
                layer = layers.pop(s, None)
                if not layer:
                    continue
                rest = stock[s:]
                rest_count = sum(_FIELD[c] for c in rest)
                talon_counts: dict[tuple[int, ...], int] = {}  # many states share a talon
                fills: dict[tuple[Any, tuple[int, ...]], list[tuple[Any, MacroMove]]] = {}
                dominated: set[tuple[Any, tuple[int, ...]]] = set()
                work = list(layer)
                while work:
                    state = work.pop()
                    g, tal = state
                    path = layer[state]
                    p = len(tal)
                    self._set_seq(tal, rest, rest_count, talon_counts)
                    out = fills[state] = []
                    safe = self._safe_build(g, p, r) if self.run_mode and p else None
                    if safe is not None:
                        dominated.add(state)  # its safe build's child is as good
                    for mv, g2, _p2, _r2, i in safe or self._moves(
                        g, p, r, len(self.seq), [(p, r)]
                    ):
                        if i >= p:  # a fill from the stock
                            out.append((g2, mv))
                            continue
                        child = (g2, tal if i < 0 else tal[:i] + tal[i + 1:])
                        if child not in layer:
                            layer[child] = (*path, mv)
                            work.append(child)
                ranked = []
                for state, path in layer.items():
                    if state in dominated:
                        continue
                    g, tal = state
                    self.nodes += 1
                    if self.nodes & 255 == 0:
                        self._check_time()
                    left = len(tal) + len(rest)
                    if left < self.best:
                        self.best = left
                        self.best_path = list(path)
                    self._set_seq(tal, rest, rest_count, talon_counts)
                    lb = self.lower_bound(g, len(tal), r)
                    if lb < self.best:
                        ranked.append((lb + len(tal), lb, state))
                if not rest:
                    break
                ranked.sort(key=lambda x: (x[0], x[1]))  # ties keep their order
                dealt = rest[:k]
                for _, _, state in ranked[:width]:
                    g, tal = state
                    path = layer[state]
                    for g2, mv in fills[state]:
                        layers.setdefault(s + 1, {}).setdefault((g2, tal), (*path, mv))
                    layers.setdefault(s + len(dealt), {}).setdefault((g, (*tal, *dealt)), path)
        finally:
            self.seq, self.seqcount = saved

    def _set_seq(self, tal: tuple[int, ...], rest: list[int], rest_count: int,
                 talon_counts: dict[tuple[int, ...], int]) -> None:
        """Make ``seq`` the talon ``tal`` then the stock ``rest`` (whose counters are
        ``rest_count``); ``talon_counts`` keeps the talons' counters."""
        self.seq = [*tal, *rest]
        count = talon_counts.get(tal)
        if count is None:
            count = talon_counts[tal] = sum(_FIELD[c] for c in tal)
        self.seqcount = count + rest_count

    def _check_time(self) -> None:
        if time.perf_counter() > self.deadline or (
            self.max_nodes is not None and self.nodes > self.max_nodes
        ):
            raise _TimeUp

    def _probe(self, budget: int | None = None) -> None:
        """Greedy playouts: they find most wins long before the exhaustive search.

        Each playout takes, at every step, the entering move with the lowest
        key of :meth:`_candidates` (ties at random), except that with
        probability ``1/4`` it picks at random among the moves at most two
        key classes worse (the first playout is purely greedy).  A move whose
        child has a lower bound (or a transposition-table bound) at least the
        best score found cannot lead to a better line, so the playout takes
        another one instead.  Playouts only improve the incumbent line; the
        proof is left to the exhaustive search, so none of this can change a
        proven result.  ``budget`` caps the nodes (playout steps) spent.
        """
        rng = random.Random(len(self.seq) * 7919 + self.p0 + (budget or 0))
        seq = self.seq
        orig = self.orig
        applied = self._applied
        stop = None if budget is None else self.nodes + budget
        for i in range(self.rollouts):
            g, p, r, mask = self.grid0, self.p0, self.r0, 0
            steps = 0
            while True:
                self.nodes += 1
                n = len(seq)
                if n < self.best:
                    self.best = n
                    self.best_path = list(self.path)
                    if n <= self.floor:
                        break
                cands = self._candidates(g, p, r, n)
                if not cands or steps > 400:
                    break
                keys = [c[0] for c in cands]
                chosen = None
                while True:
                    low = min(keys)
                    if low >= _REJECTED:
                        break
                    if i and rng.random() < 0.25:
                        wide = (low >> 10) + 2
                        pool = [j for j, k in enumerate(keys) if k >> 10 <= wide]
                    else:
                        pool = [j for j, k in enumerate(keys) if k == low]
                    j = pool[rng.randrange(len(pool))] if i else pool[0]
                    keys[j] = _REJECTED
                    _, q, kind, a, b, g2, p2, r2, idx = cands[j]
                    mv = (q, kind, a, b)
                    if g2 is None:  # run mode: the grid after the move
                        f = seq[idx]
                        if kind == TALON:
                            g2 = g - _FIELD[PREV[f]] + _FIELD[f]
                        else:
                            g2 = g - _FIELD[a - 3] - _BFIELD[a] + _FIELD[f] + _BFIELD[f]
                    card = seq.pop(idx)
                    self.seqcount -= _FIELD[card]
                    o = orig.pop(idx)
                    applied.append((idx, card, o))
                    mask2 = mask | (1 << o)
                    known = self.tt.get(self._key(g2, p2, r2, mask2))
                    if (known is None or known < self.best) and (
                        self.lower_bound(g2, p2, r2) < self.best
                    ):
                        chosen = (mv, g2, p2, r2, mask2)
                        break
                    self._undo_seq(applied.pop())
                if chosen is None:
                    break
                mv, g, p, r, mask = chosen
                self.path.append(mv)
                steps += 1
            while self.path:
                self._undo_seq(applied.pop())
                self.path.pop()
            if (self.best <= self.floor or time.perf_counter() > self.deadline
                    or (stop is not None and self.nodes >= stop)
                    or (self.max_nodes is not None and self.nodes > self.max_nodes)):
                break

    def _candidates(
        self, g: Any, p: int, r: int, n: int
    ) -> list[tuple[int, int, int, int, int, Any, int, int, int]]:
        """The entering moves for a playout: ``(key, q, kind, a, b, grid, cut, redeals, index)``.

        Lower keys are tried first; ``key >> 10`` is the key class.  A
        heuristic only: it orders, never prunes.  ``(q, kind, a, b)`` is the
        macro move.  In ``run`` mode the grid after the move is left None (the
        playout computes it for the move it takes).  With unlimited redeals:
        talon builds first (class 0), then fills that bring in a base (1: a
        base can come in no other way), then fills of a card whose
        predecessor is a top (2: the cell stays live), then other fills (4);
        3 more when the move covers the last top that a grid bottom (the other
        copy of the card put on it) still needs.  With redeals limited, where
        every deal buries talon cards: talon builds and base fills (class 0)
        before other fills (1), nearer cuts first.  ``card`` mode: the order
        of :meth:`_moves`.
        """
        if not self.run_mode:
            return [
                (j, mv[0], mv[1], mv[2], mv[3], g2, p2, r2, i)
                for j, (mv, g2, p2, r2, i) in enumerate(self._moves(g, p, r, n))
                if i >= 0
            ]
        seq = self.seq
        unlimited = self.unlimited
        fill_talon = self.fill_talon
        tops = _nonzero(g & _T_MASK)
        emptiable = _nonzero(g >> _B_SHIFT) & _NONBASE & (tops << 6)
        sources: list[tuple[int, int, bool, int]] = []
        while emptiable:
            low = emptiable & -emptiable
            b = _BIT_CARD[low]
            # the source's bottom, the top it covers, whether that is the last such
            # top, and how many piles have this bottom
            sources.append((b, b - 3, (g >> (2 * b - 6)) & 3 == 1,
                            (g >> (_B_SHIFT + 2 * b)) & 3))
            emptiable ^= low
        out: list[tuple[int, int, int, int, int, Any, int, int, int]] = []
        append = out.append
        for ci, (q, rq) in enumerate(self._cuts(p, n, r)):
            tie = 0 if unlimited else min(ci, 1023)
            if q > 0:
                c = seq[q - 1]
                prev = PREV[c]
                if prev >= 0 and (g >> (2 * prev)) & 3:
                    key = 0
                    if unlimited and (g >> (2 * prev)) & 3 == 1 and (g >> (_B_SHIFT + 2 * c)) & 3:
                        key = 3
                    append((key << 10 | tie, q, TALON, -1, -1, None, q - 1, rq, q - 1))
            if sources:
                if q < n:
                    f, i, p2 = seq[q], q, q
                elif fill_talon and q > 0:
                    f, i, p2 = seq[q - 1], q - 1, q - 1
                else:
                    continue
                if not unlimited:
                    key = (0 if not LEVEL_OF[f] else 1) << 10 | tie
                    for src in sources:
                        append((key, q, EMPTY, src[0], -1, None, p2, rq, i))
                    continue
                base = not LEVEL_OF[f]
                pf = PREV[f]
                tpf = (g >> (2 * pf)) & 3 if pf >= 0 else 0
                for b, covered, last, nb in sources:
                    if base:
                        key = 1
                    elif tpf - (pf == covered) > 0:
                        key = 2
                    else:
                        key = 4
                    if last and nb - 1 + (f == b) > 0:
                        key += 3
                    append((key << 10, q, EMPTY, b, -1, None, p2, rq, i))
        return out

    def _undo_seq(self, info: tuple[int, int, int]) -> None:
        i, card, orig = info
        if i >= 0:
            self.seq.insert(i, card)
            self.seqcount += _FIELD[card]
            self.orig.insert(i, orig)

    def _key(self, g: Any, p: int, r: int, mask: int) -> Any:
        n = len(self.seq)
        if self.unlimited:
            if p % self.k == 0 or p == n:
                p = 0
            return (g, mask, p)
        return (g, mask, p, r)

    def _dfs(self, g: Any, p: int, r: int, mask: int = 0) -> int:
        self.nodes += 1
        if (self.nodes & 1023 == 0 and time.perf_counter() > self.deadline) or (
            self.max_nodes is not None and self.nodes > self.max_nodes
        ):
            raise _TimeUp  # the clock is read now and then, the node budget kept exactly
        if self.node_cap is not None and self.nodes > self.node_cap:
            raise _PhaseEnd
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
        if not self.run_mode and key in self.onpath:
            return self.best
        lb = self.lower_bound(g, p, r)
        if lb >= self.best:
            self._store(key, lb)
            return lb
        value = n
        cuts = self._cuts(p, n, r)
        safe = self._safe_cut(g, r, cuts) if self.run_mode else None
        if safe is None:
            moves = self._moves(g, p, r, n, cuts)
        else:
            # every move at a later cut passes through the position the safe
            # build is made from, so the moves at the earlier cuts and the safe
            # build are all the search needs
            moves = [self._safe_move(g, safe, r), *self._moves(
                g, p, r, n, [(q, rq) for q, rq in cuts if q < safe])]
        if not self.run_mode:
            self.onpath.add(key)
        applied = self._applied
        orig = self.orig
        for mv, g2, p2, r2, i in moves:
            if i >= 0:
                card = seq.pop(i)
                self.seqcount -= _FIELD[card]
                o = orig.pop(i)
                applied.append((i, card, o))
                mask2 = mask | (1 << o)
            else:
                applied.append((-1, -1, -1))
                mask2 = mask
            self.path.append(mv)
            v = self._dfs(g2, p2, r2, mask2)
            self.path.pop()
            self._undo_seq(applied.pop())
            if v < value:
                value = v
            if self.best <= self.floor:
                break
        if not self.run_mode:
            self.onpath.discard(key)
        self._store(key, value)
        return value

    def _safe_build(
        self, g: Any, p: int, r: int
    ) -> list[tuple[MacroMove, Any, int, int, int]] | None:
        """The talon build of the talon's top card ``c`` when it provably loses nothing
        (``run`` mode, no redeal left), as the only child; else None.

        A top ``c - 3`` can serve only a card of value ``c``: by a talon build of
        it, or by an emptying build of a pile with it at the bottom, once for
        each copy (a copy that fills a space can then be moved onto one top
        ``c - 3``, and is never moved again in the search's model).  Conditions:
        a top ``c - 3``, and either no other card of value ``c`` outside the grid
        and no pile with ``c`` at its bottom (then the top covered serves
        nothing but ``c``), or both copies of ``c - 3`` tops (then one is left
        for the other copy of ``c``, the only other card that could use one).
        The position *B* after the build is then at least as good as the
        position *N* before it: *B* answers every line from *N* move for move
        (moves of the search's model: deals, talon builds, emptying builds with
        their fills) and ends with no more cards out.  While ``c`` waits in
        *N*'s talon the two differ only in a top ``c - 3`` against ``c`` and in
        ``c`` on *N*'s talon, and every move of *N* but those bringing ``c`` in
        exists in *B* with the same effect: it needs no top ``c - 3`` that *B*
        lacks, and the stock and the other talon cards are the same (no redeal
        can reorder them).  When *N* builds ``c``, the two positions are equal.
        When *N* fills a space with ``c`` from the talon by an emptying build of
        a pile with bottom ``b`` onto a top ``b - 3``, *B* makes no move: *N* then
        holds a top ``c - 3`` and a bottom ``c`` where *B* holds a top ``b - 3``
        and a bottom ``b``, and *N*'s pair can serve only the emptying build of
        the ``c`` pile onto ``c - 3``, which *B* answers by moving its ``b`` pile
        onto ``b - 3``: the same card fills both spaces and the positions are
        equal again.  If *N* never brings ``c`` in, *B* ends one card better.
        Both conditions are needed: the tests hold a position for each where
        building at once loses cards.
        """
        if self._redeal_left(r) or not self._safe_at(g, p):
            return None
        return [self._safe_move(g, p, r)]

    def _safe_at(self, g: Any, q: int) -> bool:
        """Whether the talon build of ``seq[q - 1]`` is safe (:meth:`_safe_build`'s
        conditions; no redeal left assumed)."""
        if not q:
            return False
        c = self.seq[q - 1]
        prev = PREV[c]
        if prev < 0:
            return False
        covered = (g >> (2 * prev)) & 3
        return covered == 2 or (covered == 1 and (self.seqcount >> (2 * c)) & 3 == 1
                                and not (g >> (_B_SHIFT + 2 * c)) & 3)

    def _safe_move(self, g: Any, q: int, r: int) -> tuple[MacroMove, Any, int, int, int]:
        """The child of the safe talon build at cut ``q``."""
        c = self.seq[q - 1]
        return ((q, TALON, -1, -1), g - _FIELD[PREV[c]] + _FIELD[c], q - 1, r, q - 1)

    def _safe_cut(self, g: Any, r: int, cuts: list[tuple[int, int]]) -> int | None:
        """The first of ``cuts`` (those :meth:`_cuts` gives; with no redeal left, the
        ones reachable by deals alone: ``p``, ``p + draw``, .., ``n``) at which the
        talon build is safe, with no redeal left; else None.  Every line that
        deals past that cut passes through the position with that card on top of
        the talon, which the build dominates (:meth:`_safe_build`)."""
        if self._redeal_left(r):
            return None
        return next((q for q, _ in cuts if self._safe_at(g, q)), None)

    def _store(self, key: Any, value: int) -> None:
        tt = self.tt
        if len(tt) >= self.tt_entries:
            tt.clear()
        old = tt.get(key)
        if old is None or value > old:
            tt[key] = value

    def _moves(
        self, g: Any, p: int, r: int, n: int, cuts: list[tuple[int, int]] | None = None
    ) -> list[tuple[MacroMove, Any, int, int, int]]:
        """Children: (macro move, grid, cut, redeals, index of the card removed or -1).

        ``cuts`` limits the cuts the entering moves are made at (all reachable
        ones by default)."""
        seq = self.seq
        out: list[tuple[MacroMove, Any, int, int, int]] = []
        if cuts is None:
            cuts = self._cuts(p, n, r)
        fill_talon = self.fill_talon
        if self.run_mode:
            tops = _nonzero(g & _T_MASK)
            bottoms = _nonzero(g >> _B_SHIFT) & _NONBASE
            emptiable = bottoms & (tops << 6)
            sources: list[int] = []
            while emptiable:
                low = emptiable & -emptiable
                sources.append(_BIT_CARD[low])
                emptiable ^= low
            firsts: list[tuple[MacroMove, Any, int, int, int]] = []
            for q, rq in cuts:
                if q > 0:
                    c = seq[q - 1]
                    prev = PREV[c]
                    if prev >= 0 and (g >> (2 * prev)) & 3:
                        g2 = g - _FIELD[prev] + _FIELD[c]
                        firsts.append(((q, TALON, -1, -1), g2, q - 1, rq, q - 1))
                if sources:
                    if q < n:
                        f, i, p2 = seq[q], q, q
                    elif fill_talon and q > 0:
                        f, i, p2 = seq[q - 1], q - 1, q - 1
                    else:
                        continue
                    add = _FIELD[f] + _BFIELD[f]
                    for b in sources:
                        g2 = g - _FIELD[b - 3] - _BFIELD[b] + add
                        mv = (q, EMPTY, b, -1)
                        if LEVEL_OF[f] == 0:
                            firsts.append((mv, g2, p2, rq, i))
                        else:
                            out.append((mv, g2, p2, rq, i))
            return firsts + out
        # card mode: g is a sorted tuple of piles bottom * 48 + top
        piles: tuple[int, ...] = g
        by_top: dict[int, list[int]] = {}
        for pile in piles:
            by_top.setdefault(pile % N_CARDS, []).append(pile)
        singles = []
        for pile in dict.fromkeys(piles):
            t = pile % N_CARDS
            prev = PREV[t]
            if prev < 0 or prev not in by_top:
                continue
            targets = list(dict.fromkeys(by_top[prev]))
            if pile // N_CARDS == t:
                singles.append((pile, targets))
            else:
                for tgt in targets:
                    rest = list(piles)
                    rest.remove(pile)
                    rest.remove(tgt)
                    rest += [pile // N_CARDS * N_CARDS + prev, tgt // N_CARDS * N_CARDS + t]
                    out.append(((p, PEEL, pile, tgt), tuple(sorted(rest)), p, r, -1))
        entering: list[tuple[MacroMove, Any, int, int, int]] = []
        for q, rq in cuts:
            if q > 0:
                c = seq[q - 1]
                prev = PREV[c]
                if prev >= 0 and prev in by_top:
                    for tgt in dict.fromkeys(by_top[prev]):
                        rest = list(piles)
                        rest.remove(tgt)
                        rest.append(tgt // N_CARDS * N_CARDS + c)
                        entering.append(((q, TALON, tgt, -1), tuple(sorted(rest)), q - 1, rq,
                                         q - 1))
            if singles:
                if q < n:
                    f, i, p2 = seq[q], q, q
                elif fill_talon and q > 0:
                    f, i, p2 = seq[q - 1], q - 1, q - 1
                else:
                    continue
                for src, targets in singles:
                    t = src % N_CARDS
                    for tgt in targets:
                        rest = list(piles)
                        rest.remove(src)
                        rest.remove(tgt)
                        rest += [tgt // N_CARDS * N_CARDS + t, f * N_CARDS + f]
                        entering.append(((q, EMPTY, src, tgt), tuple(sorted(rest)), p2, rq, i))
        return entering + out


def realize(game: Game, path: list[MacroMove]) -> list[Move]:
    """The engine moves of a line of macro moves, played on a copy of ``game``."""
    g = game.copy()
    moves: list[Move] = []

    def play(m: Move) -> None:
        g.push(m)
        moves.append(m)

    for q, kind, a, b in path:
        if len(g.talon) != q:
            # deal on in this pass if q is reachable, else go round
            p, n, k = len(g.talon), len(g.talon) + len(g.stock), g.rules.draw
            in_pass = q >= p and ((q - p) % k == 0 or q == n)
            if not in_pass:
                while g.stock:
                    play(DEAL)
                play(REDEAL)
            while len(g.talon) != q:
                if not g.stock:
                    raise AssertionError("cut not reachable")  # pragma: no cover
                play(DEAL)
        grid = g.grid
        if kind == TALON:
            want = PREV[g.talon[-1]]
            cell = _find_cell(grid, top=want, pile=a)
            play(TALON_BUILDS[cell])
        elif kind == EMPTY:
            if b < 0:  # run mode: a is the bottom card
                src = next(i for i, pl in enumerate(grid) if pl and pl[0] == a)
                dst = next(
                    i for i, pl in enumerate(grid) if pl and i != src and pl[-1] == PREV[a]
                )
            else:
                src = _find_cell(grid, top=a % N_CARDS, pile=a)
                dst = _find_cell(grid, top=b % N_CARDS, pile=b, avoid=src)
            play(GRID_BUILDS[src][dst])
        else:
            src = _find_cell(grid, top=a % N_CARDS, pile=a)
            dst = _find_cell(grid, top=b % N_CARDS, pile=b, avoid=src)
            play(GRID_BUILDS[src][dst])
    return moves


def _find_cell(grid: list[tuple[int, ...]], *, top: int, pile: int = -1, avoid: int = -1) -> int:
    for i in range(GRID_SIZE):
        pl = grid[i]
        if not pl or i == avoid or pl[-1] != top:
            continue
        if pile >= 0 and pl[0] != pile // N_CARDS:
            continue
        return i
    raise AssertionError(f"no pile with top {CARD_CODES[top]}")  # pragma: no cover


def solve(
    game: Game,
    *,
    time_limit: float | None = 10.0,
    max_nodes: int | None = None,
    tt_entries: int = DEFAULT_TT_ENTRIES,
) -> SolveResult:
    """The best final score from ``game``'s position, knowing the stock; ``game`` is unchanged.

    ``proven`` is True when the search finished (the score is optimal).  The
    line of ``moves`` (deals and redeals included, no swaps) replays legally
    to exactly ``score``.  ``time_limit`` is a positive, finite number of seconds,
    or None for none (then ``max_nodes`` stops the search); else ``LimitError``.
    """
    check_time_limit(time_limit, none_ok=True)
    search = Search(game, time_limit=time_limit, max_nodes=max_nodes, tt_entries=tt_entries)
    result = search.run()
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
