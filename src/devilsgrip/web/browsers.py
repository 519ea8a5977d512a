"""The players a server knows (a browser each): its session token, settings and game.

A browser is found by its session token (the ``dg_session`` cookie over HTTP); the
token, the browser's current game and its settings live in the store, so a
restarted server resumes the same game for the same token.  Browsers kept in
memory are capped, with and without a database.  Nothing here speaks HTTP: the
API's functions (:mod:`devilsgrip.web.api`) are called the same way by the HTTP
adapter and by any other transport."""

from __future__ import annotations

import contextlib
import ipaddress
import re
import secrets
import socket
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, NamedTuple, TypeVar

from devilsgrip import i18n, table
from devilsgrip.errors import DevilsGripError
from devilsgrip.i18n import N_
from devilsgrip.rules import Rules
from devilsgrip.session import PlaySession
from devilsgrip.store import Store, StoreError, WebSession
from devilsgrip.table import DEFAULT_SETTINGS, Event
from devilsgrip.table import Words as Tr
from devilsgrip.table.controller import Table
from devilsgrip.web.options import ServerOptions

if TYPE_CHECKING:
    from devilsgrip.web.jobs import ReviewJob

T = TypeVar("T")

COOKIE_NAME: Final = "dg_session"
COOKIE_MAX_AGE: Final = 400 * 24 * 3600
MAX_SESSIONS_IN_MEMORY: Final = 2000
SOLVER_THREADS: Final = 4
"""Searches (hints, best lines, reviews) that run at once; more wait their turn, and the
threads that answer moves are never theirs."""
MAX_UNSAVED_SESSIONS: Final = 500
"""Browsers kept in memory when there is no database (their games live nowhere else)."""
TOKEN_RE: Final = re.compile(r"[A-Za-z0-9_-]{16,128}")
LOCAL_OWNER: Final = "local"
"""The owner of this computer's player's games: the terminal game's, and the browsers' on
this computer (and those it let in with the pairing code)."""
PAIR_CODE_DIGITS: Final = 8
PAIR_TRIES: Final = 5
"""Wrong pairing codes typed before the server makes a new one (and prints it)."""


@dataclass
class Browser:
    """One browser: its session token, settings and the game it plays."""

    token: str
    owner: str
    """The owner id of the browser's games and settings in the store (not its cookie)."""
    table: Table = field(init=False)
    """The controller of the browser's game: every action goes through it."""
    settings: dict[str, Any] = field(default_factory=dict)
    solution: tuple[object, Future[dict[str, Any]]] | None = None
    """The best line being worked out or found (as the API sends it), with the game it is
    for."""
    reviews: OrderedDict[int | None, ReviewJob] = field(default_factory=OrderedDict)
    """The reviews made or in the making, by stored game id (None: the unsaved game)."""
    stored: bool = False
    """The browser's session and game are in the store: it has acted (see
    :meth:`WebState.keep`); until then it lives in memory only."""
    keep_failed: bool = False
    """Storing it on its first action failed: its game goes on unsaved, and says so."""

    @property
    def session(self) -> PlaySession:
        return self.table.session

    @property
    def lock(self) -> threading.RLock:
        """Held while a request reads or changes this browser's game."""
        return self.table.lock


class Kept(NamedTuple):
    """What storing a browser on its first action replaced: its game in memory and the
    stored game that took its place (None when its game was not replaced)."""

    old: PlaySession
    fresh: PlaySession | None


