"""Game records, the whole game as text (like PGN, as python-chess keeps it in ``chess.pgn``).

A record is tags, then the numbered moves; the position string of one moment
stays with :class:`~devilsgrip.game.Game` (:meth:`~devilsgrip.game.Game.position`).

>>> from devilsgrip.game import Game
>>> game = Game(1)
>>> game.play_text("d")
Move.from_text('d')
>>> read_record(write_record(game)).move_stack == game.move_stack
True
"""

from __future__ import annotations

import re
from typing import Final

from devilsgrip import codes
from devilsgrip.cards import MAX_GAME_NUMBER, format_deck, parse_deck, parse_number
from devilsgrip.errors import (
    DeckError,
    IllegalMoveError,
    MoveError,
    PositionError,
    RecordError,
    RulesError,
)
from devilsgrip.game import Game, Status, split_move_text
from devilsgrip.notation import parse_game_number, strip_comments
from devilsgrip.rules import Rules

__all__ = ["read_record", "write_record"]


def write_record(game: Game) -> str:
    """The game record (like PGN): tags, then the numbered moves.

    Tags: ``Rules``; ``Game`` (the game number) or ``Deck`` or
    ``Position`` for the start; ``Moves``; ``Score``; ``Result``
    (``won``, ``over``, ``given up`` or ``in progress``); and any tag
    kept in :attr:`Game.tags <devilsgrip.game.Game.tags>`.
    """
    tags: dict[str, str] = {"Event": "Devil's Grip", "Rules": str(game.rules)}
    if game.number is not None:
        tags["Game"] = str(game.number)
    elif game.deck is not None:
        tags["Deck"] = format_deck(game.deck)
    else:
        tags["Position"] = game.start_position
    for name, value in game.tags.items():
        if name not in _COMPUTED_TAGS and name not in tags:
            tags[name] = value
    tags["Moves"] = str(game.moves_played)
    tags["Score"] = str(game.score)
    tags["Result"] = game.status.value
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags.items()]
    body: list[str] = []
    for i, move in enumerate(game.move_stack, start=1):
        body.append(f"{i}. {move.text()}")
    end = {
        Status.GIVEN_UP: f"{{given up, score {game.score}}}",
        Status.WON: "{won}",
        Status.OVER: f"{{over, score {game.score}}}",
        Status.IN_PROGRESS: "*",
    }[game.status]
    body.append(end)
    text_lines: list[str] = []
    line = ""
    for token in body:
        if len(line) + len(token) + 1 > 78 and line:
            text_lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    text_lines.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(text_lines) + "\n"


def read_record(text: str, *, verify: bool = True) -> Game:
    """Replay a game record; raises :class:`RecordError` naming the problem.

    With ``verify``, the ``Moves``, ``Score`` and ``Result`` tags, when
    present, must agree with the replay.
    """
    tags: dict[str, str] = {}
    body_lines: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            m = _TAG_RE.fullmatch(line)
            if m is None:
                raise RecordError(codes.RECORD_BAD_TAG, f"cannot read tag line: {line}", line=line)
            tags[m.group(1)] = _unescape(m.group(2))
        elif line:
            body_lines.append(line)
    body = strip_comments("\n".join(body_lines))  # a ';' comment ends at its line
    tokens = [t for t in split_move_text(body) if t != "*"]
    rules = tags.get("Rules", "classic")
    try:
        if "Game" in tags:
            value = tags["Game"]
            if parse_number(value, MAX_GAME_NUMBER) is None:
                raise RecordError(codes.RECORD_BAD_GAME, f"bad game number '{value}'")
            game = Game(parse_game_number(value), rules=rules)
            if "Deck" in tags and parse_deck(tags["Deck"]) != list(game.deck or ()):
                raise RecordError(
                    codes.RECORD_DECK_MISMATCH, "the Deck tag is not the deck of Game"
                )
        elif "Deck" in tags:
            game = Game(deck=tags["Deck"], rules=rules)
        elif "Position" in tags:
            game = Game.from_position(tags["Position"])
            if "Rules" in tags and game.rules != Rules.parse(rules):
                raise RecordError(codes.RECORD_RULES_MISMATCH, "Rules and Position disagree")
        else:
            raise RecordError(
                codes.RECORD_NO_START, "the record has no Game, Deck or Position tag"
            )
    except (DeckError, RulesError, PositionError) as exc:
        raise RecordError(exc.code, f"bad record start: {exc}", **exc.params) from exc
    for name, value in tags.items():
        if name not in _COMPUTED_TAGS:
            game.tags[name] = value
    for i, token in enumerate(tokens, start=1):
        try:
            game.play_text(token)
        except (MoveError, IllegalMoveError) as exc:
            raise RecordError(
                codes.RECORD_ILLEGAL_MOVE,
                f"move {i} '{token}': {exc.message}",
                number=i,
                move=token,
                reason=exc.code,
                reason_params=exc.params,
            ) from exc
    result = tags.get("Result", "")
    if result == Status.GIVEN_UP.value:
        game.give_up()
    if verify:
        if "Moves" in tags and tags["Moves"] != str(game.moves_played):
            raise RecordError(
                codes.RECORD_MISMATCH,
                f"the record says {tags['Moves']} moves but has {game.moves_played}",
            )
        if "Score" in tags and tags["Score"] != str(game.score):
            raise RecordError(
                codes.RECORD_MISMATCH,
                f"the record says score {tags['Score']} but the moves give {game.score}",
            )
        if result and result != game.status.value:
            raise RecordError(
                codes.RECORD_MISMATCH,
                f"the record says '{result}' but the moves give '{game.status.value}'",
            )
    return game


_COMPUTED_TAGS: Final = frozenset({"Event", "Rules", "Game", "Deck", "Position", "Moves",
                                   "Score", "Result"})
_TAG_RE: Final = re.compile(r'\[\s*([A-Za-z][\w-]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)
