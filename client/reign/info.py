"""Reign's cards for ``info`` (see :mod:`client.card_info`): their words from the engine's
card data, and the cards one seat's view shows -- its hand, its own face-down cards, the
face-up armies, revealed bids, the discard piles and the houses' support cards.  Built only
from the seat's :class:`~engine.reign.ReignView`."""

from __future__ import annotations

from typing import Any

from fairtable.client.card_info import Seen, answer_strings
from fairtable.engine.reign import ReignView, standard_catalog

__all__ = ["card_seen", "house_seen", "numbered", "option_cards", "visible"]

CATALOG = standard_catalog()
DEFS = CATALOG.defs


def card_text(card: str) -> str:
    """A card's printed words: kind, house and force (military) or phase (events), its
    text and flavour, all from the card data."""
    d = DEFS[card]
    if d.military:
        house = CATALOG.house(d.house or "").name if d.house else "no house"
        head = f"{house} military card, force {d.force}" + (", unique" if d.unique else "")
        body = d.text or "No special ability: it adds its force."
    else:
        phase = (
            "influence-phase event (placed face down with a bid)"
            if d.influence
            else "plotting-phase event"
        )
        head = ("Betrayal " if d.betrayal else "") + phase
        body = d.text or "No further text."
    flavour = f' "{d.flavour}"' if d.flavour else ""
    return f"{head}. {body}{flavour}"


def card_seen(card: str, where: str) -> Seen:
    return Seen(DEFS[card].name, where, card_text(card))


def house_seen(house_id: str, where: str) -> Seen:
    h = CATALOG.house(house_id)
    return Seen(
        h.name,
        where,
        f"Support card: {h.support} ({h.colour}). An army it backs gets "
        f"+1 force for each of its {h.name} military cards (the house bonus). {h.text}",
    )


def _whose(seat: int, me: int | None) -> str:
    return "your" if seat == me else f"seat {seat}'s"


def numbered(model: Any) -> list[Seen]:
    """The hand, numbered as the side pane numbers it."""
    view: ReignView | None = model.view
    if view is None:
        return []
    return [card_seen(c, f"hand {i}") for i, c in enumerate(view.hand, start=1)]


def visible(model: Any) -> list[Seen]:
    """Every card this seat can see now."""
    view: ReignView | None = model.view
    if view is None:
        return []
    table, me = view.table, view.seat
    out = numbered(model)
    out += [card_seen(c, "yours, face down") for _, c in view.facedown]
    for seat, cards in sorted(table.armies.items()):
        out += [card_seen(c, f"face up in {_whose(seat, me)} army") for c in cards]
    for seat, cards in sorted(table.bid_cards.items()):
        out += [card_seen(c, f"{_whose(seat, me)} revealed bid") for c in cards]
    for pile, cards in sorted(table.discards.items()):
        out += [card_seen(c, f"{pile} discards") for c in cards]
    holders = dict(table.support)
    for house in table.houses:
        s = holders.get(house)
        out.append(
            house_seen(
                house,
                "in the centre" if s is None else f"held by {'you' if s == me else f'seat {s}'}",
            )
        )
    return out


def option_cards(model: Any, answer: Any) -> list[Seen]:
    """The cards (and houses) a menu option names: only ids in the answer, which the seat's
    own menu built from its view."""
    view: ReignView | None = model.view
    if view is None:
        return []
    houses = set(view.table.houses)
    out: list[Seen] = []
    for _, value in answer_strings(answer):
        if isinstance(value, str) and value in DEFS:
            out.append(card_seen(value, "in this option"))
        elif isinstance(value, str) and value in houses:
            out.append(house_seen(value, "in this option"))
    return out
