"""What both screens share: places, the drop policy, the words, the labels.

The browser game and the terminal game draw and take input; every decision
in between is made here once, on top of the engine and the
:class:`~devilsgrip.session.PlaySession`:

- **places**: the 24 cells, the stock and the talon, as ints;
- **the drop policy** (:func:`drop_move`): a legal build is played; a swap
  happens only when a pile is dropped on an empty cell or by a deliberate
  swap (:func:`swap_move`); anything else is refused with the engine's reason;
- **the narration**: every sentence a player sees names cards and places in
  words, in the player's language, capitalised and with a full stop
  ("10♣ from b2 onto 7♣ in h3. 2♥ from the stock fills b2.");
- **labels** of statuses, ratings, presets and rules, and the settings' text.

>>> from devilsgrip.game import Game
>>> game = Game(5)
>>> words = Words("en")
>>> say_error(refusal(game, 0, 1), words)
'The 3 of diamonds is a base: bases reach the grid only by filling a space.'
>>> say_event(act(game, DEAL), game, words)
'Dealt 3 cards: 8♥, K♦, Q♦.'
"""

from __future__ import annotations

import contextlib
import gettext
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from devilsgrip import i18n
from devilsgrip.cards import CELL_NAMES, GRID_SIZE, Card, card_symbol, short_text
from devilsgrip.errors import DeckError, DevilsGripError, IllegalMoveError, MoveError
from devilsgrip.game import Game, MoveEffect, Rating, Source, Status
from devilsgrip.i18n import N_
from devilsgrip.notation import (
    DEAL,
    REDEAL,
    Move,
    MoveKind,
    grid_build,
    parse_game_number,
    swap,
    talon_build,
)
from devilsgrip.rules import PRESETS, Rules
from devilsgrip.session import PlaySession

if TYPE_CHECKING:
    from devilsgrip.review import Review
    from devilsgrip.solver import Hint
    from devilsgrip.store import GameInfo, Store

__all__ = [
    "DEAL", "REDEAL", "STOCK", "TALON", "Event", "Place", "Summary", "Words", "act",
    "drop_move", "move_places", "parse_deal_number", "parse_place", "place_name", "refusal",
    "say_error", "say_event", "say_hint", "say_picked", "say_why_ended", "sentence", "summary",
    "swap_move", "targets",
]

# ------------------------------------------------------------------- places
Place = int
"""A place of the table: ``0 .. 23`` the grid cells, :data:`STOCK`, :data:`TALON`."""

STOCK: Final = GRID_SIZE
TALON: Final = GRID_SIZE + 1
PLACES: Final = tuple(range(GRID_SIZE + 2))


def place_name(place: Place) -> str:
    """``a1`` .. ``h3`` for cells; ``stock`` and ``talon`` otherwise (ids, not words)."""
    if place < GRID_SIZE:
        return CELL_NAMES[place]
    return "stock" if place == STOCK else "talon"


_PLACE_INDEX: Final = {place_name(p): p for p in PLACES}


def parse_place(text: str) -> Place:
    """The place named ``a1`` .. ``h3``, ``stock`` or ``talon``; raises :class:`MoveError`."""
    place = _PLACE_INDEX.get(str(text).strip().lower())
    if place is None:
        raise MoveError("place-unknown", f"unknown place '{str(text)[:20]}' (a1 .. h3, stock, "
                        "talon)", place=str(text)[:20])
    return place


def parse_deal_number(text: str) -> int:
    """The game number a player typed (``" 42 "``), checked as the engine checks it.

    Raises :class:`~devilsgrip.errors.DeckError` with the engine's reason
    (``game-number-bad``, ``game-number-range``) so a screen can say why.
    """
    typed = str(text).strip()
    if not typed.isdigit():
        raise DeckError("game-number-bad", f"bad game number {typed[:20]!r}", number=typed[:20])
    number = int(typed)
    Game(number)  # the engine's own check of the range
    return number


def move_places(move: Move) -> tuple[Place, ...]:
    """The places a move touches, from where it starts to where it ends (for a hint)."""
    if move.kind in (MoveKind.DEAL, MoveKind.REDEAL):
        return (STOCK,)
    if move.kind == MoveKind.TALON:
        return (TALON, move.dst)
    return (move.src, move.dst)


