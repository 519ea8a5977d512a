"""The daily deal: one deal a day for each preset, the same for every player.

The deal of a day is a function of the day and the rules alone, so it needs
no network and no database, and stays the same from one version to the next:

* ``single-pass`` (where most deals cannot be won): a deal of the catalog of
  winnable deals (:mod:`devilsgrip.catalog`), from its fixed :data:`DAILY_POOL`.  The
  days are taken in cycles as long as the pool; within cycle ``c`` the pool's deals are
  ordered by the SHA-256 of
  ``"devilsgrip daily {rules} {c} {deal}"``, so every day of a cycle has its own deal
  (when a cycle would start with the deal that ended the one before, its first two
  deals change places).
* any other rules: ``1 + (n mod 10**9)``, where ``n`` is the first 8 bytes (big
  endian) of the SHA-256 of ``"devilsgrip daily {rules} {YYYY-MM-DD}"``.

``rules`` is the canonical text of the rules (``classic``, ``single-pass``,
``classic,draw=1``). Days count from :data:`EPOCH`.

>>> daily_deal(date(2026, 12, 5), "classic")
39823666
>>> daily_deal(date(2026, 12, 5), "single-pass") in {e.game for e in winnable_deals()}
True

The first game of a day's deal, played as the daily, to end is the player's
result for the day; later games of it are practice. A *streak* is a run of
days in a row with a result; the current streak ends today, or yesterday while
today's daily is not yet played.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import date, timedelta
from typing import Final, NamedTuple

from devilsgrip import codes
from devilsgrip.catalog import has_catalog, winnable_deals
from devilsgrip.errors import DevilsGripError
from devilsgrip.rules import Rules

EPOCH: Final = date(2026, 1, 1)
"""Day 0 of the daily deals."""
DAILY_POOL: Final[tuple[int, ...]] = (
    17, 87, 96, 110, 134, 144, 251, 274, 627, 751, 1002, 1125, 1129, 1149, 1221, 1280, 1326,
    1336, 1481, 1893, 1921, 1935, 1981, 2363, 2394, 2411, 2578, 2601, 2653, 2743, 2789, 2995,
    3217, 3313, 3337, 3587, 3739, 3846, 4351, 4503, 4539, 4560, 4564, 4581, 4752, 4769, 4984,
    5221, 5251, 5256, 5447, 5488, 5490, 5729, 5791, 5792, 5915, 6010, 6211, 6340, 6407, 6419,
    6447, 6453, 6640, 6749, 6900, 6910, 7053, 7097, 7219, 7254,
)
"""The deals the single-pass daily draws from: the catalog as first shipped (deals 1..7310
scanned). Fixed, so that a catalog grown later changes no day's deal; every one of them is
in the catalog (the tests check)."""
DAILY_RANGE: Final = 10**9
"""The other presets' daily deals are numbered 1 .. this."""
FIRST_DAY: Final = date(2000, 1, 1)
LAST_DAY: Final = date(2999, 12, 31)


class DailyError(DevilsGripError):
    """A day that names no date the daily deal has."""


def parse_day(text: str) -> date:
    """The day written ``YYYY-MM-DD``; raises :class:`DailyError` (``daily-date-bad``)."""
    written = text.strip()
    try:
        if len(written) != 10:
            raise ValueError(written)
        day = date.fromisoformat(written)
    except ValueError:
        raise DailyError(codes.DAILY_DATE_BAD, f"bad date '{written[:20]}': write it YYYY-MM-DD, "
                         f"e.g. 2026-12-05", date=written[:20]) from None
    if not FIRST_DAY <= day <= LAST_DAY:
        raise DailyError(codes.DAILY_DATE_RANGE, f"there is no daily deal on {day.isoformat()}: "
                         f"the days run from {FIRST_DAY.isoformat()} to {LAST_DAY.isoformat()}",
                         date=day.isoformat())
    return day


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


def daily_pool() -> tuple[int, ...]:
    """The deals the single-pass daily draws from (see the module's docs)."""
    return DAILY_POOL


def _cycle_order(rules: str, cycle: int) -> list[int]:
    pool = daily_pool()
    order = sorted(pool, key=lambda g: _digest(f"devilsgrip daily {rules} {cycle} {g}"))
    if len(order) > 1:
        before = sorted(pool, key=lambda g: _digest(f"devilsgrip daily {rules} {cycle - 1} {g}"))
        if order[0] == before[-1]:  # no deal two days running across the cycles' seam
            order[0], order[1] = order[1], order[0]
    return order


def daily_deal(day: date, rules: str | Rules = "classic") -> int:
    """The deal number of ``day``'s daily deal with ``rules`` (see the module's docs)."""
    canonical = str(Rules.parse(str(rules)))
    if has_catalog(canonical):
        cycle, index = divmod((day - EPOCH).days, len(daily_pool()))
        return _cycle_order(canonical, cycle)[index]
    n = int.from_bytes(_digest(f"devilsgrip daily {canonical} {day.isoformat()}")[:8], "big")
    return 1 + n % DAILY_RANGE


class Streaks(NamedTuple):
    """Days in a row with a daily result: the run ending today (or yesterday), the longest."""

    current: int
    best: int


def streaks(days: Iterable[date], today: date) -> Streaks:
    """The current and the best streak of the days with a result (days after ``today``
    do not count)."""
    have = {d for d in days if d <= today}
    best = run = 0
    previous: date | None = None
    for day in sorted(have):
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    current = 0
    day = today if today in have else today - timedelta(days=1)
    while day in have:
        current += 1
        day -= timedelta(days=1)
    return Streaks(current, best)


__all__ = ["DAILY_POOL", "EPOCH", "DailyError", "Streaks", "daily_deal", "daily_pool",
           "parse_day", "streaks", "winnable_deals"]
