"""The statistics of the web game (``GET /api/stats``): the game's own rules first, the
other rules played and all of them together to choose from (every game counts in the
statistics of the rules it was played under)."""

from __future__ import annotations

from collections.abc import Callable

from starlette.testclient import TestClient

from devilsgrip.game import Game
from devilsgrip.records import write_record
from devilsgrip.solver import play_game

MakeClient = Callable[..., TestClient]


def _records() -> str:
    games = [play_game(Game(n, rules=rules), "greedy", time_limit=0.05)
             for n, rules in ((3, "classic"), (4, "classic"), (5, "single-pass"))]
    return "\n\n".join(write_record(g) for g in games)


def test_the_statistics_are_those_of_the_game_s_rules_first(make_client: MakeClient) -> None:
    client = make_client(game=1)
    r = client.post("/api/import", json={"records": _records()})
    assert r.json()["imported"] == 3, r.text
    own = client.get("/api/stats").json()
    assert own["rules"] == "classic" and own["played"] == 2
    assert own["choices"] == [["classic", "Classic"], ["single-pass", "Single pass"],
                              ["all", "All rules"]]
    assert "best" in own  # this deal's best comes with the game's own rules
    other = client.get("/api/stats", params={"rules": "single-pass"}).json()
    assert other["rules"] == "single-pass" and other["played"] == 1 and "best" not in other
    every = client.get("/api/stats", params={"rules": "all"}).json()
    assert every["rules"] == "all" and every["played"] == 3
    assert every["average_score"] != own["average_score"]
    # rules never played are shown (nothing counted) and offered while they are
    fresh = client.get("/api/stats", params={"rules": "classic,draw=1"}).json()
    assert fresh["rules"] == "classic,draw=1" and fresh["played"] == 0
    assert fresh["choices"][1][0] == "classic,draw=1"


def test_bad_rules_are_refused_in_the_player_s_language(make_client: MakeClient) -> None:
    client = make_client(game=1)
    r = client.get("/api/stats", params={"rules": "clasic"}, headers={"accept-language": "fr"})
    assert r.status_code == 400
    body = r.json()
    assert body["error"] == "rules-unknown-preset"
    assert body["message"].startswith("Variante de règles inconnue 'clasic'"), body


def test_one_rules_played_offers_no_other_choice(make_client: MakeClient) -> None:
    client = make_client(game=1)
    stats = client.get("/api/stats", headers={"accept-language": "fr"}).json()
    assert stats["rules"] == "classic" and stats["played"] == 0
    assert stats["choices"] == [["classic", "Classique"]]


def _timed(game: Game, seconds: str) -> str:
    """``game``'s record with its clock, as an export writes it."""
    return write_record(game).replace("[Rules ", f'[PlayTime "{seconds}"]\n[Rules ', 1)


def test_the_fastest_win_and_the_time_played_come_from_the_games_clocks(
        make_client: MakeClient) -> None:
    from devilsgrip.catalog import winnable_line

    line = winnable_line(17)
    assert line is not None
    won = Game(17, rules="single-pass")
    won.play_all(list(line))
    assert won.is_won()
    lost = play_game(Game(5, rules="single-pass"), "greedy", time_limit=0.05)
    untimed = Game(17, rules="single-pass")
    untimed.play_all(list(line))
    untimed.tags["Started"] = "2024-01-01T00:00:00+00:00"  # another game of the same deal
    client = make_client(game=1, rules="single-pass")
    records = [_timed(won, "95.0"), _timed(lost, "30.5"), write_record(untimed)]
    assert client.post("/api/import", json={"records": "\n\n".join(records)}
                       ).json()["imported"] == 3
    stats = client.get("/api/stats").json()
    assert stats["won"] == 2 and stats["played"] == 3
    assert stats["fastest_win"] == 95.0 and stats["time_played"] == 125.5
    classic = client.get("/api/stats", params={"rules": "classic"}).json()
    assert classic["fastest_win"] is None and classic["time_played"] == 0
