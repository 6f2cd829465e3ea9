"""End to end in a real terminal: ``i`` puts the invite on the clipboard with OSC 52.

The host's screen runs in a tmux server of this test's own (``tmux -S`` with a socket in the
test's temporary folder: its options are nobody else's, and nothing is left behind) started
with ``set-clipboard on``, so tmux takes the OSC 52 escape the
screen writes into a paste buffer, which ``show-buffer`` reads back.  The default tmux
server, and its options, are never touched."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


def _tmux(socket: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["tmux", "-S", socket, *args], capture_output=True, text=True, check=check
    )


@contextmanager
def _own_server(command: str, conf: Path) -> Iterator[str]:
    """A tmux server of our own (config ``conf``, its socket beside it) running ``command``
    at 80x24 in one session; its socket's path.  The session is killed on leaving (the
    server then exits)."""
    socket = str(conf.parent / f"tmux-{uuid.uuid4().hex[:8]}")
    _tmux(socket, "-f", str(conf), "new-session", "-d", "-s", "clip", "-x", "80", "-y", "24",
          "-c", str(Path.cwd()), command)  # fmt: skip
    try:
        yield socket
    finally:
        _tmux(socket, "kill-session", "-t", "clip", check=False)


def _screen(socket: str) -> str:
    return _tmux(socket, "capture-pane", "-t", "clip", "-p").stdout


def _wait(what: str, seconds: float, seen: Callable[[], bool]) -> None:
    deadline = time.monotonic() + seconds
    while not seen():
        assert time.monotonic() < deadline, f"{what} not seen within {seconds} s"
        time.sleep(0.05)  # polling the terminal, not waiting for a fixed event


def _buffers(socket: str) -> list[str]:
    names = _tmux(socket, "list-buffers", "-F", "#{buffer_name}", check=False).stdout.split()
    return [_tmux(socket, "show-buffer", "-b", name).stdout for name in names]


def test_terminal_i_copies_the_invite_with_osc_52(tmp_path: Path) -> None:
    conf = tmp_path / "tmux.conf"
    conf.write_text("set -s set-clipboard on\n")
    data = tmp_path / "host"
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli host reign --seats 3 --bots 1 "
        f"--no-announce --listen-host 127.0.0.1 --data-dir {shlex.quote(str(data))}; "
        "echo EXITED; sleep 60"
    )
    with _own_server(command, conf) as socket:
        assert _tmux(socket, "show", "-s", "set-clipboard").stdout.split() == [
            "set-clipboard",
            "on",
        ]
        _wait("the lobby", 60, lambda: "Anywhere" in _screen(socket))
        (info,) = [json.loads(p.read_text()) for p in (data / "tables").glob("*/table.json")]
        invite = str(info["invite"])
        _wait("the copy at the table's opening", 10, lambda: invite in _buffers(socket))
        for name in _tmux(socket, "list-buffers", "-F", "#{buffer_name}").stdout.split():
            _tmux(socket, "delete-buffer", "-b", name)
        assert _buffers(socket) == []
        _tmux(socket, "send-keys", "-t", "clip", "i", "Enter")
        _wait("the copy after 'i'", 10, lambda: _buffers(socket) == [invite])
        # the copy is written before the screen is drawn again: the words follow it
        _wait("the words after 'i'", 10, lambda: "also copied to your clipboard" in _screen(socket))
        _tmux(socket, "send-keys", "-t", "clip", "q", "Enter")
        _wait("the screen to leave", 30, lambda: "EXITED" in _screen(socket))
