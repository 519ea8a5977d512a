"""The search's quick lines: greedy playouts, and with no redeal left a beam through the pass.

Both only improve the incumbent line of the exhaustive search they take turns
with (:meth:`~devilsgrip.solver.search.Search.run`): neither proves anything,
so neither can change a proven result.
"""

from __future__ import annotations

import random
import time
from typing import Final

from devilsgrip.cards import LEVEL_OF, PREV
from devilsgrip.solver.grids import (
    B_SHIFT,
    BIT_CARD,
    BOTTOM_FIELD,
    NONBASE,
    TOP_FIELD,
    TOPS_MASK,
    RunGrid,
    nonzero,
)
from devilsgrip.solver.moves import EMPTY, TALON, Child, Cut, G, MacroMove, fill_index
from devilsgrip.solver.search import Search

KEY_CLASS_SHIFT: Final = 10
"""A playout candidate's key is its class shifted by this, plus a tie-break below."""
TIE_MAX: Final = (1 << KEY_CLASS_SHIFT) - 1
"""The largest tie-break a key holds under its class."""
REJECTED: Final = 1 << 30
"""The key of a candidate a playout has tried and put aside."""
WIDE_CHOICE: Final = 0.25
"""How often a playout after the first picks among the moves near the best class."""
WIDE_CLASSES: Final = 2
"""How many key classes worse than the best such a pick may take."""
PLAYOUT_MAX_STEPS: Final = 400
"""A playout stops after this many moves (a pass of 96 cards needs far fewer)."""
PLAYOUT_SEED_FACTOR: Final = 7919
"""A prime mixing the sequence's length into a turn's random seed."""
BEAM_CLOCK_EVERY: Final = 256
"""The beam reads the clock once in this many states (a power of 2)."""

Talon = tuple[int, ...]


Candidate = tuple[int, MacroMove, G | None, int, int, int]
"""``(key, move, grid, cut, redeals, card_index)``: an entering move for a playout,
its ordering ``key`` and its child, whose grid is None in ``run`` mode (worked
out only for the move taken).  A plain tuple, as children are."""


class PlayoutSearch(Search[G]):
    """A search that takes turns with playouts (:meth:`_probe`) or, with no redeal
    left, a beam (:meth:`_beam`)."""

    def _candidates(self, g: G, p: int, r: int, n: int) -> list[Candidate[G]]:
        """The entering moves for a playout, lower keys first; a heuristic only:
        it orders, never prunes."""
        raise NotImplementedError

    def _children(self, g: G, seq: list[int], p: int, r: int, n: int,
                  cuts: list[Cut]) -> list[Child[G]]:
        """The children of a position of the sequence ``seq``."""
        raise NotImplementedError

    def _safe_build(self, g: G, seq: list[int], seqcount: int, p: int,
                    r: int) -> list[Child[G]] | None:
        """The one child worth trying when a talon build provably loses nothing, else None."""
        return None

    def _probe(self, budget: int | None = None) -> None:
        """Greedy playouts: they find most wins long before the exhaustive search.

        They only improve the incumbent line, so no proven result depends on them;
        ``budget`` caps the nodes (playout steps) spent. See [playouts][playouts] (docs/solver.md).
        """
        rng = random.Random(len(self.seq) * PLAYOUT_SEED_FACTOR + self.p0 + (budget or 0))
        seq = self.seq
        orig = self.orig
        applied = self._applied
        stop = None if budget is None else self.nodes + budget
        for i in range(self.rollouts):
            g, p, r, mask = self.grid0, self.p0, self.r0, self.mask0
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
                if not cands or steps > PLAYOUT_MAX_STEPS:
                    break
                keys = [c[0] for c in cands]
                chosen: tuple[MacroMove, G, int, int, int] | None = None
                while True:
                    low = min(keys)
                    if low >= REJECTED:
                        break
                    if i and rng.random() < WIDE_CHOICE:
                        wide = (low >> KEY_CLASS_SHIFT) + WIDE_CLASSES
                        pool = [j for j, k in enumerate(keys) if k >> KEY_CLASS_SHIFT <= wide]
                    else:
                        pool = [j for j, k in enumerate(keys) if k == low]
                    j = pool[rng.randrange(len(pool))] if i else pool[0]
                    keys[j] = REJECTED
                    _, mv, g2, p2, r2, idx = cands[j]
                    if g2 is None:
                        g2 = self._entered(g, mv, seq[idx])
                    card = seq.pop(idx)
                    self.seqcount -= TOP_FIELD[card]
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
            self._unwind()
            if (self.best <= self.floor or self._out_of_time()
                    or (stop is not None and self.nodes >= stop)):
                break

    def _entered(self, g: G, mv: MacroMove, card: int) -> G:
        """The grid after ``mv`` brings ``card`` in, for a candidate left without one."""
        raise NotImplementedError

    def _out_of_time(self) -> bool:
        return time.perf_counter() > self.deadline or (
            self.max_nodes is not None and self.nodes > self.max_nodes)

    def _beam(self, width: int) -> None:
        """Beam search through the rest of the pass (no redeal left): it finds far
        better lines than the playouts there, and only improves the incumbent.

        See [beam search through the last pass][beam-search] (docs/solver.md).
        """
        stock = self.seq[self.p0:]
        n_stock = len(stock)
        r = self.r0
        k = self.k
        bounds = self.bounds
        layers: dict[int, dict[tuple[G, Talon], tuple[MacroMove, ...]]] = {
            0: {(self.grid0, tuple(self.seq[:self.p0])): ()}}
        for s in range(n_stock + 1):
            layer = layers.pop(s, None)
            if not layer:
                continue
            rest = stock[s:]
            rest_count = sum(TOP_FIELD[c] for c in rest)
            talon_counts: dict[Talon, int] = {}  # many states share a talon
            fills: dict[tuple[G, Talon], list[tuple[G, MacroMove]]] = {}
            dominated: set[tuple[G, Talon]] = set()
            work = list(layer)
            path: tuple[MacroMove, ...]
            tal: Talon
            while work:
                state = work.pop()
                g, tal = state
                path = layer[state]
                p = len(tal)
                seq, seqcount = _sequence(tal, rest, rest_count, talon_counts)
                out = fills[state] = []
                safe = self._safe_build(g, seq, seqcount, p, r) if p else None
                if safe is not None:
                    dominated.add(state)  # its safe build's child is as good
                for mv, g2, _p2, _r2, i in safe or self._children(
                    g, seq, p, r, len(seq), [(p, r)]
                ):
                    if i >= p:  # a fill from the stock
                        out.append((g2, mv))
                        continue
                    child = (g2, tal if i < 0 else tal[:i] + tal[i + 1:])
                    if child not in layer:
                        layer[child] = (*path, mv)
                        work.append(child)
            ranked: list[tuple[int, int, tuple[G, Talon]]] = []
            for state, path in layer.items():
                if state in dominated:
                    continue
                g, tal = state
                self.nodes += 1
                if self.nodes & (BEAM_CLOCK_EVERY - 1) == 0:
                    self._check_time()
                left = len(tal) + len(rest)
                if left < self.best:
                    self.best = left
                    self.best_path = list(path)
                seq, seqcount = _sequence(tal, rest, rest_count, talon_counts)
                lb = bounds.lower_bound(g, seq, seqcount, len(tal), r, self.best)
                if lb < self.best:
                    ranked.append((lb + len(tal), lb, state))
            if not rest:
                break
            ranked.sort(key=lambda x: (x[0], x[1]))  # ties keep their order
            dealt: list[int] = rest[:k]
            for _, _, state in ranked[:width]:
                g, tal = state
                path = layer[state]
                for g2, mv in fills[state]:
                    layers.setdefault(s + 1, {}).setdefault((g2, tal), (*path, mv))
                layers.setdefault(s + len(dealt), {}).setdefault((g, (*tal, *dealt)), path)


