"""Helpers shared by the store tests: finished games, near-won positions, the v1 schema."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from devilsgrip.cards import CARD_CODES
from devilsgrip.game import Game
from devilsgrip.notation import Move, format_cards

STORE_CHILD = Path(__file__).resolve().parent / "store_child.py"


def play_to_end(game: Game, seed: int, limit: int = 5000) -> Game:
    """Random non-swap moves until the game is over (single-pass games end quickly)."""
    rng = random.Random(seed)
    for _ in range(limit):
        if game.is_over():
            return game
        game.play(rng.choice(game.generate_moves()))
    raise AssertionError("the random playout did not end")


def over_game(number: int, seed: int = 0) -> Game:
    """A real single-pass game played to its end (status over)."""
    game = play_to_end(Game(number, rules="single-pass"), seed)
    assert game.status.value == "over"
    return game


def given_up_game(number: int, moves: int, rules: str = "classic") -> Game:
    """A real game: ``moves`` deals/builds, then given up."""
    game = Game(number, rules=rules)
    rng = random.Random(number)
    for _ in range(moves):
        game.play(rng.choice(game.generate_moves()))
    game.give_up()
    return game


def near_won_position(missing: int = 1, rules: str = "classic") -> str:
    """A position one talon build (per missing card) from a win.

    The grid holds 24 complete piles except that the top (J, Q or K) of the
    first ``missing`` piles lies in the talon.
    """
    piles: list[list[int]] = []
    for _copy in range(2):
        for suit in range(4):
            for low in (2, 3, 4):
                piles.append([suit * 12 + r - 2 for r in (low, low + 3, low + 6, low + 9)])
    talon = [piles[i].pop() for i in range(missing)]
    rows = []
    for r in range(3):
        rows.append(",".join(format_cards(p) for p in piles[r * 8:(r + 1) * 8]))
    return f"{'/'.join(rows)} - {format_cards(reversed(talon))} 0 0 {rules}"


def win_moves(position: str) -> list[Move]:
    """The talon builds that win from :func:`near_won_position`."""
    game = Game.from_position(position)
    moves: list[Move] = []
    while game.talon:
        move = next(m for m in game.generate_moves() if m.text().startswith("t-"))
        game.play(move)
        moves.append(move)
    assert game.is_won(), [CARD_CODES[c] for c in game.talon]
    return moves


V1_SCHEMA = """
PRAGMA application_id = 1145524816;
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    number INTEGER,
    deck TEXT,
    rules TEXT NOT NULL,
    started TEXT NOT NULL,
    moves TEXT NOT NULL DEFAULT '',
    result TEXT NOT NULL DEFAULT 'in progress',
    score INTEGER NOT NULL,
    finished TEXT
);
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
PRAGMA user_version = 1;
"""
"""The first released schema, written out by hand (not by the code under test)."""


def make_v1_database(path: Path, rows: Sequence[tuple[object, ...]],
                     settings: dict[str, str]) -> None:
    """A version-1 database (rollback journal, as version 1 left it) with ``rows``:
    (number, deck, rules, started, moves, result, score, finished)."""
    con = sqlite3.connect(path)
    con.executescript(V1_SCHEMA)
    con.executemany(
        "INSERT INTO games (number, deck, rules, started, moves, result, score, finished) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    con.executemany("INSERT INTO settings (key, value) VALUES (?, ?)", settings.items())
    con.commit()
    con.close()
