"""Non-interactive sigma proofs: Schnorr, Chaum-Pedersen (DLEQ) and re-encryption.

This module owns the three zero-knowledge proofs of the deck protocol, all
made non-interactive with Fiat-Shamir.  The challenge hashes the **whole
statement** (every point involved, the base point included) plus the
:class:`ProofContext` -- table id, step label, prover seat and card slot -- so
a proof cannot be replayed for another card, step, seat or table::

    c = SHA-512( domain || frame(table, step, seat_u16, slot_u32,
                                 statement points..., commitment points...) ) mod L

Proofs are sent in the compact form ``c || z...`` (32 bytes per scalar); the
verifier recomputes the commitment points from the responses and checks the
challenge.  Prover nonces are hedged, ``k = SHA-512(nonce domain ||
frame(secrets..., 32 random bytes, context and statement items...)) mod L``,
so neither a weak RNG nor a repeated RNG state can leak the secret.  Pass
``entropy`` only for test vectors.

* :func:`prove_key` -- knowledge of ``x`` with ``Y = x*G`` (deck key shares,
  stops rogue-key attacks on the joint key);
* :func:`prove_shares` -- every ``D_i = x*A_i`` of one message is a decryption share
  matching ``Y`` (one Chaum-Pedersen proof for them all: one nonce, one challenge);
* :func:`prove_reencryption` -- ``(A', B')`` under key ``K`` holds the same
  card as ``(A, C)`` under ``Y = x*G`` (hand-overs).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import attrs

from ._errors import BadProof, LocalProtocolError
from ._group import (
    BASE,
    GroupError,
    base_mul,
    check_scalar,
    hash_to_scalar,
    mul,
    scalar_add,
    scalar_mul,
    sub,
)

__all__ = [
    "ProofContext",
    "prove_key",
    "prove_reencryption",
    "prove_shares",
    "verify_key",
    "verify_reencryption",
    "verify_shares_proof",
]

_SCHNORR = b"fairtable/proof/schnorr/v1"
_DLEQ = b"fairtable/proof/dleq/v2"
_REENC = b"fairtable/proof/reencrypt/v1"
_NONCE = b"fairtable/proof/nonce/v1"


@attrs.frozen
class ProofContext:
    """Where a proof belongs: table, step label, prover seat and card slot."""

    table: bytes
    step: str
    seat: int
    slot: int = 0

    def parts(self) -> tuple[bytes, ...]:
        """The context items that open every Fiat-Shamir transcript."""
        if len(self.table) != 32 or not 0 <= self.seat < 1 << 16 or not 0 <= self.slot < 1 << 32:
            raise LocalProtocolError("bad proof context")
        return (
            self.table,
            self.step.encode("ascii"),
            self.seat.to_bytes(2, "big"),
            self.slot.to_bytes(4, "big"),
        )


def _nonce(
    secrets: tuple[bytes, ...], statement: tuple[bytes, ...], entropy: bytes | None
) -> bytes:
    noise = os.urandom(32) if entropy is None else entropy
    return hash_to_scalar(_NONCE, *secrets, noise, *statement)


def _split(proof: bytes, count: int, seat: int) -> list[bytes]:
    if type(proof) is not bytes or len(proof) != 32 * count:
        raise BadProof("proof has the wrong length", seat=seat)
    return [check_scalar(proof[32 * i : 32 * i + 32], seat=seat) for i in range(count)]


def prove_key(x: bytes, y: bytes, ctx: ProofContext, *, entropy: bytes | None = None) -> bytes:
    """Schnorr proof (64 bytes) that the prover knows ``x`` with ``y = x*G``."""
    statement = (*ctx.parts(), BASE, y)
    k = _nonce((x,), statement, entropy)
    t = base_mul(k)
    c = hash_to_scalar(_SCHNORR, *statement, t)
    return c + scalar_add(k, scalar_mul(c, x))


def verify_key(y: bytes, proof: bytes, ctx: ProofContext) -> None:
    """Check a :func:`prove_key` proof; raise BadProof naming ``ctx.seat``."""
    c, z = _split(proof, 2, ctx.seat)
    statement = (*ctx.parts(), BASE, y)
    try:
        t = sub(base_mul(z), mul(c, y))
    except GroupError as exc:
        raise BadProof("key proof does not verify", seat=ctx.seat) from exc
    if hash_to_scalar(_SCHNORR, *statement, t) != c:
        raise BadProof("key proof does not verify", seat=ctx.seat)


SharedBase = tuple[int, bytes, bytes]
"""``(slot, A, D)``: card ``slot``'s ciphertext point ``A`` and the share ``D = x*A``."""


