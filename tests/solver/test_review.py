"""The review of a finished game: values, costs, better moves and verdicts."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import brute_force
from hypothesis import given, settings
from hypothesis import strategies as st

from devilsgrip.game import Game
from devilsgrip.notation import Move, MoveKind
from devilsgrip.review import Review, mistake, positions, review_game
from devilsgrip.solver import play_game, solve

PRESETS = ("classic", "single-pass", "literal")


def _consistent(review: Review, game: Game) -> None:
    """The review's own promises: values never decrease, costs add up, the end is the end."""
    values = [review.start_best, *(m.best for m in review.moves)]
    assert values == sorted(values), values
    assert [m.n for m in review.moves] == list(range(1, len(game.move_stack) + 1))
    assert [m.move for m in review.moves] == [m.text() for m in game.move_stack]
    assert sum(m.cost for m in review.moves) == values[-1] - values[0]
    assert all(m.cost == b - a
               for m, a, b in zip(review.moves, values[:-1], values[1:], strict=True))
    if game.is_over() or game.is_won():
        assert values[-1] == game.score and review.moves[-1].proven
    assert 0 <= values[-1] <= game.score
    for m in review.moves:
        assert (m.better is not None) == (m.cost > 0)
        assert m.better != m.move  # the line through the move played reaches its value
        assert m.seen in (None, "mistake", "hindsight")
        if m.cost == 0:
            assert m.better is None and m.seen is None


def test_a_won_game_costs_nothing() -> None:
    game = Game(2)
    game.play_all(list(solve(game, time_limit=10).moves))
    review = review_game(game, time_limit=10)
    assert review.first_lost_win is None and review.final_score == 0
    assert all(m.cost == 0 and m.best == 0 and m.proven for m in review.moves)
    _consistent(review, game)


def test_a_greedy_classic_game_lost_its_win_at_one_move() -> None:
    game = play_game(Game(7), "greedy")
    assert game.is_over() and game.score > 0
    review = review_game(game, time_limit=20)
    assert review.start_best == 0 and review.start_proven
    assert review.first_lost_win is not None
    _consistent(review, game)
    assert review.proven_share == 1.0  # classic: every value proven
    lost = review.moves[review.first_lost_win - 1]
    assert lost.cost > 0 and lost.better is not None
    # the better move is legal where it was offered and keeps the earlier best
    before = positions(game)[lost.n - 1]
    better = Move.from_text(lost.better)
    assert before.reason(better) is None
    before.push(better)
    assert solve(before, time_limit=10).score == review.moves[lost.n - 2].best == 0


@pytest.mark.slow
@pytest.mark.parametrize("rules", PRESETS)
def test_every_better_move_replays_to_the_claimed_best(rules: str) -> None:
    game = play_game(Game(11, rules=rules), "greedy")
    review = review_game(game, time_limit=8, judge=False)
    _consistent(review, game)
    spots = positions(game)
    for m in review.costly:
        assert m.better is not None
        before = spots[m.n - 1]
        before.push(Move.from_text(m.better))
        claimed = review.start_best if m.n == 1 else review.moves[m.n - 2].best
        found = solve(before, time_limit=5)
        # the claimed best is reached from there (the review had a line to it)
        assert found.score <= claimed or not found.proven


