"""The path of one web move: what a move costs inside the API function, call by call.

Runs one move (``POST /api/drop`` of a legal build, and ``POST /api/move`` of one) through
the API's plain function (:func:`devilsgrip.web.api.handle`, no HTTP) with a stored game,
and prints, per move:

- the package's files whose code ran (``sys.setprofile``);
- the legality checks (calls of ``Game.reason``, which ``Game.is_legal`` and
  ``Game.play`` make);
- the status computations (calls of ``Game.is_over``, the costly part of ``Game.status``);
- the SQL statements sent to SQLite (``set_trace_callback``), and the write transactions
  among them;
- the median time of the move through the API function, untraced.

    .venv/bin/python benchmarks/move_path.py [--repeat 200] [--path /api/drop]

:func:`trace_move` is what ``tests/web/test_move_path.py`` holds to its limits.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import devilsgrip
from devilsgrip.game import Game
from devilsgrip.notation import MoveKind
from devilsgrip.table import place_name
from devilsgrip.web.api import handle
from devilsgrip.web.browsers import WebState
from devilsgrip.web.calls import Call, Reply
from devilsgrip.web.options import ServerOptions

PACKAGE = Path(devilsgrip.__file__).resolve().parent
DEAL_NUMBER = 5
"""The deal the moves are played in (its first deal turns a card that builds)."""


@dataclass(frozen=True)
class MovePath:
    """What one move through the API function ran."""

    files: tuple[str, ...]
    """The package's files whose code ran, relative to the package, in order of first run."""
    legality_checks: int
    status_checks: int
    sql: tuple[str, ...]
    """The SQL statements sent, in order."""
    status: int
    """The answer's HTTP status (200: the move was played)."""

    @property
    def transactions(self) -> int:
        """The write transactions among the statements (each one round trip to the disk)."""
        return sum(1 for s in self.sql if s.strip().upper().startswith("BEGIN"))


class Game5Table:
    """A browser of a server with a database, its game stored, at a position with a build."""

    def __init__(self, db: Path) -> None:
        self.web = WebState(ServerOptions(db=db, game=DEAL_NUMBER, lang="en"))
        self.token: str | None = None
        self.call("POST", "/api/stock")  # its first action: the browser and game are stored

    def call(self, method: str, path: str, data: dict[str, Any] | None = None) -> Reply:
        reply = handle(self.web, self.token, Call(method, path, data or {}))
        self.token = reply.token or self.token
        return reply

    @property
    def game(self) -> Game:
        browser = self.web.known_browser(self.token)
        assert browser is not None
        return browser.table.session.game

    def next_move(self, path: str) -> tuple[str, dict[str, Any]]:
        """A legal move's call for ``path`` (``/api/drop``: a build if there is one; else the
        stock); ``/api/move``: the first legal move."""
        legal = self.game.generate_moves()
        if path == "/api/move":
            return "/api/move", {"move": legal[0].text()}
        for move in legal:
            if move.kind in (MoveKind.BUILD, MoveKind.TALON):
                source = move.src if move.kind == MoveKind.BUILD else 25
                return "/api/drop", {"from": place_name(source), "to": place_name(move.dst)}
        return "/api/stock", {}

    def store_trace(self, sink: list[str] | None) -> None:
        store = self.web.store
        assert store is not None
        store._con.set_trace_callback(None if sink is None else sink.append)


def _code_of(fn: Any) -> CodeType:
    return getattr(fn, "fget", fn).__code__  # type: ignore[no-any-return]


def trace_move(table: Game5Table, path: str = "/api/drop") -> MovePath:
    """Play the next legal move of ``path`` in ``table`` under the tracer."""
    where, data = table.next_move(path)
    reason, is_over = _code_of(Game.reason), _code_of(Game.is_over)
    files: dict[str, None] = {}
    counts: Counter[CodeType] = Counter()
    sql: list[str] = []

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event != "call":
            return
        code = frame.f_code
        if code is reason or code is is_over:
            counts[code] += 1
        name = code.co_filename
        if name not in files and name.startswith(str(PACKAGE)):
            files[name] = None

    table.store_trace(sql)
    sys.setprofile(profile)
    try:
        reply = table.call("POST", where, data)
    finally:
        sys.setprofile(None)
        table.store_trace(None)
    shown = tuple(str(Path(f).relative_to(PACKAGE)) for f in files)
    return MovePath(shown, counts[reason], counts[is_over], tuple(sql), reply.status)


def time_moves(table: Game5Table, path: str, repeat: int) -> float:
    """The median time of a move through the API function, untraced (seconds)."""
    times: list[float] = []
    for _ in range(repeat):
        if table.game.is_over():
            table.call("POST", "/api/new", {"game": DEAL_NUMBER})
        where, data = table.next_move(path)
        start = time.perf_counter()
        table.call("POST", where, data)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="moves timed per path")
    parser.add_argument("--path", action="append", choices=("/api/drop", "/api/move"),
                        help="the paths to measure (default: both)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="dg-path-") as tmp:
        for path in args.path or ["/api/drop", "/api/move"]:
            table = Game5Table(Path(tmp) / f"{path.rsplit('/', 1)[1]}.sqlite3")
            table.call("GET", "/api/game")
            found = trace_move(table, path)
            print(f"{path}: status {found.status}, {len(found.files)} files, "
                  f"{found.legality_checks} legality checks, {found.status_checks} status "
                  f"checks, {len(found.sql)} SQL statements in {found.transactions} "
                  "transactions")
            for name in found.files:
                print(f"    {name}")
            for statement in found.sql:
                print(f"    sql: {' '.join(statement.split())[:110]}")
            median = time_moves(table, path, args.repeat)
            print(f"    median {median * 1000:.2f} ms a move ({args.repeat} moves)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
