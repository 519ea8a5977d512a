"""The README's pictures: the browser game and the terminal game, a few moves into a deal.

    .venv/bin/python scripts/screenshots.py [--out docs/images] [--game 5]

writes ``page.png`` (the page in Chromium, 1280 x 800, through Playwright) and
``terminal.svg`` (the terminal game at 100 x 32, Textual's own SVG export).
Both play the same moves of the same deal, with a fresh temporary database, so
the pictures change only when the screens do.  Needs Debian's ``chromium``
(``make browser``) for the page; ``make screenshots`` runs it.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
from pathlib import Path

from devilsgrip.i18n import set_language
from devilsgrip.store import Store

MOVES = ("d", "d", "d")
"""The keys pressed before each picture: three deals, so the talon shows."""
PLAY_SECONDS = 47.0
"""The play time the terminal's picture shows."""
PAGE_SIZE = (1280, 800)
TERMINAL_SIZE = (100, 32)


def page_png(out: Path, game: int) -> None:
    """The browser game of deal ``game`` after :data:`MOVES`, as a PNG."""
    from playwright.sync_api import sync_playwright

    from devilsgrip.web.options import ServerOptions
    from devilsgrip.web.server import ServerThread

    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("chromium is missing: run `make browser` first")
    with tempfile.TemporaryDirectory(prefix="dg-shots-") as tmp:
        server = ServerThread(ServerOptions(db=Path(tmp) / "games.sqlite3", game=game,
                                            lang="en")).start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=chromium,
                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
                )
                width, height = PAGE_SIZE
                context = browser.new_context(viewport={"width": width, "height": height},
                                              reduced_motion="reduce", locale="en-GB")
                page = context.new_page()
                page.goto(server.url)
                page.wait_for_load_state("networkidle")
                for key in MOVES:
                    page.keyboard.press(key)
                    page.wait_for_load_state("networkidle")
                page.wait_for_timeout(500)
                page.screenshot(path=str(out))
                browser.close()
        finally:
            server.stop()


def terminal_svg(out: Path, game: int) -> None:
    """The terminal game of deal ``game`` after :data:`MOVES`, played in
    :data:`PLAY_SECONDS` by the play clock (the same picture on every run), as an SVG."""
    from devilsgrip import session
    from devilsgrip.tui.app import DevilsGripApp

    now = [0.0]

    async def scenario(store: Store) -> None:
        app = DevilsGripApp(store, number=game, flourish_delay=0.0, dialog_guard=0.0)
        async with app.run_test(size=TERMINAL_SIZE) as pilot:
            for key in MOVES:
                await pilot.press(key)
            now[0] += PLAY_SECONDS
            await pilot.pause(1.5)  # the clock is drawn again every second
            app.save_screenshot(filename=out.name, path=str(out.parent))

    real = session.clock
    session.clock = lambda: now[0]
    with tempfile.TemporaryDirectory(prefix="dg-shots-") as tmp:
        store = Store.open(Path(tmp) / "games.sqlite3")
        try:
            asyncio.run(scenario(store))
        finally:
            store.close()
            session.clock = real


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=Path("docs/images"))
    parser.add_argument("--game", type=int, default=5, help="the deal shown (default: 5)")
    parser.add_argument("--only", choices=("page", "terminal"), help="make one picture only")
    args = parser.parse_args(argv)
    set_language("en")
    args.out.mkdir(parents=True, exist_ok=True)
    if args.only != "page":
        terminal_svg(args.out / "terminal.svg", args.game)
        print(args.out / "terminal.svg")
    if args.only != "terminal":
        page_png(args.out / "page.png", args.game)
        print(args.out / "page.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
