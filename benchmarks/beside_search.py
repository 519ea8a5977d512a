"""Benchmark: how long the program's other threads wait while a search runs in one.

The server answers moves, and the terminal draws its screen and clock, in threads beside
the searches of reviews, best lines and hints.  A thread that sleeps 10 ms at a time is
timed first alone (the baseline, in this process), then beside a compiled search of a
position no search proves in seconds (deal 93 after the greedy player's 102nd move, so
the search runs its whole time and its table grows to millions of slots), and beside a
pure-Python one.  Prints the wake-ups, the median and the worst wait, and the worst as a
multiple of the baseline's.  Target: the worst wait beside a search under 0.1 s.

    .venv/bin/python benchmarks/beside_search.py [--seconds 8]
"""

from __future__ import annotations

import argparse
import threading
import time
from collections.abc import Callable

from devilsgrip.game import Game
from devilsgrip.solver import core, play_game
from devilsgrip.solver.portfolio import solve

TICK = 0.01


def waits(busy: Callable[[], None] | None, seconds: float) -> list[float]:
    """The sorted gaps between the wake-ups of a thread sleeping ``TICK`` at a time, for
    ``seconds`` alone or for as long as ``busy`` runs in another thread."""
    finished = threading.Event()
    if busy is None:
        threading.Timer(seconds, finished.set).start()
    else:
        def run() -> None:
            busy()
            finished.set()
        threading.Thread(target=run).start()
    gaps = []
    last = time.perf_counter()
    while not finished.is_set():
        time.sleep(TICK)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
    return sorted(gaps)


def report(label: str, gaps: list[float], baseline: float) -> None:
    median = gaps[len(gaps) // 2]
    print(f"{label:<22} {len(gaps):5d} wake-ups  median {median * 1000:6.1f} ms  "
          f"worst {gaps[-1] * 1000:7.1f} ms  ({gaps[-1] / baseline:.1f}x the baseline's worst)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args()
    position = Game(93)
    for move in play_game(Game(93), "greedy").move_stack[:102]:
        position.push(move)

    alone = waits(None, args.seconds)
    report("alone (baseline)", alone, alone[-1])
    cores = [core.COMPILED] if core.available() else []
    for name in [*cores, core.PYTHON]:
        def search(name: str = name) -> None:
            with core.using(name):
                solve(position, time_limit=args.seconds)
        report(f"beside a {name} search", waits(search, args.seconds), alone[-1])


if __name__ == "__main__":
    main()
