"""Benchmark of the browser game's server under hostile or heavy load.

Starts ``devilsgrip play`` in a child process (its own interpreter, a temporary
database, loopback), then measures:

1. *stall*: the time of one player's ``GET /api/game`` while ten of that
   player's requests hold a body that never finishes (``Content-Length: 2``,
   only ``{`` sent);
2. *searches*: ``--searchers`` sessions each give up a game and ask for its
   best line (``POST /api/solution``) at once, while one player plays
   ``--moves`` moves; prints the median and 99th percentile of that player's
   move latency (request sent to response read);
3. *growth*: the database's size (with its WAL) before and after ``--looks``
   requests without a cookie (``GET /api/game``, as a crawler or a
   new tab that never plays).

Targets: stall under 1 s; p99 move latency under 100 ms while the searches run;
no growth.

    .venv/bin/python benchmarks/web_hardening.py [--searchers 60] [--moves 100] [--looks 5000]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2

from devilsgrip.game import Game
from devilsgrip.web.server import COOKIE_NAME
from web import free_port, percentile, start_server


def db_size(db: Path) -> int:
    return sum(p.stat().st_size for p in (db, Path(f"{db}-wal")) if p.exists())


def stall(base: str, port: int) -> float:
    """Milliseconds of a GET /api/game while ten bodies of the same player are stalled."""
    with httpx2.Client(base_url=base, headers={"origin": base}, timeout=60) as c:
        c.post("/api/move", json={"move": "d"}).raise_for_status()
        cookie = c.cookies[COOKIE_NAME]
        host = base.removeprefix("http://")
        socks = []
        for _ in range(10):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall((f"POST /api/undo HTTP/1.1\r\nHost: {host}\r\nOrigin: {base}\r\n"
                       f"Cookie: {COOKIE_NAME}={cookie}\r\nContent-Type: application/json\r\n"
                       "Content-Length: 2\r\n\r\n{").encode())
            socks.append(s)
        try:
            time.sleep(0.3)
            t0 = time.perf_counter()
            c.get("/api/game").raise_for_status()
            return (time.perf_counter() - t0) * 1000
        finally:
            for s in socks:
                s.close()


async def player(base: str, moves: int, latencies: list[float]) -> None:
    rng = random.Random(7)
    async with httpx2.AsyncClient(base_url=base, headers={"origin": base}, timeout=120) as c:
        (await c.post("/api/new", json={"game": 77})).raise_for_status()
        mirror = Game(77)
        for _ in range(moves):
            legal = mirror.generate_moves() or [m for m in mirror.legal_moves if m.is_swap][:5]
            move = rng.choice(legal)
            await asyncio.sleep(rng.uniform(0.01, 0.05))
            t0 = time.perf_counter()
            r = await c.post("/api/move", json={"move": move.text()})
            latencies.append((time.perf_counter() - t0) * 1000)
            if r.status_code != 200:
                raise SystemExit(f"move {move} refused: {r.text}")
            mirror.play(move)


def run_searchers(base: str, searchers: int, started: Any, answers: Any,
                  method: str = "POST") -> None:
    """The searchers, in a process of their own: their clients' work (reading 60 long
    lines) never delays the measured player's."""

    async def all_of_them() -> list[tuple[int, float]]:
        codes: list[tuple[int, float]] = []
        await asyncio.gather(*(searcher(base, 500 + i, codes, started, method)
                               for i in range(searchers)))
        return codes

    answers.put(asyncio.run(all_of_them()))


async def searcher(base: str, number: int, answers: list[tuple[int, float]], started: Any,
                   method: str) -> None:
    async with httpx2.AsyncClient(base_url=base, headers={"origin": base}, timeout=300) as c:
        (await c.post("/api/new", json={"game": number})).raise_for_status()
        (await c.post("/api/move", json={"move": "d"})).raise_for_status()
        (await c.post("/api/giveup")).raise_for_status()
        started.release()
        r = await c.request(method, "/api/solution")
        answers.append((r.status_code, time.time()))


def searches(base: str, searchers: int, moves: int,
             method: str) -> tuple[list[float], list[int], float]:
    """The player's move latencies while the searches run, the searches' answers, and the
    share of the searches answered while the player played."""
    ctx = multiprocessing.get_context("spawn")
    started = ctx.Semaphore(0)
    answers = ctx.Queue()
    proc = ctx.Process(target=run_searchers, args=(base, searchers, started, answers, method))
    proc.start()
    for _ in range(searchers):  # every searcher has asked (or is asking) for its line
        started.acquire(timeout=120)
    latencies: list[float] = []
    began = time.time()
    asyncio.run(player(base, moves, latencies))
    ended = time.time()
    answered: list[tuple[int, float]] = answers.get(timeout=600)
    proc.join(30)
    during = sum(1 for _code, when in answered if began <= when <= ended)
    return latencies, [code for code, _when in answered], during / max(1, len(answered))


def looks(base: str, count: int) -> None:
    with httpx2.Client(base_url=base) as c:
        for _ in range(count):
            c.cookies.clear()
            c.get("/api/game").raise_for_status()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--searchers", type=int, default=60)
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--looks", type=int, default=5000)
    parser.add_argument("--get-solution", action="store_true",
                        help="ask for the best line by GET (a server from before it was POST only)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dg-hard-") as tmp:
        db = Path(tmp) / "games.sqlite3"
        port = free_port()
        proc = start_server(db, port, apart=not args.get_solution)
        base = f"http://127.0.0.1:{port}"
        try:
            print(f"stall: GET /api/game with ten stalled bodies open: "
                  f"{stall(base, port):.1f} ms (target < 1000 ms)")
            latencies, answers, during = searches(base, args.searchers, args.moves,
                                                 "GET" if args.get_solution else "POST")
            print(f"moves under {args.searchers} best-line searches: "
                  f"p50 {statistics.median(latencies):.1f} ms, "
                  f"p99 {percentile(latencies, 99):.1f} ms, max {max(latencies):.1f} ms "
                  f"over {len(latencies)} moves (target p99 <= 100 ms)")
            slowest = sorted(range(len(latencies)), key=lambda i: -latencies[i])[:5]
            print("  slowest moves (move number: ms): " + ", ".join(
                f"{i + 1}: {latencies[i]:.0f}" for i in sorted(slowest)))
            print(f"  {during:.0%} of the searches were answered while the player played")
            print("  searches answered: " + ", ".join(
                f"{code}: {answers.count(code)}" for code in sorted(set(answers))))
            before = db_size(db)
            t0 = time.perf_counter()
            looks(base, args.looks)
            took = time.perf_counter() - t0
            after = db_size(db)
            print(f"growth: {args.looks} cookie-less GET /api/game in {took:.1f} s: "
                  f"{before} -> {after} bytes ({after - before:+d}; target 0)")
        finally:
            proc.terminate()
            proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
