"""Reign's two upper panes: the table (seats, support, the centre, the armies) and the hand.

They read the seat's :class:`~client.reign.model.ClientModel` only, and return
styled text lines; the game-neutral screen (:mod:`client.app`) finds them through
:mod:`client.games`.
"""

from __future__ import annotations

from typing import Any

from fairtable.client.departures import out_mark
from fairtable.client.games import Pane
from fairtable.client.invite_words import invite_lines
from fairtable.client.reign.words import card_label, house_word
from fairtable.client.screen_model import Lines
from fairtable.engine.reign import WIN_LEGITIMACY, standard_catalog

__all__ = ["hand_lines", "house_style", "panes", "table_lines"]

REIGN = standard_catalog()
DEFS = REIGN.defs


def panes(model: Any) -> tuple[Pane, Pane]:
    """The table pane and the hand pane beside it (their rows break at words, whatever
    the width: nothing in them is cut to it)."""
    return (lambda width: table_lines(model)), (lambda width: hand_lines(model))


def table_lines(model: Any) -> Lines:
    view = model.view
    if view is None:
        lines: Lines = [("class:title", "Reign: The Card Game\n"), ("", model.status + "\n")]
        if model.invite:
            lines += invite_lines(model)
        return lines
    table = view.table
    out: Lines = [("class:title", f"Reign - round {table.round}, {table.phase}\n")]
    holders = {seat: house for house, seat in table.support.items() if seat is not None}
    for seat in range(table.players):
        mark = "*" if seat == table.regent else " "
        style = "class:mine" if seat == model.seat else ""
        army = table.armies.get(seat, ())
        down = len(table.army_down.get(seat, ()))
        extra = f" army {len(army)}+{down}" if seat in table.armies else ""
        house = holders.get(seat)
        extra += out_mark(seat, table.departed)
        out += [
            (
                style,
                f"{mark}{'you' if seat == model.seat else 'seat ' + str(seat)}: "
                f"L{table.legitimacy[seat]}/{WIN_LEGITIMACY} {table.hand_count[seat]}c ",
            ),
            (f"{style} {house_style(house)}", house_word(house) if house else "-"),
            (style, f"{extra}\n"),
        ]
    out.append(("class:dim", "centre "))
    for i, h in enumerate([h for h, s in table.support.items() if s is None]):
        out += [("class:dim", ", " if i else ""), (house_style(h), house_word(h))]
    if not any(s is None for s in table.support.values()):
        out.append(("class:dim", "-"))
    piles = table.piles
    out.append(("class:dim", f"; piles {piles['military']}m {piles['event']}e\n"))
    for seat, cards in sorted(table.armies.items()):
        if cards:
            whose = "your army" if seat == model.seat else f"army of seat {seat}"
            out.append(("class:dim", f"{whose}: " + ", ".join(card_label(c) for c in cards) + "\n"))
    out.append(("class:dim", f"* Regent, c cards; win: Regent with {WIN_LEGITIMACY}+ L\n"))
    return out


def house_style(house: str | None) -> str:
    """The style of a Reign house's words (its data's colour), '' for none."""
    return f"class:house-{REIGN.house(house).colour}" if house else ""


def hand_lines(model: Any) -> Lines:
    if model.seat is None and (model.view is not None or getattr(model, "spectating", False)):
        # nobody is the viewer (a spectator, a replay): no hand is anyone's to show
        return [("class:title", "Hands\n"), ("class:dim", "hidden from spectators\n")]
    out: Lines = [("class:title", "Your hand\n")]
    picked = {c: t for c, t in model.picked()}
    for i, card in enumerate(model.hand(), start=1):
        mark = ">" if card in picked else " "
        where = f" -> seat {picked[card]}" if picked.get(card) is not None else ""
        style = "class:mine" if mark == ">" else house_style(DEFS[card].house)
        out.append((style, f"{mark}{i}. {card_label(card)}{where}\n"))
    if model.view is not None and model.view.facedown:
        out.append(("class:dim", f"{len(model.view.facedown)} of yours face down\n"))
    return out
