"""The prime-order group for mental poker: libsodium's ristretto255 via ``rbcl``.

This module owns every group and scalar operation the deck protocol uses, so
that the traps are avoided in one place:

* points are 32-byte ristretto255 encodings; every point that comes from
  outside is checked before anything else touches it: the top bit of its last
  byte must be clear (the libsodium that ``rbcl`` bundles ignores that bit, so
  ``P`` and ``P`` with it set would decode alike: a second encoding of every
  element), ``crypto_core_ristretto255_is_valid_point`` must accept it
  (canonical, non-negative encoding of a group element), and it must not be
  the identity (the all-zero encoding, which libsodium accepts); ristretto255
  has prime order, so there are no small-order points to strip;
* scalars are 32-byte little-endian integers reduced modulo the group order
  ``L = 2**252 + 27742317777372353535851937790883648493``; received scalars
  must be canonical (``< L``);
* multiplication uses ``crypto_scalarmult_ristretto255`` (and its base-point
  form), which refuses a zero scalar and an identity result;
* points that stand for cards come from hash-to-group
  (``crypto_core_ristretto255_from_hash`` over a domain-separated SHA-512),
  never from known multiples of the base point.

Seat identities stay Ed25519 (``protocol._identity``): only the deck's group
lives here.  Nothing here is new cryptography: it composes libsodium's group
operations with SHA-512.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from collections.abc import Iterable

import rbcl as _rb

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


def _remove_library_copy() -> None:
    """``rbcl`` writes its bundled libsodium to a new temporary file at every import and
    never removes it (2.7 MB a process, for ever); once loaded the file is not needed (on
    Windows it cannot be removed while loaded: it stays, as before)."""
    path = getattr(sys.modules.get("rbcl._sodium"), "lib_path", None)
    if isinstance(path, str) and os.path.basename(path).startswith("tmp"):
        with contextlib.suppress(OSError):
            os.unlink(path)


_remove_library_copy()

ORDER = 2**252 + 27742317777372353535851937790883648493
"""The prime order ``L`` of the group."""

_ONE = (1).to_bytes(32, "little")
BASE = _rb.crypto_scalarmult_ristretto255_base(_ONE)
"""The standard ristretto255 generator ``G``."""

_IDENTITY = bytes(32)

_LIB_ERRORS = (RuntimeError, ValueError, TypeError, IndexError)


class GroupError(LocalProtocolError):
    """A group operation failed (zero scalar, identity result, unvalidated point).

    Verifiers turn it into :class:`~protocol.BadProof` naming the prover.
    """


def frame(*parts: bytes) -> bytes:
    """Unambiguous concatenation: each part prefixed by its 4-byte big-endian length."""
    return b"".join(len(p).to_bytes(4, "big") + p for p in parts)


def is_valid_point(point: bytes) -> bool:
    """Whether ``point`` canonically encodes a ristretto255 element other than the identity."""
    return (
        type(point) is bytes
        and len(point) == 32
        and point[31] < 0x80  # libsodium would ignore the top bit: a second encoding
        and point != _IDENTITY
        and bool(_rb.crypto_core_ristretto255_is_valid_point(point))
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
    return _rb.crypto_core_ristretto255_scalar_reduce(wide)


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
    """Hash-to-group: ``from_hash(SHA-512(domain || frame(parts)))``; nobody knows its log."""
    point = _rb.crypto_core_ristretto255_from_hash(hashlib.sha512(domain + frame(*parts)).digest())
    if not is_valid_point(point):  # identity: probability ~2**-252
        raise GroupError("hash-to-group gave the identity")
    return point


def base_mul(scalar: bytes) -> bytes:
    """``scalar * G`` (libsodium refuses a zero scalar)."""
    try:
        return _rb.crypto_scalarmult_ristretto255_base(scalar)
    except _LIB_ERRORS as exc:
        raise GroupError("base multiplication failed (zero scalar?)") from exc


def mul(scalar: bytes, point: bytes) -> bytes:
    """``scalar * point``; refuses a zero scalar, an identity result and any point
    :func:`is_valid_point` refuses (libsodium checks all but the top bit, checked here),
    so a product's success implies a valid point."""
    try:
        if point[31] & 0x80:
            raise GroupError("scalar multiplication of a non-canonical point")
        return _rb.crypto_scalarmult_ristretto255(scalar, point)
    except _LIB_ERRORS as exc:
        raise GroupError("scalar multiplication failed (zero scalar or bad point)") from exc


def _checked(result: bytes, p: bytes, q: bytes) -> bytes:
    # libsodium fails on an invalid operand but rbcl ignores the failure and returns the
    # all-zero (identity) buffer: only then are the operands checked (an honest sum is
    # the identity with probability ~2**-252, and its operands pass)
    if result == _IDENTITY and not all(
        x == _IDENTITY or _rb.crypto_core_ristretto255_is_valid_point(x) for x in (p, q)
    ):
        raise GroupError("point addition of an invalid point")
    return result


def add(p: bytes, q: bytes) -> bytes:
    """``p + q`` (operands are not validated, except that an undecodable one fails)."""
    try:
        return _checked(_rb.crypto_core_ristretto255_add(p, q), p, q)
    except _LIB_ERRORS as exc:
        raise GroupError("point addition failed") from exc


def sub(p: bytes, q: bytes) -> bytes:
    """``p - q`` (as :func:`add`)."""
    try:
        return _checked(_rb.crypto_core_ristretto255_sub(p, q), p, q)
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
    return _rb.crypto_core_ristretto255_scalar_add(a, b)


def scalar_sub(a: bytes, b: bytes) -> bytes:
    """``a - b mod L``."""
    return _rb.crypto_core_ristretto255_scalar_sub(a, b)


def scalar_mul(a: bytes, b: bytes) -> bytes:
    """``a * b mod L``."""
    return _rb.crypto_core_ristretto255_scalar_mul(a, b)
