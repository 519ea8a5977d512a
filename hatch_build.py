"""Hatch build hook: compile the gettext catalogs and the compiled search core.

The ``.po`` files are committed and the ``.mo`` files are not (they are
git-ignored, so hatchling would leave them out): this hook compiles each
``src/devilsgrip/locale/<lang>/LC_MESSAGES/devilsgrip.po`` with Babel into
the build directory and force-includes the result at the same place in the
wheel.  For an editable install it compiles next to the ``.po`` instead
(devilsgrip.i18n would otherwise do it on first use).

The compiled search core, ``devilsgrip.solver._core``, is built from
``src/devilsgrip/solver/_core.c`` with setuptools' ``build_ext`` (the compiler
and flags Python was built with): into the build directory and force-included in
the wheel, which then carries this platform's tag; for an editable install, next
to the source.  Where it cannot be built (no C compiler, no Python headers) the
wheel is pure Python and the pure-Python core runs: the build says so and goes
on.  ``DEVILSGRIP_CORE=python`` at build time skips it.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

EXTENSION = "devilsgrip.solver._core"
EXTENSION_SOURCE = "src/devilsgrip/solver/_core.c"


class CatalogBuildHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        compile_catalogs(Path(self.root), version, build_data)
        if getattr(self, "target_name", None) == "wheel":
            self._build_core(version, build_data)

    def _build_core(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile the search core; on failure leave the wheel pure Python."""
        if os.environ.get("DEVILSGRIP_CORE", "").strip().lower() == "python":
            return
        editable = version == "editable"
        try:
            from setuptools import Distribution, Extension
            from setuptools.command.build_ext import build_ext
            from setuptools.errors import CCompilerError, ExecError, PlatformError
        except ImportError as exc:
            self._pure(f"setuptools is missing ({exc})")
            return
        root = Path(self.root)
        work = Path(tempfile.mkdtemp(prefix="devilsgrip-core-"))
        extension = Extension(EXTENSION, sources=[EXTENSION_SOURCE],
                              extra_compile_args=["-O2"] if os.name != "nt" else [])
        dist = Distribution({"name": "devilsgrip", "ext_modules": [extension],
                             "package_dir": {"": "src"}, "script_name": "hatch_build.py"})
        command = build_ext(dist)
        command.inplace = editable
        command.build_lib = str(work / "lib")
        command.build_temp = str(work / "temp")
        cwd = os.getcwd()
        os.chdir(root)  # build_ext reads the sources and the package dir from here
        try:
            command.ensure_finalized()
            if editable:
                # a core built from an older source must not outlive a failed build
                Path(command.get_ext_fullpath(EXTENSION)).unlink(missing_ok=True)
            command.run()
            built = Path(command.get_ext_fullpath(EXTENSION)).resolve()
        except (CCompilerError, ExecError, PlatformError, OSError) as exc:
            self._pure(str(exc))
            return
        finally:
            os.chdir(cwd)
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        if not editable:
            relative = Path("devilsgrip", "solver", built.name)
            build_data["force_include"][str(built)] = relative.as_posix()

    def _pure(self, reason: str) -> None:
        print(f"devilsgrip: the compiled search core was not built ({reason}); "
              "the pure-Python core will run", file=sys.stderr)


def compile_catalogs(root: Path, version: str, build_data: dict[str, Any]) -> None:
    """Compile the .po catalogs: into the build directory, or next to them (editable)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    locale = root / "src" / "devilsgrip" / "locale"
    out = Path(tempfile.mkdtemp(prefix="devilsgrip-mo-")) if version != "editable" else None
    for po in sorted(locale.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as f:
            catalog = read_po(f)
        relative = po.relative_to(root / "src").with_suffix(".mo")
        mo = po.with_suffix(".mo") if out is None else out / relative
        mo.parent.mkdir(parents=True, exist_ok=True)
        with mo.open("wb") as f:
            write_mo(f, catalog, use_fuzzy=False)
        if out is not None:
            build_data["force_include"][str(mo)] = relative.as_posix()
