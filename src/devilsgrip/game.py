"""The game: one front door to the rules of Devil's Grip, and its moves (values with a
short text form that round-trips, kept beside the rules as python-chess keeps ``Move``
beside ``Board``; the human grammar of move lists is :mod:`devilsgrip.notation`).

>>> game = Game(1)
>>> game.score, len(game.stock), len(game.talon)
(72, 72, 0)
>>> game.play_text("d")
Move.from_text('d')
>>> game.score, len(game.talon)
(72, 3)
>>> game.pop()
Move.from_text('d')
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import Any, Final, TypeVar

from devilsgrip import codes
from devilsgrip.cards import (
    CARD_CODES,
    CELL_NAMES,
    COLUMNS,
    GRID_SIZE,
    IS_BASE,
    IS_TOP,
    MAX_COUNT,
    MAX_GAME_NUMBER,
    N_CARDS,
    NEXT,
    PREV,
    SEPARATORS,
    SUIT_OF,
    Card,
    card_name,
    format_cards,
    number_text,
    numbered_deck,
    parse_cards,
    parse_cell,
    parse_deck,
    parse_number,
)
from devilsgrip.errors import (
    CardError,
    DeckError,
    IllegalMoveError,
    MoveError,
    PositionError,
    RulesError,
)
from devilsgrip.rules import CLASSIC, Rules


# ------------------------------------------------------------------ moves
class MoveKind(IntEnum):
    """What a move does: deal, redeal, talon build, grid build or swap."""
    DEAL = 0
    REDEAL = 1
    TALON = 2
    BUILD = 3
    SWAP = 4


@dataclass(frozen=True, slots=True)
class Move:
    """A move: a value with a text form that round-trips.

    ``d`` deal, ``r`` redeal, ``t-c2`` talon build onto c2, ``a1-c2`` grid
    build from a1 onto c2, ``a1=c2`` swap (stored with the lower cell first,
    so ``Move(MoveKind.SWAP, 5, 2) == Move.from_text("c1=f1")``).
    Use :meth:`from_text` or the ready-made values :data:`DEAL`,
    :data:`REDEAL`, :func:`talon_build`, :func:`grid_build`, :func:`swap`.
    """

    kind: MoveKind
    src: int = -1
    dst: int = -1

    def __post_init__(self) -> None:
        # a swap is the same move whichever cell is named first: stored lower cell first
        if self.kind == MoveKind.SWAP and self.src > self.dst:
            src, dst = self.dst, self.src
            object.__setattr__(self, "src", src)
            object.__setattr__(self, "dst", dst)

    @staticmethod
    def from_text(text: str) -> Move:
        """Parse one move; raises :class:`MoveError` naming the problem."""
        t = text.strip().lower()
        if t in ("d", "deal"):
            return DEAL
        if t in ("r", "redeal"):
            return REDEAL
        m = _MOVE_RE.fullmatch(t)
        if m is None:
            raise MoveError(
                codes.MOVE_BAD_TEXT,
                f"cannot read move '{text}' (write d, r, t-c2, a1-c2 or a1=c2)",
                text=text,
            )
        src, op, dst = m.group(1), m.group(2), m.group(3)
        d = parse_cell(dst)
        if src == "t":
            if op != "-":
                raise MoveError(
                    codes.MOVE_BAD_TEXT,
                    f"cannot read move '{text}': the talon only builds (t-c2)",
                    text=text,
                )
            return TALON_BUILDS[d]
        s = parse_cell(src)
        if s == d:
            raise MoveError(
                codes.MOVE_SAME_CELL, f"move '{text}' names the same cell twice", text=text
            )
        return GRID_BUILDS[s][d] if op == "-" else SWAPS[s][d]

    def text(self) -> str:
        """The move's short text form (``"d"``, ``"t-c2"``, ``"a1-c2"``, ``"a1=c2"``)."""
        k = self.kind
        if k == MoveKind.DEAL:
            return "d"
        if k == MoveKind.REDEAL:
            return "r"
        if k == MoveKind.TALON:
            return "t-" + CELL_NAMES[self.dst]
        sep = "-" if k == MoveKind.BUILD else "="
        return CELL_NAMES[self.src] + sep + CELL_NAMES[self.dst]

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Move.from_text({self.text()!r})"

    @property
    def is_swap(self) -> bool:
        return self.kind == MoveKind.SWAP


_MOVE_RE: Final = re.compile(r"(t|[a-h][1-3])\s*([-=])\s*([a-z]\w*)")

