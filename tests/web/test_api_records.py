"""Export and import of a player's games through the API (``GET /api/export``,
``POST /api/import``): the file is the desktop program's, both ways."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from devilsgrip.cli import main
from devilsgrip.store import Store
from devilsgrip.web.bodies import MAX_BODY, MAX_IMPORT_BODY
from devilsgrip.web.server import COOKIE_NAME

MakeClient = Callable[..., TestClient]
BAD_RECORD = '[Event "Devil\'s Grip"]\n[Game "5"]\n[Rules "classic"]\n\n1. d 2. a1-b1\n'


def play_two_games(client: TestClient) -> None:
    """A game given up, then a new one with a move (unfinished): both are exported."""
    for path in ("/api/stock", "/api/giveup"):
        assert client.post(path, json={}).status_code == 200
    assert client.post("/api/new", json={"game": 7}).status_code == 200
    assert client.post("/api/stock", json={}).status_code == 200


def history_ids(client: TestClient) -> list[int]:
    r = client.get("/api/history")
    assert r.status_code == 200, r.text
    return [g["id"] for g in r.json()["games"]]


def import_text(client: TestClient, text: str, lang: str = "en") -> Any:
    return client.post("/api/import", json={"records": text},
                       headers={"accept-language": lang})


def test_the_export_is_what_the_desktop_program_imports(make_client: MakeClient,
                                                       tmp_path: Path) -> None:
    client = make_client(game=5)
    play_two_games(client)
    r = client.get("/api/export?date=2026-12-06")
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["count"] == 2 and doc["name"] == "devilsgrip-games-2026-12-06.txt"
    assert doc["said"] == "2 games exported to devilsgrip-games-2026-12-06.txt"
    assert client.cookies[COOKIE_NAME] not in doc["text"]  # the session is never written out
    records = tmp_path / doc["name"]
    records.write_text(doc["text"], encoding="utf-8")
    desktop = tmp_path / "desktop.sqlite3"
    assert main(["import", str(records), "--db", str(desktop)]) == 0
    with Store.open(desktop) as store:
        games = sorted(store.games(owner="local"), key=lambda g: g.id)
        assert [(g.number, g.status, g.moves) for g in games] == [
            (5, "given up", 1), (7, "in progress", 1)]


def test_what_the_desktop_program_exports_is_imported_once(make_client: MakeClient,
                                                          tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    desktop = make_client(game=9, db=tmp_path / "desktop.sqlite3")
    play_two_games(desktop)
    out = tmp_path / "games.txt"
    assert main(["export", "--all", "--out", str(out), "--db", str(tmp_path / "desktop.sqlite3")
                 ]) == 0
    capsys.readouterr()
    client = make_client(game=1)
    before = history_ids(client)
    r = import_text(client, out.read_text(encoding="utf-8"))
    assert r.status_code == 200, r.text
    assert r.json() == {"imported": 2, "duplicates": 0, "refused": [],
                        "said": "2 games imported."}
    assert len(history_ids(client)) == len(before) + 1  # the finished one is in the history
    stats = client.get("/api/stats").json()
    assert stats["played"] >= 1 and stats["given_up"] >= 1
    again = import_text(client, out.read_text(encoding="utf-8"), "fr")
    assert again.json() == {"imported": 0, "duplicates": 2, "refused": [],
                            "said": "Aucune partie importée. 2 parties étaient déjà "
                                    "enregistrées."}


def test_a_refused_record_is_told_and_the_good_ones_are_kept(make_client: MakeClient) -> None:
    exporter = make_client(game=5)
    play_two_games(exporter)
    text = exporter.get("/api/export").json()["text"]
    client = make_client(game=1)
    r = import_text(client, text + "\n" + BAD_RECORD, "fr")
    assert r.status_code == 200, r.text
    doc = r.json()
    assert (doc["imported"], doc["duplicates"]) == (2, 0)
    assert doc["said"] == "2 parties importées. 1 enregistrement a été refusé :"
    [refused] = doc["refused"]
    assert refused["record"] == 3
    assert refused["text"].startswith("Enregistrement 3 : ")
    assert "a1" in refused["reason"] and "move" not in refused["reason"]  # in French


@pytest.mark.parametrize("text", ["", "hello\n", "\x00\x01garbage", BAD_RECORD,
                                  BAD_RECORD + "\n" + BAD_RECORD])
def test_a_damaged_file_is_reported_and_nothing_is_written(make_client: MakeClient,
                                                           tmp_path: Path, text: str) -> None:
    db = tmp_path / "games.sqlite3"
    client = make_client(game=5, db=db)
    assert client.post("/api/stock", json={}).status_code == 200
    with Store.open(db) as store:
        before = [(g.id, g.moves) for g in store.games()]
    r = import_text(client, text, "es")
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "records-damaged"
    assert r.json()["message"].endswith("no se importó nada.")
    with Store.open(db) as store:
        assert [(g.id, g.moves) for g in store.games()] == before


def test_an_import_may_be_larger_than_the_other_bodies_within_its_own_limit(
        make_client: MakeClient) -> None:
    exporter = make_client(game=5)
    play_two_games(exporter)
    record = exporter.get("/api/export").json()["text"]
    client = make_client(game=1)
    padded = record + "\n" * (MAX_BODY + 10)  # blank lines: the same records, a larger file
    r = import_text(client, padded)
    assert r.status_code == 200, r.text
    assert r.json()["imported"] == 2
    assert client.post("/api/move", json={"move": "d" + " " * MAX_BODY}).status_code == 413
    huge = import_text(client, "x" * (MAX_IMPORT_BODY + 1))
    assert huge.status_code == 413
    assert str(MAX_IMPORT_BODY) in huge.json()["message"]


@pytest.mark.parametrize("body", [{}, {"records": 5}, {"records": "x", "owner": "local"}])
def test_a_bad_import_request_is_refused(client: TestClient, body: dict[str, Any]) -> None:
    r = client.post("/api/import", json=body)
    assert r.status_code == 400
    assert r.json()["error"] in ("missing-field", "bad-field", "unknown-field")


def test_without_a_store_there_is_nothing_to_export_or_import(make_client: MakeClient) -> None:
    client = make_client(game=5, use_store=False)
    r = client.get("/api/export")
    assert r.status_code == 409 and r.json()["error"] == "not-saving"
    r = import_text(client, BAD_RECORD)
    assert r.status_code == 409 and r.json()["error"] == "not-saving"


def test_nothing_to_export_yet(make_client: MakeClient) -> None:
    client = make_client(game=5)
    doc = client.get("/api/export", headers={"accept-language": "da"}).json()
    assert (doc["count"], doc["text"]) == (0, "")
    assert doc["said"] == "Der er endnu ingen spil at eksportere."


def test_the_clock_goes_with_the_games_and_an_unknown_one_is_no_time(
        make_client: MakeClient) -> None:
    """A game's play time leaves in the export and comes back with the import; a record
    that never had one shows no time in the history (not 0:00); a bad one is refused."""
    exporter = make_client(game=5)
    play_two_games(exporter)
    text = exporter.get("/api/export").json()["text"]
    assert text.count("[PlayTime ") == 2  # both games had their clock running
    timed = text.replace('[PlayTime "', '[PlayTime "1', 1)  # 10 s more, say: kept as given
    client = make_client(game=1)
    assert import_text(client, timed).json()["imported"] == 2
    [entry] = [g for g in client.get("/api/history").json()["games"] if g["number"] == 5]
    assert isinstance(entry["seconds"], float) and entry["seconds"] >= 10
    untimed = "\n".join(line for line in text.splitlines() if "PlayTime" not in line)
    other = make_client(game=1)
    assert import_text(other, untimed).json()["imported"] == 2
    [entry] = [g for g in other.get("/api/history").json()["games"] if g["number"] == 5]
    assert entry["seconds"] is None
    third = make_client(game=1)
    doc = import_text(third, text.replace('[PlayTime "', '[PlayTime "-', 1), "fr").json()
    assert doc["imported"] == 1 and len(doc["refused"]) == 1
    assert doc["refused"][0]["reason"] == "Temps de jeu incorrect dans le fichier de partie."
