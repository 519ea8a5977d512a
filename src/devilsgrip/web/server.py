"""The browser game's server: Starlette on uvicorn, JSON API plus the static page.

The API is the contract in ``docs/ARCHITECTURE.md`` ("The browser game's HTTP
API").  Each browser has its own game through its ``dg_session`` cookie; the
session token, the browser's current game and its settings live in the store,
so a restarted server resumes the same game for the same cookie.  Every state
the server sends comes from :meth:`View.to_dict`, which never contains the order
of unseen stock cards.

>>> app = create_app(ServerOptions(db=None, use_store=False, port=8000))
>>> sorted(app.state.web.allowed_hosts)[:2]
['127.0.0.1:8000', '[::1]:8000']
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import mimetypes
import re
import secrets
import socket
import sqlite3
import sys
import threading
import time
import traceback
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Final

import anyio
import uvicorn
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from devilsgrip import i18n, table
from devilsgrip.cards import CARD_CODES, MAX_GAME_NUMBER
from devilsgrip.errors import DevilsGripError, IllegalMoveError
from devilsgrip.game import Game, Status
from devilsgrip.i18n import N_
from devilsgrip.notation import Move
from devilsgrip.rules import Rules
from devilsgrip.session import PlaySession
from devilsgrip.solver import hint as find_hint
from devilsgrip.solver import solve
from devilsgrip.store import Store, StoreError
from devilsgrip.table import ANIMATIONS, DEFAULT_SETTINGS, Event
from devilsgrip.table import Words as Tr

STATIC_DIR: Final = Path(__file__).parent / "static"
COOKIE_NAME: Final = "dg_session"
COOKIE_MAX_AGE: Final = 400 * 24 * 3600
MAX_BODY: Final = 16 * 1024
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
MAX_SESSIONS_IN_MEMORY: Final = 2000
MAX_UNSAVED_SESSIONS: Final = 500
"""Browsers kept in memory when there is no database (their games live nowhere else)."""
_TOKEN_RE: Final = re.compile(r"[A-Za-z0-9_-]{16,128}")
_STATIC_TYPES: Final = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
}


# ------------------------------------------------------------------ options
@dataclass
class ServerOptions:
    """How to run the server (the ``devilsgrip play`` options)."""

    host: str = "127.0.0.1"
    port: int = 0
    db: Path | None = None
    """Database file; None: ``$DEVILSGRIP_DB`` or the user data directory."""
    use_store: bool = True
    """False: no database at all (games are not saved)."""
    lang: str | None = None
    """The server's language (``--lang``); None: the environment."""
    rules: str = "classic"
    game: int | None = None
    deck: str | None = None
    hint_time: float = 1.0
    solve_time: float = 10.0
    extra_hosts: tuple[str, ...] = ()
    """More ``Host`` header values to accept (``"testserver"`` for tests)."""


# ----------------------------------------------------------------- errors
class WebError(Exception):
    """A refused request: HTTP status, reason code, English template and params."""

    def __init__(self, status: int, code: str, template: str, **params: Any) -> None:
        super().__init__(template)
        self.status = status
        self.code = code
        self.template = template
        self.params = params

    def text(self, tr: Tr) -> str:
        return table.sentence(tr.gettext(self.template).format(**self.params))


class SafeJSONResponse(JSONResponse):
    """JSON that always encodes: text that is not valid Unicode (a lone surrogate echoed
    from a request) is written with a replacement character instead of failing."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=False, allow_nan=False, indent=None,
                          separators=(",", ":")).encode("utf-8", "replace")


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return SafeJSONResponse({"error": code, "message": message}, status_code=status,
                            headers={"cache-control": "no-store"})


def shown(value: object, limit: int = 40) -> str:
    """A value a client sent, as an error message may echo it: short and printable."""
    text = str(value)
    text = "".join(c if c.isprintable() and not 0xD800 <= ord(c) <= 0xDFFF else "?"
                   for c in text[: limit + 1])
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ----------------------------------------------------------------- browsers
@dataclass
class Browser:
    """One browser: its session token, settings and the game it plays."""

    token: str
    owner: str
    session: PlaySession = field(init=False)
    settings: dict[str, Any] = field(default_factory=dict)
    last_move: str | None = None
    event: Event = field(default_factory=lambda: Event("load"))
    solution: asyncio.Future[dict[str, Any]] | None = None
    solution_key: tuple[Any, ...] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    """Held while a request reads or changes this browser's game."""


