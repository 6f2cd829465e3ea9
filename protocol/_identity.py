"""Player identity: Ed25519 signing keys, fingerprints and the derived sealing keys.

This module owns who a player *is* on the wire.  A player is an Ed25519 key
pair (PyNaCl / libsodium); the player id is the **fingerprint**: lower-case hex
of SHA-256 of the 32-byte public key (``short_id`` is its first 16 hex digits,
for display only -- never compare short ids).

Sealing keys (X25519, used by ``_sealed``) are **derived** from the Ed25519
keys with libsodium's birational conversion
(``crypto_sign_ed25519_pk_to_curve25519`` / ``..._sk_to_curve25519``) instead
of being generated separately: one key to keep, one fingerprint that covers
both, nothing extra to bind in the table roster.  Using one key pair for both
Ed25519 signatures and X25519 key agreement is the libsodium-documented
pattern and has been analysed as safe for this combination (Thormarker,
"On using the same key pair for Ed25519 and an X25519 based KEM", 2021).
"""

from __future__ import annotations

import hashlib

import attrs
import nacl.bindings
import nacl.exceptions
import nacl.public
import nacl.signing

from ._errors import BadSignature, InvalidPoint, LocalProtocolError

__all__ = ["Identity", "PublicIdentity", "fingerprint"]


def fingerprint(public_key: bytes) -> str:
    """The player id: lower-case hex SHA-256 of the Ed25519 public key."""
    return hashlib.sha256(public_key).hexdigest()


@attrs.frozen
class PublicIdentity:
    """A player's public Ed25519 key (the identity others verify against)."""

    key: bytes = attrs.field(repr=lambda k: k.hex())

    @classmethod
    def from_bytes(cls, key: bytes, *, seat: int | None = None) -> PublicIdentity:
        """Validate a received public key (a prime-order point, not small-order)."""
        if (
            not isinstance(key, bytes)
            or len(key) != 32
            or not nacl.bindings.crypto_core_ed25519_is_valid_point(key)
        ):
            raise InvalidPoint("not a valid Ed25519 public key", seat=seat)
        return cls(key)

    @property
    def fingerprint(self) -> str:
        """Full player id (64 hex digits)."""
        return fingerprint(self.key)

    @property
    def short_id(self) -> str:
        """First 16 hex digits of the fingerprint, for display only."""
        return self.fingerprint[:16]

    def verify(self, data: bytes, signature: bytes, *, seat: int | None = None) -> None:
        """Check an Ed25519 signature over ``data``; raise BadSignature naming ``seat``."""
        try:
            nacl.signing.VerifyKey(self.key).verify(data, signature)
        except (nacl.exceptions.BadSignatureError, ValueError, TypeError) as exc:
            raise BadSignature("signature does not verify", seat=seat) from exc

    def seal_key(self) -> nacl.public.PublicKey:
        """The X25519 public key derived from this Ed25519 key (for sealing)."""
        try:
            return nacl.signing.VerifyKey(self.key).to_curve25519_public_key()
        except (nacl.exceptions.CryptoError, ValueError, TypeError) as exc:
            raise InvalidPoint("Ed25519 key has no X25519 counterpart") from exc


class Identity:
    """A player's secret Ed25519 key (never leaves this machine)."""

    __slots__ = ("_signing", "_public")

    def __init__(self, signing_key: nacl.signing.SigningKey) -> None:
        self._signing = signing_key
        self._public = PublicIdentity(bytes(signing_key.verify_key))

    @classmethod
    def generate(cls) -> Identity:
        """A fresh random identity."""
        return cls(nacl.signing.SigningKey.generate())

    @classmethod
    def from_seed(cls, seed: bytes) -> Identity:
        """The identity for a 32-byte seed (persist the seed to keep the identity)."""
        if not isinstance(seed, bytes) or len(seed) != 32:
            raise LocalProtocolError("an identity seed is exactly 32 bytes")
        return cls(nacl.signing.SigningKey(seed))

    @property
    def seed(self) -> bytes:
        """The 32-byte seed (the secret to store on disk)."""
        return bytes(self._signing)

    @property
    def public(self) -> PublicIdentity:
        """The matching public identity."""
        return self._public

    @property
    def fingerprint(self) -> str:
        """This player's id."""
        return self._public.fingerprint

    def sign(self, data: bytes) -> bytes:
        """A 64-byte Ed25519 signature over ``data`` (callers add a domain prefix)."""
        return self._signing.sign(data).signature

    def unseal_key(self) -> nacl.public.PrivateKey:
        """The X25519 private key derived from this identity (for opening sealed boxes)."""
        return self._signing.to_curve25519_private_key()

    def __repr__(self) -> str:
        return f"Identity({self._public.short_id})"
