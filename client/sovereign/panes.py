"""The Sovereign screen's words and panes: card and unit labels, the table pane and the side
pane (see :mod:`client.sovereign.model`).

Everything here reads only the seat's :class:`~engine.sovereign.SovereignView`: the public
state (lanes, citizens, facilities, reflexes, forge progress, scored Echoes) and the seat's
own hand and forge cards and what it saw in a breach.  Another seat's face-down card is
shown as its forge position and progress only, unless this seat saw it in a breach.

Table pane (left): one summary row per seat from you round the table, then each seat's
details in the same order, so that a short pane (80x24, four to six seats) cuts details,
never a seat's progress (issue 31)::

    R3/60 turn 7, Blaise: forge           the round, whose turn, which phase
    >you    Machina E3/12 hand 8          > active seat, * a neighbour (you may attack it)
    *Blaise Myrmidon E1/12 hand 7         Echoes scored/to win, cards in hand
     you: cit 2t1d deck 29; forge 3/5 2/2!  progress[/cost, ! ready] per forge card
      L: Phalanx 2/1 2d | Mites 1/0 1d    Leader lane (defends the hand), front first
      C: Siege Automaton 3/2 4d           Citadel lane (defends the forge)
      Titan Cannon 3d; ldr 1t; rfx ..     colony: workers, reflexes in play
     Blaise: cit 0 deck 38; forge 2 1=Siege Platform  (another seat's: progress[=seen card])

Card names are whole in the table pane (its rows break at words); a side pane row's name
column shortens a name its width cannot hold after a whole word, with one mark
(:func:`short`).  Each part of a pane starts a section (:data:`client.room.SECTION`: "Hand",
"forge", "Echoes", a seat's name), so that a cut counts what it hides section by section.

Side pane (right): your hand, numbered for ``play N``; your forge with names and costs,
numbered for ``acc N``/``reveal N``; cards you saw in breaches; scrap piles.
"""

from __future__ import annotations

from typing import Any, Protocol

from prompt_toolkit.formatted_text import StyleAndTextTuples

from fairtable.client.departures import out_mark
from fairtable.client.games import Pane
from fairtable.client.invite_words import invite_lines
from fairtable.client.room import clipped, fit, rows_of, screen_size, side_width
from fairtable.client.screen_model import Lines
from fairtable.client.seat_names import SeatNames
from fairtable.client.text_rows import listed, shortened
from fairtable.engine.sovereign import effects, standard_catalog
from fairtable.engine.sovereign.battle import breach_parts
from fairtable.engine.sovereign.choices import state_of
from fairtable.engine.sovereign.kinds import CardType, TurnPhase
from fairtable.engine.sovereign.view import SovereignView


class PaneModel(Protocol):
    """What the panes read of the screen's model (client.sovereign.model.ClientModel)."""

    @property
    def view(self) -> Any: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def status(self) -> str: ...
    @property
    def invite(self) -> str: ...
    @property
    def names(self) -> SeatNames: ...


CATALOG = standard_catalog()
DEFS = CATALOG.defs
LANE_NAMES = ("Leader lane", "Citadel lane")
LANE_SHORT = ("L", "C")


def panes(model: PaneModel) -> tuple[Pane, Pane]:
    """The table pane (its rows break at words: names whole at any width) and the side pane
    beside it, for the columns it is drawn in (``None``: read aloud, no name shortened)."""
    return (lambda width: table_lines(model, width)), (lambda width: side_lines(model, width))


# -- words ----------------------------------------------------------------------------------
def who(seat: int | None, me: int | None) -> str:
    if seat is None:
        return "nobody"
    return "you" if seat == me else f"seat {seat}"


def whose(seat: int, me: int | None) -> str:
    return "your" if seat == me else f"seat {seat}'s"


def name(card: str) -> str:
    """A card's name from its id or ref."""
    d = DEFS.get(card.split(":", 1)[-1])
    return d.name if d is not None else card


