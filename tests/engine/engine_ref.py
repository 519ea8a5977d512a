"""An independent reference model of RULES.md, for checking the engine.

Deliberately simple and slow: cards are two-letter strings (``"5S"``),
piles are plain lists, and nothing is imported from the engine.  The model
reads positions from the engine's position text (so it checks that format
too) and names moves by their text form (``d``, ``r``, ``t-c2``, ``a1-c2``,
``a1=c2``).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from itertools import pairwise

RANK_CODES = "23456789TJQK"
SUIT_CODES = "SHDC"
CHAINS = ("258J", "369Q", "47TK")
"""The three sequences, bottom to top (RULES.md, "The three sequences")."""
COLUMN_LETTERS = "abcdefgh"


def cell_name(i: int) -> str:
    return COLUMN_LETTERS[i % 8] + str(i // 8 + 1)


CELLS = {cell_name(i): i for i in range(24)}
"""Each cell's index by its name."""


def all_cards() -> list[str]:
    """The 96 cards: every rank 2..K of every suit, twice."""
    return [r + s for _ in range(2) for s in SUIT_CODES for r in RANK_CODES]


NEXT = {low: high for chain in CHAINS for low, high in pairwise(chain)}
"""The rank that goes on each rank in its sequence (a sequence's top has none)."""


def next_card(target: str) -> str | None:
    """The card that may be placed on ``target``: same suit, next in its sequence
    (None on a sequence's top)."""
    if target[0] not in RANK_CODES:
        raise AssertionError(f"bad card {target}")
    rank = NEXT.get(target[0])
    return None if rank is None else rank + target[1]


def goes_on(card: str, target: str) -> bool:
    """May ``card`` be placed on ``target``: same suit, next in its sequence."""
    return card == next_card(target)


def is_base(card: str) -> bool:
    return card[0] in "234"


@dataclass
class RefRules:
    draw: int = 3
    redeals: int | None = None  # None: unlimited
    run: bool = True  # move_unit=run, else card
    fill_from_talon: bool = True


@dataclass
class RefGame:
    rules: RefRules
    grid: list[list[str]]
    stock: list[str]  # the top last
    talon: list[str]  # the top last
    redeals_done: int = 0
    history: list[str] = field(default_factory=list)

    # ------------------------------------------------------------ building
    @staticmethod
    def from_deck(cards: list[str], rules: RefRules) -> RefGame:
        """Deal: first 24 into the grid row by row, the 25th is the stock's top."""
        grid = [[c] for c in cards[:24]]
        stock = list(reversed(cards[24:]))
        return RefGame(rules, grid, stock, [])

    @staticmethod
    def from_position(text: str, rules: RefRules) -> RefGame:
        fields = text.split()
        grid_text, stock_text, talon_text, redeals_text = fields[:4]

        def cards(t: str) -> list[str]:
            if t == "-":
                return []
            return [t[i : i + 2] for i in range(0, len(t), 2)]

        grid = [cards(cell) for row in grid_text.split("/") for cell in row.split(",")]
        stock = list(reversed(cards(stock_text)))
        return RefGame(rules, grid, stock, cards(talon_text), int(redeals_text))

    def copy(self) -> RefGame:
        return RefGame(
            self.rules,
            [list(p) for p in self.grid],
            list(self.stock),
            list(self.talon),
            self.redeals_done,
            list(self.history),
        )

    def state(self) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[str, ...], int]:
        return (
            tuple(tuple(p) for p in self.grid),
            tuple(self.stock),
            tuple(self.talon),
            self.redeals_done,
        )

    # ------------------------------------------------------------- moves
    def can_redeal(self) -> bool:
        if self.stock or not self.talon:
            return False
        return self.rules.redeals is None or self.redeals_done < self.rules.redeals

    def run_start(self, src: int, dst: int) -> int | None:
        """Index in the source pile of the lowest card a build src->dst moves, or None."""
        source, target = self.grid[src], self.grid[dst]
        if src == dst or not source or not target:
            return None
        wanted = next_card(target[-1])
        if wanted is None or wanted not in source:
            return None
        if self.rules.run:
            return source.index(wanted)  # the lowest card that goes on the target's top
        return len(source) - 1 if source[-1] == wanted else None

    def moves(self, swaps: bool = False) -> list[str]:
        result: list[str] = []
        if self.stock:
            result.append("d")
        if self.can_redeal():
            result.append("r")
        if self.talon:
            for d in range(24):
                if self.grid[d] and goes_on(self.talon[-1], self.grid[d][-1]):
                    result.append("t-" + cell_name(d))
        # the card each pile takes; a build needs it in the source (run_start says the rest)
        wanted = [next_card(p[-1]) if p else None for p in self.grid]
        for s in range(24):
            for d in range(24):
                if wanted[d] in self.grid[s] and self.run_start(s, d) is not None:
                    result.append(cell_name(s) + "-" + cell_name(d))
        if swaps:
            for a in range(24):
                for b in range(a + 1, 24):
                    if self.grid[a] or self.grid[b]:
                        result.append(cell_name(a) + "=" + cell_name(b))
        return result

    def apply(self, move: str) -> None:
        """Play a move known to be legal."""
        cells = CELLS
        if move == "d":
            for _ in range(min(self.rules.draw, len(self.stock))):
                self.talon.append(self.stock.pop())
        elif move == "r":
            # the talon turned over as it lies: its first card becomes the stock's top
            self.stock = list(reversed(self.talon))
            self.talon = []
            self.redeals_done += 1
        elif move.startswith("t-"):
            self.grid[cells[move[2:]]].append(self.talon.pop())
        elif "=" in move:
            a, b = (cells[x] for x in move.split("="))
            self.grid[a], self.grid[b] = self.grid[b], self.grid[a]
        else:
            s, d = (cells[x] for x in move.split("-"))
            i = self.run_start(s, d)
            assert i is not None, move
            self.grid[d].extend(self.grid[s][i:])
            del self.grid[s][i:]
            if not self.grid[s]:
                if self.stock:
                    self.grid[s] = [self.stock.pop()]
                elif self.talon and self.rules.fill_from_talon:
                    self.grid[s] = [self.talon.pop()]
        self.history.append(move)

    def enters(self, move: str) -> bool:
        """Does a card enter the grid through ``move`` (a talon build or a fill)?"""
        if move.startswith("t-"):
            return True
        if move in ("d", "r") or "=" in move:
            return False
        s = cell_name_index(move.split("-")[0])
        d = cell_name_index(move.split("-")[1])
        i = self.run_start(s, d)
        if i != 0:
            return False
        return bool(self.stock) or (bool(self.talon) and self.rules.fill_from_talon)

    def score(self) -> int:
        return len(self.stock) + len(self.talon)


