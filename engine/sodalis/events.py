"""Sodalis's events: one typed record per kind of entry in its public log.

The rules log a record (``state.log(...)``) and the state keeps it; what writes bytes (logs,
replays) writes its :meth:`~engine.events.Event.as_tuple`, and :data:`PARSER` reads a stored
tuple back into its record.
"""

from __future__ import annotations

from enum import StrEnum

import attrs

from fairtable.engine.events import (
    LIST,
    LISTS,
    Departed,
    Event,
    EventParser,
    RoundLimit,
    to_tuple,
    to_tuples,
)
from fairtable.engine.sodalis.cards import Action
from fairtable.engine.sodalis.team import Team
from fairtable.engine.sodalis.team import Tribute as TributeKind


class MoveWhy(StrEnum):
    """Why a champion moved: the action token or the Tribute of Speed its step exhausted, or
    a push or a pull."""

    MOVE = "move"
    MINOR = "minor"
    MAJOR = "major"
    SPEED = "speed"
    PUSH = "push"
    PULL = "pull"


class LifeWhy(StrEnum):
    """Why a champion's life changed: a cast's dice, its own recoil, or Endurance."""

    CAST = "cast"
    RECOIL = "recoil"
    ENDURANCE = "endurance"


@attrs.frozen
class Tokens(Event):
    """The turn tokens given, as ``(seat, token)`` pairs."""

    KIND = "tokens"

    tokens: tuple[tuple[int, int], ...] = attrs.field(converter=to_tuples, metadata=LISTS)


@attrs.frozen
class Champion(Event):
    """``seat`` chose champion ``champion``."""

    KIND = "champion"

    seat: int
    champion: str


