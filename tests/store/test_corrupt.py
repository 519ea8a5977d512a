"""Unusable databases are refused with their path and stay byte for byte as they were."""

from __future__ import annotations

import hashlib
import os
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from devilsgrip.cli import main
from devilsgrip.records import write_record
from devilsgrip.session import PlaySession, open_store
from devilsgrip.store import APPLICATION_ID, SCHEMA_VERSION, Store, StoreError, store_error_text


def _real_database(path: Path) -> None:
    with Store.open(path) as store:
        for n in range(1, 30):
            session = PlaySession.start(store, number=n)
            for _ in range(20):
                session.play(session.game.generate_moves()[-1])
            session.give_up()


def truncated(path: Path) -> None:
    _real_database(path)
    data = path.read_bytes()
    assert len(data) > 8192
    path.write_bytes(data[: len(data) // 2])


def random_bytes(path: Path) -> None:
    path.write_bytes(random.Random(4).randbytes(20000))


def header_then_garbage(path: Path) -> None:
    _real_database(path)
    data = bytearray(path.read_bytes())
    rng = random.Random(5)
    for i in range(4096, len(data)):
        data[i] = rng.randrange(256)
    path.write_bytes(bytes(data))


def newer_schema(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    con.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    con.commit()
    con.close()


def foreign_database(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    con.execute("INSERT INTO photos (name) VALUES ('cat')")
    con.commit()
    con.close()


def text_file(path: Path) -> None:
    path.write_text("these are my notes, not a database\n")


CASES: dict[str, tuple[Callable[[Path], None], str]] = {
    "truncated": (truncated, "store-corrupt"),
    "random bytes": (random_bytes, "store-corrupt"),
    "garbage pages": (header_then_garbage, "store-corrupt"),
    "newer schema": (newer_schema, "store-newer"),
    "another program's database": (foreign_database, "store-corrupt"),
    "text file": (text_file, "store-corrupt"),
}


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("case", list(CASES))
def test_unusable_file_is_refused_and_untouched(
    tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    make, code = CASES[case]
    path = tmp_path / "games.db"
    make(path)
    before = _digest(path)
    names = sorted(p.name for p in tmp_path.iterdir())

    with pytest.raises(StoreError) as info:
        Store.open(path)
    assert info.value.code == code
    assert info.value.params["path"] == str(path)
    text = store_error_text(info.value)
    assert str(path) in text and "\n" not in text

    # the games still run, without saving, and say why
    store, error = open_store(path)
    assert store is None and error is not None and error.code == code
    session = PlaySession.start(None, number=1, store_error=error)
    assert not session.saving and session.game_id is None
    assert session.warning_code == code
    assert session.warning is not None and str(path) in session.warning
    session.play_text("d")
    assert session.game.moves_played == 1

    # the commands that need it exit with status 2 and one clear line
    for argv in (["stats", "--db", str(path)], ["export", "--all", "--db", str(path)],
                 ["stats", "--json", "--db", str(path)]):
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err.strip().count("\n") == 0 and str(path) in err, err
    records = tmp_path / "in.txt"
    records.write_text(write_record(session.game))
    assert main(["import", str(records), "--db", str(path)]) == 2
    _out, err = capsys.readouterr()
    assert str(path) in err and err.strip().count("\n") == 0

    assert _digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*names, "in.txt"])


def test_directory_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.db"
    path.mkdir()
    with pytest.raises(StoreError) as info:
        Store.open(path)
    assert info.value.code == "store-unreadable"
    assert main(["stats", "--db", str(path)]) == 2
    assert "directory" in capsys.readouterr().err
    assert list(path.iterdir()) == []


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="permissions do not bind root")
def test_no_permission_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    _real_database(path)
    before = _digest(path)
    path.chmod(0o000)
    try:
        with pytest.raises(StoreError) as info:
            Store.open(path)
        assert info.value.code == "store-unreadable"
    finally:
        path.chmod(0o644)
    assert _digest(path) == before


def test_write_failure_mid_game_keeps_playing(db: Path) -> None:
    store = Store.open(db)
    session = PlaySession.start(store, number=2)
    session.play_text("d")
    store.close()  # the connection is gone: the next write fails
    move = session.play_text("d")
    assert move.text() == "d"
    assert session.game.moves_played == 2
    assert not session.saving
    assert session.warning_code == "store-write-failed"
    assert session.warning is not None and str(db) in session.warning
    with Store.open(db) as again:
        assert [k for k, _m in again.events(again.games()[0].id)] == ["move"]


def test_no_permission_path_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As root permissions never bind, so the check itself is exercised this way."""
    path = tmp_path / "games.db"
    _real_database(path)
    before = _digest(path)
    monkeypatch.setattr("devilsgrip.store.os.access", lambda *_a, **_k: False)
    with pytest.raises(StoreError) as info:
        Store.open(path)
    assert info.value.code == "store-unreadable"
    assert "permission" in store_error_text(info.value)
    assert _digest(path) == before
