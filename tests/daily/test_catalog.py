"""The catalog of winnable single-pass deals: every line wins, and its builder resumes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from devilsgrip.analysis import catalog as builder
from devilsgrip.catalog import (
    CatalogError,
    WinnableDeal,
    format_catalog,
    has_catalog,
    parse_catalog,
    winnable_deals,
    winnable_line,
)
from devilsgrip.cli import main
from devilsgrip.daily import DAILY_POOL
from devilsgrip.game import Game
from devilsgrip.notation import parse_moves


def test_every_catalogued_line_replays_to_a_win() -> None:
    entries = winnable_deals("single-pass")
    assert len(entries) >= 200 and set(DAILY_POOL) <= {e.game for e in entries}
    assert [e.game for e in entries] == sorted({e.game for e in entries})
    for entry in entries:
        game = Game(entry.game, rules="single-pass")
        for move in entry.line:
            game.play(move)  # checked by the engine: an illegal move fails here
        assert game.is_won(), entry.game


def test_catalog_is_for_single_pass_only() -> None:
    assert has_catalog("single-pass") and has_catalog("classic,redeals=0")
    assert not has_catalog("classic") and not has_catalog("literal")
    with pytest.raises(CatalogError) as info:
        winnable_deals("classic")
    assert info.value.code == "catalog-rules"
    assert winnable_line(winnable_deals()[0].game, "classic") is None
    assert winnable_line(22) is None  # game 22 of single-pass is proven lost


def test_catalog_text_round_trips_and_bad_text_is_refused() -> None:
    entries = (WinnableDeal(5, tuple(parse_moves("d t-a1"))),
               WinnableDeal(3, tuple(parse_moves("d"))))
    text = format_catalog(entries, "a header\nof two lines")
    assert text.startswith("# a header\n# of two lines\n3 d\n5 d t-a1\n")
    assert parse_catalog(text) == tuple(sorted(entries))
    for bad in ("x d", "7", "7 d\n7 d", "7 zz-9"):
        with pytest.raises(CatalogError):
            parse_catalog(bad)


def test_winnable_command_lists_the_catalog_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["winnable", "--rules", "single-pass", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed == [e.to_dict() for e in winnable_deals()]
    assert all(isinstance(e["game"], int) and e["line"] for e in listed)
    assert main(["winnable", "--rules", "classic"]) == 2
    assert "single-pass" in capsys.readouterr().err


def test_scan_appends_as_it_goes_and_resumes(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    scan = tmp_path / "scan.jsonl"
    # deal 87 is won within a few nodes' time; 3 and 8 are lost at the root
    decided: list[int] = []

    def stop_after_two(record: builder.ScanRecord, _: object) -> None:
        decided.append(record.game)
        if len(decided) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        builder.scan([3, 8, 87], scan, win_seconds=30, solve_seconds=0,
                     progress=stop_after_two)
    assert [json.loads(line)["game"] for line in scan.read_text().splitlines()] == [3, 8]
    # a line cut short by a kill is dropped before the scan goes on
    with scan.open("a") as f:
        f.write('{"game": 87, "outc')
    report = builder.scan([3, 8, 87], scan, win_seconds=30, solve_seconds=0)
    assert report == builder.ScanReport(1, 1, 0, 0)
    records = builder.read_scan(scan)
    assert [r.outcome for r in records.values()] == ["lost", "lost", "won"]
    out = tmp_path / "catalog.txt"
    assert builder.write_catalog(scan, out) == 1
    written = parse_catalog(out.read_text())
    assert [e.game for e in written] == [87] and builder.replays_to_win(87, written[0].line)
    assert "1 won, 2 proven lost, 0 unresolved" in out.read_text()
    # nothing left to do: a rerun searches nothing
    monkeypatch.setattr(builder, "search_deal", lambda *a: pytest.fail("searched again"))
    assert builder.scan([3, 8, 87], scan).searched == 0


def test_unresolved_deals_are_searched_again_on_request(tmp_path: Path) -> None:
    scan = tmp_path / "scan.jsonl"
    scan.write_text(builder.ScanRecord(87, "unknown", (), 0.1, 0.1).to_json() + "\n")
    assert builder.scan([87], scan).searched == 0
    report = builder.scan([87], scan, win_seconds=30, solve_seconds=0, retry_unknown=True)
    assert report.won == 1 and builder.read_scan(scan)[87].outcome == "won"


def test_a_line_that_does_not_win_is_never_catalogued(tmp_path: Path) -> None:
    scan = tmp_path / "scan.jsonl"
    scan.write_text(builder.ScanRecord(87, "won", tuple(parse_moves("d d")), 1, 1).to_json()
                    + "\n")
    assert builder.catalog_from_scan(scan) == []
