"""The Starlette app of the browser game: its routes, its lifespan, its middleware."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from devilsgrip import i18n
from devilsgrip.game import Game
from devilsgrip.i18n import N_
from devilsgrip.table import Words as Tr
from devilsgrip.web.api import (
    api,
    get_game,
    get_hint,
    get_i18n,
    get_picked,
    get_refusal,
    get_rules,
    get_settings,
    get_solution,
    get_stats,
    post_clock,
    post_drop,
    post_giveup,
    post_move,
    post_new,
    post_redo,
    post_restart,
    post_settings,
    post_stock,
    post_undo,
    public_api,
)
from devilsgrip.web.assets import card_image, not_found, page, static_file
from devilsgrip.web.browsers import WebState
from devilsgrip.web.options import ServerOptions
from devilsgrip.web.responses import error_response
from devilsgrip.web.reviews import get_history, get_review, post_review
from devilsgrip.web.security import SecurityMiddleware


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
            web.close_store()

    routes = [
        Route("/", page, methods=["GET"]),
        Route("/api/game", api(get_game), methods=["GET"]),
        Route("/api/new", api(post_new), methods=["POST"]),
        Route("/api/restart", api(post_restart), methods=["POST"]),
        Route("/api/move", api(post_move), methods=["POST"]),
        Route("/api/drop", api(post_drop), methods=["POST"]),
        Route("/api/stock", api(post_stock), methods=["POST"]),
        Route("/api/clock", api(post_clock), methods=["POST"]),
        Route("/api/undo", api(post_undo), methods=["POST"]),
        Route("/api/redo", api(post_redo), methods=["POST"]),
        Route("/api/giveup", api(post_giveup), methods=["POST"]),
        Route("/api/hint", api(get_hint, locked=False), methods=["GET"]),
        Route("/api/picked", api(get_picked), methods=["GET"]),
        Route("/api/refusal", api(get_refusal), methods=["GET"]),
        Route("/api/stats", api(get_stats), methods=["GET"]),
        Route("/api/solution", api(get_solution, locked=False), methods=["GET"]),
        Route("/api/review", api(post_review, locked=False), methods=["POST"]),
        Route("/api/review", api(get_review, locked=False), methods=["GET"]),
        Route("/api/history", api(get_history), methods=["GET"]),
        Route("/api/settings", api(get_settings), methods=["GET"]),
        Route("/api/settings", api(post_settings), methods=["POST"]),
        Route("/api/i18n", public_api(get_i18n), methods=["GET"]),
        Route("/api/rules", public_api(get_rules), methods=["GET"]),
        Route("/cards/{name}.svg", card_image, methods=["GET"]),
        Route("/static/{path:path}", static_file, methods=["GET"]),
        Route("/{path:path}", static_file, methods=["GET"]),
    ]

    async def nothing_here(request: Request, exc: Exception) -> Response:
        return not_found(request)

    async def not_allowed(request: Request, exc: Exception) -> Response:
        tr = Tr(i18n.language_from_accept(request.headers.get("accept-language"),
                                          web.server_lang))
        return error_response(405, "method-not-allowed",
                              tr.gettext(N_("this address does not take that method")))

    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={404: nothing_here, 405: not_allowed})
    app.state.web = web
    app.add_middleware(SecurityMiddleware, web=web)
    return app

