"""Building the catalog of winnable ``single-pass`` deals: a scan that stops and resumes.

Each deal of the range is searched in turn, on one process: the win search
(:func:`devilsgrip.solver.winnable.prove_winnable`) for ``win_seconds``, then,
when it has not decided, the optimizing search (which finds some wins sooner)
for ``solve_seconds``. A line found is replayed to a won game before it counts.
Every deal's outcome (``won`` with its line, ``lost``, ``unknown`` when the
limits stopped both searches) is appended to the scan file, one JSON object a
line, as soon as it is known; a rerun skips the deals the file already holds,
so a scan stopped at any point (Ctrl-C, a reboot) resumes where it stopped.
How it was run: [the winnable catalog][winnable-catalog] (docs/solver.md).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Final, NamedTuple

from devilsgrip.catalog import CATALOG_RULES, WinnableDeal, format_catalog
from devilsgrip.game import Game, Move
from devilsgrip.notation import format_moves, parse_moves

WON: Final = "won"
LOST: Final = "lost"
UNKNOWN: Final = "unknown"
WIN_SECONDS: Final = 1.5
"""Default time for the win search on each deal: it decides most deals well within it."""
SOLVE_SECONDS: Final = 1.5
"""Default time for the optimizing search on a deal the win search left open."""


class ScanRecord(NamedTuple):
    """One deal's outcome in the scan file."""

    game: int
    outcome: str
    line: tuple[Move, ...]
    seconds: float
    limit: float

    def to_json(self) -> str:
        data: dict[str, object] = {"game": self.game, "rules": CATALOG_RULES,
                                   "outcome": self.outcome, "seconds": round(self.seconds, 3),
                                   "limit": self.limit}
        if self.line:
            data["line"] = format_moves(self.line)
        return json.dumps(data)


def replays_to_win(game: int, line: Iterable[Move]) -> bool:
    """Whether ``line`` played from deal ``game`` of ``single-pass`` leaves no card out."""
    g = Game(game, rules=CATALOG_RULES)
    for move in line:
        if not g.is_legal(move):
            return False
        g.push(move)
    return g.is_won()


def search_deal(game: int, win_seconds: float = WIN_SECONDS,
                solve_seconds: float = SOLVE_SECONDS) -> ScanRecord:
    """Decide whether deal ``game`` of ``single-pass`` can be won, within the two limits."""
    from devilsgrip.solver.clairvoyant import solve
    from devilsgrip.solver.winnable import prove_winnable

    start = time.perf_counter()
    limit = win_seconds + solve_seconds
    deal = Game(game, rules=CATALOG_RULES)
    win = prove_winnable(deal, time_limit=win_seconds)
    outcome, line = win.outcome, win.moves
    if outcome == UNKNOWN and solve_seconds > 0:
        result = solve(deal, time_limit=solve_seconds)
        if result.score == 0:
            outcome, line = WON, tuple(result.moves)
        elif result.bound >= 1:
            outcome = LOST
    if outcome == WON and not replays_to_win(game, line):
        outcome, line = UNKNOWN, ()  # never expected: the searches' lines are exact
    return ScanRecord(game, outcome, tuple(line) if outcome == WON else (),
                      time.perf_counter() - start, limit)


def read_scan(path: Path) -> dict[int, ScanRecord]:
    """The records of a scan file by deal (the last record of a deal wins); a line cut
    short by an interrupted write is ignored."""
    records: dict[int, ScanRecord] = {}
    if not path.exists():
        return records
    for raw in path.read_text(encoding="utf-8").splitlines():
        try:
            data = json.loads(raw)
            record = ScanRecord(int(data["game"]), str(data["outcome"]),
                                tuple(parse_moves(data.get("line", ""))),
                                float(data["seconds"]), float(data["limit"]))
        except (ValueError, KeyError, TypeError):
            continue
        if record.outcome in (WON, LOST, UNKNOWN):
            records[record.game] = record
    return records


def _open_for_append(path: Path) -> int:
    """The scan file opened for appending, a last line cut short removed first."""
    if path.exists():
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):
            with path.open("r+b") as f:
                f.truncate(data.rfind(b"\n") + 1)
    return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)


class ScanReport(NamedTuple):
    searched: int
    won: int
    lost: int
    unknown: int


def scan(games: Iterable[int], path: Path, *, win_seconds: float = WIN_SECONDS,
         solve_seconds: float = SOLVE_SECONDS, retry_unknown: bool = False,
         stop_after_wins: int | None = None,
         progress: Callable[[ScanRecord, dict[int, ScanRecord]], None] | None = None,
         ) -> ScanReport:
    """Search the deals of ``games`` the scan file does not hold yet, appending each outcome.

    With ``retry_unknown``, deals recorded ``unknown`` are searched again (with the limits
    given now). ``stop_after_wins`` ends the scan once the file holds that many wins.
    """
    records = read_scan(path)
    counts = {WON: 0, LOST: 0, UNKNOWN: 0}
    fd = _open_for_append(path)
    try:
        for game in games:
            if stop_after_wins is not None and \
                    sum(r.outcome == WON for r in records.values()) >= stop_after_wins:
                break
            old = records.get(game)
            if old is not None and not (retry_unknown and old.outcome == UNKNOWN):
                continue
            record = search_deal(game, win_seconds, solve_seconds)
            os.write(fd, (record.to_json() + "\n").encode("utf-8"))
            records[game] = record
            counts[record.outcome] += 1
            if progress is not None:
                progress(record, records)
    finally:
        os.close(fd)
    return ScanReport(sum(counts.values()), counts[WON], counts[LOST], counts[UNKNOWN])


def catalog_from_scan(path: Path) -> list[WinnableDeal]:
    """The winnable deals a scan file holds, each line checked again by replaying it."""
    return [WinnableDeal(r.game, r.line) for r in sorted(read_scan(path).values())
            if r.outcome == WON and replays_to_win(r.game, r.line)]


def scan_summary(path: Path) -> str:
    """One line for the catalog's header: what the scan covered and found."""
    records = read_scan(path)
    won = sum(r.outcome == WON for r in records.values())
    lost = sum(r.outcome == LOST for r in records.values())
    unknown = sum(r.outcome == UNKNOWN for r in records.values())
    low = min(records, default=0)
    high = max(records, default=0)
    return (f"{CATALOG_RULES} deals {low}..{high} scanned ({len(records)}): {won} won, "
            f"{lost} proven lost, {unknown} unresolved")


def write_catalog(scan_path: Path, out: Path) -> int:
    """Write the catalog file of the scan's wins to ``out``; the number of deals in it."""
    entries = catalog_from_scan(scan_path)
    header = ("Devil's Grip single-pass deals proven winnable: deal number, then a winning line.\n"
              "Rebuilt by: devilsgrip winnable --build (see docs/solver.md).\n"
              + scan_summary(scan_path))
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(format_catalog(entries, header), encoding="utf-8")
    tmp.replace(out)
    return len(entries)
