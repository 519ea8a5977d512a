"""A search in a process beside the caller's: its answer, and nothing when it cannot run."""

from __future__ import annotations

import multiprocessing
import operator
import time

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
    """As in the terminal game, whose screen holds the standard streams: the win search
    is left out, and the solve goes on with the optimizing search."""
    context = multiprocessing.get_context("spawn")

    def refused(*_args: object, **_kwargs: object) -> None:
        raise ValueError("bad value(s) in fds_to_keep")

    monkeypatch.setattr(type(context), "SimpleQueue", refused)
    beside = Beside(operator.mul, 6, 7)
    assert not beside.started and beside.done() and beside.answer(1.0) is None
    game = Game(3, rules="single-pass")
    result = solve(game, time_limit=1.0)
    assert result.score > 0 and result.extra == {"win": "unknown"}
