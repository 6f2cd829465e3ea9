"""The answers a Reign seat gives to its decisions.

Each answer has a public part (what every peer sees: a count, a target, a card
played face up) and, where the rules keep something secret, a secret part
(which hand cards went face down).  The secret part is given only to an engine
instance that knows the seat's hand (its own peer, or the omniscient local
referee); every other instance receives ``None`` there and learns the cards
when the rules reveal them.
"""

from __future__ import annotations

import attrs

from fairtable.engine.reign.decisions import ReignDecisionKind
from fairtable.engine.requests import Decision

Cards = tuple[str, ...]


@attrs.frozen
class Bid:
    """Influence phase: ``count`` cards face down as a bid (0 = no bid)."""

    seat: int
    count: int
    cards: Cards | None = None


@attrs.frozen
class Overt:
    """Plotting phase, overt backing: one card face up into ``target``'s army, or pass (None)."""

    seat: int
    target: int | None
    card: str | None = None


@attrs.frozen
class Covert:
    """Plotting phase, covert backing: cards face down, in order, into the armies of ``targets``."""

    seat: int
    targets: tuple[int, ...]
    cards: Cards | None = None


@attrs.frozen
class KeepSupport:
    """A seat holding two support cards keeps the one of ``house``."""

    seat: int
    house: str


@attrs.frozen
class TieBreak:
    """The Regent (or first player) picks ``winner`` among the tied seats."""

    seat: int
    winner: int


@attrs.frozen
class OrderEvents:
    """The Regent (or first player) sets the order in which the revealed influence events
    resolve, when the order changes a bid: ``order`` is every event's card id, first first."""

    seat: int
    order: tuple[str, ...]


@attrs.frozen
class OrderArmy:
    """An army's owner sets the order its own cards resolve in, when it changes the result:
    ``order`` is every card the decision lists, first first, the military abilities before
    the non-betrayal events before the betrayal events (the rulebook's passes)."""

    seat: int
    order: tuple[str, ...]


@attrs.frozen
class CombatTie:
    """The Regent (or first player) settles a tie inside a card effect: ``pick`` is one of
    the decision's options (a seat, as text, for a strike; a card id for a desertion)."""

    seat: int
    pick: str


@attrs.frozen
class RegentDiscard:
    """The Regent discards ``card`` from hand because someone gained a support card."""

    seat: int
    card: str


@attrs.frozen
class Spoils:
    """The Regent hands ``counts`` (recipient, number) cards; ``gifts`` (recipient, card)
    is the secret part."""

    seat: int
    counts: tuple[tuple[int, int], ...]
    gifts: tuple[tuple[int, str], ...] | None = None


@attrs.frozen
class DrawChoice:
    """Draw 3 military cards (``events=0``) or 2 military and 1 event (``events=1``)."""

    seat: int
    events: int


@attrs.frozen
class Discard:
    """Discard ``cards`` (face up) to get down to 8."""

    seat: int
    cards: Cards


ReignAnswer = (
    Bid
    | Overt
    | Covert
    | KeepSupport
    | TieBreak
    | OrderEvents
    | OrderArmy
    | CombatTie
    | RegentDiscard
    | Spoils
    | DrawChoice
    | Discard
)

ANSWER_KINDS: dict[str, type] = {
    "bid": Bid,
    "overt": Overt,
    "covert": Covert,
    "keep_support": KeepSupport,
    "tie_break": TieBreak,
    "order_events": OrderEvents,
    "order_army": OrderArmy,
    "combat_tie": CombatTie,
    "regent_discard": RegentDiscard,
    "spoils": Spoils,
    "draw": DrawChoice,
    "discard": Discard,
}


def public_part(answer: ReignAnswer) -> ReignAnswer:
    """The answer as every other seat receives it: the secret part left out.

    This is what a networked peer signs in the clear; the secret part is bound
    by a commitment and opened when the rules reveal the cards."""
    if isinstance(answer, Bid):
        return Bid(answer.seat, answer.count, None)
    if isinstance(answer, Covert):
        return Covert(answer.seat, answer.targets, None)
    if isinstance(answer, Spoils):
        return Spoils(answer.seat, answer.counts, None)
    return answer


def secret_cards(answer: ReignAnswer) -> Cards:
    """Hand cards the decision places face down (committed, opened later)."""
    if isinstance(answer, Bid | Covert):
        return tuple(answer.cards or ())
    return ()


def shown_cards(answer: ReignAnswer) -> Cards:
    """Hand cards the decision shows face up."""
    if isinstance(answer, Overt):
        return (answer.card,) if answer.card is not None else ()
    if isinstance(answer, RegentDiscard):
        return (answer.card,)
    if isinstance(answer, Discard):
        return tuple(answer.cards)
    return ()


def gifted_cards(answer: ReignAnswer) -> tuple[tuple[int, str], ...]:
    """(recipient, card) pairs the decision hands over (the spoils)."""
    if isinstance(answer, Spoils):
        return tuple(answer.gifts or ())
    return ()


def gift_counts(answer: ReignAnswer) -> tuple[tuple[int, int], ...]:
    """(recipient, number) of the cards the (public) answer announces handing over."""
    if isinstance(answer, Spoils):
        return tuple(answer.counts)
    return ()


def illegal_answer(decision: Decision) -> ReignAnswer | None:
    """A bid the rules refuse (more cards than any hand holds), for a cheating peer."""
    if decision.kind == ReignDecisionKind.BID:
        return Bid(decision.seat, 99, None)
    return None


def places_face_down(answer: ReignAnswer) -> bool:
    """Whether the (public) answer puts cards face down: a bid or covert backing."""
    if isinstance(answer, Bid):
        return answer.count > 0
    if isinstance(answer, Covert):
        return bool(answer.targets)
    return False
