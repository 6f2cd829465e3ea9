"""A seat's notes to itself: its decisions in full, in a box only it can open.

This module owns :class:`NoteBox`: the key (from the seat's secret seed) and the two
operations, sealing a decision into a :class:`~protocol._session_messages.Note` (padded to
one size, docs/protocol.md §9.1) and opening our own note again (a restarted peer recovers
its decisions from its own feed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import nacl.exceptions
import nacl.secret

from fairtable.engine.canonical import canonical_bytes

from ._errors import LocalProtocolError
from ._padding import NOTE_BLOCK, BadPadding, pad, unpad
from ._session_messages import Note

__all__ = ["NoteBox"]


class NoteBox:
    """Seals and opens our notes; ``secret(label, size)`` is our seed's secret bytes."""

    def __init__(self, secret: Callable[[str, int], bytes]) -> None:
        self._secret = secret
        self._box = nacl.secret.SecretBox(secret("note-key", 32))

    def seal(self, step: int, answer: Any) -> Note:
        """Our decision at ``step`` in full, encrypted to ourselves."""
        data = canonical_bytes({"type": type(answer).__name__, **attrs.asdict(answer)})
        nonce = self._secret(f"note-nonce/{step}", nacl.secret.SecretBox.NONCE_SIZE)
        return Note(step, bytes(self._box.encrypt(pad(data, NOTE_BLOCK), nonce)))

    def open(self, step: int, msg: Note | None) -> bytes:
        """The canonical bytes of our decision at ``step`` from our own note ``msg``."""
        if msg is None:
            raise LocalProtocolError(f"our own decision at step {step} is not in our log")
        try:
            return unpad(self._box.decrypt(msg.box), NOTE_BLOCK)
        except nacl.exceptions.CryptoError:
            raise LocalProtocolError("our own note does not open: wrong secret seed") from None
        except BadPadding as exc:
            raise LocalProtocolError(f"our own note is badly padded: {exc}") from None
