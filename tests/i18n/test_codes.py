"""Each refusal code is written once, in :mod:`devilsgrip.codes`, and has its sentence.

The package's Python code is read as syntax trees: docstrings and comments aside,
a code's string appears only where :mod:`devilsgrip.codes` names it, and every raise,
answer and comparison of a code goes through that name.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

import devilsgrip
from devilsgrip import codes
from devilsgrip.i18n import ERROR_MESSAGES
from devilsgrip.site.build import ERRORS as SITE_ERRORS
from devilsgrip.solver.hints import HINT_CODES

PACKAGE = Path(devilsgrip.__file__).parent
CODE_SHAPE = re.compile(r"[a-z]+(?:-[a-z]+)+")
"""What a reason code looks like: lower-case words joined by hyphens."""
NOT_REFUSALS = frozenset(HINT_CODES)
"""Why a hint suggests its move: another set of codes, kept by the hints' module."""

CODES: dict[str, str] = {
    name: value for name, value in vars(codes).items()
    if name.isupper() and isinstance(value, str)
}


def _trees() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


TREES: list[tuple[Path, ast.Module]] = list(_trees())


def _strings(tree: ast.AST) -> Iterator[ast.Constant]:
    """The string constants of ``tree`` that are code: docstrings (a string standing
    as a statement, a module's, a class's, a function's or an attribute's) aside."""
    docs = {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docs:
            yield node


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(PACKAGE.parent)}:{getattr(node, 'lineno', '?')}"


def test_the_constants_are_named_after_their_codes_and_all_differ() -> None:
    assert len(CODES) > 100
    for name, value in CODES.items():
        assert CODE_SHAPE.fullmatch(value), name
        assert name == value.upper().replace("-", "_"), name
    assert len(set(CODES.values())) == len(CODES)


def test_each_code_string_appears_once_in_the_package() -> None:
    seen: Counter[str] = Counter()
    places: dict[str, list[str]] = {}
    for path, tree in TREES:
        for node in _strings(tree):
            text = str(node.value)
            seen[text] += 1
            places.setdefault(text, []).append(_where(path, node))
    twice = {value: places[value] for value in CODES.values() if seen[value] != 1}
    assert not twice, f"written more than once, or not in devilsgrip.codes: {twice}"


def test_every_code_has_a_message_and_every_message_a_code() -> None:
    known = set(CODES.values())
    assert set(ERROR_MESSAGES) <= known, set(ERROR_MESSAGES) - known
    assert known >= codes.OWN_SENTENCE, codes.OWN_SENTENCE - known
    assert set(ERROR_MESSAGES) == known - codes.OWN_SENTENCE, (
        "in neither table: " + str(known - codes.OWN_SENTENCE - set(ERROR_MESSAGES)),
        "in both: " + str(set(ERROR_MESSAGES) & codes.OWN_SENTENCE),
    )
    assert set(SITE_ERRORS) <= codes.OWN_SENTENCE


def _code_takers() -> set[str]:
    """The names of the package's exception classes and of its callables that take a
    ``code`` parameter (the error classes, ``refuse``, ``error_response`` ...)."""
    bases: dict[str, set[str]] = {}
    takers: set[str] = set()
    for _, tree in TREES:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = {b.id if isinstance(b, ast.Name) else ast.unparse(b)
                                    for b in node.bases}
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names = [a.arg for a in (*node.args.posonlyargs, *node.args.args,
                                         *node.args.kwonlyargs)]
                if "code" in names and node.name != "__init__":
                    takers.add(node.name)
    errors = {"Exception", "ValueError"}
    grown = True
    while grown:
        new = {name for name, parents in bases.items() if parents & errors} - errors
        grown = bool(new)
        errors |= new
    return takers | (errors - {"Exception", "ValueError"})


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _literal_codes(nodes: list[ast.expr]) -> Iterator[ast.Constant]:
    for node in nodes:
        parts = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
        for part in parts:
            if isinstance(part, ast.Constant) and isinstance(part.value, str) \
                    and CODE_SHAPE.fullmatch(part.value) and part.value not in NOT_REFUSALS:
                yield part


def _written_codes(tree: ast.AST, takers: set[str]) -> Iterator[ast.Constant]:
    """Code-shaped string literals where a code is raised, answered or compared."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) in takers:
            yield from _literal_codes([*node.args, *(k.value for k in node.keywords)])
        elif isinstance(node, ast.Dict):  # an answer: {"error": code} or {"code": code}
            yield from _literal_codes([value for key, value in zip(node.keys, node.values,
                                                                   strict=True)
                                       if isinstance(key, ast.Constant)
                                       and key.value in ("error", "code")])
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(side, ast.Attribute | ast.Name)
                   and _name(side) in ("code", "error") for side in sides):
                yield from _literal_codes(sides)


def test_every_code_raised_answered_or_compared_is_a_constant() -> None:
    takers = _code_takers()
    assert {"DevilsGripError", "IllegalMoveError", "StoreError", "WebError", "Refusal",
            "error_response"} <= takers
    found = [f"{_where(path, node)} {node.value!r}"
             for path, tree in TREES for node in _written_codes(tree, takers)]
    assert not found, f"codes written as literals, not as devilsgrip.codes: {found}"


@pytest.mark.parametrize("source", [
    'raise IllegalMoveError("stock-empty", "the stock is empty")',
    'raise WebError(400, "brand-new-code", N_("a sentence"))',
    'return {"error": "store-failed", "message": text}',
    'if exc.code in ("game-live", "game-won"): pass',
])
def test_the_scan_sees_a_code_written_as_a_literal(source: str) -> None:
    tree = ast.parse(source if not source.startswith("return") else
                     f"def f():\n    {source}")
    assert list(_written_codes(tree, _code_takers()))
