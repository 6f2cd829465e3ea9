"""An equivocation proof passed on by another peer stops a seat that never saw both entries.

Simulator seed 4645 (Sovereign): seat 2 sent two versions of its entry 3; seat 0 held both
and stopped with an ``equivocation`` verdict whose evidence is the proof (two signed,
conflicting headers), and sent it to seat 1 on every link.  Seat 1 held only one version
(the other never reached it, and a crash lost what it had), and nothing took the proof: the
node had no route for it, the session no way to take one.  Seat 1 timed seat 2 out instead
600 s later -- the right seat, a second verdict.  The proof is checked from its bytes alone
against this table's roster; a proof that is not one changes nothing.
"""

from __future__ import annotations

import hashlib

import pytest

import fairtable.protocol as P
import fairtable.protocol.crypto as PC

from .helpers import identity


def _spec() -> P.TableSpec:
    players = tuple(identity(seat).public.key for seat in range(3))
    return P.TableSpec("reign", players, 1, hashlib.sha256(b"equivocation passed on").digest())


def _proof(
    spec: P.TableSpec, signer: P.Identity, seat: int, table: bytes | None = None
) -> P.EquivocationProof:
    """Two entries ``seat`` 0 signed by ``signer`` with different bodies: a conflict."""
    table = spec.table_id if table is None else table
    first = PC.sign_entry(signer, table, seat, 0, PC.ZERO_HASH, b"one version")
    second = PC.sign_entry(signer, table, seat, 0, PC.ZERO_HASH, b"another version")
    return P.EquivocationProof(signer.public.key, first.signed_header(), second.signed_header())


def _honest_seat_2(spec: P.TableSpec) -> P.TableSession:
    return P.TableSession(spec, 2, identity(2), secret_seed=bytes(32))


def test_accountability_a_proof_passed_on_gives_the_same_equivocation_verdict() -> None:
    spec = _spec()
    proof = _proof(spec, identity(1), 1)
    session = _honest_seat_2(spec)
    assert session.receive_equivocation(proof)
    verdict = session.verdict
    assert verdict is not None and (verdict.seat, verdict.kind) == (1, "equivocation")
    assert verdict.evidence == (P.encode(proof),)  # passed on again as it came
    assert not session.receive_equivocation(proof)  # once stopped, nothing more


@pytest.mark.parametrize(
    "bogus", ["another table", "not the seat's key", "no conflict", "a seat the table lacks"]
)
def test_accountability_a_proof_that_is_not_one_changes_nothing(bogus: str) -> None:
    spec = _spec()
    if bogus == "another table":
        proof = _proof(spec, identity(1), 1, table=hashlib.sha256(b"elsewhere").digest())
    elif bogus == "not the seat's key":  # an outsider's two entries in seat 1's name
        proof = _proof(spec, identity(7), 1)
    elif bogus == "no conflict":
        entry = PC.sign_entry(identity(1), spec.table_id, 1, 0, PC.ZERO_HASH, b"one version")
        proof = P.EquivocationProof(
            identity(1).public.key, entry.signed_header(), entry.signed_header()
        )
    else:
        proof = _proof(spec, identity(1), 5)
    session = _honest_seat_2(spec)
    assert not session.receive_equivocation(proof)
    assert session.verdict is None
