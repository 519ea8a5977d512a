"""Per-deal results and the files that keep them (SQLite or Parquet).

One row per deal, rules and player.  The key ``(rules, player, game)`` is
unique in a file, so a rerun skips what is already there: that is how an
interrupted run resumes.  Rows are written as they arrive (SQLite commits
every batch; Parquet rewrites its file atomically after every batch), so an
interruption loses at most the deals still being worked on.

The file is chosen by extension: ``.parquet`` (or ``.pq``) for Parquet,
anything else for SQLite.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import IO, Any, Final, Protocol

from devilsgrip import codes
from devilsgrip.errors import DevilsGripError

PLAYERS: Final = ("clairvoyant", "honest", "greedy")
"""The players an analysis can run (the solver package's names)."""

SCHEMA_VERSION: Final = 1
PARQUET_SUFFIXES: Final = (".parquet", ".pq")
TIMING_COLUMNS: Final = ("seconds",)
"""Columns that depend on the machine, not on the deal: ignored when runs are compared."""


class AnalysisError(DevilsGripError):
    """A results file that cannot be used, or a bad analysis request."""


@dataclass(frozen=True, slots=True)
class DealResult:
    """What one player achieved on one deal.

    ``proven`` is whether ``score`` is the deal's best possible score (the
    clairvoyant solver finished its search); None for the other players.
    ``nodes`` is the search effort the player reports (None when it reports
    none); ``seconds`` the wall time spent on the deal.
    """

    game: int
    rules: str
    player: str
    score: int
    proven: bool | None
    moves: int
    nodes: int | None
    seconds: float
    time_limit: float | None = None
    max_nodes: int | None = None
    seed: int = 0

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.rules, self.player, self.game)

    @property
    def won(self) -> bool:
        return self.score == 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def without_timing(self) -> tuple[Any, ...]:
        """The row with the machine-dependent columns left out (for comparing runs)."""
        return tuple(
            getattr(self, f.name) for f in fields(self) if f.name not in TIMING_COLUMNS
        )

    @classmethod
    def from_dict(cls, row: dict[str, Any]) -> DealResult:
        proven = row.get("proven")
        nodes = row.get("nodes")
        limit = row.get("time_limit")
        max_nodes = row.get("max_nodes")
        return cls(
            game=int(row["game"]),
            rules=str(row["rules"]),
            player=str(row["player"]),
            score=int(row["score"]),
            proven=None if proven is None else bool(proven),
            moves=int(row["moves"]),
            nodes=None if nodes is None else int(nodes),
            seconds=float(row["seconds"]),
            time_limit=None if limit is None else float(limit),
            max_nodes=None if max_nodes is None else int(max_nodes),
            seed=int(row.get("seed") or 0),
        )


COLUMNS: Final = tuple(f.name for f in fields(DealResult))


class ResultFile(Protocol):
    """Where results go: either backend offers these."""

    path: Path

    def done(self, rules: str, player: str, *, proven_only: bool = False) -> set[int]: ...

    def add(self, results: Iterable[DealResult]) -> None: ...

    def read(self) -> list[DealResult]: ...

    def close(self) -> None: ...


def is_parquet(path: Path) -> bool:
    return path.suffix.lower() in PARQUET_SUFFIXES


def open_results(
    path: str | os.PathLike[str], *, create: bool = True, write: bool = False
) -> ResultFile:
    """The results file at ``path`` (SQLite, or Parquet by extension).

    With ``create=False`` a missing file is an :class:`AnalysisError`.  With
    ``write`` a Parquet file is locked for this process (SQLite needs no lock:
    several runs may write one SQLite file at once); a second writer gets an
    :class:`AnalysisError` with code ``results-busy``.
    """
    p = Path(path)
    if not create and not p.exists():
        raise AnalysisError(
            codes.RESULTS_MISSING, f"no results file at {p}", path=str(p)
        )
    if is_parquet(p):
        return ParquetResults(p, lock=write)
    return SqliteResults(p)


def sort_results(results: Iterable[DealResult]) -> list[DealResult]:
    """Results in file order: by rules, player, game."""
    return sorted(results, key=lambda r: r.key)


# --------------------------------------------------------------------- SQLite
_CREATE: Final = """
CREATE TABLE IF NOT EXISTS results (
    rules TEXT NOT NULL,
    player TEXT NOT NULL,
    game INTEGER NOT NULL,
    score INTEGER NOT NULL,
    proven INTEGER,
    moves INTEGER NOT NULL,
    nodes INTEGER,
    seconds REAL NOT NULL,
    time_limit REAL,
    max_nodes INTEGER,
    seed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (rules, player, game)
) WITHOUT ROWID
"""


