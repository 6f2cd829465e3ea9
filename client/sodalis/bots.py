"""Sodalis bots: players that answer decisions from their seat's view only.

A bot sees a :class:`~engine.sodalis.SodalisView` (the public state, plus its own buffered
simultaneous choice) and the decision it is asked; it never touches the game state.  The
arena and the card catalog are static data shared by every game.

(The random bot of every game is :class:`client.bots.RandomBot`.)  ``HeuristicBot``
plays to win the Trial: the teammate nearest its team's Artifact walks onto it and carries
it to the arena's centre (Speed); the others shoot the Paragon or an opposing Sight holder
with many (or accurate) dice (Sight) and focus damage on enemies they can reach and likely
bring to 0 (Strength); it heals the Bloodied, spends its Strength and Sight tributes where
they add most, and picks champions, reversals and spaces that suit this.  Each turn
decision is one greedy choice: the action (a cast, a step, or ending the turn) whose
immediate value plus what the remaining tokens could still do from where it stands is best.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from fairtable.client.sodalis.odds import expect, hit
from fairtable.engine.requests import Decision, DecisionKind
from fairtable.engine.rng import ChanceStream
from fairtable.engine.sodalis import decisions as D
from fairtable.engine.sodalis.answers import (
    Carry,
    Cast,
    ChooseChampion,
    ConfuseChoice,
    EndTurn,
    ForcedStep,
    GiveTribute,
    OrderLife,
    Place,
    Rearrange,
    RefreshToken,
    Respawn,
    Reversals,
    SodalisAnswer,
    Step,
    StrengthRefresh,
    TurnTokens,
)
from fairtable.engine.sodalis.arena import Space, hex_distance, standard_arena
from fairtable.engine.sodalis.cards import (
    Action,
    AuraStat,
    AuraTo,
    Champion,
    ExtraKind,
    Face,
    FaceEffect,
    PassiveName,
    Range,
    Refreshed,
    Targets,
    Who,
)
from fairtable.engine.sodalis.choices import legal_answers
from fairtable.engine.sodalis.decisions import SodalisDecisionKind
from fairtable.engine.sodalis.team import Team, Tribute
from fairtable.engine.sodalis.view import SodalisView

PARAGON = -1
SIGHT_VALUE = 10.0  # taking (or stealing) the Tribute of Sight
KILL_VALUE = 8.0  # bringing an enemy to 0 while the team lacks Strength
REFRESH_KILL = 2.5  # ... once it holds Strength (an action refreshed)
RUN_STEP = 2.0  # one step nearer to delivering the Artifact
DELIVER = 10.0  # the Artifact reaches the centre
APPROACH = 0.15  # one step nearer to something worth casting at
PICKS = ("archer", "tempest", "damned", "empress", "undying", "beast", "sage", "animist", "lover")


class Board:
    """What a seat's view says about the table, with the rules' arithmetic for estimates."""

    def __init__(self, view: SodalisView) -> None:
        self.view = view
        self.cat = view.catalog
        self.arena = standard_arena()
        self.me = view.seat if view.seat is not None else 0
        self.seats = view.table.seats
        self.teams = [s.team for s in self.seats]  # each seat's
        self.team = self.teams[self.me]
        self.at: dict[int, Space] = {i: s.at for i, s in enumerate(self.seats) if s.at is not None}
        self.at[PARAGON] = view.table.paragon_at
        self.friends = [i for i, t in enumerate(self.teams) if t is self.team]
        self.enemies = [i for i, t in enumerate(self.teams) if t is not self.team]
        self.held = view.table.tributes
        self.artifact: Space | None = view.table.artifacts.get(self.team)
        self.foe_artifact: Space | None = view.table.artifacts.get(self.team.other)

    # -- champions, auras, passives -----------------------------------------------------
    def champion(self, seat: int) -> Champion:
        chosen = self.seats[seat].champion
        if chosen is None:
            raise LookupError(f"seat {seat} has no champion yet")  # asked only once chosen
        return self.cat.by_id[chosen]

    def passive(self, seat: int) -> PassiveName:
        return self.champion(seat).passive

    def life(self, seat: int) -> int:
        return self.seats[seat].life

    def bloodied(self, seat: int) -> bool:
        return seat >= 0 and 2 * self.life(seat) <= self.champion(seat).max_life

    def aura(self, stat: AuraStat, unit: int) -> int:
        faces = [self.cat.face(c) for s in self.seats for c, on in s.continuous if unit in on]
        return sum(f.aura.amount for f in faces if f.aura is not None and f.aura.stat is stat)

    def inertia(self, unit: int, at: dict[int, Space]) -> int:
        base = self.champion(unit).inertia + self.aura(AuraStat.INERTIA, unit)
        for owner in range(len(self.seats)):
            if (
                owner != unit
                and self.teams[owner] is self.teams[unit]
                and self.passive(owner) is PassiveName.ROYAL_GUARD
                and owner in at
                and unit in at
                and hex_distance(at[owner], at[unit]) == 1
            ):
                base += 1
        return max(1, int(base))

    def power(self, caster: int, face: Face, strength: bool, moved: bool, casts: int) -> int:
        if face.effect is FaceEffect.NONE:
            return 0
        damage = face.effect is FaceEffect.DAMAGE
        bonus = {
            PassiveName.KINDRED_GROWTH: casts,
            PassiveName.STEADY_AIM: 2 if damage and not moved else 0,
            PassiveName.SUFFERING: 2 if damage and self.bloodied(caster) else 0,
        }.get(self.passive(caster), 0)
        aura = self.aura(AuraStat.POWER, caster)
        return max(0, face.power + aura + bonus + (2 if strength else 0))

    def allowed(self, caster: int, face: Face, unit: int) -> bool:
        if face.who is Who.ANY:
            return True
        if unit == PARAGON:
            return face.who is Who.ENEMY
        same = self.teams[unit] is self.teams[caster]
        return same if face.who is Who.FRIEND else not same

    def in_range(self, caster: int, face: Face, sight: bool, at: dict[int, Space]) -> list[int]:
        dist = self.arena.dist[at[caster]]
        aura = self.aura(AuraStat.RANGE, caster) + (1 if sight else 0)
        reach = None if face.range is Range.ANYWHERE else max(0, face.reach + aura)
        out = []
        for unit, space in at.items():
            if not self.allowed(caster, face, unit):
                continue
            if reach is not None:
                d = dist.get(space)
                if d is None or (d > reach if face.range is Range.WITHIN else d != reach):
                    continue
            out.append(unit)
        return out

    def targets(self, caster: int, face: Face, at: dict[int, Space]) -> list[int | None]:
        if face.targets is Targets.SELF:
            return [None]
        units = self.in_range(caster, face, False, at)
        if face.targets is Targets.ALL:
            return [None] if units else []
        return list(units)

    def affected(
        self, caster: int, face: Face, target: int | None, sight: bool, at: dict[int, Space]
    ) -> list[int]:
        if face.targets is Targets.SELF:
            units = [caster]
        elif face.targets is Targets.ALL:
            units = self.in_range(caster, face, sight, at)
        else:
            units = [target] if target is not None else []
        passive = self.passive(caster)
        if passive is PassiveName.CHAIN_LIGHTNING and face.effect is FaceEffect.DAMAGE:
            struck = [u for u in units if u >= 0]
            units += [
                s
                for s in at
                if s >= 0
                and s not in units
                and any(hex_distance(at[s], at[u]) == 1 for u in struck)
            ]
        elif (
            passive is PassiveName.SHARED_SOUL
            and face.effect is FaceEffect.HEAL
            and caster not in units
            and any(u != caster for u in units)
        ):
            units.append(caster)
        return units

    def threshold(self, caster: int, face: Face, unit: int, at: dict[int, Space]) -> int:
        """The die value that counts as a success of ``caster``'s ``face`` on ``unit``."""
        pierce = face.piercing + self.aura(AuraStat.PIERCING, caster)
        if (
            self.passive(caster) is PassiveName.BLOOD_SCENT
            and face.effect is FaceEffect.DAMAGE
            and self.bloodied(unit)
        ):
            pierce += 2
        return self.inertia(unit, at) - pierce

    # -- the value of one cast ----------------------------------------------------------
    def cast_value(
        self,
        caster: int,
        card: str,
        target: int | None,
        sight: bool = False,
        strength: bool = False,
        at: dict[int, Space] | None = None,
        moved: bool | None = None,
        left: int = 0,
    ) -> float:
        """Estimated worth of casting ``card`` (``left``: cast tokens still up afterwards)."""
        at = self.at if at is None else at
        s = self.seats[caster]
        face = self.cat.face(card)
        moved = s.moved if moved is None else moved
        units = self.affected(caster, face, target, sight, at)
        dice = self.power(caster, face, strength, moved, s.casts)
        sides = 12 if face.accuracy else 10
        crit = 1 - (1 - (sides - 9) / sides) ** dice if dice else 0.0
        mine = self.team
        value = 0.0
        for u in units:
            if u == PARAGON:
                if self.view.table.paragon_sight:
                    value += crit * SIGHT_VALUE
                continue
            friend = self.teams[u] is mine
            holder = self.held[self.teams[u]][Tribute.SIGHT]
            if not friend and holder == u:
                value += crit * SIGHT_VALUE
            if dice:
                p = hit(sides, self.threshold(caster, face, u, at))
                life, top = self.life(u), self.champion(u).max_life
                if face.effect is FaceEffect.DAMAGE:
                    lost, dies = expect(dice, p, life)
                    gets_strength = self.held[self.other(u)][Tribute.STRENGTH] is None
                    swing = lost + dies * (KILL_VALUE if gets_strength else REFRESH_KILL)
                    value += -1.2 * swing if friend else swing
                else:
                    gained, _ = expect(dice, p, top - life)
                    weight = 1.0 + 2.0 * (1 - life / top) if self.bloodied(u) else 0.4
                    value += gained * weight if friend else -gained
            value += self._extras(caster, face, u, friend, crit)
        value += self._recoils(caster, face)
        if face.aura is not None:
            value += self._aura_value(face, units, left)
        return value

    def other(self, seat: int) -> Team:
        return self.teams[seat].other

    def _extras(self, caster: int, face: Face, u: int, friend: bool, crit: float) -> float:
        s = self.seats[u]
        sign = -1.0 if friend else 1.0
        value = 0.0
        for x in face.extra:
            chance = crit if x.kind.critical else 1.0
            kind = x.kind.base
            if kind == ExtraKind.CONFUSE and not s.confused:
                value += sign * 1.2 * chance
            elif kind == ExtraKind.SLOW and not s.slowed and Action.MOVE in s.up:
                value += sign * 0.6 * chance
            elif kind in (ExtraKind.PUSH, ExtraKind.PULL) and not friend:
                value += 0.2
            elif kind == ExtraKind.REFRESH:
                down: list[str] = [a for a in Action if a not in s.up]
                if u == caster:
                    down.append(face.action)
                if x.token is Refreshed.ANY and down or x.token in down:
                    value += -sign * (2.0 if u == caster else 1.0)
        return value

    def _recoils(self, caster: int, face: Face) -> float:
        value = 0.0
        inertia = self.inertia(caster, self.at)
        for x in face.recoils:
            p = hit(10, inertia)
            if x.effect == FaceEffect.DAMAGE:
                lost, dies = expect(x.power, p, self.life(caster))
                value -= lost + dies * KILL_VALUE
            else:
                gained, _ = expect(x.power, p, self.champion(caster).max_life - self.life(caster))
                value += 0.5 * gained
        return value

    def _aura_value(self, face: Face, units: list[int], left: int) -> float:
        a = face.aura
        assert a is not None
        if a.to is AuraTo.CASTER:
            touched = [self.me]
        elif a.to is AuraTo.FRIENDS:
            touched = list(self.friends)
        else:
            touched = [u for u in units if u >= 0]
        value = 0.0
        for u in touched:
            sign = 1.0 if self.teams[u] is self.team else -1.0
            if a.stat is AuraStat.INERTIA:
                value += sign * 0.7 * a.amount
            elif a.stat is AuraStat.POWER:
                busy = 1.0 if u != self.me else (1.0 if left else 0.2)
                value += sign * a.amount * busy
            elif a.stat is AuraStat.PIERCING:
                value += sign * 0.6 * a.amount * (1.0 if left or u != self.me else 0.2)
            else:
                value += sign * 0.3 * a.amount
        return value

    # -- distances among units -------------------------------------------------------------
    def blocked(self, seat: int) -> set[Space]:
        """Spaces ``seat``'s champion cannot enter: other units, the opposing Artifact."""
        out = {sp for u, sp in self.at.items() if u != seat}
        if self.foe_artifact is not None:
            out.add(self.foe_artifact)
        return out

    def flood(self, start: Space, blocked: set[Space]) -> dict[Space, int]:
        """Walking distances from ``start`` through open spaces (the start itself may be held)."""
        found = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for n in self.arena.neighbours(here):
                if n not in found and n not in blocked:
                    found[n] = found[here] + 1
                    queue.append(n)
        return found


