"""``devilsgrip share``: the text to share about a finished game (no card of it named)."""

from __future__ import annotations

import argparse
from typing import Any

from devilsgrip.cli_support import MAX_ROW_ID, complain, fail, file_path, whole_number
from devilsgrip.commands import add_language_option
from devilsgrip.commands.stats import EXIT_STORE, open_or_report
from devilsgrip.i18n import _


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "share", help=_("print the text to share about a finished game"),
        description=_("Print a short text about a finished game to share: rules, deal "
                      "number or daily date, score, rating, moves, time and the best "
                      "possible score when it is known. It names no card."),
    )
    p.add_argument("--game-id", type=whole_number("--game-id", 1, MAX_ROW_ID), metavar="ID",
                   help=_("the stored game's id (default: the last game finished)"))
    add_language_option(p)
    p.add_argument("--db", metavar="PATH", type=file_path("--db"),
                   help=_("database file (default: $DEVILSGRIP_DB or the user data "
                          "directory)"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from devilsgrip.i18n import translate_error
    from devilsgrip.table.controller import Refusal
    from devilsgrip.table.stored import StoreError, last_finished, stored_table
    from devilsgrip.table.words import Words

    store = open_or_report(args)
    if store is None:
        return EXIT_STORE
    with store:
        try:
            if args.game_id is not None:
                info = store.game_info(args.game_id)
                if info is None:
                    fail(_("there is no game {game_id} in the database {path}").format(
                        game_id=args.game_id, path=store.path))
            else:
                found = last_finished(store)
                if found is None:
                    fail(_("no finished game to share yet"))
                info = found
            if not info.final:
                fail(_("game {game_id} is still being played: share it once it has "
                       "ended").format(game_id=info.id))
            controller = stored_table(store, info.id, Words(args.lang))
        except StoreError as exc:
            complain(translate_error(exc))
            return EXIT_STORE
        try:
            print(controller.share())
        except Refusal as refusal:
            fail(refusal.text)
    return 0