def _shares_statement(
    ctx: ProofContext, y: bytes, shares: Sequence[SharedBase]
) -> tuple[bytes, ...]:
    parts: list[bytes] = [*ctx.parts(), len(shares).to_bytes(4, "big"), BASE, y]
    for slot, a, d in shares:
        if not 0 <= slot < 1 << 32:
            raise LocalProtocolError("bad slot in a share proof")
        parts += [slot.to_bytes(4, "big"), a, d]
    return tuple(parts)


def prove_shares(
    x: bytes,
    y: bytes,
    shares: Sequence[SharedBase],
    ctx: ProofContext,
    *,
    entropy: bytes | None = None,
) -> bytes:
    """One Chaum-Pedersen proof (64 bytes) that ``log_G(y) == log_A(D)`` for every
    ``(slot, A, D)`` in ``shares``: commitments ``k*G`` and every ``k*A``, one challenge."""
    statement = _shares_statement(ctx, y, shares)
    k = _nonce((x,), statement, entropy)
    commitments = [base_mul(k)] + [mul(k, a) for _, a, _ in shares]
    c = hash_to_scalar(_DLEQ, *statement, *commitments)
    return c + scalar_add(k, scalar_mul(c, x))


def verify_shares_proof(
    y: bytes, shares: Sequence[SharedBase], proof: bytes, ctx: ProofContext
) -> None:
    """Check a :func:`prove_shares` proof; BadProof otherwise.

    ``y`` and every ``A`` must be valid already; a ``D`` need not be: the check multiplies
    it, and ``_group.mul`` refuses any point that is not a valid group element, so
    no proof verifies for an invalid share.
    """
    c, z = _split(proof, 2, ctx.seat)
    statement = _shares_statement(ctx, y, shares)
    try:
        commitments = [sub(base_mul(z), mul(c, y))]
        commitments += [sub(mul(z, a), mul(c, d)) for _, a, d in shares]
    except GroupError as exc:
        raise BadProof("decryption-share proof does not verify", seat=ctx.seat) from exc
    if hash_to_scalar(_DLEQ, *statement, *commitments) != c:
        raise BadProof("decryption-share proof does not verify", seat=ctx.seat)


def prove_reencryption(
    x: bytes,
    r: bytes,
    y: bytes,
    held: tuple[bytes, bytes],
    target: bytes,
    fresh: tuple[bytes, bytes],
    ctx: ProofContext,
    *,
    entropy: bytes | None = None,
) -> bytes:
    """Proof (96 bytes) that ``fresh`` under ``target`` holds the card ``held`` holds under y.

    Witness: ``x`` (``y = x*G``) and ``r`` (``fresh = (r*G, M + r*target)``);
    relation: ``held.C - fresh.B = x*held.A - r*target``.
    """
    (a, c_pt), (a2, b2) = held, fresh
    statement = (*ctx.parts(), BASE, y, a, c_pt, target, a2, b2)
    k1 = _nonce((x, r, b"\x01"), statement, entropy)
    k2 = _nonce((x, r, b"\x02"), statement, entropy)
    t1, t2 = base_mul(k1), base_mul(k2)
    t3 = sub(mul(k1, a), mul(k2, target))
    c = hash_to_scalar(_REENC, *statement, t1, t2, t3)
    return c + scalar_add(k1, scalar_mul(c, x)) + scalar_add(k2, scalar_mul(c, r))


def verify_reencryption(
    y: bytes,
    held: tuple[bytes, bytes],
    target: bytes,
    fresh: tuple[bytes, bytes],
    proof: bytes,
    ctx: ProofContext,
) -> None:
    """Check a :func:`prove_reencryption` proof; raise BadProof naming ``ctx.seat``."""
    c, z1, z2 = _split(proof, 3, ctx.seat)
    (a, c_pt), (a2, b2) = held, fresh
    statement = (*ctx.parts(), BASE, y, a, c_pt, target, a2, b2)
    try:
        t1 = sub(base_mul(z1), mul(c, y))
        t2 = sub(base_mul(z2), mul(c, a2))
        t3 = sub(sub(mul(z1, a), mul(z2, target)), mul(c, sub(c_pt, b2)))
    except GroupError as exc:
        raise BadProof("re-encryption proof does not verify", seat=ctx.seat) from exc
    if hash_to_scalar(_REENC, *statement, t1, t2, t3) != c:
        raise BadProof("re-encryption proof does not verify", seat=ctx.seat)
