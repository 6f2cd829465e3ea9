"""Casting an arcana: range, legal targets, dice, and resolving the cast.

The order of one cast (docs/rules/sodalis.md, "Resolving one cast"):
1. declaration: the card, its cost token, the affected units (range checked now), Sight
   (+1 range) and Strength (+2 power) -- :func:`declare`;
2. one roll for the life-changing effect and any recoil (one :class:`Roll`);
3. the Tribute of Sight, on a critical;
4. life changes, unit by unit in turn order (or the caster's order, when it changes a result:
   :mod:`engine.sodalis.life_order`), the Paragon last; a champion reaching 0 earns
   the other team Strength (or its refresh) and respawns at once;
5. additional effects, in printed order, on every affected champion (a recoil once, on the
   caster);
6. the card cycles (:func:`cycle_out`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairtable.engine.requests import Decision, Flip, Roll
from fairtable.engine.sodalis import events as E
from fairtable.engine.sodalis import life_order, passives
from fairtable.engine.sodalis.arena import Space
from fairtable.engine.sodalis.cards import (
    Action,
    AuraStat,
    AuraTo,
    ExtraKind,
    Face,
    FaceEffect,
    Range,
    Refreshed,
    Targets,
    Who,
)
from fairtable.engine.sodalis.decisions import ConfuseInfo, RefreshTokenInfo
from fairtable.engine.sodalis.state import ACTIONS, PARAGON, SodalisState
from fairtable.engine.sodalis.steps import Step
from fairtable.engine.sodalis.team import Tribute

D10, D12 = 10, 12
CRITICAL = 10


# -- range and targets ------------------------------------------------------------------------
def reach(state: SodalisState, seat: int, face: Face, sight: bool) -> int | None:
    """The range numeral of a cast (None: anywhere).  Range auras never bring a "within"
    numeral below 0 nor an "at" numeral below 1 (an "at" range never reaches the caster,
    docs/rules/sodalis.md "Self-targeting"); Sight then adds one."""
    if face.range is Range.ANYWHERE:
        return None
    floor = 1 if face.range is Range.AT else 0
    return max(floor, face.reach + state.aura_total(AuraStat.RANGE, seat)) + (1 if sight else 0)


def allowed(state: SodalisState, caster: int, face: Face, unit: int) -> bool:
    """The card's ``who``: anyone; opposing champions and the Paragon; the caster's team."""
    if face.who is Who.ANY:
        return True
    if unit == PARAGON:
        return face.who is Who.ENEMY
    same = state.seats[unit].team == state.seats[caster].team
    return same if face.who is Who.FRIEND else not same


def units_in_range(
    state: SodalisState,
    seat: int,
    face: Face,
    sight: bool,
    occupied: dict[Space, int] | None = None,
) -> list[int]:
    """Units the card may affect from the caster's space, in turn order, the Paragon last."""
    numeral = reach(state, seat, face, sight)
    here = state.seats[seat].at
    assert here is not None
    dist = state.arena.dist[here]
    out = []
    for space, unit in (occupied or state.unit_spaces()).items():
        if not allowed(state, seat, face, unit):
            continue
        if numeral is not None:
            d = dist.get(space)
            if d is None or (d > numeral if face.range is Range.WITHIN else d != numeral):
                continue
        out.append(unit)
    return sorted(out, key=state.turn_rank)


def target_options(
    state: SodalisState,
    seat: int,
    face: Face,
    sight: bool,
    occupied: dict[Space, int] | None = None,
) -> tuple[int | None, ...]:
    if face.targets is Targets.SELF:
        return (None,)
    units = units_in_range(state, seat, face, sight, occupied)
    if face.targets is Targets.ALL:
        return (None,) if units else ()
    return tuple(units)


def sight_usable(state: SodalisState, seat: int, face: Face) -> bool:
    return (
        state.tribute_up(seat, Tribute.SIGHT)
        and face.range is not Range.ANYWHERE
        and face.targets is not Targets.SELF
    )


