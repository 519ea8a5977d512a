"""The review of a finished game in the page, and the game history (Playwright in Debian's
Chromium, sync API): progress, the chart, a costly move shown with two arrows, the way back,
at a desktop's and a phone's size, with axe-core's checks (``make axe``).

Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from devilsgrip.game import Game
from devilsgrip.solver import play_game

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium")
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
AXE = Path(os.environ.get("DEVILSGRIP_AXE", ROOT / ".test-tools/node_modules/axe-core/axe.min.js"))

if CHROMIUM is None:  # pragma: no cover - depends on the machine
    pytest.skip("chromium is not installed", allow_module_level=True)

from playwright.sync_api import BrowserContext, Page  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

SIZES = [(1280, 800), (390, 844)]
IDS = ["desktop", "phone"]
NUMBER, RULES = 3, "single-pass"


@cache
def greedy_moves() -> tuple[str, ...]:
    """A whole single-pass game of the greedy player: it ends over, with cards lost."""
    game = play_game(Game(NUMBER, rules=RULES), "greedy")
    assert game.is_over() and game.score > 0
    return tuple(m.text() for m in game.move_stack)


def ready(page: Page) -> None:
    page.wait_for_function("() => document.body.dataset.ready && !document.body.dataset.busy")


def fetch(page: Page, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    text: str = page.evaluate(
        """([method, path, body]) => fetch(path, method === 'GET' ? {} : {method,
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body || {})})
            .then(r => r.text())""", [method, path, body])
    return json.loads(text)


def finished_page(make_context: Callable[..., BrowserContext], server_url: str,
                  width: int, height: int) -> Page:
    """A page whose game has ended over: the greedy line of a single-pass deal, played
    through the API, then the page loaded again (its end dialog opens)."""
    page = make_context(width, height).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(server_url + "/")
    ready(page)
    fetch(page, "POST", "/api/new", {"game": NUMBER, "rules": RULES})
    page.evaluate("""moves => (async () => { for (const move of moves) await fetch('/api/move',
        {method: 'POST', headers: {'Content-Type': 'application/json'},
         body: JSON.stringify({move})}); })()""", list(greedy_moves()))
    page.reload()
    ready(page)
    page.locator("#dlg-end").wait_for(state="visible")
    return page


def review_from_its_end(page: Page, number: int, moves: Sequence[str], *,
                        give_up: bool = False) -> None:
    """Deal ``number`` played through the API (``moves``, then given up if asked), the page
    loaded again, and the review opened from its end dialog, its chart drawn."""
    fetch(page, "POST", "/api/new", {"game": number})
    page.evaluate("""moves => (async () => { for (const move of moves) await fetch('/api/move',
        {method: 'POST', headers: {'Content-Type': 'application/json'},
         body: JSON.stringify({move})}); })()""", list(moves))
    if give_up:
        fetch(page, "POST", "/api/giveup")
    page.reload()
    ready(page)
    page.locator("#dlg-end").get_by_role("button", name="Review this game").click()
    page.locator("#review-chart svg").wait_for(state="visible", timeout=60_000)


def axe(page: Page) -> list[dict[str, Any]]:
    if not AXE.is_file():
        pytest.skip("axe-core is not installed (make axe)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))  # not a script tag: the page's CSP stays
    found: list[dict[str, Any]] = page.evaluate(
        """() => axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(
            v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))})))""")
    return found


def shown(page: Page) -> dict[str, Any]:
    """What the board shows: each cell's top card and count, the talon, the status."""
    result: dict[str, Any] = page.evaluate("""() => ({
        tops: [...document.querySelectorAll('[data-cell]')].map(c => c.dataset.top),
        counts: [...document.querySelectorAll('[data-cell]')].map(c => Number(c.dataset.count)),
        talon: Number(document.getElementById('talon').dataset.count),
        score: document.getElementById('score').textContent,
        moves: document.getElementById('moves').textContent})""")
    return result


