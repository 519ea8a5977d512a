"""The dialogs and pages of the terminal game: game over, help, statistics,
deal by number, resume.

Each screen is given what it shows (attributes down) and answers through
``dismiss`` (a result up); none of them touches the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, timedelta
from typing import TYPE_CHECKING, ClassVar, Final, Protocol

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Markdown, OptionList, Static
from textual.widgets.option_list import Option

from devilsgrip.errors import DevilsGripError
from devilsgrip.game import Status
from devilsgrip.i18n import (
    LANGUAGE_NAMES,
    LANGUAGES,
    _,
    current_language,
    ngettext,
    rating_label,
    rules_text,
)
from devilsgrip.rules import PRESETS, Rules
from devilsgrip.table import (
    HistoryEntry,
    Words,
    clock_text,
    parse_deal_number,
    rules_label,
    say_error,
    status_label,
)
from devilsgrip.table.controller import Refusal
from devilsgrip.table.stored import parse_time
from devilsgrip.tui.widgets import Packed

if TYPE_CHECKING:
    from devilsgrip.table.daily import DailyCalendar
    from devilsgrip.table.stored import GameInfo, Stats


class GameOverScreen(ModalScreen[str]):
    """The end of a game: why it ended, score, rating and the deal's best score so far.

    ``best`` is the best final score of the deal's other games (None: none yet).

    Dismissed with ``"new"``, ``"again"``, ``"undo"`` (only while the game is
    not final), ``"best"`` (only when ``best_line``: the controller offers the deal's best
    line), ``"review"``, ``"share"``, ``"quit"`` or ``"close"``.  For
    ``guard`` seconds after it appears it ignores keys: those were typed for the table.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('new')", show=False),
        Binding("R,shift+r,a", "choose('again')", show=False),
        Binding("u", "choose('undo')", show=False),
        Binding("b", "choose('best')", show=False),
        Binding("v", "choose('review')", show=False),
        Binding("q", "choose('quit')", show=False),
        Binding("S,shift+s,s", "choose('share')", show=False),
        Binding("escape,enter,space", "choose('close')", show=False),
    ]

    def __init__(
        self, *, won: bool, score: int, rating: str, moves: int, best: int | None,
        final: bool = False, new_best: bool = False, given_up: bool = False, why: str = "",
        guard: float = 0.0, best_line: bool = True, fastest_before: str | None = None,
    ) -> None:
        super().__init__(classes="dialog-screen")
        self.won = won
        self.score = score
        self.rating = rating
        self.moves = moves
        self.best = best
        self.final = final
        self.new_best = new_best
        self.given_up = given_up
        self.why = why
        self.guard = guard
        self.best_line = best_line
        self.fastest_before = fastest_before
        """The clock of the player's fastest win before this one, when this one beats it."""
        self.ready = guard <= 0
        """Keys are answered (the guard time has passed)."""

    def compose(self) -> ComposeResult:
        title = _("You won!") if self.won else _("Game given up") if self.given_up \
            else _("Game over")
        lines = [
            _("score: {score}").format(score=self.score),
            _("rating: {rating}").format(rating=rating_label(self.rating)),
            ngettext("{n} move", "{n} moves", self.moves).format(n=self.moves),
        ]
        if self.new_best and self.best is not None:
            lines.append(_("New best on this deal! The best before was {best}.").format(
                best=self.best))
        elif self.best is None:
            lines.append(_("first finished game of this deal"))
        else:
            lines.append(_("best score on this deal so far: {score}").format(
                score=min(self.best, self.score) if self.final else self.best))
        if self.fastest_before is not None:
            lines.append(_("Your fastest win yet! The fastest before took {time}.").format(
                time=self.fastest_before))
        if not self.best_line:
            keys = _("n: new game   R: play this deal again   v: review   Esc: the grid   "
                     "q: quit")
        elif self.final:
            keys = _("n: new game   R: play this deal again   v: review   b: best line   "
                     "Esc: the grid   q: quit")
        else:
            keys = _("n: new game   R: play again   u: undo   v: review (ends the game)   "
                     "b: best line (ends the game)   Esc: the grid   q: quit")
        with Vertical(id="gameover", classes="dialog -won" if self.won else "dialog"):
            yield Static(title, id="gameover-title", classes="dialog-title")
            if self.why:
                yield Static(self.why, id="gameover-why")
            yield Static("\n".join(lines), id="gameover-body")
            yield Packed([*keys.split("   "), _("S: share")], id="gameover-keys",
                         classes="dialog-keys" if self.ready else "dialog-keys -waiting")

    def on_mount(self) -> None:
        if not self.ready:
            self.set_timer(self.guard, self._ready)

    def _ready(self) -> None:
        self.ready = True
        self.query_one("#gameover-keys", Packed).remove_class("-waiting")

    def action_choose(self, choice: str) -> None:
        if not self.ready or (choice == "undo" and self.final) \
                or (choice == "best" and not self.best_line):
            return
        self.dismiss(choice)


