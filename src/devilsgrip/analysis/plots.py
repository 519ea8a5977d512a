"""Plots of a summary with matplotlib (Agg, no display): PNG and SVG.

* ``score-histogram``: the share of deals on each score, one panel per rules
  and player;
* ``win-rate``: the win rate of every player under every preset, with its
  95% Wilson interval.

matplotlib is imported only here, and only when a plot is drawn.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from devilsgrip.analysis.report import histogram_bins, player_label
from devilsgrip.analysis.summary import GroupSummary
from devilsgrip.i18n import _

FORMATS: Final = ("png", "svg")
_COLOURS: Final = {"clairvoyant": "#1b6ca8", "honest": "#3c9d4e", "greedy": "#d0782a"}


def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _save(fig: Any, directory: Path, name: str) -> list[Path]:
    paths = []
    for fmt in FORMATS:
        path = directory / f"{name}.{fmt}"
        # no dates or random ids in the files: the same data draws the same bytes
        metadata: dict[str, Any] = {"Date": None} if fmt == "svg" else {"Software": None}
        import matplotlib

        with matplotlib.rc_context({"svg.hashsalt": "devilsgrip"}):
            fig.savefig(path, format=fmt, metadata=metadata)
        paths.append(path)
    return paths


def plot_score_histograms(summaries: Sequence[GroupSummary], directory: Path) -> list[Path]:
    from matplotlib.ticker import MaxNLocator

    rules_list = list(dict.fromkeys(s.rules for s in summaries))
    players = list(dict.fromkeys(s.player for s in summaries))
    fig = _figure(3.6 * len(players) + 0.6, 2.7 * len(rules_list) + 0.6)
    axes = fig.subplots(len(rules_list), len(players), squeeze=False)
    by_key = {(s.rules, s.player): s for s in summaries}
    for i, rules in enumerate(rules_list):
        for j, player in enumerate(players):
            ax = axes[i][j]
            s = by_key.get((rules, player))
            if s is None:
                ax.set_axis_off()
                continue
            bins = histogram_bins(s.scores, max_bins=40)
            centres = [(lo + hi) / 2 for lo, hi, _c in bins]
            widths = [0.9 * (hi - lo + 1) for lo, hi, _c in bins]
            heights = [100 * c / s.deals for _lo, _hi, c in bins]
            ax.bar(centres, heights, width=widths, align="center",
                   color=_COLOURS.get(player, "#777777"))
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_title(_("{rules}, {player} ({deals} deals)").format(
                rules=rules, player=player_label(player), deals=s.deals), fontsize=9)
            ax.set_xlabel(_("score (cards left)"), fontsize=8)
            ax.set_ylabel(_("deals (%)"), fontsize=8)
            ax.tick_params(labelsize=7)
            # room to see that nothing lies right of a lone bar at 0
            ax.set_xlim(-0.6, max(10, bins[-1][1]) + 0.6)
    fig.suptitle(_("Score distribution"))
    return _save(fig, directory, "score-histogram")


def plot_win_rates(summaries: Sequence[GroupSummary], directory: Path) -> list[Path]:
    rules_list = list(dict.fromkeys(s.rules for s in summaries))
    players = list(dict.fromkeys(s.player for s in summaries))
    fig = _figure(max(4.0, 1.8 * len(rules_list) + 2.0), 3.6)
    ax = fig.subplots()
    step = 0.8 / max(1, len(players))
    for j, player in enumerate(players):
        xs, ys, lows, highs = [], [], [], []
        for i, rules in enumerate(rules_list):
            s = next((g for g in summaries if g.rules == rules and g.player == player), None)
            if s is None:
                continue
            xs.append(i - 0.4 + step * (j + 0.5))
            ys.append(100 * s.win_rate)
            lows.append(100 * (s.win_rate - s.ci_low))
            highs.append(100 * (s.ci_high - s.win_rate))
        ax.errorbar(xs, ys, yerr=[lows, highs], fmt="o", capsize=4,
                    color=_COLOURS.get(player, "#777777"), label=player_label(player))
    ax.set_xticks(range(len(rules_list)), rules_list)
    ax.set_xlim(-0.6, len(rules_list) - 0.4)
    top = max((100 * s.ci_high for s in summaries), default=100.0)
    ax.set_ylim(-2, min(102.0, top * 1.1 + 1))  # markers at 0% and 100% stay visible
    ax.set_ylabel(_("win rate (%), 95% interval"))
    ax.set_title(_("Win rate by rules and player"))
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    return _save(fig, directory, "win-rate")


def write_plots(summaries: Sequence[GroupSummary], directory: str | os.PathLike[str]) -> list[Path]:
    """Draw both plots into ``directory`` (created if needed); the files written."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    if not summaries:
        return []
    return plot_score_histograms(summaries, out) + plot_win_rates(summaries, out)
