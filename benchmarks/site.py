"""Benchmark of the static site (``make site``): what a first visit costs, how soon the
board is playable, and how fast the game answers inside the browser.

Builds the site into a temporary folder (the Pyodide runtime from ``make pyodide``),
serves it with a plain static server on loopback, and drives Debian's Chromium
(Playwright).  Prints:

1. the bytes of a first visit, compressed as a static host sends them (gzip, level
   6): the service worker fetches every file of the site once;
2. seconds to a playable board, cold (a new browser profile: nothing cached) and
   warm (a reload: every file from the service worker's cache, Python from its
   snapshot), with the worker's own steps (seconds since the page began); with
   reduced motion, so that the deal's animation is not counted as start-up;
3. a move's latency in the worker (a deal from the stock and its undo, each
   written to the browser's database and kept in IndexedDB before the answer),
   p50 and p95, measured in the page around ``request()``; and again with a second
   tab of the site open (each request then takes the folder back first), and with a
   history of ``--history`` finished games imported (the database file grows with it,
   and the browser's storage copies it whole at each checkpoint of its log);
4. a hint's seconds in the worker against this package run natively by CPython on
   the same position, with the same pure-Python search core, as a ratio.

Targets on this machine: warm start to a playable board <= 2 s, a move <= 50 ms at
p95, a first visit <= 8 MB compressed.

    .venv/bin/python benchmarks/site.py [--moves 40] [--hints 3] [--runs 3]
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from devilsgrip.site.build import PYODIDE_PLACES, build_site

READY = "document.body.dataset.ready === '1' && !document.getElementById('site-loading')"
TARGETS = {"warm": 2.0, "move_p95_ms": 50.0, "first_visit_mb": 8.0}


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


def first_visit_bytes(folder: Path, files: tuple[str, ...]) -> tuple[int, int]:
    """(raw, gzip-compressed) bytes of every file a first visit fetches."""
    raw = packed = 0
    for name in (*files, "sw.js"):
        body = (folder / name).read_bytes()
        raw += len(body)
        packed += len(gzip.compress(body, compresslevel=6))
    return raw, packed


def steps(page: Any) -> dict[str, float]:
    marks = page.evaluate("performance.getEntriesByType('mark').filter(m =>"
                          " m.name.startsWith('devilsgrip:')).map(m => [m.name, m.startTime])")
    return {name.removeprefix("devilsgrip:"): round(at / 1000, 2) for name, at in marks}


def load(page: Any, url: str | None) -> float:
    start = time.perf_counter()
    if url is None:
        page.reload()
    else:
        page.goto(url)
    page.wait_for_function(READY, timeout=300_000)
    return time.perf_counter() - start


TIME_REQUESTS = """async ([count]) => {
  const { request } = await import("./static/transport.js");
  const times = [];
  const parts = [];
  for (let i = 0; i < count; i += 1) {
    for (const path of ["/api/stock", "/api/undo"]) {
      const start = performance.now();
      await request("POST", path, {});
      times.push(performance.now() - start);
      const mark = performance.getEntriesByName("devilsgrip:answer").pop();
      if (mark) parts.push(mark.detail);
    }
  }
  return [times, parts];
}"""

TIME_HINTS = """async ([count, game]) => {
  const { request } = await import("./static/transport.js");
  await request("POST", "/api/new", { game });
  const times = [];
  for (let i = 0; i < count; i += 1) {
    const start = performance.now();
    await request("POST", "/api/hint", {});
    times.push(performance.now() - start);
  }
  return times;
}"""


IMPORT = """async ([text]) => {
  const { request } = await import("./static/transport.js");
  return request("POST", "/api/import", { records: text });
}"""


def history_records(count: int) -> str:
    """The records of ``count`` finished games (greedy's, deals 100001 on, the three
    presets in turn), as a player's export holds them."""
    from devilsgrip.game import Game
    from devilsgrip.records import write_record
    from devilsgrip.solver import play_game

    presets = ("classic", "single-pass", "literal")
    return "\n\n".join(
        write_record(play_game(Game(100_001 + i, rules=presets[i % 3]), "greedy",
                               time_limit=0.05))
        for i in range(count))


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[94]


