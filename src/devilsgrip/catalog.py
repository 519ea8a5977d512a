"""The catalog of ``single-pass`` deals proven winnable, shipped with the package.

Each entry is a deal number and a line of moves that wins it (leaves no card
out); a line replayed to a won game is the proof. The file,
``devilsgrip/data/winnable-single-pass.txt``, holds one deal a line: the number,
then the moves in the project's notation, separated by spaces (``#`` starts a
comment). It is rebuilt by ``devilsgrip winnable --build`` (see
:mod:`devilsgrip.analysis.catalog`); how and with what result:
[the winnable catalog][winnable-catalog] (docs/solver.md).

>>> entries = winnable_deals("single-pass")
>>> len(entries) >= 1 and entries == tuple(sorted(entries))
True
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Final, NamedTuple

from devilsgrip import codes
from devilsgrip.errors import DevilsGripError
from devilsgrip.game import Move
from devilsgrip.notation import format_moves, parse_game_number, parse_moves
from devilsgrip.rules import Rules

CATALOG_RULES: Final = "single-pass"
"""The preset the catalog is for: the only one where most deals cannot be won."""
CATALOG_FILE: Final = "winnable-single-pass.txt"


class CatalogError(DevilsGripError):
    """No catalog for these rules, or a catalog file that cannot be read."""


class WinnableDeal(NamedTuple):
    """A deal proven winnable: its number and a line of moves that wins it."""

    game: int
    line: tuple[Move, ...]

    def to_dict(self) -> dict[str, object]:
        return {"game": self.game, "line": [m.text() for m in self.line]}


def has_catalog(rules: str | Rules) -> bool:
    """Whether winnable deals are catalogued for ``rules`` (the ``single-pass`` preset)."""
    return str(Rules.parse(str(rules))) == CATALOG_RULES


def parse_catalog(text: str) -> tuple[WinnableDeal, ...]:
    """The entries of a catalog's text, sorted by deal number; raises :class:`CatalogError`."""
    entries: dict[int, WinnableDeal] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        head, _, rest = line.partition(" ")
        try:
            game = parse_game_number(head)
            moves = tuple(parse_moves(rest))
        except DevilsGripError as exc:
            raise CatalogError(codes.CATALOG_BAD, f"catalog line {number}: {exc}",
                               line=number) from exc
        if not moves or game in entries:
            raise CatalogError(codes.CATALOG_BAD, f"catalog line {number}: no moves or a repeated "
                               f"deal", line=number)
        entries[game] = WinnableDeal(game, moves)
    return tuple(entries[g] for g in sorted(entries))


def format_catalog(entries: list[WinnableDeal] | tuple[WinnableDeal, ...],
                   header: str = "") -> str:
    """The catalog file's text for ``entries`` (what :func:`parse_catalog` reads back)."""
    lines = [f"# {h}" for h in header.splitlines()]
    lines += [f"{e.game} {format_moves(e.line)}" for e in sorted(entries)]
    return "\n".join(lines) + "\n"


@functools.cache
def _shipped() -> tuple[WinnableDeal, ...]:
    text = resources.files("devilsgrip").joinpath("data", CATALOG_FILE).read_text("utf-8")
    return parse_catalog(text)


def winnable_deals(rules: str | Rules = CATALOG_RULES) -> tuple[WinnableDeal, ...]:
    """The shipped catalog for ``rules``; raises :class:`CatalogError` for other rules."""
    if not has_catalog(rules):
        raise CatalogError(codes.CATALOG_RULES, f"winnable deals are catalogued for "
                           f"{CATALOG_RULES} only, not {rules}", rules=str(rules))
    return _shipped()


def winnable_line(game: int, rules: str | Rules = CATALOG_RULES) -> tuple[Move, ...] | None:
    """The catalogued winning line of deal ``game``, or None when it is not catalogued."""
    if not has_catalog(rules):
        return None
    for entry in _shipped():
        if entry.game == game:
            return entry.line
    return None
