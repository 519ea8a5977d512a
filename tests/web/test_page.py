"""The browser page at the sizes people play it, its feel, its hints, its deal numbers,
its accessibility and its tabs (Playwright in Debian's Chromium, sync API).

Screenshots of every size go to test-artifacts/.  The accessibility checks run
axe-core in the page; the project's test setup installs it (``make axe``, into
``.test-tools/``), and they are skipped where it is missing.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from devilsgrip.cards import CELL_NAMES
from devilsgrip.game import Game
from devilsgrip.web.api import view_dict

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium")
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
AXE = Path(os.environ.get("DEVILSGRIP_AXE", ROOT / ".test-tools/node_modules/axe-core/axe.min.js"))

if CHROMIUM is None:  # pragma: no cover - depends on the machine
    pytest.skip("chromium is not installed", allow_module_level=True)

from playwright.sync_api import BrowserContext, Page  # noqa: E402

State = dict[str, Any]
SIZES = [(1280, 800), (390, 844), (360, 640), (844, 390), (768, 1024), (1024, 1366)]
IDS = ["desktop", "phone", "small-phone", "landscape", "tablet-upright", "large-tablet-upright"]


def watch(page: Page) -> Page:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.errors = errors  # type: ignore[attr-defined]
    return page


@pytest.fixture
def open_page(make_context: Callable[..., BrowserContext],
              server_url: str) -> Callable[..., Page]:
    def open_(number: int | None = 1, *, width: int = 1280, height: int = 800,
              motion: str = "reduce", moves: tuple[str, ...] = ()) -> Page:
        page = watch(make_context(width, height, motion).new_page())
        page.goto(server_url + "/")
        ready(page)
        if number is not None:
            post(page, "/api/new", {"game": number})
        for move in moves:
            post(page, "/api/move", {"move": move})
        if number is not None or moves:
            page.reload()
            ready(page)
        return page

    return open_


def ready(page: Page) -> None:
    page.wait_for_function("() => document.body.dataset.ready && !document.body.dataset.busy")


def post(page: Page, path: str, body: dict[str, Any]) -> None:
    status = page.evaluate(
        """([path, body]) => fetch(path, {method: 'POST', headers: {'Content-Type':
            'application/json'}, body: JSON.stringify(body)}).then(r => r.status)""",
        [path, body])
    assert status == 200, (path, body, status)


def state(page: Page) -> State:
    """The server's state, read as text in Python (exact for any deal number)."""
    result: State = json.loads(page.evaluate("() => fetch('/api/game').then(r => r.text())"))
    return result


def no_errors(page: Page) -> None:
    errors: list[str] = page.errors  # type: ignore[attr-defined]
    assert errors == [], errors


def line_with_piles(number: int) -> tuple[str, ...]:
    """The first moves of the solver's line on deal ``number`` that make piles of 2, 3 and 4."""
    from devilsgrip.solver import solve

    game = Game(number)
    moves = []
    for move in solve(Game(number), time_limit=10.0).moves:
        game.play(move)
        moves.append(move.text())
        if {2, 3, 4} <= {len(p) for p in game.grid}:
            return tuple(moves)
    raise AssertionError("no position with piles of 2, 3 and 4")


BOARD = """() => {
    const rects = [...document.querySelectorAll(
        '[data-cell], [data-place=stock], [data-place=talon]')]
        .map(el => el.getBoundingClientRect());
    const top = Math.min(...rects.map(r => r.top)), bottom = Math.max(...rects.map(r => r.bottom));
    const left = Math.min(...rects.map(r => r.left)), right = Math.max(...rects.map(r => r.right));
    const card = document.querySelector('[data-cell="a1"] img').getBoundingClientRect();
    const bar = document.getElementById('toolbar').getBoundingClientRect();
    const grid = document.getElementById('grid').getBoundingClientRect();
    const stock = document.getElementById('stock').getBoundingClientRect();
    return {share: (bottom - top) / innerHeight, top, bottom, left, right, card: card.width,
            scrollW: document.documentElement.scrollWidth,
            scrollH: document.documentElement.scrollHeight,
            bar: {top: bar.top, bottom: bar.bottom, left: bar.left, right: bar.right},
            grid: {top: grid.top, left: grid.left}, stock: {right: stock.right, top: stock.top}};
}"""


