"""End-to-end tests of the browser game in Debian's Chromium (Playwright, sync API).

Each test opens a fresh browser context (so a fresh session cookie and its own
game) on the module's live server, deals a known game and plays through the
page: drag and drop, clicks, the keyboard.  Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from devilsgrip.cards import CELL_NAMES
from devilsgrip.game import Game
from devilsgrip.web.api import view_dict

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

if CHROMIUM is None:  # pragma: no cover - depends on the machine
    pytest.skip("chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect  # noqa: E402

State = dict[str, Any]


@pytest.fixture
def open_page(browser: Browser, server_url: str) -> Iterator[Callable[..., Page]]:
    contexts = []

    def open_(number: int | None = 1, *, width: int = 1280, height: int = 800,
              motion: str = "reduce") -> Page:
        context = browser.new_context(
            viewport={"width": width, "height": height}, reduced_motion=motion  # type: ignore[arg-type]
        )
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.errors = errors  # type: ignore[attr-defined]
        page.goto(server_url + "/")
        ready(page)
        if number is not None:
            new_game(page, number)
        return page

    yield open_
    for context in contexts:
        context.close()


def ready(page: Page) -> None:
    page.wait_for_function("() => document.body.dataset.ready && !document.body.dataset.busy")


def state(page: Page) -> State:
    result: State = page.evaluate("() => fetch('/api/game').then(r => r.json())")
    return result


def new_game(page: Page, number: int) -> None:
    status = page.evaluate(
        """n => fetch('/api/new', {method: 'POST', headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({game: n})}).then(r => r.status)""",
        number,
    )
    assert status == 200
    page.reload()
    ready(page)


def shown(page: Page) -> State:
    """What the page shows: the grid's top cards and pile sizes, counts, score."""
    result: State = page.evaluate(
        """() => ({
            tops: [...document.querySelectorAll('.cell')].map(c => c.dataset.top),
            counts: [...document.querySelectorAll('.cell')].map(c => Number(c.dataset.count)),
            stock: Number(document.getElementById('stock').dataset.count),
            talon: Number(document.getElementById('talon').dataset.count),
            talonTop: document.getElementById('talon').dataset.top,
            score: document.getElementById('score').textContent,
            moves: document.getElementById('moves').textContent,
        })"""
    )
    return result


def assert_shows(page: Page, st: State) -> None:
    view = shown(page)
    grid = st["view"]["grid"]
    assert view["tops"] == [p[-1] if p else "" for p in grid]
    assert view["counts"] == [len(p) for p in grid]
    assert view["stock"] == st["view"]["stock"]
    assert view["talon"] == len(st["view"]["talon"])
    assert view["score"] == str(st["view"]["score"])
    assert view["moves"] == str(st["view"]["moves"])


def cell(name: str) -> str:
    return f'.cell[data-cell="{name}"]'


def grid_builds(st: State) -> list[str]:
    return [m for m in st["view"]["legal"] if m[0] != "t" and "-" in m]


def drag(page: Page, source: str, target: str) -> None:
    a = page.locator(source).bounding_box()
    b = page.locator(target).bounding_box()
    assert a is not None and b is not None
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] * 0.7)
    page.mouse.down()
    for k in range(1, 9):
        x = a["x"] + a["width"] / 2 + (b["x"] - a["x"]) * k / 8
        y = a["y"] + a["height"] * 0.7 + (b["y"] - a["y"]) * k / 8
        page.mouse.move(x, y)
    page.mouse.up()


def deal_until(page: Page, want: Callable[[State], bool], limit: int = 30) -> State:
    st = state(page)
    for _ in range(limit):
        if want(st):
            return st
        page.keyboard.press("d")
        ready(page)
        st = state(page)
    raise AssertionError("no position found")


NOTATION = re.compile(r"\b(?:[a-h][1-3]|t)\s*[-=]\s*[a-h][1-3]\b")
"""Move notation (``a1-c2``, ``a1=c2``, ``t-c2``) inside a sentence."""


