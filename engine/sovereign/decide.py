"""Seat decisions in Sovereign: checking an answer against the rules, then applying it.

Each ``check_*`` raises a typed error and changes nothing; each ``apply_*`` runs only
after its check passed.  Where a rule depends on a hidden identity (which card goes to
the forge, what a reflex is), the check is made here only on an instance that knows
the card, and on every instance when the card is revealed (:mod:`.requests_in`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairtable.engine.errors import IllegalMove, IllegalReveal, MalformedAnswer
from fairtable.engine.requests import Decision
from fairtable.engine.sovereign import answers as A
from fairtable.engine.sovereign import battle, effects, flow, legal, resolve
from fairtable.engine.sovereign import events as E
from fairtable.engine.sovereign.decisions import (
    AddHealthInfo,
    AttackInfo,
    BreachPickInfo,
    FindingsInfo,
    FinishForgeInfo,
    LossesInfo,
    OptionalEffectInfo,
    OrderTriggersInfo,
    SovereignDecisionKind,
    UpkeepReturnInfo,
    WindowInfo,
)
from fairtable.engine.sovereign.kinds import (
    LEADER,
    Area,
    CardType,
    Citizen,
    Mode,
    MulliganChoice,
    Op,
    RevealLabel,
    Step,
    Window,
)
from fairtable.engine.sovereign.state import LANE_SIZE, MAX_SHOWN_MULLIGANS, SovereignState
from fairtable.engine.tasks import push_front
from fairtable.engine.words import word_of


def _int(v: Any) -> bool:
    return type(v) is int


def _strs(v: Any) -> bool:
    return isinstance(v, tuple) and all(isinstance(x, str) for x in v)


def _ints(v: Any) -> bool:
    return isinstance(v, tuple) and all(type(x) is int for x in v)


def _rows(v: Any, *types: type) -> bool:
    """``v`` is a tuple of tuples whose items are exactly of ``types`` (a bool is no int):
    so a malformed answer is refused as such, never by a ``TypeError`` further on."""
    return isinstance(v, tuple) and all(
        isinstance(row, tuple)
        and len(row) == len(types)
        and all(type(x) is t for x, t in zip(row, types, strict=True))
        for row in v
    )


# -- setup and upkeep -----------------------------------------------------------------------
def check_mulligan(state: SovereignState, req: Decision, a: A.Mulligan) -> None:
    b = state.boards[a.seat]
    choice = word_of(MulliganChoice, a.choice)
    if choice is None:
        raise MalformedAnswer("keep, free or shown", rule="Game Setup")
    if choice is MulliganChoice.FREE and b.mulligans[0]:
        raise IllegalMove("the free mulligan is taken once", rule="Game Setup")
    if choice is MulliganChoice.SHOWN:
        if b.mulligans[1] >= MAX_SHOWN_MULLIGANS:
            raise IllegalMove("at most 5 shown mulligans", rule="Game Setup")
        if state.knows(a.seat):
            cards = [state.secrets[a.seat].cards[h] for h in b.hand]
            if legal.unit_count(state, cards):
                raise IllegalMove("a shown mulligan needs a hand with no units", rule="Game Setup")


def apply_mulligan(state: SovereignState, req: Decision, a: A.Mulligan) -> None:
    state.window["choices"][str(a.seat)] = MulliganChoice(a.choice)


def check_order(state: SovereignState, req: Decision, a: A.OrderTriggers) -> None:
    if not _strs(a.order) or sorted(a.order) != sorted(OrderTriggersInfo.of(req).sources):
        raise IllegalMove("order every triggering card once", rule="Upkeep Phase")


def apply_order(state: SovereignState, req: Decision, a: A.OrderTriggers) -> None:
    when = OrderTriggersInfo.of(req).when
    found = dict(flow.triggers(state, a.seat, when))
    push_front(state, *flow.trigger_tasks(state, a.seat, when, [(r, found[r]) for r in a.order]))


def check_upkeep_return(state: SovereignState, req: Decision, a: A.UpkeepReturn) -> None:
    rule = "Upkeep Phase"
    if not isinstance(a.returns, tuple) or any(
        not isinstance(x, tuple) or len(x) != 2 or not _strs(x) for x in a.returns
    ):
        raise MalformedAnswer("returns are (card, talent|drone) pairs", rule=rule)
    cards = [c for c, _ in a.returns]
    if len(set(cards)) != len(cards):
        raise IllegalMove("one citizen from each facility and the Leader", rule=rule)
    for card, kind in a.returns:
        citizen = word_of(Citizen, kind)
        if card not in UpkeepReturnInfo.of(req).cards or citizen is None:
            raise IllegalMove(f"{card} holds no citizen to take back", rule=rule)
        if _workers(state, a.seat, card)[citizen.place] < 1:
            raise IllegalMove(f"{card} holds no {kind}", rule=rule)


def _workers(state: SovereignState, seat: int, card: str) -> list[int]:
    if card == LEADER:
        return state.boards[seat].leader_workers
    return state.facilities[card].workers


def apply_upkeep_return(state: SovereignState, req: Decision, a: A.UpkeepReturn) -> None:
    b = state.boards[a.seat]
    for card, kind in a.returns:
        i = Citizen(kind).place
        _workers(state, a.seat, card)[i] -= 1
        b.citadel[i] += 1
        state.log(E.UpkeepReturn(a.seat, card, kind))


# -- forge actions --------------------------------------------------------------------------
def _own_hand(state: SovereignState, seat: int, handle: Any, rule: str) -> None:
    if not _int(handle) or handle not in state.boards[seat].hand:
        raise IllegalMove("name a card in your hand", rule=rule)


def check_play_to_forge(state: SovereignState, req: Decision, a: A.PlayToForge) -> None:
    rule = "Forge Phase > Playing into the forge"
    _own_hand(state, a.seat, a.handle, rule)
    if state.boards[a.seat].citadel[0] < 1:
        raise IllegalMove("a card enters the forge with an idle talent", rule=rule)
    if state.knows(a.seat):
        card = state.secrets[a.seat].cards[a.handle]
        if state.catalog.defs[card].type is CardType.REFLEX:
            raise IllegalMove("reflexes never enter the forge", rule=rule)


def apply_play_to_forge(state: SovereignState, req: Decision, a: A.PlayToForge) -> None:
    from fairtable.engine.sovereign.state import Slot

    b = state.boards[a.seat]
    b.citadel[0] -= 1
    b.hand.remove(a.handle)
    b.forge.append(Slot(a.handle, 1, state.turn))
    state.log(E.ToForge(a.seat, a.handle))


def check_accelerate(state: SovereignState, req: Decision, a: A.Accelerate) -> None:
    rule = "Forge Phase > Accelerating Cards in the Forge"
    if not _int(a.handle) or state.slot(a.seat, a.handle) is None:
        raise IllegalMove("accelerate a card in your forge", rule=rule)
    if not _int(a.amount) or not 1 <= a.amount <= state.boards[a.seat].citadel[0]:
        raise IllegalMove("flip 1 or more of your idle talents", rule=rule)


def apply_accelerate(state: SovereignState, req: Decision, a: A.Accelerate) -> None:
    b = state.boards[a.seat]
    b.citadel[0] -= a.amount
    b.citadel[1] += a.amount
    state.slot(a.seat, a.handle).progress += a.amount  # type: ignore[union-attr]
    state.log(E.Accelerate(a.seat, a.handle, a.amount))


def check_forge_card(state: SovereignState, req: Decision, a: A.ForgeCard) -> None:
    if not _int(a.handle) or state.slot(a.seat, a.handle) is None:
        raise IllegalMove("reveal a card in your forge", rule=legal.FORGE_RULE)
    if not isinstance(a.place, str):
        raise MalformedAnswer("place is text", rule=legal.FORGE_RULE)
    if state.knows(a.seat):
        slot = state.slot(a.seat, a.handle)
        card = state.secrets[a.seat].cards[a.handle]
        problem = legal.forge_problem(state, a.seat, slot, card, a.place)  # type: ignore[arg-type]
        if problem:
            raise IllegalMove(problem, rule=legal.FORGE_RULE)


def apply_forge_card(state: SovereignState, req: Decision, a: A.ForgeCard) -> None:
    push_front(
        state,
        (Step.REVEAL, RevealLabel.FORGE, a.seat, (a.handle,)),
        (Step.FORGED, a.seat, a.handle, a.place),
    )


# -- reflexes, abilities, moves (forge, windows, move phase) ------------------------------------
def check_play_reflex(state: SovereignState, req: Decision, a: A.PlayReflex) -> None:
    _own_hand(state, a.seat, a.handle, legal.REFLEX_RULE)
    b = state.boards[a.seat]
    if (
        not _int(a.talents)
        or not _int(a.drones)
        or a.talents < 0
        or a.drones < 0
        or a.talents + a.drones < 1
    ):
        raise MalformedAnswer("pay a number of talents and drones", rule=legal.REFLEX_RULE)
    if a.talents > b.citadel[0] or a.drones > b.citadel[1]:
        raise IllegalMove("pay with idle citizens you have", rule=legal.REFLEX_RULE)
    if not _strs(a.targets):
        raise MalformedAnswer("targets are text", rule=legal.REFLEX_RULE)
    if state.knows(a.seat):
        card = state.secrets[a.seat].cards[a.handle]
        problem = legal.reflex_problem(state, a.seat, card, a.talents, a.drones, a.targets)
        if problem:
            raise IllegalMove(problem, rule=legal.REFLEX_RULE)


def apply_play_reflex(state: SovereignState, req: Decision, a: A.PlayReflex) -> None:
    push_front(
        state,
        (Step.REVEAL, RevealLabel.REFLEX, a.seat, (a.handle,)),
        (Step.REFLEX, a.seat, a.handle, a.talents, a.drones, a.targets),
    )


def check_quick_forge(state: SovereignState, req: Decision, a: A.QuickForge) -> None:
    rule = "FAQ: Salamander Armor"
    source = word_of(Area, a.source)
    if source is None or not isinstance(a.host, str):
        raise MalformedAnswer("source is hand or forge; host is a ref", rule=rule)
    if source is Area.HAND:
        _own_hand(state, a.seat, a.handle, rule)
    elif not _int(a.handle) or state.slot(a.seat, a.handle) is None:
        raise IllegalMove("name a card in your forge", rule=rule)
    if a.host not in state.units and a.host not in state.facilities:
        raise IllegalMove("attach it to a unit or facility in play", rule=rule)
    if state.knows(a.seat):
        card = state.secrets[a.seat].cards[a.handle]
        problem = legal.quick_forge_problem(state, a.seat, a.handle, card, source, a.host)
        if problem:
            raise IllegalMove(problem, rule=rule)


def apply_quick_forge(state: SovereignState, req: Decision, a: A.QuickForge) -> None:
    push_front(
        state,
        (Step.REVEAL, RevealLabel.QUICK_FORGE, a.seat, (a.handle,)),
        (Step.QUICK_FORGED, a.seat, a.handle, Area(a.source), a.host),
    )


def check_work(state: SovereignState, req: Decision, a: A.Work) -> None:
    rule = "Facilities and Your Leader Card"
    b = state.boards[a.seat]
    if not isinstance(a.card, str):
        raise MalformedAnswer("name the Leader or a facility ref", rule=rule)
    if a.card != LEADER and a.card not in b.facilities:
        raise IllegalMove("work your Leader or one of your facilities", rule=rule)
    if not _int(a.uses) or a.uses < 1:
        raise MalformedAnswer("uses is a whole number of at least 1", rule=rule)
    if sum(_workers(state, a.seat, a.card)):
        raise IllegalMove("citizens go only onto an empty card", rule=rule)
    ref = effects.leader_ref(state, a.seat) if a.card == LEADER else a.card
    ab = state.defn(ref).ability
    assert ab is not None
    if ab.talents * a.uses > b.citadel[0] or ab.drones * a.uses > b.citadel[1]:
        raise IllegalMove("not enough idle citizens of the printed types", rule=rule)
    if (
        ab.not_in_combat
        and state.battle.get("spaces") is not None
        and req.kind == SovereignDecisionKind.WINDOW
        and WindowInfo.of(req).window is Window.COMBAT
    ):
        raise IllegalMove("this cannot be used when resolving combat", rule="FAQ: resolving combat")
    if not _strs(a.targets):
        raise MalformedAnswer("targets are text", rule=rule)
    effs = ab.effects if ab.mode is Mode.TRIGGERED else ()
    problem = effects.targets_problem(state, a.seat, effs, a.uses, a.targets)
    if problem:
        raise IllegalMove(problem, rule=rule)


def apply_work(state: SovereignState, req: Decision, a: A.Work) -> None:
    resolve.work(state, a.seat, a.card, a.uses, a.targets)


def check_move(state: SovereignState, req: Decision, a: A.Move) -> None:
    rule = "Move Phase"
    if not isinstance(a.unit, str) or not isinstance(a.where, str) or type(a.airborne) is not bool:
        raise MalformedAnswer("a move names a unit and up, down or other", rule=rule)
    if a.airborne:
        window = WindowInfo.of(req).window if req.kind == SovereignDecisionKind.WINDOW else None
        if window is not Window.BATTLE_BEGIN:
            raise IllegalMove(
                "Airborne units move before an attack is declared", rule="FAQ: Airborne"
            )
        if a.unit not in flow.airborne_units(state, a.seat):
            raise IllegalMove(
                "move an Airborne unit you control, once per battle phase", rule="FAQ: Airborne"
            )
    elif req.kind != SovereignDecisionKind.MOVE:
        raise IllegalMove("the move is made in your move phase", rule=rule)
    elif state.moved:
        raise IllegalMove("one move per move phase", rule=rule)
    problem = effects.move_problem(state, a.seat, a.unit, a.where)
    if problem:
        raise IllegalMove(problem, rule=rule)


def apply_move(state: SovereignState, req: Decision, a: A.Move) -> None:
    effects.do_move(state, a.unit, a.where)
    if a.airborne:
        state.window["airborne"].append(a.unit)
    else:
        state.moved = True


def check_pass(state: SovereignState, req: Decision, a: A.Pass) -> None:
    return None


def apply_pass(state: SovereignState, req: Decision, a: A.Pass) -> None:
    return None


def reask(state: SovereignState, req: Decision, acted: bool) -> None:
    """Queue what follows an answer at an action point, before the answer's own tasks are
    put in front of it: in a window priority passes on to the next seat; in its forge or
    move phase the active seat is asked again until it ends its actions."""
    if req.kind == SovereignDecisionKind.WINDOW:
        flow.window_done(state, acted)
        push_front(state, (Step.WINDOW_STEP,))
    elif req.kind in (SovereignDecisionKind.FORGE, SovereignDecisionKind.MOVE) and acted:
        push_front(state, (req.kind, req.seat))


# -- end of the forge actions ---------------------------------------------------------------
def check_finish_forge(state: SovereignState, req: Decision, a: A.FinishForge) -> None:
    info = FinishForgeInfo.of(req)
    rule = "Forge Phase > Order of Operations"
    new = list(info.new_units)
    b = state.boards[a.seat]
    if not (
        _rows(a.health, str, int, int) and _rows(a.lanes, str, int) and _rows(a.attach, str, str)
    ):
        raise MalformedAnswer(
            "health is (ref, talents, drones), lanes (ref, lane), attach (augment, host) tuples",
            rule=rule,
        )
    health = {r: (t, d) for r, t, d in a.health}
    lanes = list(a.lanes)
    hosts = dict(a.attach)
    if sorted(health) != sorted(new) or len(health) != len(a.health):
        raise IllegalMove("give first health to each unit forged this phase", rule=rule)
    need = [0, 0]
    for ref, (t, d) in health.items():
        pd = state.defn(ref)
        if not _int(t) or not _int(d) or not 0 <= t <= pd.talents or not 0 <= d <= pd.drones:
            raise IllegalMove(
                "first health is of the printed types, up to the maximum", rule="Card Types > Units"
            )
        need[0] += t
        need[1] += d
    if need[0] > b.citadel[0] or need[1] > b.citadel[1]:
        raise IllegalMove("first health comes from your idle citizens", rule="Card Types > Units")
    if lanes:
        if sorted(r for r, _ in lanes) != sorted(new) or any(ln not in (0, 1) for _, ln in lanes):
            raise IllegalMove("arrange every new unit into lane 0 or 1", rule=rule)
        for lane in (0, 1):
            old = [r for r in b.lanes[lane] if r not in new]
            if len(old) + sum(1 for _, ln in lanes if ln == lane) > LANE_SIZE:
                raise IllegalMove("only three units may occupy a lane", rule=rule)
    if sorted(hosts) != sorted(info.loose) or len(hosts) != len(a.attach):
        raise IllegalMove("attach each loose augment", rule=rule)
    for aug, host in hosts.items():
        options = flow.host_options(state, aug)
        if host == "" and options:
            raise IllegalMove("the augment has a host to attach to", rule=rule)
        if host != "" and host not in options:
            raise IllegalMove(f"{aug} cannot attach to {host}", rule="Card Types > Augments")


def apply_finish_forge(state: SovereignState, req: Decision, a: A.FinishForge) -> None:
    b = state.boards[a.seat]
    new = list(FinishForgeInfo.of(req).new_units)
    if a.lanes:
        for lane in (0, 1):
            b.lanes[lane] = [r for r in b.lanes[lane] if r not in new]
        for ref, lane in a.lanes:
            b.lanes[lane].append(ref)
    for ref, t, d in a.health:
        unit = state.units[ref]
        unit.health = [t, d]
        unit.new = False
        b.citadel[0] -= t
        b.citadel[1] -= d
        state.log(E.FirstHealth(ref, t, d))
    b.loose = []
    for aug, host in a.attach:
        if host:
            flow.attach(state, aug, host)
        else:
            effects.scrap_card(state, aug)
            state.log(E.Scrapped(aug))


# -- battle ---------------------------------------------------------------------------------
def check_attack(state: SovereignState, req: Decision, a: A.Attack) -> None:
    rule = "Battle Phase > Choosing Your Attackers"
    if a.lane is None:
        return
    if not all(_int(x) for x in (a.lane, a.count, a.target, a.target_lane)):
        raise MalformedAnswer("an attack names lanes, a count and a seat by number", rule=rule)
    if a.lane not in (0, 1) or a.target_lane not in (0, 1):
        raise MalformedAnswer("lanes are 0 (Leader) and 1 (Citadel)", rule=rule)
    if a.target not in AttackInfo.of(req).targets:
        raise IllegalMove("you can only attack the players to your left and right", rule=rule)
    if not 1 <= a.count <= len(state.boards[a.seat].lanes[a.lane]):
        raise IllegalMove("attack with the front unit and any units right behind it", rule=rule)


def apply_attack(state: SovereignState, req: Decision, a: A.Attack) -> None:
    if a.lane is None:
        state.log(E.NoAttack(a.seat))
        return
    battle.declare(state, a.seat, a.lane, a.count, a.target, a.target_lane)


def check_losses(state: SovereignState, req: Decision, a: A.Losses) -> None:
    rule = "Battle Phase > Resolving Damage"
    units = dict(LossesInfo.of(req).units)
    if not _rows(a.talents, str, int):
        raise MalformedAnswer("talents are (unit, number) pairs", rule=rule)
    chosen = dict(a.talents)
    if sorted(chosen) != sorted(units):
        raise IllegalMove("choose the lost tokens of each of your damaged units", rule=rule)
    for ref, t in chosen.items():
        have = state.units[ref].health
        n = units[ref]
        if not _int(t) or not max(0, n - have[1]) <= t <= min(n, have[0]):
            raise IllegalMove(f"{ref} cannot lose {t} talents of {n} tokens", rule=rule)


def apply_losses(state: SovereignState, req: Decision, a: A.Losses) -> None:
    units = dict(LossesInfo.of(req).units)
    for ref, t in a.talents:
        effects.remove_tokens(state, ref, t, units[ref] - t)
        state.log(E.Lost(ref, t, units[ref] - t))


def check_breach_pick(state: SovereignState, req: Decision, a: A.BreachPick) -> None:
    info = BreachPickInfo.of(req)
    h = a.handles
    if not _ints(h):
        raise MalformedAnswer("name forge cards by their handles", rule="Breaching the Forge")
    if len(h) != info.count or len(set(h)) != len(h) or any(x not in info.slots for x in h):
        raise IllegalMove(
            f"look at {info.count} different cards of the forge", rule="Breaching the Forge"
        )


def apply_breach_pick(state: SovereignState, req: Decision, a: A.BreachPick) -> None:
    battle.picked(state, a.handles)


def check_findings(state: SovereignState, req: Decision, a: A.Findings) -> None:
    info = FindingsInfo.of(req)
    rule = "Breaching"
    seen = info.handles
    if not _ints(a.echoes) or not (a.discard is None or _int(a.discard)):
        raise MalformedAnswer("Echoes and the discard are handles", rule=rule)
    if any(x not in seen for x in a.echoes) or (len(set(a.echoes)) != len(a.echoes)):
        raise IllegalMove("claim only cards you saw", rule=rule)
    hand = info.area is Area.HAND
    if a.echoes and a.discard is not None:
        raise IllegalMove("discard only if you found no Echo", rule=rule)
    if not a.echoes and hand and a.discard not in seen:
        raise IllegalMove(
            "with no Echo found you must discard a card you saw", rule="Breaching the Hand"
        )
    if not hand and a.discard is not None:
        raise IllegalMove("you cannot discard a card from the forge", rule="Breaching the Forge")
    truth = _seen_echoes(state, req)
    if truth is not None and sorted(a.echoes) != truth:
        if state.knows(a.seat):
            raise IllegalMove("score every Echo you saw, and only Echoes", rule=rule)
        raise IllegalReveal("an Echo seen in the breach was not scored", rule=rule, seat=a.seat)


def _seen_echoes(state: SovereignState, req: Decision) -> list[int] | None:
    """The Echoes among the seen cards, if this instance knows them all."""
    out = []
    for h in FindingsInfo.of(req).handles:
        card = state.secrets[req.seat].seen.get(h) if state.knows(req.seat) else state.secret(h)
        if card is None:
            return None
        if state.catalog.defs[card].type is CardType.ECHO:
            out.append(h)
    return sorted(out)


def apply_findings(state: SovereignState, req: Decision, a: A.Findings) -> None:
    shown = tuple(sorted(a.echoes)) + ((a.discard,) if a.discard is not None else ())
    push_front(
        state,
        (Step.REVEAL, RevealLabel.FINDINGS, FindingsInfo.of(req).defender, shown),
        (Step.FOUND, tuple(sorted(a.echoes)), a.discard),
    )


# -- triggered choices ------------------------------------------------------------------------
def _health_rule(req: Decision) -> str:
    return (
        "Glossary: Restore Health"
        if AddHealthInfo.of(req).op is Op.RESTORE_HEALTH
        else "Glossary: Add Health"
    )


def check_add_health(state: SovereignState, req: Decision, a: A.AddHealth) -> None:
    info = AddHealthInfo.of(req)
    lo, hi = info.talents
    verb = "restore" if info.op is Op.RESTORE_HEALTH else "add"
    if not _int(a.talents):
        raise MalformedAnswer("talents is a whole number", rule=_health_rule(req))
    if not lo <= a.talents <= hi:
        raise IllegalMove(
            f"{verb} {lo} to {hi} talents among the {info.amount} tokens",
            rule=_health_rule(req),
        )


def apply_add_health(state: SovereignState, req: Decision, a: A.AddHealth) -> None:
    """The tokens come from the effect's user's Citadel (``from``) or the creche; a restore
    is answered by the unit's controller, who may be another seat."""
    info = AddHealthInfo.of(req)
    resolve.add_tokens(
        state,
        info.by,
        info.unit,
        a.talents,
        info.amount - a.talents,
        info.source,
        info.op,
    )


