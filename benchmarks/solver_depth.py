"""How far into the pass the exhaustive search proves: positions along the best lines.

    .venv/bin/python benchmarks/solver_depth.py [--rules single-pass] [--first 1] [--last 10]
        [--line-time 3] [--nodes 200000] [--stock 0,3,6,9,12,15,18,21,24,30,36]

For each deal, the best line found in ``--line-time`` seconds is played until at
most k stock cards are left, for each k of ``--stock``; that position is solved
with ``--nodes`` nodes.  Prints, per k, how many deals were proven and the nodes
the proven ones took, and the lower bound against the score found there.
"""

from __future__ import annotations

import argparse

from devilsgrip.game import Game
from devilsgrip.solver import solve
from devilsgrip.solver.clairvoyant import new_search


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="single-pass")
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=10)
    parser.add_argument("--line-time", type=float, default=3.0)
    parser.add_argument("--nodes", type=int, default=200_000)
    parser.add_argument("--stock", default="0,3,6,9,12,15,18,21,24,30,36")
    args = parser.parse_args()
    ks = [int(k) for k in args.stock.split(",")]
    proven = dict.fromkeys(ks, 0)
    nodes = dict.fromkeys(ks, 0)
    exact = dict.fromkeys(ks, 0)
    count = args.last - args.first + 1
    for number in range(args.first, args.last + 1):
        game = Game(number, rules=args.rules)
        line = solve(game, time_limit=args.line_time)
        for k in ks:
            position = game.copy()
            for move in line.moves:
                if len(position.stock) <= k:
                    break
                position.play(move)
            search = new_search(position)
            bound = search.lower_bound(search.grid0, search.p0, search.r0)
            result = solve(position, time_limit=None, max_nodes=args.nodes)
            exact[k] += bound == result.score
            if result.proven:
                proven[k] += 1
                nodes[k] += result.nodes
    width = max(len(str(k)) for k in ks) + 3
    print(f"{args.rules}, deals {args.first}..{args.last}, lines found in "
          f"{args.line_time:g} s, positions solved with {args.nodes:,} nodes")
    print("stock cards left ≤".ljust(22) + "".join(f"{k:>{width}}" for k in ks))
    print("proven".ljust(22) + "".join(f"{proven[k]:>{width}}" for k in ks) + f"  (of {count})")
    print("bound = score found".ljust(22) + "".join(f"{exact[k]:>{width}}" for k in ks))
    print("nodes of proofs".ljust(22) + "  " + ", ".join(f"{k}: {nodes[k]:,}" for k in ks))


if __name__ == "__main__":
    main()
