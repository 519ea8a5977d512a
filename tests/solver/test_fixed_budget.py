"""The solver's node counts and lines at fixed node budgets, against a golden record.

Every case runs the search with no clock, so the work it does is a function of
the position alone: the score, whether it was proven, the nodes spent and the
line found must match ``data/fixed_budget.json`` exactly.  A change meant to
keep the search's behaviour (a refactoring, a faster loop) must keep this
record; a change meant to alter it rewrites it on purpose (with the pure-Python
core, the reference)::

    DEVILSGRIP_CORE=python .venv/bin/python tests/solver/test_fixed_budget.py --write

Every case runs under both search cores, pure Python and compiled (where it is
built): the record holds them equal.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from devilsgrip.game import Game
from devilsgrip.solver import core, solve

RECORD = Path(__file__).resolve().parent / "data" / "fixed_budget.json"

CASES: tuple[tuple[int, str, int], ...] = (
    *((n, "classic", 40_000) for n in (1, 2, 3, 5, 8, 13)),
    *((n, "single-pass", 30_000) for n in (1, 2, 4, 7)),
    *((n, "literal", 30_000) for n in (1, 3, 6, 9)),
    (11, "classic,redeals=1", 30_000),
    (12, "single-pass,move_unit=card", 20_000),
    (14, "classic,fill_from_talon=false", 30_000),
)
"""(deal, rules, node budget): every preset, a limited number of redeals, card mode
with spaces filled from the talon, run mode without."""


def case_name(number: int, rules: str, nodes: int) -> str:
    return f"{number} {rules} {nodes}"


def run_case(number: int, rules: str, nodes: int) -> dict[str, object]:
    result = solve(Game(number, rules=rules), time_limit=None, max_nodes=nodes)
    return {"score": result.score, "proven": result.proven, "nodes": result.nodes,
            "moves": " ".join(m.text() for m in result.moves)}


def record() -> dict[str, dict[str, object]]:
    return {case_name(*case): run_case(*case) for case in CASES}


CORES = (
    core.PYTHON,
    pytest.param(core.COMPILED, marks=pytest.mark.skipif(
        not core.available(), reason="the compiled search core is not built here")),
)


@pytest.mark.slow  # about 3 s a case, half a minute in all
@pytest.mark.parametrize("core_name", CORES)
@pytest.mark.parametrize(("number", "rules", "nodes"), CASES)
def test_the_search_does_the_recorded_work(number: int, rules: str, nodes: int,
                                           core_name: str) -> None:
    golden = json.loads(RECORD.read_text(encoding="utf-8"))
    with core.using(core_name):
        assert run_case(number, rules, nodes) == golden[case_name(number, rules, nodes)]


def test_the_record_covers_every_case() -> None:
    golden = json.loads(RECORD.read_text(encoding="utf-8"))
    assert sorted(golden) == sorted(case_name(*case) for case in CASES)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(f"usage: {sys.argv[0]} --write")
    RECORD.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
