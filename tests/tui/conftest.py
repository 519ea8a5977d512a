"""Fixtures of the terminal game's tests: a temporary store, screen text, snapshots.

The tests drive the Textual app with ``run_test()`` and its ``Pilot``; they are
plain functions that run their coroutine with :func:`asyncio.run` (no
pytest-asyncio needed).

Snapshots are the screen as plain text (what a person sees, without colours),
compared with the golden files in ``tests/tui/snapshots/``.  To regenerate them
after a deliberate change of the screens::

    DEVILSGRIP_UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/tui -k snapshot

and review the diff of ``tests/tui/snapshots/`` before committing it.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.console import Console
from textual.app import App

from devilsgrip.i18n import set_language
from devilsgrip.store import Store

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:  # the tests import pilot_waits
    sys.path.insert(0, _HERE)

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("DEVILSGRIP_UPDATE_SNAPSHOTS") == "1"


def _screen_text(app: App[object]) -> str:
    """The current screen as plain text, one line per terminal row (trailing blanks cut)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False,
                      safe_box=False)
    console.print(app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens))
    text = console.export_text(styles=False)
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """Every test starts and ends in English."""
    set_language("en")
    yield
    set_language("en")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    s = Store.open(db_path)
    yield s
    s.close()


@pytest.fixture
def screen_text() -> Callable[[App[object]], str]:
    return _screen_text


@pytest.fixture
def snapshot(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, str], None]:
    """``snapshot(name, text)``: compare with ``snapshots/<name>.txt`` (or write it).  The
    play clock stands still in a test that takes one (the screen shows 0:00)."""
    monkeypatch.setattr("devilsgrip.session.clock", lambda: 1000.0)

    def check(name: str, text: str) -> None:
        path = SNAPSHOTS / f"{name}.txt"
        if UPDATE or not path.exists():
            if not UPDATE:
                pytest.fail(f"no snapshot {path.name}: run with DEVILSGRIP_UPDATE_SNAPSHOTS=1")
            path.write_text(text, encoding="utf-8")
            return
        expected = path.read_text(encoding="utf-8")
        assert text == expected, f"screen differs from {path.name}:\n{text}"

    return check


def _path_keys(start: int, memory: int, goal: int) -> tuple[list[str], int]:
    """The shortest arrow-key presses from place ``start`` to ``goal``, and the new memory."""
    from collections import deque

    from devilsgrip.tui.places import step

    moves = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}
    seen = {(start, memory): ()}
    queue = deque([(start, memory)])
    while queue:
        place, mem = queue.popleft()
        if place == goal:
            return list(seen[(place, mem)]), mem
        for key, (dx, dy) in moves.items():
            nxt = step(place, dx, dy, mem)
            if nxt not in seen:
                seen[nxt] = (*seen[(place, mem)], key)
                queue.append(nxt)
    raise AssertionError(f"no path from {start} to {goal}")


@pytest.fixture
def path_keys() -> Callable[[int, int, int], tuple[list[str], int]]:
    return _path_keys
