"""Sovereign's answers in words: how the console names one legal answer in a decision's
menu ("play <card> (hand 2) into the forge", "forge the unit <card> (forge 1) ...").

:func:`label` is the one source of those words; :mod:`client.sovereign.model` lists the
menu with it and the tests read it.
"""

from __future__ import annotations

from typing import Any

from fairtable.client.sovereign.panes import (
    DEFS,
    LANE_NAMES,
    citizens,
    move_words,
    name,
    ref_words,
    slot_words,
    target_words,
    whose,
)
from fairtable.client.sovereign.words import targets_words
from fairtable.engine.requests import Decision, DecisionKind
from fairtable.engine.sovereign import answers as A
from fairtable.engine.sovereign.decisions import (
    AddHealthInfo,
    LossesInfo,
    OptionalEffectInfo,
    SovereignDecisionKind,
)
from fairtable.engine.sovereign.kinds import LEADER, CardType, HealthSource, Op
from fairtable.engine.sovereign.placement import Placement
from fairtable.engine.sovereign.view import SovereignView

__all__ = ["kind_of", "label"]


LOOSE = ", attach it at the forge's end (scrapped if nothing can host it then)"
"""How an augment forged loose is placed: at the end of the forge phase, onto a host then
on the board -- and with none, scrapped (the option says so: it is no promise of a host)."""


def _hand_index(view: SovereignView, handle: int) -> str:
    for i, (h, card) in enumerate(view.hand, start=1):
        if h == handle:
            return f"{name(card)} (hand {i})"
    return "a hand card"


def _forge_index(view: SovereignView, handle: int) -> tuple[int, str, int]:
    b = view.table.boards[view.seat].forge if view.seat is not None else ()
    for i, (h, progress, _) in enumerate(b, start=1):
        if h == handle:
            return i, view.card(h) or "?", progress
    return 0, "?", 0


def label(view: SovereignView, d: Decision, a: Any) -> str:
    """One answer in words."""
    me = view.seat
    if isinstance(a, A.Mulligan):
        return {
            "keep": "keep this hand",
            "free": "free mulligan: hand back into the deck, draw 8 new cards",
            "shown": "shown mulligan: show your hand (no unit) and draw 8",
        }[a.choice]
    if isinstance(a, A.OrderTriggers):
        return "resolve " + ", then ".join(name(r) for r in a.order)
    if isinstance(a, A.UpkeepReturn):
        if not a.returns:
            return "take nobody back"
        return "take back " + ", ".join(
            f"a {k} from {'your Leader' if c == 'leader' else name(c)}" for c, k in a.returns
        )
    if isinstance(a, A.Pass):
        ends: dict[DecisionKind, str] = {
            SovereignDecisionKind.FORGE: "end your forge actions",
            SovereignDecisionKind.MOVE: "end the move phase",
        }
        return ends.get(d.kind, "pass")
    if isinstance(a, A.PlayToForge):
        return f"play {_hand_index(view, a.handle)} into the forge"
    if isinstance(a, A.Accelerate):
        i, card, progress = _forge_index(view, a.handle)
        return (
            f"accelerate {name(card)} (forge {i}, {progress}/{DEFS[card].cost}) by "
            f"{a.amount}, flipping {a.amount} talent{'s' if a.amount > 1 else ''}"
        )
    if isinstance(a, A.ForgeCard):
        i, card, _ = _forge_index(view, a.handle)
        place = Placement.parse(a.place)
        if place is not None and place.host is not None:
            where = " onto " + target_words(view, place.host)
        elif place is not None and place.lane is not None:
            where = f" to your {LANE_NAMES[place.lane]}"
        else:
            where = LOOSE if place is not None and place.loose else ""
        verb = (
            "score the Echo" if DEFS[card].type is CardType.ECHO else f"forge the {kind_of(card)}"
        )
        return f"{verb} {name(card)} (forge {i}){where}"
    if isinstance(a, A.PlayReflex):
        return (
            f"play {_hand_index(view, a.handle)} paying {citizens((a.talents, a.drones))}"
            + targets_words(view, a.targets)
        )
    if isinstance(a, A.Work):
        card = "your Leader" if a.card == LEADER else name(a.card)
        uses = f" x{a.uses}" if a.uses > 1 else ""
        return f"work {card}{uses}" + targets_words(view, a.targets)
    if isinstance(a, A.Move):
        return (
            ("Airborne: " if a.airborne else "")
            + f"move {ref_words(a.unit, me)} "
            + move_words(a.where)
        )
    if isinstance(a, A.QuickForge):
        card = view.card(a.handle) or "?"
        return f"forge {name(card)} from your {a.source} onto {target_words(view, a.host)}"
    if isinstance(a, A.Attack):
        if a.lane is None:
            return "do not attack"
        attackers = view.table.boards[a.seat].lanes[a.lane][: a.count]
        area = "hand" if a.target_lane == 0 else "forge"
        return (
            f"attack {whose(a.target, me)} {area} with "
            + ", ".join(name(u) for u in attackers)
            + f" ({LANE_NAMES[a.lane]})"
        )
    if isinstance(a, A.FinishForge):
        added = [f"{name(r)} {citizens((t, dr))}" for r, t, dr in a.health]
        parts = ["health: " + ", ".join(added)] if added else []
        parts += [f"{name(r)} to the {LANE_NAMES[ln]}" for r, ln in a.lanes]
        parts += [
            f"{name(x)} onto {target_words(view, h)}"
            if h
            else f"{name(x)} scrapped (it has no {_host_kind(x)} to go on)"
            for x, h in a.attach
        ]
        return "; ".join(parts) if parts else "done"
    if isinstance(a, A.Losses):
        units = dict(LossesInfo.of(d).units)
        return "; ".join(
            f"{name(r)} loses {citizens((t, units.get(r, t) - t))}" for r, t in a.talents
        )
    if isinstance(a, A.BreachPick):
        forge = [x[0] for b in view.table.boards for x in b.forge]
        return "look at " + ", ".join(
            slot_words(view, h)
            for h in sorted(a.handles, key=lambda h: forge.index(h) if h in forge else h)
        )
    if isinstance(a, A.AddHealth):
        health = AddHealthInfo.of(d)
        frm = (
            "the creche"
            if health.source is not HealthSource.CITADEL
            else f"{whose(health.by, d.seat)} Citadel"
        )
        verb = "restores" if health.op is Op.RESTORE_HEALTH else "adds"
        return (
            f"{name(health.unit)} {verb} "
            f"{citizens((a.talents, health.amount - a.talents))} from {frm}"
        )
    if isinstance(a, A.OptionalEffect):
        card = name(OptionalEffectInfo.of(d).source)
        return f"use {card}" + targets_words(view, a.targets) if a.use else f"do not use {card}"
    if isinstance(a, A.Findings):
        seen = dict(view.seen)
        if a.echoes:
            return "score " + ", ".join(name(seen.get(h, "?")) for h in a.echoes)
        if a.discard is not None:
            return f"discard {name(seen.get(a.discard, '?'))}"
        return "no Echo found: the cards stay"
    return repr(a)


def _host_kind(aug: str) -> str:
    """What an augment goes on: "unit" or "facility" (its card says)."""
    d = DEFS.get(aug.split(":", 1)[-1])
    return "facility" if d is not None and d.attach is CardType.FACILITY else "unit"


def kind_of(card: str) -> str:
    return DEFS[card].type
