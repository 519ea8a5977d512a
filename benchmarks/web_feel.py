"""Benchmark of the browser game's feel: how long quick input takes to land on the page.

Starts the server in this process (a background thread, a temporary database),
opens the page in Debian's Chromium (Playwright) with animations at normal speed
and motion allowed, and times:

1. **ten quick deals**: ``d`` pressed ten times as fast as the keyboard sends it,
   from the first key to the moment the page is idle again (``body[data-busy]``
   gone) with the tenth deal shown; a new action finishes the running animation at
   once, so this is about ten server answers and one animation;
2. **one move**: a single deal, key to idle (one answer and its full animation);
3. **a pick-up during a flight**: a deal, then at once a click on a grid cell:
   the time until that cell shows as picked up.

Target: ten quick deals within 1.5 s at normal speed.

    .venv/bin/python benchmarks/web_feel.py [--runs 3] [--size 390x844]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from devilsgrip.web.server import ServerOptions, ServerThread

IDLE = "() => document.body.dataset.ready && !document.body.dataset.busy"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--size", default="1280x800", help="viewport, WIDTHxHEIGHT")
    parser.add_argument("--game", type=int, default=1)
    args = parser.parse_args(argv)
    chromium = shutil.which("chromium")
    if chromium is None:
        print("chromium is not installed", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    width, height = (int(x) for x in args.size.lower().split("x"))
    with tempfile.TemporaryDirectory(prefix="dg-feel-") as tmp:
        server = ServerThread(ServerOptions(db=Path(tmp) / "feel.sqlite3", lang="en")).start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, args=[
                    "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
                context = browser.new_context(viewport={"width": width, "height": height},
                                              reduced_motion="no-preference")
                page = context.new_page()
                page.goto(server.url + "/")
                page.wait_for_function(IDLE)
                status = page.evaluate("""() => fetch('/api/settings', {method: 'POST',
                    headers: {'Content-Type': 'application/json'},
                    body: JSON.stringify({animation: 'normal'})}).then(r => r.status)""")
                assert status == 200, status
                tens: list[float] = []
                ones: list[float] = []
                picks: list[float] = []
                for _ in range(args.runs):
                    page.evaluate("""n => fetch('/api/new', {method: 'POST', headers:
                        {'Content-Type': 'application/json'}, body: JSON.stringify({game: n})})""",
                                  args.game)
                    page.reload()
                    page.wait_for_function(IDLE)
                    page.evaluate("() => { window.__t0 = performance.now(); }")
                    for _ in range(10):
                        page.keyboard.press("d")
                    page.wait_for_function(
                        "() => !document.body.dataset.busy"
                        " && document.getElementById('moves').textContent === '10'",
                        timeout=60_000)
                    tens.append(page.evaluate("() => performance.now() - window.__t0") / 1000)
                    page.evaluate("() => { window.__t0 = performance.now(); }")
                    page.keyboard.press("d")
                    page.wait_for_function(
                        "() => !document.body.dataset.busy"
                        " && document.getElementById('moves').textContent === '11'")
                    ones.append(page.evaluate("() => performance.now() - window.__t0") / 1000)
                    # a pick-up while a deal is still flying
                    page.keyboard.press("u")
                    page.wait_for_function(IDLE)
                    took = page.evaluate("""() => new Promise((resolve) => {
                        const cell = document.querySelector('[data-cell="a1"]');
                        document.dispatchEvent(new KeyboardEvent('keydown', {key: 'd'}));
                        const t0 = performance.now();
                        requestAnimationFrame(() => {
                            cell.click();
                            const check = () => cell.classList.contains('selected')
                                ? resolve(performance.now() - t0) : requestAnimationFrame(check);
                            check();
                        });
                    })""")
                    picks.append(took / 1000)
                    page.keyboard.press("Escape")
                    page.wait_for_function(IDLE)
                browser.close()
        finally:
            server.stop()
    print(f"browser game feel at {width}x{height}, animations normal, {args.runs} runs")
    print(f"  ten quick deals   median {statistics.median(tens):.2f} s  worst {max(tens):.2f} s"
          "  (target 1.5 s)")
    print(f"  one deal          median {statistics.median(ones):.2f} s  (one answer, full flight)")
    print(f"  pick-up mid-deal  median {statistics.median(picks) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