class SqliteResults:
    """Results in an SQLite file (standard library only); every batch is committed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        if path.parent and not path.parent.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(path, timeout=60)
            self._db.execute("PRAGMA journal_mode=WAL")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise AnalysisError(
                    codes.RESULTS_NEWER,
                    f"{path} was written by a newer version of devilsgrip",
                    path=str(path),
                )
            self._db.execute(_CREATE)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._db.commit()
        except sqlite3.DatabaseError as exc:
            raise AnalysisError(
                codes.RESULTS_UNREADABLE, f"cannot use {path} as a results file: {exc}",
                path=str(path), reason=str(exc),
            ) from exc

    def done(self, rules: str, player: str, *, proven_only: bool = False) -> set[int]:
        """The games in the file for these rules and player (only the proven ones, if asked)."""
        sql = "SELECT game FROM results WHERE rules = ? AND player = ?"
        if proven_only:
            sql += " AND (proven IS NULL OR proven = 1)"
        return {int(g) for (g,) in self._db.execute(sql, (rules, player))}

    def add(self, results: Iterable[DealResult]) -> None:
        rows = [
            (
                r.rules, r.player, r.game, r.score,
                None if r.proven is None else int(r.proven),
                r.moves, r.nodes, r.seconds, r.time_limit, r.max_nodes, r.seed,
            )
            for r in results
        ]
        with self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO results (rules, player, game, score, proven, moves, "
                "nodes, seconds, time_limit, max_nodes, seed) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )

    def read(self) -> list[DealResult]:
        cur = self._db.execute(
            f"SELECT {', '.join(COLUMNS)} FROM results ORDER BY rules, player, game"
        )
        return [DealResult.from_dict(dict(zip(COLUMNS, row, strict=True))) for row in cur]

    def close(self) -> None:
        self._db.close()


# -------------------------------------------------------------------- Parquet
class ParquetResults:
    """Results in a Parquet file, rewritten atomically (temporary file + rename) per batch.

    One writer at a time: it holds an advisory lock on ``<file>.lock``, which
    the system releases when the process ends, however it ends.
    """

    def __init__(self, path: Path, *, lock: bool = False) -> None:
        self.path = path
        self._rows: dict[tuple[str, str, int], DealResult] = {}
        self._lock: IO[bytes] | None = None
        if lock:
            self._take_lock()
        if path.exists():
            for r in self._load():
                self._rows[r.key] = r

    @staticmethod
    def _pa() -> Any:
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError as exc:  # pragma: no cover - depends on the installation
            raise AnalysisError(
                codes.PARQUET_UNAVAILABLE,
                "Parquet needs pyarrow: pip install 'devilsgrip[analysis]'",
            ) from exc
        return pa, pq

    def _take_lock(self) -> None:
        import fcntl

        if self.path.parent and not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path.with_name(self.path.name + ".lock"), "wb")  # noqa: SIM115
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            handle.close()
            raise AnalysisError(
                codes.RESULTS_BUSY,
                f"another run is writing {self.path}: wait for it, or write to a SQLite "
                "file, which several runs can share",
                path=str(self.path),
            ) from exc
        self._lock = handle

    def _load(self) -> Iterator[DealResult]:
        _pa, pq = self._pa()
        try:
            table = pq.read_table(self.path)
        except Exception as exc:
            raise AnalysisError(
                codes.RESULTS_UNREADABLE, f"cannot read {self.path} as Parquet: {exc}",
                path=str(self.path), reason=str(exc),
            ) from exc
        for row in table.to_pylist():
            yield DealResult.from_dict(row)

    def done(self, rules: str, player: str, *, proven_only: bool = False) -> set[int]:
        return {
            g for (r, p, g), row in self._rows.items()
            if r == rules and p == player and not (proven_only and row.proven is False)
        }

    def add(self, results: Iterable[DealResult]) -> None:
        for r in results:
            self._rows[r.key] = r
        self._write()

    def _write(self) -> None:
        pa, pq = self._pa()
        schema = pa.schema([
            ("game", pa.int64()),
            ("rules", pa.string()),
            ("player", pa.string()),
            ("score", pa.int32()),
            ("proven", pa.bool_()),
            ("moves", pa.int32()),
            ("nodes", pa.int64()),
            ("seconds", pa.float64()),
            ("time_limit", pa.float64()),
            ("max_nodes", pa.int64()),
            ("seed", pa.int64()),
        ])
        rows = [r.to_dict() for r in self.read()]
        table = pa.Table.from_pylist(rows, schema=schema)
        if self.path.parent and not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        pq.write_table(table, tmp, compression="zstd")
        os.replace(tmp, self.path)

    def read(self) -> list[DealResult]:
        return sort_results(self._rows.values())

    def close(self) -> None:
        if self._lock is not None:
            self._lock.close()  # releases the lock
            self._lock = None
