"""The page's daily deal, winnable deals, share and deal links, in Chromium."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from devilsgrip.catalog import winnable_deals, winnable_line
from devilsgrip.daily import daily_deal

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

if shutil.which("chromium") is None:  # pragma: no cover - depends on the machine
    pytest.skip("chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, Page  # noqa: E402

SIZES = {"wide": (1280, 800, False), "phone": (390, 844, True), "small": (360, 640, True)}


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    contexts = []

    def open_(url: str, size: str = "wide") -> Page:
        width, height, touch = SIZES[size]
        context = browser.new_context(viewport={"width": width, "height": height},
                                      has_touch=touch, is_mobile=touch,
                                      reduced_motion="reduce")
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors = errors  # type: ignore[attr-defined]
        page.goto(url)
        ready(page)
        return page

    yield open_
    for context in contexts:
        context.close()


def ready(page: Page) -> None:
    page.wait_for_function("() => document.body.dataset.ready && !document.body.dataset.busy")


def api(page: Page, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    return page.evaluate(
        """([m, p, b]) => fetch(p, m === 'GET' ? {} : {method: m, headers:
             {'Content-Type': 'application/json'}, body: JSON.stringify(b || {})})
             .then(r => r.json())""", [method, path, body])


def local_day(page: Page) -> str:
    day: str = page.evaluate("""() => { const d = new Date();
        return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${
        String(d.getDate()).padStart(2, '0')}`; }""")
    return day


@pytest.mark.parametrize("size", ["wide", "phone", "small"])
def test_daily_calendar_and_share(size: str, make_server: Callable[..., Any],
                                  open_page: Callable[..., Page]) -> None:
    server = make_server(rules="single-pass", game=3)
    page = open_page(server.url + "/", size)
    if page.is_visible("#btn-daily"):
        page.click("#btn-daily")
    else:
        page.click("#btn-menu")
        page.click("#menu-list button:has-text('Daily deal')")
    page.wait_for_selector("#daily-calendar .day.today")
    today = local_day(page)
    number = daily_deal(date.fromisoformat(today), "single-pass")
    assert f"game {number}" in page.inner_text("#daily-today")
    assert page.inner_text("#daily-result") == "Not played yet."
    assert "can always be won" in page.inner_text("#daily-note")  # the answer says so
    assert page.locator("#daily-calendar button.day").count() == 35
    # the months the five weeks cover are named above them
    last = date.fromisoformat(today)
    first = last - timedelta(days=34)
    months = page.inner_text("#daily-months")
    for day in (first, last):
        assert day.strftime("%B") in months and str(day.year) in months, months
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"daily-{size}.png"))
    page.click("#daily-play")
    ready(page)
    st = api(page, "GET", "/api/game")
    assert st["game"]["daily"] == today and st["game"]["number"] == number
    # the catalogued line wins it; then the end dialog offers the share
    line = winnable_line(number)
    assert line is not None
    for move in line:
        api(page, "POST", "/api/move", {"move": move.text()})
    page.reload()
    ready(page)
    page.wait_for_selector("#dlg-end[open]")
    page.click("#end-share")
    page.wait_for_selector("#dlg-share[open]")
    text = page.inner_text("#share-text")
    assert f"daily deal of {today}" in text and "Won: no card left!" in text
    assert "Best possible score of this deal: 0" in text
    link = page.inner_text("#share-link")
    assert link.endswith(f"/?game={number}&rules=single-pass")
    page.screenshot(path=str(ARTIFACTS / f"share-{size}.png"))
    page.click("#share-send")
    page.wait_for_function("() => document.getElementById('share-status').textContent")
    assert page.inner_text("#share-status") == "Copied to the clipboard."
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == f"{text}\n{link}"
    # the calendar now shows the day won, and the streak
    page.click("#dlg-share .close")
    api(page, "POST", "/api/new", {"game": 5, "rules": "single-pass"})
    page.reload()
    ready(page)
    page.evaluate("() => document.getElementById('btn-menu').click()")
    page.click("#menu-list button:has-text('Daily deal')")
    page.wait_for_selector("#daily-calendar .day.today.won")
    assert "Daily streak: 1 day" in page.inner_text("#daily-streak")
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_link_opens_its_deal_asking_before_leaving_a_game(
        make_server: Callable[..., Any], open_page: Callable[..., Page]) -> None:
    server = make_server(game=5)
    page = open_page(server.url + "/")
    api(page, "POST", "/api/stock")
    page.goto(server.url + "/?game=1234&rules=literal")
    ready(page)
    page.wait_for_selector("#dlg-confirm[open]")
    assert "Leave this game?" in page.inner_text("#confirm-title")
    page.click("#confirm-yes")
    page.wait_for_function("() => document.getElementById('deal-number').textContent === '#1234'")
    st = api(page, "GET", "/api/game")
    assert st["game"]["number"] == 1234 and st["game"]["rules"] == "literal"
    assert "?" not in page.url  # the address no longer holds the link
    # with nothing to lose it opens at once
    page.goto(server.url + "/?game=77&rules=classic")
    ready(page)
    page.wait_for_function("() => document.getElementById('deal-number').textContent === '#77'")
    assert not page.is_visible("#dlg-confirm")
    assert page.errors == []  # type: ignore[attr-defined]


def test_winnable_deals_only_in_the_new_game_dialog(
        make_server: Callable[..., Any], open_page: Callable[..., Page]) -> None:
    server = make_server(rules="single-pass", game=22)
    page = open_page(server.url + "/")
    page.click("#btn-new")
    page.wait_for_selector("#dlg-new[open]")
    assert page.is_visible("#new-winnable")
    page.check("#new-winnable")
    page.click("#new-random")
    page.wait_for_function("() => document.getElementById('deal-number').textContent !== '#22'")
    ready(page)
    catalogued = {e.game for e in winnable_deals()}
    assert api(page, "GET", "/api/game")["game"]["number"] in catalogued
    assert api(page, "GET", "/api/settings")["winnable"] is True
    page.click("#btn-new")
    assert page.is_checked("#new-winnable")
    page.click("#dlg-new .close")
    # the classic rules have no catalog: the choice is not offered
    api(page, "POST", "/api/settings", {"rules": "classic"})
    page.reload()
    ready(page)
    page.click("#btn-new")
    assert not page.is_visible("#new-winnable")
