"""The log at 80x24 (issue 31): it keeps rows beside a long menu, holds its page while
scrolled back however many lines arrive (and follows new ones again once PgDn reaches the
bottom), breaks long lines at spaces, marks what it cuts; the side pane widens on wider
terminals."""

from __future__ import annotations

import re

from fairtable.client.app import LogPane
from fairtable.client.keys import keys_lines
from fairtable.client.reign.words import card_label
from fairtable.client.room import side_width, wrapped
from fairtable.client.screen_model import ScreenModel
from tests.client.screen import SizedOutput, render, run_keys
from tests.client.test_screen import decision_model


def busy_log(model: ScreenModel, *, before: int, since: int) -> None:
    """``before`` log lines up to our last answer (``log_mark``), then ``since`` after it."""
    model.log.extend(f"before {i}" for i in range(before))
    model.log_mark = len(model.log)  # our last answer
    model.log.extend(f"since {i}" for i in range(since))


def test_a_scrolled_back_log_keeps_its_page_and_follows_again_at_the_bottom() -> None:
    model, _, _ = decision_model()
    for i in range(40):
        model.log.append(f"old line {i}")
    pane = LogPane(model)
    pane.lines()
    pane.scroll(1)  # PgUp
    page = [text for _, text in pane.lines()]
    for i in range(5):  # the game goes on meanwhile
        model.log.append(f"new line {i}")
    again = [text for _, text in pane.lines()]
    assert again[1:-1] == page[1:-1]  # the same lines between the markers
    assert "new line" not in "".join(again) and "(+" in again[-1] and "newer" in again[-1]
    for _ in range(10):
        pane.scroll(-1)  # PgDn to the bottom
    assert model.log_back == 0
    model.log.append("newest line")
    assert "newest line" in "".join(text for _, text in pane.lines())  # following again


def test_long_lines_break_at_spaces_and_an_invite_stays_whole() -> None:
    line = (
        "seat 2 8 = Horde Drummer 2 (1+1 ability), Oathbound Pikeman 3; House Oriel bonus "
        "+1 (1 card); events +2"
    )
    rows = wrapped(line, 80).split("\n")
    assert len(rows) == 2 and all(len(r) <= 80 for r in rows)
    assert rows[0].endswith("bonus") and rows[1] == "  +1 (1 card); events +2"
    words = line.split()
    assert " ".join(r.strip() for r in rows).split() == words  # no word split
    invite = "fairtable://10.0.0.2:4711/reign/3/" + "x" * 120
    assert wrapped(invite, 80) == invite  # no indent inside what a mouse copies


def test_the_log_on_the_screen_breaks_at_words() -> None:
    model, _, _ = decision_model()
    model.log.append("word " * 30)
    screen = render(model)
    assert any(row.startswith("  word") for row in screen), screen
    assert not any(row.endswith(" wor") or row.startswith("d ") for row in screen)


def test_the_side_pane_is_38_columns_at_80_and_wider_on_wider_terminals() -> None:
    from prompt_toolkit.application import create_app_session

    widths = {}
    for columns in (80, 120, 200):
        with create_app_session(output=SizedOutput(columns, 40)):
            from prompt_toolkit.application import Application
            from prompt_toolkit.application.current import set_app

            with set_app(Application(output=SizedOutput(columns, 40))):
                widths[columns] = side_width()
    assert widths == {80: 38, 120: 57, 200: 60}


def test_the_keys_overlay_marks_what_it_cuts() -> None:
    model, _, _ = decision_model()
    text = "".join(part for _, part in keys_lines(model, 30))
    assert "…" in text


def test_the_newest_log_line_sits_right_above_the_decision_with_no_blank_row() -> None:
    """A line too long for the rows left over leaves them free on top of the log, not as a
    blank row between the newest line and the decision pane (80x24)."""
    for long_at in range(1, 6):
        model, _, _ = decision_model()
        for i in range(8):
            model.log.append("long " * 20 if i == long_at else f"line {i}")
        model.log.append("newest line")
        screen = render(model)
        decide = next(i for i, row in enumerate(screen) if row.startswith("Decide ("))
        assert screen[decide - 1] == "newest line", "\n".join(screen)
        rule = screen.index("-" * 80)
        log = [row for row in screen[rule + 1 : decide] if row]
        assert log[0].startswith("(+") and "earlier" in log[0]
        assert all(row.strip() for row in screen[rule + 1 : decide][-len(log) :])


