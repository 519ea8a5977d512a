"""Hints: the honest player's move and why, in a few translated words."""

from __future__ import annotations

from dataclasses import dataclass, field

from devilsgrip.cards import CELL_NAMES, PREV, parse_card
from devilsgrip.game import Game, Move, MoveKind, Source
from devilsgrip.i18n import _, card_label, translations
from devilsgrip.solver.limits import check_time_limit
from devilsgrip.solver.players import choose_move

HINT_THINKING_SHARE = 0.7
"""The share of :func:`hint`'s ``time_limit`` its node budgets are sized for: at
0.8 the slowest hints of ``benchmarks/hints.py`` came within 0.03 s of 1 s."""

HINT_CODES = ("talon-build", "fills-space", "frees-space", "leaves-space", "uncovers", "deal",
              "deal-first", "redeal", "redeal-first")
"""Reason codes: a talon build; an emptying build whose space the next stock
card fills; an emptying build whose space the talon's top card fills (it can
come in); an emptying build whose space nothing fills (the stock out, and the
rules fill no space from the talon); a ``card``-mode build that uncovers a card;
a deal when no card can come in; a deal when one could (a talon build or a space
filled), chosen first; a redeal when no card can come in on this pass, and when one
could."""


@dataclass(frozen=True)
class Hint:
    """A suggested move, a reason ``code`` and its ``params`` (card codes, cells)."""

    move: Move
    code: str
    params: dict[str, str] = field(default_factory=dict)

    def text(self, lang: str | None = None) -> str:
        """The reason in a few words, in ``lang`` (None: the process language)."""
        p = self.params
        cat = translations(lang) if lang is not None else None
        gettext = cat.gettext if cat is not None else _

        def card(key: str) -> str:
            return card_label(parse_card(p[key]), lang, definite=True)

        if self.code == "talon-build":
            return gettext("{card} goes on {target} in {cell}").format(
                card=card("card"), target=card("target"), cell=p["cell"]
            )
        if self.code == "frees-space":
            return gettext("frees a space: {card} can come in").format(card=card("card"))
        if self.code == "fills-space":
            return gettext("frees a space for the next card of the stock")
        if self.code == "leaves-space":
            return gettext("empties its cell: nothing is left to fill the space")
        if self.code == "uncovers":
            return gettext("uncovers {card}").format(card=card("card"))
        if self.code == "deal-first":
            return gettext("deal: see more cards before you use the moves you have")
        if self.code == "redeal":
            return gettext("turn the talon over: nothing more can come in on this pass")
        if self.code == "redeal-first":
            return gettext("turn the talon over: go round again before you use the moves "
                           "you have")
        return gettext("deal: no card can come in yet")

    def to_dict(self) -> dict[str, object]:
        return {"move": self.move.text(), "code": self.code, "params": dict(self.params),
                "text": self.text()}


def explain(game: Game, move: Move) -> Hint:
    """The hint for ``move`` in ``game``'s position (only visible facts are used)."""
    from devilsgrip.cards import CARD_CODES

    grid, talon = game.grid, game.talon
    if move.kind == MoveKind.TALON:
        card = talon[-1]
        return Hint(move, "talon-build", {"card": CARD_CODES[card],
                                          "target": CARD_CODES[PREV[card]],
                                          "cell": CELL_NAMES[move.dst]})
    if move.kind == MoveKind.BUILD:
        effect = game.preview(move)  # the engine says which cards the build moves
        params = {"from": CELL_NAMES[move.src], "cell": CELL_NAMES[move.dst]}
        source = grid[move.src]
        if not effect.emptied:
            beneath = source[len(source) - len(effect.cards) - 1]
            return Hint(move, "uncovers", {**params, "card": CARD_CODES[beneath]})
        if effect.fill_from is Source.TALON:
            return Hint(move, "frees-space", {**params, "card": CARD_CODES[talon[-1]]})
        if effect.fill_from is Source.STOCK:
            return Hint(move, "fills-space", params)
        return Hint(move, "leaves-space", params)
    if move.kind == MoveKind.REDEAL:
        return Hint(move, "redeal-first" if _card_can_enter(game) else "redeal", {})
    return Hint(move, "deal-first" if _card_can_enter(game) else "deal", {})


def _card_can_enter(game: Game) -> bool:
    """Whether a move of ``game``'s position makes a card enter the grid now: a talon
    build, or a grid build that empties its cell while a card is there to fill it."""
    fills = bool(game.stock) or (game.rules.fill_from_talon and bool(game.talon))
    for move in game.generate_moves():
        if move.kind == MoveKind.TALON:
            return True
        if fills and move.kind == MoveKind.BUILD and game.preview(move, checked=False).emptied:
            return True
    return False


def hint(game: Game, *, time_limit: float = 1.0, seed: int = 0) -> Hint | None:
    """The honest player's move with its reason, or None when it sees none (or given up).

    Uses only what ``game.view()`` shows (never the order of unseen stock cards).
    ``time_limit`` is a positive, finite number of seconds, else ``LimitError``.
    """
    check_time_limit(time_limit)
    if game.given_up:
        return None
    # the honest player's budgets are counted in nodes (the same hint on any machine),
    # so a share of the time is left for its set-up and for a busy machine
    move = choose_move(game, "honest", seed=seed, time_limit=time_limit * HINT_THINKING_SHARE)
    if move is None:
        return None
    return explain(game, move)
