"""The HTTP adapter of the browser game: Starlette routes around the API's plain
functions (:mod:`devilsgrip.web.api`), the lifespan, the middleware."""

from __future__ import annotations

import contextlib
import ipaddress
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from typing import Final

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from devilsgrip import codes, i18n, table
from devilsgrip.game import Game
from devilsgrip.i18n import N_
from devilsgrip.table import Words as Tr
from devilsgrip.web.api import PATHS, SLOW_PATHS, handle
from devilsgrip.web.assets import card_image, not_found, page, static_file
from devilsgrip.web.bodies import body_limit, parse_json
from devilsgrip.web.browsers import WebState
from devilsgrip.web.calls import Call
from devilsgrip.web.http import (
    SafeJSONResponse,
    cookie_token,
    error_response,
    read_body,
    set_cookie,
)
from devilsgrip.web.options import ServerOptions
from devilsgrip.web.responses import WebError
from devilsgrip.web.security import SecurityMiddleware

MOVE_THREADS: Final = 16
"""Requests of players' games answered at once (each one holds its player's lock briefly)."""
BODY_SECONDS: Final = 10.0
"""The time a request's whole body may take to arrive; a slower one is refused (408)."""


def endpoint(web: WebState, moves: anyio.CapacityLimiter) -> Callable[[Request],
                                                                    Awaitable[Response]]:
    """The HTTP door to :func:`devilsgrip.web.api.handle`: the body is read whole (bounded)
    before anything else, then the call runs in a worker thread, and its answer becomes a
    JSON response with the session cookie when it is new."""

    async def answer(request: Request) -> Response:
        token = cookie_token(request)
        accept = request.headers.get("accept-language")
        try:
            # the whole body, within its size and time limits, before the game is touched:
            # a slow or stalled client holds no thread, no lock, and no player waits for it
            limit = body_limit(request.url.path)
            with anyio.fail_after(BODY_SECONDS):
                body = await read_body(request, limit) if request.method == "POST" else b""
            data = parse_json(body, limit)
        except TimeoutError:
            tr = Tr(web.language(accept, None))
            response = error_response(408, codes.BODY_TOO_SLOW, table.sentence(tr.gettext(N_(
                "the request's body did not arrive within {seconds} seconds")).format(
                seconds=f"{BODY_SECONDS:g}")))
            response.headers["connection"] = "close"
            return response
        except WebError as exc:
            tr = Tr(web.language(accept, web.known_browser(token)))
            return error_response(exc.status, exc.code, exc.text(tr))
        local = not web.options.browsers_apart and _loopback_client(request)
        call = Call(request.method, request.url.path, data, dict(request.query_params), accept,
                    local=local)
        slow = request.url.path in SLOW_PATHS
        reply = await anyio.to_thread.run_sync(partial(handle, web, token, call),
                                               limiter=None if slow else moves)
        response = SafeJSONResponse(reply.body, status_code=reply.status)
        if reply.token is not None:
            set_cookie(response, reply.token)
        response.headers.setdefault("cache-control", "no-store")
        return response

    return answer


def _loopback_client(request: Request) -> bool:
    """Whether ``request`` comes from this computer (a loopback address)."""
    client = request.client
    if client is None:
        return False
    try:
        address = ipaddress.ip_address(client.host)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)  # ::ffff:127.0.0.1
    return address.is_loopback or (mapped is not None and mapped.is_loopback)


def create_app(options: ServerOptions | None = None) -> Starlette:
    """The Starlette app of the browser game (open its store in the lifespan)."""
    opts = options or ServerOptions()
    web = WebState(opts)
    if opts.deck is not None:
        Game(deck=opts.deck, rules=opts.rules)  # fail early on a bad deck

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        web.open_store()
        try:
            yield
        finally:
            web.close_solver()
            web.close_store()

    door = endpoint(web, anyio.CapacityLimiter(MOVE_THREADS))
    # the API answers a method a path does not take itself (405, in the player's words)
    api_routes = [Route(path, door, methods=["GET", "POST"]) for path in sorted(PATHS)]
    routes = [
        Route("/", page, methods=["GET"]),
        *api_routes,
        Route("/cards/{name}.svg", card_image, methods=["GET"]),
        Route("/cards/four/{name}.svg", card_image, methods=["GET"]),
        Route("/static/{path:path}", static_file, methods=["GET"]),
        Route("/{path:path}", static_file, methods=["GET"]),
    ]

    async def nothing_here(request: Request, exc: Exception) -> Response:
        return not_found(request)

    async def not_allowed(request: Request, exc: Exception) -> Response:
        tr = Tr(i18n.language_from_accept(request.headers.get("accept-language"),
                                          web.server_lang))
        return error_response(405, codes.METHOD_NOT_ALLOWED,
                              tr.gettext(N_("this address does not take that method")))

    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={404: nothing_here, 405: not_allowed})
    app.state.web = web
    app.add_middleware(SecurityMiddleware, web=web)
    return app