def test_what_happened_since_your_last_answer_takes_rows_from_a_long_menu() -> None:
    """At 80x24 a long menu goes compact -- its decision line, two options and "+N more"
    -- so that the log shows what the others did since our last answer (issue 31)."""
    from tests.client import test_sodalis_model as sodalis

    model, _ = sodalis.model_for(*sodalis.first_turn())
    assert len(model.menu()) > 8
    busy_log(model, before=10, since=6)
    screen = render(model)
    rule = screen.index("-" * 80)
    decide = next(i for i, row in enumerate(screen) if row.startswith("Decide ("))
    log = screen[rule + 1 : decide]
    assert log == [f"(+{len(model.log) - 6} earlier: PgUp)"] + [f"since {i}" for i in range(6)], (
        "\n".join(screen)
    )  # the map keeps its rows: the compact menu made room
    assert sum(row[:2] in (">#", " #") for row in screen[decide:]) == 3
    assert any("more below" in row for row in screen)
    for i in range(6, 19):
        model.log.append(f"since {i}")  # more than even the table giving way makes room for
    screen = render(model)
    assert screen[0].startswith("-- table hidden (Esc: back)"), "\n".join(screen)
    assert " earlier, 3 new since your move: PgUp -" in screen[0]  # said, as ever
    assert screen[1:17] == [f"since {i}" for i in range(3, 19)], "\n".join(screen)
    model.log_mark = len(model.log)  # nothing new since: the menu keeps its rows
    screen = render(model)
    decide = next(i for i, row in enumerate(screen) if row.startswith("Decide ("))
    assert sum(row[:2] in (">#", " #") for row in screen[decide:]) == 6


def test_a_long_refusal_wraps_at_words_in_the_message_rows_and_is_never_cut() -> None:
    """At 80x24 a message longer than the screen is wide takes the rows it needs, broken at
    spaces, and the log gives them (issue 31: the message line used to cut it silently)."""
    model, _, _ = decision_model()
    model.message = (
        "Not allowed: a bid is for one house, and you picked House Quell cards already "
        "(It may take cards of one house only: pick again, or clear the pick with 'undo')"
    )
    screen = render(model)
    assert len(screen) == 24
    shown = " ".join(row.strip() for row in screen)
    assert " ".join(model.message.split()) in shown, "\n".join(screen)
    start = next(i for i, row in enumerate(screen) if row.startswith("Not allowed"))
    assert screen[start + 1].startswith("  ") and screen[start + 1].strip()
    assert all(len(row) <= 80 for row in screen)
    assert screen[-1].startswith(" F1 help")


def test_a_saved_games_path_is_never_broken_inside_a_word() -> None:
    """Issue 31: at game over the audit line broke the path ('.../share/fairt' then
    '  able/tables/...'); a path longer than the row is on a row of its own, whole."""
    from fairtable.client.ending import saved_line

    path = "/root/.local/share/fairtable/tables/" + "reign-3-" + "ab12" * 12 + "/game.log"
    rows = wrapped(saved_line(path), 80).split("\n")
    assert rows[0] == "The game is saved; to check it: fairtable audit"
    assert rows[1] == "  " + path  # whole: a mouse copies it as one line
    model, _, _ = decision_model()
    model.log.append(saved_line(path))
    screen = "\n".join(render(model))
    assert "fairtable audit" in screen and path[:78] in screen


def test_the_upper_panes_empty_rows_go_to_the_log_while_new_lines_are_hidden() -> None:
    """Issue 31: with lines since our last answer hidden behind "+N earlier", the table
    pane kept blank rows; at 80x24 they go to the log, which then shows them all."""
    model, _, _ = decision_model()
    busy_log(model, before=20, since=7)
    screen = render(model)
    rule = screen.index("-" * 80)
    assert all(row.rstrip(" |") for row in screen[:rule]), "\n".join(screen)
    decide = next(i for i, row in enumerate(screen) if row.startswith("Decide ("))
    assert screen[rule + 2 : decide] == [f"since {i}" for i in range(7)], "\n".join(screen)
    assert "new since your move" not in screen[rule + 1]


