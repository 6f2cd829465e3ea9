"""Leaving a finished table: a seat's signed farewell, and who we still wait for.

When a seat's session finishes (every seat's audit opening checked) it needs
nothing more from anyone, and everything it needed from us it already has.  It
says so with a :class:`Farewell` -- its seat and final digest, signed with its
seat key over the table id, so neither a relay nor another seat can say it in
its name -- flooded like any other message.  A peer may leave once it has a
farewell from every seat (its own included) and its queues to its links are
drained: nobody can still need an entry only it holds.  A seat stopped by a
verdict that names a seat, with evidence, says farewell too (digest ``verdict``)
and waits for every seat but the blamed one: the others may still need the
entries that prove it.  Without that (a seat gone silent) it leaves after a
bounded wait, as before.
"""

from __future__ import annotations

from collections.abc import Collection

import attrs

from fairtable.protocol import BadSignature, Identity, PublicIdentity, TableId, message
from fairtable.protocol.wire import blob, integer, label

__all__ = ["Farewell", "Farewells"]

FAREWELL_DOMAIN = b"fairtable/farewell/v1\x00"


@message("farewell")
@attrs.frozen
class Farewell:
    """Seat ``seat`` saw the game to its end with final state digest ``digest``."""

    seat: int = integer(hi=15)
    digest: str = label()
    sig: bytes = blob(exact=64)


def _signed_bytes(table_id: TableId, seat: int, digest: str) -> bytes:
    return FAREWELL_DOMAIN + table_id + bytes([seat]) + digest.encode("ascii")


class Farewells:
    """The farewells of one table's seats, checked against their keys."""

    def __init__(self, table_id: TableId, players: tuple[bytes, ...]) -> None:
        self.table_id = table_id
        self.players = players
        self.said: dict[int, str] = {}  # seat -> the final digest it signed

    def make(self, identity: Identity, seat: int, digest: str) -> Farewell:
        """Our own farewell, filed as said."""
        self.said[seat] = digest
        return Farewell(seat, digest, identity.sign(_signed_bytes(self.table_id, seat, digest)))

    def take(self, msg: Farewell) -> bool:
        """File another seat's farewell; False if it is not new or not signed by that seat."""
        if msg.seat >= len(self.players) or msg.seat in self.said:
            return False
        try:
            PublicIdentity(self.players[msg.seat]).verify(
                _signed_bytes(self.table_id, msg.seat, msg.digest), msg.sig, seat=msg.seat
            )
        except BadSignature:
            return False
        self.said[msg.seat] = msg.digest
        return True

    @property
    def everyone(self) -> bool:
        """Whether every seat has said farewell."""
        return len(self.said) == len(self.players)

    def missing(self, excused: Collection[int] = ()) -> list[int]:
        """The seats that have not said farewell, but the ``excused`` ones (the seat a verdict
        names, the seats that left the game while the others played on)."""
        return [
            seat
            for seat in range(len(self.players))
            if seat not in self.said and seat not in excused
        ]

    def everyone_but(self, excused: Collection[int] = ()) -> bool:
        """Whether every seat but the ``excused`` ones has said farewell."""
        return not self.missing(excused)