DEAL: Final = Move(MoveKind.DEAL)
"""The move that deals cards from the stock onto the talon (``d``)."""
REDEAL: Final = Move(MoveKind.REDEAL)
"""The move that turns the talon over into a new stock (``r``)."""
TALON_BUILDS: Final[tuple[Move, ...]] = tuple(
    Move(MoveKind.TALON, -1, d) for d in range(GRID_SIZE)
)
"""The talon build onto each cell, by the cell's index."""
GRID_BUILDS: Final[tuple[tuple[Move, ...], ...]] = tuple(
    tuple(Move(MoveKind.BUILD, s, d) for d in range(GRID_SIZE)) for s in range(GRID_SIZE)
)
"""The grid build from each cell onto each other, by their indices."""
SWAPS: Final[tuple[tuple[Move, ...], ...]] = tuple(
    tuple(Move(MoveKind.SWAP, min(s, d), max(s, d)) for d in range(GRID_SIZE))
    for s in range(GRID_SIZE)
)
"""The swap of each two cells, by their indices (either order)."""


def talon_build(dst: int) -> Move:
    """The move of the talon's top card onto the pile of cell ``dst``."""
    return TALON_BUILDS[dst]


def grid_build(src: int, dst: int) -> Move:
    """The move of cards from the pile of cell ``src`` onto that of cell ``dst``."""
    return GRID_BUILDS[src][dst]


def swap(a: int, b: int) -> Move:
    """The move that exchanges the piles of cells ``a`` and ``b``."""
    return SWAPS[a][b]


def split_move_text(text: str) -> list[str]:
    """Move tokens of a list separated by spaces or commas (numbers ``12.`` dropped)."""
    return [t for t in SEPARATORS.split(text.strip()) if t and not _NUMBER_RE.fullmatch(t)]


_NUMBER_RE: Final = re.compile(r"[0-9]+\.+")


_T = TypeVar("_T")

Pile = tuple[Card, ...]
"""A pile of a cell, bottom card first (``()`` for an empty cell)."""

_DEAL, _REDEAL, _TALON, _BUILD, _SWAP = (
    MoveKind.DEAL,
    MoveKind.REDEAL,
    MoveKind.TALON,
    MoveKind.BUILD,
    MoveKind.SWAP,
)
_FILL_NONE, _FILL_STOCK, _FILL_TALON = 0, 1, 2


class Rating(Enum):
    """How good a final score is (RULES.md, "Score, win and rating")."""

    WON = "won"
    BRILLIANT = "brilliant"
    EXCELLENT = "excellent"
    GOOD = "good"
    NONE = "none"

    @staticmethod
    def of(score: int) -> Rating:
        """The rating of a final ``score``."""
        if score <= 0:
            return Rating.WON
        if score <= 2:
            return Rating.BRILLIANT
        if score <= 5:
            return Rating.EXCELLENT
        if score <= 10:
            return Rating.GOOD
        return Rating.NONE


class Status(Enum):
    """Where a game stands, as a record states it."""

    IN_PROGRESS = "in progress"
    OVER = "over"
    WON = "won"
    GIVEN_UP = "given up"


@dataclass(frozen=True)
class View:
    """What a player may see: never the order of stock cards not yet seen.

    ``stock_order`` is the stock from its top when the player has seen every
    stock card (after a redeal: they were all turned before), else None, and
    ``unseen`` then lists the stock's cards sorted, not in their order.
    """

    rules: Rules
    grid: tuple[Pile, ...]
    talon: tuple[Card, ...]
    stock_count: int
    stock_order: tuple[Card, ...] | None
    unseen: tuple[Card, ...]
    redeals_done: int
    redeals_left: int | None
    moves_played: int
    score: int
    rating: Rating
    over: bool
    won: bool
    given_up: bool
    legal: tuple[Move, ...] = field(default=())


class Source(Enum):
    """Where a card that filled a space came from."""

    STOCK = "stock"
    TALON = "talon"


