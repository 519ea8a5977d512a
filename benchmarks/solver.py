"""Solver benchmark: deals FIRST..LAST under each preset with a time limit per deal.

    .venv/bin/python benchmarks/solver.py [--first 1] [--last 200] [--step 1]
        [--presets classic,single-pass,literal] [--time-limit classic=1,single-pass=10,literal=10]

Prints per preset: the resolved share (a win found, or at least one card
proven to stay out), the proven and won shares, median and 95th-percentile
seconds, nodes per second, the mean proven lower bound and the mean best
line, and the distribution of best scores.  Every line is replayed in the
engine and must reach the claimed score, and no bound may exceed it.
``--step 10`` takes every tenth deal of the range.  The baseline, timed first in the same
process, is the fixed workload of ``benchmarks/reference.py``: the median and
95th percentile are also printed as multiples of it, and the search's speed as
nodes per run of it (figures that move less with the machine and its load).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter

from reference import reference_seconds

from devilsgrip.game import Game
from devilsgrip.solver.portfolio import solve

DEFAULT_LIMITS = {"classic": 1.0, "single-pass": 10.0, "literal": 10.0}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_preset(
    preset: str, deals: range, limit: float, verbose: bool, reference: float
) -> None:
    seconds: list[float] = []
    scores: Counter[int] = Counter()
    proven = nodes = resolved = bounds = 0
    for number in deals:
        game = Game(number, rules=preset)
        result = solve(game, time_limit=limit)
        check = game.copy()
        for move in result.moves:
            check.play(move)
        if check.score != result.score:
            sys.exit(f"deal {number} {preset}: line reaches {check.score}, not {result.score}")
        if not 0 <= result.bound <= result.score or result.proven != (
                result.bound == result.score):
            sys.exit(f"deal {number} {preset}: bound {result.bound} against score "
                     f"{result.score}, proven {result.proven}")
        seconds.append(result.seconds)
        nodes += result.nodes
        proven += result.proven
        resolved += result.score == 0 or result.bound >= 1
        bounds += result.bound
        scores[result.score] += 1
        if verbose:
            print(f"  {preset} {number}: score {result.score} bound {result.bound} "
                  f"proven {result.proven} win {result.extra.get('win', '-')} "
                  f"{result.seconds:.3f} s {result.nodes} nodes", flush=True)
    count = len(seconds)
    total = sum(seconds)
    dist = " ".join(f"{s}:{n}" for s, n in sorted(scores.items()))
    lines = sum(s * n for s, n in scores.items())
    print(f"{preset:12} deals {deals.start}..{deals.stop - 1} step {deals.step} ({count})  "
          f"limit {limit:g} s  resolved {100 * resolved / count:.1f}%  "
          f"proven {100 * proven / count:.1f}%  won {100 * scores[0] / count:.1f}%  "
          f"median {statistics.median(seconds):.2f} s  "
          f"p95 {percentile(seconds, 0.95):.2f} s  "
          f"{nodes / max(total, 1e-9):,.0f} nodes/s")
    print(f"{'':12} mean score between {bounds / count:.2f} (bound) and {lines / count:.2f} "
          f"(best line)")
    print(f"{'':12} against the baseline: median {statistics.median(seconds) / reference:.2f}x  "
          f"p95 {percentile(seconds, 0.95) / reference:.2f}x  "
          f"{nodes / max(total, 1e-9) * reference:,.0f} nodes per baseline run")
    print(f"{'':12} best scores (score:deals) {dist}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=200)
    parser.add_argument("--step", type=int, default=1)
    parser.add_argument("--presets", default="classic,single-pass,literal")
    parser.add_argument("--time-limit", default="",
                        help="per preset, e.g. classic=1,single-pass=10 (or one number)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    limits = dict(DEFAULT_LIMITS)
    for item in filter(None, args.time_limit.split(",")):
        if "=" in item:
            name, value = item.split("=", 1)
            limits[name] = float(value)
        else:
            limits = {k: float(item) for k in limits}
    reference = reference_seconds()
    print(f"baseline (benchmarks/reference.py): {reference * 1000:.1f} ms")
    start = time.perf_counter()
    for preset in args.presets.split(","):
        run_preset(preset, range(args.first, args.last + 1, args.step),
                   limits.get(preset, 10.0), args.verbose, reference)
    print(f"total {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
