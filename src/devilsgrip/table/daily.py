"""The daily deal, the winnable deals and the share text, as both screens show them.

What a day's deal is and how streaks count is :mod:`devilsgrip.daily`; which
single-pass deals can be won is :mod:`devilsgrip.catalog`. Here: the random
winnable deal a new game draws, the calendar of a player's daily results, and
the text a player shares once a game has ended (it names no card).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Final

from devilsgrip import codes
from devilsgrip.catalog import has_catalog, winnable_deals, winnable_line
from devilsgrip.daily import Streaks, daily_deal, streaks
from devilsgrip.errors import IllegalMoveError
from devilsgrip.game import Rating
from devilsgrip.i18n import N_
from devilsgrip.rules import Rules
from devilsgrip.session import PlaySession
from devilsgrip.store import GameInfo, Store
from devilsgrip.table.words import Words, clock_text, rating_label, rules_label, status_label

CALENDAR_DAYS: Final = 35
"""How many days (five weeks, ending today) a calendar shows."""


def winnable_number(rules: Rules | str, rng: random.Random | None = None) -> int:
    """A random deal of the catalog of winnable deals; refused (``winnable-rules``) for
    rules with no catalog."""
    if not has_catalog(rules):
        raise IllegalMoveError(codes.WINNABLE_RULES, "winnable deals are catalogued for "
                               "single-pass only")
    return (rng or random.SystemRandom()).choice(winnable_deals()).game


def check_daily_day(day: date) -> None:
    """Refuse (``daily-future``) a day whose daily deal cannot be played yet: later than
    tomorrow in UTC (the first time zones are a day ahead of UTC)."""
    if day > datetime.now(UTC).date() + timedelta(days=1):
        raise IllegalMoveError(codes.DAILY_FUTURE, f"the daily deal of {day.isoformat()} cannot "
                               f"be played yet", date=day.isoformat())


def best_possible(session: PlaySession, solved: int | None = None) -> int | None:
    """The best final score of the deal when known: 0 for a catalogued winnable deal, else
    ``solved`` (a proven score the solver found), else None."""
    game = session.game
    if game.number is not None and winnable_line(game.number, game.rules) is not None:
        return 0
    return solved


def share_text(session: PlaySession, words: Words, best: int | None = None) -> str:
    """The text a player shares once the game has ended: preset, deal number or daily
    date, score, rating, moves, time and the deal's best possible score when known.
    It names no card (nothing of the stock is given away). Refused (``game-live``) while
    the game is still being played."""
    game = session.game
    if not (session.final or game.is_over()):
        raise IllegalMoveError(codes.GAME_LIVE, "this game is still being played")
    w = words
    rules = rules_label(game.rules, w)
    if session.daily is not None:
        head = w.gettext(N_("Devil's Grip, {rules}: daily deal of {date}")).format(
            rules=rules, date=session.daily)
    elif game.number is not None:
        head = w.gettext(N_("Devil's Grip, {rules}: game {number}")).format(
            rules=rules, number=game.number)
    else:
        head = w.gettext(N_("Devil's Grip, {rules}: a dealt deck")).format(rules=rules)
    status = session.result or game.status
    if game.is_won():
        result = w.gettext(N_("Won: no card left!"))
    else:
        label = rating_label(game.rating.value, w)
        result = w.gettext(N_("Score {score} ({rating}), {status}")).format(
            score=game.score, rating=label, status=status_label(status, w))
    moves = game.moves_played
    played = w.ngettext("{n} move in {time}", "{n} moves in {time}", moves).format(
        n=moves, time=clock_text(session.elapsed()))
    lines = [head, result, played]
    if best is not None:
        lines.append(w.gettext(N_("Best possible score of this deal: {score}")).format(
            score=best))
    return "\n".join(lines)


@dataclass(frozen=True)
class DailyDay:
    """One day of a calendar: its deal and the player's result (None: none yet)."""

    day: date
    game: int
    result: GameInfo | None

    def to_dict(self, words: Words) -> dict[str, Any]:
        out: dict[str, Any] = {"date": self.day.isoformat(), "game": self.game, "result": None}
        if self.result is not None:
            r = self.result
            out["result"] = {"id": r.id, "score": r.score, "status": r.status,
                             "status_label": status_label(r.status, words),
                             "rating": Rating.of(r.score).value,
                             "won": r.status == "won", "moves": r.moves}
        return out


@dataclass(frozen=True)
class DailyCalendar:
    """A player's daily deals: today's, the last days with their results, the streaks."""

    rules: str
    today: DailyDay
    days: tuple[DailyDay, ...]
    """The :data:`CALENDAR_DAYS` days ending today, oldest first."""
    streaks: Streaks
    played: int
    """Days with a result, in all."""
    winnable: bool
    """Every daily deal with these rules is one that can be won (drawn from the catalog)."""

    def to_dict(self, words: Words) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "rules_label": rules_label(self.rules, words),
            "winnable": self.winnable,
            "date": self.today.day.isoformat(),
            "game": self.today.game,
            "result": self.today.to_dict(words)["result"],
            "days": [d.to_dict(words) for d in self.days],
            "streak": {"current": self.streaks.current, "best": self.streaks.best},
            "played": self.played,
        }


def daily_results(store: Store | None, owner: str, rules: str) -> dict[str, GameInfo]:
    """The player's daily results by day (none without a store)."""
    return {} if store is None else store.daily_results(owner, rules)


def daily_calendar(store: Store | None, owner: str, rules: Rules | str, today: date,
                   days: int = CALENDAR_DAYS) -> DailyCalendar:
    """The calendar of ``owner``'s daily deals with ``rules`` up to ``today``."""
    canonical = str(Rules.parse(str(rules)))
    results = daily_results(store, owner, canonical)
    shown = tuple(
        DailyDay(d, daily_deal(d, canonical), results.get(d.isoformat()))
        for d in (today - timedelta(days=i) for i in range(days - 1, -1, -1)))
    played = {date.fromisoformat(k) for k in results}
    return DailyCalendar(canonical, shown[-1], shown, streaks(played, today), len(played),
                         has_catalog(canonical))
