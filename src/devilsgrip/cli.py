"""The ``devilsgrip`` command: one entry point, one subcommand per job.

Subcommands live in :mod:`devilsgrip.commands`, one module each with a
``register(subparsers)`` function; they are found at start-up.  With no
subcommand, ``devilsgrip`` runs ``play``.  What this module and the
subcommands share (the parser class, :class:`UsageError`, the exit statuses,
the option types) is in :mod:`devilsgrip.cli_support`, so that no subcommand
imports this module.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from devilsgrip import commands
from devilsgrip.cli_support import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_OK,
    Parser,
    UsageError,
    complain,
    fail,
    say,
)
from devilsgrip.errors import DevilsGripError
from devilsgrip.i18n import _, set_language

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_FAILED",
    "EXIT_OK",
    "Parser",
    "UsageError",
    "build_parser",
    "fail",
    "main",
]


def build_parser() -> Parser:
    parser = Parser(
        prog="devilsgrip",
        description=_("Devil's Grip solitaire: play, solve and study the game."),
    )
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def _command_names(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


def _version() -> str:
    from devilsgrip import __version__
    from devilsgrip.solver import core

    return f"devilsgrip {__version__} (search core: {core.name()})"


def _early_language(argv: Sequence[str]) -> None:
    lang = None
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            lang = argv[i + 1]
        elif arg.startswith("--lang="):
            lang = arg.split("=", 1)[1]
    try:
        set_language(lang)
    except ValueError:
        set_language(None)


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    _early_language(args_list)
    try:
        parser = build_parser()
        bare = not args_list or (
            args_list[0].startswith("-") and args_list[0] not in ("-h", "--help", "--version")
        )
        if bare and "play" in _command_names(parser):
            args_list = ["play", *args_list]
        args = parser.parse_args(args_list)
        lang = getattr(args, "lang", None)
        if lang is not None:  # checked by its type; also when abbreviated (--la fr)
            set_language(lang)
        commands.settle_deal_number(args)
        func = getattr(args, "func", None)
        if func is None:
            parser.print_help()
            return EXIT_BAD_INPUT
        result: int = func(args)
        return result
    except UsageError as exc:
        say(str(exc))
        return EXIT_BAD_INPUT
    except DevilsGripError as exc:
        from devilsgrip.i18n import translate_error

        complain(translate_error(exc))
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
