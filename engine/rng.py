"""Turning random bytes into game chance: uniform integers and permutations.

This module owns the one mapping from a 32-byte seed to a stream of unbiased
integers that every part of fairtable uses: the local referee (seeded from a
number) and the protocol's joint randomness (seeded from the hash of every
seat's reveal) both draw through :class:`ChanceStream`, so the same seed gives
the same die faces and shuffles on every machine and Python version.

The stream is SHA-256 in counter mode: block ``i`` is
``SHA-256(b"fairtable/chance/v1" || seed || i as 8-byte big-endian)``.
``below(n)`` takes the fewest whole bytes that cover ``n - 1``, masks the top
byte down to the bit length of ``n - 1`` and rejects values ``>= n`` (rejection
sampling: no modulo bias).  ``permutation(n)`` is a Fisher-Yates shuffle
drawing ``below(i + 1)`` for ``i`` from ``n - 1`` down to ``1``.  ``dice(sides)``
draws ``below(s) + 1`` for each die in order.
"""

from __future__ import annotations

import hashlib

_DOMAIN = b"fairtable/chance/v1"


class ChanceStream:
    """A deterministic stream of unbiased integers derived from a 32-byte seed."""

    __slots__ = ("_seed", "_counter", "_buffer", "_pos")

    def __init__(self, seed: bytes) -> None:
        if not isinstance(seed, bytes | bytearray) or len(seed) != 32:
            raise ValueError("a chance seed is exactly 32 bytes")
        self._seed = bytes(seed)
        self._counter = 0
        self._buffer = b""
        self._pos = 0

    @classmethod
    def from_int(cls, number: int) -> ChanceStream:
        """A stream for a user-visible integer seed (e.g. ``--seed 7``)."""
        if number < 0:
            raise ValueError("a seed is a non-negative integer")
        digest = hashlib.sha256(b"fairtable/seed/v1" + str(number).encode("ascii")).digest()
        return cls(digest)

    def child(self, label: str) -> ChanceStream:
        """An independent stream for one purpose, derived from this seed and a label."""
        digest = hashlib.sha256(_DOMAIN + b"/child" + self._seed + label.encode("utf-8")).digest()
        return ChanceStream(digest)

    def _refill(self) -> None:
        block = hashlib.sha256(_DOMAIN + self._seed + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        self._buffer = self._buffer[self._pos :] + block
        self._pos = 0

    def take(self, count: int) -> bytes:
        """The next ``count`` bytes of the stream."""
        while len(self._buffer) - self._pos < count:
            self._refill()
        out = self._buffer[self._pos : self._pos + count]
        self._pos += count
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, by rejection sampling."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n == 1:
            return 0
        if n <= 256:  # one byte per try: the common case, kept fast
            mask = _MASKS[n]
            buffer, pos = self._buffer, self._pos
            while True:
                if pos >= len(buffer):
                    self._pos = pos
                    self._refill()
                    buffer, pos = self._buffer, 0
                value = buffer[pos] & mask
                pos += 1
                if value < n:
                    self._pos = pos
                    return value
        bits = (n - 1).bit_length()
        width = (bits + 7) // 8
        top_mask = (1 << (bits - 8 * (width - 1))) - 1
        while True:
            raw = bytearray(self.take(width))
            raw[0] &= top_mask
            value = int.from_bytes(raw, "big")
            if value < n:
                return value

    def dice(self, sides: tuple[int, ...]) -> tuple[int, ...]:
        """One face ``1..s`` per die size ``s``, in order (``below(s) + 1`` each)."""
        return tuple(self.below(s) + 1 for s in sides)

    def permutation(self, n: int) -> list[int]:
        """A uniform permutation of ``range(n)`` (Fisher-Yates, from the top down)."""
        order = list(range(n))
        below = self.below
        for i in range(n - 1, 0, -1):
            j = below(i + 1)
            order[i], order[j] = order[j], order[i]
        return order


_MASKS = (0, *((1 << (n - 1).bit_length()) - 1 for n in range(1, 257)))
"""``_MASKS[n]``: the mask of the bits that cover ``n - 1`` (``n`` from 1 to 256)."""
