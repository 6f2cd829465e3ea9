"""The legal answers to a Sovereign decision, from the deciding seat's view only.

The view's public state (plus the seat's own cards) is rebuilt into a state object so
that the engine's own rule checks decide what is legal: ``legal_answers`` yields every
candidate that passes them (lazily; some spaces are large), ``random_answer`` picks a
plausible legal answer for the random bot and for property tests (it favours forging
and attacking so that games reach their end).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from fairtable.engine.errors import EngineError
from fairtable.engine.requests import Decision, DecisionKind
from fairtable.engine.rng import ChanceStream
from fairtable.engine.sovereign import answers as A
from fairtable.engine.sovereign import decide, effects
from fairtable.engine.sovereign.cards import standard_catalog
from fairtable.engine.sovereign.decisions import (
    AddHealthInfo,
    AttackInfo,
    BreachPickInfo,
    FindingsInfo,
    FinishForgeInfo,
    ForgeInfo,
    LossesInfo,
    MoveInfo,
    MulliganInfo,
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
    Shift,
    Target,
    TurnPhase,
    Window,
)
from fairtable.engine.sovereign.placement import LANE_COUNT, LOOSE, NOWHERE, in_lane, on_host
from fairtable.engine.sovereign.state import (
    Board,
    Facility,
    Secrets,
    Slot,
    SovereignConfig,
    SovereignState,
    Unit,
)
from fairtable.engine.sovereign.view import SovereignView


def state_of(view: SovereignView) -> SovereignState:
    """A state holding exactly what the view shows (no other seat's secret)."""
    p = view.public
    config = SovereignConfig(
        p["players"], echo_target=p["echo_target"], round_limit=p["round_limit"]
    )
    known = frozenset() if view.seat is None else frozenset([view.seat])
    secrets = (
        {view.seat: Secrets(dict(view.cards), dict(view.seen))} if view.seat is not None else {}
    )
    s = SovereignState(config=config, catalog=standard_catalog(), known=known, secrets=secrets)
    for bp in p["boards"]:
        b = Board(faction=bp["faction"], leader=bp["leader"], citadel_card=bp["citadel_card"])
        b.citadel, b.leader_workers = list(bp["citadel"]), list(bp["leader_workers"])
        b.lanes = [list(x) for x in bp["lanes"]]
        b.facilities, b.loose = list(bp["facilities"]), list(bp["loose"])
        b.reflexes = [[r, list(c), list(t)] for r, c, t in bp["reflexes"]]
        b.forge = [Slot(*x) for x in bp["forge"]]
        b.hand, b.deck, b.scored = list(bp["hand"]), bp["deck"], list(bp["scored"])
        b.scrap = list(bp["scrap"])
        b.mulligans = list(bp["mulligans"])
        s.boards.append(b)
    s.units = {
        r: Unit(u["owner"], u["card"], list(u["health"]), list(u["augments"]), u["new"])
        for r, u in p["units"].items()
    }
    s.facilities = {
        r: Facility(f["owner"], f["card"], list(f["workers"]), list(f["augments"]))
        for r, f in p["facilities"].items()
    }
    s.turn, s.active, s.moved = p["turn"], p["active"], p["moved"]
    s.phase = TurnPhase(p["phase"])
    s.window = dict(p["window"])
    s.battle = dict(p["battle"])
    s.temps = [list(t) for t in p["temps"]]
    return s


def first_legal(state: SovereignState, d: Decision) -> Any:
    """The first legal answer to ``d`` in the canonical candidate order, checked against
    ``state`` itself (a seat that left answers so: :func:`engine.sovereign.depart.stand_in`)."""
    for answer in _candidates(state, d):
        if _ok(state, d, answer):
            return answer
    raise AssertionError(f"no legal answer to {d.kind} for seat {d.seat}")


def _ok(state: SovereignState, d: Decision, answer: Any) -> bool:
    try:
        decide.DECISION_RULES[type(answer)][0](state, d, answer)
    except EngineError:
        return False
    return True


def _target_entries(state: SovereignState, seat: int, kind: Target | None) -> list[str]:
    units = [r for b in state.boards for lane in b.lanes for r in lane]
    match kind:
        case Target.OWN_SLOT:
            return [f"slot:{x.handle}" for x in state.boards[seat].forge]
        case Target.SEAT:
            return [f"seat:{n}" for n in range(state.players)]
        case Target.MOVE_OWN:
            return [f"{r}>{w}" for r in units for w in Shift]
        case _:
            return units


def _target_tuples(
    state: SovereignState, seat: int, effs: Any, k: int
) -> Iterator[tuple[Any, ...]]:
    slots = effects.target_slots(effs, k)
    pools = [
        [
            e
            for e in _target_entries(state, seat, eff.target)
            if not effects.target_problem(state, seat, eff, e)
        ]
        for eff in slots
    ]
    if all(pools):
        yield from itertools.product(*pools)


def _reflexes(state: SovereignState, seat: int) -> Iterator[A.PlayReflex]:
    defs = state.catalog.defs
    b = state.boards[seat]
    for h in b.hand:
        d = defs[state.secrets[seat].cards[h]]
        if d.type is not CardType.REFLEX:
            continue
        for t in range(min(d.cost, b.citadel[0]) + 1):
            if d.cost - t > b.citadel[1]:
                continue
            for targets in _target_tuples(state, seat, d.play, 1):
                yield A.PlayReflex(seat, h, t, d.cost - t, targets)


def _quick_forges(state: SovereignState, seat: int) -> Iterator[A.QuickForge]:
    from fairtable.engine.sovereign.flow import host_options

    b = state.boards[seat]
    cards = state.secrets[seat].cards
    for source, handles in ((Area.HAND, list(b.hand)), (Area.FORGE, [x.handle for x in b.forge])):
        for h in handles:
            ref = f"{seat}:{cards[h]}"
            if state.defn(ref).quick_forge:
                for host in host_options(state, ref):
                    yield A.QuickForge(seat, h, source, host)


def _works(state: SovereignState, seat: int) -> Iterator[A.Work]:
    b = state.boards[seat]
    for card in [LEADER, *b.facilities]:
        ref = effects.leader_ref(state, seat) if card == LEADER else card
        ab = state.defn(ref).ability
        if ab is None:
            continue
        caps = [b.citadel[0] // ab.talents] if ab.talents else []
        caps += [b.citadel[1] // ab.drones] if ab.drones else []
        most = min(caps)
        for uses in range(1, most + 1):
            effs = ab.effects if ab.mode is Mode.TRIGGERED else ()
            for targets in _target_tuples(state, seat, effs, uses):
                yield A.Work(seat, card, uses, targets)


def _moves(state: SovereignState, seat: int, airborne: bool) -> Iterator[A.Move]:
    for lane in state.boards[seat].lanes:
        for r in lane:
            for w in Shift:
                yield A.Move(seat, r, w, airborne)


def _action_groups(state: SovereignState, d: Decision) -> dict[str, Iterator[Any]]:
    """Candidate answers at an action point (forge, window, move), by kind, lazily."""
    seat, info = d.seat, d.info
    b = state.boards[seat]
    groups: dict[str, Iterator[Any]] = {"Pass": iter([A.Pass(seat)])}
    if isinstance(info, ForgeInfo):
        groups["PlayToForge"] = (A.PlayToForge(seat, h) for h in b.hand)
        groups["Accelerate"] = (
            A.Accelerate(seat, x.handle, n) for x in b.forge for n in range(1, b.citadel[0] + 1)
        )
        places = (
            NOWHERE.word(),
            *(in_lane(lane).word() for lane in range(LANE_COUNT)),
            LOOSE.word(),
            *(on_host(r).word() for r in sorted(state.units) + sorted(state.facilities)),
        )
        groups["ForgeCard"] = (A.ForgeCard(seat, x.handle, p) for x in b.forge for p in places)
    if isinstance(info, MoveInfo):
        groups["Move"] = _moves(state, seat, False)
    if isinstance(info, WindowInfo) and info.window is Window.BATTLE_BEGIN:
        groups["Move"] = _moves(state, seat, True)
    groups["PlayReflex"] = _reflexes(state, seat)
    groups["QuickForge"] = _quick_forges(state, seat)
    groups["Work"] = _works(state, seat)
    return groups


def _candidates(state: SovereignState, d: Decision) -> Iterator[Any]:
    seat = d.seat
    match d.info:
        case MulliganInfo():
            yield from (A.Mulligan(seat, c) for c in MulliganChoice)
        case OrderTriggersInfo(sources=sources):
            yield from (A.OrderTriggers(seat, p) for p in itertools.permutations(sources))
        case UpkeepReturnInfo(cards=cards):
            for combo in itertools.product((None, *Citizen), repeat=len(cards)):
                yield A.UpkeepReturn(
                    seat, tuple((c, k) for c, k in zip(cards, combo, strict=True) if k)
                )
        case ForgeInfo() | WindowInfo() | MoveInfo():
            for group in _action_groups(state, d).values():
                yield from group
        case AttackInfo(targets=seats):
            yield A.Attack(seat, None)
            for lane, count, target, tl in itertools.product((0, 1), (1, 2, 3), seats, (0, 1)):
                yield A.Attack(seat, lane, count, target, tl)
        case FinishForgeInfo():
            yield from _finishes(state, d)
        case LossesInfo(units=units):
            ranges = [range(n + 1) for _, n in units]
            for split in itertools.product(*ranges):
                yield A.Losses(seat, tuple((r, t) for (r, _), t in zip(units, split, strict=True)))
        case BreachPickInfo(slots=slots, count=count):
            yield from (A.BreachPick(seat, c) for c in itertools.combinations(slots, count))
        case AddHealthInfo(talents=(lo, hi)):
            yield from (A.AddHealth(seat, t) for t in range(lo, hi + 1))
        case OptionalEffectInfo(k=k):
            from fairtable.engine.sovereign.resolve import optional_effect

            yield A.OptionalEffect(seat, False)
            for targets in _target_tuples(state, seat, (optional_effect(state, d),), k):
                yield A.OptionalEffect(seat, True, targets)
        case FindingsInfo(handles=handles, area=area):
            seen = state.secrets[seat].seen
            echoes = tuple(
                sorted(h for h in handles if state.catalog.defs[seen[h]].type is CardType.ECHO)
            )
            if echoes or area is Area.FORGE:
                yield A.Findings(seat, echoes, None)
            else:
                yield from (A.Findings(seat, (), h) for h in handles)


def _finishes(state: SovereignState, d: Decision) -> Iterator[A.FinishForge]:
    info = FinishForgeInfo.of(d)
    seat = d.seat
    new, loose = info.new_units, info.loose
    healths = [
        [
            (r, t, dr)
            for t in range(state.defn(r).talents + 1)
            for dr in range(state.defn(r).drones + 1)
        ]
        for r in new
    ]
    hosts = [flow_hosts(state, a) for a in loose]
    arrangements: list[tuple[tuple[str, int], ...]] = [()]
    for perm in itertools.permutations(new):
        for sides in itertools.product((0, 1), repeat=len(new)):
            arrangements.append(tuple(zip(perm, sides, strict=True)))
    for health in itertools.product(*healths):
        for attach in itertools.product(*hosts):
            for lanes in arrangements:
                yield A.FinishForge(
                    seat, tuple(health), lanes, tuple(zip(loose, attach, strict=True))
                )


def flow_hosts(state: SovereignState, aug: str) -> list[str]:
    from fairtable.engine.sovereign.flow import host_options

    return host_options(state, aug) or [""]


def legal_answers(view: SovereignView, decision: Decision) -> Iterator[Any]:
    state = state_of(view)
    for answer in _candidates(state, decision):
        if _ok(state, decision, answer):
            yield answer


_ACTION_WEIGHTS: dict[DecisionKind, dict[str, int]] = {
    SovereignDecisionKind.FORGE: {
        "ForgeCard": 8,
        "PlayToForge": 6,
        "Accelerate": 2,
        "PlayReflex": 1,
        "Work": 2,
        "Pass": 2,
    },
    SovereignDecisionKind.WINDOW: {"Pass": 12, "PlayReflex": 1, "Work": 1, "Move": 1},
    SovereignDecisionKind.MOVE: {"Move": 2, "Pass": 3, "PlayReflex": 1, "Work": 1},
}
"""How likely the random pick is to try each group of actions, per decision kind."""


def random_answer(view: SovereignView, decision: Decision, rng: ChanceStream) -> Any:
    """A random legal answer, biased towards progress (forging, revealing, attacking)."""
    state = state_of(view)
    seat = decision.seat

    def pick(options: list[Any]) -> Any:
        return options[rng.below(len(options))]

    def legal(cands: Any) -> list[Any]:
        return [a for a in cands if _ok(state, decision, a)]

    match decision.info:
        case MulliganInfo(free=free):
            return A.Mulligan(seat, "free" if free and rng.below(4) == 0 else "keep")
        case FinishForgeInfo(new_units=new_units, loose=loose):
            b = state.boards[seat]
            idle = list(b.citadel)
            health = []
            for r in new_units:
                d = state.defn(r)
                t, dr = min(d.talents, idle[0]), min(d.drones, idle[1])
                idle[0] -= t
                idle[1] -= dr
                health.append((r, t, dr))
            attach = tuple((a, pick(flow_hosts(state, a))) for a in loose)
            return A.FinishForge(seat, tuple(health), (), attach)
        case ForgeInfo() | WindowInfo() | MoveInfo():
            groups = _action_groups(state, decision)
            weights = _ACTION_WEIGHTS[decision.kind]
            names = sorted(groups)
            while names:
                total = sum(weights.get(n, 1) for n in names)
                roll = rng.below(total)
                for n in names:
                    roll -= weights.get(n, 1)
                    if roll < 0:
                        break
                options = legal(itertools.islice(groups[n], 120))
                if options:
                    return pick(options)
                names.remove(n)
            return A.Pass(seat)
        case AttackInfo():
            options = legal(_candidates(state, decision))
            attacks = [a for a in options if a.lane is not None]
            if attacks and rng.below(4):
                return pick(attacks)
            return A.Attack(seat, None)
        case UpkeepReturnInfo(cards=cards):
            chosen = []
            for c in cards:
                w = decide._workers(state, seat, c)
                kinds = [k for k, n in zip(Citizen, w, strict=True) if n]
                if kinds and rng.below(3):
                    chosen.append((c, pick(kinds)))
            return A.UpkeepReturn(seat, tuple(chosen))
        case LossesInfo(units=units):
            out = []
            for r, lost in units:
                have = state.units[r].health
                lo, hi = max(0, lost - have[1]), min(lost, have[0])
                out.append((r, lo + rng.below(hi - lo + 1)))
            return A.Losses(seat, tuple(out))
        case BreachPickInfo(slots=slots, count=count):
            order = rng.permutation(len(slots))[:count]
            return A.BreachPick(seat, tuple(sorted(slots[i] for i in order)))
        case OrderTriggersInfo(sources=src):
            return A.OrderTriggers(seat, tuple(src[i] for i in rng.permutation(len(src))))
    options = legal(_candidates(state, decision))
    return pick(options)
