"""Summaries for people: a table (rich) and score histograms drawn with text bars."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from devilsgrip.analysis.summary import RATINGS, GroupSummary
from devilsgrip.i18n import _

if TYPE_CHECKING:
    from rich.table import Table


def player_label(player: str) -> str:
    labels = {
        "clairvoyant": _("clairvoyant"),
        "honest": _("honest"),
        "greedy": _("greedy"),
    }
    return labels.get(player, player)


def rating_label(rating: str) -> str:
    labels = {
        "won": _("won"),
        "brilliant": _("brilliant"),
        "excellent": _("excellent"),
        "good": _("good"),
        "none": _("no rating"),
    }
    return labels.get(rating, rating)


def percent(x: float) -> str:
    """A share as a percentage: one decimal, two within 0.1% of 0 or 1 (never rounded to them).

    >>> percent(0.4), percent(0.00038), percent(0.0), percent(0.99962), percent(1.0)
    ('40.0%', '0.04%', '0.0%', '99.96%', '100.0%')
    """
    if 0 < x < 0.001 or 0.999 < x < 1:
        return f"{100 * x:.2f}%"
    return f"{100 * x:.1f}%"


def interval_text(s: GroupSummary) -> str:
    """``"40.0% (16.8-68.7)"``: the win rate and its 95% interval, in percent."""
    low, high = percent(s.ci_low)[:-1], percent(s.ci_high)[:-1]
    return _("{rate} ({low}-{high})").format(rate=percent(s.win_rate), low=low, high=high)


def summary_tables(summaries: Sequence[GroupSummary]) -> list[Table]:
    """Two rich tables that fit a terminal of 80 columns: the results, then the ratings."""
    from rich import box
    from rich.table import Table

    results = Table(title=_("Devil's Grip: results by rules and player"),
                    box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    results.add_column(_("rules"))
    results.add_column(_("player"))
    results.add_column(_("deals"), justify="right")
    results.add_column(_("won"), justify="right")
    results.add_column(_("win rate (95% CI)"), justify="right", no_wrap=True)
    results.add_column(_("mean"), justify="right")
    results.add_column(_("median"), justify="right")
    results.add_column(_("proven"), justify="right")
    ratings = Table(title=_("Ratings (share of deals)"),
                    box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    ratings.add_column(_("rules"))
    ratings.add_column(_("player"))
    for r in RATINGS:
        ratings.add_column(rating_label(r), justify="right")
    for s in summaries:
        results.add_row(
            s.rules,
            player_label(s.player),
            str(s.deals),
            str(s.wins),
            interval_text(s),
            f"{s.mean_score:.2f}",
            f"{s.median_score:g}",
            "-" if s.proven_share is None else percent(s.proven_share),
        )
        ratings.add_row(
            s.rules, player_label(s.player), *(percent(s.rating_share(r)) for r in RATINGS)
        )
    return [results, ratings]


def summary_markdown(summaries: Sequence[GroupSummary]) -> str:
    """The summary as a Markdown table (for documents such as docs/STATISTICS.md)."""
    head = [
        _("rules"), _("player"), _("deals"), _("won"), _("win rate (95% CI)"),
        _("mean score"), _("median"), *(rating_label(r) for r in RATINGS[1:]), _("proven"),
    ]
    right = [False, False] + [True] * (len(head) - 2)
    lines = [
        "| " + " | ".join(head) + " |",
        "|" + "|".join("---:" if r else "---" for r in right) + "|",
    ]
    for s in summaries:
        cells = [
            f"`{s.rules}`",
            player_label(s.player),
            str(s.deals),
            str(s.wins),
            interval_text(s),
            f"{s.mean_score:.2f}",
            f"{s.median_score:g}",
            *(percent(s.rating_share(r)) for r in RATINGS[1:]),
            "-" if s.proven_share is None else percent(s.proven_share),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def histogram_bins(scores: dict[int, int], max_bins: int = 24) -> list[tuple[int, int, int]]:
    """``(low, high, count)`` bins over the scores: 0 alone, then equal widths.

    >>> histogram_bins({0: 5, 1: 2, 3: 1})
    [(0, 0, 5), (1, 1, 2), (2, 2, 0), (3, 3, 1)]
    """
    if not scores:
        return []
    top = max(scores)
    bins = [(0, 0, scores.get(0, 0))]
    if top == 0:
        return bins
    width = max(1, math.ceil(top / max(1, max_bins - 1)))
    low = 1
    while low <= top:
        high = low + width - 1
        bins.append((low, high, sum(c for s, c in scores.items() if low <= s <= high)))
        low = high + 1
    return bins


def terminal_histogram(summary: GroupSummary, width: int = 50) -> str:
    """The score histogram of one group as lines of text bars."""
    bins = histogram_bins(summary.scores)
    most = max((c for _lo, _hi, c in bins), default=0)
    title = _("Scores: {rules}, {player} ({deals} deals)").format(
        rules=summary.rules, player=player_label(summary.player), deals=summary.deals
    )
    lines = [title]
    label_width = max((len(f"{lo}-{hi}") for lo, hi, _c in bins), default=1)
    for lo, hi, count in bins:
        label = str(lo) if lo == hi else f"{lo}-{hi}"
        cells = 0 if most == 0 else count * width / most
        bar = "█" * int(cells)
        if count and not bar:
            bar = "▏"
        share = count / summary.deals if summary.deals else 0.0
        lines.append(f"{label:>{label_width}} │{bar:<{width}} {count} ({percent(share)})")
    return "\n".join(lines)
