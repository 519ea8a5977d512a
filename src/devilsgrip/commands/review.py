"""``devilsgrip review``: where a finished game lost its cards, and could the player see it."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import threading
import time
from typing import Any, Final

from devilsgrip import records
from devilsgrip.cli_support import fail, seconds, whole_number
from devilsgrip.commands import add_game_options, db_path, read_record
from devilsgrip.game import Game
from devilsgrip.i18n import _


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


def _game(args: argparse.Namespace) -> tuple[Game, int | None]:
    """The game to review and its stored id (None for a record)."""
    chosen = sum(bool(x) for x in (args.record is not None, args.last, args.game_id))
    if chosen != 1:
        fail(_("give a record file (or -), --last, or --game-id"))
    if args.record is not None:
        return records.read_record(read_record(args.record)), None
    from devilsgrip.i18n import translate_error
    from devilsgrip.store import Store, StoreError

    try:
        store = Store.open(db_path(args), create=False)
    except StoreError as exc:
        fail(translate_error(exc))
    with store:
        if args.last:
            finished = store.games(finished=True)
            if not finished:
                fail(_("there is no finished game in the store"))
            info = max(finished, key=lambda g: (g.ended or "", g.id))
        else:
            found = store.game_info(args.game_id)
            if found is None:
                fail(_("there is no game {game_id} in the store").format(game_id=args.game_id))
            info = found
        if not info.final:
            from devilsgrip.session import PlaySession

            session = PlaySession.resume(store, info.id)
            if not session.game.is_over():
                fail(_("game {game_id} is still being played: only a finished game is "
                       "reviewed").format(game_id=info.id))
            session.make_final()  # its stock is shown now: the game's result stands
        return store.load_game(info.id), info.id


def run(args: argparse.Namespace) -> int:
    from devilsgrip import table
    from devilsgrip.review import review_game

    game, game_id = _game(args)
    if not (game.is_over() or game.given_up or game.is_won() or game_id is not None):
        fail(_("the game of this record is still in play: only a finished game is reviewed"))
    bar = _ProgressLine(args.time_limit) if sys.stderr.isatty() else None
    try:
        review = review_game(game, time_limit=args.time_limit,
                             progress=bar.progress if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    if game_id is not None:
        from devilsgrip.store import Store

        with Store.open(db_path(args), create=False) as store:
            store.save_review(game_id, review.to_dict())
    if args.json:
        print(json.dumps(review.to_dict()))
        return 0
    words = table.Words()
    print(table.say_review(review, game, words))
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