def move_arrow(move: Move) -> tuple[Place, Place]:
    """Where an arrow showing ``move`` starts and ends: a deal from the stock to the talon,
    a redeal back, a build from its card to its pile, a swap from one pile to the other."""
    if move.kind == MoveKind.DEAL:
        return (STOCK, TALON)
    if move.kind == MoveKind.REDEAL:
        return (TALON, STOCK)
    if move.kind == MoveKind.TALON:
        return (TALON, move.dst)
    return (move.src, move.dst)


# ------------------------------------------------------------- drop policy
def _refuse(code: str, message: str, **params: Any) -> IllegalMoveError:
    return IllegalMoveError(code, message, **params)


def pick_up_refusal(game: Game, place: Place) -> IllegalMoveError | None:
    """Why nothing can be picked up at ``place`` (None: it can)."""
    if game.given_up or place == STOCK:
        return None if not game.given_up else _refuse("game-given-up", "this game was given up")
    if place == TALON:
        return None if game.talon else _refuse("talon-empty", "the talon is empty")
    if not game.grid[place]:
        return _refuse("pick-empty", f"{CELL_NAMES[place]} is empty: there is nothing to pick up",
                       cell=CELL_NAMES[place])
    return None


def drop_move(game: Game, source: Place, target: Place) -> Move | None:
    """The move that dropping what was picked up at ``source`` on ``target`` plays.

    None when the drop puts the cards back (on their own place).  A legal
    build is played; a pile dropped on an empty cell swaps with it; anything
    else raises the engine's :class:`IllegalMoveError` saying why, and
    nothing changes.  Swapping two piles is :func:`swap_move`, a deliberate
    action of its own.
    """
    if source == target:
        return None
    problem = pick_up_refusal(game, source)
    if problem is not None:
        raise problem
    if target >= GRID_SIZE:
        raise _refuse("drop-off-grid", "cards are dropped on the grid, not on the stock or "
                      "the talon")
    if source == STOCK:
        raise _refuse("drop-from-stock", "the stock is dealt, not dropped")
    if source == TALON:
        move = talon_build(target)
    elif not game.grid[target]:
        move = swap(source, target)
    else:
        move = grid_build(source, target)
    reason = game.reason(move)
    if reason is not None:
        raise reason
    return move


def swap_move(game: Game, a: Place, b: Place) -> Move:
    """The deliberate swap of the piles of cells ``a`` and ``b`` (checked)."""
    if a >= GRID_SIZE or b >= GRID_SIZE:
        raise _refuse("swap-off-grid", "only the cells of the grid swap their piles")
    if a == b:
        raise _refuse("move-same-cell", "a swap needs two different cells")
    move = swap(a, b)
    reason = game.reason(move)
    if reason is not None:
        raise reason
    return move


def refusal(game: Game, source: Place, target: Place) -> IllegalMoveError | None:
    """Why dropping ``source`` on ``target`` is refused (None when it plays or puts back)."""
    try:
        drop_move(game, source, target)
    except IllegalMoveError as exc:
        return exc
    return None


def _final_refusal(session: PlaySession) -> IllegalMoveError | None:
    if session.final:
        return _refuse("game-finished", "this game is finished: its result stands")
    return None


def move_refusal(session: PlaySession, move: Move) -> IllegalMoveError | None:
    """Why playing ``move`` in the session would be refused (None: it would be played).

    Asked before acting, so a screen need not send what will be refused; the move
    itself still refuses with the same reason.
    """
    return _final_refusal(session) or session.game.reason(move)


def drop_refusal(session: PlaySession, source: Place, target: Place) -> IllegalMoveError | None:
    """Why the drop of ``source`` on ``target`` would be refused (None: it plays or puts back)."""
    return _final_refusal(session) or refusal(session.game, source, target)


def targets(game: Game, place: Place) -> list[Place]:
    """The cells a card picked up at ``place`` can be built on now."""
    if place == TALON:
        return [m.dst for m in game.generate_moves() if m.kind == MoveKind.TALON]
    if place >= GRID_SIZE:
        return []
    return [m.dst for m in game.generate_moves()
            if m.kind == MoveKind.BUILD and m.src == place]


