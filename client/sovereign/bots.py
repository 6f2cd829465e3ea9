"""Sovereign bots: players that answer decisions from their seat's view only.

A bot sees a :class:`~engine.sovereign.SovereignView` (the public state plus its own hand,
forge and breach sightings) and the decision it is asked; it never touches the game state.
Card definitions come from the static catalog shared by every game.

(The random bot of every game is :class:`client.bots.RandomBot`.)  ``HeuristicBot``
plays the Echo race: it keeps hands with a unit and a few Echoes, forges Echoes every turn
(cheap ones first) and cheap units early, accelerates an Echo or a unit that completes now,
reveals whatever is ready, places units where its two lanes are weakest (the Leader lane
defends the hand, the Citadel lane the forge) with the sturdiest unit in front, works
economy and defence facilities and never takes their workers back, and in battle attacks
the neighbour lane whose simulated combat gives the most expected Echoes for the units it
risks (an empty lane first; the forge when it holds many cards).  In priority windows it
passes unless a reflex or ability clearly helps: a kill, a combat boost for units in a
fight, healing a wounded unit.  Every answer is checked against the engine's rules on a
state rebuilt from the view; if a heuristic answer were refused the bot falls back to the
random answer (``fallbacks`` counts those, tests expect none).

This module owns the bot's entry point, its card knowledge, setup and upkeep, battle and
the move phase; the forge phase is :class:`client.sovereign.forging.Forging`'s and the
priority windows' reflexes and abilities :class:`client.sovereign.tactics.Tactics`'.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairtable.client.sovereign.forging import Forging
from fairtable.client.sovereign.tactics import Tactics, simulate, workers
from fairtable.engine.errors import EngineError
from fairtable.engine.requests import Decision, DecisionKind
from fairtable.engine.rng import ChanceStream
from fairtable.engine.sovereign import decide as decide_rules
from fairtable.engine.sovereign import decisions as D
from fairtable.engine.sovereign import effects
from fairtable.engine.sovereign.answers import (
    AddHealth,
    Attack,
    BreachPick,
    Findings,
    Losses,
    Move,
    Mulligan,
    OptionalEffect,
    OrderTriggers,
    Pass,
    SovereignAnswer,
    UpkeepReturn,
)
from fairtable.engine.sovereign.cards import standard_catalog
from fairtable.engine.sovereign.choices import random_answer, state_of
from fairtable.engine.sovereign.decisions import SovereignDecisionKind
from fairtable.engine.sovereign.kinds import LEADER, Area, CardType, Mode, Op, Target, Window
from fairtable.engine.sovereign.state import SovereignState
from fairtable.engine.sovereign.view import SovereignView

HP_WORTH = 0.05  # one health token on a surviving attacker
ATTACK_MARGIN = 0.25  # an attack must be worth this many Echoes


def _checks(state: SovereignState, d: Decision, answer: Any) -> bool:
    try:
        decide_rules.DECISION_RULES[type(answer)][0](state, d, answer)
    except EngineError:
        return False
    return True


class HeuristicBot(Forging, Tactics):
    """A sensible Sovereign player (see the module docstring)."""

    kind = "heuristic"

    def __init__(self, stream: ChanceStream) -> None:
        self.stream = stream
        self.catalog = standard_catalog()
        self.defs = self.catalog.defs
        self.fallbacks = 0

    # -- entry point ---------------------------------------------------------------------
    def decide(self, view: SovereignView, decision: Decision) -> SovereignAnswer:
        state = state_of(view)
        answer: Any = HANDLERS[decision.kind](self, view, state, decision)
        if answer is not None and _checks(state, decision, answer):
            checked: SovereignAnswer = answer
            return checked
        if decision.kind in (
            SovereignDecisionKind.FORGE,
            SovereignDecisionKind.WINDOW,
            SovereignDecisionKind.MOVE,
        ):
            if answer is not None:
                self.fallbacks += 1
            return Pass(decision.seat)
        self.fallbacks += 1
        drawn: SovereignAnswer = random_answer(view, decision, self.stream)
        return drawn

    # -- card knowledge --------------------------------------------------------------------
    def echo_fraction(self, state: SovereignState, seat: int) -> float:
        """The chance an unknown face-down card of ``seat`` is an Echo."""
        b = state.boards[seat]
        total = len(self.catalog.faction(b.faction).echoes)
        scored = sum(1 for bd in state.boards for r in bd.scored if int(r.split(":", 1)[0]) == seat)
        hidden = b.deck + len(b.hand) + len(b.forge)
        return max(0.0, min(1.0, (total - scored) / hidden)) if hidden else 0.0

    def _slot_echo_chance(
        self, view: SovereignView, state: SovereignState, seat: int, slot: Any, base: float
    ) -> float:
        seen = dict(view.seen)
        if slot.handle in seen:
            return 1.0 if self.defs[seen[slot.handle]].type is CardType.ECHO else 0.0
        if slot.progress >= 6:
            return base * 0.2  # an Echo costs at most 4: it would have been scored
        if slot.progress >= 5:
            return base * 0.5
        return base

    # -- setup and upkeep ------------------------------------------------------------------
    def _mulligan(self, view: SovereignView, state: SovereignState, d: Decision) -> Mulligan:
        info = D.MulliganInfo.of(d)
        cards = [self.defs[c] for _, c in view.hand]
        units = sum(1 for c in cards if c.type is CardType.UNIT)
        cheap = sum(1 for c in cards if c.type is CardType.UNIT and c.cost <= 4)
        echoes = sum(1 for c in cards if c.type is CardType.ECHO)
        if cheap and 1 <= echoes <= 5:
            return Mulligan(d.seat, "keep")
        if not units and info.shown_left > 0:
            return Mulligan(d.seat, "shown")
        if info.free:
            return Mulligan(d.seat, "free")
        return Mulligan(d.seat, "keep")

    def _order_triggers(
        self, view: SovereignView, state: SovereignState, d: Decision
    ) -> OrderTriggers:
        return OrderTriggers(d.seat, tuple(D.OrderTriggersInfo.of(d).sources))

    def _add_health(self, view: SovereignView, state: SovereignState, d: Decision) -> AddHealth:
        """Drones first (adding or restoring): idle talents forge and accelerate, drones only
        work; a restored unit keeps its talents for the fights to come either way."""
        return AddHealth(d.seat, D.AddHealthInfo.of(d).talents[0])

    def _optional_effect(
        self, view: SovereignView, state: SovereignState, d: Decision
    ) -> OptionalEffect:
        """Use a "may" effect on its own side (its own Citadel, its own unit); else not."""
        from fairtable.engine.sovereign.resolve import optional_effect

        eff = optional_effect(state, d)
        if not eff.target:
            return OptionalEffect(d.seat, True)
        mine = f"seat:{d.seat}" if eff.target is Target.SEAT else None
        if eff.op is Op.FLIP_DRONES and state.boards[d.seat].citadel[1] and mine:
            return OptionalEffect(d.seat, True, (mine,))
        return OptionalEffect(d.seat, False)

    def _upkeep_return(
        self, view: SovereignView, state: SovereignState, d: Decision
    ) -> UpkeepReturn:
        out = []
        for card in D.UpkeepReturnInfo.of(d).cards:
            ref = effects.leader_ref(state, d.seat) if card == LEADER else card
            ab = state.defn(ref).ability
            busy = workers(state, d.seat, card)
            if ab is not None and ab.mode is Mode.PERPETUAL:
                # keep level 1 working; take back only what is beyond it
                if busy[0] > ab.talents:
                    out.append((card, "talent"))
                elif busy[1] > ab.drones:
                    out.append((card, "drone"))
                continue
            out.append((card, "talent" if busy[0] else "drone"))
        return UpkeepReturn(d.seat, tuple(out))

    # -- battle ----------------------------------------------------------------------------
    def attack_value(
        self,
        view: SovereignView,
        state: SovereignState,
        seat: int,
        lane: int,
        count: int,
        target: int,
        target_lane: int,
    ) -> float:
        alive, lost, killed, hp = simulate(state, seat, lane, count, target, target_lane)
        score = sum(0.8 * self.unit_worth(r) for r in killed)
        score -= sum(self.unit_worth(r) for r in lost)
        score -= HP_WORTH * sum(effects.health(state, a) - max(0, hp[a]) for a in alive)
        if not alive:
            return score
        defenders_left = len(state.boards[target].lanes[target_lane]) > len(killed)
        attacks = [effects.stats(state, a)[0] for a in alive]
        value = sum(1 for x in attacks if x >= 1) if defenders_left else sum(attacks)
        value += effects.breach_bonus(state, alive, seat)
        if value <= 0:
            return score
        base = self.echo_fraction(state, target)
        tb = state.boards[target]
        if target_lane == 0:
            found = base * min(value, len(tb.hand))
            found += 0.1 if tb.hand else 0.0  # a discard when no Echo is found
        else:
            chances = sorted(
                (self._slot_echo_chance(view, state, target, s, base) for s in tb.forge),
                reverse=True,
            )
            found = sum(chances[:value])
        return score + found

    def _attack(self, view: SovereignView, state: SovereignState, d: Decision) -> Attack:
        seat = d.seat
        best, choice = ATTACK_MARGIN, Attack(seat, None)
        for lane in (0, 1):
            size = len(state.boards[seat].lanes[lane])
            for count in range(1, size + 1):
                for target in D.AttackInfo.of(d).targets:
                    for tl in (0, 1):
                        v = self.attack_value(view, state, seat, lane, count, target, tl)
                        if v > best + 1e-9:
                            best, choice = v, Attack(seat, lane, count, target, tl)
        return choice

    def _losses(self, view: SovereignView, state: SovereignState, d: Decision) -> Losses:
        out = []
        for ref, n in D.LossesInfo.of(d).units:
            have = state.units[ref].health
            out.append((ref, max(0, n - have[1])))  # drones go first
        return Losses(d.seat, tuple(out))

    def _breach_pick(self, view: SovereignView, state: SovereignState, d: Decision) -> BreachPick:
        info = D.BreachPickInfo.of(d)
        victim = state.battle["defender"]
        base = self.echo_fraction(state, victim)
        slots = [state.slot(victim, h) for h in info.slots]
        ranked = sorted(
            (s for s in slots if s is not None),
            key=lambda s: (
                -self._slot_echo_chance(view, state, victim, s, base),
                -s.entered,
                s.handle,
            ),
        )
        return BreachPick(d.seat, tuple(sorted(s.handle for s in ranked[: info.count])))

    def _findings(self, view: SovereignView, state: SovereignState, d: Decision) -> Findings:
        info = D.FindingsInfo.of(d)
        seen = dict(view.seen)
        handles = info.handles
        echoes = tuple(sorted(h for h in handles if self.defs[seen[h]].type is CardType.ECHO))
        if echoes or info.area is Area.FORGE:
            return Findings(d.seat, echoes, None)
        worst = max(handles, key=lambda h: (self._card_worth(seen[h]), h))
        return Findings(d.seat, (), worst)

    def _card_worth(self, card: str) -> float:
        cd = self.defs[card]
        if cd.type is CardType.UNIT:
            return cd.cost + 1.0
        return float(cd.cost)

    # -- move phase ------------------------------------------------------------------------
    def _defence(self, state: SovereignState, ref: str) -> float:
        atk, arm = effects.stats(state, ref)
        return atk + effects.health(state, ref) * (1 + arm)

    def _move(self, view: SovereignView, state: SovereignState, d: Decision) -> Any:
        seat = d.seat
        if D.MoveInfo.of(d).moved or state.moved:
            return self._heal(view, state, seat, "move") or Pass(seat)
        lanes = state.boards[seat].lanes
        for ln in (0, 1):
            if not lanes[ln] and len(lanes[1 - ln]) >= 2:
                back = min(lanes[1 - ln][1:], key=lambda r: (self._defence(state, r), r))
                return Move(seat, back, "other")
        for ln in (0, 1):
            refs = lanes[ln]
            if len(refs) >= 2:
                best = max(refs, key=lambda r: (self._defence(state, r), r))
                i = refs.index(best)
                if i > 0 and self._defence(state, best) > self._defence(state, refs[i - 1]):
                    return Move(seat, best, "up")
        return self._heal(view, state, seat, "move") or Pass(seat)

    # -- priority windows: reflexes and abilities ------------------------------------------
    def _window(self, view: SovereignView, state: SovereignState, d: Decision) -> Any:
        seat = d.seat
        name = D.WindowInfo.of(d).window
        bt = state.battle
        if name is Window.COMBAT and bt:
            act = self._combat_help(view, state, seat)
            if act is not None:
                return act
        if name is Window.BATTLE_BEGIN:
            act = self._kill_action(view, state, seat, None)
            if act is not None:
                return act
        if name in (Window.MOVE_END, Window.BETWEEN_TURNS) and state.active == seat:
            act = self._heal(view, state, seat, "window")
            if act is not None:
                return act
        return Pass(seat)


HANDLERS: dict[
    DecisionKind, Callable[[HeuristicBot, SovereignView, SovereignState, Decision], Any]
] = {
    SovereignDecisionKind.MULLIGAN: HeuristicBot._mulligan,
    SovereignDecisionKind.ORDER_TRIGGERS: HeuristicBot._order_triggers,
    SovereignDecisionKind.UPKEEP_RETURN: HeuristicBot._upkeep_return,
    SovereignDecisionKind.FORGE: HeuristicBot._forge,
    SovereignDecisionKind.WINDOW: HeuristicBot._window,
    SovereignDecisionKind.MOVE: HeuristicBot._move,
    SovereignDecisionKind.ATTACK: HeuristicBot._attack,
    SovereignDecisionKind.FINISH_FORGE: HeuristicBot._finish_forge,
    SovereignDecisionKind.LOSSES: HeuristicBot._losses,
    SovereignDecisionKind.BREACH_PICK: HeuristicBot._breach_pick,
    SovereignDecisionKind.FINDINGS: HeuristicBot._findings,
    SovereignDecisionKind.ADD_HEALTH: HeuristicBot._add_health,
    SovereignDecisionKind.OPTIONAL_EFFECT: HeuristicBot._optional_effect,
}
"""The heuristic bot's answer to each kind of decision."""


BOTS: dict[str, Callable[[ChanceStream], HeuristicBot]] = {
    "heuristic": HeuristicBot,
}
