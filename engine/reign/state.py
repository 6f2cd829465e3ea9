"""The state of a game of Reign: public zones, per-seat secrets, the task queue.

``ReignState`` holds exactly what the public may know (hand sizes, pile sizes,
face-up cards, face-down cards as opaque handles) plus, in ``secrets``, the
hidden identities of the seats this engine instance is entitled to know: one
seat on a networked peer, every seat on the local referee, none for a
spectator.  The digest covers the public part only, so every peer computes the
same digest whatever it knows.

Progress through the round is a queue of small tasks (tuples of strings and
ints); :mod:`engine.reign.flow` runs them until one needs an answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Any

import attrs

from fairtable.engine.common_state import CommonState
from fairtable.engine.reign.cards import Catalog

HAND_LIMIT = 8
WIN_LEGITIMACY = 9


class RoundPhase(StrEnum):
    """Where a round stands.  A member equals its word, as views, logs and digests hold it."""

    SETUP = "setup"
    INFLUENCE = "influence"
    PLOTTING = "plotting"
    COMBAT = "combat"
    REGENT = "regent"
    OVER = "over"


@attrs.frozen
class ReignConfig:
    """A table's settings: 3 to 7 players and a round limit (0 = none)."""

    players: int
    round_limit: int = 60

    def check(self) -> None:
        from fairtable.engine.errors import MalformedAnswer

        if (
            isinstance(self.players, bool)
            or not isinstance(self.players, int)
            or not (3 <= self.players <= 7)
        ):
            raise MalformedAnswer("Reign is for 3 to 7 players", rule="Set Up")
        if type(self.round_limit) is not int or self.round_limit < 0:
            raise MalformedAnswer("the round limit is a whole number (0 = none)", rule="Set Up")

    @property
    def support_count(self) -> int:
        return 3 if self.players == 3 else 4 if self.players <= 5 else 5


@attrs.define
class Secrets:
    """What one seat knows that the public does not."""

    hand: list[str] = attrs.Factory(list)
    facedown: dict[int, str] = attrs.Factory(dict)  # handle -> card this seat placed
    gifts: list[tuple[int, str]] = attrs.Factory(list)  # spoils chosen, not yet handed over
    aside: list[str] = attrs.Factory(list)  # set aside face down when this seat left


@attrs.define
class ReignState(CommonState):
    DIGEST_DOMAIN = "fairtable/reign/state/v1"
    SHARED = ("catalog",)

    config: ReignConfig
    catalog: Catalog
    secrets: dict[int, Secrets]
    round: int = 0
    phase: RoundPhase = RoundPhase.SETUP
    houses: tuple[str, ...] = ()
    first_player: int = 0
    regent: int | None = None
    legitimacy: list[int] = attrs.Factory(list)
    support: dict[str, int | None] = attrs.Factory(dict)  # house -> holder (None: centre)
    piles: dict[str, int] = attrs.Factory(lambda: {"military": 0, "event": 0})
    discards: dict[str, list[str]] = attrs.Factory(lambda: {"military": [], "event": []})
    hand_count: list[int] = attrs.Factory(list)
    hidden: frozenset[str] = frozenset()  # cards whose whereabouts are not public
    bids: dict[int, list[int]] = attrs.Factory(dict)  # seat -> face-down handles
    bid_cards: dict[int, list[str]] = attrs.Factory(dict)  # seat -> revealed bid
    influence_winner: dict[str, int] = attrs.Factory(dict)
    gains: int = 0
    armies: dict[int, list[str]] = attrs.Factory(dict)  # holder -> face-up cards
    army_down: dict[int, list[list[int]]] = attrs.Factory(dict)  # holder -> [handle, placer]
    backing: dict[int, int] = attrs.Factory(dict)  # seat -> holder its last card went to
    betrayal_in_regent_army: bool = False
    kingmaker: int = 0
    combat_totals: list[list[int]] = attrs.Factory(list)
    winner: int | None = None
    over: str = ""  # "", "won" or "round_limit"
    aside_count: dict[int, int] = attrs.Factory(dict)  # departed seat -> cards set aside
    aside_handles: dict[int, tuple[int, ...]] = attrs.Factory(dict)  # ... their handles

    # -- small helpers -------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.config.players

    def turn_order(self, start: int | None = None) -> list[int]:
        """The seats still playing, clockwise from ``start`` (the first player)."""
        first = self.first_player if start is None else start
        n = self.config.players
        order = [*range(first, n), *range(first)]
        return self.living(order) if self.departed else order

    def held_elsewhere(self, cards: Iterable[str], owner: int | None) -> str | None:
        """The first of ``cards`` this instance knows in a hand, or set aside, of a seat
        other than ``owner`` (``None``: none is)."""
        wanted = frozenset(cards)
        for seat, sec in self.secrets.items():
            if seat != owner and (
                not wanted.isdisjoint(sec.hand) or (sec.aside and not wanted.isdisjoint(sec.aside))
            ):
                for card in cards:
                    if card in sec.hand or card in sec.aside:
                        return card
        return None

    def holders(self) -> list[int]:
        """Seats holding a support card, in turn order."""
        held = {s for s in self.support.values() if s is not None}
        return [s for s in self.turn_order() if s in held]

    def support_of(self, seat: int) -> list[str]:
        support = self.support
        return [h for h in self.houses if support.get(h) == seat]

    # -- the public state, its digest ---------------------------------------------------
    def public(self) -> dict[str, Any]:
        """Everything every peer may know about the table, as canonical JSON-shaped data.
        (Every view holds one, so it is built for speed: no loop over an empty table, no
        helper call, each seat-keyed table copied in one comprehension.)"""
        config, houses, support, discards = self.config, self.houses, self.support, self.discards
        bids, bid_cards, armies = self.bids, self.bid_cards, self.armies
        army_down, backing = self.army_down, self.backing
        data: dict[str, Any] = {
            "game": "reign",
            "players": config.players,
            "round_limit": config.round_limit,
            "round": self.round,
            "phase": self.phase,
            "houses": list(houses),
            "first_player": self.first_player,
            "regent": self.regent,
            "legitimacy": self.legitimacy[:],
            "support": {h: support.get(h) for h in houses},
            "piles": self.piles.copy(),
            "discards": {"military": discards["military"][:], "event": discards["event"][:]},
            "hand_count": self.hand_count[:],
            "bids": {_SEAT[s]: bids[s][:] for s in sorted(bids)} if bids else {},
            "bid_cards": (
                {_SEAT[s]: bid_cards[s][:] for s in sorted(bid_cards)} if bid_cards else {}
            ),
            "armies": {_SEAT[s]: armies[s][:] for s in sorted(armies)} if armies else {},
            "army_down": (
                {
                    _SEAT[s]: [x[:] for x in army_down[s]] if army_down[s] else []
                    for s in sorted(army_down)
                }
                if army_down
                else {}
            ),
            "backing": {_SEAT[s]: backing[s] for s in sorted(backing)} if backing else {},
            "combat_totals": [x[:] for x in self.combat_totals] if self.combat_totals else [],
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


_SEAT = tuple(str(s) for s in range(8))
"""A seat's key in the public state's seat-keyed tables (Reign seats 0 to 6)."""