def short(card: str, width: int) -> str:
    """A card's name in a column of ``width`` that cannot grow (the side pane's hand and
    forge rows): whole when it fits, else shortened after a whole word with one mark
    (:func:`~client.text_rows.shortened`: "Shieldwall\u2026", which ``info`` still finds).
    Rows that break at words (the table pane, the piles) and a pane read aloud (plain mode:
    :func:`column_rows` with no width) say names whole."""
    whole_name = name(card)
    return whole_name if len(whole_name) <= width else shortened(whole_name, width)


def citizens(pair: Any) -> str:
    """Citizens as ``2t1d`` (``0`` for none)."""
    t, d = pair
    text = (f"{t}t" if t else "") + (f"{d}d" if d else "")
    return text or "0"


def tag(card: str) -> str:
    """A compact type tag: ``U5 3/1 2t3d``, ``E2``, ``R2``, ``F4``, ``A3u``."""
    d = DEFS[card.split(":", 1)[-1]]
    if d.type is CardType.UNIT:
        kw = "".join(" " + k[:3].title() for k in d.keywords)
        return f"U{d.cost} {d.attack}/{d.armor} {citizens((d.talents, d.drones))}{kw}"
    letter = {
        CardType.ECHO: "E",
        CardType.REFLEX: "R",
        CardType.FACILITY: "F",
        CardType.AUGMENT: "A",
    }.get(d.type, "?")
    return f"{letter}{d.cost}" + (d.attach[:1] if d.attach is not None else "")


def ref_words(ref: str, me: int | None) -> str:
    """A card in play: ``your Sentinels`` / ``seat 1's Sentinels``."""
    owner = ref.split(":", 1)[0]
    if not owner.isdecimal():
        return name(ref)
    return f"{whose(int(owner), me)} {name(ref)}"


def slot_words(view: SovereignView, handle: int) -> str:
    """A forge card by position (and name, where this seat may know it)."""
    for seat, b in enumerate(view.table.boards):
        for i, (h, _, _) in enumerate(b.forge, start=1):
            if h == handle:
                known = view.card(h) or dict(view.seen).get(h)
                what = f" ({name(known)})" if known else ""
                return f"{whose(seat, view.seat)} forge #{i}{what}"
    known = view.card(handle) or dict(view.seen).get(handle)
    return name(known) if known else "a face-down card"


def target_words(view: SovereignView, entry: str) -> str:
    me = view.seat
    if entry.startswith("slot:") and entry[5:].isdecimal():
        return slot_words(view, int(entry[5:]))
    if entry.startswith("seat:") and entry[5:].isdecimal():
        return who(int(entry[5:]), me) + ("r Citadel" if int(entry[5:]) == me else "'s Citadel")
    if ">" in entry:
        ref, _, where = entry.partition(">")
        return f"{ref_words(ref, me)} {move_words(where)}"
    return ref_words(entry, me)


def move_words(where: str) -> str:
    return {"up": "up", "down": "down", "other": "to the other lane"}.get(where, where)


# -- current stats (augments, reflexes and phase effects included) ------------------------------
_STATE_CACHE: dict[int, Any] = {}


def state_for(view: SovereignView) -> Any:
    """The engine state rebuilt from the view (cached for the last view seen)."""
    key = id(view)
    found = _STATE_CACHE.get(key)
    if found is None or found[0] is not view:
        _STATE_CACHE.clear()
        found = (view, state_of(view))
        _STATE_CACHE[key] = found
    return found[1]


def unit_text(view: SovereignView, ref: str) -> str:
    """A unit in a lane, its name and its augments' names whole (the row breaks at words):
    ``Shieldwall Cohort 4/1 1d+Gladius Pilum``."""
    u = view.table.units[ref]
    try:
        atk, arm = effects.stats(state_for(view), ref)
    except (KeyError, IndexError, AttributeError):
        d = DEFS[u.card]
        atk, arm = d.attack, d.armor
    augs = "".join("+" + name(a) for a in u.augments)
    new = "(new)" if u.new else ""
    return f"{name(ref)} {atk}/{arm} {citizens(u.health)}{new}{augs}"


