"""Runs: the same results whatever the backend or job count, and resume == uninterrupted."""

from __future__ import annotations

from pathlib import Path

import pytest

from devilsgrip.analysis import (
    AnalysisError,
    DealResult,
    Task,
    open_results,
    run_analysis,
    run_task,
)
from devilsgrip.analysis.backends import DaskBackend, LocalBackend, make_backend
from devilsgrip.analysis.work import auto_chunk_size, chunked
from devilsgrip.game import Game

# A node budget and no time limit: the same results on every machine and every run.
MAX_NODES = 5000
GAMES = list(range(1, 13))


def contents(path: Path) -> list[tuple[object, ...]]:
    """A results file's rows without the timing columns, in key order."""
    store = open_results(path, create=False)
    try:
        return [r.without_timing() for r in store.read()]
    finally:
        store.close()


def results(path: Path) -> list[DealResult]:
    store = open_results(path, create=False)
    try:
        return store.read()
    finally:
        store.close()


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[object, ...]]:
    """The uninterrupted run of :data:`GAMES` in this process (``jobs=1``)."""
    from devilsgrip.analysis import run_analysis

    path = tmp_path_factory.mktemp("reference") / "ref.sqlite"
    report = run_analysis(path, GAMES, rules="classic", player="clairvoyant", time_limit=None,
                          max_nodes=MAX_NODES, jobs=1)
    assert report.done == len(GAMES) and not report.interrupted
    return contents(path)


def run(path: Path, **kwargs: object) -> object:
    options: dict[str, object] = {
        "rules": "classic", "player": "clairvoyant", "time_limit": None,
        "max_nodes": MAX_NODES,
    }
    options.update(kwargs)
    return run_analysis(path, GAMES, **options)  # type: ignore[arg-type]


def test_reference_is_real(reference: list[tuple[object, ...]]) -> None:
    # every deal is there once, with the solver's verified score and a varied outcome
    assert [row[0] for row in reference] == GAMES
    scores = {row[3] for row in reference}
    assert 0 in scores and len(scores) > 1
    assert all(row[1] == "classic" and row[2] == "clairvoyant" for row in reference)


def test_result_matches_a_replay_of_the_solver() -> None:
    from devilsgrip.solver import solve

    (r,) = run_task(Task(games=(2,), rules="classic", player="clairvoyant", max_nodes=MAX_NODES))
    solved = solve(Game(2), time_limit=None, max_nodes=MAX_NODES)
    assert (r.score, r.proven, r.moves, r.nodes) == (
        solved.score, solved.proven, len(solved.moves), solved.nodes)
    game = Game(2)
    for move in solved.moves:
        game.play(move)
    assert game.score == r.score


def test_jobs_two_equals_jobs_one(tmp_path: Path, reference: list[tuple[object, ...]]) -> None:
    out = tmp_path / "two.sqlite"
    report = run(out, jobs=2, chunk_size=2)
    assert report.done == len(GAMES)  # type: ignore[attr-defined]
    assert contents(out) == reference


def test_parquet_equals_sqlite(tmp_path: Path, reference: list[tuple[object, ...]]) -> None:
    out = tmp_path / "two.parquet"
    run(out, jobs=2, chunk_size=3)
    assert contents(out) == reference


@pytest.mark.slow
def test_dask_local_cluster_equals_local(
    tmp_path: Path, reference: list[tuple[object, ...]]
) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        backend = make_backend("dask", scheduler=cluster.scheduler_address)
        assert isinstance(backend, DaskBackend)
        try:
            assert backend.workers == 2
            out = tmp_path / "dask.sqlite"
            report = run(out, backend=backend, chunk_size=2)
        finally:
            backend.close()
    assert report.done == len(GAMES)  # type: ignore[attr-defined]
    assert contents(out) == reference


@pytest.mark.slow
@pytest.mark.parametrize("name,jobs", [("r.sqlite", 1), ("r.sqlite", 2), ("r.parquet", 2)])
def test_interrupted_then_resumed(
    tmp_path: Path, reference: list[tuple[object, ...]], name: str, jobs: int
) -> None:
    out = tmp_path / name
    seen: list[int] = []

    def stop_after_first_batch(batch: list[DealResult]) -> None:
        seen.extend(r.game for r in batch)
        raise KeyboardInterrupt

    first = run(out, jobs=jobs, chunk_size=3, on_results=stop_after_first_batch)
    assert first.interrupted  # type: ignore[attr-defined]
    kept = contents(out)
    assert 0 < len(kept) < len(GAMES)
    assert sorted(seen) == [row[0] for row in kept]  # what was reported is what was kept

    starts: list[tuple[int, int]] = []
    second = run(out, jobs=jobs, chunk_size=3, on_start=lambda t, s: starts.append((t, s)))
    assert starts == [(len(GAMES), len(kept))]
    assert second.skipped == len(kept)  # type: ignore[attr-defined]
    assert second.done == len(GAMES) - len(kept)  # type: ignore[attr-defined]
    assert not second.interrupted  # type: ignore[attr-defined]
    assert contents(out) == reference
    # and a third run has nothing left to do
    third = run(out, jobs=jobs)
    assert third.done == 0 and third.skipped == len(GAMES)  # type: ignore[attr-defined]


