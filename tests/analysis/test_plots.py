"""Plots: both files in both formats, drawn from a summary; same data, same SVG."""

from __future__ import annotations

from pathlib import Path

import pytest

from devilsgrip.analysis import DealResult, summarize
from devilsgrip.analysis.plots import write_plots


def summaries() -> list:  # type: ignore[type-arg]
    rows = []
    for rules in ("classic", "single-pass"):
        for player, base in (("clairvoyant", 0), ("greedy", 9)):
            for g in range(1, 41):
                rows.append(DealResult(
                    game=g, rules=rules, player=player, score=(g * 7 + base) % 23 if g % 3 else 0,
                    proven=True if player == "clairvoyant" else None, moves=1, nodes=None,
                    seconds=0.1))
    return summarize(rows)


@pytest.mark.slow
def test_plots_written(tmp_path: Path) -> None:
    paths = write_plots(summaries(), tmp_path / "figs")
    names = sorted(p.name for p in paths)
    assert names == ["score-histogram.png", "score-histogram.svg", "win-rate.png",
                     "win-rate.svg"]
    for p in paths:
        assert p.stat().st_size > 1000
    assert (tmp_path / "figs" / "win-rate.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = (tmp_path / "figs" / "win-rate.svg").read_text()
    assert "<svg" in svg and "single-pass" in svg


@pytest.mark.slow
def test_plots_reproducible(tmp_path: Path) -> None:
    a = write_plots(summaries(), tmp_path / "a")
    b = write_plots(summaries(), tmp_path / "b")
    for pa, pb in zip(a, b, strict=True):
        if pa.suffix == ".svg":
            assert pa.read_bytes() == pb.read_bytes()


def test_no_results_no_plots(tmp_path: Path) -> None:
    assert write_plots([], tmp_path / "empty") == []
