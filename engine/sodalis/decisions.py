"""The kinds of decision Sodalis asks a seat (or a unit's owner) for."""

from __future__ import annotations

from fairtable.engine.requests import DecisionKind


class SodalisDecisionKind(DecisionKind):
    TURN_TOKENS = "turn_tokens"
    CHAMPION = "champion"
    REARRANGE = "rearrange"
    REVERSALS = "reversals"
    PLACE = "place"
    TURN = "turn"
    CONFUSE = "confuse"
    REFRESH_TOKEN = "refresh_token"
    CARRY = "carry"
    FORCED_STEP = "forced_step"
    RESPAWN = "respawn"
    GIVE_TRIBUTE = "give_tribute"
    STRENGTH_REFRESH = "strength_refresh"
    ORDER_LIFE = "order_life"
