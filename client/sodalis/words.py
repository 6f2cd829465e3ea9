"""Sodalis in words for the console: units, spaces, cards, and the log line of each public
event.

:func:`describe_event` takes a typed event (:mod:`engine.sodalis.events`) and dispatches on
its class; a roll is told with each champion's successes, counted against the cast as it
stood when the dice were rolled.
"""

from __future__ import annotations

from typing import Any

from fairtable.client.departures import out_of_the_game
from fairtable.client.sodalis.bots import Board
from fairtable.engine.events import Departed, Event, RoundLimit
from fairtable.engine.sodalis import events as E
from fairtable.engine.sodalis.casting import CRITICAL
from fairtable.engine.sodalis.team import Tribute
from fairtable.engine.sodalis.view import SodalisTable, SodalisView

__all__ = ["TRIBUTES", "card_name", "describe_event", "space_words", "who"]

TRIBUTES = {Tribute.SPEED: "Speed", Tribute.SIGHT: "Sight", Tribute.STRENGTH: "Strength"}
LIFE_WHY = {E.LifeWhy.RECOIL: " (recoil)", E.LifeWhy.ENDURANCE: " (Endurance)"}


def who(table: SodalisTable, unit: int | None, me: int | None) -> str:
    """A unit in words: "you", "seat 1 (the Empress)" (the screen calls seat 1 by its
    player's name: one name per seat, the champion beside it), "the Paragon"."""
    if unit is None or unit < 0:
        return "nobody" if unit is None else "the Paragon"
    if unit == me:
        return "you"
    champion = table.seats[unit].champion
    return f"seat {unit}" if champion is None else f"seat {unit} (the {champion.title()})"


def space_words(s: Any) -> str:
    return f"({s[0]},{s[1]})"


def card_name(view: SodalisView, card: str) -> str:
    return str(view.catalog.face(card).name)


