"""Sodalis's champions and arcana for ``info`` (see :mod:`client.card_info`): their words
from the engine's champion data, and what one seat's view shows -- every chosen champion,
every face-up spread (``info N`` numbers this seat's own), continuous effects, the last
roll's arcana and the arcana a reversals decision may flip.  Built only from the seat's
:class:`~engine.sodalis.view.SodalisView`; another seat's pending reversal choice is not in
it."""

from __future__ import annotations

from typing import Any

from fairtable.client.card_info import Seen, answer_strings
from fairtable.engine.sodalis.answers import ChooseChampion, Reversals
from fairtable.engine.sodalis.cards import FaceEffect, Targets
from fairtable.engine.sodalis.view import SodalisView

__all__ = ["numbered", "option_cards", "visible"]


def face_text(view: SodalisView, card: str) -> str:
    """An arcana face's printed words: action, range, dice, then its text."""
    cat = view.catalog
    face, arcana = cat.face(card), cat.arcana_of(card)
    where = (
        "on yourself"
        if face.targets is Targets.SELF
        else {
            "anywhere": "anywhere",
            "within": f"within {face.reach}",
            "at": f"at range {face.reach}",
        }.get(face.range, face.range)
    )
    parts = [
        f"{cat.by_id[arcana.champion].name}'s {'ultimate ' if arcana.ultimate else ''}"
        f"arcana" + (" (reversal)" if card.endswith("~r") else ""),
        f"{face.action} action, {where}",
    ]
    if face.effect is not FaceEffect.NONE:
        parts.append(
            f"{face.power}d{12 if face.accuracy else 10} {face.effect}"
            + (f", piercing {face.piercing}" if face.piercing else "")
        )
    if arcana.continuous:
        parts.append("continuous")
    other = arcana.reversal if not card.endswith("~r") else arcana.front
    flip = f" Other side: {other.name}." if other is not None else ""
    return "; ".join(parts) + ". " + face.text + flip


def arcana_seen(view: SodalisView, card: str, where: str) -> Seen:
    return Seen(view.catalog.face(card).name, where, face_text(view, card))


def champion_seen(view: SodalisView, champion: str, where: str) -> Seen:
    c = view.catalog.by_id[champion]
    arcana = ", ".join(a.front.name for a in c.arcana)
    return Seen(
        c.name,
        where,
        f"Champion ({c.symbol}): inertia {c.inertia} (a die at or "
        f"above it succeeds against it), life {c.max_life}. {c.passive_text} "
        f"Arcana: {arcana}.",
    )


def _who(seat: int, me: int | None) -> str:
    return "your" if seat == me else f"seat {seat}'s"


def numbered(model: Any) -> list[Seen]:
    """This seat's spread, numbered as the side pane numbers it -- or, while reversals are
    chosen, the arcana as the map pane numbers them for ``flip N`` (both faces)."""
    view: SodalisView | None = model.view
    if view is None or view.seat is None:
        return []
    arcana = model.reversible() if hasattr(model, "reversible") else []
    if arcana:
        return [
            Seen(
                f"{view.catalog.face(a).name}/{view.catalog.face(a + '~r').name}",
                f"arcana {i} (flip {i} reverses it)",
                f"Upright: {face_text(view, a)} Reversed: {face_text(view, a + '~r')}",
            )
            for i, a in enumerate(arcana, start=1)
        ]
    return [
        arcana_seen(view, c, f"spread {i}")
        for i, c in enumerate(view.table.seats[view.seat].spread, start=1)
    ]


def visible(model: Any) -> list[Seen]:
    """Every champion and arcana face this seat can see now."""
    view: SodalisView | None = model.view
    if view is None:
        return []
    me = view.seat
    out = numbered(model)
    for seat, s in enumerate(view.table.seats):
        if s.champion is not None:
            out.append(champion_seen(view, s.champion, f"{_who(seat, me)} champion"))
        if seat != me:
            out += [arcana_seen(view, c, f"{_who(seat, me)} spread") for c in s.spread]
        out += [arcana_seen(view, c, "in play") for c, _ in s.continuous]
    for card in model.reversible():
        out += [
            arcana_seen(view, card, "yours to flip"),
            arcana_seen(view, card + "~r", "its reversal"),
        ]
    roll = view.table.last_roll
    if roll is not None:
        out.append(arcana_seen(view, roll.card, "last roll"))
    return out


def option_cards(model: Any, answer: Any) -> list[Seen]:
    """The champions and arcana a menu option names."""
    view: SodalisView | None = model.view
    if view is None:
        return []
    cat, out = view.catalog, []
    if isinstance(answer, ChooseChampion):
        chosen = answer.champion in cat.by_id
        return [champion_seen(view, answer.champion, "in this option")] if chosen else []
    flips = isinstance(answer, Reversals)
    for _, value in answer_strings(answer):
        if isinstance(value, str) and value in cat.faces:
            out.append(arcana_seen(view, value, "in this option"))
            if flips and value + "~r" in cat.faces:
                out.append(arcana_seen(view, value + "~r", "its reversal"))
    return out