def breach_words(view: SovereignView, value: int) -> str:
    """Why a breach has the value it has, from the battle in ``view`` counted by the engine's
    own :func:`~engine.sovereign.battle.breach_parts` ('' when the view no longer shows that
    battle)."""
    try:
        parts = breach_parts(state_for(view))
    except (KeyError, IndexError, AttributeError, TypeError):
        return ""
    if parts is None or parts["value"] != value:
        return ""
    attacks = ", ".join(
        f"{ref_words(a, view.seat)} {x}"
        for a, x in zip(parts["attackers"], parts["attacks"], strict=True)
    )
    if parts["defenders"]:
        how = (
            f"{len(parts['defenders'])} defender(s) stand, so 1 for each attacker with "
            f"attack 1+: {attacks}"
        )
    else:
        how = f"no defender stands, so the attacks add up: {attacks}"
    return f" ({how}" + (f"; bonus +{parts['bonus']}" if parts["bonus"] else "") + ")"


# -- the table pane -----------------------------------------------------------------------------
_WINDOW_WORDS = {
    "forge_begin": "forge begins",
    "forge_end": "forge ends",
    "battle_begin": "battle begins",
    "battle_end": "battle ends",
    "move_begin": "move begins",
    "move_end": "move ends",
    "between_turns": "between turns",
}
"""A priority window, as the title and the status line say where play stands."""


def stage_words(view: SovereignView) -> str:
    """Where the turn stands, in a few words: the priority window open ("battle ends"), else
    the phase ("forge", "between turns")."""
    window = view.table.window
    if window.name is not None and window.order is not None:
        return _WINDOW_WORDS.get(window.name, window.name.replace("_", " "))
    phase = view.table.phase
    return "between turns" if phase is TurnPhase.BETWEEN else str(phase)


def header(model: PaneModel) -> str:
    """The table pane's title: the round, the turn, whose it is and where it stands, in one
    row of the pane at 80 columns ("R4/60 turn 7, Ada: battle ends"; a bot by its name
    alone, as the log names it)."""
    view = model.view
    assert view is not None
    table = view.table
    limit = f"/{table.round_limit}" if table.round_limit else ""
    phase = table.phase
    if phase in (TurnPhase.SETUP, TurnPhase.OVER):
        return f"Sovereign R{table.round}{limit}: {phase}  Echoes to win {table.echo_target}"
    active = model.names.log_text(who(table.active, model.seat))
    return f"R{table.round}{limit} turn {table.turn}, {active}: {stage_words(view)}"


def battle_line(view: SovereignView, width: int | None) -> str | None:
    """The battle on, its attackers listed in rows of ``width`` (None: read aloud, one
    line)."""
    bt = view.table.battle
    if bt is None:
        return None
    me = view.seat
    alive = [name(a) for a in bt.order if a in bt.attackers]
    dead = len(bt.declared) - len(bt.attackers)
    area = "hand" if bt.target_lane == 0 else "forge"
    rnd = f" r{bt.round}" if bt.round else ""
    head = f"Battle{rnd}: {who(bt.attacker, me)}->{whose(bt.defender, me)} {area}: "
    items = alive or ["nobody"]
    if dead:
        items[-1] += f" ({dead} down)"
    return listed(head, items, ", ", width)


def seat_order(view: SovereignView) -> list[int]:
    n = view.table.players
    start = view.seat if view.seat is not None else 0
    return [(start + i) % n for i in range(n)]


def neighbours(view: SovereignView, seat: int | None) -> list[int]:
    if seat is None:
        return []
    n, gone = view.table.players, view.table.departed
    left = next((s for s in ((seat - i) % n for i in range(1, n)) if s not in gone), seat)
    right = next((s for s in ((seat + i) % n for i in range(1, n)) if s not in gone), seat)
    return sorted({left, right} - {seat})


