"""``--memory``: how much the search's table of positions may take, from the command line
to the table of every search that reads it."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from devilsgrip import Game
from devilsgrip.cli import main
from devilsgrip.i18n import set_language
from devilsgrip.records import write_record
from devilsgrip.solver import core, play_game
from devilsgrip.solver.search import (
    COMPILED_SLOT_BYTES,
    COMPILED_TT_ENTRIES,
    PURE_ENTRY_BYTES,
    SharedTable,
    entries_within,
)
from devilsgrip.table import long_search_memory

MIB = 2 ** 20


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("DEVILSGRIP_DB", os.devnull)
    set_language("en")


@pytest.mark.skipif(core.compiled() is None, reason="the compiled core is not built")
def test_the_compiled_table_holds_what_fits_of_its_doubling_slots() -> None:
    for megabytes in (16, 17, 100, 191, 192, 193, 1000, 1536, 4096):
        entries = entries_within(megabytes)
        slots = 4 * entries // 3
        assert slots & (slots - 1) == 0 and 4 * entries == 3 * slots  # a power of two
        assert slots * COMPILED_SLOT_BYTES <= megabytes * MIB  # it fits
        assert 2 * slots * COMPILED_SLOT_BYTES > megabytes * MIB  # twice would not
    # the default table is the one that 192 MiB hold
    assert entries_within(192) >= COMPILED_TT_ENTRIES > entries_within(191)


def test_the_pure_table_holds_about_its_entries_bytes_each() -> None:
    with core.using(core.PYTHON):
        assert entries_within(100) == 100 * MIB // PURE_ENTRY_BYTES
        assert entries_within(16) < entries_within(17) < entries_within(1000)


def test_solve_gives_its_search_the_table_the_memory_allows(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from devilsgrip.solver import portfolio

    asked: list[int | None] = []
    real = portfolio.solve

    def solve(game: Game, **options: Any) -> Any:
        asked.append(options.get("tt_entries"))
        return real(game, **options)

    monkeypatch.setattr(portfolio, "solve", solve)
    assert main(["solve", "5", "--memory", "64", "--time-limit", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["score"] == 0
    assert main(["solve", "5", "--time-limit", "5", "--json"]) == 0
    assert asked == [entries_within(64), None]  # None: the core's default
    # a long search gets the larger table where the machine has room (it ends when proven)
    assert main(["solve", "5", "--time-limit", "30", "--json"]) == 0
    assert asked[2] == entries_within(long_search_memory())
    assert main(["solve", "5", "--memory", "64", "--time-limit", "30", "--json"]) == 0
    assert asked[3] == entries_within(64)  # what was asked for, whatever the time


def _finished(tmp_path: Path) -> Path:
    path = tmp_path / "game.dgr"
    path.write_text(write_record(play_game(Game(3), "greedy")), encoding="utf-8")
    return path


def test_a_review_and_its_win_search_share_tables_of_the_entries_asked(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    from devilsgrip import review

    made: list[int] = []

    class Recorded(SharedTable):
        def __init__(self, game: Game, entries: int | None = None) -> None:
            super().__init__(game, entries)
            made.append(self.max_entries)

    monkeypatch.setattr(review, "SharedTable", Recorded)
    assert main(["review", str(_finished(tmp_path)), "--memory", "32", "--time-limit", "1",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["moves"]
    assert made == [entries_within(32)]
    # the win search's halving (beside the review, in a process of its own) gets it too
    game = play_game(Game(3), "greedy")
    review._boundary_beside(Game(3), list(game.move_stack), None,
                            review.time.monotonic() + 0.5, 5000)
    assert made[1:] and set(made[1:]) == {5000}


def test_a_stored_game_is_reviewed_with_the_table_asked(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    from devilsgrip import review
    from devilsgrip.session import PlaySession
    from devilsgrip.store import Store

    asked: list[int | None] = []
    real = review.review_game

    def review_game(game: Game, **options: Any) -> Any:
        asked.append(options.get("table_entries"))
        return real(game, **{**options, "time_limit": 1.0})

    monkeypatch.setattr(review, "review_game", review_game)
    db = tmp_path / "g.sqlite3"
    with Store.open(db) as store:
        over = PlaySession.start(store, number=7)
        for move in play_game(Game(7), "greedy").move_stack:
            over.play(move)
    assert main(["review", "--game-id", str(over.game_id), "--db", str(db), "--memory", "48",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["final_score"] == over.game.score
    assert asked == [entries_within(48)]


def test_with_no_redeal_left_the_win_search_keeps_as_many_lost_positions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from devilsgrip.solver import portfolio, winnable, wins

    asked: list[int | None] = []
    real = winnable.prove_winnable

    def prove(game: Game, **options: Any) -> Any:
        asked.append(options.get("dead_entries"))
        return real(game, **options)

    monkeypatch.setattr(portfolio, "prove_winnable", prove)
    monkeypatch.setattr(wins, "prove_winnable", prove)
    game = Game(5, rules="single-pass")
    portfolio.solve(game, time_limit=None, max_nodes=2000, tt_entries=5000)  # in this process
    portfolio._win_search(game, 1.0, 6000)  # what the process beside a solve runs
    wins.can_win(game, time_limit=1.0, entries=7000)  # what a review's halving asks
    portfolio.solve(game, time_limit=None, max_nodes=2000)
    assert asked == [5000, 6000, 7000, None]
    # the search itself keeps that many, the default when none is asked
    made: list[int] = []
    real_new = winnable.new_win_search

    def new_win_search(game: Game, **options: Any) -> Any:
        search = real_new(game, **options)
        made.append(search.dead_entries)
        return search

    monkeypatch.setattr(winnable, "new_win_search", new_win_search)
    real(Game(6, rules="single-pass"), time_limit=None, max_nodes=500, dead_entries=4000)
    real(Game(6, rules="single-pass"), time_limit=None, max_nodes=500)
    assert made == [4000, winnable.DEAD_ENTRIES]
