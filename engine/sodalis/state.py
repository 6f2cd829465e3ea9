"""The state of a game of Sodalis: the table config, each seat's champion, the board, the
task queue.

Everything here is public except the simultaneous answers buffered until every asked seat
has answered (``buffered``; views show a seat only its own).  No deck order is ever held:
the engine knows each deck's visible top, the known bottom (cards cast, in order) and how
many unseen cards lie between -- the order of the unseen cards stays with whoever shuffled
(the local referee, or the protocol's mental-poker deck).  The digest covers the public
part and where play stands (tasks and pending requests), so instances that know different
seats agree on it.

Progress is a queue of small tasks (tuples of strings, ints and spaces); :mod:`.flow` runs
them until one needs an answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from fairtable.engine.common_state import CommonState
from fairtable.engine.errors import MalformedAnswer
from fairtable.engine.requests import Decision, Request
from fairtable.engine.sodalis import events as E
from fairtable.engine.sodalis import passives
from fairtable.engine.sodalis.arena import Arena, Space, hex_distance
from fairtable.engine.sodalis.cards import Action, AuraStat, Catalog, Champion, Face
from fairtable.engine.sodalis.decisions import SodalisDecisionKind
from fairtable.engine.sodalis.team import TEAMS, TRIBUTES, Team, Tribute
from fairtable.engine.tasks import push_front
from fairtable.engine.words import word_of

PARAGON = passives.PARAGON
ACTIONS = tuple(Action)


PLAYER_COUNTS = (2, 4, 6)
SETUP_RULE = "Setup"


def _read_teams(value: Any) -> Any:
    """The table's teams as members, read once from their words; anything else is kept
    as given for :meth:`SodalisConfig.check` to refuse."""
    if not isinstance(value, tuple):
        return value
    teams = tuple(word_of(Team, t) for t in value)
    return teams if all(t is not None for t in teams) else value


@attrs.frozen
class SodalisConfig:
    """A table: 2, 4 or 6 players, a round limit (0 = none) and the team of each seat
    (default: even seats Dawn, odd seats Dusk), read from its words."""

    players: int
    round_limit: int = 100
    teams: tuple[Team, ...] | None = attrs.field(default=None, converter=_read_teams)

    def check(self) -> None:
        if type(self.players) is not int or self.players not in PLAYER_COUNTS:
            raise MalformedAnswer(
                "Sodalis is for 2, 4 or 6 players (teams divide evenly)", rule="Overview"
            )
        if type(self.round_limit) is not int or self.round_limit < 0:
            raise MalformedAnswer(
                "the round limit is a whole number (0 = none)", rule="End of the game"
            )
        if self.teams is not None:
            if not isinstance(self.teams, tuple) or len(self.teams) != self.players:
                raise MalformedAnswer("name one team per seat", rule=SETUP_RULE)
            if any(not isinstance(t, Team) for t in self.teams):
                raise MalformedAnswer("teams are 'dawn' and 'dusk'", rule=SETUP_RULE)
            if self.teams.count(Team.DAWN) != self.players // 2:
                raise MalformedAnswer("players divide evenly into two teams", rule="Overview")

    def team_of(self, seat: int) -> Team:
        if self.teams is not None:
            return self.teams[seat]
        return TEAMS[seat % 2]


_TEAM_DECISIONS = frozenset({SodalisDecisionKind.TURN_TOKENS, SodalisDecisionKind.REARRANGE})
"""Simultaneous decisions a team's captain takes for the whole team."""