@attrs.frozen
class Reversals(Event):
    """``seat`` reversed ``arcana``."""

    KIND = "reversals"

    seat: int
    arcana: tuple[str, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class Order(Event):
    """The turn order of the seats."""

    KIND = "order"

    seats: tuple[int, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class Shuffled(Event):
    """``seat``'s deck is shuffled."""

    KIND = "shuffled"

    seat: int


@attrs.frozen
class Placed(Event):
    """``seat``'s champion is placed on ``space``."""

    KIND = "placed"

    seat: int
    space: tuple[int, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class Round(Event):
    """Round ``number`` begins."""

    KIND = "round"

    number: int


@attrs.frozen
class Turn(Event):
    """``seat``'s turn begins, in round ``round``."""

    KIND = "turn"

    seat: int
    round: int


@attrs.frozen
class TurnEnd(Event):
    """``seat``'s turn ends."""

    KIND = "turn_end"

    seat: int


@attrs.frozen
class NothingLeft(Event):
    """``seat`` has nothing left to do this turn."""

    KIND = "nothing_left"

    seat: int


@attrs.frozen
class Moved(Event):
    """``unit`` moved from ``start`` to ``end``; ``why``: the payment, ``push`` or ``pull``."""

    KIND = "moved"

    unit: int
    start: tuple[int, ...] = attrs.field(converter=to_tuple, metadata=LIST)
    end: tuple[int, ...] = attrs.field(converter=to_tuple, metadata=LIST)
    why: MoveWhy = attrs.field(converter=MoveWhy)


@attrs.frozen
class Artifact(Event):
    """``team``'s Artifact is carried to ``space``."""

    KIND = "artifact"

    team: Team = attrs.field(converter=Team)
    space: tuple[int, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class ArtifactDelivered(Event):
    """``team``'s Artifact reached the centre."""

    KIND = "artifact_delivered"

    team: Team = attrs.field(converter=Team)


@attrs.frozen
class Respawn(Event):
    """``seat``'s fallen champion came back on ``space``."""

    KIND = "respawn"

    seat: int
    space: tuple[int, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class ForcedStopped(Event):
    """``unit`` stops: the way is closed."""

    KIND = "forced_stopped"

    unit: int


@attrs.frozen
class Cast(Event):
    """``seat`` cast ``card`` on ``units``, with the Tributes of Sight and Strength or not."""

    KIND = "cast"

    seat: int
    card: str
    units: tuple[int, ...] = attrs.field(converter=to_tuple, metadata=LIST)
    sight: bool
    strength: bool


@attrs.frozen
class Roll(Event):
    """The dice of ``seat``'s cast of ``card``, and whether any is a critical."""

    KIND = "roll"

    seat: int
    card: str
    values: tuple[int, ...] = attrs.field(converter=to_tuple, metadata=LIST)
    critical: bool


@attrs.frozen
class Flipped(Event):
    """``seat`` turned up ``cards``."""

    KIND = "flipped"

    seat: int
    cards: tuple[str, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class Confused(Event):
    """``unit`` is Confused."""

    KIND = "confused"

    unit: int


@attrs.frozen
class Slowed(Event):
    """``unit`` is Slowed."""

    KIND = "slowed"

    unit: int


@attrs.frozen
class Exhausted(Event):
    """``unit``'s ``token`` action token is exhausted."""

    KIND = "exhausted"

    unit: int
    token: Action = attrs.field(converter=Action)


@attrs.frozen
class Refreshed(Event):
    """``unit``'s ``token`` action token is refreshed."""

    KIND = "refreshed"

    unit: int
    token: Action = attrs.field(converter=Action)


@attrs.frozen
class Cycled(Event):
    """``seat``'s ``card`` cycles under its deck."""

    KIND = "cycled"

    seat: int
    card: str


@attrs.frozen
class Continuous(Event):
    """``seat``'s ``card`` stays in play until the next turn (beside ``beside``)."""

    KIND = "continuous"

    seat: int
    card: str
    beside: tuple[int, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class Top(Event):
    """``seat``'s deck shows ``card``."""

    KIND = "top"

    seat: int
    card: str


@attrs.frozen
class LifeOrdered(Event):
    """``seat`` set the order of the life changes of ``units``."""

    KIND = "life_ordered"

    seat: int
    units: tuple[int, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class Life(Event):
    """``unit``'s life went from ``before`` to ``after`` (``why``: e.g. ``recoil``)."""

    KIND = "life"

    unit: int
    before: int
    after: int
    why: LifeWhy | None = attrs.field(converter=attrs.converters.optional(LifeWhy))


@attrs.frozen
class Fallen(Event):
    """``seat``'s champion fell to 0 life."""

    KIND = "fallen"

    seat: int


@attrs.frozen
class TributeEarned(Event):
    """``team`` earned the Tribute ``tribute``."""

    KIND = "tribute_earned"

    team: Team = attrs.field(converter=Team)
    tribute: TributeKind = attrs.field(converter=TributeKind)


@attrs.frozen
class Tribute(Event):
    """``team`` gave the Tribute ``tribute`` to ``seat``."""

    KIND = "tribute"

    team: Team = attrs.field(converter=Team)
    tribute: TributeKind = attrs.field(converter=TributeKind)
    seat: int


@attrs.frozen
class StrengthRefresh(Event):
    """``team`` refreshed ``champion``'s ``token`` token (``None``: nothing)."""

    KIND = "strength_refresh"

    team: Team = attrs.field(converter=Team)
    champion: int | None
    token: Action | None = attrs.field(converter=attrs.converters.optional(Action))


@attrs.frozen
class SightTaken(Event):
    """``seat`` of ``team`` took the Tribute of Sight from the Paragon."""

    KIND = "sight_taken"

    team: Team = attrs.field(converter=Team)
    seat: int


@attrs.frozen
class SightStolen(Event):
    """``seat`` of ``team`` stole the Tribute of Sight from ``holder``."""

    KIND = "sight_stolen"

    team: Team = attrs.field(converter=Team)
    seat: int
    holder: int


@attrs.frozen
class Won(Event):
    """``team`` wins the Trial of Sodalis."""

    KIND = "won"

    team: Team = attrs.field(converter=Team)


EVENTS: tuple[type[Event], ...] = (
    Tokens,
    Champion,
    Reversals,
    Order,
    Shuffled,
    Placed,
    Round,
    Turn,
    TurnEnd,
    NothingLeft,
    RoundLimit,
    Departed,
    Moved,
    Artifact,
    ArtifactDelivered,
    Respawn,
    ForcedStopped,
    Cast,
    Roll,
    Flipped,
    Confused,
    Slowed,
    Exhausted,
    Refreshed,
    Cycled,
    Continuous,
    Top,
    LifeOrdered,
    Life,
    Fallen,
    TributeEarned,
    Tribute,
    StrengthRefresh,
    SightTaken,
    SightStolen,
    Won,
)
"""Every kind of event Sodalis logs."""

PARSER = EventParser(EVENTS)
"""Reads a stored Sodalis event tuple back into its record."""
