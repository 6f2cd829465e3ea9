"""Padded plaintexts: what a box hides, its size hides too (docs/protocol.md §9.1).

This module owns the one padding rule of the protocol.  Every plaintext that goes into a
box only some seats can open -- a seat's own ``note``, a ``sealed`` payload -- is padded
first, so the box's size (and the size of the entry carrying it) is fixed by public facts
(what kind of box it is) and never by what it holds::

    padded = u32(len(data)) || data || 0x00 * (n - 4 - len(data))

where ``n`` is the smallest positive multiple of the kind's block (:data:`NOTE_BLOCK`,
:data:`SEALED_BLOCK`) that is at least ``4 + len(data)``.  Every payload the protocol puts
in a box today fits one block, so every box of a kind has one size.  Opening checks all of
it: a length that is not a multiple of the block, a declared length past the end, a
padding longer than needed or a non-zero padding byte is :class:`BadPadding`.
"""

from __future__ import annotations

from ._errors import DecodeError

__all__ = ["NOTE_BLOCK", "SEALED_BLOCK", "BadPadding", "pad", "padded_size", "unpad"]

NOTE_BLOCK = 1024
"""Block of a ``note``'s plaintext (a decision's canonical JSON, secret part included).  The
longest decisions bots made in many games of each game are under 500 bytes."""

SEALED_BLOCK = 1024
"""Block of a ``sealed`` payload (the part after its header)."""

_PREFIX = 4


class BadPadding(DecodeError):
    """An opened box's plaintext is not padded as §9.1 says."""


def padded_size(length: int, block: int) -> int:
    """The padded size of ``length`` bytes of data: a whole number of blocks."""
    if block <= _PREFIX:
        raise ValueError(f"a padding block holds more than {_PREFIX} bytes")
    blocks = max(1, -(-(length + _PREFIX) // block))
    return blocks * block


def pad(data: bytes, block: int) -> bytes:
    """``data`` with its length in front and zero bytes after, to :func:`padded_size`."""
    size = padded_size(len(data), block)
    return len(data).to_bytes(_PREFIX, "big") + data + bytes(size - _PREFIX - len(data))


def unpad(padded: bytes, block: int) -> bytes:
    """The data :func:`pad` padded; :class:`BadPadding` unless ``padded`` is exactly its
    output for that data and block."""
    if len(padded) < block or len(padded) % block:
        raise BadPadding(
            f"a padded plaintext of {len(padded)} bytes is not whole blocks of {block}"
        )
    length = int.from_bytes(padded[:_PREFIX], "big")
    if length > len(padded) - _PREFIX:
        raise BadPadding("a padded plaintext declares more data than it holds")
    if padded_size(length, block) != len(padded):
        raise BadPadding("a padded plaintext is padded longer than its data needs")
    if any(padded[_PREFIX + length :]):
        raise BadPadding("a padded plaintext's padding is not zero bytes")
    return padded[_PREFIX : _PREFIX + length]
