"""The API as the site's Web Worker calls it (here in CPython, as under Pyodide):
the same answers as the HTTP adapter, the session kept in the data folder, the
solver's work done at once without threads."""

from __future__ import annotations

import doctest
import json
import re
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
    # the log's index is in the worker's memory: no file of it to write back each move
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "devilsgrip.sqlite3", "devilsgrip.sqlite3-wal", TOKEN_NAME]
    door.close()
    again = WorkerDoor(tmp_path)  # the page reloaded: the log is read back
    assert json.loads(again.answer("GET", "/api/game", None, "en")[1])["view"]["moves"] == 0
    again.close()


def test_export_and_import_answer_as_the_server_does(tmp_path: Path) -> None:
    """The same calls, the worker's door and the HTTP server: the same statuses and
    answers (the bodies' limits included), each in its own store."""
    from starlette.testclient import TestClient

    from devilsgrip.web.bodies import MAX_IMPORT_BODY
    from devilsgrip.web.server import create_app

    door = WorkerDoor(tmp_path / "w", game=5)
    app = create_app(ServerOptions(db=tmp_path / "s.sqlite3", game=5, extra_hosts=("testserver",)))
    with TestClient(app, headers={"origin": "http://testserver"}) as client:
        def both(method: str, path: str, body: object, lang: str,
                 own: object = None) -> tuple[object, object]:
            """The call to both; ``own``: the worker's body when it differs."""
            text = None if body is None else json.dumps(body)
            status, mine = door.answer(method, path, json.dumps(own) if own else text, lang)
            r = client.request(method, path, content=text, headers={"accept-language": lang})
            answers = [json.loads(mine), r.json()]
            for doc in answers:  # the times and the player's id are each store's own
                if "text" in doc and "count" in doc:
                    doc["text"] = re.sub(r'\[(Started|Ended|Owner|PlayTime) "[^"]*"\]\n', "",
                                         doc["text"])
                if "time_played" in doc:
                    doc["time_played"] = doc["time_played"] > 0
            assert (status, answers[0]) == (r.status_code, answers[1]), (method, path)
            return json.loads(mine), r.json()

        for path in ("/api/stock", "/api/giveup"):
            door.answer("POST", path, "{}", "en")
            client.post(path, json={})
        mine, theirs = both("GET", "/api/export?date=2026-12-06", None, "en")
        assert isinstance(mine, dict) and isinstance(theirs, dict) and theirs["count"] == 1
        both("POST", "/api/import", {"records": theirs["text"]}, "fr",  # kept already
             own={"records": mine["text"]})
        records = theirs["text"].replace('Game "5"', 'Game "6"')  # a game new to both
        bad = '[Event "x"]\n[Game "5"]\n\n1. d 2. a1-b1\n'
        for body, lang in [({"records": records}, "da"),
                           ({"records": records}, "da"),
                           ({"records": records.replace('"6"', '"7"') + "\n" + bad}, "hu"),
                           ({"records": bad}, "es"),
                           ({"records": "\x00"}, "en"),
                           ({"records": records.replace('"6"', '"8"') + "\n" * 20_000},
                            "en"),  # above 16 KB
                           ({"records": "x" * MAX_IMPORT_BODY}, "fr"),  # above its limit
                           ({}, "en"), ({"records": 1}, "en")]:
            both("POST", "/api/import", body, lang)
        mine, theirs = both("GET", "/api/stats", None, "fr")
        assert isinstance(theirs, dict) and theirs["played"] == 4
        both("POST", "/api/move", {"move": "d" + " " * 20_000}, "en")  # the others keep 16 KB
    door.close()