def cell_name_index(name: str) -> int:
    return COLUMN_LETTERS.index(name[0]) + 8 * (int(name[1]) - 1)


def brute_force_over(game: RefGame, limit: int = 200_000) -> bool:
    """RULES.md's definition of the end, by exhaustive search.

    Explore every position reachable by moves through which no card enters
    (deals, redeals, grid builds that fill nothing); the game is over iff
    none of them allows a move through which a card enters.

    Swaps are skipped.  A swap only exchanges two cells: whether any other
    move is legal, and what it does to the stock, the talon and the piles,
    depends only on the *multiset* of piles, never on which cell holds
    which.  So a position and its swapped twin reach the same multisets of
    piles (with the same stock and talon), and the same entering moves up
    to renaming cells.  States are therefore keyed by their sorted piles.
    With unlimited redeals the count of redeals done changes nothing, so
    it is left out of the key.
    """
    unlimited = game.rules.redeals is None

    def key(g: RefGame) -> tuple[object, ...]:
        return (
            tuple(sorted(tuple(p) for p in g.grid)),
            tuple(g.stock),
            tuple(g.talon),
            0 if unlimited else g.redeals_done,
        )

    start = game.copy()
    start.history = []
    seen = {key(start)}
    queue = deque([start])
    while queue:
        g = queue.popleft()
        for move in g.moves(swaps=False):
            if g.enters(move):
                return False
            nxt = g.copy()
            nxt.apply(move)
            k = key(nxt)
            if k not in seen:
                seen.add(k)
                if len(seen) > limit:
                    raise RuntimeError("brute force explored too many positions")
                queue.append(nxt)
    return True


def perft_positions(start: RefGame, depth: int) -> list[int]:
    """Distinct positions reachable in exactly k moves (no swaps), k = 0 .. depth."""
    layer = {start.state(): start}
    counts = [len(layer)]
    for _ in range(depth):
        nxt: dict[object, RefGame] = {}
        for g in layer.values():
            for move in g.moves(swaps=False):
                h = g.copy()
                h.apply(move)
                h.history = []
                nxt.setdefault(h.state(), h)
        layer = nxt  # type: ignore[assignment]
        counts.append(len(layer))
    return counts