# ------------------------------------------------------------------ sizes
@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_board_fills_each_screen_without_scrolling(open_page: Callable[..., Page],
                                                       size: tuple[int, int]) -> None:
    width, height = size
    page = open_page(1, width=width, height=height, moves=line_with_piles(1))
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"page-{width}x{height}.png"))
    fig = page.evaluate(BOARD)
    assert fig["scrollW"] <= width and fig["scrollH"] <= height, fig
    assert fig["left"] >= 0 and fig["right"] <= width and fig["top"] >= 0, fig
    assert fig["bottom"] <= height, fig
    if height > width and width <= 600:
        # a phone upright: the board takes most of the height, actions at the bottom
        assert fig["share"] >= 0.70, fig
        assert fig["card"] >= 40, fig
        assert fig["bar"]["bottom"] >= height - 1 and fig["bar"]["top"] >= fig["bottom"] - 1, fig
    elif height > width:
        # a tablet upright: the cards as wide as the columns allow, the grid down to the
        # bottom of the window (its piles fan into it), actions above the board
        assert fig["share"] >= 0.80, fig
        assert fig["card"] >= 0.1 * width, fig
        assert fig["bar"]["bottom"] <= fig["top"], fig
    elif height < 500:  # on its side: the stock and talon beside the grid, actions at the side
        assert fig["stock"]["right"] <= fig["grid"]["left"], fig
        assert fig["card"] >= 55, fig
        assert fig["bar"]["left"] >= fig["right"] - 1, fig
    else:  # the desktop keeps its large cards and the actions above the board
        assert fig["card"] >= 90, fig
        assert fig["bar"]["bottom"] <= fig["top"], fig
    no_errors(page)


@pytest.mark.parametrize("size", [(390, 844), (768, 1024)], ids=["phone", "tablet"])
def test_piles_fan_downwards_on_an_upright_phone_or_tablet(open_page: Callable[..., Page],
                                                           size: tuple[int, int]) -> None:
    width, height = size
    page = open_page(1, width=width, height=height, moves=line_with_piles(1))
    st = state(page)
    four = next(i for i, p in enumerate(st["view"]["grid"]) if len(p) == 4)
    cell = f'[data-cell="{CELL_NAMES[four]}"]'
    top = page.locator(cell + " img").bounding_box()
    assert top is not None
    edges = page.locator(cell + " .under")
    ys = sorted((edges.nth(k).bounding_box() or {"y": 0.0})["y"] for k in range(3))
    # each card beneath shows at least a fifth of its height: its rank and suit
    steps = [b - a for a, b in zip([*ys, top["y"]], [*ys, top["y"]][1:], strict=False)]
    assert all(step >= top["height"] * 0.2 for step in steps), steps
    page.locator(cell).screenshot(path=str(ARTIFACTS / f"pile4-fanned-{width}.png"))
    no_errors(page)


# ------------------------------------------------------------------ feel
def test_ten_quick_deals_all_land(open_page: Callable[..., Page]) -> None:
    """Ten presses of d at normal speed: each lands, in order (benchmarks/web_feel.py times it)."""
    page = open_page(1, motion="no-preference")
    post(page, "/api/settings", {"animation": "normal"})
    page.reload()
    ready(page)
    for _ in range(10):
        page.keyboard.press("d")
    page.wait_for_function("() => document.getElementById('moves').textContent === '10'"
                           " && !document.body.dataset.busy", timeout=30_000)
    st = state(page)
    game = Game(1)
    for _ in range(10):
        game.play_text("d")
    assert st["view"] == view_dict(game.view())
    shown = page.eval_on_selector_all("#talon .fan", "els => els.map(e => e.dataset.code)")
    assert shown == st["view"]["talon"][-3:]
    assert page.locator(".flying").count() == 0
    post(page, "/api/settings", {"animation": "off"})
    no_errors(page)


