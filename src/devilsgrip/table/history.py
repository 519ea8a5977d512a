"""The game history: the finished games of a player, labelled in the player's words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from devilsgrip.game import Rating

if TYPE_CHECKING:
    from devilsgrip.store import GameInfo, Store
from devilsgrip.table.words import Words, deal_label, rating_label, rules_label, status_label


@dataclass(frozen=True)
class HistoryEntry:
    """A finished game as the game history lists it, its labels in the player's words."""

    game_id: int
    number: int | None
    deal: str
    rules: str
    status: str
    status_label: str
    score: int
    rating: str
    rating_label: str
    moves: int
    seconds: float | None
    """The clock; None when it was not kept (a game imported from a record without it)."""
    started: str
    ended: str | None
    reviewed: bool


def history_entry(info: GameInfo, words: Words, reviewed: bool = False) -> HistoryEntry:
    rating = Rating.of(info.score).value
    return HistoryEntry(
        game_id=info.id, number=info.number, deal=deal_label(info, words),
        rules=rules_label(info.rules, words), status=info.status,
        status_label=status_label(info.status, words), score=info.score, rating=rating,
        rating_label=rating_label(rating, words), moves=info.moves,
        seconds=info.play_seconds if info.play_seconds > 0 else None, started=info.started,
        ended=info.ended, reviewed=reviewed)


def history(store: Store, owner: str, words: Words, *,
            limit: int = 100) -> tuple[list[HistoryEntry], int]:
    """The finished games of ``owner``, the latest to end first (at most ``limit``), and
    how many finished games there are in all."""
    finished = store.games(owner=owner, finished=True)
    finished.sort(key=lambda g: (g.ended or g.updated, g.id), reverse=True)
    reviewed = store.reviewed(owner)
    shown = [history_entry(g, words, g.id in reviewed) for g in finished[:limit]]
    return shown, len(finished)


ALL_RULES: Final = "all"
"""The choice of the statistics of every rules together."""


def stats_choices(played: list[str], current: str, words: Words,
                  shown: str | None = None) -> list[tuple[str, str]]:
    """The rules whose statistics a player may choose, each with its label: the rules of the
    game in play first, then ``shown`` (the rules on screen) when never played, then the
    others played (most played first), then all rules together (when there is more than
    one).  Every game counts in the statistics of its rules."""
    texts = [current]
    for rules in (shown, *played):
        if rules is not None and rules != ALL_RULES and rules not in texts:
            texts.append(rules)
    choices = [(r, rules_label(r, words)) for r in texts]
    if len(texts) > 1:
        choices.append((ALL_RULES, words.gettext("All rules")))
    return choices