def listen_to_sentences(page: Page) -> None:
    """From now on, keep every text the page puts in its message line, its live region
    and its dialogs in ``window.__said``."""
    page.evaluate("""() => {
        window.__said = [];
        const keep = (el) => {
            const t = (el.textContent || '').trim();
            if (t) window.__said.push(t);
        };
        const watch = (el) => new MutationObserver(() => keep(el)).observe(
            el, {childList: true, characterData: true, subtree: true});
        for (const id of ['message', 'announce']) watch(document.getElementById(id));
        for (const d of document.querySelectorAll('dialog')) watch(d);
    }""")


def drag_with_shift(page: Page, source: str, target: str) -> None:
    page.keyboard.down("Shift")
    try:
        drag(page, source, target)
    finally:
        page.keyboard.up("Shift")


def no_errors(page: Page) -> None:
    errors: list[str] = page.errors  # type: ignore[attr-defined]
    assert not [e for e in errors if "status of 4" not in e], errors


# ---------------------------------------------------------------- the tests
def test_page_renders_the_state_and_screenshots(open_page: Callable[..., Page]) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page = open_page(1, motion="no-preference")
    st = state(page)
    assert_shows(page, st)
    # every card has a spoken name
    label = page.locator(cell("a1")).get_attribute("aria-label") or ""
    assert label.startswith("a1: ")
    top = st["view"]["grid"][0][-1]
    assert view_dict(Game(1).view())["grid"][0][-1] == top
    assert " of " in label
    page.keyboard.press("d")
    ready(page)
    assert shown(page)["talon"] == 3
    page.screenshot(path=str(ARTIFACTS / "desktop-1280x800.png"))
    # the page fits a 1280 x 800 screen without scrolling
    assert page.evaluate("document.documentElement.scrollHeight") <= 800
    no_errors(page)


