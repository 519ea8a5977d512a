"""The README's pictures are made by ``scripts/screenshots.py`` and kept current: the
terminal's says what the terminal game shows today, the page's is the page."""

from __future__ import annotations

import html
import importlib.util
import re
import shutil
import struct
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
IMAGES = ROOT / "docs" / "images"
SVG_TEXT = re.compile(r'<text class="[^"]*-r\d+" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>')


def _script() -> ModuleType:
    script = ROOT / "scripts" / "screenshots.py"
    spec = importlib.util.spec_from_file_location("screenshots", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _screen_text(svg: str) -> list[tuple[str, str, str]]:
    """What an SVG of Textual's shows: each run of text with its place (styles left out)."""
    return [(x, y, html.unescape(text)) for x, y, text in SVG_TEXT.findall(svg)]


def test_the_terminal_picture_is_current(tmp_path: Path) -> None:
    out = tmp_path / "terminal.svg"
    _script().terminal_svg(out, 5)
    made = _screen_text(out.read_text(encoding="utf-8"))
    assert any("Dealt" in text for _x, _y, text in made)
    committed = _screen_text((IMAGES / "terminal.svg").read_text(encoding="utf-8"))
    assert made == committed, "docs/images/terminal.svg is out of date: run `make screenshots`"


@pytest.mark.browser
@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium is missing")
def test_the_page_picture_is_made_at_its_size(tmp_path: Path) -> None:
    out = tmp_path / "page.png"
    _script().page_png(out, 5)
    for path in (out, IMAGES / "page.png"):
        head = path.read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", head[16:24]) == (1280, 800)
