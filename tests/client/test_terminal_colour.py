"""End to end in a real terminal (tmux, 80x24): houses are coloured on the screen, and with
``NO_COLOR=1`` in the environment (or ``--mono``) the screen carries no colour code at all,
only bold, italic and reverse."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest

from tests.client.tmux import asked, session, tmux, wait_for

SGR = re.compile(r"\x1b\[([0-9;]*)m")


def colour_codes(escaped: str) -> list[str]:
    """The SGR sequences of a screen that set a foreground or background colour."""
    found = []
    for params in SGR.findall(escaped):
        codes = [int(p) for p in params.split(";") if p.isdigit()]
        if any(30 <= c <= 38 or 40 <= c <= 48 or 90 <= c <= 97 or 100 <= c <= 107 for c in codes):
            found.append(params)
    return found


@pytest.mark.parametrize(
    ("env", "option", "coloured"),
    [("", "", True), ("NO_COLOR=1 ", "", False), ("", "--mono ", False)],
)
def test_terminal_no_color_gives_a_screen_without_colour_codes(
    tmp_path: Path, env: str, option: str, coloured: bool
) -> None:
    command = (
        f"{env}{shlex.quote(sys.executable)} -m fairtable.client.cli play reign --bots 2 {option}"
        f"--data-dir {shlex.quote(str(tmp_path))}; echo EXITED; sleep 60"
    )
    with session(command) as name:
        wait_for(name, asked, 60, "a Reign decision")
        escaped = tmux("capture-pane", "-t", name, "-p", "-e")
        assert "Your hand" in escaped
        assert bool(colour_codes(escaped)) == coloured, escaped
        assert "\x1b[" in escaped  # bold / reverse still mark the title and status line
