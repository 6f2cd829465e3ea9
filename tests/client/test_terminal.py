"""End to end in a real terminal: ``fairtable play reign --bots 2`` in tmux at 80x24,
played to the end by typing as a person would (always the first option, ``#1``)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from tests.client.tmux import quit_screen, screen, session, type_first_options


def test_terminal_a_whole_game_typed_at_the_keyboard_names_the_winner(tmp_path: Path) -> None:
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli play reign --bots 2 --pace 0.05 "
        f"--data-dir {shlex.quote(str(tmp_path))}; echo EXITED; sleep 60"
    )
    with session(command) as name:
        typed = type_first_options(name)
        final = screen(name)
        assert "Game over" in final, final
        assert "wins" in final or "you win" in final or "nobody rules" in final
        lines = final.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        assert "Your hand" in final and "Reign - round" in final
        assert typed > 5
        assert "EXITED" in quit_screen(name)
