"""The kinds of decision Reign asks a seat for (the rulebook section that raises each), and
the public limits of each: one :class:`~engine.requests.DecisionInfo` record per kind."""

from __future__ import annotations

import attrs

from fairtable.engine.reign.combat import ArmySpec
from fairtable.engine.reign.state import RoundPhase
from fairtable.engine.requests import OMITTED_IF_NONE, DecisionInfo, DecisionKind

Orders = tuple[tuple[int, tuple[str, ...]], ...]
"""The armies whose order is settled: ``(owner, card ids in order)`` each."""
Picks = tuple[tuple[str, str], ...]
"""The ties in card effects settled so far: ``(tie key, pick)`` each."""


class ReignDecisionKind(DecisionKind):
    BID = "bid"
    OVERT = "overt"
    COVERT = "covert"
    KEEP_SUPPORT = "keep_support"
    TIE_BREAK = "tie_break"
    ORDER_EVENTS = "order_events"
    ORDER_ARMY = "order_army"
    COMBAT_TIE = "combat_tie"
    REGENT_DISCARD = "regent_discard"
    SPOILS = "spoils"
    DRAW = "draw"
    DISCARD = "discard"


@attrs.frozen(kw_only=True)
class BidInfo(DecisionInfo):
    """Influence, a bid pass: up to ``max_cards`` cards, of no house in ``forbidden``."""

    KIND = ReignDecisionKind.BID

    forbidden: tuple[str, ...]
    max_cards: int
    pass_number: int


@attrs.frozen(kw_only=True)
class OvertInfo(DecisionInfo):
    """Plotting: one card face up into the army of a seat in ``targets``, or pass."""

    KIND = ReignDecisionKind.OVERT

    targets: tuple[int, ...]


@attrs.frozen(kw_only=True)
class CovertInfo(DecisionInfo):
    """Plotting: up to ``max_cards`` cards face down into armies of seats in ``targets``."""

    KIND = ReignDecisionKind.COVERT

    targets: tuple[int, ...]
    max_cards: int


@attrs.frozen(kw_only=True)
class KeepSupportInfo(DecisionInfo):
    """The seat holds the support cards of ``houses``: it keeps one."""

    KIND = ReignDecisionKind.KEEP_SUPPORT

    houses: tuple[str, ...]


@attrs.frozen(kw_only=True)
class TieBreakInfo(DecisionInfo):
    """The seats ``tied`` for ``house``'s support (influence) or the crown (combat, no
    house): the chooser picks the winner."""

    KIND = ReignDecisionKind.TIE_BREAK

    house: str | None = attrs.field(default=None, metadata=OMITTED_IF_NONE)
    tied: tuple[int, ...]
    phase: RoundPhase  # INFLUENCE or COMBAT


@attrs.frozen(kw_only=True)
class OrderEventsInfo(DecisionInfo):
    """The influence ``events`` of the ``bids`` change a bid: their order is chosen."""

    KIND = ReignDecisionKind.ORDER_EVENTS

    events: tuple[str, ...]
    bids: tuple[tuple[int, tuple[str, ...]], ...]
    pass_number: int


@attrs.frozen(kw_only=True)
class OrderArmyInfo(DecisionInfo):
    """The order of the owner's ``cards`` (by pass, ``groups``) changes the combat of
    ``armies``; ``orders`` and ``picks`` are what is settled so far."""

    KIND = ReignDecisionKind.ORDER_ARMY

    cards: tuple[str, ...]
    groups: tuple[tuple[str, ...], ...]
    armies: tuple[ArmySpec, ...]
    orders: Orders
    picks: Picks
    regent: int | None


@attrs.frozen(kw_only=True)
class CombatTieInfo(DecisionInfo):
    """Card ``card`` of ``army`` meets a tie in its ``op`` (tie ``key``): one of
    ``options`` is picked; the rest is what the combat stands on."""

    KIND = ReignDecisionKind.COMBAT_TIE

    key: str
    army: int
    card: str
    op: str
    options: tuple[str, ...]
    armies: tuple[ArmySpec, ...]
    orders: Orders
    picks: Picks
    regent: int | None


@attrs.frozen(kw_only=True)
class RegentDiscardInfo(DecisionInfo):
    """A player gained a support card: the Regent discards a card."""

    KIND = ReignDecisionKind.REGENT_DISCARD


@attrs.frozen(kw_only=True)
class SpoilsInfo(DecisionInfo):
    """Spoils: the Regent gives a card to each seat of ``must_give``."""

    KIND = ReignDecisionKind.SPOILS

    must_give: tuple[int, ...]


@attrs.frozen(kw_only=True)
class DrawInfo(DecisionInfo):
    """The seat draws 3 military cards, or 2 and an event."""

    KIND = ReignDecisionKind.DRAW


@attrs.frozen(kw_only=True)
class DiscardInfo(DecisionInfo):
    """The hand is over the limit: ``count`` cards are discarded."""

    KIND = ReignDecisionKind.DISCARD

    count: int
