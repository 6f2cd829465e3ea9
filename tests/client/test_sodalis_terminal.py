"""End to end in a real terminal: ``fairtable play sodalis --bots 1 --round-limit 3`` in tmux
at 80x24 (the full protocol over loopback, one bot peer), played to the end by typing as a
person would: the first option (``#1``) at every decision."""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
import uuid
from pathlib import Path


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True).stdout


def screen(name: str) -> str:
    return tmux("capture-pane", "-t", name, "-p")


def test_terminal_a_short_sodalis_game_typed_at_the_keyboard_ends(tmp_path: Path) -> None:
    name = f"ft-{uuid.uuid4().hex[:8]}"
    command = (f"{shlex.quote(sys.executable)} -m client.cli play sodalis --bots 1 "
               f"--round-limit 3 --pace 0.05 --data-dir {shlex.quote(str(tmp_path))}; "
               "echo EXITED; sleep 60")
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", str(Path.cwd()), command)
    try:
        deadline = time.monotonic() + 240  # bounded: the whole game
        last = ""
        typed = 0
        seen_arena = False
        while time.monotonic() < deadline:
            now = screen(name)
            seen_arena = seen_arena or ("P Paragon" in now and "Sodalis - round" in now)
            if "Game over" in now or "The game stopped" in now:
                break
            if "Your move" in now and now != last:
                tmux("send-keys", "-t", name, "#1", "Enter")
                typed += 1
                last = now
            time.sleep(0.05)  # polling the terminal, not waiting for a fixed event
        final = screen(name)
        assert "Game over" in final, final
        assert "nobody wins (round limit)" in final or "wins" in final
        assert "Round 3/3" in final or "round 3/3" in final or "wins the Trial" in final
        lines = final.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        assert seen_arena and "you " in final  # the arena and the side pane were drawn
        assert typed > 5
        tmux("send-keys", "-t", name, "q", "Enter")
        deadline = time.monotonic() + 30
        while "EXITED" not in screen(name) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "EXITED" in screen(name)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True, check=False)
