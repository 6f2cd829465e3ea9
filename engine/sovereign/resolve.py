"""One-shot effects as tasks: reflexes played, facilities and Leaders worked, triggers,
and the health tokens units lose.

``("effect", seat, source, which, index, k, target)`` runs effect ``index`` of the list
``which`` (``play``, ``ability``, or a trigger name) of card ``source`` for ``seat``,
``k`` simultaneous uses (amounts are multiplied: one source, one armor check), with
``target``.  Lost tokens go through ``("losses", ((ref, n), ...), mode)``: forced splits
are applied at once, the controller chooses where a unit holds both types and survives;
in mode ``effect`` units brought to 0 are scrapped at once, in mode ``combat`` at the end
of the combat round.  Then ``("hurt", damaged, lost)`` fires the units' ``on_damaged`` and
``on_health_lost`` triggers (FAQ l. 354).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairtable.engine.requests import Decision
from fairtable.engine.sovereign import effects
from fairtable.engine.sovereign import events as E
from fairtable.engine.sovereign.cards import Effect
from fairtable.engine.sovereign.decisions import AddHealthInfo, LossesInfo, OptionalEffectInfo
from fairtable.engine.sovereign.hooks import HOOKS
from fairtable.engine.sovereign.kinds import (
    LEADER,
    EffectGroup,
    HealthSource,
    LossCause,
    Mode,
    Op,
    Spread,
    Step,
)
from fairtable.engine.sovereign.scoring import take_public
from fairtable.engine.sovereign.state import SovereignState
from fairtable.engine.tasks import push_front

Task = tuple[Any, ...]


def effect_tasks(
    seat: int,
    source: str,
    which: EffectGroup,
    effs: tuple[Effect, ...],
    k: int,
    targets: tuple[str, ...],
) -> list[Task]:
    """The tasks of a list of effects, consuming ``targets`` in order."""
    tasks: list[Task] = []
    queue = list(targets)
    for i, eff in enumerate(effs):
        if eff.op is Op.MOVE:
            for _ in range(k):
                tasks.append((Step.EFFECT, seat, source, which, i, 1, queue.pop(0)))
        else:
            tasks.append(
                (Step.EFFECT, seat, source, which, i, k, queue.pop(0) if eff.target else "")
            )
    return tasks


def _effect(
    state: SovereignState,
    seat: int,
    source: str,
    which: EffectGroup,
    index: int,
    k: int,
    target: str,
) -> None:
    eff = effects.effects_of(state.defn(source), which)[index]
    op = eff.op
    if (
        target
        and eff.target
        and eff.op is not Op.MOVE
        and effects.target_problem(state, seat, eff, target)
    ):
        state.log(E.Fizzle(source, target))  # the target left play meanwhile
        return
    match op:
        case Op.DAMAGE:
            hit = [target]
            if eff.spread is Spread.ADJACENT:
                hit += state.lane_neighbours(target)
            losses = []
            for ref in hit:
                armor = effects.stats(state, ref)[1]
                lost = max(0, eff.amount * k - armor)
                state.log(E.Damage(source, ref, eff.amount * k, lost))
                if lost:
                    losses.append((ref, lost))
            hurt = tuple(r for r, _ in losses if effects.health(state, r))
            push_front(
                state, (Step.LOSSES, tuple(losses), LossCause.EFFECT), (Step.HURT, tuple(hit), hurt)
            )
        case Op.LOSE_HEALTH:  # health lost without damage (FAQ l. 354)
            state.log(E.LoseHealth(source, target, eff.amount * k))
            hurt = (target,) if effects.health(state, target) else ()
            taken = ((target, eff.amount * k),)
            push_front(state, (Step.LOSSES, taken, LossCause.EFFECT), (Step.HURT, (), hurt))
        case Op.ADD_HEALTH | Op.RESTORE_HEALTH:
            _gain_health(state, seat, eff, k, target)
        case Op.GAIN:
            effects.from_creche(state, seat, eff.talents * k, eff.drones * k)
            state.log(E.Gain(seat, eff.talents * k, eff.drones * k))
        case Op.FLIP_DRONES:  # on the target seat's Citadel (l. 144), else your own
            owner = int(target[5:]) if target else seat
            c = state.boards[owner].citadel
            n = min(eff.count * k, c[1])
            c[1] -= n
            c[0] += n
            state.log(E.FlipDrones(owner, n))
        case Op.ACCELERATE:
            slot = state.slot(seat, int(target[5:]))
            if slot is not None:
                slot.progress += eff.amount * k
                state.log(E.Accelerate(seat, slot.handle, eff.amount * k))
        case Op.MOVE:
            ref, _, where = target.partition(">")
            if not effects.move_problem(state, seat, ref, where):
                effects.do_move(state, ref, where)
        case Op.DRAW:
            push_front(state, (Step.DEAL, seat, eff.count * k))
        case Op.SACRIFICE:
            effects.scrap_unit(state, target)
        case Op.TEMP_STAT:
            state.temps.append([source, seat, which, index, target, k])
            state.log(E.TempStat(source, target))
        case Op.HOOK if eff.name is not None:  # the card data names a hook for each
            HOOKS[eff.name](state, seat, source, k, target)
        case Op.STAT | Op.BREACH_BONUS:
            pass  # static: read where they apply, never run


def _gain_health(state: SovereignState, seat: int, eff: Effect, k: int, target: str) -> None:
    """Add: either type, above the maximum (l. 285, FAQ l. 338); the user chooses the type
    (``add_health`` decision) whenever its source offers a choice -- the Citadel when it
    holds both types and not all of them are taken, the creche (unlimited) always.
    Restore: the printed types, up to the printed maximum of each (l. 314, FAQ l. 338); the
    unit's controller chooses the types (an ``add_health`` decision with ``op`` =
    ``restore_health``) when fewer tokens come than the unit misses of both printed types
    and the source can give either."""
    want = eff.amount * k
    if eff.op is Op.ADD_HEALTH:
        lo, hi, n = add_range(state, seat, eff.source, want)
        chooser = seat
    else:
        lo, hi, n = restore_range(state, seat, eff.source, want, target)
        chooser = state.units[target].owner
    if lo == hi:
        add_tokens(state, seat, target, lo, n - lo, eff.source, eff.op)
    else:
        state.pending = [
            Decision(
                chooser,
                AddHealthInfo(
                    unit=target, amount=n, talents=(lo, hi), source=eff.source, op=eff.op, by=seat
                ),
            )
        ]


def restore_range(
    state: SovereignState, seat: int, source: HealthSource, want: int, ref: str
) -> tuple[int, int, int]:
    """(fewest talents, most talents, tokens) that restoring ``want`` health to ``ref`` can
    take: each printed type up to what the unit misses of it, from ``seat``'s Citadel only
    what is idle there, from the creche anything (l. 49, l. 314) -- and never above the
    printed total ("up to its original maximum", l. 314; FAQ l. 338), which added tokens
    may already fill."""
    unit, d = state.units[ref], state.defn(ref)
    room = [max(0, d.talents - unit.health[0]), max(0, d.drones - unit.health[1])]
    if source is HealthSource.CITADEL:
        c = state.boards[seat].citadel
        room = [min(room[0], c[0]), min(room[1], c[1])]
    n = min(want, room[0] + room[1], max(0, d.health - sum(unit.health)))
    return max(0, n - room[1]), min(n, room[0]), n


def add_range(
    state: SovereignState, seat: int, source: HealthSource, want: int
) -> tuple[int, int, int]:
    """(fewest talents, most talents, tokens) that adding ``want`` health can take: from the
    Citadel only what is idle there, from the creche anything (l. 49)."""
    if source is not HealthSource.CITADEL:
        return 0, want, want
    t, d = state.boards[seat].citadel
    n = min(want, t + d)
    return max(0, n - d), min(n, t), n


def add_tokens(
    state: SovereignState,
    seat: int,
    ref: str,
    talents: int,
    drones: int,
    source: HealthSource,
    op: Op = Op.ADD_HEALTH,
) -> None:
    """``ref`` adds (or restores, ``op``) ``talents`` + ``drones`` health from ``seat``'s
    Citadel or the creche."""
    unit = state.units[ref]
    if source is HealthSource.CITADEL:
        b = state.boards[seat]
        b.citadel[0] -= talents
        b.citadel[1] -= drones
    else:
        state.creche_out += talents + drones
    unit.health[0] += talents
    unit.health[1] += drones
    logged = E.RestoreHealth if op is Op.RESTORE_HEALTH else E.AddHealth
    state.log(logged(ref, talents, drones))


def _losses(state: SovereignState, pairs: tuple[tuple[str, int], ...], mode: LossCause) -> None:
    ask: dict[int, list[tuple[str, int]]] = {}
    for ref, n in pairs:
        if ref not in state.units or n <= 0:
            continue
        split = effects.loss_split(state, ref, n)
        if split is None:
            ask.setdefault(state.units[ref].owner, []).append((ref, n))
        else:
            effects.remove_tokens(state, ref, *split)
            state.log(E.Lost(ref, split[0], split[1]))
    if mode == LossCause.EFFECT:
        push_front(state, (Step.SWEEP,))
    if ask:
        state.pending = [
            Decision(s, LossesInfo(units=tuple(ask[s])), simultaneous=True) for s in sorted(ask)
        ]
        state.buffered = {}


def _reflex(
    state: SovereignState,
    seat: int,
    handle: int,
    talents: int,
    drones: int,
    targets: tuple[str, ...],
) -> None:
    card = dict(state.revealed)[handle]
    ref = f"{seat}:{card}"
    b = state.boards[seat]
    take_public(state, seat, handle, card)
    b.citadel[0] -= talents
    b.citadel[1] -= drones
    b.reflexes.append([ref, [talents, drones], list(targets)])
    state.log(E.Reflex(ref, targets))
    d = state.catalog.defs[card]
    n_play = len(effects.target_slots(d.play, 1))
    push_front(state, *effect_tasks(seat, ref, EffectGroup.PLAY, d.play, 1, targets[:n_play]))


def work(state: SovereignState, seat: int, card: str, uses: int, targets: tuple[str, ...]) -> None:
    """Move the citizens onto the facility or Leader, then resolve a triggered ability."""
    ref = effects.leader_ref(state, seat) if card == LEADER else card
    d = state.defn(ref)
    ab = d.ability
    assert ab is not None
    b = state.boards[seat]
    t, dr = ab.talents * uses, ab.drones * uses
    b.citadel[0] -= t
    b.citadel[1] -= dr
    workers = b.leader_workers if card == LEADER else state.facilities[ref].workers
    workers[0] += t
    workers[1] += dr
    state.log(E.Work(ref, uses, targets))
    if ab.mode is Mode.TRIGGERED:
        push_front(state, *effect_tasks(seat, ref, EffectGroup.ABILITY, ab.effects, uses, targets))


def _optional(
    state: SovereignState, seat: int, source: str, which: EffectGroup, index: int, k: int
) -> None:
    """A triggered "may" effect: its user is asked to use it (with its targets) or not."""
    state.pending = [
        Decision(seat, OptionalEffectInfo(source=source, which=which, index=index, k=k))
    ]


def optional_effect(state: SovereignState, req: Decision) -> Effect:
    """The effect an ``optional_effect`` decision is about."""
    info = OptionalEffectInfo.of(req)
    effect: Effect = effects.effects_of(state.defn(info.source), info.which)[info.index]
    return effect


def use_optional(state: SovereignState, req: Decision, targets: tuple[str, ...]) -> None:
    info = OptionalEffectInfo.of(req)
    eff = optional_effect(state, req)
    seat, src, which, i, k = (
        req.seat,
        info.source,
        info.which,
        info.index,
        info.k,
    )
    if eff.op is Op.MOVE:
        tasks: list[Task] = [(Step.EFFECT, seat, src, which, i, 1, t) for t in targets]
    else:
        tasks = [(Step.EFFECT, seat, src, which, i, k, targets[0] if targets else "")]
    state.log(E.Optional(seat, src, True, targets))
    push_front(state, *tasks)


HANDLERS: dict[str, Callable[..., None]] = {
    Step.EFFECT: _effect,
    Step.LOSSES: _losses,
    Step.REFLEX: _reflex,
    Step.OPTIONAL: _optional,
}