def test_phone_size_fits_eight_columns(open_page: Callable[..., Page]) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page = open_page(1, width=360, height=740)
    page.keyboard.press("d")
    ready(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    boxes = [page.locator(cell(n)).bounding_box() for n in ("a1", "h1", "a3", "h3")]
    assert all(b is not None for b in boxes)
    assert boxes[1]["x"] + boxes[1]["width"] <= 360  # type: ignore[index]
    assert boxes[0]["x"] >= 0  # type: ignore[index]
    assert boxes[0]["width"] >= 36  # type: ignore[index]
    page.screenshot(path=str(ARTIFACTS / "phone-360x740.png"))
    no_errors(page)


def test_drag_a_card_and_an_illegal_drop_snaps_back(open_page: Callable[..., Page]) -> None:
    page = open_page(1, motion="no-preference")
    st = state(page)
    builds = grid_builds(st)
    assert builds, "deal 1 starts with a grid build"
    src, dst = builds[0].split("-")
    moving = st["view"]["grid"][CELL_NAMES.index(src)][-1]
    drag(page, cell(src) + " img", cell(dst) + " img")
    ready(page)
    after = state(page)
    assert after["view"]["moves"] == 1
    assert after["last_move"] == builds[0]
    assert after["view"]["grid"][CELL_NAMES.index(dst)][-1] == moving
    assert_shows(page, after)
    # a talon card dropped where it does not fit comes back, with the reason
    st = deal_until(page, lambda s: bool(s["view"]["talon"]))
    legal = set(st["view"]["legal"])
    bad = next(n for i, n in enumerate(CELL_NAMES)
               if st["view"]["grid"][i] and f"t-{n}" not in legal)
    drag(page, "#talon .fan.top", cell(bad) + " img")
    ready(page)
    message = page.locator("#message")
    assert "error" in (message.get_attribute("class") or "")
    assert message.text_content()
    assert state(page)["view"]["moves"] == st["view"]["moves"]
    assert page.locator(".ghost").count() == 0
    assert_shows(page, state(page))
    no_errors(page)


def test_a_drop_on_a_pile_that_does_not_take_it_goes_back_with_the_reason(
    open_page: Callable[..., Page],
) -> None:
    """No silent swap: a wrong drop changes nothing and says why; a swap is deliberate."""
    page = open_page(5, motion="no-preference")
    st = state(page)
    grid = st["view"]["grid"]
    # deal 5: 3 of diamonds in a1, 9 of diamonds in b1, which does not take it
    assert grid[0] == ["3D"] and grid[1] == ["9D"]
    assert "a1-b1" not in st["view"]["legal"]
    drag(page, cell("a1") + " img", cell("b1") + " img")
    ready(page)
    after = state(page)
    assert after["view"] == st["view"] and after["last_move"] is None
    assert_shows(page, st)
    message = page.locator("#message")
    assert "error" in (message.get_attribute("class") or "")
    text = message.text_content() or ""
    assert "3 of diamonds is a base" in text, text
    assert page.locator(".ghost").count() == 0
    # the swap is offered, and only taken when asked for
    page.click("#message button.offer")
    ready(page)
    swapped = state(page)
    assert swapped["last_move"] == "a1=b1" and swapped["view"]["moves"] == 1
    assert swapped["view"]["grid"][0] == ["9D"] and swapped["view"]["grid"][1] == ["3D"]
    assert swapped["view"]["score"] == st["view"]["score"]
    # Shift while dropping swaps at once (the deliberate gesture)
    drag_with_shift(page, cell("a1") + " img", cell("b1") + " img")
    ready(page)
    again = state(page)
    assert again["last_move"] == "a1=b1" and again["view"]["grid"][:2] == [["3D"], ["9D"]]
    # so does x on the keyboard
    page.focus(cell("a1"))
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("x")
    ready(page)
    assert state(page)["view"]["grid"][:2] == [["9D"], ["3D"]]
    # the swap is offered only where the server says it would be played: not once the
    # game's result stands (given up here behind the page's back)
    page.evaluate("() => fetch('/api/giveup', {method: 'POST', headers: {'Content-Type': "
                  "'application/json'}, body: '{}'})")
    drag(page, cell("a1") + " img", cell("b1") + " img")
    ready(page)
    assert "finished" in (message.text_content() or "")
    assert page.locator("#message button.offer").count() == 0
    no_errors(page)


def test_leaving_a_game_with_moves_asks_first(open_page: Callable[..., Page]) -> None:
    page = open_page(1)
    first = state(page)
    assert first["game"]["leave_asks"] is False
    page.click("#btn-new")  # no move yet: the dialog opens at once
    page.locator("#dlg-new").wait_for(state="visible")
    page.keyboard.press("Escape")
    page.keyboard.press("d")
    ready(page)
    page.click("#btn-new")
    page.locator("#new-random").click()
    page.locator("#dlg-confirm").wait_for(state="visible")
    asked = page.locator("#confirm-text").text_content() or ""
    assert "given up" in asked and asked == state(page)["labels"]["leave"]
    page.locator("#dlg-confirm button.close").click()  # no: the game goes on
    ready(page)
    assert state(page)["game"]["id"] == first["game"]["id"]
    page.click("#btn-new")
    page.locator("#new-random").click()
    page.click("#confirm-yes")
    ready(page)
    fresh = state(page)
    assert fresh["game"]["id"] != first["game"]["id"] and fresh["view"]["moves"] == 0
    stats = page.evaluate("() => fetch('/api/stats').then(r => r.json())")
    assert (stats["played"], stats["given_up"]) == (1, 1)
    no_errors(page)


def test_a_game_changed_by_another_server_is_shown_as_it_stands(
        tmp_path: Path, make_server: Callable[..., Any],
        make_context: Callable[..., Any]) -> None:
    """Two servers on one database play this computer's game: the write of the one that
    read it before the other's move is refused, and the refusal brings the game as it
    stands, which the page shows (it asks nothing more)."""
    import json
    import urllib.request

    db = tmp_path / "shared.sqlite3"
    here = make_server(db=db, browsers_apart=False, game=1)
    page = make_context().new_page()
    page.goto(here.url + "/")
    ready(page)
    page.keyboard.press("d")  # the first action stores the game
    ready(page)
    assert state(page)["view"]["moves"] == 1
    there = make_server(db=db, browsers_apart=False)
    move = urllib.request.Request(there.url + "/api/move", data=json.dumps({"move": "d"}).encode(),
                                  headers={"Content-Type": "application/json",
                                           "Origin": there.url}, method="POST")
    with urllib.request.urlopen(move) as answer:
        elsewhere = json.load(answer)
    assert elsewhere["view"]["moves"] == 2
    asked: list[str] = []
    page.on("request", lambda r: asked.append(f"{r.method} {r.url.removeprefix(here.url)}"))
    page.keyboard.press("d")
    ready(page)
    assert "changed in another window" in page.inner_text("#message")
    assert shown(page)["moves"] == "2" and shown(page)["stock"] == elsewhere["view"]["stock"]
    assert_shows(page, elsewhere)
    assert [a for a in asked if "/api/" in a] == ["POST /api/move"]  # the refusal brought it
    page.keyboard.press("d")  # and play goes on from there
    ready(page)
    assert state(page)["view"]["moves"] == 3


def test_click_to_move_and_double_click(open_page: Callable[..., Page]) -> None:
    page = open_page(1)
    st = state(page)
    src, dst = grid_builds(st)[0].split("-")
    page.click(cell(src))
    assert "selected" in (page.locator(cell(src)).get_attribute("class") or "")
    assert "target" in (page.locator(cell(dst)).get_attribute("class") or "")
    page.click(cell(dst))
    ready(page)
    after = state(page)
    assert after["view"]["moves"] == 1
    assert after["last_move"] == f"{src}-{dst}"
    assert_shows(page, after)
    # double-click: a card with exactly one legal target moves there
    def one_target(s: State) -> bool:
        sources = [m.split("-")[0] for m in s["view"]["legal"] if "-" in m]
        return any(sources.count(x) == 1 for x in sources)

    st = deal_until(page, one_target)
    sources = [m.split("-")[0] for m in st["view"]["legal"] if "-" in m]
    source = next(x for x in sources if sources.count(x) == 1)
    move = next(m for m in st["view"]["legal"] if m.startswith(source + "-"))
    page.dblclick("#talon .fan.top" if source == "t" else cell(source))
    ready(page)
    after = state(page)
    assert after["last_move"] == move
    assert after["view"]["moves"] == st["view"]["moves"] + 1
    no_errors(page)


def test_keyboard_only_play(open_page: Callable[..., Page]) -> None:
    page = open_page(1)
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.place") == "stock":
            break
    else:
        raise AssertionError("Tab never reaches the stock")
    # the focus ring is visible
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    page.keyboard.press("Enter")  # Enter on the stock deals
    ready(page)
    assert shown(page)["talon"] == 3
    page.keyboard.press("d")
    ready(page)
    assert shown(page)["talon"] == 6
    st = state(page)
    src, dst = grid_builds(st)[0].split("-")

    def walk_to(name: str) -> None:
        here = page.evaluate("document.activeElement.dataset.place")
        if here == "stock":
            page.keyboard.press("ArrowDown")
            here = "0"
        i, j = int(here), CELL_NAMES.index(name)
        while i // 8 < j // 8:
            page.keyboard.press("ArrowDown")
            i += 8
        while i // 8 > j // 8:
            page.keyboard.press("ArrowUp")
            i -= 8
        key = "ArrowRight" if j > i else "ArrowLeft"
        for _ in range(abs(j - i)):
            page.keyboard.press(key)
        assert page.evaluate("document.activeElement.dataset.cell") == name

    walk_to(src)
    page.keyboard.press("Enter")
    assert "selected" in (page.locator(cell(src)).get_attribute("class") or "")
    walk_to(dst)
    page.keyboard.press("Enter")
    ready(page)
    after = state(page)
    assert after["last_move"] == f"{src}-{dst}"
    assert after["view"]["moves"] == 3
    # u undoes, shift+u redoes, h hints
    page.keyboard.press("u")
    ready(page)
    assert state(page)["view"]["moves"] == 2
    page.keyboard.press("Shift+U")
    ready(page)
    assert state(page)["view"]["moves"] == 3
    assert_shows(page, state(page))
    page.keyboard.press("h")
    ready(page)
    assert page.locator("#message").text_content()
    assert page.locator(".hint").count() >= 1
    # Escape puts a picked card back
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    assert page.locator(".selected").count() == 0
    # the live region is emptied, then refilled on the next frame (so repeats are read)
    expect(page.locator("#announce")).not_to_have_text("")
    no_errors(page)


def test_undo_and_redo_buttons(open_page: Callable[..., Page]) -> None:
    page = open_page(1)
    assert page.locator("#btn-undo").is_disabled()
    page.keyboard.press("d")
    ready(page)
    page.keyboard.press("d")
    ready(page)
    before = state(page)
    page.click("#btn-undo")
    ready(page)
    assert state(page)["view"]["moves"] == 1
    assert shown(page)["talon"] == 3
    page.click("#btn-undo")
    ready(page)
    assert state(page)["view"]["moves"] == 0
    assert page.locator("#btn-undo").is_disabled()
    page.click("#btn-redo")
    ready(page)
    page.click("#btn-redo")
    ready(page)
    after = state(page)
    assert after["view"] == before["view"]
    assert page.locator("#btn-redo").is_disabled()
    assert_shows(page, after)


def test_dealing_through_the_stock_and_a_redeal(open_page: Callable[..., Page]) -> None:
    page = open_page(1)
    deals = 0
    while shown(page)["stock"]:
        page.click("#stock")
        ready(page)
        deals += 1
    assert deals == 24
    st = state(page)
    assert st["view"]["stock"] == 0 and len(st["view"]["talon"]) == 72
    assert "can-redeal" in (page.locator("#stock").get_attribute("class") or "")
    talon = st["view"]["talon"]
    page.click("#stock")  # the empty stock redeals
    ready(page)
    after = state(page)
    assert after["last_move"] == "r"
    assert after["view"]["stock"] == 72 and after["view"]["talon"] == []
    assert after["view"]["redeals_done"] == 1
    assert_shows(page, after)
    page.keyboard.press("d")
    ready(page)
    # the talon turned over keeps its order: the first cards dealt come up again
    assert state(page)["view"]["talon"] == talon[:3]


def test_reload_mid_game_resumes(open_page: Callable[..., Page]) -> None:
    page = open_page(1)
    st = state(page)
    src, dst = grid_builds(st)[0].split("-")
    page.click(cell(src))
    page.click(cell(dst))
    ready(page)
    page.keyboard.press("d")
    ready(page)
    before = state(page)
    page.reload()
    ready(page)
    assert_shows(page, before)
    assert state(page)["view"] == before["view"]
    assert not page.locator("#btn-undo").is_disabled()


def test_game_over_dialog_and_the_best_line(open_page: Callable[..., Page]) -> None:
    page = open_page(1)
    page.keyboard.press("d")
    ready(page)
    assert not page.locator("#btn-hint").is_disabled()
    page.click("#btn-menu")
    # a game in play: the menu offers what the server says applies (no review, no share)
    assert page.locator("#menu-list").get_by_role("button", name="Review this game").count() == 0
    assert page.locator("#menu-list").get_by_role("button", name="Share").count() == 0
    page.locator("#menu-list").get_by_role("button", name="Give up").click()
    page.click("#confirm-yes")
    ready(page)
    dialog = page.locator("#dlg-end")
    dialog.wait_for(state="visible")
    st = state(page)
    assert st["view"]["given_up"]
    assert str(st["view"]["score"]) in (page.locator("#end-score").text_content() or "")
    assert page.locator("#end-rating").text_content()
    assert page.locator("#end-best").text_content()
    stats = page.evaluate("() => fetch('/api/stats').then(r => r.json())")
    page.click("#end-best-line")
    page.locator("#end-solution .line").wait_for(state="visible", timeout=30_000)
    line = (page.locator("#end-solution .line").text_content() or "").split()
    assert line and line[0] in view_dict(Game(1).view())["legal"]
    assert "0" in (page.locator("#end-solution .best-score").text_content() or "")
    # the line is only watched: from here on the page sends no request that changes anything
    sent: list[str] = []
    page.on("request", lambda r: sent.append(f"{r.method} {r.url}") if r.method != "GET" else None)
    page.click("#end-solution button.primary")
    ready(page)
    bar = page.locator("#solution-bar")
    assert bar.is_visible()
    # the viewer starts at the deal as it was dealt, while the player's game stays as it is
    replay = Game(1)
    start = view_dict(replay.view())
    assert_shows(page, {"view": start})
    assert state(page) == st
    assert page.locator("#btn-undo").is_disabled()
    page.click("#sol-next")
    ready(page)
    page.click("#sol-next")
    ready(page)
    replay.play_text(line[0])
    replay.play_text(line[1])
    assert_shows(page, {"view": view_dict(replay.view())})
    assert line[1] in (page.locator("#solution-step").text_content() or "")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "best-line-viewer.png"))
    # clicks and keys on the board play nothing while the line is shown
    src, dst = grid_builds(st)[0].split("-") if grid_builds(st) else ("a1", "b1")
    page.click(cell(src))
    page.click(cell(dst))
    page.keyboard.press("d")
    ready(page)
    assert_shows(page, {"view": view_dict(replay.view())})
    page.click("#sol-prev")
    ready(page)
    replay.undo()
    assert_shows(page, {"view": view_dict(replay.view())})
    # play runs the line to its end, which shows the claimed score
    page.click("#sol-all")
    page.wait_for_function(
        "() => { const b = document.getElementById('solution-bar');"
        " return b.dataset.index === b.dataset.total; }", timeout=60_000)
    ready(page)
    for text in line[1:]:
        replay.play_text(text)
    assert_shows(page, {"view": view_dict(replay.view())})
    assert page.locator("#score").text_content() == "0"
    assert "0" in (page.locator("#solution-step").text_content() or "")
    page.click("#sol-stop")
    assert not bar.is_visible()
    # back to the player's own game, unchanged, and nothing was sent
    assert_shows(page, st)
    assert state(page) == st
    assert page.evaluate("() => fetch('/api/stats').then(r => r.json())") == stats
    assert sent == []
    # the end dialog comes back through the Result button, with the line still there
    assert page.locator("#btn-hint").is_hidden()
    page.click("#btn-result")
    dialog.wait_for(state="visible")
    page.locator("#end-solution .line").wait_for(state="visible")
    page.keyboard.press("Escape")
    # and through the menu, where Give up has given way to Result
    page.click("#btn-menu")
    menu = page.locator("#menu-list")
    assert menu.get_by_role("button", name="Give up").count() == 0
    assert menu.get_by_role("button", name="Review this game").count() == 1
    assert menu.get_by_role("button", name="Share").count() == 1
    assert page.locator("#btn-hint").is_disabled()
    menu.get_by_role("button", name="Result").click()
    dialog.wait_for(state="visible")
    no_errors(page)


