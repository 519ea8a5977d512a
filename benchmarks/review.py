"""Review benchmark: seconds per review and the share of values proven, per preset.

    .venv/bin/python benchmarks/review.py [--rules classic] [--first 1] [--last 50]
        [--player greedy|honest|both] [--time-limit 10] [--move-time 0.1] [-v]

Each deal of the range is played by the greedy player, the honest player, or
both (the honest player with ``--move-time`` seconds a move, to keep the
benchmark short), then reviewed with ``--time-limit`` seconds for the whole
review.  Prints, per player, the number of games and moves, the median and
worst seconds of a review, the share of values proven (and the games with every
value proven), how many games had a
first lost win, and the seconds as multiples of the baseline timed first in
the same process (``benchmarks/reference.py``).  The target: a classic game of
about 200 moves reviewed with every value proven within 10 s on this machine.
"""

from __future__ import annotations

import argparse
import statistics
import time

from reference import reference_seconds

from devilsgrip.game import Game
from devilsgrip.review import review_game
from devilsgrip.solver import play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=50)
    parser.add_argument("--player", choices=("greedy", "honest", "both"), default="both")
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--move-time", type=float, default=0.1)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    reference = reference_seconds()
    print(f"baseline (benchmarks/reference.py): {reference * 1000:.1f} ms")
    players = ("greedy", "honest") if args.player == "both" else (args.player,)
    for player in players:
        seconds: list[float] = []
        proven: list[float] = []
        moves = lost = 0
        for number in range(args.first, args.last + 1):
            game = play_game(Game(number, rules=args.rules), player, time_limit=args.move_time)
            start = time.perf_counter()
            review = review_game(game, time_limit=args.time_limit)
            took = time.perf_counter() - start
            seconds.append(took)
            proven.append(review.proven_share)
            moves += len(game.move_stack)
            lost += review.first_lost_win is not None
            if args.verbose:
                print(f"  {player} deal {number}: {len(game.move_stack)} moves, score "
                      f"{game.score}, {took:.2f} s, {review.proven_share:.0%} proven, lost "
                      f"at {review.first_lost_win}", flush=True)
        median = statistics.median(seconds)
        print(f"{args.rules:12} {player:7} deals {args.first}..{args.last}: "
              f"{len(seconds)} games, {moves} moves, review median {median:.2f} s, "
              f"worst {max(seconds):.2f} s, proven {statistics.mean(proven):.1%} "
              f"(every value in {sum(1 for x in proven if x == 1.0)} games), "
              f"first lost win in {lost}  "
              f"(median {median / reference:.0f}x baseline, worst "
              f"{max(seconds) / reference:.0f}x)")


if __name__ == "__main__":
    main()