def strength_usable(state: SodalisState, seat: int, face: Face) -> bool:
    return state.tribute_up(seat, Tribute.STRENGTH) and face.effect is not FaceEffect.NONE


def cast_options(state: SodalisState, seat: int) -> tuple[tuple[Any, ...], ...]:
    """(card, targets without Sight, targets with Sight, Strength usable) for every card of
    the spread that can be cast now."""
    s = state.seats[seat]
    occupied = state.unit_spaces()
    out = []
    for card in s.spread():
        face = state.face(card)
        if not s.up[face.action]:
            continue
        plain = target_options(state, seat, face, False, occupied)
        sighted = (
            target_options(state, seat, face, True, occupied)
            if sight_usable(state, seat, face)
            else ()
        )
        if plain or sighted:
            out.append((card, plain, sighted, strength_usable(state, seat, face)))
    return tuple(out)


# -- declaration ------------------------------------------------------------------------------
def power(state: SodalisState, seat: int, face: Face, strength: bool) -> int:
    if face.effect is FaceEffect.NONE:
        return 0
    total = (
        face.power
        + state.aura_total(AuraStat.POWER, seat)
        + passives.power_bonus(state, seat, face)
    )
    return max(0, total + (2 if strength else 0))


def affected(
    state: SodalisState, seat: int, face: Face, target: int | None, sight: bool
) -> list[int]:
    if face.targets is Targets.SELF:
        units = [seat]
    elif face.targets is Targets.ALL:
        units = units_in_range(state, seat, face, sight)
    else:
        assert target is not None
        units = [target]
    extra = passives.extra_units(state, seat, face, tuple(units))
    return sorted(set(units) | set(extra), key=state.turn_rank)


def declare(
    state: SodalisState, seat: int, card: str, target: int | None, sight: bool, strength: bool
) -> None:
    """Step 1 of a cast (already checked legal): exhaust, fix the units, queue the rest."""
    s = state.seats[seat]
    face = state.face(card)
    units = affected(state, seat, face, target, sight)
    dice = power(state, seat, face, strength)
    sides = [D12 if face.accuracy else D10] * dice
    for recoil in face.recoils:
        sides += [D10] * recoil.power
    s.up[face.action] = False
    if sight:
        s.tributes[Tribute.SIGHT] = False
    if strength:
        s.tributes[Tribute.STRENGTH] = False
    s.casts += 1
    state.cast = {
        "seat": seat,
        "card": card,
        "units": units,
        "effect": face.effect,
        "sight": sight,
        "strength": strength,
        "sides": sides,
        "main": dice,
        "values": None,
        "critical": False,
        "from": list(s.at) if s.at is not None else None,
    }
    state.log(E.Cast(seat, card, units, sight, strength))
    tasks: list[tuple[Any, ...]] = [(Step.CAST_ROLL,), (Step.SIGHT_CHECK,)]
    tasks += [(Step.CAST_LIFE, u) for u in units]
    for i, extra in enumerate(face.extra):
        if extra.kind == ExtraKind.RECOIL:
            tasks.append((Step.CAST_RECOIL, i))
        else:
            tasks += [(Step.CAST_EXTRA, i, u) for u in units if u != PARAGON]
    tasks += [(Step.CAST_CYCLE,), (Step.CAST_DONE,)]
    state.push(*tasks)


# -- resolution -------------------------------------------------------------------------------
def cast_roll(state: SodalisState) -> None:
    cast = state.cast
    assert cast is not None
    if cast["sides"]:
        state.ask(Roll(f"cast:{cast['seat']}:{cast['card']}", tuple(cast["sides"])))


def on_roll(state: SodalisState, values: tuple[int, ...]) -> None:
    """Step 2: the dice of the cast (a d10 showing 0 is read as 10)."""
    cast = state.cast
    assert cast is not None
    cast["values"] = list(values)
    main = values[: cast["main"]]
    cast["critical"] = any(v >= CRITICAL for v in main)
    state.last_roll = {
        "seat": cast["seat"],
        "card": cast["card"],
        "sides": list(cast["sides"]),
        "values": list(values),
        "critical": cast["critical"],
    }
    state.log(E.Roll(cast["seat"], cast["card"], values, cast["critical"]))


