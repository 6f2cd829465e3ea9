"""The state of a game of Sovereign: public zones, per-seat secrets, the task queue.

Public: every seat's Citadel citizens, lanes of units (with typed health tokens and
augments), facilities and Leader workers, reflexes in play, forge slots (opaque handle,
progress, entry turn), hand handles, deck sizes, scrap piles, scored Echoes, and the
creche count.  Hidden cards are opaque integer handles; ``secrets`` holds, for each seat
this instance is entitled to know, the identities behind its own hand and forge handles
and the cards it saw in breaches (``seen``).  The digest covers the public part only.

A card in play is named by a *ref* ``"<owner>:<card id>"`` (a deck holds each card once).
Citizens are ``[talents, drones]`` pairs wherever they live.
"""

from __future__ import annotations

from typing import Any

import attrs

from fairtable.engine.common_state import CommonState, copied
from fairtable.engine.errors import MalformedAnswer
from fairtable.engine.sovereign.cards import Catalog
from fairtable.engine.sovereign.decks import DECK_RULE, Deck, parse_deck
from fairtable.engine.sovereign.kinds import Area, TurnPhase, Window
from fairtable.engine.words import word_of

HAND_SIZE = 8
LANES = ("leader", "citadel")  # lane 0 defends the hand, lane 1 the forge
LANE_SIZE = 3
MAX_SHOWN_MULLIGANS = 5
SETUP_RULE = "Game Setup"


@attrs.frozen
class SovereignConfig:
    """A table: 2 to 6 players, each seat's faction (default: the authored factions in
    turn, mirrored if there are fewer), the Echo target (default 10, 12 for two players),
    a round limit (0 = none) and each seat's custom deck (``decks``: a
    :class:`~engine.sovereign.decks.Deck` or ``None`` per seat, ``None`` = the faction's own
    deck; the lists are public, like the rest of the table's config)."""

    players: int
    factions: tuple[str, ...] = ()
    echo_target: int | None = None
    round_limit: int = 60
    decks: tuple[Deck | None, ...] = ()

    def check(self, catalog: Catalog | None = None) -> None:
        if type(self.players) is not int or not 2 <= self.players <= 6:
            raise MalformedAnswer("Sovereign is for 2 to 6 players", rule=SETUP_RULE)
        if self.echo_target is not None and (
            type(self.echo_target) is not int or self.echo_target < 1
        ):
            raise MalformedAnswer(
                "the Echo target is a whole number of at least 1", rule="Revising the Win Condition"
            )
        if type(self.round_limit) is not int or self.round_limit < 0:
            raise MalformedAnswer(
                "the round limit is a whole number (0 = none)", rule="Winning and ending"
            )
        if not isinstance(self.factions, tuple):
            raise MalformedAnswer("factions are a tuple of faction ids", rule=SETUP_RULE)
        if self.factions and len(self.factions) != self.players:
            raise MalformedAnswer("name one faction per seat", rule=SETUP_RULE)
        if catalog is not None:
            for f in self.factions:
                if f not in catalog.faction_ids:
                    raise MalformedAnswer(f"there is no faction {f!r}", rule=SETUP_RULE)
        self._check_decks(catalog)

    def _check_decks(self, catalog: Catalog | None) -> None:
        if not isinstance(self.decks, tuple):
            raise MalformedAnswer("decks are a tuple: a Deck or None per seat", rule=DECK_RULE)
        if not self.decks:
            return
        if len(self.decks) != self.players:
            raise MalformedAnswer("name one deck (or None) per seat", rule=DECK_RULE)
        for seat, deck in enumerate(self.decks):
            if deck is not None and not isinstance(deck, Deck):
                raise MalformedAnswer(f"seat {seat}'s deck is not a Deck", rule=DECK_RULE)
        if catalog is None or all(d is None for d in self.decks):
            return
        for seat, deck in enumerate(self.decks):
            if deck is None:
                continue
            if parse_deck(deck.data(), catalog, f"seat {seat}'s deck") != deck:
                raise MalformedAnswer(
                    f"seat {seat}'s deck does not match its card list", rule=DECK_RULE
                )
            if self.factions and self.factions[seat] != deck.faction:
                raise MalformedAnswer(
                    f"seat {seat} is given the faction "
                    f"{self.factions[seat]!r} but its deck's Leader is of "
                    f"{deck.faction!r}",
                    rule=DECK_RULE,
                )
        leaders = [d.leader for d in self.seat_decks(catalog)]
        for seat, leader in enumerate(leaders):
            if leader in leaders[:seat]:
                raise MalformedAnswer(
                    f"seats {leaders.index(leader)} and {seat} both play the "
                    f"Leader {leader!r}: no two players may play the same "
                    "leader",
                    rule=DECK_RULE,
                )

    @property
    def target(self) -> int:
        if self.echo_target is not None:
            return self.echo_target
        return 12 if self.players == 2 else 10

    def seat_factions(self, catalog: Catalog) -> tuple[str, ...]:
        if any(d is not None for d in self.decks):
            return self._deck_factions(catalog)
        if self.factions:
            return self.factions
        ids = catalog.faction_ids
        return tuple(ids[s % len(ids)] for s in range(self.players))

    def _deck_factions(self, catalog: Catalog) -> tuple[str, ...]:
        """With custom decks: a deck's seat plays its Leader's faction; a seat without one
        plays its ``factions`` entry, or else the next faction no deck's Leader is from."""
        taken = {d.faction for d in self.decks if d is not None}
        free = [f for f in catalog.faction_ids if f not in taken] or list(catalog.faction_ids)
        out: list[str] = []
        for seat, deck in enumerate(self.decks):
            if deck is not None:
                out.append(deck.faction)
            elif self.factions:
                out.append(self.factions[seat])
            else:
                out.append(free[sum(1 for d in self.decks[:seat] if d is None) % len(free)])
        return tuple(out)

    def seat_decks(self, catalog: Catalog) -> tuple[Deck, ...]:
        """Every seat's deck: its custom deck, or its faction's own."""
        decks = self.decks or (None,) * self.players
        return tuple(
            d if d is not None else Deck.of_faction(catalog.faction(f))
            for d, f in zip(decks, self.seat_factions(catalog), strict=True)
        )