def test_runs_of_other_rules_share_a_file(tmp_path: Path) -> None:
    out = tmp_path / "mixed.sqlite"
    run_analysis(out, [1, 2], rules="classic", player="clairvoyant", time_limit=None,
                 max_nodes=2000, jobs=1)
    run_analysis(out, [1, 2], rules="literal", player="clairvoyant", time_limit=None,
                 max_nodes=2000, jobs=1)
    rows = results(out)
    assert [(r.rules, r.game) for r in rows] == [
        ("classic", 1), ("classic", 2), ("literal", 1), ("literal", 2)]
    assert all(r.max_nodes == 2000 and r.time_limit is None for r in rows)


def test_rules_are_stored_in_canonical_form(tmp_path: Path) -> None:
    out = tmp_path / "canon.sqlite"
    run_analysis(out, [1], rules="literal,move_unit=run,fill_from_talon=true,redeals=unlimited",
                 player="clairvoyant", time_limit=None, max_nodes=1000, jobs=1)
    assert [r.rules for r in results(out)] == ["classic"]


def test_bad_requests(tmp_path: Path) -> None:
    with pytest.raises(AnalysisError):
        run_analysis(tmp_path / "x.sqlite", [1], player="lucky")
    with pytest.raises(AnalysisError):
        LocalBackend(0)
    with pytest.raises(AnalysisError):
        make_backend("local", scheduler="tcp://127.0.0.1:1")
    with pytest.raises(AnalysisError):
        make_backend("spark")


def test_chunks() -> None:
    assert chunked([1, 2, 3, 4, 5], 2) == [(1, 2), (3, 4), (5,)]
    assert chunked([], 3) == []
    assert auto_chunk_size(10_000, 2) == 16
    assert auto_chunk_size(20, 2) == 1
    assert auto_chunk_size(0, 2) == 1


def test_greedy_player_same_on_one_or_two_jobs(tmp_path: Path) -> None:
    pytest.importorskip("devilsgrip.solver.players")
    games = range(1, 31)
    a, b = tmp_path / "g1.sqlite", tmp_path / "g2.parquet"
    run_analysis(a, games, rules="literal", player="greedy", jobs=1, time_limit=5.0)
    run_analysis(b, games, rules="literal", player="greedy", jobs=2, chunk_size=4)
    rows = results(a)
    assert contents(a) == contents(b)
    assert [r.game for r in rows] == list(games)
    # players report no proof and no nodes; greedy records no time limit
    assert all(r.proven is None and r.nodes is None and r.time_limit is None for r in rows)
    assert all(r.moves > 0 and 0 < r.score <= 72 for r in rows)


@pytest.mark.parametrize("name", ["u.sqlite", "u.parquet"])
def test_retry_unproven_redoes_only_unproven_deals(tmp_path: Path, name: str) -> None:
    out = tmp_path / name
    # a tiny budget leaves some deals unproven
    run_analysis(out, GAMES, rules="classic", player="clairvoyant", time_limit=None,
                 max_nodes=200, jobs=1)
    first = {r.game: r for r in results(out)}
    unproven = {g for g, r in first.items() if not r.proven}
    assert unproven and unproven != set(GAMES)
    starts: list[tuple[int, int]] = []
    report = run_analysis(out, GAMES, rules="classic", player="clairvoyant", time_limit=None,
                          max_nodes=MAX_NODES, jobs=1, retry_unproven=True,
                          on_start=lambda t, s: starts.append((t, s)))
    assert starts == [(len(GAMES), len(GAMES) - len(unproven))]
    assert report.done == len(unproven)
    second = {r.game: r for r in results(out)}
    for g in GAMES:
        if g in unproven:
            assert second[g].max_nodes == MAX_NODES and second[g].score <= first[g].score
        else:
            assert second[g] == first[g]
