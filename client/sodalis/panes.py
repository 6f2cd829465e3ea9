"""Sodalis's two upper panes: the arena and the side pane.

The arena comes from ``Arena.text_positions``, one character a space at half the
columns, so it fits 80x24 beside the side pane; the side pane lists the champions,
your spread, continuous effects, the last roll and your own hidden choice.  Both read
the seat's :class:`~client.sodalis.model.ClientModel` only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fairtable.client.departures import out_mark
from fairtable.client.games import Pane
from fairtable.client.invite_words import invite_lines
from fairtable.client.room import FOCUS
from fairtable.client.screen_model import Lines
from fairtable.client.sodalis.model import ClientModel
from fairtable.client.sodalis.words import card_name, space_words, who
from fairtable.client.text_rows import shortened
from fairtable.engine.sodalis.arena import Space, standard_arena
from fairtable.engine.sodalis.cards import Action, FaceEffect, Targets
from fairtable.engine.sodalis.casting import CRITICAL
from fairtable.engine.sodalis.team import TEAMS, Team, Tribute
from fairtable.engine.sodalis.view import SeatTable, SodalisTable, SodalisView

__all__ = ["arena_lines", "map_title", "panes", "side_lines"]

TEAM_STYLE = {Team.DAWN: "fg:ansiyellow", Team.DUSK: "fg:ansicyan"}
LEGEND_WIDTH = 14  # columns of the legend beside the map at 80 (each entry fits: none is cut)


def panes(model: ClientModel) -> tuple[Pane, Pane]:
    """The arena pane and the side pane beside it (read aloud, with no width, the arena
    says where each piece stands in words too)."""
    return (lambda width: arena_lines(model, width)), (lambda width: side_lines(model))


_Board = tuple[Sequence[SeatTable], Mapping[Space, Team]]
"""What the map shows of the seats: each seat's record, and where each Artifact lies."""


# -- the panes ------------------------------------------------------------------------------
def _glyph(
    board: _Board,
    space: tuple[int, int],
    me: int | None,
    units: dict[tuple[int, int], int],
    catalog: Any,
) -> tuple[str, str]:
    """(style, character) of one space: champion, Paragon, Artifact, terrain, base."""
    arena = standard_arena()
    seats, arts = board
    if space in units:
        s = seats[units[space]]
        style = (
            TEAM_STYLE[s.team]
            + " bold"
            + (" reverse" if units[space] == me else "")
            + (" underline" if space in arts else "")
        )
        return style, catalog.by_id[s.champion].symbol
    if space == arena.paragon:
        return "bold", "P"
    if space in arts:
        mine = seats[me].team if me is not None else Team.DAWN
        return TEAM_STYLE[arts[space]], "*" if arts[space] is mine else "o"
    if space in arena.impassable:
        return "class:dim", "#"
    if space == arena.centre:
        return "bold", "+"
    team = next((t for t, base in arena.bases.items() if space in base), None)
    return (TEAM_STYLE[team], ":") if team else ("", ".")


def arena_lines(model: ClientModel, width: int | None) -> Lines:
    """The left pane: the hex arena with its units and a legend (or, while you choose
    reversals, your arcana numbered for ``flip``); read aloud (``width`` None: plain mode),
    where each piece stands, in words."""
    view = model.view
    if view is None and model.seat is not None:  # seated, the first step not yet taken
        arena = standard_arena()
        before: _Board = ((), {arena.artifacts[t]: t for t in TEAMS})
        title = [("class:title", "Sodalis - setting up: the arena\n")]
        return title + _map(before, None, {}, None, None, {}, _legend(None, "-"))
    if view is None:
        lines = [("class:title", "Sodalis\n"), ("", model.status + "\n")]
        if model.invite:
            lines += invite_lines(model)
        return lines
    arcana = model.reversible()
    if arcana:  # no title: up to nine lines must fit the eight or nine rows there are
        return [
            ("", f"{i} {card_name(view, a)}/{card_name(view, a + '~r')}"[:40] + "\n")
            for i, a in enumerate(arcana, start=1)
        ]
    table = view.table
    active = table.active
    turn = (
        ""
        if active is None
        else ", your turn"
        if active == model.seat
        else (f", seat {active}'s turn")
    )
    limit = f"/{table.round_limit}" if table.round_limit else ""
    marked = model.highlighted_space()  # the highlighted move's space
    numbered = model.option_spaces()  # the options' spaces, by option number
    # options name spaces by coordinates: the map shows each option's number on its space,
    # '@' on the highlighted one, whose coordinates the title says
    at = "" if marked is None else f" @ ({marked[0]},{marked[1]})"
    heading = map_title(model, f"round {table.round}{limit}{turn}", at, width)
    out: Lines = [("class:title", heading + "\n")]
    units = {s.at: i for i, s in enumerate(table.seats) if s.at is not None}
    sight = (
        "Paragon"
        if table.paragon_sight
        else next(
            (t.title() for t, held in table.tributes.items() if held[Tribute.SIGHT] is not None),
            "-",
        )
    )
    legend = _legend(model.seat, sight)
    arts = {at: team for team, at in table.artifacts.items() if at is not None}
    out += _map((table.seats, arts), model.seat, units, view.catalog, marked, numbered, legend)
    return out + (_places(table, model.seat) if width is None else [])


