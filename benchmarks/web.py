"""Benchmark of the browser game's server: move latency under 50 games, and first paint.

Starts ``devilsgrip play`` in a child process (its own interpreter, a temporary
database, loopback), then:

1. plays ``--games`` games at once (asyncio + httpx2, one client and cookie per
   game), each ``--moves`` moves chosen at random among the legal ones, and
   prints the median and 99th percentile of the move latency (POST /api/move,
   request sent to response read).  Two runs: *paced* (each player waits
   ``--think`` seconds on average between moves, as people do) and
   *saturated* (no waiting at all: every game fires its next move at once);
2. times the page's first load: the page and its assets (scripts, styles and
   the card images) over HTTP, and, when Debian's Chromium is installed, the
   first-contentful-paint measured in the browser (Playwright).

The load generator runs on the same machine, so on 2 cores the figures include
its own cost (a lone client sees about 0.9 ms a move).  The paced run's default
is a brisk player: a move a second on average.  The saturated run is a stress
figure (about 560 moves/s here, all of it queued).

Targets: p99 move latency under 10 ms; first paint under 300 ms.

    .venv/bin/python benchmarks/web.py [--games 50] [--moves 40] [--think 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2

from devilsgrip.game import Game


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(db: Path, port: int, *, apart: bool = True) -> subprocess.Popen[bytes]:
    """``devilsgrip play`` on loopback; ``apart``: each client its own player (as browsers
    on other computers are), not all of them this computer's one player."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "devilsgrip", "play", "--no-browser", "--port", str(port),
         "--db", str(db), "--lang", "en", *(["--browsers-apart"] if apart else [])],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx2.get(f"http://127.0.0.1:{port}/api/i18n", timeout=1)
            return proc
        except httpx2.TransportError:
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise SystemExit(f"the server died: {err}") from None
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


async def play_one(base: str, number: int, moves: int, think: float,
                   latencies: list[float], rng: random.Random) -> None:
    async with httpx2.AsyncClient(base_url=base, headers={"origin": base}, timeout=60) as c:
        r = await c.post("/api/new", json={"game": number})
        r.raise_for_status()
        mirror = Game(number)
        for _ in range(moves):
            legal = mirror.generate_moves()
            if not legal:
                legal = [m for m in mirror.legal_moves if m.is_swap][:5]
            builds = [m for m in legal if m.text() not in ("d", "r")]
            move = rng.choice(builds) if builds and rng.random() < 0.7 else rng.choice(legal)
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))
            t0 = time.perf_counter()
            r = await c.post("/api/move", json={"move": move.text()})
            latencies.append((time.perf_counter() - t0) * 1000)
            if r.status_code != 200:
                raise SystemExit(f"move {move} refused: {r.text}")
            mirror.play(move)


async def many_games(base: str, games: int, moves: int, think: float, seed: int) -> list[float]:
    latencies: list[float] = []
    rng = random.Random(seed)
    await asyncio.gather(*(
        play_one(base, 1000 + seed * games + i, moves, think, latencies,
                 random.Random(rng.random())) for i in range(games)
    ))
    return latencies


def page_load(base: str) -> float:
    """Milliseconds to fetch the page, then its assets and the images a deal shows, in parallel."""
    with httpx2.Client(base_url=base, headers={"origin": base}) as c:
        t0 = time.perf_counter()
        html = c.get("/").text
        assets = sorted(set(re.findall(r'(?:src|href)="(/[^"#]+)"', html)))
        state = c.get("/api/game").json()
        cards = {code for pile in state["view"]["grid"] for code in pile[-1:]}
        urls = assets + [f"/cards/{code}.svg" for code in sorted(cards)]

        async def fetch_all() -> None:
            async with httpx2.AsyncClient(base_url=base, cookies=c.cookies) as ac:
                await asyncio.gather(*(ac.get(u) for u in urls))

        asyncio.run(fetch_all())
        return (time.perf_counter() - t0) * 1000


def browser_paint(base: str, runs: int) -> list[float] | None:
    """First-contentful-paint in Chromium (ms), or None when it is not installed."""
    chromium = shutil.which("chromium")
    if chromium is None:
        return None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    values: list[float] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=chromium,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            for _ in range(runs):
                context = browser.new_context()
                page = context.new_page()
                page.goto(base + "/", wait_until="load")
                page.wait_for_function(
                    "performance.getEntriesByName('first-contentful-paint').length > 0",
                    timeout=10_000,
                )
                fcp = page.evaluate(
                    "performance.getEntriesByName('first-contentful-paint')[0].startTime"
                )
                values.append(float(fcp))
                context.close()
        finally:
            browser.close()
    return values


def report(title: str, latencies: list[float], seconds: float) -> None:
    rate = len(latencies) / seconds
    print(f"{title}: {len(latencies)} moves in {seconds:.1f} s ({rate:.0f} moves/s): "
          f"median {statistics.median(latencies):.2f} ms, "
          f"p99 {percentile(latencies, 99):.2f} ms, max {max(latencies):.2f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds between a player's moves in the paced run")
    parser.add_argument("--paint-runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dg-bench-") as tmp:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        proc = start_server(Path(tmp) / "bench.sqlite3", port)
        try:
            print(f"server: {base} (child process, database in {tmp}; every move committed "
                  "to SQLite before its answer)")
            for title, think, seed in (("paced", args.think, 1), ("saturated", 0.0, 2)):
                t0 = time.perf_counter()
                lat = asyncio.run(many_games(base, args.games, args.moves, think, seed))
                report(f"{args.games} games, {title}", lat, time.perf_counter() - t0)
            loads = [page_load(base) for _ in range(5)]
            print(f"page + assets over HTTP: median {statistics.median(loads):.1f} ms "
                  f"(best {min(loads):.1f} ms)")
            paints = browser_paint(base, args.paint_runs)
            if paints is None:
                print("first contentful paint: chromium not available, skipped")
            else:
                print(f"first contentful paint (Chromium): median {statistics.median(paints):.0f}"
                      f" ms (runs: {', '.join(f'{p:.0f}' for p in paints)})")
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
