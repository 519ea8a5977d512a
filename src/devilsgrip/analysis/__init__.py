"""Analysis at scale: many deals solved or played, summarised and plotted.

>>> from devilsgrip.analysis import parse_games, wilson_interval
>>> parse_games("1-3,7")
[1, 2, 3, 7]
>>> [round(x, 3) for x in wilson_interval(0, 10)]
[0.0, 0.278]

The heavy parts (the solver, matplotlib, dask) are imported only when used.
"""

from __future__ import annotations

from devilsgrip.analysis.results import (
    PLAYERS,
    AnalysisError,
    DealResult,
    open_results,
    sort_results,
)
from devilsgrip.analysis.runner import RunReport, format_games, parse_games, run_analysis
from devilsgrip.analysis.summary import (
    GroupSummary,
    summarize,
    summary_to_json,
    wilson_interval,
    write_summary_json,
)
from devilsgrip.analysis.work import Task, analyze_deal, run_task

__all__ = [
    "PLAYERS",
    "AnalysisError",
    "DealResult",
    "GroupSummary",
    "RunReport",
    "Task",
    "analyze_deal",
    "format_games",
    "open_results",
    "parse_games",
    "run_analysis",
    "run_task",
    "sort_results",
    "summarize",
    "summary_to_json",
    "wilson_interval",
    "write_summary_json",
]
