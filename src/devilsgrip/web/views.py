"""The JSON that screens draw from: a :class:`~devilsgrip.game.View` as a dict."""

from __future__ import annotations

from typing import Any

from devilsgrip.game import View


def view_dict(view: View) -> dict[str, Any]:
    """``view`` as JSON-ready data; it never contains the order of unseen stock cards."""
    return view.to_dict()
