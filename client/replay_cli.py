"""The ``fairtable replay`` command: its arguments, the export or the screen."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from client.replay import (
    ending_words,
    export,
    load_named_table,
    record_for,
)

__all__ = ["add_commands"]


def _replay(args: argparse.Namespace) -> int:
    record = record_for(*load_named_table(Path(args.table)))
    if args.export:
        paths = export(record, Path(args.export), open_hands=args.open_hands)
        print(f"{ending_words(record.ending)}; wrote {', '.join(str(p) for p in paths)}")
        return 0
    from client.replay_screen import run_replay_screen

    run_replay_screen(record)
    return 0


def add_commands(sub: Any) -> None:
    rep = sub.add_parser(
        "replay",
        help="step through a finished table (a simulate --log file, "
        "or a peer's table folder), or export its record",
    )
    rep.add_argument("table")
    rep.add_argument(
        "--export",
        metavar="FILE",
        help="write FILE.txt, FILE.jsonl and FILE.log (the signed log) instead of "
        "opening the screen",
    )
    rep.add_argument(
        "--open-hands",
        action="store_true",
        help="with --export: every seat's hidden cards at every step (only once "
        "the audit opened every deck key)",
    )
    rep.set_defaults(run=_replay)
