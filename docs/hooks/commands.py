"""MkDocs hook: the pages written from the code itself, so that they cannot drift.

* ``commands.md``, the command reference, made by walking
  :func:`devilsgrip.cli.build_parser` and each subcommand's parser: it says
  exactly what ``devilsgrip COMMAND --help`` says.
* ``library/devilsgrip.md``, the names the package exports (its ``__all__``),
  each linked to its reference under the module that defines it, with the first
  line of its docstring.
"""

from __future__ import annotations

import argparse
from typing import Any

from mkdocs.structure.files import File, Files

PAGE = "commands.md"
PACKAGE_PAGE = "library/devilsgrip.md"

INTRO = """\
# Command reference

Every command of `devilsgrip`, its arguments and options, as the program
itself defines them (this page is written from its argument parsers each time
the site is built). `devilsgrip` with no command runs `play`. Every command
takes `--help`. Bad input is one line on standard error and exit status 2; an
illegal move in `replay` stops with status 1 and names the move's number, its
text and the reason. `play`, `tui`, `solve` and `autoplay` take a game number
bare as well as by `--game`: `devilsgrip autoplay 189` is
`devilsgrip autoplay --game 189`.
"""


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _subcommand_help(parser: argparse.ArgumentParser) -> dict[str, str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {a.dest: a.help or "" for a in action._choices_actions}
    return {}


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _argument(action: argparse.Action) -> str:
    metavar = action.metavar
    if isinstance(metavar, tuple):
        metavar = " ".join(metavar)
    if not action.option_strings:
        name = metavar or action.dest
        return f"`{name}`" + (" (optional)" if action.nargs in ("?", "*") else "")
    names = ", ".join(action.option_strings)
    if action.nargs == 0:
        return f"`{names}`"
    if metavar:
        shown = metavar
    elif action.choices:
        shown = "{" + ",".join(str(c) for c in action.choices) + "}"
    else:
        shown = action.dest.upper()
    return f"`{names} {shown}`"


def _details(action: argparse.Action) -> str:
    help_text = action.help or ""
    if help_text == argparse.SUPPRESS:
        return ""
    help_text = help_text.replace("%(default)s", str(action.default)).replace("%%", "%")
    parts = [help_text]
    if action.choices and not isinstance(action, argparse._SubParsersAction):
        choices = ", ".join(f"`{c}`" for c in action.choices)
        if choices not in help_text:
            parts.append(f"one of {choices}")
    if action.required:
        parts.append("required")
    return _cell("; ".join(p for p in parts if p))


def _usage(parser: argparse.ArgumentParser) -> str:
    usage = parser.format_usage().strip()
    return usage.removeprefix("usage: ")


def _section(name: str, summary: str, parser: argparse.ArgumentParser) -> list[str]:
    lines = [f"## `devilsgrip {name}` {{#{name}}}", ""]
    if summary:
        lines += [summary[0].upper() + summary[1:] + ".", ""]
    if parser.description and parser.description.rstrip(".") != summary:
        lines += [parser.description, ""]
    lines += ["```text", _usage(parser), "```", ""]
    rows = [
        (_argument(action), _details(action))
        for action in parser._actions
        if not isinstance(action, argparse._HelpAction) and action.help != argparse.SUPPRESS
    ]
    if rows:
        lines += ["| argument | what it does |", "|---|---|"]
        lines += [f"| {arg} | {text} |" for arg, text in rows]
        lines.append("")
    if parser.epilog:
        lines += [parser.epilog, ""]
    return lines


def render() -> str:
    """The command reference as Markdown, in English."""
    from devilsgrip.cli import build_parser
    from devilsgrip.i18n import set_language

    set_language("en")
    parser = build_parser()
    helps = _subcommand_help(parser)
    commands = _subcommands(parser)
    lines = [INTRO, "| command | what it does |", "|---|---|"]
    lines += [f"| [`{name}`](#{name}) | {_cell(helps.get(name, ''))} |" for name in commands]
    lines.append("")
    for name, sub in commands.items():
        lines += _section(name, helps.get(name, ""), sub)
    return "\n".join(lines)


PACKAGE_INTRO = """\
# `devilsgrip`

The names most programs need, importable from the package itself
(`from devilsgrip import Game, Move`). Each is documented under the module
that defines it.

| name | what it is |
|---|---|
"""


def render_package() -> str:
    """The package's exports as Markdown: each name, its full path and docstring's first line."""
    import griffe

    package = griffe.load("devilsgrip", search_paths=["src"], resolve_aliases=True)
    exports = [str(name) for name in package.exports or () if not str(name).startswith("__")]
    rows = []
    for name in exports:
        member = package.members[name]
        target = member.final_target if isinstance(member, griffe.Alias) else member
        summary = target.docstring.value.split("\n\n", 1)[0] if target.docstring else ""
        rows.append(f"| [`{name}`][{target.path}] | `{target.path}`: {_cell(summary)} |")
    return PACKAGE_INTRO + "\n".join(rows) + "\n"


def on_files(files: Files, config: Any, **kwargs: Any) -> Files:
    """Add the generated pages to the site's files."""
    files.append(File.generated(config, PAGE, content=render()))
    files.append(File.generated(config, PACKAGE_PAGE, content=render_package()))
    return files
