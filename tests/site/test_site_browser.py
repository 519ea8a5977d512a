"""The static site in Chromium: built once with the real Pyodide runtime, served by a
plain static server on loopback, played by clicks and keys, reloaded, played with
the server stopped and the network off, installed (manifest and service worker),
rebuilt (the new cache replaces the old), checked by axe-core.

One browser and one built site for the module: a Chromium running Pyodide is slow
on a small machine, so the flows are few and each covers a whole story.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import functools
import http.server
import importlib
import json
import os
import queue
import shutil
import sys
import threading
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from devilsgrip.cards import PREV, parse_card
from devilsgrip.game import Game
from devilsgrip.site.build import PYODIDE_FILES, PYODIDE_PLACES, build_site

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ROOT / PYODIDE_PLACES[0]
AXE = Path(os.environ.get("DEVILSGRIP_AXE", ROOT / ".test-tools/node_modules/axe-core/axe.min.js"))
START = 180_000
"""Milliseconds a start may take: Pyodide's first start on a busy 2-core machine."""

if shutil.which("chromium") is None:
    pytest.skip("Chromium is not installed (make browser)", allow_module_level=True)
if not all((RUNTIME / name).is_file() for name in PYODIDE_FILES):
    pytest.skip("the Pyodide runtime is not installed (make pyodide)", allow_module_level=True)


class StaticServer:
    """A plain static file server of one folder on loopback, in a thread; it can stop
    and start again on the same port (the same origin for the service worker)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = 0
        self.httpd: http.server.ThreadingHTTPServer | None = None
        self.start()

    def start(self) -> None:
        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

        handler = functools.partial(Quiet, directory=str(self.folder))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("site") / "site"
    build_site(folder, RUNTIME)
    return folder


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=shutil.which("chromium"),
                              args=["--no-sandbox", "--disable-gpu",
                                    "--disable-background-networking"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def server(site: Path) -> Iterator[StaticServer]:
    served = StaticServer(site)
    yield served
    served.stop()


def ready(page: Any) -> dict[str, Any]:
    """Wait for the board to be playable; the page's texts that tell the game."""
    page.wait_for_function("document.body.dataset.ready === '1'"
                           " && !document.getElementById('site-loading')", timeout=START)
    return {"deal": page.inner_text("#deal-number"), "moves": page.inner_text("#moves"),
            "score": page.inner_text("#score")}


def resumed_without_snapshot(page: Any) -> bool:
    """Whether the worker imported the game's modules on this start (no snapshot)."""
    return bool(page.evaluate("performance.getEntriesByType('mark').some("
                              "m => m.name.startsWith(\"devilsgrip:Loading the game's\"))"))


def refusing_cell(page: Any) -> str:
    """A grid cell whose top card the talon's top card cannot be built on: the site deals
    a game of its own choosing, where a fixed cell would now and then take the card."""
    under = PREV[parse_card(page.get_attribute("#talon", "data-top"))]
    return next(cell.get_attribute("data-cell")
                for cell in page.query_selector_all("[data-cell]")
                if cell.get_attribute("data-top")
                and parse_card(cell.get_attribute("data-top")) != under)


def moves_become(page: Any, count: int) -> None:
    page.wait_for_function(f"document.getElementById('moves').textContent === '{count}'",
                           timeout=30_000)


def test_plays_reloads_and_plays_offline(browser: Any, server: StaticServer) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    page.goto(server.url)
    first = ready(page)
    assert first["moves"] == "0" and first["deal"].startswith("#")
    # the service worker controls the page and keeps every file of the site
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    kept = page.evaluate("caches.keys()")
    assert len(kept) == 2 and kept[0].startswith("devilsgrip-"), kept
    assert "devilsgrip-snapshot" in kept  # Python with the game imported, for the next start
    # clicks: the stock deals; keys: u undoes, U redoes
    page.click("#stock")
    moves_become(page, 1)
    # the live region speaks after the cards have flown, one frame after it is emptied
    page.wait_for_function(
        "document.getElementById('announce').textContent.includes('Dealt 3 cards')")
    page.locator("#board").focus()
    page.keyboard.press("u")
    moves_become(page, 0)
    page.keyboard.press("Shift+U")
    moves_become(page, 1)
    page.keyboard.press("d")
    moves_become(page, 2)
    # a drop the rules refuse: the reason, in words, and nothing changes
    bad = refusing_cell(page)
    page.click("#talon")
    page.click(f"[data-cell='{bad}']")
    page.wait_for_function("document.getElementById('message').textContent.length > 0")
    assert page.inner_text("#moves") in ("2", "3")
    played = page.inner_text("#moves")
    # a reload: the same game, from the browser's own store
    page.reload()
    assert ready(page) == {"deal": first["deal"], "moves": played,
                           "score": page.inner_text("#score")}
    assert not resumed_without_snapshot(page)
    # the static server stopped and the network off: the game loads and plays on
    server.stop()
    context.set_offline(True)
    page.reload()
    again = ready(page)
    assert again["deal"] == first["deal"] and again["moves"] == played
    page.click("#stock")
    moves_become(page, int(played) + 1)
    assert all(r.startswith(server.url) for r in requests), "a request left the site"
    assert errors == []
    context.close()