def seat_mark(view: SovereignView, seat: int) -> str:
    """``>`` the active seat, ``*`` a neighbour of ours (we may attack it), else a space."""
    table = view.table
    if table.active == seat and table.phase not in (TurnPhase.SETUP, TurnPhase.OVER):
        return ">"
    return "*" if seat in neighbours(view, view.seat) else " "


def summary_row(view: SovereignView, seat: int, label: str) -> Lines:
    """A seat's one summary row: its mark, ``label`` (its name), faction, Echoes scored of
    those that win, and cards in hand ("*Blaise Myrmidon E2/10 hand 7")."""
    table, me = view.table, view.seat
    b = table.boards[seat]
    style = "class:mine" if seat == me else ""
    return [
        (style, f"{seat_mark(view, seat)}{label:<6} "),
        (f"{style} class:faction-{b.faction}", b.faction.title()),
        (
            style,
            f" E{len(b.scored)}/{table.echo_target} hand {len(b.hand)}"
            + out_mark(seat, table.departed)
            + "\n",
        ),
    ]


def seat_block(view: SovereignView, seat: int, label: str, width: int | None) -> Lines:
    """A seat's details, after every seat's summary: its citizens, deck and forge, its two
    lanes, its colony (workers, facilities, reflexes, loose augments), each list in rows of
    the table pane's ``width`` (None: read aloud, one line)."""
    table, me = view.table, view.seat
    b = table.boards[seat]
    seen = dict(view.seen)
    slots = []
    for h, progress, entered in b.forge:
        card = view.card(h) if seat == me else seen.get(h)
        text = str(progress)
        if card is not None and seat == me:
            cost = DEFS[card].cost
            ready = progress >= cost and not (
                DEFS[card].type is CardType.ECHO and entered == table.turn
            )
            text += f"/{cost}" + ("!" if ready else "")
        elif card is not None:
            text += "=" + name(card)
        slots.append(text)
    style = "class:mine" if seat == me else ""
    out: Lines = [
        (style, " "),
        (f"{style} class:section", label),  # what a cut of the pane calls these rows
        (
            style,
            f": cit {citizens(b.citadel)} deck {b.deck}; forge " + (" ".join(slots) or "-") + "\n",
        ),
    ]
    units = [[unit_text(view, r) for r in b.lanes[ln]] or ["-"] for ln in (0, 1)]
    lanes = [f"  {LANE_SHORT[ln]}: " + " | ".join(units[ln]) for ln in (0, 1)]
    if len(lanes[0]) + len(lanes[1]) <= 36:  # short lanes share a row
        lanes = [lanes[0] + " " + lanes[1].lstrip()]
    else:  # a long lane breaks between its units, not inside a name
        lanes = [listed(f"  {LANE_SHORT[ln]}: ", units[ln], " | ", width) for ln in (0, 1)]
    out += [("", text + "\n") for text in lanes]
    colony = []
    if sum(b.leader_workers):
        colony.append(f"ldr {citizens(b.leader_workers)}")
    for ref in b.facilities:
        f = table.facilities[ref]
        augs = "".join("+" + name(a) for a in f.augments)
        colony.append(f"{name(ref)} {citizens(f.workers)}{augs}")
    for ref, _, targets in b.reflexes:
        on = (">" + ",".join(name(t.split(">")[0]) for t in targets)) if targets else ""
        colony.append(f"rfx {name(ref)}{on}")
    for ref in b.loose:
        colony.append(f"loose {name(ref)}")
    if colony:
        out.append(("class:dim", listed("  ", colony, "; ", width) + "\n"))
    return out


def seat_label(model: PaneModel, seat: int) -> str:
    """A seat as the table pane calls it: "you", else its player's name as the log gives it
    (a bot without its strength, so that a summary row fits the pane), else "seat N"."""
    return model.names.log_text(who(seat, model.view.seat))


