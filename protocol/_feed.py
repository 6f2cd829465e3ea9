"""Signed append-only feeds: one per seat, the table log is the set of them.

This module owns feed entries, their signatures and hash chain, the per-seat
writer (:class:`Feed`), the table-wide verifier (:class:`FeedLog`) and the
transferable :class:`EquivocationProof`.

An entry is ``(table, seat, seq, prev, body)`` plus a signature.  What is
signed is the canonical encoding of its :class:`EntryHeader` -- the same
fields with the body replaced by ``SHA-256(body)`` -- behind the domain prefix
``b"fairtable/entry/v1\\x00"``.  The entry id is ``SHA-256(encode(header))``
and the next entry's ``prev`` is that id (all zeros for ``seq == 0``).
Signing the header rather than the body keeps equivocation proofs small
whatever the bodies weigh.

Two validly signed headers of one seat are a proof of equivocation when they
have the same ``seq`` and differ, or when they are consecutive and the later
one's ``prev`` is not the earlier one's id (a fork).  Honest seats never sign
either; anyone holding the seat's public key can check the proof alone.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from typing import Any

import attrs

from ._codec import blob, decode, decode_as, encode, integer, message, nested
from ._errors import (
    BadSignature,
    BrokenChain,
    EquivocationError,
    InvalidEvidence,
    LocalProtocolError,
    Misaddressed,
    RemoteProtocolError,
)
from ._identity import Identity, PublicIdentity
from ._messages import MAX_SEATS, FeedRequest

__all__ = [
    "ENTRY_DOMAIN",
    "MAX_BODY",
    "ZERO_HASH",
    "Entry",
    "EntryHeader",
    "EquivocationProof",
    "Feed",
    "FeedLog",
    "SignedHeader",
]

ENTRY_DOMAIN = b"fairtable/entry/v1\x00"
"""Prefix of the bytes every feed signature covers."""

ZERO_HASH = bytes(32)
"""``prev`` of the first entry (``seq == 0``) of every feed."""

MAX_BODY = 512 * 1024
"""Largest entry body (its base64 form must still fit a frame)."""

_SEAT_HI = MAX_SEATS - 1


def _seat_field() -> Any:
    return integer(lo=0, hi=_SEAT_HI)


@message("entry-header")
@attrs.frozen
class EntryHeader:
    """What a feed signature covers: the entry with its body replaced by its hash."""

    table: bytes = blob(exact=32)
    seat: int = _seat_field()
    seq: int = integer()
    prev: bytes = blob(exact=32)
    body_hash: bytes = blob(exact=32)

    @functools.cached_property
    def encoded(self) -> bytes:
        """The canonical encoding (computed once)."""
        return encode(self)

    def signing_bytes(self) -> bytes:
        """Domain prefix + canonical encoding: the exact bytes signed."""
        return ENTRY_DOMAIN + self.encoded

    @functools.cached_property
    def id(self) -> bytes:
        """SHA-256 of the canonical header: what the next entry's ``prev`` holds."""
        return hashlib.sha256(self.encoded).digest()

    def entry_id(self) -> bytes:
        """SHA-256 of the canonical header: what the next entry's ``prev`` holds."""
        return self.id

    def conflicts_with(self, other: EntryHeader) -> bool:
        """Whether two headers of one seat cannot both belong to an honest feed."""
        if (self.table, self.seat) != (other.table, other.seat):
            return False
        if self.seq == other.seq:
            return self != other
        first, second = (self, other) if self.seq < other.seq else (other, self)
        return second.seq == first.seq + 1 and second.prev != first.entry_id()


@attrs.frozen
class SignedHeader:
    """A header with its signature (the unit of evidence in equivocation proofs)."""

    header: EntryHeader = nested(EntryHeader)
    sig: bytes = blob(exact=64)

    def verify(self, key: PublicIdentity) -> None:
        """Raise BadSignature unless ``sig`` is ``key``'s over the header.

        The error blames nobody: anyone can make a bad signature claiming any seat.
        """
        try:
            key.verify(self.header.signing_bytes(), self.sig)
        except BadSignature:
            raise BadSignature(
                f"entry ({self.header.seat}, {self.header.seq}) has a bad signature"
            ) from None


