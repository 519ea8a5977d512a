"""The review of a finished game and the game history, through the API (ARCHITECTURE.md)."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from devilsgrip.game import Game
from devilsgrip.solver import play_game
from devilsgrip.web.api import view_dict
from devilsgrip.web.server import COOKIE_NAME, ServerOptions, create_app

MakeClient = Callable[..., TestClient]
DONE_KEYS = {"status", "id", "review", "proven_share", "story", "open_values", "number", "deal",
             "rules", "costly", "positions"}
COSTLY_KEYS = {"n", "move", "better", "cost", "best", "proven", "seen", "text", "played_text",
               "better_text", "seen_text", "arrows"}
HISTORY_KEYS = {"id", "number", "deal", "rules", "status", "status_label", "score", "rating",
                "rating_label", "moves", "seconds", "started", "ended", "reviewed"}
PLACES = {"stock", "talon"} | {f"{c}{r}" for c in "abcdefgh" for r in "123"}


@cache
def greedy(number: int, rules: str) -> tuple[str, ...]:
    """The moves of the greedy player's whole game (it ends over, with cards lost)."""
    game = play_game(Game(number, rules=rules), "greedy")
    assert game.is_over() and game.score > 0
    return tuple(m.text() for m in game.move_stack)


def play(client: TestClient, moves: tuple[str, ...]) -> None:
    for text in moves:
        r = client.post("/api/move", json={"move": text})
        assert r.status_code == 200, (text, r.text)


def refused(response: Any, status: int) -> str:
    assert response.status_code == status, (response.status_code, response.text)
    data: dict[str, Any] = response.json()
    assert set(data) == {"error", "message"} and data["message"]
    code: str = data["error"]
    return code


