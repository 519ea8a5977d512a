"""``devilsgrip replay``: play a game record or a list of moves."""

from __future__ import annotations

import argparse
import json
from typing import Any

from devilsgrip import codes, records
from devilsgrip.cli_support import complain, fail, file_name
from devilsgrip.commands import add_game_options, read_record
from devilsgrip.errors import IllegalMoveError, MoveError, RecordError
from devilsgrip.game import Game, split_move_text
from devilsgrip.i18n import _, translate_error
from devilsgrip.textview import render_game, status_text


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "replay", help=_("replay a game record or moves"),
        description=_("Replay a game record (a file or - for standard input), or a game "
                      "number or deck with --moves, and show where it ends."),
    )
    p.add_argument("record", nargs="?", metavar="FILE", type=file_name("FILE"),
                   help=_("game record file, or -"))
    add_game_options(p)
    p.add_argument("--moves", metavar="MOVES", help=_("moves separated by spaces or commas"))
    p.add_argument("--json", action="store_true", help=_("print the result as JSON"))
    p.set_defaults(func=run)


def _illegal(number: int, text: str, reason: str) -> int:
    complain(_("move {number} '{move}' is illegal: {reason}").format(
        number=number, move=text, reason=reason))
    return 1


def run(args: argparse.Namespace) -> int:
    if args.record is not None:
        if args.game is not None or args.deck is not None or args.moves is not None:
            fail(_("give a record file, or --game/--deck with --moves, not both"))
        text = read_record(args.record, "deal")
        try:
            game = records.read_record(text)
        except RecordError as exc:
            if exc.code == codes.RECORD_ILLEGAL_MOVE:
                return _illegal(exc.params["number"], exc.params["move"], translate_error(exc))
            raise
    else:
        if args.game is None and args.deck is None:
            fail(_("give a record file, or --game N or --deck with --moves"))
        game = Game(args.game, rules=args.rules) if args.deck is None else Game(
            deck=args.deck, rules=args.rules)
        for number, token in enumerate(split_move_text(args.moves or ""), start=1):
            try:
                game.play_text(token)
            except (MoveError, IllegalMoveError) as exc:
                return _illegal(number, token, translate_error(exc))
    if args.json:
        print(json.dumps({
            "score": game.score,
            "over": game.is_over(),
            "won": game.is_won(),
            "grid_cards": game.grid_cards(),
            "stock": len(game.stock),
            "talon": len(game.talon),
            "moves": game.moves_played,
        }))
    else:
        print(render_game(game))
        print(status_text(game))
    return 0
