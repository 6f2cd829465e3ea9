"""Sovereign bot tactics: a combat simulator and the reflexes and abilities worth using.

``simulate`` plays a declared attack forward with the engine's own stat rules (a
hypothetical ``battle`` on a state rebuilt from the view; reflexes ignored) and the
positional combat rounds of docs/rules/sovereign.md §1.8.  ``Tactics`` (a mixin of
:class:`client.sovereign.bots.HeuristicBot`) chooses, in a priority window, a reflex or a
triggered ability that clearly helps: one that scraps an enemy unit, a boost for its units
in a fight (or a penalty for the enemy's), healing a wounded unit.  Self-harm (sacrifice,
losing health), moves and hooks needing a target are left alone.
"""

from __future__ import annotations

from enum import Enum, auto
from typing import Any, NamedTuple

from fairtable.engine.sovereign import battle as battle_rules
from fairtable.engine.sovereign import effects
from fairtable.engine.sovereign.answers import PlayReflex, Work
from fairtable.engine.sovereign.cards import CardDef, Effect
from fairtable.engine.sovereign.hooks import HookName
from fairtable.engine.sovereign.kinds import LEADER, CardType, Mode, Op, Target, When, Who
from fairtable.engine.sovereign.state import SovereignState
from fairtable.engine.sovereign.view import SovereignView

UNIT_WORTH = 0.2  # a unit in play, per point of forge cost, in Echoes
SELF_HARM = (Op.SACRIFICE, Op.LOSE_HEALTH)
SKIPPED_HOOKS = (HookName.GUST, HookName.MOSAIC_MUTATION)


def workers(state: SovereignState, seat: int, card: str) -> list[int]:
    """Citizens working the seat's Leader (``leader``) or facility ``card``."""
    if card == LEADER:
        return state.boards[seat].leader_workers
    return state.facilities[card].workers


class OptionKind(Enum):
    """How an :class:`Option` is used: a reflex played from hand, or an ability worked."""

    REFLEX = auto()
    WORK = auto()


class Option(NamedTuple):
    """A reflex in hand or a triggered ability the seat can afford now."""

    kind: OptionKind
    key: Any  # hand handle or facility ref / "leader"
    play: tuple[Effect, ...]
    lasting: tuple[Effect, ...]
    talents: int
    drones: int


def simulate(
    state: SovereignState, seat: int, lane: int, count: int, target: int, target_lane: int
) -> tuple[list[str], list[str], list[str], dict[str, int]]:
    """Combat without reflexes: (surviving attackers, their dead, dead defenders, hp)."""
    order = state.boards[seat].lanes[lane][:count]
    spaces = list(state.boards[target].lanes[target_lane])
    saved = state.battle
    state.battle = battle_rules.opened(seat, lane, order, target, target_lane)
    try:
        st = {r: effects.stats(state, r) for r in order + spaces}
    finally:
        state.battle = saved
    hp = {r: effects.health(state, r) for r in order + spaces}
    dealt: set[str] = set()
    for r in range(1, 4 + len(order)):
        hits: dict[str, int] = {}
        for i, a in enumerate(order):
            sp = r - 1 - i
            if hp[a] <= 0 or not 0 <= sp < len(spaces) or hp[spaces[sp]] <= 0:
                continue
            dfd = spaces[sp]
            if a not in dealt:
                dealt.add(a)
                if st[a][0] >= 1:
                    hits[dfd] = hits.get(dfd, 0) + max(0, st[a][0] - st[dfd][1])
            if st[dfd][0] >= 1:
                hits[a] = hits.get(a, 0) + max(0, st[dfd][0] - st[a][1])
        for u, n in hits.items():
            hp[u] -= n
    alive = [a for a in order if hp[a] > 0]
    lost = [a for a in order if hp[a] <= 0]
    killed = [x for x in spaces if hp[x] <= 0]
    return alive, lost, killed, hp