# ------------------------------------------------------------------- words
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

    @staticmethod
    def card(card: Card) -> str:
        """A card as the table shows it: rank and suit symbol (``10♣``)."""
        return card_symbol(card)

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


# ---------------------------------------------------------------- narration
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


def act(game: Game, move: Move) -> Event:
    """Play ``move`` on a bare game (no session) and return what happened."""
    game.play(move)
    return Event("move", game.last_effect())


Action = Callable[[], Event]
"""An action at the table that tells what happened (or raises the reason it is refused)."""


def stock_move(game: Game) -> Move:
    """What a click on the stock plays: a deal, or a redeal once the stock is empty."""
    return DEAL if game.stock else REDEAL


def give_up_refusal(session: PlaySession) -> IllegalMoveError | None:
    """Why this game cannot be given up (None: it can)."""
    if session.game.is_won():
        return _refuse("game-won", "the game is won: there is nothing to give up")
    if session.final:
        return _refuse("game-finished", "this game is finished: its result stands")
    return None


def give_up(session: PlaySession) -> Event:
    problem = give_up_refusal(session)
    if problem is not None:
        raise problem
    session.give_up()
    return Event("giveup")


def close(session: PlaySession) -> str:
    """The screen closes (the terminal game quits): what becomes of the game.

    A game without a move, or one that is over, is left (see
    :meth:`PlaySession.leave`); a game in play stays open, offered again next
    time, with its clock stopped.
    """
    if not session.final and (not session.has_moves or session.game.is_over()):
        return session.leave()
    session.pause()
    return "kept"


def play(session: PlaySession, move: Move | str) -> Event:
    """Play ``move`` in the session (checked, saved) and return what happened."""
    session.play(move)
    return Event("move", session.game.last_effect())


def undo(session: PlaySession) -> Event:
    effect = session.game.last_effect()
    session.undo()
    return Event("undo", effect)


def redo(session: PlaySession) -> Event:
    session.redo()
    return Event("redo", session.game.last_effect())


def new_game(
    session: PlaySession,
    *,
    number: int | None = None,
    deck: str | None = None,
    rules: Rules | str | None = None,
) -> tuple[PlaySession, Event]:
    """Leave ``session``'s game for a new one (a random deal by default).

    The new deal is checked first: a bad number, deck or rules raises the
    engine's error and nothing changes.  The game left is ended as
    :meth:`PlaySession.leave` says; the screen asked the player first when
    ``session.leave_asks``.
    """
    from devilsgrip.session import random_deal_number

    rules = rules if rules is not None else session.game.rules
    if deck is not None:
        game = Game(deck=deck, rules=rules)
    else:
        game = Game(random_deal_number() if number is None else number, rules=rules)
    left = session.leave()
    fresh = PlaySession.begin(session.store, game, session.owner, session.store_error)
    return fresh, Event("new", left=left)


def read_deal_number(value: int | str) -> int:
    """The deal number a player asked for, typed as text (or sent as a whole number).

    Decimal ASCII digits, 1 .. 2**63-1, exact however large (never through a float);
    anything else raises the engine's :class:`~devilsgrip.errors.DeckError`, whose
    reason the screens show in the player's language.

    >>> read_deal_number(" 9007199254740993 ")
    9007199254740993
    >>> say_error(_caught(read_deal_number, "0"), Words("en"))
    'Game number 0 is out of range: 1 .. 9223372036854775807.'
    """
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise DeckError("game-number-bad", f"bad game number '{short_text(str(value))}'",
                        number=short_text(str(value)))
    text = value if isinstance(value, str) else str(value)
    return parse_game_number(text)


def _caught(fn: Callable[..., Any], *args: Any) -> BaseException | None:
    """The error ``fn(*args)`` raises (None when it raises none); for the examples."""
    try:
        fn(*args)
    except DevilsGripError as exc:
        return exc
    return None


