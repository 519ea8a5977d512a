"""``devilsgrip solve``: the best possible score of a deal or position (clairvoyant)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from devilsgrip.cli_support import fail, seconds
from devilsgrip.commands import add_game_options, add_memory_option, make_game
from devilsgrip.game import Game
from devilsgrip.i18n import _
from devilsgrip.notation import format_moves


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "solve", help=_("find the best possible score of a deal (knowing the stock)"),
        description=_("Find the best possible final score of a deal or position, knowing "
                      "the order of the stock, and a line of moves that reaches it."),
    )
    add_game_options(p, number=True)
    p.add_argument("--position", metavar="POSITION", help=_("a position string"))
    p.add_argument("--moves", metavar="MOVES",
                   help=_("moves to play first, separated by spaces or commas"))
    p.add_argument("--time-limit", type=seconds("--time-limit"), default=10.0, metavar="SECONDS",
                   help=_("stop searching after this many seconds (default 10)"))
    add_memory_option(p)
    p.add_argument("--json", action="store_true", help=_("print the result as JSON"))
    p.set_defaults(func=run)


def game_from_args(args: argparse.Namespace) -> Game:
    """The game that ``--position`` / ``--game`` / ``--deck`` (then ``--moves``) name."""
    position = getattr(args, "position", None)
    if position is not None:
        if args.game is not None or args.deck is not None:
            fail(_("give --position, or --game or --deck, not several"))
        game = Game.from_position(position)
    else:
        game = make_game(args.game, args.deck, args.rules)
    moves = getattr(args, "moves", None)
    if moves:
        game.play_all_text(moves)
    return game


def run(args: argparse.Namespace) -> int:
    from devilsgrip.solver.portfolio import solve
    from devilsgrip.solver.search import entries_within
    from devilsgrip.table import search_room

    game = game_from_args(args)
    with search_room(args.time_limit, args.memory) as room:
        result = solve(game, time_limit=args.time_limit, tt_entries=entries_within(room))
    if args.json:
        print(json.dumps(result.to_dict()))
        return 0
    if game.number is not None and not game.moves_played:
        print(_("game {number}, rules {rules}").format(number=game.number, rules=game.rules))
    else:
        print(_("rules {rules}").format(rules=game.rules))
    if result.proven:
        print(_("best score: {score} (proven optimal)").format(score=result.score))
    else:
        print(_("best {score}, at least {bound} (not proven: the time limit stopped the "
                "search)").format(score=result.score, bound=result.bound))
    print(_("moves: {moves}").format(moves=format_moves(result.moves) or "-"))
    print(_("{nodes} positions searched in {seconds:.2f} s").format(
        nodes=result.nodes, seconds=result.seconds))
    return 0
