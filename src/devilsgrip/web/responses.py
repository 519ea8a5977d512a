"""The answers every part of the server sends: refusals (:class:`WebError`) and JSON."""

from __future__ import annotations

import json
from typing import Any

from starlette.responses import JSONResponse

from devilsgrip import table
from devilsgrip.table import Words as Tr


class WebError(Exception):
    """A refused request: HTTP status, reason code, English template and params."""

    def __init__(self, status: int, code: str, template: str, **params: Any) -> None:
        super().__init__(template)
        self.status = status
        self.code = code
        self.template = template
        self.params = params

    def text(self, tr: Tr) -> str:
        return table.sentence(tr.gettext(self.template).format(**self.params))


class SafeJSONResponse(JSONResponse):
    """JSON that always encodes: text that is not valid Unicode (a lone surrogate echoed
    from a request) is written with a replacement character instead of failing."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=False, allow_nan=False, indent=None,
                          separators=(",", ":")).encode("utf-8", "replace")


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return SafeJSONResponse({"error": code, "message": message}, status_code=status,
                            headers={"cache-control": "no-store"})


def shown(value: object, limit: int = 40) -> str:
    """A value a client sent, as an error message may echo it: short and printable."""
    text = str(value)
    text = "".join(c if c.isprintable() and not 0xD800 <= ord(c) <= 0xDFFF else "?"
                   for c in text[: limit + 1])
    return text if len(text) <= limit else text[: limit - 1] + "…"
