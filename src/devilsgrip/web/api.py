"""The JSON API of the browser game (the contract in ``docs/ARCHITECTURE.md``).

Every handler gets the request, the server's state, the browser and the words
of the browser's language; every state sent comes from :meth:`View.to_dict`,
which never contains the order of unseen stock cards."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, Final

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from devilsgrip import i18n, table
from devilsgrip.cards import CARD_CODES, MAX_GAME_NUMBER
from devilsgrip.errors import DevilsGripError, IllegalMoveError
from devilsgrip.game import Game, Rating, Status
from devilsgrip.i18n import N_
from devilsgrip.notation import Move
from devilsgrip.solver import hint as find_hint
from devilsgrip.solver import solve
from devilsgrip.store import StoreError
from devilsgrip.table import ANIMATIONS, Event
from devilsgrip.table import Words as Tr
from devilsgrip.web.bodies import bool_field, only_keys, read_json, rules_field, string_field
from devilsgrip.web.browsers import Browser, WebState, cookie_token, set_cookie
from devilsgrip.web.responses import SafeJSONResponse, WebError, error_response, shown

HINT_PATIENCE: Final = 6.0
"""How many times its time limit the server waits for a hint before it gives up: the
hint's budgets are counted in nodes, which a busy machine takes longer to search."""
_TOLD_WITH_END: Final = frozenset({"move", "undo", "redo", "resume", "load", "changed"})


def game_state(web: WebState, browser: Browser, tr: Tr) -> dict[str, Any]:
    """The state document every game response carries (see the API contract)."""
    session = browser.session
    game: Game = session.game
    best: int | None = None
    with contextlib.suppress(DevilsGripError, sqlite3.Error, OSError):
        best = session.best_score()
    about = table.summary(session, tr, best)
    told = table.say_event(browser.event, game, tr)
    end = about.end if browser.event.kind in _TOLD_WITH_END else ""
    announce = " ".join(s for s in (told, end) if s)
    won = game.is_won()
    # what the page needs without asking, so that it decides nothing itself: what picking
    # up each place means (in words, the cells it builds on, the empty cells a drop swaps
    # with), what a click on the stock plays, the end's rating line, a won grid's swaps
    places = [p for p in table.PLACES
              if p != table.STOCK and table.pick_up_refusal(game, p) is None]
    empty = [c for c in range(len(game.grid)) if not game.grid[c]]
    stock_move = table.stock_move(game)
    if won:
        rating_line = ""
    elif game.rating is Rating.NONE:
        rating_line = tr.gettext("No rating: that takes a score of 10 or less.")
    else:
        rating_line = tr.gettext("Rating: {rating}").format(rating=about.rating)
    return {
        "view": game.view().to_dict(),
        "game": {
            "id": session.game_id,
            "number": game.number,
            "rules": str(game.rules),
            "saving": session.saving,
            "warning": about.warning,
            "best_score": best,
            "new_best": about.new_best,
            "final": session.final,
            "leave_asks": session.leave_asks,
            "started": session.started,
            "elapsed": round(session.elapsed(), 1),
            "clock_running": session.clock_running,
        },
        "labels": {
            "deal": about.deal,
            "rules": about.rules,
            "status": about.status,
            "rating": about.rating,
            "redeals": about.redeals,
            "end": about.end,
            "rating_line": rating_line,
        },
        "can_undo": session.can_undo,
        "can_redo": session.can_redo,
        "last_move": browser.last_move,
        "announce": announce,
        "arrangement": ([[table.place_name(m.src), table.place_name(m.dst)]
                         for m in game.arrangement()] if won else []),
        "picked": {table.place_name(p): table.say_picked(game, p, tr) for p in places},
        "targets": {table.place_name(p): [table.place_name(c) for c in table.targets(game, p)]
                    for p in places},
        "swaps": {table.place_name(p): [table.place_name(c) for c in empty
                                        if c != p and table.drop_refusal(session, p, c) is None]
                  for p in places},
        "stock": (None if table.move_refusal(session, stock_move) is not None
                  else "deal" if stock_move == table.DEAL else "redeal"),
        "lang": tr.lang,
    }


