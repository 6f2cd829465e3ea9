"""End to end in a real terminal: ``fairtable play GAME --bots 1 --round-limit N`` in tmux at
80x24 (the full protocol over loopback, one bot peer) for the menu-driven games, Sodalis and
Sovereign, played to the end by typing as a person would: the first option (``#1``) at every
decision.  (Reign's typed game is ``test_terminal.py``.)"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from tests.client.tmux import quit_screen, screen, session, type_first_options


@pytest.mark.parametrize(
    ("game", "rounds", "drawn"),
    [
        ("sodalis", 3, ("P Paragon", "Sodalis - round")),  # the arena
        ("sovereign", 2, ("Hand 8", ">you")),  # your lanes and hand
    ],
)
def test_terminal_a_short_game_typed_at_the_keyboard_ends(
    tmp_path: Path, game: str, rounds: int, drawn: tuple[str, str]
) -> None:
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli play {game} --bots 1 "
        f"--round-limit {rounds} --pace 0.05 --data-dir {shlex.quote(str(tmp_path))}; "
        "echo EXITED; sleep 60"
    )
    with session(command) as name:
        screens: list[str] = []
        typed = type_first_options(name, watch=screens.append)
        seen_arena = any(all(text in now for text in drawn) for now in screens)
        final = screen(name)
        assert "Game over" in final, final
        assert "round limit" in final or "win" in final
        lines = final.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        assert seen_arena  # the game's table was drawn
        assert typed > 5
        assert "EXITED" in quit_screen(name)