LOOK_LONGER: Final = -1
"""What the review dialog answers when the player asks to look longer."""


class ReviewScreen(ModalScreen[int | None]):
    """A game's review: its story and the moves that cost cards; dismissed with the
    index of the move chosen (the game screen then shows it on the grid),
    :data:`LOOK_LONGER` (``l``, where values were left open), or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", show=False),
                                             Binding("l", "longer", show=False)]

    def __init__(self, story: str, rows: Sequence[str], *, chosen: int = 0,
                 open_note: str | None = None) -> None:
        """``rows``: for each costly move, its line in the list; ``chosen``: the one
        highlighted first; ``open_note``: where the review left values unproven, how
        much of it is proven (shown under the story; ``l`` then asks for it anew, with
        more time)."""
        super().__init__(classes="dialog-screen")
        self.story = story
        self.rows = list(rows)
        self.chosen = chosen
        self.open_note = open_note

    @property
    def open_values(self) -> bool:
        """Whether the review left values unproven."""
        return self.open_note is not None

    def compose(self) -> ComposeResult:
        with Vertical(id="review", classes="dialog"):
            yield Static(_("Review of this game"), classes="dialog-title")
            yield Static(self.story, id="review-story")
            if self.open_note is not None:
                yield Static(self.open_note, id="review-open")
            if self.rows:
                yield Static(_("Moves that cost cards:"), classes="review-head")
                yield OptionList(*(Option(line, id=f"cost-{k}")
                                   for k, line in enumerate(self.rows)), id="review-list")
            keys = (_("Enter: that move on the grid   Esc: back to the game")
                    if self.rows else _("Esc: back to the game")).split("   ")
            if self.open_values:
                keys.insert(-1, _("l: look longer"))
            yield Packed(keys, classes="dialog-keys")

    def on_mount(self) -> None:
        if self.rows:
            options = self.query_one(OptionList)
            options.highlighted = min(self.chosen, len(self.rows) - 1)
            options.focus()

    @on(OptionList.OptionSelected)
    def selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(str(event.option.id).removeprefix("cost-")))

    def action_close(self) -> None:
        self.dismiss(None)

    def action_longer(self) -> None:
        if self.open_values:
            self.dismiss(LOOK_LONGER)


class ConfirmScreen(ModalScreen[bool]):
    """A yes-or-no question; dismissed with True (``y``, Enter) or False (``n``, Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", show=False),
        Binding("n,escape", "answer(False)", show=False),
    ]

    def __init__(self, title: str, text: str) -> None:
        super().__init__(classes="dialog-screen")
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm", classes="dialog"):
            yield Static(self.title_text, id="confirm-title", classes="dialog-title")
            yield Static(self.text, id="confirm-text")
            yield Packed(_("y, Enter: yes   n, Esc: no").split("   "), classes="dialog-keys")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class HelpScreen(Screen[None]):
    """Every key and the rules for players, in the player's language.

    ``keys`` are the rows of the key table (key, what it does), given by the
    game screen from its bindings.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f1", "close", show=False),
    ]

    def __init__(self, keys: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self.keys = list(keys)

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for key, what in self.keys:
            table.add_row(key, what)
        table.add_row(_("mouse"), _("click a place to pick up or drop, as with Enter"))
        with VerticalScroll(id="help"):
            yield Static(_("Keys"), classes="help-title")
            yield Static(table, id="help-keys")
            yield Static(_("Dropping on a pile that takes it builds it there; dropping a pile "
                           "on an empty cell swaps the two cells (swaps never change the "
                           "score)."), id="help-drop")
            text = rules_text(current_language())
            if text:
                yield Markdown(text, id="help-rules")
        yield Static(_("Esc: back to the game   arrows, PgUp, PgDn: scroll"),
                     id="help-footer", classes="dialog-keys")

    def on_mount(self) -> None:
        self.query_one("#help", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)


def stats_text(stats: Stats) -> Text:
    """Statistics as lines of text (translated, numbers written as the language writes them)."""
    words = Words()
    lines = [
        ngettext("{n} game finished", "{n} games finished", stats.played).format(n=stats.played),
        ngettext("{n} won", "{n} won", stats.won).format(n=stats.won)
        + f"  ({words.percent(stats.win_rate)})",
        ngettext("{n} given up", "{n} given up", stats.given_up).format(n=stats.given_up),
        ngettext("{n} game unfinished", "{n} games unfinished", stats.unfinished).format(
            n=stats.unfinished),
    ]
    if stats.best_score is not None:
        lines.append(_("best score: {score}").format(score=stats.best_score))
    if stats.average_score is not None:
        lines.append(_("average score: {score}").format(
            score=words.decimal(stats.average_score)))
    lines.append(_("current streak of wins: {n}").format(n=stats.current_streak))
    lines.append(_("longest streak of wins: {n}").format(n=stats.longest_streak))
    if stats.fastest_win is not None:
        lines.append(_("fastest win: {time}").format(time=clock_text(stats.fastest_win)))
    lines.append(_("time played: {time}").format(time=clock_text(stats.time_played)))
    lines.append(ngettext("{n} hint taken", "{n} hints taken", stats.hints).format(n=stats.hints))
    ratings = "   ".join(
        words.labelled(rating_label(name), count) for name, count in stats.ratings.items()
        if count
    )
    if ratings:
        lines.append(_("ratings: {list}").format(list=ratings))
    return Text("\n".join(lines))


class StatsScreen(ModalScreen[None]):
    """Statistics of the finished games of one rules at a time: the game's first, ``r``
    the next of ``choices`` (value and label, as :func:`table.stats_choices` gives them)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,space,q,s", "close", show=False),
        Binding("r", "next_rules", show=False),
    ]

    def __init__(self, load: Callable[[str], tuple[Stats | None, str | None]],
                 choices: list[tuple[str, str]]) -> None:
        super().__init__(classes="dialog-screen")
        self.load = load
        self.choices = choices
        self.index = 0
        self.rules = choices[0][0]
        self.stats, self.problem = load(self.rules)

    def compose(self) -> ComposeResult:
        with Vertical(id="stats", classes="dialog"):
            yield Static(self._title(), classes="dialog-title")
            yield Static(self._body(), id="stats-body")
            keys = [_("Esc: back to the game")]
            if len(self.choices) > 1:
                keys.insert(0, _("r: other rules"))
            yield Packed(keys, classes="dialog-keys")

    def _title(self) -> str:
        return _("Statistics: {rules}").format(rules=self.choices[self.index][1])

    def _body(self) -> Text | str:
        if self.stats is None:
            return self.problem or _("No statistics: games are not being saved.")
        return stats_text(self.stats)

    def action_next_rules(self) -> None:
        if len(self.choices) < 2:
            return
        self.index = (self.index + 1) % len(self.choices)
        self.rules = self.choices[self.index][0]
        self.stats, self.problem = self.load(self.rules)
        self.query_one(".dialog-title", Static).update(self._title())
        self.query_one("#stats-body", Static).update(self._body())

    def action_close(self) -> None:
        self.dismiss(None)


