"""Identities and feeds: signatures, hash chain, duplicates, gaps, equivocation proofs."""

from __future__ import annotations

import attrs
import pytest

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.wire as PW

from .helpers import OTHER_TABLE, TABLE, identity


def roster(n: int = 3) -> dict[int, P.PublicIdentity]:
    return {seat: identity(seat).public for seat in range(n)}


def make_feed(seat: int, count: int) -> list[P.Entry]:
    feed = PC.Feed(identity(seat), TABLE, seat)
    return [feed.append(PW.DigestCheck(i, bytes([i]) * 32)) for i in range(count)]


# ------------------------------------------------------------------ identity


def test_fingerprint_is_sha256_hex_of_public_key() -> None:
    import hashlib

    ident = identity(0)
    assert ident.fingerprint == hashlib.sha256(ident.public.key).hexdigest()
    assert ident.public.short_id == ident.fingerprint[:16]
    assert identity(0).fingerprint != identity(1).fingerprint
    assert P.Identity.from_seed(ident.seed).public == ident.public


def test_signatures_verify_and_forgeries_fail() -> None:
    ident = identity(0)
    sig = ident.sign(b"hello")
    ident.public.verify(b"hello", sig)
    with pytest.raises(P.BadSignature) as err:
        ident.public.verify(b"hellO", sig, seat=4)
    assert err.value.seat == 4
    with pytest.raises(P.BadSignature):
        identity(1).public.verify(b"hello", sig)


def test_public_key_validation() -> None:
    with pytest.raises(P.InvalidPoint):
        P.PublicIdentity.from_bytes(bytes(32), seat=2)  # small-order point
    assert P.PublicIdentity.from_bytes(identity(0).public.key) == identity(0).public


# ------------------------------------------------------------------ feeds


def test_feed_appends_a_hash_chain() -> None:
    entries = make_feed(0, 3)
    assert [e.seq for e in entries] == [0, 1, 2]
    assert entries[0].prev == PC.ZERO_HASH
    assert entries[1].prev == entries[0].entry_id()
    assert entries[2].prev == entries[1].entry_id()
    assert entries[2].message() == PW.DigestCheck(2, bytes([2]) * 32)


def test_log_accepts_in_any_order_and_ignores_duplicates() -> None:
    log = PC.FeedLog(TABLE, roster())
    entries = make_feed(1, 4)
    for entry in reversed(entries):
        assert log.add_bytes(P.encode(entry)) is True
    assert log.add(entries[2]) is False
    assert log.entries(1) == entries
    assert log.gaps(1) == []


def test_gaps_are_reported_as_ranges() -> None:
    log = PC.FeedLog(TABLE, roster())
    entries = make_feed(0, 8)
    for i in (1, 2, 5, 7):
        log.add(entries[i])
    assert log.gaps(0) == [(0, 1), (3, 5), (6, 7)]
    assert log.entries(0) == []
    assert log.highest(0) == 7
    assert log.requests() == [
        P.FeedRequest(0, 0, 1),
        P.FeedRequest(0, 3, 5),
        P.FeedRequest(0, 6, 7),
    ]
    log.add(entries[0])
    assert log.entries(0) == entries[:3]
    assert log.serve(P.FeedRequest(0, 0, 4)) == entries[:3]


def test_forged_signature_rejected() -> None:
    log = PC.FeedLog(TABLE, roster())
    entry = make_feed(0, 1)[0]
    forged = PC.sign_entry(identity(2), TABLE, 0, 0, PC.ZERO_HASH, entry.body)  # seat 2 signs as 0
    with pytest.raises(P.BadSignature) as err:
        log.add(forged)
    assert err.value.seat is None  # a forgery proves nothing against seat 0
    assert log.entries(0) == []


def test_tampered_body_rejected() -> None:
    log = PC.FeedLog(TABLE, roster())
    entry = make_feed(0, 1)[0]
    with pytest.raises(P.BadSignature):
        log.add(attrs.evolve(entry, body=P.encode(PW.DigestCheck(0, b"\x01" * 32))))
    with pytest.raises(P.BadSignature):
        log.add(attrs.evolve(entry, seq=1))


