"""The kinds of decision Sovereign asks a seat for."""

from __future__ import annotations

from fairtable.engine.requests import DecisionKind


class SovereignDecisionKind(DecisionKind):
    MULLIGAN = "mulligan"
    ORDER_TRIGGERS = "order_triggers"
    UPKEEP_RETURN = "upkeep_return"
    FORGE = "forge"
    WINDOW = "window"
    MOVE = "move"
    ATTACK = "attack"
    FINISH_FORGE = "finish_forge"
    LOSSES = "losses"
    BREACH_PICK = "breach_pick"
    FINDINGS = "findings"
    ADD_HEALTH = "add_health"
    OPTIONAL_EFFECT = "optional_effect"
