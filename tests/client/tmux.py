"""Driving the real console in a real terminal for the end-to-end tests: a command run in a
tmux session at 80x24, its screen read back as text, a whole game played by typing the first
option (``#1``) at every decision as a person would, and quitting with ``q``."""

from __future__ import annotations

import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True).stdout


def screen(name: str) -> str:
    return tmux("capture-pane", "-t", name, "-p")


@contextmanager
def session(command: str) -> Iterator[str]:
    """A fresh tmux session at 80x24 running ``command`` (in this folder); its name.  The
    session is killed on leaving."""
    name = f"ft-{uuid.uuid4().hex[:8]}"
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", str(Path.cwd()), command)
    try:
        yield name
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True, check=False)


def type_first_options(name: str, watch: Callable[[str], None] | None = None) -> int:
    """Type ``#1`` at every new screen saying ``Your move`` until the game is over or stopped
    (bounded: 240 s for the whole game); ``watch`` is shown every screen read.  Returns how
    many times ``#1`` was typed."""
    deadline = time.monotonic() + 240  # bounded: the whole game
    last = ""
    typed = 0
    while time.monotonic() < deadline:
        now = screen(name)
        if watch is not None:
            watch(now)
        if "Game over" in now or "The game stopped" in now:
            break
        if "Your move" in now and now != last:
            tmux("send-keys", "-t", name, "#1", "Enter")
            typed += 1
            last = now
        time.sleep(0.05)  # polling the terminal, not waiting for a fixed event
    return typed


def quit_screen(name: str) -> str:
    """Type ``q`` and wait (bounded: 30 s) for the command to print ``EXITED``; the screen
    then."""
    tmux("send-keys", "-t", name, "q", "Enter")
    deadline = time.monotonic() + 30
    while "EXITED" not in screen(name) and time.monotonic() < deadline:
        time.sleep(0.05)
    return screen(name)
