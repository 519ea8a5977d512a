"""What the HTTP adapter adds to the API: JSON responses, the session cookie, the body."""

from __future__ import annotations

from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from devilsgrip import codes
from devilsgrip.i18n import N_
from devilsgrip.web.bodies import MAX_BODY, too_large
from devilsgrip.web.browsers import COOKIE_MAX_AGE, COOKIE_NAME, TOKEN_RE
from devilsgrip.web.responses import WebError, encode


class SafeJSONResponse(JSONResponse):
    """JSON that always encodes (see :func:`devilsgrip.web.responses.encode`)."""

    def render(self, content: Any) -> bytes:
        return encode(content)


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return SafeJSONResponse({"error": code, "message": message}, status_code=status,
                            headers={"cache-control": "no-store"})


def cookie_token(request: Request) -> str | None:
    token = request.cookies.get(COOKIE_NAME)
    return token if token and TOKEN_RE.fullmatch(token) else None


def set_cookie(response: Response, token: str) -> None:
    response.set_cookie(COOKIE_NAME, token, max_age=COOKIE_MAX_AGE, path="/", httponly=True,
                        samesite="strict")


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The request's body, at most ``limit`` bytes (413 beyond)."""
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise too_large(limit)
            chunks.append(chunk)
    except ClientDisconnect as exc:  # the page went away (a tab closed) while sending
        raise WebError(400, codes.CLIENT_GONE, N_("the request ended before its body")) from exc
    return b"".join(chunks)
