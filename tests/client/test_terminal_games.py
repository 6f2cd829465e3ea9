"""End to end in a real terminal: ``fairtable play GAME --bots 1 --round-limit N`` in tmux at
80x24 (the full protocol over loopback, one bot peer) for the menu-driven games, Sodalis and
Sovereign, played to the end by typing as a person would: the first option (``#1``) at every
decision.  (Reign's typed game is ``test_terminal.py``.)"""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True).stdout


def screen(name: str) -> str:
    return tmux("capture-pane", "-t", name, "-p")


@pytest.mark.parametrize(("game", "rounds", "drawn"), [
    ("sodalis", 3, ("P Paragon", "Sodalis - round")),  # the arena
    ("sovereign", 2, ("Hand 8", ">you")),  # your lanes and hand
])
def test_terminal_a_short_game_typed_at_the_keyboard_ends(
    tmp_path: Path, game: str, rounds: int, drawn: tuple[str, str]
) -> None:
    name = f"ft-{uuid.uuid4().hex[:8]}"
    command = (f"{shlex.quote(sys.executable)} -m client.cli play {game} --bots 1 "
               f"--round-limit {rounds} --pace 0.05 --data-dir {shlex.quote(str(tmp_path))}; "
               "echo EXITED; sleep 60")
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", str(Path.cwd()), command)
    try:
        deadline = time.monotonic() + 240  # bounded: the whole game
        last = ""
        typed = 0
        seen_arena = False
        while time.monotonic() < deadline:
            now = screen(name)
            seen_arena = seen_arena or all(text in now for text in drawn)
            if "Game over" in now or "The game stopped" in now:
                break
            if "Your move" in now and now != last:
                tmux("send-keys", "-t", name, "#1", "Enter")
                typed += 1
                last = now
            time.sleep(0.05)  # polling the terminal, not waiting for a fixed event
        final = screen(name)
        assert "Game over" in final, final
        assert "round limit" in final or "win" in final
        lines = final.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        assert seen_arena  # the game's table was drawn
        assert typed > 5
        tmux("send-keys", "-t", name, "q", "Enter")
        deadline = time.monotonic() + 30
        while "EXITED" not in screen(name) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "EXITED" in screen(name)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True, check=False)
