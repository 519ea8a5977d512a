"""The architecture's contracts (pyproject.toml's ``[tool.importlinter]``): they are kept,
each one catches the import it forbids, every module of the package is placed, and
docs/ARCHITECTURE.md names each of them."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

grimp = pytest.importorskip("grimp")
importlinter_api = pytest.importorskip("importlinter.api")

from importlinter.contracts.acyclic_siblings import AcyclicSiblingsContract  # noqa: E402
from importlinter.contracts.forbidden import ForbiddenContract  # noqa: E402
from importlinter.contracts.layers import LayersContract  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CONFIG = importlinter_api.read_configuration(str(ROOT / "pyproject.toml"))
CONTRACTS: dict[str, dict[str, Any]] = {c["id"]: c for c in CONFIG["contracts_options"]}
KINDS = {"layers": LayersContract, "forbidden": ForbiddenContract,
         "acyclic_siblings": AcyclicSiblingsContract}


@pytest.fixture(scope="module")
def graph() -> Any:
    """The package's import graph, as ``lint-imports`` builds it."""
    return grimp.build_graph("devilsgrip", include_external_packages=False)


def check(contract_id: str, graph: Any) -> bool:
    """Whether the contract ``contract_id`` is kept on ``graph`` (left as it was: a check
    takes the ignored imports out of the graph it is given)."""
    options = dict(CONTRACTS[contract_id])
    name, kind = options.pop("name"), options.pop("type")
    options.pop("id")
    contract = KINDS[kind](name, CONFIG["session_options"], options)
    return bool(contract.check(copy.deepcopy(graph), verbose=False).kept)


def test_the_contracts_are_kept() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def test_the_contracts_are_the_three_the_architecture_states() -> None:
    assert sorted(CONTRACTS) == ["acyclic", "engine", "screens"]


@pytest.mark.parametrize(("importer", "imported", "contract"), [
    ("devilsgrip.game", "devilsgrip.session", "engine"),
    ("devilsgrip.errors", "devilsgrip.i18n", "engine"),
    ("devilsgrip.cards", "devilsgrip.table.words", "engine"),
    ("devilsgrip.web.api", "devilsgrip.store", "screens"),
    ("devilsgrip.tui.widgets", "devilsgrip.solver.portfolio", "screens"),
    ("devilsgrip.commands.play", "devilsgrip.session", "screens"),
    ("devilsgrip.commands", "devilsgrip.review", "screens"),
    ("devilsgrip.store", "devilsgrip.session", "acyclic"),
    ("devilsgrip.table.words", "devilsgrip.table.controller", "acyclic"),
    ("devilsgrip.web.bodies", "devilsgrip.web.api", "acyclic"),
])
def test_a_forbidden_import_breaks_its_contract(graph: Any, importer: str, imported: str,
                                                contract: str) -> None:
    assert check(contract, graph)
    broken = copy.deepcopy(graph)
    broken.add_import(importer=importer, imported=imported)
    assert not check(contract, broken)


@pytest.mark.parametrize("importer", [
    "devilsgrip.commands.solve", "devilsgrip.commands.hint", "devilsgrip.commands.autoplay",
    "devilsgrip.commands.analyze", "devilsgrip.table.controller",
])
def test_the_solvers_front_ends_and_the_controller_may_use_it(graph: Any,
                                                               importer: str) -> None:
    allowed = copy.deepcopy(graph)
    allowed.add_import(importer=importer, imported="devilsgrip.solver.portfolio")
    assert check("screens", allowed)


def test_every_module_has_its_place_in_the_engine_contract(graph: Any) -> None:
    """A new module of the package is either engine or the rest: never left out."""
    placed = {tail.strip().strip("()") for layer in CONTRACTS["engine"]["layers"]
              for tail in layer.split(":")}
    tops = {module.split(".")[1] for module in graph.modules if "." in module}
    assert tops <= placed, sorted(tops - placed)


def test_the_architecture_names_every_contract() -> None:
    text = " ".join((ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8").split())
    for contract in CONTRACTS.values():
        assert f"`{contract['id']}`" in text, contract["id"]
        assert contract["name"] in text, contract["name"]
