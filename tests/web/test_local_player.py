"""One player per database on one computer: every browser on it, the terminal game and the
command line share the games, history and statistics; a browser on another computer joins
them only with the pairing code the server prints."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from devilsgrip.cli import main
from devilsgrip.session import PlaySession
from devilsgrip.store import Store
from devilsgrip.web.api import handle
from devilsgrip.web.browsers import LOCAL_OWNER, PAIR_TRIES, WebState, shown_code
from devilsgrip.web.calls import Call, Reply
from devilsgrip.web.options import ServerOptions

GUEST = "G" * 43
"""A browser's cookie token."""


@pytest.fixture
def make_web(tmp_path: Path) -> Iterator[Callable[..., WebState]]:
    made: list[WebState] = []

    def make(**options: Any) -> WebState:
        options.setdefault("db", tmp_path / "games.sqlite3")
        web = WebState(ServerOptions(**options))
        web.open_store()
        made.append(web)
        return web

    yield make
    for web in made:
        web.close_solver()
        web.close_store()


def call(web: WebState, token: str | None, method: str, path: str, *, local: bool,
         **data: Any) -> Reply:
    return handle(web, token, Call(method, path, data, {}, "en", local=local))


def terminal_game(db: Path, number: int) -> int:
    """A game played and given up in the terminal (owner ``local``); its id."""
    with Store.open(db) as store:
        session = PlaySession.start(store, number=number, owner="local")
        session.play_text("d")
        session.give_up()
        assert session.game_id is not None
        return session.game_id