Handler = Callable[[Request, WebState, Browser, Tr], Awaitable[Response]]
PublicHandler = Callable[[Request, Tr], Awaitable[Response]]


async def blocking(fn: Callable[..., Any], *args: Any) -> Any:
    """Run ``fn(*args)`` (a store write: it waits for the disk) in a worker thread."""
    return await anyio.to_thread.run_sync(partial(fn, *args))


def api(handler: Handler, *, locked: bool = True) -> Callable[[Request], Awaitable[Response]]:
    """Wrap a handler: find the browser, its language, and turn errors into JSON.

    With ``locked`` the handler runs holding the browser's lock (its requests
    take turns); other handlers take it themselves around what needs it.
    """

    async def endpoint(request: Request) -> Response:
        web: WebState = request.app.state.web
        token = cookie_token(request)
        try:
            browser, new = web.browser_for(token)
        except (DevilsGripError, sqlite3.Error, OSError) as exc:
            tr = Tr(web.language(request, None))
            return error_response(503, "store-failed", table.say_error(exc, tr))
        tr = Tr(web.language(request, browser))
        try:
            if locked:
                async with browser.lock:
                    response = await handler(request, web, browser, tr)
            else:
                response = await handler(request, web, browser, tr)
        except WebError as exc:
            response = error_response(exc.status, exc.code, exc.text(tr))
        except IllegalMoveError as exc:
            response = error_response(409, exc.code, table.say_error(exc, tr))
        except DevilsGripError as exc:
            if isinstance(exc, StoreError) and exc.code == "store-game-changed":
                # another window or server wrote this game: the session reloaded it
                browser.event = Event("changed")
                browser.last_move = None
                response = error_response(409, "game-changed", table.sentence(tr.gettext(N_(
                    "this game was changed in another window: it is shown again as it "
                    "stands"))))
            else:
                response = error_response(400, exc.code, table.say_error(exc, tr))
        except (sqlite3.Error, OSError) as exc:
            response = error_response(
                503, "store-failed",
                table.sentence(tr.gettext(N_("the game could not be saved: {reason}")).format(
                    reason=str(exc))),
            )
        if new or token != browser.token:
            set_cookie(response, browser.token)
        response.headers.setdefault("cache-control", "no-store")
        return response

    return endpoint


def public_api(handler: PublicHandler) -> Callable[[Request], Awaitable[Response]]:
    """Wrap a handler that needs no game: a known browser's language, no new session."""

    async def endpoint(request: Request) -> Response:
        web: WebState = request.app.state.web
        try:
            browser = web.known_browser(cookie_token(request))
        except (DevilsGripError, sqlite3.Error, OSError):
            browser = None
        tr = Tr(web.language(request, browser))
        try:
            response = await handler(request, tr)
        except WebError as exc:
            response = error_response(exc.status, exc.code, exc.text(tr))
        response.headers.setdefault("cache-control", "no-store")
        return response

    return endpoint


def state_response(web: WebState, browser: Browser, tr: Tr) -> JSONResponse:
    return SafeJSONResponse(game_state(web, browser, tr))


