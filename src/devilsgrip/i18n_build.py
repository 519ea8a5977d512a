"""Compile the gettext catalogs (``locale/*/LC_MESSAGES/*.po`` -> ``.mo``).

Run by the setup commands (``python -m devilsgrip.i18n_build``) and on first
use when a catalog has no compiled file or an older one.  The ``.mo`` files
are not committed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from devilsgrip.i18n import LOCALE_DIR


def compile_catalogs(locale_dir: Path = LOCALE_DIR, force: bool = False) -> list[Path]:
    """Compile every ``.po`` whose ``.mo`` is missing or older; returns those written."""
    written: list[Path] = []
    if not locale_dir.is_dir():
        return written
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if not force and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as f:
            catalog = read_po(f)
        try:
            with mo.open("wb") as f:
                write_mo(f, catalog)
        except OSError:
            continue
        written.append(mo)
    return written


def main() -> int:
    for path in compile_catalogs(force="--force" in sys.argv):
        print(f"compiled {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
