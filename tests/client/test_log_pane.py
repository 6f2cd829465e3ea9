"""The log at 80x24 (issue 31): it keeps rows beside a long menu, holds its page while
scrolled back however many lines arrive (and follows new ones again once PgDn reaches the
bottom), breaks long lines at spaces, marks what it cuts; the side pane widens on wider
terminals."""

from __future__ import annotations

from client.app import LogPane, side_width, wrapped
from client.keys import keys_lines
from tests.client.screen import SizedOutput, render
from tests.client.test_screen import decision_model


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
