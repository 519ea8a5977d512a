"""The browser game: a Starlette server and a static page.

``create_app(ServerOptions(...))`` builds the app; ``serve(options)`` runs it
until Ctrl-C; ``ServerThread(options).start()`` runs it in the background.
They live in :mod:`devilsgrip.web.server` (imported on first use, so that
importing the card images does not import the server).
"""

from __future__ import annotations

from typing import Any

__all__ = ["ServerOptions", "ServerThread", "create_app", "serve"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from devilsgrip.web import server

        return getattr(server, name)
    raise AttributeError(f"module 'devilsgrip.web' has no attribute {name!r}")
