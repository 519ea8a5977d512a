"""How the browser game's server runs: the ``devilsgrip play`` options."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass
class ServerOptions:
    """How to run the server (the ``devilsgrip play`` options)."""

    host: str = "127.0.0.1"
    port: int = 0
    db: Path | None = None
    """Database file; None: ``$DEVILSGRIP_DB`` or the user data directory."""
    use_store: bool = True
    """False: no database at all (games are not saved)."""
    lang: str | None = None
    """The server's language (``--lang``); None: the environment."""
    rules: str = "classic"
    game: int | None = None
    deck: str | None = None
    hint_time: float = 1.0
    solve_time: float = 10.0
    review_time: float = 10.0
    """Seconds for the whole review of a finished game."""
    browsers_apart: bool = False
    """True: each browser keeps its own games, this computer's too; False: a browser on this
    computer (a loopback address) plays as this computer's player, with the terminal game."""
    alone: bool = False
    """True: this process is the only user of the database while it runs (the static
    site's worker; see :meth:`devilsgrip.store.Store.open`)."""
    extra_hosts: tuple[str, ...] = ()
    """More ``Host`` header values to accept (``"testserver"`` for tests)."""
