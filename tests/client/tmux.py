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


def screen(name: str, *, joined: bool = False) -> str:
    """The screen as text (``joined``: lines the terminal wrapped are joined again)."""
    return tmux("capture-pane", "-t", name, "-p", *(["-J"] if joined else []))


@contextmanager
def session(command: str, width: int = 80, height: int = 24) -> Iterator[str]:
    """A fresh tmux session at 80x24 (or ``width`` x ``height``) running ``command`` (in this
    folder); its name.  The session is killed on leaving."""
    name = f"ft-{uuid.uuid4().hex[:8]}"
    args = [
        "tmux",
        "new-session",
        "-d",
        "-s",
        name,
        "-x",
        str(width),
        "-y",
        str(height),
        "-c",
        str(Path.cwd()),
        command,
    ]
    deadline = time.monotonic() + 10  # bounded: a few tries
    while (made := subprocess.run(args, capture_output=True, text=True)).returncode != 0:
        # the tmux server exits when the last session (a previous test's) is killed; a new
        # session asked for while it is exiting fails, and the next try starts a new server
        assert time.monotonic() < deadline, f"tmux cannot open a session: {made.stderr}"
        time.sleep(0.1)
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
        if "your move" in now.lower() and now != last:
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


def wait_for(
    name: str, seen: Callable[[str], bool], seconds: float, what: str, *, joined: bool = False
) -> str:
    """Poll the screen until ``seen`` holds (bounded: ``seconds``); the screen then.  Fails
    with ``what`` and the last screen when the deadline passes.  ``joined``: as
    :func:`screen`."""
    deadline = time.monotonic() + seconds
    while True:
        now = screen(name, joined=joined)
        if seen(now):
            return now
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not seen within {seconds} s; the screen:\n{now}")
        time.sleep(0.05)  # polling the terminal, not waiting for a fixed event


def asked(now: str) -> bool:
    """The screen asks this seat to decide (its message or status line says so: after a
    resume the message line tells the resume first), and the prompt (the line above the
    key hints) is empty."""
    lines = [line for line in now.rstrip().splitlines() if not line.startswith(KEY_HINTS)]
    return "your move" in now.lower() and bool(lines) and lines[-1].strip() == ">"


KEY_HINTS = " F1 help"
"""How the key-hint bar under the prompt starts."""


class Typist:
    """A person at each of several screens typing ``#1`` at every new ``Your move``."""

    def __init__(self, *names: str) -> None:
        self.names = list(names)
        self.held: set[str] = set()  # screens nobody types on for now
        self.last = dict.fromkeys(names, "")  # the screen each was last typed at
        self.typed = dict.fromkeys(names, 0)
        self.refused: list[str] = []  # screens that said "Not allowed"

    def replace(self, old: str, new: str) -> None:
        """The command of screen ``old`` runs again in session ``new``."""
        self.names[self.names.index(old)] = new
        self.last[new], self.typed[new] = "", self.typed.pop(old)
        self.held.discard(old)

    def asked_anew(self, name: str, now: str) -> bool:
        return asked(now) and now != self.last[name]

    def poll(self) -> dict[str, str]:
        """Read every screen once and type ``#1`` where a new decision is asked."""
        screens = {}
        for name in self.names:
            now = screens[name] = screen(name)
            if "Not allowed" in now:
                self.refused.append(now)
            if name not in self.held and self.asked_anew(name, now):
                tmux("send-keys", "-t", name, "#1", "Enter")
                self.typed[name] += 1
                self.last[name] = now
        return screens

    def until(
        self, done: Callable[[dict[str, str]], bool], seconds: float, what: str
    ) -> dict[str, str]:
        """Keep typing until ``done`` holds for the screens (bounded: ``seconds``); the
        screens then.  Fails with ``what`` and every screen when the deadline passes."""
        deadline = time.monotonic() + seconds
        while True:
            screens = self.poll()
            if done(screens):
                return screens
            if time.monotonic() > deadline:
                shown = "\n\n".join(f"{n}:\n{s}" for n, s in screens.items())
                raise AssertionError(f"{what} not seen within {seconds} s:\n{shown}")
            time.sleep(0.05)  # polling the terminals, not waiting for a fixed event


def command_pid(name: str) -> int:
    """The pid of the command the session's shell runs (the fairtable process)."""
    shell = int(tmux("display", "-p", "-t", name, "#{pane_pid}").strip())
    children = Path(f"/proc/{shell}/task/{shell}/children").read_text().split()
    assert len(children) == 1, f"the pane's shell runs {children}"
    return int(children[0])
