"""The time limit every thinking entry point takes, checked in one place, and the signals
that end a search when its budget is spent."""

from __future__ import annotations

import math

from devilsgrip import codes
from devilsgrip.cards import number_text
from devilsgrip.errors import LimitError


class TimeUp(Exception):
    """The search's time or node budget is spent."""


class PhaseEnd(Exception):
    """An exhaustive turn's node budget is spent: the playouts take their turn."""


def check_time_limit(time_limit: float | None, *, none_ok: bool = False) -> None:
    """Raise :class:`LimitError` unless ``time_limit`` is a positive, finite number of
    seconds (or, with ``none_ok``, None: no limit).

    ``nan`` passes a plain ``time_limit > 0`` test the wrong way round (every
    comparison with it is false), and ``inf`` or a huge int never stops.

    >>> check_time_limit(float("nan"))
    Traceback (most recent call last):
    ...
    devilsgrip.errors.LimitError: the time limit must be a positive number of seconds, not nan
    """
    if time_limit is None and none_ok:
        return
    seconds = math.nan
    if isinstance(time_limit, (int, float)) and not isinstance(time_limit, bool):
        try:
            seconds = float(time_limit)
        except OverflowError:
            seconds = math.inf
    if math.isfinite(seconds) and seconds > 0:
        return
    shown = number_text(time_limit) if isinstance(time_limit, int) else repr(time_limit)
    raise LimitError(
        codes.TIME_LIMIT_BAD,
        f"the time limit must be a positive number of seconds, not {shown}",
        limit=shown,
    )