class WebState:
    """Everything the app keeps: options, store, browsers in memory."""

    def __init__(self, options: ServerOptions) -> None:
        self.options = options
        self.store: Store | None = None
        self.store_opened = False
        self.warning: str | None = None
        self.warning_error: BaseException | None = None
        self.browsers: OrderedDict[str, Browser] = OrderedDict()
        self.pending_deal: tuple[int | None, str | None] | None = (
            (options.game, options.deck) if options.game is not None or options.deck else None
        )
        self.server_lang = i18n.normalize_language(options.lang) or i18n.language_from_environment()
        self.default_rules = str(Rules.parse(options.rules))
        port = options.port
        names = {"127.0.0.1", "localhost", "[::1]", options.host.lower()}
        if options.host in ("0.0.0.0", "::", ""):
            names |= _machine_names()
        if ":" in options.host and not options.host.startswith("["):
            names.add(f"[{options.host.lower()}]")
        self.allowed_hosts = {f"{n}:{port}" for n in names}
        if port == 80:
            self.allowed_hosts |= names
        self.allowed_hosts |= {h.lower() for h in options.extra_hosts}

    # ------------------------------------------------------------- the store
    def open_store(self) -> None:
        if self.store_opened:
            return
        self.store_opened = True
        if not self.options.use_store:
            return
        try:
            self.store = Store.open(self.options.db)
        except (DevilsGripError, OSError, sqlite3.Error) as exc:
            self.store = None
            self.warning_error = exc

    def store_problem(self, lang: str | None = None) -> str | None:
        """Why games are not saved, as a sentence in ``lang`` (the server's by default)."""
        error = self.warning_error
        if error is None:
            return None
        words = Tr(lang or self.server_lang)
        reason = i18n.translate_error(error, words.lang)
        return table.sentence(words.gettext(N_("the game is not being saved: {reason}")).format(
            reason=reason))

    def close_store(self) -> None:
        store, self.store = self.store, None
        close = getattr(store, "close", None)
        if callable(close):
            with contextlib.suppress(Exception):
                close()

    # ------------------------------------------------------------- browsers
    def known_browser(self, token: str | None) -> Browser | None:
        """The browser of a cookie token (loaded from the store after a restart), or None."""
        self.open_store()
        store = self.store
        if token is None or not _TOKEN_RE.fullmatch(token):
            return None
        found = self.browsers.get(token)
        if found is not None:
            self.browsers.move_to_end(token)
            return found
        if store is not None and _quietly(lambda: store.web_session_exists(token), False):
            browser = self._load(store, token)
            self._remember(browser)
            return browser
        return None

    def browser_for(self, token: str | None) -> tuple[Browser, bool]:
        """The browser of a cookie token, loading or creating it; (browser, is_new)."""
        found = self.known_browser(token)
        if found is not None:
            return found, False
        store = self.store
        new_token = None if store is None else _quietly(store.create_web_session, None)
        token = new_token if isinstance(new_token, str) else secrets.token_urlsafe(32)
        browser = Browser(token=token, owner=f"web:{token}")
        browser.settings = dict(DEFAULT_SETTINGS)
        number, deck = self.pending_deal or (None, None)
        self.pending_deal = None
        self.start_game(browser, number, deck, None)
        self._remember(browser)
        return browser, True

    def _remember(self, browser: Browser) -> None:
        """Keep ``browser`` in memory; the least recently seen beyond the cap are dropped.

        With a store they come back from it on their next request; without one their
        unsaved game is lost (the page said it was not being saved), but memory stays
        bounded whatever arrives.
        """
        self.browsers[browser.token] = browser
        limit = MAX_SESSIONS_IN_MEMORY if self.store is not None else MAX_UNSAVED_SESSIONS
        while len(self.browsers) > limit:
            self.browsers.popitem(last=False)

    def _load(self, store: Store, token: str) -> Browser:
        """A browser known to the store (after a restart): its settings and current game."""
        owner = f"web:{token}"
        browser = Browser(token=token, owner=owner)
        saved: dict[str, str] = _quietly(lambda: store.settings(owner), {})
        browser.settings = table.decode_settings(saved)
        _quietly(lambda: store.touch_web_session(token), None)
        if self.pending_deal is not None:
            number, deck = self.pending_deal
            self.pending_deal = None
            self.start_game(browser, number, deck, None)
            return browser
        game_id = _quietly(lambda: store.current_game(owner), None)
        if isinstance(game_id, int):
            try:
                browser.session = PlaySession.resume(store, game_id)
            except (DevilsGripError, sqlite3.Error, OSError):
                pass
            else:
                browser.event = Event("resume")
                return browser
        self.start_game(browser, None, None, None)
        return browser

    def start_game(
        self, browser: Browser, number: int | None, deck: str | None, rules: str | None
    ) -> None:
        """The first game of ``browser`` (a random numbered deal by default)."""
        store_error = self.warning_error if isinstance(self.warning_error, StoreError) else None
        session = PlaySession.start(
            self.store, number=number, deck=deck, rules=self.rules_of(browser, rules),
            owner=browser.owner, store_error=store_error,
        )
        self.show(browser, session, Event("new"))

    def rules_of(self, browser: Browser, rules: str | None) -> str:
        """The rules of a new game: as asked, else the browser's setting, else the server's."""
        return rules or browser.settings.get("rules") or self.default_rules

    @staticmethod
    def show(browser: Browser, session: PlaySession, event: Event) -> None:
        """``browser`` plays ``session`` from now on (a new game, play again)."""
        browser.session = session
        browser.last_move = None
        browser.event = event
        browser.solution = None
        browser.solution_key = None

    def set_setting(self, browser: Browser, key: str, value: Any) -> None:
        browser.settings[key] = value
        store = self.store
        if store is None:
            return
        text = table.encode_setting(value)
        _quietly(lambda: store.set_setting(browser.owner, key, text), None)

    # ------------------------------------------------------------- language
    def language(self, request: Request, browser: Browser | None) -> str:
        if browser is not None:
            chosen = i18n.normalize_language(browser.settings.get("lang"))
            if chosen:
                return chosen
        header = request.headers.get("accept-language")
        if header:
            found = i18n.language_from_accept(header, "")
            if found:
                return found
        return self.server_lang


