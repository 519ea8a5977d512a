"""Results files: SQLite and Parquet keep the same rows; resume keys; bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from devilsgrip.analysis import AnalysisError, DealResult, open_results, parse_games
from devilsgrip.analysis.runner import format_games


def rows() -> list[DealResult]:
    return [
        DealResult(game=3, rules="classic", player="clairvoyant", score=0, proven=True,
                   moves=120, nodes=4567, seconds=0.25, time_limit=10.0),
        DealResult(game=1, rules="classic", player="clairvoyant", score=2, proven=False,
                   moves=99, nodes=10**9, seconds=10.0, time_limit=10.0),
        DealResult(game=1, rules="literal", player="greedy", score=40, proven=None,
                   moves=150, nodes=None, seconds=0.01, seed=7),
    ]


@pytest.mark.parametrize("name", ["r.sqlite", "r.db", "r.parquet"])
def test_round_trip_and_done(tmp_path: Path, name: str) -> None:
    path = tmp_path / "deep" / name
    store = open_results(path)
    store.add(rows()[:2])
    store.add(rows()[2:])
    store.close()
    again = open_results(path, create=False)
    try:
        got = again.read()
        assert got == sorted(rows(), key=lambda r: r.key)
        assert again.done("classic", "clairvoyant") == {1, 3}
        assert again.done("literal", "greedy") == {1}
        assert again.done("literal", "clairvoyant") == set()
        # writing a deal again replaces it: one row per key
        again.add([DealResult(game=1, rules="literal", player="greedy", score=39, proven=None,
                              moves=151, nodes=None, seconds=0.02, seed=7)])
        assert len(again.read()) == 3
        assert [r.score for r in again.read() if r.rules == "literal"] == [39]
    finally:
        again.close()


def test_parquet_and_sqlite_agree(tmp_path: Path) -> None:
    a, b = open_results(tmp_path / "a.sqlite"), open_results(tmp_path / "b.parquet")
    for store in (a, b):
        store.add(rows())
    assert a.read() == b.read()
    a.close()
    b.close()
    assert not list(tmp_path.glob("*.tmp"))


def test_missing_and_unreadable(tmp_path: Path) -> None:
    with pytest.raises(AnalysisError) as info:
        open_results(tmp_path / "none.sqlite", create=False)
    assert info.value.code == "results-missing"
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database, not at all" * 100)
    with pytest.raises(AnalysisError) as info:
        open_results(junk)
    assert info.value.code == "results-unreadable"
    bad = tmp_path / "junk.parquet"
    bad.write_bytes(b"PAR1 nope")
    with pytest.raises(AnalysisError) as info:
        open_results(bad)
    assert info.value.code == "results-unreadable"


def test_without_timing_ignores_seconds_only() -> None:
    a = rows()[0]
    b = DealResult(**{**a.to_dict(), "seconds": 99.0})
    c = DealResult(**{**a.to_dict(), "nodes": 1})
    assert a.without_timing() == b.without_timing()
    assert a.without_timing() != c.without_timing()


def test_game_ranges() -> None:
    assert parse_games("1-5") == [1, 2, 3, 4, 5]
    assert parse_games(" 9, 2-3 ,3") == [2, 3, 9]
    assert format_games(parse_games("1-100,200,300-301")) == "1-100,200,300-301"
    for bad in ("", "0-3", "5-2", "a-b", "1-", "1--2", "-4"):
        with pytest.raises(AnalysisError):
            parse_games(bad)


def test_one_writer_per_parquet_file(tmp_path: Path) -> None:
    path = tmp_path / "busy.parquet"
    first = open_results(path, write=True)
    try:
        with pytest.raises(AnalysisError) as info:
            open_results(path, write=True)
        assert info.value.code == "results-busy"
        first.add(rows())
        reader = open_results(path, create=False)  # reading needs no lock
        assert len(reader.read()) == 3
        reader.close()
    finally:
        first.close()
    second = open_results(path, write=True)  # free again once the first is closed
    second.close()
    # SQLite files may be shared by several writers
    a, b = open_results(tmp_path / "s.sqlite", write=True), open_results(
        tmp_path / "s.sqlite", write=True)
    a.add(rows()[:1])
    b.add(rows()[1:])
    assert len(a.read()) == 3
    a.close()
    b.close()
