"""``devilsgrip winnable``: the catalog of single-pass deals proven winnable; ``--build``
scans deals to rebuild it (stops and resumes)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from devilsgrip.cli_support import fail, file_path, seconds, shown, whole_number
from devilsgrip.commands import add_language_option
from devilsgrip.i18n import _
from devilsgrip.notation import format_moves

DEFAULT_SCAN = "winnable-scan.jsonl"
DEFAULT_CATALOG = "winnable-single-pass.txt"
DEFAULT_GAMES = "1-10000"


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "winnable",
        help=_("list the single-pass deals proven winnable, or rebuild that catalog"),
        description=_(
            "List the catalog of single-pass deals proven winnable that ships with "
            "devilsgrip, each with a line of moves that wins it. With --build, search a "
            "range of deals on one process, writing each outcome to the scan file as it "
            "comes (rerunning the same command resumes where it stopped), then write the "
            "catalog of the wins."
        ),
    )
    p.add_argument("--rules", default="single-pass", metavar="RULES",
                   help=_("rules preset (the catalog is for single-pass)"))
    add_language_option(p)
    p.add_argument("--json", action="store_true", help=_("print the catalog as JSON"))
    p.add_argument("--build", action="store_true",
                   help=_("search deals and write a new catalog (stops and resumes)"))
    p.add_argument("--games", metavar="RANGE", default=DEFAULT_GAMES,
                   help=_("with --build: game numbers, e.g. 1-10000 (default {games})").format(
                       games=DEFAULT_GAMES))
    p.add_argument("--scan", type=file_path("--scan"), default=Path(DEFAULT_SCAN),
                   metavar="FILE",
                   help=_("with --build: the scan file, one JSON line per deal (default "
                          "{name})").format(name=DEFAULT_SCAN))
    p.add_argument("--out", type=file_path("--out"), default=Path(DEFAULT_CATALOG),
                   metavar="FILE",
                   help=_("with --build: the catalog file to write (default {name})").format(
                       name=DEFAULT_CATALOG))
    p.add_argument("--win-seconds", type=seconds("--win-seconds"), default=1.5, metavar="S",
                   help=_("with --build: seconds of win search per deal (default 1.5)"))
    p.add_argument("--solve-seconds", type=seconds("--solve-seconds", zero_ok=True),
                   default=1.5, metavar="S",
                   help=_("with --build: seconds of optimizing search on a deal the win "
                          "search left open (default 1.5)"))
    p.add_argument("--wins", type=whole_number("--wins", 1, 10_000_000), metavar="N",
                   help=_("with --build: stop once the scan holds this many wins"))
    p.add_argument("--retry-unresolved", action="store_true",
                   help=_("with --build: search again the deals left unresolved"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from devilsgrip.catalog import CatalogError, has_catalog, winnable_deals
    from devilsgrip.rules import Rules

    rules = str(Rules.parse(args.rules))
    if not has_catalog(rules):
        fail(_("winnable deals are catalogued for single-pass only, not {rules}").format(
            rules=shown(rules)))
    if args.build:
        return _build(args)
    try:
        entries = winnable_deals(rules)
    except CatalogError:
        fail(_("the catalog of winnable deals cannot be read: reinstall devilsgrip"))
    if args.json:
        print(json.dumps([e.to_dict() for e in entries]))
        return 0
    print(_("{count} single-pass deals proven winnable (play one: devilsgrip play --game N "
            "--rules single-pass)").format(count=len(entries)))
    for entry in entries:
        print(f"{entry.game}: {format_moves(entry.line)}")
    return 0


def _build(args: argparse.Namespace) -> int:
    from devilsgrip.analysis import AnalysisError, parse_games
    from devilsgrip.analysis.catalog import WON, ScanRecord, scan, write_catalog

    try:
        games = parse_games(args.games)
    except AnalysisError:
        fail(_("bad game range '{games}': write e.g. 1-10000 or 1-5,9").format(
            games=shown(args.games)))

    def progress(record: ScanRecord, records: dict[int, ScanRecord]) -> None:
        won = sum(r.outcome == WON for r in records.values())
        print(_("game {number}: {outcome} in {seconds:.2f} s ({won} wins in {count} deals "
                "scanned)").format(number=record.game, outcome=record.outcome,
                                   seconds=record.seconds, won=won, count=len(records)),
              file=sys.stderr, flush=True)

    try:
        report = scan(games, args.scan, win_seconds=args.win_seconds,
                      solve_seconds=args.solve_seconds, retry_unknown=args.retry_unresolved,
                      stop_after_wins=args.wins, progress=progress)
    except KeyboardInterrupt:
        print(_("stopped: rerun the same command to resume"), file=sys.stderr)
        written = write_catalog(args.scan, args.out)
        print(_("{count} winnable deals written to {path}").format(count=written,
                                                                   path=args.out))
        return 130
    written = write_catalog(args.scan, args.out)
    print(_("{searched} deals searched: {won} won, {lost} lost, {unknown} unresolved").format(
        searched=report.searched, won=report.won, lost=report.lost, unknown=report.unknown))
    print(_("{count} winnable deals written to {path}").format(count=written, path=args.out))
    return 0