def map_title(model: ClientModel, words: str, at: str, width: int | None) -> str:
    """The map's title on one row of the pane's ``width`` columns (issue 31, S1): "Sodalis -
    " and ``words`` (named), then ``at``, the highlighted space; where that is too wide,
    without the game's name, then the words shortened after a whole word with a mark --
    never wrapped.  Whole when read aloud (no width)."""
    words = model.names.text(words)
    if width is None:
        return f"Sodalis - {words}{at}"
    for form in (f"Sodalis - {words}", words[:1].upper() + words[1:]):
        if len(form + at) <= width:
            return form + at
    return shortened(words[:1].upper() + words[1:], max(1, width - len(at))) + at


def _places(table: SodalisTable, me: int | None) -> Lines:
    """Where each piece stands, in words and the options' coordinates (plain mode reads
    them: a map of characters says nothing to a screen reader)."""
    places = [
        f"{who(table, i, me)} at {space_words(s.at)}"
        for i, s in enumerate(table.seats)
        if s.at is not None
    ]
    places.append(f"the Paragon at {space_words(table.paragon_at)}")
    mine = table.seats[me].team if me is not None else None
    for team, at in table.artifacts.items():
        if at is not None:
            owner = "your" if team is mine else f"the {team.name.title()}"
            places.append(f"{owner} Artifact at {space_words(at)}")
    return [("", "Where: " + "; ".join(places) + "\n")]


def _legend(seat: int | None, sight: str) -> list[str]:
    """The map's legend (a watcher's, or a seat's before it knows its team, names the teams,
    in as few columns)."""
    seated = seat is not None
    return [
        "P Paragon",
        "+ centre",
        "* own Artifact" if seated else "* Dawn Artif.",
        "o foe Artifact" if seated else "o Dusk Artif.",
        "# impassable",
        ": base",
        f"Sight: {sight}",
    ]


