"""The browser game's API inside the page's Web Worker (under Pyodide).

The worker's script (``files/worker.js``) makes one :class:`WorkerDoor` on the data
folder it keeps in the browser (IndexedDB), then passes it each request of the page
as the HTTP adapter would: method, path with its query, JSON body, the languages the
browser accepts.  The answer is the status and the JSON text of
:func:`devilsgrip.web.api.handle`, the same as the local server's.  There are no
threads in the worker: the solver's work (hints, best lines, reviews) runs at once,
within its time limits, and the session token the server keeps in a cookie is kept
in a file beside the database.

>>> import tempfile
>>> from pathlib import Path
>>> door = WorkerDoor(Path(tempfile.mkdtemp()), game=5)
>>> status, text = door.answer("POST", "/api/stock", "{}", "en")
>>> status, '"announce":"Dealt 3 cards: 8♥, K♦, Q♦."' in text
(200, True)
>>> door.answer("POST", "/api/drop", '{"from": "a1", "to": "b1"}', "en")[0]
409
>>> import json
>>> before = json.loads(door.answer("GET", "/api/game", None, "en")[1])["view"]
>>> door.close()  # the page reloaded: its worker is gone, a new one opens the same game
>>> again = WorkerDoor(door.folder)
>>> json.loads(again.answer("GET", "/api/game", None, "en")[1])["view"] == before
True
>>> again.close()
"""

from __future__ import annotations

import contextlib
import gc
import os
import tempfile
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Final, TypeVar
from urllib.parse import parse_qsl, urlsplit

from devilsgrip import i18n
from devilsgrip.web.api import handle
from devilsgrip.web.bodies import body_limit, parse_json
from devilsgrip.web.browsers import TOKEN_RE, WebState
from devilsgrip.web.calls import Call
from devilsgrip.web.options import ServerOptions
from devilsgrip.web.responses import WebError, encode

T = TypeVar("T")

DB_NAME: Final = "devilsgrip.sqlite3"
TOKEN_NAME: Final = "session"
"""The file beside the database holding this browser's session token."""
LOG_PAGES: Final = 64
"""The database's write-ahead log is checkpointed at this many pages (256 KB): the
browser's file system writes each changed file whole into IndexedDB after every
move, so a move writes at most that much, and the database itself now and then."""


def run_now(work: Callable[[], T]) -> Future[T]:
    """The solver's work done at once (no thread to hand it to), as a finished future."""
    future: Future[T] = Future()
    try:
        future.set_result(work())
    except Exception as exc:
        future.set_exception(exc)
    return future


WARM_UP_CALLS: Final = (("GET", "/api/settings"), ("GET", "/api/i18n"), ("GET", "/api/game"),
                        ("POST", "/api/stock"), ("GET", "/api/picked?place=talon"),
                        ("GET", "/api/refusal?from=talon&to=a1"), ("POST", "/api/undo"))
"""What a page asks first: answered once, for a game kept nowhere, before a memory snapshot."""


def warm_up() -> None:
    """Import everything the page's first requests need (the store's too), and fill the
    catalogs' caches, by answering them for a game in a folder deleted after: the
    worker's memory snapshot taken after this starts the game without importing
    anything again."""
    with tempfile.TemporaryDirectory() as folder:
        door = WorkerDoor(folder, game=1)
        for method, path in WARM_UP_CALLS:
            door.answer(method, path, "{}" if method == "POST" else None, "en")
        for lang in i18n.LANGUAGES:
            door.answer("GET", f"/api/i18n?lang={lang}", None, lang)
        door.close()
        again = WorkerDoor(folder)  # a store that exists is opened another way
        again.answer("GET", "/api/game", None, "en")
        again.close()
    gc.collect()


class WorkerDoor:
    """The API for the one player of this browser, its games kept in ``folder``.

    ``persist=False``: nothing is kept (the browser refuses to store data for the
    page); the page then says that the game is not being saved.
    """

    def __init__(self, folder: Path | str, *, persist: bool = True, lang: str | None = None,
                 game: int | None = None) -> None:
        self.folder = Path(folder)
        if persist:  # the store makes no folder of its own (a mistyped one is refused)
            with contextlib.suppress(OSError):  # what cannot be made, the store reports
                self.folder.mkdir(parents=True, exist_ok=True)
        options = ServerOptions(db=self.folder / DB_NAME, use_store=persist, lang=lang, game=game,
                                alone=True)
        self.web = WebState(options, solver=run_now)
        self.web.open_store()
        if self.web.store is not None:
            self.web.store.bound_log(LOG_PAGES)
        self.token = self._read_token() if persist else None

    def _token_file(self) -> Path:
        return self.folder / TOKEN_NAME

    def _read_token(self) -> str | None:
        try:
            text = self._token_file().read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            return None
        return text if TOKEN_RE.fullmatch(text) else None

    def _keep_token(self, token: str) -> None:
        self.token = token
        if not self.web.options.use_store:
            return
        path = self._token_file()
        spare = path.with_name(path.name + ".new")
        with contextlib.suppress(OSError):  # a session not kept: the next start makes one
            spare.write_text(token, encoding="ascii")
            os.replace(spare, path)

    def answer(self, method: str, path: str, body: str | None,
               accept_language: str | None) -> tuple[int, str]:
        """One request of the page: (status, JSON text of the answer)."""
        where = urlsplit(path)
        query = dict(parse_qsl(where.query, keep_blank_values=True))
        try:
            data = parse_json((body or "").encode("utf-8", "surrogatepass"),
                              body_limit(where.path)) if method == "POST" else {}
        except WebError as exc:
            from devilsgrip.table import Words

            words = Words(self.web.language(accept_language, self.web.known_browser(self.token)))
            return exc.status, encode({"error": exc.code, "message": exc.text(words)}).decode()
        reply = handle(self.web, self.token, Call(method, where.path, data, query,
                                                  accept_language))
        if reply.token is not None and reply.token != self.token:
            self._keep_token(reply.token)
        return reply.status, encode(reply.body).decode("utf-8")

    def close(self) -> None:
        self.web.close_store()
