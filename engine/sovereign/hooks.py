"""Named hooks: card effects the vocabulary cannot express.

A card names its hook in data (``{ op = "hook", name = "...", target = "..." }``), read
once into a :class:`HookName`; the rules call it through :data:`HOOKS`, never by checking
a card's name.  A hook receives
the state, the seat using the effect, the source card's ref, the number of simultaneous
uses ``k`` and the chosen target ('' when the effect has none).  Hooks change only public
state and log what they did; they never ask a question.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any

from fairtable.engine.sovereign import events as E
from fairtable.engine.sovereign.kinds import CardType

Hook = Callable[[Any, int, str, int, str], None]


class HookName(StrEnum):
    """A hook a card's data names: each has its function in :data:`HOOKS`."""

    GUST = "gust"
    MOSAIC_MUTATION = "mosaic_mutation"
    SECOND_WIND = "second_wind"
    SELF_REPAIR = "self_repair"
    SLAVER_RAID = "slaver_raid"
    STEAL_TALENT = "steal_talent"
    SWELL = "swell"


def _unit_of(state: Any, source: str) -> str | None:
    """The unit a trigger is about: the source itself if it is a unit in a lane, else the
    unit hosting the augment ``source`` (None if there is none)."""
    if source in state.units:
        return source if state.lane_of(source) is not None else None
    for ref in sorted(state.units):
        if source in state.units[ref].augments and state.lane_of(ref) is not None:
            unit: str = ref
            return unit
    return None


def gust(state: Any, seat: int, source: str, k: int, target: str) -> None:
    """Push the target unit to the back of its lane (Windwalker: Squall Callers).  Not
    while its lane is locked in combat."""
    place = state.lane_of(target) if target else None
    if place is None or state.locked_in_lanes():
        return
    owner, lane, _ = place
    # a declared attacker's lane is the attackers' temporary lane (§1.8)
    refs = (
        state.battle["order"] if target in state.attack_group() else state.boards[owner].lanes[lane]
    )
    refs.remove(target)
    refs.append(target)
    state.log(E.Gust(target))


def second_wind(state: Any, seat: int, source: str, k: int, target: str) -> None:
    """Each unit you control with less than its printed health gains one drone from the
    creche (Windwalker: Second Wind)."""
    for ref in sorted(state.units):
        unit = state.units[ref]
        d = state.defn(ref)
        if unit.owner == seat and 0 < sum(unit.health) < d.health:
            unit.health[1] += k
            state.creche_out += k
    state.log(E.SecondWind(seat))


def swell(state: Any, seat: int, source: str, k: int, target: str) -> None:
    """The unit (or the host of the source augment) *adds* ``k`` drones from the creche,
    above its printed maximum (Neogenesis: Bloatflesh Chimera, Hive Gland; l. 285)."""
    ref = _unit_of(state, source)
    if ref is None or sum(state.units[ref].health) == 0:
        return
    state.units[ref].health[1] += k
    state.creche_out += k
    state.log(E.AddHealth(ref, 0, k))


def self_repair(state: Any, seat: int, source: str, k: int, target: str) -> None:
    """The unit (or the host of the source augment) *restores* ``k`` health from the
    creche: printed types only, up to the printed maximum of each and of the total, drones
    first (Machina: Ironheart Revenant, Self-Repair Lattice; l. 314, FAQ l. 338)."""
    ref = _unit_of(state, source)
    if ref is None or sum(state.units[ref].health) == 0:
        return
    unit, d = state.units[ref], state.defn(ref)
    k = min(k, max(0, d.health - sum(unit.health)))
    drones = min(k, max(0, d.drones - unit.health[1]))
    talents = min(k - drones, max(0, d.talents - unit.health[0]))
    unit.health[0] += talents
    unit.health[1] += drones
    state.creche_out += talents + drones
    state.log(E.RestoreHealth(ref, talents, drones))


def steal_talent(state: Any, seat: int, source: str, k: int, target: str) -> None:
    """Move ``k`` idle talents (as many as there are) from the target seat's Citadel to
    yours; nothing against yourself (Undercity: Lift the Keys)."""
    if not target.startswith("seat:"):
        return
    victim = int(target[5:])
    if victim == seat:
        return
    n = min(k, state.boards[victim].citadel[0])
    state.boards[victim].citadel[0] -= n
    state.boards[seat].citadel[0] += n
    state.log(E.StealTalent(seat, victim, n))


def slaver_raid(state: Any, seat: int, source: str, k: int, target: str) -> None:
    """On scoring an Echo in a breach of ``seat`` where the source unit is a living
    attacker, take one talent from the defender's Citadel -- only talents that were there
    when the breach began (``battle["citadel_talents"]``, FAQ l. 362; Undercity: Hegemony
    Slavers).  Anywhere else, nothing."""
    bt = state.battle
    if (
        not bt
        or bt["attacker"] != seat
        or source not in bt["attackers"]
        or "citadel_talents" not in bt
    ):
        return
    victim = state.boards[bt["defender"]]
    n = min(k, bt["citadel_talents"] - bt["raided"], victim.citadel[0])
    if n <= 0:
        return
    bt["raided"] += n
    victim.citadel[0] -= n
    state.boards[seat].citadel[0] += n
    state.log(E.SlaverRaid(source, bt["defender"], n))


def mosaic_mutation(state: Any, seat: int, source: str, k: int, target: str) -> None:
    """Replace the target unit with the last unit card of ``seat``'s scrap pile: the new
    unit takes its lane space, health tokens and augments (and its place in a battle); it
    is not forged (no ``on_forge``, no first health, FAQ l. 358).  The old card goes to
    its owner's scrap pile bare; with no unit card in the scrap pile, nothing happens
    (Neogenesis: Mosaic Mutation)."""
    place = state.lane_of(target)
    pile = state.boards[seat].scrap
    units = [i for i, c in enumerate(pile) if state.catalog.defs[c].type is CardType.UNIT]
    if place is None or not units:
        state.log(E.Fizzle(source, target))
        return
    card = pile.pop(units[-1])
    owner, lane, index = place
    new = f"{owner}:{card}"
    old = state.units.pop(target)
    old_card = old.card
    old.card = card
    state.units[new] = old  # same tokens, augments, owner; not new (not forged)
    state.boards[owner].lanes[lane][index] = new
    bt = state.battle
    if bt:
        for key in ("order", "declared", "attackers", "dealt"):
            bt[key] = [new if r == target else r for r in bt[key]]
        if bt.get("spaces") is not None:
            bt["spaces"] = [new if r == target else r for r in bt["spaces"]]
    state.temps = [t for t in state.temps if t[4] != target]
    state.boards[owner].scrap.append(old_card)
    state.log(E.Mutated(target, new))


HOOKS: dict[HookName, Hook] = {
    HookName.GUST: gust,
    HookName.MOSAIC_MUTATION: mosaic_mutation,
    HookName.SECOND_WIND: second_wind,
    HookName.SELF_REPAIR: self_repair,
    HookName.SLAVER_RAID: slaver_raid,
    HookName.STEAL_TALENT: steal_talent,
    HookName.SWELL: swell,
}
