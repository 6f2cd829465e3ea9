"""Why a Reign battle came out as it did: each army's total broken down into its cards, the
house bonus and the events, for the log under the "Combat:" line.

Everything comes from public facts (the armies after the reveal, who held which support
card, the Regent, the order each owner gave its army and the ties the Regent settled, as
the log told them) counted by the engine's own
:func:`engine.reign.combat.resolved_armies`, so a breakdown always sums to the total the
engine announced; the model checks that and says nothing rather than something wrong if it
ever does not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fairtable.engine.reign import standard_catalog
from fairtable.engine.reign.combat import Army, ArmySpec, next_tie, resolved_armies

__all__ = ["army_parts", "breakdown_lines", "tie_picks"]

CATALOG = standard_catalog()


def army_parts(army: Army) -> dict[str, Any]:
    """An army's total in parts: the military cards' forces (abilities included), the house
    bonus, the events' flat change, the cards that deserted, and the total (never below 0)."""
    cards = [(c.card.name, c.printed, c.force) for c in army.military()]
    bonus_each = 0 if army.no_bonus else army.bonus
    matching = sum(1 for c in army.military() if army.house is not None and c.house == army.house)
    bonus = bonus_each * matching if army.house is not None else 0
    raw = sum(f for _, _, f in cards) + bonus + army.flat
    return {
        "cards": cards,
        "bonus": bonus,
        "matching": matching,
        "no_bonus": army.no_bonus,
        "events": army.flat,
        "deserted": [c.card.name for c in army.cards if c.removed],
        "total": max(raw, 0),
        "floor": raw < 0,
    }


def tie_picks(
    spec: Sequence[ArmySpec],
    regent: int | None,
    orders: Mapping[int, Sequence[str]],
    ties: Sequence[Sequence[str]],
) -> dict[str, str] | None:
    """The tie picks the engine resolved combat with, from the logged ``combat_tie`` answers
    (``(card, op, pick)`` in the order they were given): each is found again as the engine
    asked it (:func:`engine.reign.combat.next_tie`, the ties before it that changed nothing
    taking their first option), which gives its key.  ``None`` when the log does not fit."""
    picks: dict[str, str] = {}
    for card, op, pick in ties:
        fixed, tie = next_tie(CATALOG, spec, regent, orders, picks)
        if tie is None or (tie.card, tie.op) != (card, op) or pick not in tie.options:
            return None
        picks = {**fixed, tie.key: pick}
    return picks


def _card(name: str, printed: int, force: int) -> str:
    return f"{name} {force}" + (
        f" ({printed}{force - printed:+d} ability)" if force != printed else ""
    )


def breakdown_lines(
    totals: Sequence[Sequence[int]],
    armies: dict[int, list[str]],
    support: Mapping[str, int | None],
    houses: Sequence[str],
    regent: int | None,
    me: int | None,
    orders: Mapping[int, Sequence[str]] | None = None,
    ties: Sequence[Sequence[str]] = (),
) -> list[str]:
    """One line an army: how its total was reached.  ``totals`` is the engine's
    ``combat_totals`` (owner, total) in turn order; ``armies`` every card in each army after
    the reveal; ``support`` and ``regent`` as they stood at the battle; ``orders`` each
    owner's order of its army (``army_ordered``) and ``ties`` the settled ties
    (``combat_tie``: card, op, pick).  Empty if the count does not give the engine's totals
    (then the log keeps the totals only)."""
    spec: list[ArmySpec] = [
        (s, next((h for h in houses if support.get(h) == s), None), armies.get(s, []))
        for s, _ in totals
    ]
    orders = dict(orders or {})
    picks = tie_picks(spec, regent, orders, ties)
    if picks is None:
        return []
    built = resolved_armies(CATALOG, spec, regent, orders, picks)
    lines = []
    for (seat, total), army in zip(totals, built, strict=True):
        parts = army_parts(army)
        if parts["total"] != total:
            return []
        who = "you" if seat == me else f"seat {seat}"
        words = [", ".join(_card(*c) for c in parts["cards"]) or "no military cards"]
        if army.house is not None:
            house = CATALOG.house(army.house).name
            words.append(
                f"{house} bonus cancelled"
                if parts["no_bonus"]
                else f"{house} bonus +{parts['bonus']} ({parts['matching']} card"
                f"{'s' if parts['matching'] != 1 else ''})"
            )
        if parts["events"]:
            words.append(f"events {parts['events']:+d}")
        if parts["deserted"]:
            words.append("deserted: " + ", ".join(parts["deserted"]))
        floor = " (not below 0)" if parts["floor"] else ""
        lines.append(f"  {who} {total}{floor} = " + "; ".join(words))
    return lines
