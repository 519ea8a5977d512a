"""Solver benchmark: deals FIRST..LAST under each preset with a time limit per deal.

    .venv/bin/python benchmarks/solver.py [--first 1] [--last 200] [--step 1]
        [--presets classic,single-pass,literal] [--time-limit classic=1,single-pass=10,literal=10]
    .venv/bin/python benchmarks/solver.py --cores [--first 501] [--last 520]
        [--nodes classic=200000,single-pass=30000,literal=30000] [--greedy-at 0.6]
        [--rollout-steps 60000] [--rollout-every 5]

Prints per preset: the resolved share (a win found, or at least one card
proven to stay out), the proven and won shares, median and 95th-percentile
seconds, nodes per second, the mean proven lower bound and the mean best
line, and the distribution of best scores.  Every line is replayed in the
engine and must reach the claimed score, and no bound may exceed it.
``--step 10`` takes every tenth deal of the range.  The baseline, timed first in the same
process, is the fixed workload of ``benchmarks/reference.py``: the median and
95th percentile are also printed as multiples of it, and the search's speed as
nodes per run of it (figures that move less with the machine and its load).

``--cores`` compares the two search cores (:mod:`devilsgrip.solver.core`) instead:
each deal of the range is solved from its start with a fixed node budget
(``--nodes``, no clock), first by the pure-Python core and then by the compiled
one, which must do exactly the same work (score, bound, nodes, line); printed per
preset are the nodes per second of each core and their ratio, and per deal with
``-v``.  ``--greedy-at 0.6`` takes instead the position of the greedy player's game
of each deal after 60% of its moves (where a classic review's hard proofs are).
In the presets with no redeal (``single-pass``, ``literal``) ``--cores`` also times the
honest player's rollouts (:mod:`devilsgrip.solver.rollouts`) in both cores: at the
positions of each deal's greedy game where the honest player rolls out (every
``--rollout-every``-th of them), the candidate moves judged with a budget of
``--rollout-steps`` model moves, which must give the same scores in both cores;
printed are the rollout moves per second of processor time of each core and their
ratio (what a second of thinking buys, shuffles of the stock orders included).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter

from reference import reference_seconds

from devilsgrip.game import Game, MoveKind
from devilsgrip.solver import clairvoyant, core, play_game
from devilsgrip.solver.players import candidate_moves
from devilsgrip.solver.portfolio import solve
from devilsgrip.solver.rollouts import rollout_scores

DEFAULT_LIMITS = {"classic": 1.0, "single-pass": 10.0, "literal": 10.0}
DEFAULT_NODES = {"classic": 200_000, "single-pass": 30_000, "literal": 30_000}
"""Node budgets a deal for ``--cores`` (a classic deal mostly needs far fewer)."""
ROLLOUT_STEPS = 60_000
"""The rollout budget of a decision for ``--cores`` (half a second of the pure core's
``run``-mode budget)."""
ONE_PASS = ("single-pass", "literal")


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


def greedy_position(number: int, preset: str, share: float) -> Game:
    """The position of the greedy player's game of deal ``number`` after ``share`` of its
    moves."""
    played = play_game(Game(number, rules=preset), "greedy").move_stack
    game = Game(number, rules=preset)
    for move in played[:int(share * len(played))]:
        game.push(move)
    return Game.from_position(game.position())


def compare_cores(preset: str, deals: range, nodes: int, verbose: bool,
                  greedy_at: float) -> None:
    """Both cores on the same positions with the same node budget: nodes per second and
    their ratio."""
    seconds = {core.PYTHON: 0.0, core.COMPILED: 0.0}
    total = 0
    for number in deals:
        game = (greedy_position(number, preset, greedy_at) if greedy_at
                else Game(number, rules=preset))
        answers = {}
        for name in seconds:
            with core.using(name):
                start = time.perf_counter()
                result = clairvoyant.solve(game, time_limit=None, max_nodes=nodes)
                took = time.perf_counter() - start
            seconds[name] += took
            answers[name] = (result.score, result.bound, result.proven, result.nodes,
                             [m.text() for m in result.moves]), took
        (pure, pure_s), (compiled, compiled_s) = answers[core.PYTHON], answers[core.COMPILED]
        if pure != compiled:
            sys.exit(f"deal {number} {preset}: the cores differ: {pure[:4]} against "
                     f"{compiled[:4]}")
        total += pure[3]
        if verbose:
            print(f"  {preset} {number}: {pure[3]} nodes, score {pure[0]}, "
                  f"{pure[3] / max(pure_s, 1e-9):,.0f} against "
                  f"{pure[3] / max(compiled_s, 1e-9):,.0f} nodes/s "
                  f"({pure_s / max(compiled_s, 1e-9):.1f}x)", flush=True)
    pure_rate = total / max(seconds[core.PYTHON], 1e-9)
    compiled_rate = total / max(seconds[core.COMPILED], 1e-9)
    where = f"greedy games at {greedy_at:.0%}" if greedy_at else "deals"
    print(f"{preset:12} {where} {deals.start}..{deals.stop - 1} step {deals.step} "
          f"({len(deals)})  budget {nodes:,} nodes  {total:,} nodes, the same in both cores  "
          f"pure Python {pure_rate:,.0f} nodes/s  compiled {compiled_rate:,.0f} nodes/s  "
          f"ratio {compiled_rate / max(pure_rate, 1e-9):.1f}x", flush=True)


def compare_rollouts(preset: str, deals: range, steps: int, every: int,
                     verbose: bool) -> None:
    """Both cores' rollouts on the same positions with the same budget: rollout moves per
    second of processor time and their ratio."""
    seconds = {core.PYTHON: 0.0, core.COMPILED: 0.0}
    decisions = 0
    for number in deals:
        greedy = play_game(Game(number, rules=preset), "greedy")
        game = Game(number, rules=preset)
        choices = 0
        for move in greedy.move_stack:
            view = game.view(with_legal=False)
            moves = [m for m in candidate_moves(view.grid, view.talon, view.stock_count, view)
                     if m.kind != MoveKind.REDEAL]
            game.push(move)
            if len(moves) < 2:
                continue
            choices += 1
            if choices % every:
                continue
            answers = {}
            for name in seconds:
                with core.using(name):
                    start = time.process_time()
                    answers[name] = rollout_scores(view, moves, random.Random(number), steps)
                    seconds[name] += time.process_time() - start
            if answers[core.PYTHON] != answers[core.COMPILED]:
                sys.exit(f"deal {number} {preset} after {game.moves_played - 1} moves: the "
                         f"cores' rollouts differ")
            decisions += 1
        if verbose:
            print(f"  {preset} {number}: {choices} decisions, {choices // every} timed",
                  flush=True)
    pure_rate = decisions * steps / max(seconds[core.PYTHON], 1e-9)
    compiled_rate = decisions * steps / max(seconds[core.COMPILED], 1e-9)
    print(f"{preset:12} rollouts at {decisions} decisions of greedy games {deals.start}.."
          f"{deals.stop - 1}  budget {steps:,} moves, the same scores in both cores  "
          f"pure Python {pure_rate:,.0f} moves/s  compiled {compiled_rate:,.0f} moves/s  "
          f"ratio {compiled_rate / max(pure_rate, 1e-9):.1f}x (processor time)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=200)
    parser.add_argument("--step", type=int, default=1)
    parser.add_argument("--presets", default="classic,single-pass,literal")
    parser.add_argument("--time-limit", default="",
                        help="per preset, e.g. classic=1,single-pass=10 (or one number)")
    parser.add_argument("--cores", action="store_true",
                        help="compare the pure-Python and the compiled search cores")
    parser.add_argument("--nodes", default="",
                        help="with --cores, per preset, e.g. classic=200000 (or one number)")
    parser.add_argument("--greedy-at", type=float, default=0.0,
                        help="with --cores, positions of greedy games after this share of "
                        "their moves (0: the deals)")
    parser.add_argument("--rollout-steps", type=int, default=ROLLOUT_STEPS,
                        help="with --cores, the rollout budget of a decision")
    parser.add_argument("--rollout-every", type=int, default=5,
                        help="with --cores, time every this-many-th decision's rollouts")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    if args.cores:
        if not core.available():
            sys.exit("the compiled search core is not built here: nothing to compare")
        budgets = dict(DEFAULT_NODES)
        for item in filter(None, args.nodes.split(",")):
            if "=" in item:
                name, value = item.split("=", 1)
                budgets[name] = int(value)
            else:
                budgets = {k: int(item) for k in budgets}
        for preset in args.presets.split(","):
            compare_cores(preset, range(args.first, args.last + 1, args.step),
                          budgets.get(preset, 30_000), args.verbose, args.greedy_at)
            if preset in ONE_PASS:
                compare_rollouts(preset, range(args.first, args.last + 1, args.step),
                                 args.rollout_steps, args.rollout_every, args.verbose)
        return
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
