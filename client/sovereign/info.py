"""Sovereign's cards for ``info`` (see :mod:`client.card_info`): their words from the engine's
card data, and the cards one seat's view shows -- its hand and forge, what a breach showed
it, and every card in play (leaders, citadels, units and their augments, facilities,
reflexes, loose augments, scored Echoes, scrap piles).  Built only from the seat's
:class:`~engine.sovereign.view.SovereignView`: another seat's face-down card is never named
unless this seat saw it."""

from __future__ import annotations

from typing import Any

from fairtable.client.card_info import Seen, answer_strings
from fairtable.engine.sovereign import standard_catalog
from fairtable.engine.sovereign.kinds import CardType
from fairtable.engine.sovereign.view import SovereignView

__all__ = ["numbered", "option_cards", "visible"]

CATALOG = standard_catalog()
DEFS = CATALOG.defs
HANDLE_FIELDS = {"handle", "handles", "echoes", "discard"}


def _id(card: str) -> str:
    return card.split(">", 1)[0].split(":", 1)[-1]


def card_text(card: str) -> str:
    """A card's printed words: type, cost and stats, then its text and flavour."""
    d = DEFS[_id(card)]
    kind = "Echo" if d.type is CardType.ECHO else d.type
    parts = [f"{d.faction.title()} {d.subtype + ' ' if d.subtype else ''}{kind}"]
    if d.type not in (CardType.LEADER, CardType.CITADEL):
        parts.append(f"cost {d.cost}")
    if d.type is CardType.UNIT:
        health = (
            " + ".join(
                f"{n} {what}{'s' if n != 1 else ''}"
                for n, what in ((d.talents, "talent"), (d.drones, "drone"))
                if n
            )
            or "none"
        )
        parts.append(
            f"attack {d.attack}, armor {d.armor}, health up to {health} (citizens placed on it)"
        )
    if d.keywords:
        parts.append(", ".join(k.title() for k in d.keywords))
    if d.type is CardType.AUGMENT:
        parts.append(f"attaches to a {d.attach}")
    if d.quick_forge:
        parts.append("quick forge")
    flavour = f' "{d.flavour}"' if d.flavour else ""
    text = d.text or (
        "Scores 1 Echo when revealed from your forge (never on the turn it went "
        "in), or when a breach takes it."
        if d.type is CardType.ECHO
        else "No further text."
    )
    return "; ".join(parts) + ". " + text + flavour


def seen(card: str, where: str) -> Seen:
    return Seen(DEFS[_id(card)].name, where, card_text(card))


def _whose(seat: int, me: int | None) -> str:
    return "your" if seat == me else f"seat {seat}'s"


def numbered(model: Any) -> list[Seen]:
    """The hand, numbered as the side pane numbers it."""
    view: SovereignView | None = model.view
    if view is None or view.seat is None:
        return []
    return [seen(c, f"hand {i}") for i, (_, c) in enumerate(view.hand, start=1)]


def _known(view: SovereignView, handle: int) -> str | None:
    """A handle's card, only where this seat may know it (its own, or seen in a breach)."""
    return view.card(handle) or dict(view.seen).get(handle)


def visible(model: Any) -> list[Seen]:
    """Every card this seat can see now."""
    view: SovereignView | None = model.view
    if view is None:
        return []
    table, me = view.table, view.seat
    out = numbered(model)
    for seat, b in enumerate(table.boards):
        w = _whose(seat, me)
        for i, (h, _, _) in enumerate(b.forge, start=1):
            card = _known(view, h)
            if card is not None:
                out.append(seen(card, f"{w} forge #{i}"))
        out += [seen(c, f"seen in {w} hand") for h in b.hand if (c := dict(view.seen).get(h))]
        out += [seen(b.leader, f"{w} Leader"), seen(b.citadel_card, f"{w} Citadel")]
        for lane, refs in zip(("Leader lane", "Citadel lane"), b.lanes, strict=True):
            for ref in refs:
                unit = table.units[ref]
                out.append(seen(unit.card, f"in {w} {lane}"))
                out += [seen(a, f"on {DEFS[unit.card].name}") for a in unit.augments]
        for ref in b.facilities:
            out.append(seen(ref, f"{w} facility"))
            out += [seen(a, f"on {DEFS[_id(ref)].name}") for a in table.facilities[ref].augments]
        out += [seen(r, f"{w} reflex in play") for r, _, _ in b.reflexes]
        out += [seen(r, f"{w} loose augment") for r in b.loose]
        out += [seen(r, f"scored by {'you' if seat == me else f'seat {seat}'}") for r in b.scored]
        out += [seen(c, f"{w} scrap") for c in b.scrap]
    return [item for item in out if item.name]


def option_cards(model: Any, answer: Any) -> list[Seen]:
    """The cards a menu option names: card ids and refs in the answer, and handles this
    seat may know (its own hand and forge, what it saw)."""
    view: SovereignView | None = model.view
    if view is None:
        return []
    out: list[Seen] = []
    for field, value in answer_strings(answer):
        if isinstance(value, str) and _id(value) in DEFS:
            out.append(seen(value, "in this option"))
        elif isinstance(value, int) and not isinstance(value, bool) and field in HANDLE_FIELDS:
            card = _known(view, value)
            if card is not None:
                out.append(seen(card, "in this option"))
    return out
