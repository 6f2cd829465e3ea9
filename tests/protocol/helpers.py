"""Shared fixtures for the protocol tests: fixed tables, identities and deck keys."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.testing as PT
import fairtable.protocol.wire as PW
from fairtable.protocol.wire import Complaint, HeldSlot, Leave, Note, Resign

TABLE = hashlib.sha256(b"fairtable test table").digest()
OTHER_TABLE = hashlib.sha256(b"another table").digest()


def seed(label: str) -> bytes:
    """32 deterministic bytes for a label (test determinism, not security)."""
    return hashlib.sha256(b"fairtable test seed/" + label.encode()).digest()


def wide(label: str) -> bytes:
    """64 deterministic bytes for a label."""
    return hashlib.sha512(b"fairtable test seed/" + label.encode()).digest()


def deliver_all(sessions: list[P.TableSession], skip: tuple[int, ...] = ()) -> None:
    """Every session offers every entry it holds to every other, until nothing is new
    (the seats in ``skip`` neither offer nor take any): no decision is answered."""
    moved = True
    while moved:
        moved = False
        for session in sessions:
            if session.seat in skip:
                continue
            session.outgoing()  # what it would send is already in its log
            for data in session.entries():
                for other in sessions:
                    if other is not session and other.seat not in skip and other.receive(data):
                        moved = True


def resigned(
    spec: P.TableSpec,
    seed: int,
    entries: list[bytes],
    rewrite: Callable[[int, list[list[object]]], list[list[object]]],
) -> list[bytes]:
    """The entries of a table made by ``protocol.testing.make_table`` with ``seed``, every
    feed rewritten by ``rewrite(seat, its entries as lists of parts)`` and signed again by its
    seat's key: a log a seat could have sent, for a verifier or a spectator to take."""
    feeds: dict[int, list[list[object]]] = {}
    for raw in entries:
        entry = P.decode(raw)
        batch = entry.message()
        assert isinstance(batch, PW.Batch)
        feeds.setdefault(entry.seat, []).append([P.decode(part) for part in batch.parts])
    out = []
    for seat, feed in sorted(feeds.items()):
        signer = PC.Feed(PT.peer_secrets(seed, seat)[0], spec.table_id, seat)
        for parts in rewrite(seat, feed):
            out.append(P.encode(signer.append(PW.Batch(tuple(P.encode(p) for p in parts)))))
    return out


def identity(seat: int) -> P.Identity:
    return P.Identity.from_seed(seed(f"identity/{seat}"))


def deck_key(seat: int) -> PC.DeckKey:
    return PC.DeckKey.generate(entropy=wide(f"deck-key/{seat}"))


def examples() -> list[object]:
    """One instance of every registered message type (keep in sync: a test checks)."""
    ident = identity(0)
    feed = PC.Feed(ident, TABLE, 0)
    entry = feed.append(PW.DigestCheck(0, bytes(32)))
    entry2 = PC.sign_entry(ident, TABLE, 0, 0, PC.ZERO_HASH, b"other")
    return [
        PW.Commit("bid:round-1", bytes(range(32))),
        PW.Reveal("bid:round-1", bytes(32), b"\x00payload\xff"),
        PW.KeyShare(bytes(32), bytes(64)),
        PW.ShuffleStep("main", "shuffle/0", (bytes(64), b"\x01" * 64), b"\x03" * 416),
        PW.ShuffleOpening("main", "shuffle/0", (1, 0), (bytes(32), b"\x02" * 32)),
        PW.DecryptShares(
            "main",
            "draw/7",
            (PW.Share(3, bytes(32)), PW.Share(9, b"\x05" * 32)),
            bytes(64),
        ),
        PW.HandOver("main", "spoils/2", PW.JOINT, (PW.HandOverItem(4, bytes(64), bytes(96)),)),
        PW.Sealed(2, "spoils/2", b"box"),
        PW.DigestCheck(12, b"\x07" * 32),
        P.FeedRequest(1, 3, 9),
        entry,
        entry.header,
        P.EquivocationProof(ident.public.key, entry.signed_header(), entry2.signed_header()),
        PW.Batch((b"{}", P.encode(PW.DigestCheck(1, bytes(32))))),
        PW.Move(
            4, b'{"type":"Bid"}', bytes(32), (PW.DecryptShares("military.2", "s4", (), bytes(64)),)
        ),
        PW.Opening(4, bytes(32), (HeldSlot("military.2", 7),), ()),
        Note(4, b"\x09" * 40),
        Complaint(7, 2),
        PW.AuditOpening("end", b"\x03" * 32),
        Resign(17),
        Leave(17),
        P.TableSpec("reign", (bytes(32), b"\x01" * 32, b"\x02" * 32), 60, bytes(32)),
        *vss_examples(),
    ]


def vss_examples() -> list[object]:
    """One instance of each vanishing message (docs/protocol.md §7.11)."""
    return [
        PW.ShareDeal((bytes(32), b"\x01" * 32), (PW.ShareBox(1, b"box"), PW.ShareBox(2, b"x"))),
        PW.ShareComplaint(0, b"\x02" * 32),
        PW.ShareAnswer(2, b"\x03" * 32),
        PW.RecoveryShares(1, "main", "draw/3", (PW.Share(5, bytes(32)),), bytes(64), 2),
        PW.Vanish(2, 17, 5),
        PW.Present(2, 17, 5),
    ]