def test_two_tabs_play_one_game(browser: Any, server: StaticServer) -> None:
    """Two tabs of the site in one browser: each plays on the games as the other left
    them, so no move of either is lost (each tab has its own worker and its own copy of
    the games folder)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  reduced_motion="reduce")
    errors: list[str] = []
    first = context.new_page()
    first.on("pageerror", lambda e: errors.append(str(e)))
    first.goto(server.url)
    deal = ready(first)["deal"]
    first.click("#stock")
    moves_become(first, 1)
    second = context.new_page()
    second.on("pageerror", lambda e: errors.append(str(e)))
    second.goto(server.url)
    assert ready(second)["deal"] == deal and second.inner_text("#moves") == "1"
    second.click("#stock")
    moves_become(second, 2)
    first.click("#stock")  # played on the game with the second tab's move in it
    moves_become(first, 3)
    second.reload()
    assert ready(second)["deal"] == deal and second.inner_text("#moves") == "3"
    first.reload()
    assert ready(first)["deal"] == deal and first.inner_text("#moves") == "3"
    # a tab that played and was closed: the other plays on with its move
    second.click("#stock")
    moves_become(second, 4)
    second.close()
    first.click("#stock")
    moves_become(first, 5)
    first.reload()
    assert ready(first)["moves"] == "5"
    assert errors == []
    context.close()


def test_installable_and_accessible(browser: Any, server: StaticServer) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  reduced_motion="reduce")
    page = context.new_page()
    page.goto(server.url)
    ready(page)
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    assert json.loads(manifest["data"])["display"] == "standalone"
    problems = [e["errorId"] for e in
                cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]]
    # a Playwright context is a private window, where Chromium installs nothing: the
    # site itself must add no other reason
    assert [p for p in problems if p != "in-incognito"] == []
    if not AXE.is_file():
        pytest.skip("axe-core is not installed (make axe)")
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate(
        """() => axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(
            v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))})))""")
    assert found == []
    context.close()


FOUR_COLOUR_DIAMONDS = """async () => {
  const cards = Array.from(document.querySelectorAll("img")).filter((i) => /D\\.svg$/.test(i.src));
  const texts = await Promise.all(cards.map((i) => fetch(i.src).then((r) => r.text())));
  return { shown: cards.length, broken: cards.filter((i) => i.naturalWidth === 0).length,
           blue: texts.filter((t) => t.includes("#0b57b8")).length };
}"""


@pytest.mark.parametrize("workers", ["allow", "block"])
def test_the_first_visit_shows_the_cards_of_the_players_setting(
        browser: Any, server: StaticServer, workers: str) -> None:
    """On the first visit, with or without a service worker (a host reached by plain
    http on the local network has none), the cards are those of the player's setting."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  reduced_motion="reduce", service_workers=workers)
    page = context.new_page()
    page.goto(server.url)
    ready(page)
    page.wait_for_function("document.querySelectorAll('img[src$=\"D.svg\"]').length > 0")
    first = page.evaluate(FOUR_COLOUR_DIAMONDS)
    assert first["shown"] > 0 and first["broken"] == 0 and first["blue"] == 0, first
    assert page.evaluate(CALL, ["POST", "/api/settings", {"four_colour": True}])["ok"]
    page.reload()
    ready(page)
    page.wait_for_function("document.querySelectorAll('img[src*=\"cards/four/\"]').length > 0")
    four = page.evaluate(FOUR_COLOUR_DIAMONDS)
    assert four["shown"] > 0 and four["broken"] == 0 and four["blue"] == four["shown"], four
    context.close()


