"""Reign's two upper panes: the table (seats, support, the centre, the armies) and the hand;
and the hand drawn compact across the screen (:func:`hand_columns`) when rows are short.

They read the seat's :class:`~client.reign.model.ClientModel` only, and return
styled text lines; the game-neutral screen (:mod:`client.app`) finds them through
:mod:`client.games`.
"""

from __future__ import annotations

import textwrap
from typing import Any

from fairtable.client.departures import out_mark
from fairtable.client.games import Pane
from fairtable.client.invite_words import invite_lines
from fairtable.client.reign.words import card_label, house_word
from fairtable.client.screen_model import Lines
from fairtable.engine.reign import WIN_LEGITIMACY, standard_catalog

__all__ = ["hand_columns", "hand_lines", "house_style", "panes", "table_lines"]

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


def _entry(model: Any, i: int, card: str) -> tuple[str, str, str, str, str]:
    """Card ``i`` of the hand as the hand pane shows it: its style, then its words in four
    parts: ">1. " (">": picked), its name, " [house force]", and " -> seat S" where a picked
    card goes (or '')."""
    picked = dict(model.picked())
    mark = ">" if card in picked else " "
    where = f" -> seat {picked[card]}" if picked.get(card) is not None else ""
    style = "class:mine" if mark == ">" else house_style(DEFS[card].house)
    name = DEFS[card].name
    return style, f"{mark}{i}. ", name, card_label(card)[len(name) :], where


def hand_lines(model: Any) -> Lines:
    if model.seat is None and (model.view is not None or getattr(model, "spectating", False)):
        # nobody is the viewer (a spectator, a replay): no hand is anyone's to show
        return [("class:title", "Hands\n"), ("class:dim", "hidden from spectators\n")]
    out: Lines = [("class:title", "Your hand\n")]
    for i, card in enumerate(model.hand(), start=1):
        style, *words = _entry(model, i, card)
        out.append((style, "".join(words) + "\n"))
    if model.view is not None and model.view.facedown:
        out.append(("class:dim", f"{len(model.view.facedown)} of yours face down\n"))
    return out


def hand_columns(model: Any, width: int, rows: int, remedy: str) -> Lines:
    """The hand compact, across ``width`` columns and in ``rows`` rows at most: a title row
    saying how many cards, then two columns, the first half of the hand beside the rest
    (card 1 beside card 5 of 8).  The columns part where the fewest cards need a second row
    (:func:`_parting`); a card too long for its column goes on, whole, on the row under it
    (broken at a space, its tag kept whole), so that every name shows whole.  Rows short:
    the last row says which cards it leaves out and what shows them (``remedy``)."""
    hand = model.hand()
    title = f"Your hand: {len(hand)} card{'' if len(hand) == 1 else 's'}"
    if model.view is not None and model.view.facedown:
        title += f"; {len(model.view.facedown)} of yours face down"
    entries = []
    for i, card in enumerate(hand, start=1):
        style, number, name, tag, where = _entry(model, i, card)
        where = model.names.log_text(where)  # named before it is measured ("-> Mira")
        tag = " " + tag[1:].replace(" ", _GLUE) + where.replace("> ", ">" + _GLUE)
        entries.append((style, number + name + tag, len(number)))
    half = (len(entries) + 1) // 2
    left, right = entries[:half], entries[half:]
    first = _parting([len(e[1]) for e in left], [len(e[1]) for e in right], width)
    pairs: list[list[Lines]] = []  # card i and card i + half: their rows
    for i, (style, text, indent) in enumerate(left):
        one = [(style, part) for part in _broken(text, first - 2, indent)]
        two: list[tuple[str, str]] = []
        if i < len(right):
            other, text, indent = right[i]
            two = [(other, part) for part in _broken(text, width - first, indent)]
        one += [("", "")] * (len(two) - len(one))
        pair: list[Lines] = []
        for k, (style, part) in enumerate(one):
            pair.append([(style, part.ljust(first)), two[k]] if k < len(two) else [(style, part)])
        pairs.append(pair)
    out: Lines = [("class:title", title + "\n")]
    budget = rows - 1 if 1 + sum(map(len, pairs)) <= rows else rows - 2  # and what is cut
    kept = 0
    while kept < len(pairs) and len(pairs[kept]) <= budget:
        budget -= len(pairs[kept])
        kept += 1
    for pair in pairs[:kept]:
        out += [piece for row in pair for piece in (*row, ("", "\n"))]
    cut = [i + 1 for i in range(kept, half)] + [i + 1 + half for i in range(kept, len(right))]
    if cut:
        words = ", ".join(map(str, cut))
        plural = "s" if len(cut) > 1 else ""
        out.append(("class:dim", f"+{len(cut)} more: card{plural} {words} ({remedy})"))
    return out


def _parting(left: list[int], right: list[int], width: int) -> int:
    """Where the second column starts: at the column that has the fewest cards (their
    lengths ``left`` and ``right``, beside each other) too long for a row, nearest the
    first column's longest card (and a gap of two)."""
    want = max(left, default=0) + 2

    def cost(first: int) -> tuple[int, int]:
        over = sum(
            a > first - 2 or (i < len(right) and right[i] > width - first)
            for i, a in enumerate(left)
        )
        return over, abs(first - want)

    return min(range(max(8, width // 4), max(9, width - 7)), key=cost)


def _broken(text: str, room: int, indent: int) -> list[str]:
    """A card's words broken at spaces into rows of ``room`` columns, the further rows
    indented past its number."""
    rows = textwrap.wrap(
        text, max(room, indent + 4), subsequent_indent=" " * indent, break_on_hyphens=False
    )
    return [row.replace(_GLUE, " ") for row in rows or [text]]


_GLUE = "\xa0"
"""Holds a card's tag ("[Essendel 4 unique]") together on one row while its words break."""
