"""Part keys: the name a table session files each seat's part under, one per (seat, key), ever.

This module owns the part keys: one small frozen record per kind of part, so an exchange asks
for ``MovePart(7)``, never for a string it built.  Each key still writes itself as the text
the session has always used (``str(MovePart(7)) == "move:7"``), so the verdicts and logs that
name a part read as before, and :func:`parse_part_key` reads such a text back into its record,
raising :class:`MalformedPartKey` (a :class:`~protocol.DecodeError`) for text that is no key.

The text is the kind, then each field in order, joined by ``:``.  A label (a deck, a step
label, a purpose) is a wire label and may itself hold ``:`` only as a key's first field:
``commit:chance:c0`` is the commitment of purpose ``chance:c0``, and ``handover:d:s3:-1`` the
hand-over of deck ``d`` at step ``s3`` to seat ``-1`` (:data:`~protocol.wire.JOINT`, the pool).
An integer field is written in canonical decimal.  :func:`part_key` gives the key a
table-session message is filed under.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

import attrs

from ._errors import DecodeError
from ._messages import Commit, DecryptShares, HandOver, KeyShare, Reveal, ShuffleStep
from ._session_messages import (
    AuditOpening,
    Complaint,
    Leave,
    Move,
    Note,
    Opening,
    Present,
    Resign,
    Vanish,
)
from ._vss_messages import RecoveryShares, ShareAnswer, ShareComplaint, ShareDeal

__all__ = [
    "AuditPart",
    "CommitPart",
    "ComplaintPart",
    "DigestPart",
    "EntryPart",
    "HandOverPart",
    "KeySharePart",
    "MalformedPartKey",
    "MovePart",
    "NotePart",
    "OpeningPart",
    "PartKey",
    "LeavePart",
    "PresentPart",
    "RecoverPart",
    "ShareAnswerPart",
    "ShareComplaintPart",
    "ShareDealPart",
    "VanishPart",
    "ResignPart",
    "RevealPart",
    "SharesPart",
    "ShufflePart",
    "parse_part_key",
    "part_key",
]

_INT = re.compile(r"0|-?[1-9][0-9]*")
_LABEL = re.compile(r"[A-Za-z0-9._:/-]{1,128}")


class MalformedPartKey(DecodeError):
    """Text that is no part key (an unknown kind, a missing field, a field of the wrong form)."""


@attrs.frozen
class PartKey:
    """The base of every part key: ``KIND`` is the text's first field."""

    KIND: ClassVar[str] = ""

    def __str__(self) -> str:
        return ":".join((self.KIND, *(str(v) for v in attrs.astuple(self, recurse=False))))


_KINDS: dict[str, type[PartKey]] = {}


_K = TypeVar("_K", bound=type[PartKey])


def _kind(name: str) -> Callable[[_K], _K]:
    def register(cls: _K) -> _K:
        cls.KIND = name
        _KINDS[name] = cls
        return cls

    return register


@_kind("key")
@attrs.frozen
class KeySharePart(PartKey):
    """A seat's deck-key share (:class:`~protocol.wire.KeyShare`)."""


@_kind("commit")
@attrs.frozen
class CommitPart(PartKey):
    """A commitment (:class:`~protocol.wire.Commit`) for ``purpose``."""

    purpose: str


@_kind("reveal")
@attrs.frozen
class RevealPart(PartKey):
    """The reveal (:class:`~protocol.wire.Reveal`) opening the commitment for ``purpose``."""

    purpose: str


@_kind("shuffle")
@attrs.frozen
class ShufflePart(PartKey):
    """A seat's shuffle or re-mix step (:class:`~protocol.wire.ShuffleStep`) of ``deck``."""

    deck: str
    step: str


@_kind("shares")
@attrs.frozen
class SharesPart(PartKey):
    """A seat's decryption shares (:class:`~protocol.wire.DecryptShares`) of ``deck``."""

    deck: str
    step: str


@_kind("handover")
@attrs.frozen
class HandOverPart(PartKey):
    """A seat's re-encryption of ``deck``'s cards to ``to_seat``
    (:class:`~protocol.wire.HandOver`; ``-1``: to the joint key)."""

    deck: str
    step: str
    to_seat: int


@_kind("move")
@attrs.frozen
class MovePart(PartKey):
    """A seat's move at game step ``step`` (:class:`~protocol.wire.Move`)."""

    step: int


@_kind("open")
@attrs.frozen
class OpeningPart(PartKey):
    """A seat's opening of a simultaneous decision (:class:`~protocol.wire.Opening`)."""

    step: int


@_kind("audit")
@attrs.frozen
class AuditPart(PartKey):
    """A seat's audit opening (:class:`~protocol.wire.AuditOpening`)."""


@_kind("note")
@attrs.frozen
class NotePart(PartKey):
    """A seat's note to itself of its decision at ``step`` (:class:`~protocol.wire.Note`)."""

    step: int


@_kind("complaint")
@attrs.frozen
class ComplaintPart(PartKey):
    """A seat's complaint about seat ``about`` at ``step`` (:class:`~protocol.wire.Complaint`)."""

    step: int
    about: int


