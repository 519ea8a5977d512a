"""The rules variants every cross-check runs under, with their options spelled out.

Each entry: the rules text, then (draw, redeals (None: unlimited), move_unit,
fill_from_talon) as RULES.md defines them, written here independently of the
engine's preset table.
"""

from __future__ import annotations

import pytest
from engine_ref import RefRules

VARIANTS: list[tuple[str, tuple[int, int | None, str, bool]]] = [
    ("classic", (3, None, "run", True)),
    ("single-pass", (3, 0, "run", True)),
    ("literal", (3, 0, "card", False)),
    ("classic,draw=1", (1, None, "run", True)),
    ("single-pass,redeals=2", (3, 2, "run", True)),
    ("literal,move_unit=run", (3, 0, "run", False)),
    ("literal,redeals=unlimited", (3, None, "card", False)),
    ("classic,fill_from_talon=false", (3, None, "run", False)),
    ("classic,move_unit=card", (3, None, "card", True)),
    ("literal,redeals=1,draw=2", (2, 1, "card", False)),
    ("single-pass,draw=1,move_unit=card", (1, 0, "card", True)),
    ("classic,redeals=1,fill_from_talon=false", (3, 1, "run", False)),
]

VARIANT_NAMES = [name for name, _ in VARIANTS]

PRESETS_QUICK = [pytest.param(text, options, id=text,
                              marks=pytest.mark.slow if "," in text else ())
                 for text, options in VARIANTS]
"""VARIANTS for the long cross-checks: the three presets run in ``make check``, the
option variants are marked slow and run in ``make test``."""


def ref_rules(options: tuple[int, int | None, str, bool]) -> RefRules:
    draw, redeals, unit, fill = options
    return RefRules(draw=draw, redeals=redeals, run=unit == "run", fill_from_talon=fill)
