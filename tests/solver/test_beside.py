"""A search in a process beside the caller's: its answer, and nothing when it cannot run."""

from __future__ import annotations

import operator
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from devilsgrip.game import Game
from devilsgrip.solver import portfolio
from devilsgrip.solver.portfolio import Beside, solve

pytestmark = pytest.mark.skipif(not portfolio.beside_possible(), reason="one core")


# (the targets come from the standard library: the process beside imports a target by
# its module, and this one may not be importable there)
def test_the_answer_comes_back() -> None:
    beside = Beside(operator.mul, 6, 7)
    assert beside.started
    assert beside.answer(30.0) == 42
    assert beside.done()


def test_a_failing_or_slow_process_answers_nothing() -> None:
    assert Beside(int, "not a number").answer(30.0) is None
    began = time.monotonic()
    slow = Beside(time.sleep, 30.0)
    assert slow.answer(0.5) is None and time.monotonic() - began < 10


def test_no_process_to_be_had(monkeypatch: pytest.MonkeyPatch) -> None:
    """No process to be had (out of processes, or refused): the win search is left out,
    and the solve goes on with the optimizing search."""

    def refused(*_args: object, **_kwargs: object) -> None:
        raise OSError("Resource temporarily unavailable")

    monkeypatch.setattr(subprocess, "Popen", refused)
    beside = Beside(operator.mul, 6, 7)
    assert not beside.started and beside.done() and beside.answer(1.0) is None
    game = Game(3, rules="single-pass")
    result = solve(game, time_limit=1.0)
    assert result.score > 0 and result.extra == {"win": "unknown"}


def test_a_target_that_cannot_go_to_another_process_starts_nothing() -> None:
    beside = Beside(lambda: 42)  # a lambda has no module name to be found by
    assert not beside.started and beside.answer(1.0) is None


def test_a_script_with_no_main_guard_gets_the_search_beside(tmp_path: Path) -> None:
    """A script that solves a deal at its top level, as the library's examples read: the
    process beside does not run the script again (it used to, and died with a traceback
    on the script's output, so the win search's answer never came)."""
    script = tmp_path / "solve_three.py"
    script.write_text(textwrap.dedent("""\
        from devilsgrip.game import Game
        from devilsgrip.solver.portfolio import solve

        print("top level")
        result = solve(Game(3, rules="single-pass"), time_limit=5.0)
        print(result.extra["win"])
        """), encoding="utf-8")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=120, check=True)
    assert run.stdout.split() == ["top", "level", "lost"]
    assert run.stderr == ""
