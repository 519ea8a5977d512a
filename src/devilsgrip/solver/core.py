"""Which search core runs: the compiled one or the pure-Python reference.

The hot search of ``run`` mode (the exhaustive search, the win search, the
playouts), the lower bounds of every mode (with the test of a pile for every base),
the monotone relaxation's search and the honest player's rollouts exist twice:
in pure Python (the modules of this package, the reference) and compiled from C
(``devilsgrip.solver._core``, built with the package where a C compiler is).
The compiled core runs when it imports; the pure core everywhere else (no
compiler, a browser build).  ``DEVILSGRIP_CORE=python`` or ``compiled`` forces one;
forcing the compiled core where it is missing is an error.  Both give the same
node counts, scores, bounds and lines (``tests/solver/test_cores.py``).

>>> name() in ("compiled", "pure Python")
True
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any, Final

from devilsgrip import codes
from devilsgrip.errors import DevilsGripError
from devilsgrip.rules import Rules
from devilsgrip.solver.bounds import CardBounds, RunBounds

ENV_VAR: Final = "DEVILSGRIP_CORE"
"""The environment variable that forces a core: ``python`` or ``compiled``."""
PYTHON: Final = "python"
COMPILED: Final = "compiled"
CHOICES: Final = (PYTHON, COMPILED)


class CoreError(DevilsGripError):
    """The core asked for by ``DEVILSGRIP_CORE`` cannot run (raised when a search or
    ``devilsgrip --version`` first asks which core runs)."""


def _import_compiled() -> tuple[ModuleType | None, str]:
    try:
        return importlib.import_module("devilsgrip.solver._core"), ""
    except ImportError as exc:
        return None, str(exc)


_compiled, _missing_reason = _import_compiled()


def _choose(choice: str) -> ModuleType | None:
    if choice not in ("", *CHOICES):
        raise CoreError(codes.CORE_UNKNOWN,
                        f"{ENV_VAR}='{choice}' names no search core: choose '{PYTHON}' or "
                        f"'{COMPILED}'", choice=choice)
    if choice == PYTHON:
        return None
    if _compiled is None and choice == COMPILED:
        raise CoreError(codes.CORE_MISSING,
                        f"{ENV_VAR}=compiled, but the compiled search core is not built "
                        f"({_missing_reason}): reinstall devilsgrip where a C compiler is, "
                        f"or set {ENV_VAR}=python", reason=_missing_reason)
    return _compiled


def _from_environment() -> tuple[ModuleType | None, CoreError | None]:
    try:
        return _choose(os.environ.get(ENV_VAR, "").strip().lower()), None
    except CoreError as exc:
        return None, exc


_active, _error = _from_environment()


def _configure(module: ModuleType) -> None:
    import time

    from devilsgrip.solver.limits import PhaseEnd, TimeUp

    module.configure(TimeUp, PhaseEnd, time.perf_counter)


_configured = False


def compiled() -> ModuleType | None:
    """The compiled core's module when it is the one running, else None."""
    global _configured
    if _error is not None:
        raise _error
    if _active is not None and not _configured:
        _configure(_active)
        _configured = True
    return _active


def available() -> bool:
    """Whether the compiled core is built and imports."""
    return _compiled is not None


def name() -> str:
    """The core running: ``"compiled"`` or ``"pure Python"``."""
    return "compiled" if compiled() is not None else "pure Python"


@contextmanager
def using(choice: str) -> Iterator[None]:
    """Run the searches made inside with core ``choice`` (``python`` or ``compiled``),
    as ``DEVILSGRIP_CORE`` would; for tests and benchmarks."""
    global _active, _error
    before = _active, _error
    _active, _error = _choose(choice), None
    try:
        yield
    finally:
        _active, _error = before


class _CompiledLowerBound:
    """:meth:`Bounds.lower_bound`, computed by the compiled core (a mixin)."""

    fill_talon: bool
    unlimited: bool

    def use(self, rules: Rules, module: ModuleType) -> None:
        self._module = module
        self._redeals = -1 if rules.redeals is None else rules.redeals
        self._draw = rules.draw

    def lower_bound(self, g: Any, seq: list[int], seqcount: int, p: int, r: int,
                    best: int) -> int:
        bound: int = self._module.lower_bound(g, seq, p, r, best, self.fill_talon,
                                              self.unlimited, self._redeals, self._draw)
        return bound


class CompiledRunBounds(_CompiledLowerBound, RunBounds):
    """:class:`RunBounds` with the compiled core's lower bound."""


class CompiledCardBounds(_CompiledLowerBound, CardBounds):
    """:class:`CardBounds` with the compiled core's lower bound."""


def run_bounds(rules: Rules) -> RunBounds:
    """The bounds of a ``run``-mode search: the compiled core's where it runs."""
    module = compiled()
    if module is None:
        return RunBounds(rules)
    bounds = CompiledRunBounds(rules)
    bounds.use(rules, module)
    return bounds


def card_bounds(rules: Rules) -> CardBounds:
    """The bounds of a ``card``-mode search: the compiled core's where it runs."""
    module = compiled()
    if module is None:
        return CardBounds(rules)
    bounds = CompiledCardBounds(rules)
    bounds.use(rules, module)
    return bounds
