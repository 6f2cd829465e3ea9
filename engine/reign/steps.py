"""The kinds of task in Reign's queue (``state.tasks``), as the members the flow compares.

Each task tuple starts with a :class:`Step` naming its handler (``flow``'s table of
handlers); the set-up, the flow, departures and the world sampler queue and read tasks by
these members.  A member equals its word, so the queue's digest reads as before.
"""

from __future__ import annotations

from enum import StrEnum


class Step(StrEnum):
    """A task of the flow's queue, in the order a round meets them."""

    PICK_HOUSES = "pick_houses"
    PICK_FIRST = "pick_first"
    SHUFFLE = "shuffle"
    DEAL = "deal"
    ROUND_START = "round_start"
    BID_PASS = "bid_pass"
    BID = "bid"
    REVEAL_BIDS = "reveal_bids"
    SETTLE_BIDS = "settle_bids"
    TIE_HOUSE = "tie_house"
    TRANSFER_SUPPORT = "transfer_support"
    KEEP_SUPPORT = "keep_support"
    REGENT_DISCARD = "regent_discard"
    AFTER_INFLUENCE = "after_influence"
    PLOTTING = "plotting"
    OVERT = "overt"
    COVERT = "covert"
    COMBAT = "combat"
    RESOLVE_COMBAT = "resolve_combat"
    CROWN = "crown"
    CROWN_TIE = "crown_tie"
    COMBAT_TIE_BREAK = "combat_tie_break"
    LOSE_SUPPORT = "lose_support"
    LEGITIMACY = "legitimacy"
    SPOILS = "spoils"
    DRAW_ROUND = "draw_round"
    DRAW = "draw"
    DISCARD_DOWN = "discard_down"
    ROUND_END = "round_end"
