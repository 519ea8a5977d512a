"""Players benchmark: mean score and win rate of greedy, honest and clairvoyant play.

    .venv/bin/python benchmarks/players.py [--first 1] [--last 200] [--rules classic]
        [--players greedy,honest,clairvoyant] [--time-limit 0.5] [--samples 4] [-v]

``--time-limit`` is the honest player's thinking time per decision and the
clairvoyant solver's time per solve.  Deals are played in order, every player
on each deal before the next deal, so a run stopped early still gives a fair
comparison over the deals it reached: with ``-v`` every deal prints its scores
and the running totals, and a summary is printed at the end (also on Ctrl-C).
"""

from __future__ import annotations

import argparse
import statistics
import time

from devilsgrip.game import Game
from devilsgrip.solver import play_game


def summary(players: list[str], scores: dict[str, list[int]], first: int, rules: str,
            spent: dict[str, float]) -> None:
    for player in players:
        got = scores[player]
        if not got:
            continue
        wins = sum(s == 0 for s in got)
        print(f"{player:12} deals {first}..{first + len(got) - 1} {rules}: "
              f"mean score {statistics.mean(got):.2f}  "
              f"win rate {100 * wins / len(got):.1f}%  "
              f"({spent[player] / len(got):.1f} s a game)", flush=True)
    honest = sum(s == 0 for s in scores.get("honest", []))
    clair = sum(s == 0 for s in scores.get("clairvoyant", []))
    if clair and "honest" in scores and len(scores["honest"]) == len(scores["clairvoyant"]):
        print(f"honest wins {100 * honest / clair:.0f}% as often as clairvoyant", flush=True)


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
    players = args.players.split(",")
    scores: dict[str, list[int]] = {p: [] for p in players}
    spent = dict.fromkeys(players, 0.0)
    try:
        for number in range(args.first, args.last + 1):
            row = []
            for player in players:
                start = time.perf_counter()
                game = play_game(Game(number, rules=args.rules), player,
                                 time_limit=args.time_limit, samples=args.samples)
                spent[player] += time.perf_counter() - start
                assert game.is_over()
                scores[player].append(game.score)
                row.append(f"{player} {game.score}")
            if args.verbose:
                wins = "  ".join(f"{p} {sum(s == 0 for s in scores[p])}" for p in players)
                print(f"  deal {number}: {', '.join(row)}   (wins so far: {wins})", flush=True)
    except KeyboardInterrupt:
        print("interrupted: results over the deals finished so far", flush=True)
    summary(players, scores, args.first, args.rules, spent)


if __name__ == "__main__":
    main()
