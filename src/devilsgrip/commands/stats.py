"""``devilsgrip stats``: the player's statistics, as a table and a score histogram."""

from __future__ import annotations

import argparse
import json
from typing import Any

from devilsgrip.cli_support import complain, owner_name
from devilsgrip.commands import add_game_options, db_path
from devilsgrip.i18n import _, rating_label
from devilsgrip.rules import Rules
from devilsgrip.table import clock_text
from devilsgrip.table.stored import Stats, Store, StoreError, open_store, store_error_text

EXIT_STORE = 2

# histogram buckets for the bar chart: (low, high) inclusive
BUCKETS: tuple[tuple[int, int], ...] = (
    (0, 0), (1, 2), (3, 5), (6, 10), (11, 15), (16, 20), (21, 30), (31, 40), (41, 50),
    (51, 60), (61, 72),
)


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "stats", help=_("show your statistics"),
        description=_("Show statistics of finished games (over, won or given up): "
                      "a table and a bar chart of the scores.  Without --rules, all rules "
                      "together and then each rules text played."),
    )
    add_game_options(p, deal=False)
    p.set_defaults(rules=None)
    p.add_argument("--owner", metavar="OWNER", type=owner_name("--owner"),
                   help=_("only games of this owner (default: every owner)"))
    p.add_argument("--json", action="store_true", help=_("print the statistics as JSON"))
    p.set_defaults(func=run)


def open_or_report(args: argparse.Namespace, *, create: bool = False) -> Store | None:
    """The store, or None after printing the one-line reason on standard error."""
    try:
        return open_store(db_path(args), create=create)
    except StoreError as exc:
        complain(store_error_text(exc))
        return None


def bucket_counts(histogram: dict[int, int]) -> list[tuple[str, int]]:
    """The histogram grouped into :data:`BUCKETS`, labelled ``"3-5"`` (or ``"0"``)."""
    rows: list[tuple[str, int]] = []
    for low, high in BUCKETS:
        n = sum(c for s, c in histogram.items() if low <= s <= high)
        rows.append((str(low) if low == high else f"{low}-{high}", n))
    return rows


def run(args: argparse.Namespace) -> int:
    rules = None if args.rules is None else str(Rules.parse(args.rules))
    store = open_or_report(args)
    if store is None:
        return EXIT_STORE
    sections: list[tuple[str | None, Stats]]
    try:
        with store:
            if rules is not None:
                stats = store.stats(rules, args.owner)
                sections = [(rules, stats)]
                data: dict[str, Any] = stats.to_dict()
            else:
                overall = store.stats(None, args.owner)
                by_rules = {r: store.stats(r, args.owner) for r in store.rules_played(args.owner)}
                sections = [(None, overall)] if len(by_rules) != 1 else []
                sections.extend(by_rules.items())
                data = {"all": overall.to_dict(),
                        "by_rules": {r: s.to_dict() for r, s in by_rules.items()}}
    except StoreError as exc:
        complain(store_error_text(exc))
        return EXIT_STORE
    if args.json:
        print(json.dumps(data, indent=2, sort_keys=False))
        return 0
    show(sections)
    return 0


def show(sections: list[tuple[str | None, Stats]]) -> None:
    from rich.console import Console

    console = Console(highlight=False)
    for i, (rules, stats) in enumerate(sections):
        if i:
            console.print()
        console.print(_table(rules, stats))
        if stats.played:
            console.print(_chart(stats))


def _table(rules: str | None, stats: Stats) -> Any:
    from rich.table import Table

    title = (_("All rules") if rules is None
             else _("Rules: {rules}").format(rules=rules))
    table = Table(title=title, show_header=False, title_justify="left")
    table.add_column(_("statistic"))
    table.add_column(_("value"), justify="right")

    def dash(value: object) -> str:
        return "-" if value is None else str(value)

    table.add_row(_("games played"), str(stats.played))
    table.add_row(_("games won"), str(stats.won))
    table.add_row(_("win rate"), _("{percent}%").format(percent=f"{stats.win_rate * 100:.1f}"))
    table.add_row(_("given up"), str(stats.given_up))
    table.add_row(_("best score"), dash(stats.best_score))
    table.add_row(_("average score"),
                  dash(None if stats.average_score is None else f"{stats.average_score:.1f}"))
    for key in ("brilliant", "excellent", "good"):
        table.add_row(rating_label(key), str(stats.ratings.get(key, 0)))
    table.add_row(_("current winning streak"), str(stats.current_streak))
    table.add_row(_("longest winning streak"), str(stats.longest_streak))
    table.add_row(_("fastest win"),
                  dash(None if stats.fastest_win is None else clock_text(stats.fastest_win)))
    table.add_row(_("time played"), clock_text(stats.time_played))
    table.add_row(_("hints used"), str(stats.hints))
    table.add_row(_("unfinished games"), str(stats.unfinished))
    table.add_row(_("game numbers played"), str(len(stats.best_by_number)))
    return table


def _chart(stats: Stats, width: int = 40) -> Any:
    from rich.table import Table

    rows = bucket_counts(stats.histogram)
    top = max((n for _label, n in rows), default=0)
    table = Table(title=_("Scores"), title_justify="left", box=None)
    table.add_column(_("score"), justify="right")
    table.add_column(_("games"), justify="right")
    table.add_column("")
    for label, n in rows:
        length = round(n / top * width) if top else 0
        bar = "█" * length if length or not n else "▏"
        table.add_row(label, str(n), f"[green]{bar}[/green]")
    return table
