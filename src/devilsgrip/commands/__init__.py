"""Subcommands of ``devilsgrip``: one module each, with ``register(subparsers)``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Final, Literal

from devilsgrip.cli_support import fail, file_path, game_number, language, whole_number
from devilsgrip.game import Game
from devilsgrip.i18n import _
from devilsgrip.machine import machine_megabytes


def add_language_option(parser: argparse.ArgumentParser) -> None:
    """``--lang``: an unknown language is refused (exit status 2)."""
    parser.add_argument("--lang", metavar="LANG", type=language,
                        help=_("language: en, fr, da, es or hu"))


MEMORY_MOST: Final = 1 << 20
"""``--memory`` at most, in MiB (a terabyte), where the machine's memory is not known."""


def memory_most() -> int:
    """The most ``--memory`` may ask, in MiB: the machine's memory where it can be read (a
    table that outgrew it would leave the machine swapping), else :data:`MEMORY_MOST`."""
    machine = machine_megabytes()
    return MEMORY_MOST if machine is None else max(16, min(MEMORY_MOST, machine))


def add_memory_option(parser: argparse.ArgumentParser) -> None:
    """``--memory MiB``: how much memory the search's table of positions may take (its
    entries: :func:`devilsgrip.solver.search.entries_within`), at most the machine's
    (:func:`memory_most`); None keeps the core's default."""
    parser.add_argument(
        "--memory", type=whole_number("--memory", 16, memory_most()), metavar="MIB",
        help=_("memory for the search's table of the positions it has settled, in MiB "
               "(default: 192 with the compiled core, and 1536 for 30 s or more where the "
               "machine has room); a hard position settles sooner with more"))


def add_game_options(
    parser: argparse.ArgumentParser, *, deal: bool = True, number: bool = False
) -> None:
    """``--rules``, ``--lang`` and ``--db`` (and ``--game``/``--deck`` with ``deal``; with
    ``number`` too, the game number may be given bare, as ``devilsgrip deal`` takes it:
    :func:`settle_deal_number` makes it ``--game``)."""
    if number:
        parser.add_argument("deal_number", nargs="?", type=game_number, metavar="N",
                            help=_("game number (the same as --game N)"))
    parser.add_argument(
        "--rules", default="classic", metavar="RULES",
        help=_("rules preset and options, e.g. classic, single-pass, literal,move_unit=run"),
    )
    add_language_option(parser)
    parser.add_argument(
        "--db", metavar="PATH", type=file_path("--db"),
        help=_("database file (default: $DEVILSGRIP_DB or the user data directory)"),
    )
    if deal:
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--game", type=game_number, metavar="N", help=_("game number"))
        group.add_argument("--deck", metavar="DECK", help=_("deck string: 96 card codes"))


def settle_deal_number(args: argparse.Namespace) -> None:
    """A bare game number (``devilsgrip autoplay 189``) made the ``--game`` it stands for;
    given with ``--game`` or ``--deck`` as well, it is refused in words."""
    number = getattr(args, "deal_number", None)
    if number is None:
        return
    if args.game is not None or args.deck is not None:
        fail(_("give the game number once: N, --game N or --deck, not several"))
    args.game = number


def make_game(number: int | None, deck: str | None, rules: str) -> Game:
    """The game the options name (a random numbered deal when neither is given)."""
    from devilsgrip.table.actions import deal_game

    return deal_game(number, deck, rules)


def db_path(args: argparse.Namespace) -> Path | None:
    value = getattr(args, "db", None)
    if value is not None:
        return Path(value)
    env = os.environ.get("DEVILSGRIP_DB")
    return Path(env) if env else None


NumberMeans = Literal["deal", "stored"]
"""What a bare number names in a command: a deal (``--game``) or a stored game (``--game-id``)."""


def read_text(path: str, number: NumberMeans | None = None) -> str:
    """A file's text, or standard input for ``-``; unreadable: one line, exit status 2.

    ``number``: what a number names in this command (a deal, ``--game``, or a stored
    game, ``--game-id``); a missing file whose name is a number is answered with that
    option, as ``devilsgrip hint 5`` most likely meant it.
    """
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        text.encode("utf-8")  # standard input may carry undecodable bytes as surrogates
    except UnicodeError:
        fail(_("cannot read {path}: it is not UTF-8 text").format(path=path))
    except OSError as exc:
        if isinstance(exc, FileNotFoundError) and number is not None and path.isascii() \
                and path.isdigit():
            fail((_("there is no file {path}: for deal {path}, write --game {path}")
                  if number == "deal" else
                  _("there is no file {path}: for the stored game {path}, write --game-id {path}"))
                 .format(path=path))
        fail(_("cannot read {path}: {reason}").format(path=path, reason=exc.strerror or exc))
    if "\0" in text:
        fail(_("cannot read {path}: it is a binary file, not text").format(path=path))
    return text


def read_record(path: str, number: NumberMeans | None = None) -> str:
    """A game record's text from a file or standard input (``-``); one that holds nothing
    but blank lines is refused in words (its reader would ask for a tag it never saw).
    ``number``: as :func:`read_text`'s."""
    text = read_text(path, number)
    if not text.strip():
        fail(no_record_message(path))
    return text


def no_record_message(path: str) -> str:
    """The words for a file, or standard input, that holds no game record."""
    if path == "-":
        return _("no game record on standard input")
    return _("no game record in {path}").format(path=path)
