"""Rules options and presets (RULES.md, "Presets").

Rules are named by text: a preset, optionally followed by overrides,
separated by commas: ``classic``, ``classic,draw=1``,
``single-pass,redeals=2``, ``literal,move_unit=run``,
``literal,redeals=unlimited``.

>>> Rules.parse("single-pass,redeals=2") == Rules.parse("classic,redeals=2")
True
>>> str(Rules.parse("literal,move_unit=run,fill_from_talon=true,redeals=unlimited"))
'classic'
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Final, Literal

from devilsgrip import codes
from devilsgrip.cards import DECK_SIZE, MAX_COUNT, parse_number, short_text
from devilsgrip.errors import RulesError

MoveUnit = Literal["run", "card"]
"""What one grid build moves: ``"run"`` (a card and all above it) or ``"card"``."""

OPTION_NAMES: Final = ("draw", "redeals", "move_unit", "fill_from_talon")
"""The options a rules text may set, in the order they are written."""


_PRESET_OPTIONS: Final[dict[str, tuple[int, int | None, MoveUnit, bool]]] = {
    "classic": (3, None, "run", True),
    "single-pass": (3, 0, "run", True),
    "literal": (3, 0, "card", False),
}
"""The presets' options, in the order of :data:`OPTION_NAMES` (:data:`PRESETS` are made of
them)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The options in force.  ``redeals=None`` means unlimited."""

    draw: int = 3
    redeals: int | None = None
    move_unit: MoveUnit = "run"
    fill_from_talon: bool = True
    text: str = field(default="", init=False, compare=False, hash=False, repr=False)
    """The canonical text (what ``str`` gives), written once when the rules are made."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", self._canonical_text())

    @classmethod
    def parse(cls, text: str | Rules) -> Rules:
        """Rules from their text form; raises :class:`RulesError`."""
        if isinstance(text, Rules):
            return text
        parts = [p.strip() for p in str(text).strip().lower().split(",")]
        if not parts or not parts[0]:
            raise RulesError(codes.RULES_EMPTY, "no rules given: name a preset such as 'classic'")
        head = parts[0]
        if "=" in head:
            rules = PRESETS["classic"]
            overrides = parts
        else:
            if head not in PRESETS:
                raise RulesError(
                    codes.RULES_UNKNOWN_PRESET,
                    f"unknown rules preset '{head}' (choose from {', '.join(PRESETS)})",
                    preset=head,
                    presets=", ".join(PRESETS),
                )
            rules = PRESETS[head]
            overrides = parts[1:]
        for item in overrides:
            rules = rules._override(item)
        return rules

    def _override(self, item: str) -> Rules:
        name, eq, value = item.partition("=")
        name, value = name.strip().replace("-", "_"), value.strip()
        shown = short_text(value)
        if not eq or not name:
            raise RulesError(
                codes.RULES_BAD_OPTION, f"bad rules option '{item}': write name=value", option=item
            )
        if name == "draw":
            draw = parse_number(value, DECK_SIZE)
            if draw is None or not 1 <= draw <= DECK_SIZE:
                raise RulesError(
                    codes.RULES_BAD_VALUE,
                    f"bad value '{shown}' for draw: a whole number from 1 to {DECK_SIZE}",
                    option=name,
                    value=shown,
                )
            return replace(self, draw=draw)
        if name == "redeals":
            if value in ("unlimited", "inf", "infinite", "none"):
                return replace(self, redeals=None)
            redeals = parse_number(value, MAX_COUNT)
            if redeals is None or redeals > MAX_COUNT:
                raise RulesError(
                    codes.RULES_BAD_VALUE,
                    f"bad value '{shown}' for redeals: a whole number from 0 to {MAX_COUNT} "
                    "or 'unlimited'",
                    option=name,
                    value=shown,
                    max=MAX_COUNT,
                )
            return replace(self, redeals=redeals)
        if name == "move_unit":
            if value not in ("run", "card"):
                raise RulesError(
                    codes.RULES_BAD_VALUE,
                    f"bad value '{shown}' for move_unit: 'run' or 'card'",
                    option=name,
                    value=shown,
                )
            return replace(self, move_unit="run" if value == "run" else "card")
        if name == "fill_from_talon":
            if value in ("true", "yes", "1", "on"):
                return replace(self, fill_from_talon=True)
            if value in ("false", "no", "0", "off"):
                return replace(self, fill_from_talon=False)
            raise RulesError(
                codes.RULES_BAD_VALUE,
                f"bad value '{shown}' for fill_from_talon: 'true' or 'false'",
                option=name,
                value=shown,
            )
        raise RulesError(
            codes.RULES_UNKNOWN_OPTION,
            f"unknown rules option '{name}' (choose from {', '.join(OPTION_NAMES)})",
            option=name,
            options=", ".join(OPTION_NAMES),
        )

    @property
    def preset(self) -> str | None:
        """The preset these rules are exactly, or None."""
        for name, rules in PRESETS.items():
            if rules == self:
                return name
        return None

    @property
    def unlimited_redeals(self) -> bool:
        return self.redeals is None

    def option_text(self, name: str) -> str:
        """The value of option ``name`` as a rules text writes it (``"unlimited"``)."""
        value = getattr(self, name)
        if name == "redeals" and value is None:
            return "unlimited"
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    def __str__(self) -> str:
        return self.text

    def _canonical_text(self) -> str:
        """Canonical text: the preset that needs fewest overrides, then the overrides."""
        best: tuple[int, str] | None = None
        for name, options in _PRESET_OPTIONS.items():
            diffs = [n for n, v in zip(OPTION_NAMES, options, strict=True)
                     if v != getattr(self, n)]
            text = ",".join([name, *(f"{n}={self.option_text(n)}" for n in diffs)])
            if best is None or len(diffs) < best[0]:
                best = (len(diffs), text)
        assert best is not None
        return best[1]

    def __repr__(self) -> str:
        return f"Rules.parse({str(self)!r})"


PRESETS: Final[dict[str, Rules]] = {
    name: Rules(*options) for name, options in _PRESET_OPTIONS.items()
}
"""The named rules: ``classic``, ``single-pass`` and ``literal``."""

CLASSIC: Final = PRESETS["classic"]
"""The default rules."""
