"""Summaries of many deals: win rate with its 95% interval, scores, ratings.

One :class:`GroupSummary` per rules and player.  The win rate's interval is
Wilson's score interval, which behaves well near 0 and 1 (where most
Devil's Grip win rates live) and never leaves ``[0, 1]``.
"""

from __future__ import annotations

import json
import math
import os
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from devilsgrip.analysis.results import DealResult
from devilsgrip.game import Rating

Z95: Final = 1.959963984540054
"""The normal quantile for a two-sided 95% interval."""

RATINGS: Final = tuple(r.value for r in Rating)
"""Rating names in order, best first: won, brilliant, excellent, good, none."""

SUMMARY_FORMAT: Final = 1


def wilson_interval(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion of ``wins`` out of ``n``.

    >>> low, high = wilson_interval(3, 10)
    >>> round(low, 4), round(high, 4)
    (0.1078, 0.6032)
    """
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= wins <= n:
        raise ValueError(f"wins must lie in 0 .. {n}, not {wins}")
    p = wins / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # at the ends the exact bounds are 0 and 1; rounding would leave 1e-17 or 0.9999..
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == n else min(1.0, centre + half)
    return (low, high)


@dataclass(frozen=True)
class GroupSummary:
    """The figures for one rules and player."""

    rules: str
    player: str
    deals: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    mean_score: float
    median_score: float
    ratings: dict[str, int]
    proven: int | None
    proven_share: float | None
    first_game: int
    last_game: int
    mean_seconds: float
    max_seconds: float
    scores: dict[int, int] = field(default_factory=dict)
    """How many deals ended on each score."""

    def rating_share(self, rating: str) -> float:
        return self.ratings.get(rating, 0) / self.deals if self.deals else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "player": self.player,
            "deals": self.deals,
            "first_game": self.first_game,
            "last_game": self.last_game,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_ci95": [self.ci_low, self.ci_high],
            "mean_score": self.mean_score,
            "median_score": self.median_score,
            "ratings": {r: self.ratings.get(r, 0) for r in RATINGS},
            "proven": self.proven,
            "proven_share": self.proven_share,
            "mean_seconds": self.mean_seconds,
            "max_seconds": self.max_seconds,
            "scores": {str(s): c for s, c in sorted(self.scores.items())},
        }


def summarize_group(results: Iterable[DealResult]) -> GroupSummary:
    """The summary of results that share one rules and player."""
    rows = list(results)
    if not rows:
        raise ValueError("no results to summarise")
    keys = {(r.rules, r.player) for r in rows}
    if len(keys) != 1:
        raise ValueError(f"results of several rules or players: {sorted(keys)}")
    rules, player = keys.pop()
    n = len(rows)
    scores = [r.score for r in rows]
    wins = sum(1 for s in scores if s == 0)
    low, high = wilson_interval(wins, n)
    ratings = Counter(Rating.of(s).value for s in scores)
    proven_flags = [r.proven for r in rows if r.proven is not None]
    proven = sum(1 for p in proven_flags if p) if proven_flags else None
    seconds = [r.seconds for r in rows]
    return GroupSummary(
        rules=rules,
        player=player,
        deals=n,
        wins=wins,
        win_rate=wins / n,
        ci_low=low,
        ci_high=high,
        mean_score=statistics.fmean(scores),
        median_score=float(statistics.median(scores)),
        ratings={r: ratings.get(r, 0) for r in RATINGS},
        proven=proven,
        proven_share=None if proven is None else proven / len(proven_flags),
        first_game=min(r.game for r in rows),
        last_game=max(r.game for r in rows),
        mean_seconds=statistics.fmean(seconds),
        max_seconds=max(seconds),
        scores=dict(sorted(Counter(scores).items())),
    )


_PLAYER_ORDER: Final = {"clairvoyant": 0, "honest": 1, "greedy": 2}


def _rules_order(rules: str) -> tuple[int, str]:
    presets = ("classic", "single-pass", "literal")
    return (presets.index(rules) if rules in presets else len(presets), rules)


def summarize(results: Iterable[DealResult]) -> list[GroupSummary]:
    """One summary per rules and player, presets in their usual order, then players."""
    groups: dict[tuple[str, str], list[DealResult]] = defaultdict(list)
    for r in results:
        groups[(r.rules, r.player)].append(r)
    order = sorted(
        groups, key=lambda k: (_rules_order(k[0]), _PLAYER_ORDER.get(k[1], 9), k[1])
    )
    return [summarize_group(groups[k]) for k in order]


def summary_to_json(summaries: Iterable[GroupSummary]) -> dict[str, Any]:
    return {
        "format": SUMMARY_FORMAT,
        "confidence": 0.95,
        "interval": "wilson",
        "groups": [s.to_dict() for s in summaries],
    }


def write_summary_json(summaries: Iterable[GroupSummary], path: str | os.PathLike[str]) -> None:
    p = Path(path)
    if p.parent and not p.parent.exists():
        p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(summary_to_json(summaries), indent=2) + "\n", encoding="utf-8")
