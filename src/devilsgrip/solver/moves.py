"""The search's moves: macro moves, the cuts they are made at, and the children of a position.

The cards outside the grid form one fixed sequence ``seq`` (the talon from its
bottom, then the stock from its top) cut at ``p = len(talon)``.  Deals and
redeals only move the cut, and an entering move deletes one card of ``seq``,
so the search plays *macro moves*: "move the cut to ``q`` (dealing, redealing
if needed), then make a card enter" (:mod:`devilsgrip.solver.search`).
"""

from __future__ import annotations

from typing import Final, TypeVar

from devilsgrip.cards import LEVEL_OF, N_CARDS, PREV
from devilsgrip.solver.grids import (
    B_SHIFT,
    BIT_CARD,
    BOTTOM_FIELD,
    NONBASE,
    TOP_FIELD,
    TOPS_MASK,
    CardGrid,
    RunGrid,
    nonzero,
    pile_code,
)

TALON: Final = 0
"""A talon build."""
EMPTY: Final = 1
"""A grid build that empties its source; the space is filled."""
PEEL: Final = 2
"""A ``card``-mode grid build that leaves its source non-empty (no card enters)."""


MacroMove = tuple[int, int, int, int]
"""``(cut, kind, a, b)``: move the cut to ``cut``, then make a move of ``kind``.

``TALON``: ``a`` the target pile (``card`` mode, else -1).  ``EMPTY``: ``a``
the source pile's bottom (``run`` mode) or pile (``card`` mode), ``b`` the
target pile (``card`` mode, else -1).  ``PEEL``: ``a`` source pile, ``b``
target pile.  A pile is a :func:`~devilsgrip.solver.grids.pile_code`.

Macro moves and children are plain tuples, made by the thousand for each
position: as ``NamedTuple`` values they made small ``classic`` solves 1.4 to
1.8 times slower (``tests/solver/test_fixed_budget.py``'s cases, timed).
"""

G = TypeVar("G", RunGrid, CardGrid)
"""A grid of either kind."""

Child = tuple[MacroMove, G, int, int, int]
"""``(move, grid, cut, redeals, card_index)``: a position after a macro move, its
grid, cut and redeals done, and the index in ``seq`` of the card that entered
(-1 for a peel)."""

Cut = tuple[int, int]
"""A cut reachable by deals and redeals alone, and the redeals done there."""


def reachable_cuts(p: int, n: int, r: int, draw: int, redeals: int | None) -> list[Cut]:
    """Cuts reachable from cut ``p`` of ``n`` by deals and redeals alone (``r`` redeals
    done of ``redeals``, None for unlimited), with the redeals done there."""
    chain = [*list(range(p, n, draw)), n]
    out = [(q, r) for q in chain]
    if n == 0:
        return out
    if p and (redeals is None or r < redeals):
        stop = p if p % draw == 0 else n
        out += [(q, r + 1) for q in range(0, stop, draw)]
    return out


def fill_index(q: int, n: int, fill_talon: bool) -> int:
    """The index in ``seq`` of the card that fills a space made at cut ``q`` (the top
    of the stock, else the top of the talon when the rules fill from it), or -1."""
    if q < n:
        return q
    if fill_talon and q > 0:
        return q - 1
    return -1


def run_emptiable(g: RunGrid) -> int:
    """The low bit of the counter of each non-base bottom value of ``g`` whose pile can be
    moved whole onto a top now (a top three below it, of its suit)."""
    tops = nonzero(g & TOPS_MASK)
    bottoms = nonzero(g >> B_SHIFT) & NONBASE
    return bottoms & (tops << 6)


def run_children(g: RunGrid, seq: list[int], r: int, n: int, cuts: list[Cut],
                 fill_talon: bool) -> list[Child[RunGrid]]:
    """The children of a ``run``-mode position at ``cuts``: talon builds and fills of
    bases first, then the other fills."""
    emptiable = run_emptiable(g)
    sources: list[int] = []
    while emptiable:
        low = emptiable & -emptiable
        sources.append(BIT_CARD[low])
        emptiable ^= low
    firsts: list[Child[RunGrid]] = []
    out: list[Child[RunGrid]] = []
    for q, rq in cuts:
        if q > 0:
            c = seq[q - 1]
            prev = PREV[c]
            if prev >= 0 and (g >> (2 * prev)) & 3:
                g2 = g - TOP_FIELD[prev] + TOP_FIELD[c]
                firsts.append(((q, TALON, -1, -1), g2, q - 1, rq, q - 1))
        if sources:
            i = fill_index(q, n, fill_talon)
            if i < 0:
                continue
            f = seq[i]
            add = TOP_FIELD[f] + BOTTOM_FIELD[f]
            for b in sources:
                g2 = g - TOP_FIELD[b - 3] - BOTTOM_FIELD[b] + add
                child = ((q, EMPTY, b, -1), g2, i, rq, i)
                if LEVEL_OF[f] == 0:
                    firsts.append(child)
                else:
                    out.append(child)
    return firsts + out


def card_children(g: CardGrid, seq: list[int], p: int, r: int, n: int, cuts: list[Cut],
                  fill_talon: bool) -> list[Child[CardGrid]]:
    """The children of a ``card``-mode position: the entering moves at ``cuts``, then
    the peels (made at the cut ``p`` itself)."""
    piles = g
    out: list[Child[CardGrid]] = []
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
                rest += [pile_code(pile // N_CARDS, prev), pile_code(tgt // N_CARDS, t)]
                out.append(((p, PEEL, pile, tgt), tuple(sorted(rest)), p, r, -1))
    entering: list[Child[CardGrid]] = []
    for q, rq in cuts:
        if q > 0:
            c = seq[q - 1]
            prev = PREV[c]
            if prev >= 0 and prev in by_top:
                for tgt in dict.fromkeys(by_top[prev]):
                    rest = list(piles)
                    rest.remove(tgt)
                    rest.append(pile_code(tgt // N_CARDS, c))
                    entering.append(((q, TALON, tgt, -1), tuple(sorted(rest)),
                                          q - 1, rq, q - 1))
        if singles:
            i = fill_index(q, n, fill_talon)
            if i < 0:
                continue
            f = seq[i]
            for src, targets in singles:
                t = src % N_CARDS
                for tgt in targets:
                    rest = list(piles)
                    rest.remove(src)
                    rest.remove(tgt)
                    rest += [pile_code(tgt // N_CARDS, t), pile_code(f, f)]
                    entering.append(((q, EMPTY, src, tgt), tuple(sorted(rest)),
                                          i, rq, i))
    return entering + out


def safe_at(g: RunGrid, seq: list[int], seqcount: int, q: int) -> bool:
    """Whether the talon build of ``seq[q - 1]`` is safe, with no redeal left
    (:meth:`~devilsgrip.solver.search.RunSearch._safe_build` says why).  ``seqcount``
    is the multiset of ``seq`` in 2-bit counters."""
    if not q:
        return False
    c = seq[q - 1]
    prev = PREV[c]
    if prev < 0:
        return False
    covered = (g >> (2 * prev)) & 3
    return covered == 2 or (covered == 1 and (seqcount >> (2 * c)) & 3 == 1
                            and not (g >> (B_SHIFT + 2 * c)) & 3)


def safe_child(g: RunGrid, seq: list[int], q: int, r: int) -> Child[RunGrid]:
    """The child of the talon build at cut ``q``."""
    c = seq[q - 1]
    return ((q, TALON, -1, -1), g - TOP_FIELD[PREV[c]] + TOP_FIELD[c], q - 1, r,
                 q - 1)
