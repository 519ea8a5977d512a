"""Export and import of game records, in the library and through the CLI."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from store_helpers import given_up_game, near_won_position, over_game, win_moves

from devilsgrip.cli import main
from devilsgrip.game import Game
from devilsgrip.notation import format_deck
from devilsgrip.records import write_record
from devilsgrip.session import PlaySession
from devilsgrip.store import Store, import_records, split_records


def _fill(store: Store) -> list[int]:
    ids = [store.save_game(over_game(3, seed=2), started="2024-02-01T10:00:00+00:00",
                           ended="2024-02-01T10:20:00+00:00"),
           store.save_game(given_up_game(4, 25), hints=2)]
    s = PlaySession.start(store, number=5)
    s.play_text("d")
    s.play_text("d")
    s.undo()
    ids.append(s.game_id or 0)
    deck = format_deck(Game(6).deck or ())
    d = PlaySession.start(store, deck=deck, rules="literal")
    d.play_text("d")
    ids.append(d.game_id or 0)
    position = near_won_position(1)
    w = PlaySession.start(store, position=position, owner="web:tok")
    for move in win_moves(position):
        w.play(move)
    ids.append(w.game_id or 0)
    return ids


def _summary(store: Store) -> list[tuple[object, ...]]:
    return [(g.number, g.deck, g.start_position, g.rules, g.started, g.ended, g.status,
             g.score, g.moves, g.hints, store.load_game(g.id).position())
            for g in store.games()]


def test_round_trip(tmp_path: Path) -> None:
    with Store.open(tmp_path / "a.db") as a:
        _fill(a)
        text = "\n".join(a.record(g.id) for g in a.games())
        expected = _summary(a)
    assert len(split_records(text)) == 5
    with Store.open(tmp_path / "b.db") as b:
        report = import_records(b, text)
        assert len(report.imported) == 5 and not report.bad and not report.duplicates
        assert _summary(b) == expected
        # importing again adds nothing
        again = import_records(b, text)
        assert again.imported == [] and again.duplicates == [1, 2, 3, 4, 5]
        assert len(b.games()) == 5
        # an in-progress game resumes where the record left it
        open_game = next(g for g in b.games() if g.number == 5)
        assert PlaySession.resume(b, open_game.id).game.moves_played == 1


def test_bad_records_are_reported_by_index_and_not_imported(store: Store) -> None:
    good = Game(8)
    good.play_text("d")
    bad_move = Game(9)
    bad_move.play_text("d")
    broken = write_record(bad_move).replace("1. d", "1. t-a1")
    lying = write_record(Game(10)).replace('[Score "72"]', '[Score "3"]')
    text = "\n".join([write_record(good), broken, "[Event \"x\"]\n\nnot a record at all\n",
                      lying, write_record(Game(11))])
    report = import_records(store, text)
    assert [i for i, _e in report.bad] == [2, 3, 4]
    assert report.bad[0][1].code == "record-illegal-move"
    assert report.bad[2][1].code == "record-mismatch"
    assert [g.number for g in store.games()] == [8, 11]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 10**6), st.integers(0, 30)), min_size=1, max_size=5))
def test_split_records_round_trip(games: list[tuple[int, int]]) -> None:
    records = [write_record(given_up_game(n, k)) for n, k in games]
    assert split_records("\n".join(records)) == records
    assert split_records("\n\n".join(records) + "\n\n") == records


# ---------------------------------------------------------------------- CLI
def test_cli_export_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    with Store.open(a) as store:
        ids = _fill(store)
    out = tmp_path / "games.txt"
    assert main(["export", "--all", "--db", str(a), "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["export", "--game-id", str(ids[1]), "--db", str(a)]) == 0
    single = capsys.readouterr().out
    assert '[Game "4"]' in single and '[Result "given up"]' in single
    assert split_records(single) == [split_records(out.read_text())[1]]
    assert main(["export", "--game-id", "999", "--db", str(a)]) == 2
    assert "999" in capsys.readouterr().err
    assert main(["export", "--db", str(a)]) == 2  # --all or --game-id needed
    capsys.readouterr()

    assert main(["import", str(out), "--db", str(b)]) == 0
    assert "5 games imported" in capsys.readouterr().out
    with Store.open(a) as sa, Store.open(b) as sb:
        assert _summary(sa) == _summary(sb)

    bad = tmp_path / "bad.txt"
    bad.write_text(write_record(Game(12)) + "\n" + write_record(Game(13)).replace("72", "7"))
    assert main(["import", str(bad), "--db", str(b)]) == 1
    captured = capsys.readouterr()
    assert "record 2" in captured.err and "1 game imported" in captured.out
    assert main(["import", str(tmp_path / "missing.txt"), "--db", str(b)]) == 2


def test_cli_import_from_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(write_record(given_up_game(14, 3))))
    monkeypatch.setenv("DEVILSGRIP_DB", str(tmp_path / "env.db"))
    assert main(["import", "-"]) == 0
    assert "1 game imported" in capsys.readouterr().out
    with Store.open(tmp_path / "env.db") as store:
        assert [g.number for g in store.games()] == [14]


def test_cli_stats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.db"
    assert main(["stats", "--db", str(db)]) == 2  # no database: said, and none made
    assert "there is no database" in capsys.readouterr().err and not db.exists()
    Store.open(db).close()
    assert main(["stats", "--db", str(db)]) == 0  # empty: a table of zeros
    assert "0" in capsys.readouterr().out
    with Store.open(db) as store:
        _fill(store)
    assert main(["stats", "--db", str(db), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["all"]["played"] == 3 and data["all"]["won"] == 1
    assert set(data["by_rules"]) == {"classic", "single-pass", "literal"}
    assert data["by_rules"]["literal"]["played"] == 0
    assert data["by_rules"]["literal"]["unfinished"] == 1

    assert main(["stats", "--db", str(db), "--json", "--rules", "single-pass"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert one["rules"] == "single-pass" and one["played"] == 1
    assert list(one["histogram"].values()) == [1]

    assert main(["stats", "--db", str(db), "--json", "--owner", "web:tok"]) == 0
    assert json.loads(capsys.readouterr().out)["all"]["won"] == 1

    assert main(["stats", "--db", str(db), "--rules", "classic"]) == 0
    out = capsys.readouterr().out
    assert "games played" in out and "win rate" in out and "50.0%" in out
    assert "fastest win" in out and "time played" in out
    assert "█" in out  # the bar chart

    assert main(["stats", "--db", str(db), "--rules", "nonsense"]) == 2
    assert "nonsense" in capsys.readouterr().err


def test_cli_stats_translated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.db"
    with Store.open(db) as store:
        store.save_game(given_up_game(4, 5))
    assert main(["stats", "--db", str(db), "--lang", "en"]) == 0
    english = capsys.readouterr().out
    assert main(["stats", "--db", str(db), "--lang", "fr"]) == 0
    french = capsys.readouterr().out
    assert "games played" in english
    assert "█" in french and "72" not in english.replace("61-72", "")


def test_an_odd_hints_tag_is_a_bad_record(store: Store) -> None:
    game = Game(3)
    game.play_text("d")
    game.give_up()
    for value, hints in (("²", None), ("9" * 5000, None), ("7", 7)):
        game.tags["Hints"] = value
        report = import_records(store, write_record(game))
        if hints is None:
            assert not report.imported and [i for i, _e in report.bad] == [1]
            assert report.bad[0][1].code == "record-bad-hints"
        else:
            info = store.game_info(report.imported[0])
            assert info is not None and info.hints == hints


def test_the_play_time_goes_with_the_record(tmp_path: Path) -> None:
    """A game's clock travels in its record (PlayTime, seconds); a game whose clock was
    not kept has no time in the history rather than 0:00."""
    from devilsgrip.table.history import history
    from devilsgrip.table.words import Words

    with Store.open(tmp_path / "a.db") as a:
        timed = a.save_game(given_up_game(4, 5), started="2024-02-01T10:00:00+00:00",
                            play_seconds=83.44)
        untimed = a.save_game(given_up_game(5, 5), started="2024-02-01T11:00:00+00:00")
        assert '[PlayTime "83.4"]' in a.record(timed)
        assert "PlayTime" not in a.record(untimed)
        text = a.record(timed) + "\n" + a.record(untimed)
    with Store.open(tmp_path / "b.db") as b:
        report = import_records(b, text)
        assert len(report.imported) == 2 and not report.bad
        seconds = {g.number: g.play_seconds for g in b.games()}
        assert seconds == {4: pytest.approx(83.4), 5: 0.0}
        entries, total = history(b, "local", Words())
        assert total == 2
        assert {e.number: e.seconds for e in entries} == {4: pytest.approx(83.4), 5: None}


def test_an_odd_play_time_is_a_bad_record(store: Store) -> None:
    game = Game(3)
    game.play_text("d")
    game.give_up()
    for value in ("-3", "1e9", "nan", "12.34567", "9" * 40, "1:23", ""):
        game.tags["PlayTime"] = value
        report = import_records(store, write_record(game))
        assert not report.imported and [i for i, _e in report.bad] == [1], value
        assert report.bad[0][1].code == "record-bad-time"
    game.tags["PlayTime"] = "65"
    info = store.game_info(import_records(store, write_record(game)).imported[0])
    assert info is not None and info.play_seconds == 65.0
