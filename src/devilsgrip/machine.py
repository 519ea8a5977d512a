"""What the machine the program runs on has: its memory, where it can be read."""

from __future__ import annotations

import os


def machine_megabytes() -> int | None:
    """The machine's memory in MiB, where it can be read (None: not POSIX, or not told, as
    in a browser)."""
    try:
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not POSIX
        return None
    return pages // 2 ** 20 if pages > 0 else None