def play_again(session: PlaySession) -> tuple[PlaySession, Event]:
    """Leave ``session``'s game for a new game of the same deal (play again, restart)."""
    left = session.leave()
    return session.again(), Event("again", left=left)


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
        if kind == "redo":
            return w.gettext("Played again:") + " " + text
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


def say_end(session: PlaySession, words: Words) -> str:
    """How the game stands when it has ended or is over (empty while it is in play)."""
    game = session.game
    w = words
    if game.is_won():
        return w.gettext("You won! Every card is in the grid.")
    if game.given_up:
        return w.gettext("Given up: score {score}, {rating}.").format(
            score=game.score, rating=rating_label(game.rating.value, w))
    if game.is_over():
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


def say_picked(game: Game, place: Place, words: Words) -> str:
    """What picking up at ``place`` means: the card, and where it can go."""
    w = words
    if place == TALON:
        card = w.card(game.talon[-1])
        head = w.gettext("Picked up {card} from the talon").format(card=card)
    else:
        card = w.card(game.grid[place][-1])
        head = w.gettext("Picked up {card} from {cell}").format(card=card,
                                                               cell=CELL_NAMES[place])
    cells = [CELL_NAMES[p] for p in targets(game, place)]
    if cells:
        where = w.gettext("it can go on {cells}").format(
            cells=w.listing(cells, alternative=True))
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


# ------------------------------------------------------------------ labels
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
    text = str(Rules.parse(rules))
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


def presets_doc(words: Words) -> dict[str, dict[str, Any]]:
    """Every preset with its label and options (for a settings form)."""
    return {
        name: {"label": preset_label(name, words),
               "options": {n: rules.option_text(n) for n in
                           ("draw", "redeals", "move_unit", "fill_from_talon")}}
        for name, rules in PRESETS.items()
    }


def rules_parts(rules: Rules | str) -> dict[str, Any]:
    """The preset a rules text starts from and every option's value (for a settings form)."""
    parsed = Rules.parse(rules)
    head = str(parsed).partition(",")[0]
    return {"preset": head,
            "options": {n: parsed.option_text(n) for n in
                        ("draw", "redeals", "move_unit", "fill_from_talon")}}


def saving_warning(session: PlaySession, words: Words) -> str | None:
    """Why this game is not being saved, as a sentence (None when it is)."""
    text = session.warning_text(words.lang)
    return sentence(text) if text else None


def hint_refusal(session: PlaySession, words: Words) -> str | None:
    """Why no hint is given for this game (None: a hint may be looked for)."""
    if session.final or session.game.is_over():
        return words.gettext("The game is over: no hint.")
    return None


# ---------------------------------------------------------------- settings
ANIMATIONS: Final = ("off", "fast", "normal", "slow")
DEFAULT_SETTINGS: Final[Mapping[str, Any]] = {"four_colour": False, "animation": "normal"}
SETTING_KEYS: Final = ("lang", "four_colour", "animation", "rules")


def encode_setting(value: Any) -> str:
    """A setting's value as the store keeps it (``"1"``/``"0"`` for a switch)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def decode_settings(saved: Mapping[str, str]) -> dict[str, Any]:
    """The settings a player saved, read back (unknown or bad values are left out)."""
    settings: dict[str, Any] = dict(DEFAULT_SETTINGS)
    if saved.get("four_colour") in ("0", "1"):
        settings["four_colour"] = saved["four_colour"] == "1"
    if saved.get("animation") in ANIMATIONS:
        settings["animation"] = saved["animation"]
    lang = i18n.normalize_language(saved.get("lang"))
    if lang:
        settings["lang"] = lang
    rules = saved.get("rules")
    if rules:
        with contextlib.suppress(DevilsGripError):
            settings["rules"] = str(Rules.parse(rules))
    return settings


# ----------------------------------------------------------------- summary
@dataclass(frozen=True)
class Summary:
    """What a screen shows about the game beside the cards, in the player's words."""

    deal: str
    rules: str
    status: str
    rating: str
    score: int
    moves: int
    redeals: str
    best: int | None
    """The best final score of the other games of this deal (None: none yet or no store)."""
    new_best: bool
    """The game is final and beats every earlier game of this deal."""
    end: str
    warning: str | None
    leave_asks: bool
    final: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal, "rules": self.rules, "status": self.status,
            "rating": self.rating, "score": self.score, "moves": self.moves,
            "redeals": self.redeals, "best": self.best, "new_best": self.new_best,
            "end": self.end, "warning": self.warning, "leave_asks": self.leave_asks,
            "final": self.final,
        }