class Tactics:
    """Reflex and ability choices for priority windows (mixed into the heuristic bot)."""

    defs: dict[str, CardDef]

    def unit_worth(self, ref: str) -> float:
        return UNIT_WORTH * max(2, self.defs[ref.split(":", 1)[-1]].cost)

    def _options(self, view: SovereignView, state: SovereignState, seat: int) -> list[Option]:
        """Affordable reflexes and triggered abilities, paid drones first."""
        b = state.boards[seat]
        out: list[Option] = []
        for h, card in view.hand:
            cd = self.defs[card]
            if cd.type is CardType.REFLEX and cd.cost <= sum(b.citadel):
                dr = min(cd.cost, b.citadel[1])
                out.append(Option(OptionKind.REFLEX, h, cd.play, cd.lasting, cd.cost - dr, dr))
        for card in [LEADER, *b.facilities]:
            ref = effects.leader_ref(state, seat) if card == LEADER else card
            ab = state.defn(ref).ability
            if ab is None or ab.mode is not Mode.TRIGGERED or sum(workers(state, seat, card)) > 0:
                continue
            if ab.talents <= b.citadel[0] and ab.drones <= b.citadel[1]:
                out.append(Option(OptionKind.WORK, card, ab.effects, (), ab.talents, ab.drones))
        return out

    def _answer(self, seat: int, option: Option, targets: tuple[str, ...]) -> Any:
        if option.kind is OptionKind.REFLEX:
            return PlayReflex(seat, option.key, option.talents, option.drones, targets)
        return Work(seat, option.key, 1, targets)

    def _usable(self, effs: tuple[Effect, ...]) -> bool:
        return not any(
            e.op in SELF_HARM
            or e.op is Op.MOVE
            or (e.op is Op.HOOK and (e.name in SKIPPED_HOOKS or e.target))
            for e in effs
        )

    def _kills(self, state: SovereignState, eff: Effect, ref: str) -> bool:
        hp = effects.health(state, ref)
        if eff.op is Op.LOSE_HEALTH:
            return eff.amount >= hp
        return eff.amount - effects.stats(state, ref)[1] >= hp

    def _kill_action(
        self, view: SovereignView, state: SovereignState, seat: int, among: list[str] | None
    ) -> Any:
        """A damage effect that scraps an enemy unit (``among``: only those)."""
        enemies = (
            among
            if among is not None
            else [
                r
                for b in state.boards
                for lane in b.lanes
                for r in lane
                if state.units[r].owner != seat
            ]
        )
        for option in self._options(view, state, seat):
            effs = option.play
            slots = effects.target_slots(effs, 1)
            if len(slots) != 1 or not self._usable(effs):
                continue
            eff = slots[0]
            if eff.op not in (Op.DAMAGE, Op.LOSE_HEALTH) or eff.target not in (
                Target.UNIT,
                Target.ENEMY_UNIT,
            ):
                continue
            victims = [r for r in enemies if r in state.units and self._kills(state, eff, r)]
            if victims:
                best = max(victims, key=lambda r: (self.unit_worth(r), r))
                answer = self._answer(seat, option, (best,))
                return answer
        return None

    def _combat_help(self, view: SovereignView, state: SovereignState, seat: int) -> Any:
        bt = state.battle
        facing = battle_rules.pairs(state, bt.get("round", 1))
        mine = [u for p in facing for u in p if state.units[u].owner == seat]
        theirs = [u for p in facing for u in p if state.units[u].owner != seat]
        if not mine:
            return None
        act = self._kill_action(view, state, seat, theirs)
        if act is not None:
            return act
        if bt.get("round") != 1 or bt.get("spaces") is not None:
            return None
        attacking = bt["attacker"] == seat
        front = mine[0]
        for option in self._options(view, state, seat):
            kind, play, lasting = option.kind, option.play, option.lasting
            effs = play + lasting
            if not self._usable(effs) or not effs:
                continue
            targets: list[str] = []
            helps = False
            for eff in play:
                if eff.target:
                    if eff.target in (Target.OWN_UNIT, Target.UNIT) and (
                        eff.attack > 0 or eff.armor > 0
                    ):
                        targets.append(front)
                    elif eff.target in (Target.ENEMY_UNIT, Target.UNIT) and (
                        eff.attack < 0 or eff.armor < 0 or eff.op is Op.DAMAGE
                    ):
                        targets.append(theirs[0])
                    else:
                        targets = []
                        break
                if eff.op in (Op.TEMP_STAT, Op.DAMAGE):
                    helps = helps or self._stat_helps(eff, attacking)
            if len(targets) != len(effects.target_slots(play, 1)):
                continue
            if kind is OptionKind.REFLEX:
                helps = helps or any(self._stat_helps(e, attacking) for e in lasting)
            if helps:
                return self._answer(seat, option, tuple(targets))
        return None

    def _stat_helps(self, eff: Effect, attacking: bool) -> bool:
        if eff.op is Op.DAMAGE:
            return True
        if eff.op not in (Op.TEMP_STAT, Op.STAT):
            return False
        if eff.who in (Who.OWN_UNITS, Who.TARGET, Who.SELF) and eff.target is not Target.ENEMY_UNIT:
            gain = eff.attack + eff.armor
            if eff.when is When.ATTACKING:
                return attacking and gain > 0
            if eff.when is When.DEFENDING:
                return not attacking and gain > 0
            return gain > 0
        if eff.who in (Who.ENEMY_UNITS, Who.TARGET):
            return eff.attack + eff.armor < 0
        if eff.who is Who.ATTACKERS_VS_YOU:
            return not attacking and eff.attack + eff.armor < 0
        return False

    def _heal(self, view: SovereignView, state: SovereignState, seat: int, when: str) -> Any:
        wounded = sorted(
            (
                r
                for lane in state.boards[seat].lanes
                for r in lane
                if 0 < effects.health(state, r) < state.defn(r).health
            ),
            key=lambda r: (-self.unit_worth(r), r),
        )
        if not wounded:
            return None
        for option in self._options(view, state, seat):
            play = option.play
            if not self._usable(play) or option.lasting or not play:
                continue
            if any(e.op not in (Op.ADD_HEALTH, Op.RESTORE_HEALTH, Op.HOOK) for e in play):
                continue
            if any(e.op is Op.HOOK and e.name is not HookName.SECOND_WIND for e in play):
                continue
            slots = effects.target_slots(play, 1)
            if len(slots) > 1:
                continue
            targets = (wounded[0],) if slots else ()
            return self._answer(seat, option, targets)
        return None
