"""The summary's numbers against an example worked out by hand."""

from __future__ import annotations

import itertools
import json
import math

import pytest

from devilsgrip.analysis import DealResult, summarize, wilson_interval, write_summary_json
from devilsgrip.analysis.report import histogram_bins, summary_tables, terminal_histogram

# Ten deals of one rules and player.  By hand:
#   wins: games 1, 2, 7, 10 -> 4 of 10;  mean = 57 / 10 = 5.7
#   sorted: 0 0 0 0 1 3 4 7 12 30 -> median (1 + 3) / 2 = 2
#   ratings: won 4; brilliant (1-2): 1; excellent (3-5): 3, 4; good (6-10): 7; none: 12, 30
#   proven: 8 of 10
SCORES = [0, 0, 1, 4, 7, 12, 0, 3, 30, 0]
PROVEN = [True, True, True, False, True, True, True, True, False, True]


def example() -> list[DealResult]:
    return [
        DealResult(game=i + 1, rules="classic", player="clairvoyant", score=s, proven=p,
                   moves=10 * i, nodes=100 * i, seconds=0.5 + i, time_limit=10.0)
        for i, (s, p) in enumerate(zip(SCORES, PROVEN, strict=True))
    ]


def test_wilson_three_of_ten_by_hand() -> None:
    # z = 1.96: p = 0.3, z^2/n = 0.38415, denominator 1.38415,
    # centre = (0.3 + 0.19207) / 1.38415 = 0.35551,
    # half = 1.96 / 1.38415 * sqrt(0.3 * 0.7 / 10 + 3.8415 / 400) = 1.41600 * 0.17494 = 0.24771
    low, high = wilson_interval(3, 10)
    assert low == pytest.approx(0.10780, abs=5e-5)
    assert high == pytest.approx(0.60322, abs=5e-5)


def test_wilson_edges() -> None:
    # no wins: the lower end is 0 and the upper z^2 / (n + z^2) = 3.8415 / 13.8415
    low, high = wilson_interval(0, 10)
    assert low == 0.0
    assert high == pytest.approx(3.8415 / 13.8415, abs=1e-4)
    # all wins mirror it
    low, high = wilson_interval(10, 10)
    assert high == 1.0
    assert low == pytest.approx(1 - 3.8415 / 13.8415, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_wilson_narrows_with_more_deals() -> None:
    small = wilson_interval(30, 100)
    large = wilson_interval(3000, 10000)
    assert small[1] - small[0] > large[1] - large[0]
    assert large[0] < 0.3 < large[1]


def test_summary_by_hand() -> None:
    (s,) = summarize(example())
    assert (s.rules, s.player, s.deals, s.wins) == ("classic", "clairvoyant", 10, 4)
    assert s.win_rate == 0.4
    # Wilson for 4 of 10: centre (0.4 + 0.19207) / 1.38415 = 0.42775,
    # half 1.41600 * sqrt(0.024 + 0.0096037) = 0.25957
    assert s.ci_low == pytest.approx(0.16818, abs=5e-5)
    assert s.ci_high == pytest.approx(0.68732, abs=5e-5)
    assert s.mean_score == pytest.approx(5.7)
    assert s.median_score == 2.0
    assert s.ratings == {"won": 4, "brilliant": 1, "excellent": 2, "good": 1, "none": 2}
    assert s.proven == 8
    assert s.proven_share == pytest.approx(0.8)
    assert (s.first_game, s.last_game) == (1, 10)
    assert s.mean_seconds == pytest.approx(5.0)  # 0.5 + mean(0..9) = 0.5 + 4.5
    assert s.max_seconds == pytest.approx(9.5)
    assert s.scores == {0: 4, 1: 1, 3: 1, 4: 1, 7: 1, 12: 1, 30: 1}


def test_groups_and_players_without_proof() -> None:
    rows = example() + [
        DealResult(game=g, rules="single-pass,redeals=1", player="greedy", score=g, proven=None,
                   moves=5, nodes=None, seconds=0.1)
        for g in range(1, 4)
    ] + [
        DealResult(game=g, rules="classic", player="greedy", score=2 * g, proven=None,
                   moves=5, nodes=None, seconds=0.1)
        for g in range(1, 5)
    ]
    summaries = summarize(rows)
    assert [(s.rules, s.player) for s in summaries] == [
        ("classic", "clairvoyant"), ("classic", "greedy"), ("single-pass,redeals=1", "greedy")
    ]
    greedy = summaries[1]
    assert greedy.wins == 0 and greedy.proven is None and greedy.proven_share is None
    assert greedy.mean_score == pytest.approx(5.0)  # 2 4 6 8
    assert greedy.median_score == 5.0


def test_json(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "sub" / "summary.json"
    write_summary_json(summarize(example()), path)
    data = json.loads(path.read_text())
    assert data["interval"] == "wilson" and data["confidence"] == 0.95
    (group,) = data["groups"]
    assert group["wins"] == 4 and group["deals"] == 10
    assert group["ratings"]["excellent"] == 2
    assert group["scores"]["30"] == 1
    assert math.isclose(group["win_rate_ci95"][0], 0.16818, abs_tol=5e-5)


def test_histogram_bins_cover_every_deal() -> None:
    (s,) = summarize(example())
    bins = histogram_bins(s.scores, max_bins=8)
    assert bins[0] == (0, 0, 4)
    assert sum(c for _lo, _hi, c in bins) == 10
    # consecutive, no gaps, the top score inside the last bin
    for (_a, hi, _c), (lo, _b, _d) in itertools.pairwise(bins):
        assert lo == hi + 1
    assert bins[-1][0] <= 30 <= bins[-1][1]
    assert len(bins) <= 8


def test_terminal_histogram_and_table() -> None:
    (s,) = summarize(example())
    text = terminal_histogram(s, width=20)
    lines = text.splitlines()
    assert "classic" in lines[0] and "10" in lines[0]
    zero = next(line for line in lines[1:] if line.lstrip().startswith("0 "))
    assert "█" * 20 in zero and "4 (40.0%)" in zero  # the tallest bar fills the width
    from rich.console import Console

    console = Console(width=80, record=True)
    for table in summary_tables([s]):
        console.print(table)
    out = console.export_text()
    assert "…" not in out  # nothing cut at 80 columns
    assert "40.0% (16.8-68.7)" in out
    assert "80.0%" in out  # proven share
    ratings = next(line for line in out.splitlines() if line.count("%") == 5)
    assert ratings.split()[-5:] == ["40.0%", "10.0%", "20.0%", "10.0%", "20.0%"]


def test_markdown_table() -> None:
    from devilsgrip.analysis.report import summary_markdown

    md = summary_markdown(summarize(example())).splitlines()
    assert len(md) == 3
    assert md[0].startswith("| rules | player | deals | won |")
    cells = [c.strip() for c in md[2].strip("|").split("|")]
    assert cells[:7] == ["`classic`", "clairvoyant", "10", "4", "40.0% (16.8-68.7)",
                         "5.70", "2"]
    assert cells[7:] == ["10.0%", "20.0%", "10.0%", "20.0%", "80.0%"]
