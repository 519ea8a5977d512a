"""Players benchmark: greedy, honest and clairvoyant play on a range of deals, paired.

    .venv/bin/python benchmarks/players.py [--first 1] [--last 200] [--rules classic]
        [--players greedy,honest,clairvoyant] [--time-limit 1.0] [--samples 6] [-v]

``--time-limit`` is the honest player's thinking time per decision (the default
is that of ``devilsgrip autoplay``) and the clairvoyant solver's time per solve.
Deals are played in order, every player on each deal before the next deal, so
a run stopped early still gives a fair comparison over the deals it reached:
with ``-v`` every deal prints its scores, and a summary is printed at the end
(also on Ctrl-C).  The summary gives each player's mean score, win rate and
seconds a move, and each player's paired difference from the first one (its
score less the first player's, deal by deal) with a 95% interval (Student's t).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from devilsgrip.game import Game
from devilsgrip.solver import play_game

T_975: dict[int, float] = {
    1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
    9: 2.262, 10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 25: 2.060, 30: 2.042, 40: 2.021,
    60: 2.000, 120: 1.980,
}
"""The 97.5% quantile of Student's t by degrees of freedom (the nearest fewer is used)."""


def t_quantile(df: int) -> float:
    return T_975[max(d for d in T_975 if d <= df)] if df < 120 else 1.96


def interval(diffs: list[int]) -> tuple[float, float, float]:
    """The mean of ``diffs`` and its 95% interval."""
    mean = statistics.mean(diffs)
    if len(diffs) < 2:
        return mean, -math.inf, math.inf
    half = t_quantile(len(diffs) - 1) * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return mean, mean - half, mean + half


def summary(players: list[str], scores: dict[str, list[int]], first: int, rules: str,
            spent: dict[str, float], moves: dict[str, int]) -> None:
    for player in players:
        got = scores[player]
        if not got:
            continue
        wins = sum(s == 0 for s in got)
        print(f"{player:12} deals {first}..{first + len(got) - 1} {rules}: "
              f"mean score {statistics.mean(got):.2f}  "
              f"win rate {100 * wins / len(got):.1f}%  "
              f"({spent[player] / len(got):.1f} s a game, "
              f"{spent[player] / max(1, moves[player]):.3f} s a move)", flush=True)
    honest = sum(s == 0 for s in scores.get("honest", []))
    clair = sum(s == 0 for s in scores.get("clairvoyant", []))
    if clair and "honest" in scores and len(scores["honest"]) == len(scores["clairvoyant"]):
        print(f"honest wins {100 * honest / clair:.0f}% as often as clairvoyant", flush=True)
    base = players[0]
    for player in players[1:]:
        count = min(len(scores[base]), len(scores[player]))
        if not count:
            continue
        diffs = [a - b for a, b in zip(scores[player][:count], scores[base][:count],
                                       strict=True)]
        mean, low, high = interval(diffs)
        print(f"{player} - {base}: {mean:+.2f} cards a deal, 95% interval "
              f"[{low:+.2f}, {high:+.2f}] over {count} deals", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=200)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", default="greedy,honest,clairvoyant")
    parser.add_argument("--time-limit", type=float, default=1.0)
    parser.add_argument("--samples", type=int, default=6)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    players = args.players.split(",")
    scores: dict[str, list[int]] = {p: [] for p in players}
    spent = dict.fromkeys(players, 0.0)
    moves = dict.fromkeys(players, 0)
    try:
        for number in range(args.first, args.last + 1):
            row = []
            for player in players:
                start = time.perf_counter()
                game = play_game(Game(number, rules=args.rules), player,
                                 time_limit=args.time_limit, samples=args.samples)
                spent[player] += time.perf_counter() - start
                moves[player] += game.moves_played
                assert game.is_over()
                scores[player].append(game.score)
                row.append(f"{player} {game.score}")
            if args.verbose:
                print(f"  deal {number}: {', '.join(row)}", flush=True)
    except KeyboardInterrupt:
        print("interrupted: results over the deals finished so far", flush=True)
    summary(players, scores, args.first, args.rules, spent, moves)


if __name__ == "__main__":
    main()