def _machine_names() -> set[str]:
    """This computer's names and addresses (for a server listening on every interface)."""
    names: set[str] = set()
    with contextlib.suppress(OSError):
        host = socket.gethostname()
        names |= {host.lower(), socket.getfqdn(host).lower()}
        _name, aliases, addresses = socket.gethostbyname_ex(host)
        names |= {a.lower() for a in aliases} | set(addresses)
    return {n for n in names if n}


def _quietly(fn: Callable[[], Any], default: Any) -> Any:
    """``fn()``, or ``default`` when the store fails (the game goes on unsaved)."""
    try:
        return fn()
    except (DevilsGripError, sqlite3.Error, OSError):
        return default


# ------------------------------------------------------------------- state
_TOLD_WITH_END: Final = frozenset({"move", "undo", "redo", "resume", "load", "changed"})


def game_state(web: WebState, browser: Browser, tr: Tr) -> dict[str, Any]:
    """The state document every game response carries (see the API contract)."""
    session = browser.session
    game: Game = session.game
    best: int | None = None
    with contextlib.suppress(DevilsGripError, sqlite3.Error, OSError):
        best = session.best_score()
    about = table.summary(session, tr, best)
    told = table.say_event(browser.event, game, tr)
    end = about.end if browser.event.kind in _TOLD_WITH_END else ""
    announce = " ".join(s for s in (told, end) if s)
    won = game.is_won()
    return {
        "view": game.view().to_dict(),
        "game": {
            "id": session.game_id,
            "number": game.number,
            "rules": str(game.rules),
            "saving": session.saving,
            "warning": about.warning,
            "best_score": best,
            "new_best": about.new_best,
            "final": session.final,
            "leave_asks": session.leave_asks,
            "started": session.started,
            "elapsed": round(session.elapsed(), 1),
            "clock_running": session.clock_running,
        },
        "labels": {
            "deal": about.deal,
            "rules": about.rules,
            "status": about.status,
            "rating": about.rating,
            "redeals": about.redeals,
            "end": about.end,
        },
        "can_undo": session.can_undo,
        "can_redo": session.can_redo,
        "last_move": browser.last_move,
        "announce": announce,
        "arrangement": [m.text() for m in game.arrangement()] if won else [],
        "lang": tr.lang,
    }


# ------------------------------------------------------------- request I/O
async def read_json(request: Request) -> dict[str, Any]:
    """The request's JSON object (``{}`` for an empty body); at most :data:`MAX_BODY`."""
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise WebError(413, "body-too-large",
                               N_("the request is too large (at most {limit} bytes)"),
                               limit=MAX_BODY)
            chunks.append(chunk)
    except ClientDisconnect as exc:  # the page went away (a tab closed) while sending
        raise WebError(400, "client-gone", N_("the request ended before its body")) from exc
    body = b"".join(chunks)
    if not body.strip():
        return {}
    try:
        text = body.decode("utf-8", errors="strict")
        if _too_deep(text):
            raise WebError(400, "bad-json", N_("the request is nested too deeply"))
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise WebError(400, "bad-json", N_("the request is not valid JSON")) from exc
    if not isinstance(data, dict):
        raise WebError(400, "bad-json", N_("the request must be a JSON object"))
    if not _clean_text(data):
        raise WebError(400, "bad-text", N_("the request holds text that is not valid Unicode"))
    return data


MAX_DEPTH: Final = 8
"""The deepest nesting of arrays and objects a request may have (the API needs 1)."""


def _too_deep(text: str) -> bool:
    """True when ``text`` opens more than :data:`MAX_DEPTH` arrays or objects at once
    (a cheap scan before parsing: deep nesting would exhaust the parser's stack)."""
    depth = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif c in "]}":
            depth -= 1
    return False


