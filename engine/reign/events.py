"""Reign's events: one typed record per kind of entry in its public log.

The rules log a record (``state.log(...)``) and the state keeps it; what writes bytes (logs,
replays) writes its :meth:`~engine.events.Event.as_tuple`, and :data:`PARSER` reads a stored
tuple back into its record.
"""

from __future__ import annotations

import attrs

from fairtable.engine.events import (
    LIST,
    LISTS,
    Departed,
    Event,
    EventParser,
    FirstPlayer,
    RoundLimit,
    to_tuple,
    to_tuples,
)
from fairtable.engine.reign.cards import CardKind, Op


@attrs.frozen
class Houses(Event):
    """The houses in play this game."""

    KIND = "houses"

    houses: tuple[str, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class Reshuffle(Event):
    """A discard pile is shuffled back into pile ``pile`` (``count`` cards)."""

    KIND = "reshuffle"

    pile: CardKind = attrs.field(converter=CardKind)
    count: int


@attrs.frozen
class PileEmpty(Event):
    """Pile ``pile`` ran out: ``seat`` got ``count`` cards fewer than due."""

    KIND = "pile_empty"

    pile: CardKind = attrs.field(converter=CardKind)
    seat: int
    count: int


@attrs.frozen
class Handover(Event):
    """``giver`` handed ``count`` chosen cards to ``seat`` (the spoils)."""

    KIND = "handover"

    giver: int
    seat: int
    count: int


@attrs.frozen
class Draw(Event):
    """``seat`` drew ``count`` cards from pile ``source``."""

    KIND = "draw"

    seat: int
    source: str
    count: int


@attrs.frozen
class Round(Event):
    """Round ``number`` begins; ``first_player`` plays first."""

    KIND = "round"

    number: int
    first_player: int


@attrs.frozen
class Bid(Event):
    """``seat`` bid ``count`` cards face down (0: no bid)."""

    KIND = "bid"

    seat: int
    count: int


@attrs.frozen
class BidRevealed(Event):
    """``seat``'s bid is revealed."""

    KIND = "bid_revealed"

    seat: int
    cards: tuple[str, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class EventsOrdered(Event):
    """``seat`` set the order of the revealed influence events."""

    KIND = "events_ordered"

    seat: int
    order: tuple[str, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class BidTie(Event):
    """The bids for ``house`` tied among ``seats`` and nobody breaks the tie."""

    KIND = "bid_tie"

    house: str
    seats: tuple[int, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class TieBroken(Event):
    """``seat`` settled a tie in favour of ``winner``."""

    KIND = "tie_broken"

    seat: int
    winner: int


@attrs.frozen
class SupportGained(Event):
    """``seat`` gained the support card of ``house``."""

    KIND = "support_gained"

    seat: int
    house: str


@attrs.frozen
class SupportReturned(Event):
    """``seat`` held two support cards and returned ``house``'s."""

    KIND = "support_returned"

    seat: int
    house: str


@attrs.frozen
class SupportLost(Event):
    """``seat`` lost the support card of ``house``."""

    KIND = "support_lost"

    seat: int
    house: str


@attrs.frozen
class RegentDiscard(Event):
    """The Regent ``seat`` discarded ``card``."""

    KIND = "regent_discard"

    seat: int
    card: str


@attrs.frozen
class SecondBid(Event):
    """A second round of bidding begins."""

    KIND = "second_bid"


@attrs.frozen
class NoArmies(Event):
    """Nobody holds a support card: no armies, no combat."""

    KIND = "no_armies"


@attrs.frozen
class Overt(Event):
    """``seat`` placed ``card`` face up in ``target``'s army."""

    KIND = "overt"

    seat: int
    target: int
    card: str


@attrs.frozen
class OvertPass(Event):
    """``seat`` placed no card face up."""

    KIND = "overt_pass"

    seat: int


@attrs.frozen
class Covert(Event):
    """``seat`` placed cards face down into the armies of ``targets``, in order."""

    KIND = "covert"

    seat: int
    targets: tuple[int, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class ArmyRevealed(Event):
    """The face-down cards of ``seat``'s army are revealed (sorted)."""

    KIND = "army_revealed"

    seat: int
    cards: tuple[str, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class ArmyOrdered(Event):
    """``seat`` set the order its army's cards resolve in."""

    KIND = "army_ordered"

    seat: int
    order: tuple[str, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class CombatTie(Event):
    """``seat`` settled a tie of ``card``'s effect ``op`` with ``pick``."""

    KIND = "combat_tie"

    seat: int
    card: str
    op: Op = attrs.field(converter=Op)
    pick: str


@attrs.frozen
class CombatTotals(Event):
    """Each army's total in combat, as ``(seat, total)`` pairs."""

    KIND = "combat_totals"

    totals: tuple[tuple[int, int], ...] = attrs.field(converter=to_tuples, metadata=LISTS)


@attrs.frozen
class Regent(Event):
    """``seat`` takes the Onyx Crown and is Regent."""

    KIND = "regent"

    seat: int


@attrs.frozen
class Legitimacy(Event):
    """Every seat's legitimacy, in seat order."""

    KIND = "legitimacy"

    values: tuple[int, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class Spoils(Event):
    """The Regent ``seat`` handed out spoils: ``(recipient, number)`` pairs."""

    KIND = "spoils"

    seat: int
    counts: tuple[tuple[int, int], ...] = attrs.field(converter=to_tuples, metadata=LISTS)


@attrs.frozen
class Discard(Event):
    """``seat`` discarded ``cards`` down to the hand limit."""

    KIND = "discard"

    seat: int
    cards: tuple[str, ...] = attrs.field(converter=to_tuple, metadata=LIST)


@attrs.frozen
class Winner(Event):
    """``seat`` wins the game."""

    KIND = "winner"

    seat: int


EVENTS: tuple[type[Event], ...] = (
    Houses,
    FirstPlayer,
    Reshuffle,
    PileEmpty,
    Handover,
    Draw,
    Round,
    Bid,
    BidRevealed,
    EventsOrdered,
    BidTie,
    TieBroken,
    SupportGained,
    SupportReturned,
    SupportLost,
    RegentDiscard,
    SecondBid,
    NoArmies,
    Overt,
    OvertPass,
    Covert,
    ArmyRevealed,
    ArmyOrdered,
    CombatTie,
    CombatTotals,
    Regent,
    Legitimacy,
    Spoils,
    Discard,
    Winner,
    RoundLimit,
    Departed,
)
"""Every kind of event Reign logs."""

PARSER = EventParser(EVENTS)
"""Reads a stored Reign event tuple back into its record."""