def _sequence(tal: Talon, rest: list[int], rest_count: int,
              talon_counts: dict[Talon, int]) -> tuple[list[int], int]:
    """The sequence of the talon ``tal`` then the stock ``rest`` (whose counters are
    ``rest_count``), and its counters; ``talon_counts`` keeps the talons' counters."""
    count = talon_counts.get(tal)
    if count is None:
        count = talon_counts[tal] = sum(TOP_FIELD[c] for c in tal)
    return [*tal, *rest], count + rest_count


def run_candidates(g: RunGrid, seq: list[int], n: int, cuts: list[Cut], unlimited: bool,
                   fill_talon: bool) -> list[Candidate[RunGrid]]:
    """The entering moves of a ``run``-mode position for a playout, at ``cuts``.

    ``key >> KEY_CLASS_SHIFT`` is the key class.  With unlimited redeals:
    talon builds first (class 0), then fills that bring in a base (1: a base
    can come in no other way), then fills of a card whose predecessor is a top
    (2: the cell stays live), then other fills (4); 3 more when the move
    covers the last top that a grid bottom (the other copy of the card put on
    it) still needs.  With redeals limited, where every deal buries talon
    cards: talon builds and base fills (class 0) before other fills (1),
    nearer cuts first.
    """
    tops = nonzero(g & TOPS_MASK)
    emptiable = nonzero(g >> B_SHIFT) & NONBASE & (tops << 6)
    sources: list[tuple[int, int, bool, int]] = []
    while emptiable:
        low = emptiable & -emptiable
        b = BIT_CARD[low]
        # the source's bottom, the top it covers, whether that is the last such
        # top, and how many piles have this bottom
        sources.append((b, b - 3, (g >> (2 * b - 6)) & 3 == 1,
                        (g >> (B_SHIFT + 2 * b)) & 3))
        emptiable ^= low
    out: list[Candidate[RunGrid]] = []
    append = out.append
    for ci, (q, rq) in enumerate(cuts):
        tie = 0 if unlimited else min(ci, TIE_MAX)
        if q > 0:
            c = seq[q - 1]
            prev = PREV[c]
            if prev >= 0 and (g >> (2 * prev)) & 3:
                key = 0
                if unlimited and (g >> (2 * prev)) & 3 == 1 and (g >> (B_SHIFT + 2 * c)) & 3:
                    key = 3
                append((key << KEY_CLASS_SHIFT | tie, (q, TALON, -1, -1), None, q - 1, rq,
                        q - 1))
        if sources:
            i = fill_index(q, n, fill_talon)
            if i < 0:
                continue
            f = seq[i]
            if not unlimited:
                key = (0 if not LEVEL_OF[f] else 1) << KEY_CLASS_SHIFT | tie
                for src in sources:
                    append((key, (q, EMPTY, src[0], -1), None, i, rq, i))
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
                append((key << KEY_CLASS_SHIFT, (q, EMPTY, b, -1), None, i, rq, i))
    return out


def run_entered(g: RunGrid, mv: MacroMove, card: int) -> RunGrid:
    """The ``run``-mode grid after ``mv`` brings ``card`` in."""
    _, kind, a, _ = mv
    if kind == TALON:
        return g - TOP_FIELD[PREV[card]] + TOP_FIELD[card]
    return g - TOP_FIELD[a - 3] - BOTTOM_FIELD[a] + TOP_FIELD[card] + BOTTOM_FIELD[card]
