"""High Card's events: one typed record per kind of entry in its public log.

The rules log a record (``state.log(...)``) and the state keeps it (``apply`` gives a step's
records back); what writes bytes writes its :meth:`~engine.events.Event.as_tuple`, and
:data:`PARSER` -- the game's ``EVENT_PARSER`` -- reads a stored tuple back into its record.
"""

from __future__ import annotations

import attrs

from fairtable.engine.events import Event, EventParser, to_tuples

__all__ = ["EVENTS", "PARSER", "Dealt", "Placed", "Revealed", "Won"]


@attrs.frozen
class Dealt(Event):
    """``seat`` drew ``count`` cards (which ones, only it knows)."""

    KIND = "dealt"

    seat: int
    count: int


@attrs.frozen
class Placed(Event):
    """``seat`` bid a card face down, staking ``stake`` points."""

    KIND = "bid"

    seat: int
    stake: int


@attrs.frozen
class Revealed(Event):
    """The bids are shown: ``(seat, card)`` for each bidder, by seat."""

    KIND = "revealed"

    shown: tuple[tuple[int, str], ...] = attrs.field(converter=to_tuples)


@attrs.frozen
class Won(Event):
    """``seat`` won with ``card``, the highest bid."""

    KIND = "won"

    seat: int
    card: str


EVENTS: tuple[type[Event], ...] = (Dealt, Placed, Revealed, Won)
PARSER = EventParser(EVENTS)
