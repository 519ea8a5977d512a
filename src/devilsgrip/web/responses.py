"""What the API answers besides the state: refusals (:class:`WebError`) and JSON text.

Plain Python: the HTTP adapter and any other transport use it alike."""

from __future__ import annotations

import json
from typing import Any

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


def encode(content: Any) -> bytes:
    """``content`` as compact UTF-8 JSON that always encodes: text that is not valid
    Unicode (a lone surrogate echoed from a request) gets a replacement character."""
    return json.dumps(content, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode("utf-8", "replace")


def shown(value: object, limit: int = 40) -> str:
    """A value a client sent, as an error message may echo it: short and printable."""
    text = str(value)
    text = "".join(c if c.isprintable() and not 0xD800 <= ord(c) <= 0xDFFF else "?"
                   for c in text[: limit + 1])
    return text if len(text) <= limit else text[: limit - 1] + "…"
