"""What keeps other sites and odd requests away from a player's game.

The Host header must be the server's own; an ``/api/`` request from another site
(``Sec-Fetch-Site``) is refused before any session is looked up; a state change
(every method but GET, HEAD and OPTIONS) needs the page's own ``Origin``; a
declared body larger than allowed is refused here, and the adapter reads every
body whole, within its size and time limits, before the game is touched
(:mod:`devilsgrip.web.app`); every answer, errors
included, carries the security headers, and a failure inside a handler is
answered (500) without closing the connection."""

from __future__ import annotations

import re
import sys
import traceback
from typing import Any, Final

from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from devilsgrip import codes, i18n, table
from devilsgrip.i18n import N_
from devilsgrip.table import Words as Tr
from devilsgrip.web.bodies import body_limit
from devilsgrip.web.browsers import WebState
from devilsgrip.web.http import error_response

CSP: Final = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS: Final[tuple[tuple[bytes, bytes], ...]] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
)


class SecurityMiddleware:
    """Host check, same-origin API, Origin check on state changes, body size, headers on
    every response, and no answer left unsent when a handler fails."""

    def __init__(self, app: ASGIApp, web: WebState) -> None:
        self.app = app
        self.web = web

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() not in _SECURITY_NAMES]
                headers.extend(SECURITY_HEADERS)
                message = {**message, "headers": headers}
            await send(message)

        started = False

        async def send_tracked(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send_with_headers(message)

        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            await refusal(scope, receive, send_with_headers)
            return
        try:
            await self.app(scope, receive, send_tracked)
        except Exception:  # a bug: the client gets a clean answer and the connection lives on
            traceback.print_exc(file=sys.stderr)
            if started:
                return
            lang = i18n.language_from_accept(headers.get("accept-language"),
                                             self.web.server_lang)
            answer = error_response(500, codes.SERVER_ERROR, table.sentence(Tr(lang).gettext(N_(
                "something went wrong in the server; nothing of your game was changed"))))
            await answer(scope, receive, send_with_headers)

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> Response | None:
        web = self.web
        host = headers.get("host", "").strip().lower()

        def refuse(status: int, code: str, template: str, **params: Any) -> Response:
            lang = i18n.language_from_accept(headers.get("accept-language"), web.server_lang)
            return error_response(status, code, table.sentence(Tr(lang).gettext(template).format(
                **params)))

        if host not in web.allowed_hosts:
            return refuse(400, codes.BAD_HOST, N_("this server does not answer to that host name"))
        path = str(scope.get("path", ""))
        fetch_site = headers.get("sec-fetch-site")
        if path.startswith("/api/") and fetch_site is not None and fetch_site.strip().lower() \
                not in ("same-origin", "none"):
            # another site (another port of this machine included) neither makes, replaces
            # nor reads a session, and starts no solver work
            return refuse(403, codes.CROSS_SITE, N_("requests from other sites are refused"))
        method = scope.get("method", "GET")
        if method not in ("GET", "HEAD", "OPTIONS"):
            origin = headers.get("origin")
            if origin is None:
                return refuse(403, codes.ORIGIN_MISSING,
                              N_("the request does not say where it comes from"))
            scheme = scope.get("scheme", "http")
            if origin.strip().lower() != f"{scheme}://{host}":
                return refuse(403, codes.ORIGIN_NOT_ALLOWED,
                              N_("requests from other sites are refused"))
        length = headers.get("content-length")
        if length is not None:
            if not _LENGTH_RE.fullmatch(length.strip()):
                return refuse(400, codes.BAD_LENGTH, N_("bad Content-Length"))
            limit = body_limit(path)
            if int(length) > limit:
                return refuse(413, codes.BODY_TOO_LARGE,
                              N_("the request is too large (at most {limit} bytes)"),
                              limit=limit)
        return None


_SECURITY_NAMES: Final = frozenset(name for name, _value in SECURITY_HEADERS)
_LENGTH_RE: Final = re.compile(r"[0-9]{1,12}")
