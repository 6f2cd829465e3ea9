"""Length-prefixed framing of a byte stream (sans-IO).

This module owns how a TCP byte stream is cut into messages: a **frame** is a
4-byte big-endian unsigned length ``n`` followed by ``n`` payload bytes.  The
payload is opaque here (in fairtable it is one canonical protocol message).

:class:`FrameReader` is fed whatever bytes arrived and returns the complete
payloads.  It checks each declared length against its cap **as soon as the
4-byte header is complete**, before a single payload byte is buffered, and
raises :class:`~protocol.FrameTooLarge`; it never holds more than one
incomplete frame (at most ``max_frame + 4`` bytes).  After an error the reader
is unusable (the stream is out of sync; close the connection).
"""

from __future__ import annotations

from fairtable.protocol import MAX_FRAME, FrameTooLarge, LocalProtocolError

__all__ = ["HEADER_SIZE", "MAX_FRAME", "FrameReader", "encode_frame"]

HEADER_SIZE = 4
"""Bytes of the length prefix."""

_MAX_DECLARABLE = (1 << 32) - 1


def encode_frame(payload: bytes, *, max_frame: int = MAX_FRAME) -> bytes:
    """The frame carrying ``payload``: ``u32_be(len(payload)) || payload``.

    Raises :class:`~protocol.LocalProtocolError` if the payload exceeds ``max_frame``.
    """
    if not isinstance(payload, bytes | bytearray | memoryview):
        raise LocalProtocolError("a frame payload is bytes")
    size = len(payload)
    if size > max_frame:
        raise LocalProtocolError(f"frame payload of {size} bytes exceeds {max_frame}")
    return size.to_bytes(HEADER_SIZE, "big") + bytes(payload)


class FrameReader:
    """Incremental decoder of a framed byte stream.

    ``feed(data)`` returns the payloads completed by ``data`` (possibly none,
    possibly several).  ``max_frame`` may be changed between feeds (the link
    handshake uses a small cap, the link proper :data:`MAX_FRAME`).
    """

    __slots__ = ("max_frame", "_header", "_body", "_need", "_failed")

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        if not 0 <= max_frame <= _MAX_DECLARABLE:
            raise LocalProtocolError(f"max_frame must lie in [0, 2**32 - 1], got {max_frame}")
        self.max_frame = max_frame
        self._header = bytearray()
        self._body = bytearray()
        self._need: int | None = None  # payload bytes expected, None while reading a header
        self._failed = False

    @property
    def buffered(self) -> int:
        """Bytes held for the incomplete frame (never more than ``max_frame + 4``)."""
        return len(self._header) + len(self._body)

    @property
    def at_boundary(self) -> bool:
        """True when no partial frame is buffered."""
        return self._need is None and not self._header

    def feed(self, data: bytes | bytearray | memoryview) -> list[bytes]:
        """Consume ``data``; return every payload it completes, in order.

        Raises :class:`~protocol.FrameTooLarge` the moment a header declares a
        length over ``max_frame`` (payloads completed earlier in the same call
        are dropped with the connection).
        """
        if self._failed:
            raise FrameTooLarge("frame reader already failed; the stream is out of sync")
        view = memoryview(data).cast("B")
        out: list[bytes] = []
        pos, end = 0, len(view)
        while pos < end:
            if self._need is None:
                if not self._header and end - pos >= HEADER_SIZE:
                    size = int.from_bytes(view[pos : pos + HEADER_SIZE], "big")
                    pos += HEADER_SIZE
                else:
                    take = min(HEADER_SIZE - len(self._header), end - pos)
                    self._header += view[pos : pos + take]
                    pos += take
                    if len(self._header) < HEADER_SIZE:
                        break
                    size = int.from_bytes(self._header, "big")
                    self._header.clear()
                if size > self.max_frame:
                    self._failed = True
                    raise FrameTooLarge(
                        f"declared frame length {size} exceeds the cap of {self.max_frame}"
                    )
                # fast path: the whole payload is already here and nothing is buffered
                if end - pos >= size:
                    out.append(bytes(view[pos : pos + size]))
                    pos += size
                    continue
                self._need = size
            take = min(self._need - len(self._body), end - pos)
            self._body += view[pos : pos + take]
            pos += take
            if len(self._body) == self._need:
                out.append(bytes(self._body))
                self._body = bytearray()
                self._need = None
        return out