def test_every_browser_on_this_computer_plays_as_its_player(make_web: Callable[..., WebState],
                                                            tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    played = terminal_game(db, 3)
    web = make_web(db=db)
    first = call(web, None, "GET", "/api/stats", local=True)
    assert first.status == 200 and first.body["played"] == 1 and first.token is None
    history = call(web, None, "GET", "/api/history", local=True).body
    assert [g["id"] for g in history["games"]] == [played]
    # two browsers of this computer, one with a cookie and one without: one game
    moved = call(web, None, "POST", "/api/move", local=True, move="d")
    assert moved.status == 200 and moved.token is None
    seen = call(web, GUEST, "GET", "/api/game", local=True)
    assert seen.body["game"]["id"] == moved.body["game"]["id"]
    assert seen.body["view"]["moves"] == 1 and seen.token is None
    assert call(web, GUEST, "GET", "/api/settings", local=True).body["player"] == "local"
    # the terminal (and the command line) see the browsers' game as the player's
    with Store.open(db) as store:
        assert {g.id for g in store.games(owner="local")} == {played, moved.body["game"]["id"]}
    # a browser on another computer is a player of its own
    guest = call(web, None, "GET", "/api/stats", local=False)
    assert guest.body["played"] == 0 and guest.token not in (None, GUEST)
    assert call(web, None, "GET", "/api/settings", local=False).body["player"] == "guest"


def test_browsers_apart_keeps_each_browser_its_own(make_web: Callable[..., WebState],
                                                   tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    terminal_game(db, 3)
    web = make_web(db=db, browsers_apart=True)
    reply = call(web, None, "GET", "/api/stats", local=True)
    assert reply.body["played"] == 0 and reply.token is not None


def test_a_browser_of_this_computer_brings_its_games(make_web: Callable[..., WebState],
                                                     tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Games a browser played under its own cookie (before) are the player's once it is
    seen from this computer."""
    db = tmp_path / "games.sqlite3"
    web = make_web(db=db)
    new = call(web, None, "POST", "/api/move", local=False, move="d")
    token = new.token
    assert token is not None
    assert call(web, token, "POST", "/api/giveup", local=False).status == 200
    gid = new.body["game"]["id"]
    assert call(web, None, "GET", "/api/stats", local=True).body["played"] == 0
    assert call(web, token, "GET", "/api/stats", local=True).body["played"] == 1
    assert [g["id"] for g in call(web, None, "GET", "/api/history",
                                  local=True).body["games"]] == [gid]
    assert main(["stats", "--owner", "local", "--json", "--db", str(db)]) == 0
    assert '"played": 1' in capsys.readouterr().out


def test_a_browser_elsewhere_joins_only_with_the_code(make_web: Callable[..., WebState],
                                                      tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    played = terminal_game(db, 3)
    web = make_web(db=db, host="0.0.0.0", port=8123)
    told: list[str] = []
    web.on_pairing_code = told.append
    code = web.pairing_code
    assert code is not None and re.fullmatch(r"[0-9]{8}", code)
    first = call(web, None, "POST", "/api/move", local=False, move="d")
    token = first.token
    assert token is not None
    guest_game = first.body["game"]["id"]
    settings = call(web, token, "GET", "/api/settings", local=False).body
    assert settings["player"] == "guest" and settings["pairing"] is True
    assert call(web, token, "GET", "/api/stats", local=False).body["played"] == 0
    wrong = "00000000" if code != "00000000" else "11111111"
    refused = call(web, token, "POST", "/api/pair", local=False, code=wrong)
    assert refused.status == 403 and refused.body["error"] == "pairing-wrong"
    assert refused.body["message"].endswith(".")
    assert call(web, token, "GET", "/api/settings", local=False).body["player"] == "guest"
    assert call(web, token, "GET", "/api/game", local=False).body["game"]["id"] == guest_game
    # the right code, typed as printed: the browser plays as this computer's player
    joined = call(web, token, "POST", "/api/pair", local=False, code=shown_code(code))
    assert joined.status == 200, joined.body
    assert joined.token is None  # it keeps its cookie
    assert call(web, token, "GET", "/api/settings", local=False).body["player"] == "local"
    stats = call(web, token, "GET", "/api/stats", local=False).body
    assert stats["played"] == 1  # the terminal's game
    history = call(web, token, "GET", "/api/history", local=False).body
    assert played in [g["id"] for g in history["games"]]
    with Store.open(db) as store:
        assert guest_game in [g.id for g in store.games(owner=LOCAL_OWNER)]
    # after a restart the cookie still opens this computer's player
    web.close_store()
    again = make_web(db=db, host="0.0.0.0", port=8123)
    assert call(again, token, "GET", "/api/settings", local=False).body["player"] == "local"
    assert told == []


def test_wrong_codes_change_the_code(make_web: Callable[..., WebState]) -> None:
    web = make_web(host="0.0.0.0", port=8123)
    told: list[str] = []
    web.on_pairing_code = told.append
    code = web.pairing_code
    assert code is not None
    token = call(web, None, "GET", "/api/game", local=False).token
    wrong = "00000000" if code != "00000000" else "11111111"
    for _ in range(PAIR_TRIES):
        assert call(web, token, "POST", "/api/pair", local=False, code=wrong).status == 403
    assert web.pairing_code != code and told == [shown_code(web.pairing_code or "")]
    # the old code no longer lets anyone in
    assert call(web, token, "POST", "/api/pair", local=False, code=code).status == 403
    assert call(web, token, "GET", "/api/settings", local=False).body["player"] == "guest"


def test_a_server_on_this_computer_takes_no_code(make_web: Callable[..., WebState]) -> None:
    web = make_web()
    assert web.pairing_code is None
    token = call(web, None, "GET", "/api/game", local=False).token
    refused = call(web, token, "POST", "/api/pair", local=False, code="12345678")
    assert refused.status == 409 and refused.body["error"] == "pairing-off"
    assert call(web, token, "GET", "/api/settings", local=False).body["pairing"] is False
    # from this computer there is nothing to join: the player's state
    assert call(web, None, "POST", "/api/pair", local=True, code="x").status == 200


def test_loopback_requests_are_the_local_player(make_server: Callable[..., Any]) -> None:
    server = make_server(game=4, browsers_apart=False)
    with httpx2.Client(base_url=server.url, headers={"origin": server.url}) as one, \
            httpx2.Client(base_url=server.url, headers={"origin": server.url}) as two:
        r = one.post("/api/move", json={"move": "d"})
        assert r.status_code == 200 and "set-cookie" not in r.headers
        shown = two.get("/api/game")
        assert "set-cookie" not in shown.headers
        assert shown.json()["game"]["id"] == r.json()["game"]["id"]
        assert shown.json()["view"]["moves"] == 1


def test_the_server_prints_the_code_when_it_listens_on_the_network(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "devilsgrip", "play", "--host", "0.0.0.0", "--port", "0",
         "--no-browser", "--db", str(tmp_path / "g.sqlite3"), "--lang", "en"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        deadline = time.monotonic() + 60
        assert proc.stdout is not None
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if "code" in line:
                break
        text = "".join(lines)
        assert re.search(r"the code [0-9]{4}-[0-9]{4} is typed in its Settings", text), text
    finally:
        proc.terminate()
        proc.wait(10)


def _outside_address() -> str | None:
    """An address of this computer that is not a loopback one (None: there is none)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # no packet is sent: only a route is chosen
            address: str = s.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


@pytest.mark.browser
@pytest.mark.slow
def test_the_page_lets_a_browser_elsewhere_in(browser: Any, tmp_path: Path) -> None:
    """A browser reaching the server through the network sees the code field in Settings;
    the code the server printed makes it this computer's player (the terminal's game shows
    in its statistics)."""
    import socket

    from devilsgrip.web.runner import ServerThread

    outside = _outside_address()
    if outside is None:
        pytest.skip("this computer has no address but loopback")
    db = tmp_path / "games.sqlite3"
    terminal_game(db, 3)
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        port = s.getsockname()[1]
    thread = ServerThread(ServerOptions(host="0.0.0.0", port=port, db=db, lang="en",
                                        extra_hosts=(f"{outside}:{port}",))).start()
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(f"http://{outside}:{port}/")
        page.wait_for_function("() => document.body.dataset.ready && !document.body.dataset.busy")
        page.click("#btn-settings")
        page.locator("#set-pair-code").wait_for(state="visible")
        assert page.locator("#lbl-set-pair").text_content() == "Play as this computer's player"
        page.fill("#set-pair-code", "0000-000")
        page.click("#set-pair-go")
        page.wait_for_function(
            "() => document.querySelector('#settings-error').textContent.length > 0")
        assert "not the code" in (page.locator("#settings-error").text_content() or "")
        code = thread.app.state.web.pairing_code
        page.fill("#set-pair-code", shown_code(code))
        page.press("#set-pair-code", "Enter")
        page.wait_for_function("() => !document.querySelector('#dlg-settings').open")
        played = page.evaluate("() => fetch('/api/stats').then(r => r.json())")
        assert played["played"] == 1
        page.click("#btn-settings")
        assert page.locator("#set-pair").is_hidden()
    finally:
        context.close()
        thread.stop()