def test_a_whole_deal_won_through_the_page(open_page: Callable[..., Page]) -> None:
    from devilsgrip.solver import solve

    result = solve(Game(1), time_limit=20.0)
    assert result.score == 0, "deal 1 is won by the solver"
    page = open_page(1)
    listen_to_sentences(page)
    moves = [m.text() for m in result.moves]
    for k, move in enumerate(moves):
        if k == len(moves) - 12:
            # the end with animations: builds, fills, the arrangement and the flourish
            page.emulate_media(reduced_motion="no-preference")
        if move in ("d", "r"):
            page.keyboard.press(move)
        elif move.startswith("t-"):
            page.click("#talon")
            page.click(cell(move[2:]))
        else:
            src, dst = move.split("-")
            page.click(cell(src))
            page.click(cell(dst))
        ready(page)
    dialog = page.locator("#dlg-end")
    dialog.wait_for(state="visible")
    st = state(page)
    assert st["view"]["won"] and st["view"]["score"] == 0
    assert "0" in (page.locator("#end-score").text_content() or "")
    # the finishing swaps put jacks on top, queens in the middle, kings below: on the
    # page only, they are not moves
    tops = shown(page)["tops"]
    assert [t[0] for t in tops] == ["J"] * 8 + ["Q"] * 8 + ["K"] * 8
    assert st["arrangement"] and st["view"]["moves"] == len(moves)
    assert page.locator("#moves").text_content() == str(len(moves))
    assert st["can_undo"] is False and page.locator("#btn-undo").is_disabled()
    # every sentence the page showed or spoke reads as words, never as move notation
    said: list[str] = page.evaluate("() => window.__said")
    assert len(said) > len(moves)
    assert not [s for s in said if NOTATION.search(s)], [s for s in said if NOTATION.search(s)]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "won-desktop.png"))
    # play this deal again
    page.click("#end-again")
    ready(page)
    assert state(page)["view"]["moves"] == 0
    no_errors(page)