class HeuristicBot:
    """A Sodalis player that goes for the three tributes."""

    kind = "heuristic"

    def __init__(self, stream: ChanceStream) -> None:
        self.stream = stream

    def decide(self, view: SodalisView, decision: Decision) -> SodalisAnswer:
        return HANDLERS[decision.kind](self, view, decision)

    # -- setup ------------------------------------------------------------------------------
    def _turn_tokens(self, view: SodalisView, d: Decision) -> TurnTokens:
        return next(a for a in legal_answers(view, d) if isinstance(a, TurnTokens))

    def _rearrange(self, view: SodalisView, d: Decision) -> Rearrange:
        return Rearrange(d.seat, tuple(D.RearrangeInfo.of(d).tokens))

    def _champion(self, view: SodalisView, d: Decision) -> ChooseChampion:
        available = D.ChampionInfo.of(d).available
        pick = next((c for c in PICKS if c in available), available[0])
        return ChooseChampion(d.seat, pick)

    def _reversals(self, view: SodalisView, d: Decision) -> Reversals:
        flip = []
        for arcana_id in D.ReversalsInfo.of(d).arcana:
            arcana = view.catalog.arcana[arcana_id]
            if arcana.reversal is not None and face_worth(arcana.reversal) > face_worth(
                arcana.front
            ):
                flip.append(arcana_id)
        return Reversals(d.seat, tuple(sorted(flip)))

    def _toward_artifact(self, view: SodalisView, spaces: tuple[Space, ...]) -> Space:
        b = Board(view)
        goal = b.artifact or b.arena.centre
        return min(spaces, key=lambda s: (b.arena.distance(s, goal) or 99, s))

    def _place(self, view: SodalisView, d: Decision) -> Place:
        return Place(d.seat, self._toward_artifact(view, D.PlaceInfo.of(d).spaces))

    def _respawn(self, view: SodalisView, d: Decision) -> Respawn:
        return Respawn(d.seat, self._toward_artifact(view, D.RespawnInfo.of(d).spaces))

    # -- during casts -------------------------------------------------------------------------
    def _confuse(self, view: SodalisView, d: Decision) -> ConfuseChoice:
        options = D.ConfuseInfo.of(d).options
        return ConfuseChoice(d.seat, "minor" if "minor" in options else options[0])

    def _refresh_token(self, view: SodalisView, d: Decision) -> RefreshToken:
        options = D.RefreshTokenInfo.of(d).options
        return RefreshToken(d.seat, next(t for t in ("major", "minor", "move") if t in options))

    def _carry(self, view: SodalisView, d: Decision) -> Carry:
        b = Board(view)
        here, to = b.at[d.acts_for], D.CarryInfo.of(d).to
        centre = b.arena.centre
        nearer = (b.arena.distance(to, centre) or 99) < (b.arena.distance(here, centre) or 99)
        return Carry(d.seat, nearer)

    def _forced_step(self, view: SodalisView, d: Decision) -> ForcedStep:
        info = D.ForcedStepInfo.of(d)
        b = Board(view)
        unit = info.unit
        centre = b.arena.centre
        options = sorted(info.options, key=lambda s: b.arena.distance(s, centre) or 0)
        return ForcedStep(d.seat, options[0 if b.teams[unit] is b.team else -1])

    def _order_life(self, view: SodalisView, d: Decision) -> OrderLife:
        """Opponents first: their falls earn its own team tributes (and may win the game
        before an ally's fall earns theirs), and an opposing Empress gone takes her guard."""
        b = Board(view)
        units = D.OrderLifeInfo.of(d).units
        return OrderLife(
            d.seat, tuple(sorted(units, key=lambda u: (u in b.friends, units.index(u))))
        )

    def _give_tribute(self, view: SodalisView, d: Decision) -> GiveTribute:
        b = Board(view)
        candidates = D.GiveTributeInfo.of(d).candidates
        runner = runner_of(b)
        keep = [c for c in candidates if c != runner] or list(candidates)
        return GiveTribute(d.seat, keep[0])

    def _strength_refresh(self, view: SodalisView, d: Decision) -> StrengthRefresh:
        options = D.StrengthRefreshInfo.of(d).options
        active = view.table.active
        order = {Action.MAJOR: 0, Action.MINOR: 1, Action.MOVE: 2}
        best = sorted(options, key=lambda o: (o[0] != active, order[o[1]], o[0]))
        return StrengthRefresh(d.seat, best[0][0], best[0][1])

    # -- the turn ------------------------------------------------------------------------------
    def _turn(self, view: SodalisView, d: Decision) -> SodalisAnswer:
        return TurnPlan(Board(view), d).choose()


