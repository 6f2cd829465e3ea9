"""Per-seat views of a Reign game: the public state plus that seat's own secrets.

A view is all a user interface or a bot may look at.  A spectator's view
(seat ``None``) holds the public state only.  Nothing in a view comes from
another seat's secrets: that is what the leak tests check.  Beside the public
state a view carries :class:`PlayState`, where play stands (the task queue, the
pending requests, the cards whose place nobody sees): public too (the digest
covers most of it), needed to play on from a sampled world
(:mod:`engine.reign.world`), not shown on any screen.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, NamedTuple

import attrs

from fairtable.engine.public_table import PublicTable, by_seat
from fairtable.engine.reign.state import ReignState, RoundPhase
from fairtable.engine.requests import Decision, Request


class PlayState(NamedTuple):
    """Where play stands, beyond :meth:`ReignState.public`: all of it public.  (A named
    tuple: one is made with every view, so it must be cheap.)"""

    tasks: tuple[tuple[Any, ...], ...]
    pending: tuple[Request, ...]
    next_handle: int
    hidden: frozenset[str]  # cards whose place is not public (piles, hands, face down)
    influence_winner: tuple[tuple[str, int], ...]
    gains: int
    kingmaker: int
    betrayal_in_regent_army: bool
    decisions: int
    serial: int


@attrs.frozen(kw_only=True, eq=False)
class ReignTable(PublicTable):
    """Reign's public state by field (:meth:`ReignState.public`; docs/engine.md).  Seat-keyed
    tables are keyed by seat; a seat missing from one has nothing there."""

    phase: RoundPhase
    houses: tuple[str, ...]  # the houses in play
    first_player: int
    regent: int | None
    legitimacy: tuple[int, ...]  # by seat
    support: Mapping[str, int | None]  # house -> the seat holding its support card (None: centre)
    piles: Mapping[str, int]  # "military", "event" -> cards left
    discards: Mapping[str, tuple[str, ...]]  # "military", "event" -> cards, oldest first
    hand_count: tuple[int, ...]  # by seat
    bids: Mapping[int, tuple[int, ...]]  # seat -> face-down handles bid
    bid_cards: Mapping[int, tuple[str, ...]]  # seat -> its revealed bid
    armies: Mapping[int, tuple[str, ...]]  # holder -> face-up cards
    army_down: Mapping[int, tuple[tuple[int, int], ...]]  # holder -> (handle, placer) face down
    backing: Mapping[int, int]  # seat -> the holder its last card went to
    combat_totals: tuple[tuple[int, ...], ...]
    winner: int | None
    over: str  # "", "won" or "round_limit"

    @classmethod
    def of(cls, public: Mapping[str, Any]) -> ReignTable:
        """The record of a Reign public state (a view's ``public``)."""
        return cls(
            **{**cls.common(public), "phase": RoundPhase(public["phase"])},
            houses=tuple(public["houses"]),
            first_player=public["first_player"],
            regent=public["regent"],
            legitimacy=tuple(public["legitimacy"]),
            support=dict(public["support"]),
            piles=dict(public["piles"]),
            discards={pile: tuple(cards) for pile, cards in public["discards"].items()},
            hand_count=tuple(public["hand_count"]),
            bids={s: tuple(h) for s, h in by_seat(public["bids"]).items()},
            bid_cards={s: tuple(c) for s, c in by_seat(public["bid_cards"]).items()},
            armies={s: tuple(c) for s, c in by_seat(public["armies"]).items()},
            army_down={
                s: tuple((h, p) for h, p in down)
                for s, down in by_seat(public["army_down"]).items()
            },
            backing=by_seat(public["backing"]),
            combat_totals=tuple(tuple(t) for t in public["combat_totals"]),
            winner=public["winner"],
            over=public["over"],
        )


@attrs.frozen
class ReignView:
    seat: int | None
    public: dict[str, Any]
    hand: tuple[str, ...]
    facedown: tuple[tuple[int, str], ...]  # handles this seat placed face down, and what
    decisions: tuple[Decision, ...]  # what this seat is asked now
    play: PlayState | None = None

    @functools.cached_property
    def table(self) -> ReignTable:
        """The public state as a typed record (made once, the first time it is read)."""
        return ReignTable.of(self.public)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "public": self.public,
            "hand": list(self.hand),
            "facedown": [list(x) for x in self.facedown],
            "decisions": [d.plain() for d in self.decisions],
        }


def make_view(state: ReignState, seat: int | None) -> ReignView:
    decisions = state.view_decisions(seat)
    hand: tuple[str, ...] = ()
    facedown: tuple[tuple[int, str], ...] = ()
    if seat is not None:
        sec = state.secrets[seat]
        hand = tuple(sec.hand)
        if sec.facedown:
            facedown = tuple(sorted(sec.facedown.items()))
    influence_winner = state.influence_winner
    play = PlayState(
        tuple(state.tasks),
        tuple(state.pending),
        state.next_handle,
        state.hidden,
        tuple(sorted(influence_winner.items())) if influence_winner else (),
        state.gains,
        state.kingmaker,
        state.betrayal_in_regent_army,
        state.decisions,
        state.serial,
    )
    return ReignView(seat, state.public(), hand, facedown, decisions, play)
