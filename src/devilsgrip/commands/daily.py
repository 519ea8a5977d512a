"""``devilsgrip daily``: the daily deal of a day, with the player's result and streaks when
there is a database."""

from __future__ import annotations

import argparse
import json
from datetime import date
from typing import Any

from devilsgrip import codes
from devilsgrip.cli_support import complain, fail, file_path, shown
from devilsgrip.commands import add_language_option, db_path
from devilsgrip.i18n import _, ngettext


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "daily",
        help=_("the daily deal: one deal a day for each preset, the same for everyone"),
        description=_(
            "Print the daily deal of a day (today by default) for a rules preset: the same "
            "deal for every player, worked out from the date alone (no network, no "
            "database). The single-pass daily deal is always one that can be won. With a "
            "database, the player's result for the day and the daily streaks are added."
        ),
    )
    p.add_argument("--date", metavar="YYYY-MM-DD",
                   help=_("the day (default: today)"))
    p.add_argument("--rules", default="classic", metavar="RULES",
                   help=_("rules preset and options, e.g. classic, single-pass, literal"))
    add_language_option(p)
    p.add_argument("--db", metavar="PATH", type=file_path("--db"),
                   help=_("database file for the player's results (default: $DEVILSGRIP_DB "
                          "or the user data directory, when it exists)"))
    p.add_argument("--json", action="store_true", help=_("print the daily deal as JSON"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from devilsgrip.daily import DailyError, parse_day
    from devilsgrip.rules import Rules
    from devilsgrip.table.daily import daily_calendar
    from devilsgrip.table.stored import StoreError, open_existing, store_error_text
    from devilsgrip.table.words import Words, rules_label

    try:
        day = parse_day(args.date) if args.date is not None else date.today()
    except DailyError as exc:
        if exc.code == codes.DAILY_DATE_RANGE:
            fail(_("there is no daily deal on {date}: the days run from 2000-01-01 to "
                   "2999-12-31").format(date=exc.params["date"]))
        fail(_("bad date '{date}': write it YYYY-MM-DD, e.g. 2026-12-05").format(
            date=shown(args.date)))
    rules = str(Rules.parse(args.rules))
    store = None
    try:
        store = open_existing(db_path(args))
    except StoreError as exc:
        complain(store_error_text(exc))
    try:
        cal = daily_calendar(store, "local", rules, day)
    except StoreError as exc:
        complain(store_error_text(exc))
        cal = daily_calendar(None, "local", rules, day)
    finally:
        if store is not None:
            store.close()
    words = Words(args.lang)
    if args.json:
        out: dict[str, Any] = {"date": day.isoformat(), "rules": rules, "game": cal.today.game}
        if store is not None:
            full = cal.to_dict(words)
            out |= {"result": full["result"], "streak": full["streak"],
                    "played": full["played"]}
        print(json.dumps(out))
        return 0
    print(_("Daily deal of {date}, {rules}: game {number}").format(
        date=day.isoformat(), rules=rules_label(rules, words), number=cal.today.game))
    if day == date.today():
        print(_("Play it in the terminal: devilsgrip tui --daily --rules {rules}").format(
            rules=rules))
    else:
        print(_("Play its deal: devilsgrip tui --game {number} --rules {rules}").format(
            number=cal.today.game, rules=rules))
    if store is not None:
        result = cal.today.result
        if result is None:
            print(_("Your result: not played yet"))
        else:
            print(_("Your result: score {score}, {status}").format(
                score=result.score, status=cal.today.to_dict(words)["result"]["status_label"]))
        print(ngettext("Daily streak: {n} day", "Daily streak: {n} days",
                       cal.streaks.current).format(n=cal.streaks.current)
              + " " + ngettext("(best: {n} day)", "(best: {n} days)",
                               cal.streaks.best).format(n=cal.streaks.best))
    return 0
