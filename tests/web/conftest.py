"""Shared fixtures of the web tests: live servers and test clients.

- ``server_url``: the base URL (``http://127.0.0.1:PORT``, no trailing slash)
  of a live uvicorn server running in a thread, with a fresh temporary
  database for each test module.
- ``make_server(**options)``: start another live server with
  :class:`devilsgrip.web.server.ServerOptions` fields as keywords (``game=5``,
  ``lang="fr"``, ``db=path``, ``use_store=False`` ...; ``db`` defaults to a
  fresh temporary file).  Returns a :class:`LiveServer` (``.url``, ``.db``,
  ``.port``, ``.app``, ``.stop()``); stopped after the test.
- ``client`` / ``make_client(app=None, **options)``: Starlette ``TestClient``
  (lifespan running) whose requests carry the right ``Origin``.
- ``browser``: Debian's Chromium under Playwright, one per test module;
  ``make_context(width=1280, height=800, motion="reduce")``: a fresh browser
  context of that viewport, closed after the test.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from devilsgrip.web.server import ServerOptions, ServerThread, create_app

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext


class LiveServer:
    """A running server: ``url`` (no trailing slash), ``db``, ``port``, ``app``."""

    def __init__(self, thread: ServerThread) -> None:
        self._thread = thread
        self.url: str = thread.url
        self.port: int = thread.port
        self.db: Path | None = thread.options.db
        self.app: Starlette = thread.app
        self.options = thread.options

    def stop(self) -> None:
        self._thread.stop()

    def __str__(self) -> str:
        return self.url


def start_server(db: Path | None, **options: Any) -> LiveServer:
    # each browser context its own player, unless a test asks for this computer's player
    options.setdefault("browsers_apart", True)
    opts = ServerOptions(db=db, hint_time=options.pop("hint_time", 0.5),
                         solve_time=options.pop("solve_time", 5.0),
                         review_time=options.pop("review_time", 2.0), **options)
    return LiveServer(ServerThread(opts).start())


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="dg-web-") as tmp:
        server = start_server(Path(tmp) / "games.sqlite3")
        try:
            yield server.url
        finally:
            server.stop()


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    servers: list[LiveServer] = []
    counter = iter(range(1_000_000))

    def make(**options: Any) -> LiveServer:
        if "db" not in options and options.get("use_store", True):
            options["db"] = tmp_path / f"server-{next(counter)}.sqlite3"
        server = start_server(**options)
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


ORIGIN = "http://testserver"


def origin_client(app: Starlette) -> TestClient:
    """A TestClient whose requests come from the page's own origin."""
    return TestClient(app, headers={"origin": ORIGIN})


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Callable[..., TestClient]]:
    clients: list[TestClient] = []
    counter = iter(range(1_000_000))

    def make(app: Starlette | None = None, **options: Any) -> TestClient:
        if app is None:
            if "db" not in options and options.get("use_store", True):
                options["db"] = tmp_path / f"client-{next(counter)}.sqlite3"
            options.setdefault("extra_hosts", ("testserver",))
            options.setdefault("hint_time", 0.3)
            options.setdefault("solve_time", 1.0)
            options.setdefault("review_time", 1.0)
            app = create_app(ServerOptions(**options))
        client = origin_client(app)
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    """A client of a fresh app (temporary database, game 1 first)."""
    return make_client(game=1)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium (the browser tests skip themselves when it is missing)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=shutil.which("chromium"),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def make_context(browser: Browser) -> Iterator[Callable[..., BrowserContext]]:
    contexts: list[BrowserContext] = []

    def make(width: int = 1280, height: int = 800, motion: str = "reduce") -> BrowserContext:
        context = browser.new_context(viewport={"width": width, "height": height},
                                      reduced_motion=motion)  # type: ignore[arg-type]
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
