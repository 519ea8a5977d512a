"""``devilsgrip analyze``: solve or play many deals, keep the results, summarise them."""

from __future__ import annotations

import argparse
import errno
import os
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from devilsgrip import codes
from devilsgrip.cards import MAX_COUNT
from devilsgrip.cli_support import (
    MAX_JOBS,
    MAX_NODES,
    fail,
    file_path,
    seconds,
    seed_number,
    whole_number,
)
from devilsgrip.commands import add_game_options
from devilsgrip.i18n import _, error_text, ngettext, translate_error

DEFAULT_OUT = "analysis.sqlite"
DEFAULT_TIME_LIMITS = {"clairvoyant": 10.0, "honest": 0.25}


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "analyze",
        help=_("solve or play many deals and summarise the results"),
        description=_(
            "Solve (clairvoyant) or play (honest, greedy) a range of numbered deals on all "
            "cores or a Dask cluster. Results are written as they come; rerunning the same "
            "command resumes an interrupted run."
        ),
    )
    p.add_argument("--games", metavar="RANGE",
                   help=_("game numbers, e.g. 1-10000 or 1-50,70"))
    add_game_options(p, deal=False)
    p.add_argument("--player", choices=("clairvoyant", "honest", "greedy"),
                   default="clairvoyant", help=_("who plays (default: clairvoyant)"))
    p.add_argument("--time-limit", type=seconds("--time-limit", zero_ok=True), metavar="S",
                   help=_("thinking time: clairvoyant, seconds per deal (default: 10, 0 for "
                          "none); honest, seconds per move (default: 0.25)"))
    p.add_argument("--max-nodes", type=whole_number("--max-nodes", 1, MAX_NODES), metavar="N",
                   help=_("node budget per deal for the solver: with --time-limit 0 the "
                          "results are the same on every machine"))
    p.add_argument("--seed", type=seed_number, default=0, metavar="N",
                   help=_("seed for the players' random choices (default: 0)"))
    p.add_argument("--jobs", type=whole_number("--jobs", 1, MAX_JOBS), metavar="N",
                   help=_("worker processes (default: all cores)"))
    p.add_argument("--chunk-size", type=whole_number("--chunk-size", 1, MAX_COUNT),
                   metavar="N",
                   help=_("deals sent to a worker at a time (default: automatic)"))
    p.add_argument("--retry-unproven", action="store_true",
                   help=_("solve again the deals whose result is not proven (e.g. with a "
                          "longer --time-limit)"))
    p.add_argument("--backend", choices=("local", "dask"), default="local",
                   help=_("where to run: local processes or a Dask cluster"))
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help=_("Dask scheduler address, e.g. tcp://10.0.0.5:8786"))
    p.add_argument("--out", type=file_path("--out"), nargs="+", default=[Path(DEFAULT_OUT)],
                   metavar="FILE",
                   help=_("results file: .sqlite (default {name}) or .parquet; with "
                          "--summary-only, several files may be summarised together").format(
                       name=DEFAULT_OUT))
    p.add_argument("--summary-only", action="store_true",
                   help=_("summarise the results file without running anything"))
    p.add_argument("--summary-json", type=file_path("--summary-json"), metavar="FILE",
                   help=_("write the summary as JSON"))
    p.add_argument("--summary-markdown", type=file_path("--summary-markdown"), metavar="FILE",
                   help=_("write the summary as a Markdown table"))
    p.add_argument("--plots", type=file_path("--plots"), metavar="DIR",
                   help=_("draw the plots (PNG and SVG) into this directory"))
    p.add_argument("--terminal-plot", action="store_true",
                   help=_("draw the score histograms in the terminal"))
    p.add_argument("--no-progress", action="store_true", help=_("no progress bar"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from devilsgrip.analysis import AnalysisError
    from devilsgrip.analysis.runner import parse_games

    for path, directory in ((args.summary_json, False), (args.summary_markdown, False),
                            (args.plots, True)):
        if path is not None:
            _check_output(path, directory=directory)

    if args.summary_only:
        for path in args.out:
            if not path.exists():
                fail(_("no results file at {path}").format(path=path))
        return _summarise(args)
    if len(args.out) != 1:
        fail(_("a run writes one results file: give one --out"))
    if not args.games:
        fail(_("give the deals to analyse with --games, e.g. --games 1-1000"))
    if args.time_limit is None:
        args.time_limit = DEFAULT_TIME_LIMITS.get(args.player, 0.0)
    if args.time_limit == 0 and args.max_nodes is None and args.player == "clairvoyant":
        fail(_("--time-limit 0 needs --max-nodes: the solver must stop somewhere"))
    if args.scheduler and args.backend != "dask":
        fail(error_text(codes.SCHEDULER_NEEDS_DASK, {}))
    try:
        games = parse_games(args.games)
    except AnalysisError as exc:
        fail(translate_error(exc))
    status = _run(args, games)
    if status == 0:
        return _summarise(args)
    return status


def _run(args: argparse.Namespace, games: list[int]) -> int:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    from devilsgrip.analysis import run_analysis
    from devilsgrip.rules import Rules

    class RateColumn(ProgressColumn):
        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            if speed is None:
                return Text(_("- deals/s"))
            return Text(_("{rate} deals/s").format(rate=f"{speed:.2f}"))

    console = Console(stderr=True)
    out: Path = args.out[0]
    rules = str(Rules.parse(args.rules))
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=args.no_progress or not console.is_terminal,
        transient=False,
    )
    task_id = progress.add_task(
        _("{player}, {rules}").format(player=args.player, rules=rules), total=None
    )

    def on_start(total: int, skipped: int) -> None:
        if skipped:
            console.print(ngettext(
                "{done} deal already in {path}: resuming.",
                "{done} deals already in {path}: resuming.", skipped,
            ).format(done=skipped, path=out))
        # the rate and time left count only the deals done in this run
        progress.update(task_id, total=total - skipped, completed=0)

    def on_results(batch: list[Any]) -> None:
        progress.advance(task_id, len(batch))

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    # SIGTERM (kill, a batch scheduler) stops as cleanly as Ctrl-C
    previous = signal.signal(signal.SIGTERM, stop)
    started = time.perf_counter()
    with progress:
        try:
            report = run_analysis(
                out, games, rules=rules, player=args.player,
                time_limit=args.time_limit or None, max_nodes=args.max_nodes, seed=args.seed,
                jobs=args.jobs, backend=args.backend, scheduler=args.scheduler,
                chunk_size=args.chunk_size, retry_unproven=args.retry_unproven,
                on_start=on_start, on_results=on_results,
            )
        finally:
            signal.signal(signal.SIGTERM, previous)
    if report.interrupted:
        console.print(_(
            "Stopped: {done} of {total} deals are in {path}, {left} left. "
            "Run the same command again to resume."
        ).format(done=report.total - report.remaining, total=report.total,
                 path=out, left=report.remaining))
        return 130
    console.print(ngettext(
        "{done} deal analysed in {seconds} s ({total} in {path}).",
        "{done} deals analysed in {seconds} s ({total} in {path}).", report.done,
    ).format(done=report.done, seconds=f"{time.perf_counter() - started:.1f}",
             total=report.total, path=out))
    return 0


def _check_output(path: Path, *, directory: bool) -> None:
    """Refuse before any work an output that can never be written: a file where a
    directory is wanted or the other way round, or a file where a folder of it should be."""
    problem = None
    try:
        if path.exists() and path.is_dir() != directory:
            problem = errno.ENOTDIR if directory else errno.EISDIR
        elif not next(p for p in path.absolute().parents if p.exists()).is_dir():
            problem = errno.ENOTDIR
    except OSError as exc:  # a loop of links, say
        problem = exc.errno or errno.EINVAL
    if problem is not None:
        fail(_("cannot write {path}: {reason}").format(path=path, reason=os.strerror(problem)))


@contextmanager
def _writing(path: Path) -> Iterator[None]:
    """A summary or plot that cannot be written: one line, exit status 2."""
    try:
        yield
    except OSError as exc:
        fail(_("cannot write {path}: {reason}").format(path=path, reason=exc.strerror or exc))


def _summarise(args: argparse.Namespace) -> int:
    from rich.console import Console

    from devilsgrip.analysis import open_results, summarize, write_summary_json
    from devilsgrip.analysis.report import summary_tables, terminal_histogram

    results = []
    for path in args.out:
        store = open_results(path, create=False)
        try:
            results.extend(store.read())
        finally:
            store.close()
    summaries = summarize(results)
    # the same layout on a terminal, in a file or a pipe
    console = Console() if sys.stdout.isatty() else Console(width=100)
    if not summaries:
        console.print(_("No results in {path} yet.").format(
            path=", ".join(str(p) for p in args.out)))
    else:
        for table in summary_tables(summaries):
            console.print(table)
    if args.terminal_plot:
        for s in summaries:
            print()
            print(terminal_histogram(s))
    if args.summary_json is not None:
        with _writing(args.summary_json):
            write_summary_json(summaries, args.summary_json)
        print(_("Summary written to {path}").format(path=args.summary_json), file=sys.stderr)
    if args.summary_markdown is not None:
        from devilsgrip.analysis.report import summary_markdown

        with _writing(args.summary_markdown):
            args.summary_markdown.parent.mkdir(parents=True, exist_ok=True)
            args.summary_markdown.write_text(summary_markdown(summaries), encoding="utf-8")
        print(_("Summary written to {path}").format(path=args.summary_markdown),
              file=sys.stderr)
    if args.plots is not None:
        from devilsgrip.analysis.plots import write_plots

        with _writing(args.plots):
            paths = write_plots(summaries, args.plots)
        for path in paths:
            print(_("Plot written to {path}").format(path=path), file=sys.stderr)
    return 0
