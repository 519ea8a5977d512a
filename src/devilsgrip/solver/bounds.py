"""Lower bounds on the final score: the cards of ``seq`` that provably never enter.

Each bound is argued in its docstring, for any rules; the search prunes a
position whose bound cannot beat the best line found.  A ``card``-mode game can
make only moves a ``run``-mode game can, so one relaxation serves both kinds
of grid: what differs is only how the tops and bottoms are read from the grid
(:class:`RunBounds`, :class:`CardBounds`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final, Generic

from devilsgrip.cards import GRID_SIZE, LEVEL_OF, N_CARDS, PREV
from devilsgrip.rules import Rules
from devilsgrip.solver.grids import (
    NONBASE,
    NONBASE_CARDS,
    TOP_FIELD,
    TOPS_MASK,
    CardGrid,
    RunGrid,
    card_tops_bottoms,
    card_value_counts,
    count,
    nonzero,
    run_tops_bottoms,
    run_value_counts,
)
from devilsgrip.solver.moves import G

COUNTS_CACHE: Final = 100_000
"""Grids whose per-value counts :meth:`Bounds._grid_counts` keeps."""
TALON_BOUND_STOCK: Final = 12
""":meth:`Bounds._talon_bound` is tried only with at most this many stock cards left:
with more, the stock's values let nearly every talon card off and it costs more than
it prunes (any subset of sound bounds is sound)."""


PILE_HEIGHT: Final = 4
"""The cards of a complete pile: a base and the three cards of its sequence above it."""


def _sizes_scan(cards: Sequence[int], sizes: dict[int, list[int]]) -> bool:
    """Take ``cards`` off a won grid's piles in turn, each the top card of a pile of its
    sequence (``sizes``: the two pile sizes of each sequence, by its base, 4 when
    absent); False as soon as one is not."""
    for card in cards:
        level = LEVEL_OF[card]
        two = sizes.setdefault(card - 3 * level, [PILE_HEIGHT, PILE_HEIGHT])
        if two[0] == level + 1:
            two[0] = level
        elif two[1] == level + 1:
            two[1] = level
        else:
            return False
    return True


def talon_bottom_lost(seq: Sequence[int], p: int) -> bool:
    """With no redeal left and spaces filled from the talon: whether the talon's cards up
    to its lowest base show that the position cannot be won.

    ``seq[:p]`` is the talon from its bottom: ``t_1 .. t_p``; let ``t_j`` be its
    lowest base.  The argument, for either ``move_unit``:

    * A base enters only by filling a space, and while the stock lasts spaces
      are filled from the stock, so ``t_j`` and every card under it are still
      on the talon when the stock runs out (the talon loses cards only from its
      top).  From then on every card that enters is the talon's top card, so in
      a won game ``t_j, .., t_1`` are the last ``j`` cards to enter, ``t_1``
      the very last.
    * Go back from the won grid: 24 piles of four, two of each suit sequence,
      every bottom a base.  Undoing a talon build takes the top card off a
      pile.  Undoing a swap changes no pile; undoing a build that empties no
      cell moves cards between two piles of one sequence whose bottoms are
      both bases, so the sizes of that sequence's two piles are the same two
      numbers afterwards.  Every bottom stays a base.  Undoing a fill needs
      its cell to hold only the card that filled it, which is then a bottom,
      so a base.
    * So, going back, ``t_1 .. t_(j-1)`` (none a base) all came in by talon
      builds, each the top card of a pile of its sequence then; and when
      ``t_j`` came in, by a fill, its cell held ``t_j`` alone, so a pile of its
      sequence had nothing on its base.

    With each sequence's two piles as two sizes (4 at first), taking
    ``t_1 .. t_(j-1)`` off in turn and then asking for a size of 1 for
    ``t_j``'s sequence: when either step fails the position cannot be won.
    The grid plays no part.  (With spaces not filled from the talon a base on
    the talon is lost in any case; see :meth:`Bounds.lower_bound`.)
    """
    j = next((i for i in range(p) if not LEVEL_OF[seq[i]]), -1)
    if j < 0:
        return False  # no base on the talon: any of its cards may still leave before the end
    sizes: dict[int, list[int]] = {}  # by the base of each sequence
    if not _sizes_scan(seq[:j], sizes):
        return True  # a card that is not the top card of any pile of its sequence
    return 1 not in sizes.get(seq[j], (PILE_HEIGHT, PILE_HEIGHT))


NEVER: Final = 1 << 30
"""A time later than any stock card: once the stock has run out, or never."""


def bases_unmatched(tops: Sequence[int], bots: Sequence[int], seq: Sequence[int], p: int,
                    fill_talon: bool) -> bool:
    """With no redeal left: whether the bases outside the grid cannot each have a pile
    emptied for them in time, so that the position cannot be won.

    ``tops`` and ``bots`` count the grid's tops and non-base bottoms per value;
    ``seq[:p]`` is the talon from its bottom, ``seq[p:]`` the stock from its top
    ``s_1 .. s_N``.  Time counts the stock cards consumed (dealt or filled).  The
    argument, for either ``move_unit``:

    * A base enters only by filling the space an emptying build leaves, and only a
      pile with a non-base bottom is ever emptied.  Follow each such pile of now as a
      *chain*: when it is emptied, the card that fills its space is the new bottom
      there; a base ends the chain for good, any other card carries it on.  A won
      grid has a base at the bottom of all 24 piles, so in a won game every chain
      ends with a base, and every base outside comes in at the end of its own chain:
      chains and bases outside pair off one to one.
    * A chain whose bottom is ``w`` is emptied first onto a top ``w - 3``, so not
      before a copy of ``w - 3`` has come in: at once if one is a top now or lies on
      the talon, else once the stock card that is one has been consumed (time ``j``
      for ``s_j``).  A copy of ``w - 3`` serves one copy of ``w`` (it is then
      covered, and moving a pile never adds a top), so of two bottoms ``w`` the
      second waits for the second copy.  Call ``e`` the earliest such time of each
      chain; ``NEVER`` when no copy can come.
    * A stock base ``s_i`` that fills from the stock is its top card then: its
      chain's emptying comes after ``i - 1`` cards, so ``e < i``.  A base on the
      talon, or one dealt onto it, can fill only once the stock is out (and only if
      spaces are filled from the talon): time ``NEVER``, later than any ``e`` but
      ``NEVER`` itself.
    * With spaces not filled from the talon every stock base fills from the stock.
      With them filled from it and no base on the talon yet, the first base dealt
      onto it becomes its lowest, and :func:`talon_bottom_lost` must pass: the
      cards under it must read, from the bottom, as top cards coming off a won
      grid's piles, and take a pile of its own sequence down to the base.  Read the
      talon from its bottom that way; a card ``t_f`` that cannot be read must have
      left before the base is dealt, with every card above it.  A talon card leaves
      (while the stock lasts) only by a talon build: once every card above it has
      left and a copy of its predecessor is a top, so not before the time its first
      copy can come (as above), nor before that of any card above it: call it
      ``L``.  So a base ``s_i`` can be dealt only if ``L < i`` for ``t_f``, and then
      the cards of its sequence it still needs after the talon's cards below
      ``t_f`` come, in order, from the stock cards after time ``L`` and before
      ``s_i``; with no such ``t_f``, from the stock before ``s_i``.  Every stock
      base before the first one that can meet this fills from the stock.
    * The chains can be matched to the bases, each chain's ``e`` before its base's
      latest time, only if (Hall's theorem, for these nested choices) the ``k``-th
      smallest ``e`` is below the ``k``-th smallest latest time, for every ``k``.
    * The bases that must fill from the stock must also keep pace: the stock cards
      between two of them are consumed by deals of three and fills of one, none of
      which may take a base along, so some of them are filled too, each into a chain
      whose time has come, which then waits for a copy of the card its new bottom
      goes on (:func:`_fills_keep_pace`, with its argument).

    The grid plays its part only through its tops and bottoms.
    """
    n = len(seq)
    # the first and second stock times of each value, the talon's copies, the stock's bases
    first = [NEVER] * N_CARDS
    second = [NEVER] * N_CARDS
    stock_bases: list[int] = []
    level_of = LEVEL_OF
    for k in range(p, n):
        c = seq[k]
        if first[c] == NEVER:
            first[c] = k - p + 1
        else:
            second[c] = k - p + 1
        if not level_of[c]:
            stock_bases.append(k)
    on_talon = [0] * N_CARDS
    talon_bases = 0
    for k in range(p):
        c = seq[k]
        on_talon[c] += 1
        if not level_of[c]:
            talon_bases += 1
    chains: list[int] = []
    for w in NONBASE_CARDS:
        b = bots[w]
        if b:
            v = w - 3
            now = tops[v] + on_talon[v]
            chains.append(0 if now else first[v])
            if b > 1:
                chains.append(0 if now > 1 else first[v] if now else second[v])
    if len(chains) != talon_bases + len(stock_bases):
        return True  # a chain without a base, or a base without a chain
    if talon_bases and not fill_talon:
        return True  # a base on the talon never comes in
    chains.sort()
    times = [k - p + 1 for k in stock_bases]
    every = _matched(chains, times, talon_bases)  # with every stock base filled from the stock
    if not fill_talon:
        dealt = len(stock_bases)  # and so they are
    elif talon_bases:
        dealt = 0  # the talon's lowest base is there already: any stock base may wait on it
    else:
        # from the first that may be dealt on, any stock base may wait on the talon
        dealt = _first_dealable(tops, seq, p, first, on_talon, stock_bases)
    if not every and (dealt == len(stock_bases) or not _matched(
            chains, times[:dealt], talon_bases + len(stock_bases) - dealt)):
        return True
    if not dealt:
        return False
    # the fills between the bases that fill from the stock
    waits = [0] * times[dealt - 1]  # waits[t]: when the pile s_t fills may be emptied again
    for k in range(p, stock_bases[dealt - 1]):
        prev = PREV[seq[k]]
        t = k - p + 1
        if prev >= 0:
            got = 0 if tops[prev] or on_talon[prev] else first[prev]
            waits[t] = got if got > t else t
    # many positions of a search share these (a small share of them differ)
    return _fills_keep_pace(tuple(chains), tuple(times[:dealt]), tuple(waits),
                            ALIGNMENT_STEPS) is False


ALIGNMENT_STEPS: Final = 400
"""Schedules of fills :func:`_fills_keep_pace` may try before it gives up (saying
nothing)."""


class _Unsettled(Exception):
    """:func:`_fills_keep_pace` ran out of steps."""


@lru_cache(maxsize=1 << 16)
def _fills_keep_pace(chains: tuple[int, ...], times: tuple[int, ...], waits: tuple[int, ...],
                     max_steps: int) -> bool | None:
    """For :func:`bases_unmatched`: whether the stock bases at ``times``, each filled from
    the stock, and the fills of other cards that bring the stock's top to each of them,
    can all have a chain emptied in time (``chains``: the chains' times, sorted).

    Between a base filled at time ``q`` and the next at ``i``, the ``g = i - q - 1``
    cards between are consumed by deals of three and fills of one, so by ``g mod 3``
    fills, or three more, and so on.  A fill of ``s_t`` needs a chain with ``e < t``, and
    that chain's bottom is then ``s_t``: it may be emptied again only once ``t`` has
    passed and a copy of the card ``s_t`` goes on can be a top (``waits[t]``).  Every
    way of placing the fills in such a stretch starts with the fills of a way that has
    only ``g mod 3`` of them (before the first fill only deals; between the first and the
    second too), and more fills only ask for more chains, so those ways are all that is
    tried.  Chains with ``e`` past are all alike; one whose time has come goes to each
    base.  A way whose fills each leave their chain ready at once changes nothing
    further on, so when it works no other is needed.  None (nothing known) after
    ``max_steps`` schedules.
    """
    failed: set[tuple[int, tuple[int, ...]]] = set()
    steps = [max_steps]

    def fill(state: list[int], t: int) -> bool:
        if state[0] >= t:
            return False  # no chain can be emptied yet
        state[0] = waits[t]
        state.sort()
        return True

    def go(idx: int, state: tuple[int, ...]) -> bool:
        if idx == len(times):
            return not state or state[-1] < NEVER
        if (idx, state) in failed:
            return False
        steps[0] -= 1
        if steps[0] < 0:
            raise _Unsettled
        q = times[idx - 1] if idx else 0
        i = times[idx]
        deals, spare = divmod(i - q - 1, 3)
        # a way whose fills leave their chain ready at once needs only a chain ready by
        # its first fill, and then leaves every chain as ready as any way can
        first = i if spare == 0 else _latest_ready_start(q, deals, spare, waits)
        if first and state[0] < first:
            return go(idx + 1, tuple(0 if e <= i else e for e in state[1:])) or _fail(idx, state)
        if spare == 0:
            ways: list[tuple[int, ...]] = []
        elif spare == 1:
            ways = [(q + 3 * a + 1,) for a in range(deals + 1)]
        else:
            ways = [(q + 3 * a + 1, q + 3 * (a + b) + 2)
                    for a in range(deals + 1) for b in range(deals + 1 - a)]
        for way in ways:
            st = list(state)
            if not all(fill(st, t) for t in way) or st[0] >= i:
                continue
            if go(idx + 1, tuple(0 if e <= i else e for e in st[1:])):
                return True
        return _fail(idx, state)

    def _fail(idx: int, state: tuple[int, ...]) -> bool:
        failed.add((idx, state))
        return False

    # as long as a way that leaves its chains ready works, it is taken at once
    state = list(chains)
    idx = 0
    q = 0
    while idx < len(times):
        i = times[idx]
        deals, spare = divmod(i - q - 1, 3)
        start = i if spare == 0 else _latest_ready_start(q, deals, spare, waits)
        if not start or state[0] >= start:
            break
        del state[0]
        q = i
        idx += 1
    else:
        return not state or state[-1] < NEVER
    try:
        return go(idx, tuple(0 if e <= q else e for e in state))
    except _Unsettled:
        return None


def _latest_ready_start(q: int, deals: int, spare: int, waits: Sequence[int]) -> int:
    """For :func:`_fills_keep_pace`: the latest first fill of a way through the stretch
    after time ``q`` (``deals`` deals and ``spare`` fills, 1 or 2) whose every fill leaves
    its chain ready at once; 0 when there is none."""
    second = spare == 1  # a ready second fill at or after the first's place
    for a in range(deals, -1, -1):
        if not second:
            t2 = q + 3 * a + 2
            second = waits[t2] == t2
        t = q + 3 * a + 1
        if second and waits[t] == t:
            return t
    return 0


def _matched(chains: list[int], times: list[int], late: int) -> bool:
    """Whether the chains' times (sorted) each fall before a base's latest time: ``times``
    (ascending) and ``late`` more at ``NEVER``, the ``k``-th chain with the ``k``-th."""
    k = 0
    for i in times:
        if chains[k] >= i:
            return False
        k += 1
    return all(e < NEVER for e in chains[k:])


def _first_dealable(tops: Sequence[int], seq: Sequence[int], p: int, first: list[int],
                    on_talon: list[int], stock_bases: list[int]) -> int:
    """For :func:`bases_unmatched`, with no base on the talon: the index in
    ``stock_bases`` of the first stock base that may be dealt onto the talon as its
    lowest base (``len(stock_bases)`` when none may)."""
    # the talon read from its bottom as the last cards of a won game, up to the lowest
    # card that cannot be one: that card must leave, with all above it, before the base
    sizes: dict[int, list[int]] = {}
    failing = next((m for m in range(p) if not _sizes_scan(seq[m:m + 1], sizes)), -1)
    start = p
    if failing >= 0:
        # not before a copy of the card each card from there up goes on can be a top (L)
        leaves = 0
        for m in range(failing, p):
            prev = PREV[seq[m]]
            if not (tops[prev] or on_talon[prev]) and first[prev] > leaves:
                leaves = first[prev]
        if leaves >= NEVER:
            return len(stock_bases)
        start = p + leaves  # the talon was empty down to there at that time
    # the cards of each sequence, read from ``start`` on, take which of its piles how far
    wanted: dict[int, list[list[int]]] = {}
    level_of = LEVEL_OF
    last = stock_bases[-1] if stock_bases else -1
    for k in range(start, last + 1):
        c = seq[k]
        level = level_of[c]
        base = c - 3 * level
        piles = wanted.get(base)
        if piles is None:
            piles = wanted[base] = [
                [base + 3 * lv for lv in range(1, size)]
                for size in sizes.get(base, (PILE_HEIGHT, PILE_HEIGHT))]
        if level:
            for need in piles:
                if need and need[-1] == c:
                    need.pop()
        elif k >= p and any(not need for need in piles):
            return stock_bases.index(k)
    return len(stock_bases)


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


class Bounds(Generic[G]):
    """The lower bounds of one search's rules; the grids are of one kind, :data:`G`."""

    def __init__(self, rules: Rules) -> None:
        self.fill_talon = rules.fill_from_talon
        self.unlimited = rules.redeals is None
        self.redeals_max = rules.redeals
        self._counts_cache: dict[G, tuple[list[int], list[int], list[int]]] = {}

    def tops_bottoms(self, g: G) -> tuple[int, int]:
        """The grid's top values (bit ``2c`` each) and its non-base bottoms (2-bit
        counters)."""
        raise NotImplementedError

    def value_counts(self, g: G) -> tuple[list[int], list[int]]:
        """Per value: the tops and the non-base bottoms of the grid."""
        raise NotImplementedError

    def piles(self, g: G) -> int:
        """The number of piles (occupied cells) of the grid."""
        raise NotImplementedError

    def lower_bound(self, g: G, seq: list[int], seqcount: int, p: int, r: int,
                    best: int) -> int:
        """Cards of ``seq`` that provably never enter: a lower bound on the final score.

        ``seqcount`` is the multiset of ``seq`` in 2-bit counters, ``p`` the cut and
        ``r`` the redeals done.  Once a part of the bound reaches ``best`` (the
        score to beat) the rest may be skipped.
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
        * Also with no redeal left, when spaces are filled from the talon: the
          cards under the talon's lowest base are the last to enter, and in a
          won game they can only be certain cards in a certain order
          (:func:`talon_bottom_lost`); when they are not, at least one card
          stays out.  When only a win is asked (``best <= 1``) that settles the
          position at once.
        * Also with no redeal left, when only a win is asked and the rest says
          nothing: every base outside needs a pile of its own emptied for it, in
          time (:func:`bases_unmatched`); when they cannot all have one, at least
          one card stays out.
        """
        n = len(seq)
        if not n:
            return 0
        tops, bcount = self.tops_bottoms(g)
        fixed = not self.unlimited and r >= (self.redeals_max or 0)
        if not fixed or not p:
            pending = nonzero(seqcount)
            # could a space ever be filled?
            fill_source = p < n or (p > 0 and (self.fill_talon or self._redeal_left(r)))
            reach = tops
            live = 0
            while True:
                grow = pending & (reach << 6) & NONBASE
                if grow:
                    reach |= grow
                    pending &= ~grow
                    continue
                if not fill_source:
                    break
                live = count(bcount & ((reach << 6) * 3))
                if not live or not pending:
                    break
                reach |= pending  # any card of seq may fill a space
                pending = 0
            ok = (reach << 6) & NONBASE  # cards whose predecessor may be a top
            bound = count(seqcount & ~(ok * 3)) - live
            if self.piles(g) == GRID_SIZE:
                return bound  # the counting bound is 0 then (:meth:`_count_bound`)
            return max(bound, self._count_bound(g, seq, p, False))
        # no redeal left: the talon is a stack, entered only from its top
        bottom_lost = self.fill_talon and p > 0 and talon_bottom_lost(seq, p)
        if bottom_lost and best <= 1:
            return 1  # not every card enters, and a win is all that is asked: no more to count
        counted = self._count_bound(g, seq, p, True)
        if counted >= best:
            return counted  # the cheapest test that settles most nodes
        if bottom_lost:
            counted = max(counted, 1)  # not every card enters: the score is at least 1
            if counted >= best:
                return counted
        stock_pending = 0
        for c in seq[p:]:
            stock_pending |= TOP_FIELD[c]
        above = above_all = stock_pending
        fill_talon = self.fill_talon
        reach = tops
        live = 0
        fills = False  # may a space be filled?
        i = p - 1  # the topmost talon card the scan has not let in
        while True:
            changed = False
            grow = stock_pending & (reach << 6) & NONBASE
            if grow:
                reach |= grow
                stock_pending &= ~grow
                changed = True
            while i >= 0:
                bit = TOP_FIELD[seq[i]]
                if not (fills and fill_talon) and not ((reach << 6) & NONBASE & bit):
                    break
                reach |= bit
                i -= 1
                changed = True
            if not fills and (p < n or fill_talon):
                live = count(bcount & ((reach << 6) * 3))
                if live:
                    fills = True
                    reach |= stock_pending  # a stock card may fill a space
                    stock_pending = 0
                    changed = True
            if not changed:
                break
        if fills:
            live = count(bcount & ((reach << 6) * 3))
        ok = (reach << 6) & NONBASE  # cards whose predecessor may be a top
        # the talon under ``i`` never comes in; under the (live + 1)-th fill-only
        # talon card from the top neither, nor under a card that needs a fill
        # when no fill from the talon can happen
        cut = i
        chains = live if fill_talon else 0
        uses = 0
        for j in range(p - 1, cut, -1):
            c = seq[j]
            bit = TOP_FIELD[c]
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
            dead = count(seqcount & ~(ok * 3))
        else:
            dead = sum(1 for c in seq[cut + 1:] if not (ok >> (2 * c)) & 1)
        bound = cut + 1 + max(0, dead - live)
        # the talon cards under a card that waits for too many fills stay out too,
        # and the fill-only cards above them still need live cells (disjoint sets)
        stuck = self._stack_bound(seq, tops, bcount, p)
        if stuck > cut + 1:
            dead = sum(1 for c in seq[stuck:] if not (ok >> (2 * c)) & 1)
            bound = max(bound, stuck + max(0, dead - live))
        bound = max(bound, counted)
        if n - p <= TALON_BOUND_STOCK:
            bound = max(bound, self._talon_bound(seq, tops | above_all, bcount, p))
        if not bound and best <= 1:
            # a win is all that is asked (else the test costs more time than it saves)
            tops_counts, bots_counts, _ = self._grid_counts(g)
            if bases_unmatched(tops_counts, bots_counts, seq, p, fill_talon):
                return 1  # not every base can have its pile emptied in time
        return bound

    def _count_bound(self, g: G, seq: list[int], p: int, fixed: bool) -> int:
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

        With every cell occupied, ``D(seq)`` is 0 and the bound says nothing.  A
        grid card is a bottom or lies on a copy of its predecessor, so of the two
        copies of ``w - 3``, those covered lie under copies of ``w`` that are
        neither bottoms nor out: ``top_(w-3) + e_(w-3) - e_w = 2 - covered_(w-3)
        - e_w >= bot_w``, and every non-base term is ``bot_w``.  The base terms
        add to minus the bases out, which are the 24 bases less the base
        bottoms; the non-base bottoms are the 24 cells less the base bottoms.

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
        if fixed and p:
            tops, bots, base_terms = self._grid_counts(g)
            cut, rest = self._count_cut(seq, p, tops, bots, base_terms)
            if rest is not None:
                return cut + 1 + max(0, -rest)
        else:
            tops, bots = self.value_counts(g)
            cut = -1
        cnt = [0] * N_CARDS
        for c in seq[cut + 1:]:
            cnt[c] += 1
        return cut + 1 + max(0, -sum(_count_terms(tops, bots, cnt)))

    def _grid_counts(self, g: G) -> tuple[list[int], list[int], list[int]]:
        """Per value: the tops, the non-base bottoms, and the terms of
        :meth:`_count_bound` with no card entered (a small cache by grid)."""
        cache = self._counts_cache
        got = cache.get(g)
        if got is not None:
            return got
        tops: list[int]
        bots: list[int]
        tops, bots = self.value_counts(g)
        # with no card entered the term of w is min(bots[w], tops[w - 3]); a base
        # has no bottoms counted, so its term is 0 whatever tops[w - 3] reads
        below = [0, 0, 0, *tops[:-3]]
        got = (tops, bots, [b if b < t else t for b, t in zip(bots, below, strict=True)])
        if len(cache) >= COUNTS_CACHE:
            cache.clear()
        cache[g] = got
        return got

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
        for w in NONBASE_CARDS:
            room[w] = tops[w - 3]
        for i in range(j + 1, p):
            c = seq[i]
            present[c] = True
            if level_of[c] < 3:
                room[c + 3] += 1
        for i in range(p, m):
            present[seq[i]] = True
        total = 0
        for w in NONBASE_CARDS:
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

    def _stack_bound(self, seq: list[int], tops: int, bcount: int, p: int) -> int:
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
                talon_need += TOP_FIELD[x - 3]
                if ((talon_seen | stock_seen) >> (2 * x - 6)) & 1:
                    # t_(j-1)'s least m serves: S only grew, and t_j is not blocked
                    talon_seen |= TOP_FIELD[x]
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
                    blocked = (talon_bases + count(talon_need & miss) + s_bases
                               + count(s_need & miss))
                    if blocked == 0 or blocked <= count(bcount & ((seen << 6) * 3)):
                        break
                    failed = seen
                if m == n:
                    return j + 1
                y = seq[m]
                s_seen |= TOP_FIELD[y]
                if LEVEL_OF[y]:
                    s_need += TOP_FIELD[y - 3]
                else:
                    s_bases += 1
                m += 1
            m0, stock_seen, stock_need, stock_bases = m, s_seen, s_need, s_bases
            talon_seen |= TOP_FIELD[x]
            if m0 == n:
                return self._stack_tail(seq, j, talon_seen | stock_seen, talon_need + stock_need,
                                        talon_bases + stock_bases, bcount)
        return 0

    def _stack_tail(self, seq: list[int], j: int, seen: int, need: int, bases: int,
                    bcount: int) -> int:
        """:meth:`_stack_bound` for ``seq[j - 1]`` on down, once ``m`` is the whole stock.

        The same test, counted as it goes: ``seen`` is ``S``, ``need`` the
        non-base cards of the talon above ``seq[j - 1]`` and of the stock as
        counters at their predecessors, ``bases`` their bases.
        """
        fill = self.fill_talon
        blocked = bases + count(need & ~(seen * 3))
        live = count(bcount & ((seen << 6) * 3))
        for i in range(j - 1, -1, -1):
            x = seq[i]
            if LEVEL_OF[x]:
                need += TOP_FIELD[x - 3]
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
                seen |= TOP_FIELD[x]
                blocked -= (need >> (2 * x)) & 3
                if LEVEL_OF[x] < 3:
                    live += (bcount >> (2 * x + 6)) & 3
        return 0

    def _talon_bound(self, seq: list[int], seen: int, bcount: int, p: int) -> int:
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
        fill = self.fill_talon
        ready = bcount & ((seen << 6) * 3)  # bottoms whose predecessor is in S
        spare = count(ready)
        waiting = bcount & ~ready
        for i in range(p - 1, -1, -1):
            x = seq[i]
            prev = PREV[x]
            if prev < 0 or not (seen >> (2 * prev)) & 1:
                if not (fill and spare):
                    return i + 1
                spare -= 1
                if prev >= 0:
                    waiting += TOP_FIELD[x]
            bit = TOP_FIELD[x]
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


class RunBounds(Bounds[RunGrid]):
    """The bounds of a ``run``-mode search."""

    tops_bottoms = staticmethod(run_tops_bottoms)
    value_counts = staticmethod(run_value_counts)

    def piles(self, g: RunGrid) -> int:
        return count(g & TOPS_MASK)


class CardBounds(Bounds[CardGrid]):
    """The bounds of a ``card``-mode search (the same relaxation: see
    :meth:`Bounds.lower_bound`)."""

    tops_bottoms = staticmethod(card_tops_bottoms)
    value_counts = staticmethod(card_value_counts)

    def piles(self, g: CardGrid) -> int:
        return len(g)

