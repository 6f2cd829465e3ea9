"""What a table session tells its caller: the verdict it stopped with and its events.

This module owns the typed results of :class:`~protocol.TableSession`: the
:class:`Verdict` (a seat, or nobody, broke the protocol, with the signed entries that
prove it) and the events :meth:`~protocol.TableSession.next_event` hands out.  The
exchanges raise :class:`~protocol.RemoteProtocolError` to stop with a verdict and emit
these events through the session's port; nothing here knows a game.
"""

from __future__ import annotations

from typing import Any

import attrs

from fairtable.engine.outcome import Outcome
from fairtable.engine.requests import Decision

from ._verdict_kinds import VerdictKind

__all__ = [
    "CardsSeen",
    "DecisionNeeded",
    "Event",
    "GameFinished",
    "GameResigned",
    "SeatLeft",
    "StepApplied",
    "Verdict",
    "VerdictReached",
]


@attrs.frozen
class Verdict:
    """The session stopped: ``seat`` (None: nobody could be named) broke the protocol."""

    seat: int | None
    kind: VerdictKind
    reason: str
    evidence: tuple[bytes, ...] = ()


@attrs.frozen
class DecisionNeeded:
    step: int
    decision: Decision
    view: Any


@attrs.frozen
class StepApplied:
    """A step the engine applied, its public events, and our seat's view just after it
    (``None`` with no seat): a screen told several steps at once -- a resumed game replays
    its whole log -- still sees each step's own view."""

    step: int
    events: tuple[tuple[Any, ...], ...]
    view: Any = attrs.field(default=None, eq=False, repr=False)


@attrs.frozen
class CardsSeen:
    """Cards this seat may now see, and why (``"dealt"``, ``"handed"``)."""

    cards: tuple[str, ...]
    why: str


@attrs.frozen
class VerdictReached:
    verdict: Verdict


@attrs.frozen
class GameFinished:
    """The game ended: who won (nobody, when a seat resigned), the final digest and how it
    ended (the game's own word, or ``"resigned"``)."""

    outcome: Outcome
    digest: str
    end: str


@attrs.frozen
class GameResigned:
    """Seat ``seat`` gave the game up at game step ``step``: the game is over for everyone.
    Not a blame: nobody broke the protocol.  ``digest`` is our state digest where we stopped."""

    seat: int
    step: int
    digest: str


@attrs.frozen
class SeatLeft:
    """Seat ``seat`` left the game for good at game step ``step`` (docs/protocol.md §11.10);
    the others play on.  Not a blame.  ``digest`` is our state digest once it had left."""

    seat: int
    step: int
    digest: str


Event = (
    DecisionNeeded
    | StepApplied
    | CardsSeen
    | VerdictReached
    | GameFinished
    | GameResigned
    | SeatLeft
)
