"""One request to the browser game's API and its answer, whatever transport carries them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Call:
    """One request to the API, whatever carried it."""

    method: str
    path: str
    data: Mapping[str, Any] = field(default_factory=dict)
    """The JSON body, read (see :func:`devilsgrip.web.bodies.parse_json`)."""
    query: Mapping[str, str] = field(default_factory=dict)
    accept_language: str | None = None
    local: bool = False
    """The call comes from this computer (a loopback address): it acts as this computer's
    player, whose games the terminal game and the command line share."""


@dataclass(frozen=True)
class Reply:
    """The API's answer: an HTTP status, the JSON body, and the session token to keep
    (set when the browser is new or its token changed; None otherwise)."""

    status: int
    body: dict[str, Any]
    token: str | None = None
