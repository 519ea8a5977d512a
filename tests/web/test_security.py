"""The browser game's defences: Host, Origin, cookie, CSP, body size, hidden stock order."""

from __future__ import annotations

import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient

from devilsgrip.cards import CARD_CODES, card_name
from devilsgrip.game import Game
from devilsgrip.web.api import view_dict
from devilsgrip.web.server import COOKIE_NAME, CSP, MAX_BODY

MakeClient = Callable[..., TestClient]
POSTS = ("/api/new", "/api/restart", "/api/move", "/api/undo", "/api/redo", "/api/giveup",
         "/api/settings")
GETS = ("/", "/api/game", "/api/hint", "/api/stats", "/api/settings", "/api/i18n",
        "/api/rules", "/cards/TS.svg", "/static/index.html", "/nothing-here")


def _state(client: TestClient | httpx2.Client) -> dict[str, Any]:
    """The game's state without its running clock (``game.elapsed``)."""
    data: dict[str, Any] = client.get("/api/game").json()
    data.get("game", {}).pop("elapsed", None)
    return data


def refused(response: httpx2.Response, status: int, code: str) -> None:
    assert response.status_code == status, (response.status_code, response.text)
    data = response.json()
    assert data["error"] == code and data["message"]
    assert "set-cookie" not in response.headers


# ------------------------------------------------------------------- Host
@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1:1",
                                  "localhost", "127.0.0.1.nip.io:80", ""])
def test_wrong_host_is_refused(make_client: MakeClient, host: str) -> None:
    c = make_client(game=1)
    for path in ("/", "/api/game", "/cards/TS.svg"):
        refused(c.get(path, headers={"host": host}), 400, "bad-host")
    refused(c.post("/api/move", json={"move": "d"}, headers={"host": host}), 400, "bad-host")
    assert c.get("/api/game").json()["view"]["talon"] == []


def test_live_server_accepts_only_its_own_names(server_url: str) -> None:
    port = int(server_url.rsplit(":", 1)[1])
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
        assert httpx2.get(server_url + "/api/game", headers={"host": host}).status_code == 200
    for host in (f"attacker.example:{port}", "127.0.0.1", f"127.0.0.1:{port + 1}"):
        r = httpx2.get(server_url + "/api/game", headers={"host": host})
        refused(r, 400, "bad-host")


# ----------------------------------------------------------------- Origin
@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize(
    ("origin", "code"),
    [(None, "origin-missing"), ("http://evil.example", "origin-not-allowed"),
     ("null", "origin-not-allowed"), ("https://testserver", "origin-not-allowed"),
     ("http://testserver:81", "origin-not-allowed")],
)
def test_foreign_or_missing_origin_is_refused(
    make_client: MakeClient, path: str, origin: str | None, code: str
) -> None:
    c = make_client(game=1)
    c.post("/api/move", json={"move": "d"})
    before = _state(c)
    settings = c.get("/api/settings").json()
    headers = {"origin": origin} if origin is not None else {}
    if origin is None:
        del c.headers["origin"]
    body = {"move": "d"} if path == "/api/move" else ({"lang": "fr"} if "settings" in path
                                                      else {})
    r = c.post(path, json=body, headers=headers)
    refused(r, 403, code)
    assert _state(c) == before
    assert c.get("/api/settings").json() == settings


def test_same_origin_post_is_accepted(server_url: str) -> None:
    with httpx2.Client(base_url=server_url, headers={"origin": server_url}) as c:
        assert c.post("/api/move", json={"move": "d"}).status_code == 200
    with httpx2.Client(base_url=server_url) as c:
        r = c.post("/api/move", json={"move": "d"}, headers={"origin": "http://localhost:1"})
        refused(r, 403, "origin-not-allowed")