@dataclass(frozen=True)
class MoveEffect:
    """What a move did, told by the engine from the data it keeps for undo.

    ``cards`` are the cards that moved, bottom to top: the cards a deal turned
    (in the order turned, the new talon top last), the talon card of a talon
    build, the run of a grid build; none for a redeal or a swap.  ``onto`` is
    the card they were put on (builds).  A grid build that emptied its cell
    says so in ``emptied``; ``fill`` is the card that then filled the space
    and ``fill_from`` where it came from (None when the space stayed empty).
    ``piles`` are the two piles of a swap after it (the pile now in
    ``move.src``, then the one now in ``move.dst``).

    >>> game = Game(5)
    >>> game.play(DEAL)
    Move.from_text('d')
    >>> [CARD_CODES[c] for c in game.last_effect().cards]
    ['8H', 'KD', 'QD']
    """

    move: Move
    cards: tuple[Card, ...] = ()
    onto: Card | None = None
    emptied: bool = False
    fill: Card | None = None
    fill_from: Source | None = None
    piles: tuple[Pile, Pile] | None = None


class LegalMoves:
    """A live view of the legal moves of a game (like python-chess's)."""

    __slots__ = ("_game", "_swaps")

    def __init__(self, game: Game, swaps: bool) -> None:
        self._game = game
        self._swaps = swaps

    def __iter__(self) -> Iterator[Move]:
        return iter(self._game.generate_moves(swaps=self._swaps))

    def __len__(self) -> int:
        return len(self._game.generate_moves(swaps=self._swaps))

    def __bool__(self) -> bool:
        game = self._game
        return bool(game.generate_moves(swaps=False)) or (
            self._swaps and not game.given_up and any(game.grid)
        )

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, Move):
            return False
        if move.kind == _SWAP and not self._swaps:
            return False
        return self._game.reason(move) is None

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(m.text() for m in self)})>"


