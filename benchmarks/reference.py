"""The speed benchmarks' baseline: a fixed pure-Python workload timed in the same process.

The solver's and the hints' seconds depend on how fast this machine runs Python
at the moment: the same hints took up to 15% longer from one run to the next on
the shared 2-core machine.  ``benchmarks/solver.py`` and ``benchmarks/hints.py``
time this workload first and print their figures also as multiples of it, so
that runs made on different machines, or on one machine under different loads,
can be set side by side.

The workload uses none of the project's code (a change to the project cannot
change the baseline) and does the kind of work the search does: arithmetic and
bit operations on integers wider than a machine word, list indexing, and dict
lookups and inserts.

    .venv/bin/python benchmarks/reference.py
"""

from __future__ import annotations

import time

ROUNDS = 200_000
"""Steps of one run of the workload (about 0.1 s on the project's 2-core machine)."""


def _work() -> int:
    state = 0x2545F4914F6CDD1D
    wide = (1 << 192) - 1
    table: dict[int, int] = {}
    counts = [0] * 48
    acc = 0
    for i in range(ROUNDS):
        state = (state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        card = state % 48
        counts[card] += 1
        grid = ((state << 128) | (state << 64) | state) & wide
        key = grid ^ (i << 2)
        table[key & 0xFFFFF] = table.get(key & 0xFFFFF, 0) + counts[card]
        acc += ((grid >> (2 * card)) & 3) + (grid | (grid >> 1)).bit_count()
    return acc + len(table)


def reference_seconds(repeat: int = 5) -> float:
    """The best of ``repeat`` timed runs of the workload, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        _work()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    print(f"reference workload: {reference_seconds() * 1000:.1f} ms (best of 5)")


if __name__ == "__main__":
    main()
