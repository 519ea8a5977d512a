"""``devilsgrip deal``: show a numbered deal or a deck."""

from __future__ import annotations

import argparse
import json
from typing import Any

from devilsgrip.cards import format_deck
from devilsgrip.cli_support import fail, game_number
from devilsgrip.commands import add_game_options
from devilsgrip.game import Game
from devilsgrip.i18n import _
from devilsgrip.rules import Rules
from devilsgrip.textview import render_game


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "deal", help=_("show a deal"), description=_("Show the deal of a game number or deck.")
    )
    p.add_argument("number", nargs="?", type=game_number, metavar="N", help=_("game number"))
    add_game_options(p, deal=False)
    p.add_argument("--deck", metavar="DECK", help=_("deck string: 96 card codes"))
    p.add_argument(
        "--format", choices=("grid", "deck", "position", "json"), default="grid",
        help=_("output format (default: grid)"),
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    Rules.parse(args.rules)  # bad rules are named first, whatever else is wrong
    if args.number is None and args.deck is None:
        fail(_("give a game number or --deck"))
    if args.number is not None and args.deck is not None:
        fail(_("give a game number or --deck, not both"))
    game = Game(args.number, rules=args.rules) if args.deck is None else Game(
        deck=args.deck, rules=args.rules
    )
    if args.format == "deck":
        print(format_deck(game.deck or ()))
    elif args.format == "position":
        print(game.position())
    elif args.format == "json":
        print(json.dumps({
            "game": game.number,
            "rules": str(game.rules),
            "deck": format_deck(game.deck or ()),
            "position": game.position(),
        }))
    else:
        title = (_("Game {number}").format(number=game.number) if game.number is not None
                 else _("Deal from a deck"))
        print(title + f"  ({game.rules})")
        print(render_game(game))
    return 0
