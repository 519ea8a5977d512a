"""Running the server: one uvicorn configuration, in this thread or in the background."""

from __future__ import annotations

import contextlib
import socket
import sys
import threading
import time
from collections.abc import Callable

import uvicorn
from starlette.applications import Starlette

from devilsgrip.i18n import _
from devilsgrip.web.app import create_app
from devilsgrip.web.browsers import shown_code
from devilsgrip.web.options import ServerOptions


def uvicorn_config(app: Starlette) -> uvicorn.Config:
    """The one uvicorn configuration of the game's server (foreground and background)."""
    return uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                          timeout_graceful_shutdown=2)


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (port 0: a free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP explicitly: asyncio sets TCP_NODELAY only on sockets that name it,
    # and without it keep-alive responses wait ~40 ms for delayed ACKs.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_of(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


class ServerThread:
    """A live server in a background thread (for tests and benchmarks).

    >>> server = ServerThread(ServerOptions(use_store=False)).start()
    >>> server.url.startswith("http://127.0.0.1:")
    True
    >>> server.stop()
    """

    def __init__(self, options: ServerOptions) -> None:
        self.options = options
        self.sock = bind_socket(options.host, options.port)
        self.port: int = self.sock.getsockname()[1]
        options.port = self.port
        self.app = create_app(options)
        self.server = uvicorn.Server(uvicorn_config(self.app))
        self.thread = threading.Thread(target=self._run, name=f"devilsgrip-web-{self.port}",
                                       daemon=True)
        self.url = url_of(options.host, self.port).rstrip("/")

    def _run(self) -> None:
        self.server.run(sockets=[self.sock])

    def start(self, timeout: float = 15.0) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the web server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        with contextlib.suppress(OSError):
            self.sock.close()


def tell_code(code: str) -> None:
    """Print the pairing code where the server runs (for a browser on another computer)."""
    print(_("A browser on another computer plays as this computer's player once the code "
            "{code} is typed in its Settings.").format(code=code), flush=True)


def serve(options: ServerOptions, *, open_browser: bool = True,
          announce: Callable[[str], None] = print) -> int:
    """Run the server in this thread until Ctrl-C; returns the exit status."""
    sock = bind_socket(options.host, options.port)
    options.port = sock.getsockname()[1]
    app = create_app(options)
    url = url_of(options.host, options.port)
    server = uvicorn.Server(uvicorn_config(app))

    def when_ready() -> None:
        deadline = time.monotonic() + 30
        while not server.started and time.monotonic() < deadline:
            if server.should_exit:
                return
            time.sleep(0.02)
        if not server.started:
            return
        web = app.state.web
        problem = web.store_problem(web.server_lang)
        if problem is not None:  # the terminal says it too, not only the page
            print(problem, file=sys.stderr, flush=True)
        announce(url)
        if web.pairing_code is not None:
            tell_code(shown_code(web.pairing_code))
            web.on_pairing_code = tell_code
        if open_browser:
            _open_browser(url)

    threading.Thread(target=when_ready, name="devilsgrip-announce", daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        with contextlib.suppress(OSError):
            sock.close()
    return 0


def _open_browser(url: str) -> None:
    import webbrowser

    with contextlib.suppress(Exception):
        webbrowser.open(url, new=2)
