"""The battle phase: declaration, combat rounds, breach.

``state.battle`` while a battle runs: ``attacker``, ``home_lane``, ``order`` (the
attackers' temporary lane, front to back: swaps among them change it; before round 1's
damage a scrapped attacker leaves it, the lane packs; afterwards its space stays),
``declared`` (the attackers as declared), ``attackers`` (those still alive),
``defender``, ``target_lane``, ``round``, ``dealt`` (attackers that have dealt their
combat damage), ``spaces`` (the defending lane frozen when round 1's damage starts;
``None`` before; a scrapped defender leaves ``None`` in its space), ``seen`` and ``area``
during a breach, ``resolved`` once the combat rounds are over, ``ended`` once the breach
is over (``battle_end``), ``citadel_talents`` (the defender's idle talents when the
breach began) and ``raided`` (how many of them breach effects took, FAQ l. 362).

Combat rounds are positional (docs/rules/sovereign.md §1.8): in round ``r`` attacker
``i`` (0 = front) stands at defending space ``r - 1 - i`` and faces the living unit
there, if any.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairtable.engine.requests import Chance, Decision, Peek
from fairtable.engine.sovereign import effects
from fairtable.engine.sovereign import events as E
from fairtable.engine.sovereign.decisions import AttackInfo, BreachPickInfo, FindingsInfo
from fairtable.engine.sovereign.kinds import Area, ChanceLabel, LossCause, Step, Window
from fairtable.engine.sovereign.scoring import score, take_public
from fairtable.engine.sovereign.state import SovereignState
from fairtable.engine.tasks import push_front


def _declare(state: SovereignState, seat: int) -> None:
    if not any(state.boards[seat].lanes):
        state.log(E.NoAttack(seat))
        return
    state.pending = [Decision(seat, AttackInfo(targets=tuple(state.neighbours(seat))))]


def opened(seat: int, lane: int, order: list[str], target: int, target_lane: int) -> dict[str, Any]:
    """``state.battle`` as an attack is declared: ``seat``'s units ``order`` (the front of its
    ``lane``) attack lane ``target_lane`` of seat ``target``.  A bot's combat forecast puts
    one in place for a moment, so the units' stats read as in that battle."""
    return {
        "attacker": seat,
        "home_lane": lane,
        "order": list(order),
        "declared": list(order),
        "attackers": list(order),
        "defender": target,
        "target_lane": target_lane,
        "round": 0,
        "dealt": [],
        "spaces": None,
        "seen": [],
        "area": "",
    }


def declare(
    state: SovereignState, seat: int, lane: int, count: int, target: int, target_lane: int
) -> None:
    order = state.boards[seat].lanes[lane][:count]
    state.battle = opened(seat, lane, order, target, target_lane)
    state.log(E.Attack(seat, order, target, target_lane))
    push_front(
        state,
        (Step.COMBAT_ROUND, 1),
        (Step.BREACH,),
        (Step.BATTLE_ENDED,),
        (Step.WINDOW, Window.BATTLE_END),
        (Step.BATTLE_CLOSE,),
    )


def _spaces(state: SovereignState) -> list[str | None]:
    bt = state.battle
    if bt["spaces"] is not None:
        return list(bt["spaces"])
    return list(state.boards[bt["defender"]].lanes[bt["target_lane"]])


def pairs(state: SovereignState, r: int) -> list[tuple[str, str]]:
    """(attacker, defender) facing each other in round ``r``."""
    bt = state.battle
    spaces = _spaces(state)
    out = []
    for i, a in enumerate(bt["order"]):
        sp = r - 1 - i
        if a in bt["attackers"] and 0 <= sp < len(spaces):
            d = spaces[sp]
            if d is not None and d in state.units:
                out.append((a, d))
    return out


def _can_continue(state: SovereignState, r: int) -> bool:
    bt = state.battle
    spaces = _spaces(state)
    for i, a in enumerate(bt["order"]):
        if a not in bt["attackers"]:
            continue
        for sp in range(max(0, r - i), len(spaces)):
            if spaces[sp] is not None and spaces[sp] in state.units:
                return True
    return False


def _combat_round(state: SovereignState, r: int) -> None:
    if not state.battle["attackers"]:
        return
    if not pairs(state, r):
        if r <= 3 + len(state.battle["order"]) and _can_continue(state, r):
            push_front(state, (Step.COMBAT_ROUND, r + 1))
        return
    state.battle["round"] = r
    push_front(
        state,
        (Step.WINDOW, Window.COMBAT),
        (Step.DAMAGE, r),
        (Step.ROUND_END, r),
        (Step.COMBAT_ROUND, r + 1),
    )


def _damage(state: SovereignState, r: int) -> None:
    """All unit-to-unit damage of the round at once; Slow checks lethal damage first."""
    bt = state.battle
    if bt["spaces"] is None:
        bt["spaces"] = list(state.boards[bt["defender"]].lanes[bt["target_lane"]])
    facing = pairs(state, r)
    hits: list[tuple[str, str, int]] = []  # source, target, damage
    for a, d in facing:
        if a not in bt["dealt"]:
            hits.append((a, d, effects.stats(state, a)[0]))
            bt["dealt"].append(a)
        hits.append((d, a, effects.stats(state, d)[0]))

    def lost(hs: list[tuple[str, str, int]]) -> dict[str, int]:
        out: dict[str, int] = {}
        for _, tgt, dmg in hs:
            if dmg >= 1:
                out[tgt] = out.get(tgt, 0) + max(0, dmg - effects.stats(state, tgt)[1])
        return out

    first = lost(hits)
    opponent = {a: d for a, d in facing} | {d: a for a, d in facing}
    cancelled = {
        u
        for u in opponent
        if state.defn(u).has("slow") and first.get(u, 0) >= effects.health(state, u)
    }  # checked on the damage as first fixed: two Slow units may both cancel (FAQ l. 356)
    hits = [h for h in hits if h[0] not in cancelled]
    for src, tgt, dmg in hits:
        state.log(E.CombatDamage(src, tgt, dmg))
    losses = lost(hits)
    damaged = tuple(sorted({tgt for _, tgt, dmg in hits if dmg >= 1}))
    hurt = tuple(sorted(u for u, n in losses.items() if n and effects.health(state, u)))
    push_front(
        state,
        (Step.LOSSES, tuple(sorted((u, n) for u, n in losses.items() if n)), LossCause.COMBAT),
        (Step.HURT, damaged, hurt),
    )


