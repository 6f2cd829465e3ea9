"""Per-seat views of a Sovereign game: the public state plus that seat's own secrets.

A seat sees its own hand and forge identities (handle -> card) and the identities it
saw in breaches that are still valid (forge cards until they leave the forge, hand cards
until the hand is re-handled).  A spectator (seat ``None``) sees the public state only.
Nothing in a view comes from another seat's secrets.  Beside the public state a view
carries :class:`SovereignPlay`, where play stands (the task queue, the pending requests,
each seat's cards whose place is not public): public too (the digest covers it), needed to
play on from a sampled world (:mod:`engine.sovereign.world`), not shown on any screen.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, NamedTuple

import attrs

from fairtable.engine.public_table import PublicTable, record_of
from fairtable.engine.requests import Decision, Request
from fairtable.engine.sovereign.kinds import Area, MulliganChoice, TurnPhase, Window
from fairtable.engine.sovereign.state import SovereignState


class SovereignPlay(NamedTuple):
    """Where play stands, beyond :meth:`SovereignState.public`: all of it public (the digest
    covers each field but ``decisions`` and ``serial``, counters of the answers applied)."""

    tasks: tuple[tuple[Any, ...], ...]
    pending: tuple[Request, ...]
    next_handle: int
    hidden: tuple[tuple[str, ...], ...]  # per seat, sorted: its hand, forge and deck cards
    decisions: int
    serial: int


Pair = tuple[int, int]
"""Talents and drones (a health, a citadel's or a Leader's workers)."""


def _pair(value: Any) -> Pair:
    return (value[0], value[1])


@attrs.frozen(kw_only=True, eq=False)
class BoardTable:
    """One seat's side of Sovereign's public state, by field."""

    faction: str
    leader: str
    citadel_card: str
    citadel: Pair  # citizens idle in the citadel
    leader_workers: Pair
    lanes: tuple[tuple[str, ...], tuple[str, ...]]  # the Leader's lane, the Citadel's: unit refs
    facilities: tuple[str, ...]  # refs
    loose: tuple[str, ...]  # augments forged this phase, not yet attached
    reflexes: tuple[tuple[str, Pair, tuple[str, ...]], ...]  # (ref, workers, targets)
    forge: tuple[tuple[int, int, int], ...]  # (handle, progress, the turn it entered)
    hand: tuple[int, ...]  # handles
    deck: int  # cards left to draw
    scrap: tuple[str, ...]  # card ids, in order
    scored: tuple[str, ...]  # refs of the Echoes scored
    mulligans: Pair  # free used, shown used

    @classmethod
    def of(cls, board: Mapping[str, Any]) -> BoardTable:
        """The record of one board of a Sovereign public state."""
        return record_of(
            cls,
            board,
            citadel=_pair,
            leader_workers=_pair,
            lanes=lambda lanes: (tuple(lanes[0]), tuple(lanes[1])),
            facilities=tuple,
            loose=tuple,
            reflexes=lambda held: tuple((r, _pair(w), tuple(t)) for r, w, t in held),
            forge=lambda forge: tuple((h, p, e) for h, p, e in forge),
            hand=tuple,
            scrap=tuple,
            scored=tuple,
            mulligans=_pair,
        )


@attrs.frozen(kw_only=True, eq=False)
class UnitTable:
    """A unit in play, by field."""

    card: str
    owner: int
    health: Pair
    augments: tuple[str, ...]  # refs
    new: bool  # forged this forge phase (health not yet placed)

    @classmethod
    def of(cls, unit: Mapping[str, Any]) -> UnitTable:
        return record_of(cls, unit, health=_pair, augments=tuple)


@attrs.frozen(kw_only=True, eq=False)
class FacilityTable:
    """A facility in play, by field."""

    card: str
    owner: int
    workers: Pair
    augments: tuple[str, ...]  # refs

    @classmethod
    def of(cls, facility: Mapping[str, Any]) -> FacilityTable:
        return record_of(cls, facility, workers=_pair, augments=tuple)


@attrs.frozen(kw_only=True, eq=False)
class WindowTable:
    """The window of play open (``name`` None: none): a priority window passes round
    ``order`` (``i``: whose say it is); the mulligans wait on ``seats``."""

    name: Window | None
    order: tuple[int, ...] | None  # a priority window's seats, in order
    i: int  # the seat of ``order`` whose say it is
    passes: int
    airborne: tuple[str, ...]  # units that made their free Airborne move
    trigger: str | None  # the group of effects that triggered it
    seats: tuple[int, ...]  # the mulligans: the seats still choosing
    choices: Mapping[int, MulliganChoice]  # the mulligans: what each seat chose

    @classmethod
    def of(cls, window: Mapping[str, Any]) -> WindowTable:
        name, order = window.get("name"), window.get("order")
        return cls(
            name=None if name is None else Window(name),
            order=None if order is None else tuple(order),
            i=window.get("i", 0),
            passes=window.get("passes", 0),
            airborne=tuple(window.get("airborne", ())),
            trigger=window.get("trigger"),
            seats=tuple(window.get("seats", ())),
            choices={int(s): MulliganChoice(c) for s, c in window.get("choices", {}).items()},
        )


@attrs.frozen(kw_only=True, eq=False)
class BattleTable:
    """The battle under way: ``attacker``'s units ``order`` (from its ``home_lane``) attack
    ``defender``'s ``target_lane``; after combat, a breach of its ``area``."""

    attacker: int
    home_lane: int
    order: tuple[str, ...]  # the attackers' temporary lane
    declared: tuple[str, ...]
    attackers: tuple[str, ...]  # those still standing
    defender: int
    target_lane: int
    round: int  # the combat round
    dealt: tuple[str, ...]
    spaces: tuple[str, ...] | None  # the defending lane as combat began
    seen: tuple[int, ...]  # the handles the attacker looked at in a breach
    area: Area | None  # the area breached (None: no breach yet)
    resolved: bool  # combat is over
    ended: bool
    citadel_talents: int | None  # the defender's, as the breach began
    raided: int

    @classmethod
    def of(cls, battle: Mapping[str, Any]) -> BattleTable:
        spaces, area = battle["spaces"], battle["area"]
        return cls(
            attacker=battle["attacker"],
            home_lane=battle["home_lane"],
            order=tuple(battle["order"]),
            declared=tuple(battle["declared"]),
            attackers=tuple(battle["attackers"]),
            defender=battle["defender"],
            target_lane=battle["target_lane"],
            round=battle["round"],
            dealt=tuple(battle["dealt"]),
            spaces=None if spaces is None else tuple(spaces),
            seen=tuple(battle["seen"]),
            area=Area(area) if area else None,
            resolved=battle.get("resolved", False),
            ended=battle.get("ended", False),
            citadel_talents=battle.get("citadel_talents"),
            raided=battle.get("raided", 0),
        )