def table_top(model: PaneModel, width: int | None) -> Lines:
    """The table pane's first rows: the turn, the battle, then one summary row a seat from
    yours round the table -- never cut for the details after them (:func:`top_rows`)."""
    view = model.view
    out: Lines = [("class:title", header(model) + "\n")]
    fight = battle_line(view, width)
    if fight:
        out.append(("bold", fight + "\n"))
    for seat in seat_order(view):
        out += summary_row(view, seat, seat_label(model, seat))
    return out


def top_rows(model: PaneModel) -> int:
    """Rows :func:`table_top` takes in the table pane (named, broken at spaces as the screen
    shows it), with the row that says what is cut after it."""
    width = screen_size()[1] - side_width() - 1  # the table pane's, on the screen
    top: StyleAndTextTuples = list(table_top(model, width))
    shown = clipped(model.names.fragments(top), 10**4, width)
    return rows_of("".join(part[1] for part in shown), width) + 1


def table_lines(model: PaneModel, width: int | None) -> Lines:
    """The left pane, ``width`` columns wide (None: read aloud, each list one line): the
    turn, the battle, every seat's summary row from yours round the table (so that a short
    pane still shows how far each seat is from winning), then each seat's details in the
    same order; a legend at the end (seen on larger screens)."""
    view = model.view
    if view is None:
        lines: Lines = [("class:title", "Sovereign: Fall of Wormwood\n"), ("", model.status + "\n")]
        if model.invite:
            lines += invite_lines(model)
        return lines
    out = table_top(model, width)
    for seat in seat_order(view):
        out += seat_block(view, seat, seat_label(model, seat), width)
    table = view.table
    out.append(
        (
            "class:dim class:section-key",  # the legend: a cut calls it "key"
            f"Echoes to win {table.echo_target}; creche unlimited "
            f"({table.creche_out} citizens out). > active, * neighbour (attackable); "
            "E Echoes scored/to win; hand: cards held; "
            "L Leader lane defends the hand, C Citadel lane the forge; unit a/r + health "
            "t talents d drones; cit: citizens idle in the citadel; deck: cards left to "
            "draw; forge: progress/cost, ! ready\n",
        )
    )
    return out


# -- the side pane ------------------------------------------------------------------------------
def hand_cards(model: PaneModel) -> list[tuple[int, str]]:
    view = model.view
    return list(view.hand) if view is not None and view.seat is not None else []


SIDE_AT_80 = 38
"""The side pane's columns at 80 (client.room.side_width): rows read aloud are padded as
there."""


def column_rows(rows: list[tuple[str, str, str]], column: int, width: int | None) -> Lines:
    """Side pane rows of columns in a pane ``width`` wide, each (number, card, after: its
    tag, its progress): the names padded to one column -- ``column`` at 80 (more on a wider
    pane), or the longest name where every row's ``after`` leaves room for it -- so that what
    follows lines up.  A name longer than the column runs on while its row holds it whole;
    only where the pane's width cannot, it is shortened after a word, marked (:func:`short`).
    Read aloud (``width`` None) names are whole, padded as at 80 columns."""
    wide = SIDE_AT_80 if width is None else width
    column += max(0, wide - SIDE_AT_80)
    shown = [
        name(card) if width is None else short(card, wide - len(number) - len(after))
        for number, card, after in rows
    ]
    if rows and width is not None:  # drawn: the column fits the longest name it can
        most = wide - max(len(number) + len(after) for number, _, after in rows)
        column = max(column, min(most, max(len(text) for text in shown)))
    out: Lines = []
    for (number, _, after), text in zip(rows, shown, strict=True):
        room = wide - len(number) - len(after)
        out.append(("", fit(f"{number}{text:<{min(column, room)}}{after}", width) + "\n"))
    return out


def forge_cards(model: PaneModel) -> list[tuple[int, str, int, int]]:
    """Your forge: (handle, card, progress, entered turn), in forge order."""
    view = model.view
    if view is None or view.seat is None:
        return []
    return [(h, view.card(h) or "?", p, e) for h, p, e in view.table.boards[view.seat].forge]


