"""What the store and the commands refuse: devices, missing folders, damaged schemas,
bad options; and the owner of a browser's games, which is never its cookie."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
from pathlib import Path

import pytest
from store_helpers import given_up_game

from devilsgrip.cli import main
from devilsgrip.game import Game
from devilsgrip.records import write_record
from devilsgrip.session import PlaySession
from devilsgrip.store import SCHEMA_VERSION, Store, StoreError, migrate, store_error_text


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _one_line(err: str) -> str:
    assert err.endswith("\n") and err.count("\n") == 1, err
    return err


# ------------------------------------------------------------------ devices
@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero", "/dev/full"])
def test_a_device_is_refused_and_nothing_written(
    device: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if not Path(device).exists():
        pytest.skip(f"no {device} here")
    journal = Path(f"{device}-journal")
    assert not journal.exists()
    with pytest.raises(StoreError) as info:
        Store.open(device)
    assert info.value.code == "store-unreadable"
    assert "not a regular file" in store_error_text(info.value)
    for argv in (["stats", "--db", device], ["export", "--all", "--db", device]):
        assert main(argv) == 2
        err = _one_line(capsys.readouterr().err)
        assert device in err and "not a regular file" in err
    for suffix in ("-journal", "-wal", "-shm"):
        assert not Path(f"{device}{suffix}").exists()


def test_a_fifo_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)
    with pytest.raises(StoreError) as info:
        Store.open(fifo)
    assert info.value.code == "store-unreadable"
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.db"]


# ---------------------------------------------------------- missing folders
def test_a_missing_folder_is_refused_not_created(tmp_path: Path) -> None:
    path = tmp_path / "mistyped" / "dir" / "x.db"
    with pytest.raises(StoreError) as info:
        Store.open(path)
    assert info.value.code == "store-unreadable"
    text = store_error_text(info.value)
    assert str(path.parent) in text and "no such folder" in text
    assert list(tmp_path.iterdir()) == []


def test_the_default_database_folder_is_made(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import platformdirs

    monkeypatch.setattr(platformdirs, "user_data_path",
                        lambda *_a, **_k: tmp_path / "data" / "devilsgrip")
    with Store.open() as store:
        assert store.path == tmp_path / "data" / "devilsgrip" / "devilsgrip.sqlite3"
    assert store.path.exists()


# ---------------------------------------------------------- read-only commands
@pytest.mark.parametrize("argv", [["stats"], ["stats", "--json"], ["export", "--all"],
                                  ["export", "--game-id", "1"], ["review", "--last"]])
def test_a_command_that_reads_creates_nothing(
    tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    for path in (tmp_path / "mistyped" / "dir" / "x.db", tmp_path / "absent.db"):
        assert main([*argv, "--db", str(path)]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        err = _one_line(captured.err)
        assert str(path) in err
    assert list(tmp_path.iterdir()) == []


def test_no_database_is_said_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "absent.db"
    assert main(["stats", "--db", str(path)]) == 2
    assert f"there is no database {path}" in capsys.readouterr().err
    with pytest.raises(StoreError) as info:
        Store.open(path, create=False)
    assert info.value.code == "store-missing"
    assert main(["stats", "--db", str(path), "--lang", "fr"]) == 2
    french = capsys.readouterr().err
    assert str(path) in french and "there is no database" not in french
    assert not path.exists()


def test_an_empty_file_is_no_database_to_read(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty.db"
    path.write_bytes(b"")
    assert main(["stats", "--db", str(path)]) == 2
    assert "there is no database" in capsys.readouterr().err
    assert path.read_bytes() == b""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.db"]


# ------------------------------------------------------- incomplete schema
def _damaged(path: Path, sql: str) -> None:
    with Store.open(path) as store:
        store.save_game(given_up_game(4, 6))
        PlaySession.start(store, number=9).play_text("d")
    con = sqlite3.connect(path)
    con.execute(sql)
    con.commit()
    con.close()
    for suffix in ("-wal", "-shm"):
        assert not Path(f"{path}{suffix}").exists()


DAMAGES = {
    "events dropped": "DROP TABLE events",
    "reviews dropped": "DROP TABLE reviews",
    "a column missing": "ALTER TABLE games DROP COLUMN play_seconds",
}


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_an_incomplete_schema_is_damaged_everywhere_and_untouched(
    tmp_path: Path, damage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.db"
    _damaged(path, DAMAGES[damage])
    before = _digest(path)
    names = sorted(p.name for p in tmp_path.iterdir())

    with pytest.raises(StoreError) as info:
        Store.open(path)
    assert info.value.code == "store-corrupt"
    assert "damaged" in store_error_text(info.value)

    records = tmp_path / "in.txt"
    records.write_text(write_record(given_up_game(7, 3)))
    for argv in (["stats"], ["stats", "--json"], ["export", "--all"],
                 ["export", "--game-id", "1"], ["import", str(records)], ["review", "--last"]):
        assert main([*argv, "--db", str(path)]) == 2, argv
        captured = capsys.readouterr()
        assert captured.out == ""
        err = _one_line(captured.err)
        assert "damaged" in err and str(path) in err

    from devilsgrip.web.browsers import WebState
    from devilsgrip.web.options import ServerOptions

    for _restart in range(3):
        web = WebState(ServerOptions(db=path))
        web.open_store()
        assert web.store is None
        problem = web.store_problem("en")
        assert problem is not None and "damaged" in problem
        browser, _new = web.browser_for(None)
        assert not browser.table.session.saving
        web.close_store()

    assert _digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*names, "in.txt"])


def test_an_older_complete_schema_is_still_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    con = sqlite3.connect(path, isolation_level=None)
    migrate(con, 3)
    con.close()
    with Store.open(path) as store:
        assert store.schema_version == SCHEMA_VERSION


# -------------------------------------------------------------- owners
def test_a_browser_owner_is_not_its_cookie(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = store.create_web_session()
        assert session.token not in session.owner
        assert store.web_session_owner(session.token) == session.owner
        assert store.web_session_owner("x" * 43) is None
        played = PlaySession.start(store, number=8, owner=session.owner)
        played.play_text("d")
        played.give_up()
        assert session.token not in store.record(played.game_id or 0)
    raw = path.read_bytes() + (Path(f"{path}-wal").read_bytes()
                               if Path(f"{path}-wal").exists() else b"")
    assert session.token.encode() not in raw
    assert main(["export", "--all", "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert session.token not in out and f'[Owner "{session.owner}"]' in out


def test_old_cookie_owners_are_migrated_to_opaque_ids(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "v4.db"
    tokens = ["A" * 43, "B" * 43]
    con = sqlite3.connect(path, isolation_level=None)
    migrate(con, 4)
    for token in tokens:
        con.execute("INSERT INTO web_sessions (token, created, last_seen) VALUES (?, ?, ?)",
                    (token, "2025-01-01T00:00:00+00:00", "2025-01-01T00:00:00+00:00"))
    con.close()
    # games written by version 4 for those browsers, and one for a session since forgotten
    ids: dict[str, int] = {}
    raw = sqlite3.connect(path, isolation_level=None)
    for n, owner in enumerate(("web:" + tokens[0], "web:" + tokens[1], "web:" + "C" * 43,
                               "local"), start=1):
        game = given_up_game(n, 4)
        raw.execute(
            "INSERT INTO games (id, owner, number, rules, started, updated, ended, status, "
            "score, moves, final) VALUES (?, ?, ?, 'classic', ?, ?, ?, 'given up', ?, ?, 1)",
            (n, owner, n, "2025-01-01T00:00:00+00:00", "2025-01-01T00:00:00+00:00",
             "2025-01-01T00:00:00+00:00", game.score, game.moves_played))
        raw.executemany("INSERT INTO events (game_id, seq, kind, move, at) VALUES (?, ?, ?, ?, ?)",
                        [(n, i, "move", m.text(), "2025-01-01T00:00:00+00:00")
                         for i, m in enumerate(game.move_stack, start=1)]
                        + [(n, game.moves_played + 1, "giveup", None,
                            "2025-01-01T00:00:00+00:00")])
        ids[owner] = n
    open_game = Game(11)
    open_game.play_text("d")
    raw.execute(
        "INSERT INTO games (id, owner, number, rules, started, updated, status, score, moves) "
        "VALUES (5, ?, 11, 'classic', ?, ?, 'in progress', ?, 1)",
        ("web:" + tokens[0], "2025-01-01T00:00:00+00:00", "2025-01-01T00:00:00+00:00",
         open_game.score))
    raw.execute("INSERT INTO events VALUES (5, 1, 'move', 'd', '2025-01-01T00:00:00+00:00')")
    raw.execute("INSERT INTO current_games (owner, game_id) VALUES (?, 5)",
                ("web:" + tokens[0],))
    raw.execute("INSERT INTO settings (owner, key, value) VALUES (?, 'lang', 'fr')",
                ("web:" + tokens[0],))
    raw.execute("UPDATE counters SET value = 5 WHERE name = 'last_game_id'")
    raw.close()

    with Store.open(path) as store:
        assert store.schema_version == SCHEMA_VERSION
        first = store.web_session_owner(tokens[0])
        second = store.web_session_owner(tokens[1])
        assert first is not None and second is not None and first != second
        assert tokens[0] not in first and tokens[1] not in second
        # the same browser still owns its games, its current game and its settings
        assert [g.id for g in store.games(owner=first)] == [1, 5]
        assert [g.id for g in store.games(owner=second)] == [2]
        assert store.current_game(first) == 5
        assert store.get_setting(first, "lang") == "fr"
        assert [g.id for g in store.games(owner="local")] == [4]
        forgotten = store.game_info(3)
        assert forgotten is not None and "C" * 43 not in forgotten.owner
    assert main(["export", "--all", "--db", str(path)]) == 0
    out = capsys.readouterr().out
    for token in (*tokens, "C" * 43):
        assert token not in out
    con = sqlite3.connect(path)
    dump = "\n".join(con.iterdump())
    con.close()
    for token in (*tokens, "C" * 43):
        assert token not in dump


# --------------------------------------------------------------- the CLI
@pytest.mark.parametrize("host", ["", " ", "example.org", "127.0.0.1:80", "1.2.3", "[::1"])
def test_a_host_that_is_not_an_address_is_refused(
    host: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--host", host, "--no-browser", "--db", "/nonexistent/x.db"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = _one_line(captured.err)
    assert "--host" in err and "address" in err


def test_deal_names_bad_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--rules", "nope"]) == 2
    err = _one_line(capsys.readouterr().err)
    assert "nope" in err and "not both" not in err
    assert main(["deal"]) == 2
    err = _one_line(capsys.readouterr().err)
    assert "not both" not in err and "--deck" in err
    assert main(["deal", "3", "--deck", "x"]) == 2
    assert "not both" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["stats", "--owner", ""], ["export", "--all", "--owner", ""],
                                  ["import", "-", "--owner", ""]])
def test_an_empty_owner_is_refused(tmp_path: Path, argv: list[str],
                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        store.save_game(given_up_game(4, 6))
    before = _digest(path)
    assert main([*argv, "--db", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "--owner" in _one_line(captured.err)
    assert _digest(path) == before


def test_import_of_only_bad_records_exits_2(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.db"
    bad = tmp_path / "bad.txt"
    bad.write_text(write_record(Game(12)).replace("72", "7") + "\n"
                   + write_record(Game(13)).replace("72", "7"))
    assert main(["import", str(bad), "--db", str(path)]) == 2
    captured = capsys.readouterr()
    assert "record 1" in captured.err and "record 2" in captured.err
    assert "0 games imported" in captured.out
    with Store.open(path) as store:
        assert store.games() == []


def test_json_stats_of_a_new_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.db"
    Store.open(path).close()
    assert main(["stats", "--json", "--db", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["all"]["played"] == 0
