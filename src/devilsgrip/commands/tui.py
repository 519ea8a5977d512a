"""``devilsgrip tui``: play in the terminal (Textual)."""

from __future__ import annotations

import argparse
from typing import Any

from devilsgrip.cli_support import fail
from devilsgrip.commands import add_game_options, db_path
from devilsgrip.i18n import _, set_language
from devilsgrip.rules import Rules


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "tui",
        help=_("play in the terminal"),
        description=_("Play Devil's Grip in the terminal: keys, mouse, hints, saved games."),
    )
    add_game_options(p, number=True)
    p.add_argument("--daily", action="store_true",
                   help=_("play today's daily deal (with --rules: of those rules)"))
    # without --rules, the rules chosen for new games in the terminal (p), else classic
    p.set_defaults(func=run, rules=None)


def run(args: argparse.Namespace) -> int:
    if args.lang:
        set_language(args.lang)
    rules = None if args.rules is None else str(Rules.parse(args.rules))
    from devilsgrip.game import Game
    from devilsgrip.table.stored import open_for_play

    # a bad game number or deck is refused here, before the screen opens
    if args.daily and (args.game is not None or args.deck is not None):
        fail(_("give --daily, or a game number or deck, not several"))
    if args.game is not None:
        Game(args.game)
    elif args.deck is not None:
        Game(deck=args.deck)
    store, problem = open_for_play(db_path(args))
    from datetime import date

    from devilsgrip.tui.app import DevilsGripApp

    app = DevilsGripApp(store, number=args.game, deck=args.deck, rules=rules, lang=args.lang,
                        store_error=problem, daily=date.today() if args.daily else None)
    try:
        app.run()
    finally:
        app.close_session()
        if store is not None:
            store.close()
    return 0