@message("entry")
@attrs.frozen
class Entry:
    """One signed feed entry: ``body`` is the canonical encoding of a message."""

    table: bytes = blob(exact=32)
    seat: int = _seat_field()
    seq: int = integer()
    prev: bytes = blob(exact=32)
    body: bytes = blob(max_len=MAX_BODY)
    sig: bytes = blob(exact=64)

    @functools.cached_property
    def header(self) -> EntryHeader:
        """The signed header of this entry."""
        return EntryHeader(
            self.table, self.seat, self.seq, self.prev, hashlib.sha256(self.body).digest()
        )

    def signed_header(self) -> SignedHeader:
        """Header and signature, as used in evidence."""
        return SignedHeader(self.header, self.sig)

    def entry_id(self) -> bytes:
        """This entry's id (the next entry's ``prev``)."""
        return self.header.entry_id()

    def message(self) -> object:
        """Decode the body (raises DecodeError naming nobody: blame the seat yourself)."""
        return decode(self.body)

    @classmethod
    def parse(cls, data: bytes) -> Entry:
        """Decode a framed entry (DecodeError on anything else)."""
        return decode_as(data, cls)


@message("equivocation")
@attrs.frozen
class EquivocationProof:
    """Two validly signed, mutually exclusive headers of one seat's feed."""

    key: bytes = blob(exact=32)
    first: SignedHeader = nested(SignedHeader)
    second: SignedHeader = nested(SignedHeader)

    def verify(self, expected_key: PublicIdentity | None = None) -> int:
        """Check the proof standalone and return the guilty seat.

        Pass the seat's key from the table roster as ``expected_key`` to also
        check the proof is about that player.  Raises InvalidEvidence.
        """
        if expected_key is not None and expected_key.key != self.key:
            raise InvalidEvidence("equivocation proof is about another key")
        a, b = self.first.header, self.second.header
        if not a.conflicts_with(b):
            raise InvalidEvidence("the two headers do not conflict")
        try:
            key = PublicIdentity.from_bytes(self.key)
            self.first.verify(key)
            self.second.verify(key)
        except RemoteProtocolError as exc:
            raise InvalidEvidence(f"equivocation proof does not verify: {exc}") from exc
        return a.seat


def sign_entry(
    identity: Identity, table: bytes, seat: int, seq: int, prev: bytes, body: bytes
) -> Entry:
    """Build and sign one entry (lower level than :meth:`Feed.append`)."""
    unsigned = Entry(table, seat, seq, prev, body, bytes(64))
    return attrs.evolve(unsigned, sig=identity.sign(unsigned.header.signing_bytes()))


class Feed:
    """The local seat's own feed: appends signed entries with consecutive seqs."""

    def __init__(self, identity: Identity, table: bytes, seat: int) -> None:
        if len(table) != 32 or not 0 <= seat <= _SEAT_HI:
            raise LocalProtocolError("bad table id or seat")
        self.identity = identity
        self.table = table
        self.seat = seat
        self.next_seq = 0
        self.head = ZERO_HASH

    @classmethod
    def resume(cls, identity: Identity, table: bytes, seat: int, entries: list[Entry]) -> Feed:
        """Continue a feed from its saved entries (checked: our own, in order, chained)."""
        feed = cls(identity, table, seat)
        for entry in entries:
            if (entry.table, entry.seat, entry.seq, entry.prev) != (
                table,
                seat,
                feed.next_seq,
                feed.head,
            ):
                raise LocalProtocolError(f"saved entry {entry.seq} does not continue the feed")
            identity.public.verify(entry.header.signing_bytes(), entry.sig, seat=seat)
            feed.next_seq += 1
            feed.head = entry.entry_id()
        return feed

    def append(self, body: object) -> Entry:
        """Sign the next entry; ``body`` is a message or already-encoded bytes."""
        data = body if isinstance(body, bytes) else encode(body)
        entry = sign_entry(self.identity, self.table, self.seat, self.next_seq, self.head, data)
        self.next_seq += 1
        self.head = entry.entry_id()
        return entry


