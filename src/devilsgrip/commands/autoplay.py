"""``devilsgrip autoplay``: let a computer player play a whole game."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from devilsgrip.cli_support import seconds, seed_number
from devilsgrip.commands import add_game_options, make_game
from devilsgrip.i18n import _
from devilsgrip.records import write_record


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "autoplay", help=_("let a computer player play a whole game"),
        description=_("Play a whole game with the honest, greedy or clairvoyant player "
                      "and print its record and score."),
    )
    add_game_options(p, number=True)
    p.add_argument("--player", choices=("honest", "greedy", "clairvoyant"), default="honest",
                   help=_("who plays: honest (sees what a person sees), greedy, or "
                          "clairvoyant (knows the stock)"))
    p.add_argument("--time-limit", type=seconds("--time-limit"), default=1.0, metavar="SECONDS",
                   help=_("thinking time per decision in seconds (default 1)"))
    p.add_argument("--seed", type=seed_number, default=0, metavar="N",
                   help=_("seed of the honest player's sampling"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from devilsgrip.solver import play_game

    game = make_game(args.game, args.deck, args.rules)
    game.tags["Player"] = args.player
    play_game(game, args.player, seed=args.seed, time_limit=args.time_limit)
    print(write_record(game), end="")
    # the score on standard error: standard output is the record alone, so that
    # `devilsgrip autoplay ... | devilsgrip review -` reads it as it stands
    print(_("score: {score}").format(score=game.score), file=sys.stderr)
    return 0
