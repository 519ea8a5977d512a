"""The app's icons, drawn at build time from the card back's own art (:mod:`cards_svg`).

A tiny rasterizer of the shapes the card back is made of (rounded rectangles, an
ellipse, the horns' and the suits' paths), with an even-odd scanline fill sampled
4 x 4 per pixel, written as PNG with the standard library only.

>>> png = icon_png(48)
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", png_size(png)
(True, (48, 48))
"""

from __future__ import annotations

import itertools
import math
import re
import struct
import zlib
from collections.abc import Iterator, Sequence
from typing import Final

from devilsgrip.web import cards_svg

Point = tuple[float, float]
Polygon = list[Point]
RGB = tuple[int, int, int]

SAMPLES: Final = 4
"""Samples per pixel on each axis (16 in all): the edges' antialiasing."""
TABLE_GREEN: Final = "#0d3b2a"
"""The page's theme colour (its ``<meta name="theme-color">``): the icon's background."""
ICON_SIZES: Final = (192, 512)
"""The sizes a web app's manifest needs for installation."""

# The card back's colours and shapes, in the card's own 200 x 280 units (cards_svg).
_CREAM: Final = "#fffdf8"
_DARK: Final = "#5a1420"
_CRIMSON: Final = "#7d1a2b"
_LATTICE: Final = "#9c2c3f"
_GOLD: Final = "#d8b25c"
_PIP: Final = "#f4e6c4"
_HORNS: Final = ("M70 128C58 110 60 88 74 76C72 94 78 110 90 120Z",
                 "M130 128C142 110 140 88 126 76C128 94 122 110 110 120Z")
_PIPS: Final = ((0, 76, 126), (1, 102, 126), (2, 76, 152), (3, 102, 152))
_PIP_SIZE: Final = 22


def _rgb(colour: str) -> RGB:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _rounded(x: float, y: float, w: float, h: float, r: float) -> Polygon:
    """A rounded rectangle as a polygon (each corner a quarter circle of 8 steps)."""
    points: Polygon = []
    for cx, cy, start in ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0),
                          (x + r, y + h - r, 90), (x + r, y + r, 180)):
        for step in range(9):
            a = math.radians(start + step * 90 / 8)
            points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return points


def _ellipse(cx: float, cy: float, rx: float, ry: float) -> Polygon:
    return [(cx + rx * math.cos(2 * math.pi * k / 64), cy + ry * math.sin(2 * math.pi * k / 64))
            for k in range(64)]


_TOKEN: Final = re.compile(r"[MLHVCQAZ]|-?\d*\.?\d+", re.IGNORECASE)


def _arc(p0: Point, rx: float, ry: float, large: bool, sweep: bool, p1: Point) -> Iterator[Point]:
    """Points along an SVG elliptical arc (no rotation) from ``p0`` to ``p1``."""
    (x0, y0), (x1, y1) = p0, p1
    dx, dy = (x0 - x1) / 2, (y0 - y1) / 2
    scale = math.sqrt(dx * dx / (rx * rx) + dy * dy / (ry * ry))
    if scale > 1:
        rx, ry = rx * scale, ry * scale
    num = rx * rx * ry * ry - rx * rx * dy * dy - ry * ry * dx * dx
    den = rx * rx * dy * dy + ry * ry * dx * dx
    k = math.sqrt(max(0.0, num / den)) * (-1 if large == sweep else 1)
    cx = k * rx * dy / ry + (x0 + x1) / 2
    cy = -k * ry * dx / rx + (y0 + y1) / 2
    a0 = math.atan2((y0 - cy) / ry, (x0 - cx) / rx)
    a1 = math.atan2((y1 - cy) / ry, (x1 - cx) / rx)
    delta = a1 - a0
    if sweep and delta < 0:
        delta += 2 * math.pi
    elif not sweep and delta > 0:
        delta -= 2 * math.pi
    for step in range(1, 17):
        a = a0 + delta * step / 16
        yield cx + rx * math.cos(a), cy + ry * math.sin(a)


def _path(d: str, x: float = 0, y: float = 0, k: float = 1) -> list[Polygon]:
    """The absolute commands of an SVG path (M L H V C Q A Z) as polygons, translated by
    (x, y) after scaling by ``k``: the forms the card back's paths use."""
    tokens = _TOKEN.findall(d)
    polygons: list[Polygon] = []
    here: Point = (0.0, 0.0)
    current: Polygon = []
    i = 0
    command = ""

    def number() -> float:
        nonlocal i
        i += 1
        return float(tokens[i - 1])

    while i < len(tokens):
        if tokens[i].isalpha():
            command = tokens[i].upper()
            i += 1
            if command == "Z":
                if current:
                    polygons.append(current)
                current = []
                continue
        if command == "M":
            if current:
                polygons.append(current)
            here = (number(), number())
            current = [here]
            command = "L"
            continue
        if command == "L":
            here = (number(), number())
            current.append(here)
        elif command == "H":
            here = (number(), here[1])
            current.append(here)
        elif command == "V":
            here = (here[0], number())
            current.append(here)
        elif command in ("C", "Q"):
            controls = [(number(), number()) for _ in range(3 if command == "C" else 2)]
            start = here
            for step in range(1, 13):
                t = step / 12
                current.append(_bezier([start, *controls], t))
            here = controls[-1]
        elif command == "A":
            rx, ry, _rotation, large, sweep = (number() for _ in range(5))
            end = (number(), number())
            current.extend(_arc(here, rx, ry, bool(large), bool(sweep), end))
            here = end
        else:
            raise ValueError(f"path command {command!r} is not drawn")
    if current:
        polygons.append(current)
    return [[(x + px * k, y + py * k) for px, py in poly] for poly in polygons]


