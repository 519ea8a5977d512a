"""The published statistics (docs/STATISTICS.md) agree with their data, and the
facts the text singles out hold in the engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from devilsgrip.analysis import DealResult, summarize
from devilsgrip.analysis.report import summary_markdown
from devilsgrip.analysis.results import open_results
from devilsgrip.game import Game
from devilsgrip.solver import solve

DOCS = Path(__file__).resolve().parents[2] / "docs"


def published_results() -> list[DealResult]:
    results: list[DealResult] = []
    for path in sorted((DOCS / "data").glob("*.parquet")):
        results.extend(open_results(path, create=False).read())
    return results


def test_the_published_table_is_the_summary_of_the_published_data() -> None:
    table = summary_markdown(summarize(published_results())).strip()
    assert (DOCS / "data" / "summary.md").read_text(encoding="utf-8").strip() == table
    assert table in (DOCS / "STATISTICS.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_single_pass_win_of_the_statistics_replays() -> None:
    # the text names game 144 as a proven single-pass win: the solver finds and
    # proves it again within a fixed node budget, and its line wins in the engine
    rows = [r for r in published_results()
            if r.rules == "single-pass" and r.player == "clairvoyant" and r.game == 144]
    assert [(r.score, r.proven) for r in rows] == [(0, True)]
    game = Game(144, rules="single-pass")
    result = solve(game, time_limit=None, max_nodes=300_000)
    assert (result.score, result.proven) == (0, True)
    for move in result.moves:
        game.play(move)
    assert game.score == 0 and game.is_won()
