"""Engine speed baseline: legal-move generation and complete greedy games.

Run: ``.venv/bin/python benchmarks/engine.py`` (``--deals N``, default 200).

* move generation: ``generate_moves()`` with and without swaps, over the
  positions met along the greedy games of deals 1..N (each timed for a
  fixed number of rounds over all positions);
* ``is_over()`` calls per second over the same positions;
* greedy games: deals 1..N played to ``is_over`` by a fixed simple policy,
  under each preset: a talon build if any (the first), else a grid build
  that empties a cell which then gets filled, else deal or redeal, else
  (card mode only: peeling) the first grid build; at most 3000 moves.
"""

from __future__ import annotations

import argparse
import time

from devilsgrip import Game, Move, MoveKind

MAX_MOVES = 3000


def greedy_move(game: Game) -> Move | None:
    moves = game.generate_moves()
    if not moves:
        return None
    builds: list[Move] = []
    for move in moves:
        if move.kind == MoveKind.TALON:
            return move
        if move.kind == MoveKind.BUILD:
            builds.append(move)
    score = game.score
    for move in builds:
        game.push(move)
        filled = game.score < score
        game.pop()
        if filled:
            return move
    for move in moves:
        if move.kind in (MoveKind.DEAL, MoveKind.REDEAL):
            return move
    return builds[0] if builds else None


def greedy_game(number: int, rules: str, positions: list[Game] | None = None) -> Game:
    game = Game(number, rules=rules)
    for _ in range(MAX_MOVES):
        if positions is not None:
            positions.append(game.copy())
        if game.is_over():
            break
        move = greedy_move(game)
        if move is None:
            break
        game.push(move)
    return game


def bench_generation(positions: list[Game], swaps: bool, seconds: float) -> tuple[float, float]:
    """Generations per second and the mean number of moves generated."""
    calls = total = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for game in positions:
            total += len(game.generate_moves(swaps=swaps))
        calls += len(positions)
    elapsed = time.perf_counter() - start
    return calls / elapsed, total / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=3.0, help="per generation timing")
    args = parser.parse_args()
    deals = range(1, args.deals + 1)

    positions: list[Game] = []
    for number in deals:
        greedy_game(number, "classic", positions)
    # every 5th position keeps the sample varied and the memory small
    sample = positions[::5]
    print(f"move generation over {len(sample)} positions from deals 1..{args.deals}")
    print(f"  {'kind':<22}{'calls/s':>12}{'moves/call':>12}")
    for swaps in (False, True):
        rate, mean = bench_generation(sample, swaps, args.seconds)
        label = "with swaps" if swaps else "without swaps"
        print(f"  {label:<22}{rate:>12,.0f}{mean:>12.1f}")
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        for game in sample:
            game.is_over()
        calls += len(sample)
    print(f"  {'is_over()':<22}{calls / (time.perf_counter() - start):>12,.0f}")
    print()
    print(f"greedy games, deals 1..{args.deals}")
    print(f"  {'rules':<14}{'games/s':>10}{'moves/game':>12}{'mean score':>12}{'won':>6}"
          f"{'capped':>8}")
    for rules in ("classic", "single-pass", "literal"):
        start = time.perf_counter()
        games = [greedy_game(n, rules) for n in deals]
        elapsed = time.perf_counter() - start
        moves = sum(g.moves_played for g in games) / len(games)
        score = sum(g.score for g in games) / len(games)
        won = sum(g.is_won() for g in games)
        capped = sum(not g.is_over() for g in games)
        print(f"  {rules:<14}{len(games) / elapsed:>10.1f}{moves:>12.1f}{score:>12.2f}"
              f"{won:>6}{capped:>8}")


if __name__ == "__main__":
    main()