@attrs.define
class Secrets:
    """What one seat knows that the public does not."""

    cards: dict[int, str] = attrs.Factory(dict)  # own hand and forge handles -> card id
    seen: dict[int, str] = attrs.Factory(dict)  # other seats' handles seen in a breach
    aside: list[str] = attrs.Factory(list)  # hand and forge, set aside when this seat left


@attrs.define
class Unit:
    owner: int
    card: str
    health: list[int]  # [talents, drones]
    augments: list[str] = attrs.Factory(list)
    new: bool = False  # forged this forge phase (health not yet placed)

    def public(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "owner": self.owner,
            "health": list(self.health),
            "augments": list(self.augments),
            "new": self.new,
        }


@attrs.define
class Facility:
    owner: int
    card: str
    workers: list[int] = attrs.Factory(lambda: [0, 0])
    augments: list[str] = attrs.Factory(list)

    def public(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "owner": self.owner,
            "workers": list(self.workers),
            "augments": list(self.augments),
        }


@attrs.define
class Slot:
    handle: int
    progress: int
    entered: int  # the turn number it entered the forge

    def public(self) -> list[int]:
        return [self.handle, self.progress, self.entered]


@attrs.define
class Board:
    """One seat's side of the table."""

    faction: str
    leader: str
    citadel_card: str
    citadel: list[int] = attrs.Factory(lambda: [0, 0])
    leader_workers: list[int] = attrs.Factory(lambda: [0, 0])
    lanes: list[list[str]] = attrs.Factory(lambda: [[], []])
    facilities: list[str] = attrs.Factory(list)
    loose: list[str] = attrs.Factory(list)  # augments forged this phase, not yet attached
    reflexes: list[list[Any]] = attrs.Factory(list)  # [ref, [t, d], [targets]]
    forge: list[Slot] = attrs.Factory(list)
    hand: list[int] = attrs.Factory(list)
    deck: int = 0
    scrap: list[str] = attrs.Factory(list)  # owner's scrap pile, card ids in order
    scored: list[str] = attrs.Factory(list)  # refs of scored Echoes (any owner)
    mulligans: list[int] = attrs.Factory(lambda: [0, 0])  # free used, shown used

    def public(self) -> dict[str, Any]:
        return {
            "faction": self.faction,
            "leader": self.leader,
            "citadel_card": self.citadel_card,
            "citadel": list(self.citadel),
            "leader_workers": list(self.leader_workers),
            "lanes": [list(x) for x in self.lanes],
            "facilities": list(self.facilities),
            "loose": list(self.loose),
            "reflexes": [[r, list(c), list(t)] for r, c, t in self.reflexes],
            "forge": [s.public() for s in self.forge],
            "hand": list(self.hand),
            "deck": self.deck,
            "scrap": list(self.scrap),
            "scored": list(self.scored),
            "mulligans": list(self.mulligans),
        }


