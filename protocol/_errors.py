"""The typed errors of the protocol layer, and the blame they carry.

This module owns the exception hierarchy every other protocol module raises.
It follows h11/wsproto: :class:`LocalProtocolError` means *you* (the caller on
this machine) asked for something illegal; :class:`RemoteProtocolError` means
*a peer* sent something illegal.  A remote error names the seat(s) to blame
when the evidence identifies them (``seat``/``seats``) and has a short stable
``kind`` string that verdicts and logs can use.

Nothing in ``protocol`` lets a bare ``ValueError``/``KeyError``/library error
escape from checking remote input: every such failure becomes one of these.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from ._verdict_kinds import VerdictKind

__all__ = [
    "BadCommitment",
    "BadProof",
    "BadSealedPayload",
    "BadShuffle",
    "BadSignature",
    "BrokenChain",
    "DecodeError",
    "EquivocationError",
    "FieldError",
    "FrameTooLarge",
    "InvalidEvidence",
    "InvalidPoint",
    "LocalProtocolError",
    "Misaddressed",
    "ProtocolError",
    "RemoteProtocolError",
    "UnknownCard",
    "UnsupportedVersion",
    "WithheldReveal",
    "blame",
]


class ProtocolError(Exception):
    """Base class of every error the protocol layer raises on purpose."""

    kind: ClassVar[str] = "protocol"


class LocalProtocolError(ProtocolError):
    """The local caller did something illegal (a bug or misuse on this machine)."""

    kind = "local"


class FieldError(LocalProtocolError):
    """A message field violates its type or size limit.

    Raised when a message is built locally with a bad value; while decoding a
    remote frame it is always converted to :class:`DecodeError`.
    """

    kind = "field"


class RemoteProtocolError(ProtocolError):
    """A peer sent something illegal.

    ``seats`` lists the seats the evidence blames (empty when the culprit is not
    identifiable from this check alone, e.g. an undecodable frame from a link,
    or a corrupted card found before the audit); ``seat`` is the first of them.
    """

    kind: ClassVar[VerdictKind] = VerdictKind.REMOTE

    def __init__(
        self,
        message: str,
        *,
        seat: int | None = None,
        seats: Iterable[int] = (),
        kind: VerdictKind | None = None,
    ) -> None:
        super().__init__(message)
        blamed = tuple(seats)
        if seat is not None and seat not in blamed:
            blamed = (seat, *blamed)
        self.seats: tuple[int, ...] = blamed
        self._plain = kind is not None
        if kind is not None:  # this one error's verdict kind, over its class's
            self.__dict__["kind"] = kind

    @property
    def reason(self) -> str:
        """The verdict's wording: the message as given when the raiser named the ``kind``
        itself (see :func:`blame`), else the message with its blame appended."""
        return str(self.args[0]) if self._plain else str(self)

    @property
    def seat(self) -> int | None:
        """The (first) blamed seat, or ``None`` if nobody can be named yet."""
        return self.seats[0] if self.seats else None

    def __str__(self) -> str:
        base = super().__str__()
        if self.seats:
            return f"{base} [blame: seat {', '.join(map(str, self.seats))}; {self.kind}]"
        return base


def blame(seat: int | None, kind: VerdictKind, reason: str) -> RemoteProtocolError:
    """The error that stops a table session with a verdict of ``kind`` naming ``seat``
    (``None``: nobody can be named), worded ``reason``."""
    return RemoteProtocolError(reason, seat=seat, kind=kind)


class DecodeError(RemoteProtocolError):
    """Bytes that are not a canonical, well-formed, in-limits message."""

    kind = VerdictKind.DECODE


class FrameTooLarge(DecodeError):
    """A frame over :data:`~protocol.MAX_FRAME` bytes (rejected before parsing)."""

    kind = VerdictKind.OVERSIZE


class UnsupportedVersion(DecodeError):
    """A frame with a protocol version this implementation does not speak."""

    kind = VerdictKind.VERSION


class Misaddressed(RemoteProtocolError):
    """A well-signed entry for another table or an unknown seat (a replay)."""

    kind = VerdictKind.MISADDRESSED


class BadSignature(RemoteProtocolError):
    """A feed entry whose signature does not verify under its seat's key."""

    kind = VerdictKind.BAD_SIGNATURE


class BrokenChain(RemoteProtocolError):
    """A feed entry whose previous-hash does not fit the chain."""

    kind = VerdictKind.BROKEN_CHAIN


class EquivocationError(RemoteProtocolError):
    """A seat signed two conflicting entries; ``proof`` is transferable evidence."""

    kind = VerdictKind.EQUIVOCATION

    def __init__(self, message: str, *, proof: Any, seat: int) -> None:
        super().__init__(message, seat=seat)
        self.proof = proof


class InvalidEvidence(RemoteProtocolError):
    """Someone presented evidence (e.g. an equivocation proof) that does not hold."""

    kind = VerdictKind.INVALID_EVIDENCE


class BadCommitment(RemoteProtocolError):
    """A reveal that does not open the seat's commitment."""

    kind = VerdictKind.BAD_REVEAL


class WithheldReveal(RemoteProtocolError):
    """Seats that committed but never revealed (reported on a time-out input)."""

    kind = VerdictKind.WITHHELD_REVEAL


class InvalidPoint(RemoteProtocolError):
    """A received group element that is not a valid point (docs/protocol.md §7.1)."""

    kind = VerdictKind.INVALID_POINT


class BadProof(RemoteProtocolError):
    """A zero-knowledge proof (Schnorr, Chaum-Pedersen, re-encryption) that fails."""

    kind = VerdictKind.BAD_PROOF


class BadShuffle(RemoteProtocolError):
    """A shuffle/re-mix step whose audit opening does not reproduce its output."""

    kind = VerdictKind.BAD_SHUFFLE


class UnknownCard(RemoteProtocolError):
    """A fully decrypted point that is no card of the deck (a corrupted deck)."""

    kind = VerdictKind.UNKNOWN_CARD


class BadSealedPayload(RemoteProtocolError):
    """A sealed payload that cannot be opened or whose inner header does not match."""

    kind = VerdictKind.BAD_SEALED
