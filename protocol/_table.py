"""The table: which game, which settings, which player keys sit in which seat.

A :class:`TableSpec` is agreed before the game starts (netplay's invite and
handshake carry it).  Its table id is the SHA-256 of its canonical encoding,
so every signature, commitment and proof made at this table is bound to this
exact game, these settings and these players.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import attrs

from engine.canonical import canonical_bytes

from ._codec import blob, encode, integer, item_bytes, items, label, message
from ._errors import DecodeError
from ._identity import PublicIdentity
from ._messages import MAX_SEATS

__all__ = ["TABLE_DOMAIN", "TableSpec"]

TABLE_DOMAIN = b"fairtable/table/v1\x00"
MAX_OPTIONS = 1 << 16
"""Table options (canonical JSON) are at most 64 KiB: six Sovereign deck lists fit easily."""


@message("table")
@attrs.frozen
class TableSpec:
    """Game, settings and the roster (seat ``i`` is ``players[i]``'s Ed25519 key).

    ``options`` are the game's table options (e.g. Sovereign's custom decks) as the
    canonical JSON of an object, or empty: public, and bound into the table id."""

    game: str = label()
    players: tuple[bytes, ...] = items(item_bytes(exact=32), max_items=MAX_SEATS)
    round_limit: int = integer(hi=10_000)
    nonce: bytes = blob(exact=32)
    options: bytes = blob(max_len=MAX_OPTIONS, default=b"")

    def game_options(self) -> tuple[tuple[str, Any], ...]:
        """The options as sorted (name, value) pairs (values are plain JSON data)."""
        if not self.options:
            return ()
        try:
            data = json.loads(self.options.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise DecodeError(f"table options are not JSON: {exc}") from None
        if not isinstance(data, dict) or canonical_bytes(data) != self.options:
            raise DecodeError("table options are not a canonical JSON object")
        return tuple(sorted(data.items()))

    @property
    def table_id(self) -> bytes:
        return hashlib.sha256(TABLE_DOMAIN + encode(self)).digest()

    @property
    def seats(self) -> int:
        return len(self.players)

    def roster(self) -> dict[int, PublicIdentity]:
        return {seat: PublicIdentity.from_bytes(key, seat=seat)
                for seat, key in enumerate(self.players)}