def test_dialogs_rules_stats_help_and_settings(open_page: Callable[..., Page]) -> None:
    page = open_page(1)
    page.click("#btn-rules")
    # the rules' own headings, not the "Loading…" line shown while they are fetched
    page.locator("#rules-text h2, #rules-text h3").first.wait_for()
    assert "2" in (page.locator("#rules-text").text_content() or "")
    page.keyboard.press("Escape")
    page.click("#btn-stats")
    page.locator("#stats-body table").wait_for()
    page.keyboard.press("Escape")
    page.click("#btn-help")
    assert page.locator("#help-body kbd").count() >= 6
    help_text = page.locator("#help-body").text_content() or ""
    assert "Mouse and touch" in help_text and "Double-click a card" in help_text
    page.keyboard.press("Escape")
    # four colours: the diamonds and clubs change their images
    page.click("#btn-settings")
    page.check("#set-four")
    page.select_option("#set-anim", "fast")
    page.click("#set-save")
    ready(page)
    page.wait_for_function("() => document.querySelector('.cell img').src.includes('/cards/four/')")
    settings = page.evaluate("() => fetch('/api/settings').then(r => r.json())")
    assert settings["four_colour"] is True and settings["animation"] == "fast"
    # another language: the page's strings and card names follow
    page.click("#btn-settings")
    page.select_option("#set-lang", "fr")
    page.click("#set-save")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    # the card names follow (French names, no English "of")
    page.wait_for_function(
        "() => !document.querySelector('.cell').getAttribute('aria-label').includes(' of ')"
    )
    assert page.locator("#btn-undo").get_attribute("aria-label") != "Undo" or not page.evaluate(
        "() => fetch('/api/i18n').then(r => r.json()).then(d => 'Undo' in d.strings)"
    )
    page.reload()
    ready(page)
    assert page.evaluate("document.documentElement.lang") == "fr"
    no_errors(page)