def check_optional(state: SovereignState, req: Decision, a: A.OptionalEffect) -> None:
    rule = "Triggered Abilities"
    if type(a.use) is not bool or not _strs(a.targets):
        raise MalformedAnswer("use is true or false; targets are text", rule=rule)
    if not a.use:
        if a.targets:
            raise IllegalMove("a declined effect has no targets", rule=rule)
        return
    eff = resolve.optional_effect(state, req)
    problem = effects.targets_problem(
        state, a.seat, (eff,), OptionalEffectInfo.of(req).k, a.targets
    )
    if problem:
        raise IllegalMove(problem, rule=rule)


def apply_optional(state: SovereignState, req: Decision, a: A.OptionalEffect) -> None:
    if a.use:
        resolve.use_optional(state, req, a.targets)
    else:
        state.log(E.Optional(a.seat, OptionalEffectInfo.of(req).source, False, []))


Check = Callable[[SovereignState, Decision, Any], None]
DECISION_RULES: dict[type, tuple[Check, Check]] = {
    A.Mulligan: (check_mulligan, apply_mulligan),
    A.OrderTriggers: (check_order, apply_order),
    A.UpkeepReturn: (check_upkeep_return, apply_upkeep_return),
    A.Pass: (check_pass, apply_pass),
    A.PlayToForge: (check_play_to_forge, apply_play_to_forge),
    A.Accelerate: (check_accelerate, apply_accelerate),
    A.ForgeCard: (check_forge_card, apply_forge_card),
    A.PlayReflex: (check_play_reflex, apply_play_reflex),
    A.Work: (check_work, apply_work),
    A.Move: (check_move, apply_move),
    A.Attack: (check_attack, apply_attack),
    A.FinishForge: (check_finish_forge, apply_finish_forge),
    A.Losses: (check_losses, apply_losses),
    A.BreachPick: (check_breach_pick, apply_breach_pick),
    A.Findings: (check_findings, apply_findings),
    A.QuickForge: (check_quick_forge, apply_quick_forge),
    A.AddHealth: (check_add_health, apply_add_health),
    A.OptionalEffect: (check_optional, apply_optional),
}
