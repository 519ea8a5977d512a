"""How much room an honest player has over greedy in ``single-pass``, on the rollout model.

    .venv/bin/python benchmarks/honest_room.py [--first 1] [--last 40] [--orders 128]
        [--rules single-pass]

Plays each deal of the range on the small model of :mod:`devilsgrip.solver.rollouts`
three ways and prints the paired differences from greedy with 95% intervals:

* **greedy**: the base policy of the rollouts (the greedy player's rules);
* **rollout**: one step of rollout policy improvement over *every* distinct
  entering move and the deal (every talon build target and every emptying
  build with a different effect, where the honest player considers one of
  each kind), each judged by rolling greedy out on ``--orders`` stock orders
  drawn from the unseen cards, the same orders for every move; it never reads
  the true stock order;
* **reserve K**: greedy that keeps ``K`` emptying builds back while the stock
  lasts (for the end of the stock, when a fill takes the talon's top card);
* **peek 3**: not an honest player: greedy that looks at the next three stock
  cards and deals instead of emptying a pile when none of them is a base (a
  fill would then bring in no base): what a little knowledge of the order,
  used by a plain rule, is worth.

``--orders 0`` leaves the rollout player out (the other rows take seconds).

In expectation, exact rollout improvement plays at least as well as the
policy it rolls out; how much better it plays measures how much the choices
an honest player can see are worth.  Only ``run`` mode is played (the
``single-pass`` preset's options).
"""

from __future__ import annotations

import argparse
import random
import statistics

from players import interval

from devilsgrip.cards import GRID_SIZE, LEVEL_OF, N_CARDS, PREV
from devilsgrip.game import Game
from devilsgrip.notation import DEAL, GRID_BUILDS, TALON_BUILDS, Move, MoveKind
from devilsgrip.rules import Rules
from devilsgrip.solver.rollouts import Table, apply, roll_out, table_of

NO_LIMIT = 10**6
"""A rollout step budget no game reaches."""


def deal_table(number: int, rules: Rules) -> Table:
    """The model of deal ``number`` as dealt."""
    game = Game(number, rules=rules)
    return table_of(game.view(with_legal=False), list(reversed(game.stock)))


def entering_moves(t: Table) -> list[Move]:
    """Every move of ``t`` that brings a card in, one per distinct effect, then the deal."""
    cells = t.cells
    out: list[Move] = []
    if t.talon:
        want = PREV[t.talon[-1]]
        targets: set[int] = set()
        for d in range(GRID_SIZE):
            pile = cells[d]
            if want >= 0 and pile >= 0 and pile % N_CARDS == want and pile not in targets:
                targets.add(pile)
                out.append(TALON_BUILDS[d])
    if t.stock or (t.fill_from_talon and t.talon):
        pairs: set[tuple[int, int]] = set()
        for s in range(GRID_SIZE):
            src = cells[s]
            if src < 0 or not LEVEL_OF[src // N_CARDS]:
                continue
            for d in range(GRID_SIZE):
                dst = cells[d]
                if (d != s and dst >= 0 and dst % N_CARDS == PREV[src // N_CARDS]
                        and (src, dst) not in pairs):
                    pairs.add((src, dst))
                    out.append(GRID_BUILDS[s][d])
    if t.stock:
        out.append(DEAL)
    return out


def play_reserve(t: Table, keep: int) -> int:
    """Greedy keeping ``keep`` emptying builds back while the stock lasts; the score."""
    while True:
        moves = entering_moves(t)
        if not moves:
            return t.score
        talon = [m for m in moves if m.kind == MoveKind.TALON]
        builds = [m for m in moves if m.kind == MoveKind.BUILD]
        sources = {t.cells[m.src] for m in builds}
        if talon:
            move = talon[0]
        elif builds and (not t.stock or len(sources) > keep):
            move = builds[0]
        else:
            move = DEAL  # builds kept back or none: the stock is not out
        apply(t, move)


def play_peek(t: Table) -> int:
    """Greedy that deals rather than empty a pile when no base is among the next three
    stock cards; the score."""
    while True:
        moves = entering_moves(t)
        if not moves:
            return t.score
        move = moves[0]
        if (move.kind == MoveKind.BUILD and len(t.stock) >= t.draw
                and all(LEVEL_OF[c] for c in t.stock[-t.draw:])):
            move = DEAL
        apply(t, move)


def play_rollout(t: Table, orders: int, rng: random.Random) -> int:
    """One step of rollout improvement over greedy at every decision; the score."""
    while True:
        moves = entering_moves(t)
        if not moves:
            return t.score
        if len(moves) == 1:
            apply(t, moves[0])
            continue
        totals = [0] * len(moves)
        for _ in range(orders):
            order = list(t.stock)  # the unseen cards: only their set is used
            rng.shuffle(order)
            for i, move in enumerate(moves):
                world = t.copy()
                world.stock = list(order)
                apply(world, move)
                totals[i] += roll_out(world, NO_LIMIT)[0]
        # on a tie, greedy's move: the first one (talon builds, emptying builds and the
        # deal come in greedy's order, each kind in the order of the cells)
        best = min(range(len(moves)), key=lambda i: (totals[i], i))
        apply(t, moves[best])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=40)
    parser.add_argument("--orders", type=int, default=128)
    parser.add_argument("--rules", default="single-pass")
    args = parser.parse_args()
    rules = Rules.parse(args.rules)
    if rules.move_unit != "run":
        parser.error("only run-mode rules are played")
    deals = range(args.first, args.last + 1)
    greedy = [roll_out(deal_table(n, rules), NO_LIMIT)[0] for n in deals]
    print(f"greedy       deals {args.first}..{args.last} {args.rules}: "
          f"mean {statistics.mean(greedy):.2f}")
    rows: list[tuple[str, list[int]]] = [
        (f"reserve {k}", [play_reserve(deal_table(n, rules), k) for n in deals])
        for k in (1, 2, 3)]
    rows.append(("peek 3", [play_peek(deal_table(n, rules)) for n in deals]))
    if args.orders > 0:
        rows.append((f"rollout {args.orders}",
                     [play_rollout(deal_table(n, rules), args.orders, random.Random(n))
                      for n in deals]))
    for name, scores in rows:
        mean, low, high = interval([a - b for a, b in zip(scores, greedy, strict=True)])
        print(f"{name:12} mean {statistics.mean(scores):.2f}, less greedy {mean:+.2f} "
              f"[{low:+.2f}, {high:+.2f}]", flush=True)


if __name__ == "__main__":
    main()
