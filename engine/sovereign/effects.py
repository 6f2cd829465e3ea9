"""Card effects: unit stats, citizens, damage, scrapping, targets and one-shot effects.

Static effects come from units in lanes (``static``), attached augments, perpetual
abilities of facilities and Leaders (scaled by their level), reflexes in play
(``lasting``) and temporary effects (``temp_stat``, until the end of the phase).
During combat the attacker's units that are not attacking contribute no text
("do not contribute their ability text to combat").

One-shot effects run as tasks (``("effect", seat, source, which, index, k, target)``)
so that an effect needing an answer (a draw, a choice of lost health) can wait for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fairtable.engine.sovereign import events as E
from fairtable.engine.sovereign.cards import HEALTH_OPS, CardDef, Effect
from fairtable.engine.sovereign.kinds import (
    CardType,
    EffectGroup,
    Mode,
    Op,
    Shift,
    Target,
    When,
    Who,
)
from fairtable.engine.sovereign.state import LANE_SIZE, SovereignState
from fairtable.engine.words import word_of

Source = tuple[str, int, Effect, str, int]  # source ref, controller, effect, bound target, scale


# -- citizens ---------------------------------------------------------------------------
def from_creche(state: SovereignState, seat: int, talents: int, drones: int) -> None:
    b = state.boards[seat]
    b.citadel[0] += talents
    b.citadel[1] += drones
    state.creche_out += talents + drones


def to_creche(state: SovereignState, count: int) -> None:
    state.creche_out -= count


def citizens_total(state: SovereignState) -> int:
    """Every citizen out of the creche, wherever it is (for the conservation check)."""
    total = 0
    for b in state.boards:
        total += sum(b.citadel) + sum(b.leader_workers) + len(b.forge)
        total += sum(sum(c) for _, c, _ in b.reflexes)
    total += sum(sum(u.health) for u in state.units.values())
    total += sum(sum(f.workers) for f in state.facilities.values())
    return total


# -- effects that apply -------------------------------------------------------------------
def effects_of(d: CardDef, which: EffectGroup) -> tuple[Effect, ...]:
    """Card ``d``'s effects in list ``which``."""
    match which:
        case EffectGroup.PLAY:
            return d.play
        case EffectGroup.LASTING:
            return d.lasting
        case EffectGroup.ABILITY:
            return d.ability.effects if d.ability else ()
        case EffectGroup.STATIC:
            return d.static
        case _:
            return d.trigger(which)


