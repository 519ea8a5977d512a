"""``devilsgrip rules``: print the rules for players in the chosen language."""

from __future__ import annotations

import argparse
from typing import Any

from devilsgrip.commands import add_language_option
from devilsgrip.i18n import _, current_language, markdown_to_plain, rules_text


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "rules", help=_("show the rules of the game"),
        description=_("Print the rules of Devil's Grip for players."),
    )
    add_language_option(p)
    p.add_argument(
        "--markdown", action="store_true", help=_("print the Markdown source instead of plain text")
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    text = rules_text(current_language())
    print(text if args.markdown else markdown_to_plain(text), end="")
    return 0