# --------------------------------------------------- cookie, CSP, headers
def test_session_cookie_flags(client: TestClient) -> None:
    r = client.get("/api/game")
    cookie = r.headers["set-cookie"]
    parts = [p.strip().lower() for p in cookie.split(";")]
    assert parts[0].startswith(f"{COOKIE_NAME}=")
    token = cookie.split(";")[0].split("=", 1)[1]
    assert len(token) >= 32 and re.fullmatch(r"[A-Za-z0-9_-]+", token)
    assert "httponly" in parts and "samesite=strict" in parts and "path=/" in parts
    # the cookie is set once, not on every response
    assert "set-cookie" not in client.get("/api/game").headers


@pytest.mark.parametrize("path", GETS)
def test_security_headers_on_every_response(client: TestClient, path: str) -> None:
    for r in (client.get(path), client.get(path, headers={"host": "evil.example"}),
              client.post(path, headers={"origin": "http://evil.example"})):
        assert r.headers["content-security-policy"] == CSP
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["referrer-policy"] == "no-referrer"
    if path.startswith("/api/"):
        assert client.get(path).headers["cache-control"] == "no-store"


def test_csp_forbids_inline_script() -> None:
    assert "'unsafe-inline'" not in CSP and "'unsafe-eval'" not in CSP
    directives = dict(d.strip().split(" ", 1) for d in CSP.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["base-uri"] == "'none'"


def test_page_has_no_inline_script(client: TestClient) -> None:
    html = client.get("/").text
    for match in re.finditer(r"<script\b([^>]*)>(.*?)</script>", html, re.S | re.I):
        assert "src=" in match.group(1) and not match.group(2).strip()
    assert not re.search(r"\son[a-z]+\s*=", html, re.I)


# ------------------------------------------------------------- body size
def test_body_too_large_is_refused(client: TestClient) -> None:
    before = _state(client)
    big = b'{"move": "' + b"d" * MAX_BODY + b'"}'
    r = client.post("/api/move", content=big, headers={"content-type": "application/json"})
    refused(r, 413, "body-too-large")

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"move": "'
        for _ in range(40):
            yield b"d" * 1024
        yield b'"}'

    r = client.post("/api/move", content=chunks(), headers={"content-type": "application/json"})
    refused(r, 413, "body-too-large")
    r = client.post("/api/move", content=b"{}", headers={"content-length": "abc"})
    assert r.status_code == 400
    assert _state(client) == before
    ok = client.post("/api/move", content=b'{"move": "d"}' + b" " * (MAX_BODY - 20))
    assert ok.status_code == 200


def test_bad_cookie_values_get_a_new_session(client: TestClient) -> None:
    client.get("/api/game")
    first = client.cookies.get(COOKIE_NAME)
    assert first
    for value in ("", "x", "../../etc", "a" * 500, "'; DROP TABLE games; --"):
        r = client.get("/api/game", headers={"cookie": f"{COOKIE_NAME}={value}"})
        assert r.status_code == 200
        assert "set-cookie" in r.headers
        assert r.cookies.get(COOKIE_NAME) not in (None, first, value)


# ------------------------------------------------------ hidden stock order
def _windows(cards: list[int], size: int = 3) -> Iterator[tuple[int, ...]]:
    for i in range(len(cards) - size + 1):
        yield tuple(cards[i:i + size])


_CODE_RE = re.compile("|".join(re.escape(code) for code in CARD_CODES))
_NAME_RE = re.compile("|".join(re.escape(card_name(c)) for c in range(len(CARD_CODES))), re.I)
_CARD_OF = {code: c for c, code in enumerate(CARD_CODES)} | {
    card_name(c).lower(): c for c in range(len(CARD_CODES))
}
_GAP_RE = re.compile(r"\W{0,6}")


def _card_runs(text: str) -> set[tuple[int, ...]]:
    """Every run of 3 cards (codes or English names) written next to each other.

    "Next to each other": at most 6 non-word characters apart, as in a JSON
    list (``"KS", "5C"``), a list of names or a run of codes (``KS5C6C``).
    """
    runs: set[tuple[int, ...]] = set()
    for regex in (_CODE_RE, _NAME_RE):
        tokens = [(m.start(), m.end(), _CARD_OF[m.group(0).lower() if regex is _NAME_RE
                                               else m.group(0)])
                  for m in regex.finditer(text)]
        for i in range(len(tokens) - 2):
            a, b, c = tokens[i:i + 3]
            if _GAP_RE.fullmatch(text, a[1], b[0]) and _GAP_RE.fullmatch(text, b[1], c[0]):
                runs.add((a[2], b[2], c[2]))
    return runs


def _leaks(game: Game) -> set[tuple[int, ...]]:
    """Runs of 3 unseen stock cards in their true order (from the top)."""
    if game.redeals_done:  # after a redeal every stock card has been seen
        return set()
    public = set(_windows(sorted(game.stock)))  # the sorted "unseen" list is public
    return set(_windows(game.stock[::-1])) - public


def _scan(response: httpx2.Response, game: Game) -> None:
    text = response.text + "\n" + "\n".join(f"{k}: {v}" for k, v in response.headers.items())
    found = _card_runs(text) & _leaks(game)
    assert not found, (str(response.url), [[CARD_CODES[c] for c in run] for run in found])


def _play_and_scan(base: str, number: int, seed: int) -> int:
    """Play a game through every endpoint, scanning each response; returns responses seen."""
    mirror = Game(number)
    rng = random.Random(seed)
    seen = 0
    with httpx2.Client(base_url=base, headers={"origin": base}, timeout=30) as c:

        def check(r: httpx2.Response) -> None:
            nonlocal seen
            seen += 1
            _scan(r, mirror)

        check(c.post("/api/new", json={"game": number}))
        for path in ("/", "/api/game", "/api/stats", "/api/settings", "/api/i18n",
                     "/api/rules", "/cards/back.svg"):
            check(c.get(path))
        check(c.post("/api/solution"))
        for path in ("/static/app.js", "/static/style.css", "/static/markdown.js"):
            check(c.get(path))
        for step in range(160):
            roll = rng.random()
            if roll < 0.1 and mirror.can_undo:
                r = c.post("/api/undo")
                mirror.undo()
            elif roll < 0.15 and mirror.can_redo:
                r = c.post("/api/redo")
                mirror.redo()
            elif roll < 0.18:
                r = c.post("/api/move", json={"move": "t-a1"})
            elif step % 40 == 0:
                r = c.post("/api/hint")
            else:
                moves = mirror.generate_moves() or [rng.choice(list(mirror.legal_moves))]
                talon_or_build = [m for m in moves if m.text() not in ("d", "r")]
                move = rng.choice(talon_or_build) if talon_or_build and rng.random() < 0.6 \
                    else rng.choice(moves)
                r = c.post("/api/move", json={"move": move.text()})
                assert r.status_code == 200, r.text
                mirror.play(move)
            check(r)
            if r.status_code == 200 and "view" in r.json():
                assert r.json()["view"] == view_dict(mirror.view())
        check(c.get("/api/game"))
        check(c.post("/api/solution"))  # refused while the game is on: scanned like the rest
        check(c.post("/api/review"))
        check(c.get("/api/review"))
        check(c.get("/api/history"))
        check(c.get("/api/export"))  # the records name the deal and the moves played only
        # the end: every response is still scanned, except the one post-game line
        r = c.post("/api/giveup")
        mirror.give_up()
        check(r)
        check(c.get("/api/game"))
        check(c.post("/api/hint"))
        line = c.post("/api/solution")
        seen += 1
        _exempt_solution(line, mirror)
        check(c.get("/api/history"))
        seen += 1
        _exempt_review(c, mirror)
        check(c.post("/api/restart"))
        mirror = Game(number)  # restarting a given-up game starts a new one on the same deal
        check(c.get("/api/game"))
        check(c.post("/api/solution"))
    return seen


def _exempt_solution(response: httpx2.Response, game: Game) -> None:
    """The one response that may show the stock: the solver's line, after the end.

    It is exempt from the scan only as ``POST /api/solution`` of a game that has
    ended; it replays the deal from its start, so it must show the stock order.
    """
    assert response.request.method == "POST" and response.url.path == "/api/solution"
    assert game.given_up or game.is_over()
    assert response.status_code == 200, response.text
    start = Game.from_position(game.start_position)
    assert _card_runs(response.text) & _leaks(start), "the line shows the deal"


def _exempt_review(c: httpx2.Client, game: Game) -> None:
    """The review of a game that has ended may show the stock too (its better moves are
    told in words); it is asked for only then, and it is about this game."""
    assert game.given_up or game.is_over()
    r = c.post("/api/review")
    while r.status_code == 200 and r.json()["status"] == "running":
        time.sleep(0.2)
        r = c.get("/api/review")
    assert r.status_code == 200, r.text
    assert r.json()["positions"][-1] == view_dict(game.view())


@pytest.mark.slow
def test_no_response_reveals_the_stock_order(server_url: str) -> None:
    seen = sum(_play_and_scan(server_url, number, seed) for number, seed in ((1, 1), (2, 2)))
    assert seen > 300


def test_the_scan_catches_a_leak() -> None:
    """The scanner itself: a response carrying the stock order must be caught."""
    game = Game(5)
    order = game.stock[::-1]
    leak = httpx2.Response(200, json={"stock": [CARD_CODES[c] for c in order[10:13]]},
                          request=httpx2.Request("GET", "http://x/"))
    with pytest.raises(AssertionError):
        _scan(leak, game)
    named = httpx2.Response(200, text=", ".join(card_name(c) for c in order[40:43]),
                           request=httpx2.Request("GET", "http://x/"))
    with pytest.raises(AssertionError):
        _scan(named, game)
    _scan(httpx2.Response(200, json=view_dict(game.view()),
                         request=httpx2.Request("GET", "http://x/")), game)


# ------------------------------------------------- restart after kill -9
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _spawn(db: Path, port: int, *, apart: bool = True) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "devilsgrip", "play", "--no-browser", "--port", str(port),
         "--db", str(db), "--lang", "en", *(["--browsers-apart"] if apart else [])],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx2.get(f"http://127.0.0.1:{port}/api/i18n", timeout=1)
            return proc
        except httpx2.TransportError:
            if proc.poll() is not None:
                raise AssertionError(
                    proc.stderr.read().decode() if proc.stderr else "died") from None
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


@pytest.mark.slow
@pytest.mark.parametrize("apart", [True, False], ids=["browser-apart", "this-computer"])
def test_kill_9_then_restart_resumes_the_game(tmp_path: Path, apart: bool) -> None:
    """A browser kept apart comes back by its cookie; this computer's player (no cookie)
    comes back as the player."""
    db = tmp_path / "kill.sqlite3"
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _spawn(db, port, apart=apart)
    try:
        with httpx2.Client(base_url=base, headers={"origin": base}) as c:
            c.post("/api/new", json={"game": 31})
            for text in ("d", "d", "a1=b1"):
                assert c.post("/api/move", json={"move": text}).status_code == 200
            before = _state(c)
            cookie = c.cookies.get(COOKIE_NAME)
            assert (cookie is not None) == apart
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        proc = _spawn(db, port, apart=apart)
        with httpx2.Client(base_url=base, headers={"origin": base}) as c:
            if cookie is not None:
                c.cookies.set(COOKIE_NAME, cookie)
            after = c.get("/api/game").json()
            assert after["view"] == before["view"]
            assert after["game"]["id"] == before["game"]["id"]
            assert "set-cookie" not in c.get("/api/game").headers
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert proc.returncode in (0, -signal.SIGINT, 130)
