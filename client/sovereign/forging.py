"""The Sovereign heuristic bot's forge phase: what it forges, accelerates, reveals and works.

:class:`Forging` (a mixin of :class:`client.sovereign.bots.HeuristicBot`) answers the forge
decision in a fixed order of priorities: score every ready Echo, reveal other ready cards
where they help (units into the weaker lane while a citizen can give them health, augments
on the sturdiest friendly unit or the weakest enemy one), work economy and defence
facilities, finish an Echo from an earlier turn, play cards into the forge (a unit while
the lanes are thin, cheap Echoes first, then a facility or a helpful augment), and last
finish a unit, facility or augment that completes with what is spare.  It also gives new
units their first health and attaches loose augments when the forge phase ends.  Every
answer is a proposal: :class:`~client.sovereign.bots.HeuristicBot` checks it against the
engine's rules before sending.
"""

from __future__ import annotations

from typing import Any

from fairtable.client.sovereign.tactics import workers
from fairtable.engine.requests import Decision
from fairtable.engine.sovereign import decisions as D
from fairtable.engine.sovereign import effects, flow
from fairtable.engine.sovereign.answers import (
    Accelerate,
    FinishForge,
    ForgeCard,
    Pass,
    PlayToForge,
    Work,
)
from fairtable.engine.sovereign.cards import CardDef
from fairtable.engine.sovereign.kinds import LEADER, CardType, EffectGroup, Mode, Op, Who
from fairtable.engine.sovereign.placement import NOWHERE, in_lane, on_host
from fairtable.engine.sovereign.state import LANE_SIZE, SovereignState
from fairtable.engine.sovereign.view import SovereignView

MAX_UNITS_IN_FORGE = 2
ECONOMY = frozenset({EffectGroup.GROWTH, EffectGroup.UPKEEP})  # triggers that grow citizens


class Forging:
    """The heuristic bot's forge-phase answers (see the module docstring)."""

    defs: dict[str, CardDef]

    def card_def(self, ref_or_card: str) -> CardDef:
        return self.defs[ref_or_card.split(":", 1)[-1]]

    def _unit_score(self, card: str) -> float:
        """How good a unit is for what it costs (cheap sturdy units first)."""
        d = self.defs[card]
        return (d.attack + 1.5 * d.armor + d.health + 1.0) / (d.cost + 1.0)

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
            economy = any(name in ECONOMY for name, _ in cd.triggers)
            combat = bool(ab.effects) and units >= 1
            scoring = any(name is EffectGroup.ON_SCORE for name, _ in cd.triggers)
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


def _hosts(state: SovereignState, aug: str) -> list[str]:
    """Legal hosts for a loose augment (the engine's own list)."""
    return flow.host_options(state, aug)