def level(state: SovereignState, ref: str) -> int:
    """How many times a perpetual ability applies (0: not worked)."""
    d = state.defn(ref)
    ab = d.ability
    if ab is None or ab.mode is not Mode.PERPETUAL:
        return 0
    workers = _workers(state, ref)
    levels: list[int] = []
    if ab.talents:
        levels.append(workers[0] // ab.talents)
    if ab.drones:
        levels.append(workers[1] // ab.drones)
    return min(levels)


def _workers(state: SovereignState, ref: str) -> list[int]:
    seat = int(ref.split(":")[0])
    if ref == leader_ref(state, seat):
        return state.boards[seat].leader_workers
    return state.facilities[ref].workers


def leader_ref(state: SovereignState, seat: int) -> str:
    return f"{seat}:{state.boards[seat].leader}"


def controller(state: SovereignState, ref: str) -> int:
    """Who controls a card in play: a unit's or facility's seat; an attached augment's
    host's controller ("an augment attached to another player's card is now controlled by
    that player", l. 147); anything else its owner."""
    if ref in state.units:
        return state.units[ref].owner
    if ref in state.facilities:
        return state.facilities[ref].owner
    for unit in state.units.values():
        if ref in unit.augments:
            return unit.owner
    for facility in state.facilities.values():
        if ref in facility.augments:
            return facility.owner
    return int(ref.split(":")[0])


def silenced(state: SovereignState, ref: str) -> bool:
    """An attacker's unit left out of the attack adds no text to combat."""
    bt = state.battle
    if (
        not bt
        or bt.get("ended")
        or ref not in state.units
        or state.units[ref].owner != bt["attacker"]
    ):
        return False  # at battle_end combat is over: every unit's text applies again
    return ref not in bt["attackers"]


def sources(state: SovereignState) -> Iterator[Source]:
    """Every static effect in force: (source, controller, effect, bound target, scale)."""
    for ref in sorted(state.units):
        unit = state.units[ref]
        if silenced(state, ref):
            continue
        for eff in state.defn(ref).static:
            yield ref, unit.owner, eff, "", 1
        for aug in unit.augments:
            for eff in state.defn(aug).static:
                yield aug, unit.owner, eff, ref, 1
    for ref in sorted(state.facilities):
        fac = state.facilities[ref]
        for aug in fac.augments:
            for eff in state.defn(aug).static:
                yield aug, fac.owner, eff, ref, 1
        lv = level(state, ref)
        if lv:
            for eff in effects_of(state.defn(ref), EffectGroup.ABILITY):
                yield ref, fac.owner, eff, "", lv
    for seat, b in enumerate(state.boards):
        lref = leader_ref(state, seat)
        lv = level(state, lref)
        if lv:
            for eff in effects_of(state.defn(lref), EffectGroup.ABILITY):
                yield lref, seat, eff, "", lv
        for ref, _, targets in b.reflexes:
            for eff in state.defn(ref).lasting:
                yield ref, seat, eff, targets[0] if targets else "", 1
    for ref, seat, which, index, target, scale in state.temps:
        eff = effects_of(state.defn(ref), which)[index]
        yield ref, seat, eff, target, scale


def _applies(state: SovereignState, src: str, ctrl: int, eff: Effect, bound: str, ref: str) -> bool:
    unit = state.units[ref]
    match eff.who:
        case Who.SELF:
            hit = ref == src
        case Who.HOST | Who.TARGET:
            hit = ref == bound
        case Who.OWN_UNITS:
            hit = unit.owner == ctrl
        case Who.OTHER_OWN_UNITS:
            hit = unit.owner == ctrl and ref != src
        case Who.ENEMY_UNITS:
            hit = unit.owner != ctrl
        case Who.OWN_LANE_OTHERS:
            here, there = state.lane_of(src), state.lane_of(ref)
            hit = ref != src and here is not None and there is not None and here[:2] == there[:2]
        case Who.ADJACENT:
            hit = ref in state.lane_neighbours(src)
        case Who.ATTACKERS_VS_YOU:
            bt = state.battle
            hit = bool(bt) and bt["defender"] == ctrl and ref in bt["attackers"]
        case None:
            hit = False
    if not hit:
        return False
    bt = state.battle
    match eff.when:
        case None:
            return True
        case When.ATTACKING:
            return bool(bt) and ref in bt["attackers"]
        case When.DEFENDING:
            return bool(bt) and unit.owner == bt["defender"] and _in_target_lane(state, ref)
        case When.FRONT:
            place = state.lane_of(ref)
            return place is not None and place[2] == 0


def _in_target_lane(state: SovereignState, ref: str) -> bool:
    bt = state.battle
    if bt.get("spaces") is not None:
        return ref in bt["spaces"]
    return ref in state.boards[bt["defender"]].lanes[bt["target_lane"]]


def stats(state: SovereignState, ref: str) -> tuple[int, int]:
    """A unit's current (attack, armor), never below 0."""
    d = state.defn(ref)
    attack, armor = d.attack, d.armor
    for src, ctrl, eff, bound, scale in sources(state):
        if eff.op in (Op.STAT, Op.TEMP_STAT) and _applies(state, src, ctrl, eff, bound, ref):
            attack += eff.attack * scale
            armor += eff.armor * scale
    return max(0, attack), max(0, armor)


def breach_bonus(state: SovereignState, attackers: list[str], seat: int) -> int:
    """Bonus breach value: on an attacker with attack >= 1, or from any card the attacking
    seat controls that is not a unit."""
    bonus = 0
    for src, ctrl, eff, _, scale in sources(state):
        if eff.op is not Op.BREACH_BONUS:
            continue
        if src in state.units:
            if src in attackers and stats(state, src)[0] >= 1:
                bonus += eff.amount * scale
        elif ctrl == seat:
            bonus += eff.amount * scale
    return bonus


# -- units: health and scrapping ------------------------------------------------------------
def health(state: SovereignState, ref: str) -> int:
    return sum(state.units[ref].health)


def in_combat(state: SovereignState, ref: str) -> bool:
    bt = state.battle
    if not bt or ref not in state.units:
        return False
    return ref in bt["attackers"] or (
        state.units[ref].owner == bt["defender"] and _in_target_lane(state, ref)
    )


def remove_tokens(state: SovereignState, ref: str, talents: int, drones: int) -> None:
    unit = state.units[ref]
    unit.health[0] -= talents
    unit.health[1] -= drones
    to_creche(state, talents + drones)


def loss_split(state: SovereignState, ref: str, count: int) -> tuple[int, int] | None:
    """(talents, drones) lost when the split is forced, ``None`` when the controller must
    choose (both types held and the unit keeps at least one token)."""
    t, d = state.units[ref].health
    count = min(count, t + d)
    if count == t + d:
        return t, d
    if d == 0:
        return count, 0
    if t == 0:
        return 0, count
    return None


def scrap_card(state: SovereignState, ref: str) -> None:
    """A card leaves play into its owner's scrap pile (an Echo never does)."""
    owner, card = ref.split(":", 1)
    if state.catalog.defs[card].type is CardType.ECHO:
        return
    state.boards[int(owner)].scrap.append(card)


def scrap_unit(state: SovereignState, ref: str) -> None:
    unit = state.units.pop(ref)
    to_creche(state, sum(unit.health))
    for lane in state.boards[unit.owner].lanes:
        if ref in lane:
            lane.remove(ref)
    bt = state.battle
    if bt:
        if ref in bt["attackers"]:
            bt["attackers"] = [a for a in bt["attackers"] if a != ref]
            if bt.get("spaces") is None:  # lanes pack until round 1's damage (§1.8)
                bt["order"] = [a for a in bt["order"] if a != ref]
        if bt.get("spaces") is not None and ref in bt["spaces"]:
            bt["spaces"] = [None if s == ref else s for s in bt["spaces"]]
    for aug in unit.augments:
        scrap_card(state, aug)
    _drop_temps(state, ref)
    scrap_card(state, ref)
    state.log(E.Scrapped(ref))


def _drop_temps(state: SovereignState, ref: str) -> None:
    state.temps = [t for t in state.temps if t[4] != ref]


# -- targets ----------------------------------------------------------------------------------
def target_slots(effects: tuple[Effect, ...], k: int) -> list[Effect]:
    """One entry per target the effects need (a move repeats for each of ``k`` uses)."""
    out: list[Effect] = []
    for eff in effects:
        if eff.target:
            out += [eff] * (k if eff.op is Op.MOVE else 1)
    return out


def move_problem(state: SovereignState, seat: int, ref: str, where: str) -> str:
    """Why this move is not possible now ('' if it is)."""
    shift = word_of(Shift, where)
    if shift is None:
        return "a move is up, down or other"
    place = state.lane_of(ref)
    if place is None or state.units[ref].owner != seat:
        return "move a unit you control"
    _, lane, index = place
    refs = state.boards[seat].lanes[lane]
    bt = state.battle
    if state.locked_in_lanes():
        return "units are locked in their lanes while combat resolves"
    group = state.attack_group()
    if group and bt["attacker"] == seat and lane == bt["home_lane"]:
        # §1.8: declared attackers may swap places among themselves (their temporary lane);
        # none leaves the attack and no unit joins it ("cannot change your mind", l. 184)
        if ref in group:
            i = group.index(ref)
            if (shift is Shift.UP and i > 0) or (shift is Shift.DOWN and i < len(group) - 1):
                return ""
            return "declared attackers may only swap places among themselves"
        if shift is Shift.UP and index > 0 and refs[index - 1] in group:
            return "no unit may join the declared attackers"
    match shift:
        case Shift.UP:
            return "" if index > 0 else "the front unit cannot move up"
        case Shift.DOWN:
            return "" if index < len(refs) - 1 else "the back unit cannot move down"
        case Shift.OTHER:
            if len(state.boards[seat].lanes[1 - lane]) >= LANE_SIZE:
                return "the other lane is full"
            return ""


def do_move(state: SovereignState, ref: str, where: str) -> None:
    shift = Shift(where)
    if ref in state.attack_group():  # a swap inside the attackers' temporary lane (§1.8)
        order = state.battle["order"]
        i = order.index(ref)
        j = i - 1 if shift is Shift.UP else i + 1
        order[i], order[j] = order[j], order[i]
        state.log(E.Move(ref, shift))
        return
    seat, lane, index = state.lane_of(ref)  # type: ignore[misc]
    refs = state.boards[seat].lanes[lane]
    if shift is Shift.UP:
        refs[index - 1], refs[index] = refs[index], refs[index - 1]
    elif shift is Shift.DOWN:
        refs[index + 1], refs[index] = refs[index], refs[index + 1]
    else:
        refs.remove(ref)
        state.boards[seat].lanes[1 - lane].append(ref)
    state.log(E.Move(ref, shift))


def target_problem(state: SovereignState, seat: int, eff: Effect, entry: Any) -> str:
    """Why ``entry`` is not a legal target for ``eff`` ('' if it is)."""
    if not isinstance(entry, str):
        return "targets are text"
    kind = eff.target
    match kind:
        case Target.UNIT | Target.ENEMY_UNIT | Target.OWN_UNIT | Target.OWN_UNIT_IDLE:
            unit = state.units.get(entry)
            if unit is None or state.lane_of(entry) is None:
                return f"{entry} is not a unit in play"
            if kind is Target.ENEMY_UNIT and unit.owner == seat:
                return "target a unit another seat controls"
            if kind in (Target.OWN_UNIT, Target.OWN_UNIT_IDLE) and unit.owner != seat:
                return "target a unit you control"
            if kind is Target.OWN_UNIT_IDLE and in_combat(state, entry):
                return "target a unit that is not in combat"
            if eff.op in HEALTH_OPS and health(state, entry) == 0:
                return "a unit at 0 health cannot gain health"
            return ""
        case Target.OWN_SLOT:
            if not entry.startswith("slot:") or not _number(entry[5:]):
                return "name a forge card as slot:<handle>"
            return "" if state.slot(seat, int(entry[5:])) else "not a card in your forge"
        case Target.SEAT:
            if not entry.startswith("seat:") or not _number(entry[5:]):
                return "name a seat as seat:<n>"
            return "" if int(entry[5:]) < state.players else "no such seat"
        case Target.MOVE_OWN:
            ref, _, where = entry.partition(">")
            return move_problem(state, seat, ref, where)
        case None:
            return "unknown target kind"  # no effect without a target is ever asked one


def _number(text: str) -> bool:
    """Plain ASCII digits ('²'.isdigit() is true, but int('²') fails)."""
    return text.isascii() and text.isdigit()


def targets_problem(
    state: SovereignState, seat: int, effects: tuple[Effect, ...], k: int, targets: Any
) -> str:
    slots = target_slots(effects, k)
    if not isinstance(targets, tuple) or len(targets) != len(slots):
        return f"name {len(slots)} target(s)"
    for eff, entry in zip(slots, targets, strict=True):
        problem = target_problem(state, seat, eff, entry)
        if problem:
            return problem
    return ""