class DealNumberScreen(ModalScreen[int | None]):
    """Ask for a game number; dismissed with the number, or None when cancelled.

    A number the engine would refuse is explained inside the dialog, which stays.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", show=False)]

    def __init__(self) -> None:
        super().__init__(classes="dialog-screen")

    def compose(self) -> ComposeResult:
        with Vertical(id="deal-number", classes="dialog"):
            yield Static(_("Deal a game by its number"), classes="dialog-title")
            yield Input(placeholder=_("game number"), id="deal-number-input", type="integer")
            yield Static("", id="deal-number-error", classes="error")
            yield Packed(_("Enter: deal   Esc: cancel").split("   "), classes="dialog-keys")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        try:
            number = parse_deal_number(event.value)
        except DevilsGripError as exc:
            self.query_one("#deal-number-error", Static).update(say_error(exc, Words()))
            return
        self.dismiss(number)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ResumeScreen(ModalScreen[int | None]):
    """Offer the unfinished games; dismissed with a game id, or None for a new game."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "new", show=False)]

    def __init__(self, games: Sequence[GameInfo]) -> None:
        super().__init__(classes="dialog-screen")
        self.games = list(games)[:8]

    def compose(self) -> ComposeResult:
        options = [Option(_("Start a new game"), id="new")]
        for info in self.games:
            options.append(Option(self.describe(info), id=f"game-{info.id}"))
        with Vertical(id="resume", classes="dialog"):
            yield Static(_("Resume an unfinished game?"), classes="dialog-title")
            yield OptionList(*options, id="resume-list")
            yield Packed(_("Enter: choose   Esc: new game").split("   "), classes="dialog-keys")

    @staticmethod
    def describe(info: GameInfo) -> str:
        if info.number is not None:
            name = _("game {number}").format(number=info.number)
        else:
            name = _("a dealt deck")
        words = Words()
        moves = ngettext("{n} move", "{n} moves", info.moves).format(n=info.moves)
        score = _("score: {score}").format(score=info.score)
        parts = [name, rules_label(info.rules, words), moves, score]
        if info.status != Status.IN_PROGRESS.value:
            parts.append(status_label(info.status, words))  # over: undo may reopen it
        when = parse_time(info.updated)
        if when is not None:
            parts.append(when.astimezone().strftime("%Y-%m-%d %H:%M"))
        return " · ".join(parts)

    def on_mount(self) -> None:
        option_list = self.query_one(OptionList)
        option_list.highlighted = 1 if self.games else 0
        option_list.focus()

    @on(OptionList.OptionSelected)
    def selected(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or "new"
        if option_id.startswith("game-"):
            self.dismiss(int(option_id.removeprefix("game-")))
        else:
            self.dismiss(None)

    def action_new(self) -> None:
        self.dismiss(None)


class RulesScreen(ModalScreen[str | None]):
    """The rules of new games: a preset, or the rules in force when they are none of them;
    dismissed with the rules chosen, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", show=False)]

    def __init__(self, current: str) -> None:
        super().__init__(classes="dialog-screen")
        self.current = str(Rules.parse(current))
        self.choices = list(PRESETS)
        if self.current not in self.choices:
            self.choices.append(self.current)

    def compose(self) -> ComposeResult:
        words = Words()
        with Vertical(id="rules-choice", classes="dialog"):
            yield Static(_("Rules for new games"), classes="dialog-title")
            yield OptionList(*(Option(self.describe(rules, words), id=f"rules-{k}")
                               for k, rules in enumerate(self.choices)), id="rules-list")
            yield Static(_("New rules apply from the next new game."))
            yield Packed(_("Enter: choose   Esc: back to the game").split("   "),
                         classes="dialog-keys")

    @staticmethod
    def describe(rules: str, words: Words) -> Text:
        """The rules' name, and what they are in a line."""
        parsed = Rules.parse(rules)
        redeals = parsed.redeals
        parts = [
            _("unlimited redeals") if redeals is None else _("no redeal") if not redeals
            else ngettext("{n} redeal", "{n} redeals", redeals).format(n=redeals),
            _("whole runs") if parsed.move_unit == "run" else _("one card at a time"),
            _("the talon fills spaces") if parsed.fill_from_talon else _("spaces stay empty"),
        ]
        if parsed.draw != 3:
            parts.insert(0, ngettext("deals {n} card", "deals {n} cards",
                                     parsed.draw).format(n=parsed.draw))
        out = Text(rules_label(parsed, words))
        out.append("\n" + " · ".join(parts), style="dim")
        return out

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = self.choices.index(self.current)
        options.focus()

    @on(OptionList.OptionSelected)
    def selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.choices[int(str(event.option.id).removeprefix("rules-"))])

    def action_close(self) -> None:
        self.dismiss(None)


