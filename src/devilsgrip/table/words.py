"""The words of the table: every sentence a player sees, and the labels of statuses,
ratings, presets and rules.

Cards and places are named in words, in the player's language, capitalised and
with a full stop ("10♣ from b2 onto 7♣ in h3. 2♥ from the stock fills b2.")."""

from __future__ import annotations

import gettext
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from devilsgrip import i18n
from devilsgrip.cards import CELL_NAMES, Card
from devilsgrip.game import REDEAL, Game, MoveEffect, MoveKind, Source, Status, View, grid_build
from devilsgrip.i18n import N_
from devilsgrip.rules import PRESETS, Rules
from devilsgrip.session import PlaySession

if TYPE_CHECKING:
    from devilsgrip.solver import Hint
    from devilsgrip.store import GameInfo
from devilsgrip.table.places import TALON, Place, targets


class Words:
    """The words of one language (``None``: the process language) for the sentences here."""

    __slots__ = ("cat", "lang")

    def __init__(self, lang: str | None = None) -> None:
        self.lang = i18n.normalize_language(lang) or i18n.current_language()
        self.cat: gettext.NullTranslations = i18n.translations(self.lang)

    def gettext(self, message: str) -> str:
        return self.cat.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.cat.ngettext(singular, plural, n)

    def card(self, card: Card) -> str:
        """A card as the table shows it: rank and suit symbol (``10♣``; ``D♥`` for the
        queen in French)."""
        return i18n.card_symbol(card, self.lang)

    def cards(self, cards: Sequence[Card]) -> str:
        """Cards in a row: ``6♦, 9♦ and Q♦``."""
        return self.listing([self.card(c) for c in cards])

    def listing(self, items: Sequence[str], *, alternative: bool = False) -> str:
        """``a, b and c`` (or ``a, b or c``), in this language."""
        if not items:
            return ""
        if len(items) == 1:
            return items[0]
        head = ", ".join(items[:-1])
        if alternative:
            return self.gettext("{first} or {last}").format(first=head, last=items[-1])
        return self.gettext("{first} and {last}").format(first=head, last=items[-1])

    def decimal(self, value: float, places: int = 1) -> str:
        """A number with ``places`` decimals as this language writes it (``0,5`` in French)."""
        from babel.numbers import format_decimal

        pattern = "#,##0" + ("." + "0" * places if places > 0 else "")
        return str(format_decimal(value, format=pattern, locale=self.lang))

    def percent(self, ratio: float) -> str:
        """A ratio as a whole percentage in this language (``50 %`` in French)."""
        from babel.numbers import format_percent

        return str(format_percent(ratio, locale=self.lang))

    def labelled(self, label: str, value: object) -> str:
        """``label: value`` with this language's punctuation (``gagné : 1`` in French)."""
        return self.gettext("{label}: {value}").format(label=label, value=value)


