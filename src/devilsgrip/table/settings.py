"""The player's settings as the store keeps them, and the presets as a settings form shows them."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any, Final

from devilsgrip import i18n
from devilsgrip.errors import DevilsGripError
from devilsgrip.rules import PRESETS, Rules
from devilsgrip.table.words import Words, preset_label


def presets_doc(words: Words) -> dict[str, dict[str, Any]]:
    """Every preset with its label and options (for a settings form)."""
    return {
        name: {"label": preset_label(name, words),
               "options": {n: rules.option_text(n) for n in
                           ("draw", "redeals", "move_unit", "fill_from_talon")}}
        for name, rules in PRESETS.items()
    }


def rules_parts(rules: Rules | str) -> dict[str, Any]:
    """The preset a rules text starts from and every option's value (for a settings form)."""
    parsed = Rules.parse(rules)
    head = str(parsed).partition(",")[0]
    return {"preset": head,
            "options": {n: parsed.option_text(n) for n in
                        ("draw", "redeals", "move_unit", "fill_from_talon")}}


ANIMATIONS: Final = ("off", "fast", "normal", "slow")


GUIDE_SEEN: Final = "guide_seen"
"""The switch set once the player has put the first-game guide away (every screen reads it:
the guide is never shown again, on any screen, once it is on)."""

SOUNDS: Final = "sounds"
"""The switch for the sounds of cards and of a win (on unless the player turns it off)."""

WINNABLE: Final = "winnable"
"""The switch by which a random single-pass deal is drawn from the winnable deals only."""

SWITCHES: Final = ("four_colour", SOUNDS, GUIDE_SEEN, WINNABLE)
"""The settings that are on or off (kept as ``"1"``/``"0"``)."""

DEFAULT_SETTINGS: Final[Mapping[str, Any]] = {"four_colour": False, "animation": "normal",
                                              SOUNDS: True, GUIDE_SEEN: False, WINNABLE: False}


SETTING_KEYS: Final = ("lang", "four_colour", "animation", "rules", SOUNDS, GUIDE_SEEN, WINNABLE)


def encode_setting(value: Any) -> str:
    """A setting's value as the store keeps it (``"1"``/``"0"`` for a switch)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def decode_settings(saved: Mapping[str, str]) -> dict[str, Any]:
    """The settings a player saved, read back (unknown or bad values are left out)."""
    settings: dict[str, Any] = dict(DEFAULT_SETTINGS)
    for switch in SWITCHES:
        if saved.get(switch) in ("0", "1"):
            settings[switch] = saved[switch] == "1"
    if saved.get("animation") in ANIMATIONS:
        settings["animation"] = saved["animation"]
    lang = i18n.normalize_language(saved.get("lang"))
    if lang:
        settings["lang"] = lang
    rules = saved.get("rules")
    if rules:
        with contextlib.suppress(DevilsGripError):
            settings["rules"] = str(Rules.parse(rules))
    return settings
