"""The browser game's API as plain functions (the contract in ``docs/ARCHITECTURE.md``).

:func:`handle` takes the server's state, the browser's session token and one
:class:`Call` (method, path, query, JSON body, languages accepted) and returns
a :class:`Reply` (status and JSON).  It imports no HTTP framework: the HTTP
adapter (:mod:`devilsgrip.web.app`) wraps it, and any other transport can call
it the same way.  Every action goes through the browser's
:class:`~devilsgrip.table.controller.Table`; every state sent comes from its
snapshot, whose view never contains the order of unseen stock cards.

>>> from devilsgrip.web.options import ServerOptions
>>> from devilsgrip.web.browsers import WebState
>>> web = WebState(ServerOptions(use_store=False, game=5))
>>> reply = handle(web, None, Call("POST", "/api/stock"))
>>> reply.status, reply.body["announce"]
(200, 'Dealt 3 cards: 8♥, K♦, Q♦.')
>>> refused = handle(web, reply.token, Call("POST", "/api/drop", data={"from": "a1", "to": "b1"}))
>>> refused.status, refused.body["error"]
(409, 'card-is-base')
"""

from __future__ import annotations

import concurrent.futures
import sqlite3
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from datetime import date
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from devilsgrip import codes, i18n, table
from devilsgrip.cards import CARD_CODES, MAX_GAME_NUMBER
from devilsgrip.catalog import has_catalog
from devilsgrip.errors import DevilsGripError
from devilsgrip.game import Game, Move, Rating, Status, View
from devilsgrip.i18n import N_
from devilsgrip.rules import Rules
from devilsgrip.table import ANIMATIONS
from devilsgrip.table import Words as Tr
from devilsgrip.table.controller import Refusal, Snapshot, Table, find_best_line, search_hint
from devilsgrip.table.records import export_records, import_records, refusal_line
from devilsgrip.table.stored import HISTORY_SHOWN
from devilsgrip.web import reviews
from devilsgrip.web.bodies import MAX_IMPORT_BODY
from devilsgrip.web.browsers import LOCAL_OWNER, Browser, WebState
from devilsgrip.web.calls import Call, Reply
from devilsgrip.web.jobs import ReviewJob
from devilsgrip.web.responses import WebError, shown

if TYPE_CHECKING:
    from devilsgrip.table.controller import Review

HINT_PATIENCE: Final = 6.0
"""How many times its time limit the server waits for a hint before it gives up: the
hint's budgets are counted in nodes, which a busy machine takes longer to search."""


Handler = Callable[[WebState, Browser, Call, Tr], dict[str, Any]]
PublicHandler = Callable[[WebState, Call, Tr], dict[str, Any]]

_REFUSAL_STATUS: Final = {"illegal": 409, "changed": 409, "input": 400, "store": 503}


# ----------------------------------------------------------------- the fields of a call
def only_keys(data: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    for key in data:
        if key not in allowed:
            raise WebError(400, codes.UNKNOWN_FIELD, N_("unknown field '{field}'"),
                           field=shown(key))


def string_field(data: Mapping[str, Any], key: str, limit: int) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > limit:
        raise WebError(400, codes.BAD_FIELD,
                       N_("'{field}' must be text of at most {limit} characters"),
                       field=key, limit=limit)
    return value


def rules_field(value: str | None) -> str | None:
    if value is None:
        return None
    return str(Rules.parse(value))


def bool_field(data: Mapping[str, Any], key: str) -> bool | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, bool):
        raise WebError(400, codes.BAD_FIELD, N_("'{field}' must be true or false"), field=key)
    return value


def view_dict(view: View) -> dict[str, Any]:
    """``view`` as JSON-ready data (card codes and move texts); it never contains the
    order of unseen stock cards."""
    return {
        "rules": view.rules.text,
        "grid": [[CARD_CODES[c] for c in pile] for pile in view.grid],
        "talon": [CARD_CODES[c] for c in view.talon],
        "stock": view.stock_count,
        "stock_order": (
            None if view.stock_order is None else [CARD_CODES[c] for c in view.stock_order]
        ),
        "unseen": [CARD_CODES[c] for c in view.unseen],
        "redeals_done": view.redeals_done,
        "redeals_left": view.redeals_left,
        "moves": view.moves_played,
        "score": view.score,
        "rating": view.rating.value,
        "over": view.over,
        "won": view.won,
        "given_up": view.given_up,
        "legal": [m.text() for m in view.legal],
    }