def test_wrong_table_and_unknown_seat_rejected() -> None:
    log = PC.FeedLog(TABLE, roster(2))
    elsewhere = PC.Feed(identity(0), OTHER_TABLE, 0).append(PW.DigestCheck(0, bytes(32)))
    with pytest.raises(PC.Misaddressed):
        log.add(elsewhere)
    stranger = PC.Feed(identity(5), TABLE, 5).append(PW.DigestCheck(0, bytes(32)))
    with pytest.raises(PC.Misaddressed):
        log.add(stranger)


def test_first_entry_must_start_the_chain() -> None:
    log = PC.FeedLog(TABLE, roster())
    bad = PC.sign_entry(identity(0), TABLE, 0, 0, b"\x01" * 32, b"x")
    with pytest.raises(PC.BrokenChain) as err:
        log.add(bad)
    assert err.value.seat == 0


def test_equivocation_same_seq_gives_a_standalone_proof() -> None:
    log = PC.FeedLog(TABLE, roster())
    honest = make_feed(1, 2)
    log.add(honest[0])
    log.add(honest[1])
    other = PC.sign_entry(identity(1), TABLE, 1, 1, honest[0].entry_id(), b"something else")
    with pytest.raises(PC.EquivocationError) as err:
        log.add(other)
    assert err.value.seat == 1 and err.value.kind == "equivocation"
    proof = err.value.proof
    assert log.proofs == [proof]
    assert log.get(1, 1) == honest[1]  # the conflicting entry is not stored
    # Anyone can check the proof from its bytes alone.
    received = P.decode_as(P.encode(proof), P.EquivocationProof)
    assert received.verify() == 1
    assert received.verify(expected_key=identity(1).public) == 1
    with pytest.raises(PC.InvalidEvidence):
        received.verify(expected_key=identity(0).public)


def test_fork_is_equivocation_in_either_arrival_order() -> None:
    honest = make_feed(2, 2)
    fork = PC.sign_entry(identity(2), TABLE, 2, 1, b"\x09" * 32, honest[1].body)
    for order in ([honest[0], fork], [fork, honest[0]]):
        log = PC.FeedLog(TABLE, roster())
        log.add(order[0])
        with pytest.raises(PC.EquivocationError) as err:
            log.add(order[1])
        assert err.value.proof.verify() == 2


def test_bogus_equivocation_proofs_are_rejected() -> None:
    a, b = make_feed(0, 2)
    key = identity(0).public.key
    with pytest.raises(PC.InvalidEvidence):  # consecutive and chained: no conflict
        P.EquivocationProof(key, a.signed_header(), b.signed_header()).verify()
    with pytest.raises(PC.InvalidEvidence):  # identical
        P.EquivocationProof(key, a.signed_header(), a.signed_header()).verify()
    other = PC.sign_entry(identity(0), TABLE, 0, 1, a.entry_id(), b"other")
    forged = attrs.evolve(other.signed_header(), sig=bytes(64))
    with pytest.raises(PC.InvalidEvidence):  # a signature does not verify
        P.EquivocationProof(key, b.signed_header(), forged).verify()
    other_seat = PC.sign_entry(identity(1), TABLE, 1, 1, a.entry_id(), b"other")
    with pytest.raises(PC.InvalidEvidence):  # different seats do not conflict
        P.EquivocationProof(key, b.signed_header(), other_seat.signed_header()).verify()
    P.EquivocationProof(key, b.signed_header(), other.signed_header()).verify()


def test_resume_continues_the_chain() -> None:
    entries = make_feed(0, 3)
    feed = PC.Feed.resume(identity(0), TABLE, 0, entries)
    nxt = feed.append(PW.DigestCheck(3, bytes(32)))
    assert nxt.seq == 3 and nxt.prev == entries[2].entry_id()
    with pytest.raises(P.LocalProtocolError):
        PC.Feed.resume(identity(0), TABLE, 0, entries[1:])
