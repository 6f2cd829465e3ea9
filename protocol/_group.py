"""The prime-order group for mental poker: libsodium's ed25519 via ``nacl.bindings``.

This module owns every group and scalar operation the deck protocol uses, so
that the traps are avoided in one place:

* points are 32-byte compressed Edwards points; every point that comes from
  outside is checked with ``crypto_core_ed25519_is_valid_point`` (canonical
  encoding, on the curve, in the prime-order subgroup, not of small order --
  which also rejects the identity) before anything else touches it;
* scalars are 32-byte little-endian integers reduced modulo the group order
  ``L = 2**252 + 27742317777372353535851937790883648493``; received scalars
  must be canonical (``< L``);
* multiplication uses only the ``_noclamp`` functions (clamping would change
  the scalar and break the algebra);
* points that stand for cards come from hash-to-curve
  (``crypto_core_ed25519_from_uniform`` over a domain-separated SHA-256),
  never from known multiples of the base point.

Nothing here is new cryptography: it composes libsodium's group operations
with SHA-256/SHA-512.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable

import nacl.bindings as _na
import nacl.exceptions

from ._errors import BadProof, InvalidPoint, LocalProtocolError

__all__ = [
    "BASE",
    "ORDER",
    "GroupError",
    "add",
    "base_mul",
    "check_point",
    "check_scalar",
    "frame",
    "hash_to_point",
    "hash_to_scalar",
    "is_valid_point",
    "mul",
    "random_scalar",
    "scalar_add",
    "scalar_from_bytes",
    "scalar_mul",
    "scalar_sub",
    "sub",
    "sum_points",
]

ORDER = 2**252 + 27742317777372353535851937790883648493
"""The prime order ``L`` of the group."""

_ONE = (1).to_bytes(32, "little")
BASE = _na.crypto_scalarmult_ed25519_base_noclamp(_ONE)
"""The standard ed25519 base point ``G``."""

_LIB_ERRORS = (nacl.exceptions.CryptoError, ValueError, TypeError)


class GroupError(LocalProtocolError):
    """A group operation failed (zero scalar, identity result, unvalidated point).

    Verifiers turn it into :class:`~protocol.BadProof` naming the prover.
    """


def frame(*parts: bytes) -> bytes:
    """Unambiguous concatenation: each part prefixed by its 4-byte big-endian length."""
    return b"".join(len(p).to_bytes(4, "big") + p for p in parts)


def is_valid_point(point: bytes) -> bool:
    """Whether ``point`` is a canonical prime-order-subgroup point (not the identity)."""
    return (
        type(point) is bytes
        and len(point) == 32
        and bool(_na.crypto_core_ed25519_is_valid_point(point))
    )


def check_point(point: bytes, *, seat: int | None = None, what: str = "point") -> bytes:
    """Return ``point`` if valid, else raise InvalidPoint naming ``seat``."""
    if not is_valid_point(point):
        raise InvalidPoint(f"{what} is not a valid group element", seat=seat)
    return point


def check_scalar(scalar: bytes, *, seat: int | None = None, what: str = "scalar") -> bytes:
    """Return ``scalar`` if it is 32 bytes and canonical (``< L``), else BadProof."""
    if type(scalar) is not bytes or len(scalar) != 32 or int.from_bytes(scalar, "little") >= ORDER:
        raise BadProof(f"{what} is not a canonical scalar", seat=seat)
    return scalar


def scalar_from_bytes(wide: bytes) -> bytes:
    """Reduce 64 uniform bytes modulo ``L`` (negligible bias)."""
    if len(wide) != 64:
        raise LocalProtocolError("reduce 64 bytes")
    return _na.crypto_core_ed25519_scalar_reduce(wide)


def hash_to_scalar(domain: bytes, *parts: bytes) -> bytes:
    """``SHA-512(domain || frame(parts)) mod L``."""
    return scalar_from_bytes(hashlib.sha512(domain + frame(*parts)).digest())


def random_scalar(wide: bytes | None = None) -> bytes:
    """A uniform non-zero scalar from 64 random bytes (fresh ones by default)."""
    scalar = scalar_from_bytes(os.urandom(64) if wide is None else wide)
    if scalar == bytes(32):  # probability 2**-252
        raise GroupError("zero scalar")
    return scalar


def hash_to_point(domain: bytes, *parts: bytes) -> bytes:
    """Hash-to-curve: ``from_uniform(SHA-256(domain || frame(parts)))``; nobody knows its log."""
    point = _na.crypto_core_ed25519_from_uniform(hashlib.sha256(domain + frame(*parts)).digest())
    if not is_valid_point(point):  # identity: probability ~2**-252
        raise GroupError("hash-to-curve gave the identity")
    return point


def base_mul(scalar: bytes) -> bytes:
    """``scalar * G`` (no clamping)."""
    try:
        return _na.crypto_scalarmult_ed25519_base_noclamp(scalar)
    except _LIB_ERRORS as exc:
        raise GroupError("base multiplication failed (zero scalar?)") from exc


def mul(scalar: bytes, point: bytes) -> bytes:
    """``scalar * point`` (no clamping; libsodium re-checks the point)."""
    try:
        return _na.crypto_scalarmult_ed25519_noclamp(scalar, point)
    except _LIB_ERRORS as exc:
        raise GroupError("scalar multiplication failed (zero scalar or bad point)") from exc


def add(p: bytes, q: bytes) -> bytes:
    """``p + q``."""
    try:
        return _na.crypto_core_ed25519_add(p, q)
    except _LIB_ERRORS as exc:
        raise GroupError("point addition failed") from exc


def sub(p: bytes, q: bytes) -> bytes:
    """``p - q``."""
    try:
        return _na.crypto_core_ed25519_sub(p, q)
    except _LIB_ERRORS as exc:
        raise GroupError("point subtraction failed") from exc


def sum_points(points: Iterable[bytes]) -> bytes:
    """The sum of one or more points."""
    it = iter(points)
    try:
        total = next(it)
    except StopIteration:
        raise GroupError("empty sum") from None
    for p in it:
        total = add(total, p)
    return total


def scalar_add(a: bytes, b: bytes) -> bytes:
    """``a + b mod L``."""
    return _na.crypto_core_ed25519_scalar_add(a, b)


def scalar_sub(a: bytes, b: bytes) -> bytes:
    """``a - b mod L``."""
    return _na.crypto_core_ed25519_scalar_sub(a, b)


def scalar_mul(a: bytes, b: bytes) -> bytes:
    """``a * b mod L``."""
    return _na.crypto_core_ed25519_scalar_mul(a, b)
