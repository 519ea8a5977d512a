"""Lower bounds on the final score: the cards of ``seq`` that provably never enter.

The search prunes a position whose bound cannot beat the best line found. Each
bound is proven in [lower bounds][lower-bounds] (docs/solver.md), for any rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final, Generic

from devilsgrip.cards import GRID_SIZE, LEVEL_OF, N_CARDS, PREV
from devilsgrip.rules import Rules
from devilsgrip.solver.grids import (
    LOW_BITS,
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

    ``seq[:p]`` is the talon from its bottom.
    Proof: [the talon-bottom lemma][talon-bottom-lemma] (docs/solver.md).
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

    ``tops`` and ``bots`` count the grid's tops and non-base bottoms per value; ``seq[:p]``
    is the talon from its bottom, ``seq[p:]`` the stock from its top.
    Proof: [a pile for every base][bases-unmatched] (docs/solver.md).
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

    None (nothing known) after ``max_steps`` schedules.
    Proof: [the bases that fill from the stock keep pace][fills-keep-pace] (docs/solver.md).
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


BASE_LOW: Final = LOW_BITS & ~NONBASE
"""The low bit of the counter of each base."""


def any_light(out: int) -> bool:
    """Whether some chain (one suit of one sequence: eight cards) has a copy of each of its
    four ranks outside the grid; ``out`` holds the low bit of each card with a copy outside.

    A chain's cards are ``c``, ``c + 3``, ``c + 6`` and ``c + 9`` from its base ``c``.
    A grid build can empty a cell only while some chain is light, and a chain that is not
    light never becomes light again: when none is, no space is ever made, so no base
    enters and no card fills a space.  Proof: [light chains][light-chains]
    (docs/solver.md).
    """
    return bool(out & (out >> 6) & (out >> 12) & (out >> 18) & BASE_LOW)


def light_front(seq: Sequence[int], seqcount: int, p: int, draw: int) -> int:
    """Bases second or third in ``seq`` that provably never enter, while some chain is
    light (see :func:`any_light`): dealing in threes with the cut ``p`` neither 1 nor 2,
    such a base enters only after the first card of ``seq`` (the third only after the
    second too); if those entries leave no chain light, no space is made after them, and
    the base never enters.  Proof: [light chains][light-chains] (docs/solver.md).
    """
    n = len(seq)
    if draw != 3 or p in (1, 2) or n < 2:
        return 0
    left = seqcount - TOP_FIELD[seq[0]]
    if not any_light(nonzero(left)):
        return (not LEVEL_OF[seq[1]]) + (n > 2 and not LEVEL_OF[seq[2]])
    if n > 2 and not LEVEL_OF[seq[2]] and not any_light(nonzero(left - TOP_FIELD[seq[1]])):
        return 1
    return 0


class Bounds(Generic[G]):
    """The lower bounds of one search's rules; the grids are of one kind, :data:`G`."""

    def __init__(self, rules: Rules) -> None:
        self.fill_talon = rules.fill_from_talon
        self.unlimited = rules.redeals is None
        self.redeals_max = rules.redeals
        self.draw = rules.draw
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

        ``seqcount`` is the multiset of ``seq`` in 2-bit counters, ``p`` the cut and ``r`` the
        redeals done; once a part reaches ``best`` the rest may be skipped.
        Proof: [lower bounds][lower-bounds] (docs/solver.md).
        """
        n = len(seq)
        if not n:
            return 0
        tops, bcount = self.tops_bottoms(g)
        fixed = not self.unlimited and r >= (self.redeals_max or 0)
        if not fixed or not p:
            pending = nonzero(seqcount)
            # could a space ever be filled?  Not once no chain is light: no space is made
            no_space = not any_light(pending)
            fill_source = not no_space and (
                p < n or (p > 0 and (self.fill_talon or self._redeal_left(r))))
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
            if not no_space and bound < best:
                bound = max(bound, light_front(seq, seqcount, p, self.draw))
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

        Proof: [the counting bound][counting-bound] (docs/solver.md).
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

        Part of :meth:`_count_cut`.
        Proof: [the stock's fills keep pace][count-cut-prefix] (docs/solver.md).
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

        ``tops`` has bit ``2c`` set for each top value, ``bcount`` holds the non-base bottoms
        in 2-bit counters. Proof: [the stack bound][stack-bound] (docs/solver.md).
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

        ``seen`` has bit ``2c`` set for each value that is a top now or a card of the stock;
        ``bcount`` holds the non-base bottoms in 2-bit counters.
        Proof: [the talon bound][talon-bound] (docs/solver.md).
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