class LanguageScreen(ModalScreen[str | None]):
    """The language of the game, each named in its own words (as the page's settings list
    them); dismissed with the code of the one chosen, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", show=False)]

    def __init__(self, current: str) -> None:
        super().__init__(classes="dialog-screen")
        self.current = current if current in LANGUAGES else LANGUAGES[0]

    def compose(self) -> ComposeResult:
        with Vertical(id="language-choice", classes="dialog"):
            yield Static(_("Language"), classes="dialog-title")
            yield OptionList(*(Option(LANGUAGE_NAMES[code], id=f"lang-{code}")
                               for code in LANGUAGES), id="language-list")
            yield Packed(_("Enter: choose   Esc: back to the game").split("   "),
                         classes="dialog-keys")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = LANGUAGES.index(self.current)
        options.focus()

    @on(OptionList.OptionSelected)
    def selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(str(event.option.id).removeprefix("lang-"))

    def action_close(self) -> None:
        self.dismiss(None)


class RecordsFileScreen(ModalScreen[bool]):
    """A records file named and acted on: the player's games exported to it, or it read
    into them.  What was done, or why not, is said in the dialog (a name refused can be
    changed and tried again); dismissed with whether it was done."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", show=False)]

    def __init__(self, title: str, about: str, name: str,
                 act: Callable[[str], str]) -> None:
        """``about``: what the file is for; ``name``: the name offered; ``act``: does it,
        with the name typed, and says what was done (raises what it refuses)."""
        super().__init__(classes="dialog-screen")
        self.title_text = title
        self.about = about
        self.name_offered = name
        self.act = act
        self.done = False

    def compose(self) -> ComposeResult:
        with Vertical(id="records-file", classes="dialog"):
            yield Static(self.title_text, classes="dialog-title")
            yield Static(self.about)
            yield Input(value=self.name_offered, id="records-path")
            yield Static("", id="records-said")
            yield Packed(_("Enter: go on   Esc: back").split("   "), classes="dialog-keys",
                         id="records-keys")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        said = self.query_one("#records-said", Static)
        try:
            text = self.act(event.value)
        except (Refusal, DevilsGripError) as exc:
            said.update(exc.text if isinstance(exc, Refusal) else say_error(exc, Words()))
            said.set_class(True, "error")
            return
        self.done = True
        said.update(text)
        said.set_class(False, "error")
        event.input.disabled = True
        self.query_one("#records-keys", Packed).items = (Text(_("Esc: back")),)

    def action_close(self) -> None:
        self.dismiss(self.done)


