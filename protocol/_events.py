"""What a table session tells its caller: the verdict it stopped with and its events.

This module owns the typed results of :class:`~protocol.TableSession`: the
:class:`Verdict` (a seat, or nobody, broke the protocol, with the signed entries that
prove it) and the events :meth:`~protocol.TableSession.next_event` hands out.  The
exchanges raise :class:`~protocol.RemoteProtocolError` to stop with a verdict and emit
these events through the session's port; nothing here knows a game.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Generic, TypeVar

import attrs

from fairtable.engine.events import Event as GameEvent
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
    "SeenWhy",
    "StepApplied",
    "Verdict",
    "VerdictReached",
]

View = TypeVar("View")
"""The game's view type (``ContractGame[State, View]``'s ``View``: ``ReignView``, ...)."""


@attrs.frozen
class Verdict:
    """The session stopped: ``seat`` (None: nobody could be named) broke the protocol."""

    seat: int | None
    kind: VerdictKind
    reason: str
    evidence: tuple[bytes, ...] = ()


@attrs.frozen
class DecisionNeeded(Generic[View]):
    """Our seat must answer ``decision`` (request serial ``step``); ``view`` is its view."""

    step: int
    decision: Decision
    view: View


@attrs.frozen
class StepApplied(Generic[View]):
    """A step the engine applied, its public events, and our seat's view just after it
    (``None`` with no seat): a screen told several steps at once -- a resumed game replays
    its whole log -- still sees each step's own view.

    ``events`` are the game's typed records (``engine/<game>/events.py``), as the engine's
    ``apply`` returned them; whoever writes them down (a log, ``--json``, a replay's export)
    writes :meth:`~engine.events.Event.as_tuple`, the stored form."""

    step: int
    events: tuple[GameEvent, ...]
    view: View | None = attrs.field(default=None, eq=False, repr=False)


class SeenWhy(StrEnum):
    """Why a seat may now see cards.  A member equals its word, so ``--json`` reads as before."""

    DEALT = "dealt"  # drawn from a pile
    HANDED = "handed"  # handed over by another seat
    PEEKED = "peeked"  # another seat's held cards, looked at
    REHANDLED = "re-handled"  # our own hand, shuffled and dealt back to us


@attrs.frozen
class CardsSeen:
    """Cards this seat may now see, and why."""

    cards: tuple[str, ...]
    why: SeenWhy


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
    Not a blame: nobody broke the protocol.  ``digest`` is our state digest where we stopped.
    ``vanished``: it did not resign, it vanished where the table cannot recover (§11.11)."""

    seat: int
    step: int
    digest: str
    vanished: bool = False


@attrs.frozen
class SeatLeft:
    """Seat ``seat`` left the game for good at game step ``step`` (docs/protocol.md §11.10);
    the others play on.  Not a blame.  ``digest`` is our state digest once it had left.
    ``vanished``: it did not leave, it vanished and the others recovered its part (§11.11)."""

    seat: int
    step: int
    digest: str
    vanished: bool = False


Event = (
    DecisionNeeded[Any]
    | StepApplied[Any]
    | CardsSeen
    | VerdictReached
    | GameFinished
    | GameResigned
    | SeatLeft
)