# ------------------------------------------------------------------ hints
def test_a_hint_is_an_arrow_and_clears_the_selection(open_page: Callable[..., Page]) -> None:
    page = open_page(1, moves=line_with_piles(1))
    st = state(page)
    source = next(i for i, p in enumerate(st["view"]["grid"]) if p)
    page.click(f'[data-cell="{CELL_NAMES[source]}"]')
    assert page.locator(".place.selected").count() == 1
    for _ in range(3):  # a busy machine may find no hint in time: ask again
        page.keyboard.press("h")
        page.wait_for_function("() => document.getElementById('message').textContent",
                               timeout=30_000)
        ready(page)
        assert page.locator(".place.selected").count() == 0
        if page.locator("#hint-layer path").count():
            break
    layer = page.locator("#hint-layer")
    if page.locator("#hint-layer path").count():
        marked = page.eval_on_selector_all(".place.hint", "els => els.map(e => e.dataset.cell"
                                           " || e.dataset.place)")
        assert len(marked) == 2, marked
        assert {layer.get_attribute("data-from"), layer.get_attribute("data-to")} == set(marked)
        colours = page.evaluate("""() => {
            const arrow = getComputedStyle(document.querySelector('#hint-layer path')).stroke;
            const root = getComputedStyle(document.documentElement);
            return {arrow, hint: root.getPropertyValue('--hint').trim(),
                    accent: root.getPropertyValue('--accent').trim(),
                    target: root.getPropertyValue('--target').trim(),
                    focus: root.getPropertyValue('--focus').trim()};
        }""")
        assert colours["hint"] not in (colours["accent"], colours["target"], colours["focus"])
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "hint-arrow-1280x800.png"))
    else:  # a busy machine may find no hint in time: the page says so, and draws nothing
        assert "hint" in (page.locator("#message").text_content() or "").lower()
    # the next move takes the arrow away
    page.keyboard.press("d")
    ready(page)
    assert page.locator("#hint-layer *").count() == 0
    no_errors(page)


# ------------------------------------------------------------ deal numbers
def test_a_deal_number_above_2_53_is_played_and_shown_exactly(
    open_page: Callable[..., Page],
) -> None:
    big = 2**53 + 1
    page = open_page(1)
    page.click("#btn-new")
    page.fill("#new-number", str(big))
    page.click("#new-deal")
    ready(page)
    page.wait_for_function(f"() => document.getElementById('rules-line').textContent"
                           f".includes('{big}')")
    st = state(page)
    assert st["game"]["number"] == big
    assert st["view"] == view_dict(Game(big).view())
    assert str(big) in (page.locator("#rules-line").text_content() or "")
    # the largest number there is, too
    page.click("#btn-new")
    page.fill("#new-number", str(2**63 - 1))
    page.click("#new-deal")
    ready(page)
    page.wait_for_function(f"() => document.getElementById('rules-line').textContent"
                           f".includes('{2**63 - 1}')")
    assert state(page)["game"]["number"] == 2**63 - 1
    no_errors(page)


@pytest.mark.parametrize("typed", ["0", "-3", "1.5", "9223372036854775808"])
def test_a_bad_deal_number_gets_the_games_own_reason(open_page: Callable[..., Page],
                                                      typed: str) -> None:
    page = open_page(1)
    before = state(page)
    page.click("#btn-new")
    page.fill("#new-number", typed)
    page.click("#new-deal")
    page.wait_for_function("() => document.getElementById('new-error').textContent")
    ready(page)
    error = page.locator("#new-error").text_content() or ""
    assert typed in error or "range" in error, error
    assert page.locator("#dlg-new").is_visible()
    assert page.locator("#new-number").input_value() == typed
    assert state(page)["game"]["id"] == before["game"]["id"]
    errors: list[str] = page.errors  # type: ignore[attr-defined]
    assert all("400" in e for e in errors), errors  # the refusal itself, nothing else


