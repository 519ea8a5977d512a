"""Players benchmark: mean score and win rate of greedy, honest and clairvoyant play.

    .venv/bin/python benchmarks/players.py [--first 1] [--last 200] [--rules classic]
        [--players greedy,honest,clairvoyant] [--time-limit 0.5] [--samples 4]

``--time-limit`` is the honest player's thinking time per decision and the
clairvoyant solver's time per solve.
"""

from __future__ import annotations

import argparse
import statistics
import time

from devilsgrip.game import Game
from devilsgrip.solver import play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=200)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", default="greedy,honest,clairvoyant")
    parser.add_argument("--time-limit", type=float, default=0.5)
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    wins: dict[str, int] = {}
    for player in args.players.split(","):
        start = time.perf_counter()
        scores = []
        for number in range(args.first, args.last + 1):
            game = play_game(Game(number, rules=args.rules), player,
                             time_limit=args.time_limit, samples=args.samples)
            assert game.is_over()
            scores.append(game.score)
            if args.verbose:
                print(f"  {player} {number}: {game.score}", flush=True)
        count = len(scores)
        wins[player] = sum(s == 0 for s in scores)
        print(f"{player:12} deals {args.first}..{args.last} {args.rules}: "
              f"mean score {statistics.mean(scores):.2f}  "
              f"win rate {100 * wins[player] / count:.1f}%  "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
    if wins.get("clairvoyant") and "honest" in wins:
        print(f"honest wins {100 * wins['honest'] / wins['clairvoyant']:.0f}% as often "
              "as clairvoyant")


if __name__ == "__main__":
    main()
