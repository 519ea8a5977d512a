"""The browsers a server knows: each one's session token, settings and game.

A browser is found by its ``dg_session`` cookie; the token, the browser's current
game and its settings live in the store, so a restarted server resumes the same
game for the same cookie.  Browsers kept in memory are capped, with and without a
database."""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
import socket
import sqlite3
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from starlette.requests import Request
from starlette.responses import Response

from devilsgrip import i18n, table
from devilsgrip.errors import DevilsGripError
from devilsgrip.i18n import N_
from devilsgrip.rules import Rules
from devilsgrip.session import PlaySession
from devilsgrip.store import Store, StoreError
from devilsgrip.table import DEFAULT_SETTINGS, Event
from devilsgrip.table import Words as Tr
from devilsgrip.web.options import ServerOptions

if TYPE_CHECKING:
    from devilsgrip.web.reviews import ReviewJob

COOKIE_NAME: Final = "dg_session"
COOKIE_MAX_AGE: Final = 400 * 24 * 3600
MAX_SESSIONS_IN_MEMORY: Final = 2000
MAX_UNSAVED_SESSIONS: Final = 500
"""Browsers kept in memory when there is no database (their games live nowhere else)."""
_TOKEN_RE: Final = re.compile(r"[A-Za-z0-9_-]{16,128}")


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
    reviews: OrderedDict[int | None, ReviewJob] = field(default_factory=OrderedDict)
    """The reviews made or in the making, by stored game id (None: the unsaved game)."""
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

    def store_problem(self, lang: str) -> str | None:
        """Why games are not saved, as a sentence in ``lang``."""
        error = self.warning_error
        if error is None:
            return None
        words = Tr(lang)
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


def cookie_token(request: Request) -> str | None:
    token = request.cookies.get(COOKIE_NAME)
    return token if token and _TOKEN_RE.fullmatch(token) else None


def set_cookie(response: Response, token: str) -> None:
    response.set_cookie(COOKIE_NAME, token, max_age=COOKIE_MAX_AGE, path="/", httponly=True,
                        samesite="strict")
