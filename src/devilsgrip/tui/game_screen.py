"""The main screen: the table, the cursor, and the keys and clicks that make moves.

The screen holds no rule and no lifecycle decision of its own: it turns keys
and clicks into places, and the table layer (:mod:`devilsgrip.table`) says
what a drop means and tells every move in words; the
:class:`~devilsgrip.session.PlaySession` checks, saves and ends games.
Whatever needs the application (a new game, a dialog, statistics, the
colours, quitting) is posted up as a message; the application hands the
session and the settings down.  What the screen shows lives in reactive
attributes (:attr:`shown`, :attr:`cursor`, :attr:`picked`, ...): setting one
redraws what depends on it.

:attr:`GameScreen.BINDINGS` is the one list of keys: the key bar shows those
that apply now (:meth:`GameScreen.key_hints`) and the help lists them all
(:meth:`GameScreen.help_rows`).
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple

from rich.console import Console
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from devilsgrip import codes, table
from devilsgrip.cards import CELL_NAMES, COLUMNS, GRID_SIZE, Card
from devilsgrip.errors import DevilsGripError
from devilsgrip.game import Move, Pile
from devilsgrip.i18n import N_, _
from devilsgrip.table import DEAL, REDEAL, STOCK, TALON, Event, Guide, Place, Words
from devilsgrip.table.controller import ACTIONS, HintJob, Outcome, Refusal, Table, search_hint
from devilsgrip.table.lines import LineStep, best_line_steps, review_steps
from devilsgrip.table.reviews import LONGER_REVIEW
from devilsgrip.tui.places import PLACES, step
from devilsgrip.tui.screens import (
    LOOK_LONGER,
    ConfirmScreen,
    DailyScreen,
    DealNumberScreen,
    GameOverScreen,
    HelpScreen,
    ReviewScreen,
    ShareScreen,
)
from devilsgrip.tui.viewer import LineViewer
from devilsgrip.tui.widgets import (
    InfoPanel,
    KeyBar,
    KeyHint,
    PileCell,
    PileGrid,
    PlaceWidget,
    StockBox,
    TalonBox,
)

if TYPE_CHECKING:
    from textual.screen import ScreenResultCallbackType

    from devilsgrip.table.controller import Hint

MEASURE_WIDTH: Final = 400
GRID_LINES: Final = 15
"""The grid's lines at 80x24: three rows of cells, each a card with the cards beneath it."""
BOTTOM_LINES: Final = 6
"""The lines of the stock, the talon and the info panel (see devilsgrip.tcss)."""
CLOCK_TICK: Final = 1.0
"""How often the info panel's clock is drawn again, in seconds."""
_MEASURE: Final = Console(file=io.StringIO(), width=MEASURE_WIDTH)
"""A console that only measures how a message wraps (nothing is printed on it)."""
BOTTOM_FEWEST: Final = 4
"""The fewest lines of that row: the stock and the talon still show their cards."""
STATUS_LINES: Final = (2, 6)
"""The fewest and the most lines of the status area."""
MIN_WIDTH: Final = 80
MIN_HEIGHT: Final = 24
"""The smallest terminal the table fits in; below it the screen says so."""

CURSOR_KEYS: Final = Binding.Group(N_("move the cursor over the grid, the stock and the talon"))
ALWAYS: Final = frozenset({"help", "quit"})
"""Actions whose keys the key bar always shows."""
ANY_TIME: Final = ALWAYS | {"more_keys"}
KEY_NAMES: Final = {
    "enter": N_("Enter"), "space": N_("Space"), "escape": N_("Esc"), "question_mark": "?",
    "left": "←", "right": "→", "up": "↑", "down": "↓", "tab": "Tab",
    "shift+tab": N_("Shift+Tab"), "f1": "F1",
}
"""How the help names a key (translated); other keys are shown as they are typed."""
ARROWS: Final = frozenset("←→↑↓")


def _keys_text(keys: list[str]) -> str:
    """``←→↑↓, Tab, Shift+Tab``: the arrows together, the other keys after them."""
    arrows = "".join(k for k in keys if k in ARROWS)
    return ", ".join(([arrows] if arrows else []) + [k for k in keys if k not in ARROWS])


class Said(NamedTuple):
    """A message of the status area; ``error`` for a refusal or a problem."""

    text: str
    error: bool = False


REVIEW_TICK: Final = 0.5
"""Seconds between two redraws of a running review's progress."""


@dataclass
class _ReviewRun:
    """A review being worked out: while which game is on screen (``token``), of which game
    (``game``: None for that one), since when, and what the status area said of it last."""

    token: int
    began: float
    said: Said
    timer: Timer
    game: int | None = None
    """The stored game reviewed when it is not the one on screen (one of the history)."""
    limit: float = 0.0
    """The most time it may take, in seconds."""


class Shown(NamedTuple):
    """What the table shows of the session, taken after every change."""

    grid: tuple[Pile, ...]
    stock: int
    talon: tuple[Card, ...]
    about: table.Summary
    saving: bool
    over: bool
    won: bool
    applies: frozenset[str]
    """The game's actions that may be taken now (the controller's answer)."""