@attrs.define
class SovereignState(CommonState):
    DIGEST_DOMAIN = "fairtable/sovereign/state/v1"
    SHARED = ("catalog",)

    config: SovereignConfig
    catalog: Catalog
    secrets: dict[int, Secrets]
    boards: list[Board] = attrs.Factory(list)
    units: dict[str, Unit] = attrs.Factory(dict)
    facilities: dict[str, Facility] = attrs.Factory(dict)
    hidden: list[list[str]] = attrs.Factory(list)  # per seat: own cards not publicly placed
    creche_out: int = 0  # citizens taken from the creche and not returned
    first_player: int = 0
    active: int = 0
    turn: int = 0
    round: int = 0
    phase: TurnPhase = TurnPhase.SETUP
    window: dict[str, Any] = attrs.Factory(dict)
    battle: dict[str, Any] = attrs.Factory(dict)
    temps: list[list[Any]] = attrs.Factory(list)  # [source ref, controller, effect index, target]
    moved: bool = False  # the move-phase move was made
    revealed: list[list[Any]] = attrs.Factory(list)  # [handle, card] of the last reveal
    winner: int | None = None
    over: str = ""
    aside_count: dict[int, int] = attrs.Factory(dict)  # departed seat -> cards set aside
    aside_handles: dict[int, tuple[int, ...]] = attrs.Factory(dict)  # ... their handles

    @property
    def players(self) -> int:
        return self.config.players

    def order_from(self, seat: int) -> list[int]:
        return [(seat + i) % self.players for i in range(self.players)]

    def neighbours(self, seat: int) -> list[int]:
        """The seats to ``seat``'s left and right, passing over seats that left the game."""
        n = self.players
        if not self.departed:
            return sorted({(seat - 1) % n, (seat + 1) % n})
        left = next(s for s in ((seat - i) % n for i in range(1, n)) if s not in self.departed)
        right = next(s for s in ((seat + i) % n for i in range(1, n)) if s not in self.departed)
        return sorted({left, right})

    def defn(self, ref: str):  # type: ignore[no-untyped-def]
        return self.catalog.defs[ref.split(":", 1)[1]]

    def secret(self, handle: int) -> str | None:
        """The identity of a hand or forge handle, if this instance knows its holder."""
        for sec in self.secrets.values():
            if handle in sec.cards:
                return sec.cards[handle]
        return None

    def holder_of(self, handle: int) -> tuple[int, Area] | None:
        """(seat, hand or forge) holding a face-down handle."""
        for seat, b in enumerate(self.boards):
            if handle in b.hand:
                return seat, Area.HAND
            if any(s.handle == handle for s in b.forge):
                return seat, Area.FORGE
        return None

    def slot(self, seat: int, handle: int) -> Slot | None:
        for s in self.boards[seat].forge:
            if s.handle == handle:
                return s
        return None

    def lane_of(self, ref: str) -> tuple[int, int, int] | None:
        """(seat, lane, space index from 0 = front) of a unit in play."""
        unit = self.units.get(ref)
        if unit is None:
            return None
        for lane, refs in enumerate(self.boards[unit.owner].lanes):
            if ref in refs:
                return unit.owner, lane, refs.index(ref)
        return None

    def window_name(self) -> Window | None:
        """The open window (``None`` when none is open), read once from the state's word."""
        return word_of(Window, self.window.get("name"))

    def locked_in_lanes(self) -> bool:
        """Units are locked in their lanes from round 1's damage to the end of the last
        combat round (FAQ l. 348); the breach and ``battle_end`` come after."""
        bt = self.battle
        return bool(bt) and bt.get("spaces") is not None and not bt.get("resolved")

    def attack_group(self) -> list[str]:
        """The declared attackers still alive, in their temporary lane's order (front
        first), while the battle's combat lasts (until ``battle_end``); ``[]`` otherwise."""
        bt = self.battle
        if not bt or bt.get("ended"):
            return []
        return [a for a in bt["order"] if a in bt["attackers"]]

    def lane_neighbours(self, ref: str) -> list[str]:
        """The units adjacent to ``ref``, front first ("In a lane, a unit in front of or
        behind this unit", l. 287; docs/rules/sovereign.md §1.8).  While a battle's combat
        lasts a declared attacker stands in the attackers' temporary lane, a defender in the
        defending lane (once frozen, a scrapped unit's space stays empty between its
        neighbours), and the attacking seat's other units in their home lane without the
        attackers."""
        if self.lane_of(ref) is None:
            return []
        seat, lane, _ = self.lane_of(ref)  # type: ignore[misc]
        bt, group = self.battle, self.attack_group()
        spaces: list[str | None]
        if ref in group:
            spaces = [r if r in bt["attackers"] else None for r in bt["order"]]
        elif group and bt.get("spaces") is not None and ref in bt["spaces"]:
            spaces = [r if r in self.units else None for r in bt["spaces"]]
        else:
            spaces = [r for r in self.boards[seat].lanes[lane] if r not in group]
        i = spaces.index(ref)
        return [
            r
            for r in (
                spaces[i - 1] if i > 0 else None,
                spaces[i + 1] if i + 1 < len(spaces) else None,
            )
            if r is not None
        ]

    # -- public state and digest -------------------------------------------------------
    def public(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": "sovereign",
            "players": self.players,
            "echo_target": self.config.target,
            "round_limit": self.config.round_limit,
            **_deck_lists(self.config),
            "boards": [b.public() for b in self.boards],
            "units": {r: u.public() for r, u in sorted(self.units.items())},
            "facilities": {r: f.public() for r, f in sorted(self.facilities.items())},
            "creche_out": self.creche_out,
            "first_player": self.first_player,
            "active": self.active,
            "turn": self.turn,
            "round": self.round,
            "phase": self.phase,
            "window": copied(dict(sorted(self.window.items()))),
            "battle": _plain(self.battle),
            "temps": [list(t) for t in self.temps],
            "moved": self.moved,
            "revealed": [list(x) for x in self.revealed],
            "winner": self.winner,
            "over": self.over,
        }
        if not self.departed:
            return data
        return self.with_departures(
            data,
            set_aside={
                str(s): {"cards": n, "handles": list(self.aside_handles.get(s, ()))}
                for s, n in sorted(self.aside_count.items())
            },
        )

    def digest_data(self) -> dict[str, Any]:
        data = super().digest_data()
        data["hidden"] = [sorted(h) for h in self.hidden]
        return data


def _deck_lists(config: SovereignConfig) -> dict[str, Any]:
    """The custom deck lists, public (absent when every seat plays its faction's deck)."""
    if not any(d is not None for d in config.decks):
        return {}
    return {"decks": [None if d is None else d.data() for d in config.decks]}


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items())}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
