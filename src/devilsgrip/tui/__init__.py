"""The terminal game (Textual): ``devilsgrip tui``.

:class:`~devilsgrip.tui.app.DevilsGripApp` holds the store and the session;
:class:`~devilsgrip.tui.game_screen.GameScreen` turns keys and clicks into
moves; the styles are in ``devilsgrip.tcss``.
"""

from __future__ import annotations

from devilsgrip.tui.app import DevilsGripApp

__all__ = ["DevilsGripApp"]