def arrow_styles(page: Page) -> list[dict[str, Any]]:
    styles: list[dict[str, Any]] = page.evaluate("""() => [...document.querySelectorAll(
        '#move-layer g')].map(g => { const s = getComputedStyle(g.querySelector('.arrow'));
        return {kind: g.getAttribute('class'), from: g.dataset.from, to: g.dataset.to,
                stroke: s.stroke, dash: s.strokeDasharray, width: s.strokeWidth}; })""")
    return styles


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_a_finished_game_is_reviewed_in_the_page(
    make_context: Callable[..., BrowserContext], server_url: str, size: tuple[int, int],
) -> None:
    width, height = size
    page = finished_page(make_context, server_url, width, height)
    before = fetch(page, "GET", "/api/game")
    assert before["view"]["over"] and not before["game"]["final"]
    assert page.locator("#end-review").is_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    # the review runs on the server; the page shows how far it is, then the chart
    page.evaluate("""() => { window.sketched = 0; new MutationObserver(() => {
        const dots = document.querySelectorAll('#review-sketch svg circle.found').length;
        window.sketched = Math.max(window.sketched, dots); }).observe(document.body,
        {childList: true, subtree: true}); }""")
    started = time.monotonic()
    page.click("#end-review")
    dialog = page.locator("#dlg-review")
    dialog.wait_for(state="visible")
    page.locator("#review-body .review-progress progress").wait_for(state="attached")
    # the first values found are drawn while the review runs
    with contextlib.suppress(PlaywrightTimeout):
        page.locator("#review-sketch svg circle.found").first.wait_for(timeout=5_000)
        page.screenshot(path=str(ARTIFACTS / f"review-progress-{width}x{height}.png"))
    page.locator("#review-chart svg").wait_for(state="visible", timeout=60_000)
    assert page.locator("#review-chart svg path.best").count() >= 1
    seconds = time.monotonic() - started
    assert seconds < 30, seconds
    assert page.evaluate("() => window.sketched") >= 1, "nothing was shown before the end"
    page.screenshot(path=str(ARTIFACTS / f"review-chart-{width}x{height}.png"))
    doc = fetch(page, "GET", "/api/review")
    assert doc["status"] == "done" and doc["costly"]
    # the game is final now, and the page shows it (undo is off)
    after = fetch(page, "GET", "/api/game")
    assert after["game"]["final"] and not after["can_undo"]
    assert page.locator("#btn-undo").is_disabled()
    # the chart: readable at this size, one mark for each costly move, and the story
    chart = page.locator("#review-chart svg")
    box = chart.bounding_box()
    assert box is not None and box["width"] >= 280 and box["x"] >= 0
    assert box["x"] + box["width"] <= width
    assert page.locator("#review-chart .costly-mark").count() == len(doc["costly"])
    font = page.evaluate("() => parseFloat(getComputedStyle("
                         "document.querySelector('#review-chart .tick')).fontSize)")
    assert font >= 11
    values = [doc["review"]["start"], *doc["review"]["moves"]]
    if not all(v["proven"] for v in values):
        assert page.locator("#review-chart path.best.unproven").count() == 1
        assert page.locator(".review-chart .key.unproven").is_visible()
    assert doc["story"] in (page.locator("#review-body .story").text_content() or "")
    items = page.locator("ol.costly button")
    assert items.count() == len(doc["costly"])
    assert axe(page) == []  # the review dialog with its chart
    # a costly move: the position before it, with the move played and the better one
    costly = doc["costly"][-1]
    n = costly["n"]
    assert costly["text"] in (items.nth(len(doc["costly"]) - 1).text_content() or "")
    sent: list[str] = []
    page.on("request", lambda r: sent.append(f"{r.method} {r.url}") if r.method != "GET" else None)
    items.nth(len(doc["costly"]) - 1).click()
    ready(page)
    assert not dialog.is_visible()
    bar = page.locator("#solution-bar")
    assert bar.is_visible() and bar.get_attribute("data-index") == str(n - 1)
    position = doc["positions"][n - 1]
    board = shown(page)
    assert board["tops"] == [p[-1] if p else "" for p in position["grid"]]
    assert board["counts"] == [len(p) for p in position["grid"]]
    assert board["score"] == str(position["score"]) and board["moves"] == str(n - 1)
    styles = arrow_styles(page)
    assert [s["kind"] for s in styles] == ["played", "better"]
    played, better = styles
    assert [played["from"], played["to"]] == costly["arrows"]["played"]
    assert [better["from"], better["to"]] == costly["arrows"]["better"]
    assert played["stroke"] != better["stroke"] and played["dash"] != better["dash"]
    assert "rgb(255, 111, 216)" not in (played["stroke"], better["stroke"])  # the hint's pink
    legend = page.locator("#sol-legend")
    assert costly["played_text"] in (legend.text_content() or "")
    assert costly["better_text"] in (legend.text_content() or "")
    page.screenshot(path=str(ARTIFACTS / f"review-move-{width}x{height}.png"))
    assert axe(page) == []  # the viewer with the review's arrows
    # steps from there: the next position is the game after move n
    page.click("#sol-next")
    ready(page)
    nxt = doc["positions"][n]
    assert shown(page)["tops"] == [p[-1] if p else "" for p in nxt["grid"]]
    assert bar.get_attribute("data-index") == str(n)
    if n + 1 not in {c["n"] for c in doc["costly"]}:
        assert page.locator("#move-layer g").count() == 0
    page.click("#sol-prev")
    ready(page)
    assert len(arrow_styles(page)) == 2
    # closing goes back to the review, and the game is still as it ended
    page.click("#sol-stop")
    dialog.wait_for(state="visible")
    page.locator("#review-chart svg").wait_for(state="visible")
    assert page.evaluate("() => document.activeElement.dataset.n") == str(n)
    assert sent == []  # watching sends nothing
    page.keyboard.press("Escape")
    assert shown(page)["moves"] == str(before["view"]["moves"])
    assert page.locator("#move-layer g").count() == 0
    errors: list[str] = page.errors  # type: ignore[attr-defined]
    assert errors == [], errors


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_game_history_lists_finished_games_and_opens_their_review(
    make_context: Callable[..., BrowserContext], server_url: str, size: tuple[int, int],
) -> None:
    width, height = size
    page = finished_page(make_context, server_url, width, height)
    page.keyboard.press("Escape")
    # a second game, given up after a few moves, and a third in play
    fetch(page, "POST", "/api/new", {"game": 1})
    for move in ("d", "d"):
        fetch(page, "POST", "/api/move", {"move": move})
    fetch(page, "POST", "/api/giveup")
    fetch(page, "POST", "/api/new", {"game": 2})
    page.reload()
    ready(page)
    page.click("#btn-menu")
    page.locator("#menu-list").get_by_role("button", name="Game history").click()
    dialog = page.locator("#dlg-history")
    dialog.wait_for(state="visible")
    rows = page.locator("table.history tbody tr")
    rows.first.wait_for(state="visible")
    assert rows.count() == 2
    first, second = (rows.nth(k).text_content() or "" for k in range(2))
    assert "#1" in first and "Classic" in first and "72" in first  # the latest first
    assert "#3" in second and "Single pass" in second and str(len(greedy_moves())) in second
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"history-{width}x{height}.png"))
    assert axe(page) == []
    # every cell is on the screen at this size
    boxes = page.evaluate("""() => [...document.querySelectorAll('table.history th, '
        + 'table.history td')].filter(c => c.offsetParent).map(c => {
        const r = c.getBoundingClientRect(); return [r.left, r.right]; })""")
    assert all(left >= 0 and right <= width for left, right in boxes), boxes
    # the single-pass game's review, from its row
    rows.nth(1).get_by_role("button").click()
    review = page.locator("#dlg-review")
    review.wait_for(state="visible")
    page.locator("#review-chart svg").wait_for(state="visible", timeout=60_000)
    assert page.locator("#review-chart svg path.best").count() >= 1
    # a game that ended over ends where its line does: no mark above it
    assert page.locator("#review-chart .ended").count() == 0
    assert page.locator("#review-history").is_visible()
    assert "Game 3" in (page.locator("#review-game").text_content() or "")
    page.locator("ol.costly button").first.click()
    ready(page)
    assert page.locator("#deal-number").text_content() == "#3"  # the reviewed deal, not #2
    # its rules by their label, not their text (single-pass), nor those of the game in play
    assert "Rules: Single pass" in (page.locator("#rules-line").text_content() or "")
    assert len(arrow_styles(page)) >= 1
    page.keyboard.press("Escape")  # back to the review
    review.wait_for(state="visible")
    page.click("#review-history")
    dialog.wait_for(state="visible")
    assert rows.nth(1).get_by_role("button").text_content() == "See the review"
    page.keyboard.press("Escape")
    assert page.locator("#deal-number").text_content() == "#2"
    assert "Rules: Classic" in (page.locator("#rules-line").text_content() or "")
    errors: list[str] = page.errors  # type: ignore[attr-defined]
    assert errors == [], errors


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_a_game_given_up_shows_where_it_ended_above_the_best_line(
    make_context: Callable[..., BrowserContext], server_url: str, size: tuple[int, int],
) -> None:
    """Given up with 72 cards out where a win was still there: the chart marks the end at
    72, above the end of the line at 0, its scale reaching it, and the legend says what
    the mark is."""
    width, height = size
    page = make_context(width, height).new_page()
    page.goto(server_url + "/")
    ready(page)
    review_from_its_end(page, 1, ("d", "d"), give_up=True)
    mark = page.locator("#review-chart .ended")
    assert mark.count() == 1
    assert page.locator("#review-chart .ended-label").text_content() == "ended at 72"
    dot = mark.bounding_box()
    ticks = page.eval_on_selector_all(
        "#review-chart .tick", "els => els.map(e => [e.textContent, e.getBoundingClientRect().y])")
    zero = next(y for text, y in ticks if text == "0")
    assert dot is not None and dot["y"] < zero - 100  # far above the line at 0
    assert "the score the game ended with" in (
        page.locator("#dlg-review figcaption").text_content() or "")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"review-given-up-{width}x{height}.png"))
    assert axe(page) == []