def native_hint(game: int, count: int) -> float:
    """Seconds of a hint by this package in CPython, on the pure-Python core as in the site."""
    os.environ["DEVILSGRIP_CORE"] = "python"
    from devilsgrip.site.worker import WorkerDoor

    door = WorkerDoor(Path(tempfile.mkdtemp()), game=game)
    door.answer("POST", "/api/new", json.dumps({"game": game}), "en")
    times = []
    for _ in range(count):
        start = time.perf_counter()
        door.answer("POST", "/api/hint", "{}", "en")
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="stock deals and undos timed")
    parser.add_argument("--hints", type=int, default=3)
    parser.add_argument("--runs", type=int, default=3, help="cold and warm starts timed")
    parser.add_argument("--game", type=int, default=7, help="the deal of the hints")
    parser.add_argument("--pyodide", type=Path, default=Path(PYODIDE_PLACES[0]))
    parser.add_argument("--history", type=int, default=1000,
                        help="finished games imported before the last moves timed")
    args = parser.parse_args()
    chromium = shutil.which("chromium")
    if chromium is None:
        print("Chromium is not installed (make browser)", file=sys.stderr)
        return 2
    print("load average at the start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    folder = Path(tempfile.mkdtemp(prefix="devilsgrip-site-")) / "site"
    report = build_site(folder, args.pyodide)
    raw, packed = first_visit_bytes(folder, report.files)
    print(f"first visit: {raw / 1e6:.1f} MB, {packed / 1e6:.2f} MB compressed (gzip)"
          f"  [target <= {TARGETS['first_visit_mb']:g} MB]")
    from playwright.sync_api import sync_playwright

    httpd, url = serve(folder)
    results: dict[str, Any] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        cold: list[float] = []
        warm: list[float] = []
        for run in range(args.runs):
            context = browser.new_context(reduced_motion="reduce")
            page = context.new_page()
            cold.append(load(page, url))
            cold_steps = steps(page)
            warm.append(load(page, None))
            warm_steps = steps(page)
            if run < args.runs - 1:
                context.close()
        print(f"cold start to a playable board: {statistics.median(cold):.2f} s "
              f"(runs {', '.join(f'{s:.2f}' for s in cold)}); steps {cold_steps}")
        print(f"warm start (reload, from the cache): {statistics.median(warm):.2f} s "
              f"(runs {', '.join(f'{s:.2f}' for s in warm)}); steps {warm_steps}"
              f"  [target <= {TARGETS['warm']:g} s]")
        moves, parts = page.evaluate(TIME_REQUESTS, [args.moves])
        q = statistics.quantiles(moves, n=100)
        print(f"a move in the worker: p50 {statistics.median(moves):.1f} ms, p95 {q[94]:.1f} ms"
              f" ({len(moves)} moves)  [target p95 <= {TARGETS['move_p95_ms']:g} ms]")
        if parts:
            python = [p[0] for p in parts]
            kept = [p[1] for p in parts]
            rest = [m - p - k for m, p, k in zip(moves, python, kept, strict=False)]
            print(f"  of which: Python p50 {statistics.median(python):.1f} ms, p95 "
                  f"{p95(python):.1f} ms; keeping the folder in IndexedDB p50 "
                  f"{statistics.median(kept):.1f} ms, p95 {p95(kept):.1f} ms; the messages "
                  f"p50 {statistics.median(rest):.1f} ms")
        # with a second tab open, each request first takes the games folder back from
        # IndexedDB and opens the games again (the other tab may have played)
        other = context.new_page()
        other.goto(url)
        other.wait_for_function(READY, timeout=300_000)
        shared, _ = page.evaluate(TIME_REQUESTS, [args.moves])
        other.close()
        print(f"a move with a second tab open: p50 {statistics.median(shared):.1f} ms, p95 "
              f"{p95(shared):.1f} ms ({len(shared)} moves)")
        if args.history:
            page.evaluate(IMPORT, [history_records(args.history)])
            page.reload()
            page.wait_for_function(READY, timeout=300_000)
            kept, _ = page.evaluate(TIME_REQUESTS, [args.moves])
            print(f"a move with {args.history} finished games kept: p50 "
                  f"{statistics.median(kept):.1f} ms, p95 {p95(kept):.1f} ms ({len(kept)} moves)")
        hints = page.evaluate(TIME_HINTS, [args.hints, args.game])
        in_browser = statistics.median(hints) / 1000
        browser.close()
    httpd.shutdown()
    native = native_hint(args.game, args.hints)
    print(f"a hint on deal {args.game}: {in_browser:.2f} s in the worker, {native:.2f} s natively"
          f" (same pure-Python core): ratio {in_browser / native:.1f}")
    print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    results.update(cold=cold, warm=warm, moves=moves, hints=hints, native_hint=native)
    shutil.rmtree(folder.parent, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