class FeedLog:
    """Every seat's feed for one table, verified as entries arrive in any order.

    :meth:`add` checks the table id, the seat, the signature and the hash chain
    against whatever neighbours are already known; exact duplicates are
    ignored; conflicting entries raise :class:`EquivocationError` carrying an
    :class:`EquivocationProof` (also kept in :attr:`proofs`).
    """

    def __init__(self, table: bytes, roster: Mapping[int, PublicIdentity]) -> None:
        if len(table) != 32:
            raise LocalProtocolError("a table id is 32 bytes")
        self.table = table
        self.roster = dict(roster)
        self._entries: dict[int, dict[int, Entry]] = {seat: {} for seat in self.roster}
        self.proofs: list[EquivocationProof] = []

    def add(self, entry: Entry) -> bool:
        """Verify and store ``entry``; False if it was already known (duplicate)."""
        if entry.table != self.table:
            raise Misaddressed("entry for another table")
        key = self.roster.get(entry.seat)
        if key is None:
            raise Misaddressed(f"entry from unknown seat {entry.seat}")
        if self._entries[entry.seat].get(entry.seq) == entry:
            return False  # an exact copy of what we hold: nothing to check again
        signed = entry.signed_header()
        signed.verify(key)
        if entry.seq == 0 and entry.prev != ZERO_HASH:
            raise BrokenChain("first entry must have an all-zero prev", seat=entry.seat)
        feed = self._entries[entry.seat]
        for other_seq in (entry.seq, entry.seq - 1, entry.seq + 1):
            other = feed.get(other_seq)
            if other is None:
                continue
            if other_seq == entry.seq and other == entry:
                return False
            if entry.header.conflicts_with(other.header):
                proof = EquivocationProof(key.key, other.signed_header(), signed)
                self.proofs.append(proof)
                raise EquivocationError(
                    f"seat {entry.seat} signed conflicting entries at seq {other_seq}/{entry.seq}",
                    proof=proof,
                    seat=entry.seat,
                )
        feed[entry.seq] = entry
        return True

    def cut(self, seat: int, seq: int) -> None:
        """Forget ``seat``'s entries from ``seq`` on (a seat that vanished: they never count)."""
        feed = self._entries[seat]
        for later in [n for n in feed if n >= seq]:
            del feed[later]

    def add_bytes(self, data: bytes) -> bool:
        """Decode a framed entry and :meth:`add` it."""
        return self.add(Entry.parse(data))

    def get(self, seat: int, seq: int) -> Entry | None:
        """The entry at ``(seat, seq)``, if known."""
        return self._entries.get(seat, {}).get(seq)

    def entries(self, seat: int) -> list[Entry]:
        """The contiguous, fully chained prefix ``0, 1, ...`` of ``seat``'s feed."""
        feed = self._entries[seat]
        out: list[Entry] = []
        while len(out) in feed:
            out.append(feed[len(out)])
        return out

    def highest(self, seat: int) -> int | None:
        """The largest seq known for ``seat`` (None if nothing yet)."""
        feed = self._entries[seat]
        return max(feed) if feed else None

    def gaps(self, seat: int) -> list[tuple[int, int]]:
        """Missing seq ranges ``[start, stop)`` below the highest known entry."""
        out: list[tuple[int, int]] = []
        expected = 0
        for seq in sorted(self._entries[seat]):
            if seq > expected:
                out.append((expected, seq))
            expected = seq + 1
        return out

    def requests(self) -> list[FeedRequest]:
        """One :class:`FeedRequest` per gap, for every seat."""
        return [
            FeedRequest(seat, start, stop)
            for seat in sorted(self._entries)
            for start, stop in self.gaps(seat)
        ]

    def serve(self, request: FeedRequest, limit: int = 256) -> list[Entry]:
        """The known entries a peer asked for (at most ``limit``)."""
        feed = self._entries.get(request.seat, {})
        stop = min(request.stop, request.start + limit)
        return [feed[s] for s in range(request.start, stop) if s in feed]
