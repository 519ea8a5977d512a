"""Statistics against hand-made game lists, and from real stored games."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from store_helpers import given_up_game, near_won_position, over_game, win_moves

from devilsgrip.game import Game
from devilsgrip.session import PlaySession
from devilsgrip.store import GameResult, Store, compute_stats

W = "won"
O = "over"  # noqa: E741
G = "given up"


def results(*items: tuple[int, str] | tuple[int, str, int]) -> list[GameResult]:
    out = []
    for i, item in enumerate(items):
        score, status = item[0], item[1]
        number = item[2] if len(item) > 2 else None
        out.append(GameResult(score=score, status=status, number=number, hints=i % 2))
    return out


def test_empty() -> None:
    s = compute_stats([])
    assert (s.played, s.won, s.win_rate, s.best_score, s.average_score) == (0, 0, 0.0, None, None)
    assert s.current_streak == s.longest_streak == 0
    assert s.histogram == {} and s.best_by_number == {}


def test_hand_made_list() -> None:
    games = results(
        (0, W, 1), (0, W, 2), (7, O, 1), (0, W, 3), (0, W, 4), (0, W, 5), (2, O, 2),
        (12, G, 6), (0, W, 6), (4, O, 7), (4, O, 7), (1, O), (0, W, 8),
    )
    s = compute_stats(games, rules="classic")
    assert s.played == 13
    assert s.won == 7
    assert s.given_up == 1
    assert abs(s.win_rate - 7 / 13) < 1e-12
    assert s.best_score == 0
    assert s.average_score == (7 + 2 + 12 + 4 + 4 + 1) / 13
    assert s.ratings == {"won": 7, "brilliant": 2, "excellent": 2, "good": 1, "none": 1}
    assert s.longest_streak == 3  # games 4..6
    assert s.current_streak == 1
    assert s.histogram == {0: 7, 1: 1, 2: 1, 4: 2, 7: 1, 12: 1}
    assert s.best_by_number == {1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 4, 8: 0}
    assert s.hints == 6
    d = s.to_dict()
    assert d["histogram"] == {"0": 7, "1": 1, "2": 1, "4": 2, "7": 1, "12": 1}
    assert d["rules"] == "classic" and d["win_rate"] == s.win_rate


def test_in_progress_games_do_not_count() -> None:
    s = compute_stats(results((0, W), (30, "in progress"), (0, W)))
    assert s.played == 2 and s.current_streak == 2 and s.histogram == {0: 2}


def test_streak_broken_by_give_up_and_rating_bounds() -> None:
    s = compute_stats(results((0, W), (0, W), (72, G), (10, O), (11, O), (5, O), (3, O)))
    assert (s.current_streak, s.longest_streak) == (0, 2)
    assert s.ratings == {"won": 2, "brilliant": 0, "excellent": 2, "good": 1, "none": 2}


outcome = st.one_of(
    st.just((0, W)),
    st.tuples(st.integers(1, 72), st.sampled_from([O, G])),
    st.tuples(st.integers(0, 72), st.just("in progress")),
)


@given(st.lists(outcome, max_size=60))
def test_stats_properties(items: list[tuple[int, str]]) -> None:
    games = [GameResult(score=s, status=t) for s, t in items]
    s = compute_stats(games)
    done = [(sc, t) for sc, t in items if t != "in progress"]
    assert s.played == len(done) == sum(s.histogram.values()) == sum(s.ratings.values())
    assert s.won == s.ratings["won"] == sum(1 for _sc, t in done if t == W)
    # streaks, the slow obvious way
    runs, run = [0], 0
    for _sc, t in done:
        run = run + 1 if t == W else 0
        runs.append(run)
    assert s.longest_streak == max(runs)
    assert s.current_streak == runs[-1]
    if done:
        assert s.best_score == min(sc for sc, _t in done)
        assert s.average_score is not None
        assert abs(s.average_score - sum(sc for sc, _t in done) / len(done)) < 1e-9


def _won_session(store: Store, owner: str = "local") -> PlaySession:
    position = near_won_position(2)
    session = PlaySession.start(store, position=position, owner=owner)
    for move in win_moves(position):
        session.play(move)
    assert session.game.is_won()
    return session


def test_store_stats_from_real_games(store: Store) -> None:
    over = over_game(3, seed=1)
    store.save_game(over, started="2024-01-01T00:00:00+00:00", ended="2024-01-01T01:00:00+00:00")
    gave = given_up_game(4, 30)
    store.save_game(gave, started="2024-01-02T00:00:00+00:00", ended="2024-01-02T01:00:00+00:00",
                    hints=3)
    store.save_game(Game(5), started="2024-01-03T00:00:00+00:00")  # in progress
    w1 = _won_session(store)
    w2 = _won_session(store)
    web = _won_session(store, owner="web:abc")
    assert w1.game_id and w2.game_id and web.game_id

    all_rules = store.stats()
    assert all_rules.played == 5
    assert all_rules.won == 3
    assert all_rules.unfinished == 1
    assert all_rules.current_streak == all_rules.longest_streak == 3
    assert all_rules.given_up == 1 and all_rules.hints == 3
    assert all_rules.histogram == dict(sorted(Counter([0, 0, 0, over.score, gave.score]).items()))

    classic = store.stats("classic")
    assert classic.rules == "classic"
    assert classic.played == 4 and classic.won == 3 and classic.unfinished == 1
    assert classic.best_by_number == {4: gave.score}
    single = store.stats("single-pass")
    assert single.played == 1 and single.best_score == over.score
    assert single.best_by_number == {3: over.score}
    assert store.stats("classic,draw=1").played == 0
    # the same rules written another way are the same rules
    assert store.stats("literal,move_unit=run,fill_from_talon=true,redeals=unlimited").played == 4

    mine = store.stats(owner="local")
    assert mine.played == 4 and mine.won == 2
    assert store.stats(owner="web:abc").played == 1
    assert sorted(store.rules_played()) == ["classic", "single-pass"]


def test_best_score_per_deal(store: Store) -> None:
    a = given_up_game(6, 10)
    b = given_up_game(6, 40)
    store.save_game(a)
    store.save_game(b)
    session = PlaySession.start(store, number=6)
    assert session.best_score() == min(a.score, b.score)
    assert PlaySession.start(store, number=6, rules="single-pass").best_score() is None
    assert PlaySession.start(store, number=7).best_score() is None
    # another player's better game of the deal is theirs: the best is counted per player,
    # as the statistics are
    store.save_game(given_up_game(6, 60), owner="web:other")
    assert session.best_score() == min(a.score, b.score)
    assert PlaySession.start(store, number=6, owner="web:other").best_score() == (
        given_up_game(6, 60).score)
    assert store.best_score(a) == given_up_game(6, 60).score  # every player's, asked so


def test_stats_survive_reopen(db: Path) -> None:
    with Store.open(db) as store:
        store.save_game(given_up_game(8, 5))
        first = store.stats().to_dict()
    with Store.open(db) as store:
        assert store.stats().to_dict() == first


@given(st.lists(st.tuples(outcome, st.sampled_from([0.0, 0.4, 61.5, 3600.0, 7322.25])),
                max_size=40))
def test_the_fastest_win_and_the_time_played(items: list[tuple[tuple[int, str], float]]) -> None:
    """The fastest win is the shortest clock of a game won, among those whose clock was kept
    (not 0); the time played adds the clocks of the finished games."""
    games = [GameResult(score=s, status=t, seconds=x) for (s, t), x in items]
    stats = compute_stats(games)
    wins = [x for (_s, t), x in items if t == W and x > 0]
    assert stats.fastest_win == (min(wins) if wins else None)
    done = sum(x for (_s, t), x in items if t != "in progress")
    assert abs(stats.time_played - done) < 1e-9
    d = stats.to_dict()
    assert (d["fastest_win"], d["time_played"]) == (stats.fastest_win, stats.time_played)


def test_the_stored_clock_makes_the_fastest_win(store: Store) -> None:
    won = Game.from_position(near_won_position(1))
    won.play_all(win_moves(near_won_position(1)))
    assert won.is_won()
    store.save_game(won, play_seconds=312.5)
    store.save_game(won, started="2024-01-01T00:00:00+00:00")  # imported without a clock
    store.save_game(given_up_game(4, 5), play_seconds=40.0)
    stats = store.stats()
    assert stats.won == 2 and stats.fastest_win == 312.5
    assert stats.time_played == 352.5
