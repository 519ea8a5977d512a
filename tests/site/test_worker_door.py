"""The API as the site's Web Worker calls it (here in CPython, as under Pyodide):
the same answers as the HTTP adapter, the session kept in the data folder, the
solver's work done at once without threads."""

from __future__ import annotations

import doctest
import json
import threading
from pathlib import Path

import pytest

from devilsgrip.site import icons, worker
from devilsgrip.site.worker import LOG_PAGES, TOKEN_NAME, WorkerDoor, run_now
from devilsgrip.web.api import handle
from devilsgrip.web.browsers import WebState
from devilsgrip.web.calls import Call
from devilsgrip.web.options import ServerOptions


@pytest.mark.parametrize("module", [worker, icons])
def test_examples(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


def test_answers_are_the_apis_own(tmp_path: Path) -> None:
    door = WorkerDoor(tmp_path / "w", game=11)
    web = WebState(ServerOptions(db=tmp_path / "s.sqlite3", game=11))
    token = None
    for method, path, body in [("GET", "/api/game", None), ("POST", "/api/stock", {}),
                               ("POST", "/api/drop", {"from": "a1", "to": "c3"}),
                               ("POST", "/api/undo", {}), ("GET", "/api/picked?place=b2", None),
                               ("GET", "/api/refusal?from=stock&to=stock", None),
                               ("GET", "/api/nowhere", None)]:
        status, text = door.answer(method, path, None if body is None else json.dumps(body),
                                   "da")
        query = dict(p.split("=") for p in path.partition("?")[2].split("&") if p)
        reply = handle(web, token, Call(method, path.partition("?")[0], body or {}, query, "da"))
        token = reply.token or token
        mine = json.loads(text)
        for doc in (mine, reply.body):
            if "game" in doc:
                doc["game"].pop("elapsed")
                doc["game"].pop("started")
                doc["game"].pop("id")
        assert (status, mine) == (reply.status, reply.body), path


def test_bad_request_bodies_are_refused_in_words(tmp_path: Path) -> None:
    door = WorkerDoor(tmp_path, game=3)
    status, text = door.answer("POST", "/api/drop", "{not json", "fr")
    assert status == 400
    assert json.loads(text)["error"] == "bad-json"
    assert json.loads(text)["message"] != "the request is not valid JSON"  # in French
    status, text = door.answer("POST", "/api/new", '{"game": "twelve"}', "en")
    assert (status, json.loads(text)["error"]) == (400, "game-number-bad")


def test_the_session_and_its_game_come_back_after_a_reload(tmp_path: Path) -> None:
    door = WorkerDoor(tmp_path, game=9)
    door.answer("POST", "/api/stock", "{}", "en")
    door.answer("POST", "/api/settings", '{"lang": "hu"}', "en")
    before = json.loads(door.answer("GET", "/api/game", None, "en")[1])
    token = (tmp_path / TOKEN_NAME).read_text()
    door.close()
    again = WorkerDoor(tmp_path)  # a new worker: the page was reloaded
    assert again.token == token
    after = json.loads(again.answer("GET", "/api/game", None, "en")[1])
    assert after["view"] == before["view"] and after["lang"] == "hu"
    assert after["game"]["id"] == before["game"]["id"]


def test_a_damaged_session_file_starts_a_new_session(tmp_path: Path) -> None:
    (tmp_path / TOKEN_NAME).write_text("../../etc/passwd")
    door = WorkerDoor(tmp_path, game=4)
    assert door.token is None
    assert door.answer("GET", "/api/game", None, "en")[0] == 200
    assert door.token is not None and (tmp_path / TOKEN_NAME).read_text() == door.token


def test_without_keeping_nothing_is_written(tmp_path: Path) -> None:
    door = WorkerDoor(tmp_path / "kept", persist=False, game=2)
    status, text = door.answer("POST", "/api/stock", "{}", "en")
    assert status == 200 and json.loads(text)["game"]["saving"] is False
    assert not (tmp_path / "kept").exists()


def test_hints_best_lines_and_reviews_run_without_threads(tmp_path: Path) -> None:
    started = threading.active_count()
    door = WorkerDoor(tmp_path, game=1)
    door.web.options.hint_time = 0.3
    door.web.options.solve_time = 0.5
    door.web.options.review_time = 1.0
    status, text = door.answer("POST", "/api/hint", "{}", "en")
    assert status == 200 and json.loads(text)["text"]
    status, text = door.answer("POST", "/api/solution", "{}", "en")
    assert status == 409 and json.loads(text)["error"] == "game-live"  # not before the end
    assert door.answer("POST", "/api/giveup", "{}", "en")[0] == 200
    status, text = door.answer("POST", "/api/solution", "{}", "en")
    assert status == 200 and json.loads(text)["moves"]
    status, text = door.answer("POST", "/api/review", "{}", "en")
    review = json.loads(text)
    assert status == 200 and review["status"] == "done", review.get("status")
    assert threading.active_count() == started


def test_run_now_carries_the_works_error() -> None:
    def broken() -> int:
        raise ValueError("no")

    assert run_now(lambda: 4).result(timeout=0) == 4
    with pytest.raises(ValueError, match="no"):
        run_now(broken).result(timeout=0)


def test_warm_up_keeps_nothing_and_leaves_no_thread(tmp_path: Path) -> None:
    from devilsgrip.site.worker import warm_up

    started = threading.active_count()
    warm_up()
    assert threading.active_count() == started


def test_the_log_written_after_each_move_stays_small(tmp_path: Path) -> None:
    door = WorkerDoor(tmp_path, game=6)
    wal = tmp_path / "devilsgrip.sqlite3-wal"
    largest = 0
    for _ in range(150):
        for path in ("/api/stock", "/api/undo"):
            assert door.answer("POST", path, "{}", "en")[0] == 200
            largest = max(largest, wal.stat().st_size if wal.exists() else 0)
    assert 0 < largest <= (LOG_PAGES + 8) * 4096
