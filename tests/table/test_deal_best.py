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


def test_a_win_faster_than_every_earlier_one_under_the_rules_is_told(tmp_path: Path) -> None:
    """The fastest win compares clocks of the player's wins under the same rules (any deal),
    only once the game is won; wins without a kept clock, other players' and other rules'
    do not count."""
    store = Store.open(tmp_path / "games.sqlite3")
    try:
        line = solve(Game(WINNABLE), time_limit=10.0).moves
        won = Game(WINNABLE)
        won.play_all(list(line))
        store.save_game(won, play_seconds=5000.0)
        store.save_game(won, play_seconds=1.0, owner="someone else")
        store.save_game(won)  # imported without a clock
        other = Game(WINNABLE, rules="classic,draw=1")
        assert store.fastest_win("classic") == 1.0  # every player
        assert store.fastest_win("classic", "local") == 5000.0
        assert store.fastest_win("classic", "someone else") == 1.0
        assert store.fastest_win(other.rules, "local") is None

        table = Table(PlaySession.start(store, number=WINNABLE), Words("en"))
        for move in line[:-1]:
            table.play(move)
        about = table.snapshot().summary
        assert (about.fastest_before, about.new_fastest) == (None, False)  # not won yet
        table.play(line[-1])
        about = table.snapshot().summary
        assert table.game.is_won() and 0 < table.session.elapsed() < 5000
        assert (about.fastest_before, about.new_fastest) == (5000.0, True)
        assert about.to_dict()["new_fastest"] is True
        assert store.fastest_win("classic", "local") == table.session.elapsed()

        # the next win, slower than that one, is not the fastest
        again = Table(PlaySession.start(store, number=WINNABLE), Words("en"))
        again.session.play_seconds = 6000.0
        for move in line:
            again.play(move)
        about = again.snapshot().summary
        assert about.fastest_before == table.session.elapsed() and not about.new_fastest
    finally:
        store.close()
