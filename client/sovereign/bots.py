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
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairtable.client.sovereign.tactics import Tactics, simulate, workers
from fairtable.engine.errors import EngineError
from fairtable.engine.requests import Decision, DecisionKind
from fairtable.engine.rng import ChanceStream
from fairtable.engine.sovereign import decide as decide_rules
from fairtable.engine.sovereign import decisions as D
from fairtable.engine.sovereign import effects, flow
from fairtable.engine.sovereign.answers import (
    Accelerate,
    AddHealth,
    Attack,
    BreachPick,
    Findings,
    FinishForge,
    ForgeCard,
    Losses,
    Move,
    Mulligan,
    OptionalEffect,
    OrderTriggers,
    Pass,
    PlayToForge,
    SovereignAnswer,
    UpkeepReturn,
    Work,
)
from fairtable.engine.sovereign.cards import CardDef, standard_catalog
from fairtable.engine.sovereign.choices import random_answer, state_of
from fairtable.engine.sovereign.decisions import SovereignDecisionKind
from fairtable.engine.sovereign.kinds import LEADER, Area, CardType, Mode, Op, Target, Who, Window
from fairtable.engine.sovereign.placement import NOWHERE, in_lane, on_host
from fairtable.engine.sovereign.state import LANE_SIZE, SovereignState
from fairtable.engine.sovereign.view import SovereignView

HP_WORTH = 0.05  # one health token on a surviving attacker
ATTACK_MARGIN = 0.25  # an attack must be worth this many Echoes
MAX_UNITS_IN_FORGE = 2


def _checks(state: SovereignState, d: Decision, answer: Any) -> bool:
    try:
        decide_rules.DECISION_RULES[type(answer)][0](state, d, answer)
    except EngineError:
        return False
    return True