class Game:
    """A game of Devil's Grip: the true state, legal moves, undo and redo.

    Randomness enters once, here: ``Game(n)`` deals game number ``n``,
    ``Game(deck=...)`` a deck string (or list of cards), ``Game(rng=r)`` a
    deck shuffled by an explicit :class:`random.Random`.  Everything after is
    deterministic.
    """

    def __init__(
        self,
        number: int | None = None,
        *,
        deck: str | Iterable[Card] | None = None,
        rules: Rules | str = CLASSIC,
        rng: random.Random | None = None,
    ) -> None:
        self.rules: Rules = Rules.parse(rules)
        given = sum(x is not None for x in (number, deck, rng))
        if given > 1:
            raise ValueError("give a game number, a deck or an rng, not several")
        self.number: int | None = None
        if number is not None:
            if isinstance(number, bool) or not isinstance(number, int):
                raise DeckError(codes.GAME_NUMBER_BAD, f"bad game number {number!r}", number=number)
            if not 1 <= number <= MAX_GAME_NUMBER:
                shown = number_text(number)
                raise DeckError(
                    codes.GAME_NUMBER_RANGE,
                    f"game number {shown} is out of range: 1 .. {MAX_GAME_NUMBER}",
                    number=shown,
                )
            cards = numbered_deck(number)
            self.number = number
        elif deck is not None:
            cards = parse_deck(deck) if isinstance(deck, str) else parse_deck(_deck_text(deck))
        else:
            cards = [c for _ in range(2) for c in range(N_CARDS)]
            (rng or random.Random()).shuffle(cards)
        self.deck: tuple[Card, ...] | None = tuple(cards)
        self.grid: list[Pile] = [(c,) for c in cards[:GRID_SIZE]]
        self.stock: list[Card] = cards[GRID_SIZE:][::-1]
        """Stock cards, the top last (``stock[-1]`` is dealt next)."""
        self.talon: list[Card] = []
        """Talon cards in the order turned: the top (playable) last."""
        self.redeals_done = 0
        self.given_up = False
        self.tags: dict[str, str] = {}
        self._stack: list[tuple[Move, int]] = []
        self._redo: list[Move] = []
        self._moves_before = 0
        self.start_position: str = self.position()

    # ----------------------------------------------------------- construction
    @classmethod
    def from_position(cls, text: str) -> Game:
        """A game that starts from a position string (see :meth:`position`)."""
        game = cls.__new__(cls)
        game._load_position(text)
        game.number = None
        game.deck = None
        game.given_up = False
        game.tags = {}
        game._stack = []
        game._redo = []
        game.start_position = game.position()
        return game

    def copy(self) -> Game:
        """An independent copy with the same state, history and redo list."""
        new = Game.__new__(Game)
        new.rules = self.rules
        new.number = self.number
        new.deck = self.deck
        new.grid = self.grid.copy()
        new.stock = self.stock.copy()
        new.talon = self.talon.copy()
        new.redeals_done = self.redeals_done
        new.given_up = self.given_up
        new.tags = dict(self.tags)
        new._stack = self._stack.copy()
        new._redo = self._redo.copy()
        new._moves_before = self._moves_before
        new.start_position = self.start_position
        return new

    def restart(self) -> None:
        """Back to the start position (the moves are kept for redo)."""
        while self._stack:
            self._redo.append(self.pop())
        self.given_up = False

    # ------------------------------------------------------------- properties
    @property
    def score(self) -> int:
        """Cards not in the grid (stock + talon). Lower is better."""
        return len(self.stock) + len(self.talon)

    @property
    def rating(self) -> Rating:
        return Rating.of(self.score)

    @property
    def redeals_left(self) -> int | None:
        """Redeals still allowed, or None for unlimited."""
        if self.rules.redeals is None:
            return None
        return max(0, self.rules.redeals - self.redeals_done)

    @property
    def move_stack(self) -> list[Move]:
        """The moves played from the start position, in order."""
        return [m for m, _ in self._stack]

    @property
    def moves_played(self) -> int:
        return len(self._stack)

    @property
    def redo_stack(self) -> list[Move]:
        """Moves undone that :meth:`redo` would play again, the next one last."""
        return list(self._redo)

    @property
    def can_undo(self) -> bool:
        return bool(self._stack) and not self.given_up

    @property
    def can_redo(self) -> bool:
        return bool(self._redo) and not self.given_up

    @property
    def legal_moves(self) -> LegalMoves:
        """Every legal move, swaps included."""
        return LegalMoves(self, swaps=True)

    @property
    def legal_moves_no_swaps(self) -> LegalMoves:
        """Every legal move but swaps (which never change the score): for search and hints."""
        return LegalMoves(self, swaps=False)

    def grid_cards(self) -> int:
        """The number of cards in the grid."""
        return sum(len(p) for p in self.grid)

    def is_won(self) -> bool:
        """Score 0: all 96 cards in the grid."""
        return not self.stock and not self.talon

    @property
    def status(self) -> Status:
        if self.given_up:
            return Status.GIVEN_UP
        if self.is_won():
            return Status.WON
        if self.is_over():
            return Status.OVER
        return Status.IN_PROGRESS

    # ---------------------------------------------------------- move generation
    def _can_redeal(self) -> bool:
        r = self.rules.redeals
        return r is None or self.redeals_done < r

    def generate_moves(self, swaps: bool = False) -> list[Move]:
        """The legal moves as a list: deal/redeal, talon builds, grid builds, swaps."""
        moves: list[Move] = []
        if self.given_up:
            return moves
        stock, talon, grid = self.stock, self.talon, self.grid
        if stock:
            moves.append(DEAL)
        elif talon and self._can_redeal():
            moves.append(REDEAL)
        if talon:
            want = PREV[talon[-1]]
            if want >= 0:
                for d in range(GRID_SIZE):
                    p = grid[d]
                    if p and p[-1] == want:
                        moves.append(TALON_BUILDS[d])
        run = self.rules.move_unit == "run"
        for d in range(GRID_SIZE):
            p = grid[d]
            if not p:
                continue
            c = NEXT[p[-1]]
            if c < 0:
                continue
            builds = GRID_BUILDS
            for s in range(GRID_SIZE):
                q = grid[s]
                if q and s != d and ((c in q) if run else q[-1] == c):
                    moves.append(builds[s][d])
        if swaps:
            for a in range(GRID_SIZE):
                row = SWAPS[a]
                pa = grid[a]
                for b in range(a + 1, GRID_SIZE):
                    if pa or grid[b]:
                        moves.append(row[b])
        return moves

    def reason(self, move: Move) -> IllegalMoveError | None:
        """None if ``move`` is legal here, else the error that says why not."""
        k = move.kind
        stock, talon, grid = self.stock, self.talon, self.grid

        def err(code: str, message: str, **params: Any) -> IllegalMoveError:
            text = move.text()  # written out only for a refusal
            return IllegalMoveError(code, f"{text}: {message}", move=text, **params)

        if self.given_up:
            return err(codes.GAME_GIVEN_UP, "this game was given up")
        if k == _DEAL:
            if not stock:
                return err(codes.STOCK_EMPTY, "the stock is empty")
            return None
        if k == _REDEAL:
            if stock:
                return err(codes.STOCK_NOT_EMPTY, "the stock is not empty yet: deal it first")
            if not talon:
                return err(codes.TALON_EMPTY, "the talon is empty: nothing to redeal")
            if not self._can_redeal():
                return err(
                    codes.NO_REDEALS_LEFT,
                    f"no redeals left (these rules allow {self.rules.redeals})",
                    allowed=self.rules.redeals,
                )
            return None
        if k == _SWAP:
            if move.src == move.dst:
                return err(codes.MOVE_SAME_CELL, "a swap needs two different cells",
                           text=move.text())
            if not grid[move.src] and not grid[move.dst]:
                return err(codes.SWAP_BOTH_EMPTY, "both cells are empty", a=CELL_NAMES[move.src],
                           b=CELL_NAMES[move.dst])
            return None
        dst = move.dst
        target = grid[dst]
        if k == _TALON:
            if not talon:
                return err(codes.TALON_EMPTY, "the talon is empty")
            return self._fit(talon[-1], target, dst, err)
        # grid build
        source = grid[move.src]
        if not source:
            return err(codes.SOURCE_EMPTY, f"{CELL_NAMES[move.src]} is empty",
                       cell=CELL_NAMES[move.src])
        if self.rules.move_unit == "card" or not target or len(source) == 1:
            return self._fit(source[-1], target, dst, err)
        top = target[-1]
        if IS_TOP[top]:
            return self._fit(source[-1], target, dst, err)
        if NEXT[top] not in source:
            return err(
                codes.NO_CARD_FITS,
                f"no card of {CELL_NAMES[move.src]} goes on the {card_name(top)}: "
                f"it takes the {card_name(NEXT[top])}",
                cell=CELL_NAMES[move.src],
                target=CARD_CODES[top],
                need=CARD_CODES[NEXT[top]],
            )
        return None

    @staticmethod
    def _fit(card: Card, target: Pile, dst: int, err: Any) -> IllegalMoveError | None:
        """Why ``card`` may not go on ``target`` (cell ``dst``), or None."""
        if not target:
            return err(  # type: ignore[no-any-return]
                codes.TARGET_EMPTY,
                f"{CELL_NAMES[dst]} is empty: a space takes a pile only by a swap",
                cell=CELL_NAMES[dst],
            )
        top = target[-1]
        params = {"card": CARD_CODES[card], "target": CARD_CODES[top]}
        if IS_BASE[card]:
            return err(  # type: ignore[no-any-return]
                codes.CARD_IS_BASE,
                f"the {card_name(card)} is a base: bases reach the grid only by filling a space",
                **params,
            )
        if IS_TOP[top]:
            return err(  # type: ignore[no-any-return]
                codes.TARGET_COMPLETE,
                f"nothing goes on the {card_name(top)}: its sequence ends there",
                **params,
            )
        if SUIT_OF[card] != SUIT_OF[top]:
            return err(  # type: ignore[no-any-return]
                codes.WRONG_SUIT,
                f"the {card_name(card)} does not go on the {card_name(top)}: "
                "piles are built in suit",
                **params,
            )
        if NEXT[top] != card:
            return err(  # type: ignore[no-any-return]
                codes.WRONG_RANK,
                f"the {card_name(card)} does not go on the {card_name(top)}: "
                f"it takes the {card_name(NEXT[top])}",
                need=CARD_CODES[NEXT[top]],
                **params,
            )
        return None

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal in this position."""
        return self.reason(move) is None

    # ------------------------------------------------------------ making moves
    def parse_move(self, text: str) -> Move:
        """Parse move text (raises :class:`MoveError`); legality is not checked."""
        return Move.from_text(text)

    def play(self, move: Move) -> Move:
        """Checked door: check, push.  A rejected move changes nothing.

        Raises :class:`IllegalMoveError` (with a reason ``code``).  Playing
        the move that redo would play keeps the rest of the redo list; any
        other move clears it.  Text is read by :meth:`play_text`.
        """
        if not isinstance(move, Move):
            raise TypeError(
                f"play takes a Move, not {type(move).__name__} (text goes to play_text)"
            )
        problem = self.reason(move)
        if problem is not None:
            raise problem
        self.push(move)
        if self._redo and self._redo[-1] == move:
            self._redo.pop()
        else:
            self._redo.clear()
        return move

    def play_text(self, text: str) -> Move:
        """The text door: read one move (:class:`MoveError` if unreadable), then :meth:`play` it.

        >>> Game(1).play_text("d")
        Move.from_text('d')
        """
        return self.play(Move.from_text(text))

    def play_all(self, moves: Iterable[Move]) -> list[Move]:
        """Play a list of moves; on an illegal one raise with its number (from 1).

        The moves before the bad one stay played.
        """
        return self._play_each(moves, self.play)

    def play_all_text(self, text: str) -> list[Move]:
        """Play moves written as text, separated by spaces or commas (``12.`` numbers
        skipped); on an unreadable or illegal one raise with its number (from 1).

        The moves before the bad one stay played.
        """
        return self._play_each(split_move_text(text), self.play_text)

    def _play_each(self, items: Iterable[_T], door: Callable[[_T], Move]) -> list[Move]:
        played: list[Move] = []
        for i, item in enumerate(items, start=1):
            try:
                played.append(door(item))
            except (MoveError, IllegalMoveError) as exc:
                exc.params["number"] = self.moves_played + 1
                exc.params["index"] = i
                raise
        return played

    def push(self, move: Move) -> None:
        """Fast door: play a move known to be legal (not checked)."""
        k = move.kind
        if k == _DEAL:
            stock, talon = self.stock, self.talon
            n = min(self.rules.draw, len(stock))
            for _ in range(n):
                talon.append(stock.pop())
            self._stack.append((move, n))
        elif k == _BUILD:
            grid = self.grid
            src, dst = move.src, move.dst
            source = grid[src]
            if self.rules.move_unit == "run":
                i = source.index(NEXT[grid[dst][-1]])
            else:
                i = len(source) - 1
            grid[dst] = grid[dst] + source[i:]
            fill = _FILL_NONE
            if i:
                grid[src] = source[:i]
            elif self.stock:
                grid[src] = (self.stock.pop(),)
                fill = _FILL_STOCK
            elif self.talon and self.rules.fill_from_talon:
                grid[src] = (self.talon.pop(),)
                fill = _FILL_TALON
            else:
                grid[src] = ()
            self._stack.append((move, (len(source) - i) << 2 | fill))
        elif k == _TALON:
            self.grid[move.dst] = (*self.grid[move.dst], self.talon.pop())
            self._stack.append((move, 0))
        elif k == _SWAP:
            grid = self.grid
            grid[move.src], grid[move.dst] = grid[move.dst], grid[move.src]
            self._stack.append((move, 0))
        else:  # redeal
            self.talon.reverse()
            self.stock, self.talon = self.talon, []
            self.redeals_done += 1
            self._stack.append((move, 0))

    def pop(self) -> Move:
        """Undo the last move exactly and return it (the redo list is untouched)."""
        move, info = self._stack.pop()
        k = move.kind
        if k == _DEAL:
            stock, talon = self.stock, self.talon
            for _ in range(info):
                stock.append(talon.pop())
        elif k == _BUILD:
            grid = self.grid
            src, dst = move.src, move.dst
            n, fill = info >> 2, info & 3
            source = grid[src]
            if fill == _FILL_STOCK:
                self.stock.append(source[0])
                source = ()
            elif fill == _FILL_TALON:
                self.talon.append(source[0])
                source = ()
            target = grid[dst]
            grid[src] = source + target[-n:]
            grid[dst] = target[:-n]
        elif k == _TALON:
            target = self.grid[move.dst]
            self.talon.append(target[-1])
            self.grid[move.dst] = target[:-1]
        elif k == _SWAP:
            grid = self.grid
            grid[move.src], grid[move.dst] = grid[move.dst], grid[move.src]
        else:
            self.stock.reverse()
            self.talon, self.stock = self.stock, []
            self.redeals_done -= 1
        return move

    def last_effect(self) -> MoveEffect | None:
        """What the last move played did (None before the first move)."""
        if not self._stack:
            return None
        move, info = self._stack[-1]
        k = move.kind
        grid = self.grid
        if k == _DEAL:
            return MoveEffect(move, tuple(self.talon[len(self.talon) - info:]))
        if k == _TALON:
            pile = grid[move.dst]
            return MoveEffect(move, (pile[-1],), onto=pile[-2])
        if k == _BUILD:
            n, fill = info >> 2, info & 3
            target = grid[move.dst]
            source = grid[move.src]
            emptied = fill != _FILL_NONE or not source
            return MoveEffect(
                move,
                tuple(target[-n:]),
                onto=target[-n - 1],
                emptied=emptied,
                fill=source[0] if fill != _FILL_NONE else None,
                fill_from=(Source.STOCK if fill == _FILL_STOCK
                           else Source.TALON if fill == _FILL_TALON else None),
            )
        if k == _SWAP:
            return MoveEffect(move, piles=(grid[move.src], grid[move.dst]))
        return MoveEffect(move)

    def preview(self, move: Move, *, checked: bool = True) -> MoveEffect:
        """What ``move`` would do here (checked like :meth:`play`; the game is unchanged).

        The effect names the card that would fill a space: a screen or a hint
        that must not show the stock's order leaves ``fill`` out.  ``checked=False``
        skips the check, for a move known legal (one of :meth:`generate_moves`'), as
        :meth:`push` does.
        """
        if not isinstance(move, Move):
            raise TypeError(f"preview takes a Move, not {type(move).__name__}")
        problem = self.reason(move) if checked else None
        if problem is not None:
            raise problem
        self.push(move)
        try:
            effect = self.last_effect()
        finally:
            self.pop()
        assert effect is not None
        return effect

    def undo(self) -> Move:
        """Take back the last move; :meth:`redo` plays it again."""
        if not self.can_undo:
            raise IllegalMoveError(codes.NOTHING_TO_UNDO, "there is no move to undo")
        move = self.pop()
        self._redo.append(move)
        return move

    def redo(self) -> Move:
        """Play again the last move undone."""
        if not self.can_redo:
            raise IllegalMoveError(codes.NOTHING_TO_REDO, "there is no move to redo")
        move = self._redo.pop()
        self.push(move)
        return move

    def give_up(self) -> None:
        """End the game now; its score is counted as it stands.

        A won game cannot be given up (:class:`IllegalMoveError` ``game-won``);
        giving up twice changes nothing.  A given-up game has no legal moves.
        """
        if self.is_won():
            raise IllegalMoveError(codes.GAME_WON, "the game is won: there is nothing to give up")
        self.given_up = True

    # ------------------------------------------------------------- game over
    def is_over(self) -> bool:
        """True when no card can ever enter the grid again (RULES.md, "End of the game").

        Decided in closed form, without search: [the end of the game][game-over] (docs/solver.md).
        """
        if not self.stock and not self.talon:
            return True
        grid = self.grid
        tops = {p[-1] for p in grid if p}
        can_redeal = self._can_redeal()
        # stock empty here means the talon is not: it fills directly or after a redeal
        can_fill = bool(self.stock) or self.rules.fill_from_talon or can_redeal
        if can_fill:
            run = self.rules.move_unit == "run"
            for p in grid:
                if p and PREV[p[0]] in tops and (
                    run or all(c in tops for c in p[:-1])
                ):
                    return False
        k = self.rules.draw
        talon, stock = self.talon, self.stock
        if talon and PREV[talon[-1]] in tops:
            return False
        m = len(stock)
        for j in range(k, m + k, k):  # the tops turned by dealing this stock
            if PREV[stock[max(m - j, 0)]] in tops:
                return False
        if can_redeal:
            seq = talon + stock[::-1]
            n = len(seq)
            for j in range(k, n + k, k):
                if PREV[seq[min(j, n) - 1]] in tops:
                    return False
        return True

    # --------------------------------------------------------------- the view
    def view(self, with_legal: bool = True) -> View:
        """What a player may see (see :class:`View`)."""
        known = self.redeals_done > 0
        return View(
            rules=self.rules,
            grid=tuple(self.grid),
            talon=tuple(self.talon),
            stock_count=len(self.stock),
            stock_order=tuple(reversed(self.stock)) if known else None,
            unseen=() if known else tuple(sorted(self.stock)),
            redeals_done=self.redeals_done,
            redeals_left=self.redeals_left,
            moves_played=self.moves_played,
            score=self.score,
            rating=self.rating,
            over=self.is_over(),
            won=self.is_won(),
            given_up=self.given_up,
            legal=tuple(self.generate_moves(swaps=False)) if with_legal else (),
        )

    def key(self) -> tuple[tuple[Pile, ...], tuple[Card, ...], tuple[Card, ...], int]:
        """A hashable state: grid, stock, talon and redeals done (not the history)."""
        return (tuple(self.grid), tuple(self.stock), tuple(self.talon), self.redeals_done)

    # -------------------------------------------------------------- arrange
    def arrangement(self) -> list[Move]:
        """Swaps that put jacks in the top row, queens in the middle, kings below.

        Empty unless the game is won.  Piles already in their row stay put;
        every swap puts at least one pile into its row.
        """
        if not self.is_won():
            return []
        grid = list(self.grid)
        want = [p[-1] % 12 - 9 for p in grid]  # 0 jack, 1 queen, 2 king
        moves: list[Move] = []
        for cell in range(GRID_SIZE):
            row = cell // COLUMNS
            if want[cell] == row:
                continue
            # prefer a pile that belongs here and wants to go where ours wants
            candidates = [
                c for c in range(cell + 1, GRID_SIZE) if want[c] == row and c // COLUMNS != row
            ]
            best = next((c for c in candidates if c // COLUMNS == want[cell]), candidates[0])
            moves.append(SWAPS[cell][best])
            grid[cell], grid[best] = grid[best], grid[cell]
            want[cell], want[best] = want[best], want[cell]
        return moves

    # ------------------------------------------------------- text: positions
    def position(self) -> str:
        """The whole state as one line (like FEN).

        Six fields separated by spaces: the grid (rows separated by ``/``,
        cells by ``,``, each pile its card codes bottom to top, ``-`` empty),
        the stock from its top, the talon in the order turned (top last), the
        redeals done, the moves played, and the rules.
        """
        rows = []
        for r in range(0, GRID_SIZE, COLUMNS):
            rows.append(",".join(format_cards(p) for p in self.grid[r : r + COLUMNS]))
        return " ".join(
            [
                "/".join(rows),
                format_cards(reversed(self.stock)),
                format_cards(self.talon),
                str(self.redeals_done),
                str(self._moves_before + self.moves_played),
                str(self.rules),
            ]
        )

    def _load_position(self, text: str) -> None:
        fields = text.split()
        if len(fields) not in (5, 6):
            raise PositionError(
                codes.POSITION_FIELDS,
                f"a position has 6 fields separated by spaces, found {len(fields)}",
                found=len(fields),
            )
        grid_text, stock_text, talon_text, redeals_text, *rest = fields
        moves_text = rest[0] if len(rest) == 2 else "0"
        rules_text = rest[-1]
        try:
            rules = Rules.parse(rules_text)
        except RulesError as exc:
            raise PositionError(codes.POSITION_RULES, f"bad rules in position: {exc}") from exc
        rows = grid_text.split("/")
        if len(rows) != 3 or any(len(r.split(",")) != COLUMNS for r in rows):
            raise PositionError(
                codes.POSITION_GRID, "the grid needs 3 rows of 8 cells (rows by '/', cells by ',')"
            )
        try:
            grid = [tuple(parse_cards(cell)) for r in rows for cell in r.split(",")]
            stock = parse_cards(stock_text)[::-1]
            talon = parse_cards(talon_text)
        except CardError as exc:
            raise PositionError(codes.POSITION_CARD, f"bad card in position: {exc}") from exc
        for i, pile in enumerate(grid):
            for a, b in itertools.pairwise(pile):
                if NEXT[a] != b:
                    raise PositionError(
                        codes.POSITION_PILE,
                        f"pile {CELL_NAMES[i]} is not built in suit sequence",
                        cell=CELL_NAMES[i],
                    )
        counts = Counter(c for p in grid for c in p) + Counter(stock) + Counter(talon)
        wrong = [c for c in range(N_CARDS) if counts.get(c, 0) != 2]
        if wrong:
            raise PositionError(
                codes.POSITION_CARDS,
                "every card must appear exactly twice: "
                + ", ".join(f"{CARD_CODES[c]} ({counts.get(c, 0)})" for c in wrong),
            )
        redeals = parse_number(redeals_text, MAX_COUNT)
        moves_before = parse_number(moves_text, MAX_COUNT)
        if redeals is None or moves_before is None or max(redeals, moves_before) > MAX_COUNT:
            raise PositionError(
                codes.POSITION_COUNTS,
                f"redeals and moves must be whole numbers from 0 to {MAX_COUNT}",
                max=MAX_COUNT,
            )
        if rules.redeals is not None and redeals > rules.redeals:
            raise PositionError(
                codes.POSITION_REDEALS,
                f"{redeals} redeals done but the rules allow {rules.redeals}"
            )
        self.rules = rules
        self.grid = grid
        self.stock = stock
        self.talon = talon
        self.redeals_done = redeals
        self._moves_before = moves_before

    def __repr__(self) -> str:
        return f"Game.from_position({self.position()!r})"

    def __str__(self) -> str:
        return self.position()


def _deck_text(cards: Iterable[Card]) -> str:
    """A list of card ints as a deck string; raises :class:`DeckError` for a non-card."""
    words: list[str] = []
    for pos, card in enumerate(cards, start=1):
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < N_CARDS:
            raise DeckError(codes.DECK_UNKNOWN_CARD, f"position {pos}: unknown card '{card!r}'",
                            position=pos, card=repr(card)[:20])
        words.append(CARD_CODES[card])
    return " ".join(words)