def face_worth(face: Face) -> float:
    """A static score of a face, for choosing reversals."""
    value = face.power * (1.0 if face.effect is FaceEffect.DAMAGE else 0.6)
    value += 1.0 if face.accuracy else 0.0
    value += 0.6 * face.piercing
    value += {"anywhere": 1.5, "within": 0.3 * face.reach, "at": 0.2 * face.reach}[face.range]
    value += 0.8 if face.targets is Targets.ALL and face.who is not Who.ANY else 0.0
    for x in face.extra:
        value += {
            ExtraKind.CONFUSE: 0.8,
            ExtraKind.SLOW: 0.4,
            ExtraKind.REFRESH: 0.8,
            ExtraKind.CRITICAL_CONFUSE: 0.3,
            ExtraKind.CRITICAL_SLOW: 0.2,
            ExtraKind.PUSH: 0.1,
            ExtraKind.PULL: 0.1,
        }.get(x.kind, 0.0)
        if x.kind == ExtraKind.RECOIL:
            value += -0.4 * x.power if x.effect == FaceEffect.DAMAGE else 0.3 * x.power
    if face.aura is not None:
        value += 1.0 if face.aura.stat in (AuraStat.POWER, AuraStat.PIERCING) else 0.6
    return value


def runner_of(b: Board) -> int | None:
    """The teammate that goes for the team's Artifact: the nearest (lowest seat on ties)."""
    if b.artifact is None:
        return None
    best: tuple[int, int] | None = None
    for seat in b.friends:
        if seat not in b.at:
            continue
        d = b.flood(b.artifact, b.blocked(seat)).get(b.at[seat])
        d = d if d is not None else 50 + (b.arena.distance(b.at[seat], b.artifact) or 50)
        if best is None or (d, seat) < best:
            best = (d, seat)
    return None if best is None else best[1]


