"""The ``fairtable replay`` command: the export, or the screen."""

from __future__ import annotations

from fairtable.client.options import ReplayOptions
from fairtable.client.replay import (
    export,
    load_named_table,
    record_for,
)
from fairtable.client.table_ref import table_path
from fairtable.client.text_rows import fold

__all__ = ["run_replay"]


def run_replay(options: ReplayOptions) -> int:
    """``fairtable replay``."""
    record = record_for(*load_named_table(table_path(str(options.table), options.data_dir)))
    if options.export:
        paths = export(record, options.export, open_hands=options.open_hands)
        print(fold(f"{record.ending_words()}; wrote {', '.join(str(p) for p in paths)}"))
        return 0
    from fairtable.client.replay_screen import run_replay_screen

    run_replay_screen(record)
    return 0
