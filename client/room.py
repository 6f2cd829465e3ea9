"""The screen's room: how its rows and columns are shared among the panes, and text broken and
cut to fit them.

The screen is a table pane and a side pane above, the log, the decision pane (a menu, card text
or the help), the message (on the status line when it fits there) and four fixed rows
(:data:`FIXED_ROWS`).  The decision pane takes its menu's rows up to :func:`menu_room`; a long
menu gives rows to a side pane or a log that needs them; the upper panes take two thirds of the
rest, less the rows the log needs to show what happened since our last answer -- down to
:data:`UPPER_LEAST` rows, and when even that leaves some of it hidden at a decision of ours, all
their rows (the rule under them says so, and carries the log's "+N earlier" marker), unless
the decision needs them (a map, a hand picked by number).  Nothing
is cut silently: a cut says "+N more".
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from prompt_toolkit.application import get_app_or_none
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.output import DummyOutput

from fairtable.client.games import client_game
from fairtable.client.screen_model import ScreenModel
from fairtable.client.text_rows import word_rows

MENU_FLOOR = 10  # rows the decision pane may take on a terminal of up to 24 rows...
LOG_FLOOR = 4  # ... as long as the log keeps this many beside the upper panes' least (8)
MENU_LEAST = 6  # rows a long menu keeps when it gives rows to upper panes that need them
MENU_COMPACT = 4  # ... and to the log: the decision line, two options, "+N more" (compact)
FIXED_ROWS = 4  # the rule under the panes, the status (and message), prompt and key-hint lines
UPPER_LEAST = 6  # rows the upper panes keep when they give rows to what happened since our move
# (or a game's own least: ScreenModel.upper_least, e.g. Sodalis' whole map)


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


def wrapped(text: str, width: int) -> str:
    """``text`` with each line longer than ``width`` broken at spaces, its further rows
    indented by two: the screen never breaks a word.  A word longer than a row (a file's
    path) gets a row of its own, whole, which the terminal folds: copied, it still works."""
    out = []
    for line in text.split("\n"):
        if len(line) <= width or width < 8 or " " not in line.strip():  # e.g. an invite
            out.append(line)
            continue
        out += textwrap.wrap(
            line,
            width,
            subsequent_indent="  ",
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
    :data:`LOG_FLOOR` rows (eight for the pane at 24 rows: a longer menu scrolls); less
    the rows a long menu gives ``model``'s hand and log when they need them."""
    rows, _ = screen_size()
    room = max(4, min(max(MENU_FLOOR, rows // 2 - 2), rows - FIXED_ROWS - 8 - LOG_FLOOR))
    given = sum(_given(model, room)) if model is not None else 0
    if model is None or not given:
        return room
    return min(room, _text_rows(menu_lines(model, room=10**4))) - given  # a short menu gives too


def _split(free: int) -> int:
    """Rows of the upper panes out of ``free`` rows they share with the log: two thirds
    (at least 8), the log the rest (at least one row)."""
    return max(8, min(free - 1, free * 2 // 3))


def _given(model: ScreenModel, room: int) -> tuple[int, int]:
    """Rows a long menu gives (it scrolls in fewer rows): first to the upper panes when the
    side pane needs more rows than the split leaves it (no card of a hand off-screen behind
    "+N more"), down to :data:`MENU_LEAST` rows; then to the log when what happened since
    our last answer needs more rows than it has, down to :data:`MENU_COMPACT` rows (a
    compact menu: the decision line, two options and "+N more"; the rest are a key away),
    so that what the others did between two of our answers needs no PgUp.  (to the panes,
    to the log)"""
    if model.decision is None or model.info or model.show_help:
        return 0, 0
    full = min(room, _text_rows(menu_lines(model, room=10**4)))
    if full <= MENU_COMPACT:
        return 0, 0
    rows, columns = screen_size()
    upper = _split(rows - FIXED_ROWS - full)
    to_panes = max(0, min(pane_need(model) - upper, full - MENU_LEAST))
    spare = full - MENU_COMPACT - to_panes
    filled = max(pane_need(model), _table_need(model, columns - side_width() - 1))
    log = rows - FIXED_ROWS - full - min(upper, filled)  # the panes' empty rows go first
    to_log = max(0, min(log_need(model, log + spare) - log, spare))
    return to_panes, to_log


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
        "".join(part[1] for part in clipped(model.names_shown(side()), 10**4, width)), width
    )


def menu_lines(model: ScreenModel, room: int | None = None) -> StyleAndTextTuples:
    """The decision pane: card text ``info`` asked for, the help, or the menu -- a window of
    options round the highlighted one (Up/Down move it), with "+N more" above and below
    when the menu is longer than the pane (``room`` rows: the pane's)."""
    room, (_, width) = room or menu_room(model), screen_size()
    if model.info or model.show_help:
        text = wrapped(model.names.text(model.info or model.help_text()), width)  # named first
        if rows_of(text, width) > room:  # cut at the pane's end, said
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


def menu_height(model: ScreenModel) -> int:
    """Rows the decision pane takes: its whole text as long as that fits the room there is,
    so the options never shrink behind the log."""
    text = "".join(part[1] for part in menu_lines(model))
    return max(1, min(menu_room(model), rows_of(text, screen_size()[1])))


def game_panes(
    model: ScreenModel,
) -> tuple[Callable[[], StyleAndTextTuples], Callable[[], StyleAndTextTuples]]:
    """The two upper panes (the table, and the side pane beside it) of the model's game,
    as the registry (client.games) names them."""
    table, side = client_game(model.game).panes(model)
    return (lambda: list(table())), (lambda: list(side()))


def side_width() -> int:
    """The side pane's columns: 38 at 80, wider on wider terminals (up to 60)."""
    columns = screen_size()[1]
    return max(24, min(columns // 2 - 2, columns * 48 // 100, 60))


def upper_height(model: ScreenModel) -> int:
    """Rows of the two upper panes: two thirds of what the decision pane leaves (at least 8),
    the log the rest (at least one row); and the rows a long menu gives them (the log gets
    those it gives the log).  While lines since our last answer are hidden, the panes give
    the log the rows it needs to show them, down to :data:`UPPER_LEAST` rows or the game's
    ``upper_least`` (a pane cut says "+N more"); when even that leaves some hidden at a
    decision of ours, they give way altogether (:func:`panes_given_way`), down to the game's
    ``upper_least`` -- so that what the others did needs no PgUp.  A hand the decision picks
    cards of by number stays whole.  (While we wait, and at the end, the table stays.)"""
    rows, columns = screen_size()
    deciding = model.pane_open()
    given = _given(model, menu_room()) if deciding else (0, 0)
    free = rows - FIXED_ROWS - (menu_height(model) + sum(given) if deciding else 0)
    upper = _split(free) + given[0]
    log = free + given[1] - _split(free) - message_height(model)
    spare = upper - max(pane_need(model), _table_need(model, columns - side_width() - 1))
    if model.log_mark > 0 and log >= 1:  # what happened since our move, hidden: the panes
        # give the log their empty rows, then rows they fill, down to UPPER_LEAST
        floor = model.upper_least
        if any(key == "N" for key, _ in model.game_keys()):  # cards picked by hand number:
            floor = max(floor, pane_need(model))  # the hand stays whole
        least = max(UPPER_LEAST, floor)
        can_give = max(spare, upper - least)
        need = log_need(model, log + upper) - log
        asked = model.decision is not None and not model.over  # our move: catch up first
        if asked and need > can_give and upper > floor:  # more than fits: they give way
            return floor
        upper -= max(0, min(can_give, need))
    return upper


def panes_given_way(model: ScreenModel) -> bool:
    """Whether the upper panes gave all their rows to what happened since our last answer
    (they come back once we answer)."""
    return upper_height(model) == 0


GIVEN_WAY = "-- table hidden (Esc: back) "
"""How the rule under the upper panes starts while they gave way to the log (until we
answer); the log's "+N earlier" marker follows on the same row, a row more for the log."""


def rule_line(model: ScreenModel, earlier: str = "") -> str:
    """The rule under the upper panes; while they gave way to the log, it says so and
    carries the log's ``earlier`` marker ("+N earlier: PgUp")."""
    width = screen_size()[1]
    if not panes_given_way(model):
        return "-" * width
    note = GIVEN_WAY + (f"{earlier} " if earlier else "")
    return (note + "-" * width)[:width] if len(note) < width else "-" * width


def _table_need(model: ScreenModel, width: int) -> int:
    """Rows the table pane's text takes at its width."""
    table = game_panes(model)[0]
    return rows_of(
        "".join(part[1] for part in clipped(model.names_shown(table()), 10**4, width)), width
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


def log_height(model: ScreenModel) -> int:
    """Rows of the log pane: what the upper panes, the decision pane and a message on rows
    of its own leave (at least 1)."""
    rows, _ = screen_size()
    deciding = model.pane_open()
    menu = menu_height(model) if deciding else 0
    return max(1, rows - FIXED_ROWS - message_height(model) - menu - upper_height(model))


def clipped(lines: StyleAndTextTuples, height: int, width: int) -> StyleAndTextTuples:
    """``lines`` broken at spaces to ``width`` columns and cut to ``height`` rows; when they
    do not fit, the last row says how many lines are left out ("+N more"), so nothing is cut
    silently."""
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
    rows = [
        list(wrapped_row)
        for row in rows
        for wrapped_row in word_rows([(f[0], f[1]) for f in row], width)
    ]
    lines = [frag for i, row in enumerate(rows) for frag in [*([("", "\n")] if i else []), *row]]
    used = [rows_of("".join(part[1] for part in row), width) for row in rows]
    if sum(used) <= height:
        return lines
    keep, total = 0, 0
    while keep < len(rows) and total + used[keep] <= height - 1:
        total += used[keep]
        keep += 1
    out: StyleAndTextTuples = [frag for row in rows[:keep] for frag in [*row, ("", "\n")]]
    more = f"+{len(rows) - keep} more (a taller window shows them)"
    out.append(("class:dim", more[:width]))
    return out