def clock_text(seconds: float) -> str:
    """Play time as ``m:ss`` (``h:mm:ss`` from an hour)."""
    total = max(0, int(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter and a full stop (or ! or ?)."""
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    if text[-1] not in ".!?…":
        text += "."
    return text


def say_error(exc: BaseException, words: Words) -> str:
    """A refusal or error in the player's language, as a sentence."""
    return sentence(i18n.translate_error(exc, words.lang))


@dataclass(frozen=True)
class Event:
    """Something that happened at the table, to be told in words.

    ``kind``: ``move``, ``undo``, ``redo`` (with the move's ``effect``),
    ``new``, ``resume``, ``again``, ``giveup``, ``changed`` (another window
    changed the game; it is shown as stored).  ``left`` tells what became of
    the game that was left for this one (see :meth:`PlaySession.leave`).
    """

    kind: str
    effect: MoveEffect | None = None
    left: str | None = None


def _move_words(effect: MoveEffect, words: Words, *, with_fill: bool = True) -> str:
    """The sentence of what a move did (the fill only when ``with_fill``)."""
    move = effect.move
    k = move.kind
    w = words
    if k == MoveKind.DEAL:
        n = len(effect.cards)
        return w.ngettext("Dealt {n} card: {cards}.", "Dealt {n} cards: {cards}.", n).format(
            n=n, cards=", ".join(w.card(c) for c in effect.cards))
    if k == MoveKind.REDEAL:
        return w.gettext("The talon is turned over: it is the stock again.")
    if k == MoveKind.SWAP:
        assert effect.piles is not None
        first, second = effect.piles
        a, b = CELL_NAMES[move.src], CELL_NAMES[move.dst]
        if first and second:
            return w.gettext("Swap: {card_a} is now in {cell_a}, {card_b} in {cell_b}.").format(
                card_a=w.card(first[-1]), cell_a=a, card_b=w.card(second[-1]), cell_b=b)
        pile, cell, empty = (first, a, b) if first else (second, b, a)
        return w.gettext("Swap: {card} is now in {cell}, and {empty} is empty.").format(
            card=w.card(pile[-1]), cell=cell, empty=empty)
    cell = CELL_NAMES[move.dst]
    assert effect.onto is not None
    onto = w.card(effect.onto)
    if k == MoveKind.TALON:
        return w.gettext("{card} from the talon onto {target} in {cell}.").format(
            card=w.card(effect.cards[0]), target=onto, cell=cell)
    source = CELL_NAMES[move.src]
    text = w.gettext("{cards} from {source} onto {target} in {cell}.").format(
        cards=w.cards(effect.cards), source=source, target=onto, cell=cell)
    if with_fill and effect.emptied:
        if effect.fill is None:
            text += " " + w.gettext("{cell} stays empty.").format(cell=source)
        elif effect.fill_from == Source.TALON:
            text += " " + w.gettext("{card} from the talon fills {cell}.").format(
                card=w.card(effect.fill), cell=source)
        else:
            text += " " + w.gettext("{card} from the stock fills {cell}.").format(
                card=w.card(effect.fill), cell=source)
    return text


def _undo_words(effect: MoveEffect, words: Words) -> str:
    move = effect.move
    k = move.kind
    w = words
    if k == MoveKind.DEAL:
        n = len(effect.cards)
        return w.ngettext("Taken back: {cards} goes back to the stock.",
                          "Taken back: {cards} go back to the stock.", n).format(
            cards=w.cards(effect.cards))
    if k == MoveKind.REDEAL:
        return w.gettext("Taken back: the stock is the talon again.")
    if k == MoveKind.SWAP:
        return w.gettext("Taken back: the piles of {a} and {b} change places again.").format(
            a=CELL_NAMES[move.src], b=CELL_NAMES[move.dst])
    if k == MoveKind.TALON:
        return w.gettext("Taken back: {card} goes back to the talon.").format(
            card=w.card(effect.cards[0]))
    n = len(effect.cards)
    text = w.ngettext("Taken back: {cards} goes back to {cell}.",
                      "Taken back: {cards} go back to {cell}.", n).format(
        cards=w.cards(effect.cards), cell=CELL_NAMES[move.src])
    if effect.fill is not None:
        if effect.fill_from == Source.TALON:
            text += " " + w.gettext("{card} goes back to the talon.").format(
                card=w.card(effect.fill))
        else:
            text += " " + w.gettext("{card} goes back to the stock.").format(
                card=w.card(effect.fill))
    return text


def say_event(event: Event, game: Game, words: Words) -> str:
    """The sentences that tell ``event`` (``game`` is the game as it is now)."""
    w = words
    kind = event.kind
    if kind in ("move", "undo", "redo"):
        if event.effect is None:
            return ""
        if kind == "undo":
            return _undo_words(event.effect, w)
        text = _move_words(event.effect, w)
        if kind == "redo":  # the move's sentence goes on after the colon
            return w.gettext("Played again:") + " " + text[:1].lower() + text[1:]
        return text
    if kind == "new":
        text = say_deal(game, w) + " " + w.gettext("A new deal.")
    elif kind == "again":
        text = say_deal(game, w) + " " + w.gettext("The same deal again, from the start.")
    elif kind == "resume":
        text = w.gettext("Your game goes on where you left it.")
    elif kind == "giveup":
        text = w.gettext("You gave up. Score {score}.").format(score=game.score)
    elif kind == "putback":
        return w.gettext("Put back.")
    elif kind == "changed":
        text = w.gettext("This game was changed in another window: here it is as it stands "
                         "now.")
    else:
        return ""
    left = say_left(event.left, w)
    return f"{left} {text}" if left else text


def say_left(outcome: str | None, words: Words) -> str:
    """What became of the game the player left (empty when nothing worth saying)."""
    if outcome == "given up":
        return words.gettext("The game you left counts as given up.")
    if outcome == "over":
        return words.gettext("The game you left counts as over.")
    return ""


def say_deal(game: Game, words: Words) -> str:
    """``Game 5.`` or ``A dealt deck.``"""
    return sentence(deal_label(game, words))


def say_end(session: PlaySession, words: Words, view: View | None = None) -> str:
    """How the game stands when it has ended or is over (empty while it is in play);
    ``view``: the session's view, when the caller has it."""
    game = session.game
    w = words
    shown = session.view() if view is None else view
    if shown.won:
        return w.gettext("You won! Every card is in the grid.")
    if shown.given_up:
        return w.gettext("Given up: score {score}, {rating}.").format(
            score=game.score, rating=rating_label(game.rating.value, w))
    if shown.over:
        text = w.gettext("The game is over: score {score}, {rating}.").format(
            score=game.score, rating=rating_label(game.rating.value, w))
        if not session.final:
            text += " " + w.gettext("No card can come in any more; you may still take moves "
                                    "back.")
        return text
    return ""


def say_why_ended(session: PlaySession, words: Words) -> str:
    """Why the game has ended or is over, as a sentence (empty while it is in play).

    Told from what every player can see: whether the stock is used up and a
    redeal is left; the engine alone decides that no card can come in.
    """
    game = session.game
    w = words
    if game.is_won():
        return w.gettext("Every card is in the grid.")
    if game.given_up:
        return w.gettext("You gave up: the game is scored as it stood.")
    if not game.is_over():
        return ""
    if not game.stock and game.reason(REDEAL) is not None:
        return w.gettext("The stock is used up, no redeal is left, and no card of the talon "
                         "can come into the grid.")
    return w.gettext("However the stock is dealt, no card left outside the grid can ever "
                     "come into it.")


def say_picked(game: Game, place: Place, words: Words,
               cells_to: Sequence[Place] | None = None) -> str:
    """What picking up at ``place`` means: the card, and where it can go (``cells_to``: the
    cells it can be built on, when the caller has them)."""
    w = words
    if place == TALON:
        card = w.card(game.talon[-1])
        head = w.gettext("Picked up {card} from the talon").format(card=card)
    else:
        card = w.card(game.grid[place][-1])
        head = w.gettext("Picked up {card} from {cell}").format(card=card,
                                                               cell=CELL_NAMES[place])
    to = targets(game, place) if cells_to is None else cells_to
    if to:
        where = _where_it_goes(game, place, to, w)
    elif place == TALON:
        where = w.gettext("it cannot be built anywhere now")
    else:
        where = w.gettext("it cannot be built anywhere now; drop it on an empty cell to "
                          "move the pile there")
    return sentence(f"{head}: {where}")


def say_hint(hint: Hint | None, game: Game, words: Words) -> str:
    """The hint as a sentence: the move in words, then why (never the hidden stock)."""
    w = words
    if hint is None:
        return w.gettext("No hint: no move helps here.")
    reason = hint.text(w.lang)
    move = hint.move
    if move.kind in (MoveKind.BUILD, MoveKind.SWAP):
        effect = game.preview(move)
        told = _move_words(effect, w, with_fill=False).rstrip(".")
        return sentence(w.gettext("Hint: {move}: {reason}").format(move=told, reason=reason))
    return sentence(w.gettext("Hint: {reason}").format(reason=reason))


def _where_it_goes(game: Game, place: Place, to: Sequence[Place], words: Words) -> str:
    """Where a card picked up at ``place`` can be built (``to``, not empty): the top card
    itself, and in ``run`` mode a lower card of the pile with the cards above it, each with
    the cells it goes on, as the engine says which cards each build moves."""
    w = words
    runs: dict[int, list[str]] = {}  # by the number of cards moved: the cells
    for cell in to:
        # a legal move (the places' own targets): told by the engine, not checked again
        moved = 1 if place == TALON else len(
            game.preview(grid_build(place, cell), checked=False).cards)
        runs.setdefault(moved, []).append(CELL_NAMES[cell])
    parts = []
    for moved in sorted(runs):
        cells = w.listing(runs[moved], alternative=True)
        if moved == 1:
            parts.append(w.gettext("it can go on {cells}").format(cells=cells))
            continue
        pile = game.grid[place]
        parts.append(w.ngettext("{card} with the card above it can go on {cells}",
                                "{card} with the {n} cards above it can go on {cells}",
                                moved - 1).format(card=w.card(pile[len(pile) - moved]),
                                                  n=moved - 1, cells=cells))
    return "; ".join(parts)


STATUS_LABELS: Final = {
    "in progress": N_("in progress"),
    "over": N_("game over"),
    "won": N_("won"),
    "given up": N_("given up"),
}


PRESET_LABELS: Final = {
    "classic": N_("Classic"),
    "single-pass": N_("Single pass"),
    "literal": N_("Literal"),
}
assert set(PRESET_LABELS) == set(PRESETS)


def status_label(status: Status | str, words: Words) -> str:
    key = status.value if isinstance(status, Status) else str(status)
    return words.gettext(STATUS_LABELS.get(key, key))


def rating_label(rating: object, words: Words) -> str:
    return i18n.rating_label(rating, words.lang)


def preset_label(name: str, words: Words) -> str:
    message = PRESET_LABELS.get(name)
    return words.gettext(message) if message else name


def rules_label(rules: Rules | str, words: Words) -> str:
    """``Classic``, ``Single pass``, or ``Classic (draw=1)`` for rules beyond a preset."""
    text = (rules if isinstance(rules, Rules) else Rules.parse(rules)).text
    head, _sep, rest = text.partition(",")
    label = preset_label(head, words)
    return f"{label} ({rest.replace(',', ', ')})" if rest else label


def deal_label(game: Game | GameInfo, words: Words) -> str:
    if game.number is not None:
        return words.gettext("Game {number}").format(number=game.number)
    return words.gettext("A dealt deck")


def redeals_label(game: Game, words: Words) -> str:
    left = game.redeals_left
    if left is None:
        return words.gettext("redeals: unlimited")
    return words.ngettext("{n} redeal left", "{n} redeals left", left).format(n=left)


def saving_warning(session: PlaySession, words: Words) -> str | None:
    """Why this game is not being saved, as a sentence (None when it is)."""
    text = session.warning_text(words.lang)
    return sentence(text) if text else None


def hint_refusal(session: PlaySession, words: Words) -> str | None:
    """Why no hint is given for this game (None: a hint may be looked for)."""
    if session.final or session.game.is_over():
        return words.gettext("The game is over: no hint.")
    return None