def test_five_seat_reign_shows_what_the_others_did_since_your_move_without_pgup() -> None:
    """Issue 31: at 80x24 in a five-seat Reign game the table pane is full (its seat lines
    wrap), and the four others' moves since ours hid behind "N new since your move: PgUp";
    the menu goes compact and the upper panes give the log the rows it needs, down to six,
    and say what they cut."""
    from fairtable.client.reign.model import ClientModel
    from fairtable.engine.requests import Decision
    from fairtable.netplay import events as ev
    from tests.engine.driver import Table

    table = Table(5, seed=4, bots=["random"] * 5)
    while not isinstance(table.truth.pending()[0], Decision):
        table.step()
    d = table.truth.pending()[0]
    model = ClientModel()
    model.apply_event(ev.Seated(seat=d.seat, players=5))
    for i in range(30):
        model.log.append(f"before {i}")
    model.log_mark = len(model.log)  # our last answer
    since = [
        f"{who} (heuristic) placed 2 card(s) face down (into Ada (heuristic)'s army, Cyra "
        "(heuristic)'s army)"
        for who in ("Blaise", "Dario", "Cyra")
    ]  # each wraps over two rows of 80 columns: six rows and the header
    model.log.extend(since)
    model.apply_event(ev.DecisionAsked(decision=d, view=table.truth.view(d.seat)))
    screen = render(model)
    assert len(screen) == 24 and all(len(row) <= 80 for row in screen)
    rule = screen.index("-" * 80)
    decide = next(i for i, row in enumerate(screen) if row.startswith("Decide ("))
    log = " ".join(row.strip() for row in screen[rule + 1 : decide])
    assert all(line in log for line in since), "\n".join(screen)
    assert "new since your move" not in log
    upper = [row.split("|")[0] for row in screen[:rule]]
    assert len(upper) >= 6
    cut = any(" more (a taller" in row for row in screen[:rule])
    seats = ["seat 0:", "seat 1:", "seat 2:", "you:", "seat 4:"]
    assert cut or all(any(s in row for row in upper) for s in seats), "\n".join(screen)


def test_a_hand_picked_by_number_keeps_its_rows_when_the_log_needs_more() -> None:
    """The log takes rows from the upper panes for what happened since our move, but not
    from a hand whose cards the decision picks by number (a Reign bid) while both fit: the
    hand stays whole, the log's earlier lines give way."""
    model, _, _ = decision_model()
    assert model.decision is not None and model.decision.kind == "bid"
    busy_log(model, before=20, since=6)
    screen = render(model)
    rule = screen.index("-" * 80)
    side = [row.split("|")[1] for row in screen[:rule] if "|" in row]
    assert not any("more (" in row for row in side), "\n".join(screen)
    assert all(f"{i}. " in "\n".join(side) for i in range(1, len(model.hand()) + 1))
    decide = next(i for i, row in enumerate(screen) if row.startswith("Decide ("))
    assert screen[decide - 6 : decide] == [f"since {i}" for i in range(6)], "\n".join(screen)


def _side(screen: list[str]) -> list[str]:
    """The side pane's rows: right of the upper panes' border, above the rule."""
    rule = next(i for i, row in enumerate(screen) if row.startswith("--"))
    return [row.split("|")[1] for row in screen[:rule] if "|" in row]


def test_a_hand_and_a_log_too_long_for_both_go_compact_across_the_screen() -> None:
    """Issue 31 (S1b): when what happened since our move and the hand a bid picks from,
    one card a row, do not both fit, the table gives way and the hand goes compact across
    the screen -- two columns, every card by its number and whole name -- beside every line
    since our move; the rule says the table is hidden and that Esc brings it back, and Esc
    (the log read) does, the hand one card a row again."""
    model, _, _ = decision_model()
    busy_log(model, before=20, since=12)
    screen = render(model)
    decide = next(i for i, row in enumerate(screen) if row.startswith("Decide ("))
    assert screen[decide - 12 : decide] == [f"since {i}" for i in range(12)], "\n".join(screen)
    assert screen[0] == f"Your hand: {len(model.hand())} cards", "\n".join(screen)
    rule = next(i for i, row in enumerate(screen) if row.startswith("--"))
    assert screen[rule].startswith("-- table hidden (Esc: back) +"), "\n".join(screen)
    hand = "\n".join(screen[1:rule])
    for i, card in enumerate(model.hand(), start=1):
        assert f"{i}. {card_label(card)}" in hand, "\n".join(screen)
    assert "|" not in hand and "more" not in hand
    assert any("bring back the table" in row for row in render_keys(model))
    run_keys(model, "\x1b\x11", size=(80, 24))  # Esc: read; Ctrl-Q
    screen = render(model)
    side = _side(screen)
    assert side[0] == "Your hand" and not any("more (" in row for row in side), screen
    assert all(f"{i}. " in "\n".join(side) for i in range(1, len(model.hand()) + 1))