def _rating_line(snap: Snapshot, words: Tr) -> str:
    """The end dialog's rating sentence (empty for a win: the title says it)."""
    if snap.view.won:
        return ""
    if snap.view.rating is Rating.NONE:
        return words.gettext(N_("No rating: that takes a score of 10 or less."))
    return words.gettext(N_("Rating: {rating}")).format(rating=snap.summary.rating)


def _picking(snap: Snapshot) -> dict[str, Any]:
    """What the page needs so that it decides nothing itself: what picking up each place
    means (in words, the cells it builds on, the empty cells a drop swaps with), and what
    a click on the stock plays."""
    name, pick = table.PLACE_NAMES, snap.picking
    return {
        "picked": {name[p]: said for p, said in pick.said.items()},
        "targets": {name[p]: [name[c] for c in cells] for p, cells in pick.targets.items()},
        "swaps": {name[p]: [name[c] for c in cells] for p, cells in pick.swaps.items()},
        "stock": (None if pick.stock is None
                  else "deal" if pick.stock == table.DEAL else "redeal"),
    }


def state_doc(controller: Table, snap: Snapshot, words: Tr, *,
              pending: bool = False) -> dict[str, Any]:
    """The state document every game response carries (see the API contract).

    ``pending``: the game is kept in memory until the player's first action stores it;
    it is said to be saving (it will be), with no warning.
    """
    about = snap.summary
    return {
        "view": view_dict(snap.view),
        "game": {
            "id": snap.game_id,
            "number": snap.number,
            "rules": snap.rules,
            "saving": snap.saving or pending,
            "warning": None if pending else about.warning,
            "best_score": about.best_before,  # the end dialog tells a new best against it
            "new_best": about.new_best,
            "fastest_before": about.fastest_before,  # and a win faster than the player's
            "new_fastest": about.new_fastest,
            "final": about.final,
            "leave_asks": about.leave_asks,
            "daily": snap.daily,
            "started": snap.started,
            "elapsed": snap.elapsed,
            "clock_running": snap.clock_running,
        },
        "labels": {
            "deal": about.deal,
            "rules": about.rules,
            "status": about.status,
            "rating": about.rating,
            "redeals": about.redeals,
            "end": about.end,
            "leave": snap.leave_warning,
            "rating_line": _rating_line(snap, words),
        },
        "can_undo": snap.can_undo,
        "can_redo": snap.can_redo,
        "applies": sorted(snap.applies),
        "last_move": snap.last_move.text() if snap.last_move is not None else None,
        "announce": snap.announce,
        "arrangement": [[table.PLACE_NAMES[m.src], table.PLACE_NAMES[m.dst]]
                        for m in snap.arrangement],
        **_picking(snap),
        "lang": words.lang,
    }


def _doc(web: WebState, browser: Browser, snap: Snapshot, tr: Tr) -> dict[str, Any]:
    return state_doc(browser.table, snap, tr, pending=web.pending(browser))


def _state(web: WebState, browser: Browser, tr: Tr) -> dict[str, Any]:
    return _doc(web, browser, browser.table.snapshot(), tr)