class HeuristicBot(Tactics):
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
    def card_def(self, ref_or_card: str) -> CardDef:
        return self.defs[ref_or_card.split(":", 1)[-1]]

    def _unit_score(self, card: str) -> float:
        """How good a unit is for what it costs (cheap sturdy units first)."""
        d = self.defs[card]
        return (d.attack + 1.5 * d.armor + d.health + 1.0) / (d.cost + 1.0)

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

    # -- the forge phase -------------------------------------------------------------------
    def _spare(self, state: SovereignState, seat: int) -> list[int]:
        """Idle citizens not promised as first health to units forged this phase."""
        b = state.boards[seat]
        spare = list(b.citadel)
        for lane in b.lanes:
            for ref in lane:
                if state.units[ref].new:
                    pd = state.defn(ref)
                    spare[0] -= pd.talents
                    spare[1] -= pd.drones
        return spare

    def _forge(self, view: SovereignView, state: SovereignState, d: Decision) -> Any:
        seat = d.seat
        b = state.boards[seat]
        cards = dict(view.cards)
        spare = self._spare(state, seat)
        slots = [(s, cards[s.handle]) for s in b.forge]

        def ready(s: Any, card: str) -> bool:
            cd = self.defs[card]
            return s.progress >= cd.cost and not (
                cd.type is CardType.ECHO and s.entered == state.turn
            )

        # 1. score every Echo that is ready
        for s, card in slots:
            if self.defs[card].type is CardType.ECHO and ready(s, card):
                return ForgeCard(seat, s.handle, "")
        # 2. reveal other ready cards
        for s, card in slots:
            if ready(s, card):
                place = self._placement(state, seat, card, spare)
                if place is not None:
                    return ForgeCard(seat, s.handle, place)
        # 3. work perpetual facilities (economy, defence)
        work = self._perpetual_work(state, seat, spare)
        if work is not None:
            return work
        # 4. finish an Echo from an earlier turn now (its talent comes straight back)
        for s, card in sorted(slots, key=lambda x: self.defs[x[1]].cost - x[0].progress):
            cd = self.defs[card]
            need = cd.cost - s.progress
            if cd.type is CardType.ECHO and s.entered != state.turn and need > 0:
                act = self._advance(state, seat, s.handle, need, spare)
                if act is not None:
                    return act
        # 5. play cards into the forge
        play = self._play_choice(view, state, seat, spare)
        if play is not None:
            return play
        # 6. finish a unit, facility or augment that completes with what is spare
        for s, card in sorted(slots, key=lambda x: self.defs[x[1]].cost - x[0].progress):
            cd = self.defs[card]
            need = cd.cost - s.progress
            if (
                cd.type is not CardType.ECHO
                and need > 0
                and self._placement(state, seat, card, spare) is not None
            ):
                act = self._advance(state, seat, s.handle, need, spare, keep_for=cd)
                if act is not None:
                    return act
        return Pass(seat)

    def _advance(
        self,
        state: SovereignState,
        seat: int,
        handle: int,
        need: int,
        spare: list[int],
        keep_for: CardDef | None = None,
    ) -> Any:
        """Advance a forge card ``need`` spaces: an accelerating ability first, else
        flipping idle talents."""
        keep_t = keep_for.talents if keep_for is not None and keep_for.type is CardType.UNIT else 0
        b = state.boards[seat]
        for card in [LEADER, *b.facilities]:
            ref = effects.leader_ref(state, seat) if card == LEADER else card
            ab = state.defn(ref).ability
            if (
                ab is None
                or ab.mode is not Mode.TRIGGERED
                or sum(workers(state, seat, card)) > 0
                or not any(e.op is Op.ACCELERATE for e in ab.effects)
                or len(ab.effects) != 1
            ):
                continue
            amount = ab.effects[0].amount
            uses = -(-need // amount)
            if ab.talents * uses <= spare[0] - keep_t and ab.drones * uses <= spare[1]:
                return Work(seat, card, uses, (f"slot:{handle}",))
        if need <= spare[0] - keep_t:
            return Accelerate(seat, handle, need)
        return None

    def _lane_strength(self, state: SovereignState, seat: int, lane: int) -> float:
        total = 0.0
        for ref in state.boards[seat].lanes[lane]:
            atk, arm = effects.stats(state, ref)
            hp = effects.health(state, ref) or state.defn(ref).health
            total += atk + hp * (1 + arm)
        return total

    def _unit_lane(self, state: SovereignState, seat: int) -> int | None:
        b = state.boards[seat]
        room = [ln for ln in (0, 1) if len(b.lanes[ln]) < LANE_SIZE]
        if not room:
            return None
        return min(
            room, key=lambda ln: (len(b.lanes[ln]), self._lane_strength(state, seat, ln), ln)
        )

    def _placement(
        self, state: SovereignState, seat: int, card: str, spare: list[int]
    ) -> str | None:
        """Where a ready card goes when revealed (None: leave it in the forge)."""
        cd = self.defs[card]
        if cd.type is CardType.FACILITY:
            return NOWHERE.word()
        if cd.type is CardType.UNIT:
            lane = self._unit_lane(state, seat)
            healthy = (cd.talents and spare[0] >= 1) or (cd.drones and spare[1] + 1 >= 1)
            return None if lane is None or not healthy else in_lane(lane).word()
        if cd.type is CardType.AUGMENT:
            host = self._host(state, seat, card)
            return None if host is None else on_host(host).word()
        return None

    def _augment_sign(self, card: str) -> float:
        total = 0.0
        for e in self.defs[card].static:
            if e.op is Op.STAT:
                total += e.attack + e.armor * (-1 if e.who is Who.ATTACKERS_VS_YOU else 1)
                if e.who is Who.ATTACKERS_VS_YOU:
                    total += -e.attack + (-e.armor)  # helps its controller
            elif e.op is Op.BREACH_BONUS:
                total += e.amount
        return total + 0.5 * len(self.defs[card].triggers)

    def _host(self, state: SovereignState, seat: int, card: str) -> str | None:
        cd = self.defs[card]
        good = self._augment_sign(card) >= 0
        if cd.attach is CardType.FACILITY:
            pool = [r for r in state.facilities if (state.facilities[r].owner == seat) == good]
            return sorted(pool)[0] if pool else None
        units = [r for b in state.boards for lane in b.lanes for r in lane]
        pool = [r for r in units if (state.units[r].owner == seat) == good]
        if not pool:
            return None
        return max(
            pool,
            key=lambda r: (
                effects.stats(state, r)[0] + effects.stats(state, r)[1] + effects.health(state, r),
                -len(state.units[r].augments),
                r,
            ),
        )

    def _perpetual_work(self, state: SovereignState, seat: int, spare: list[int]) -> Any:
        b = state.boards[seat]
        units = sum(len(ln) for ln in b.lanes)
        for card in [LEADER, *b.facilities]:
            ref = effects.leader_ref(state, seat) if card == LEADER else card
            cd = state.defn(ref)
            ab = cd.ability
            if ab is None or ab.mode is not Mode.PERPETUAL or sum(workers(state, seat, card)) > 0:
                continue
            economy = any(name in ("growth", "upkeep") for name, _ in cd.triggers)
            combat = bool(ab.effects) and units >= 1
            scoring = any(name == "on_score" for name, _ in cd.triggers)
            if not (economy or combat or scoring):
                continue
            keep_t = 0 if economy else 1
            if ab.talents <= spare[0] - keep_t and ab.drones <= spare[1]:
                return Work(seat, card, 1, ())
        return None

    def _play_choice(
        self, view: SovereignView, state: SovereignState, seat: int, spare: list[int]
    ) -> Any:
        if spare[0] < 1:
            return None
        b = state.boards[seat]
        hand = list(view.hand)
        forge_cards = [self.defs[c] for h, c in view.cards if state.slot(seat, h)]
        on_board = sum(len(ln) for ln in b.lanes)
        in_forge = sum(1 for c in forge_cards if c.type is CardType.UNIT)
        units = sorted(
            (x for x in hand if self.defs[x[1]].type is CardType.UNIT),
            key=lambda x: (-self._unit_score(x[1]), x[1]),
        )
        echoes = sorted(
            (x for x in hand if self.defs[x[1]].type is CardType.ECHO),
            key=lambda x: (self.defs[x[1]].cost, x[1]),
        )
        want_unit = (
            units
            and on_board + in_forge < 2 * LANE_SIZE
            and in_forge < (1 if on_board >= 4 else MAX_UNITS_IN_FORGE)
        )
        if want_unit and on_board + in_forge < 2:
            return PlayToForge(seat, units[0][0])
        if echoes:
            return PlayToForge(seat, echoes[0][0])
        if want_unit:
            return PlayToForge(seat, units[0][0])
        facilities = [x for x in hand if self.defs[x[1]].type is CardType.FACILITY]
        if (
            facilities
            and not any(c.type is CardType.FACILITY for c in forge_cards)
            and spare[0] >= 2
        ):
            return PlayToForge(seat, min(facilities, key=lambda x: (self.defs[x[1]].cost, x[1]))[0])
        augments = [
            x
            for x in hand
            if self.defs[x[1]].type is CardType.AUGMENT
            and self.defs[x[1]].attach is CardType.UNIT
            and self._augment_sign(x[1]) > 0
        ]
        if (
            augments
            and on_board
            and not any(c.type is CardType.AUGMENT for c in forge_cards)
            and spare[0] >= 2
        ):
            return PlayToForge(seat, min(augments, key=lambda x: (self.defs[x[1]].cost, x[1]))[0])
        return None

    def _finish_forge(self, view: SovereignView, state: SovereignState, d: Decision) -> FinishForge:
        info = D.FinishForgeInfo.of(d)
        idle = list(state.boards[d.seat].citadel)
        health = []
        new = sorted(info.new_units, key=lambda r: -self.card_def(r).cost)
        for ref in new:
            pd = self.card_def(ref)
            t, dr = min(pd.talents, idle[0]), min(pd.drones, idle[1])
            if t + dr == 0 and pd.talents and idle[0]:
                t = 1
            idle[0] -= t
            idle[1] -= dr
            health.append((ref, t, dr))
        attach = []
        for aug in info.loose:
            host = self._host(state, d.seat, aug.split(":", 1)[1])
            options = set(_hosts(state, aug))
            if host not in options:
                host = sorted(options)[0] if options else ""
            attach.append((aug, host))
        return FinishForge(d.seat, tuple(sorted(health)), (), tuple(attach))

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


def _hosts(state: SovereignState, aug: str) -> list[str]:
    """Legal hosts for a loose augment (the engine's own list)."""
    return flow.host_options(state, aug)


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