def test_a_terminal_too_small_for_both_cuts_the_hand_and_says_which_cards_esc_shows() -> None:
    """Issue 31: when what happened since our move and even the compact hand do not both
    fit, the log keeps its lines (the menu compact, the table gone first), and the hand's
    last row says which cards it cut and that Esc shows them."""
    model, _, _ = decision_model()
    busy_log(model, before=20, since=14)
    screen = render(model)
    decide = next(i for i, row in enumerate(screen) if row.startswith("Decide ("))
    assert screen[decide - 14 : decide] == [f"since {i}" for i in range(14)], "\n".join(screen)
    rule = next(i for i, row in enumerate(screen) if row.startswith("--"))
    assert screen[0].startswith("Your hand: ") and rule == 3, "\n".join(screen)
    shown = [int(n) for n in re.findall(r"(\d+)\. ", "\n".join(screen[1:2]))]
    cut = re.fullmatch(r"\+(\d+) more: cards ([\d, ]+) \(Esc shows them\)", screen[2])
    assert cut, "\n".join(screen)
    said = [int(n) for n in cut.group(2).split(", ")]
    assert sorted(shown + said) == list(range(1, len(model.hand()) + 1)), "\n".join(screen)
    assert int(cut.group(1)) == len(said)
    assert not any("taller window" in row for row in screen), "\n".join(screen)


def test_more_since_your_move_than_the_screen_holds_keeps_the_hand_you_pick_from() -> None:
    """Issue 31 (a Regent's spoils after a long combat at 5 seats): when what happened since
    our move would not all show even with the hand gone, cutting the hand buys nothing whole,
    so the compact hand stays whole -- every card by its number and name -- and the log shows
    its newest lines, the rule saying how many since our move are above (PgUp)."""
    model, _, _ = decision_model()
    busy_log(model, before=20, since=30)
    screen = render(model)
    assert screen[0] == f"Your hand: {len(model.hand())} cards", "\n".join(screen)
    rule = next(i for i, row in enumerate(screen) if row.startswith("--"))
    hand = "\n".join(screen[1:rule])
    for i, card in enumerate(model.hand(), start=1):
        assert f"{i}. {card_label(card)}" in hand, "\n".join(screen)
    assert "more" not in hand
    hidden = re.search(r"(\d+) new since your move", screen[rule])
    assert hidden, "\n".join(screen)
    decide = next(i for i, row in enumerate(screen) if row.startswith("Decide ("))
    shown = screen[rule + 1 : decide]
    assert shown == [f"since {i}" for i in range(30 - len(shown), 30)], "\n".join(screen)
    assert int(hidden.group(1)) == 30 - len(shown)


def test_the_upper_panes_give_way_when_what_happened_since_your_move_needs_their_rows() -> None:
    """Issue 31: when the lines since our last answer need more rows than the log has even
    with the upper panes at their least, the panes give way altogether (the rule under them
    says so, and carries the log's "+N earlier" marker), and come back once we answer -- or
    at Esc, the log read."""
    from tests.client.test_sovereign_screen import forge_model

    model, _, _, _ = forge_model()
    assert not any(key == "N" for key, _ in model.game_keys())  # no hand picked by number
    busy_log(model, before=20, since=14)
    screen = render(model)
    assert len(screen) == 24 and len(screen[0]) == 80
    assert re.fullmatch(r"-- table hidden \(Esc: back\) \+\d+ earlier: PgUp -+", screen[0])
    decide = next(i for i, row in enumerate(screen) if row.startswith("Decide ("))
    assert screen[decide - 14 : decide] == [f"since {i}" for i in range(14)], "\n".join(screen)
    assert all(row.startswith("before") for row in screen[1 : decide - 14])  # the rows left
    assert not any("new since your move" in row for row in screen)
    assert any("bring back the table" in row for row in render_keys(model))
    run_keys(model, "\x1b\x11", size=(80, 24))  # Esc: read; Ctrl-Q
    screen = render(model)
    assert "-" * 80 in screen and screen.index("-" * 80) >= 6  # the panes are back
    model.log_mark = 20  # as if not read
    assert render(model)[0].startswith("-- table hidden")
    model.log_mark = len(model.log)  # our answer: they come back
    assert render(model).index("-" * 80) >= 6


def render_keys(model: object) -> list[str]:
    """The '?' overlay's rows at 80x24."""
    from prompt_toolkit.application import Application, create_app_session
    from prompt_toolkit.application.current import set_app

    with (
        create_app_session(output=SizedOutput(80, 24)),
        set_app(Application(output=SizedOutput(80, 24))),
    ):
        return "".join(part for _, part in keys_lines(model, 80)).split("\n")


