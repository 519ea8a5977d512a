"""``devilsgrip site DIR``: build the game as a static web app (see :mod:`devilsgrip.site`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from devilsgrip.cli_support import fail, file_name
from devilsgrip.i18n import _


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "site", help=_("build the game as a static web app that plays offline"),
        description=_("Write the game as a static site into DIR: the page, the card images, "
                      "this package and the Pyodide runtime, for any web host; once "
                      "visited, it installs as an app and plays offline."),
    )
    p.add_argument("dir", metavar="DIR", type=file_name("DIR"),
                   help=_("the folder to write (empty, missing, or a site built before)"))
    p.add_argument("--pyodide", metavar="DIR", type=file_name("--pyodide"),
                   help=_("the folder of Pyodide's npm package (default: "
                          ".site-tools/node_modules/pyodide or node_modules/pyodide)"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from devilsgrip.site.build import SiteError, build_site

    try:
        report = build_site(Path(args.dir), None if args.pyodide is None else Path(args.pyodide))
    except SiteError as exc:
        fail(exc.text())
    print(_("Site written to {path}: {count} files, {size} MB.").format(
        path=report.folder, count=len(report.files), size=f"{report.size / 1e6:.1f}"))
    return 0
