"""Review benchmark: seconds per review and the share of values proven, per preset.

    .venv/bin/python benchmarks/review.py [--rules classic] [--first 1] [--last 50]
        [--player greedy|honest|both] [--time-limit 10] [--move-time 0.1] [--memory MIB] [-v]

Each deal of the range is played by the greedy player, the honest player, or
both (the honest player with ``--move-time`` seconds a move, to keep the
benchmark short), then reviewed with ``--time-limit`` seconds for the whole
review.  Prints, per player, the number of games and moves, the median and
worst seconds of a review, the share of values proven (and the games with every
value proven), how many games had a
first lost win, and the seconds as multiples of the baseline timed first in
the same process (``benchmarks/reference.py``), with the processor time the reviews
used (their own and the win search's beside them) and the load average; ``-v`` prints
the same for each game, with the positions its review left open.  On a busy machine
a review of 10 s gets much less than 10 s of processor time, so read its share of
values proven beside them.  The target: a classic game of about 200 moves reviewed
with every value proven within 10 s on this machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time

from reference import reference_seconds

from devilsgrip.game import Game
from devilsgrip.review import review_game
from devilsgrip.solver import play_game
from devilsgrip.solver.search import entries_within


def processor_seconds() -> float:
    """Processor time used so far by this process and its ended children (the win
    search beside a review runs in one), user and system."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=50)
    parser.add_argument("--player", choices=("greedy", "honest", "both"), default="both")
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--move-time", type=float, default=0.1)
    parser.add_argument("--memory", type=int, default=None,
                        help="MiB for each review's table (and its win search's); default "
                             "the core's own")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    reference = reference_seconds()
    entries = entries_within(args.memory)
    print(f"baseline (benchmarks/reference.py): {reference * 1000:.1f} ms")
    players = ("greedy", "honest") if args.player == "both" else (args.player,)
    for player in players:
        seconds: list[float] = []
        processor: list[float] = []
        proven: list[float] = []
        moves = lost = 0
        for number in range(args.first, args.last + 1):
            game = play_game(Game(number, rules=args.rules), player, time_limit=args.move_time)
            start, used = time.perf_counter(), processor_seconds()
            review = review_game(game, time_limit=args.time_limit, table_entries=entries)
            took = time.perf_counter() - start
            cpu = processor_seconds() - used
            seconds.append(took)
            processor.append(cpu)
            proven.append(review.proven_share)
            moves += len(game.move_stack)
            lost += review.first_lost_win is not None
            if args.verbose:
                values = [review.start_proven, *(m.proven for m in review.moves)]
                open_at = [i for i, known in enumerate(values) if not known]
                print(f"  {player} deal {number}: {len(game.move_stack)} moves, score "
                      f"{game.score}, {took:.2f} s ({cpu:.2f} s processor, load "
                      f"{os.getloadavg()[0]:.2f}), {review.proven_share:.0%} proven, lost "
                      f"at {review.first_lost_win}"
                      + (f", open after moves {_spans(open_at)}" if open_at else ""),
                      flush=True)
        median = statistics.median(seconds)
        print(f"{args.rules:12} {player:7} deals {args.first}..{args.last}: "
              f"{len(seconds)} games, {moves} moves, review median {median:.2f} s, "
              f"worst {max(seconds):.2f} s, proven {statistics.mean(proven):.1%} "
              f"(every value in {sum(1 for x in proven if x == 1.0)} games), "
              f"first lost win in {lost}, processor {sum(processor):.1f} s in all "
              f"(median {statistics.median(processor):.2f} s, load at the end "
              f"{os.getloadavg()[0]:.2f})  "
              f"(median {median / reference:.0f}x baseline, worst "
              f"{max(seconds) / reference:.0f}x)")


def _spans(indices: list[int]) -> str:
    """``[3, 4, 5, 9]`` as ``"3-5, 9"``."""
    out: list[str] = []
    for i in indices:
        if out and out[-1].split("-")[-1] == str(i - 1):
            out[-1] = f"{out[-1].split('-')[0]}-{i}"
        else:
            out.append(str(i))
    return ", ".join(out)


if __name__ == "__main__":
    main()