def successes(values: list[int], threshold: int) -> int:
    return sum(1 for v in values if v >= threshold)


def _life(state: SodalisState, seat: int, effect: str, count: int, why: str) -> None:
    before, after = state.change_life(seat, -count if effect == FaceEffect.DAMAGE else count, why)
    if effect == FaceEffect.DAMAGE and before > 0 and after == 0:
        state.push((Step.FALLEN, seat))


def cast_life(state: SodalisState, unit: int) -> None:
    """Step 4 for one unit: its successes against its inertia lowered by piercing."""
    cast = state.cast
    assert cast is not None
    if unit != PARAGON and life_order.maybe_ask(state, unit):
        return
    if cast["effect"] == FaceEffect.NONE or unit == PARAGON:
        return
    _life(state, unit, cast["effect"], life_order.main_hits(state, unit), "cast")


def cast_recoil(state: SodalisState, index: int) -> None:
    """A recoil: a life change on the caster from its own dice, rolled with the cast."""
    cast = state.cast
    assert cast is not None
    face = state.face(cast["card"])
    start = cast["main"] + sum(x.power for x in face.extra[:index] if x.kind == ExtraKind.RECOIL)
    recoil = face.extra[index]
    values = (cast["values"] or [])[start : start + recoil.power]
    caster = cast["seat"]
    _life(state, caster, recoil.effect, successes(values, state.inertia(caster)), "recoil")


def mark(state: SodalisState, unit: int, kind: ExtraKind) -> None:
    """Confuse or Slow one champion (glossary, l. 240-242)."""
    s = state.seats[unit]
    if kind == ExtraKind.CONFUSE:
        if s.confused:
            return
        s.confused = True
        options = tuple(a for a in (Action.MAJOR, Action.MINOR) if s.up[a])
        state.log(E.Confused(unit))
        if len(options) == 1:
            s.up[options[0]] = False
            state.log(E.Exhausted(unit, options[0]))
        elif options:
            state.ask(Decision(unit, ConfuseInfo(options=options)))
    else:
        if s.slowed:
            return
        s.slowed = True
        state.log(E.Slowed(unit))
        if s.up[Action.MOVE]:
            s.up[Action.MOVE] = False
            state.log(E.Exhausted(unit, Action.MOVE))


def refresh(state: SodalisState, unit: int, token: Refreshed) -> None:
    s = state.seats[unit]
    action = token.action
    if action is not None:
        if not s.up[action]:
            s.up[action] = True
            state.log(E.Refreshed(unit, action))
        return
    down = tuple(a for a in ACTIONS if not s.up[a])
    if len(down) == 1:
        s.up[down[0]] = True
        state.log(E.Refreshed(unit, down[0]))
    elif down:
        state.ask(Decision(unit, RefreshTokenInfo(options=down)))


def cast_extra(state: SodalisState, index: int, unit: int) -> None:
    """Step 5 for one additional effect on one affected champion."""
    cast = state.cast
    assert cast is not None
    extra = state.face(cast["card"]).extra[index]
    if extra.kind.critical and not cast["critical"]:
        return
    kind = extra.kind.base
    if kind in (ExtraKind.CONFUSE, ExtraKind.SLOW):
        mark(state, unit, kind)
    elif kind in (ExtraKind.PUSH, ExtraKind.PULL):
        caster = cast["seat"]
        origin = state.seats[caster].at
        if unit != caster and origin is not None:
            state.push((Step.FORCED, unit, kind, extra.steps, -1, origin, caster))
    elif kind == ExtraKind.REFRESH:
        assert extra.token is not None  # the card file names a refresh's token
        refresh(state, unit, extra.token)