# ------------------------------------------------------------ accessibility
def axe(page: Page, context: str = "document") -> list[dict[str, Any]]:
    """The violations axe-core finds in ``context`` (a selector, or the whole document)."""
    if not AXE.is_file():
        pytest.skip("axe-core is not installed (make axe)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))  # not a script tag: the page's CSP stays
    found: list[dict[str, Any]] = page.evaluate(
        """context => axe.run(context === 'document' ? document : document.querySelector(context),
            {resultTypes: ['violations']}).then(r => r.violations.map(v => ({
                id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))})))""",
        context)
    return found


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_axe_finds_nothing_on_the_board_the_dialogs_and_the_viewer(
    open_page: Callable[..., Page], size: tuple[int, int],
) -> None:
    width, height = size
    page = open_page(1, width=width, height=height, moves=line_with_piles(1))
    assert axe(page) == []
    page.click("#talon")
    assert axe(page) == []  # with a card picked up
    dialogs = [("#btn-new", "#dlg-new"), ("#btn-menu", "#dlg-menu")]
    if width >= 900:
        dialogs += [("#btn-rules", "#dlg-rules"), ("#btn-stats", "#dlg-stats"),
                    ("#btn-settings", "#dlg-settings"), ("#btn-help", "#dlg-help")]
    for button, dialog in dialogs:
        page.keyboard.press("Escape")
        page.click(button)
        page.locator(dialog).wait_for(state="visible")
        page.wait_for_timeout(200)  # the rules and statistics load
        assert axe(page) == [], dialog
        page.keyboard.press("Escape")
    page.click("#btn-new")
    page.click("#new-random")
    page.locator("#dlg-confirm").wait_for(state="visible")
    assert axe(page) == []
    page.keyboard.press("Escape")
    post(page, "/api/giveup", {})
    page.reload()
    ready(page)
    page.locator("#dlg-end").wait_for(state="visible")
    assert axe(page) == []
    page.click("#end-best-line")
    page.locator("#end-solution .line").wait_for(state="visible", timeout=30_000)
    assert axe(page) == []
    page.click("#end-solution button.primary")
    page.locator("#solution-bar").wait_for(state="visible")
    page.click("#sol-next")
    ready(page)
    assert axe(page) == []  # the viewer
    no_errors(page)


def test_keyboard_only_with_one_tab_stop_for_the_grid(open_page: Callable[..., Page]) -> None:
    page = open_page(1)
    stops = page.evaluate("""() => [...document.querySelectorAll('[data-cell]')]
        .filter(c => c.tabIndex >= 0).length""")
    assert stops == 1
    # one live region on the page (the dialogs' own errors aside)
    live = page.evaluate("""() => [...document.querySelectorAll(
        '[aria-live], [role=status], [role=alert], [role=log]')]
        .filter(el => !el.closest('dialog')).map(el => el.id)""")
    assert live == ["announce"]
    # Tab reaches the grid once: from the talon, one Tab leaves the grid again
    seen: list[str] = []
    for _ in range(40):
        page.keyboard.press("Tab")
        here = page.evaluate("document.activeElement.dataset.cell || "
                             "document.activeElement.dataset.place || document.activeElement.id")
        seen.append(here)
        if here in CELL_NAMES:
            break
    assert seen[-1] in CELL_NAMES, seen
    page.keyboard.press("Tab")
    after = page.evaluate("document.activeElement.dataset.cell || ''")
    assert after == "", "the second Tab leaves the grid"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.dataset.cell") == seen[-1]
    # arrows move inside, and the grid's Tab stop follows the focus
    st = state(page)
    build = next(m for m in st["view"]["legal"] if m[0] != "t" and "-" in m)
    src, dst = build.split("-")

    def walk_to(name: str) -> None:
        for _ in range(30):
            here = page.evaluate("document.activeElement.dataset.cell")
            if here == name:
                return
            i, j = CELL_NAMES.index(here), CELL_NAMES.index(name)
            if i // 8 != j // 8:
                page.keyboard.press("ArrowDown" if j // 8 > i // 8 else "ArrowUp")
            else:
                page.keyboard.press("ArrowRight" if j > i else "ArrowLeft")
        raise AssertionError(f"the arrows never reach {name}")

    walk_to(src)
    assert page.evaluate("""() => [...document.querySelectorAll('[data-cell]')]
        .filter(c => c.tabIndex >= 0).map(c => c.dataset.cell)""") == [src]
    page.keyboard.press("Enter")
    # the card picked up says where it can go, in words
    page.wait_for_function("() => document.getElementById('announce').textContent"
                           ".includes('can go on')")
    said = page.locator("#announce").text_content() or ""
    assert dst in said and said.endswith("."), said
    walk_to(dst)
    page.keyboard.press("Enter")
    ready(page)
    assert state(page)["last_move"] == build
    # the focus ring, the selection and the targets look different
    page.keyboard.press("Enter")
    looks = page.evaluate("""() => {
        const focus = getComputedStyle(document.activeElement).outlineColor;
        const sel = document.querySelector('.place.selected .stack > img');
        return {focus, selected: sel ? getComputedStyle(sel).outlineColor : null};
    }""")
    assert looks["selected"] is None or looks["selected"] != looks["focus"], looks
    page.keyboard.press("Escape")
    assert page.locator(".selected").count() == 0
    no_errors(page)


# ------------------------------------------------------------------ tabs
def test_two_tabs_of_one_game_stay_in_step(make_context: Callable[..., BrowserContext],
                                           server_url: str) -> None:
    context = make_context()
    first = watch(context.new_page())
    first.goto(server_url + "/")
    ready(first)
    post(first, "/api/new", {"game": 1})
    first.reload()
    ready(first)
    second = watch(context.new_page())  # the same browser: the same game
    second.goto(server_url + "/")
    ready(second)
    for _ in range(3):
        second.keyboard.press("d")
    second.wait_for_function("() => document.getElementById('moves').textContent === '3'"
                             " && !document.body.dataset.busy")
    assert first.locator("#moves").text_content() == "0"  # stale until it comes back
    first.bring_to_front()
    first.evaluate("() => window.dispatchEvent(new Event('focus'))")
    first.wait_for_function("() => document.getElementById('moves').textContent === '3'"
                            " && !document.body.dataset.busy")
    st = state(first)
    assert first.evaluate("() => document.getElementById('talon').dataset.count") == str(
        len(st["view"]["talon"]))
    # and the other way round, when a tab becomes visible again
    first.keyboard.press("u")
    ready(first)
    second.bring_to_front()
    second.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    second.wait_for_function("() => document.getElementById('moves').textContent === '2'"
                             " && !document.body.dataset.busy")
    no_errors(first)
    no_errors(second)


# ------------------------------------------------------------------ the win
def test_a_win_shows_the_arranged_grid_then_time_moves_and_the_new_best(
    open_page: Callable[..., Page],
) -> None:
    from devilsgrip.solver import solve

    result = solve(Game(1), time_limit=20.0)
    assert result.score == 0
    moves = [m.text() for m in result.moves]
    page = open_page(1, moves=tuple(moves[:-1]))
    # an earlier, worse game of this deal: the win is a new best
    post(page, "/api/giveup", {})
    post(page, "/api/restart", {})
    for move in moves[:-1]:
        post(page, "/api/move", {"move": move})
    page.reload()
    ready(page)
    last = moves[-1]
    page.evaluate("""m => { window.__won = null; window.__move = m;
        new MutationObserver(() => {
            if (document.getElementById('dlg-end').open && window.__won === null) {
                const tops = [...document.querySelectorAll('[data-cell]')].map(c => c.dataset.top);
                window.__won = {at: performance.now(), tops};
            }
        }).observe(document.getElementById('dlg-end'), {attributes: true});
        window.__sent = performance.now(); }""", last)
    if last.startswith("t-"):
        page.click("#talon")
        page.click(f'[data-cell="{last[2:]}"]')
    elif last in ("d", "r"):
        page.keyboard.press(last)
    else:
        src, dst = last.split("-")
        page.click(f'[data-cell="{src}"]')
        page.click(f'[data-cell="{dst}"]')
    page.locator("#dlg-end").wait_for(state="visible", timeout=30_000)
    won = page.evaluate("() => window.__won")
    # the win is told at once; the grid arranges itself beneath the dialog
    assert [t[0] for t in won["tops"]] == ["J"] * 8 + ["Q"] * 8 + ["K"] * 8
    assert won["at"] - page.evaluate("() => window.__sent") < 1000
    st = state(page)
    assert st["view"]["won"] and st["game"]["new_best"] is True
    assert page.locator("#end-rating").is_hidden()
    played = page.locator("#end-played").text_content() or ""
    assert f"{len(moves)} moves in " in played and ":" in played, played
    assert "New best on this deal!" in (page.locator("#end-best").text_content() or "")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "won-dialog-1280x800.png"))
    no_errors(page)


