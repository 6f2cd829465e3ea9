"""The table session's own messages (carried, batched, in feed entries).

A seat's feed entry body is one :class:`Batch`: the canonical encodings of
every part the seat publishes at once (its decision, its shares, its shuffle
step...), so each seat signs one message per round.
"""

from __future__ import annotations

import attrs

from ._codec import blob, integer, item_bytes, items, label, message
from ._messages import MAX_CARDS, DecryptShares

__all__ = [
    "MAX_PARTS",
    "AuditOpening",
    "Batch",
    "Complaint",
    "HeldSlot",
    "Move",
    "Note",
    "Opening",
    "Leave",
    "Present",
    "Resign",
    "Vanish",
]

MAX_PARTS = 256


@message("batch")
@attrs.frozen
class Batch:
    """Several encoded messages signed as one feed entry."""

    parts: tuple[bytes, ...] = items(item_bytes(max_len=512 * 1024), max_items=MAX_PARTS)


@message("move")
@attrs.frozen
class Move:
    """A seat's decision at game step ``step``.

    ``answer`` is the canonical encoding of the decision's public part;
    ``commit`` binds its secret part (the slots of the hand cards chosen), or is
    empty; ``shown`` proves the identity of every card the decision shows face
    up (the holder's decryption shares for those held slots)."""

    step: int = integer()
    answer: bytes = blob(max_len=64 * 1024)
    commit: bytes = blob(max_len=32)
    shown: tuple[DecryptShares, ...] = items(DecryptShares, max_items=16)


@attrs.frozen
class HeldSlot:
    deck: str = label()
    slot: int = integer(hi=MAX_CARDS - 1)


@message("note")
@attrs.frozen
class Note:
    """A private note to ourselves: our decision at ``step`` in full, padded to one size
    (``_padding``, docs/protocol.md §9.1) and encrypted with a key only we hold, so a
    restarted peer can recover it from its own feed and nobody learns it from its size."""

    step: int = integer()
    box: bytes = blob(max_len=16 * 1024)


@message("complaint")
@attrs.frozen
class Complaint:
    """The recipient of a deal found seat ``about``'s decryption shares at ``step`` bad, or a
    shuffler found a point outside the group in seat ``about``'s output it was to shuffle:
    every peer checks them, and blames ``about`` -- or the complainer if they were sound."""

    step: int = integer()
    about: int = integer(hi=15)


@message("opening")
@attrs.frozen
class Opening:
    """Opens the commitment made with the Move at ``step``: its nonce and slots."""

    step: int = integer()
    nonce: bytes = blob(exact=32)
    slots: tuple[HeldSlot, ...] = items(HeldSlot, max_items=64)
    shown: tuple[DecryptShares, ...] = items(DecryptShares, max_items=16)


@message("audit")
@attrs.frozen
class AuditOpening:
    """The audit: the seat's deck key secret (every shuffle, re-mix and re-handle was
    proven on arrival, so none is opened: docs/protocol.md §12.2).

    ``when`` is ``"end"`` after the game, or ``"early/<step>"`` when a seat found the
    deck broken mid-game at that step (a dealt or revealed card that cannot be): every
    peer opens as soon as it has reached that step too, and the audit names the
    culprit."""

    when: str = label()
    deck_secret: bytes = blob(exact=32)

    @classmethod
    def after_game(cls, deck_secret: bytes) -> AuditOpening:
        """The audit once the game is over."""
        return cls(_AT_END, deck_secret)

    @classmethod
    def early(cls, step: int, deck_secret: bytes) -> AuditOpening:
        """The audit of a seat that found the deck broken at ``step``."""
        return cls(f"{_EARLY}{step}", deck_secret)

    @property
    def at_end(self) -> bool:
        """Whether it was opened after the game (else early)."""
        return self.when == _AT_END

    @property
    def early_step(self) -> int | None:
        """The step an early opening names; None after the game, or when a peer's label
        names no step (the audit then counts the deck as broken at once)."""
        if self.at_end:
            return None
        _, _, at = self.when.partition("/")
        return int(at) if at.isdigit() else None


_AT_END = "end"  # the words of AuditOpening.when on the wire
_EARLY = "early/"


@message("resign")
@attrs.frozen
class Resign:
    """The seat gives the game up.  ``step`` is the game step its own engine had reached
    (the request it was at): every peer ends the game with this resignation once its engine
    has reached that step too, so every peer checks the game up to the same point.  It is the
    last part the seat ever sends at this table."""

    step: int = integer()


@message("leave")
@attrs.frozen
class Leave:
    """The seat leaves the game for good at game step ``step``, where it owes a decision,
    and the others play on (docs/protocol.md §11.10).  Its ``shares`` parts for step
    ``s<step>/leave`` come before it in its feed: its decryption shares for every deck card
    still face down, with which every peer strips its key from those cards.  It is the last
    part the seat ever sends at this table."""

    step: int = integer()


@message("vanish")
@attrs.frozen
class Vanish:
    """The sender's vote that seat ``seat`` has vanished for good at game step ``step``,
    where the sender waits on nothing but that seat, having filed exactly ``seen`` entries of
    its feed (and filing no more of them while the vote stands).  Its ``vss-recover`` parts
    for step ``s<step>/vanish`` come before it in the same entry when the table can recover
    (docs/protocol.md §11.11).  Once every other seat still playing has sent the same vote,
    every peer applies the vanishing at that step."""

    seat: int = integer()
    step: int = integer()
    seen: int = integer()


@message("present")
@attrs.frozen
class Present:
    """The sender has filed more than ``seen`` entries of seat ``seat``'s feed, so the vote
    ``(seat, step, seen)`` it answers is void: its voters file the rest of that feed (which
    may let step ``step`` go on) and may vote again (docs/protocol.md §11.11)."""

    seat: int = integer()
    step: int = integer()
    seen: int = integer()
