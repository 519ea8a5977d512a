"""What the ``devilsgrip`` command and its subcommands share.

The parser class whose errors are one line, :class:`UsageError`, the exit
statuses, :func:`fail` and :func:`say`, and the ``type=`` functions of the
options that take a number, a language, a file name or free text.  A number
option takes ASCII digits only (``"²"`` or ``"٣"`` are refused, though
:func:`int` takes the second), within bounds; a time limit is a finite number
of seconds (never ``nan`` or ``inf``); a file name or free text has no NUL
byte or lone surrogate.  Bad input stops the command with one line on
standard error in the player's language, exit status 2.

:mod:`devilsgrip.cli` and every module of :mod:`devilsgrip.commands` import
this module; it imports neither.
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import math
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Final, NoReturn

from devilsgrip.cards import parse_number, short_text
from devilsgrip.errors import DeckError
from devilsgrip.i18n import LANGUAGES, N_, _, normalize_language, translate_error
from devilsgrip.notation import parse_game_number

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_BAD_INPUT: Final = 2

MAX_SEED: Final = 2**63 - 1
MAX_ROW_ID: Final = 2**63 - 1
"""The largest id of a stored game (SQLite's largest row id)."""
MAX_JOBS: Final = 4096
"""Worker processes of ``analyze --jobs``, at most."""
MAX_NODES: Final = 10**15
"""A node budget (``--max-nodes``), at most: years of search."""
MAX_SHOWN: Final = 40
"""An option's value longer than this is shortened in a message."""


PROGRAM: Final = "devilsgrip"
"""The program's name, which starts its error lines."""


class UsageError(Exception):
    """Bad command-line input: one line on stderr, exit status 2.

    Not a :class:`ValueError`, so that raised from a ``type=`` function it
    passes through :mod:`argparse` with its own message.
    """


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one clear line (exit status 2), translated."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {argparse_message(message)}")


_ARGUMENT_RE: Final = re.compile(r"argument (?P<option>\S+): (?P<rest>.*)", re.DOTALL)
_ARGUMENT_MESSAGES: Final = (
    (re.compile(r"invalid choice: (?P<value>.*) \(choose from (?P<choices>.*)\)", re.DOTALL),
     N_("{option}: invalid choice {value} (choose from {choices})")),
    (re.compile(r"expected one argument"), N_("{option} needs a value")),
    (re.compile(r"expected at least one argument"), N_("{option} needs at least one value")),
    (re.compile(r"not allowed with argument (?P<other>.*)", re.DOTALL),
     N_("{option} cannot be given with {other}")),
    (re.compile(r"ignored explicit argument (?P<value>.*)", re.DOTALL),
     N_("{option} takes no value, not {value}")),
    (re.compile(r"invalid \S+ value: (?P<value>.*)", re.DOTALL), N_("{option}: bad value {value}")),
)
_PLAIN_MESSAGES: Final = (
    (re.compile(r"unrecognized arguments: (?P<args>.*)", re.DOTALL),
     N_("unknown arguments: {args}")),
    (re.compile(r"the following arguments are required: (?P<args>.*)", re.DOTALL),
     N_("missing arguments: {args}")),
    (re.compile(r"one of the arguments (?P<args>.*) is required", re.DOTALL),
     N_("give one of {args}")),
    (re.compile(r"ambiguous option: (?P<option>\S+) could match (?P<matches>.*)", re.DOTALL),
     N_("ambiguous option {option}: it could be {matches}")),
)


def argparse_message(message: str) -> str:
    """One of :mod:`argparse`'s error messages (English) in the player's language.

    >>> argparse_message("argument --format: expected one argument")
    '--format needs a value'
    """
    found = _ARGUMENT_RE.fullmatch(message)
    table = _ARGUMENT_MESSAGES if found else _PLAIN_MESSAGES
    rest = found.group("rest") if found else message
    for pattern, template in table:
        m = pattern.fullmatch(rest)
        if m is not None:
            values = m.groupdict()
            if found:
                values["option"] = found.group("option")
            return _(template).format(**values)
    return message


def fail(message: str) -> NoReturn:
    """Stop a subcommand with a one-line error about its input (exit status 2)."""
    raise UsageError(f"{PROGRAM}: {message}")


def one_line(text: str) -> str:
    """``text`` as one printable line: line breaks, other control characters and
    lone surrogates (from undecodable bytes) are written as escapes.

    >>> one_line("a\\nb\\x1b[2J\\udcff é")
    'a\\\\nb\\\\x1b[2J\\\\udcff é'
    """
    if text.isprintable():
        return text
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )


def say(message: str) -> None:
    """Print ``message`` on standard error as exactly one line."""
    print(one_line(message), file=sys.stderr)


def complain(message: str) -> None:
    """Print ``message`` (in the player's language) on standard error as the program's
    error line, ``devilsgrip: message``: the program's name, as every command line tool
    puts it, is the same in every language."""
    say(f"{PROGRAM}: {message}")