class TurnPlan:
    """One turn decision: value every cast, step and ending, pick the best."""

    def __init__(self, board: Board, d: Decision) -> None:
        self.b = board
        self.turn = D.TurnInfo.of(d)
        self.me = d.acts_for  # the champion it moves (a teammate's that left, if taken over)
        me = board.seats[self.me]
        self.up: set[str] = set(me.up) | (
            {Tribute.SPEED} if me.tributes.get(Tribute.SPEED) else set()
        )
        self.strength = bool(me.tributes.get(Tribute.STRENGTH))
        self.runner = runner_of(board) == self.me
        self.blocked = board.blocked(self.me)
        self.memo: dict[Any, float] = {}
        if self.runner:
            assert board.artifact is not None
            self.to_art = board.flood(board.artifact, self.blocked - {board.artifact})
            self.to_centre = board.flood(board.arena.centre, self.blocked)
            self.art_left = board.arena.distance(board.artifact, board.arena.centre) or 0
        objectives = [u for u in board.enemies if u in board.at]
        if board.view.table.paragon_sight:
            objectives.append(PARAGON)
        self.near: dict[Space, int] = {}
        for u in objectives:
            for space, dist in board.flood(board.at[u], self.blocked - {board.at[u]}).items():
                self.near[space] = min(self.near.get(space, 99), dist)

    def potential(self, pos: Space, carried: bool) -> float:
        """How good it is to stand at ``pos`` (the Artifact along if ``carried``)."""
        if self.runner:
            if carried:
                if pos == self.b.arena.centre:
                    return DELIVER
                left = self.to_centre.get(pos, 30)
            else:
                left = self.to_art.get(pos, 30) + self.art_left
            return -RUN_STEP * left
        return -APPROACH * max(0, self.near.get(pos, 12) - 2)

    def later(self, pos: Space, up: set[str], moved: bool, skip: str | None = None) -> float:
        """What the tokens in ``up`` could still cast from ``pos`` (one card per token)."""
        key = (pos, frozenset(up & {"major", "minor"}), moved, skip)
        if key not in self.memo:
            self.memo[key] = self._later(pos, up, moved, skip)
        return self.memo[key]

    def _later(self, pos: Space, up: set[str], moved: bool, skip: str | None) -> float:
        b = self.b
        at = dict(b.at)
        at[self.me] = pos
        best = {"major": 0.0, "minor": 0.0}
        left = len({"major", "minor"} & up) - 1
        spread = [c for c in b.seats[self.me].side if c] + [b.seats[self.me].top]
        for card in spread:
            if card is None or card == skip:
                continue
            face = b.cat.face(card)
            if face.action not in up:
                continue
            for target in b.targets(self.me, face, at):
                v = b.cast_value(self.me, card, target, False, self.strength, at, moved, left)
                best[face.action] = max(best[face.action], v)
        return best["major"] + best["minor"]

    def choose(self) -> SodalisAnswer:
        b, turn = self.b, self.turn
        here = b.at[self.me]
        moved = b.seats[self.me].moved
        carrying = turn.carry
        options: list[tuple[float, int, SodalisAnswer]] = []
        stay = self.potential(here, carrying)
        for card, plain, sighted, strength_ok in turn.casts:
            action = b.cat.face(card).action
            rest = self.up - {action}
            tail = self.later(here, rest, moved, skip=card)
            left = len({"major", "minor"} & rest)
            for sight, targets in ((False, plain), (True, sighted)):
                for target in targets:
                    for strength in (False, True) if strength_ok else (False,):
                        v = b.cast_value(self.me, card, target, sight, strength, None, None, left)
                        v -= 0.3 * sight  # keep Sight's range for when it matters
                        options.append(
                            (v + tail + stay, 2, Cast(self.me, card, target, sight, strength))
                        )
        pays = turn.pay
        for to in turn.steps:
            for carry in (True, False) if carrying else (False,):
                where = self.potential(to, carry)
                for pay in pays:
                    cost = {"move": 0.0, "speed": 0.05}.get(pay, 0.1)
                    tail = self.later(to, self.up - {pay}, True)
                    options.append((tail + where - cost, 1, Step(self.me, to, pay, carry)))
        options.append((stay, 0, EndTurn(self.me)))
        best = max(options, key=lambda o: (round(o[0], 6), o[1]))
        return best[2]


