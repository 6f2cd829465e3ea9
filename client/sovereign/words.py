"""Sovereign's public events in words, for the console log (one line, or none, an event).

:func:`describe_event` takes a typed event (:mod:`engine.sovereign.events`) and dispatches
on its class.  Combat is told round by round, so it reads and updates the combat round and
the declared fight that the screen model keeps (:class:`CombatLog`).
"""

from __future__ import annotations

from typing import Any, Protocol

from fairtable.client.departures import departed_words
from fairtable.client.sovereign.panes import (
    LANE_NAMES,
    breach_words,
    citizens,
    move_words,
    name,
    ref_words,
    slot_words,
    target_words,
    who,
    whose,
)
from fairtable.engine.events import Departed, Event, FirstPlayer, RoundLimit
from fairtable.engine.sovereign import events as E
from fairtable.engine.sovereign.kinds import LEADER
from fairtable.engine.sovereign.placement import Placement
from fairtable.engine.sovereign.view import SovereignView

__all__ = ["CombatLog", "describe_event", "targets_words"]


class CombatLog(Protocol):
    """What the wording of combat reads and keeps on the screen model."""

    seat: int | None
    combat_round: int
    fight: dict[str, Any]

    def round_of(self, src: str, tgt: str) -> int: ...


def targets_words(view: SovereignView, targets: tuple[str, ...]) -> str:
    """ " on A, B" for an effect's targets ("" for none)."""
    return (" on " + ", ".join(target_words(view, t) for t in targets)) if targets else ""


MULLIGAN_WORDS = {
    "keep": "kept the hand",
    "free": "took a free mulligan",
    "shown": "showed a hand with no unit and mulliganed",
}