# ----------------------------------------------------------------- handlers
async def get_game(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    return state_response(web, browser, tr)


async def post_new(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    """A new game; the one being played is left (the page asked the player first)."""
    data = await read_json(request)
    only_keys(data, ("game", "deck", "rules"))
    number = data.get("game")
    deck = string_field(data, "deck", 2000)
    if number is not None and deck is not None:
        raise WebError(400, "game-and-deck", N_("give a game number or a deck, not both"))
    if number is not None:
        if isinstance(number, bool) or not isinstance(number, int | str) or (
                isinstance(number, str) and len(number) > 40):
            raise WebError(400, "bad-game-number",
                           N_("the game number must be a whole number from 1 to {max}"),
                           max=MAX_GAME_NUMBER)
        number = table.read_deal_number(number)  # the engine's reason when out of range
    rules = web.rules_of(browser, rules_field(string_field(data, "rules", 200)))
    session, event = await blocking(
        partial(table.new_game, browser.session, number=number, deck=deck, rules=rules))
    web.show(browser, session, event)
    return state_response(web, browser, tr)


async def post_restart(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    """The same deal again as a new game; the one being played is left."""
    data = await read_json(request)
    only_keys(data, ())
    session, event = await blocking(table.play_again, browser.session)
    web.show(browser, session, event)
    return state_response(web, browser, tr)


async def _played(web: WebState, browser: Browser, tr: Tr,
                  action: Callable[[], Event]) -> Response:
    event: Event = await blocking(action)
    browser.event = event
    move = event.effect.move if event.effect is not None and event.kind != "undo" else None
    browser.last_move = move.text() if move is not None else None
    return state_response(web, browser, tr)


async def post_move(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    data = await read_json(request)
    only_keys(data, ("move",))
    text = string_field(data, "move", 32)
    if text is None:
        raise WebError(400, "missing-field", N_("'{field}' is missing"), field="move")
    move = Move.from_text(text)
    return await _played(web, browser, tr, partial(table.play, browser.session, move))


async def post_drop(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    """What the player picked up at "from" dropped on "to" (``"swap": true``: a swap).

    The table's drop policy decides: a legal build is played, a pile dropped
    on an empty cell swaps with it, anything else is refused with the reason.
    """
    data = await read_json(request)
    only_keys(data, ("from", "to", "swap"))
    names = [string_field(data, key, 8) for key in ("from", "to")]
    if names[0] is None or names[1] is None:
        raise WebError(400, "missing-field", N_("'{field}' is missing"),
                       field="from" if names[0] is None else "to")
    source, target = table.parse_place(names[0]), table.parse_place(names[1])
    session = browser.session
    if bool_field(data, "swap"):
        move: Move | None = table.swap_move(session.game, source, target)
    else:
        move = table.drop_move(session.game, source, target)
    if move is None:
        browser.event = Event("putback")
        return state_response(web, browser, tr)
    return await _played(web, browser, tr, partial(table.play, session, move))


async def post_stock(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    """A click on the stock: deal, or redeal once the stock is empty."""
    data = await read_json(request)
    only_keys(data, ())
    session = browser.session
    move = table.stock_move(session.game)
    return await _played(web, browser, tr, partial(table.play, session, move))


async def post_undo(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    data = await read_json(request)
    only_keys(data, ())
    return await _played(web, browser, tr, partial(table.undo, browser.session))


async def post_redo(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    data = await read_json(request)
    only_keys(data, ())
    return await _played(web, browser, tr, partial(table.redo, browser.session))


async def post_giveup(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    data = await read_json(request)
    only_keys(data, ())
    await blocking(browser.session.give_up)
    browser.last_move = None
    browser.event = Event("giveup")
    return state_response(web, browser, tr)


async def post_clock(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    """``{"running": false}`` while the page is hidden, ``true`` when it is back."""
    data = await read_json(request)
    only_keys(data, ("running",))
    running = bool_field(data, "running")
    if running is None:
        raise WebError(400, "missing-field", N_("'{field}' is missing"), field="running")
    session = browser.session
    if running:
        session.resume_clock()
    else:
        await blocking(session.pause)
    return SafeJSONResponse({"elapsed": round(session.elapsed(), 1),
                         "running": session.clock_running})


async def in_thread(fn: Callable[[], Any], limit: float) -> Any:
    """Run ``fn`` in a worker thread; give up waiting after ``limit`` seconds."""
    with anyio.fail_after(limit):
        return await anyio.to_thread.run_sync(fn, abandon_on_cancel=True)


async def get_hint(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    none: dict[str, Any] = {"move": None, "code": "no-hint", "cells": [], "places": []}
    async with browser.lock:
        game: Game = browser.session.game
        refusal = table.hint_refusal(browser.session, tr)
        if refusal is not None:
            return SafeJSONResponse(none | {"text": refusal})
        copy = game.copy()
        key = game.key()
    limit = web.options.hint_time
    try:
        result = await in_thread(lambda: find_hint(copy, time_limit=limit),
                                  limit * HINT_PATIENCE + 5.0)
    except TimeoutError:  # not "no move helps": the machine was too busy to tell in time
        return SafeJSONResponse(none | {"code": "hint-timeout", "text": tr.gettext(
            N_("No hint this time: it could not be worked out."))})
    if result is None:
        return SafeJSONResponse(none | {"text": table.say_hint(None, copy, tr)})
    move = result.move
    async with browser.lock:
        if browser.session.game is game and game.key() == key:
            with contextlib.suppress(DevilsGripError, sqlite3.Error, OSError):
                await blocking(browser.session.record_hint, move)
    places = table.move_places(move)
    return SafeJSONResponse({
        "move": move.text(),
        "code": result.code,
        "text": table.say_hint(result, copy, tr),
        "cells": [table.place_name(p) for p in places if p < table.STOCK],
        "places": [table.place_name(p) for p in places],
    })


async def get_picked(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    """``?place=a1``: what picking up there means, in words (the card and where it can go).

    Refused (409, with the reason) where nothing can be picked up; nothing changes.
    """
    name = request.query_params.get("place")
    if name is None:
        raise WebError(400, "missing-field", N_("'{field}' is missing"), field="place")
    place = table.parse_place(name[:8])
    game: Game = browser.session.game
    problem = table.pick_up_refusal(game, place)
    if problem is None and place == table.STOCK:
        problem = table.refusal(game, table.STOCK, 0)
    if problem is not None:
        raise problem
    return SafeJSONResponse({"place": table.place_name(place),
                             "text": table.say_picked(game, place, tr)})


async def get_refusal(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    """Why an action would be refused, asked before acting (nothing changes):
    ``?from=a1&to=c2`` a drop, ``?move=d`` a move, ``?from=stock&to=stock`` the stock's click.

    ``{"error": null, "message": null}`` when it would be played.  The page asks this
    instead of sending what ``view.legal`` already excludes; the action itself still
    answers 409 with the same reason.
    """
    query = request.query_params
    session = browser.session
    text = query.get("move")
    if text is not None:
        problem = table.move_refusal(session, Move.from_text(text[:32]))
    else:
        names = [query.get(key) for key in ("from", "to")]
        if names[0] is None or names[1] is None:
            raise WebError(400, "missing-field", N_("'{field}' is missing"),
                           field="from" if names[0] is None else "to")
        source, target = table.parse_place(names[0][:8]), table.parse_place(names[1][:8])
        if source == target == table.STOCK:
            problem = table.move_refusal(session, table.stock_move(session.game))
        else:
            problem = table.drop_refusal(session, source, target)
    if problem is None:
        return SafeJSONResponse({"error": None, "message": None})
    return SafeJSONResponse({"error": problem.code, "message": table.say_error(problem, tr)})


async def get_stats(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    best: int | None = None
    with contextlib.suppress(DevilsGripError, sqlite3.Error, OSError):
        best = browser.session.best_score()
    if web.store is None:
        return SafeJSONResponse({"saving": False, "best": best})
    stats = web.store.stats(owner=browser.owner).to_dict()
    stats.pop("owner", None)  # the owner names the session token: never in a body
    return SafeJSONResponse(dict(stats) | {"saving": True, "best": best})


async def get_solution(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    """The solver's line for this deal, to watch: it never changes the player's moves.

    Answered only once the game has ended (over, won or given up), so showing
    the whole stock then gives nothing away; from the first request on, the
    game is final with the result it had (undo can no longer reopen it).
    """
    async with browser.lock:
        await blocking(browser.session.make_final)
        future = _solution_future(web, browser)
    try:
        solution = await asyncio.shield(future)
    except TimeoutError as exc:
        raise WebError(503, "solver-timeout", N_("the solver ran out of time")) from exc
    return SafeJSONResponse(solution)


def _solution_future(web: WebState, browser: Browser) -> asyncio.Future[dict[str, Any]]:
    """The solver's line from the start of this deal (computed once per game).

    ``positions`` holds the view of every position along the line, from the
    deal's start (``positions[0]``) to the end of the line (``positions[-1]``,
    whose score is ``score``), so the page can replay it without sending a move.
    """
    game: Game = browser.session.game
    key = (browser.session.game_id, game.start_position, str(game.rules))
    future = browser.solution
    if future is None or browser.solution_key != key or (
        future.done() and (future.cancelled() or future.exception() is not None)
    ):
        start = game.copy()
        start.restart()
        limit = web.options.solve_time

        async def compute() -> dict[str, Any]:
            def work() -> dict[str, Any]:
                result = solve(start, time_limit=limit)
                return _solution_doc(start, result.moves, result.score, bool(result.proven))

            doc: dict[str, Any] = await in_thread(work, limit + 5.0)
            return doc

        future = asyncio.ensure_future(compute())
        browser.solution = future
        browser.solution_key = key
    return future


def _solution_doc(start: Game, moves: tuple[Move, ...], score: int,
                  proven: bool) -> dict[str, Any]:
    """The line as the API sends it: its moves and the view of every position on it."""
    game = start.copy()
    positions = [game.view().to_dict()]
    for move in moves:
        game.play(move)  # checked: a wrong line fails here, not in the page
        positions.append(game.view().to_dict())
    return {
        "score": score,
        "proven": proven,
        "moves": [m.text() for m in moves],
        "positions": positions,
    }


def _settings_doc(browser: Browser, tr: Tr, web: WebState) -> dict[str, Any]:
    rules = web.rules_of(browser, None)
    return {
        "lang": tr.lang,
        "four_colour": bool(browser.settings.get("four_colour", False)),
        "animation": browser.settings.get("animation", "normal"),
        "rules": rules,
        "rules_parts": table.rules_parts(rules),
        "presets": table.presets_doc(tr),
        "languages": list(i18n.LANGUAGES),
        "animations": list(ANIMATIONS),
    }


async def get_settings(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    return SafeJSONResponse(_settings_doc(browser, tr, web))


async def post_settings(request: Request, web: WebState, browser: Browser, tr: Tr) -> Response:
    data = await read_json(request)
    only_keys(data, ("lang", "four_colour", "animation", "rules"))
    changes: dict[str, Any] = {}
    lang = string_field(data, "lang", 16)
    if lang is not None:
        if lang not in i18n.LANGUAGES:
            raise WebError(400, "bad-language", N_("unknown language '{lang}' (choose from "
                                                   "{languages})"),
                           lang=shown(lang), languages=", ".join(i18n.LANGUAGES))
        changes["lang"] = lang
    four = bool_field(data, "four_colour")
    if four is not None:
        changes["four_colour"] = four
    animation = string_field(data, "animation", 16)
    if animation is not None:
        if animation not in ANIMATIONS:
            raise WebError(400, "bad-animation", N_("unknown animation speed '{value}' (choose "
                                                    "from {choices})"),
                           value=shown(animation), choices=", ".join(ANIMATIONS))
        changes["animation"] = animation
    rules = rules_field(string_field(data, "rules", 200))
    if rules is not None:
        changes["rules"] = rules
    for key, value in changes.items():
        await blocking(web.set_setting, browser, key, value)
    tr = Tr(web.language(request, browser))
    return SafeJSONResponse(_settings_doc(browser, tr, web))


def _query_lang(request: Request, tr: Tr) -> str:
    value = request.query_params.get("lang")
    if value is None:
        return tr.lang
    if value not in i18n.LANGUAGES:
        raise WebError(400, "bad-language",
                       N_("unknown language '{lang}' (choose from {languages})"),
                       lang=shown(value, 16), languages=", ".join(i18n.LANGUAGES))
    return value


async def get_i18n(request: Request, tr: Tr) -> Response:
    lang = _query_lang(request, tr)
    words = Tr(lang)
    return SafeJSONResponse({
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
    })


async def get_rules(request: Request, tr: Tr) -> Response:
    lang = _query_lang(request, tr)
    return SafeJSONResponse({"lang": lang, "text": i18n.rules_text(lang)})
