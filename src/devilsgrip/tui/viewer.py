"""The line viewer: a line of moves stepped through on the grid, as the page's viewer does.

It shows the best line of a deal, or a reviewed game as it was played with its
costly moves marked: the move played (``↑`` before the names of its places) and
the better one (``»``), told beside the table.  It draws the steps it is given
(:func:`devilsgrip.table.lines.best_line_steps`, :func:`~devilsgrip.table.lines.review_steps`)
and changes nothing of the player's game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from devilsgrip.cards import GRID_SIZE
from devilsgrip.i18n import N_, _
from devilsgrip.table.lines import LineStep
from devilsgrip.table.places import STOCK, TALON
from devilsgrip.tui.widgets import (
    HINT_MARK,
    PICKED_MARK,
    KeyBar,
    KeyHint,
    Packed,
    PileCell,
    PileGrid,
    PlaceWidget,
    StockBox,
    TalonBox,
)

PLAY_STEP: Final = 0.6
"""Seconds between two moves while the line plays by itself."""


class LineViewer(Screen[None]):
    """A line stepped through on the grid (``steps``: its positions, from the deal).

    ``title`` names the line in the panel's border; ``notes`` are told under it at
    every step (how sure a best line is).  A review's costly moves are reached with
    PgUp and PgDn; the viewer opens at step ``start``.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", N_("one move back"), key_display="←"),
        Binding("right", "step(1)", N_("one move on"), key_display="→"),
        Binding("pageup", "costly(-1)", N_("previous costly move"), key_display="PgUp"),
        Binding("pagedown", "costly(1)", N_("next costly move"), key_display="PgDn"),
        Binding("space", "play", N_("play"), key_display=N_("Space")),
        Binding("home", "go(0)", N_("the deal"), key_display="Home"),
        Binding("end", "go(-1)", N_("the end"), key_display="End"),
        Binding("escape,q", "close", N_("back to the game"), key_display="Esc"),
        Binding("m", "more_keys", N_("more"), show=False),
    ]

    index: reactive[int] = reactive(0, init=False)
    playing: reactive[bool] = reactive(False, init=False)

    def __init__(self, steps: Sequence[LineStep], title: str, *, notes: Sequence[str] = (),
                 start: int = 0, four_colour: bool = False) -> None:
        super().__init__()
        if not steps:
            raise ValueError("a line has at least its start")
        self.steps = list(steps)
        self.title_text = title
        self.notes = list(notes)
        self.four_colour = four_colour
        self.costly = [i for i, s in enumerate(self.steps) if s.played]
        self.set_reactive(LineViewer.index, max(0, min(start, len(self.steps) - 1)))
        self._timer: Timer | None = None
        self._cells: list[PileCell] = []

    @property
    def step(self) -> LineStep:
        """The step shown."""
        return self.steps[self.index]

    def compose(self) -> ComposeResult:
        with Vertical(id="table"):
            with PileGrid(id="grid"):
                for cell in range(GRID_SIZE):
                    widget = PileCell(cell)
                    widget.four_colour = self.four_colour
                    self._cells.append(widget)
                    yield widget
            with Horizontal(id="bottom"):
                yield StockBox()
                yield TalonBox()
                yield Packed(id="info")
            yield Static(id="status")
            yield KeyBar(id="keys")

    def on_mount(self) -> None:
        self.query_one("#info", Packed).border_title = self.title_text
        self._show()

    # ------------------------------------------------------------ drawing
    def watch_index(self) -> None:
        self._show()

    def watch_playing(self) -> None:
        self._show_keys()

    def _show(self) -> None:
        step = self.step
        for cell, widget in enumerate(self._cells):
            widget.pile = step.grid[cell]
            widget.picked = cell in step.played
            widget.hinted = cell in step.better
        stock = self.query_one(StockBox)
        talon = self.query_one(TalonBox)
        stock.count = step.stock
        talon.cards = step.talon[-3:]
        talon.count = len(step.talon)
        boxes: tuple[tuple[int, PlaceWidget], ...] = ((STOCK, stock), (TALON, talon))
        for place, box in boxes:
            box.four_colour = self.four_colour
            box.picked = place in step.played
            box.hinted = place in step.better
        items: list[Text | str] = []
        if step.played_text:
            items.append(f"{PICKED_MARK} {step.played_text}")
        if step.better_text:
            items.append(f"{HINT_MARK} {step.better_text}")
        if step.seen:
            items.append(step.seen)
        if not items:
            items = list(self.notes)
        self.query_one("#info", Packed).items = tuple(
            Text(i) if isinstance(i, str) else i for i in items)
        self.query_one("#status", Static).update(step.caption)
        self._show_keys()

    def key_hints(self) -> tuple[KeyHint, ...]:
        """The keys that do something at this step, in the order of :attr:`BINDINGS`."""
        last = len(self.steps) - 1
        hints: list[KeyHint] = []
        for binding in self.BINDINGS:
            assert isinstance(binding, Binding)
            if not binding.show:
                continue
            action = binding.action
            if action == "step(-1)" or action == "go(0)":
                if self.index == 0:
                    continue
            elif action == "step(1)" or action == "go(-1)" or action == "play":
                if self.index == last and not self.playing:
                    continue
            elif action.startswith("costly"):
                ahead = [i for i in self.costly
                         if (i < self.index if action == "costly(-1)" else i > self.index)]
                if not ahead:
                    continue
            label = _("pause") if action == "play" and self.playing else _(binding.description)
            key = _(binding.key_display) if binding.key_display == "Space" \
                else binding.key_display or binding.key
            hints.append(KeyHint(key, label, action == "close"))
        return tuple(hints)

    def _show_keys(self) -> None:
        self.query_one(KeyBar).hints = self.key_hints()

    # ------------------------------------------------------------ actions
    def action_step(self, delta: int) -> None:
        self._stop()
        self.index = max(0, min(len(self.steps) - 1, self.index + delta))

    def action_go(self, where: int) -> None:
        self._stop()
        self.index = where % len(self.steps)

    def action_costly(self, direction: int) -> None:
        self._stop()
        ahead = [i for i in self.costly if (i < self.index if direction < 0 else i > self.index)]
        if ahead:
            self.index = ahead[-1] if direction < 0 else ahead[0]

    def action_play(self) -> None:
        """Space: the line plays by itself (from the deal once at its end), or pauses."""
        if self.playing:
            self._stop()
            return
        if self.index == len(self.steps) - 1:
            return
        self.playing = True
        self._timer = self.set_interval(PLAY_STEP, self._tick)

    def _tick(self) -> None:
        if self.index >= len(self.steps) - 1:
            self._stop()
            return
        self.index += 1
        if self.index >= len(self.steps) - 1:
            self._stop()

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.playing = False

    def action_more_keys(self) -> None:
        self.query_one(KeyBar).turn_page()

    def action_close(self) -> None:
        self._stop()
        self.dismiss(None)

    def on_place_widget_clicked(self, event: PlaceWidget.Clicked) -> None:
        event.stop()  # a viewer's table is not played on