def _round_end(state: SovereignState, r: int) -> None:
    for ref in sorted(state.units):
        if sum(state.units[ref].health) == 0 and not state.units[ref].new:
            effects.scrap_unit(state, ref)


def breach_parts(state: SovereignState) -> dict[str, Any] | None:
    """What the breach value of the battle now is made of (None: no attacker is left): the
    surviving attackers and their attack, the defenders still standing, the bonus, and the
    value -- one per attacker with attack 1 or more while a defender stands, else the sum
    of the attacks, plus the bonus (§1.8)."""
    bt = state.battle
    alive = [a for a in bt["order"] if a in bt["attackers"]]
    if not alive:
        return None
    defenders = [d for d in _spaces(state) if d is not None and d in state.units]
    attacks = [effects.stats(state, a)[0] for a in alive]
    bonus = effects.breach_bonus(state, alive, bt["attacker"])
    value = (sum(1 for x in attacks if x >= 1) if defenders else sum(attacks)) + bonus
    return {
        "attackers": alive,
        "attacks": attacks,
        "defenders": defenders,
        "bonus": bonus,
        "value": value,
    }


def _breach(state: SovereignState) -> None:
    bt = state.battle
    bt["resolved"] = True  # combat is over: units are no longer locked (FAQ l. 348)
    parts = breach_parts(state)
    if parts is None or bt["attacker"] in state.departed:  # nobody left to look
        return
    value = parts["value"]
    d = state.boards[bt["defender"]]
    area = Area.HAND if bt["target_lane"] == 0 else Area.FORGE
    bt["area"] = area
    bt["citadel_talents"], bt["raided"] = d.citadel[0], 0  # as the breach began (FAQ l. 362)
    state.log(E.Breach(bt["attacker"], bt["defender"], area, value))
    if value <= 0:
        return
    if area is Area.HAND:
        if d.hand:
            state.pending = [Chance(ChanceLabel.BREACH_HAND, len(d.hand), min(value, len(d.hand)))]
        return
    handles = tuple(s.handle for s in d.forge)
    if value >= len(handles):
        if handles:
            _peek(state, handles)
        return
    state.pending = [Decision(bt["attacker"], BreachPickInfo(count=value, slots=handles))]


def _peek(state: SovereignState, handles: tuple[int, ...]) -> None:
    bt = state.battle
    bt["seen"] = sorted(handles)
    state.pending = [Peek("breach", bt["attacker"], tuple(sorted(handles)))]
    push_front(state, (Step.FINDINGS,))


def picked(state: SovereignState, handles: tuple[int, ...]) -> None:
    _peek(state, handles)


def chance_picked(state: SovereignState, values: tuple[int, ...]) -> None:
    hand = state.boards[state.battle["defender"]].hand
    _peek(state, tuple(hand[v] for v in values))


def _findings(state: SovereignState) -> None:
    bt = state.battle
    state.pending = [
        Decision(
            bt["attacker"],
            FindingsInfo(handles=tuple(bt["seen"]), area=Area(bt["area"]), defender=bt["defender"]),
        )
    ]


def found(state: SovereignState, echoes: tuple[int, ...], discard: int | None) -> None:
    """Echoes seen are scored (then their forge talents return); else a hand card is
    discarded face up."""
    bt = state.battle
    seat, victim = bt["attacker"], bt["defender"]
    d = state.boards[victim]
    cards = dict(state.revealed)
    talents = 0
    for h in echoes:
        if state.slot(victim, h) is not None:
            d.forge = [s for s in d.forge if s.handle != h]
            talents += 1
        take_public(state, victim, h, cards[h])
        score(state, seat, f"{victim}:{cards[h]}")
        if state.over:
            d.citadel[0] += talents  # the talents still go home (the game is over)
            return
    d.citadel[0] += talents
    if discard is not None:
        take_public(state, victim, discard, cards[discard])
        d.scrap.append(cards[discard])
        state.log(E.Discarded(victim, cards[discard]))
    if bt["area"] == Area.HAND:
        push_front(state, (Step.REHANDLE, victim))


def _battle_ended(state: SovereignState) -> None:
    """After the breach the attack is over: survivors are back in their lane in their
    original order (their temporary lane is gone), no unit is silenced and moves follow the
    usual rules again in ``battle_end`` (§1.8)."""
    state.battle["ended"] = True


def _battle_close(state: SovereignState) -> None:
    state.battle = {}
    state.revealed = []


HANDLERS: dict[str, Callable[..., Any]] = {
    Step.DECLARE: _declare,
    Step.COMBAT_ROUND: _combat_round,
    Step.DAMAGE: _damage,
    Step.ROUND_END: _round_end,
    Step.BREACH: _breach,
    Step.FINDINGS: _findings,
    Step.BATTLE_CLOSE: _battle_close,
    Step.BATTLE_ENDED: _battle_ended,
    Step.FOUND: found,
}