@attrs.define
class Seat:
    """One player and its champion: all public."""

    team: Team
    token: int | None = None
    champion: str | None = None
    cards: tuple[str, ...] = ()  # the deck's nine identities, orientation fixed, sorted
    at: Space | None = None
    life: int = 0
    up: dict[Action, bool] = attrs.Factory(lambda: dict.fromkeys(ACTIONS, True))
    confused: bool = False
    slowed: bool = False
    casts: int = 0  # arcana cast this turn
    moved: bool = False  # took a step of its own this turn
    side: list[str | None] = attrs.Factory(list)  # spread cards beside the deck
    top: str | None = None  # the deck's visible top card (part of the spread)
    unseen: int = 0  # cards under the top whose order nobody knows
    bottom: list[str] = attrs.Factory(list)  # known cards under those, top first
    continuous: list[tuple[str, tuple[int, ...]]] = attrs.Factory(list)  # (card, aura units)
    tributes: dict[Tribute, bool] = attrs.Factory(dict)  # kind -> face up

    def spread(self) -> list[str]:
        cards = [c for c in self.side if c is not None]
        return cards + [self.top] if self.top is not None else cards

    def public(self) -> dict[str, Any]:
        return {
            "team": self.team,
            "token": self.token,
            "champion": self.champion,
            "cards": list(self.cards),
            "at": None if self.at is None else list(self.at),
            "life": self.life,
            "up": [a for a in ACTIONS if self.up[a]],
            "confused": self.confused,
            "slowed": self.slowed,
            "casts": self.casts,
            "moved": self.moved,
            "side": list(self.side),
            "top": self.top,
            "unseen": self.unseen,
            "bottom": list(self.bottom),
            "continuous": [[c, list(u)] for c, u in self.continuous],
            "tributes": {k: v for k, v in sorted(self.tributes.items())},
        }


