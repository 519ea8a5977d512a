"""Request bodies: strict UTF-8 JSON objects, bounded in size and depth (plain Python:
every transport reads its requests here; the API's functions check the fields)."""

from __future__ import annotations

import json
from typing import Any, Final

from devilsgrip import codes
from devilsgrip.i18n import N_
from devilsgrip.web.responses import WebError


def parse_json(body: bytes, limit: int = 0) -> dict[str, Any]:
    """A request body as a JSON object (``{}`` for an empty body), read strictly, at most
    ``limit`` bytes (:data:`MAX_BODY` when 0)."""
    limit = limit or MAX_BODY
    if len(body) > limit:
        raise too_large(limit)
    if not body.strip():
        return {}
    try:
        text = body.decode("utf-8", errors="strict")
        if _too_deep(text):
            raise WebError(400, codes.BAD_JSON, N_("the request is nested too deeply"))
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise WebError(400, codes.BAD_JSON, N_("the request is not valid JSON")) from exc
    if not isinstance(data, dict):
        raise WebError(400, codes.BAD_JSON, N_("the request must be a JSON object"))
    if not _clean_text(data):
        raise WebError(400, codes.BAD_TEXT, N_("the request holds text that is not valid Unicode"))
    return data


MAX_BODY: Final = 16 * 1024
"""The largest request body the API reads, in bytes."""
MAX_IMPORT_BODY: Final = 2 * 1024 * 1024
"""The largest body of an import of game records (``POST /api/import``), in bytes: a
records file of about two thousand games (a game's record takes about one kilobyte)."""
BODY_LIMITS: Final = {"/api/import": MAX_IMPORT_BODY}
"""The paths that take a larger body than :data:`MAX_BODY`."""


def body_limit(path: str) -> int:
    """The largest body a request to ``path`` may send, in bytes."""
    return BODY_LIMITS.get(path, MAX_BODY)


def too_large(limit: int) -> WebError:
    return WebError(413, codes.BODY_TOO_LARGE,
                    N_("the request is too large (at most {limit} bytes)"), limit=limit)


MAX_DEPTH: Final = 8
"""The deepest nesting of arrays and objects a request may have (the API needs 1)."""


def _too_deep(text: str) -> bool:
    """True when ``text`` opens more than :data:`MAX_DEPTH` arrays or objects at once
    (a cheap scan before parsing: deep nesting would exhaust the parser's stack)."""
    depth = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif c in "]}":
            depth -= 1
    return False


def _clean_text(value: object) -> bool:
    """No string in ``value`` (keys included) holds a lone surrogate."""
    if isinstance(value, str):
        return not any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, dict):
        return all(_clean_text(k) and _clean_text(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_clean_text(v) for v in value)
    return True