def shown(value: str) -> str:
    """``value`` for a message, shortened when it is long."""
    return short_text(value, MAX_SHOWN)


# ------------------------------------------------------------ option types
def game_number(text: str) -> int:
    """``type=`` of a game number: ASCII digits, 1 .. 2**63-1."""
    try:
        return parse_game_number(text)
    except DeckError as exc:
        fail(translate_error(exc))


def whole_number(option: str, low: int, high: int) -> Callable[[str], int]:
    """``type=`` of ``option``, a whole number from ``low`` to ``high`` in ASCII digits."""

    def parse(text: str) -> int:
        number = parse_number(text.strip(), high)
        if number is None or not low <= number <= high:
            fail(_("{option} takes a whole number from {low} to {high}, not '{value}'").format(
                option=option, low=low, high=high, value=shown(text)))
        return number

    parse.__name__ = "whole_number"
    return parse


_SECONDS_RE: Final = re.compile(r"[0-9]{1,9}(?:\.[0-9]{0,9})?|\.[0-9]{1,9}")


def seconds(option: str, *, zero_ok: bool = False) -> Callable[[str], float]:
    """``type=`` of ``option``, a number of seconds written ``10``, ``0.25`` or ``.5``:
    positive (or, with ``zero_ok``, also 0) and finite, never ``nan`` or ``inf``."""

    def parse(text: str) -> float:
        written = text.strip()
        value = float(written) if _SECONDS_RE.fullmatch(written) else math.nan
        if not (math.isfinite(value) and (value > 0 or (zero_ok and value == 0))):
            message = (
                _("{option} takes a number of seconds, 0 or more, not '{value}'") if zero_ok
                else _("{option} takes a positive number of seconds, not '{value}'")
            )
            fail(message.format(option=option, value=shown(text)))
        return value

    parse.__name__ = "seconds"
    return parse


def language(text: str) -> str:
    """``type=`` of ``--lang``: one of :data:`~devilsgrip.i18n.LANGUAGES` (its code)."""
    code = normalize_language(text)
    if code is None:
        fail(_("unknown language '{lang}' (choose from {languages})").format(
            lang=shown(text), languages=", ".join(LANGUAGES)))
    return code


def plain_text(option: str) -> Callable[[str], str]:
    """``type=`` of ``option``, free text that can be stored or looked up: printable,
    without control characters or undecodable bytes (which arrive as lone surrogates)."""

    def parse(text: str) -> str:
        if not text.isprintable():
            fail(_("{option} must be plain text, without control characters or "
                   "undecodable bytes").format(option=option))
        return text

    parse.__name__ = "plain_text"
    return parse


def owner_name(option: str) -> Callable[[str], str]:
    """``type=`` of ``option``, an owner of stored games: :func:`plain_text`, not empty."""
    check = plain_text(option)

    def parse(text: str) -> str:
        if not text.strip():
            fail(_("{option} needs a value").format(option=option))
        return check(text)

    parse.__name__ = "owner_name"
    return parse


def host_address(option: str) -> Callable[[str], str]:
    """``type=`` of ``option``, an address to listen on: an IP address (``127.0.0.1``,
    ``::1`` or ``[::1]``) or ``localhost``; a name, an empty text or a port is refused
    (an empty host would listen on every interface)."""

    def parse(text: str) -> str:
        value = text.strip()
        if value.lower() == "localhost":
            return "localhost"
        bare = value[1:-1] if value.startswith("[") and value.endswith("]") else value
        try:
            return str(ipaddress.ip_address(bare))
        except ValueError:
            fail(_("{option} takes an IP address (such as 127.0.0.1 or ::1) or localhost, "
                   "not '{value}'").format(option=option, value=shown(text)))

    parse.__name__ = "host_address"
    return parse


def file_name(option: str) -> Callable[[str], str]:
    """``type=`` of ``option``, a file name the system can take: no NUL byte, no lone
    surrogate that stands for no byte (either one makes :func:`open` raise
    :class:`ValueError`), not too long (where even :meth:`Path.exists` raises)."""

    def parse(text: str) -> str:
        try:
            if "\0" in text:
                raise ValueError(text)
            os.stat(text)
        except ValueError:  # UnicodeEncodeError included
            fail(_("{option}: '{value}' cannot be a file name").format(
                option=option, value=shown(text)))
        except OSError as exc:
            if exc.errno in (errno.ENAMETOOLONG, errno.ELOOP):
                fail(_("{option}: '{value}' cannot be a file name").format(
                    option=option, value=shown(text)))
        return text

    parse.__name__ = "file_name"
    return parse


def file_path(option: str) -> Callable[[str], Path]:
    """:func:`file_name` as a :class:`~pathlib.Path`."""
    check = file_name(option)

    def parse(text: str) -> Path:
        return Path(check(text))

    parse.__name__ = "file_path"
    return parse


seed_number: Final = whole_number("--seed", 0, MAX_SEED)
"""``type=`` of ``--seed``."""
