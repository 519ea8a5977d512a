"""The JSON that screens draw from: a :class:`~devilsgrip.game.View` as a dict."""

from __future__ import annotations

from typing import Any

from devilsgrip.cards import CARD_CODES
from devilsgrip.game import View


def view_dict(view: View) -> dict[str, Any]:
    """``view`` as JSON-ready data (card codes and move texts); it never contains the
    order of unseen stock cards."""
    return {
        "rules": view.rules.text,
        "grid": [[CARD_CODES[c] for c in pile] for pile in view.grid],
        "talon": [CARD_CODES[c] for c in view.talon],
        "stock": view.stock_count,
        "stock_order": (
            None if view.stock_order is None else [CARD_CODES[c] for c in view.stock_order]
        ),
        "unseen": [CARD_CODES[c] for c in view.unseen],
        "redeals_done": view.redeals_done,
        "redeals_left": view.redeals_left,
        "moves": view.moves_played,
        "score": view.score,
        "rating": view.rating.value,
        "over": view.over,
        "won": view.won,
        "given_up": view.given_up,
        "legal": [m.text() for m in view.legal],
    }