# ----------------------------------------------------------------- the door
def handle(web: WebState, token: str | None, call: Call) -> Reply:
    """Answer ``call`` for the browser of ``token`` (a new browser when it has none)."""
    route = ROUTES.get((call.method, call.path))
    if route is None:
        public = PUBLIC_ROUTES.get((call.method, call.path))
        if public is None:
            tr = Tr(web.language(call.accept_language, None))
            if call.path in PATHS:  # hint and best line change the game: POST only
                return Reply(405, {"error": codes.METHOD_NOT_ALLOWED, "message": table.sentence(
                    tr.gettext(N_("this address does not take that method")))})
            return Reply(404, {"error": codes.NOT_FOUND, "message": table.sentence(tr.gettext(
                N_("there is nothing here")))})
        return _public(web, token, call, public)
    handler, locked = route
    try:
        browser, new = web.browser_for(token, local=call.local)
    except (DevilsGripError, sqlite3.Error, OSError) as exc:
        tr = Tr(web.language(call.accept_language, None))
        return Reply(503, {"error": codes.STORE_FAILED, "message": table.say_error(exc, tr)})
    tr = Tr(web.language(call.accept_language, browser))
    browser.table.words = tr
    kept = None
    try:
        if call.method == "POST" and call.path not in NOT_ACTIONS and not browser.stored:
            with browser.lock:  # its first action: its session and game are stored now
                kept = web.keep(browser)
        if locked:
            with browser.lock:
                body = handler(web, browser, call, tr)
        else:
            body = handler(web, browser, call, tr)
        status = 200
    except WebError as exc:
        status, body = exc.status, {"error": exc.code, "message": exc.text(tr)}
    except (Refusal, DevilsGripError, sqlite3.Error, OSError) as exc:
        refusal = browser.table.refusal(exc)
        status = _REFUSAL_STATUS[refusal.kind]
        body = {"error": refusal.code, "message": refusal.text}
        if refusal.kind == "changed":  # the game as stored now comes with it, to be shown
            with browser.lock:
                body["state"] = _state(web, browser, tr)
    if kept is not None and status >= 400:  # refused: nothing is stored after all
        with browser.lock:
            web.unkeep(browser, kept)
    # this computer's player needs no cookie; a browser let in keeps the one it has
    cookie = browser.token if browser.token and (new or token != browser.token) else None
    return Reply(status, body, cookie)


def _public(web: WebState, token: str | None, call: Call, handler: PublicHandler) -> Reply:
    """A call that needs no game: a known browser's language, no new session."""
    try:
        browser = web.known_browser(token, local=call.local)
    except (DevilsGripError, sqlite3.Error, OSError):
        browser = None
    tr = Tr(web.language(call.accept_language, browser))
    try:
        return Reply(200, handler(web, call, tr))
    except WebError as exc:
        return Reply(exc.status, {"error": exc.code, "message": exc.text(tr)})


