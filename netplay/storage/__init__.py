"""Storage: what a peer keeps on disk, and reading it back.

This area owns the data directory:

* ``_storage``   -- identity, per-table secrets and append-only logs;
* ``_table_info`` -- ``table.json`` as one typed record, read and written only through it;
* ``_lifecycle`` -- which saved table a host goes on with; the public summary kept for resume;
* ``_seatclaim`` -- which folder of a data directory a joining seat plays from, locked;
* ``_saved``     -- reading a table kept on disk (a seat's or a relay's), for ``audit``.

The names below are the area's public part; other areas import only these.
"""

from ._lifecycle import resumable_table, summary_of
from ._saved import SavedTable, relay_table_id, saved_names, saved_table, signed_start
from ._seatclaim import GameOpenElsewhere, SeatClaim, claim_seat, game_open_elsewhere, hold_game
from ._storage import (
    DEFAULT_DATA_DIR,
    LogFile,
    StorageError,
    TableFolder,
    claim_table,
    load_identity_seed,
    parse_records,
)
from ._table_info import (
    TURN_OVER,
    UNFINISHED,
    TableInfo,
    TableInfoError,
    TableKind,
    TableRole,
    TableStatus,
    keep_bots,
    set_aside,
)

__all__ = [
    "DEFAULT_DATA_DIR",
    "GameOpenElsewhere",
    "LogFile",
    "SavedTable",
    "SeatClaim",
    "StorageError",
    "TableFolder",
    "TableInfo",
    "TableInfoError",
    "TableKind",
    "TableRole",
    "TableStatus",
    "TURN_OVER",
    "UNFINISHED",
    "claim_seat",
    "claim_table",
    "game_open_elsewhere",
    "hold_game",
    "keep_bots",
    "load_identity_seed",
    "parse_records",
    "resumable_table",
    "relay_table_id",
    "saved_names",
    "saved_table",
    "set_aside",
    "signed_start",
    "summary_of",
]