@attrs.frozen(kw_only=True, eq=False)
class SovereignTable(PublicTable):
    """Sovereign's public state by field (:meth:`SovereignState.public`)."""

    window: WindowTable
    battle: BattleTable | None  # None: no battle under way

    boards: tuple[BoardTable, ...]  # by seat
    units: Mapping[str, UnitTable]  # by ref
    facilities: Mapping[str, FacilityTable]  # by ref
    phase: TurnPhase
    echo_target: int  # the Echoes that win
    first_player: int
    active: int
    turn: int
    creche_out: int
    moved: bool  # the move-phase move was made
    winner: int | None
    over: str

    @classmethod
    def of(cls, public: Mapping[str, Any]) -> SovereignTable:
        """The record of a Sovereign public state (a view's ``public``)."""
        return cls(
            **{**cls.common(public), "phase": TurnPhase(public["phase"])},
            window=WindowTable.of(public["window"]),
            battle=BattleTable.of(public["battle"]) if public["battle"] else None,
            boards=tuple(BoardTable.of(b) for b in public["boards"]),
            units={r: UnitTable.of(u) for r, u in public["units"].items()},
            facilities={r: FacilityTable.of(f) for r, f in public["facilities"].items()},
            echo_target=public["echo_target"],
            first_player=public["first_player"],
            active=public["active"],
            turn=public["turn"],
            creche_out=public["creche_out"],
            moved=public["moved"],
            winner=public["winner"],
            over=public["over"],
        )


@attrs.frozen
class SovereignView:
    seat: int | None
    public: dict[str, Any]
    cards: tuple[tuple[int, str], ...]  # own hand and forge handles, and what they are
    seen: tuple[tuple[int, str], ...]  # other seats' handles seen in a breach, still valid
    decisions: tuple[Decision, ...]
    play: SovereignPlay | None = None

    @functools.cached_property
    def table(self) -> SovereignTable:
        """The public state as a typed record (made once, the first time it is read)."""
        return SovereignTable.of(self.public)

    def card(self, handle: int) -> str | None:
        for h, c in self.cards:
            if h == handle:
                return c
        return None

    @property
    def hand(self) -> tuple[tuple[int, str], ...]:
        if self.seat is None:
            return ()
        handles = self.public["boards"][self.seat]["hand"]
        known = dict(self.cards)
        return tuple((h, known[h]) for h in handles)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "public": self.public,
            "cards": [list(x) for x in self.cards],
            "seen": [list(x) for x in self.seen],
            "decisions": [d.plain() for d in self.decisions],
        }


def make_view(state: SovereignState, seat: int | None) -> SovereignView:
    decisions = state.view_decisions(seat)
    cards: tuple[tuple[int, str], ...] = ()
    seen: tuple[tuple[int, str], ...] = ()
    if seat is not None:
        sec = state.secrets[seat]
        cards = tuple(sorted(sec.cards.items()))
        seen = tuple(sorted(sec.seen.items()))
    play = SovereignPlay(
        tuple(state.tasks),
        tuple(state.pending),
        state.next_handle,
        tuple(tuple(sorted(h)) for h in state.hidden),
        state.decisions,
        state.serial,
    )
    return SovereignView(seat, state.public(), cards, seen, decisions, play)