HANDLERS: dict[DecisionKind, Callable[[HeuristicBot, SodalisView, Decision], SodalisAnswer]] = {
    SodalisDecisionKind.TURN_TOKENS: HeuristicBot._turn_tokens,
    SodalisDecisionKind.CHAMPION: HeuristicBot._champion,
    SodalisDecisionKind.REARRANGE: HeuristicBot._rearrange,
    SodalisDecisionKind.REVERSALS: HeuristicBot._reversals,
    SodalisDecisionKind.PLACE: HeuristicBot._place,
    SodalisDecisionKind.TURN: HeuristicBot._turn,
    SodalisDecisionKind.CONFUSE: HeuristicBot._confuse,
    SodalisDecisionKind.REFRESH_TOKEN: HeuristicBot._refresh_token,
    SodalisDecisionKind.CARRY: HeuristicBot._carry,
    SodalisDecisionKind.FORCED_STEP: HeuristicBot._forced_step,
    SodalisDecisionKind.RESPAWN: HeuristicBot._respawn,
    SodalisDecisionKind.GIVE_TRIBUTE: HeuristicBot._give_tribute,
    SodalisDecisionKind.STRENGTH_REFRESH: HeuristicBot._strength_refresh,
    SodalisDecisionKind.ORDER_LIFE: HeuristicBot._order_life,
}
"""The heuristic bot's answer to each kind of decision."""


BOTS: dict[str, Callable[[ChanceStream], HeuristicBot]] = {
    "heuristic": HeuristicBot,
}
