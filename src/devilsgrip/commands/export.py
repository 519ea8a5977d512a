"""``devilsgrip export``: write stored games as game records (the engine's format)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from devilsgrip.cli_support import (
    MAX_ROW_ID,
    complain,
    fail,
    file_name,
    owner_name,
    whole_number,
)
from devilsgrip.commands import add_game_options
from devilsgrip.commands.stats import EXIT_STORE, open_or_report
from devilsgrip.i18n import _, ngettext
from devilsgrip.rules import Rules
from devilsgrip.table.stored import StoreError, store_error_text


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "export", help=_("export games as records"),
        description=_("Write one stored game or all of them as game records, separated by "
                      "blank lines, to a file or standard output."),
    )
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--game-id", type=whole_number("--game-id", 1, MAX_ROW_ID), metavar="ID",
                       help=_("the stored game's id"))
    which.add_argument("--all", action="store_true", help=_("every stored game"))
    p.add_argument("--out", metavar="FILE", type=file_name("--out"),
                   help=_("output file (default: standard output)"))
    p.add_argument("--owner", metavar="OWNER", type=owner_name("--owner"),
                   help=_("with --all: only games of this owner"))
    add_game_options(p, deal=False)
    p.set_defaults(rules=None, func=run)


def run(args: argparse.Namespace) -> int:
    rules = None if args.rules is None else str(Rules.parse(args.rules))
    store = open_or_report(args)
    if store is None:
        return EXIT_STORE
    try:
        with store:
            if args.game_id is not None:
                if store.game_info(args.game_id) is None:
                    store.close()
                    fail(_("there is no game {game_id} in the database {path}").format(
                        game_id=args.game_id, path=store.path))
                records = [store.record(args.game_id)]
            else:
                ids = [g.id for g in store.games(owner=args.owner, rules=rules)]
                records = [store.record(i) for i in ids]
    except StoreError as exc:
        complain(store_error_text(exc))
        return EXIT_STORE
    text = "\n".join(records)
    if args.out is None or args.out == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as exc:
            fail(_("cannot write {path}: {reason}").format(path=args.out,
                                                           reason=exc.strerror or exc))
        print(ngettext("{n} game exported to {path}", "{n} games exported to {path}",
                       len(records)).format(n=len(records), path=args.out), file=sys.stderr)
    return 0