# ------------------------------------------------------------ smaller things
def test_a_refused_drop_is_explained_without_a_refused_request(
    open_page: Callable[..., Page],
) -> None:
    """Deal 5: the 3 of diamonds (a1) does not go on the 9 of diamonds (b1)."""
    page = open_page(5, motion="no-preference")
    sent: list[str] = []
    page.on("request", lambda r: sent.append(f"{r.method} {r.url.split('/', 3)[-1]}"))
    page.click('[data-cell="a1"]')
    page.click('[data-cell="b1"]')
    page.wait_for_function("() => document.getElementById('message').textContent")
    ready(page)
    assert "3 of diamonds is a base" in (page.locator("#message").text_content() or "")
    # (the first action puts the first-game guide away: that setting is the one POST)
    assert not [s for s in sent if s.startswith("POST") and s != "POST api/settings"], sent
    assert state(page)["view"]["moves"] == 0
    no_errors(page)  # no "Failed to load resource: 409" in the console


def test_the_rules_have_one_title_and_their_close_button_stays_in_reach(
    open_page: Callable[..., Page],
) -> None:
    page = open_page(1, width=390, height=844)
    page.click("#btn-menu")
    page.locator("#menu-list").get_by_role("button", name="Rules").click()
    page.locator("#rules-text h3").first.wait_for()
    headings = page.eval_on_selector_all("#dlg-rules h1, #dlg-rules h2",
                                         "els => els.filter(e => !e.closest('#rules-text'))"
                                         ".map(e => e.textContent)")
    assert headings == ["Devil's Grip: the rules"], headings
    close = page.locator("#dlg-rules .dlg-actions .close")
    box = close.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844, box
    assert close.is_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "rules-390x844.png"))
    close.click()
    assert page.locator("#dlg-rules").is_hidden()
    no_errors(page)


def test_empty_stock_and_talon_show_no_count(open_page: Callable[..., Page]) -> None:
    page = open_page(1)
    assert page.locator("#talon-count").is_hidden()
    for _ in range(24):
        post(page, "/api/move", {"move": "d"})
    page.reload()
    ready(page)
    assert page.locator("#stock-count").is_hidden()
    assert page.locator("#talon-count").is_visible()
    talon = page.locator("#talon .fan.top").bounding_box()
    badge = page.locator("#talon-count").bounding_box()
    assert talon is not None and badge is not None
    # the talon's count sits on its top card's corner
    assert talon["x"] < badge["x"] + badge["width"] / 2 < talon["x"] + talon["width"] + 8
    no_errors(page)