def _clean_text(value: object) -> bool:
    """No string in ``value`` (keys included) holds a lone surrogate."""
    if isinstance(value, str):
        return not any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, dict):
        return all(_clean_text(k) and _clean_text(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_clean_text(v) for v in value)
    return True


def _only_keys(data: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    for key in data:
        if key not in allowed:
            raise WebError(400, "unknown-field", N_("unknown field '{field}'"), field=shown(key))


def _string(data: Mapping[str, Any], key: str, limit: int) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > limit:
        raise WebError(400, "bad-field", N_("'{field}' must be text of at most {limit} characters"),
                       field=key, limit=limit)
    return value


def _rules_text(value: str | None) -> str | None:
    if value is None:
        return None
    return str(Rules.parse(value))


def _bool(data: Mapping[str, Any], key: str) -> bool | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, bool):
        raise WebError(400, "bad-field", N_("'{field}' must be true or false"), field=key)
    return value


def _cookie_token(request: Request) -> str | None:
    token = request.cookies.get(COOKIE_NAME)
    return token if token and _TOKEN_RE.fullmatch(token) else None


def _set_cookie(response: Response, token: str) -> None:
    response.set_cookie(COOKIE_NAME, token, max_age=COOKIE_MAX_AGE, path="/", httponly=True,
                        samesite="strict")


Handler = Callable[[Request, WebState, Browser, Tr], Awaitable[Response]]
PublicHandler = Callable[[Request, Tr], Awaitable[Response]]


async def blocking(fn: Callable[..., Any], *args: Any) -> Any:
    """Run ``fn(*args)`` (a store write: it waits for the disk) in a worker thread."""
    return await anyio.to_thread.run_sync(partial(fn, *args))


def api(handler: Handler, *, locked: bool = True) -> Callable[[Request], Awaitable[Response]]:
    """Wrap a handler: find the browser, its language, and turn errors into JSON.

    With ``locked`` the handler runs holding the browser's lock (its requests
    take turns); other handlers take it themselves around what needs it.
    """

    async def endpoint(request: Request) -> Response:
        web: WebState = request.app.state.web
        token = _cookie_token(request)
        try:
            browser, new = web.browser_for(token)
        except (DevilsGripError, sqlite3.Error, OSError) as exc:
            tr = Tr(web.language(request, None))
            return error_response(503, "store-failed", table.say_error(exc, tr))
        tr = Tr(web.language(request, browser))
        try:
            if locked:
                async with browser.lock:
                    response = await handler(request, web, browser, tr)
            else:
                response = await handler(request, web, browser, tr)
        except WebError as exc:
            response = error_response(exc.status, exc.code, exc.text(tr))
        except IllegalMoveError as exc:
            response = error_response(409, exc.code, table.say_error(exc, tr))
        except DevilsGripError as exc:
            if isinstance(exc, StoreError) and exc.code == "store-game-changed":
                # another window or server wrote this game: the session reloaded it
                browser.event = Event("changed")
                browser.last_move = None
                response = error_response(409, "game-changed", table.sentence(tr.gettext(N_(
                    "this game was changed in another window: it is shown again as it "
                    "stands"))))
            else:
                response = error_response(400, exc.code, table.say_error(exc, tr))
        except (sqlite3.Error, OSError) as exc:
            response = error_response(
                503, "store-failed",
                table.sentence(tr.gettext(N_("the game could not be saved: {reason}")).format(
                    reason=str(exc))),
            )
        if new or token != browser.token:
            _set_cookie(response, browser.token)
        response.headers.setdefault("cache-control", "no-store")
        return response

    return endpoint


def public_api(handler: PublicHandler) -> Callable[[Request], Awaitable[Response]]:
    """Wrap a handler that needs no game: a known browser's language, no new session."""

    async def endpoint(request: Request) -> Response:
        web: WebState = request.app.state.web
        try:
            browser = web.known_browser(_cookie_token(request))
        except (DevilsGripError, sqlite3.Error, OSError):
            browser = None
        tr = Tr(web.language(request, browser))
        try:
            response = await handler(request, tr)
        except WebError as exc:
            response = error_response(exc.status, exc.code, exc.text(tr))
        response.headers.setdefault("cache-control", "no-store")
        return response

    return endpoint


def state_response(web: WebState, browser: Browser, tr: Tr) -> JSONResponse:
    return SafeJSONResponse(game_state(web, browser, tr))


# ----------------------------------------------------------------- handlers
async def get_game(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    return state_response(web, browser, tr)


async def post_new(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    """A new game; the one being played is left (the page asked the player first)."""
    data = await read_json(request)
    _only_keys(data, ("game", "deck", "rules"))
    number = data.get("game")
    deck = _string(data, "deck", 2000)
    if number is not None and deck is not None:
        raise WebError(400, "game-and-deck", N_("give a game number or a deck, not both"))
    if number is not None and (
        isinstance(number, bool) or not isinstance(number, int)
        or not 1 <= number <= MAX_GAME_NUMBER
    ):
        raise WebError(400, "bad-game-number",
                       N_("the game number must be a whole number from 1 to {max}"),
                       max=MAX_GAME_NUMBER)
    rules = web.rules_of(browser, _rules_text(_string(data, "rules", 200)))
    session, event = await blocking(
        partial(table.new_game, browser.session, number=number, deck=deck, rules=rules))
    web.show(browser, session, event)
    return state_response(web, browser, tr)


async def post_restart(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    """The same deal again as a new game; the one being played is left."""
    data = await read_json(request)
    _only_keys(data, ())
    session, event = await blocking(table.play_again, browser.session)
    web.show(browser, session, event)
    return state_response(web, browser, tr)


async def _played(web: WebState, browser: Browser, tr: Tr,
                  action: Callable[[], Event]) -> Response:
    event: Event = await blocking(action)
    browser.event = event
    move = event.effect.move if event.effect is not None and event.kind != "undo" else None
    browser.last_move = move.text() if move is not None else None
    return state_response(web, browser, tr)


async def post_move(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    data = await read_json(request)
    _only_keys(data, ("move",))
    text = _string(data, "move", 32)
    if text is None:
        raise WebError(400, "missing-field", N_("'{field}' is missing"), field="move")
    move = Move.from_text(text)
    return await _played(web, browser, tr, partial(table.play, browser.session, move))


async def post_drop(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    """What the player picked up at "from" dropped on "to" (``"swap": true``: a swap).

    The table's drop policy decides: a legal build is played, a pile dropped
    on an empty cell swaps with it, anything else is refused with the reason.
    """
    data = await read_json(request)
    _only_keys(data, ("from", "to", "swap"))
    names = [_string(data, key, 8) for key in ("from", "to")]
    if names[0] is None or names[1] is None:
        raise WebError(400, "missing-field", N_("'{field}' is missing"),
                       field="from" if names[0] is None else "to")
    source, target = table.parse_place(names[0]), table.parse_place(names[1])
    session = browser.session
    if _bool(data, "swap"):
        move: Move | None = table.swap_move(session.game, source, target)
    else:
        move = table.drop_move(session.game, source, target)
    if move is None:
        browser.event = Event("putback")
        return state_response(web, browser, tr)
    return await _played(web, browser, tr, partial(table.play, session, move))


async def post_stock(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    """A click on the stock: deal, or redeal once the stock is empty."""
    data = await read_json(request)
    _only_keys(data, ())
    session = browser.session
    move = table.stock_move(session.game)
    return await _played(web, browser, tr, partial(table.play, session, move))


async def post_undo(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    data = await read_json(request)
    _only_keys(data, ())
    return await _played(web, browser, tr, partial(table.undo, browser.session))


async def post_redo(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    data = await read_json(request)
    _only_keys(data, ())
    return await _played(web, browser, tr, partial(table.redo, browser.session))


async def post_giveup(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    data = await read_json(request)
    _only_keys(data, ())
    await blocking(browser.session.give_up)
    browser.last_move = None
    browser.event = Event("giveup")
    return state_response(web, browser, tr)


async def post_clock(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    """``{"running": false}`` while the page is hidden, ``true`` when it is back."""
    data = await read_json(request)
    _only_keys(data, ("running",))
    running = _bool(data, "running")
    if running is None:
        raise WebError(400, "missing-field", N_("'{field}' is missing"), field="running")
    session = browser.session
    if running:
        session.resume_clock()
    else:
        await blocking(session.pause)
    return SafeJSONResponse({"elapsed": round(session.elapsed(), 1),
                         "running": session.clock_running})


async def _in_thread(fn: Callable[[], Any], limit: float) -> Any:
    """Run ``fn`` in a worker thread; give up waiting after ``limit`` seconds."""
    with anyio.fail_after(limit):
        return await anyio.to_thread.run_sync(fn, abandon_on_cancel=True)


async def get_hint(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    none: dict[str, Any] = {"move": None, "code": "no-hint", "cells": [], "places": []}
    async with browser.lock:
        game: Game = browser.session.game
        refusal = table.hint_refusal(browser.session, tr)
        if refusal is not None:
            return SafeJSONResponse(none | {"text": refusal})
        copy = game.copy()
        key = game.key()
    limit = web.options.hint_time
    try:
        # the hint's budgets are counted in nodes: it ends on any machine, later on a busy
        # one, so the wait is generous rather than an answer of "no hint" under load
        result = await _in_thread(lambda: find_hint(copy, time_limit=limit), limit * 4 + 5.0)
    except TimeoutError:
        result = None
    if result is None:
        return SafeJSONResponse(none | {"text": table.say_hint(None, copy, tr)})
    move = result.move
    async with browser.lock:
        if browser.session.game is game and game.key() == key:
            with contextlib.suppress(DevilsGripError, sqlite3.Error, OSError):
                await blocking(browser.session.record_hint, move)
    places = table.move_places(move)
    return SafeJSONResponse({
        "move": move.text(),
        "code": result.code,
        "text": table.say_hint(result, copy, tr),
        "cells": [table.place_name(p) for p in places if p < table.STOCK],
        "places": [table.place_name(p) for p in places],
    })


async def get_stats(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    best: int | None = None
    with contextlib.suppress(DevilsGripError, sqlite3.Error, OSError):
        best = browser.session.best_score()
    if web.store is None:
        return SafeJSONResponse({"saving": False, "best": best})
    stats = web.store.stats(owner=browser.owner).to_dict()
    stats.pop("owner", None)  # the owner names the session token: never in a body
    return SafeJSONResponse(dict(stats) | {"saving": True, "best": best})


async def get_solution(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    """The solver's line for this deal, to watch: it never changes the player's moves.

    Answered only once the game has ended (over, won or given up), so showing
    the whole stock then gives nothing away; from the first request on, the
    game is final with the result it had (undo can no longer reopen it).
    """
    async with browser.lock:
        await blocking(browser.session.make_final)
        future = _solution_future(web, browser)
    try:
        solution = await asyncio.shield(future)
    except TimeoutError as exc:
        raise WebError(503, "solver-timeout", N_("the solver ran out of time")) from exc
    return SafeJSONResponse(solution)


def _solution_future(web: WebState, browser: Browser) -> asyncio.Future[dict[str, Any]]:
    """The solver's line from the start of this deal (computed once per game).

    ``positions`` holds the view of every position along the line, from the
    deal's start (``positions[0]``) to the end of the line (``positions[-1]``,
    whose score is ``score``), so the page can replay it without sending a move.
    """
    game: Game = browser.session.game
    key = (browser.session.game_id, game.start_position, str(game.rules))
    future = browser.solution
    if future is None or browser.solution_key != key or (
        future.done() and (future.cancelled() or future.exception() is not None)
    ):
        start = game.copy()
        start.restart()
        limit = web.options.solve_time

        async def compute() -> dict[str, Any]:
            def work() -> dict[str, Any]:
                result = solve(start, time_limit=limit)
                return _solution_doc(start, result.moves, result.score, bool(result.proven))

            doc: dict[str, Any] = await _in_thread(work, limit * 2 + 10.0)
            return doc

        future = asyncio.ensure_future(compute())
        browser.solution = future
        browser.solution_key = key
    return future


def _solution_doc(start: Game, moves: tuple[Move, ...], score: int,
                  proven: bool) -> dict[str, Any]:
    """The line as the API sends it: its moves and the view of every position on it."""
    game = start.copy()
    positions = [game.view().to_dict()]
    for move in moves:
        game.play(move)  # checked: a wrong line fails here, not in the page
        positions.append(game.view().to_dict())
    return {
        "score": score,
        "proven": proven,
        "moves": [m.text() for m in moves],
        "positions": positions,
    }


def _settings_doc(browser: Browser, tr: Tr, web: WebState) -> dict[str, Any]:
    rules = web.rules_of(browser, None)
    return {
        "lang": tr.lang,
        "four_colour": bool(browser.settings.get("four_colour", False)),
        "animation": browser.settings.get("animation", "normal"),
        "rules": rules,
        "rules_parts": table.rules_parts(rules),
        "presets": table.presets_doc(tr),
        "languages": list(i18n.LANGUAGES),
        "animations": list(ANIMATIONS),
    }


async def get_settings(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    return SafeJSONResponse(_settings_doc(browser, tr, web))


async def post_settings(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    data = await read_json(request)
    _only_keys(data, ("lang", "four_colour", "animation", "rules"))
    changes: dict[str, Any] = {}
    lang = _string(data, "lang", 16)
    if lang is not None:
        if lang not in i18n.LANGUAGES:
            raise WebError(400, "bad-language", N_("unknown language '{lang}' (choose from "
                                                   "{languages})"),
                           lang=shown(lang), languages=", ".join(i18n.LANGUAGES))
        changes["lang"] = lang
    four = _bool(data, "four_colour")
    if four is not None:
        changes["four_colour"] = four
    animation = _string(data, "animation", 16)
    if animation is not None:
        if animation not in ANIMATIONS:
            raise WebError(400, "bad-animation", N_("unknown animation speed '{value}' (choose "
                                                    "from {choices})"),
                           value=shown(animation), choices=", ".join(ANIMATIONS))
        changes["animation"] = animation
    rules = _rules_text(_string(data, "rules", 200))
    if rules is not None:
        changes["rules"] = rules
    for key, value in changes.items():
        await blocking(web.set_setting, browser, key, value)
    tr = Tr(web.language(request, browser))
    return SafeJSONResponse(_settings_doc(browser, tr, web))


def _query_lang(request: Request, tr: Tr) -> str:
    value = request.query_params.get("lang")
    if value is None:
        return tr.lang
    if value not in i18n.LANGUAGES:
        raise WebError(400, "bad-language",
                       N_("unknown language '{lang}' (choose from {languages})"),
                       lang=shown(value, 16), languages=", ".join(i18n.LANGUAGES))
    return value


async def get_i18n(request: Request, tr: Tr) -> Response:
    lang = _query_lang(request, tr)
    words = Tr(lang)
    return SafeJSONResponse({
        "lang": lang,
        "strings": i18n.catalog_strings(lang),
        "plurals": i18n.catalog_plurals(lang),
        "plural_rule": i18n.PLURAL_RULES.get(lang, "n!=1"),
        "languages": list(i18n.LANGUAGES),
        "names": dict(i18n.LANGUAGE_NAMES),
        "cards": {code: i18n.card_label(c, lang) for c, code in enumerate(CARD_CODES)},
        "ratings": {key: i18n.rating_label(key, lang) for key in i18n.RATING_LABELS},
        "statuses": {s.value: table.status_label(s, words) for s in Status},
        "presets": {name: table.preset_label(name, words) for name in table.PRESET_LABELS},
    })


async def get_rules(request: Request, tr: Tr) -> Response:
    lang = _query_lang(request, tr)
    return SafeJSONResponse({"lang": lang, "text": i18n.rules_text(lang)})


# ------------------------------------------------------ page and card images
@dataclass(frozen=True)
class _Asset:
    body: bytes
    etag: str
    media_type: str


_asset_cache: dict[tuple[str, float, int], _Asset] = {}


def _static_asset(name: str) -> _Asset | None:
    """A file of web/static (no hidden files, nothing outside the folder, no odd names)."""
    if not name or len(name) > 200 or not name.isprintable() or "\\" in name:
        return None
    if any(part.startswith(".") or not part or len(part) > 100 for part in name.split("/")):
        return None
    root = STATIC_DIR.resolve()
    try:
        path = (root / name).resolve()
        if root not in path.parents or not path.is_file():
            return None
    except (OSError, ValueError):
        return None
    media_type = _STATIC_TYPES.get(path.suffix.lower())
    if media_type is None:
        guessed = mimetypes.guess_type(path.name)[0]
        if guessed is None:
            return None
        media_type = guessed
    stat = path.stat()
    key = (str(path), stat.st_mtime, stat.st_size)
    asset = _asset_cache.get(key)
    if asset is None:
        body = path.read_bytes()
        asset = _Asset(body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"', media_type)
        _asset_cache[key] = asset
    return asset


def _asset_response(request: Request, asset: _Asset, cache_control: str) -> Response:
    headers = {"etag": asset.etag, "cache-control": cache_control}
    if request.headers.get("if-none-match") == asset.etag:
        return Response(status_code=304, headers=headers)
    return Response(asset.body, media_type=asset.media_type, headers=headers)


def _not_found(request: Request) -> Response:
    web: WebState = request.app.state.web
    tr = Tr(i18n.language_from_accept(request.headers.get("accept-language"), web.server_lang))
    return error_response(404, "not-found", tr.gettext(N_("there is nothing here")))


async def page(request: Request) -> Response:
    asset = _static_asset("index.html")
    if asset is None:
        return _not_found(request)
    return _asset_response(request, asset, "no-cache")


async def static_file(request: Request) -> Response:
    asset = _static_asset(str(request.path_params["path"]))
    if asset is None:
        return _not_found(request)
    return _asset_response(request, asset, "no-cache")


_svg_cache: dict[tuple[str, bool], _Asset] = {}


async def card_image(request: Request) -> Response:
    name = str(request.path_params["name"])
    four_text = request.query_params.get("four", "0")
    if four_text not in ("0", "1") or (name not in CARD_CODES and name not in ("back", "empty")):
        return _not_found(request)
    four = four_text == "1"
    key = (name, four)
    asset = _svg_cache.get(key)
    if asset is None:
        from devilsgrip.web import cards_svg

        if name == "back":
            svg = cards_svg.back_svg()
        elif name == "empty":
            svg = cards_svg.empty_svg()
        else:
            svg = cards_svg.card_svg(name, four_colour=four)
        body = svg.encode()
        asset = _Asset(body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"', "image/svg+xml")
        _svg_cache[key] = asset
    return _asset_response(request, asset, "public, max-age=86400")


# ------------------------------------------------------------- middleware
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
            answer = error_response(500, "server-error", table.sentence(Tr(lang).gettext(N_(
                "something went wrong in the server; nothing of your game was changed"))))
            await answer(scope, receive, send_with_headers)

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> Response | None:
        web = self.web
        host = headers.get("host", "").strip().lower()

        def refuse(status: int, code: str, template: str, **params: Any) -> Response:
            lang = i18n.language_from_accept(headers.get("accept-language"), web.server_lang)
            return error_response(status, code, Tr(lang).gettext(template).format(**params))

        if host not in web.allowed_hosts:
            return refuse(400, "bad-host", N_("this server does not answer to that host name"))
        path = str(scope.get("path", ""))
        fetch_site = headers.get("sec-fetch-site")
        if path.startswith("/api/") and fetch_site is not None and fetch_site.strip().lower() \
                not in ("same-origin", "none"):
            # another site (another port of this machine included) neither makes, replaces
            # nor reads a session, and starts no solver work
            return refuse(403, "cross-site", N_("requests from other sites are refused"))
        method = scope.get("method", "GET")
        if method not in ("GET", "HEAD", "OPTIONS"):
            origin = headers.get("origin")
            if origin is None:
                return refuse(403, "origin-missing",
                              N_("the request does not say where it comes from"))
            scheme = scope.get("scheme", "http")
            if origin.strip().lower() != f"{scheme}://{host}":
                return refuse(403, "origin-not-allowed",
                              N_("requests from other sites are refused"))
        length = headers.get("content-length")
        if length is not None:
            if not _LENGTH_RE.fullmatch(length.strip()):
                return refuse(400, "bad-length", N_("bad Content-Length"))
            if int(length) > MAX_BODY:
                return refuse(413, "body-too-large",
                              N_("the request is too large (at most {limit} bytes)"),
                              limit=MAX_BODY)
        return None


_SECURITY_NAMES: Final = frozenset(name for name, _value in SECURITY_HEADERS)
_LENGTH_RE: Final = re.compile(r"[0-9]{1,12}")


# -------------------------------------------------------------------- app
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
        Route("/api/stats", api(get_stats), methods=["GET"]),
        Route("/api/solution", api(get_solution, locked=False), methods=["GET"]),
        Route("/api/settings", api(get_settings), methods=["GET"]),
        Route("/api/settings", api(post_settings), methods=["POST"]),
        Route("/api/i18n", public_api(get_i18n), methods=["GET"]),
        Route("/api/rules", public_api(get_rules), methods=["GET"]),
        Route("/cards/{name}.svg", card_image, methods=["GET"]),
        Route("/static/{path:path}", static_file, methods=["GET"]),
        Route("/{path:path}", static_file, methods=["GET"]),
    ]

    async def not_found(request: Request, exc: Exception) -> Response:
        return _not_found(request)

    async def not_allowed(request: Request, exc: Exception) -> Response:
        tr = Tr(i18n.language_from_accept(request.headers.get("accept-language"),
                                          web.server_lang))
        return error_response(405, "method-not-allowed",
                              tr.gettext(N_("this address does not take that method")))

    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={404: not_found, 405: not_allowed})
    app.state.web = web
    app.add_middleware(SecurityMiddleware, web=web)
    return app


# ------------------------------------------------------------ running it
def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (port 0: a free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP explicitly: asyncio sets TCP_NODELAY only on sockets that name it,
    # and without it keep-alive responses wait ~40 ms for delayed ACKs.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_of(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


class ServerThread:
    """A live server in a background thread (for tests and benchmarks).

    >>> server = ServerThread(ServerOptions(use_store=False)).start()
    >>> server.url.startswith("http://127.0.0.1:")
    True
    >>> server.stop()
    """

    def __init__(self, options: ServerOptions) -> None:
        self.options = options
        self.sock = bind_socket(options.host, options.port)
        self.port: int = self.sock.getsockname()[1]
        options.port = self.port
        self.app = create_app(options)
        config = uvicorn.Config(self.app, log_level="warning", access_log=False,
                                lifespan="on", timeout_graceful_shutdown=2)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._run, name=f"devilsgrip-web-{self.port}",
                                       daemon=True)
        self.url = url_of(options.host, self.port).rstrip("/")

    def _run(self) -> None:
        self.server.run(sockets=[self.sock])

    def start(self, timeout: float = 15.0) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the web server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        with contextlib.suppress(OSError):
            self.sock.close()


def serve(options: ServerOptions, *, open_browser: bool = True,
          announce: Callable[[str], None] = print) -> int:
    """Run the server in this thread until Ctrl-C; returns the exit status."""
    sock = bind_socket(options.host, options.port)
    options.port = sock.getsockname()[1]
    app = create_app(options)
    url = url_of(options.host, options.port)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)

    def when_ready() -> None:
        deadline = time.monotonic() + 30
        while not server.started and time.monotonic() < deadline:
            if server.should_exit:
                return
            time.sleep(0.02)
        if not server.started:
            return
        problem = app.state.web.store_problem()
        if problem is not None:  # the terminal says it too, not only the page
            print(problem, file=sys.stderr, flush=True)
        announce(url)
        if open_browser:
            _open_browser(url)

    threading.Thread(target=when_ready, name="devilsgrip-announce", daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        with contextlib.suppress(OSError):
            sock.close()
    return 0


def _open_browser(url: str) -> None:
    import webbrowser

    with contextlib.suppress(Exception):
        webbrowser.open(url, new=2)