class HistoryScreen(ModalScreen[int | None]):
    """The player's finished games, the latest first, as the page's game history lists
    them; dismissed with the id of the game to review, or None.  ``e`` exports every game
    of the player to a records file, ``i`` imports one (the page's "Export games" and
    "Import games")."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", show=False),
        Binding("e", "export", show=False),
        Binding("i", "import", show=False),
    ]

    def __init__(self, entries: Sequence[HistoryEntry], total: int, *, saving: bool = True,
                 error: str | None = None, files: RecordsFiles | None = None) -> None:
        """``total``: the finished games in all (``entries`` may list fewer); ``saving``
        False: no game is kept; ``error``: why the games could not be read; ``files``:
        the export and import of records files (none: not offered)."""
        super().__init__(classes="dialog-screen")
        self.entries = list(entries)
        self.total = total
        self.saving = saving
        self.error = error
        self.files = files if saving else None

    def compose(self) -> ComposeResult:
        with Vertical(id="history", classes="dialog"):
            yield Static(_("Game history"), classes="dialog-title")
            if self.error is not None:
                yield Static(self.error, classes="error")
            elif not self.saving:
                yield Static(_("Games are not being saved, so there is no history."))
            elif not self.entries:
                yield Static(_("No finished game yet. A game counts here once it is won, "
                               "given up or over."))
            else:
                yield OptionList(*(Option(self.describe(e), id=f"game-{e.game_id}")
                                   for e in self.entries), id="history-list")
                if self.total > len(self.entries):
                    yield Static(ngettext("The latest {shown} of your {n} finished game.",
                                          "The latest {shown} of your {n} finished games.",
                                          self.total).format(shown=len(self.entries),
                                                             n=self.total))
            keys = (_("Enter: review that game   Esc: back to the game") if self.entries
                    else _("Esc: back to the game")).split("   ")
            if self.files is not None:
                keys[-1:-1] = _("e: export games   i: import games").split("   ")
            yield Packed(keys, classes="dialog-keys")

    @staticmethod
    def describe(entry: HistoryEntry) -> Text:
        """Two lines: the deal, its rules, score and rating; when it ended, its moves, its
        time, and whether it has been reviewed."""
        rating = f" ({entry.rating_label})" if entry.rating_label else ""
        first = " · ".join([entry.deal, entry.rules, _("score: {score}").format(
            score=entry.score) + rating, entry.status_label])
        parts = []
        when = parse_time(entry.ended or entry.started)
        if when is not None:
            parts.append(when.astimezone().strftime("%Y-%m-%d %H:%M"))
        parts.append(ngettext("{n} move", "{n} moves", entry.moves).format(n=entry.moves))
        if entry.seconds is not None:
            parts.append(clock_text(entry.seconds))
        if entry.reviewed:
            parts.append(_("reviewed"))
        out = Text(first)
        out.append("\n" + " · ".join(parts), style="dim")
        return out

    def on_mount(self) -> None:
        if self.entries:
            self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(str(event.option.id).removeprefix("game-")))

    def action_close(self) -> None:
        self.dismiss(None)

    def action_export(self) -> None:
        if self.files is not None:
            self.app.push_screen(RecordsFileScreen(
                _("Export games"), _("Every game you have played, as a records file (the "
                                     "page and devilsgrip import read it). Its name:"),
                self.files.offered_name(), self.files.export))

    def action_import(self) -> None:
        if self.files is not None:
            self.app.push_screen(RecordsFileScreen(
                _("Import games"), _("A records file (one that Export games or devilsgrip "
                                     "export wrote); each game is checked by replaying it. "
                                     "Its name:"),
                "", self.files.import_), self._imported)

    def _imported(self, done: bool | None) -> None:
        """After an import: the games listed again."""
        if done and self.files is not None:
            self.entries, self.total, self.error = self.files.history()
            self.refresh(recompose=True)


class RecordsFiles(Protocol):
    """What the game history needs to export and import records files."""

    def offered_name(self) -> str:
        """The name an export offers."""

    def export(self, name: str) -> str:
        """Every game of the player written to the file ``name``; what was done, said."""

    def import_(self, name: str) -> str:
        """The file ``name`` read into the player's games; what was done, said."""

    def history(self) -> tuple[list[HistoryEntry], int, str | None]:
        """The finished games listed (as many as shown), how many in all, or why not."""


