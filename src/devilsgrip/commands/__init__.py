"""Subcommands of ``devilsgrip``: one module each, with ``register(subparsers)``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from devilsgrip.cli_support import fail, file_path, game_number, language
from devilsgrip.game import Game
from devilsgrip.i18n import _


def add_language_option(parser: argparse.ArgumentParser) -> None:
    """``--lang``: an unknown language is refused (exit status 2)."""
    parser.add_argument("--lang", metavar="LANG", type=language,
                        help=_("language: en, fr, da, es or hu"))


def add_game_options(parser: argparse.ArgumentParser, *, deal: bool = True) -> None:
    """``--rules``, ``--lang`` and ``--db`` (and ``--game``/``--deck`` with ``deal``)."""
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


def make_game(number: int | None, deck: str | None, rules: str) -> Game:
    """The game the options name (a random numbered deal when neither is given)."""
    if deck is not None:
        return Game(deck=deck, rules=rules)
    if number is None:
        from devilsgrip.session import random_deal_number

        number = random_deal_number()
    return Game(number, rules=rules)


def db_path(args: argparse.Namespace) -> Path | None:
    value = getattr(args, "db", None)
    if value is not None:
        return Path(value)
    env = os.environ.get("DEVILSGRIP_DB")
    return Path(env) if env else None


def read_text(path: str) -> str:
    """A file's text, or standard input for ``-``; unreadable: one line, exit status 2."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        text.encode("utf-8")  # standard input may carry undecodable bytes as surrogates
    except UnicodeError:
        fail(_("cannot read {path}: it is not UTF-8 text").format(path=path))
    except OSError as exc:
        fail(_("cannot read {path}: {reason}").format(path=path, reason=exc.strerror or exc))
    if "\0" in text:
        fail(_("cannot read {path}: it is a binary file, not text").format(path=path))
    return text
