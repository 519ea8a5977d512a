"""No client can freeze a game, no GET changes one, no cookie leaves the server, solver
work never holds up a move, and a visitor who only looks stores nothing."""

from __future__ import annotations

import http.client
import json
import random
import socket
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from devilsgrip.web.api import handle
from devilsgrip.web.browsers import SOLVER_THREADS, WebState
from devilsgrip.web.calls import Call
from devilsgrip.web.options import ServerOptions
from devilsgrip.web.server import COOKIE_NAME

ORIGIN = "http://testserver"
LiveServer = Any

MakeServer = Callable[..., LiveServer]
MakeClient = Callable[..., TestClient]


def _raw(server: LiveServer, request: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    sock.sendall(request)
    return sock


def _request(server: LiveServer, method: str, path: str, cookie: str | None,
             body: bytes | None = None) -> tuple[int, dict[str, Any], str | None]:
    con = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    headers = {"Origin": server.url, "Content-Type": "application/json"}
    if cookie:
        headers["Cookie"] = f"{COOKIE_NAME}={cookie}"
    try:
        con.request(method, path, body=body, headers=headers)
        r = con.getresponse()
        data = json.loads(r.read())
        found = r.getheader("set-cookie")
    finally:
        con.close()
    token = found.split(";")[0].split("=", 1)[1] if found else None
    return r.status, data, token


def _stalled_undo(server: LiveServer, cookie: str | None) -> socket.socket:
    """A ``POST /api/undo`` that says its body has 2 bytes and sends only one."""
    host = server.url.removeprefix("http://")
    cookie_line = f"Cookie: {COOKIE_NAME}={cookie}\r\n" if cookie else ""
    return _raw(server, (
        f"POST /api/undo HTTP/1.1\r\nHost: {host}\r\nOrigin: {server.url}\r\n{cookie_line}"
        "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{").encode())


# ------------------------------------------------------------- stalled bodies
def test_stalled_bodies_never_hold_a_players_game(make_server: MakeServer) -> None:
    server = make_server(game=3)
    status, _data, cookie = _request(server, "POST", "/api/move", None, b'{"move": "d"}')
    assert status == 200 and cookie
    stalled = [_stalled_undo(server, cookie) for _ in range(10)]
    try:
        time.sleep(0.3)
        began = time.monotonic()
        status, data, _token = _request(server, "GET", "/api/game", cookie)
        took = time.monotonic() - began
        print(f"GET /api/game with ten stalled bodies open: {took * 1000:.1f} ms")
        assert status == 200 and took < 1.0, took
        assert data["view"]["moves"] == 1  # no stalled undo was played
        began = time.monotonic()
        status, data, _token = _request(server, "POST", "/api/move", cookie, b'{"move": "d"}')
        assert status == 200 and time.monotonic() - began < 1.0
    finally:
        for sock in stalled:
            sock.close()


def test_a_stalled_body_is_refused_in_time(make_server: MakeServer,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("devilsgrip.web.app.BODY_SECONDS", 0.5)
    server = make_server(game=3)
    status, _data, cookie = _request(server, "POST", "/api/move", None, b'{"move": "d"}')
    assert status == 200
    sock = _stalled_undo(server, cookie)
    sock.settimeout(10)
    began = time.monotonic()
    try:
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    finally:
        sock.close()
    took = time.monotonic() - began
    text = answer.decode()
    assert text.startswith("HTTP/1.1 408"), text
    assert "body-too-slow" in text and "0 seconds" not in text
    assert took < 5.0
    status, data, _token = _request(server, "GET", "/api/game", cookie)
    assert status == 200 and data["view"]["moves"] == 1  # the undo never happened


# ---------------------------------------------------------- no GET changes
def _shown(client: TestClient) -> dict[str, Any]:
    """The game's state without its running clock."""
    state: dict[str, Any] = client.get("/api/game").json()
    state["game"].pop("elapsed")
    return state


def _over_client(make_client: MakeClient) -> TestClient:
    client = make_client(rules="single-pass", game=1)
    rng = random.Random(0)
    for _ in range(2000):
        state = client.get("/api/game").json()
        if state["view"]["over"]:
            return client
        legal = state["view"]["legal"]
        assert client.post("/api/move", json={"move": rng.choice(legal)}).status_code == 200
    raise AssertionError("the game did not end")


@pytest.mark.slow
def test_no_get_changes_a_game(make_client: MakeClient) -> None:
    client = _over_client(make_client)
    before = _shown(client)
    assert before["game"]["final"] is False
    for path in ("/api/solution", "/api/hint"):
        r = client.get(path)
        assert r.status_code == 405 and r.json()["error"] == "method-not-allowed", path
        assert r.json()["message"].endswith(".")
    assert _shown(client) == before
    r = client.post("/api/solution")
    assert r.status_code == 200 and r.json()["moves"]
    assert client.get("/api/game").json()["game"]["final"] is True


def test_a_hint_is_recorded_only_by_post(tmp_path: Path, make_client: MakeClient) -> None:
    from devilsgrip.store import Store

    db = tmp_path / "hints.sqlite3"
    client = make_client(db=db, game=5)
    gid = client.post("/api/move", json={"move": "d"}).json()["game"]["id"]

    def hints() -> int:
        with Store.open(db) as store:
            info = store.game_info(gid)
            assert info is not None
            return info.hints

    for _ in range(3):
        assert client.get("/api/hint").status_code == 405
    assert hints() == 0
    hint = client.post("/api/hint")
    assert hint.status_code == 200 and hint.json()["move"]
    assert hints() == 1


def test_every_state_change_checks_origin_and_site(make_client: MakeClient) -> None:
    client = _over_client(make_client)
    before = _shown(client)
    for path in ("/api/hint", "/api/solution", "/api/move", "/api/undo", "/api/review"):
        for headers in ({"origin": "http://evil.example"}, {"origin": "null"},
                        {"origin": ORIGIN, "sec-fetch-site": "cross-site"},
                        {"origin": ORIGIN, "sec-fetch-site": "same-site"}):
            r = client.post(path, json={}, headers=headers)
            assert r.status_code == 403, (path, headers)
        no_origin = TestClient(client.app)
        no_origin.cookies.update(client.cookies)
        assert no_origin.post(path, json={}).json()["error"] == "origin-missing"
    assert _shown(client) == before


# ------------------------------------------------------- the cookie stays here
def test_the_cookie_never_leaves_the_server(make_client: MakeClient) -> None:
    client = make_client(game=5)
    assert client.post("/api/move", json={"move": "d"}).status_code == 200
    token = client.cookies[COOKIE_NAME]
    client.post("/api/hint")
    client.post("/api/giveup")
    for path in ("/api/game", "/api/stats", "/api/history", "/api/settings", "/api/review"):
        r = client.get(path)
        assert token not in r.text, path
        assert "set-cookie" not in r.headers, path


# --------------------------------------------------- looking stores nothing
@pytest.mark.slow
def test_a_visitor_who_only_looks_stores_nothing(tmp_path: Path,
                                                 make_client: MakeClient) -> None:
    db = tmp_path / "looks.sqlite3"
    client = make_client(db=db)
    client.post("/api/settings", json={})  # the database exists, with one player
    client.cookies.clear()

    def counts() -> tuple[int, ...]:
        con = sqlite3.connect(db)
        try:
            return tuple(con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                         for t in ("games", "web_sessions", "events", "settings"))
        finally:
            con.close()

    def size() -> int:
        return sum(p.stat().st_size for p in (db, Path(f"{db}-wal")) if p.exists())

    before = counts()
    bytes_before = size()
    for i in range(400):
        client.cookies.clear()
        path = ("/api/game", "/api/stats", "/api/settings", "/api/history")[i % 4]
        assert client.get(path).status_code == 200
    # hiding and showing the page is not an action either
    client.cookies.clear()
    client.get("/api/game")
    assert client.post("/api/clock", json={"running": False}).status_code == 200
    assert counts() == before
    assert size() == bytes_before
    # the first action stores the session and the game it was shown
    client.cookies.clear()
    shown = client.get("/api/game").json()
    assert shown["game"]["id"] is None and shown["game"]["saving"] is True
    assert shown["game"]["warning"] is None
    played = client.post("/api/move", json={"move": "d"}).json()
    assert isinstance(played["game"]["id"], int) and played["game"]["number"] == (
        shown["game"]["number"])
    assert played["game"]["saving"] is True
    assert counts()[:3] == (before[0] + 1, before[1] + 1, before[2] + 1)
    # a refused first action stores nothing
    client.cookies.clear()
    client.get("/api/game")
    assert client.post("/api/move", json={"move": "zz"}).status_code == 400
    assert counts()[:3] == (before[0] + 1, before[1] + 1, before[2] + 1)


# ------------------------------------------------------------- solver work
def test_solver_work_has_its_own_bounded_threads() -> None:
    web = WebState(ServerOptions(use_store=False))
    running = 0
    peak = 0
    lock = threading.Lock()

    def search() -> str:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        time.sleep(0.05)
        with lock:
            running -= 1
        return threading.current_thread().name

    try:
        futures = [web.run_solver(search) for _ in range(4 * SOLVER_THREADS)]
        names = [f.result(timeout=30) for f in futures]
    finally:
        web.close_solver()
    assert peak == SOLVER_THREADS
    assert all(n.startswith("devilsgrip-solver") for n in names)


def test_moves_go_on_while_searches_wait(make_client: MakeClient,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Twenty players wait for best lines that take seconds; another player's moves are
    answered at once (they never wait for a thread that a search's request holds)."""
    release = threading.Event()
    slow = ThreadPoolExecutor(32)

    def slow_search(self: WebState, work: Callable[[], Any]) -> Future[Any]:
        def later() -> Any:
            release.wait(20)
            return work()
        return slow.submit(later)

    monkeypatch.setattr(WebState, "run_solver", slow_search)
    app_client = make_client(solve_time=30.0)
    searchers = []
    for n in range(20):
        c = TestClient(app_client.app, headers={"origin": ORIGIN})
        assert c.post("/api/new", json={"game": 100 + n}).status_code == 200
        assert c.post("/api/move", json={"move": "d"}).status_code == 200
        assert c.post("/api/giveup").status_code == 200
        searchers.append(c)
    player = TestClient(app_client.app, headers={"origin": ORIGIN})
    assert player.post("/api/new", json={"game": 7}).status_code == 200

    def play() -> list[float]:
        latencies = []
        for path, body in (("/api/move", {"move": "d"}), ("/api/move", {"move": "d"}),
                           ("/api/undo", {})):
            began = time.monotonic()
            r = player.post(path, json=body)
            latencies.append(time.monotonic() - began)
            assert r.status_code == 200, r.text
        return latencies

    pool = ThreadPoolExecutor(len(searchers) + 1)
    try:
        asked = [pool.submit(c.post, "/api/solution") for c in searchers]
        time.sleep(0.5)  # every search is waiting for its answer
        # the moves do not wait for the searches: answered before any search ends
        latencies = pool.submit(play).result(timeout=10)
        assert not any(a.done() for a in asked)
    finally:
        release.set()
        answers = [a.result(timeout=120).status_code for a in asked]
        pool.shutdown()
        slow.shutdown(wait=False)
    assert max(latencies) < 1.0, latencies
    assert answers == [200] * len(searchers)


def test_handle_needs_no_threads_of_its_own() -> None:
    """A transport without threads passes a solver that runs the work at once."""
    def at_once(work: Callable[[], Any]) -> Future[Any]:
        done: Future[Any] = Future()
        done.set_result(work())
        return done

    web = WebState(ServerOptions(use_store=False, game=5, hint_time=0.2), solver=at_once)
    reply = handle(web, None, Call("POST", "/api/hint"))
    assert reply.status == 200 and reply.body["move"]
    assert web._pool is None  # no thread was started
    assert handle(web, reply.token, Call("GET", "/api/hint")).status == 405
