"""How a clock ended a game, and the signed word that shows it, for the audit of a saved log.

The clocks are measured by each peer and are not in the log: a game a clock ended has a log
that stops where the table waited for the seat whose time ran out.  :class:`ClockEnd` is that
end (which seat, at which step, which kind); :class:`ClockNotice` is a seated player's signed
word for it -- the time notice netplay floods when a clock ends the game
(``docs/netplay.md`` § Clocks), whose signed bytes :func:`time_notice_bytes` gives.  The audit
takes a clock's end only from a notice that :meth:`ClockNotice.holds` for the table: a bare
:class:`ClockEnd` (what a seat's unsigned ``table.json`` says) is a claim it cannot check.
"""

from __future__ import annotations

import attrs

from ._errors import RemoteProtocolError
from ._identity import PublicIdentity
from ._session import TableSession
from ._table import TableId, TableSpec
from ._verdict_kinds import VerdictKind

__all__ = ["CLOCK_KINDS", "NOTICE_DOMAIN", "ClockEnd", "ClockNotice", "time_notice_bytes"]

NOTICE_DOMAIN = b"fairtable/time-notice/v1\x00"

CLOCK_KINDS = (VerdictKind.OUT_OF_TIME, VerdictKind.ABANDONED)
"""The verdicts a clock gives that end the game with no seat's part in the log."""


def time_notice_bytes(table_id: TableId, kind: str, seat: int, step: int, by: int) -> bytes:
    """What a time notice's signature covers: seat ``by`` says seat ``seat`` ran ``kind``
    (its word: ``out-of-time``, ``abandoned``, ``stalled``) at game step ``step``."""
    return (
        NOTICE_DOMAIN
        + table_id
        + bytes([by, seat])
        + step.to_bytes(8, "big")
        + kind.encode("ascii")
    )


@attrs.frozen
class ClockEnd:
    """A game a clock ended (``kind``: ``out-of-time`` or ``abandoned``) on ``seat`` at
    ``step``.  Alone it is only a claim (a seat's ``table.json`` keeps one to show); the audit
    takes it from a :class:`ClockNotice`."""

    seat: int
    step: int
    kind: VerdictKind

    @classmethod
    def of(cls, session: TableSession) -> ClockEnd | None:
        """The clock end of a session stopped by a time verdict naming a seat, else None."""
        verdict = session.verdict
        if verdict is None or verdict.seat is None or verdict.kind not in CLOCK_KINDS:
            return None
        return cls(verdict.seat, session.game.serial, verdict.kind)

    def words(self) -> str:
        """``seat 2 ran out of time`` / ``seat 2 stayed offline too long``."""
        if self.kind is VerdictKind.OUT_OF_TIME:
            return f"seat {self.seat} ran out of time"
        return f"seat {self.seat} stayed offline too long"


@attrs.frozen
class ClockNotice:
    """Seat ``by``'s signed word (``sig``, its Ed25519 signature over
    :func:`time_notice_bytes`) that the clock ended the game as ``end`` says."""

    end: ClockEnd
    by: int
    sig: bytes

    def holds(self, spec: TableSpec) -> bool:
        """Whether this is a notice some seat of ``spec``'s table could have signed and did:
        ``by`` is a seat and signed it with its key for this table; the kind is a clock's;
        ``out-of-time`` only at a table with a clock; a seat names itself only for its own
        bank (a peer never measures its own presence) -- as a peer takes a notice."""
        end = self.end
        if not 0 <= self.by < spec.seats or not 0 <= end.seat < spec.seats:
            return False
        if end.kind not in CLOCK_KINDS or (
            end.kind is VerdictKind.ABANDONED and self.by == end.seat
        ):
            return False
        try:
            if end.kind is VerdictKind.OUT_OF_TIME and spec.time_limits().bank_ms == 0:
                return False
            signed = time_notice_bytes(spec.table_id, end.kind.value, end.seat, end.step, self.by)
            PublicIdentity.from_bytes(spec.players[self.by], seat=self.by).verify(
                signed, self.sig, seat=self.by
            )
        except (RemoteProtocolError, OverflowError):  # no key, no signature, a step too big
            return False
        return True
