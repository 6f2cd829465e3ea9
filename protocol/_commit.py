"""Hash commitments for secret choices (face-down cards, sealed moves).

This module owns the commitment format.  A seat commits to ``payload`` for a
``purpose`` by publishing::

    digest = SHA-256( b"fairtable/commit/v1\\x00"
                      || table (32 bytes)
                      || seat (2 bytes, big-endian)
                      || len(purpose) (2 bytes, big-endian) || purpose (ASCII)
                      || nonce (32 random bytes)
                      || len(payload) (4 bytes, big-endian) || payload )

and later opens it with ``(nonce, payload)``.  The table, seat and purpose are
inside the hash, so a commitment cannot be replayed at another table, by
another seat, or for another question; the 32-byte nonce hides the payload.
"""

from __future__ import annotations

import hashlib
import hmac
import os

from ._codec import MAX_LABEL
from ._errors import BadCommitment, LocalProtocolError
from ._messages import MAX_PAYLOAD, Commit, Reveal

__all__ = ["COMMIT_DOMAIN", "commitment_digest", "make_commitment", "verify_reveal"]

COMMIT_DOMAIN = b"fairtable/commit/v1\x00"


def commitment_digest(table: bytes, seat: int, purpose: str, nonce: bytes, payload: bytes) -> bytes:
    """The 32-byte commitment digest (see the module docstring for the layout)."""
    raw_purpose = purpose.encode("ascii") if purpose.isascii() else b""
    if len(table) != 32 or len(nonce) != 32 or not 0 <= seat < 1 << 16:
        raise LocalProtocolError("table and nonce are 32 bytes; seat fits 16 bits")
    if not 0 < len(raw_purpose) <= MAX_LABEL or len(payload) > MAX_PAYLOAD:
        raise LocalProtocolError("purpose is a 1..128-char ASCII label; payload is capped")
    return hashlib.sha256(
        b"".join(
            (
                COMMIT_DOMAIN,
                table,
                seat.to_bytes(2, "big"),
                len(raw_purpose).to_bytes(2, "big"),
                raw_purpose,
                nonce,
                len(payload).to_bytes(4, "big"),
                payload,
            )
        )
    ).digest()


def make_commitment(
    table: bytes, seat: int, purpose: str, payload: bytes, *, nonce: bytes | None = None
) -> tuple[Commit, Reveal]:
    """Commit to ``payload``: the public :class:`Commit` and the :class:`Reveal` to keep.

    ``nonce`` defaults to 32 fresh random bytes; pass one only for test vectors.
    """
    nonce = os.urandom(32) if nonce is None else nonce
    digest = commitment_digest(table, seat, purpose, nonce, payload)
    return Commit(purpose, digest), Reveal(purpose, nonce, payload)


def verify_reveal(table: bytes, seat: int, commit: Commit, reveal: Reveal) -> bytes:
    """Check that ``reveal`` opens ``seat``'s ``commit``; return the payload.

    Raises :class:`~protocol.BadCommitment` naming ``seat`` otherwise.
    """
    if reveal.purpose != commit.purpose:
        raise BadCommitment(
            f"reveal for {reveal.purpose!r} does not answer commitment {commit.purpose!r}",
            seat=seat,
        )
    expected = commitment_digest(table, seat, reveal.purpose, reveal.nonce, reveal.payload)
    if not hmac.compare_digest(expected, commit.digest):
        raise BadCommitment(f"reveal does not open the {commit.purpose!r} commitment", seat=seat)
    return reveal.payload