def side_lines(model: PaneModel, width: int | None) -> Lines:
    """The right pane, ``width`` columns wide (None: read aloud, no name shortened): your
    hand, your forge, what you saw in breaches, scrap piles."""
    view = model.view
    if view is None:
        return [
            (
                "class:title",
                "Spectating\n" if getattr(model, "spectating", False) else "Your hand\n",
            )
        ]
    if view.seat is None:
        return spectator_lines(view, width)
    b = view.table.boards[view.seat]
    out: Lines = [
        ("class:title class:section", "Hand"),
        ("class:title", f" {len(b.hand)}, deck {b.deck} ('play N')\n"),
    ]
    hand = enumerate(hand_cards(model), start=1)
    out += column_rows([(f"{i} ", card, f" {tag(card)}") for i, (_, card) in hand], 19, width)
    forge = forge_cards(model)
    if forge:
        out += [
            ("class:title", "Your "),
            ("class:title class:section", "forge"),
            ("class:title", " ('acc N', 'reveal N')\n"),
        ]
        rows = []
        for i, (_, card, progress, entered) in enumerate(forge, start=1):
            d = DEFS.get(card)
            cost = d.cost if d is not None else 0
            wait = d is not None and d.type is CardType.ECHO and entered == view.table.turn
            state = (
                "ready"
                if progress >= cost and not wait
                else ("next turn" if progress >= cost else f"{cost - progress} to go")
            )
            rows.append((f"{i} ", card, f" {progress}/{cost} {state}"))
        out += column_rows(rows, 16, width)
    seen = dict(view.seen)
    for seat, other in enumerate(view.table.boards):
        if seat == view.seat:
            continue
        for i, (h, _, _) in enumerate(other.forge, start=1):
            if h in seen:
                out += [
                    ("class:dim class:section", "seen"),
                    ("class:dim", f": seat {seat} forge #{i} {name(seen[h])}\n"),
                ]
        hand_seen = [seen[h] for h in other.hand if h in seen]
        if hand_seen:
            out += [
                ("class:dim class:section", "seen"),
                (
                    "class:dim",
                    listed(
                        f"seen in seat {seat}'s hand: ",
                        [name(c) for c in hand_seen],
                        ", ",
                        width,
                    )[len("seen") :]
                    + "\n",
                ),
            ]
    return out + piles(view, width)


def spectator_lines(view: SovereignView, width: int | None) -> Lines:
    """The right pane of a spectator: what each seat holds, as anyone sees it (how many
    cards in hand and deck, its face-down forge's progress), then Echoes and scrap."""
    out: Lines = [("class:title", "Spectating: the public table\n")]
    for seat in seat_order(view):
        b = view.table.boards[seat]
        forge = " ".join(str(progress) for _h, progress, _e in b.forge) or "-"
        out.append(("", f"seat {seat}: hand {len(b.hand)}, deck {b.deck}\n"))
        out.append(("class:dim", fit(f" forge progress {forge}", width) + "\n"))
    return out + piles(view, width)


def piles(view: SovereignView, width: int | None) -> Lines:
    """Every seat's scored Echoes and scrap pile (public), each a list whose rows break
    between its cards, in a side pane ``width`` wide (None: read aloud, one line each)."""
    boards = view.table.boards
    out: Lines = []
    for seat in seat_order(view):
        out += pile(f"{who(seat, view.seat)} ", "Echoes", boards[seat].scored, width)
    for seat in seat_order(view):
        out += pile(f"{whose(seat, view.seat)} ", "scrap", boards[seat].scrap, width)
    return out


def pile(owner: str, section: str, cards: Any, width: int | None) -> Lines:
    """``owner section: card, card`` (none when there are no cards), ``section`` marked as
    what a cut calls these rows."""
    if not cards:
        return []
    text = listed(f"{owner}{section}: ", [name(c) for c in cards], ", ", width)
    return [
        ("class:dim", owner),
        ("class:dim class:section", section),
        ("class:dim", text[len(owner) + len(section) :] + "\n"),
    ]
