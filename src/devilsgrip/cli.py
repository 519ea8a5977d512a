"""The ``devilsgrip`` command: one entry point, one subcommand per job.

Subcommands live in :mod:`devilsgrip.commands`, one module each with a
``register(subparsers)`` function; they are found at start-up.  With no
subcommand, ``devilsgrip`` runs ``play``.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from typing import NoReturn

from devilsgrip import commands
from devilsgrip.errors import DevilsGripError
from devilsgrip.i18n import _, set_language

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2


class UsageError(Exception):
    """Bad command-line input: one line on stderr, exit status 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one clear line (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


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

    return f"devilsgrip {__version__}"


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
        func = getattr(args, "func", None)
        if func is None:
            parser.print_help()
            return EXIT_BAD_INPUT
        result: int = func(args)
        return result
    except UsageError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    except DevilsGripError as exc:
        from devilsgrip.i18n import translate_error

        print(f"devilsgrip: {translate_error(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


def fail(message: str) -> NoReturn:
    """Stop a subcommand with a one-line error about its input (exit status 2)."""
    raise UsageError(f"devilsgrip: {message}")