def calendar_text(cal: DailyCalendar, chosen: date) -> Text:
    """The calendar as text: five weeks, Monday first; a star for a won day, the score for
    a day played, a dot for a day not played; today in bold, the chosen day reversed."""
    out = Text()
    names = [_("Mo"), _("Tu"), _("We"), _("Th"), _("Fr"), _("Sa"), _("Su")]
    out.append(" ".join(f"{n:<5.5}" for n in names).rstrip() + "\n", style="dim")
    first = cal.days[0].day
    cells: list[Text] = [Text(" " * 5) for _blank in range(first.weekday())]
    for day in cal.days:
        r = day.result
        mark = "·" if r is None else "★" if r.status == "won" else str(r.score)
        style = "bold green" if r is not None and r.status == "won" else ""
        if day.day == cal.today.day:
            style += " bold underline"
        if day.day == chosen:
            style += " reverse"
        cells.append(Text(f"{day.day.day:>2} {mark:<2}", style=style.strip()))
    for start in range(0, len(cells), 7):
        row = Text()
        for cell in cells[start:start + 7]:
            row.append(cell)
            row.append(" ")
        out.append(row)
        out.append("\n")
    return out


class DailyScreen(ModalScreen[str | None]):
    """The daily deal: today's deal, the calendar of the player's results, the streaks.

    ←/→ choose another day of the calendar; dismissed with the chosen day
    (``YYYY-MM-DD``) to play its daily deal, or None.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "play", show=False),
        Binding("left", "step(-1)", show=False),
        Binding("right", "step(1)", show=False),
        Binding("up", "step(-7)", show=False),
        Binding("down", "step(7)", show=False),
        Binding("escape,q", "close", show=False),
    ]

    def __init__(self, cal: DailyCalendar) -> None:
        super().__init__(classes="dialog-screen")
        self.cal = cal
        self.chosen = cal.today.day

    def compose(self) -> ComposeResult:
        with Vertical(id="daily", classes="dialog"):
            yield Static(_("Daily deal: {rules}").format(rules=rules_label(self.cal.rules,
                                                                           Words())),
                         classes="dialog-title")
            yield Static(self._about(), id="daily-about")
            yield Static(calendar_text(self.cal, self.chosen), id="daily-calendar")
            yield Packed(_("Enter: play this day's deal   ←→: another day   Esc: back")
                         .split("   "), classes="dialog-keys")

    def _about(self) -> str:
        words = Words()
        day = next(d for d in self.cal.days if d.day == self.chosen)
        head = (_("Today, {date}: game {number}") if day.day == self.cal.today.day
                else _("{date}: game {number}")).format(date=day.day.isoformat(),
                                                         number=day.game)
        r = day.result
        result = (_("Not played yet.") if r is None else _("Won!") if r.status == "won"
                  else _("Your result: score {score}, {status}").format(
                      score=r.score, status=status_label(r.status, words)))
        s = self.cal.streaks
        streak = " · ".join((
            ngettext("Daily streak: {n} day", "Daily streak: {n} days", s.current).format(
                n=s.current),
            ngettext("best: {n} day", "best: {n} days", s.best).format(n=s.best),
            ngettext("{n} day played", "{n} days played", self.cal.played).format(
                n=self.cal.played)))
        return f"{head}\n{result}\n{streak}"

    def action_step(self, days: int) -> None:
        first, last = self.cal.days[0].day, self.cal.days[-1].day
        self.chosen = min(last, max(first, self.chosen + timedelta(days=days)))
        self.query_one("#daily-about", Static).update(self._about())
        self.query_one("#daily-calendar", Static).update(calendar_text(self.cal, self.chosen))

    def action_play(self) -> None:
        self.dismiss(self.chosen.isoformat())

    def action_close(self) -> None:
        self.dismiss(None)


class ShareScreen(ModalScreen[None]):
    """The text to share about the game that ended (no card named); ``c`` copies it to the
    clipboard (the terminal's, where it allows it)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "copy", show=False),
        Binding("escape,enter,space,q", "close", show=False),
    ]

    def __init__(self, text: str) -> None:
        super().__init__(classes="dialog-screen")
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="share", classes="dialog"):
            yield Static(_("Share the result"), classes="dialog-title")
            yield Static(self.text, id="share-text")
            yield Static("", id="share-status")
            yield Packed(_("c: copy to the clipboard   Esc: back").split("   "),
                         classes="dialog-keys")

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.text)
        self.query_one("#share-status", Static).update(
            _("Copied to the clipboard (where the terminal allows it)."))

    def action_close(self) -> None:
        self.dismiss(None)
