"""Sovereign's events: one typed record per kind of entry in its public log.

The rules log a record (``state.log(...)``) and the state keeps it; what writes bytes (logs,
replays) writes its :meth:`~engine.events.Event.as_tuple`, and :data:`PARSER` reads a stored
tuple back into its record.
"""

from __future__ import annotations

import attrs

from fairtable.engine.events import (
    LIST,
    Departed,
    Event,
    EventParser,
    FirstPlayer,
    RoundLimit,
    to_tuple,
)
from fairtable.engine.sovereign.kinds import (
    Area,
    Citizen,
    Ending,
    MulliganChoice,
    RevealLabel,
    Shift,
)


@attrs.frozen
class Mulligan(Event):
    """``seat`` chose ``choice`` (``keep``, ``free`` or ``shown``)."""

    KIND = "mulligan"

    seat: int
    choice: MulliganChoice = attrs.field(converter=MulliganChoice)


@attrs.frozen
class Revealed(Event):
    """``seat``'s ``cards`` are revealed for ``label`` (e.g. a shown mulligan)."""

    KIND = "revealed"

    label: RevealLabel = attrs.field(converter=RevealLabel)
    seat: int
    cards: tuple[str, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class Draw(Event):
    """``seat`` drew ``count`` cards."""

    KIND = "draw"

    seat: int
    count: int


@attrs.frozen
class Rehandle(Event):
    """``seat``'s ``count`` face-down cards got fresh handles."""

    KIND = "rehandle"

    seat: int
    count: int


@attrs.frozen
class Peek(Event):
    """``seat`` looked at ``victim``'s face-down ``handles``."""

    KIND = "peek"

    seat: int
    victim: int
    handles: tuple[int, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class DeckEmpty(Event):
    """``seat``'s deck is empty."""

    KIND = "deck_empty"

    seat: int


@attrs.frozen
class Turn(Event):
    """Turn ``number`` begins: ``seat``'s."""

    KIND = "turn"

    number: int
    seat: int


@attrs.frozen
class Growth(Event):
    """``seat``'s growth (the start of its turn)."""

    KIND = "growth"

    seat: int


@attrs.frozen
class ReflexEnds(Event):
    """Reflex ``ref`` ends and is scrapped at upkeep."""

    KIND = "reflex_ends"

    ref: str


@attrs.frozen
class UpkeepReturn(Event):
    """``seat`` took a ``citizen`` back from ``card``."""

    KIND = "upkeep_return"

    seat: int
    card: str
    citizen: Citizen = attrs.field(converter=Citizen)


@attrs.frozen
class ForgeAdvance(Event):
    """``seat``'s forge cards advance by one."""

    KIND = "forge_advance"

    seat: int


@attrs.frozen
class ToForge(Event):
    """``seat`` played hand card ``handle`` face down into its forge."""

    KIND = "to_forge"

    seat: int
    handle: int


@attrs.frozen
class Accelerate(Event):
    """``seat`` advanced forge card ``handle`` by ``amount``."""

    KIND = "accelerate"

    seat: int
    handle: int
    amount: int


@attrs.frozen
class Forged(Event):
    """``ref`` is forged into ``place`` (a lane, or ``host:<ref>``)."""

    KIND = "forged"

    ref: str
    place: str


@attrs.frozen
class Attached(Event):
    """Augment ``augment`` is attached to ``host``."""

    KIND = "attached"

    augment: str
    host: str


@attrs.frozen
class FirstHealth(Event):
    """``ref`` gets its first health: ``talents`` and ``drones``."""

    KIND = "first_health"

    ref: str
    talents: int
    drones: int


@attrs.frozen
class Scrapped(Event):
    """``ref`` is scrapped."""

    KIND = "scrapped"

    ref: str


@attrs.frozen
class NoAttack(Event):
    """``seat`` does not attack."""

    KIND = "no_attack"

    seat: int


@attrs.frozen
class Attack(Event):
    """``seat`` attacks ``target``'s lane ``lane`` with ``order``."""

    KIND = "attack"

    seat: int
    order: tuple[str, ...] = attrs.field(converter=to_tuple, metadata=LIST)
    target: int
    lane: int


@attrs.frozen
class CombatDamage(Event):
    """``source`` dealt ``amount`` combat damage to ``target``."""

    KIND = "combat_damage"

    source: str
    target: str
    amount: int


@attrs.frozen
class Lost(Event):
    """``ref`` lost ``talents`` and ``drones`` health tokens."""

    KIND = "lost"

    ref: str
    talents: int
    drones: int


@attrs.frozen
class Breach(Event):
    """``attacker`` breached ``defender``'s ``area`` for ``value``."""

    KIND = "breach"

    attacker: int
    defender: int
    area: Area = attrs.field(converter=Area)
    value: int


@attrs.frozen
class Discarded(Event):
    """``card`` is discarded from ``seat``'s hand (a breach)."""

    KIND = "discarded"

    seat: int
    card: str


@attrs.frozen
class Scored(Event):
    """``seat`` scored the Echo ``ref``."""

    KIND = "scored"

    seat: int
    ref: str


@attrs.frozen
class Move(Event):
    """``ref`` moved ``where`` (``up``, ``down`` or ``other``)."""

    KIND = "move"

    ref: str
    where: Shift = attrs.field(converter=Shift)


@attrs.frozen
class Reflex(Event):
    """Reflex ``ref`` is played on ``targets``."""

    KIND = "reflex"

    ref: str
    targets: tuple[str, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class Work(Event):
    """``ref`` is worked ``uses`` times, on ``targets``."""

    KIND = "work"

    ref: str
    uses: int
    targets: tuple[str, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class Optional(Event):
    """``seat`` used (or declined) the optional effect of ``source``, on ``targets``."""

    KIND = "optional"

    seat: int
    source: str
    used: bool
    targets: tuple[str, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class Fizzle(Event):
    """``source``'s effect fizzles: its target ``target`` is gone."""

    KIND = "fizzle"

    source: str
    target: str


@attrs.frozen
class Damage(Event):
    """``source`` dealt ``amount`` damage to ``target``, which lost ``lost`` health."""

    KIND = "damage"

    source: str
    target: str
    amount: int
    lost: int


@attrs.frozen
class LoseHealth(Event):
    """``target`` lost ``amount`` health from ``source``."""

    KIND = "lose_health"

    source: str
    target: str
    amount: int


@attrs.frozen
class Gain(Event):
    """``seat`` gained ``talents`` and ``drones``."""

    KIND = "gain"

    seat: int
    talents: int
    drones: int


@attrs.frozen
class FlipDrones(Event):
    """``count`` drones on ``seat``'s Citadel flip to talents."""

    KIND = "flip_drones"

    seat: int
    count: int


@attrs.frozen
class TempStat(Event):
    """``source`` changes ``target`` (if any) until the end of the phase."""

    KIND = "temp_stat"

    source: str
    target: str


@attrs.frozen
class AddHealth(Event):
    """``ref`` added ``talents`` and ``drones`` health."""

    KIND = "add_health"

    ref: str
    talents: int
    drones: int


@attrs.frozen
class RestoreHealth(Event):
    """``ref`` restored ``talents`` and ``drones`` health."""

    KIND = "restore_health"

    ref: str
    talents: int
    drones: int


@attrs.frozen
class Gust(Event):
    """Gust: ``target`` goes to the back of its lane."""

    KIND = "gust"

    target: str


@attrs.frozen
class SecondWind(Event):
    """Second Wind: each of ``seat``'s hurt units gains a drone."""

    KIND = "second_wind"

    seat: int


@attrs.frozen
class StealTalent(Event):
    """``seat`` takes ``count`` talents from ``victim``'s Citadel."""

    KIND = "steal_talent"

    seat: int
    victim: int
    count: int


@attrs.frozen
class SlaverRaid(Event):
    """``source`` takes ``count`` talents from ``defender``'s Citadel."""

    KIND = "slaver_raid"

    source: str
    defender: int
    count: int


@attrs.frozen
class Mutated(Event):
    """``ref`` becomes ``card``."""

    KIND = "mutated"

    ref: str
    card: str


@attrs.frozen
class GameOver(Event):
    """The game is over (``how``: e.g. won, round limit); ``winner`` or ``None``."""

    KIND = "game_over"

    how: Ending = attrs.field(converter=Ending)
    winner: int | None


EVENTS: tuple[type[Event], ...] = (
    FirstPlayer,
    Mulligan,
    Revealed,
    Draw,
    Rehandle,
    Peek,
    DeckEmpty,
    Turn,
    RoundLimit,
    Departed,
    Growth,
    ReflexEnds,
    UpkeepReturn,
    ForgeAdvance,
    ToForge,
    Accelerate,
    Forged,
    Attached,
    FirstHealth,
    Scrapped,
    NoAttack,
    Attack,
    CombatDamage,
    Lost,
    Breach,
    Discarded,
    Scored,
    Move,
    Reflex,
    Work,
    Optional,
    Fizzle,
    Damage,
    LoseHealth,
    Gain,
    FlipDrones,
    TempStat,
    AddHealth,
    RestoreHealth,
    Gust,
    SecondWind,
    StealTalent,
    SlaverRaid,
    Mutated,
    GameOver,
)
"""Every kind of event Sovereign logs."""

PARSER = EventParser(EVENTS)
"""Reads a stored Sovereign event tuple back into its record."""
