"""Rule checks that need a hidden card's identity.

They run twice: on the instance that knows the card, when its holder answers (a broken
rule is then an :class:`~engine.errors.IllegalMove`), and on every instance when the
card is revealed (a broken rule is then an :class:`~engine.errors.IllegalReveal` naming
the seat: its holder lied when it committed to the card).  Each returns the problem as
text ('' when the card may do what its holder said).
"""

from __future__ import annotations

from fairtable.engine.sovereign import effects
from fairtable.engine.sovereign.kinds import Area, CardType
from fairtable.engine.sovereign.placement import NOWHERE, Placement
from fairtable.engine.sovereign.state import LANE_SIZE, Slot, SovereignState

FORGE_RULE = "Forge Phase > Revealing Cards in the Forge"
REFLEX_RULE = "Reflexes"


def forge_problem(state: SovereignState, seat: int, slot: Slot, card: str, place: str) -> str:
    d = state.catalog.defs[card]
    if d.type is CardType.REFLEX:
        return "reflexes never enter the forge"
    if slot.progress < d.cost:
        return f"its forge cost is {d.cost} and its talent is at {slot.progress}"
    if d.type is CardType.ECHO and slot.entered == state.turn:
        return "an Echo is never revealed in the turn it entered the forge"
    where = Placement.parse(place)
    if d.type is CardType.UNIT:
        if where is None or where.lane is None:
            return "a unit goes to the back of lane:0 or lane:1"
        if len(state.boards[seat].lanes[where.lane]) >= LANE_SIZE:
            return "only three units may occupy a lane"
        return ""
    if d.type is CardType.AUGMENT:
        if where is not None and where.loose:
            return ""
        if where is None or where.host is None:
            return "an augment goes to host:<ref> or stays loose until the phase ends"
        host = where.host
        if d.attach is CardType.UNIT and (host not in state.units or state.lane_of(host) is None):
            return "this augment attaches to a unit in play"
        if d.attach is CardType.FACILITY and host not in state.facilities:
            return "this augment attaches to a facility in play"
        return ""
    return "" if where == NOWHERE else "only units and augments are placed"


def quick_forge_problem(
    state: SovereignState, seat: int, handle: int, card: str, source: Area, host: str
) -> str:
    """Salamander Armor's permission (FAQ l. 360): a ``quick_forge`` augment, complete in
    the forge or paid from hand with idle talents, attached to a legal host at once."""
    d = state.catalog.defs[card]
    if not d.quick_forge:
        return "only a card that says so is forged outside the forge phase"
    if source is Area.FORGE:
        slot = state.slot(seat, handle)
        if slot is None or slot.progress < d.cost:
            return f"its forge cost is {d.cost} and it is not complete"
    elif state.boards[seat].citadel[0] < d.cost:
        return f"forging it from hand takes {d.cost} idle talents"
    if d.attach is CardType.UNIT and (host not in state.units or state.lane_of(host) is None):
        return "this augment attaches to a unit in play"
    if d.attach is CardType.FACILITY and host not in state.facilities:
        return "this augment attaches to a facility in play"
    return ""


def reflex_problem(
    state: SovereignState, seat: int, card: str, talents: int, drones: int, targets: tuple[str, ...]
) -> str:
    d = state.catalog.defs[card]
    if d.type is not CardType.REFLEX:
        return "only reflexes are played from the hand"
    if talents + drones != d.cost:
        return f"its cost is {d.cost} citizens"
    return effects.targets_problem(state, seat, d.play, 1, targets)


def unit_count(state: SovereignState, cards: list[str]) -> int:
    return sum(1 for c in cards if state.catalog.defs[c].type is CardType.UNIT)
