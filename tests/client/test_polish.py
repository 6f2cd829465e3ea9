"""Small things an evening of play at 80x24 showed (issue 31): F1 does not repeat the help
cut to one line, the relay's Ctrl-C does not speak of a game."""

from __future__ import annotations

import pytest

from client.app import build_application
from client.netcli import stopped_line
from client.screen_model import HELP_SHOWN
from tests.client.screen import render, run_keys
from tests.client.test_screen import decision_model


def test_f1_shows_the_help_in_its_pane_and_a_short_line_under_it() -> None:
    model, _, _ = decision_model()
    run_keys(model, "\x1bOP" + "\x11")  # F1, Ctrl-Q
    assert model.show_help and model.message == HELP_SHOWN
    screen = render(model)
    assert HELP_SHOWN in screen
    first = model.help_text().split("\n")[0][:60]
    assert sum(first in row for row in screen) == 1  # the help's start is shown once
    assert build_application(model) is not None


def test_the_relays_ctrl_c_speaks_of_its_tables_not_of_a_game() -> None:
    assert "game" not in stopped_line("relay") and "tables it holds" in stopped_line("relay")
    assert stopped_line("host") == "Stopped. The game is kept; run the same command to resume."


def test_the_keys_overlay_covers_the_board_and_marks_where_it_ends() -> None:
    model, _, _ = decision_model()
    model.show_keys = True
    screen = render(model)
    top = screen.index("Keys here (? or Esc closes)")
    end = next(i for i in range(top, len(screen)) if screen[i] == "-" * 80)
    assert all("|" not in row for row in screen[top:end]), screen  # no board beside it


def test_a_refused_link_is_not_said_twice_before_the_tables_clear_refusal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from client.netcli import _printer
    from netplay import events as ev

    emit = _printer(False)
    emit(ev.LinkRefused("not authorised"))
    emit(ev.Refused("this invite is not for this table"))
    assert capsys.readouterr().out == "Refused: this invite is not for this table\n"
    emit(ev.LinkRefused("busy"))  # no clearer line follows: it is said
    emit(ev.Joining("fairtable://x"))
    assert capsys.readouterr().out.splitlines() == ["Link refused: busy", "Joining the table..."]
