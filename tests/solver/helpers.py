"""Small positions near the end of a game, and a plain exhaustive search to check the solver."""

from __future__ import annotations

import random

from devilsgrip.cards import N_CARDS, NEXT
from devilsgrip.game import Game
from devilsgrip.notation import format_cards
from devilsgrip.solver import SolveResult


def late_position(seed: int, outside: int, rules: str) -> Game:
    """A random position with ``outside`` cards in stock + talon and the rest in the grid.

    Start from a won grid of 24 complete piles in random cells, take ``outside``
    cards off the tops or bottoms of random piles, and share them at random
    between stock and talon.  Every such position is valid.
    """
    rng = random.Random(seed)
    bases = [c for c in range(N_CARDS) if c % 12 < 3] * 2
    rng.shuffle(bases)
    piles: list[list[int]] = []
    for b in bases:
        pile = [b]
        while NEXT[pile[-1]] >= 0:
            pile.append(NEXT[pile[-1]])
        piles.append(pile)
    out: list[int] = []
    while len(out) < outside:
        pile = rng.choice([p for p in piles if p])
        out.append(pile.pop() if rng.random() < 0.6 else pile.pop(0))
    rng.shuffle(out)
    cut = rng.randint(0, len(out))
    talon, stock = out[:cut], out[cut:]
    rows = [",".join(format_cards(p) for p in piles[r:r + 8]) for r in range(0, 24, 8)]
    text = f"{'/'.join(rows)} {format_cards(stock)} {format_cards(talon)} 0 0 {rules}"
    return Game.from_position(text)


def brute_force(game: Game, limit: int = 300_000) -> int:
    """The least score reachable from ``game`` by any legal moves but swaps.

    Plain reachability over engine states (grids compared as sorted lists of
    piles, since swaps are always allowed and change nothing else).
    """
    g = game.copy()
    unlimited = g.rules.redeals is None

    def key() -> object:
        return (tuple(sorted(g.grid)), tuple(g.stock), tuple(g.talon),
                0 if unlimited else g.redeals_done)

    seen = {key()}
    best = g.score
    stack = [iter(g.generate_moves(swaps=False))]
    while stack:
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            if stack:
                g.pop()
            continue
        g.push(move)
        k = key()
        if k in seen:
            g.pop()
            continue
        seen.add(k)
        if len(seen) > limit:
            raise RuntimeError("position too big for brute force")
        best = min(best, g.score)
        stack.append(iter(g.generate_moves(swaps=False)))
    return best


def replay_score(game: Game, result: SolveResult) -> int:
    """Play the solver's line with the checked door and return the score it reaches."""
    g = game.copy()
    for move in result.moves:
        g.play(move)
    return g.score


def split_position(seed: int, outside: int, rules: str) -> Game:
    """A random position whose piles are cut anywhere, so that many piles can be emptied.

    ``outside`` random cards go to stock and talon; the rest of each suit
    sequence is cut into runs, at least as few as fit and then split at random
    while cells are free (up to 24 piles; a cell may stay empty).
    """
    rng = random.Random(seed)
    while True:
        deck = [c for c in range(N_CARDS) for _ in range(2)]
        rng.shuffle(deck)
        out, inside = deck[:outside], deck[outside:]
        left = sorted(inside)
        piles: list[list[int]] = []
        while left:
            pile = [left.pop(rng.randrange(len(left)))]
            while pile[0] % 12 >= 3 and pile[0] - 3 in left:
                left.remove(pile[0] - 3)
                pile.insert(0, pile[0] - 3)
            while NEXT[pile[-1]] >= 0 and NEXT[pile[-1]] in left:
                left.remove(NEXT[pile[-1]])
                pile.append(NEXT[pile[-1]])
            piles.append(pile)
        if len(piles) <= 24:
            break
    while len(piles) < 24 and rng.random() < 0.9:
        long = [p for p in piles if len(p) > 1]
        if not long:
            break
        pile = rng.choice(long)
        cut = rng.randrange(1, len(pile))
        piles.append(pile[cut:])
        del pile[cut:]
    piles += [[] for _ in range(24 - len(piles))]
    rng.shuffle(piles)
    cut = rng.randint(0, len(out))
    talon, stock = out[:cut], out[cut:]
    rows = [",".join(format_cards(p) or "-" for p in piles[r:r + 8]) for r in range(0, 24, 8)]
    text = f"{'/'.join(rows)} {format_cards(stock) or '-'} {format_cards(talon) or '-'} 0 0 {rules}"
    return Game.from_position(text)
