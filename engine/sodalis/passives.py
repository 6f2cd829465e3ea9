"""The nine champion passives, as named hooks at fixed hook points.

A champion file names its passive (``passive = "chain_lightning"``); the rules never test a
champion's name: they call the hook points below, which ask the passive of the champion
concerned.  Hook points (docs/cards/sodalis.md, "Passive hooks"):

- ``power_bonus(state, caster, face)`` -- dice added to an effect the caster casts;
- ``piercing_against(state, caster, face, unit)`` -- piercing of the caster's effect against
  one affected unit;
- ``inertia_for(state, owner, unit)`` -- inertia the owner's passive adds to a unit (the
  passive may touch other champions: "unless specified otherwise", l. 120);
- ``extra_units(state, caster, face, units)`` -- units an effect affects beyond those chosen;
- ``spread_size`` -- how many arcana the owner's spread holds;
- ``start_of_turn(state, seat)`` -- what happens as the owner's turn begins.

Units are seat numbers; the Paragon is ``PARAGON`` (-1).  Every hook reads the state and
returns a number or a tuple; only ``start_of_turn`` changes the state, through
``state.change_life``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from fairtable.engine.sodalis.arena import hex_distance
from fairtable.engine.sodalis.cards import FaceEffect, PassiveName

if TYPE_CHECKING:
    from fairtable.engine.sodalis.cards import Face

PARAGON = -1
DEFAULT_SPREAD = 3


def _zero(*_: Any) -> int:
    return 0


def _no_units(*_: Any) -> tuple[int, ...]:
    return ()


def _nothing(*_: Any) -> None:
    return None


@attrs.frozen
class Passive:
    name: PassiveName
    champion: str  # the champion it is written for (documentation only)
    power_bonus: Callable[[Any, int, Face], int] = _zero
    piercing_against: Callable[[Any, int, Face, int], int] = _zero
    inertia_for: Callable[[Any, int, int], int] = _zero
    extra_units: Callable[[Any, int, Face, tuple[int, ...]], tuple[int, ...]] = _no_units
    spread_size: int = DEFAULT_SPREAD
    start_of_turn: Callable[[Any, int], None] = _nothing


def _adjacent(state: Any, a: int, b: int) -> bool:
    sa, sb = state.seats[a].at, state.seats[b].at
    return sa is not None and sb is not None and hex_distance(sa, sb) == 1


# -- the nine hooks ---------------------------------------------------------------------------
def _royal_guard(state: Any, owner: int, unit: int) -> int:
    """Allied champions (not the Empress) next to the Empress have +1 inertia."""
    if unit < 0 or unit == owner or state.seats[unit].team != state.seats[owner].team:
        return 0
    return 1 if _adjacent(state, owner, unit) else 0


def _kindred_growth(state: Any, caster: int, face: Face) -> int:
    """+1 power for every arcana the Animist already cast this turn."""
    return int(state.seats[caster].casts)


def _blood_scent(state: Any, caster: int, face: Face, unit: int) -> int:
    """Damaging effects: +2 piercing against Bloodied champions."""
    return 2 if face.effect is FaceEffect.DAMAGE and unit >= 0 and state.bloodied(unit) else 0


def _shared_soul(state: Any, caster: int, face: Face, units: tuple[int, ...]) -> tuple[int, ...]:
    """A healing effect affecting other units affects the Lover too (same roll)."""
    if face.effect is FaceEffect.HEAL and caster not in units and any(u != caster for u in units):
        return (caster,)
    return ()


def _steady_aim(state: Any, caster: int, face: Face) -> int:
    """Damaging effects: +2 power if the Archer has not moved this turn."""
    return 2 if face.effect is FaceEffect.DAMAGE and not state.seats[caster].moved else 0


def _suffering(state: Any, caster: int, face: Face) -> int:
    """While the Damned is Bloodied, her damaging effects gain +2 power."""
    return 2 if face.effect is FaceEffect.DAMAGE and state.bloodied(caster) else 0


def _chain_lightning(
    state: Any, caster: int, face: Face, units: tuple[int, ...]
) -> tuple[int, ...]:
    """Damaging effects also affect every other champion next to an affected champion (never
    the Tempest herself: the storm is hers)."""
    if face.effect is not FaceEffect.DAMAGE:
        return ()
    struck = [u for u in units if u >= 0]
    out = []
    for seat in range(len(state.seats)):
        if seat in units or seat == caster or state.seats[seat].at is None:
            continue
        if any(_adjacent(state, seat, u) for u in struck):
            out.append(seat)
    return tuple(out)


def _endurance(state: Any, seat: int) -> None:
    """At the start of the Undying's turn it regains 1 life (no roll)."""
    state.change_life(seat, 1, "endurance")


PASSIVES: dict[PassiveName, Passive] = {
    p.name: p
    for p in (
        Passive(PassiveName.ROYAL_GUARD, "empress", inertia_for=_royal_guard),
        Passive(PassiveName.KINDRED_GROWTH, "animist", power_bonus=_kindred_growth),
        Passive(PassiveName.BLOOD_SCENT, "beast", piercing_against=_blood_scent),
        Passive(PassiveName.SHARED_SOUL, "lover", extra_units=_shared_soul),
        Passive(PassiveName.STEADY_AIM, "archer", power_bonus=_steady_aim),
        Passive(PassiveName.SUFFERING, "damned", power_bonus=_suffering),
        Passive(PassiveName.MANY_PATHS, "sage", spread_size=4),
        Passive(PassiveName.CHAIN_LIGHTNING, "tempest", extra_units=_chain_lightning),
        Passive(PassiveName.ENDURANCE, "undying", start_of_turn=_endurance),
    )
}


# -- hook points, as the rules call them ------------------------------------------------------
def of(state: Any, seat: int) -> Passive:
    return PASSIVES[state.champion_of(seat).passive]


def power_bonus(state: Any, caster: int, face: Face) -> int:
    return of(state, caster).power_bonus(state, caster, face)


def piercing_against(state: Any, caster: int, face: Face, unit: int) -> int:
    return of(state, caster).piercing_against(state, caster, face, unit)


def inertia_bonus(state: Any, unit: int) -> int:
    """Inertia every champion's passive adds to ``unit`` (seat order)."""
    total = 0
    for owner, seat in enumerate(state.seats):
        if seat.champion is not None:
            total += PASSIVES[state.catalog.by_id[seat.champion].passive].inertia_for(
                state, owner, unit
            )
    return total


def extra_units(state: Any, caster: int, face: Face, units: tuple[int, ...]) -> tuple[int, ...]:
    return of(state, caster).extra_units(state, caster, face, units)


def spread_size(passive: PassiveName) -> int:
    return PASSIVES[passive].spread_size


def start_of_turn(state: Any, seat: int) -> None:
    of(state, seat).start_of_turn(state, seat)
