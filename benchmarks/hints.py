"""Hints benchmark: how long ``hint`` thinks, on positions from numbered deals.

    .venv/bin/python benchmarks/hints.py [--rules classic] [--first 1] [--last 50]
        [--per-deal 3] [--deals-between 5] [-v]

For each deal, ``--per-deal`` positions are taken: the deal itself, then after
each hint the hinted move is played and ``--deals-between`` deals (when the
stock allows) move the game on.  Prints the median, 95th percentile and worst
seconds of one hint (the target: under 1 s), and how many positions had no
hint (the game over); and the same as multiples of the baseline timed first in
the same process, the fixed workload of ``benchmarks/reference.py``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from reference import reference_seconds

from devilsgrip.game import Game
from devilsgrip.notation import DEAL
from devilsgrip.solver import hint


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=50)
    parser.add_argument("--per-deal", type=int, default=3)
    parser.add_argument("--deals-between", type=int, default=5)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    reference = reference_seconds()
    print(f"baseline (benchmarks/reference.py): {reference * 1000:.1f} ms")
    times: list[float] = []
    none = 0
    for number in range(args.first, args.last + 1):
        game = Game(number, rules=args.rules)
        for step in range(args.per_deal):
            start = time.perf_counter()
            got = hint(game)
            took = time.perf_counter() - start
            times.append(took)
            if args.verbose:
                text = got.move.text() if got else "-"
                print(f"  deal {number} position {step}: {took:.2f} s  {text}", flush=True)
            if got is None:
                none += 1
                break
            game.play(got.move)
            for _ in range(args.deals_between):
                if game.stock:
                    game.play(DEAL)
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(f"{args.rules:12} deals {args.first}..{args.last}  {len(times)} positions  "
          f"median {statistics.median(times):.2f} s  p95 {p95:.2f} s  "
          f"worst {times[-1]:.2f} s  no hint {none}", flush=True)
    print(f"{'':12} against the baseline: median {statistics.median(times) / reference:.2f}x  "
          f"p95 {p95 / reference:.2f}x  worst {times[-1] / reference:.2f}x")


if __name__ == "__main__":
    main()
