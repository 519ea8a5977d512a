"""``devilsgrip review``: where a finished game lost its cards, and could the player see it."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from devilsgrip import codes, records
from devilsgrip.cli_support import fail, seconds, whole_number
from devilsgrip.commands import add_game_options, add_memory_option, db_path, read_record
from devilsgrip.errors import DevilsGripError
from devilsgrip.i18n import _

if TYPE_CHECKING:
    from devilsgrip.table.stored import Store


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "review", help=_("review a finished game: the moves that cost cards"),
        description=_("Review a finished game (a record file, - for standard input, the last "
                      "finished game in the store, or a stored game by its id): the best "
                      "score still reachable after each move, the moves that cost cards, a "
                      "better move at each, and whether a player could have seen it."),
    )
    p.add_argument("record", nargs="?", metavar="FILE", help=_("game record file, or -"))
    add_game_options(p, deal=False)
    which = p.add_mutually_exclusive_group()
    which.add_argument("--last", action="store_true",
                       help=_("the last finished game in the store"))
    which.add_argument("--game-id", type=whole_number("--game-id", 1, 2**62), metavar="ID",
                       help=_("a stored game, by its id"))
    p.add_argument("--time-limit", type=seconds("--time-limit"), default=10.0,
                   metavar="SECONDS", help=_("time for the whole review in seconds (default 10)"))
    add_memory_option(p)
    p.add_argument("--json", action="store_true", help=_("print the review as JSON"))
    p.set_defaults(func=run)


class _ProgressLine:
    """The review's progress on one line of the terminal, redrawn as its searches report
    and as the time passes (one search may take seconds): the bar and the words are
    those of every screen (:func:`devilsgrip.table.review_share`)."""

    BAR: Final = 20
    TICK: Final = 0.25

    def __init__(self, limit: float) -> None:
        from devilsgrip.table import Words

        self.limit = limit
        self.words = Words()
        self.began = time.monotonic()
        self.done = self.total = 0
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.ticker = threading.Thread(target=self._tick, daemon=True)
        self.ticker.start()

    def progress(self, done: int, total: int) -> None:
        with self.lock:
            self.done, self.total = done, total
        self._draw()

    def _tick(self) -> None:
        while not self.stop.wait(self.TICK):
            self._draw()

    def _draw(self) -> None:
        from devilsgrip import table

        with self.lock:
            elapsed = time.monotonic() - self.began
            share = table.review_share(self.done, self.total, elapsed, self.limit)
            filled = round(self.BAR * share)
            text = f"[{'#' * filled}{'.' * (self.BAR - filled)}] " + \
                table.say_review_progress(elapsed, self.limit, self.words)
            self._put(text)

    def _put(self, text: str) -> None:
        width = shutil.get_terminal_size().columns - 1
        print("\r" + text[:width].ljust(width), end="\r", file=sys.stderr, flush=True)

    def close(self) -> None:
        """The line taken away (the review is over: its results follow)."""
        self.stop.set()
        self.ticker.join()
        with self.lock:
            self._put("")


def _with_progress(args: argparse.Namespace, review: Callable[[Any], Any]) -> Any:
    """``review(progress)``, with its progress on a line of the terminal when there is one."""
    bar = _ProgressLine(args.time_limit) if sys.stderr.isatty() else None
    try:
        return review(bar.progress if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()


def _stored(args: argparse.Namespace) -> tuple[int, Store] | None:
    """The stored game to review and the store it is in (None: a record is reviewed)."""
    chosen = sum(bool(x) for x in (args.record is not None, args.last, args.game_id))
    if chosen != 1:
        fail(_("give a record file (or -), --last, or --game-id"))
    if args.record is not None:
        return None
    from devilsgrip.i18n import translate_error
    from devilsgrip.table.stored import last_finished, open_store

    try:
        store = open_store(db_path(args), create=False)
    except DevilsGripError as exc:
        fail(translate_error(exc))
    if args.last:
        info = last_finished(store)
        if info is None:
            store.close()
            fail(_("there is no finished game in the store"))
        return info.id, store
    if store.game_info(args.game_id) is None:
        store.close()
        fail(_("there is no game {game_id} in the store").format(game_id=args.game_id))
    return args.game_id, store


def run(args: argparse.Namespace) -> int:
    from devilsgrip import table

    stored = _stored(args)
    if stored is None:
        game = records.read_record(read_record(args.record, "stored"))
        try:
            review = _with_progress(args, lambda progress: table.review_record(
                game, time_limit=args.time_limit, progress=progress,
                memory=args.memory))
        except DevilsGripError as exc:
            if exc.code != codes.GAME_LIVE:
                raise
            fail(_("the game of this record is still in play: only a finished game is "
                   "reviewed"))
    else:
        from devilsgrip.table.controller import Refusal
        from devilsgrip.table.stored import stored_table

        game_id, store = stored
        with store:
            controller = stored_table(store, game_id)
            try:
                controller.review_start()  # its stock is shown now: the game's result stands
            except Refusal as refusal:
                if refusal.code != codes.GAME_LIVE:
                    fail(refusal.text)
                fail(_("game {game_id} is still being played: only a finished game is "
                       "reviewed").format(game_id=game_id))
            review = _with_progress(args, lambda progress: controller.review(
                time_limit=args.time_limit, progress=progress,
                memory=args.memory))  # a kept review is read back
            game = controller.game
    if args.json:
        print(json.dumps(review.to_dict()))
        return 0
    words = table.Words()
    print(table.say_review(review, game, words))
    open_values = table.say_open_values(review, words)
    if open_values is not None:
        print(open_values)
    costly = review.costly
    if costly:
        told = table.review_moves_in_words(review, game, words)
        print()
        print(_("Moves that cost cards:"))
        for m in costly:
            mark = "" if m.proven else "~"
            played, better = told[m.n]
            seen = {"mistake": _("could be seen"), "hindsight": _("only with hindsight")}.get(
                m.seen or "", "")
            line = _("{n:>4}. {played}: +{cost}, best after {mark}{best}").format(
                n=m.n, played=played, cost=m.cost, mark=mark, best=m.best)
            if better:
                line += "; " + _("better: {better}").format(better=better)
            if seen:
                line += f" ({seen})"
            print(line)
    return 0
