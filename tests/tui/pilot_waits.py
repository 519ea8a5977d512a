"""Waiting in a terminal test until the app has reached a state (the pilot's app runs in
the same event loop, so the wait lets it work)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any


async def until(pilot: Any, test: Callable[[], object], seconds: float = 60.0) -> None:
    """Wait until ``test()`` holds, at most ``seconds`` (then the test fails)."""
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)
        await pilot.pause()
