"""Plain-text rendering of games for the command line (translated)."""

from __future__ import annotations

from devilsgrip.cards import CARD_CODES, COLUMNS
from devilsgrip.game import Game
from devilsgrip.i18n import _, ngettext, rating_label


def rating_text(value: str) -> str:
    """The translated rating (the one list of rating labels is i18n's)."""
    return rating_label(value)


def render_game(game: Game) -> str:
    """The grid with labelled rows and columns, then the stock and talon."""
    width = 13
    lines = ["     " + "".join(f"{col:<{width}}" for col in "abcdefgh").rstrip()]
    for r in range(3):
        cells = []
        for cell in range(r * COLUMNS, (r + 1) * COLUMNS):
            pile = game.grid[cell]
            cells.append(f"{' '.join(CARD_CODES[c] for c in pile[-4:]) or '..':<{width}}")
        lines.append(f"  {r + 1}  " + "".join(cells).rstrip())
    talon = " ".join(CARD_CODES[c] for c in game.talon[-3:]) or "--"
    lines.append("")
    lines.append(
        "  " + ngettext("stock: {n} card", "stock: {n} cards", len(game.stock)).format(
            n=len(game.stock))
        + "   " + ngettext("talon: {n} card", "talon: {n} cards", len(game.talon)).format(
            n=len(game.talon))
        + f" [{talon}]"
    )
    return "\n".join(lines)


def status_text(game: Game) -> str:
    parts = [
        _("score: {score}").format(score=game.score),
        _("rating: {rating}").format(rating=rating_text(game.rating.value)),
        ngettext("{n} move", "{n} moves", game.moves_played).format(n=game.moves_played),
    ]
    if game.given_up:
        parts.append(_("given up"))
    elif game.is_won():
        parts.append(_("won"))
    elif game.is_over():
        parts.append(_("game over"))
    else:
        parts.append(_("in progress"))
    return "  " + "   ".join(parts)
