"""Shared by the leak tests: every string inside a JSON-shaped value, and the Reign cards a
public move names face up by the rules."""

from __future__ import annotations

from typing import Any

from fairtable.engine.events import Event


def strings_in(value: Any) -> set[str]:
    """Every string (keys included) anywhere inside ``value``."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, Event):  # a game's typed event: the strings it is stored with
        return strings_in(value.as_tuple())
    if isinstance(value, dict):
        return set(value) | {s for v in value.values() for s in strings_in(v)}
    if isinstance(value, list | tuple):
        return {s for v in value for s in strings_in(v)}
    return set()


def reign_face_up(answer: dict[str, Any]) -> set[str]:
    """The cards a Reign move's answer (as JSON) names that the rules show face up.

    An overt card and the Regent's discard are placed face up, and so is a discard down to
    8. The cards an order names are face up already: influence events are revealed with the
    bids before their order is chosen, an army's cards are flipped face up before combat
    resolves them ("Simultaneously, players shuffle all facedown cards in their army and
    flip them face up"), and a tie inside a card effect picks among those army cards.
    """
    kind = answer.get("type")
    if kind in ("Overt", "RegentDiscard") and answer.get("card"):
        return {answer["card"]}
    if kind == "Discard":
        return set(answer.get("cards") or ())
    if kind in ("OrderEvents", "OrderArmy"):
        return set(answer.get("order") or ())
    if kind == "CombatTie":
        return {answer["pick"]}
    return set()