def test_a_short_message_sits_on_the_status_line_and_gives_the_log_its_row() -> None:
    """Issue 31: the one-line message shares the status line when it fits beside it (a row
    more for the log at 80x24); a longer one still takes rows of its own above it."""
    model, _, _ = decision_model()
    model.message = "Sent; waiting for the others..."
    screen = render(model)
    status = screen[-3]
    assert status.startswith(" Round") and status.endswith("  Sent; waiting for the others...")
    assert not any(row == model.message for row in screen)
    model.message = "Not allowed: " + "a long refusal " * 6
    screen = render(model)
    assert screen[-4].startswith("  ") and screen[-5].startswith("Not allowed:")
    assert screen[-3].startswith(" Round") and "Not allowed" not in screen[-3]


def test_sodalis_map_gives_way_to_what_happened_since_your_move_even_at_a_move() -> None:
    """Issue 31, S1: Sodalis' map never gave way, so at 80x24 the log kept 7-8 rows and
    what the others did hid behind PgUp every turn; then it kept all its rows while the
    highlighted option named a space, and a 2-seat game through a relay still hid up to 6
    lines since our move on one screen in eight.  Now the map gives rows as the other
    games' tables do, at a move too: cut, it keeps the rows round the highlighted space
    ('@'), the title and what the cut hides ('Esc shows them'); when even its least leaves
    a line since our move hidden, the table gives way; Esc brings it back."""
    from tests.client import test_sodalis_model as sodalis

    model, _ = sodalis.model_for(*sodalis.first_turn())
    busy_log(model, before=20, since=14)
    menu = model.menu()
    cast = next(i for i, (label, _) in enumerate(menu) if label.startswith("cast "))
    moves = [i for i, (label, _) in enumerate(menu) if label.startswith("move ")]
    for highlight in (cast, moves[0]):
        model.highlight = highlight
        screen = render(model)
        assert screen[0].startswith("-- table hidden (Esc: back)"), "\n".join(screen)
        decide = next(i for i, row in enumerate(screen) if row.startswith("Decide ("))
        assert screen[decide - 14 : decide] == [f"since {i}" for i in range(14)], "\n".join(screen)
    model, _ = sodalis.model_for(*sodalis.first_turn())
    busy_log(model, before=20, since=9)  # 9 lines since our move: the panes keep 6 rows
    for highlight in moves:
        model.highlight = highlight
        screen = render(model)
        rule = screen.index("-" * 80)
        upper = "\n".join(screen[:rule])
        assert rule == 6 and "@" in upper and "(Esc shows them)" in upper, "\n".join(screen)
        assert screen[0].startswith("Sodalis - round") and " @ (" in screen[0], screen[0]
        decide = next(i for i, row in enumerate(screen) if row.startswith("Decide ("))
        assert screen[decide - 9 : decide] == [f"since {i}" for i in range(9)], "\n".join(screen)
    model.highlight = cast
    run_keys(model, "\x1b\x11", size=(80, 24))  # Esc: the log read; Ctrl-Q
    screen = render(model)
    assert not screen[0].startswith("-- table hidden") and "-" * 80 in screen


def test_sodalis_map_title_fits_its_row_shortened_at_words() -> None:
    """Issue 31, S1: at 80x24 "Sodalis - round 43/100, your turn @ (4,-1)" wrapped in the
    map's 41 columns, "(4,-1)" alone on the next row.  The title keeps to its row: without
    the game's name, then its words shortened after a whole word with a mark, the
    highlighted space always whole; read aloud (no width), whole."""
    from fairtable.client.sodalis.panes import map_title
    from tests.client import test_sodalis_model as sodalis

    model, _ = sodalis.model_for(*sodalis.first_turn())
    width = 80 - 38 - 1  # the map's columns at 80
    at = " @ (4,-1)"
    assert map_title(model, "round 4/100, your turn", at, width) == (
        "Sodalis - round 4/100, your turn @ (4,-1)"
    )
    assert map_title(model, "round 43/100, your turn", at, width) == (
        "Round 43/100, your turn @ (4,-1)"
    )
    long = map_title(model, "round 43/100, the Empress of the Long Name's turn", at, width)
    assert long == "Round 43/100, the Empress\u2026 @ (4,-1)", long
    assert map_title(model, "round 43/100, your turn", at, None) == (
        "Sodalis - round 43/100, your turn @ (4,-1)"
    )
