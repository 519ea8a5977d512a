"""Players benchmark: greedy, honest and clairvoyant play on a range of deals, paired.

    .venv/bin/python benchmarks/players.py [--first 1] [--last 200] [--rules classic]
        [--players greedy,honest,clairvoyant] [--time-limit 1.0] [--samples 6] [-v]
        [--out results.jsonl]

``--time-limit`` is the honest player's thinking time per decision (the default
is that of ``devilsgrip autoplay``) and the clairvoyant solver's time per solve.
Deals are played in order, every player on each deal before the next deal, so
a run stopped early still gives a fair comparison over the deals it reached:
with ``-v`` every deal prints its scores, and a summary is printed at the end
(also on Ctrl-C).  The summary gives each player's mean score, win rate and
seconds a move, and each player's paired difference from the first one (its
score less the first player's, deal by deal) with a 95% interval (Student's t).
The seconds are wall-clock and processor time (the thinking is budgeted in work, so
on a shared machine the processor time is the one that tells what a decision costs).
With ``--out`` each deal's result is appended to a JSON-lines file as soon as it is
played, and a deal already there (for the same rules, players, time limit, samples
and core) is read back instead of played again: a stopped run resumes where it was.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from pathlib import Path
from typing import Any

from devilsgrip.game import Game
from devilsgrip.solver import core, play_game


def t_quantile(df: int, p: float = 0.975) -> float:
    """The ``p`` quantile (above one half) of Student's t with ``df`` degrees of freedom.

    The distribution function has a closed form for whole degrees of freedom (a finite
    series in the cosine of ``atan(t / sqrt(df))``, Abramowitz and Stegun 26.7.3 and
    26.7.4); the quantile is found from it by bisection.
    """
    if df < 1 or not 0.5 <= p < 1:
        raise ValueError(f"t_quantile: df {df} must be at least 1 and p {p} in [0.5, 1)")
    inside = 2 * p - 1  # the share of the distribution between -t and t

    def share(t: float) -> float:
        theta = math.atan(t / math.sqrt(df))
        c2 = math.cos(theta) ** 2
        if df % 2:
            term = total = math.cos(theta) if df > 1 else 0.0
            for k in range(1, (df - 1) // 2):
                term *= c2 * (2 * k) / (2 * k + 1)
                total += term
            return 2 / math.pi * (theta + math.sin(theta) * total)
        term = total = 1.0
        for k in range(1, df // 2):
            term *= c2 * (2 * k - 1) / (2 * k)
            total += term
        return math.sin(theta) * total

    low, high = 0.0, 1.0
    while share(high) < inside:
        low, high = high, 2 * high
    for _ in range(200):
        mid = (low + high) / 2
        if share(mid) < inside:
            low = mid
        else:
            high = mid
        if high - low < 1e-12:
            break
    return (low + high) / 2


def interval(diffs: list[int]) -> tuple[float, float, float]:
    """The mean of ``diffs`` and its 95% interval."""
    mean = statistics.mean(diffs)
    if len(diffs) < 2:
        return mean, -math.inf, math.inf
    half = t_quantile(len(diffs) - 1) * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return mean, mean - half, mean + half


def summary(players: list[str], scores: dict[str, list[int]], first: int, rules: str,
            spent: dict[str, float], moves: dict[str, int],
            processor: dict[str, float]) -> None:
    for player in players:
        got = scores[player]
        if not got:
            continue
        wins = sum(s == 0 for s in got)
        print(f"{player:12} deals {first}..{first + len(got) - 1} {rules}: "
              f"mean score {statistics.mean(got):.2f}  "
              f"win rate {100 * wins / len(got):.1f}%  "
              f"({spent[player] / len(got):.1f} s a game, "
              f"{spent[player] / max(1, moves[player]):.3f} s a move; processor time "
              f"{processor[player] / len(got):.1f} s a game, "
              f"{processor[player] / max(1, moves[player]):.3f} s a move)", flush=True)
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


def played_before(path: Path | None, key: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The deals of ``path`` (JSON lines) played with the settings ``key``, by number."""
    if path is None or not path.exists():
        return {}
    rows = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return {row["deal"]: row for row in rows if all(row.get(k) == v for k, v in key.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=200)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", default="greedy,honest,clairvoyant")
    parser.add_argument("--time-limit", type=float, default=1.0)
    parser.add_argument("--samples", type=int, default=6)
    parser.add_argument("--out", type=Path, default=None,
                        help="a JSON-lines file: each deal's result, appended as it is played")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    players = args.players.split(",")
    key = {"rules": args.rules, "players": players, "time_limit": args.time_limit,
           "samples": args.samples, "core": core.name()}
    before = played_before(args.out, key)
    scores: dict[str, list[int]] = {p: [] for p in players}
    spent = dict.fromkeys(players, 0.0)
    processor = dict.fromkeys(players, 0.0)
    moves = dict.fromkeys(players, 0)
    try:
        for number in range(args.first, args.last + 1):
            row = before.get(number)
            if row is None:
                row = {"deal": number, **key, "score": {}, "seconds": {}, "processor": {},
                       "moves": {}}
                for player in players:
                    start, start_processor = time.perf_counter(), time.process_time()
                    game = play_game(Game(number, rules=args.rules), player,
                                     time_limit=args.time_limit, samples=args.samples)
                    row["seconds"][player] = time.perf_counter() - start
                    row["processor"][player] = time.process_time() - start_processor
                    assert game.is_over()
                    row["score"][player] = game.score
                    row["moves"][player] = game.moves_played
                if args.out is not None:
                    with args.out.open("a") as out:
                        out.write(json.dumps(row) + "\n")
            for player in players:
                spent[player] += row["seconds"][player]
                processor[player] += row["processor"][player]
                moves[player] += row["moves"][player]
                scores[player].append(row["score"][player])
            if args.verbose:
                told = ", ".join(f"{p} {row['score'][p]}" for p in players)
                print(f"  deal {number}: {told}", flush=True)
    except KeyboardInterrupt:
        print("interrupted: results over the deals finished so far", flush=True)
    summary(players, scores, args.first, args.rules, spent, moves, processor)


if __name__ == "__main__":
    main()
