"""The terminal game's application: the store, the session, the settings."""

from __future__ import annotations

import contextlib

from textual.app import App

from devilsgrip.errors import DevilsGripError
from devilsgrip.i18n import _, translate_error
from devilsgrip.session import PlaySession
from devilsgrip.store import Store, StoreError
from devilsgrip.tui.game_screen import GameScreen
from devilsgrip.tui.screens import ResumeScreen, StatsScreen

OWNER = "local"
"""The store's owner of terminal games."""
FOUR_COLOUR_KEY = "four_colour"


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
        rules: str = "classic",
        store_error: StoreError | None = None,
        flourish_delay: float = 0.25,
        hint_time: float = 1.0,
    ) -> None:
        super().__init__()
        self.store = store
        self.number = number
        self.deck = deck
        self.rules = rules
        self.store_error = store_error
        self.warning: str | None = None
        """A problem to show once the game screen opens (e.g. a game that would not resume)."""
        self.flourish_delay = flourish_delay
        self.hint_time = hint_time
        self.session: PlaySession | None = None
        self.game_screen: GameScreen | None = None
        self.four_colour = self._setting(FOUR_COLOUR_KEY) == "1"

    # ------------------------------------------------------------ settings
    def _setting(self, key: str) -> str | None:
        if self.store is None:
            return None
        try:
            return self.store.get_setting(OWNER, key)
        except DevilsGripError:
            return None

    def toggle_four_colour(self) -> bool:
        self.four_colour = not self.four_colour
        if self.store is not None:
            with contextlib.suppress(DevilsGripError):
                self.store.set_setting(OWNER, FOUR_COLOUR_KEY, "1" if self.four_colour else "0")
        return self.four_colour

    def take_warning(self) -> str | None:
        """The pending warning, once."""
        warning, self.warning = self.warning, None
        return warning

    # --------------------------------------------------------------- start
    def on_mount(self) -> None:
        self.title = _("Devil's Grip")
        if self.number is None and self.deck is None and self.store is not None:
            try:
                unfinished = self.store.unfinished_games(owner=OWNER)
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
        assert self.store is not None
        try:
            session = PlaySession.resume(self.store, game_id)
        except DevilsGripError as exc:
            self.warning = translate_error(exc)
            self.start_game()
            return
        self.show_session(session)

    def start_game(self, number: int | None = None, deck: str | None = None) -> None:
        """A new game (a random numbered deal unless ``number`` or ``deck``).

        Raises the engine's error for a bad number or deck (nothing changes then).
        """
        rules = str(self.session.game.rules) if self.session is not None else self.rules
        session = PlaySession.start(self.store, number=number, deck=deck, rules=rules,
                                    owner=OWNER, store_error=self.store_error)
        self.show_session(session)

    def show_session(self, session: PlaySession) -> None:
        self.session = session
        if self.game_screen is None:
            self.game_screen = GameScreen(session)
            self.push_screen(self.game_screen)
        else:
            self.game_screen.set_session(session)

    # ---------------------------------------------------------- statistics
    def show_stats(self, rules: str) -> None:
        if self.store is None:
            self.push_screen(StatsScreen(None, rules))
            return
        try:
            stats = self.store.stats(rules=rules, owner=OWNER)
        except DevilsGripError as exc:
            self.push_screen(StatsScreen(None, rules, translate_error(exc)))
            return
        self.push_screen(StatsScreen(stats, rules))
