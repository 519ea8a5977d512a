"""The main screen: the table, the cursor, and the keys and clicks that make moves.

The screen holds no rule and no lifecycle decision of its own: it turns keys
and clicks into places, and the table layer (:mod:`devilsgrip.table`) says
what a drop means and tells every move in words; the
:class:`~devilsgrip.session.PlaySession` checks, saves and ends games.
Whatever needs the application (a new game, statistics, the colours, quitting)
is posted up as a message; the application hands the session down.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from devilsgrip import table
from devilsgrip.cards import GRID_SIZE
from devilsgrip.errors import DevilsGripError
from devilsgrip.game import Game, Pile
from devilsgrip.i18n import _
from devilsgrip.notation import Move
from devilsgrip.table import STOCK, TALON, Event, Place, Words
from devilsgrip.tui.places import step
from devilsgrip.tui.screens import ConfirmScreen, GameOverScreen, HelpScreen
from devilsgrip.tui.widgets import PileCell, PlaceWidget, StockBox, TalonBox

if TYPE_CHECKING:
    from devilsgrip.session import PlaySession
    from devilsgrip.solver import Hint


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
        Binding("R,shift+r", "restart", show=False),
        Binding("G,shift+g", "give_up", show=False),
        Binding("s", "stats", show=False),
        Binding("f1", "help", show=False),
        Binding("c", "four_colour", show=False),
        Binding("q", "quit", show=False),
    ]

    # ------------------------------------------------------ messages up
    class NewGame(Message):
        """The player leaves this game for a new deal (``number``: that deal)."""

        def __init__(self, number: int | None = None) -> None:
            super().__init__()
            self.number = number

    class PlayAgain(Message):
        """The player leaves this game for a new game of the same deal."""

    class ShowStats(Message):
        def __init__(self, rules: str) -> None:
            super().__init__()
            self.rules = rules

    class ToggleFourColour(Message):
        """The four-colour deck on or off (the application keeps the setting)."""

    class Quit(Message):
        """The player closes the terminal game."""

    def __init__(self, session: PlaySession, *, four_colour: bool = False,
                 hint_time: float = 1.0, solve_time: float = 10.0,
                 flourish_delay: float = 0.25, warning: str | None = None) -> None:
        super().__init__()
        self.session = session
        self.four_colour = four_colour
        self.hint_time = hint_time
        self.solve_time = solve_time
        self.solution_shown = False
        """The best line of this game has been shown (the game is final from then on)."""
        self.flourish_delay = flourish_delay
        self.cursor: Place = 0
        self.memory = 0
        self.picked: Place | None = None
        self.hint_places: tuple[Place, ...] = ()
        self.hint_move: Move | None = None
        self.busy = False
        """True while the win's arrangement plays: keys wait."""
        self.status = ""
        self.display_grid: list[Pile] | None = None
        """The grid as shown when it differs from the game's (the arranged won grid)."""
        self._warning = warning
        self._token = 0
        self._was_over = session.game.is_over()
        self._best = session.best_score()
        self._places: dict[Place, PlaceWidget] = {}
        self._pending: list[Move] = []
        self._saving = session.saving

    # ----------------------------------------------------------- building
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
        self._arrange_if_won()
        self.refresh_table()
        self.greet()

    # ---------------------------------------------------------- the session
    def set_session(self, session: PlaySession, event: Event | None = None,
                    warning: str | None = None) -> None:
        """Play another game on this screen (new game, play again, resume)."""
        self.session = session
        self.picked = None
        self.busy = False
        self._pending = []
        self.display_grid = None
        self.solution_shown = False
        self._clear_hint()
        self._token += 1
        self._was_over = session.game.is_over()
        self._best = session.best_score()
        self._warning = warning
        self._arrange_if_won()
        self.refresh_table()
        if event is not None and not warning and session.saving:
            self.say(table.say_event(event, session.game, Words()))
        else:
            self.greet()

    def set_four_colour(self, on_now: bool) -> None:
        self.four_colour = on_now
        self.refresh_table()
        self.say(_("Four-colour deck on.") if on_now else _("Four-colour deck off."))

    def greet(self) -> None:
        """The first line of a game: a problem to know about, else how to get help."""
        self._saving = self.session.saving
        problems = [p for p in (self._warning, table.saving_warning(self.session, Words()))
                    if p]
        self._warning = None
        if problems:
            self.say("  ".join(table.sentence(p) for p in problems), error=True)
        elif self.session.game.moves_played:
            self.say(_("Game resumed. Press F1 for the rules and keys."))
        else:
            self.say(_("New game. Press F1 for the rules and keys."))

    def _arrange_if_won(self) -> None:
        """A won game is shown arranged (its jacks, queens and kings in their rows)."""
        game = self.session.game
        if game.is_won():
            grid = list(game.grid)
            for move in game.arrangement():
                grid[move.src], grid[move.dst] = grid[move.dst], grid[move.src]
            self.display_grid = grid

    # ------------------------------------------------------------- drawing
    def refresh_table(self) -> None:
        game = self.session.game
        view = game.view(with_legal=False)
        four = self.four_colour
        grid = self.display_grid if self.display_grid is not None else view.grid
        for cell in range(GRID_SIZE):
            widget = self._places[cell]
            assert isinstance(widget, PileCell)
            widget.show(grid[cell], four)
        stock = self._places[STOCK]
        talon = self._places[TALON]
        assert isinstance(stock, StockBox) and isinstance(talon, TalonBox)
        stock.show(view.stock_count)
        talon.show(view.talon, four)
        for place, widget in self._places.items():
            widget.set_class(place == self.cursor, "-cursor")
            widget.set_class(place == self.picked, "-picked")
            widget.set_class(place in self.hint_places, "-hint")
        self.query_one("#title", Static).update(self.title_text())
        self.query_one("#info", Static).update(self.info_text())
        self.query_one("#keys", Static).update(self.keys_text())

    def title_text(self) -> Text:
        about = table.summary(self.session, Words(), self._best)
        text = Text(_("Devil's Grip"), style="bold")
        text.append(f"  ·  {about.deal}  ·  {about.rules}")
        if not self.session.saving:
            text.append("  ·  ")
            text.append(_("not saving"), style="bold red")
        return text

    def info_text(self) -> Text:
        about = table.summary(self.session, Words(), self._best)
        text = Text()
        text.append(_("score: {score}").format(score=about.score), style="bold")
        text.append("   ")
        text.append(_("rating: {rating}").format(rating=about.rating))
        text.append("\n")
        text.append(Words().ngettext("{n} move", "{n} moves", about.moves).format(
            n=about.moves))
        text.append("   ")
        text.append(about.redeals)
        text.append("\n")
        game = self.session.game
        style = "bold green" if game.is_won() else "bold" if self.session.final or \
            game.is_over() else ""
        text.append(about.status, style=style)
        if about.best is not None:
            text.append("   ")
            text.append(_("best on this deal: {score}").format(score=about.best))
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
        self.say(table.say_error(exc, Words()), error=True)

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
                self.play(table.stock_move(game))
                return
            problem = table.pick_up_refusal(game, place)
            if problem is not None:
                self.refuse(problem)
                return
            self.picked = place
            self.say(table.say_picked(game, place, Words()))
            self.refresh_table()
            return
        source = self.picked
        try:
            move = table.drop_move(game, source, place)
        except DevilsGripError as exc:
            self.picked = None
            self.refuse(exc)
            self.refresh_table()
            return
        if move is None:
            self.action_put_back()
        else:
            self.play(move)

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
        try:
            move = table.swap_move(self.session.game, self.picked, self.cursor)
        except DevilsGripError as exc:
            self.picked = None
            self.refuse(exc)
            self.refresh_table()
            return
        self.play(move)

    def action_put_back(self) -> None:
        if self.picked is not None:
            self.picked = None
            self.say(table.say_event(Event("putback"), self.session.game, Words()))
            self.refresh_table()

    # --------------------------------------------------------------- moves
    def play(self, move: Move) -> bool:
        """Ask the session to play ``move``; show why when it is refused."""
        if self.busy:
            return False
        return self._act(lambda: table.play(self.session, move))

    def _act(self, action: table.Action) -> bool:
        try:
            event = action()
        except DevilsGripError as exc:
            self.picked = None
            self._after_refusal(exc)
            return False
        self.after_change(table.say_event(event, self.session.game, Words()))
        return True

    def _after_refusal(self, exc: DevilsGripError) -> None:
        if getattr(exc, "code", "") == "store-game-changed":
            # another program changed this game: the session read it again
            self.display_grid = None
            self._arrange_if_won()
            self._was_over = self.session.game.is_over()
            self.refresh_table()
            self.say(table.say_event(Event("changed"), self.session.game, Words()), error=True)
            return
        self.refuse(exc)
        self.refresh_table()

    def after_change(self, message: str) -> None:
        self.picked = None
        self._clear_hint()
        self._token += 1
        self.refresh_table()
        if self._saving and not self.session.saving:
            self._saving = False
            message = table.saving_warning(self.session, Words()) or message
            self.say(message, error=True)
        else:
            self.say(message)
        self.check_over()

    def check_over(self) -> None:
        game = self.session.game
        ended = game.is_over() or self.session.final
        if ended and not self._was_over:
            self._was_over = True
            self._best = self.session.best_score()
            self.refresh_table()
            if game.is_won():
                self.start_flourish()
            else:
                self.show_game_over()
        self._was_over = ended

    def action_deal(self) -> None:
        self.play(table.DEAL)

    def action_redeal(self) -> None:
        self.play(table.REDEAL)

    def action_undo(self) -> None:
        if self.busy:
            return
        self._act(lambda: table.undo(self.session))

    def action_redo(self) -> None:
        if self.busy:
            return
        self._act(lambda: table.redo(self.session))

    # ----------------------------------------------------- win and game over
    def start_flourish(self) -> None:
        """Show the arrangement's swaps one by one (on screen only), then the result."""
        self.busy = True
        game = self.session.game
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
            self.refresh_table()
            self.say(table.say_end(self.session, Words()))
            self.show_game_over()
            return
        move = self._pending.pop(0)
        grid[move.src], grid[move.dst] = grid[move.dst], grid[move.src]
        self.refresh_table()
        self._next_flourish_step()

    def show_game_over(self) -> None:
        game = self.session.game
        screen = GameOverScreen(
            won=game.is_won(), score=game.score, rating=game.rating.value,
            moves=game.moves_played, best=self._best, final=self.session.final,
            given_up=game.given_up,
            new_best=table.summary(self.session, Words(), self._best).new_best,
        )
        self.app.push_screen(screen, self._game_over_done)

    def _game_over_done(self, choice: str | None) -> None:
        if choice == "new":
            self.post_message(self.NewGame())
        elif choice == "again":
            self.post_message(self.PlayAgain())
        elif choice == "undo":
            self.action_undo()
        elif choice == "best":
            self.show_best_line()
        elif choice == "quit":
            self.post_message(self.Quit())
        elif self.session.final:
            self.say(_("The game has ended. n: new game, R: play this deal again."))
        else:
            self.say(_("The game is over. n: new game, u: undo."))

    # ------------------------------------------------------------ best line
    def show_best_line(self) -> None:
        """The solver's best line for this deal: once shown, the game's result stands."""
        try:
            self.session.make_final()
        except DevilsGripError as exc:
            self.refuse(exc)
            return
        self.refresh_table()
        self.say(_("Searching for the best line…"))
        start = self.session.game.copy()
        start.restart()
        self.compute_best_line(start, self._token)

    @work(thread=True, exclusive=True, group="best", exit_on_error=False)
    def compute_best_line(self, start: Game, token: int) -> None:
        from devilsgrip.solver import solve

        try:
            result = solve(start, time_limit=self.solve_time)
        except Exception:  # a failing search must not end the game
            self.app.call_from_thread(self.hint_failed, token)
            return
        self.app.call_from_thread(self._best_line_found, result.score, bool(result.proven),
                                  tuple(result.moves), token)

    def _best_line_found(self, score: int, proven: bool, moves: tuple[Move, ...],
                         token: int) -> None:
        if token != self._token:
            return
        from devilsgrip.tui.screens import BestLineScreen

        self.solution_shown = True
        self.say(_("Best possible score: {score}").format(score=score) + ".")
        self.app.push_screen(BestLineScreen(score, proven, [m.text() for m in moves]))

    # ---------------------------------------------------------------- hints
    def action_hint(self) -> None:
        if self.busy:
            return
        refusal = table.hint_refusal(self.session, Words())
        if refusal is not None:
            self.say(refusal, error=True)
            return
        self.say(_("Thinking of a hint…"))
        game = self.session.game.copy()
        self.compute_hint(game, self._token)

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def compute_hint(self, game: Game, token: int) -> None:
        """In a worker thread: ask the honest player, then show the answer on the screen."""
        from devilsgrip.solver import hint

        try:
            result = hint(game, time_limit=self.hint_time)
        except Exception:  # a failing hint must not end the game
            self.app.call_from_thread(self.hint_failed, token)
            return
        self.app.call_from_thread(self.show_hint, result, game, token)

    def hint_failed(self, token: int) -> None:
        if token == self._token:
            self.say(_("No hint this time: it could not be worked out."), error=True)

    def show_hint(self, result: Hint | None, game: Game, token: int) -> None:
        if token != self._token:
            return  # the game moved on while the hint was computed
        if result is None:
            self._clear_hint()
            self.say(table.say_hint(None, game, Words()), error=True)
            self.refresh_table()
            return
        self.hint_move = result.move
        self.hint_places = table.move_places(result.move)
        with contextlib.suppress(DevilsGripError):  # the hint count is best effort
            self.session.record_hint(result.move)
        self.say(table.say_hint(result, game, Words()))
        self.refresh_table()

    def _clear_hint(self) -> None:
        self.hint_move = None
        self.hint_places = ()

    # ---------------------------------------------- leaving and ending games
    def _leave_then(self, then: Message) -> None:
        """Post ``then`` (a new game, play again), asking first when it ends this game."""
        if not self.session.leave_asks:
            self.post_message(then)
            return
        game = self.session.game
        if game.is_over():
            text = _("It then counts as over, with score {score}.").format(
                score=game.score)
        else:
            text = _("It then counts as given up, with score {score}.").format(
                score=game.score)

        def answered(yes: bool | None) -> None:
            if yes:
                self.post_message(then)
            else:
                self.say(_("You keep playing this game."))

        self.app.push_screen(ConfirmScreen(_("Leave this game?"), text), answered)

    def action_new_game(self) -> None:
        if not self.busy:
            self._leave_then(self.NewGame())

    def action_restart(self) -> None:
        if not self.busy:
            self._leave_then(self.PlayAgain())

    def action_give_up(self) -> None:
        if self.busy:
            return
        problem = table.give_up_refusal(self.session)
        if problem is not None:
            self.refuse(problem)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._act(lambda: table.give_up(self.session))
            else:
                self.say(_("You keep playing this game."))

        self.app.push_screen(ConfirmScreen(
            _("Give up"), _("End this game now? It is scored as it stands.")), answered)

    def action_deal_number(self) -> None:
        if self.busy:
            return
        from devilsgrip.tui.screens import DealNumberScreen

        self.app.push_screen(DealNumberScreen(), self._deal_number_done)

    def _deal_number_done(self, number: int | None) -> None:
        if number is None:
            return
        try:
            Game(number, rules=self.session.game.rules)  # a bad number changes nothing
        except DevilsGripError as exc:
            self.refuse(exc)
            return
        self._leave_then(self.NewGame(number))

    # ------------------------------------------------------- other screens
    def action_stats(self) -> None:
        self.post_message(self.ShowStats(str(self.session.game.rules)))

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_four_colour(self) -> None:
        self.post_message(self.ToggleFourColour())

    def action_quit(self) -> None:
        self.post_message(self.Quit())
