"""Shared fixtures for the protocol tests: fixed tables, identities and deck keys."""

from __future__ import annotations

import hashlib

import protocol as P
from protocol._session_messages import Complaint, HeldSlot, Note, Resign

TABLE = hashlib.sha256(b"fairtable test table").digest()
OTHER_TABLE = hashlib.sha256(b"another table").digest()


def seed(label: str) -> bytes:
    """32 deterministic bytes for a label (test determinism, not security)."""
    return hashlib.sha256(b"fairtable test seed/" + label.encode()).digest()


def wide(label: str) -> bytes:
    """64 deterministic bytes for a label."""
    return hashlib.sha512(b"fairtable test seed/" + label.encode()).digest()


def identity(seat: int) -> P.Identity:
    return P.Identity.from_seed(seed(f"identity/{seat}"))


def deck_key(seat: int) -> P.DeckKey:
    return P.DeckKey.generate(entropy=wide(f"deck-key/{seat}"))


def examples() -> list[object]:
    """One instance of every registered message type (keep in sync: a test checks)."""
    ident = identity(0)
    feed = P.Feed(ident, TABLE, 0)
    entry = feed.append(P.DigestCheck(0, bytes(32)))
    entry2 = P.sign_entry(ident, TABLE, 0, 0, P.ZERO_HASH, b"other")
    return [
        P.Commit("bid:round-1", bytes(range(32))),
        P.Reveal("bid:round-1", bytes(32), b"\x00payload\xff"),
        P.KeyShare(bytes(32), bytes(64)),
        P.ShuffleStep("main", "shuffle/0", (bytes(64), b"\x01" * 64), b"\x03" * 416),
        P.ShuffleOpening("main", "shuffle/0", (1, 0), (bytes(32), b"\x02" * 32)),
        P.DecryptShares(
            "main",
            "draw/7",
            (P.Share(3, bytes(32)), P.Share(9, b"\x05" * 32)),
            bytes(64),
        ),
        P.HandOver("main", "spoils/2", P.JOINT, (P.HandOverItem(4, bytes(64), bytes(96)),)),
        P.Sealed(2, "spoils/2", b"box"),
        P.DigestCheck(12, b"\x07" * 32),
        P.FeedRequest(1, 3, 9),
        entry,
        entry.header,
        P.EquivocationProof(ident.public.key, entry.signed_header(), entry2.signed_header()),
        P.Batch((b"{}", P.encode(P.DigestCheck(1, bytes(32))))),
        P.Move(
            4, b'{"type":"Bid"}', bytes(32), (P.DecryptShares("military.2", "s4", (), bytes(64)),)
        ),
        P.Opening(4, bytes(32), (HeldSlot("military.2", 7),), ()),
        Note(4, b"\x09" * 40),
        Complaint(7, 2),
        P.AuditOpening("end", b"\x03" * 32),
        Resign(17),
        P.TableSpec("reign", (bytes(32), b"\x01" * 32, b"\x02" * 32), 60, bytes(32)),
    ]