# ----------------------------------------------------------------- handlers
def get_game(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    return _state(web, browser, tr)


def post_new(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """A new game; the one being played is left (the page asked the player first)."""
    data = call.data
    only_keys(data, ("game", "deck", "rules", "winnable"))
    number = data.get("game")
    deck = string_field(data, "deck", 2000)
    if number is not None and deck is not None:
        raise WebError(400, codes.GAME_AND_DECK, N_("give a game number or a deck, not both"))
    if number is not None:
        if isinstance(number, bool) or not isinstance(number, int | str) or (
                isinstance(number, str) and len(number) > 40):
            raise WebError(400, codes.BAD_GAME_NUMBER,
                           N_("the game number must be a whole number from 1 to {max}"),
                           max=MAX_GAME_NUMBER)
        number = table.read_deal_number(number)  # the engine's reason when out of range
    rules = web.rules_of(browser, rules_field(string_field(data, "rules", 200)))
    winnable = bool_field(data, "winnable")
    if winnable is None:  # the player's setting, for the single-pass deals it applies to
        winnable = bool(browser.settings.get("winnable")) and has_catalog(rules)
    browser.table.new_game(number=number, deck=deck, rules=rules, winnable=winnable)
    browser.solution = None
    return _state(web, browser, tr)


def _day_field(text: str | None) -> date:
    """The page's day (its own calendar's date: the player's time zone), else today."""
    from devilsgrip.daily import parse_day

    return date.today() if text is None else parse_day(text[:32])


def get_daily(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """``?date=YYYY-MM-DD&rules=R``: the day's daily deal, the last days' results, the
    streaks (rules: the player's)."""
    today = _day_field(call.query.get("date"))
    rules = web.rules_of(browser, rules_field(call.query.get("rules", "")[:200] or None))
    return browser.table.daily_calendar(today, rules=rules).to_dict(tr)


def post_daily(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """``{"date": "YYYY-MM-DD", "rules": R}``: play that day's daily deal (the game being
    played is left: the page asked the player first)."""
    only_keys(call.data, ("date", "rules"))
    day = _day_field(string_field(call.data, "date", 32))
    rules = web.rules_of(browser, rules_field(string_field(call.data, "rules", 200)))
    browser.table.daily(day, rules=rules)
    browser.solution = None
    return _state(web, browser, tr)


def get_share(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """The text to share about the game once it has ended (it names no card), and what the
    link to its deal needs; refused (409) while the game is being played."""
    controller = browser.table
    text = controller.share()
    return {"text": text, "game": controller.game.number, "rules": str(controller.game.rules),
            "daily": controller.session.daily}


def post_restart(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """The same deal again as a new game; the one being played is left."""
    only_keys(call.data, ())
    browser.table.again()
    browser.solution = None
    return _state(web, browser, tr)


def _move_field(data: Mapping[str, Any]) -> Move:
    text = string_field(data, "move", 32)
    if text is None:
        raise WebError(400, codes.MISSING_FIELD, N_("'{field}' is missing"), field="move")
    return Move.from_text(text)


def _places(data: Mapping[str, Any]) -> tuple[table.Place, table.Place]:
    names = [string_field(data, key, 8) for key in ("from", "to")]
    if names[0] is None or names[1] is None:
        raise WebError(400, codes.MISSING_FIELD, N_("'{field}' is missing"),
                       field="from" if names[0] is None else "to")
    index = table.PLACE_INDEX  # the names as the page writes them; any other way, read
    source, target = index.get(names[0]), index.get(names[1])
    return (table.parse_place(names[0]) if source is None else source,
            table.parse_place(names[1]) if target is None else target)


def post_move(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    only_keys(call.data, ("move",))
    return _doc(web, browser, browser.table.play(_move_field(call.data)).state, tr)


def post_drop(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """What the player picked up at "from" dropped on "to" (``"swap": true``: a swap).

    The table's drop policy decides: a legal build is played, a pile dropped
    on an empty cell swaps with it, anything else is refused with the reason.
    """
    only_keys(call.data, ("from", "to", "swap"))
    source, target = _places(call.data)
    swap = bool(bool_field(call.data, "swap"))
    return _doc(web, browser, browser.table.drop(source, target, swap=swap).state, tr)


def post_stock(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """A click on the stock: deal, or redeal once the stock is empty."""
    only_keys(call.data, ())
    return _doc(web, browser, browser.table.stock().state, tr)


def post_undo(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    only_keys(call.data, ())
    return _doc(web, browser, browser.table.undo().state, tr)


def post_redo(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    only_keys(call.data, ())
    return _doc(web, browser, browser.table.redo().state, tr)


def post_giveup(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    only_keys(call.data, ())
    return _doc(web, browser, browser.table.give_up().state, tr)


def post_clock(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """``{"running": false}`` while the page is hidden, ``true`` when it is back."""
    only_keys(call.data, ("running",))
    running = bool_field(call.data, "running")
    if running is None:
        raise WebError(400, codes.MISSING_FIELD, N_("'{field}' is missing"), field="running")
    if running:
        browser.table.resume_clock()
    else:
        browser.table.pause()
    session = browser.table.session
    return {"elapsed": round(session.elapsed(), 1), "running": session.clock_running}


def post_hint(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """A hint, looked for in the solver's pool while the player's moves go on."""
    only_keys(call.data, ())
    none: dict[str, Any] = {"move": None, "code": codes.NO_HINT, "cells": [], "places": []}
    try:
        job = browser.table.hint_job()
    except Refusal as refusal:
        return none | {"text": refusal.text}
    limit = web.options.hint_time
    future = web.run_solver(partial(search_hint, job, time_limit=limit))
    try:
        result = future.result(timeout=limit * HINT_PATIENCE + 5.0)
    except TimeoutError:  # not "no move helps": the machine was too busy to tell in time
        future.cancel()  # a search still waiting for its turn is not begun
        return none | {"code": codes.HINT_TIMEOUT, "text": tr.gettext(
            N_("No hint this time: it could not be worked out."))}
    found = browser.table.hint_found(job, result)
    if found.move is None:
        return none | {"text": found.text}
    return {
        "move": found.move.text(),
        "code": found.code,
        "text": found.text,
        "cells": [table.place_name(p) for p in found.places if p < table.STOCK],
        "places": [table.place_name(p) for p in found.places],
    }


def get_picked(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """``?place=a1``: what picking up there means, in words (the card and where it can go).

    Refused (409, with the reason) where nothing can be picked up; nothing changes.
    """
    name = call.query.get("place")
    if name is None:
        raise WebError(400, codes.MISSING_FIELD, N_("'{field}' is missing"), field="place")
    place = table.parse_place(name[:8])
    outcome = browser.table.pick_up(place)
    return {"place": table.place_name(place), "text": outcome.said}


def get_refusal(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """Why an action would be refused, asked before acting (nothing changes):
    ``?from=a1&to=c2`` a drop, ``?move=d`` a move, ``?from=stock&to=stock`` the stock's click.

    ``{"error": null, "message": null}`` when it would be played; the action itself
    still answers 409 with the same reason.  A drop's answer also says whether the
    deliberate swap of the two places would be played instead (``swap``).
    """
    query = call.query
    session = browser.table.session
    text = query.get("move")
    if text is not None:
        move = Move.from_text(text[:32])
        problem = browser.table.why_not(lambda: table.move_refusal(session, move))
    else:
        source, target = _places({key: query.get(key) for key in ("from", "to")
                                  if query.get(key) is not None})
        if source == target == table.STOCK:
            problem = browser.table.why_not(
                lambda: table.move_refusal(session, table.stock_move(session.game)))
        else:
            problem = browser.table.why_not(
                lambda: table.drop_refusal(session, source, target))
            swap = browser.table.why_not(lambda: table.swap_refusal(session, source, target))
            return {"error": problem and problem.code, "message": problem and problem.text,
                    "swap": swap is None}
    if problem is None:
        return {"error": None, "message": None}
    return {"error": problem.code, "message": problem.text}


def get_stats(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """``?rules=R``: the player's statistics under the rules ``R`` (default: the game's;
    ``all``: every rules together), with the rules to choose from; the best on this deal
    comes with the game's own rules."""
    current = str(browser.table.game.rules)
    asked = call.query.get("rules", "")[:200]
    rules = asked if asked == table.ALL_RULES else rules_field(asked or current)
    best = {"best": browser.table.deal_best()} if rules == current else {}
    if web.store is None:
        return {"saving": False, "rules": current,
                "choices": table.stats_choices([], current, tr)} | best
    stats = web.store.stats(owner=browser.owner,
                            rules=None if rules == table.ALL_RULES else rules).to_dict()
    stats.pop("owner", None)  # the owner names the session token: never in a body
    choices = table.stats_choices(web.store.rules_played(owner=browser.owner), current, tr,
                                  shown=rules)
    return dict(stats) | {"saving": True, "rules": rules, "choices": choices} | best


def post_solution(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """The solver's line for this deal, to watch: it never changes the player's moves.

    Answered only once the game has ended (over, won or given up), so showing
    the whole stock then gives nothing away; from the first request on, the
    game is final with the result it had (undo can no longer reopen it).
    """
    only_keys(call.data, ())
    controller = browser.table
    key, start = controller.best_line_start()
    limit = web.options.solve_time
    with browser.lock:
        held = browser.solution
        if held is None or held[0] != key or held[1].cancelled() or (
                held[1].done() and held[1].exception()):
            future: Future[dict[str, Any]] = web.run_solver(
                partial(best_line_doc, start, time_limit=limit))
            browser.solution = (key, future)
        else:
            future = held[1]
    try:
        return future.result(timeout=limit + 5.0)
    except TimeoutError as exc:
        future.cancel()  # still waiting for its turn: dropped, asked again it starts anew
        raise WebError(503, codes.SOLVER_TIMEOUT, N_("the solver ran out of time")) from exc


def best_line_doc(start: Game, *, time_limit: float) -> dict[str, Any]:
    """The best line from ``start`` as the API sends it (the search and the views of its
    positions, worked out together where the search runs)."""
    line = find_best_line(start, time_limit=time_limit)
    return solution_doc(line.start, line.moves, line.score, line.proven)


def solution_doc(start: Game, moves: tuple[Move, ...], score: int,
                 proven: bool) -> dict[str, Any]:
    """The line as the API sends it: its moves and the view of every position on it."""

    game = start.copy()
    positions = [view_dict(game.view())]
    for move in moves:
        game.play(move)  # checked: a wrong line fails here, not in the page
        positions.append(view_dict(game.view()))
    return {
        "score": score,
        "proven": proven,
        "moves": [m.text() for m in moves],
        "positions": positions,
    }


def _settings_doc(browser: Browser, tr: Tr, web: WebState) -> dict[str, Any]:
    rules = web.rules_of(browser, None)
    return {
        "player": "local" if browser.owner == LOCAL_OWNER else "guest",
        "pairing": web.pairing_code is not None,
        "lang": tr.lang,
        "four_colour": bool(browser.settings.get("four_colour", False)),
        "winnable": bool(browser.settings.get("winnable", False)),
        "winnable_available": has_catalog(rules),
        "animation": browser.settings.get("animation", "normal"),
        table.SOUNDS: bool(browser.settings.get(table.SOUNDS, True)),
        table.GUIDE_SEEN: bool(browser.settings.get(table.GUIDE_SEEN, False)),
        # the first-game guide, until the player has put it away (on any screen)
        "guide": (None if browser.settings.get(table.GUIDE_SEEN)
                  else table.first_steps(tr, browser.table.game.rules).to_dict()),
        "rules": rules,
        "rules_parts": table.rules_parts(rules),
        "presets": table.presets_doc(tr),
        "languages": list(i18n.LANGUAGES),
        "animations": list(ANIMATIONS),
    }


def get_settings(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    return _settings_doc(browser, tr, web)


def get_export(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """This browser's games as the text of a records file (what ``devilsgrip export``
    writes), the file's name and how many games it holds, said in words."""
    out = export_records(web.store, browser.owner, words=tr, today=_day_field(
        call.query.get("date")))
    said = (tr.ngettext("{n} game exported to {path}", "{n} games exported to {path}",
                        out.count).format(n=out.count, path=out.name) if out.count
            else tr.gettext("There is no game to export yet."))
    return {"text": out.text, "count": out.count, "name": out.name, "said": said}


def post_import(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """``{"records": TEXT}``: the records of a file (what ``devilsgrip export`` writes) kept
    as this browser's games; the answer says how many came in and which were refused and
    why.  A file with no record the game can read is refused whole (400
    ``records-damaged``); nothing is written then."""
    only_keys(call.data, ("records",))
    text = string_field(call.data, "records", MAX_IMPORT_BODY)
    if text is None:
        raise WebError(400, codes.MISSING_FIELD, N_("'{field}' is missing"), field="records")
    done = import_records(web.store, browser.owner, text, tr)
    return {
        "imported": len(done.imported),
        "duplicates": done.duplicates,
        "refused": [{"record": index, "reason": reason,
                     "text": refusal_line(index, reason, tr)}
                    for index, reason in done.refused],
        "said": done.said,
    }


def post_settings(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    data = call.data
    only_keys(data, ("lang", "four_colour", "animation", "rules", table.SOUNDS,
                     table.GUIDE_SEEN, "winnable"))
    changes: dict[str, Any] = {}
    lang = string_field(data, "lang", 16)
    if lang is not None:
        if lang not in i18n.LANGUAGES:
            raise WebError(400, codes.BAD_LANGUAGE, N_("unknown language '{lang}' (choose from "
                                                   "{languages})"),
                           lang=shown(lang), languages=", ".join(i18n.LANGUAGES))
        changes["lang"] = lang
    for switch in ("four_colour", table.SOUNDS, table.GUIDE_SEEN, "winnable"):
        value = bool_field(data, switch)
        if value is not None:
            changes[switch] = value
    animation = string_field(data, "animation", 16)
    if animation is not None:
        if animation not in ANIMATIONS:
            raise WebError(400, codes.BAD_ANIMATION, N_("unknown animation speed '{value}' (choose "
                                                    "from {choices})"),
                           value=shown(animation), choices=", ".join(ANIMATIONS))
        changes["animation"] = animation
    rules = rules_field(string_field(data, "rules", 200))
    if rules is not None:
        changes["rules"] = rules
    for key, value in changes.items():
        web.set_setting(browser, key, value)
    tr = Tr(web.language(call.accept_language, browser))
    browser.table.words = tr
    return _settings_doc(browser, tr, web)


def post_pair(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """``{"code": "1234-5678"}``: the pairing code the server printed, typed in a browser on
    another computer; it then plays as this computer's player (its games, history and
    statistics, the terminal game's too).  Answers that player's state."""
    only_keys(call.data, ("code",))
    code = string_field(call.data, "code", 32)
    if code is None:
        raise WebError(400, codes.MISSING_FIELD, N_("'{field}' is missing"), field="code")
    if browser.owner != LOCAL_OWNER:
        if web.pairing_code is None:
            raise WebError(409, codes.PAIRING_OFF, N_(
                "this server listens on this computer only: there is no code to type"))
        if not web.pair(browser, code):
            raise WebError(403, codes.PAIRING_WRONG, N_(
                "that is not the code the server shows; type the code printed where the "
                "server runs"))
        browser = web.local_browser()
    with browser.lock:
        tr = Tr(web.language(call.accept_language, browser))
        browser.table.words = tr
        return _state(web, browser, tr)


def _query_lang(call: Call, tr: Tr) -> str:
    value = call.query.get("lang")
    if value is None:
        return tr.lang
    if value not in i18n.LANGUAGES:
        raise WebError(400, codes.BAD_LANGUAGE,
                       N_("unknown language '{lang}' (choose from {languages})"),
                       lang=shown(value, 16), languages=", ".join(i18n.LANGUAGES))
    return value


def get_i18n(web: WebState, call: Call, tr: Tr) -> dict[str, Any]:
    lang = _query_lang(call, tr)
    words = Tr(lang)
    return {
        "lang": lang,
        "strings": i18n.catalog_strings(lang),
        "plurals": i18n.catalog_plurals(lang),
        "plural_rule": i18n.PLURAL_RULES.get(lang, "n!=1"),
        "languages": list(i18n.LANGUAGES),
        "names": dict(i18n.LANGUAGE_NAMES),
        "cards": {code: i18n.card_label(c, lang) for c, code in enumerate(CARD_CODES)},
        "ratings": {key: i18n.rating_label(key, lang) for key in i18n.RATING_LABELS},
        "statuses": {s.value: table.status_label(s, words) for s in Status},
        "presets": {name: table.preset_label(name, words) for name in table.PRESET_LABELS},
    }


def get_rules(web: WebState, call: Call, tr: Tr) -> dict[str, Any]:
    lang = _query_lang(call, tr)
    return {"lang": lang, "text": i18n.rules_text(lang)}


# ----------------------------------------------------------------- the review and the history
# A review takes seconds of CPU, so it runs in the solver's pool and the page follows it:
# ``POST /api/review`` starts it (or finds it running, or kept in the store) and
# ``GET /api/review`` tells how far it is, then gives the review with the story, the costly
# moves in words and the view of every position of the game.  Only a game that has ended is
# reviewed (``game-live`` otherwise: the review shows the stock); reviewing a game that is
# over makes it final.  The shapes are in the API contract (``docs/ARCHITECTURE.md``).
REVIEW_WAIT: Final = 0.4
"""Seconds a request waits for a review before it answers "running" (a kept review is
read within it, so asking again is answered at once)."""
REVIEW_PATIENCE: Final = 3.0
"""How many times its time limit (+10 s) the server lets a review run before giving up."""
MAX_GAME_ID: Final = 2**62


def review_doc(game_id: int | None, game: Game, review: Review, tr: Tr) -> dict[str, Any]:
    """The finished review as the API sends it (see the API contract)."""
    costly = table.costly_moves(review, game, tr)
    return {
        "status": "done",
        "id": game_id,
        "review": review.to_dict(),
        "proven_share": review.proven_share,
        "story": table.say_review(review, game, tr),
        "open_values": table.say_open_values(review, tr),
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


def post_review(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """``{}`` the current game, ``{"id": N}`` a finished game of this browser: start its
    review (or find it made) and answer its progress, or the review when it is ready.
    ``"longer": true``: review it anew with more time, where its review left values open
    (``review-proven`` where it proved them all); one running is answered as it is."""
    only_keys(call.data, ("id", "longer"))
    game_id = _game_id(call.data.get("id"))
    longer = bool_field(call.data, "longer") or False
    with browser.lock:
        job = reviews.kept_job(browser, game_id)
        task = None if job is None else job.task
        if longer and (task is None or task.done()):
            if reviews.longer_running(browser):
                raise WebError(409, codes.REVIEW_BUSY, N_(
                    "a longer review is running already: this one can start once it ends"))
            controller = reviews.controller_for(web, browser, game_id)
            controller.review_again_start(None if task is None else task.result())
            job = reviews.start_review(web, browser, controller, again=True)
        elif job is None:
            controller = reviews.controller_for(web, browser, game_id)
            controller.review_start()  # its stock is shown now: the result stands
            job = reviews.start_review(web, browser, controller)
    return _answer(job, tr, REVIEW_WAIT)


def get_review(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """``?id=N`` (or nothing: the current game): the review's progress, or the review.

    ``{"status": "none"}`` when this game has not been reviewed (POST starts it); a
    review kept in the store is read again.  Nothing changes the game here.
    """
    game_id = _game_id(call.query.get("id"))
    with browser.lock:
        job = reviews.kept_job(browser, game_id)
        if job is None:
            controller = reviews.controller_for(web, browser, game_id)
            if controller.kept_review() is None:
                return {"status": "none", "id": controller.session.game_id}
            job = reviews.start_review(web, browser, controller)  # reads it at once
    return _answer(job, tr, REVIEW_WAIT)


def get_history(web: WebState, browser: Browser, call: Call, tr: Tr) -> dict[str, Any]:
    """This browser's finished games, the latest first, each with its labels."""
    store = web.store
    if store is None:
        return {"saving": False, "total": 0, "games": []}
    entries, total = table.history(store, browser.owner, tr, limit=HISTORY_SHOWN)
    return {
        "saving": True,
        "total": total,
        "games": [{
            "id": e.game_id, "number": e.number, "deal": e.deal, "rules": e.rules,
            "status": e.status, "status_label": e.status_label, "score": e.score,
            "rating": e.rating, "rating_label": e.rating_label, "moves": e.moves,
            "seconds": None if e.seconds is None else round(e.seconds, 1),
            "started": e.started, "ended": e.ended, "reviewed": e.reviewed,
        } for e in entries],
    }


def _routes() -> dict[tuple[str, str], tuple[Handler, bool]]:
    return {
        ("GET", "/api/game"): (get_game, True),
        ("POST", "/api/new"): (post_new, True),
        ("POST", "/api/restart"): (post_restart, True),
        ("POST", "/api/move"): (post_move, True),
        ("POST", "/api/drop"): (post_drop, True),
        ("POST", "/api/stock"): (post_stock, True),
        ("POST", "/api/clock"): (post_clock, True),
        ("POST", "/api/undo"): (post_undo, True),
        ("POST", "/api/redo"): (post_redo, True),
        ("POST", "/api/giveup"): (post_giveup, True),
        ("POST", "/api/hint"): (post_hint, False),
        ("GET", "/api/picked"): (get_picked, True),
        ("GET", "/api/refusal"): (get_refusal, True),
        ("GET", "/api/stats"): (get_stats, True),
        ("POST", "/api/solution"): (post_solution, False),
        ("POST", "/api/review"): (post_review, False),
        ("GET", "/api/review"): (get_review, False),
        ("GET", "/api/history"): (get_history, True),
        ("GET", "/api/daily"): (get_daily, True),
        ("POST", "/api/daily"): (post_daily, True),
        ("GET", "/api/share"): (get_share, True),
        ("GET", "/api/settings"): (get_settings, True),
        ("POST", "/api/settings"): (post_settings, True),
        ("POST", "/api/pair"): (post_pair, False),
        ("GET", "/api/export"): (get_export, True),
        ("POST", "/api/import"): (post_import, True),
    }


ROUTES: Final = _routes()
"""Each call of a player's game: (method, path) -> (handler, whether it runs holding the
browser's lock; the others take it around what needs it and search without it)."""
PUBLIC_ROUTES: Final[dict[tuple[str, str], PublicHandler]] = {
    ("GET", "/api/i18n"): get_i18n,
    ("GET", "/api/rules"): get_rules,
}
"""The calls that need no game (they never make a session)."""
PATHS: Final = frozenset(path for _method, path in (*ROUTES, *PUBLIC_ROUTES))
"""Every path of the API (a path asked with a method it does not take: 405)."""
SLOW_PATHS: Final = frozenset({"/api/hint", "/api/solution", "/api/review"})
"""The paths whose work is the solver's: an adapter runs them apart from the moves."""
NOT_ACTIONS: Final = frozenset({"/api/clock", "/api/pair"})
"""POSTs that are not a player's action (the page hidden or shown, a pairing code typed):
a browser that has not acted yet is not stored for them."""

