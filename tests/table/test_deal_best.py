"""The deal's best score once a game's result stands: the game itself counts."""

from __future__ import annotations

from pathlib import Path

from devilsgrip.game import Game
from devilsgrip.session import PlaySession
from devilsgrip.solver import solve
from devilsgrip.store import Store
from devilsgrip.table import Words
from devilsgrip.table.controller import Table

WINNABLE = 2
"""Deal 2 (classic) is won by the clairvoyant solver in a split second."""


def test_a_win_after_a_game_given_up_is_the_deals_new_best(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "games.sqlite3")
    try:
        first = Table(PlaySession.start(store, number=WINNABLE), Words("en"))
        first.stock()
        first.give_up()
        left = first.game.score
        assert first.snapshot().summary.best == left  # a result that stands counts

        line = solve(Game(WINNABLE), time_limit=10.0).moves
        table = Table(PlaySession.start(store, number=WINNABLE), Words("en"))
        assert table.snapshot().summary.best == left
        for move in line[:-1]:
            table.play(move)
        about = table.snapshot().summary
        assert (about.best, about.best_before, about.new_best) == (left, left, False)
        table.play(line[-1])
        about = table.snapshot().summary
        assert table.game.is_won() and about.final
        assert (about.best, about.best_before, about.new_best) == (0, left, True)
        assert table.deal_best() == 0 and table.best_score() == left
    finally:
        store.close()
