"""``devilsgrip play`` (and plain ``devilsgrip``): the game in the browser."""

from __future__ import annotations

import argparse
import ipaddress
import sys
from typing import Any

from devilsgrip.cli_support import fail, host_address, whole_number
from devilsgrip.commands import add_game_options, db_path
from devilsgrip.i18n import _
from devilsgrip.rules import Rules


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "play",
        help=_("play in the browser (the default)"),
        description=_("Start the game's local server and open it in the browser."),
    )
    add_game_options(p, number=True)
    p.add_argument("--port", type=whole_number("--port", 0, 65535), default=0, metavar="PORT",
                   help=_("port to listen on (default: a free port)"))
    p.add_argument("--host", default="127.0.0.1", metavar="HOST", type=host_address("--host"),
                   help=_("address to listen on (default: 127.0.0.1, this computer only)"))
    p.add_argument("--no-browser", action="store_true",
                   help=_("do not open the browser, only print the address"))
    p.add_argument("--browsers-apart", action="store_true",
                   help=_("each browser keeps its own games, on this computer too (by default "
                          "every browser on this computer plays as its player, with the "
                          "terminal game)"))
    p.set_defaults(func=run)


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def run(args: argparse.Namespace) -> int:
    from devilsgrip.game import Game
    from devilsgrip.web.server import ServerOptions, serve

    rules = str(Rules.parse(args.rules))
    if args.game is not None or args.deck is not None:
        Game(args.game, deck=args.deck, rules=rules)  # a bad deal fails here, clearly
    if not is_loopback(args.host):
        print(_("warning: listening on {host}: other computers on the network can reach "
                "this server").format(host=args.host), file=sys.stderr)
    options = ServerOptions(
        host=args.host, port=args.port, db=db_path(args), lang=args.lang, rules=rules,
        game=args.game, deck=args.deck, browsers_apart=args.browsers_apart,
    )
    try:
        return serve(options, open_browser=not args.no_browser, announce=_announce)
    except OSError as exc:
        fail(_("cannot listen on {host}:{port}: {reason}").format(
            host=args.host, port=args.port, reason=exc.strerror or str(exc)))


def _announce(url: str) -> None:
    print(_("Devil's Grip is at {url}  (Ctrl-C stops it)").format(url=url), flush=True)
