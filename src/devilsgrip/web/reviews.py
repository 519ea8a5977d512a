"""The review of a finished game in the browser, and the game history.

A review takes seconds of CPU, so it runs in the solver's pool and the page
follows it: ``POST /api/review`` starts it (or finds it running, or kept in the
store) and ``GET /api/review`` tells how far it is, then gives the review with
the story, the costly moves in words and the view of every position of the
game.  Only a game that has ended is reviewed (``game-live`` otherwise: the
review shows the stock); reviewing a game that is over makes it final.  A
browser reviews its own games only: another owner's game is "not found".
The shapes are in the API contract (``docs/ARCHITECTURE.md``)."""

from __future__ import annotations

import concurrent.futures
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Final

from devilsgrip import codes, table
from devilsgrip.game import Game
from devilsgrip.i18n import N_
from devilsgrip.table import Words as Tr
from devilsgrip.table.controller import Table
from devilsgrip.table.stored import finished_table
from devilsgrip.web.bodies import only_keys
from devilsgrip.web.browsers import Browser, WebState
from devilsgrip.web.calls import Call
from devilsgrip.web.jobs import ReviewJob
from devilsgrip.web.responses import WebError

if TYPE_CHECKING:
    from devilsgrip.table.controller import Review
from devilsgrip.web.views import view_dict

REVIEW_WAIT: Final = 0.4
"""Seconds a request waits for a review before it answers "running" (a kept review is
read within it, so asking again is answered at once)."""
REVIEW_PATIENCE: Final = 3.0
"""How many times its time limit (+10 s) the server lets a review run before giving up."""
REVIEWS_KEPT: Final = 4
"""Reviews a browser keeps in memory (the store keeps every finished one)."""
HISTORY_LIMIT: Final = 200
"""Finished games the history lists at most, the latest first."""
MAX_GAME_ID: Final = 2**62


def jobs(browser: Browser) -> OrderedDict[int | None, ReviewJob]:
    return browser.reviews


def review_doc(game_id: int | None, game: Game, review: Review, tr: Tr) -> dict[str, Any]:
    """The finished review as the API sends it (see the API contract)."""
    costly = table.costly_moves(review, game, tr)
    return {
        "status": "done",
        "id": game_id,
        "review": review.to_dict(),
        "proven_share": review.proven_share,
        "story": table.say_review(review, game, tr),
        "number": game.number,
        "deal": table.deal_label(game, tr),
        "rules": table.rules_label(game.rules, tr),
        "costly": [{
            "n": m.n, "move": m.move, "better": m.better, "cost": m.cost, "best": m.best,
            "proven": m.proven, "seen": m.seen, "text": m.line, "played_text": m.played_text,
            "better_text": m.better_text, "seen_text": m.seen_words,
            "arrows": {
                "played": [table.place_name(p) for p in m.played_arrow],
                "better": None if m.better_arrow is None
                else [table.place_name(p) for p in m.better_arrow],
            },
        } for m in costly],
        "positions": played_views(game),
    }


def played_views(game: Game) -> list[dict[str, Any]]:
    """The view of every position of the game as it was played: the deal, then after each
    move (``positions[n]`` after move ``n``; the last one is the game as it ended)."""
    walker = game.copy()
    walker.restart()
    views = [view_dict(walker.view())]
    for move in game.move_stack[:-1]:
        walker.push(move)
        views.append(view_dict(walker.view()))
    if game.move_stack:
        views.append(view_dict(game.view()))
    return views


# ------------------------------------------------------------------ finding
def _game_id(value: object) -> int | None:
    """The ``id`` a request names (None: the browser's current game)."""
    if value is None:
        return None
    if isinstance(value, str) and value.isdigit() and len(value) <= 20:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_GAME_ID:
        raise WebError(400, codes.BAD_GAME_ID, N_("the game id must be a whole number from 1 to "
                                              "{max}"), max=MAX_GAME_ID)
    return value


def _no_such_game() -> WebError:
    return WebError(404, codes.NO_SUCH_GAME, N_("there is no such game among your games"))