def test_a_new_build_replaces_the_old_cache(browser: Any, site: Path, server: StaticServer,
                                            tmp_path: Path) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(server.url)
    ready(page)
    page.click("#stock")
    moves_become(page, 1)
    old = page.evaluate("caches.keys()")
    runtime = tmp_path / "pyodide"  # the same runtime, one byte changed: a new build
    shutil.copytree(RUNTIME, runtime)
    with (runtime / "pyodide-lock.json").open("ab") as f:
        f.write(b"\n")
    new = build_site(site, runtime)
    try:
        page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        wanted = [f"devilsgrip-{new.version}"]
        until = time.monotonic() + START / 1000
        while page.evaluate("caches.keys()") != wanted and time.monotonic() < until:
            page.wait_for_timeout(500)
        assert page.evaluate("caches.keys()") == wanted
        assert old != [f"devilsgrip-{new.version}"]
        page.reload()
        assert ready(page)["moves"] == "1"  # the games are the browser's, not the cache's
    finally:
        build_site(site, RUNTIME)
    context.close()


def test_games_go_out_and_come_in_as_files(browser: Any, server: StaticServer,
                                            tmp_path: Path) -> None:
    """The menu's export downloads the records file the desktop program imports, and its
    import reads one the player chooses into the browser's own store."""
    from devilsgrip.cli import main
    from devilsgrip.store import Store

    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  reduced_motion="reduce", accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url)
    ready(page)
    for path in ("/api/stock", "/api/giveup"):
        assert page.evaluate(CALL, ["POST", path, {}])["ok"]

    def menu(entry: str) -> None:
        page.click("#btn-menu")
        page.locator("#menu-list").get_by_role("button", name=entry, exact=True).click()

    def answer() -> str:
        page.wait_for_function("() => document.getElementById('dlg-records').open"
                               " && !document.getElementById('records-body').textContent"
                               ".endsWith('…')", timeout=60_000)
        return str(page.inner_text("#records-body"))

    with page.expect_download(timeout=60_000) as waiting:
        menu("Export games")
    saved = tmp_path / waiting.value.suggested_filename
    waiting.value.save_as(saved)
    assert answer().startswith("1 game exported to devilsgrip-games-")
    desktop = tmp_path / "desktop.sqlite3"
    assert main(["import", str(saved), "--db", str(desktop)]) == 0
    with Store.open(desktop) as store:
        [kept] = store.games()
        assert (kept.status, kept.moves) == ("given up", 1)
    # the desktop program's export of another deal comes in
    with Store.open(desktop) as store:
        game = Game(8)
        game.play_text("d")
        store.save_game(game, "local", started="2026-12-01T10:00:00+00:00")
    records = tmp_path / "desktop.txt"
    assert main(["export", "--all", "--out", str(records), "--db", str(desktop)]) == 0
    page.locator("#dlg-records .close").click()
    with page.expect_file_chooser() as chooser:
        menu("Import games…")
    chooser.value.set_files(str(records))
    assert answer() == "1 game imported. 1 game was already kept."
    history = page.evaluate(CALL, ["GET", "/api/history", None])["data"]
    assert history["total"] == 1  # the new one is not finished: it is kept, not in the history
    stats = page.evaluate(CALL, ["GET", "/api/stats", None])["data"]
    assert stats["unfinished"] >= 1
    # a reload: the imported game is in the browser's store
    page.reload()
    ready(page)
    again = page.evaluate(CALL, ["GET", "/api/export", None])["data"]
    assert again["count"] == 2 and '[Game "8"]' in again["text"]
    assert errors == []
    context.close()


# ---------------------------------------------- the table's scenarios, a third driver
TABLE_TESTS = ROOT / "tests" / "table"
SITE_SCENARIOS = ("win then undo", "play again after a win", "leave mid-game",
                  "leave with no move", "solution then undo", "give up", "restart",
                  "daily twice counts once")
"""The lifecycle scenarios of tests/table/test_both_screens.py that the built site plays
too (all but the clock's, which moves the session's clock by hand: no hand reaches the
clock inside the browser)."""

CALL = """async ([method, path, body]) => {
  const { request } = await import("./static/transport.js");
  try {
    return { ok: true, data: await request(method, path, body) };
  } catch (error) {
    return { ok: false, status: error.status, code: error.code, message: error.message };
  }
}"""