@attrs.define
class SodalisState(CommonState):
    DIGEST_DOMAIN = "fairtable/sodalis/state/v1"
    SHARED = ("catalog", "arena", "config")

    config: SodalisConfig
    catalog: Catalog
    arena: Arena
    seats: list[Seat]
    round: int = 0
    phase: str = "setup"  # "setup", "play" or "over"
    order: list[int] = attrs.Factory(list)  # seats in turn order (token order)
    active: int | None = None
    paragon_sight: bool = True  # the Paragon still holds the Tribute of Sight
    artifacts: dict[Team, Space | None] = attrs.Factory(dict)  # team -> space (None: delivered)
    cast: dict[str, Any] | None = None  # the cast being resolved
    last_roll: dict[str, Any] | None = None
    winner: Team | None = None
    over: str | None = None  # None, "tribute" or "round_limit"
    # next_handle never changes: Sodalis has no face-down cards
    _teams: dict[Team, list[int]] = attrs.Factory(dict)  # team -> seats (fixed by the config)

    # -- seats and teams -----------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.config.players

    def team_of(self, seat: int) -> Team:
        return self.seats[seat].team

    def members(self, team: Team) -> list[int]:
        if not self._teams:
            for t in TEAMS:
                self._teams[t] = [s for s in range(self.players) if self.seats[s].team == t]
        return self._teams[team]

    def captain(self, team: Team) -> int:
        """Who takes the team's decisions: its first member still playing."""
        members = self.members(team)
        if not self.departed:
            return members[0]
        return next(s for s in members if s not in self.departed)

    @staticmethod
    def other(team: Team) -> Team:
        return team.other

    def turn_rank(self, unit: int) -> int:
        """Sort key for "unit by unit in turn order, the Paragon last"."""
        if unit == PARAGON:
            return 99
        token = self.seats[unit].token
        return token if token is not None else 50 + unit

    def champion_of(self, seat: int) -> Champion:
        cid = self.seats[seat].champion
        assert cid is not None
        return self.catalog.by_id[cid]

    def face(self, card: str) -> Face:
        return self.catalog.face(card)

    def push(self, *tasks: tuple[Any, ...]) -> None:
        """Run these tasks next, in this order."""
        push_front(self, *tasks)

    def ask(self, *requests: Request) -> None:
        self.pending = self.on_behalf(requests) if self.departed else list(requests)

    # -- seats that left (issue 33; engine/sodalis/depart.py) ---------------------------------
    def keeper(self, seat: int) -> int:
        """Who plays the champion of ``seat``: itself, or if it left the first teammate still
        playing, in seat order."""
        if seat not in self.departed:
            return seat
        return next(s for s in self.members(self.team_of(seat)) if s not in self.departed)

    def on_behalf(self, requests: Iterable[Request]) -> list[Request]:
        """``requests`` as the game asks them: a decision of a seat that left goes to its
        keeper (a team's decision to its new captain); a simultaneous one of its own stays
        with it, for the game's stand-in to answer."""
        out: list[Request] = []
        for r in requests:
            if isinstance(r, Decision) and r.acts_for in self.departed:
                if r.kind in _TEAM_DECISIONS:
                    r = Decision(self.keeper(r.seat), r.info, simultaneous=True)
                elif not r.simultaneous:
                    r = Decision(self.keeper(r.acts_for), r.info, behalf=r.acts_for)
            out.append(r)
        return out

    # -- the board ------------------------------------------------------------------------
    def unit_spaces(self) -> dict[Space, int]:
        """Occupied spaces -> the unit there (a seat, or PARAGON)."""
        out = {s.at: i for i, s in enumerate(self.seats) if s.at is not None}
        out[self.arena.paragon] = PARAGON
        return out

    def unit_at(self, unit: int) -> Space | None:
        return self.arena.paragon if unit == PARAGON else self.seats[unit].at

    def closed_for(self, seat: int, space: Space, occupied: dict[Space, int] | None = None) -> bool:
        """Can ``seat``'s champion not enter ``space`` (impassable, off the arena, another
        unit, the opposing Artifact)?"""
        if space not in self.arena.passable:
            return True
        occupied = self.unit_spaces() if occupied is None else occupied
        if occupied.get(space, seat) != seat:
            return True
        return self.artifacts.get(self.other(self.team_of(seat))) == space

    def adjacent(self, a: int, b: int) -> bool:
        sa, sb = self.unit_at(a), self.unit_at(b)
        return sa is not None and sb is not None and hex_distance(sa, sb) == 1

    # -- life, inertia, auras -------------------------------------------------------------
    def max_life(self, seat: int) -> int:
        return self.champion_of(seat).max_life

    def bloodied(self, seat: int) -> bool:
        return seat >= 0 and 2 * self.seats[seat].life <= self.max_life(seat)

    def aura_total(self, stat: AuraStat, unit: int) -> int:
        total = 0
        for seat in self.seats:
            for card, units in seat.continuous:
                aura = self.catalog.face(card).aura
                if aura is not None and aura.stat == stat and unit in units:
                    total += aura.amount
        return total

    def inertia(self, unit: int) -> int:
        """A champion's inertia now: printed, plus auras and passives, at least 1."""
        base = self.champion_of(unit).inertia
        return max(
            1, base + self.aura_total(AuraStat.INERTIA, unit) + passives.inertia_bonus(self, unit)
        )

    def change_life(self, seat: int, delta: int, why: str) -> tuple[int, int]:
        """Change a champion's life, clamped to 0..maximum (l. 116)."""
        unit = self.seats[seat]
        before = unit.life
        unit.life = max(0, min(self.max_life(seat), before + delta))
        self.log(E.Life(seat, before, unit.life, why))
        return before, unit.life

    # -- tributes -------------------------------------------------------------------------
    def holder(self, team: Team, kind: Tribute) -> int | None:
        for seat in self.members(team):
            if kind in self.seats[seat].tributes:
                return seat
        return None

    def team_tributes(self, team: Team) -> list[str]:
        return [k for k in TRIBUTES if self.holder(team, k) is not None]

    def tribute_up(self, seat: int, kind: Tribute) -> bool:
        return self.seats[seat].tributes.get(kind, False)

    # -- the public state, its digest ------------------------------------------------------
    def public(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": "sodalis",
            "players": self.players,
            "round_limit": self.config.round_limit,
            "round": self.round,
            "phase": self.phase,
            "order": list(self.order),
            "active": self.active,
            "seats": [s.public() for s in self.seats],
            "paragon": {"at": list(self.arena.paragon), "sight": self.paragon_sight},
            "artifacts": {t: _space(self.artifacts.get(t)) for t in TEAMS},
            "tributes": {t: {k: self.holder(t, k) for k in TRIBUTES} for t in TEAMS},
            "cast": self.cast,
            "last_roll": self.last_roll,
            "winner": self.winner,
            "over": self.over,
        }
        return self.with_departures(data)


def _space(space: Space | None) -> list[int] | None:
    return None if space is None else list(space)