class WebState:
    """Everything the app keeps: options, store, browsers in memory."""

    def __init__(self, options: ServerOptions,
                 solver: Callable[[Callable[[], Any]], Future[Any]] | None = None) -> None:
        """``solver`` runs solver work (hints, best lines, reviews) and returns its future;
        by default a bounded pool of threads apart from those that answer moves (a
        transport without threads passes one that runs the work at once)."""
        self.options = options
        self._solver = solver
        self._pool: ThreadPoolExecutor | None = None
        self._registry = threading.RLock()
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
        self.local: Browser | None = None
        """This computer's player (made on its first request)."""
        self.pairing_code: str | None = None if _loopback(options.host) else _new_code()
        """What a browser on another computer types to play as this computer's player (None:
        the server listens on this computer only)."""
        self.on_pairing_code: Callable[[str], None] | None = None
        """Told the new code (as shown) when wrong codes made the server change it."""
        self._pair_misses = 0

    # ------------------------------------------------------------- the solver
    def run_solver(self, work: Callable[[], T]) -> Future[T]:
        """Run ``work`` (a search) in the solver's own pool; its future."""
        if self._solver is not None:
            return self._solver(work)
        with self._registry:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=SOLVER_THREADS,
                                                thread_name_prefix="devilsgrip-solver")
            pool = self._pool
        return pool.submit(work)

    def close_solver(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------- the store
    def open_store(self) -> None:
        with self._registry:
            self._open_store()

    def _open_store(self) -> None:
        if self.store_opened:
            return
        self.store_opened = True
        if not self.options.use_store:
            return
        try:
            self.store = Store.open(self.options.db, alone=self.options.alone)
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
    def known_browser(self, token: str | None, local: bool = False) -> Browser | None:
        """The browser of a cookie token (loaded from the store after a restart), or None;
        with ``local`` (a call from this computer), this computer's player if it was made."""
        with self._registry:
            if local and not self.options.browsers_apart:
                return self.local
            return self._known_browser(token)

    def _known_browser(self, token: str | None) -> Browser | None:
        self._open_store()
        store = self.store
        if token is None or not TOKEN_RE.fullmatch(token):
            return None
        found = self.browsers.get(token)
        if found is not None:
            self.browsers.move_to_end(token)
            return found
        owner = None if store is None else _quietly(lambda: store.web_session_owner(token), None)
        if store is not None and isinstance(owner, str):
            if owner == LOCAL_OWNER:  # a browser let in as this computer's player
                browser = self._local_browser()
                self._remember(browser, token)
                return browser
            browser = self._load(store, token, owner)
            self._remember(browser)
            return browser
        return None

    def browser_for(self, token: str | None, local: bool = False) -> tuple[Browser, bool]:
        """The browser of a cookie token, loading or creating it; (browser, is_new).  With
        ``local`` (a call from this computer) it is this computer's player, whatever the
        token: the games a browser played here under its own token become that player's."""
        with self._registry:
            if local and not self.options.browsers_apart:
                return self._local_for(token), False
            return self._browser_for(token)

    def local_browser(self) -> Browser:
        """This computer's player: its settings, and its current game (taken up from the
        store, or a new one stored on its first action)."""
        with self._registry:
            return self._local_browser()

    def _local_browser(self) -> Browser:
        if self.local is not None:
            return self.local
        self._open_store()
        store = self.store
        browser = Browser(token="", owner=LOCAL_OWNER)
        saved: dict[str, str] = {} if store is None else _quietly(
            lambda: store.settings(LOCAL_OWNER), {})
        browser.settings = dict(DEFAULT_SETTINGS) | table.decode_settings(saved)
        game_id = None if store is None or self.pending_deal is not None else _quietly(
            lambda: store.current_game(LOCAL_OWNER), None)
        session = None
        if store is not None and isinstance(game_id, int):
            try:
                session = PlaySession.resume(store, game_id)
            except (DevilsGripError, sqlite3.Error, OSError):
                session = None
        if session is not None and not session.final:
            browser.stored = True
            self.show(browser, session, Event("resume"))
        else:
            number, deck = self.pending_deal or (None, None)
            self.pending_deal = None
            self.show(browser, PlaySession.start(
                None, number=number, deck=deck, rules=self.rules_of(browser, None),
                owner=LOCAL_OWNER, store_error=self._store_error()), Event("new"))
        self.local = browser
        return browser

    def _local_for(self, token: str | None) -> Browser:
        local = self._local_browser()
        store = self.store
        if token is None or not TOKEN_RE.fullmatch(token) or self.browsers.get(token) is local:
            return local
        # a browser of this computer that played under its own token: its games are its
        # player's (stored sessions only: one never stored has nothing to hand over)
        owner = None if store is None else _quietly(lambda: store.web_session_owner(token), None)
        if store is not None and isinstance(owner, str) and owner != LOCAL_OWNER:
            _quietly(lambda: store.adopt_owner(owner, LOCAL_OWNER), None)
        self._remember(local, token)  # asked of the store once
        return local

    def pair(self, browser: Browser, code: str) -> bool:
        """Let ``browser`` (on another computer) in as this computer's player when ``code`` is
        the pairing code; its own games become that player's.  After :data:`PAIR_TRIES`
        wrong codes the code changes (and :attr:`on_pairing_code` is told the new one)."""
        with self._registry:
            wanted = self.pairing_code
            if wanted is None:
                return False
            typed = "".join(c for c in code if c in "0123456789")
            if not secrets.compare_digest(typed, wanted):
                self._pair_misses += 1
                if self._pair_misses >= PAIR_TRIES:
                    self._pair_misses = 0
                    self.pairing_code = _new_code()
                    if self.on_pairing_code is not None:
                        self.on_pairing_code(shown_code(self.pairing_code))
                return False
            local = self._local_browser()
            store = self.store
            if store is not None:
                if browser.stored:
                    _quietly(lambda: store.adopt_owner(browser.owner, LOCAL_OWNER), None)
                _quietly(lambda: store.set_web_session_owner(browser.token, LOCAL_OWNER), None)
            self._remember(local, browser.token)
            return True

    def _browser_for(self, token: str | None) -> tuple[Browser, bool]:
        found = self._known_browser(token)
        if found is not None:
            return found, False
        made = WebSession.new()
        browser = Browser(token=made.token, owner=made.owner)
        browser.settings = dict(DEFAULT_SETTINGS)
        number, deck = self.pending_deal or (None, None)
        self.pending_deal = None
        # nothing is stored before the browser acts: a request that only reads costs memory
        # (bounded below), never the database
        session = PlaySession.start(None, number=number, deck=deck,
                                    rules=self.rules_of(browser, None), owner=browser.owner,
                                    store_error=self._store_error())
        self.show(browser, session, Event("new"))
        self._remember(browser)
        return browser, True

    def keep(self, browser: Browser) -> Kept | None:
        """Store ``browser``'s session and its game, on its first action (call it holding the
        browser's lock).  A store that fails leaves the game playing unsaved, as it says.
        Returns what :meth:`unkeep` needs when the action is refused after all."""
        store = self.store
        if browser.stored or store is None:
            return None
        if browser.owner != LOCAL_OWNER and _quietly(
                lambda: store.create_web_session(WebSession(browser.token, browser.owner)),
                None) is None:
            browser.keep_failed = True
            return None
        browser.stored = True
        old = browser.session
        if old.saving or old.game.moves_played or old.final:
            return Kept(old, None)
        fresh = PlaySession.begin(store, old.game, browser.owner, self._store_error())
        fresh.play_seconds = old.elapsed()  # the clock ran since the page opened
        browser.table.session = fresh
        return Kept(old, fresh)

    def unkeep(self, browser: Browser, kept: Kept) -> None:
        """Undo :meth:`keep` after a refused first action, when nothing was played since:
        a refused request stores nothing."""
        store, fresh = self.store, kept.fresh
        if store is None or not browser.stored:
            return
        if fresh is not None:
            if browser.session is not fresh or fresh.game_id is None or fresh.game.moves_played \
                    or _quietly(lambda: store.event_count(fresh.game_id or 0), 1):
                return
            _quietly(lambda: store.delete_game(fresh.game_id or 0), None)
            browser.table.session = kept.old
        elif _quietly(lambda: store.settings(browser.owner), {}):
            return
        if browser.owner != LOCAL_OWNER:
            _quietly(lambda: store.delete_web_session(browser.token), None)
        browser.stored = False

    def pending(self, browser: Browser) -> bool:
        """Whether ``browser``'s game waits for its first action to be stored (it has not
        acted yet, and there is a database to store it in)."""
        return self.store is not None and not browser.stored and not browser.keep_failed

    def _store_error(self) -> StoreError | None:
        return self.warning_error if isinstance(self.warning_error, StoreError) else None

    def _remember(self, browser: Browser, token: str | None = None) -> None:
        """Keep ``browser`` in memory, found by ``token`` (by default its own); the least
        recently seen beyond the cap are dropped.

        With a store they come back from it on their next request; without one their
        unsaved game is lost (the page said it was not being saved), but memory stays
        bounded whatever arrives.
        """
        key = browser.token if token is None else token
        self.browsers[key] = browser
        self.browsers.move_to_end(key)
        limit = MAX_SESSIONS_IN_MEMORY if self.store is not None else MAX_UNSAVED_SESSIONS
        while len(self.browsers) > limit:
            self.browsers.popitem(last=False)

    def _load(self, store: Store, token: str, owner: str) -> Browser:
        """A browser known to the store (after a restart): its settings and current game."""
        browser = Browser(token=token, owner=owner, stored=True)
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
                session = PlaySession.resume(store, game_id)
            except (DevilsGripError, sqlite3.Error, OSError):
                pass
            else:
                self.show(browser, session, Event("resume"))
                return browser
        self.start_game(browser, None, None, None)
        return browser

    def start_game(
        self, browser: Browser, number: int | None, deck: str | None, rules: str | None
    ) -> None:
        """The first game of ``browser`` (a random numbered deal by default)."""
        session = PlaySession.start(
            self.store, number=number, deck=deck, rules=self.rules_of(browser, rules),
            owner=browser.owner, store_error=self._store_error(),
        )
        self.show(browser, session, Event("new"))

    def rules_of(self, browser: Browser, rules: str | None) -> str:
        """The rules of a new game: as asked, else the browser's setting, else the server's."""
        return rules or browser.settings.get("rules") or self.default_rules

    @staticmethod
    def show(browser: Browser, session: PlaySession, event: Event) -> None:
        """``browser`` plays ``session`` from now on (its first game, or one taken up)."""
        browser.table = Table(session, event=event)
        browser.solution = None

    def set_setting(self, browser: Browser, key: str, value: Any) -> None:
        browser.settings[key] = value
        store = self.store
        if store is None:
            return
        text = table.encode_setting(value)
        _quietly(lambda: store.set_setting(browser.owner, key, text), None)

    # ------------------------------------------------------------- language
    def language(self, accept: str | None, browser: Browser | None) -> str:
        """The language to answer in: the browser's setting, else what it accepts
        (``accept``: an Accept-Language header), else the server's."""
        if browser is not None:
            chosen = i18n.normalize_language(browser.settings.get("lang"))
            if chosen:
                return chosen
        header = accept
        if header:
            found = i18n.language_from_accept(header, "")
            if found:
                return found
        return self.server_lang


def _new_code() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(PAIR_CODE_DIGITS))


def shown_code(code: str) -> str:
    """A pairing code as the server prints it: ``1234-5678``."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def _loopback(host: str) -> bool:
    """Whether a server on ``host`` is reached from this computer only."""
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


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
