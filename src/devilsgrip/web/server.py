"""The browser game's server: Starlette on uvicorn, JSON API plus the static page.

The API is the contract in ``docs/ARCHITECTURE.md`` ("The browser game's HTTP
API").  The server is made of one module per part, and this module gathers
what the rest of the project uses:

- :mod:`~devilsgrip.web.options`: :class:`ServerOptions` (``devilsgrip play``'s options);
- :mod:`~devilsgrip.web.security`: the host, site and origin checks, body size, headers;
- :mod:`~devilsgrip.web.assets`: the page, its files and the card images;
- :mod:`~devilsgrip.web.browsers`: each browser's session token, settings and game;
- :mod:`~devilsgrip.web.bodies`: request bodies, read strictly;
- :mod:`~devilsgrip.web.api`: the API as plain functions ("handle"), the review of a
  finished game and the history among them, and the state document;
- :mod:`~devilsgrip.web.reviews`: the reviews each browser has made or has in the making;
- :mod:`~devilsgrip.web.app`: :func:`create_app`, the routes and the middleware;
- :mod:`~devilsgrip.web.runner`: one uvicorn configuration, :func:`serve`, :class:`ServerThread`.

Every text a part of the server writes is in the language it is given (the
browser's, or the server's for a request without one); nothing switches the
process's language.

>>> app = create_app(ServerOptions(db=None, use_store=False, port=8000))
>>> sorted(app.state.web.allowed_hosts)[:2]
['127.0.0.1:8000', '[::1]:8000']
"""

from __future__ import annotations

from devilsgrip.web.app import create_app
from devilsgrip.web.assets import STATIC_DIR
from devilsgrip.web.bodies import MAX_BODY, MAX_DEPTH
from devilsgrip.web.browsers import (
    COOKIE_NAME,
    MAX_SESSIONS_IN_MEMORY,
    MAX_UNSAVED_SESSIONS,
    Browser,
    WebState,
)
from devilsgrip.web.options import ServerOptions
from devilsgrip.web.responses import WebError
from devilsgrip.web.runner import ServerThread, bind_socket, serve, url_of, uvicorn_config
from devilsgrip.web.security import CSP, SECURITY_HEADERS

__all__ = [
    "COOKIE_NAME", "CSP", "MAX_BODY", "MAX_DEPTH", "MAX_SESSIONS_IN_MEMORY",
    "MAX_UNSAVED_SESSIONS", "SECURITY_HEADERS", "STATIC_DIR", "Browser", "ServerOptions",
    "ServerThread", "WebError", "WebState", "bind_socket", "create_app", "serve", "url_of",
    "uvicorn_config",
]