def summary(session: PlaySession, words: Words, best: int | None = None) -> Summary:
    """The summary of ``session`` (``best``: the deal's best, when already looked up)."""
    game = session.game
    best = session.best_score() if best is None else best
    status = session.result or game.status
    return Summary(
        deal=deal_label(game, words),
        rules=rules_label(game.rules, words),
        status=status_label(status, words),
        rating=rating_label(game.rating.value, words),
        score=game.score,
        moves=game.moves_played,
        redeals=redeals_label(game, words),
        best=best,
        new_best=session.final and best is not None and game.score < best,
        end=say_end(session, words),
        warning=saving_warning(session, words),
        leave_asks=session.leave_asks,
        final=session.final,
    )


# ------------------------------------------------------------------ reviews
def _move_phrase(effect: MoveEffect, words: Words) -> str:
    """A move as a phrase inside a sentence ("dealing 2♠, 8♥, 2♥", "10♣ from b2 onto 7♣
    in h3"), without what filled a space."""
    if effect.move.kind == MoveKind.DEAL:
        return words.gettext("dealing {cards}").format(
            cards=", ".join(words.card(c) for c in effect.cards))
    if effect.move.kind == MoveKind.REDEAL:
        return words.gettext("turning the talon over")
    return _move_words(effect, words, with_fill=False).rstrip(".")


def review_moves_in_words(review: Review, game: Game, words: Words) -> dict[int, tuple[str, str]]:
    """For each costly move of ``review`` (by its number): the played move and the
    better one, in words (the game has ended: the stock may be told)."""
    from devilsgrip.review import positions

    spots = positions(game)
    told: dict[int, tuple[str, str]] = {}
    for m in review.costly:
        before = spots[m.n - 1]
        played = _move_phrase(before.preview(Move.from_text(m.move)), words)
        better = ""
        if m.better is not None:
            better = _move_phrase(before.preview(Move.from_text(m.better)), words)
        told[m.n] = (played, better)
    return told


def say_review(review: Review, game: Game, words: Words) -> str:
    """The story of a review in a few sentences: where the win (or the cards) went."""
    w = words
    told = review_moves_in_words(review, game, w)
    final = review.final_score
    parts: list[str] = []
    if game.is_won():
        parts.append(w.gettext("Won: no move cost a card."))
    elif review.first_lost_win is not None:
        n = review.first_lost_win
        played, better = told.get(n, ("", ""))
        after = review.moves[n - 1]
        if review.first_lost_win_proven:
            opening = w.gettext("Winnable until move {n}.")
            lost = (w.gettext("{played} left the win behind: {better} kept it") if better
                    else w.gettext("{played} left the win behind"))
            ending = (w.gettext("After that the best possible was {best}; the game ended at "
                                "{final}.") if after.proven
                      else w.gettext("After that the best line found left {best}; the game "
                                     "ended at {final}."))
        else:
            # no win was found after the move, and none was proven impossible: say so
            opening = w.gettext("Winnable at least until move {n}.")
            lost = (w.gettext("After {played} the review found no win but could not prove "
                              "there was none; {better} keeps one") if better
                    else w.gettext("After {played} the review found no win but could not "
                                   "prove there was none"))
            ending = w.gettext("After that the best line found left {best}; the game ended "
                               "at {final}.")
        if n == 1:  # "winnable until move 1": the deal could be won, and its first move lost it
            opening = w.gettext("Winnable from the deal.")
        parts += [opening.format(n=n), sentence(lost.format(played=played, better=better)),
                  ending.format(best=after.best, final=final)]
    else:
        if review.start_best == 0:
            parts.append(w.gettext("Winnable from the deal."))
        else:
            parts.append(w.gettext("From the deal, the best possible was {best}.").format(
                best=review.start_best))
        costly = review.costly
        if costly:
            worst = max(costly, key=lambda m: (m.cost, -m.n))
            played, better = told[worst.n]
            parts.append(sentence(w.ngettext(
                "Move {n} cost the most, {cost} card: {played}",
                "Move {n} cost the most, {cost} cards: {played}", worst.cost).format(
                    n=worst.n, cost=worst.cost, played=played)))
            if better:
                parts.append(sentence(w.gettext("{better} kept them").format(better=better)))
        parts.append(w.gettext("The game ended at {final}.").format(final=final))
    if game.given_up:
        parts += _given_up_words(review, w)
    if not review.start_proven or not all(m.proven for m in review.moves):
        parts.append(w.gettext("Values marked ~ are the best lines found, not proven."))
    return " ".join(parts)


