"""Hatch build hook: compile the gettext catalogs into the wheel.

The ``.po`` files are committed and the ``.mo`` files are not (they are
git-ignored, so hatchling would leave them out): this hook compiles each
``src/devilsgrip/locale/<lang>/LC_MESSAGES/devilsgrip.po`` with Babel into
the build directory and force-includes the result at the same place in the
wheel.  For an editable install it compiles next to the ``.po`` instead
(devilsgrip.i18n would otherwise do it on first use).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogBuildHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        root = Path(self.root)
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