def describe_event(
    event: Event, me: int | None, before: SodalisView | None, after: SodalisView
) -> str | None:
    """One line of words for a public engine event (None: not worth a line).  ``before`` is
    the view before the step that caused it (for a roll's successes), ``after`` after it."""
    table = after.table

    def w(seat: int) -> str:
        return who(table, seat, me)

    def v(seat: int, third: str, second: str) -> str:
        return f"{w(seat)} {second if seat == me else third}"

    def of(seat: int) -> str:  # starts a sentence
        return "Your" if seat == me else f"{w(seat)[0].upper()}{w(seat)[1:]}'s"

    def name(card: str) -> str:
        return card_name(after, card)

    match event:
        case E.Tokens(tokens=tokens):
            first = tokens[0][0]
            again = before is not None and before.table.seats[first].token is not None
            return f"Turn tokens{' rearranged' if again else ''}: " + ", ".join(
                f"{w(s)} {t}" for s, t in tokens
            )
        case E.Champion(seat=seat):
            c = after.catalog.by_id[event.champion]
            return f"{'you' if seat == me else 'seat ' + str(seat)} chose {c.name} ({c.symbol})"
        case E.Reversals():
            flipped = ", ".join(name(x + "~r") for x in event.arcana) or "nothing"
            return f"{w(event.seat)} reversed {flipped}"
        case E.Order():
            return "Turn order: " + ", ".join(w(s) for s in event.seats)
        case E.Flipped():
            return f"{w(event.seat)} turned up " + ", ".join(name(c) for c in event.cards)
        case E.LifeOrdered():
            order = ", then ".join(w(u) for u in event.units)
            return f"{w(event.seat)} ordered the life changes: {order}"
        case E.Placed():
            return v(event.seat, "is placed", "are placed") + f" at {space_words(event.space)}"
        case E.Respawn():
            return f"{w(event.seat)} came back at full life at {space_words(event.space)}"
        case E.Round():
            return f"-- Round {event.number} --"
        case E.Turn():
            return f"{of(event.seat)} turn begins"
        case E.Moved(unit=unit, end=end, why=why):
            if why in (E.MoveWhy.PUSH, E.MoveWhy.PULL):
                return v(unit, "was", "were") + f" {why}ed to {space_words(end)}"
            return f"{w(unit)} moved to {space_words(end)} ({why})"
        case E.Artifact():
            return f"The {event.team.title()} Artifact is carried to {space_words(event.space)}"
        case E.ArtifactDelivered():
            return f"The {event.team.title()} Artifact reached the centre!"
        case E.Cast():
            extra = (" +Sight" if event.sight else "") + (" +Strength" if event.strength else "")
            on = ", ".join(w(u) for u in event.units)
            return f"{w(event.seat)} cast {name(event.card)}" + (f" on {on}" if on else "") + extra
        case E.Roll():
            return "  " + dice_line(event, before)
        case E.Life(unit=unit, before=old, after=new) if old != new:
            verb = v(unit, "loses", "lose") if new < old else v(unit, "gains", "gain")
            said = LIFE_WHY.get(event.why, "") if event.why is not None else ""
            return f"{verb} {abs(new - old)} life: {old}->{new}{said}"
        case E.Fallen():
            return v(event.seat, "falls", "fall") + " to 0 life!"
        case E.TributeEarned():
            return f"Team {event.team.title()} earns the Tribute of {TRIBUTES[event.tribute]}"
        case E.Tribute():
            team, tribute = event.team.title(), TRIBUTES[event.tribute]
            return f"Team {team} gives {tribute} to {w(event.seat)}"
        case E.SightTaken():
            return f"{w(event.seat)} took the Tribute of Sight from the Paragon!"
        case E.SightStolen():
            return f"{w(event.seat)} stole the Tribute of Sight from {w(event.holder)}!"
        case E.Won():
            return f"Team {event.team.title()} wins the Trial of Sodalis!"
        case E.StrengthRefresh(champion=champion):
            return f"Team {event.team.title()} refreshes " + (
                f"a {event.token} token of {w(champion)}" if champion is not None else "nothing"
            )
        case E.Confused() | E.Slowed():
            return v(event.unit, "is", "are") + f" {event.KIND.title()}"
        case E.Exhausted() | E.Refreshed():
            return f"{of(event.unit)} {event.token} token is {event.KIND}"
        case E.ForcedStopped():
            return v(event.unit, "stops", "stop") + ": the way is closed"
        case E.Cycled():
            return f"{of(event.seat)} {name(event.card)} cycles under the deck"
        case E.Continuous():
            return f"{of(event.seat)} {name(event.card)} stays in play until the next turn"
        case E.Top():
            return f"{of(event.seat)} deck shows {name(event.card)}"
        case E.NothingLeft():
            return v(event.seat, "has", "have") + " nothing left to do"
        case RoundLimit():
            return "The round limit is reached: nobody wins"
        case Departed(seat=seat):
            gone = (seat, *after.table.departed)
            teams = [x.team for x in table.seats]
            keeper = next(s for s, t in enumerate(teams) if t is teams[seat] and s not in gone)
            return (
                f"{out_of_the_game(f'seat {seat}')}: {v(keeper, 'plays', 'play')} its champion "
                "from now on"
            )
    return None


def dice_line(roll: E.Roll, before: SodalisView | None) -> str:
    """A roll's dice (criticals, 10 and above, marked ``*``), and each affected champion's
    successes against its inertia (less piercing: the die value that succeeds), counted
    against the cast as it stood when the dice were rolled (``before``: the view then)."""
    values = list(roll.values)
    crit = " CRITICAL" if roll.critical else ""
    cast = before.table.cast if before is not None else None

    def dice(vs: list[int]) -> str:
        return " ".join(f"{v}*" if v >= CRITICAL else str(v) for v in vs)

    if before is None or before.seat is None or cast is None or cast.card != roll.card:
        return "dice " + dice(values) + crit
    main, rest = values[: cast.main], values[cast.main :]
    text = "dice " + dice(main) + crit + (" (recoil " + dice(rest) + ")" if rest else "")
    b = Board(before)
    face = before.catalog.face(cast.card)
    parts = []
    for u in cast.units:
        if u < 0 or not main:
            continue
        need, inertia = b.threshold(cast.seat, face, u, b.at), b.inertia(u, b.at)
        pierce = f", piercing {inertia - need}" if inertia != need else ""
        parts.append(
            f"{who(before.table, u, before.seat)} {sum(x >= need for x in main)} "
            f"(inertia {inertia}{pierce}: {need}+ succeeds)"
        )
    return text + ("; successes: " + ", ".join(parts) if parts else "")