# -- cycling ----------------------------------------------------------------------------------
def return_to_deck(state: SodalisState, seat: int, card: str) -> None:
    """A card goes face up under the deck; into an empty deck it becomes the visible top."""
    s = state.seats[seat]
    if s.top is None and s.unseen == 0 and not s.bottom:
        s.top = card
    else:
        s.bottom.append(card)


def cycle_out(state: SodalisState, seat: int, card: str, beside: tuple[int, ...] | None) -> None:
    """The cast card leaves the spread: under the deck, or beside the champion card with its
    aura's units if continuous; the spread is then refilled."""
    s = state.seats[seat]
    if s.top == card:
        s.top = None
    else:
        s.side[s.side.index(card)] = None
    if beside is None:
        return_to_deck(state, seat, card)
        state.log(E.Cycled(seat, card))
    else:
        s.continuous.append((card, beside))
        state.log(E.Continuous(seat, card, beside))
    state.push((Step.REFILL, seat))


def refill(state: SodalisState, seat: int) -> None:
    """Task: fill the spread's empty places from the deck top; a new top comes from the unseen
    cards (a Flip) or, when none remain, from the known bottom."""
    s = state.seats[seat]
    while True:
        if None in s.side and s.top is not None:
            s.side[s.side.index(None)] = s.top
            s.top = None
        if s.top is not None:
            return
        if s.unseen > 0:
            state.ask(Flip(f"deck:{seat}", 1))
            state.push((Step.REFILL, seat))
            return
        if not s.bottom:
            return
        s.top = s.bottom.pop(0)
        state.log(E.Top(seat, s.top))


def aura_units(state: SodalisState, seat: int, face: Face, units: list[int]) -> tuple[int, ...]:
    aura = face.aura
    if aura is None or aura.to is AuraTo.CASTER:
        return (seat,)
    if aura.to is AuraTo.FRIENDS:
        return tuple(state.members(state.team_of(seat)))
    return tuple(units)


def cast_cycle(state: SodalisState) -> None:
    cast = state.cast
    assert cast is not None
    seat, card = cast["seat"], cast["card"]
    beside = None
    if state.catalog.arcana_of(card).continuous:
        beside = aura_units(state, seat, state.face(card), cast["units"])
    cycle_out(state, seat, card, beside)


def cast_done(state: SodalisState) -> None:
    state.cast = None


def start_of_turn_cycle(state: SodalisState, seat: int) -> None:
    """Continuous effects go under the deck in the order they were cast (l. 200)."""
    s = state.seats[seat]
    for card, _ in s.continuous:
        return_to_deck(state, seat, card)
        state.log(E.Cycled(seat, card))
    s.continuous = []
    if None in s.side:
        state.push((Step.REFILL, seat))


def flip_into_spread(state: SodalisState, seat: int, cards: tuple[str, ...]) -> None:
    """Flipped cards: all but the last go beside the deck, the last is the new top."""
    s = state.seats[seat]
    s.unseen -= len(cards)
    for card in cards[:-1]:
        if None in s.side:
            s.side[s.side.index(None)] = card
        else:
            s.side.append(card)
    s.top = cards[-1]
    state.log(E.Flipped(seat, cards))


def possibly_unseen(state: SodalisState, seat: int) -> list[str]:
    """The deck's cards not visible anywhere: what its unseen part is made of."""
    s = state.seats[seat]
    seen = set(s.spread()) | set(s.bottom) | {c for c, _ in s.continuous}
    if state.cast is not None and state.cast["seat"] == seat:
        seen.add(state.cast["card"])
    return sorted(c for c in s.cards if c not in seen)


HANDLERS: dict[str, Callable[..., None]] = {
    Step.CAST_ROLL: cast_roll,
    Step.CAST_LIFE: cast_life,
    Step.CAST_RECOIL: cast_recoil,
    Step.CAST_EXTRA: cast_extra,
    Step.CAST_CYCLE: cast_cycle,
    Step.CAST_DONE: cast_done,
    Step.REFILL: refill,
}