def _given_up_words(review: Review, words: Words) -> list[str]:
    """What was still possible when the player gave the game up, if better than its end
    (a line found is a line that can be played: "possible" holds proven or not)."""
    last = review.moves[-1].best if review.moves else review.start_best
    if last >= review.final_score:
        return []
    n = len(review.moves)
    if n == 0:  # the story's first words told what the deal allowed
        return [words.gettext("It was given up before its first move.")]
    if last == 0:
        return [words.ngettext("It was given up after {n} move, when it could still be won.",
                               "It was given up after {n} moves, when it could still be won.",
                               n).format(n=n)]
    return [words.ngettext("It was given up after {n} move, when {best} was still possible.",
                           "It was given up after {n} moves, when {best} was still possible.",
                           n).format(n=n, best=last)]


def review_session(
    session: PlaySession, *, time_limit: float = 10.0,
    progress: Callable[[int, int], None] | None = None,
    sketch: Callable[[list[tuple[int, bool] | None]], None] | None = None,
) -> Review:
    """The review of the session's game, for any screen: kept in the store once made.

    Only a game that has ended is reviewed (``game-live`` otherwise: a review
    shows the stock); reviewing a game that is over makes it final, as showing
    its best line does.  ``progress`` and ``sketch`` are as for ``review_game``.
    """
    from devilsgrip.review import Review, review_game

    game = session.game
    if not (session.final or game.is_over()):
        raise IllegalMoveError("game-live", "this game is still being played")
    session.make_final()
    store, game_id = session.store, session.game_id
    if store is not None and game_id is not None:
        with contextlib.suppress(DevilsGripError):
            kept = store.review(game_id)
            if kept is not None:
                return Review.from_dict(kept)
    review = review_game(game, time_limit=time_limit, progress=progress, sketch=sketch)
    if store is not None and game_id is not None:
        with contextlib.suppress(DevilsGripError):
            store.save_review(game_id, review.to_dict())
    return review


REVIEW_SHARE_BEFORE_END: Final = 0.98
"""The most a running review's progress shows: full only once it has ended."""


def review_share(done: int, total: int, elapsed: float, limit: float) -> float:
    """How far a running review is, as every screen shows it: the share of its positions
    solved or of the most time it may take, whichever is further (a hard game keeps
    its searches long, and the time limit ends it all the same)."""
    share = max(done / total if total > 0 else 0.0, elapsed / limit if limit > 0 else 0.0)
    return min(REVIEW_SHARE_BEFORE_END, max(0.0, share))


def say_review_progress(elapsed: float, limit: float, words: Words) -> str:
    """A running review in words: the seconds it has taken of the most it may take."""
    return words.gettext("Reviewing the game… {elapsed} s of at most {limit} s").format(
        elapsed=int(elapsed + 0.5), limit=int(limit + 0.5))


def review_refusal(session: PlaySession) -> IllegalMoveError | None:
    """Why this game cannot be reviewed yet (None: it can): a review shows the stock."""
    if session.final or session.game.is_over():
        return None
    return _refuse("game-live", "this game is still being played")