def _bezier(points: Sequence[Point], t: float) -> Point:
    while len(points) > 1:
        points = [(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
                  for a, b in itertools.pairwise(points)]
    return points[0]


class Canvas:
    """RGB pixels with shapes filled on them (coordinates in the card's units)."""

    def __init__(self, size: int, background: str, scale: float, origin: Point) -> None:
        self.size = size
        self.scale = scale
        self.origin = origin
        self.pixels = [list(_rgb(background)) * size for _ in range(size)]

    def fill(self, polygons: Sequence[Polygon], colour: str) -> None:
        """Fill ``polygons`` (even-odd) with ``colour``, each pixel by its covered share."""
        ox, oy = self.origin
        s = self.scale
        edges = []
        for poly in polygons:
            pts = [(ox + px * s, oy + py * s) for px, py in poly]
            for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True):
                if y0 != y1:
                    edges.append((x0, y0, x1, y1))
        if not edges:
            return
        top = max(0, int(min(min(e[1], e[3]) for e in edges)))
        bottom = min(self.size - 1, int(max(max(e[1], e[3]) for e in edges)) + 1)
        red, green, blue = _rgb(colour)
        full = SAMPLES * SAMPLES
        for row in range(top, bottom + 1):
            cover = [0] * (self.size + 1)
            for sub in range(SAMPLES):
                y = row + (sub + 0.5) / SAMPLES
                crossings = sorted(x0 + (y - y0) * (x1 - x0) / (y1 - y0)
                                   for x0, y0, x1, y1 in edges
                                   if (y0 <= y < y1) or (y1 <= y < y0))
                for left, right in zip(crossings[::2], crossings[1::2], strict=False):
                    a = max(0, math.ceil(left * SAMPLES - 0.5))
                    b = min(self.size * SAMPLES - 1, math.floor(right * SAMPLES - 0.5))
                    for sample in range(a, b + 1):
                        cover[sample // SAMPLES] += 1
            line = self.pixels[row]
            for col, count in enumerate(cover[:self.size]):
                if count:
                    share = count / full
                    i = col * 3
                    line[i] += round((red - line[i]) * share)
                    line[i + 1] += round((green - line[i + 1]) * share)
                    line[i + 2] += round((blue - line[i + 2]) * share)

    def png(self) -> bytes:
        raw = b"".join(b"\x00" + bytes(line) for line in self.pixels)
        return _png(self.size, self.size, raw)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def _png(width: int, height: int, raw: bytes) -> bytes:
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b""))


def png_size(png: bytes) -> tuple[int, int]:
    """The width and height written in a PNG's header."""
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


def _lattice(inner: tuple[float, float, float, float]) -> list[Polygon]:
    """The back's lattice (bars 3 units wide every 20, turned 45 degrees) within ``inner``."""
    x, y, w, h = inner
    bars: list[Polygon] = []
    half = 1.5 * math.sqrt(2)
    for c in range(-int(h) - 40, int(w) + 40, int(20 * math.sqrt(2))):
        for sign in (1, -1):  # x - y = c and x + y = c, clipped to the box later by the fill
            if sign == 1:
                bars.append([(x + c - half, y), (x + c + half, y),
                             (x + c + half + h, y + h), (x + c - half + h, y + h)])
            else:
                bars.append([(x + w - c - half, y), (x + w - c + half, y),
                             (x + w - c + half - h, y + h), (x + w - c - half - h, y + h)])
    return bars


def icon_png(size: int) -> bytes:
    """The app's icon, ``size`` pixels square: the card back on the table's green, with
    room around it for the masks a phone puts on icons."""
    card_h = 0.84 * size
    scale = card_h / cards_svg.HEIGHT
    origin = ((size - cards_svg.WIDTH * scale) / 2, (size - card_h) / 2)
    canvas = Canvas(size, TABLE_GREEN, scale, origin)
    width, height, radius = cards_svg.WIDTH, cards_svg.HEIGHT, cards_svg.RADIUS
    canvas.fill([_rounded(0, 0, width, height, radius)], _DARK)
    canvas.fill([_rounded(3, 3, width - 6, height - 6, radius - 2)], _CREAM)
    canvas.fill([_rounded(10, 10, width - 20, height - 20, 12)], _GOLD)
    inner = (14.0, 14.0, width - 28.0, height - 28.0)
    canvas.fill([_rounded(*inner, 8)], _CRIMSON)
    clip = Canvas(size, "#000000", scale, origin)
    clip.fill([_rounded(*inner, 8)], "#ffffff")
    lattice = Canvas(size, _CRIMSON, scale, origin)
    lattice.fill(_lattice(inner), _LATTICE)
    for row in range(size):  # the lattice where the crimson field is
        mask, line, drawn = clip.pixels[row], canvas.pixels[row], lattice.pixels[row]
        for i in range(0, size * 3):
            if mask[i]:
                line[i] += round((drawn[i] - line[i]) * mask[i] / 255)
    canvas.fill([_ellipse(100, 140, 52.5, 60.5)], _GOLD)
    canvas.fill([_ellipse(100, 140, 47.5, 55.5)], _DARK)
    for horn in _HORNS:
        canvas.fill(_path(horn), _GOLD)
    k = _PIP_SIZE / 100
    for suit, px, py in _PIPS:
        canvas.fill(_path(cards_svg.SUIT_PATHS[suit], px, py, k), _PIP)
    return canvas.png()


def favicon_ico(size: int = 32) -> bytes:
    """A ``favicon.ico`` holding one PNG image of the icon."""
    png = icon_png(size)
    header = struct.pack("<HHH", 0, 1, 1)
    entry = struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(png), 6 + 16)
    return header + entry + png
