"""The reviews a browser has made or has in the making: which one a request finds, and
starting one in the solver's pool.

A review takes seconds of CPU, so it runs in the solver's pool and the page
follows it (the API's ``POST`` and ``GET /api/review``, in :mod:`devilsgrip.web.api`).
A browser keeps its last few reviews in memory; the store keeps every finished one.
A browser reviews its own games only: another owner's game is "not found"."""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Final

from devilsgrip import codes
from devilsgrip.i18n import N_
from devilsgrip.table.controller import Table
from devilsgrip.table.reviews import LONGER_REVIEW
from devilsgrip.table.stored import finished_table
from devilsgrip.web.browsers import Browser, WebState
from devilsgrip.web.jobs import ReviewJob
from devilsgrip.web.responses import WebError

if TYPE_CHECKING:
    from devilsgrip.table.controller import Review

REVIEWS_KEPT: Final = 4
"""Reviews a browser keeps in memory (the store keeps every finished one)."""


def jobs(browser: Browser) -> OrderedDict[int | None, ReviewJob]:
    return browser.reviews


def _no_such_game() -> WebError:
    return WebError(404, codes.NO_SUCH_GAME, N_("there is no such game among your games"))


def longer_running(browser: Browser) -> bool:
    """Whether a longer review of this browser is running (it runs one at a time: a minute
    of the solver's pool each)."""
    return any(job.longer and job.task is not None and not job.task.done()
               for job in jobs(browser).values())


def kept_job(browser: Browser, game_id: int | None) -> ReviewJob | None:
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


def controller_for(web: WebState, browser: Browser, game_id: int | None) -> Table:
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


def start_review(web: WebState, browser: Browser, controller: Table, *,
                 again: bool = False) -> ReviewJob:
    """Start reviewing the game of ``controller`` (made final already) in the solver's pool;
    ``again``: anew, with :data:`LONGER_REVIEW` times the usual time (the better of the
    two reviews is kept)."""
    limit = web.options.review_time * (LONGER_REVIEW if again else 1.0)
    job = ReviewJob(controller.session.game_id, controller.game, limit, longer=again)

    def work() -> Review:
        return controller.review(time_limit=job.limit, progress=job.progress,
                                 sketch=job.sketch, again=again)

    job.task = web.run_solver(work)
    kept = jobs(browser)
    kept[job.game_id] = job
    kept.move_to_end(job.game_id)
    while len(kept) > REVIEWS_KEPT:
        oldest = next(iter(kept))
        kept.pop(oldest)
    return job


