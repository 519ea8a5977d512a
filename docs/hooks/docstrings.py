"""Griffe extension: the library's docstrings made ready for the site.

The docstrings are written to read well as plain text (``help()``, an editor's
hover): interpreter sessions (``>>>``) stand unfenced and names are marked with
reStructuredText roles such as ``:class:`~devilsgrip.game.Game```.  Before the
site renders them as Markdown, each interpreter session becomes a ``pycon``
code block and each role a code span.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):`(~?)([^`]+)`")


def _role(match: re.Match[str]) -> str:
    short, target = match.group(1), match.group(2)
    return f"`{target.rsplit('.', 1)[-1] if short else target}`"


def fence_sessions(text: str) -> str:
    """Wrap each interpreter session (``>>>`` lines, their ``...`` lines and their
    output up to a blank line) in a ``pycon`` fence; turn roles into code spans."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            while i < len(lines) and lines[i].strip():
                out.append(lines[i])
                i += 1
            out.append(f"{indent}```")
            continue
        out.append(ROLE.sub(_role, line))
        i += 1
    return "\n".join(out)


class DocstringsForTheSite(griffe.Extension):
    """Rewrites every docstring as :func:`fence_sessions` says."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_sessions(obj.docstring.value)
