"""Nothing a client sends makes the server fail: no 5xx, the headers on every answer,
and a connection that stays usable after any refusal."""

from __future__ import annotations

import http.client
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from devilsgrip.web.server import SECURITY_HEADERS, ServerOptions, ServerThread

POSTS = ("/api/new", "/api/restart", "/api/move", "/api/drop", "/api/stock", "/api/clock",
         "/api/undo", "/api/redo", "/api/giveup", "/api/settings", "/api/hint")
GETS = ("/", "/api/game", "/api/stats", "/api/settings", "/api/i18n", "/api/rules",
        "/cards/TS.svg", "/static/app.js")
FIELDS = ("move", "from", "to", "swap", "game", "deck", "rules", "lang", "animation",
          "four_colour", "running")
NASTY_VALUES: list[Any] = [
    "\ud800", "a\udfffb", "classic,draw=²", "classic,draw=" + "9" * 5000, "²", "١٢",
    "x" * 20_000, 10**400, -(10**30), 1e308, True, None, [], {}, [[[]]], {"a": {"b": 1}},
    "t-\ud800", "a1-\x00", "\x00", "%00", "../../etc/passwd", "a1", "talon", "stock",
]
NASTY_BODIES: list[bytes] = [
    b"[" * 5000 + b"]" * 5000,
    b'{"move": ' + b"[" * 3000 + b"]" * 3000 + b"}",
    b'{"a":' * 2000 + b"1" + b"}" * 2000,
    b"\xff\xfe\x00",
    b'{"move": "\xed\xa0\x80"}',  # an encoded surrogate: not UTF-8
    b'{"move": "\\ud800"}',
    b'{"\\ud800": 1}',
    b"{not json",
    b"[]",
    b'"text"',
    b"12",
    b"null",
    b'{"move": NaN}',
    b'{"game": 1e999}',
    b"{}" + b" " * 100,
]
ODD_PATHS = ("/foo%00bar", "/" + "a" * 300, "/static/" + "b" * 300 + ".js",
             "/static/%2e%2e/server.py", "/static/..%2fserver.py", "/cards/%00.svg",
             "/cards/" + "Z" * 500 + ".svg", "/static/\u00e9t\u00e9.js", "/%ff%fe",
             "/api/i18n?lang=%ud800", "/api/i18n?lang=" + "x" * 5000, "/api/nothing",
             "/static/", "/static//app.js", "/%5c..%5cserver.py")
HEADER_NAMES = {name.decode() for name, _value in SECURITY_HEADERS}


@pytest.fixture
def fuzz_client(make_client: Callable[..., TestClient]) -> Iterator[TestClient]:
    client = make_client(game=3)
    client.get("/api/game")
    yield client


def _check(response: Any, seen: list[int]) -> None:
    seen.append(response.status_code)
    assert response.status_code < 500, (response.status_code, response.text[:300])
    missing = HEADER_NAMES - {k.lower() for k in response.headers}
    assert not missing, missing
    if response.headers.get("content-type", "").startswith("application/json"):
        json.loads(response.content)


@pytest.mark.slow
def test_nasty_fields_on_every_endpoint(fuzz_client: TestClient) -> None:
    seen: list[int] = []
    for path in POSTS:
        for field in FIELDS:
            for value in NASTY_VALUES:
                body = json.dumps({field: value}).encode()
                r = fuzz_client.post(path, content=body,
                                     headers={"content-type": "application/json"})
                _check(r, seen)
    assert len(seen) == len(POSTS) * len(FIELDS) * len(NASTY_VALUES)
    assert fuzz_client.get("/api/game").status_code == 200


def test_nasty_bodies_on_every_endpoint(fuzz_client: TestClient) -> None:
    seen: list[int] = []
    for path in POSTS:
        for body in NASTY_BODIES:
            r = fuzz_client.post(path, content=body, headers={"content-type": "application/json"})
            _check(r, seen)
            assert r.status_code in (200, 400, 409, 413), (path, body[:40], r.text[:200])
    assert set(seen) <= {200, 400, 409, 413}


def test_odd_paths_are_refused_cleanly(fuzz_client: TestClient) -> None:
    seen: list[int] = []
    for path in ODD_PATHS:
        r = fuzz_client.get(path)
        _check(r, seen)
    for path in GETS:
        _check(fuzz_client.get(path), seen)
    assert all(status < 500 for status in seen)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(st.characters(), max_size=40),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(POSTS), st.dictionaries(st.sampled_from(FIELDS), json_values,
                                                max_size=3))
def test_arbitrary_json_never_fails(fuzz_client: TestClient, path: str,
                                    body: dict[str, Any]) -> None:
    text = json.dumps(body)
    r = fuzz_client.post(path, content=text.encode("utf-8", "surrogatepass"),
                         headers={"content-type": "application/json"})
    _check(r, [])


def test_a_connection_stays_usable_after_any_refusal() -> None:
    server = ServerThread(ServerOptions(use_store=False, game=3)).start()
    try:
        con = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        host = {"Host": f"127.0.0.1:{server.port}", "Origin": server.url}
        con.request("GET", "/api/game", headers=host)
        first = con.getresponse()
        cookie = (first.getheader("set-cookie") or "").split(";")[0]
        first.read()
        asked = 0
        for body in NASTY_BODIES:
            for path in ("/api/move", "/api/settings"):
                con.request("POST", path, body=body, headers={
                    **host, "Cookie": cookie, "Content-Type": "application/json"})
                bad = con.getresponse()
                bad.read()
                assert bad.status < 500 and bad.getheader("x-content-type-options")
                con.request("GET", "/api/game", headers={**host, "Cookie": cookie})
                good = con.getresponse()
                assert good.status == 200 and json.loads(good.read())["view"]["moves"] == 0
                asked += 2
        for path in ODD_PATHS[:3]:
            con.request("GET", path, headers=host)
            odd = con.getresponse()
            odd.read()
            assert odd.status < 500
        assert asked == 2 * 2 * len(NASTY_BODIES)
        con.close()
    finally:
        server.stop()


@pytest.mark.slow
def test_no_database_keeps_memory_bounded(make_client: Callable[..., TestClient]) -> None:
    from devilsgrip.web.server import MAX_UNSAVED_SESSIONS

    client = make_client(use_store=False)
    app_state = client.app.state.web  # type: ignore[attr-defined]
    for _ in range(MAX_UNSAVED_SESSIONS + 50):
        client.cookies.clear()
        assert client.get("/api/game").status_code == 200
    assert len(app_state.browsers) <= MAX_UNSAVED_SESSIONS


def test_the_session_token_never_appears_in_a_body(client: TestClient) -> None:
    from devilsgrip.web.server import COOKIE_NAME

    client.post("/api/move", json={"move": "d"})
    client.post("/api/giveup")
    token = client.cookies.get(COOKIE_NAME)
    assert token
    for path in GETS:
        assert token not in client.get(path).text, path
    for path in ("/api/restart", "/api/new"):
        assert token not in client.post(path).text
