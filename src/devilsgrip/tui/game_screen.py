"""The main screen: the table, the cursor, and the keys and clicks that make moves.

The screen holds no rule of its own: it turns keys and clicks into
:class:`~devilsgrip.notation.Move` values and asks the engine through the
:class:`~devilsgrip.session.PlaySession`, which checks and saves them.  A
refused move is shown with its translated reason.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal
from textual.screen import Screen
from textual.widgets import Static

from devilsgrip.cards import GRID_SIZE
from devilsgrip.errors import DevilsGripError, IllegalMoveError
from devilsgrip.game import Game
from devilsgrip.i18n import _, card_label, ngettext, rating_label, translate_error
from devilsgrip.notation import DEAL, REDEAL, Move, grid_build, swap, talon_build
from devilsgrip.tui.places import STOCK, TALON, Place, move_places, place_name, step
from devilsgrip.tui.screens import GameOverScreen, HelpScreen
from devilsgrip.tui.widgets import PileCell, PlaceWidget, StockBox, TalonBox

if TYPE_CHECKING:
    from devilsgrip.session import PlaySession
    from devilsgrip.solver import Hint
    from devilsgrip.tui.app import DevilsGripApp

SPACE_CODES = frozenset({"target-empty", "source-empty"})
"""Reasons a build is refused because one of the two cells is a space: then the drop swaps."""


class GameScreen(Screen[None]):
    """The table: grid, stock, talon, score; a cursor; a status line."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "cursor(-1, 0)", show=False),
        Binding("right,l", "cursor(1, 0)", show=False),
        Binding("up,k", "cursor(0, -1)", show=False),
        Binding("down,j", "cursor(0, 1)", show=False),
        Binding("enter,space", "activate", show=False),
        Binding("x", "swap", show=False),
        Binding("escape", "put_back", show=False),
        Binding("d", "deal", show=False),
        Binding("r", "redeal", show=False),
        Binding("u", "undo", show=False),
        Binding("U,shift+u", "redo", show=False),
        Binding("question_mark", "hint", show=False),
        Binding("n", "new_game", show=False),
        Binding("g", "deal_number", show=False),
        Binding("s", "stats", show=False),
        Binding("f1", "help", show=False),
        Binding("c", "four_colour", show=False),
        Binding("q", "quit", show=False),
    ]

    def __init__(self, session: PlaySession) -> None:
        super().__init__()
        self.session = session
        self.cursor: Place = 0
        self.memory = 0
        self.picked: Place | None = None
        self.hint_places: tuple[Place, ...] = ()
        self.hint_move: Move | None = None
        self.busy = False
        """True while the win's arrangement plays: keys wait."""
        self.status = ""
        self._token = 0
        self._was_over = session.game.is_over()
        self._best = session.best_score()
        self._places: dict[Place, PlaceWidget] = {}
        self._pending: list[Move] = []
        self._saving = session.saving

    # ----------------------------------------------------------- building
    @property
    def dg_app(self) -> DevilsGripApp:
        from devilsgrip.tui.app import DevilsGripApp

        return cast(DevilsGripApp, self.app)

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Grid(id="grid"):
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
            yield Static(id="info")
        yield Static(id="status")
        yield Static(id="keys")

    def on_mount(self) -> None:
        self.refresh_table()
        self.greet()

    # ---------------------------------------------------------- the session
    def set_session(self, session: PlaySession) -> None:
        """Play another game on this screen (new game, deal by number, resume)."""
        self.session = session
        self.picked = None
        self.busy = False
        self._clear_hint()
        self._token += 1
        self._was_over = session.game.is_over()
        self._best = session.best_score()
        self.refresh_table()
        self.greet()

    def greet(self) -> None:
        """The first line of a game: a problem to know about, else how to get help."""
        self._saving = self.session.saving
        problems = [p for p in (self.dg_app.take_warning(), self.session.warning) if p]
        if problems:
            self.say("  ".join(problems), error=True)
        elif self.session.game.moves_played:
            self.say(_("Game resumed. Press F1 for the rules and keys."))
        else:
            self.say(_("New game. Press F1 for the rules and keys."))

    # ------------------------------------------------------------- drawing
    def refresh_table(self) -> None:
        game = self.session.game
        view = game.view(with_legal=False)
        four = self.dg_app.four_colour
        for cell in range(GRID_SIZE):
            cast(PileCell, self._places[cell]).show(view.grid[cell], four)
        cast(StockBox, self._places[STOCK]).show(view.stock_count)
        cast(TalonBox, self._places[TALON]).show(view.talon, four)
        for place, widget in self._places.items():
            widget.set_class(place == self.cursor, "-cursor")
            widget.set_class(place == self.picked, "-picked")
            widget.set_class(place in self.hint_places, "-hint")
        self.query_one("#title", Static).update(self.title_text())
        self.query_one("#info", Static).update(self.info_text())
        self.query_one("#keys", Static).update(self.keys_text())

    def title_text(self) -> Text:
        game = self.session.game
        text = Text(_("Devil's Grip"), style="bold")
        if game.number is not None:
            deal = _("game {number}").format(number=game.number)
        else:
            deal = _("a dealt deck")
        text.append(f"  ·  {deal}  ·  ")
        text.append(_("rules: {rules}").format(rules=str(game.rules)))
        if not self.session.saving:
            text.append("  ·  ")
            text.append(_("not saving"), style="bold red")
        return text

    def info_text(self) -> Text:
        game = self.session.game
        view = game.view(with_legal=False)
        text = Text()
        text.append(_("score: {score}").format(score=view.score), style="bold")
        text.append("   ")
        text.append(_("rating: {rating}").format(rating=rating_label(view.rating)))
        text.append("\n")
        text.append(ngettext("{n} move", "{n} moves", view.moves_played).format(
            n=view.moves_played))
        text.append("   ")
        if view.redeals_left is None:
            text.append(_("redeals: unlimited"))
        else:
            text.append(ngettext("{n} redeal left", "{n} redeals left", view.redeals_left)
                        .format(n=view.redeals_left))
        text.append("\n")
        if view.given_up:
            text.append(_("given up"), style="bold")
        elif view.won:
            text.append(_("won"), style="bold green")
        elif view.over:
            text.append(_("game over"), style="bold")
        else:
            text.append(_("in progress"))
        if self._best is not None:
            text.append("   ")
            text.append(_("best on this deal: {score}").format(score=self._best))
        return text

    def keys_text(self) -> Text:
        keys = [
            ("F1", _("help")),
            ("q", _("quit")),
            ("⏎", _("pick/drop")),
            ("d", _("deal")),
            ("u", _("undo")),
            ("?", _("hint")),
            ("←↑↓→", _("cursor")),
        ]
        text = Text(no_wrap=True, overflow="ellipsis")
        for i, (key, what) in enumerate(keys):
            if i:
                text.append("  ")
            text.append(key, style="bold")
            text.append(" " + what)
        return text

    def say(self, message: str, *, error: bool = False) -> None:
        """Show ``message`` on the status line (refusals in the error style)."""
        self.status = message
        widget = self.query_one("#status", Static)
        widget.update(message)
        widget.set_class(error, "-error")

    def refuse(self, exc: DevilsGripError) -> None:
        self.say(translate_error(exc), error=True)

    # ------------------------------------------------------------- cursor
    def action_cursor(self, dx: int, dy: int) -> None:
        self.cursor, self.memory = step(self.cursor, dx, dy, self.memory)
        self.refresh_table()

    @on(PlaceWidget.Clicked)
    def clicked(self, event: PlaceWidget.Clicked) -> None:
        if self.busy:
            return
        self.cursor = event.place
        if event.place < GRID_SIZE:
            self.memory = event.place % 8
        self.action_activate()

    # ------------------------------------------------------- pick and drop
    def action_activate(self) -> None:
        """Enter, space or a click: pick up what is under the cursor, or drop it there."""
        if self.busy:
            return
        place = self.cursor
        game = self.session.game
        if self.picked is None:
            if place == STOCK:
                self.play(DEAL if game.stock else REDEAL)
            elif place == TALON:
                if not game.talon:
                    self.say(_("The talon is empty: deal first."), error=True)
                    return
                self.picked = TALON
                self.say(_("Picked up {card} from the talon: drop it on a pile.").format(
                    card=card_label(game.talon[-1], definite=True)))
                self.refresh_table()
            else:
                self.picked = place
                pile = game.grid[place]
                if pile:
                    message = _("Picked up {cell} ({card}): drop it on a pile, or on an "
                                "empty cell to swap.").format(
                        cell=place_name(place), card=card_label(pile[-1]))
                else:
                    message = _("Picked up the empty cell {cell}: choose a pile to swap "
                                "with.").format(cell=place_name(place))
                self.say(message)
                self.refresh_table()
            return
        source = self.picked
        if place == source or place >= GRID_SIZE:
            self.action_put_back()
        elif source == TALON:
            self.play(talon_build(place))
        else:
            self.drop_pile(source, place)

    def drop_pile(self, source: Place, target: Place) -> None:
        """A grid build; if one of the two cells is a space, the drop is a swap."""
        try:
            self.session.play(grid_build(source, target))
        except IllegalMoveError as exc:
            if exc.code in SPACE_CODES:
                self.play(swap(source, target))
            else:
                self.picked = None
                self.refuse(exc)
                self.refresh_table()
            return
        except DevilsGripError as exc:
            self.picked = None
            self.refuse(exc)
            self.refresh_table()
            return
        self.after_change(_("Played {move}.").format(move=grid_build(source, target).text()))

    def action_swap(self) -> None:
        """``x``: swap the picked-up pile with the cell under the cursor."""
        if self.busy:
            return
        if self.picked is None or self.picked >= GRID_SIZE or self.cursor >= GRID_SIZE:
            self.say(_("To swap, pick up a pile with Enter, move to another cell and press x."),
                     error=True)
            return
        if self.picked == self.cursor:
            self.action_put_back()
            return
        self.play(swap(self.picked, self.cursor))

    def action_put_back(self) -> None:
        if self.picked is not None:
            self.picked = None
            self.say(_("Put back."))
            self.refresh_table()

    # --------------------------------------------------------------- moves
    def play(self, move: Move) -> bool:
        """Ask the session to play ``move``; show why when it is refused."""
        if self.busy:
            return False
        try:
            self.session.play(move)
        except DevilsGripError as exc:
            self.picked = None
            self.refuse(exc)
            self.refresh_table()
            return False
        self.after_change(_("Played {move}.").format(move=move.text()))
        return True

    def after_change(self, message: str) -> None:
        self.picked = None
        self._clear_hint()
        self._token += 1
        self.refresh_table()
        if self._saving and not self.session.saving:
            self._saving = False
            message = self.session.warning or message
            self.say(message, error=True)
        else:
            self.say(message)
        self.check_over()

    def check_over(self) -> None:
        game = self.session.game
        over = game.is_over()
        if over and not self._was_over:
            self._was_over = True
            self._best = self.session.best_score()
            self.refresh_table()
            if game.is_won():
                self.start_flourish()
            else:
                self.show_game_over()
        self._was_over = over

    def action_deal(self) -> None:
        self.play(DEAL)

    def action_redeal(self) -> None:
        self.play(REDEAL)

    def action_undo(self) -> None:
        if self.busy:
            return
        try:
            move = self.session.undo()
        except DevilsGripError as exc:
            self.refuse(exc)
            return
        self.after_change(_("Took back {move}.").format(move=move.text()))

    def action_redo(self) -> None:
        if self.busy:
            return
        try:
            move = self.session.redo()
        except DevilsGripError as exc:
            self.refuse(exc)
            return
        self.after_change(_("Played {move} again.").format(move=move.text()))

    # ----------------------------------------------------- win and game over
    def start_flourish(self) -> None:
        """Play the arrangement's swaps one by one, then show the game-over screen."""
        self.busy = True
        self._pending = list(self.session.game.arrangement())
        self.say(_("Won! Putting the jacks, queens and kings in their rows…"))
        self._next_flourish_step()

    def _next_flourish_step(self) -> None:
        delay = self.dg_app.flourish_delay
        if delay > 0:
            self.set_timer(delay, self._flourish_step)
        else:
            self.call_later(self._flourish_step)

    def _flourish_step(self) -> None:
        if not self._pending:
            self.busy = False
            self.refresh_table()
            self.say(_("Won!"))
            self.show_game_over()
            return
        move = self._pending.pop(0)
        try:
            self.session.play(move)
        except DevilsGripError as exc:  # pragma: no cover - the engine offered these swaps
            self._pending = []
            self.refuse(exc)
        self._token += 1
        self.refresh_table()
        self._next_flourish_step()

    def show_game_over(self) -> None:
        game = self.session.game
        screen = GameOverScreen(
            won=game.is_won(), score=game.score, rating=game.rating.value,
            moves=game.moves_played, best=self._best,
        )
        self.app.push_screen(screen, self._game_over_done)

    def _game_over_done(self, choice: str | None) -> None:
        if choice == "new":
            self.action_new_game()
        elif choice == "undo":
            self.action_undo()
        elif choice == "quit":
            self.app.exit()
        else:
            self.say(_("The game is over. n: new game, u: undo."))

    # ---------------------------------------------------------------- hints
    def action_hint(self) -> None:
        if self.busy:
            return
        self.say(_("Thinking of a hint…"))
        self.compute_hint(self.session.game.copy(), self._token)

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def compute_hint(self, game: Game, token: int) -> None:
        """In a worker thread: ask the honest player, then show the answer on the screen."""
        from devilsgrip.solver import hint

        try:
            result = hint(game, time_limit=self.dg_app.hint_time)
        except Exception:  # a failing hint must not end the game
            self.app.call_from_thread(self.hint_failed, token)
            return
        self.app.call_from_thread(self.show_hint, result, token)

    def hint_failed(self, token: int) -> None:
        if token == self._token:
            self.say(_("No hint this time: it could not be worked out."), error=True)

    def show_hint(self, result: Hint | None, token: int) -> None:
        if token != self._token:
            return  # the game moved on while the hint was computed
        if result is None:
            self._clear_hint()
            self.say(_("No hint: no move helps here."), error=True)
            self.refresh_table()
            return
        self.hint_move = result.move
        self.hint_places = move_places(result.move)
        with contextlib.suppress(DevilsGripError):  # the hint count is best effort
            self.session.record_hint(result.move)
        self.say(_("Hint: {move}: {reason}").format(move=result.move.text(),
                                                    reason=result.text()))
        self.refresh_table()

    def _clear_hint(self) -> None:
        self.hint_move = None
        self.hint_places = ()

    # ------------------------------------------------------- other screens
    def action_new_game(self) -> None:
        if self.busy:
            return
        self.dg_app.start_game()

    def action_deal_number(self) -> None:
        if self.busy:
            return
        from devilsgrip.tui.screens import DealNumberScreen

        self.app.push_screen(DealNumberScreen(), self._deal_number_done)

    def _deal_number_done(self, number: int | None) -> None:
        if number is None:
            return
        try:
            self.dg_app.start_game(number=number)
        except DevilsGripError as exc:
            self.refuse(exc)

    def action_stats(self) -> None:
        self.dg_app.show_stats(str(self.session.game.rules))

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_four_colour(self) -> None:
        on_now = self.dg_app.toggle_four_colour()
        self.refresh_table()
        self.say(_("Four-colour deck on.") if on_now else _("Four-colour deck off."))

    def action_quit(self) -> None:
        self.app.exit()
