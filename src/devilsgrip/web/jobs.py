"""A review in the making for a browser: its progress, and its answers once made."""

from __future__ import annotations

import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from devilsgrip import table
from devilsgrip.game import Game

if TYPE_CHECKING:
    from devilsgrip.table.controller import Review


@dataclass
class ReviewJob:
    """One review in the making (or made) for a browser: its progress and its answers."""

    game_id: int | None
    """The stored game's id; None for a game that is not saved (no store)."""
    game: Game
    """The game reviewed (final: it no longer changes)."""
    limit: float
    longer: bool = False
    """Made anew with more time (a browser runs one such review at a time)."""
    began: float = field(default_factory=time.monotonic)
    done: int = 0
    total: int = 0
    known: list[tuple[int, bool] | None] = field(default_factory=list)
    """The values found so far (the first results, shown while the review runs)."""
    task: Future[Review] | None = None
    docs: dict[str, dict[str, Any]] = field(default_factory=dict)
    """The finished answer in each language asked for."""

    def progress(self, done: int, total: int) -> None:
        """Called from the worker thread as the review goes on."""
        self.done, self.total = done, total

    def sketch(self, known: list[tuple[int, bool] | None]) -> None:
        """Called from the worker thread with the values found so far."""
        self.known = known

    def running(self) -> dict[str, Any]:
        elapsed = time.monotonic() - self.began
        return {
            "status": "running", "id": self.game_id, "done": self.done, "total": self.total,
            "elapsed": round(elapsed, 1), "limit": self.limit,
            "share": round(table.review_share(self.done, self.total, elapsed, self.limit), 3),
            "known": [None if k is None else {"best": k[0], "proven": k[1]}
                      for k in self.known],
        }