def test_a_review_that_left_values_open_looks_longer_when_asked(
    make_server: Callable[..., Any], make_context: Callable[..., BrowserContext],
) -> None:
    """A review of 0.2 s leaves values open in a long classic game: the note that says so
    offers to look longer; the press asks the server to review it anew, the page follows
    that review and shows it; a review with every value proven offers nothing."""
    server = make_server(review_time=0.2)
    page = make_context(390, 844).new_page()
    page.goto(server.url + "/")
    ready(page)
    review_from_its_end(page, 143, [m.text() for m in play_game(Game(143), "greedy").move_stack])
    first = fetch(page, "GET", "/api/review")
    assert first["proven_share"] < 1
    button = page.locator("p.open-values #review-longer")
    assert button.is_visible() and button.text_content() == "Look longer"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "review-open-values-390x844.png"))
    with page.expect_request(lambda r: r.url.endswith("/api/review") and r.method == "POST"
                             and (r.post_data_json or {}).get("longer") is True):
        button.click()
    page.locator("#review-chart svg").wait_for(state="visible", timeout=60_000)
    second = fetch(page, "GET", "/api/review")
    assert second["status"] == "done" and second["proven_share"] >= first["proven_share"]
    shown = page.locator("p.open-values")
    assert (shown.count() == 0) == (second["proven_share"] == 1)
    # a game whose review proves every value: no offer
    review_from_its_end(page, 1, ("d", "d"), give_up=True)
    assert page.locator("#review-longer").count() == 0
