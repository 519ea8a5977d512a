"""``devilsgrip import``: read game records into the store (each verified by replay)."""

from __future__ import annotations

import argparse
from typing import Any

from devilsgrip.cli_support import EXIT_BAD_INPUT, complain, fail, file_name, owner_name
from devilsgrip.commands import add_game_options, no_record_message, read_text
from devilsgrip.commands.stats import EXIT_STORE, open_or_report
from devilsgrip.errors import DevilsGripError
from devilsgrip.i18n import _, ngettext, translate_error
from devilsgrip.table.stored import (
    StoreError,
    import_records,
    split_records,
    store_error_text,
)

EXIT_SOME_BAD = 1


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "import", help=_("import game records"),
        description=_("Read game records (a file, or - for standard input; several records "
                      "separated by blank lines), check each by replaying it, and store the "
                      "good ones.  Bad records are reported by their number and not stored; "
                      "records already stored are skipped.  Exit status 1 when a record "
                      "was bad, 2 when every record was."),
    )
    p.add_argument("file", metavar="FILE", type=file_name("FILE"), help=_("records file, or -"))
    p.add_argument("--owner", default="local", metavar="OWNER", type=owner_name("--owner"),
                   help=_("owner of the imported games (default: local)"))
    add_game_options(p, deal=False)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    text = read_text(args.file)
    if not split_records(text):
        fail(no_record_message(args.file))
    store = open_or_report(args, create=True)
    if store is None:
        return EXIT_STORE
    try:
        with store:
            report = import_records(store, text, owner=args.owner)
    except StoreError as exc:
        complain(store_error_text(exc))
        return EXIT_STORE
    except ValueError as exc:
        if isinstance(exc, DevilsGripError):
            raise
        # the store reads a record's Hints tag with int(), which refuses '²' or 5,000 digits
        fail(_("cannot import {path}: a record's Hints tag is not a whole number").format(
            path=args.file))
    for index, error in report.bad:
        complain(_("record {index} not imported: {reason}").format(
            index=index, reason=translate_error(error)))
    print(ngettext("{n} game imported", "{n} games imported", len(report.imported)).format(
        n=len(report.imported)))
    if report.duplicates:
        print(ngettext("{n} game already stored, skipped", "{n} games already stored, skipped",
                       len(report.duplicates)).format(n=len(report.duplicates)))
    if report.bad and not report.imported and not report.duplicates:
        return EXIT_BAD_INPUT  # nothing in the file could be taken: bad input, as elsewhere
    return EXIT_SOME_BAD if report.bad else 0