def _map(
    board: _Board,
    me: int | None,
    units: dict[tuple[int, int], int],
    catalog: Any,
    marked: tuple[int, int] | None,
    numbered: dict[tuple[int, int], int],
    legend: list[str],
) -> Lines:
    """The hex arena's rows, each with its legend entry: units, the highlighted space ``@``,
    the options' numbers."""
    arena = standard_arena()
    rows, cols = arena.text_size
    grid = [[("", " ")] * (cols // 2 + 1) for _ in range(rows)]
    for space, row, col in arena.text_positions():
        grid[row][col // 2] = _glyph(board, space, me, units, catalog)
        if space == marked:
            grid[row][col // 2] = (f"{FOCUS} reverse bold", "@")  # a cut keeps its row
        elif space in numbered:
            grid[row][col // 2] = ("bold underline", str(numbered[space]))
    out: Lines = []
    for row, cells in enumerate(grid):
        out += cells
        out.append(("class:dim", " " + legend[row] if row < len(legend) else ""))
        out.append(("", "\n"))
    return out


def _champion_line(view: SodalisView, seat: int, me: int | None) -> str:
    s, catalog = view.table.seats[seat], view.catalog
    name = "you" if seat == me else f"seat {seat}"
    if s.champion is None:
        return f"  {name} {s.team.title()}: choosing"
    c = catalog.by_id[s.champion]
    tokens = "".join(
        x if a in s.up else "-"
        for x, a in (("M", Action.MAJOR), ("m", Action.MINOR), ("v", Action.MOVE))
    )
    held = "".join(k[:2].title() if up else k[:2] for k, up in s.tributes.items())
    placed = s.at is not None
    marks = (
        ("C" if s.confused else "")
        + ("S" if s.slowed else "")
        + ("!" if placed and 2 * s.life <= c.max_life else "")
    )
    life = f"{s.life:>2}/{c.max_life:<2}" if placed else "  -  "
    left = out_mark(seat, view.table.departed)
    return (
        f"{'>' if view.table.active == seat else ' '}{c.symbol} {name:<6} "
        f"{s.team.title():<4} {life} {tokens} {held} {marks}{left}"
    )


def _card_line(view: SodalisView, index: int, card: str) -> str:
    face = view.catalog.face(card)
    where = (
        "self"
        if face.targets is Targets.SELF
        else {"anywhere": "any", "within": f"in{face.reach}", "at": f"at{face.reach}"}[face.range]
    )
    what = (
        ""
        if face.effect is FaceEffect.NONE
        else (f" {face.power}d{12 if face.accuracy else 10} {face.effect.replace('damage', 'dmg')}")
    )
    name = (face.name + ("~" if card.endswith("~r") else ""))[:17]
    return (
        f"{index} {name} {'M' if face.action == 'major' else 'm'} {where}"
        f"{' all' if face.targets == 'all' else ''}{what}"
    )


def goal_line(table: SodalisTable) -> str:
    """What wins, and how far each team is from it: a team holding all three Tributes."""
    held = ", ".join(
        f"{team.title()} {sum(h is not None for h in got.values())}"
        for team, got in table.tributes.items()
    )
    return f"3 Tributes win: {held}"


def _setting_up(model: ClientModel) -> str:
    """The champions pane before the game's first step: whom the setting up waits for."""
    if model.seat is None:
        return ""
    others = [s for s in model.blocking if s != model.seat]
    waits = ", ".join(f"seat {s}" for s in others) if others else "the table"
    return f"  {model.players} seats; none chosen yet:\n  waiting for {waits}\n"


def side_lines(model: ClientModel) -> Lines:
    """The right pane: champions, your spread, continuous effects, the last roll, your
    hidden simultaneous choice."""
    view = model.view
    if view is None:
        return [("class:title", "Champions\n"), ("", _setting_up(model))]
    me, cat = model.seat, view.catalog
    out: Lines = [
        ("class:mine" if seat == me else "", _champion_line(view, seat, me) + "\n")
        for seat in (view.table.order or range(view.table.players))
    ]
    out.append(("class:title", goal_line(view.table) + "\n"))
    if model.reversible():
        out.append(("class:title", "'flip N N ...' reverses arcana N\n"))
    if view.secret is not None:  # this seat's own simultaneous answer, not yet revealed
        flips = view.secret.get("reversed")
        hidden = (
            (", ".join(card_name(view, x + "~r") for x in flips) or "no reversal")
            if flips is not None
            else "tokens " + " ".join(map(str, view.secret["tokens"]))
        )
        out.append(("class:dim", f"Your hidden choice: {hidden}\n"))
    if me is not None:  # the spread of the champion you play now (a teammate's that left)
        playing = model.decision.acts_for if model.decision is not None else me
        out += [
            ("", _card_line(view, i, c) + "\n")
            for i, c in enumerate(view.table.seats[playing].spread, start=1)
        ]
    roll = view.table.last_roll
    if roll is not None:
        out.append(
            (
                "",
                f"Roll {cat.face(roll.card).name}: "
                + " ".join(f"{v}*" if v >= CRITICAL else str(v) for v in roll.values)
                + (" crit" if roll.critical else "")
                + "\n",
            )
        )
    for s in view.table.seats:
        symbol = cat.by_id[s.champion].symbol if s.champion is not None else "?"
        for card, units in s.continuous:
            on = ",".join("P" if u < 0 else str(u) for u in units)
            out.append(("class:dim", f"{symbol}: {cat.face(card).name} (on {on})\n"))
    return out
