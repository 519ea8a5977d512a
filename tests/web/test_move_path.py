"""The path of one web move through the API function (``benchmarks/move_path.py`` traces
it): legality checked once, the status worked out once, one database round trip."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "move_path.py"


def _tracer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("move_path", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


move_path = _tracer()

FILES_AT_MOST = 8
"""The package's files a move runs code in (17 when the path was first cut, 12 before the last
four left it): the API's function with its field checks and the view's JSON
(``web/api.py``), the browser found by its token (``web/browsers.py``), the player's
language (``i18n.py``) and words (``table/words.py``), the controller with its drop policy
(``table/controller.py``), the session (``session.py``), the rules with the move and its
text (``game.py``) and the store (``store.py``)."""


@pytest.mark.parametrize("path", ["/api/drop", "/api/move"])
def test_a_move_is_checked_once_told_once_and_stored_in_one_round_trip(
        tmp_path: Path, path: str) -> None:
    table = move_path.Game5Table(tmp_path / "games.sqlite3")
    table.call("GET", "/api/game")
    for _ in range(6):  # builds and deals, each through the whole path
        found = move_path.trace_move(table, path)
        assert found.status == 200
        assert len(found.files) <= FILES_AT_MOST, found.files
        assert found.legality_checks == 1, found
        assert found.status_checks == 1, found
        # one write transaction, the event and the game's new state in it, nothing else
        assert found.transactions == 1, found.sql
        assert found.sql[0].startswith("BEGIN") and found.sql[-1] == "COMMIT", found.sql
        inside = [" ".join(s.split()[:3]) for s in found.sql[1:-1]]
        assert inside == ["INSERT INTO events", "UPDATE games SET"], found.sql