def _kept_job(browser: Browser, game_id: int | None) -> ReviewJob | None:
    """The browser's review of that game already made or in the making, if any."""
    current = browser.table.session
    key = current.game_id if game_id is None else game_id
    job = jobs(browser).get(key)
    if job is None:
        return None
    if key is None and job.game is not current.game:
        return None  # an unsaved game replaced by another
    task = job.task
    if task is not None and task.done() and (task.cancelled() or task.exception() is not None):
        return None  # a failed one is made again
    jobs(browser).move_to_end(key)
    return job


def _controller_for(web: WebState, browser: Browser, game_id: int | None) -> Table:
    """The controller of the game to review: the browser's own, or one for a finished game
    of this browser by its id (refused as not found when it is another owner's)."""
    current = browser.table
    if game_id is None or game_id == current.session.game_id:
        return current
    store = web.store
    found = None if store is None else finished_table(store, browser.owner, game_id,
                                                      current.words)
    if found is None:
        raise _no_such_game()
    return found


def _start(web: WebState, browser: Browser, controller: Table) -> ReviewJob:
    """Start reviewing the game of ``controller`` (made final already) in the solver's pool."""
    job = ReviewJob(controller.session.game_id, controller.game, web.options.review_time)

    def work() -> Review:
        return controller.review(time_limit=job.limit, progress=job.progress,
                                 sketch=job.sketch)

    job.task = web.run_solver(work)
    kept = jobs(browser)
    kept[job.game_id] = job
    kept.move_to_end(job.game_id)
    while len(kept) > REVIEWS_KEPT:
        oldest = next(iter(kept))
        kept.pop(oldest)
    return job


def _answer(job: ReviewJob, tr: Tr, wait: float) -> dict[str, Any]:
    """How far the review is, or the review itself once it is made."""
    task = job.task
    assert task is not None
    if not task.done() and wait > 0:
        concurrent.futures.wait([task], timeout=wait)
    if not task.done():
        if time.monotonic() - job.began > job.limit * REVIEW_PATIENCE + 10.0:
            raise WebError(503, codes.SOLVER_TIMEOUT, N_("the solver ran out of time"))
        return job.running()
    review = task.result()
    doc = job.docs.get(tr.lang)
    if doc is None:
        doc = review_doc(job.game_id, job.game, review, tr)
        job.docs[tr.lang] = doc
    return doc


# ------------------------------------------------------------------ handlers
def post_review(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """``{}`` the current game, ``{"id": N}`` a finished game of this browser: start its
    review (or find it made) and answer its progress, or the review when it is ready."""
    only_keys(call.data, ("id",))
    game_id = _game_id(call.data.get("id"))
    with browser.lock:
        job = _kept_job(browser, game_id)
        if job is None:
            controller = _controller_for(web, browser, game_id)
            controller.review_start()  # its stock is shown now: the result stands
            job = _start(web, browser, controller)
    return _answer(job, tr, REVIEW_WAIT)


def get_review(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """``?id=N`` (or nothing: the current game): the review's progress, or the review.

    ``{"status": "none"}`` when this game has not been reviewed (POST starts it); a
    review kept in the store is read again.  Nothing changes the game here.
    """
    game_id = _game_id(call.query.get("id"))
    with browser.lock:
        job = _kept_job(browser, game_id)
        if job is None:
            controller = _controller_for(web, browser, game_id)
            if controller.kept_review() is None:
                return {"status": "none", "id": controller.session.game_id}
            job = _start(web, browser, controller)  # reads it at once
    return _answer(job, tr, REVIEW_WAIT)


def get_history(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """This browser's finished games, the latest first, each with its labels."""
    store = web.store
    if store is None:
        return {"saving": False, "total": 0, "games": []}
    entries, total = table.history(store, browser.owner, tr, limit=HISTORY_LIMIT)
    return {
        "saving": True,
        "total": total,
        "games": [{
            "id": e.game_id, "number": e.number, "deal": e.deal, "rules": e.rules,
            "status": e.status, "status_label": e.status_label, "score": e.score,
            "rating": e.rating, "rating_label": e.rating_label, "moves": e.moves,
            "seconds": round(e.seconds, 1), "started": e.started, "ended": e.ended,
            "reviewed": e.reviewed,
        } for e in entries],
    }
