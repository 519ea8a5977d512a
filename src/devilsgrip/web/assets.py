"""The page, its scripts and styles, and the card images (made by :mod:`cards_svg`)."""

from __future__ import annotations

import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from starlette.requests import Request
from starlette.responses import Response

from devilsgrip import codes, i18n
from devilsgrip.cards import CARD_CODES
from devilsgrip.i18n import N_
from devilsgrip.table import Words as Tr
from devilsgrip.web.browsers import WebState
from devilsgrip.web.http import error_response

STATIC_DIR: Final = Path(__file__).parent / "static"
_STATIC_TYPES: Final = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
}


@dataclass(frozen=True)
class _Asset:
    body: bytes
    etag: str
    media_type: str


_asset_cache: dict[tuple[str, float, int], _Asset] = {}


def _static_asset(name: str) -> _Asset | None:
    """A file of web/static (no hidden files, nothing outside the folder, no odd names)."""
    if not name or len(name) > 200 or not name.isprintable() or "\\" in name:
        return None
    if any(part.startswith(".") or not part or len(part) > 100 for part in name.split("/")):
        return None
    root = STATIC_DIR.resolve()
    try:
        path = (root / name).resolve()
        if root not in path.parents or not path.is_file():
            return None
    except (OSError, ValueError):
        return None
    media_type = _STATIC_TYPES.get(path.suffix.lower())
    if media_type is None:
        guessed = mimetypes.guess_type(path.name)[0]
        if guessed is None:
            return None
        media_type = guessed
    stat = path.stat()
    key = (str(path), stat.st_mtime, stat.st_size)
    asset = _asset_cache.get(key)
    if asset is None:
        body = path.read_bytes()
        asset = _Asset(body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"', media_type)
        _asset_cache[key] = asset
    return asset


def _asset_response(request: Request, asset: _Asset, cache_control: str) -> Response:
    headers = {"etag": asset.etag, "cache-control": cache_control}
    if request.headers.get("if-none-match") == asset.etag:
        return Response(status_code=304, headers=headers)
    return Response(asset.body, media_type=asset.media_type, headers=headers)


def not_found(request: Request) -> Response:
    web: WebState = request.app.state.web
    tr = Tr(i18n.language_from_accept(request.headers.get("accept-language"), web.server_lang))
    return error_response(404, codes.NOT_FOUND, tr.gettext(N_("there is nothing here")))


async def page(request: Request) -> Response:
    asset = _static_asset("index.html")
    if asset is None:
        return not_found(request)
    return _asset_response(request, asset, "no-cache")


async def static_file(request: Request) -> Response:
    asset = _static_asset(str(request.path_params["path"]))
    if asset is None:
        return not_found(request)
    return _asset_response(request, asset, "no-cache")


_svg_cache: dict[tuple[str, bool], _Asset] = {}


async def card_image(request: Request) -> Response:
    """A card's image: ``/cards/TD.svg``, the four-colour deck's under ``/cards/four/``
    (what the page asks: a path any static host serves too) or as ``?four=1``."""
    name = str(request.path_params["name"])
    four_text = request.query_params.get("four", "0")
    if four_text not in ("0", "1") or (name not in CARD_CODES and name not in ("back", "empty")):
        return not_found(request)
    four = four_text == "1" or request.url.path.startswith("/cards/four/")
    key = (name, four)
    asset = _svg_cache.get(key)
    if asset is None:
        from devilsgrip.web import cards_svg

        if name == "back":
            svg = cards_svg.back_svg()
        elif name == "empty":
            svg = cards_svg.empty_svg()
        else:
            svg = cards_svg.card_svg(name, four_colour=four)
        body = svg.encode()
        asset = _Asset(body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"', "image/svg+xml")
        _svg_cache[key] = asset
    return _asset_response(request, asset, "public, max-age=86400")