class SiteDriver:
    """Plays one player's games in the built site, through the page's own ``request()``
    (the site's transport to the worker), and reads the outcome from the same answers.

    Playwright's pages answer in the thread that made them, and the scenarios are
    coroutines run in a thread of their own: each call is handed to the page's thread
    (``on_page``) and waited for."""

    name = "site"

    def __init__(self, on_page: Any) -> None:
        self.on_page = on_page

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        def run(page: Any) -> Any:
            return page.evaluate(CALL, [method, path, body])

        return self.on_page(run)

    def _state(self, method: str, path: str, body: dict[str, Any] | None = None) -> None:
        answer = self._call(method, path, body if method == "POST" else None)
        assert answer["ok"] and "view" in answer["data"], answer

    async def play(self, move: str) -> None:
        self._state("POST", "/api/move", {"move": move})

    async def undo(self) -> str:
        answer = self._call("POST", "/api/undo", {})
        return str(answer["data"]["announce"] if answer["ok"] else answer["message"])

    async def new_game(self, number: int | None = None) -> None:
        self._state("POST", "/api/new", {} if number is None else {"game": number})

    async def play_again(self) -> None:
        self._state("POST", "/api/restart", {})

    async def give_up(self) -> None:
        self._state("POST", "/api/giveup", {})

    async def show_solution(self) -> None:
        answer = self._call("POST", "/api/solution", {})
        assert answer["ok"] and answer["data"]["moves"], answer

    async def daily(self) -> None:
        rules = self._call("GET", "/api/game")["data"]["game"]["rules"]
        self._state("POST", "/api/daily", {"date": date.today().isoformat(), "rules": rules})

    async def share(self) -> str:
        answer = self._call("GET", "/api/share")
        assert answer["ok"], answer
        return str(answer["data"]["text"])

    def daily_results(self, rules: str) -> dict[str, int]:
        query = urlencode({"date": date.today().isoformat(), "rules": rules})
        answer = self._call("GET", f"/api/daily?{query}")
        assert answer["ok"], answer
        return {day["date"]: day["result"]["id"] for day in answer["data"]["days"]
                if day["result"] is not None}

    async def hide(self) -> None:
        assert self._call("POST", "/api/clock", {"running": False})["ok"]

    async def show(self) -> None:
        assert self._call("POST", "/api/clock", {"running": True})["ok"]

    def state(self) -> dict[str, Any]:
        answer = self._call("GET", "/api/game")
        v, g = answer["data"]["view"], answer["data"]["game"]
        return {"id": g["id"], "number": int(g["number"]), "moves": v["moves"],
                "score": v["score"], "final": g["final"], "over": v["over"], "won": v["won"],
                "can_undo": answer["data"]["can_undo"], "elapsed": g["elapsed"]}

    def stats(self) -> Any:
        from devilsgrip.store import Stats

        answer = self._call("GET", "/api/stats")
        assert answer["ok"] and answer["data"]["saving"], answer
        names = {f.name for f in dataclasses.fields(Stats)}
        return Stats(**{k: v for k, v in answer["data"].items() if k in names} | {"owner": None})


@pytest.mark.parametrize("name", SITE_SCENARIOS)
def test_lifecycle_in_the_site(browser: Any, server: StaticServer, name: str) -> None:
    if str(TABLE_TESTS) not in sys.path:
        sys.path.insert(0, str(TABLE_TESTS))
    both = importlib.import_module("test_both_screens")
    scenario, number, rules = both.SCENARIOS[name]
    context = browser.new_context(reduced_motion="reduce")  # a new browser: no games yet
    page = context.new_page()
    page.goto(server.url)
    ready(page)
    calls: queue.Queue[Any] = queue.Queue()

    def on_page(work: Any) -> Any:  # from the scenario's thread
        done: concurrent.futures.Future[Any] = concurrent.futures.Future()
        calls.put((work, done))
        return done.result()

    first = page.evaluate(CALL, ["POST", "/api/new", {"game": number, "rules": rules}])
    assert first["ok"], first
    driver = SiteDriver(on_page)
    failed: list[BaseException] = []

    def play() -> None:
        try:
            asyncio.run(scenario(driver))
        except BaseException as exc:
            failed.append(exc)
        finally:
            calls.put(None)

    threading.Thread(target=play, name=f"scenario {name}", daemon=True).start()
    while (item := calls.get(timeout=600)) is not None:
        work, done = item
        try:
            done.set_result(work(page))
        except BaseException as exc:
            done.set_exception(exc)
    context.close()
    if failed:
        raise failed[0]
