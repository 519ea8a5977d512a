"""Can this deal be won?  A search for the win alone, with no redeal left.

:func:`prove_winnable` answers with a winning line or a proof of loss
(:class:`LossCertificate`, re-checked by :func:`check_certificate`). Its proofs:
[the monotone relaxation][monotone-relaxation] (docs/solver.md) and
[the exact win search][exact-win-search] (docs/solver.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Generic

from devilsgrip.cards import LEVEL_OF, N_CARDS, PREV, card_code
from devilsgrip.game import Game, Move
from devilsgrip.solver import core
from devilsgrip.solver.bounds import bases_unmatched, talon_bottom_lost
from devilsgrip.solver.clairvoyant import CardSearch, RunSearch, use_compiled
from devilsgrip.solver.grids import TOP_FIELD, CardGrid, RunGrid
from devilsgrip.solver.limits import TimeUp
from devilsgrip.solver.lines import realize
from devilsgrip.solver.moves import Cut, G
from devilsgrip.solver.search import NOTHING_TAKEN, Search, shed

WON: Final = "won"
LOST: Final = "lost"
UNKNOWN: Final = "unknown"

RELAXATION_NODES: Final = 200_000
"""Nodes the relaxation may spend on the root position."""
NODE_RELAXATION_NODES: Final = 0
"""Nodes the relaxation may spend on each position of the exact search: none by
default, as on the deals measured it ended few branches the lower bound had not
and cost more time than it saved."""
DEAD_ENTRIES: Final = 8_000_000
"""Positions proven lost that the exact search keeps (about 250 bytes each in the pure core,
2 GB at most; 48-byte slots, at most three quarters full, in the compiled core's table).  The
compiled core, at about a million nodes a second, keeps about a third of its nodes: on
the open single-pass deals the table fills after 20 to 25 million nodes, and then keeps
the positions nearest the root (:func:`~devilsgrip.solver.search.shed`)."""

# loss certificate reasons
BASE_ON_TALON: Final = "base-on-talon"
UNDER_STUCK_CARD: Final = "under-stuck-card"
RELAXATION_LOST: Final = "relaxation-lost"
TALON_BOTTOM: Final = "talon-bottom"
BASES_UNMATCHED: Final = "bases-unmatched"
CERTIFICATE_REASONS: Final = (BASE_ON_TALON, UNDER_STUCK_CARD, RELAXATION_LOST, TALON_BOTTOM,
                              BASES_UNMATCHED)


@dataclass(frozen=True)
class LossCertificate:
    """Why a position cannot be won: a card that can never enter, and the reason.

    ``reason`` is one of :data:`CERTIFICATE_REASONS`; ``card`` and ``blocker`` are -1 where
    no card is named.
    What each reason means: [loss certificates][loss-certificates] (docs/solver.md).
    """

    reason: str
    card: int = -1
    blocker: int = -1

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"reason": self.reason}
        if self.card >= 0:
            out["card"] = card_code(self.card)
        if self.blocker >= 0:
            out["blocker"] = card_code(self.blocker)
        return out


@dataclass(frozen=True)
class WinResult:
    """The answer to "can this position be won?".

    ``outcome`` is ``won`` (``moves`` then replay to score 0), ``lost`` (a
    proof: ``certificate`` says why when the root alone shows it) or
    ``unknown`` (the limits stopped the search).
    """

    outcome: str
    moves: tuple[Move, ...]
    certificate: LossCertificate | None
    nodes: int
    seconds: float


def no_redeal_left(game: Game) -> bool:
    """Whether the position's talon is a stack for good (no redeal left)."""
    redeals = game.rules.redeals
    return redeals is not None and game.redeals_done >= redeals


# ------------------------------------------------------------------ relaxation
def _grid_relaxed(grid: Any, run_mode: bool) -> tuple[int, int, int]:
    """``R`` (bit ``c`` per top value), live and waiting bottoms (2-bit counters)."""
    piles: list[tuple[int, int]] = []
    if run_mode:
        # the optimizing search's int: tops in 2-bit counters, bottoms above bit 96
        for c in range(N_CARDS):
            for _ in range((grid >> (2 * c)) & 3):
                piles.append((-1, c))
            for _ in range((grid >> (96 + 2 * c)) & 3):
                piles.append((c, -1))
    else:
        for pile in grid:
            piles.append((pile // N_CARDS, pile % N_CARDS))
    tops = 0
    for _, t in piles:
        if t >= 0:
            tops |= 1 << t
    live = waiting = 0
    for b, _ in piles:
        if b >= 0 and LEVEL_OF[b]:
            if tops >> PREV[b] & 1:
                live += 1
            else:
                waiting += 1 << (2 * b)
    return tops, live, waiting


class Relaxation:
    """The monotone relaxation of a position with no redeal left.

    Proof: [the monotone relaxation][monotone-relaxation] (docs/solver.md).

    ``talon`` bottom first, ``stock`` top first; ``tops`` has bit ``c`` for each
    top value, ``live`` counts the non-base bottoms whose predecessor is in it,
    ``waiting`` holds the others in 2-bit counters (bits ``2b``).
    """

    def __init__(self, talon: list[int], stock: list[int], tops: int, live: int,
                 waiting: int, *, draw: int, fill_from_talon: bool) -> None:
        self.talon = tuple(talon)
        self.stock = tuple(stock)
        self.tops = tops
        self.live = live
        self.waiting = waiting
        self.draw = draw
        self.fill_talon = fill_from_talon
        self.nodes = 0
        self.max_nodes: int | None = None
        self.deadline = float("inf")
        self.dead: set[tuple[int, tuple[int, ...], int, int, int]] = set()

    @classmethod
    def of_game(cls, game: Game) -> Relaxation:
        tops, live, waiting = _grid_relaxed(
            tuple(p[0] * N_CARDS + p[-1] for p in game.grid if p), False)
        return cls(list(game.talon), list(reversed(game.stock)), tops, live, waiting,
                   draw=game.rules.draw, fill_from_talon=game.rules.fill_from_talon)

    def winnable(self, max_nodes: int | None = RELAXATION_NODES,
                 deadline: float = float("inf")) -> bool | None:
        """True if the relaxation can be won, False if not, None if the limits came first."""
        self.max_nodes = None if max_nodes is None else self.nodes + max_nodes
        self.deadline = deadline
        module = core.compiled()
        if module is not None and not self.dead:
            # the compiled core's search, the same nodes; it keeps the positions it
            # proved lost for itself, so a later call here searches again
            verdict: bool | None
            verdict, self.nodes = module.relax(
                list(self.talon), list(self.stock), self.tops, self.live, self.waiting,
                self.draw, self.fill_talon, self.nodes,
                -1 if self.max_nodes is None else self.max_nodes, deadline)
            return verdict
        try:
            return self._search(0, self.talon, self.tops, self.live, self.waiting)
        except TimeUp:
            return None

    @staticmethod
    def _enter(c: int, tops: int, live: int, waiting: int) -> tuple[int, int, int]:
        """Card ``c`` enters: it joins ``R``; the bottoms waiting for it come alive."""
        if not tops >> c & 1:
            tops |= 1 << c
            if LEVEL_OF[c] < 3:
                shift = 2 * (c + 3)
                live += (waiting >> shift) & 3
                waiting &= ~(3 << shift)
        return tops, live, waiting

    @staticmethod
    def _new_bottom(f: int, tops: int, live: int, waiting: int) -> tuple[int, int]:
        """Card ``f`` filled a space: a live or waiting bottom unless a base."""
        if LEVEL_OF[f]:
            if tops >> PREV[f] & 1:
                live += 1
            else:
                waiting += 1 << (2 * f)
        return live, waiting

    def _search(self, i: int, talon: tuple[int, ...], tops: int, live: int,
                waiting: int) -> bool:
        self.nodes += 1
        if (self.max_nodes is not None and self.nodes > self.max_nodes) or (
                self.nodes & 1023 == 0 and time.perf_counter() > self.deadline):
            raise TimeUp
        enter = self._enter
        # every talon build the relaxation allows, at once
        t = list(talon)
        while t:
            c = t[-1]
            prev = PREV[c]
            if prev < 0 or not tops >> prev & 1:
                break
            t.pop()
            tops, live, waiting = enter(c, tops, live, waiting)
        stock = self.stock
        if i >= len(stock):
            # the stock is out: the talon unwinds from its top, or the game is lost
            while t:
                c = t.pop()
                prev = PREV[c]
                if prev >= 0 and tops >> prev & 1:
                    tops, live, waiting = enter(c, tops, live, waiting)
                elif self.fill_talon and live:
                    tops, live, waiting = enter(c, tops, live - 1, waiting)
                    live, waiting = self._new_bottom(c, tops, live, waiting)
                else:
                    return False
            return True
        talon = tuple(t)
        key = (i, talon, tops, live, waiting)
        if key in self.dead:
            return False
        if not self.fill_talon and any(not LEVEL_OF[c] for c in talon):
            self.dead.add(key)  # a base on the talon can never enter
            return False
        if live:
            f = stock[i]
            tops2, live2, waiting2 = enter(f, tops, live - 1, waiting)
            live2, waiting2 = self._new_bottom(f, tops2, live2, waiting2)
            if self._search(i + 1, talon, tops2, live2, waiting2):
                return True
        j = min(len(stock), i + self.draw)
        if self._search(j, talon + stock[i:j], tops, live, waiting):
            return True
        self.dead.add(key)
        return False


# ---------------------------------------------------------------- exact search
class WinSearch(Search[G], Generic[G]):
    """Depth-first search for a win over the optimizing search's macro moves (one
    class per kind of grid, :func:`new_win_search`)."""

    def __init__(self, game: Game, *, time_limit: float | None = 10.0,
                 max_nodes: int | None = None, dead_entries: int = DEAD_ENTRIES,
                 relax_nodes: int = NODE_RELAXATION_NODES) -> None:
        if not no_redeal_left(game):
            raise ValueError("the win search needs a position with no redeal left")
        super().__init__(game, time_limit=time_limit, max_nodes=max_nodes, rollouts=0)
        self.dead: Any = set()
        self.dead_entries = dead_entries
        self.relax_nodes = relax_nodes
        compiled = getattr(self, "compiled", None)  # the compiled core, where it runs
        if compiled is not None and not relax_nodes:
            self.dead = compiled.Table()
            self._win_core = compiled
            use_compiled(self, "_win", self._compiled_win)
        self.relaxed_cuts = 0
        """Branches the relaxation ended (the lower bound had not)."""

    def prove(self) -> bool | None:
        """True with a win in ``best_path``, False when there is none, None at the limits."""
        self.deadline = (time.perf_counter() + self.time_limit
                         if self.time_limit is not None else float("inf"))
        self.best = 1  # only a win counts: every bound of at least 1 ends a branch
        self.best_path = []
        try:
            return self._win(self.grid0, self.p0, self.r0, self.mask0)
        except TimeUp:
            self._unwind()
            return None

    def _compiled_win(self, g: G, p: int, r: int, mask: int) -> bool:
        won: bool = self._win_core.win(self, g, p, r, mask)
        return won

    def _relaxed_lost(self, g: G, p: int) -> bool:
        seq = self.seq
        tops, live, waiting = _grid_relaxed(g, isinstance(g, int))
        relax = Relaxation(seq[:p], seq[p:], tops, live, waiting, draw=self.k,
                           fill_from_talon=self.fill_talon)
        return relax.winnable(self.relax_nodes, self.deadline) is False

    def _win(self, g: G, p: int, r: int, mask: int) -> bool:
        self.nodes += 1
        if (self.nodes & 1023 == 0 and time.perf_counter() > self.deadline) or (
            self.max_nodes is not None and self.nodes > self.max_nodes
        ):
            raise TimeUp
        seq = self.seq
        n = len(seq)
        if not n:
            self.best = 0
            self.best_path = list(self.path)
            return True
        key = self._key(g, p, r, mask)
        if key in self.dead:
            return False
        # every position is expanded once: a search for reachability needs no more, and a
        # peel back to a position seen (card mode) adds nothing
        self._lost(key)
        if self.lower_bound(g, p, r) >= 1:
            return False
        if self.relax_nodes and self._relaxed_lost(g, p):
            self.relaxed_cuts += 1
            return False
        # the optimizing search's children (with its safe talon build in run mode)
        moves = self._dfs_children(g, p, r, n, self._win_cuts(p, n, r))
        cycles = self.CYCLES
        if cycles:
            self.onpath.add(key)  # no loop even when the kept positions are cleared
        applied = self._applied
        orig = self.orig
        won = False
        for mv, g2, p2, r2, i in moves:
            if i < 0 and cycles and self._key(g2, p2, r2, mask) in self.onpath:
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
            won = self._win(g2, p2, r2, mask2)
            self.path.pop()
            self._undo_seq(applied.pop())
            if won:
                break
        if cycles:
            self.onpath.discard(key)
        return won

    def _win_cuts(self, p: int, n: int, r: int) -> list[Cut]:
        """The cuts a winning line may move to: none past the first base the deals would
        turn onto a talon that holds no base yet, when that base lost the game there.

        Dealing past cut ``j + 1`` (``seq[j]`` that base) passes through the position
        with ``seq[j]`` on the talon and the same cards under it, which every later
        move keeps (a base leaves the talon only by a fill, and while the stock lasts
        none comes from the talon).  That position cannot be won when spaces are not
        filled from the talon (a base on it never enters), nor when they are and
        :func:`~devilsgrip.solver.bounds.talon_bottom_lost` says so: every move from
        it, so every child at those cuts, is lost.  (With a base on the talon already,
        a later one changes nothing the lemma reads.)
        """
        cuts = self._cuts(p, n, r)
        seq = self.seq
        j = p
        while j < n and LEVEL_OF[seq[j]]:
            j += 1
        if j == n or not all(LEVEL_OF[c] for c in seq[:p]):
            return cuts
        if self.fill_talon and not talon_bottom_lost(seq, j + 1):
            return cuts
        return [cut for cut in cuts if cut[0] <= j]

    def _lost(self, key: Any) -> None:
        dead = self.dead
        if len(dead) >= self.dead_entries:
            shed(dead)  # the positions nearest the root stay proven lost
        dead.add(key)


class RunWinSearch(WinSearch[RunGrid], RunSearch):
    """The win search with ``run``-mode grids."""


class CardWinSearch(WinSearch[CardGrid], CardSearch):
    """The win search with ``card``-mode grids (peels searched, no loop followed)."""


def new_win_search(game: Game, **options: Any) -> RunWinSearch | CardWinSearch:
    """The win search for ``game``'s rules (``options``: those of :class:`WinSearch`);
    ``ValueError`` when a redeal is left."""
    if game.rules.move_unit == "run":
        return RunWinSearch(game, **options)
    return CardWinSearch(game, **options)


# --------------------------------------------------------------- certificates
def find_certificate(game: Game) -> LossCertificate | None:
    """Why the position cannot be won, read from its talon, or from its stock and the
    tops and bottoms of its grid; or None."""
    if not no_redeal_left(game):
        return None
    talon = game.talon
    if game.rules.fill_from_talon:
        if talon_bottom_lost(talon, len(talon)):
            lowest = next(c for c in talon if not LEVEL_OF[c])
            return LossCertificate(TALON_BOTTOM, blocker=lowest)
        return _matching_certificate(game)
    for j in range(len(talon) - 1, -1, -1):
        c = talon[j]
        if not LEVEL_OF[c]:
            if j:
                return LossCertificate(UNDER_STUCK_CARD, card=talon[0], blocker=c)
            return LossCertificate(BASE_ON_TALON, card=c)
    return _matching_certificate(game)


def _matching_certificate(game: Game) -> LossCertificate | None:
    tops = [0] * N_CARDS
    bots = [0] * N_CARDS
    for pile in game.grid:
        if pile:
            tops[pile[-1]] += 1
            if LEVEL_OF[pile[0]]:
                bots[pile[0]] += 1
    seq = [*game.talon, *reversed(game.stock)]
    if bases_unmatched(tops, bots, seq, len(game.talon), game.rules.fill_from_talon):
        return LossCertificate(BASES_UNMATCHED)
    return None


def root_certificate(game: Game, *, max_nodes: int | None = RELAXATION_NODES,
                     deadline: float = float("inf")) -> LossCertificate | None:
    """A certificate that the position cannot be won, when a cheap proof exists."""
    if not no_redeal_left(game) or not game.score:
        return None
    cert = find_certificate(game)
    if cert is not None:
        return cert
    if Relaxation.of_game(game).winnable(max_nodes, deadline) is False:
        return LossCertificate(RELAXATION_LOST)
    return None


def check_certificate(game: Game, cert: LossCertificate, *,
                      max_states: int = 2_000_000) -> bool:
    """Re-check a certificate from the position, with code of its own.

    The card reasons are read again from the talon and the rules.
    The relaxation's verdict is checked by a breadth-first enumeration of
    every position of the relaxation reachable by its moves (every talon build,
    fill and deal, none taken greedily; positions with a base on a talon that
    is never used for fills are not expanded, since that base never leaves):
    the certificate holds if none of them has every card in.  The talon's
    bottom is checked by taking its cards back off a won grid laid out as
    piles of cards.  False when it does not hold or the enumeration is too big.
    """
    redeals = game.rules.redeals
    if redeals is None or game.redeals_done < redeals:
        return False
    if cert.reason == RELAXATION_LOST:
        return _relaxation_has_no_win(game, max_states)
    if cert.reason == TALON_BOTTOM:
        return (game.rules.fill_from_talon and cert.card < 0
                and _last_cards_impossible(list(game.talon), cert.blocker))
    if cert.reason == BASES_UNMATCHED:
        return cert.card < 0 and cert.blocker < 0 and _no_pile_for_every_base(game, max_states)
    if game.rules.fill_from_talon:
        return False
    talon = list(game.talon)

    def stuck(card: int) -> bool:
        return card % 12 < 3  # a base (2, 3 or 4) enters only by a fill

    if cert.reason == BASE_ON_TALON:
        return cert.card in talon and stuck(cert.card)
    if cert.reason == UNDER_STUCK_CARD:
        if cert.blocker not in talon or not stuck(cert.blocker):
            return False
        # the highest copy of the blocker: every card under it waits under it for good
        highest_blocker = len(talon) - 1 - talon[::-1].index(cert.blocker)
        return cert.card in talon[:highest_blocker]
    return False


def _last_cards_impossible(talon: list[int], base: int) -> bool:
    """Whether the talon's cards up to its lowest base, ``base``, cannot be the last to
    enter a won game: they are taken back, from the talon's bottom, off a won grid
    laid out as piles; each card but the base must be the top card of a pile, and the
    base must then be alone in a pile."""
    bases = [i for i, c in enumerate(talon) if c % 12 < 3]
    if not bases or talon[bases[0]] != base:
        return False
    piles = [[b, b + 3, b + 6, b + 9] for b in range(48) if b % 12 < 3 for _ in range(2)]
    for card in talon[:bases[0]]:
        pile = next((p for p in piles if len(p) > 1 and p[-1] == card), None)
        if pile is None:
            return True
        pile.pop()
    return [base] not in piles


def _no_pile_for_every_base(game: Game, max_states: int = 2_000_000) -> bool:
    """Whether the bases outside cannot each have a pile emptied for them in time, worked
    out again from the position: won piles laid out as lists of cards, and a matching
    looked for by augmenting paths (the argument is
    :func:`~devilsgrip.solver.bounds.bases_unmatched`'s)."""
    never = 10**9
    stock = list(reversed(game.stock))  # its top first: stock[t] comes at time t + 1
    talon = list(game.talon)
    grid_tops = [pile[-1] for pile in game.grid if pile]

    def comes(card: int) -> list[int]:
        """The times from which each copy of ``card`` outside or on top may be a top."""
        now = grid_tops.count(card) + talon.count(card)
        return [0] * now + [t + 1 for t, c in enumerate(stock) if c == card]

    bottoms = sorted(pile[0] for pile in game.grid if pile and pile[0] % 12 >= 3)
    chains: list[int] = []
    for w in dict.fromkeys(bottoms):
        times = comes(w - 3)
        mine = bottoms.count(w)
        chains += (times + [never] * mine)[:mine]
    on_talon = [c for c in talon if c % 12 < 3]
    in_stock = [t for t, c in enumerate(stock) if c % 12 < 3]
    if on_talon and not game.rules.fill_from_talon:
        return True
    if not game.rules.fill_from_talon:
        first_dealt = len(in_stock)
    elif on_talon:
        first_dealt = 0
    else:
        first_dealt = next((k for k, t in enumerate(in_stock) if _may_lie_lowest(
            talon, stock, t, comes, never)), len(in_stock))
    latest = [never] * len(on_talon) + [t + 1 for t in in_stock[:first_dealt]] + [
        never] * (len(in_stock) - first_dealt)
    if len(chains) != len(latest):
        return True
    partner: dict[int, int] = {}  # base -> chain

    def augment(chain: int, seen: set[int]) -> bool:
        for base, due in enumerate(latest):
            if chains[chain] < due and base not in seen:
                seen.add(base)
                if base not in partner or augment(partner[base], seen):
                    partner[base] = chain
                    return True
        return False

    if not all(augment(chain, set()) for chain in range(len(chains))):
        return True
    return not _stock_fills_possible(chains, stock, [t + 1 for t in in_stock[:first_dealt]],
                                     comes, never, max_states)


def _stock_fills_possible(chains: list[int], stock: list[int], due: list[int],
                          comes: Callable[[int], list[int]], never: int,
                          max_states: int) -> bool:
    """Whether the stock can be played, a deal of three or a fill of its top card at a
    time, so that the bases at the times ``due`` are each filled (none dealt), every fill
    emptying a chain whose time has come, and the chains left all can start some day:
    every such play is followed, with nothing left out (True too when they are more than
    ``max_states``)."""
    if not due:
        return all(e < never for e in chains)
    seen: set[tuple[int, int, tuple[int, ...]]] = set()
    frontier = [(0, 0, tuple(sorted(chains)))]  # cards consumed, bases filled, chains
    while frontier:
        t, done, state = frontier.pop()
        if done == len(due):
            if all(e < never for e in state):
                return True
            continue
        nexts = []
        if all(t + k not in due for k in (1, 2, 3)) and t + 3 < due[-1]:
            nexts.append((t + 3, done, state))  # a deal
        card = stock[t]
        for pick in dict.fromkeys(e for e in state if e <= t):
            rest = list(state)
            rest.remove(pick)
            if t + 1 in due:
                nexts.append((t + 1, done + 1, tuple(sorted(rest))))
            else:
                again = max([t + 1, min(comes(card - 3), default=never)])
                nexts.append((t + 1, done, tuple(sorted([*rest, again]))))
        for child in nexts:
            if child not in seen:
                seen.add(child)
                if len(seen) > max_states:
                    return True
                frontier.append(child)
    return False


def _may_lie_lowest(talon: list[int], stock: list[int], t: int,
                    comes: Callable[[int], list[int]], never: int) -> bool:
    """Whether the stock base ``stock[t]`` could be dealt as the talon's lowest base and
    still be among the last cards of a won game (:func:`_last_cards_impossible`)."""
    piles = [[b, b + 3, b + 6, b + 9] for b in range(48) if b % 12 < 3 for _ in range(2)]
    segment = stock[:t]
    for f, card in enumerate(talon):
        pile = next((q for q in piles if len(q) > 1 and q[-1] == card), None)
        if pile is None:
            # this card must leave first, with all above it: not before a copy of the
            # card each of them goes on can be a top
            leaves = max(min(comes(c - 3), default=never) for c in talon[f:])
            if leaves >= t + 1:
                return False
            segment = stock[leaves:t]
            break
        pile.pop()
    base = stock[t]
    for pile in piles:
        if pile[0] == base:
            wanted = iter(segment)
            if all(any(c == card for c in wanted) for card in reversed(pile[1:])):
                return True
    return False


def _relaxation_has_no_win(game: Game, max_states: int) -> bool:
    ever = frozenset(pile[-1] for pile in game.grid if pile)
    bottoms = tuple(sorted(pile[0] for pile in game.grid if pile and pile[0] % 12 >= 3))
    start = (tuple(reversed(game.stock)), tuple(game.talon), ever, bottoms)
    draw = game.rules.draw
    fill_talon = game.rules.fill_from_talon
    seen = {start}
    frontier = [start]
    while frontier:
        nxt = []
        for stock, talon, ever_tops, bots in frontier:
            if not stock and not talon:
                return False  # every card in: the relaxation is won
            if not fill_talon and any(c % 12 < 3 for c in talon):
                continue  # a base on the talon never leaves it: no win beyond
            children = []
            if talon and talon[-1] % 12 >= 3 and talon[-1] - 3 in ever_tops:
                children.append((stock, talon[:-1], ever_tops | {talon[-1]}, bots))
            emptiable = [b for b in set(bots) if b - 3 in ever_tops]
            source = stock[:1] if stock else (talon[-1:] if fill_talon else ())
            for b in emptiable:
                for f in source:
                    rest = list(bots)
                    rest.remove(b)
                    if f % 12 >= 3:
                        rest.append(f)
                    s2, t2 = (stock[1:], talon) if stock else (stock, talon[:-1])
                    children.append((s2, t2, ever_tops | {f}, tuple(sorted(rest))))
            if stock:
                children.append((stock[draw:], talon + stock[:draw], ever_tops, bots))
            for child in children:
                if child not in seen:
                    seen.add(child)
                    if len(seen) > max_states:
                        return False
                    nxt.append(child)
        frontier = nxt
    return True


# ----------------------------------------------------------------- front door
def prove_winnable(game: Game, *, time_limit: float | None = 10.0,
                   max_nodes: int | None = None, dead_entries: int | None = None) -> WinResult:
    """Can ``game``'s position be won (knowing the stock)?  ``game`` is unchanged.

    Needs a position with no redeal left (else ``ValueError``).  ``dead_entries``: the
    positions proven lost that the search may keep (:data:`DEAD_ENTRIES` when None).
    """
    start = time.perf_counter()
    deadline = start + time_limit if time_limit is not None else float("inf")
    if not game.score:
        return WinResult(WON, (), None, 0, 0.0)
    cert = root_certificate(game, max_nodes=RELAXATION_NODES if max_nodes is None
                            else min(max_nodes, RELAXATION_NODES), deadline=deadline)
    if cert is not None:
        return WinResult(LOST, (), cert, 0, time.perf_counter() - start)
    left = None if time_limit is None else max(1e-3, deadline - time.perf_counter())
    search = new_win_search(game, time_limit=left, max_nodes=max_nodes,
                            dead_entries=DEAD_ENTRIES if dead_entries is None else dead_entries)
    found = search.prove()
    seconds = time.perf_counter() - start
    if found is None:
        return WinResult(UNKNOWN, (), None, search.nodes, seconds)
    if not found:
        return WinResult(LOST, (), None, search.nodes, seconds)
    return WinResult(WON, tuple(realize(game, search.best_path)), None, search.nodes, seconds)
