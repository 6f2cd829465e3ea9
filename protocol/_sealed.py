"""Sealed payloads: bytes only one seat can read, carried in the sender's signed feed.

This module owns the sealing format.  The sender encrypts to the recipient's
X25519 key (derived from its Ed25519 identity, see ``_identity``) with
libsodium's anonymous sealed box (``crypto_box_seal``: ephemeral X25519 +
XSalsa20-Poly1305).  The plaintext starts with a header that binds the box to
its place::

    inner = b"fairtable/sealed/v1\\x00"
            || frame(table, sender_u16, recipient_u16, purpose)
            || pad(payload, SEALED_BLOCK)

Authenticity comes from the feed signature around the :class:`Sealed`
message; the header stops a seat from copying another seat's box into its own
feed (the recipient sees the wrong sender) or into another table or purpose.
A relay or any other seat sees only the length, and the payload is padded first
(``_padding``, blocks of :data:`SEALED_BLOCK`): every payload of up to
``SEALED_BLOCK - 4`` bytes makes a box of one size.  Caveat: only the recipient
can check a sealed payload, so a bad one cannot be proven to third parties;
keep anything that may need public blame verifiable by other means (e.g. put
commitment openings inside, with the commitments public).
"""

from __future__ import annotations

import nacl.exceptions
import nacl.public

from ._errors import BadSealedPayload, LocalProtocolError
from ._group import frame
from ._identity import Identity, PublicIdentity
from ._messages import MAX_SEALED, Sealed
from ._padding import SEALED_BLOCK, BadPadding, pad, unpad

__all__ = ["SEAL_DOMAIN", "seal", "unseal"]

SEAL_DOMAIN = b"fairtable/sealed/v1\x00"
_OVERHEAD = 48  # crypto_box_SEALBYTES


def _header(table: bytes, sender: int, recipient: int, purpose: str) -> bytes:
    return SEAL_DOMAIN + frame(
        table, sender.to_bytes(2, "big"), recipient.to_bytes(2, "big"), purpose.encode("ascii")
    )


def seal(
    recipient: PublicIdentity,
    *,
    table: bytes,
    sender: int,
    to_seat: int,
    purpose: str,
    payload: bytes,
) -> Sealed:
    """A :class:`Sealed` message carrying ``payload`` for ``to_seat`` (key ``recipient``)."""
    inner = _header(table, sender, to_seat, purpose) + pad(payload, SEALED_BLOCK)
    if len(inner) + _OVERHEAD > MAX_SEALED:
        raise LocalProtocolError("sealed payload too large")
    box = nacl.public.SealedBox(recipient.seal_key()).encrypt(inner)
    return Sealed(to_seat, purpose, bytes(box))


def unseal(identity: Identity, *, table: bytes, sender: int, seat: int, msg: Sealed) -> bytes:
    """Open a :class:`Sealed` from ``sender``'s feed addressed to our ``seat``.

    Raises BadSealedPayload naming ``sender`` if it does not open, its header
    does not match (table, sender, recipient, purpose) or its padding is bad.
    """
    if msg.to_seat != seat:
        raise LocalProtocolError(f"sealed payload is for seat {msg.to_seat}, not {seat}")
    try:
        inner = nacl.public.SealedBox(identity.unseal_key()).decrypt(msg.box)
    except (nacl.exceptions.CryptoError, ValueError, TypeError) as exc:
        raise BadSealedPayload("sealed payload does not open", seat=sender) from exc
    header = _header(table, sender, seat, msg.purpose)
    if not inner.startswith(header):
        raise BadSealedPayload("sealed payload header does not match its place", seat=sender)
    try:
        return unpad(inner[len(header) :], SEALED_BLOCK)
    except BadPadding as exc:
        raise BadSealedPayload(f"sealed payload: {exc}", seat=sender) from None
