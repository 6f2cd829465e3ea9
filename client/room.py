"""The screen's room: how its rows and columns are shared among the panes, and text broken and
cut to fit them.

The screen is a table pane and a side pane above, the log, the decision pane (a menu, card text
or the help), the message (on the status line when it fits there) and four fixed rows
(:data:`FIXED_ROWS`).  How many rows the upper panes, the log and the decision pane take is
decided in one place, :func:`plan`, in one order: at rest the menu takes its rows (up to
:func:`menu_room`) and the upper panes two thirds of the rest; at a decision of ours the hand
cards it names take rows from the menu (down to compact), then from the log's earlier lines;
what happened since our last answer takes the panes' empty rows, the menu's (down to compact),
the panes' (down to :data:`UPPER_LEAST`, or all of them but a game's least and the hand cards
named); then a game's compact hand (Reign's: two columns across the screen) takes the place
of both panes; the hand cards named give their rows last.  A spectator (nothing to answer, no
menu) has the panes' empty rows for its log always, and what happened since the table's turn
began (``ScreenModel.turn``) takes their rows down to their least, as for a seat waiting its
turn.  Nothing is cut silently: a cut says "+N more" and what shows the rest (Esc, where the
log took the rows).  The screen asks the plan once a draw (:mod:`client.room_drawn`).

A pane takes the columns it is drawn in (:data:`client.games.Pane`); plain mode reads the panes
without drawing them, with no width (``None``), so they cut no card name and no row
(:func:`fit`).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

import attrs
from prompt_toolkit.application import get_app_or_none
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.output import DummyOutput

from fairtable.client.games import client_game
from fairtable.client.help_pages import help_page
from fairtable.client.screen_model import ScreenModel
from fairtable.client.text_rows import word_rows

MENU_FLOOR = 10  # rows the decision pane may take on a terminal of up to 24 rows...
LOG_FLOOR = 4  # ... as long as the log keeps this many beside the upper panes' least (8)
MENU_LEAST = 6  # rows a long menu keeps when it gives rows to upper panes that need them
MENU_COMPACT = 4  # ... and to the log: the decision line, two options, "+N more" (compact)
FIXED_ROWS = 4  # the rule under the panes, the status (and message), prompt and key-hint lines
UPPER_LEAST = 6  # rows the upper panes keep when they give rows to what happened since our move
# (or a game's own least: ScreenModel.upper_least(), e.g. Sodalis' whole map)


def fit(text: str, width: int | None, mark: str = "") -> str:
    """``text`` cut to ``width`` columns (its last one ``mark`` where it is cut); whole with
    no width (``None``: a pane read aloud, not drawn)."""
    if width is None or len(text) <= width:
        return text
    return text[: width - len(mark)] + mark


def screen_size() -> tuple[int, int]:
    """(rows, columns) of the terminal the screen is drawn on.  With no application running (a
    model drawn on its own) that is prompt_toolkit's stand-in output, 40x80, as ``get_app()``
    would give; read here without the stand-in application ``get_app()`` builds on each call
    (all its key bindings: most of the time a model drawn on its own took).  80x24 where the
    output cannot say."""
    app = get_app_or_none()
    output = DummyOutput() if app is None else app.output
    try:
        size = output.get_size()
    except Exception:  # noqa: BLE001 - an output that cannot tell its size
        return 24, 80
    return size.rows, size.columns


def wrapped(text: str, width: int, indent: str = "  ") -> str:
    """``text`` with each line longer than ``width`` broken at spaces, its further rows
    indented by ``indent`` (two spaces; the replay's log: past its step numbers): the screen
    never breaks a word.  A word longer than a row (a file's
    path) gets a row of its own, whole, which the terminal folds: copied, it still works."""
    out = []
    for line in text.split("\n"):
        if len(line) <= width or width < 8 or " " not in line.strip():  # e.g. an invite
            out.append(line)
            continue
        out += textwrap.wrap(
            line,
            width,
            subsequent_indent=indent,
            break_on_hyphens=False,
            break_long_words=False,
            replace_whitespace=False,
        ) or [line]
    return "\n".join(out)


def rows_of(text: str, width: int) -> int:
    """Rows ``text`` takes wrapped at ``width`` columns."""
    return sum(1 + max(0, len(line) - 1) // max(1, width) for line in text.rstrip("\n").split("\n"))


def menu_room(model: ScreenModel | None = None) -> int:
    """Rows the decision pane may take: half the terminal, but the log keeps
    :data:`LOG_FLOOR` rows (eight for the pane at 24 rows: a longer menu scrolls); for
    ``model``, the rows its :func:`plan` leaves the menu (a long one gives rows to a hand
    and a log that need them)."""
    if model is not None:
        return max(1, plan(model).menu)
    rows, _ = screen_size()
    return max(4, min(max(MENU_FLOOR, rows // 2 - 2), rows - FIXED_ROWS - 8 - LOG_FLOOR))


def _split(free: int) -> int:
    """Rows of the upper panes out of ``free`` rows they share with the log: two thirds
    (at least 8), the log the rest (at least one row)."""
    return max(8, min(free - 1, free * 2 // 3))


@attrs.frozen
class Plan:
    """How the screen's rows are shared now, decided in one place (:func:`plan`): the
    upper panes', the log's and the decision pane's (0: none), besides the fixed rows and
    the message's.  ``for_log``: the upper panes show less than they hold because the log
    took their rows for what happened since our move (Esc gives them back: the log is
    read); ``wide``: the hand the decision names is drawn compact across the screen in
    place of both panes (the model's ``compact_hand``), for the same reason; ``given_way``:
    the table gave all its rows (the rule under the panes says so)."""

    upper: int
    log: int
    menu: int
    for_log: bool = False
    wide: bool = False

    @property
    def given_way(self) -> bool:
        return self.upper == 0 or self.wide


def plan(model: ScreenModel) -> Plan:
    """The rows of the upper panes, the log and the decision pane, in one order.

    At rest the decision pane takes its menu's rows (up to :func:`menu_room`), the upper
    panes two thirds of the rest, the log the others; a long menu gives rows (down to
    :data:`MENU_LEAST`) to a side pane that needs them.  Then, at a decision of ours:

    1. the hand cards the decision names (an option, a bare number: :func:`hand_need`)
       take rows from the menu, down to compact (:data:`MENU_COMPACT`: its decision line,
       two options and "+N more"), then from the log, down to what happened since our move;
    2. what happened since our move takes rows from the upper panes' empty rows, then
       from the menu (down to compact), then from the rows the panes fill, down to
       :data:`UPPER_LEAST` (or the game's ``upper_least``, and never below those hand cards);
       when even that leaves some hidden, the panes give way altogether, down to the
       game's least and the hand cards;
    3. when that still cuts the hand or leaves a line since our move hidden, and the game
       draws a compact hand (Reign: two columns across the screen), the table gives way
       and the hand goes compact (``wide``), steps 1 and 2 taken again with its rows;
    4. only then, when the terminal is too small for both, do the hand cards give rows:
       the hand is cut, and says so on its last row ("+N more (Esc shows them)") -- but only
       where that lets every line since our move show; where even the whole screen could not
       hold them, the hand keeps its rows and the log its newest lines ("N new since your
       move: PgUp" on the rule), as the cards a decision picks outrank lines PgUp reaches.

    So a line since our move hides only once the menu is compact and the panes are at
    their least, and a hand card a decision names is off-screen only when the lines since
    our move fill every other row.  (While we wait, and at the end, the panes give the
    log rows down to their least, but stay.)  A spectator's log takes the panes' empty
    rows at once, and its lines since the table's turn began (its ``log_mark``) take
    their rows as a waiting seat's do."""
    since = model.log_mark > 0
    shown, short = _plan(model, since)
    if short and model.compact_hand(1, 1, "") is not None:  # 3. compact; Esc (the log
        # read) gives the table back unless the hand one card a row is too long anyway
        rest = not _plan(model, since=False)[1]
        return attrs.evolve(_plan(model, since, wide=True)[0], for_log=rest, wide=True)
    if shown.upper < _filled(model):  # cut: for the log, if they would show more without it
        return attrs.evolve(shown, for_log=_plan(model, since=False)[0].upper > shown.upper)
    return shown


def _filled(model: ScreenModel) -> int:
    """Rows the upper panes' text takes: the taller of the two."""
    return max(pane_need(model), _table_need(model, screen_size()[1] - side_width() - 1))


def _plan(model: ScreenModel, since: bool, wide: bool = False) -> tuple[Plan, bool]:
    """:func:`plan`, with (``since``) or without the rows the lines since our move ask for,
    the hand a pane (or, ``wide``, compact across the screen); and whether that leaves the
    hand cards named cut or a line since our move hidden."""
    rows, columns = screen_size()
    total = rows - FIXED_ROWS - message_height(model)  # the panes', the log's and the menu's
    deciding = model.pane_open()
    full = 0
    if deciding:
        text = "".join(part[1] for part in menu_lines(model, room=10**4))
        full = max(1, min(menu_room(), rows_of(text, columns)))
    shrinks = (
        deciding
        and model.decision is not None
        and not model.info
        and not model.show_help
        and full > MENU_COMPACT
    )
    asked = deciding and model.decision is not None and not model.over
    compact = MENU_COMPACT
    if shrinks:  # the rows a compact menu's text takes (an option that wraps may not fit)
        text = "".join(part[1] for part in menu_lines(model, room=MENU_COMPACT))
        compact = min(MENU_COMPACT, rows_of(text, columns))
    menu = full
    upper = _split(rows - FIXED_ROWS - full)
    named = asked and not model.info and not model.show_help
    hand = (wide_need(model) if wide else hand_need(model)) if named else 0
    pane = (hand if wide else pane_need(model)) if shrinks else 0
    if pane > upper:  # a long menu makes room for the side pane
        given = min(pane - upper, full - MENU_LEAST)
        menu, upper = menu - max(0, given), upper + max(0, given)
    log = total - upper - menu
    need = log_need(model, total) if since else 0
    if wide and model.log_mark > 0:  # the "+N earlier" marker goes on the rule then
        need -= 1
    if hand > upper:  # 1. the hand cards named: from the menu, then the log's earlier rows
        take = min(hand - upper, menu - compact) if shrinks else 0
        menu, upper = menu - max(0, take), upper + max(0, take)
        take = min(hand - upper, log - max(1, need))
        log, upper = log - max(0, take), upper + max(0, take)
    kept = min(hand, upper)  # the hand cards named that have their rows
    floor = max(model.upper_least(), kept)
    if model.spectating:  # no menu, nothing to answer: the log is what a spectator reads
        take = upper - max(_filled(model), floor)  # the panes' empty rows, always
        upper, log = upper - max(0, take), log + max(0, take)
    if need > log and log >= 1:  # 2. what happened since our move
        filled = hand if wide else _filled(model)
        take = min(need - log, upper - max(filled, floor))  # their empty rows
        upper, log = upper - max(0, take), log + max(0, take)
        take = min(need - log, menu - compact) if shrinks else 0  # a compact menu
        menu, log = menu - max(0, take), log + max(0, take)
        least = max(UPPER_LEAST, floor)
        if asked and need - log > upper - least and upper > floor:  # they give way
            upper, log = floor, log + upper - floor
        else:
            take = min(need - log, upper - least)
            upper, log = upper - max(0, take), log + max(0, take)
        left = upper - (need - log)  # the upper rows left once every line since our move shows
        gives = left >= model.upper_least()  # else cutting the hand shows them not all either
        if asked and need > log and floor > model.upper_least() and gives:  # 4. the hand
            cut = max(model.upper_least(), left if left >= HAND_LEAST else 0)
            upper, log = cut, log + upper - cut
    if wide and upper > hand:  # the compact hand's rows; the table shows no rows beside it
        upper, log = hand, log + upper - hand
    short = hand > upper or need > log + (upper == 0 and not wide)  # the marker: on the rule
    return Plan(upper, log, menu), short


HAND_LEAST = 3
"""Rows a hand cut for the log keeps (its title, a card and "+N more"); fewer: it gives way
with the table."""


def hand_need(model: ScreenModel) -> int:
    """Rows the side pane's title and the hand cards the decision may name take (the model's
    ``hand_named``: an option naming card N, a bare number picking it), with the "+N more"
    row of the rest; 0 when the decision names none.  :func:`plan` keeps them on screen."""
    named = model.hand_named() if model.decision is not None else 0
    if not named:
        return 0
    width = side_width()
    text = "".join(part[1] for part in model.names_shown(game_panes(model)[1](width)))
    lines = text.rstrip("\n").split("\n")
    head = "\n".join(lines[: 1 + named])  # the title row, then the cards
    need = rows_of("".join(part[1] for part in clipped([("", head)], 10**4, width)), width)
    return need + (len(lines) > 1 + named)


def wide_need(model: ScreenModel) -> int:
    """Rows the hand the decision names takes drawn compact across the screen (the model's
    ``compact_hand``: its title and two columns), 0 for a game with none."""
    columns = screen_size()[1]
    lines = model.compact_hand(columns, 10**4, "")
    if lines is None:
        return 0
    shown = clipped(model.names_shown(lines), 10**4, columns)
    return rows_of("".join(part[1] for part in shown), columns)


def side_shown(model: ScreenModel, wide: bool, height: int, remedy: str) -> StyleAndTextTuples:
    """The side pane as drawn, ``height`` rows: the game's (named), or while the hand is
    drawn compact across the screen (``wide``: :attr:`Plan.wide`), that hand."""
    columns = screen_size()[1]
    hand = model.compact_hand(columns, height, remedy) if wide else None
    if hand is not None:  # cut to its rows by the game, which says which cards it cut
        return clipped(model.names_shown(hand), height, columns, remedy)
    side, width = game_panes(model)[1], side_width()
    return clipped(model.names_shown(side(width)), height, width, remedy)


def side_columns(wide: bool) -> int:
    """The side pane's columns: all of them while the hand is drawn across the screen
    (``wide``), the table pane and the border beside it then taking none."""
    return screen_size()[1] if wide else side_width()


def log_need(model: ScreenModel, most: int) -> int:
    """Rows the log lines since our last answer take (with the "+N earlier" row above
    them), counted up to ``most``."""
    lines, width = model.log_shown(), screen_size()[1]
    need = 1 if model.log_mark > 0 else 0
    for line in reversed(lines[model.log_mark :]):
        need += rows_of(wrapped(line, width), width)
        if need >= most:
            break
    return need


def _text_rows(fragments: StyleAndTextTuples) -> int:
    return rows_of("".join(part[1] for part in fragments), screen_size()[1])


def pane_need(model: ScreenModel) -> int:
    """Rows the side pane's text takes at its width: what the player acts on (a hand, a
    forge, a spread), which a long menu makes room for.  (The table pane's end is a legend
    the help explains too: it is not made room for.)"""
    side, width = game_panes(model)[1], side_width()
    return rows_of(
        "".join(part[1] for part in clipped(model.names_shown(side(width)), 10**4, width)), width
    )


def menu_lines(model: ScreenModel, room: int | None = None) -> StyleAndTextTuples:
    """The decision pane: card text ``info`` asked for, the help, or the menu -- a window of
    options round the highlighted one (Up/Down move it), with "+N more" above and below
    when the menu is longer than the pane (``room`` rows: the pane's)."""
    room, (_, width) = room or menu_room(model), screen_size()
    if model.info or model.show_help:
        text = wrapped(model.names.text(model.info or model.help_text()), width)  # named first
        if not model.info:  # the help: a page at a time (PgUp/PgDn), said on its last row
            text, model.help_top = help_page(text, room, width, model.help_top)
        elif rows_of(text, width) > room:  # cut at the pane's end, said
            keep: list[str] = []
            for line in text.split("\n"):
                if rows_of("\n".join([*keep, line]), width) > room - 1:
                    break
                keep.append(line)
            hidden = len(text.split("\n")) - len(keep)
            text = "\n".join(keep) + f"\n(+{hidden} more: a taller window shows them)"
        return [("class:info" if model.info else "class:message", text)]
    if model.decision is None:
        lobby = model.lobby_invite()  # full width, so that a mouse copies the invite whole
        return [("class:info", lobby) if lobby else ("class:message", "")]
    out: StyleAndTextTuples = [("class:title", model.decision_line() + "\n")]
    menu = model.menu()
    if not menu:
        return out
    model.highlight = hi = max(0, min(model.highlight, len(menu) - 1))
    lines = [
        wrapped(model.names.log_text(f"{'>' if i == hi else ' '}#{i + 1} {label}"), width)
        for i, (label, _) in enumerate(menu)
    ]  # named as the log names them (a bot without its strength), then measured
    first, last = 0, len(lines)

    def fits(a: int, b: int) -> bool:
        marks = (a > 0) + (b < len(lines))
        return 1 + marks + rows_of("\n".join(lines[a:b]), width) <= room

    if not fits(first, last):  # a window round the highlighted option
        first, last = hi, hi + 1
        while True:
            grown = False
            if last < len(lines) and fits(first, last + 1):
                last, grown = last + 1, True
            if first > 0 and fits(first - 1, last):
                first, grown = first - 1, True
            if not grown:
                break
    if first:
        out.append(("class:dim", f"  +{first} more above (Up)\n"))
    for i in range(first, last):
        out.append(("class:highlight" if i == hi else "class:menu", lines[i] + "\n"))
    if last < len(lines):
        out.append(("class:dim", f"  +{len(lines) - last} more below (Down, or type #N)\n"))
    return out


PaneText = Callable[[int | None], StyleAndTextTuples]
"""A pane's text for its columns (``None``: read aloud, with no width: client.games.Pane)."""


def game_panes(model: ScreenModel) -> tuple[PaneText, PaneText]:
    """The two upper panes (the table, and the side pane beside it) of the model's game,
    as the registry (client.games) names them; each takes the columns it is drawn in."""
    table, side = client_game(model.game).panes(model)
    return (lambda width: list(table(width))), (lambda width: list(side(width)))


def side_width() -> int:
    """The side pane's columns: 38 at 80, wider on wider terminals (up to 60)."""
    columns = screen_size()[1]
    return max(24, min(columns // 2 - 2, columns * 48 // 100, 60))


def panes_given_way(model: ScreenModel) -> bool:
    """Whether the upper panes gave all their rows to what happened since our last answer
    (they come back once we answer)."""
    return plan(model).given_way


def panes_cut_for_log(model: ScreenModel) -> bool:
    """Whether the upper panes show less than they hold because the log took their rows
    for what happened since our last answer (Esc: the log read, they come back)."""
    return plan(model).for_log


GIVEN_WAY = "-- table hidden (Esc: back) "
"""How the rule under the upper panes starts while they gave way to the log (until we
answer); the log's "+N earlier" marker follows on the same row, a row more for the log."""

HIDDEN_TALL = "-- table hidden (a taller window shows it) "
"""How it starts while the table gave way to a hand too long for the screen at rest (drawn
compact across it: :attr:`Plan.wide`), which Esc would not bring back."""


def rule_line(given_way: bool, earlier: str = "", esc: bool = True) -> str:
    """The rule under the upper panes; while they gave way to the log (``given_way``), it
    says so -- and that Esc brings them back (``esc``: the log took their rows) or that a
    taller window would -- and carries the log's ``earlier`` marker ("+N earlier: PgUp")."""
    width = screen_size()[1]
    if not given_way:
        return "-" * width
    note = (GIVEN_WAY if esc else HIDDEN_TALL) + (f"{earlier} " if earlier else "")
    return (note + "-" * width)[:width] if len(note) < width else "-" * width


def _table_need(model: ScreenModel, width: int) -> int:
    """Rows the table pane's text takes at its width."""
    table = game_panes(model)[0]
    return rows_of(
        "".join(part[1] for part in clipped(model.names_shown(table(width)), 10**4, width)),
        width,
    )


STATUS_GAP = "  "
"""Between the status and a message shown beside it on the status line."""


def message_beside(model: ScreenModel) -> bool:
    """Whether the message (named) fits on the status line beside the status."""
    width = screen_size()[1]
    shown = f" {model.names.text(model.status)} " + STATUS_GAP + model.names.text(model.message)
    return "\n" not in model.message and len(shown) <= width


def message_height(model: ScreenModel) -> int:
    """Rows of the message above the status line: none when there is none or it fits beside
    the status; else the message (named) broken at spaces, as many rows as it takes (up to
    half the terminal), so that a refusal is never cut."""
    if not model.message or message_beside(model):
        return 0
    rows, width = screen_size()
    text = wrapped(model.names.text(model.message), width)
    return max(1, min(rows // 2, rows_of(text, width)))


TALLER = "a taller window shows them"
"""What shows the lines a pane cut for want of rows."""

ESC_SHOWS = "Esc shows them"
"""What shows the lines an upper pane cut for the log's lines since our move (Esc: the log
read, the panes take their rows back)."""


SECTION = "class:section"
"""A fragment styled with this class (besides its own) starts a section of a pane, named by
its text ("Hand", "Your forge", a seat's name), or by NAME when the class is
``class:section-NAME`` (a legend: "key"): a cut of the pane then says what it cuts section
by section ("Hand: +3 more; Your forge: +2 more"), not one total of every row."""


def clipped(
    lines: StyleAndTextTuples, height: int, width: int, remedy: str = TALLER
) -> StyleAndTextTuples:
    """``lines`` broken at spaces to ``width`` columns and cut to ``height`` rows; when they
    do not fit, the last row says how many lines are left out and what shows them ("+N more
    (a taller window shows them)"), so nothing is cut silently -- in a pane of sections
    (:data:`SECTION`), how many of each section's (:func:`cut_words`), the rows of one list
    (a row ending with ",", "|" or ";" goes on below: :func:`~client.text_rows.listed`)
    counted as one.  A pane with a :data:`FOCUS` row keeps it (and its title rows) when cut.
    """
    rows: list[StyleAndTextTuples] = [[]]
    for style, text, *_ in lines:
        parts = text.split("\n")
        for i, part in enumerate(parts):
            if i:
                rows.append([])
            if part:
                rows[-1].append((style, part))
    if rows and not rows[-1]:
        rows.pop()
    sections, titled = _sections(rows), [_titled(row) for row in rows]
    goes_on = ["".join(f[1] for f in row).rstrip().endswith((",", "|", ";")) for row in rows]
    broken = [word_rows([(f[0], f[1]) for f in row], width) for row in rows]
    line_of = [i for i, parts in enumerate(broken) for _ in parts]  # each row's line
    rows = [list(wrapped_row) for parts in broken for wrapped_row in parts]
    lines = [frag for i, row in enumerate(rows) for frag in [*([("", "\n")] if i else []), *row]]
    used = [rows_of("".join(part[1] for part in row), width) for row in rows]
    if sum(used) <= height:
        return lines
    focus = next((i for i, row in enumerate(rows) if any(_focused(f[0]) for f in row)), None)
    lead = next((i for i, line in enumerate(line_of) if not titled[line]), len(rows))
    kept, said = [0], [""]
    for room in range(1, max(2, height + 1)):  # the words' rows: one where they fit
        kept = _kept(used, height - room, lead, focus)
        if not any(sections):
            said = [f"+{len(rows) - len(kept)} more ({remedy})"[:width]]
            break
        hidden = sorted({line_of[i] for i in range(len(rows)) if i not in kept})
        # a list's rows count once: a row after one that goes on is no line of its own
        items = [i for i in hidden if not (i - 1 in hidden and goes_on[i - 1])]
        words = cut_words([(sections[i], titled[i]) for i in items], remedy, width)
        said = ["".join(text for _, text in row) for row in word_rows([("", words)], width)]
        if len(said) <= room:
            break
    out: StyleAndTextTuples = [frag for i in kept for frag in [*rows[i], ("", "\n")]]
    out.append(("class:dim", "\n".join(said)))
    return out


def _focused(style: str) -> bool:
    return FOCUS in style.split()


def _kept(used: list[int], room: int, lead: int, focus: int | None) -> list[int]:
    """The rows a cut keeps in ``room`` rows (``used``: each one's rows): the first ones that
    fit; or, when that would hide the ``focus`` row, the ``lead`` title rows and the rows
    round it (one below, then one above, while they fit)."""
    keep, total = 0, 0
    while keep < len(used) and total + used[keep] <= room:
        total += used[keep]
        keep += 1
    if focus is None or focus < keep:
        return list(range(keep))
    total = sum(used[:lead]) + used[focus]
    if total > room or focus < lead:
        return list(range(keep))
    first, last = focus, focus + 1
    grown = True
    while grown:
        grown = False
        if last < len(used) and total + used[last] <= room:
            total, last, grown = total + used[last], last + 1, True
        if first > lead and total + used[first - 1] <= room:
            total, first, grown = total + used[first - 1], first - 1, True
    return [*range(lead), *range(first, last)]


FOCUS = "class:focus"
"""A fragment styled with this class (besides its own) is what its pane is read for now (the
map's highlighted space): a cut of the pane keeps its row, with the pane's title rows and
the rows round it, rather than the first rows (the count of the rest it says covers the rows
above it too)."""


def _sections(rows: list[StyleAndTextTuples]) -> list[str]:
    """Each row's section: the text of the last :data:`SECTION` fragment on it or a row
    before it ('' before the first)."""
    out, current = [], ""
    for row in rows:
        for style, text in ((f[0], f[1]) for f in row):
            for token in style.split():
                if token == SECTION:
                    current = text.strip()
                elif token.startswith(SECTION + "-"):
                    current = token[len(SECTION) + 1 :]
        out.append(current)
    return out


def _titled(row: StyleAndTextTuples) -> bool:
    return bool(row) and "class:title" in row[0][0].split()


def cut_words(hidden: list[tuple[str, bool]], remedy: str, width: int = 10**4) -> str:
    """What a cut says it hides: ``hidden`` is each line left out, as (its section, whether
    it is the section's title row), in order; the words count each section's lines (its
    title not counted beside them) and end with what shows them.  The first of these forms
    that fits ``width`` columns: every section ("Hand: +3 more; forge: +2 more (Esc shows
    them)", then "Hand +3, forge +2 (...)"), the same with the remedy's last words left out
    ("(Esc)"), then the first section and a count of the rest ("Hand: +3 more, +2 below
    (...)", "Hand +3, +2 below (...)"); the shortest, broken at words, when none does."""
    counts: dict[str, list[int]] = {}
    for section, title in hidden:
        lines, titles = counts.setdefault(section, [0, 0])
        counts[section] = [lines + (not title), titles + title]
    pieces = [(name, lines or titles) for name, (lines, titles) in counts.items()]
    full = [f"{name}: +{n} more" if name else f"+{n} more" for name, n in pieces]
    short = [f"{name} +{n}" if name else f"+{n}" for name, n in pieces]
    said = ["; ".join(full), ", ".join(short)]
    rest = sum(n for _, n in pieces[1:])
    firsts = [f"{full[0]}, +{rest} below", f"{short[0]}, +{rest} below"] if rest else []
    hows = (remedy, remedy.removesuffix(" shows them"))
    forms = [f"{words} ({how})" for group in (said, firsts) for how in hows for words in group]
    return next((form for form in forms if len(form) <= width), min(forms, key=len))