class GameScreen(Screen[None]):
    """The table: grid, stock, talon, score; a cursor; a status area; the keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1, 0)", N_("cursor"), show=False, group=CURSOR_KEYS),
        Binding("right", "cursor(1, 0)", N_("cursor"), show=False, group=CURSOR_KEYS),
        Binding("up", "cursor(0, -1)", N_("cursor"), show=False, group=CURSOR_KEYS),
        Binding("down", "cursor(0, 1)", N_("cursor"), show=False, group=CURSOR_KEYS),
        Binding("tab", "next_place(1)", N_("cursor"), show=False, group=CURSOR_KEYS),
        Binding("shift+tab", "next_place(-1)", N_("cursor"), show=False, group=CURSOR_KEYS),
        Binding("f1", "help", N_("help"), key_display="F1",
                tooltip=N_("the rules and every key (this page)")),
        Binding("enter,space", "activate", N_("pick up"), key_display="⏎",
                tooltip=N_("pick up the pile under the cursor (or the talon's top card), then "
                           "drop it where it should go; on the stock: deal")),
        Binding("escape", "put_back", N_("put back"), key_display="Esc",
                tooltip=N_("put the picked-up cards back")),
        Binding("x", "swap", N_("swap"),
                tooltip=N_("swap the picked-up pile with the pile under the cursor")),
        Binding("d", "deal", N_("deal"), tooltip=N_("deal from the stock onto the talon")),
        Binding("r", "redeal", N_("redeal"),
                tooltip=N_("redeal: the talon becomes the stock again, once the stock is "
                           "empty")),
        Binding("u", "undo", N_("undo"), tooltip=N_("undo the last move")),
        Binding("h,question_mark", "hint", N_("hint"), key_display="h",
                tooltip=N_("hint: a good move for what you can see, and why")),
        Binding("G,shift+g", "give_up", N_("give up"), key_display="G",
                tooltip=N_("give up: end the game now, scored as it stands")),
        Binding("v", "review", N_("review"),
                tooltip=N_("where this game lost its cards (once it has ended)")),
        Binding("b", "best_line", N_("best line"), show=False,
                tooltip=N_("the best line of this deal, knowing the stock (once the game "
                           "has ended, unless it was won)")),
        Binding("U,shift+u", "redo", N_("redo"), key_display="U",
                tooltip=N_("redo the move undone last")),
        Binding("n", "new_game", N_("new game"),
                tooltip=N_("new game (a game with moves asks first: leaving it ends it)")),
        Binding("R,shift+r", "restart", N_("restart"), key_display="R",
                tooltip=N_("restart: the same deal again, as a new game")),
        Binding("q", "quit", N_("quit"), tooltip=N_("quit (every move is already saved)")),
        Binding("S,shift+s", "share", N_("share"), key_display="S",
                tooltip=N_("share the result of a game that has ended (no card named)")),
        Binding("g", "deal_number", N_("deal by number"), show=False,
                tooltip=N_("deal a game by its number")),
        Binding("D,shift+d", "daily", N_("daily deal"), key_display="D", show=False,
                tooltip=N_("the daily deal: the same deal for everyone each day, your "
                           "results and streaks")),
        Binding("w", "winnable", N_("winnable deals"), show=False,
                tooltip=N_("new single-pass games from the deals proven winnable only: on "
                           "or off")),
        Binding("s", "stats", N_("statistics"), show=False,
                tooltip=N_("statistics of your games with these rules")),
        Binding("H,shift+h", "history", N_("game history"), key_display="H", show=False,
                tooltip=N_("your finished games, the latest first, to review one")),
        Binding("p", "choose_rules", N_("rules"), show=False,
                tooltip=N_("the rules of new games: classic, single pass or literal")),
        Binding("l", "choose_language", N_("language"), show=False,
                tooltip=N_("the language of the game (English, Français, Dansk, Español, "
                           "Magyar)")),
        Binding("c", "four_colour", N_("four colours"), show=False,
                tooltip=N_("four-colour deck on or off")),
        Binding("m", "more_keys", N_("more"), show=False,
                tooltip=N_("the key bar's next keys, when they do not all fit in it")),
    ]

    cursor: reactive[Place] = reactive(0, init=False)
    picked: reactive[Place | None] = reactive(None, init=False)
    hint_places: reactive[tuple[Place, ...]] = reactive((), init=False)
    said: reactive[Said] = reactive(Said(""), init=False)
    shown: reactive[Shown | None] = reactive(None, init=False)
    four_colour: reactive[bool] = reactive(False, init=False)
    busy: reactive[bool] = reactive(False, init=False)
    """True while the win's arrangement plays: keys wait."""
    too_small: reactive[bool] = reactive(False, init=False, toggle_class="-too-small")
    """The terminal is smaller than the table: a notice stands in its place."""

    # ------------------------------------------------------ messages up
    class NewGame(Message):
        """The player leaves this game for a new deal (``number``: that deal)."""

        def __init__(self, number: int | None = None) -> None:
            super().__init__()
            self.number = number

    class PlayAgain(Message):
        """The player leaves this game for a new game of the same deal."""

    class PlayDaily(Message):
        """The player leaves this game for the daily deal of ``day`` (``YYYY-MM-DD``)."""

        def __init__(self, day: str) -> None:
            super().__init__()
            self.day = day

    class ToggleWinnable(Message):
        """Winnable deals only for new single-pass games, on or off (the application keeps
        the setting)."""

    class ShowStats(Message):
        def __init__(self, rules: str) -> None:
            super().__init__()
            self.rules = rules

    class ShowHistory(Message):
        """The player's finished games, to review one (the application keeps the store)."""

    class ChooseRules(Message):
        """The rules of new games, to choose (the application keeps the setting)."""

    class ChooseLanguage(Message):
        """The language of the game, to choose (the application keeps the setting)."""

    class ToggleFourColour(Message):
        """The four-colour deck on or off (the application keeps the setting)."""

    class Quit(Message):
        """The player closes the terminal game."""

    class GuideSeen(Message):
        """The player's first action put the first-game guide away (for every screen)."""

    class OpenDialog(Message):
        """Show ``dialog`` over the table; its answer goes to ``answered``."""

        def __init__(self, dialog: Screen[Any],
                     answered: ScreenResultCallbackType[Any] | None = None) -> None:
            super().__init__()
            self.dialog = dialog
            self.answered = answered

    # ------------------------------------------- messages from the workers
    class HintFound(Message):
        bubble = False

        def __init__(self, hint: Hint | None, job: HintJob, token: int) -> None:
            super().__init__()
            self.hint = hint
            self.job = job
            self.token = token

    class SearchFailed(Message):
        """A hint, best line or review that could not be worked out (``what``)."""

        bubble = False

        def __init__(self, token: int, what: str = "hint") -> None:
            super().__init__()
            self.token, self.what = token, what

    class BestLineFound(Message):
        bubble = False

        def __init__(self, score: int, proven: bool, steps: list[LineStep],
                     token: int) -> None:
            super().__init__()
            self.score = score
            self.proven = proven
            self.steps = steps
            self.token = token

    def __init__(self, controller: Table, *, four_colour: bool = False,
                 hint_time: float = 1.0, solve_time: float = 10.0,
                 flourish_delay: float = 0.25, dialog_guard: float = 0.5,
                 warning: str | None = None, guide: Guide | None = None) -> None:
        super().__init__()
        self.guide = guide
        """The first-game guide while it is shown (None once put away, or seen before)."""
        self.table = controller
        """The one door to the game: every action goes through it."""
        self.set_reactive(GameScreen.four_colour, four_colour)
        self.hint_time = hint_time
        self.solve_time = solve_time
        self.dialog_guard = dialog_guard
        """Seconds the game-over dialog ignores keys for (those typed as it appears)."""
        self.solution_shown = False
        """The best line of this game has been shown (the game is final from then on)."""
        self.flourish_delay = flourish_delay
        self.memory = 0
        self.hint_move: Move | None = None
        self.display_grid: list[Pile] | None = None
        """The grid as shown when it differs from the game's (the arranged won grid)."""
        self._warning = warning
        self._token = 0
        self._review_run: _ReviewRun | None = None
        """The review being worked out, while it runs (its progress is shown)."""
        self._best_line_token: int | None = None
        """The game whose best line is being worked out, while it is."""
        self._was_over = controller.game.is_over()
        self._places: dict[Place, PlaceWidget] = {}
        self._pending: list[Move] = []
        self._saving = controller.session.saving

    @property
    def status(self) -> str:
        """The message the status area shows."""
        return self.said.text

    # ----------------------------------------------------------- building
    def compose(self) -> ComposeResult:
        with Vertical(id="table"):
            with PileGrid(id="grid"):
                for cell in range(GRID_SIZE):
                    widget = PileCell(cell)
                    self._places[cell] = widget
                    yield widget
            with Horizontal(id="bottom"):
                stock = StockBox()
                talon = TalonBox()
                self._places[STOCK] = stock
                self._places[TALON] = talon
                yield stock
                yield talon
                yield InfoPanel(id="info")
            yield Static(id="status")
            yield KeyBar(id="keys")
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self._arrange_if_won()
        self._paint_colours(self.four_colour)
        self._show_marks()
        self.sync()
        self.greet()
        self._fit(self.size.width, self.size.height)
        self.set_interval(CLOCK_TICK, self._tick)

    def _tick(self) -> None:
        """The clock on the info panel's lower border moves on."""
        if self.shown is not None:
            self.query_one("#info", InfoPanel).border_subtitle = self.info_footer()

    def info_footer(self) -> str:
        """The info panel's lower border: the play clock, and "not saving" when the game is
        not being kept (the items inside wrap; the border keeps the clock out of their way)."""
        assert self.shown is not None
        clock = _("time: {time}").format(time=table.clock_text(self.table.elapsed()))
        return clock if self.shown.saving else f"{_('not saving')}  ·  {clock}"

    # ------------------------------------------------------------ the size
    def on_resize(self, event: Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        self.too_small = width < MIN_WIDTH or height < MIN_HEIGHT
        self._show_said()
        if self.too_small:
            size = f"{MIN_WIDTH}x{MIN_HEIGHT}"
            self.query_one("#too-small", Static).update(Text.assemble(
                (_("The terminal is too small."), "bold"), "\n\n",
                _("The table needs {size}; this terminal is {width}x{height}. Make the window "
                  "larger and the game comes back.").format(size=size, width=width,
                                                            height=height),
                "\n\n", _("q: quit (every move is already saved)")))

    def watch_too_small(self) -> None:
        self._show_keys()

    # ---------------------------------------------------------- the session
    def set_table(self, controller: Table, event: Event | None = None,
                  warning: str | None = None) -> None:
        """Play another game on this screen (new game, play again, resume)."""
        self.table = controller
        session = controller.session
        self.picked = None
        self.busy = False
        self._pending = []
        self.display_grid = None
        self.solution_shown = False
        self._clear_hint()
        self._token += 1
        self._was_over = session.game.is_over()
        self._warning = warning
        self._arrange_if_won()
        self.sync()
        if event is not None and not warning and session.saving:
            self.say(table.say_event(event, session.game, Words()))
        else:
            self.greet()

    def relabel(self, guide: Guide | None) -> None:
        """Say everything again in the process language, which the player has just changed
        (``guide``: the first-game guide in it, if the guide is still shown)."""
        if self.guide is not None:
            self.guide = guide
        for widget in self._places.values():
            widget.relabel()
        self.sync()
        self.query_one("#info", InfoPanel).items = self.info_items()
        self._show_keys()
        self._fit(self.size.width, self.size.height)

    def greet(self) -> None:
        """The first line of a game: a problem to know about, else how to get help."""
        self._saving = self.table.session.saving
        problems = [p for p in (self._warning, table.saving_warning(self.table.session, Words()))
                    if p]
        self._warning = None
        if problems:
            self.say("  ".join(table.sentence(p) for p in problems), error=True)
        elif self.guide is not None:
            self.say(f"{self.guide.stock} {self.guide.build}")
        elif self.table.game.moves_played:
            self.say(_("Game resumed. Press F1 for the rules and keys."))
        else:
            self.say(_("New game. Press F1 for the rules and keys."))

    def _arrange_if_won(self) -> None:
        """A won game is shown arranged (its jacks, queens and kings in their rows)."""
        game = self.table.game
        if game.is_won():
            grid = list(game.grid)
            for move in game.arrangement():
                grid[move.src], grid[move.dst] = grid[move.dst], grid[move.src]
            self.display_grid = grid

    # ------------------------------------------------------------- drawing
    def sync(self) -> None:
        """Take what the table shows from the controller's snapshot (after every change)."""
        snap = self.table.snapshot()
        view = snap.view
        grid = self.display_grid if self.display_grid is not None else view.grid
        self.shown = Shown(
            grid=tuple(grid), stock=view.stock_count, talon=tuple(view.talon),
            about=snap.summary, saving=snap.saving, over=view.over, won=view.won,
            applies=snap.applies)

    def watch_shown(self, shown: Shown | None) -> None:
        if shown is None:
            return
        for cell in range(GRID_SIZE):
            widget = self._places[cell]
            assert isinstance(widget, PileCell)
            widget.pile = shown.grid[cell]
        stock = self._places[STOCK]
        talon = self._places[TALON]
        assert isinstance(stock, StockBox) and isinstance(talon, TalonBox)
        stock.count = shown.stock
        talon.cards = shown.talon[-3:]
        talon.count = len(shown.talon)
        info = self.query_one("#info", InfoPanel)
        info.heading = ((self.guide.title, shown.about.deal) if self.guide is not None
                        else (shown.about.deal, shown.about.rules))
        info.border_subtitle = self.info_footer()
        info.set_class(not shown.saving, "-not-saving")
        info.items = self.info_items()
        self._show_keys()

    def watch_four_colour(self, four_colour: bool) -> None:
        self._paint_colours(four_colour)
        self.say(_("Four-colour deck on.") if four_colour else _("Four-colour deck off."))

    def _paint_colours(self, four_colour: bool) -> None:
        for widget in self._places.values():
            widget.four_colour = four_colour

    def watch_cursor(self) -> None:
        self._show_marks()
        self._show_keys()

    def watch_picked(self) -> None:
        self._show_marks()
        self._show_keys()

    def watch_hint_places(self) -> None:
        self._show_marks()

    def watch_busy(self) -> None:
        self._show_keys()

    def _show_marks(self) -> None:
        for place, widget in self._places.items():
            widget.cursor = place == self.cursor
            widget.picked = place == self.picked
            # the guide points at the stock as a hint does (» before its name)
            widget.hinted = place in self.hint_places or (
                self.guide is not None and place == STOCK)

    def watch_said(self) -> None:
        self._show_said()

    def _show_said(self) -> None:
        """The message in the status area, never in the grid's room: a long one takes
        lines from the stock, talon and info row (down to :data:`BOTTOM_FEWEST`), and one
        too long even then ends in "…"."""
        said = self.said
        widget = self.query_one("#status", Static)
        width = max(1, self.size.width - 2)
        lines = Text(said.text).wrap(_MEASURE, width)
        spare = self.size.height - GRID_LINES - 1  # the key bar's line
        room = min(STATUS_LINES[1], max(STATUS_LINES[0], len(lines)))
        bottom = max(BOTTOM_FEWEST, min(BOTTOM_LINES, spare - room))
        room = max(1, min(room, spare - bottom))
        self.query_one("#bottom").styles.height = bottom
        self.query_one("#info").styles.height = bottom
        widget.styles.height = room
        if len(lines) > room:
            kept = lines[:room]
            last = kept[-1]
            last.rstrip()
            last.truncate(width - 1)
            last.append("…")
            widget.update(Text("\n").join(kept))
        else:
            widget.update(said.text)
        widget.set_class(said.error, "-error")

    def info_items(self) -> tuple[Text, ...]:
        """The info panel's items (each kept whole when the panel wraps); while the guide
        is shown, the build order of each row of the grid."""
        assert self.shown is not None
        if self.guide is not None:
            return tuple(Text.assemble((f"{CELL_NAMES[row * COLUMNS]}–"
                                        f"{CELL_NAMES[row * COLUMNS + COLUMNS - 1]}  ", "bold"),
                                       order)
                         for row, order in enumerate(self.guide.rows))
        about = self.shown.about
        words = Words()
        items = [
            Text(_("score: {score}").format(score=about.score), style="bold"),
            Text(_("rating: {rating}").format(rating=about.rating)),
            Text(words.ngettext("{n} move", "{n} moves", about.moves).format(n=about.moves)),
            Text(about.redeals),
            Text(about.status, style="bold green" if self.shown.won else
                 "bold" if about.final or self.shown.over else ""),
        ]
        if about.best is not None:
            items.append(Text(_("best on this deal: {score}").format(score=about.best)))
        return tuple(items)

    def say(self, message: str, *, error: bool = False) -> None:
        """Show ``message`` in the status area (refusals in the error style)."""
        self.said = Said(message, error)

    def refuse(self, refusal: Refusal | DevilsGripError) -> None:
        """Show why an action was refused, in the error style."""
        text = refusal.text if isinstance(refusal, Refusal) else table.say_error(refusal, Words())
        self.say(text, error=True)

    # ------------------------------------------------------------- keys
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys wait while the win's arrangement plays or the table does not fit."""
        if action in ANY_TIME:
            return True
        return not (self.busy or self.too_small)

    def applies(self, action: str) -> bool:
        """Whether the key bar shows ``action``'s key now (every key works; the bar
        shows those that do something here)."""
        if self.too_small:
            return action == "quit"
        if self.busy:
            return action in ALWAYS
        held = self.picked is not None
        if action in ("put_back",):
            return held
        if action == "swap":
            return held and self.picked is not None and self.picked < GRID_SIZE
        if held:
            return action in ALWAYS | {"activate"}
        if action == "activate":
            return not self.table.session.final
        if action in ACTIONS:
            shown = self.shown
            return action in (shown.applies if shown is not None else
                              self.table.snapshot().applies)
        return True

    def key_label(self, binding: Binding) -> str:
        """What ``binding``'s key does now, in the player's language."""
        if binding.action == "activate":
            if self.picked is not None:
                return _("drop")
            if self.cursor == STOCK:
                return _("deal") if self.table.game.stock else _("redeal")
        return _(binding.description)

    def key_hints(self) -> tuple[KeyHint, ...]:
        """The key bar: the keys that apply now, in the order of :attr:`BINDINGS`."""
        hints: list[KeyHint] = []
        for binding in self._bindings_list():
            if not binding.show:
                continue
            action = binding.action.partition("(")[0]
            if not self.applies(action):
                continue
            key = binding.key_display or binding.key.split(",")[0]
            hints.append(KeyHint(key, self.key_label(binding), action in ALWAYS))
        return tuple(hints)

    @classmethod
    def _bindings_list(cls) -> list[Binding]:
        return [b for b in cls.BINDINGS if isinstance(b, Binding)]

    @classmethod
    def help_rows(cls) -> list[tuple[str, str]]:
        """Every key and what it does (translated), for the help; a group is one row."""
        rows: list[tuple[list[str], str]] = []
        groups: dict[str, list[str]] = {}
        for binding in cls._bindings_list():
            keys = [_(KEY_NAMES.get(k, k)) for k in binding.key.split(",")
                    if not k.startswith("shift+") or k == "shift+tab"]
            if binding.group is None:
                rows.append((keys, _(binding.tooltip or binding.description)))
            elif binding.group.description in groups:
                groups[binding.group.description].extend(keys)
            else:
                groups[binding.group.description] = keys
                rows.append((keys, _(binding.group.description)))
        return [(_keys_text(keys), what) for keys, what in rows]

    def _show_keys(self) -> None:
        self.query_one("#keys", KeyBar).hints = self.key_hints()

    # ------------------------------------------------------------- cursor
    def action_cursor(self, dx: int, dy: int) -> None:
        self.cursor, self.memory = step(self.cursor, dx, dy, self.memory)

    def action_next_place(self, direction: int) -> None:
        """Tab and Shift+Tab: the next place in reading order (a1 .. h3, stock, talon)."""
        place = PLACES[(PLACES.index(self.cursor) + direction) % len(PLACES)]
        if place < GRID_SIZE:
            self.memory = place % COLUMNS
        self.cursor = place

    @on(PlaceWidget.Clicked)
    def clicked(self, event: PlaceWidget.Clicked) -> None:
        if self.busy or self.too_small:
            return
        self.cursor = event.place
        if event.place < GRID_SIZE:
            self.memory = event.place % COLUMNS
        self.action_activate()

    # ------------------------------------------------------- pick and drop
    def action_activate(self) -> None:
        """Enter, space or a click: pick up what is under the cursor, or drop it there."""
        place = self.cursor
        if self.picked is None:
            if place == STOCK:
                self._act(self.table.stock)
                return
            try:
                picked = self.table.pick_up(place)
            except Refusal as refusal:
                self.refuse(refusal)
                return
            self.put_guide_away()
            self.picked = place
            self.say(picked.said)
            return
        source = self.picked
        self._act(lambda: self.table.drop(source, place))

    def action_swap(self) -> None:
        """``x``: swap the picked-up pile with the cell under the cursor."""
        if self.picked is None or self.picked >= GRID_SIZE or self.cursor >= GRID_SIZE:
            self.say(_("To swap, pick up a pile with Enter, move to another cell and press x."),
                     error=True)
            return
        source, target = self.picked, self.cursor
        self._act(lambda: self.table.drop(source, target, swap=True))

    def action_put_back(self) -> None:
        if self.picked is not None:
            self.picked = None
            self.say(table.say_event(Event("putback"), self.table.game, Words()))

    def put_guide_away(self) -> None:
        """The player's first action (it plays as usual) puts the guide away, for good."""
        if self.guide is None:
            return
        self.guide = None
        self._show_marks()
        self.watch_shown(self.shown)  # the info panel's own items again
        self.post_message(self.GuideSeen())

    # --------------------------------------------------------------- moves
    def play(self, move: Move) -> bool:
        """Ask the controller to play ``move``; show why when it is refused."""
        return self._act(lambda: self.table.play(move))

    def _act(self, action: Callable[[], Outcome]) -> bool:
        if self.busy:
            return False
        try:
            outcome = action()
        except Refusal as refusal:
            self.picked = None
            self._after_refusal(refusal)
            return False
        self.put_guide_away()
        if outcome.event.kind == "putback":
            self.picked = None
            self.say(outcome.said)
            return True
        self.after_change(outcome.said)
        return True

    def _after_refusal(self, refusal: Refusal) -> None:
        if refusal.kind == "changed":
            # another program changed this game: the session read it again
            self.display_grid = None
            self._arrange_if_won()
            self._was_over = self.table.game.is_over()
            self.sync()
            self.say(table.say_event(Event("changed"), self.table.game, Words()), error=True)
            return
        self.refuse(refusal)
        if refusal.code == codes.STOCK_EMPTY:
            self._say_after(_("Press r to turn the talon over: it becomes the stock again.")
                            if self.table.game.reason(REDEAL) is None else "")

    def _say_after(self, more: str) -> None:
        """Add ``more`` to the message shown (a key that helps after a refusal)."""
        if more:
            self.say(f"{self.said.text} {more}", error=self.said.error)

    def after_change(self, message: str) -> None:
        self.picked = None
        self._clear_hint()
        self._token += 1
        self.sync()
        if self._saving and not self.table.session.saving:
            self._saving = False
            message = table.saving_warning(self.table.session, Words()) or message
            self.say(message, error=True)
        else:
            self.say(message)
        self.check_over()

    def check_over(self) -> None:
        game = self.table.game
        ended = game.is_over() or self.table.session.final
        if ended and not self._was_over:
            self._was_over = True
            self.sync()
            if game.is_won():
                self.start_flourish()
            else:
                self.show_game_over()
        self._was_over = ended

    def action_deal(self) -> None:
        self.play(DEAL)

    def action_redeal(self) -> None:
        self.play(REDEAL)

    def action_undo(self) -> None:
        self._act(self.table.undo)

    def action_redo(self) -> None:
        self._act(self.table.redo)

    # ----------------------------------------------------- win and game over
    def start_flourish(self) -> None:
        """Show the arrangement's swaps one by one (on screen only), then the result."""
        self.busy = True
        game = self.table.game
        self._pending = list(game.arrangement())
        self.display_grid = list(game.grid)
        self.say(_("Won! Putting the jacks, queens and kings in their rows…"))
        self._next_flourish_step()

    def _next_flourish_step(self) -> None:
        delay = self.flourish_delay
        if delay > 0:
            self.set_timer(delay, self._flourish_step)
        else:
            self.call_later(self._flourish_step)

    def _flourish_step(self) -> None:
        grid = self.display_grid
        if not self._pending or grid is None:
            self.busy = False
            self.sync()
            self.say(table.say_end(self.table.session, Words()))
            self.show_game_over()
            return
        move = self._pending.pop(0)
        grid[move.src], grid[move.dst] = grid[move.dst], grid[move.src]
        self.sync()
        self._next_flourish_step()

    def show_game_over(self) -> None:
        game = self.table.game
        about = self.table.snapshot().summary
        screen = GameOverScreen(
            won=game.is_won(), score=game.score, rating=game.rating.value,
            moves=game.moves_played, best=about.best_before, final=about.final,
            given_up=game.given_up, new_best=about.new_best,
            why=table.say_why_ended(self.table.session, Words()), guard=self.dialog_guard,
            best_line=self.table.applies("best_line"),
            fastest_before=table.clock_text(about.fastest_before)
            if about.new_fastest and about.fastest_before is not None else None,
        )
        self.open_dialog(screen, self._game_over_done)

    def _game_over_done(self, choice: str | None) -> None:
        if choice == "new":
            self.post_message(self.NewGame())
        elif choice == "again":
            self.post_message(self.PlayAgain())
        elif choice == "undo":
            self.action_undo()
        elif choice == "best":
            self.show_best_line()
        elif choice == "review":
            self.show_review()
        elif choice == "share":
            self.action_share()
        elif choice == "quit":
            self.post_message(self.Quit())
        elif self.table.session.final:
            self.say(_("The game has ended. n: new game, R: play this deal again."))
        else:
            self.say(_("The game is over. n: new game, u: undo."))

    def open_dialog(self, dialog: Screen[Any],
                    answered: ScreenResultCallbackType[Any] | None = None) -> None:
        """Ask the application to show ``dialog``; ``answered`` receives its result."""
        self.post_message(self.OpenDialog(dialog, answered))

    # --------------------------------------------------------------- review
    class ReviewFound(Message):
        bubble = False

        def __init__(self, story: str, rows: list[str], steps: list[LineStep],
                     token: int, game: int | None = None, *, open_note: str | None = None,
                     controller: Table | None = None) -> None:
            super().__init__()
            self.story, self.rows, self.steps, self.token = story, rows, steps, token
            self.game = game
            self.open_note = open_note
            self.controller = controller

    def show_review(self, other: Table | None = None, *, longer: bool = False) -> None:
        """Where the game lost its cards: the game on screen (one that has ended: it is
        final from then on), or ``other``'s, a finished game of the history.  ``longer``:
        review it anew with more time (its review left values open)."""
        controller = self.table if other is None else other
        game = None if other is None else other.session.game_id
        run = self._review_run
        if run is not None and run.token == self._token and run.game == game:
            self._review_tick()  # already being worked out: how far it is
            return
        try:
            # at once: the keys shown are those of a final game
            if longer:
                controller.review_again_start()
            else:
                controller.review_start()
        except Refusal as refusal:
            self.refuse(refusal)
            return
        self.sync()
        self.say(_("Reviewing the game…"))
        self._end_review_run()
        limit = self.solve_time * (LONGER_REVIEW if longer else 1.0)
        self._review_run = _ReviewRun(self._token, time.monotonic(), self.said,
                                      self.set_interval(REVIEW_TICK, self._review_tick), game,
                                      limit)
        self.compute_review(controller, self._token, game, limit=limit, again=longer)

    def _review_tick(self) -> None:
        """The review's progress, as the time passes (one of its searches may take
        seconds), unless something else has been said since."""
        run = self._review_run
        if run is None or run.token != self._token:
            self._end_review_run()
            return
        if self.said != run.said:
            return  # the player did something else meanwhile: leave that said
        elapsed = time.monotonic() - run.began
        self.say(table.say_review_progress(elapsed, run.limit, Words()))
        run.said = self.said

    def _end_review_run(self, token: int | None = None) -> None:
        """No review runs any more (with ``token``: if it was that game's)."""
        run = self._review_run
        if run is None or (token is not None and run.token != token):
            return
        self._review_run = None
        run.timer.stop()

    @work(thread=True, exclusive=True, group="review", exit_on_error=False)
    def compute_review(self, controller: Table, token: int, game: int | None = None,
                       *, limit: float, again: bool = False) -> None:
        session = controller.session
        try:
            # its progress is told by the screen's timer (_review_tick): the seconds
            review = controller.review(time_limit=limit, again=again)
        except Exception:  # a failing review must not end the game
            self.post_message(self.SearchFailed(token, "review"))
            return
        words = Words()
        story = table.say_review(review, session.game, words)
        rows = [m.line for m in table.costly_moves(review, session.game, words)]
        steps = review_steps(session.game, review, words)
        self.post_message(self.ReviewFound(story, rows, steps, token, game,
                                           open_note=table.say_open_values(review, words),
                                           controller=controller))

    @on(ReviewFound)
    def _review_found(self, message: ReviewFound) -> None:
        run = self._review_run
        if run is not None and run.game != message.game:
            return  # another game's review was asked for since
        self._end_review_run(message.token)
        if message.token != self._token:
            return
        self.sync()
        self.say(message.story)
        steps = message.steps
        costly = [i for i, step in enumerate(steps) if step.played]

        open_note = message.open_note

        def chosen(row: int | None) -> None:
            """A costly move chosen in the list: the game shown at it, on the grid; or the
            review asked for anew, with more time."""
            if row == LOOK_LONGER:
                self.show_review(None if message.game is None else message.controller,
                                 longer=True)
                return
            if row is None or row >= len(costly):
                return
            self.open_dialog(LineViewer(steps, _("Review of this game"), start=costly[row],
                                        four_colour=self.four_colour),
                             lambda _closed: self.open_dialog(
                                 ReviewScreen(message.story, message.rows, chosen=row,
                                              open_note=open_note),
                                 chosen))

        self.open_dialog(ReviewScreen(message.story, message.rows, open_note=open_note),
                         chosen)

    # ------------------------------------------------------------ best line
    def show_best_line(self) -> None:
        """The solver's best line for this deal: once shown, the game's result stands."""
        try:
            self.table.best_line_start()
        except Refusal as refusal:
            self.refuse(refusal)
            return
        self.sync()
        self.say(_("Searching for the best line…"))
        if self._best_line_token == self._token:
            return  # already being worked out
        self._best_line_token = self._token
        self.compute_best_line(self.table, self._token)

    @work(thread=True, exclusive=True, group="best", exit_on_error=False)
    def compute_best_line(self, controller: Table, token: int) -> None:
        try:
            line = controller.best_line(time_limit=self.solve_time)
        except Exception:  # a failing search must not end the game
            self.post_message(self.SearchFailed(token, "best"))
            return
        steps = best_line_steps(line.start, line.moves, line.score, Words())
        self.post_message(self.BestLineFound(line.score, line.proven, steps, token))

    @on(BestLineFound)
    def _best_line_found(self, message: BestLineFound) -> None:
        if message.token == self._best_line_token:
            self._best_line_token = None
        if message.token != self._token:
            return
        self.solution_shown = True
        self.say(_("Best possible score: {score}").format(score=message.score) + ".")
        notes = [_("Best possible score: {score}").format(score=message.score) + ".",
                 _("Proven best for this deal.") if message.proven
                 else _("The best line found in the time allowed; it may be beaten."),
                 _("Watching the line leaves your game and its result as they are.")]
        self.open_dialog(LineViewer(message.steps, _("The best line"), notes=notes,
                                    four_colour=self.four_colour))

    # ---------------------------------------------------------------- hints
    def action_hint(self) -> None:
        try:
            job = self.table.hint_job()
        except Refusal as refusal:
            self.say(refusal.text, error=True)
            return
        self.say(_("Thinking of a hint…"))
        self.compute_hint(job, self._token)

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def compute_hint(self, job: HintJob, token: int) -> None:
        """In a worker thread: ask the honest player, then post the answer to the screen."""
        try:
            result = search_hint(job, time_limit=self.hint_time)
        except Exception:  # a failing hint must not end the game
            self.post_message(self.SearchFailed(token))
            return
        self.post_message(self.HintFound(result, job, token))

    @on(SearchFailed)
    def _search_failed(self, message: SearchFailed) -> None:
        if message.what == "review":
            self._end_review_run(message.token)
        elif message.what == "best" and message.token == self._best_line_token:
            self._best_line_token = None
        if message.token == self._token:
            said = {"review": _("The review could not be worked out this time."),
                    "best": _("The best line could not be worked out this time.")}
            self.say(said.get(message.what,
                              _("No hint this time: it could not be worked out.")), error=True)

    @on(HintFound)
    def _hint_found(self, message: HintFound) -> None:
        if message.token != self._token:
            return  # the game moved on while the hint was computed
        found = self.table.hint_found(message.job, message.hint)
        if found.move is None:
            self._clear_hint()
            self.say(found.text, error=True)
            return
        self.hint_move = found.move
        self.hint_places = found.places
        self.say(found.text)

    def _clear_hint(self) -> None:
        self.hint_move = None
        self.hint_places = ()

    # ---------------------------------------------- leaving and ending games
    def _leave_then(self, then: Message) -> None:
        """Post ``then`` (a new game, play again), asking first when it ends this game."""
        text = self.table.leave_warning()
        if text is None:
            self.post_message(then)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.post_message(then)
            else:
                self.say(_("You keep playing this game."))

        self.open_dialog(ConfirmScreen(_("Leave this game?"), text), answered)

    def action_review(self) -> None:
        self.show_review()

    def action_best_line(self) -> None:
        self.show_best_line()

    def action_new_game(self) -> None:
        self._leave_then(self.NewGame())

    def action_restart(self) -> None:
        self._leave_then(self.PlayAgain())

    def action_give_up(self) -> None:
        problem = self.table.give_up_refusal()
        if problem is not None:
            self.refuse(problem)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._act(self.table.give_up)
            else:
                self.say(_("You keep playing this game."))

        self.open_dialog(ConfirmScreen(
            _("Give up"), _("End this game now? It is scored as it stands.")), answered)

    def action_deal_number(self) -> None:
        self.open_dialog(DealNumberScreen(), self._deal_number_done)

    def _deal_number_done(self, number: int | None) -> None:
        if number is not None:
            self._leave_then(self.NewGame(number))

    # ------------------------------------------------- daily deal and share
    def action_daily(self) -> None:
        """The daily deal's calendar (for this game's rules); a day chosen there is played."""
        from datetime import date

        try:
            cal = self.table.daily_calendar(date.today())
        except Refusal as refusal:
            self.refuse(refusal)
            return
        self.open_dialog(DailyScreen(cal), self._daily_chosen)

    def _daily_chosen(self, day: str | None) -> None:
        if day is not None:
            self._leave_then(self.PlayDaily(day))

    def action_share(self) -> None:
        try:
            text = self.table.share()
        except Refusal as refusal:
            self.refuse(refusal)
            return
        self.open_dialog(ShareScreen(text))

    def action_winnable(self) -> None:
        self.post_message(self.ToggleWinnable())

    # ------------------------------------------------------- other screens
    def action_stats(self) -> None:
        self.post_message(self.ShowStats(str(self.table.game.rules)))

    def action_history(self) -> None:
        self.post_message(self.ShowHistory())

    def action_choose_rules(self) -> None:
        self.post_message(self.ChooseRules())

    def action_choose_language(self) -> None:
        self.post_message(self.ChooseLanguage())

    def action_help(self) -> None:
        self.open_dialog(HelpScreen(self.help_rows()))

    def action_four_colour(self) -> None:
        self.post_message(self.ToggleFourColour())

    def action_more_keys(self) -> None:
        """``m``: the key bar's next page of keys (when they do not all fit)."""
        self.query_one("#keys", KeyBar).turn_page()

    def action_quit(self) -> None:
        self.post_message(self.Quit())