def _line_prefix_with_piles(number: int) -> list[str]:
    """The first moves of the solver's line on deal ``number`` that make piles of 2, 3 and 4."""
    from devilsgrip.solver import solve

    game = Game(number)
    moves = []
    for move in solve(Game(number), time_limit=10.0).moves:
        game.play(move)
        moves.append(move.text())
        if {2, 3, 4} <= {len(p) for p in game.grid}:
            return moves
    raise AssertionError("no position with piles of 2, 3 and 4")


@pytest.mark.parametrize("size", [(1280, 800), (360, 740)], ids=["desktop", "phone"])
def test_talon_fan_and_piles_are_legible(open_page: Callable[..., Page],
                                         size: tuple[int, int]) -> None:
    from devilsgrip.web.cards_svg import INDEX_WIDTH, WIDTH

    ARTIFACTS.mkdir(exist_ok=True)
    width, height = size
    page = open_page(1, width=width, height=height)
    for move in _line_prefix_with_piles(1):
        status = page.evaluate(
            """m => fetch('/api/move', {method: 'POST', headers: {'Content-Type':
                'application/json'}, body: JSON.stringify({move: m})}).then(r => r.status)""",
            move)
        assert status == 200
    page.reload()
    ready(page)
    st = deal_until(page, lambda s: len(s["view"]["talon"]) >= 3)
    assert_shows(page, st)
    # every fanned card shows its corner index (rank over suit): the next card leaves it free
    fans = [page.locator(f"#talon .fan{k}").bounding_box() for k in range(3)]
    assert all(b is not None for b in fans)
    for lower, upper in pairwise(fans):
        assert lower is not None and upper is not None
        shown_width = upper["x"] - lower["x"]
        assert shown_width >= lower["width"] * INDEX_WIDTH / WIDTH, (shown_width, lower)
    codes = page.eval_on_selector_all("#talon .fan", "els => els.map(e => e.dataset.code)")
    assert codes == st["view"]["talon"][-3:]
    page.locator("#talon").screenshot(path=str(ARTIFACTS / f"talon-{width}.png"))
    # piles of 2 to 4 cards: the count badge, and the cards beneath peek out above the top
    for i, pile in enumerate(st["view"]["grid"]):
        name = CELL_NAMES[i]
        badge = page.locator(cell(name) + " .badge")
        if len(pile) < 2:
            assert badge.is_hidden()
            continue
        assert badge.is_visible() and badge.text_content() == str(len(pile))
        box = badge.bounding_box()
        assert box is not None and box["height"] >= 12 and box["width"] >= 12
        on_top = page.evaluate(
            """sel => { const b = document.querySelector(sel); const r = b.getBoundingClientRect();
                b.style.pointerEvents = 'auto';
                const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                b.style.pointerEvents = ''; return hit === b; }""", cell(name) + " .badge")
        assert on_top, f"the count badge of {name} is covered"
        edges = page.locator(cell(name) + " .under")
        assert edges.count() == len(pile) - 1
        top = page.locator(cell(name) + " img").bounding_box()
        assert top is not None
        peeks = sorted(top["y"] - (b or {"y": 0.0})["y"]
                       for b in (edges.nth(k).bounding_box() for k in range(edges.count())))
        step = peeks[0]
        assert step >= 2.5, peeks  # each card beneath shows at least 2.5 px of its edge
        assert all(b - a >= 2.5 for a, b in pairwise(peeks)), peeks
        # and each edge is really seen there, not covered by another card
        seen = page.evaluate(
            """sel => [...document.querySelectorAll(sel)].map(e => {
                const r = e.getBoundingClientRect();
                return document.elementFromPoint(r.left + r.width / 2, r.top + 1.5) === e;
            })""", cell(name) + " .under")
        assert seen == [True] * (len(pile) - 1), seen
    piles = next(i for i, p in enumerate(st["view"]["grid"]) if len(p) == 4)
    page.locator(cell(CELL_NAMES[piles])).screenshot(path=str(ARTIFACTS / f"pile4-{width}.png"))
    page.screenshot(path=str(ARTIFACTS / f"piles-{width}x{height}.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    no_errors(page)


def test_another_site_cannot_touch_the_players_game(browser: Browser,
                                                    make_server: Callable[..., Any]) -> None:
    """A page on another port of this machine embeds the game's API twenty times and sends
    the browser to it: the player's cookie, session and game stay as they were."""
    import http.server
    import sqlite3
    import threading

    game_server = make_server(game=1)
    target = game_server.url
    attack = ("<!doctype html><title>elsewhere</title>"
              + "".join(f'<img src="{target}/api/game?n={i}">' for i in range(20))
              + f'<img src="{target}/api/hint"><img src="{target}/api/solution">'
              + f"<script>setTimeout(() => {{ location.href = '{target}/api/game'; }}, 800)"
              "</script>").encode()

    class Attacker(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(attack)))
            self.end_headers()
            self.wfile.write(attack)

        def log_message(self, *args: object) -> None:
            pass

    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Attacker)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(target + "/")
        ready(page)
        page.keyboard.press("d")
        ready(page)
        before = state(page)
        cookies = context.cookies()
        assert [c["name"] for c in cookies] == ["dg_session"]

        def counts() -> tuple[int, int]:
            con = sqlite3.connect(game_server.db)
            try:
                games = con.execute("SELECT count(*) FROM games").fetchone()[0]
                sessions = con.execute("SELECT count(*) FROM web_sessions").fetchone()[0]
            finally:
                con.close()
            return int(games), int(sessions)

        stored = counts()
        evil = context.new_page()
        evil.goto(f"http://127.0.0.1:{other.server_address[1]}/")
        evil.wait_for_url(f"{target}/api/game", timeout=10_000)
        body = evil.locator("body").text_content() or ""
        assert "cross-site" in body and "view" not in body
        assert context.cookies() == cookies
        assert counts() == stored  # no session and no game was made
        page.reload()
        ready(page)
        after = state(page)
        assert after["game"]["id"] == before["game"]["id"]
        assert after["view"] == before["view"] and after["game"]["final"] is False
    finally:
        context.close()
        other.shutdown()
