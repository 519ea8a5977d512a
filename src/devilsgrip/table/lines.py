"""A line of moves as a viewer steps through it: the best line of a deal, or a reviewed
game as it was played.  Each step is a position to draw on the grid and its words;
a costly move of a review also names the move played and the better one, with their
places, as the page's arrows do.

>>> from devilsgrip.game import Game
>>> from devilsgrip.notation import DEAL
>>> steps = best_line_steps(Game(5), [DEAL], 71, Words("en"))
>>> [s.caption for s in steps]  # doctest: +NORMALIZE_WHITESPACE
['Best line: the deal as it was dealt; 1 move to score 71.',
 'Best line: the 1 move played: score 71.']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from devilsgrip.cards import Card
from devilsgrip.game import Game, Move, Pile
from devilsgrip.table.places import Place
from devilsgrip.table.reviews import _move_phrase, costly_moves
from devilsgrip.table.words import Words, deal_label, sentence

if TYPE_CHECKING:
    from devilsgrip.review import Review

__all__ = ["LineStep", "best_line_steps", "review_steps"]


@dataclass(frozen=True)
class LineStep:
    """One position of a line: what the table shows, and its words.

    ``n`` moves of the line have been played; ``caption`` says where the line is.
    When the next move cost cards, ``played_text`` and ``better_text`` tell it and the
    better one ("Played: ...", "Better: ..."), ``seen`` whether a player could have
    seen it, and ``played`` and ``better`` are the moves' places (where each starts
    and ends)."""

    n: int
    grid: tuple[Pile, ...]
    stock: int
    talon: tuple[Card, ...]
    caption: str
    played_text: str = ""
    better_text: str = ""
    seen: str = ""
    played: tuple[Place, ...] = ()
    better: tuple[Place, ...] = ()

    @property
    def costly(self) -> bool:
        """The move after this position cost cards."""
        return bool(self.played)


def _walk(start: Game, moves: Sequence[Move], words: Words) -> list[tuple[Game, str]]:
    """The position before each move and after the last, with the move that led to it in
    words (empty for the start)."""
    walker = start.copy()
    out = [(walker.copy(), "")]
    for move in moves:
        told = _move_phrase(walker.preview(move), words)
        walker.push(move)
        out.append((walker.copy(), told))
    return out


def _step(n: int, game: Game, caption: str) -> LineStep:
    return LineStep(n, tuple(game.grid), len(game.stock), tuple(game.talon), caption)


def best_line_steps(start: Game, moves: Sequence[Move], score: int,
                    words: Words) -> list[LineStep]:
    """The steps of the solver's best line from ``start`` (a copy is walked)."""
    w = words
    total = len(moves)
    steps = []
    for n, (game, told) in enumerate(_walk(start, moves, w)):
        if n == 0:
            caption = w.ngettext(
                "Best line: the deal as it was dealt; {total} move to score {score}.",
                "Best line: the deal as it was dealt; {total} moves to score {score}.",
                total).format(total=total, score=score)
        elif n == total:
            caption = w.ngettext("Best line: the {total} move played: score {score}.",
                                 "Best line: all {total} moves played: score {score}.",
                                 total).format(total=total, score=score)
        else:
            caption = sentence(w.gettext("Best line: move {n} of {total}: {move}").format(
                n=n, total=total, move=told))
        steps.append(_step(n, game, caption))
    return steps


def review_steps(game: Game, review: Review, words: Words) -> list[LineStep]:
    """The steps of ``game`` as it was played, its costly moves told as its review
    tells them (the game has ended: its stock may be shown)."""
    w = words
    start = game.copy()
    start.restart()
    moves = game.move_stack
    total = len(moves)
    deal = deal_label(game, w)
    costly = {m.n: m for m in costly_moves(review, game, w)}
    steps = []
    for n, (position, told) in enumerate(_walk(start, moves, w)):
        m = costly.get(n + 1)
        if m is not None:
            caption = w.ngettext("{deal}, before move {n} of {total}: it cost {cost} card.",
                                 "{deal}, before move {n} of {total}: it cost {cost} cards.",
                                 m.cost).format(deal=deal, n=n + 1, total=total, cost=m.cost)
            steps.append(replace(
                _step(n, position, caption), played_text=m.played_text,
                better_text=m.better_text, seen=m.seen_words, played=m.played_arrow,
                better=m.better_arrow or ()))
        elif n == 0:
            steps.append(_step(n, position, w.gettext("{deal}, as it was dealt.").format(
                deal=deal)))
        else:
            steps.append(_step(n, position, sentence(
                w.gettext("{deal}, after move {n} of {total}: {move}").format(
                    deal=deal, n=n, total=total, move=told))))
    return steps

