"""The terminal game's application: the store, the session, the settings.

The application hands the session and the settings down to the game screen
and answers the messages it posts up (a new game, play again, statistics,
the four-colour deck, quit); the lifecycle itself is the table layer's and the
session's.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import date
from pathlib import Path

from textual import on
from textual.app import App

from devilsgrip import table
from devilsgrip.catalog import has_catalog
from devilsgrip.errors import DevilsGripError
from devilsgrip.i18n import LANGUAGE_NAMES, _, current_language, set_language, translate_error
from devilsgrip.table import Words
from devilsgrip.table.controller import Outcome, Refusal, Table
from devilsgrip.table.stored import Player, Stats, Store, StoreError
from devilsgrip.tui.game_screen import GameScreen
from devilsgrip.tui.screens import (
    HistoryScreen,
    LanguageScreen,
    ResumeScreen,
    RulesScreen,
    StatsScreen,
)

OWNER = "local"
"""The store's owner of terminal games."""
FOUR_COLOUR_KEY = "four_colour"
WINNABLE_KEY = "winnable"
RULES_KEY = "rules"
LANG_KEY = "lang"


class DevilsGripApp(App[None]):
    """Devil's Grip in the terminal.

    ``store`` is None when there is no usable database (``store_error`` then
    says why, if known); games still run, unsaved.  With ``number`` or ``deck`` that
    deal starts at once; otherwise an unfinished game is offered for resuming.
    """

    CSS_PATH = "devilsgrip.tcss"
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        store: Store | None,
        *,
        number: int | None = None,
        deck: str | None = None,
        rules: str | None = None,
        lang: str | None = None,
        store_error: StoreError | None = None,
        daily: date | None = None,
        flourish_delay: float = 0.25,
        hint_time: float = 1.0,
        solve_time: float = 10.0,
        dialog_guard: float = 0.5,
    ) -> None:
        super().__init__()
        self.store = store
        self.player = Player(store, OWNER, store_error)
        """The player's games and settings: the door every game is opened through."""
        self.number = number
        self.deck = deck
        self.store_error = store_error
        self.daily = daily
        """With a day, the game starts with that day's daily deal."""
        self.warning: str | None = None
        """A problem to show once the game screen opens (e.g. a game that would not resume)."""
        self.flourish_delay = flourish_delay
        self.hint_time = hint_time
        self.solve_time = solve_time
        self.dialog_guard = dialog_guard
        self.table: Table | None = None
        """The controller of the game being played (None before the first and after the
        last)."""
        self.game_screen: GameScreen | None = None
        settings = table.decode_settings(self._saved_settings())
        self.four_colour: bool = settings["four_colour"]
        self.guide_seen: bool = settings[table.GUIDE_SEEN]
        """The first-game guide was put away (on any screen): it is not shown again."""
        self.winnable: bool = settings["winnable"]
        """New single-pass games are drawn from the deals proven winnable only."""
        self.rules: str | None = rules if rules is not None else settings.get(RULES_KEY)
        """The rules of new games: ``rules``, else those the player chose (``p``); None:
        those of the game on screen (classic for the first)."""
        # the language: ``lang`` (--lang), else the one the player chose (``l``, or the
        # page's settings: the same player), else the environment's, as the process has it
        if lang is not None or LANG_KEY in settings:
            set_language(lang if lang is not None else settings[LANG_KEY])

    # ------------------------------------------------------------ settings
    def _saved_settings(self) -> dict[str, str]:
        return self.player.settings()

    def toggle_four_colour(self) -> bool:
        self.four_colour = not self.four_colour
        self.player.set_setting(FOUR_COLOUR_KEY, table.encode_setting(self.four_colour))
        return self.four_colour

    def toggle_winnable(self) -> bool:
        self.winnable = not self.winnable
        self.player.set_setting(WINNABLE_KEY, table.encode_setting(self.winnable))
        return self.winnable

    # --------------------------------------------------------------- start
    def on_mount(self) -> None:
        self.title = _("Devil's Grip")
        if self.daily is not None:
            self.start_daily(self.daily)
            return
        if self.number is None and self.deck is None and self.store is not None:
            try:
                unfinished = self.player.unfinished()
            except DevilsGripError as exc:
                self.warning = translate_error(exc)
                unfinished = []
            if unfinished:
                self.push_screen(ResumeScreen(unfinished), self._resume_chosen)
                return
        self.start_game(number=self.number, deck=self.deck)

    def _resume_chosen(self, game_id: int | None) -> None:
        if game_id is None:
            self.start_game()
            return
        try:
            self.table = self.player.resume(game_id, Words())
        except DevilsGripError as exc:
            self.warning = translate_error(exc)
            self.start_game()
            return
        self.show_table()

    def start_game(self, number: int | None = None, deck: str | None = None) -> None:
        """The first game of this run (a random numbered deal unless ``number`` or ``deck``)."""
        self.table = self.player.start(Words(), number=number, deck=deck,
                                       rules=self.rules or "classic")
        self.show_table()

    def start_daily(self, day: date) -> None:
        """The first game of this run: ``day``'s daily deal (the table picks it)."""
        rules = self.rules or "classic"
        controller = self.player.start(Words(), rules=rules)
        try:
            outcome = controller.daily(day, rules=rules)
        except Refusal as refusal:
            self.warning = refusal.text
            self.table = controller
            self.show_table()
            return
        self.table = controller
        self.show_table(outcome.event)

    def show_controller(self, controller: Table, event: table.Event | None = None) -> None:
        self.table = controller
        self.show_table(event)

    def show_table(self, event: table.Event | None = None) -> None:
        assert self.table is not None
        warning, self.warning = self.warning, None
        if self.game_screen is None:
            self.game_screen = GameScreen(
                self.table, four_colour=self.four_colour, hint_time=self.hint_time,
                solve_time=self.solve_time, flourish_delay=self.flourish_delay,
                dialog_guard=self.dialog_guard, warning=warning,
                guide=None if self.guide_seen
                else table.first_steps(Words(), self.table.game.rules))
            self.push_screen(self.game_screen)
        else:
            self.game_screen.set_table(self.table, event, warning)

    # ------------------------------------------------- messages from the game
    @on(GameScreen.NewGame)
    def new_game(self, message: GameScreen.NewGame) -> None:
        self._replace(lambda controller: controller.new_game(
            number=message.number, rules=self.rules,
            winnable=self.winnable and has_catalog(self.rules or controller.game.rules)))

    @on(GameScreen.PlayDaily)
    def play_daily(self, message: GameScreen.PlayDaily) -> None:
        self._replace(lambda controller: controller.daily(date.fromisoformat(message.day)))

    @on(GameScreen.ToggleWinnable)
    def winnable_toggled(self, message: GameScreen.ToggleWinnable) -> None:
        on_now = self.toggle_winnable()
        if self.game_screen is not None:
            self.game_screen.say(_("Winnable deals only, for new single-pass games: on.")
                                 if on_now else
                                 _("Winnable deals only, for new single-pass games: off."))

    @on(GameScreen.ChooseRules)
    def rules_asked(self, message: GameScreen.ChooseRules) -> None:
        shown = self.rules if self.rules is not None else (
            str(self.table.game.rules) if self.table is not None else "classic")
        self.push_screen(RulesScreen(shown), self._rules_chosen)

    def _rules_chosen(self, rules: str | None) -> None:
        """New games are played under ``rules`` from now on (the choice is kept)."""
        if rules is None or self.game_screen is None:
            return
        self.rules = rules
        self.player.set_setting(RULES_KEY, rules)
        self.game_screen.say(_("Rules for new games: {rules}. They apply from the next new "
                               "game.").format(rules=table.rules_label(rules, Words())))

    @on(GameScreen.ChooseLanguage)
    def language_asked(self, message: GameScreen.ChooseLanguage) -> None:
        self.push_screen(LanguageScreen(current_language()), self._language_chosen)

    def _language_chosen(self, lang: str | None) -> None:
        """The game speaks ``lang`` from now on, and in the runs after (the choice is kept,
        for the page too)."""
        screen, controller = self.game_screen, self.table
        if lang is None or screen is None or controller is None:
            return
        set_language(lang)
        self.player.set_setting(LANG_KEY, lang)
        words = Words()
        controller.use_words(words)
        self.title = _("Devil's Grip")
        screen.relabel(table.first_steps(words, controller.game.rules))
        said = _("Language: {language}.").format(language=LANGUAGE_NAMES[lang])
        if screen.guide is not None:  # the guide's first words, which this replaces
            said += f" {screen.guide.stock} {screen.guide.build}"
        screen.say(said)

    @on(GameScreen.PlayAgain)
    def play_again(self, message: GameScreen.PlayAgain) -> None:
        self._replace(lambda controller: controller.again())

    def _replace(self, how: Callable[[Table], Outcome]) -> None:
        controller = self.table
        if controller is None or self.game_screen is None:
            return
        try:
            outcome = how(controller)
        except Refusal as refusal:
            self.game_screen.refuse(refusal)
            return
        self.show_table(outcome.event)

    @on(GameScreen.ToggleFourColour)
    def four_colour_toggled(self, message: GameScreen.ToggleFourColour) -> None:
        on_now = self.toggle_four_colour()
        if self.game_screen is not None:
            self.game_screen.four_colour = on_now

    @on(GameScreen.GuideSeen)
    def guide_put_away(self, message: GameScreen.GuideSeen) -> None:
        self.guide_seen = True
        self.player.set_setting(table.GUIDE_SEEN, table.encode_setting(True))

    @on(GameScreen.OpenDialog)
    def dialog_asked(self, message: GameScreen.OpenDialog) -> None:
        self.push_screen(message.dialog, message.answered)

    @on(GameScreen.ShowStats)
    def stats_asked(self, message: GameScreen.ShowStats) -> None:
        self.show_stats(message.rules)

    @on(GameScreen.ShowHistory)
    def history_asked(self, message: GameScreen.ShowHistory) -> None:
        self.show_history()

    @on(GameScreen.Quit)
    def quit_asked(self, message: GameScreen.Quit) -> None:
        self.close_session()
        self.exit()

    def close_session(self) -> None:
        """The terminal game closes: the game is kept, or left when there is nothing to keep.

        Called when the player quits, and once more by the command after the
        app has stopped (Ctrl+C); the second call finds nothing to do.
        """
        controller, self.table = self.table, None
        if controller is not None:
            with contextlib.suppress(DevilsGripError):
                controller.close()

    def action_help_quit(self) -> None:
        """Ctrl+C: say how to quit, in the player's language (Textual's own words are English)."""
        self.notify(_("Press q or Ctrl+Q to quit: every move is already saved."),
                    title=_("Do you want to quit?"))

    # ---------------------------------------------------------- statistics
    def show_stats(self, rules: str) -> None:
        """The statistics of ``rules`` (the game's), the other rules played a key away."""
        try:
            played = self.player.rules_played()
        except DevilsGripError:
            played = []
        choices = table.stats_choices(played, rules, table.Words())
        self.push_screen(StatsScreen(self.stats_of, choices))

    # ------------------------------------------------------------- history
    def show_history(self) -> None:
        """The player's finished games; the one chosen is reviewed on the game screen."""
        files = _RecordsFiles(self.player)
        entries, total, error = files.history()
        self.push_screen(HistoryScreen(entries, total, saving=self.store is not None,
                                       error=error, files=files), self._history_chosen)

    def _history_chosen(self, game_id: int | None) -> None:
        screen = self.game_screen
        if game_id is None or screen is None:
            return
        try:
            controller = self.player.finished(game_id, Words())
        except DevilsGripError as exc:
            screen.refuse(exc)
            return
        if controller is not None:
            screen.show_review(controller)

    def stats_of(self, rules: str) -> tuple[Stats | None, str | None]:
        """The player's statistics of ``rules`` (``table.ALL_RULES``: all together), or why
        they cannot be read."""
        try:
            return self.player.stats(None if rules == table.ALL_RULES else rules), None
        except DevilsGripError as exc:
            return None, translate_error(exc)


class _RecordsFiles:
    """The player's records files, as the game history exports and imports them."""

    def __init__(self, player: Player) -> None:
        self.player = player

    def offered_name(self) -> str:
        return table.export_file_name(folder=Path.cwd())

    def export(self, name: str) -> str:
        words = Words()
        return self.player.export_to(table.records_path(name, words), words)

    def import_(self, name: str) -> str:
        words = Words()
        answer = self.player.import_from(table.records_path(name, words), words)
        return table.import_told(answer, words)

    def history(self) -> tuple[list[table.HistoryEntry], int, str | None]:
        try:
            entries, total = self.player.history(Words())
        except DevilsGripError as exc:
            return [], 0, translate_error(exc)
        return entries, total, None