def position_text(game: Game, words: Words) -> str:
    """A position as a few lines of text: the grid's top cards with pile sizes, columns
    a..h and rows 1..3, then the talon's top and the stock (for read-only viewers)."""
    lines = ["    " + "".join(f"{c:<7}" for c in "abcdefgh").rstrip()]
    for row in range(3):
        cells = []
        for cell in range(row * 8, row * 8 + 8):
            pile = game.grid[cell]
            text = f"{words.card(pile[-1])}{'×' + str(len(pile)) if len(pile) > 1 else ''}" \
                if pile else "·"
            cells.append(f"{text:<7}")
        lines.append(f" {row + 1}  " + "".join(cells).rstrip())
    talon = words.card(game.talon[-1]) if game.talon else "·"
    lines.append(words.gettext("talon: {card} ({n})   stock: {m}").format(
        card=talon, n=len(game.talon), m=len(game.stock)))
    return "\n".join(lines)


def review_rows(review: Review, game: Game, words: Words) -> list[tuple[str, str]]:
    """For each costly move: a line for a list, and the position before it with the
    move played and the better one, in words."""
    from devilsgrip.review import positions

    w = words
    spots = positions(game)
    rows: list[tuple[str, str]] = []
    for m in costly_moves(review, game, w):
        shown = [position_text(spots[m.n - 1], w), "", m.played_text]
        if m.better_text:
            shown.append(m.better_text)
        if m.seen_words:
            shown.append(m.seen_words)
        rows.append((m.line, "\n".join(shown)))
    return rows


@dataclass(frozen=True)
class CostlyMove:
    """A move that cost cards, as a screen lists it and shows it on the table."""

    n: int
    move: str
    better: str | None
    cost: int
    best: int
    proven: bool
    seen: str | None
    line: str
    """The list's line: "Move 23: 9♠ from c1 onto 6♠ in a2 (+3, best after ~7)"."""
    played_words: str
    """The move played, as a phrase ("9♠ from c1 onto 6♠ in a2")."""
    better_words: str
    """The better move as a phrase ("" when none is known)."""
    played_text: str
    """"Played: 9♠ from c1 onto 6♠ in a2."."""
    better_text: str
    """"Better: dealing 3♦, 8♣, 5♠." ("" when none is known)."""
    seen_words: str
    """Whether a player could have seen it, as a sentence ("" when not judged)."""
    played_arrow: tuple[Place, Place]
    better_arrow: tuple[Place, Place] | None


def costly_moves(review: Review, game: Game, words: Words) -> list[CostlyMove]:
    """The moves of ``review`` that cost cards, in order, told in ``words``."""
    w = words
    told = review_moves_in_words(review, game, w)
    out: list[CostlyMove] = []
    for m in review.costly:
        played, better = told[m.n]
        mark = "" if m.proven else "~"
        seen = ""
        if m.seen == "mistake":
            seen = w.gettext("A player could have seen it from what was shown.")
        elif m.seen == "hindsight":
            seen = w.gettext("Only the order of the stock showed it.")
        out.append(CostlyMove(
            n=m.n, move=m.move, better=m.better, cost=m.cost, best=m.best, proven=m.proven,
            seen=m.seen,
            line=w.gettext("Move {n}: {played} (+{cost}, best after {mark}{best})").format(
                n=m.n, played=played, cost=m.cost, mark=mark, best=m.best),
            played_words=played, better_words=better,
            played_text=sentence(w.gettext("played: {move}").format(move=played)),
            better_text=sentence(w.gettext("better: {better}").format(better=better))
            if better else "",
            seen_words=seen,
            played_arrow=move_arrow(Move.from_text(m.move)),
            better_arrow=None if m.better is None else move_arrow(Move.from_text(m.better)),
        ))
    return out


# ------------------------------------------------------------------ history
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
    seconds: float
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
        seconds=info.play_seconds, started=info.started, ended=info.ended, reviewed=reviewed)


def history(store: Store, owner: str, words: Words, *,
            limit: int = 100) -> tuple[list[HistoryEntry], int]:
    """The finished games of ``owner``, the latest to end first (at most ``limit``), and
    how many finished games there are in all."""
    finished = store.games(owner=owner, finished=True)
    finished.sort(key=lambda g: (g.ended or g.updated, g.id), reverse=True)
    reviewed = store.reviewed(owner)
    shown = [history_entry(g, words, g.id in reviewed) for g in finished[:limit]]
    return shown, len(finished)