def describe_event(event: Event, model: CombatLog, view: SovereignView) -> str | None:
    """One line of words for a public engine event (None: not worth a line).  ``view`` is the
    seat's view after the step; ``model`` keeps the combat round count."""
    me = model.seat

    def w(seat: int) -> str:
        return who(seat, me)

    def s(seat: int, verb: str = "s") -> str:  # "you play", "seat 1 plays"
        return "" if seat == me else verb

    def r(ref: str) -> str:
        return ref_words(ref, me)

    def owner(ref: str) -> int:
        return int(ref.split(":")[0])

    match event:
        case FirstPlayer(seat=seat):
            return f"{w(seat)} play{s(seat)} first"
        case E.Mulligan(seat=seat, choice=choice):
            return f"{w(seat)} {MULLIGAN_WORDS[choice]}"
        case E.Revealed(label="mulligan"):
            return f"{w(event.seat)} showed: " + ", ".join(name(c) for c in event.cards)
        case E.Turn():
            model.combat_round = 0
            return f"-- Turn {event.number}: {whose(event.seat, me)} turn --"
        case E.UpkeepReturn():
            card = "Leader" if event.card == LEADER else name(event.card)
            return f"{w(event.seat)} took a {event.citizen} back from {card}"
        case E.ReflexEnds():
            return f"{r(event.ref)} (reflex) is scrapped at upkeep"
        case E.ToForge(seat=seat):
            own = view.card(event.handle) if seat == me else None
            return f"{w(seat)} put {name(own) if own else 'a card'} face down into the forge"
        case E.Accelerate(seat=seat):
            what = slot_words(view, event.handle).replace(f"{whose(seat, me)} forge", "forge")
            return f"{w(seat)} accelerated {what} by {event.amount}"
        case E.Forged(ref=ref):
            place = Placement.parse(event.place)
            lane = None if place is None else place.lane
            where = "" if lane is None else f" into the {LANE_NAMES[lane]}"
            return f"{w(owner(ref))} forged {name(ref)}{where}"
        case E.Scored(seat=seat, ref=ref):
            frm = "" if owner(ref) == seat else f" (from {whose(owner(ref), me)} cards)"
            got = len(view.table.boards[seat].scored)
            return f"{w(seat)} scored the Echo {name(ref)}{frm}: {got}/{view.table.echo_target}"
        case E.FirstHealth():
            return f"{r(event.ref)} gets first health {citizens((event.talents, event.drones))}"
        case E.Attached():
            return f"{r(event.augment)} is attached to {r(event.host)}"
        case E.Scrapped():
            return f"{r(event.ref)} is scrapped"
        case E.NoAttack():
            return f"{w(event.seat)} did not attack"
        case E.Attack(seat=seat):
            model.combat_round = 0
            model.fight = {"order": list(event.order), "spaces": None}
            area = "hand (Leader lane)" if event.lane == 0 else "forge (Citadel lane)"
            return f"{w(seat)} attack{s(seat)} {whose(event.target, me)} {area} with " + ", ".join(
                name(u) for u in event.order
            )
        case E.CombatDamage():
            line = f"  {r(event.source)} deals {event.amount} to {r(event.target)}"
            n = model.round_of(event.source, event.target)
            if n != model.combat_round:
                model.combat_round = n
                return f"Combat round {n}:\n{line}"
            return line
        case E.Lost():
            return f"  {r(event.ref)} loses {citizens((event.talents, event.drones))}"
        case E.Breach(attacker=seat):
            return (
                f"{w(seat)} breach{s(seat, 'es')} {whose(event.defender, me)} {event.area}: "
                f"breach value {event.value}" + breach_words(view, event.value)
            )
        case E.Peek(seat=seat, victim=victim, handles=handles):
            looked = [view.card(h) for h in handles] if victim == me else []  # your own: named
            return f"{w(seat)} look{s(seat)} at {len(handles)} of {whose(victim, me)} cards" + (
                ": " + ", ".join(name(c) for c in looked if c) if looked and all(looked) else ""
            )
        case E.Discarded():
            return f"{name(event.card)} is discarded from {whose(event.seat, me)} hand"
        case E.Rehandle():
            return (
                f"{whose(event.seat, me).capitalize()} hand is taken back up ({event.count} cards)"
            )
        case E.Draw(seat=seat):
            return f"{w(seat)} draw{s(seat)} {event.count}"
        case E.DeckEmpty():
            return f"{whose(event.seat, me).capitalize()} deck is empty"
        case E.Reflex(ref=ref):
            return f"{w(owner(ref))} played the reflex {name(ref)}" + targets_words(
                view, event.targets
            )
        case E.Work():
            uses = f" x{event.uses}" if event.uses > 1 else ""
            return f"{r(event.ref)} is worked{uses}" + targets_words(view, event.targets)
        case E.Damage():
            return (
                f"{name(event.source)} deals {event.amount} damage to {r(event.target)} "
                f"({event.lost} lost)"
            )
        case E.LoseHealth():
            return f"{name(event.source)}: {r(event.target)} loses {event.amount} health"
        case E.AddHealth() | E.RestoreHealth():
            if not event.talents + event.drones:
                return None
            verb = "add" if isinstance(event, E.AddHealth) else "restore"
            return f"{r(event.ref)} {verb}s health {citizens((event.talents, event.drones))}"
        case E.Gain(seat=seat):
            return f"{w(seat)} gain{s(seat)} {citizens((event.talents, event.drones))}"
        case E.FlipDrones():
            return f"{event.count} drones on {whose(event.seat, me)} Citadel flip to talents"
        case E.Optional(seat=seat, source=source):
            return (
                f"{w(seat)} use{s(seat)} {name(source)}" + targets_words(view, event.targets)
                if event.used
                else f"{w(seat)} decline{s(seat)} {name(source)}"
            )
        case E.TempStat():
            return (
                f"{name(event.source)} changes {r(event.target)} until the end of the phase"
                if event.target
                else f"{name(event.source)} takes effect until the end of the phase"
            )
        case E.Move():
            return f"{r(event.ref)} moves {move_words(event.where)}"
        case E.Fizzle():
            return f"{name(event.source)} fizzles: its target is gone"
        case E.Mutated():
            return f"{r(event.ref)} becomes {name(event.card)}"
        case E.StealTalent() | E.SlaverRaid():
            taker, victim = (
                (w(event.seat), event.victim)
                if isinstance(event, E.StealTalent)
                else (name(event.source), event.defender)
            )
            return f"{taker} takes {event.count} talent(s) from {whose(victim, me)} Citadel"
        case E.Gust():
            return f"Gust: {target_words(view, event.target)}"
        case E.SecondWind():
            return f"Second Wind: {target_words(view, str(event.seat))}"
        case RoundLimit():
            return "The round limit is reached: nobody wins"
        case Departed(seat=seat, set_aside=n):
            return departed_words(w(seat), n)
        case E.GameOver(winner=winner):
            return (
                f"{w(winner)} win{s(winner)} the game!"
                if winner is not None
                else "The game ends with no winner"
            )
    return None