def until_done(client: TestClient, query: str = "", limit: float = 60.0) -> dict[str, Any]:
    """Poll the review until it is made; every answer on the way is progress."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        r = client.get("/api/review" + query)
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        if data["status"] == "done":
            return data
        assert data["status"] == "running", data
        assert 0 <= data["done"] <= data["total"] and data["elapsed"] >= 0
        assert 0 <= data["share"] <= 0.98  # full only once it is done
        time.sleep(0.2)
    raise AssertionError("the review did not end")


def check_doc(doc: dict[str, Any], game: Game) -> None:
    """A finished review as the contract says: values, words, arrows and positions."""
    assert set(doc) == DONE_KEYS and doc["status"] == "done"
    review = doc["review"]
    assert [m["move"] for m in review["moves"]] == [m.text() for m in game.move_stack]
    values = [review["start"]["best"], *(m["best"] for m in review["moves"])]
    assert values == sorted(values) and review["final_score"] == game.score
    assert values[-1] == game.score if game.is_over() else values[-1] <= game.score
    assert doc["story"] and 0 <= doc["proven_share"] <= 1
    # the view of every position of the game, from the deal to its end
    replay = game.copy()
    replay.restart()
    shown = [view_dict(replay.view())]
    for move in game.move_stack:
        replay.play(move)
        shown.append(view_dict(replay.view()))
    shown[-1] = view_dict(game.view())  # given up, or over, as it ended
    assert doc["positions"] == shown
    assert [v["moves"] for v in shown] == list(range(len(shown)))
    costly = [m for m in review["moves"] if m["cost"] > 0]
    assert [c["n"] for c in doc["costly"]] == [m["n"] for m in costly]
    for entry in doc["costly"]:
        assert set(entry) == COSTLY_KEYS
        assert entry["text"].startswith(f"Move {entry['n']}:")
        assert entry["played_text"].startswith("Played: ")
        assert entry["better"] != entry["move"]
        played, better = entry["arrows"]["played"], entry["arrows"]["better"]
        assert len(played) == 2 and set(played) <= PLACES
        if entry["better"] is not None:
            assert entry["better_text"].startswith("Better: ")
            assert len(better) == 2 and set(better) <= PLACES
        before = doc["positions"][entry["n"] - 1]
        assert entry["move"] in before["legal"]


# ------------------------------------------------------------------ review
def test_a_live_game_is_refused_and_nothing_changes(client: TestClient) -> None:
    assert refused(client.post("/api/review"), 409) == "game-live"
    play(client, ("d", "d"))
    before = client.get("/api/game").json()
    assert refused(client.post("/api/review", json={}), 409) == "game-live"
    assert refused(client.get("/api/review"), 409) == "game-live"
    own = before["game"]["id"]
    assert refused(client.post("/api/review", json={"id": own}), 409) == "game-live"
    after = client.get("/api/game").json()
    assert after["view"] == before["view"] and after["game"]["final"] is False
    assert after["can_undo"] is True


def test_progress_then_the_review_an_over_game_made_final_and_kept(
        tmp_path: Path, make_client: MakeClient) -> None:
    moves = greedy(3, "single-pass")
    db = tmp_path / "review.sqlite3"
    client = make_client(db=db, game=3, rules="single-pass", review_time=2.0)
    play(client, moves)
    over = client.get("/api/game").json()
    assert over["view"]["over"] and not over["game"]["final"] and over["can_undo"]
    assert client.get("/api/review").json() == {"status": "none", "id": over["game"]["id"]}
    # a review of 2 s: the first answer is progress, and the game is final from then on
    first = client.post("/api/review")
    assert first.status_code == 200, first.text
    running = first.json()
    assert running["status"] == "running" and running["id"] == over["game"]["id"]
    assert set(running) == {"status", "id", "done", "total", "elapsed", "limit", "share",
                            "known"}
    assert running["limit"] == 2.0 and running["total"] >= len(moves)
    assert running["known"] == [] or len(running["known"]) == len(moves) + 1
    final = client.get("/api/game").json()
    assert final["game"]["final"] is True and final["can_undo"] is False
    assert final["view"] == over["view"]
    assert refused(client.post("/api/undo"), 409) == "game-finished"
    # asking again joins the same review (the compiled core may have made it already, so
    # the answer is its progress or the review itself); the first values come before the end
    again = client.post("/api/review").json()
    assert again["id"] == over["game"]["id"] and again["status"] in ("running", "done"), again
    sketches = []
    while (answer := client.get("/api/review").json())["status"] == "running":
        sketches.append(answer["known"])
        time.sleep(0.05)
    doc = until_done(client)
    game = Game(3, rules="single-pass")
    game.play_all_text(" ".join(moves))
    check_doc(doc, game)
    assert doc["costly"], "the greedy player lost cards somewhere"
    # the values found so far, when a poll came while the review ran (the compiled core
    # may settle this game before the first poll: test_a_review_job_tells_its_first_values
    # checks that they are told at all)
    early = [k for k in sketches if any(k)]
    values = [doc["review"]["start"], *doc["review"]["moves"]]
    for known in early:
        for k, v in zip(known, values, strict=True):
            if k is not None:
                assert k["best"] >= v["best"] and (not k["proven"] or k["best"] == v["best"])
    assert (doc["number"], doc["deal"], doc["rules"]) == (3, "Game 3", "Single pass")
    # kept: asked again it is answered at once (the review itself, not its progress), the
    # same, and in the language asked for
    again = client.post("/api/review").json()
    assert again == doc
    french = client.get("/api/review", headers={"accept-language": "fr"}).json()
    assert french["review"] == doc["review"] and french["story"] != doc["story"]
    stats = client.get("/api/stats").json()
    assert (stats["played"], stats["given_up"]) == (1, 0)  # it counts as over
    # kept in the store: a restarted server answers from it without reviewing again
    cookie = client.cookies.get(COOKIE_NAME)
    app = create_app(ServerOptions(db=db, extra_hosts=("testserver",), review_time=2.0))
    fresh = make_client(app)
    fresh.cookies.set(COOKIE_NAME, cookie or "", domain="testserver.local")
    kept = fresh.get("/api/review")
    assert kept.status_code == 200
    assert kept.json() == doc


def test_a_given_up_game_is_reviewed(make_client: MakeClient) -> None:
    client = make_client(game=1, review_time=1.0)
    play(client, ("d", "d", "d"))
    client.post("/api/giveup")
    client.post("/api/review")
    doc = until_done(client)
    game = Game(1)
    game.play_all_text("d d d")
    assert doc["review"]["start"] == {"best": 0, "proven": True}
    assert doc["review"]["first_lost_win"] is None  # given up while still winnable
    assert [m["best"] for m in doc["review"]["moves"]] == [0, 0, 0]
    assert doc["costly"] == [] and len(doc["positions"]) == 4
    game.give_up()
    check_doc(doc, game)


def test_a_longer_look_reviews_anew_where_values_are_left_open(
        tmp_path: Path, make_client: MakeClient) -> None:
    """A review of 0.2 s leaves values open in a long classic game: asked to look longer,
    the server reviews it anew with six times the time, and keeps the better review."""
    moves = greedy(143, "classic")
    client = make_client(db=tmp_path / "longer.sqlite3", game=143, review_time=0.2)
    play(client, moves)
    client.post("/api/review")
    first = until_done(client)
    assert first["proven_share"] < 1
    answer = client.post("/api/review", json={"longer": True})
    assert answer.status_code == 200, answer.text
    running = answer.json()
    if running["status"] == "running":
        assert running["limit"] == pytest.approx(1.2)
        # asked again while it runs: the same review is answered, none started
        again = client.post("/api/review", json={"longer": True}).json()
        assert again["status"] == "done" or again["limit"] == pytest.approx(1.2)
    second = until_done(client)
    assert second["proven_share"] >= first["proven_share"]
    game = Game(143)
    game.play_all_text(" ".join(moves))
    check_doc(second, game)
    # the better of the two is kept: asked again (not longer) it is answered at once
    assert client.post("/api/review").json() == second


def test_a_browser_runs_one_longer_review_at_a_time(
        tmp_path: Path, make_client: MakeClient) -> None:
    """A longer review takes a minute of the solver's pool: while one of a browser runs,
    its longer review of another game is refused (nothing starts); once it ends, it may."""
    moves = greedy(143, "classic")
    client = make_client(db=tmp_path / "busy.sqlite3", game=143, review_time=0.5)
    play(client, moves)
    client.post("/api/review")
    until_done(client)
    first = client.get("/api/game").json()["game"]["id"]
    client.post("/api/new", json={"game": 20})
    play(client, greedy(20, "classic"))
    client.post("/api/review")
    assert until_done(client)["proven_share"] < 1
    running = client.post("/api/review", json={"id": first, "longer": True}).json()
    assert running["status"] == "running" and running["limit"] == pytest.approx(3.0)
    assert refused(client.post("/api/review", json={"longer": True}), 409) == "review-busy"
    until_done(client, f"?id={first}")
    again = client.post("/api/review", json={"longer": True})
    assert again.status_code == 200 and again.json()["status"] in ("running", "done")
    until_done(client)


def test_no_longer_look_where_every_value_is_proven(make_client: MakeClient,
                                                     tmp_path: Path) -> None:
    client = make_client(db=tmp_path / "proven.sqlite3", game=1, review_time=1.0)
    play(client, ("d", "d", "d"))
    client.post("/api/giveup")
    assert refused(client.post("/api/review", json={"longer": "yes"}), 400) == "bad-field"
    client.post("/api/review")
    doc = until_done(client)
    assert doc["proven_share"] == 1
    assert refused(client.post("/api/review", json={"longer": True}), 409) == "review-proven"
    assert client.get("/api/review").json() == doc  # nothing changed
    # read back from the store (a new browser job): refused the same
    own = client.get("/api/game").json()["game"]["id"]
    client.post("/api/new", json={"game": 2})
    assert refused(client.post("/api/review", json={"id": own, "longer": True}),
                   409) == "review-proven"
    # longer, false: the review as it is
    assert client.post("/api/review", json={"id": own, "longer": False}).json()[
        "review"] == doc["review"]


def test_bad_ids_and_other_browsers_games_are_refused(tmp_path: Path,
                                                     make_client: MakeClient) -> None:
    app = create_app(ServerOptions(db=tmp_path / "two.sqlite3", extra_hosts=("testserver",),
                                   review_time=1.0))
    one, two = make_client(app), make_client(app)
    one.post("/api/new", json={"game": 1})
    play(one, ("d",))
    mine = one.post("/api/giveup").json()["game"]["id"]
    two.post("/api/new", json={"game": 2})
    for body in ({"id": "x"}, {"id": 0}, {"id": True}, {"id": 1.5}, {"id": 2**70},
                 {"game": 1}):
        assert refused(two.post("/api/review", json=body), 400)
    assert refused(two.get("/api/review?id=abc"), 400) == "bad-game-id"
    # another browser's game is not found, whether it exists or not
    assert refused(two.post("/api/review", json={"id": mine}), 404) == "no-such-game"
    assert refused(two.get(f"/api/review?id={mine}"), 404) == "no-such-game"
    assert refused(two.post("/api/review", json={"id": 999_999}), 404) == "no-such-game"
    assert refused(one.post("/api/review", json={"id": 999_999}), 404) == "no-such-game"
    # its owner reviews it by id, after moving on to another game
    one.post("/api/new", json={"game": 5})
    first = one.post("/api/review", json={"id": mine})
    assert first.status_code == 200 and first.json()["id"] == mine
    doc = until_done(one, f"?id={mine}")
    assert doc["id"] == mine and len(doc["positions"]) == 2
    assert one.get("/api/game").json()["view"]["moves"] == 0  # the game in play is untouched


def test_without_a_store_the_current_game_is_reviewed(make_client: MakeClient) -> None:
    client = make_client(use_store=False, game=1, review_time=1.0)
    play(client, ("d",))
    client.post("/api/giveup")
    assert client.post("/api/review").status_code == 200
    doc = until_done(client)
    assert doc["id"] is None and len(doc["positions"]) == 2
    assert client.get("/api/history").json() == {"saving": False, "total": 0, "games": []}
    # a new game is not the reviewed one
    client.post("/api/new", json={"game": 2})
    assert refused(client.post("/api/review"), 409) == "game-live"


# ----------------------------------------------------------------- history
def test_the_history_lists_this_browsers_finished_games(tmp_path: Path,
                                                        make_client: MakeClient) -> None:
    app = create_app(ServerOptions(db=tmp_path / "history.sqlite3", extra_hosts=("testserver",),
                                   review_time=1.0))
    one, two = make_client(app), make_client(app)
    assert one.get("/api/history").json() == {"saving": True, "total": 0, "games": []}
    one.post("/api/new", json={"game": 1})
    play(one, ("d", "d"))
    first = one.post("/api/giveup").json()["game"]["id"]
    one.post("/api/new", json={"game": 4, "rules": "single-pass"})
    play(one, greedy(4, "single-pass"))
    second = one.get("/api/game").json()["game"]["id"]
    one.post("/api/new", json={"game": 5})  # leaving the over game makes it count as over
    play(one, ("d",))  # the game in play is not in the history
    two.post("/api/new", json={"game": 6})
    play(two, ("d",))
    two.post("/api/giveup")
    data = one.get("/api/history").json()
    assert data["saving"] is True and data["total"] == 2
    games = data["games"]
    assert [g["id"] for g in games] == [second, first]  # the latest to end first
    assert all(set(g) == HISTORY_KEYS for g in games)
    latest, earlier = games
    assert (latest["number"], latest["rules"], latest["status"]) == (4, "Single pass", "over")
    assert latest["moves"] == len(greedy(4, "single-pass")) and latest["deal"] == "Game 4"
    assert latest["status_label"] == "game over" and latest["score"] > 0
    assert (earlier["number"], earlier["status"], earlier["moves"]) == (1, "given up", 2)
    assert earlier["score"] == 72 and earlier["rating"] == "none"
    assert earlier["rating_label"] and earlier["ended"] and earlier["started"]
    assert earlier["seconds"] >= 0 and not earlier["reviewed"]
    # reviewed from the history, it says so
    one.post("/api/review", json={"id": first})
    until_done(one, f"?id={first}")
    assert [g["reviewed"] for g in one.get("/api/history").json()["games"]] == [False, True]
    # labels in the browser's language
    french = one.get("/api/history", headers={"accept-language": "fr"}).json()["games"]
    assert french[1]["status_label"] != earlier["status_label"]
    assert [g["number"] for g in two.get("/api/history").json()["games"]] == [6]


@pytest.mark.parametrize("path", ["/api/history", "/api/review"])
def test_no_session_token_in_any_body(make_client: MakeClient, path: str) -> None:
    client = make_client(game=1, review_time=1.0)
    play(client, ("d",))
    client.post("/api/giveup")
    token = client.cookies.get(COOKIE_NAME)
    assert token
    answers = [client.post("/api/review"), client.get(path)]
    answers.append(client.get("/api/review"))
    doc = until_done(client)
    assert doc["status"] == "done"
    answers += [client.get("/api/review"), client.get("/api/history")]
    for r in answers:
        assert r.status_code == 200, r.text
        assert token not in r.text and "web:" not in r.text
        assert "owner" not in r.text


def test_a_review_job_tells_its_first_values_while_it_runs() -> None:
    """The values the review has found so far are in its running answer: the review calls
    its sketch with some positions still unknown before it returns."""
    from devilsgrip.review import review_game
    from devilsgrip.web.jobs import ReviewJob

    game = Game(3, rules="single-pass")
    game.play_all_text(" ".join(greedy(3, "single-pass")))
    job = ReviewJob(game_id=7, game=game, limit=2.0)
    assert job.running()["known"] == []
    told: list[dict[str, Any]] = []

    def sketch(known: list[tuple[int, bool] | None]) -> None:
        job.sketch(known)
        told.append(job.running())

    review = review_game(game, time_limit=2.0, sketch=sketch)
    assert told, "the review told no value before it returned"
    first = told[0]["known"]
    assert first[-1] is not None and None in first  # the end first, the rest still to come
    values = [(review.start_best, review.start_proven), *((m.best, m.proven) for m in review.moves)]
    for answer in told:
        assert answer["status"] == "running" and answer["id"] == 7
        for k, (best, proven) in zip(answer["known"], values, strict=True):
            if k is not None:
                assert k["best"] >= best and (not k["proven"] or (proven and k["best"] == best))
