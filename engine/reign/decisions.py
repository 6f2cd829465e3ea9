"""The kinds of decision Reign asks a seat for (the rulebook section that raises each)."""

from __future__ import annotations

from fairtable.engine.requests import DecisionKind


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
