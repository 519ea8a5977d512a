"""The daily deal: the day's deal, results and streaks, the share text; in the table, the
API and the command line."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

import pytest

from devilsgrip import i18n
from devilsgrip.cards import CARD_CODES
from devilsgrip.catalog import winnable_deals, winnable_line
from devilsgrip.cli import main
from devilsgrip.daily import (
    EPOCH,
    DailyError,
    Streaks,
    daily_deal,
    daily_pool,
    parse_day,
    streaks,
)
from devilsgrip.session import PlaySession
from devilsgrip.store import Store
from devilsgrip.table.controller import Refusal, Table
from devilsgrip.table.daily import daily_calendar, share_text
from devilsgrip.table.words import Words, clock_text
from devilsgrip.web.api import handle
from devilsgrip.web.browsers import WebState
from devilsgrip.web.calls import Call
from devilsgrip.web.options import ServerOptions

DAY = date(2026, 12, 5)


# ------------------------------------------------------------------ the day's deal
def test_daily_deal_is_stable_across_versions() -> None:
    # the documented function: these values must never change
    assert daily_deal(DAY, "classic") == 39823666
    assert daily_deal(date(2000, 1, 1), "literal") == 67094883
    assert daily_deal(date(2999, 12, 31), "classic,draw=1") == 605358713
    assert [daily_deal(date(2026, 12, d), "single-pass") for d in (5, 6, 7)] == [2653, 6340, 110]
    assert daily_deal(date(2000, 1, 1), "single-pass") == 1221
    assert daily_deal(date(2000, 1, 1), "literal") == daily_deal(date(2000, 1, 1), "literal")


def test_daily_deal_follows_its_documented_formula() -> None:
    import hashlib

    digest = hashlib.sha256(b"devilsgrip daily classic 2026-12-05").digest()
    assert daily_deal(DAY, "classic") == 1 + int.from_bytes(digest[:8], "big") % 10**9
    # the rules are read in their canonical form
    assert daily_deal(DAY, "classic,draw=3") == daily_deal(DAY, "classic")


def test_different_days_differ_and_each_preset_has_its_own() -> None:
    days = [EPOCH + timedelta(days=i) for i in range(366)]
    for rules in ("classic", "literal", "classic,draw=1"):
        deals = [daily_deal(d, rules) for d in days]
        assert len(set(deals)) == len(deals), rules
    pool = daily_pool()
    sp = [daily_deal(d, "single-pass") for d in days[:len(pool)]]
    assert sorted(sp) == sorted(pool)  # each deal of the pool once in a cycle
    assert all(a != b for a, b in zip(
        [daily_deal(d, "single-pass") for d in days], [daily_deal(d, "single-pass")
                                                      for d in days[1:]], strict=False))
    on_day = {r: daily_deal(DAY, r) for r in ("classic", "literal", "single-pass",
                                               "classic,draw=1")}
    assert len(set(on_day.values())) == 4


def test_single_pass_daily_is_always_a_catalogued_winnable_deal() -> None:
    catalogued = {e.game for e in winnable_deals()}
    for i in range(-400, 800, 7):
        assert daily_deal(EPOCH + timedelta(days=i), "single-pass") in catalogued


def test_bad_days_are_refused() -> None:
    assert parse_day(" 2026-12-05 ") == DAY
    for text, code in (("2026-13-01", "daily-date-bad"), ("5/12/2026", "daily-date-bad"),
                       ("20261205", "daily-date-bad"), ("1999-12-31", "daily-date-range")):
        with pytest.raises(DailyError) as info:
            parse_day(text)
        assert info.value.code == code


# ------------------------------------------------------------------------ streaks
def test_streaks_across_missed_days() -> None:
    today = date(2026, 3, 10)
    played = [date(2026, 3, d) for d in (1, 2, 3, 4, 6, 7, 9, 10)]
    assert streaks(played, today) == Streaks(2, 4)
    # today not played yet: the streak ending yesterday still stands
    assert streaks(played[:-1], today) == Streaks(1, 4)
    # a missed day (yesterday and today) ends it
    assert streaks(played[:-2], today) == Streaks(0, 4)
    assert streaks([], today) == Streaks(0, 0)
    # days after today do not count
    assert streaks([today + timedelta(days=1)], today) == Streaks(0, 0)


# ------------------------------------------------------------- results, in the table
def _finish(table: Table, win: bool = False) -> None:
    if win:
        line = winnable_line(table.game.number or 0)
        assert line is not None
        for move in line:
            table.play(move)
    else:
        table.stock()
        table.give_up()


def test_a_daily_finished_twice_counts_once(tmp_path: Path) -> None:
    with Store.open(tmp_path / "g.db") as store:
        table = Table(PlaySession.start(store, number=1, rules="single-pass"), Words("en"))
        table.daily(DAY)
        assert table.snapshot().daily == DAY.isoformat()
        assert table.game.number == daily_deal(DAY, "single-pass")
        _finish(table, win=False)  # the day's result: given up
        first = table.session.game_id
        table.daily(DAY)  # practice: it wins, but the day's result stands
        _finish(table, win=True)
        assert table.game.is_won()
        results = store.daily_results("local", "single-pass")
        assert list(results) == [DAY.isoformat()] and results[DAY.isoformat()].id == first
        cal = table.daily_calendar(DAY)
        assert cal.today.result is not None and cal.today.result.status == "given up"
        assert cal.streaks == Streaks(1, 1) and cal.played == 1
        assert len(cal.days) == 35 and cal.days[-1].day == DAY
        # another preset has its own days
        assert table.daily_calendar(DAY, rules="classic").played == 0
        # a game of the same deal started by its number is no daily
        table.new_game(number=table.game.number, rules="single-pass")
        assert table.snapshot().daily is None


def test_a_daily_taken_up_again_is_still_the_daily(tmp_path: Path) -> None:
    with Store.open(tmp_path / "g.db") as store:
        table = Table(PlaySession.start(store, number=1), Words("en"))
        table.daily(DAY, rules="classic")
        table.stock()
        again = PlaySession.resume(store, table.session.game_id or 0)
        assert again.daily == DAY.isoformat()
        # left with no move: deleted, no result for the day
        table.daily(DAY + timedelta(days=-1), rules="classic")
        table.new_game(rules="classic")
        assert (DAY - timedelta(days=1)).isoformat() not in store.daily_results("local",
                                                                              "classic")


def test_the_daily_of_a_day_to_come_cannot_be_played() -> None:
    table = Table(PlaySession.start(None, number=1), Words("fr"))
    with pytest.raises(Refusal) as info:
        table.daily(date.today() + timedelta(days=3))
    assert info.value.code == "daily-future" and table.game.number == 1


def test_winnable_deals_only(tmp_path: Path) -> None:
    table = Table(PlaySession.start(None, number=1, rules="single-pass"), Words("en"))
    catalogued = {e.game for e in winnable_deals()}
    for _ in range(5):
        table.new_game(winnable=True)
        assert table.game.number in catalogued
    with pytest.raises(Refusal) as info:
        table.new_game(rules="classic", winnable=True)
    assert info.value.code == "winnable-rules" and str(table.game.rules) == "single-pass"


# ------------------------------------------------------------------ the share text
def _card_words(lang: str) -> set[str]:
    return {i18n.card_label(c, lang) for c in range(len(CARD_CODES))} | set(CARD_CODES)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_share_text_names_no_card(lang: str) -> None:
    table = Table(PlaySession.start(None, number=1, rules="single-pass"), Words(lang))
    with pytest.raises(Refusal) as info:
        table.share()
    assert info.value.code == "game-live"
    table.daily(DAY)
    for _ in range(5):
        table.stock()
    table.give_up()
    text = table.share()
    lines = text.splitlines()
    assert DAY.isoformat() in lines[0] and len(lines) == 4  # with the best possible score
    assert str(table.game.score) in lines[1]
    words = set(text.replace(",", " ").replace(":", " ").replace("(", " ")
                .replace(")", " ").split())
    stock = [c for c in table.game.stock] + [c for pile in table.game.grid for c in pile]
    assert not any(i18n.card_label(c, lang) in text for c in stock)
    assert not words & {code for code in CARD_CODES}
    if lang != "en":
        english = share_text(table.session, Words("en"), 0)
        assert english != text


def test_share_text_of_a_numbered_deal_and_of_a_win() -> None:
    number = winnable_deals()[0].game
    table = Table(PlaySession.start(None, number=number, rules="single-pass"), Words("en"))
    _finish(table, win=True)
    moves = table.game.moves_played
    assert table.share() == (f"Devil's Grip, Single pass: game {number}\nWon: no card left!\n"
                             f"{moves} moves in {clock_text(table.session.elapsed())}\n"
                             "Best possible score of this deal: 0")
    classic = Table(PlaySession.start(None, number=5), Words("en"))
    classic.stock()
    classic.give_up()
    assert "Best possible" not in classic.share()  # not known without a solve
    assert clock_text(3725.4) == "1:02:05" and clock_text(65) == "1:05"


# --------------------------------------------------------------------------- the API
def test_api_daily_calendar_share_and_winnable(tmp_path: Path) -> None:
    web = WebState(ServerOptions(db=tmp_path / "web.db", game=5))
    first = handle(web, None, Call("GET", "/api/game"))
    token = first.token
    cal = handle(web, token, Call("GET", "/api/daily", query={"date": "2026-12-05",
                                                             "rules": "single-pass"}))
    assert cal.status == 200
    assert cal.body["game"] == daily_deal(DAY, "single-pass") and cal.body["result"] is None
    assert cal.body["streak"] == {"current": 0, "best": 0} and len(cal.body["days"]) == 35
    bad = handle(web, token, Call("GET", "/api/daily", query={"date": "yesterday"},
                                  accept_language="fr"))
    assert bad.status == 400 and bad.body["error"] == "daily-date-bad"
    started = handle(web, token, Call("POST", "/api/daily",
                                      data={"date": "2026-12-05", "rules": "single-pass"}))
    assert started.status == 200 and started.body["game"]["daily"] == "2026-12-05"
    assert started.body["game"]["number"] == daily_deal(DAY, "single-pass")
    live = handle(web, token, Call("GET", "/api/share"))
    assert live.status == 409 and live.body["error"] == "game-live"
    assert handle(web, token, Call("POST", "/api/giveup")).status == 200
    shared = handle(web, token, Call("GET", "/api/share"))
    assert shared.status == 200 and "2026-12-05" in shared.body["text"]
    assert shared.body["rules"] == "single-pass" and shared.body["daily"] == "2026-12-05"
    cal = handle(web, token, Call("GET", "/api/daily", query={"date": "2026-12-05",
                                                             "rules": "single-pass"}))
    assert cal.body["result"]["status"] == "given up" and cal.body["streak"]["current"] == 1
    # winnable deals only: asked for, or the player's setting for single-pass
    catalogued = {e.game for e in winnable_deals()}
    new = handle(web, token, Call("POST", "/api/new", data={"rules": "single-pass",
                                                            "winnable": True}))
    assert new.body["game"]["number"] in catalogued
    saved = handle(web, token, Call("POST", "/api/settings", data={"winnable": True}))
    assert saved.body["winnable"] is True
    for _ in range(3):
        new = handle(web, token, Call("POST", "/api/new", data={"rules": "single-pass"}))
        assert new.body["game"]["number"] in catalogued
    refused = handle(web, token, Call("POST", "/api/new", data={"rules": "classic",
                                                                "winnable": True}))
    assert refused.status == 409 and refused.body["error"] == "winnable-rules"


# ------------------------------------------------------------------ the command line
def test_daily_command_needs_no_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DEVILSGRIP_DB", raising=False)
    monkeypatch.setattr("devilsgrip.store.default_path", lambda: tmp_path / "none.db")
    assert main(["daily", "--date", "2026-12-05", "--rules", "single-pass", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"date": "2026-12-05", "rules": "single-pass",
                   "game": daily_deal(DAY, "single-pass")}
    assert not (tmp_path / "none.db").exists()
    assert main(["daily", "--date", "2026-02-30"]) == 2
    assert "YYYY-MM-DD" in capsys.readouterr().err


def test_daily_and_share_commands_with_a_database(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "g.db"
    with Store.open(db) as store:
        table = Table(PlaySession.start(store, number=1), Words("en"))
        table.daily(DAY, rules="classic")
        table.stock()
        table.give_up()
    assert main(["daily", "--date", "2026-12-05", "--db", str(db), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == daily_deal(DAY, "classic")
    assert out["result"]["status"] == "given up" and out["streak"] == {"current": 1, "best": 1}
    assert main(["daily", "--date", "2026-12-06", "--db", str(db), "--lang", "fr"]) == 0
    text = capsys.readouterr().out
    assert "2026-12-06" in text and "1" in text
    assert main(["share", "--db", str(db)]) == 0
    assert "daily deal of 2026-12-05" in capsys.readouterr().out
    assert main(["share", "--db", str(db), "--game-id", "99"]) == 2


def test_calendar_without_a_store_has_no_results() -> None:
    cal = daily_calendar(None, "local", "classic", DAY)
    assert cal.played == 0 and all(d.result is None for d in cal.days)
    assert cal.today.game == daily_deal(DAY, "classic")


def test_a_version_5_database_gains_the_dailies_and_keeps_its_games(tmp_path: Path) -> None:
    import sqlite3

    from devilsgrip.store import MIGRATIONS, migrate

    db = tmp_path / "v5.db"
    con = sqlite3.connect(db, isolation_level=None)
    con.execute("PRAGMA journal_mode = WAL")
    migrate(con, target=5)
    con.close()
    with Store.open(db) as store:  # the schema this version writes
        assert store.schema_version == len(MIGRATIONS) == 7
    con = sqlite3.connect(db, isolation_level=None)
    con.execute("DROP TABLE dailies")
    con.execute("DROP TABLE logs")  # and the table of the migration after it
    con.execute("PRAGMA user_version = 5")
    con.execute("INSERT INTO games (id, owner, number, rules, started, updated, status, score, "
                "moves) VALUES (1, 'local', 7, 'classic', '2026-01-01T00:00:00+00:00', "
                "'2026-01-01T00:00:00+00:00', 'in progress', 72, 0)")
    con.close()
    with Store.open(db) as store:
        assert store.schema_version == 7
        assert [g.number for g in store.games()] == [7]
        assert store.daily_of(1) is None and store.daily_results("local", "classic") == {}
