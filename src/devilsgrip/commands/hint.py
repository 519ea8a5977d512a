"""``devilsgrip hint``: the best move in a position and why (honest: no peeking)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from devilsgrip import records
from devilsgrip.cli_support import fail, file_name, seconds, seed_number
from devilsgrip.commands import add_game_options, read_record
from devilsgrip.commands.solve import game_from_args
from devilsgrip.i18n import _


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "hint", help=_("suggest the next move and say why"),
        description=_("Suggest the best next move of a game record (a file, or - for "
                      "standard input), a position, or a deal with --moves, using only "
                      "what a player can see."),
    )
    p.add_argument("record", nargs="?", metavar="FILE", type=file_name("FILE"),
                   help=_("game record file, or -"))
    add_game_options(p)
    p.add_argument("--position", metavar="POSITION", help=_("a position string"))
    p.add_argument("--moves", metavar="MOVES",
                   help=_("moves to play first, separated by spaces or commas"))
    p.add_argument("--time-limit", type=seconds("--time-limit"), default=1.0, metavar="SECONDS",
                   help=_("thinking time in seconds (default 1)"))
    p.add_argument("--seed", type=seed_number, default=0, metavar="N",
                   help=_("seed of the sampled stock orders"))
    p.add_argument("--json", action="store_true", help=_("print the hint as JSON"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from devilsgrip.solver import hint

    if args.record is not None:
        if args.game is not None or args.deck is not None or args.position is not None:
            fail(_("give a record file, or --position, or --game/--deck with --moves"))
        text = read_record(args.record, "deal")
        game = records.read_record(text)
        if args.moves:
            game.play_all_text(args.moves)
    else:
        if args.game is None and args.deck is None and args.position is None:
            fail(_("give a record file, --position, or --game/--deck with --moves"))
        game = game_from_args(args)
    found = hint(game, time_limit=args.time_limit, seed=args.seed)
    if args.json:
        print(json.dumps(None if found is None else found.to_dict()))
        return 0
    if found is None:
        print(_("no move to suggest: the game is over"))
        return 0
    print(_("{move}: {reason}").format(move=found.move.text(), reason=found.text()))
    return 0