@_kind("resign")
@attrs.frozen
class ResignPart(PartKey):
    """A seat's resignation (:class:`~protocol.wire.Resign`)."""


@_kind("leave")
@attrs.frozen
class LeavePart(PartKey):
    """A seat's departure (:class:`~protocol.wire.Leave`)."""


@_kind("vanish")
@attrs.frozen
class VanishPart(PartKey):
    """A seat's vote that ``seat`` vanished at ``step`` with ``seen`` of its entries filed
    (:class:`~protocol.wire.Vanish`)."""

    seat: int
    step: int
    seen: int


@_kind("present")
@attrs.frozen
class PresentPart(PartKey):
    """A seat's answer that it holds more of ``seat``'s feed than the vote
    ``(seat, step, seen)`` (:class:`~protocol.wire.Present`)."""

    seat: int
    step: int
    seen: int


@_kind("vss-deal")
@attrs.frozen
class ShareDealPart(PartKey):
    """A seat's deck key shared among the others (:class:`~protocol.wire.ShareDeal`)."""


@_kind("vss-complaint")
@attrs.frozen
class ShareComplaintPart(PartKey):
    """A seat's complaint about its share of ``dealer``'s deal
    (:class:`~protocol.wire.ShareComplaint`)."""

    dealer: int


@_kind("vss-answer")
@attrs.frozen
class ShareAnswerPart(PartKey):
    """A dealer's answer to ``complainer``'s complaint (:class:`~protocol.wire.ShareAnswer`)."""

    complainer: int


@_kind("vss-recover")
@attrs.frozen
class RecoverPart(PartKey):
    """A holder's recovery shares of ``departed``'s layer for deck ``deck`` at step label
    ``step`` (:class:`~protocol.wire.RecoveryShares`)."""

    departed: int
    deck: str
    step: str


@_kind("digest")
@attrs.frozen
class DigestPart(PartKey):
    """The bytes of a seat's digest check at ``step``, charged until the step is applied."""

    step: int


@_kind("entry")
@attrs.frozen
class EntryPart(PartKey):
    """The body of a seat's feed entry ``seq``, charged while it waits for its gap to fill."""

    seq: int


def _field(cls: type[PartKey], field: attrs.Attribute[Any], text: str, whole: str) -> Any:
    if field.type in (int, "int"):
        if _INT.fullmatch(text) is None:
            raise MalformedPartKey(f"part key {whole!r}: {field.name} {text!r} is not a number")
        return int(text)
    if _LABEL.fullmatch(text) is None:
        raise MalformedPartKey(f"part key {whole!r}: {field.name} {text!r} is not a label")
    return text


def parse_part_key(text: str) -> PartKey:
    """The key ``text`` writes (``str(parse_part_key(t)) == t`` for every key's text);
    :class:`MalformedPartKey` if ``text`` is no key."""
    kind, sep, rest = text.partition(":")
    cls = _KINDS.get(kind)
    if cls is None:
        raise MalformedPartKey(f"part key {text!r}: no part is of kind {kind!r}")
    fields = attrs.fields(cls)
    if not fields:
        if sep:
            raise MalformedPartKey(f"part key {text!r}: a {kind!r} key has no fields")
        return cls()
    values = rest.rsplit(":", len(fields) - 1) if sep else []
    if len(values) != len(fields):
        raise MalformedPartKey(f"part key {text!r}: a {kind!r} key has {len(fields)} fields")
    return cls(*(_field(cls, f, v, text) for f, v in zip(fields, values, strict=True)))


_PART_NAMES: dict[type, Callable[[Any], PartKey]] = {
    KeyShare: lambda m: KeySharePart(),
    Commit: lambda m: CommitPart(m.purpose),
    Reveal: lambda m: RevealPart(m.purpose),
    ShuffleStep: lambda m: ShufflePart(m.deck, m.step),
    DecryptShares: lambda m: SharesPart(m.deck, m.step),
    HandOver: lambda m: HandOverPart(m.deck, m.step, m.to_seat),
    Move: lambda m: MovePart(m.step),
    Opening: lambda m: OpeningPart(m.step),
    AuditOpening: lambda m: AuditPart(),
    Note: lambda m: NotePart(m.step),
    Complaint: lambda m: ComplaintPart(m.step, m.about),
    Resign: lambda m: ResignPart(),
    Leave: lambda m: LeavePart(),
    Vanish: lambda m: VanishPart(m.seat, m.step, m.seen),
    Present: lambda m: PresentPart(m.seat, m.step, m.seen),
    ShareDeal: lambda m: ShareDealPart(),
    ShareComplaint: lambda m: ShareComplaintPart(m.dealer),
    ShareAnswer: lambda m: ShareAnswerPart(m.complainer),
    RecoveryShares: lambda m: RecoverPart(m.departed, m.deck, m.step),
}


def part_key(msg: Any) -> PartKey:
    """The name under which a table-session message is filed: one per (seat, name), ever."""
    name = _PART_NAMES.get(type(msg))
    if name is None:
        raise DecodeError(f"{type(msg).__name__} is not a table-session message")
    return name(msg)
