"""The browser game's JSON API, through Starlette's TestClient (see ARCHITECTURE.md)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from devilsgrip import i18n
from devilsgrip.cards import CELL_NAMES, MAX_GAME_NUMBER
from devilsgrip.game import Game
from devilsgrip.notation import format_deck
from devilsgrip.web.api import view_dict
from devilsgrip.web.server import COOKIE_NAME

MakeClient = Callable[..., TestClient]
DOMAIN = "testserver.local"
STATE_KEYS = {"view", "game", "labels", "can_undo", "can_redo", "applies", "last_move", "announce",
              "arrangement", "picked", "targets", "swaps", "stock",
              "lang"}
GAME_KEYS = {"id", "number", "rules", "saving", "warning", "best_score", "new_best", "final",
             "fastest_before", "new_fastest",
             "leave_asks", "daily", "started", "elapsed", "clock_running"}
LABEL_KEYS = {"deal", "rules", "status", "rating", "redeals", "end", "rating_line", "leave"}


def state(client: TestClient) -> dict[str, Any]:
    r = client.get("/api/game")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    data.get("game", {}).pop("elapsed", None)  # the clock runs; it is not game state
    return data


def post(client: TestClient, path: str, body: Any = None) -> Any:
    return client.post(path, json=body) if body is not None else client.post(path)


def assert_refused(response: Any, status: int | tuple[int, ...] = (400, 409)) -> dict[str, Any]:
    statuses = (status,) if isinstance(status, int) else status
    assert response.status_code in statuses, (response.status_code, response.text)
    data: dict[str, Any] = response.json()
    assert set(data) == {"error", "message"}
    assert isinstance(data["error"], str) and data["error"]
    assert isinstance(data["message"], str) and data["message"]
    return data


def view_of(game: Game) -> dict[str, Any]:
    return view_dict(game.view())


# ------------------------------------------------------------------- state
def test_game_state_is_the_engine_view(client: TestClient) -> None:
    data = client.get("/api/game").json()
    assert set(data) == STATE_KEYS
    assert set(data["game"]) == GAME_KEYS
    assert set(data["labels"]) == LABEL_KEYS
    assert data["labels"]["deal"] == "Game 1" and data["labels"]["rules"] == "Classic"
    assert data["game"]["final"] is False and data["game"]["leave_asks"] is False
    assert data["view"] == view_of(Game(1))
    assert data["game"]["number"] == 1
    assert data["game"]["rules"] == "classic"
    assert data["game"]["saving"] is True and data["game"]["warning"] is None
    assert data["game"]["id"] is None  # stored on the player's first action
    assert data["can_undo"] is False and data["can_redo"] is False
    assert data["applies"] == ["deal", "give_up", "hint", "new_game", "restart"]
    assert data["last_move"] is None and data["arrangement"] == []
    assert data["lang"] == "en"
    assert client.cookies.get(COOKIE_NAME)


def test_the_state_says_what_each_pick_up_means(client: TestClient) -> None:
    """The page asks nothing when a card is picked up: the state has the words and the cells."""
    mirror = Game(1)
    for _ in range(8):
        builds = [m.text() for m in mirror.generate_moves() if "-" in m.text()]
        move = builds[0] if builds and mirror.talon else "d"
        data = post(client, "/api/move", {"move": move}).json()
        mirror.play_text(move)
        legal = data["view"]["legal"]
        pickable = [n for i, n in enumerate(CELL_NAMES) if mirror.grid[i]]
        assert set(data["picked"]) == set(data["targets"]) == {*pickable, "talon"}
        for place, text in data["picked"].items():
            asked = client.get("/api/picked", params={"place": place}).json()
            assert asked["text"] == text
        for place, cells in data["targets"].items():
            prefix = "t" if place == "talon" else place
            assert cells == [m.split("-")[1] for m in legal
                             if "-" in m and m.split("-")[0] == prefix]
        assert data["stock"] == ("deal" if "d" in legal else "redeal" if "r" in legal else None)
        for place, cells in data["swaps"].items():
            empty = [n for i, n in enumerate(CELL_NAMES) if not mirror.grid[i] and n != place]
            assert cells == [n for n in empty if client.get(
                "/api/refusal", params={"from": place, "to": n}).json()["error"] is None]
        assert data["labels"]["rating_line"] == (
            "No rating: that takes a score of 10 or less." if mirror.score > 10
            else f"Rating: {data['labels']['rating']}")
    assert post(client, "/api/giveup", {}).status_code == 200
    data = client.get("/api/game").json()
    assert data["picked"] == data["targets"] == data["swaps"] == {} and data["stock"] is None


def test_moves_follow_the_engine(client: TestClient) -> None:
    mirror = Game(1)
    rng = random.Random(5)
    for _ in range(40):
        moves = mirror.generate_moves()
        move = rng.choice(moves)
        r = client.post("/api/move", json={"move": move.text()})
        assert r.status_code == 200, r.text
        mirror.play(move)
        data = r.json()
        assert data["view"] == view_of(mirror)
        assert data["last_move"] == move.text()
        assert data["can_undo"] is True
        assert data["announce"]
    assert state(client)["view"] == view_of(mirror)


def test_swap_and_the_announcement(client: TestClient) -> None:
    r = client.post("/api/move", json={"move": "a1=h3"})
    assert r.status_code == 200
    data = r.json()
    mirror = Game(1)
    mirror.play_text("a1=h3")
    assert data["view"]["grid"] == view_of(mirror)["grid"]
    assert "a1" in data["announce"] and "h3" in data["announce"]
    r = client.post("/api/move", json={"move": "d"})
    assert "Dealt 3 cards" in r.json()["announce"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"move": "a1-a2"}, 409, "wrong-rank"),
        ({"move": "t-c2"}, 409, "talon-empty"),
        ({"move": "r"}, 409, "stock-not-empty"),
        ({"move": "zz"}, 400, "move-bad-text"),
        ({"move": "a1-a1"}, 400, "move-same-cell"),
        ({"move": 3}, 400, "bad-field"),
        ({"move": None}, 400, "missing-field"),
        ({"move": "d" * 100}, 400, "bad-field"),
        ({}, 400, "missing-field"),
        ({"move": "d", "x": 1}, 400, "unknown-field"),
        ([1, 2], 400, "bad-json"),
    ],
)
def test_rejected_moves_change_nothing(
    client: TestClient, body: Any, status: int, code: str
) -> None:
    before = state(client)
    r = client.post("/api/move", json=body)
    assert assert_refused(r, status)["error"] == code
    assert state(client) == before


def test_bad_json_is_refused(client: TestClient) -> None:
    before = state(client)
    r = client.post("/api/move", content=b"{not json",
                    headers={"content-type": "application/json"})
    assert assert_refused(r, 400)["error"] == "bad-json"
    r = client.post("/api/move", content=b"\xff\xfe", headers={"content-type": "application/json"})
    assert assert_refused(r, 400)["error"] == "bad-json"
    assert state(client) == before


def test_undo_and_redo(client: TestClient) -> None:
    assert assert_refused(post(client, "/api/undo"), 409)["error"] == "nothing-to-undo"
    assert assert_refused(post(client, "/api/redo"), 409)["error"] == "nothing-to-redo"
    start = state(client)["view"]
    after_deal = post(client, "/api/move", {"move": "d"}).json()
    after_two = post(client, "/api/move", {"move": "d"}).json()
    undone = post(client, "/api/undo").json()
    assert undone["view"] == after_deal["view"]
    assert undone["can_redo"] is True and undone["last_move"] is None
    undone = post(client, "/api/undo").json()
    assert undone["view"] == start and undone["can_undo"] is False
    redone = post(client, "/api/redo").json()
    assert redone["view"] == after_deal["view"] and redone["last_move"] == "d"
    redone = post(client, "/api/redo").json()
    assert redone["view"] == after_two["view"] and redone["can_redo"] is False


def test_restart_and_new(client: TestClient) -> None:
    start = state(client)
    played = post(client, "/api/move", {"move": "d"}).json()
    assert played["game"]["leave_asks"] is True  # the page asks before leaving it
    # ... with the server's sentence of what leaving does (the page works out nothing)
    assert start["labels"]["leave"] is None
    assert played["labels"]["leave"] == (
        f"It then counts as given up, with score {played['view']['score']}.")
    restarted = post(client, "/api/restart").json()  # ... and the API always proceeds
    assert restarted["view"] == start["view"] and restarted["view"]["moves"] == 0
    assert restarted["can_redo"] is False and restarted["can_undo"] is False
    assert restarted["game"]["id"] != start["game"]["id"]  # a new stored game
    assert restarted["game"]["number"] == 1
    assert "counts as given up" in restarted["announce"]
    stats = client.get("/api/stats").json()
    assert (stats["played"], stats["given_up"]) == (1, 1)
    new = post(client, "/api/new", {"game": 7}).json()
    assert new["game"]["number"] == 7 and new["view"] == view_of(Game(7))
    assert new["game"]["id"] != start["game"]["id"]
    new = post(client, "/api/new", {"game": 8, "rules": "single-pass"}).json()
    assert new["game"]["rules"] == "single-pass"
    assert new["view"] == view_of(Game(8, rules="single-pass"))
    deck = format_deck(Game(3).deck or ())
    new = post(client, "/api/new", {"deck": deck, "rules": "literal"}).json()
    assert new["game"]["number"] is None and new["view"] == view_of(Game(3, rules="literal"))
    new = post(client, "/api/new", {}).json()
    assert isinstance(new["game"]["number"], int) and new["view"]["moves"] == 0
    assert new["game"]["rules"] == "classic"


@pytest.mark.parametrize(
    "body",
    [
        {"game": 0},
        {"game": -3},
        {"game": MAX_GAME_NUMBER + 1},
        {"game": True},
        {"game": "0"},
        {"game": "-3"},
        {"game": "1.5"},
        {"game": "9223372036854775808"},
        {"game": "5" * 41},
        {"game": 2.5},
        {"game": 5, "deck": "x"},
        {"deck": "2S 3S"},
        {"deck": 12},
        {"rules": "nonsense"},
        {"rules": "classic,draw=0"},
        {"game": 1, "colour": "red"},
    ],
)
def test_bad_new_game_is_refused(client: TestClient, body: dict[str, Any]) -> None:
    before = state(client)
    assert_refused(client.post("/api/new", json=body), 400)
    assert state(client) == before


def test_largest_game_number(client: TestClient) -> None:
    data = post(client, "/api/new", {"game": MAX_GAME_NUMBER}).json()
    assert data["game"]["number"] == MAX_GAME_NUMBER


@pytest.mark.parametrize("typed", ["5", "9007199254740993", str(MAX_GAME_NUMBER)])
def test_a_game_number_may_come_as_text(client: TestClient, typed: str) -> None:
    data = post(client, "/api/new", {"game": typed}).json()
    assert data["game"]["number"] == int(typed)
    assert data["view"] == view_of(Game(int(typed)))


def test_an_out_of_range_game_number_gets_the_games_own_reason(client: TestClient) -> None:
    refused = assert_refused(client.post("/api/new", json={"game": "0"}), 400)
    assert refused["error"] == "game-number-range"
    assert "not '0'" in refused["message"]
    french = client.post("/api/new", json={"game": "0"}, headers={"accept-language": "fr"})
    assert assert_refused(french, 400)["message"] != refused["message"]


def test_give_up_then_solution(client: TestClient) -> None:
    r = client.post("/api/solution")
    assert assert_refused(r, 409)["error"] == "game-live"
    post(client, "/api/move", {"move": "d"})
    data = post(client, "/api/giveup").json()
    assert data["view"]["given_up"] is True and data["can_undo"] is False
    assert "gave up" in data["announce"]
    assert assert_refused(post(client, "/api/move", {"move": "d"}), 409)["error"] == (
        "game-finished"
    )
    assert assert_refused(post(client, "/api/undo"), 409)["error"] == "game-finished"
    r = client.post("/api/solution")
    assert r.status_code == 200, r.text
    solution = r.json()
    assert set(solution) >= {"score", "proven", "moves"}
    replay = Game(1)
    for text in solution["moves"]:
        replay.play_text(text)
    assert replay.score == solution["score"]
    # the restart of a given-up game is a new game on the same deal
    again = post(client, "/api/restart").json()
    assert again["view"] == view_of(Game(1)) and again["view"]["given_up"] is False
    assert again["game"]["id"] != data["game"]["id"]


def test_solution_is_a_read_only_replay(client: TestClient) -> None:
    """The line comes with every position to show; fetching it changes nothing."""
    for move in ("d", "d"):
        post(client, "/api/move", {"move": move})
    # not before the end, and asking changes nothing
    before = state(client)
    assert assert_refused(client.post("/api/solution"), 409)["error"] == "game-live"
    assert state(client) == before
    ended = post(client, "/api/giveup").json()
    ended["game"].pop("elapsed", None)
    stats = client.get("/api/stats").json()
    assert stats["played"] == 1 and stats["given_up"] == 1 and stats["won"] == 0
    r = client.post("/api/solution")
    assert r.status_code == 200, r.text
    solution = r.json()
    assert set(solution) == {"score", "proven", "moves", "positions"}
    moves, positions = solution["moves"], solution["positions"]
    assert moves and len(positions) == len(moves) + 1
    # the positions replay the moves from the deal's start and end at the claimed score
    replay = Game(1)
    assert positions[0] == view_of(replay)
    for text, shown in zip(moves, positions[1:], strict=True):
        replay.play_text(text)
        assert shown == view_of(replay)
    assert positions[-1]["score"] == solution["score"] == replay.score
    assert solution["score"] < ended["view"]["score"]
    # the player's game, its record and the statistics are as they were
    assert client.post("/api/solution").json() == solution
    after = state(client)
    assert after["view"] == ended["view"] and after["game"] == ended["game"]
    assert after["view"]["moves"] == 2 and after["view"]["given_up"] is True
    assert client.get("/api/stats").json() == stats
    # the line is not the player's: undo is still refused and nothing was stored as played
    assert after["can_undo"] is False and after["last_move"] is None


def test_solution_of_an_over_game(make_client: MakeClient) -> None:
    """A game that is over (not given up) may see the line too; then it is final."""
    from devilsgrip.solver import play_game

    played = play_game(Game(1, rules="single-pass"), "greedy")
    assert played.is_over() and not played.given_up
    client = make_client(game=1, rules="single-pass")
    for move in played.move_stack:
        assert post(client, "/api/move", {"move": move.text()}).status_code == 200
    over = state(client)
    assert over["can_undo"] is True and over["game"]["final"] is False
    assert client.get("/api/stats").json()["played"] == 0  # over but open: not counted yet
    # over: what is left is to undo, look back at it (its line, its review), share it, or leave
    assert over["applies"] == ["best_line", "new_game", "restart", "review", "share", "undo"]
    assert over["labels"]["leave"] == (  # leaving it would end it as over, not given up
        f"It then counts as over, with score {over['view']['score']}.")
    r = client.post("/api/solution")
    assert r.status_code == 200, r.text
    solution = r.json()
    assert solution["positions"][0]["rules"] == "single-pass"
    assert solution["positions"][-1]["score"] == solution["score"]
    after = state(client)
    assert after["view"] == over["view"] and after["game"]["final"] is True
    assert after["can_undo"] is False and after["labels"]["leave"] is None
    assert after["applies"] == ["best_line", "new_game", "restart", "review", "share"]
    # the line is known now: the game cannot be reopened to play it
    assert assert_refused(post(client, "/api/undo"), 409)["error"] == "game-finished"
    stats = client.get("/api/stats").json()
    assert (stats["played"], stats["given_up"]) == (1, 0)


def test_hint_is_a_legal_move(client: TestClient) -> None:
    r = client.post("/api/hint")
    assert r.status_code == 200, r.text
    hint = r.json()
    assert set(hint) == {"move", "code", "text", "cells", "places"}
    assert hint["move"] in view_of(Game(1))["legal"]
    assert isinstance(hint["text"], str) and hint["text"]
    assert all(cell in CELL_NAMES for cell in hint["cells"])
    if hint["move"] not in ("d", "r"):
        assert hint["cells"] and hint["cells"][-1] == hint["move"][-2:]
    assert state(client)["view"] == view_of(Game(1))


def test_stats_and_best_score(client: TestClient) -> None:
    stats = client.get("/api/stats").json()
    assert stats["best"] is None and stats["saving"] is True
    post(client, "/api/move", {"move": "d"})
    post(client, "/api/giveup")
    # the game just ended counts on this deal as it counts in the totals
    stats = client.get("/api/stats").json()
    assert stats["best"] == stats["best_score"] == 72
    assert state(client)["game"]["best_score"] is None  # the end dialog's "best before"
    post(client, "/api/restart")
    stats = client.get("/api/stats").json()
    assert stats["best"] == 72
    assert state(client)["game"]["best_score"] == 72
    assert stats != client.get("/api/stats", headers={"cookie": ""}).json()


# --------------------------------------------------------------- settings
def test_settings_are_remembered(tmp_path: Path, make_client: MakeClient) -> None:
    db = tmp_path / "s.sqlite3"
    first = make_client(db=db)
    defaults = first.get("/api/settings").json()
    assert defaults["lang"] == "en" and defaults["four_colour"] is False
    assert defaults["animation"] == "normal" and defaults["rules"] == "classic"
    r = first.post("/api/settings", json={"four_colour": True, "animation": "fast",
                                          "rules": "single-pass", "lang": "fr"})
    assert r.status_code == 200, r.text
    assert r.json()["lang"] == "fr" and r.json()["four_colour"] is True
    new = post(first, "/api/new", {}).json()
    assert new["game"]["rules"] == "single-pass"
    cookie = first.cookies.get(COOKIE_NAME)
    # another server on the same database knows this browser's settings
    second = make_client(db=db)
    second.cookies.set(COOKIE_NAME, cookie or "", domain=DOMAIN)
    again = second.get("/api/settings").json()
    assert (again["lang"], again["four_colour"], again["animation"], again["rules"]) == (
        "fr", True, "fast", "single-pass"
    )



def test_the_first_game_guide_until_it_is_put_away_and_the_sounds_switch(
        tmp_path: Path, make_client: MakeClient) -> None:
    db = tmp_path / "g.sqlite3"
    first = make_client(db=db)
    defaults = first.get("/api/settings").json()
    assert defaults["sounds"] is True and defaults["guide_seen"] is False
    guide = defaults["guide"]
    assert guide["rows"] == ["2 → 5 → 8 → J", "3 → 6 → 9 → Q", "4 → 7 → 10 → K"]
    assert "stock" in guide["stock"] and guide["close"] == "Got it"
    french = first.post("/api/settings", json={"lang": "fr"}).json()["guide"]
    assert french["title"] != guide["title"] and french["rows"][0].startswith("2 → 5")
    assert first.post("/api/settings", json={"guide_seen": "yes"}).status_code == 400
    seen = first.post("/api/settings", json={"guide_seen": True, "sounds": False}).json()
    assert seen["guide"] is None and seen["guide_seen"] is True and seen["sounds"] is False
    # another server on the same database: the guide stays away, the sounds off
    second = make_client(db=db)
    second.cookies.set(COOKIE_NAME, first.cookies.get(COOKIE_NAME) or "", domain=DOMAIN)
    again = second.get("/api/settings").json()
    assert (again["guide"], again["sounds"]) == (None, False)

@pytest.mark.parametrize(
    "body",
    [
        {"lang": "xx"},
        {"lang": 5},
        {"four_colour": "yes"},
        {"animation": "warp"},
        {"rules": "no-such-rules"},
        {"volume": 3},
    ],
)
def test_bad_settings_are_refused(client: TestClient, body: dict[str, Any]) -> None:
    before = client.get("/api/settings").json()
    assert_refused(client.post("/api/settings", json=body), 400)
    assert client.get("/api/settings").json() == before


# ------------------------------------------------------------- languages
def test_language_switch_changes_messages(client: TestClient) -> None:
    english = assert_refused(client.post("/api/move", json={"move": "a1-a2"}), 409)
    client.post("/api/settings", json={"lang": "fr"})
    french = assert_refused(client.post("/api/move", json={"move": "a1-a2"}), 409)
    assert french["error"] == english["error"]
    assert french["message"] != english["message"]
    assert state(client)["lang"] == "fr"
    strings = client.get("/api/i18n").json()
    assert strings["lang"] == "fr" and "fr" in strings["languages"]
    assert strings["strings"] and all(isinstance(v, str) for v in strings["strings"].values())
    rules = client.get("/api/rules").json()
    assert rules["lang"] == "fr" and rules["text"]
    assert rules["text"] == i18n.rules_text("fr")
    assert client.get("/api/rules?lang=en").json()["text"] == i18n.rules_text("en")
    assert_refused(client.get("/api/rules?lang=zz"), 400)


def test_accept_language(make_client: MakeClient) -> None:
    c = make_client(lang="en", game=1)  # a deal where a1-a2 is not a move
    r = c.post("/api/move", json={"move": "a1-a2"}, headers={"accept-language": "da,en;q=0.5"})
    danish = assert_refused(r, 409)
    english = assert_refused(c.post("/api/move", json={"move": "a1-a2"}), 409)
    assert danish["message"] != english["message"]
    assert c.get("/api/game", headers={"accept-language": "es-ES"}).json()["lang"] == "es"
    # the browser's own setting wins over Accept-Language
    c.post("/api/settings", json={"lang": "hu"})
    assert c.get("/api/game", headers={"accept-language": "es-ES"}).json()["lang"] == "hu"


def test_server_language_is_the_fallback(make_client: MakeClient) -> None:
    c = make_client(lang="fr")
    assert state(c)["lang"] == "fr"
    assert c.get("/api/i18n").json()["lang"] == "fr"


# -------------------------------------------------------------- sessions
def test_sessions_are_isolated(tmp_path: Path, make_client: MakeClient) -> None:
    from devilsgrip.web.server import ServerOptions, create_app

    app = create_app(ServerOptions(db=tmp_path / "iso.sqlite3", extra_hosts=("testserver",)))
    one = make_client(app)
    two = make_client(app)
    a = post(one, "/api/new", {"game": 11}).json()
    b = post(two, "/api/new", {"game": 12}).json()
    assert one.cookies.get(COOKIE_NAME) != two.cookies.get(COOKIE_NAME)
    assert a["game"]["id"] != b["game"]["id"]
    post(one, "/api/move", {"move": "d"})
    assert state(two)["view"] == view_of(Game(12))
    assert state(one)["view"]["talon"] != []
    # a forged or unknown cookie gets a new session, never someone else's game
    three = make_client(app)
    three.cookies.set(COOKIE_NAME, "A" * 43, domain=DOMAIN)
    data = state(three)
    assert data["game"]["id"] not in (a["game"]["id"], b["game"]["id"])
    assert three.cookies.get(COOKIE_NAME) != "A" * 43


def test_restarted_server_resumes_the_game(tmp_path: Path, make_client: MakeClient) -> None:
    db = tmp_path / "resume.sqlite3"
    first = make_client(db=db)
    post(first, "/api/new", {"game": 21})
    for text in ("d", "d", "d"):
        post(first, "/api/move", {"move": text})
    post(first, "/api/undo")
    before = state(first)
    cookie = first.cookies.get(COOKIE_NAME)
    second = make_client(db=db)
    second.cookies.set(COOKIE_NAME, cookie or "", domain=DOMAIN)
    after = state(second)
    assert after["view"] == before["view"]
    assert after["game"]["id"] == before["game"]["id"]
    assert after["can_redo"] is True
    assert post(second, "/api/redo").json()["view"]["moves"] == 3
    # a restarted server started with --game deals that game to the first browser
    third = make_client(db=db, game=99)
    third.cookies.set(COOKIE_NAME, cookie or "", domain=DOMAIN)
    assert state(third)["game"]["number"] == 99


def test_without_a_store_the_game_still_runs(make_client: MakeClient) -> None:
    c = make_client(use_store=False, game=4)
    data = state(c)
    assert data["game"]["saving"] is False and data["game"]["id"] is None
    assert isinstance(data["game"]["warning"], str) and data["game"]["warning"]
    data = post(c, "/api/move", {"move": "d"}).json()
    assert data["view"]["talon"] and data["game"]["saving"] is False
    assert c.get("/api/stats").json() == {"saving": False, "best": None, "rules": "classic",
                                           "choices": [["classic", "Classic"]]}
    c.post("/api/settings", json={"four_colour": True})
    assert c.get("/api/settings").json()["four_colour"] is True


def test_a_damaged_database_is_reported(tmp_path: Path, make_client: MakeClient) -> None:
    db = tmp_path / "broken.sqlite3"
    db.write_bytes(b"this is not a database at all" * 200)
    c = make_client(db=db)
    data = state(c)
    assert data["game"]["saving"] is False
    assert "broken.sqlite3" in data["game"]["warning"]
    assert post(c, "/api/move", {"move": "d"}).status_code == 200
    assert db.read_bytes() == b"this is not a database at all" * 200


def test_won_game_has_its_arrangement(client: TestClient) -> None:
    from devilsgrip.solver import solve

    for number in range(1, 40):
        result = solve(Game(number), time_limit=2.0)
        if result.score == 0:
            break
    else:
        pytest.skip("no won deal among the first games")
    post(client, "/api/new", {"game": number})
    data: dict[str, Any] = {}
    for move in result.moves:
        data = post(client, "/api/move", {"move": move.text()}).json()
    assert data["view"]["won"] is True
    mirror = Game(number)
    mirror.play_all(list(result.moves))
    assert data["arrangement"] == [m.text().split("=") for m in mirror.arrangement()]
    assert "won" in data["announce"]
    assert data["game"]["final"] is True and data["can_undo"] is False
    # a win is its own best line: not offered, and refused in the player's language
    assert "best_line" not in data["applies"] and "review" in data["applies"]
    refused = client.post("/api/solution", headers={"Accept-Language": "fr"})
    assert assert_refused(refused, 409)["error"] == "best-line-won"
    assert refused.json()["message"] == "La partie est gagnée : aucun score n'est meilleur que 0."
    # the arrangement is shown by the page, never played: the game takes no more moves
    for text in ("=".join(pair) for pair in data["arrangement"][:1]):
        assert assert_refused(post(client, "/api/move", {"move": text}), 409)["error"] == (
            "game-finished")
    grid = list(data["view"]["grid"])
    for pair in data["arrangement"]:
        a, b = (CELL_NAMES.index(c) for c in pair)
        grid[a], grid[b] = grid[b], grid[a]
    rows = [[pile[-1][0] for pile in grid[r * 8:(r + 1) * 8]] for r in range(3)]
    assert rows == [["J"] * 8, ["Q"] * 8, ["K"] * 8]
    assert state(client)["view"]["moves"] == len(result.moves)


# -------------------------------------------------------------- the page
def test_page_and_card_images(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert page.headers["cache-control"] == "no-cache" and page.headers["etag"]
    again = client.get("/", headers={"if-none-match": page.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    card = client.get("/cards/TS.svg")
    assert card.status_code == 200 and card.headers["content-type"] == "image/svg+xml"
    assert card.text.lstrip().startswith("<svg")
    four = client.get("/cards/four/TD.svg")
    assert four.status_code == 200 and four.content != client.get("/cards/TD.svg").content
    assert client.get("/cards/TD.svg?four=1").content == four.content
    assert client.get("/cards/back.svg").status_code == 200
    assert client.get("/cards/empty.svg").status_code == 200
    for bad in ("/cards/XX.svg", "/cards/ts.svg", "/cards/TS.svg?four=2", "/cards/..%2Fx.svg",
                "/cards/four/XX.svg", "/cards/four/four/TS.svg"):
        assert_refused(client.get(bad), 404)


def test_static_files(client: TestClient) -> None:
    from devilsgrip.web.server import STATIC_DIR

    for path in sorted(STATIC_DIR.iterdir()):
        if path.is_file() and not path.name.startswith("."):
            for url in (f"/static/{path.name}", f"/{path.name}"):
                r = client.get(url)
                assert r.status_code == 200, url
                assert r.content == path.read_bytes()
                if path.suffix == ".js":
                    assert r.headers["content-type"] == "text/javascript; charset=utf-8"
                if path.suffix == ".css":
                    assert r.headers["content-type"] == "text/css; charset=utf-8"
    for bad in ("/static/../server.py", "/static/%2e%2e/server.py", "/../server.py",
                "/static/", "/server.py", "/static/.hidden", "/nothing.js"):
        r = client.get(bad)
        assert r.status_code == 404, bad
    assert_refused(client.post("/"), 405)


# -------------------------------------------------------------- properties
MOVE_TEXTS = st.one_of(
    st.sampled_from(["d", "r", "u"]),
    st.builds(lambda s, d: f"{s}-{d}", st.sampled_from(["t", *CELL_NAMES]),
              st.sampled_from(CELL_NAMES)),
    st.builds(lambda s, d: f"{s}={d}", st.sampled_from(CELL_NAMES), st.sampled_from(CELL_NAMES)),
    st.text(max_size=8),
)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(MOVE_TEXTS, min_size=1, max_size=25))
def test_any_move_text_matches_the_engine(make_client: MakeClient, texts: list[str]) -> None:
    """Whatever text arrives, the server does exactly what the engine does."""
    c = make_client(use_store=False, game=3)
    mirror = Game(3)
    for text in texts:
        if text == "u":
            r = c.post("/api/undo")
            expected_ok = mirror.can_undo
            if expected_ok:
                mirror.undo()
        else:
            r = c.post("/api/move", json={"move": text})
            try:
                mirror.play_text(text)
                expected_ok = True
            except ValueError:
                expected_ok = False
        if expected_ok:
            assert r.status_code == 200, (text, r.text)
            assert r.json()["view"] == view_of(mirror)
        else:
            assert_refused(r)
    assert state(c)["view"] == view_of(mirror)


def test_public_endpoints_make_no_session(client: TestClient) -> None:
    fresh = TestClient(client.app, headers={"origin": "http://testserver"})
    r = fresh.get("/api/i18n", headers={"accept-language": "da"})
    assert r.status_code == 200 and r.json()["lang"] == "da"
    assert "set-cookie" not in r.headers
    assert "set-cookie" not in fresh.get("/api/rules").headers
    # a known browser's chosen language applies there too
    client.post("/api/settings", json={"lang": "es"})
    assert client.get("/api/i18n", headers={"accept-language": "da"}).json()["lang"] == "es"


def test_two_servers_on_one_database_never_interleave_a_game(tmp_path: Path,
                                                              make_client: MakeClient) -> None:
    """The same browser (cookie) on two servers of one database: each write is checked."""
    db = tmp_path / "shared.sqlite3"
    first = make_client(db=db, game=4)
    state(first)
    # the browser's first action stores its session and its game
    assert post(first, "/api/settings", {"animation": "normal"}).status_code == 200
    second = make_client(db=db)
    second.cookies.set(COOKIE_NAME, first.cookies[COOKIE_NAME])
    assert state(second)["game"]["id"] == state(first)["game"]["id"]
    assert post(first, "/api/move", {"move": "d"}).status_code == 200
    # the second server read the game before that move: its write is refused, not mixed in
    refused = post(second, "/api/move", {"move": "d"})
    assert refused.status_code == 409
    data = refused.json()
    assert set(data) == {"error", "message", "state"} and data["error"] == "game-changed"
    # the game as stored now comes with the refusal: the page shows it, asking nothing more
    assert set(data["state"]) == STATE_KEYS and data["state"]["view"]["moves"] == 1
    shown = state(second)
    assert shown["view"]["moves"] == 1 and shown["view"] == state(first)["view"]
    assert data["state"]["view"] == shown["view"]
    assert data["state"]["game"]["id"] == shown["game"]["id"]
    assert post(second, "/api/move", {"move": "d"}).status_code == 200
    again = post(first, "/api/move", {"move": "d"})
    assert again.status_code == 409 and again.json()["error"] == "game-changed"
    assert again.json()["state"]["view"]["moves"] == 2
    # nothing acknowledged is lost, and the stored moves replay
    from devilsgrip.store import Store

    with Store.open(db) as store:
        gid = state(first)["game"]["id"]
        assert store.load_game(gid).moves_played == 2
    assert state(first)["view"]["moves"] == 2


def test_picked_tells_in_words_where_a_card_can_go(client: TestClient) -> None:
    game = Game(1)
    source = next(m for m in game.generate_moves() if m.kind.name == "BUILD")
    name = CELL_NAMES[source.src]
    data = client.get(f"/api/picked?place={name}").json()
    assert data["place"] == name and CELL_NAMES[source.dst] in data["text"]
    assert data["text"].startswith("Picked up") and data["text"].endswith(".")
    assert assert_refused(client.get("/api/picked?place=talon"), 409)["error"] == "talon-empty"
    assert_refused(client.get("/api/picked?place=z9"), 400)
    assert_refused(client.get("/api/picked"), 400)
    assert state(client)["view"] == view_of(Game(1))


def test_refusal_says_why_before_anything_is_sent(client: TestClient) -> None:
    game = Game(5)  # the 3 of diamonds in a1 does not go on the 9 of diamonds in b1
    assert game.grid[0] and "a1-b1" not in view_of(game)["legal"]
    post(client, "/api/new", {"game": 5})
    why = client.get("/api/refusal?from=a1&to=b1").json()
    assert why["error"] and "base" in why["message"]
    assert why["swap"] is True  # the deliberate swap of the two piles would be played
    talon = client.get("/api/refusal?from=talon&to=b1").json()
    assert talon["error"] and talon["swap"] is False  # only the grid's piles swap
    refused = assert_refused(client.post("/api/drop", json={"from": "a1", "to": "b1"}), 409)
    assert (why["error"], why["message"]) == (refused["error"], refused["message"])
    assert client.get("/api/refusal?move=d").json() == {"error": None, "message": None}
    assert client.get("/api/refusal?move=r").json()["error"]
    assert client.get("/api/refusal?from=stock&to=stock").json()["error"] is None
    assert_refused(client.get("/api/refusal?move=zz"), 400)
    assert_refused(client.get("/api/refusal?from=a1"), 400)
    assert state(client)["view"]["moves"] == 0
    assert post(client, "/api/giveup", {}).status_code == 200
    final = client.get("/api/refusal?from=a1&to=b1").json()
    assert final["error"] == "game-finished" and final["swap"] is False  # nothing plays now


@pytest.mark.parametrize(("rules", "winnable"), [("single-pass", True), ("classic", False)])
def test_the_daily_calendar_says_whether_its_deals_can_all_be_won(
        client: TestClient, rules: str, winnable: bool) -> None:
    """The page words its note from the answer: it knows no preset's catalog itself."""
    from devilsgrip.catalog import winnable_deals

    doc = client.get("/api/daily", params={"date": "2026-12-05", "rules": rules}).json()
    assert doc["rules"] == rules and doc["winnable"] is winnable
    catalogued = {e.game for e in winnable_deals()}
    assert all((d["game"] in catalogued) is winnable for d in doc["days"])