@pytest.mark.slow
@pytest.mark.parametrize("beside", [True, False], ids=["beside", "one-core"])
def test_a_one_pass_game_lost_its_win_where_the_win_search_says(
        beside: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 87 can be won in one pass; greedy loses it.  The review halves with the win
    search (in a process beside the review, or first on a machine with one core): the
    position before the lost move can still be won with the better move, and the one
    after it cannot where the review says so (it is proven)."""
    import devilsgrip.solver.portfolio
    from devilsgrip.solver.winnable import LOST, WON, prove_winnable

    monkeypatch.setattr(devilsgrip.solver.portfolio, "beside_possible", lambda: beside)
    game = play_game(Game(87, rules="single-pass"), "greedy")
    assert game.is_over() and game.score > 0
    # (on one core the deal's win search has a quarter of the time, on a machine the
    # other tests keep busy)
    review = review_game(game, time_limit=12 if beside else 20, judge=False)
    _consistent(review, game)
    assert review.start_best == 0 and review.start_proven
    assert review.first_lost_win is not None
    lost = review.moves[review.first_lost_win - 1]
    assert lost.cost > 0 and lost.better is not None and lost.best >= 1
    assert all(m.best == 0 and m.proven for m in review.moves[:lost.n - 1])
    spots = positions(game)
    if review.first_lost_win_proven:
        assert prove_winnable(spots[lost.n], time_limit=30).outcome == LOST
    before = spots[lost.n - 1]
    before.push(Move.from_text(lost.better))
    assert prove_winnable(before, time_limit=30).outcome == WON


@pytest.mark.slow
def test_the_win_search_beside_finds_where_a_classic_game_lost_its_win(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Greedy's classic game of deal 1 can be won until move 94.  The review's own
    searches, on their schedule, stop proving wins at move 80 within its time; the win
    search beside them halves straight to the move that lost the win, and with it every
    value of the game is proven."""
    import devilsgrip.solver.portfolio
    from devilsgrip.solver.wins import can_win

    monkeypatch.setattr(devilsgrip.solver.portfolio, "beside_possible", lambda: True)
    game = play_game(Game(1), "greedy")
    assert game.is_over() and game.score > 0
    review = review_game(game, time_limit=15, judge=False)
    _consistent(review, game)
    assert review.first_lost_win == 95 and review.first_lost_win_proven
    assert all(m.best == 0 and m.proven for m in review.moves[:94])
    spots = positions(game)
    assert can_win(spots[95], time_limit=30).outcome == "lost"
    lost = review.moves[94]
    assert lost.better is not None
    before = spots[94]
    before.push(Move.from_text(lost.better))
    assert can_win(before, time_limit=30).outcome == "won"


def test_on_one_core_a_classic_review_leaves_its_time_to_its_own_searches(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import devilsgrip.review
    import devilsgrip.solver.portfolio

    def no_win_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("the win search ran on one core with a redeal left")

    monkeypatch.setattr(devilsgrip.solver.portfolio, "beside_possible", lambda: False)
    monkeypatch.setattr(devilsgrip.review, "_win_boundary", no_win_search)
    game = play_game(Game(3), "greedy")
    review = review_game(game, time_limit=5, judge=False)
    _consistent(review, game)
    assert review.first_lost_win is not None


def test_the_time_the_verdicts_leave_goes_to_the_values_still_open(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 84's greedy game keeps a value open for minutes after move 51: when the
    verdicts are done early, the rises are searched again until the review's end."""
    import devilsgrip.review
    import devilsgrip.solver.portfolio

    tries: list[float] = []
    refine = devilsgrip.review._refine

    def noted(spots: Any, points: Any, played: Any, until: float, *args: Any) -> None:
        tries.append(until)
        refine(spots, points, played, until, *args)

    monkeypatch.setattr(devilsgrip.solver.portfolio, "beside_possible", lambda: False)
    monkeypatch.setattr(devilsgrip.review, "_refine", noted)
    monkeypatch.setattr(devilsgrip.review, "_judge", lambda review, *args: review)
    game = play_game(Game(84), "greedy")
    start = time.monotonic()
    review = review_game(game, time_limit=4.0)
    _consistent(review, game)
    assert review.proven_share < 1.0
    assert len(tries) == 2 and tries[0] < tries[1]
    # the review's end, less the margin a search may take to stop
    assert tries[1] == pytest.approx(start + 4.0 - devilsgrip.review.LEFTOVER_MARGIN, abs=0.1)


def test_a_verdict_is_kept_while_the_better_move_it_weighed_is_the_same() -> None:
    from devilsgrip.review import MoveReview, _kept_verdicts

    def review(*moves: MoveReview) -> Review:
        return Review("classic", 5, 0, True, list(moves))

    judged = review(MoveReview(1, "d", 2, False, 2, "t-a1", "mistake"),
                    MoveReview(2, "d", 3, True, 1, "t-b1", "hindsight"),
                    MoveReview(3, "d", 3, True, 0, None, None))
    later = review(MoveReview(1, "d", 1, True, 1, "t-a1", None),
                   MoveReview(2, "d", 3, True, 2, "t-c1", None),
                   MoveReview(3, "d", 3, True, 0, None, None))
    assert [m.seen for m in _kept_verdicts(later, judged).moves] == ["mistake", None, None]


def test_a_line_of_one_card_is_the_best_where_no_win_is_left() -> None:
    from devilsgrip.review import _make_consistent, _Point

    d = Move.from_text("d")
    points = [_Point(3, False, [d, d]), _Point(1, False, [d]), _Point(1, True, [])]
    _make_consistent(points, [d, d], floors=[0, 1, 1])
    assert [(p.best, p.proven) for p in points] == [(1, False), (1, True), (1, True)]


def test_a_move_on_the_line_found_costs_nothing() -> None:
    """Where values are not proven, a later solve may find less than the line before it
    through the move played: that line bounds the value after the move."""
    from devilsgrip.review import _make_consistent, _Point

    d, t, other = Move.from_text("d"), Move.from_text("t-a1"), Move.from_text("t-b1")
    points = [_Point(20, False, [d, other]), _Point(32, False, [t]), _Point(35, True, [])]
    _make_consistent(points, [d, t])
    assert [p.best for p in points] == [20, 20, 35]
    assert points[1].line == [other]


@pytest.mark.slow
def test_values_match_the_plain_exhaustive_search_late_in_a_game() -> None:
    """Late positions of a one-pass game, small enough to solve outright."""
    game = play_game(Game(5, rules="single-pass"), "greedy")
    review = review_game(game, time_limit=15, judge=False)
    spots = positions(game)
    checked = 0
    for i in range(len(spots) - 1, max(-1, len(spots) - 12), -1):
        value = review.start_best if i == 0 else review.moves[i - 1].best
        proven = review.start_proven if i == 0 else review.moves[i - 1].proven
        try:
            exact = brute_force(spots[i], limit=200_000)
        except RuntimeError:  # too big for the plain search
            continue
        checked += 1
        assert value >= exact
        if proven:
            assert value == exact
    assert checked >= 3


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(st.sampled_from(PRESETS), st.integers(1, 10**6), st.integers(0, 2**16))
def test_reviews_are_consistent(rules: str, number: int, seed: int) -> None:
    game = Game(number, rules=rules)
    rng = random.Random(seed)
    for _ in range(rng.randrange(5, 60)):
        moves = game.generate_moves(swaps=rng.random() < 0.1)
        if not moves or game.is_over():
            break
        game.play(rng.choice(moves))
    sketches: list[list[tuple[int, bool] | None]] = []
    review = review_game(game, time_limit=1.5, judge=False, sketch=sketches.append)
    _consistent(review, game)
    # the first results: never decreasing, above the final values, equal where proven
    assert sketches
    final = [(review.start_best, review.start_proven),
             *((m.best, m.proven) for m in review.moves)]
    for known in sketches:
        assert len(known) == len(final)
        shown = [k for k in known if k is not None]
        assert shown == sorted(shown, key=lambda k: k[0])
        for k, (best, _proven) in zip(known, final, strict=True):
            if k is not None:
                assert k[0] >= best and (not k[1] or k[0] == best)


@pytest.mark.slow
def test_the_verdict_never_reads_the_hidden_order() -> None:
    """Two decks that agree on all the player saw give the same verdict."""
    game = Game(9, rules="single-pass")
    rng = random.Random(4)
    while len(game.stock) > 40:
        builds = [m for m in game.generate_moves() if m.kind != MoveKind.DEAL]
        game.play(rng.choice(builds) if builds and rng.random() < 0.5 else game.generate_moves()[0])
    view = game.view(with_legal=False)
    twin_stock = list(game.stock)
    random.Random(1).shuffle(twin_stock)
    twin = game.copy()
    twin.stock = twin_stock
    assert twin.view(with_legal=False) == view and twin.stock != game.stock
    moves = game.generate_moves()
    played, better = moves[0], moves[-1]
    # node budgets, not time: the two verdicts may not differ by how busy the machine is
    a = mistake(game.view(with_legal=False), played, better, seed=3, max_nodes=800)
    b = mistake(twin.view(with_legal=False), played, better, seed=3, max_nodes=800)
    assert a == b and a is not None


def test_a_finished_review_is_kept_in_the_store(tmp_path: Path) -> None:
    from devilsgrip.session import PlaySession
    from devilsgrip.store import Store

    with Store.open(tmp_path / "g.sqlite3") as store:
        session = PlaySession.start(store, number=7)
        for move in play_game(Game(7), "greedy").move_stack:
            session.play(move)
        session.make_final()
        assert session.game_id is not None
        review = review_game(session.game, time_limit=10)
        store.save_review(session.game_id, review.to_dict())
        kept = store.review(session.game_id)
        assert kept is not None and Review.from_dict(kept).to_dict() == review.to_dict()


def test_autoplay_piped_into_review(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from devilsgrip.cli import main

    assert main(["autoplay", "--game", "7", "--player", "greedy"]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("[Event") and "score:" in out.err  # the record alone on stdout
    record = tmp_path / "game.txt"
    record.write_text(out.out, encoding="utf-8")
    assert main(["review", str(record), "--json", "--time-limit", "10"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"rules", "final_score", "start", "moves", "first_lost_win",
                         "first_lost_win_proven"}
    assert set(data["start"]) == {"best", "proven"}
    assert set(data["moves"][0]) == {"n", "move", "best", "proven", "cost", "better", "seen"}
    assert data["first_lost_win"] is not None
    assert main(["review", str(record), "--time-limit", "10"]) == 0
    text = capsys.readouterr().out
    lost = data["moves"][data["first_lost_win"] - 1]
    assert not lost["proven"] or data["first_lost_win_proven"]
    told = ("Winnable until move" if data["first_lost_win_proven"]
            else "Winnable at least until move")
    assert text.startswith(f"{told} {data['first_lost_win']}.")
    assert "Moves that cost cards:" in text
    proven = data["start"]["proven"] and all(m["proven"] for m in data["moves"])
    assert ("of the values are proven" in text) == (not proven)


def test_a_review_from_the_command_line_says_how_much_is_proven(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A review too short to prove every value says what share it proved, after its story,
    and what ~ marks in the moves listed."""
    from devilsgrip.cli import main

    assert main(["autoplay", "--game", "143", "--player", "greedy"]) == 0
    record = tmp_path / "game.txt"
    record.write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["review", str(record), "--time-limit", "0.3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"\d+% of the values are proven; those marked ~ are the best lines "
                        r"found in the time allowed\.", lines[1]), lines[:3]
    assert any("best after ~" in line for line in lines[3:])


def test_review_of_stored_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from devilsgrip.cli import main
    from devilsgrip.session import PlaySession
    from devilsgrip.store import Store

    db = tmp_path / "g.sqlite3"
    with Store.open(db) as store:
        live = PlaySession.start(store, number=7)
        live.play_text("d")
        over = PlaySession.start(store, number=7)
        for move in play_game(Game(7), "greedy").move_stack:
            over.play(move)
        assert over.game.is_over() and not over.final
    assert main(["review", "--game-id", str(live.game_id), "--db", str(db)]) == 2
    assert "still being played" in capsys.readouterr().err
    assert main(["review", "--last", "--db", str(db)]) == 2  # nothing has ended yet
    assert main(["review", "--game-id", str(over.game_id), "--db", str(db), "--json"]) == 0
    capsys.readouterr()
    with Store.open(db) as store:
        assert over.game_id is not None
        info = store.game_info(over.game_id)
        assert info is not None and info.final  # reviewed: its result stands
        assert store.review(over.game_id) is not None
    assert main(["review", "--last", "--db", str(db), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["final_score"] == over.game.score


def test_the_command_reads_back_a_review_kept_in_the_store(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A stored game reviewed once (by any screen) is not reviewed again: its kept review
    is what the command tells, and the store keeps it as it was."""
    from devilsgrip.cli import main
    from devilsgrip.session import PlaySession
    from devilsgrip.store import Store

    db = tmp_path / "g.sqlite3"
    with Store.open(db) as store:
        over = PlaySession.start(store, number=7)
        for move in play_game(Game(7), "greedy").move_stack:
            over.play(move)
        assert over.game_id is not None
        over.make_final()
        kept = {"rules": str(over.game.rules), "final_score": over.game.score,
                "start": {"best": over.game.score, "proven": False}, "moves": [],
                "first_lost_win": None, "first_lost_win_proven": False}
        store.save_review(over.game_id, kept)  # not what a search would find: no moves
    assert main(["review", "--game-id", str(over.game_id), "--db", str(db), "--json",
                 "--time-limit", "0.01"]) == 0
    assert json.loads(capsys.readouterr().out) == kept
    with Store.open(db) as store:
        assert store.review(over.game_id) == kept


def test_the_command_line_shows_the_time_as_every_screen_does(
        capsys: pytest.CaptureFixture[str]) -> None:
    """On a terminal the review's line counts its seconds of the most it may take, with a
    bar of the positions solved or the time, whichever is further, and goes once the
    review is over (its results follow)."""
    from devilsgrip.commands.review import _ProgressLine

    line = _ProgressLine(10.0)
    line.progress(1, 4)  # a quarter of the positions, hardly any time
    drawn = capsys.readouterr().err
    assert "[#####..............." in drawn and "Reviewing the game… 0 s of at most 10 s" in drawn
    line.began -= 6.0  # six seconds on, with no search done since: the time moves the bar
    line.progress(1, 4)
    drawn = capsys.readouterr().err
    assert "[############........]" in drawn and "6 s of at most 10 s" in drawn
    line.close()
    gone = capsys.readouterr().err.split("\r")
    assert not "".join(gone[-2:]).strip()  # the line is blank after the review
