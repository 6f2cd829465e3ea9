"""The screen's own bad starts, in a real terminal (tmux, 80x24): the network side's error
closes the screen and comes out as the same one line as everywhere else, and a join that
cannot reach the table says why in the status line while it retries."""

from __future__ import annotations

import shlex
import socket
import sys
import time
from pathlib import Path

from tests.client.test_bad_starts import closed_port, invite_to
from tests.client.tmux import quit_screen, screen, session


def _wait_for(name: str, text: str, seconds: float) -> str:
    """The screen once it shows ``text`` (polled, bounded by ``seconds``)."""
    deadline = time.monotonic() + seconds
    now = screen(name)
    while text not in now and time.monotonic() < deadline:
        time.sleep(0.05)  # polling the terminal, not waiting for a fixed event
        now = screen(name)
    return now


def test_terminal_a_host_screen_on_a_port_in_use_ends_in_one_line(tmp_path: Path) -> None:
    err = tmp_path / "stderr"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = (
            f"{shlex.quote(sys.executable)} -m fairtable.client.cli host reign --seats 3 "
            f"--port {port} --listen-host 127.0.0.1 --no-announce "
            f"--data-dir {shlex.quote(str(tmp_path / 'data'))} 2>{shlex.quote(str(err))}"
            "; echo EXITED $?; sleep 60"
        )
        with session(command) as name:
            final = _wait_for(name, "EXITED", 30)
    assert "EXITED 2" in final, final
    assert err.read_text() == (
        f"fairtable: cannot listen on 127.0.0.1:{port}: address already in use\n"
    )


def test_terminal_a_join_that_cannot_reach_the_host_says_why_in_the_status_line(
    tmp_path: Path,
) -> None:
    port = closed_port()
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli join "
        f"{shlex.quote(invite_to(port))} --data-dir {shlex.quote(str(tmp_path))}"
        "; echo EXITED $?; sleep 60"
    )
    with session(command) as name:
        started = time.monotonic()
        shown = _wait_for(name, "retrying... (attempt", 10)
        assert time.monotonic() - started < 10, shown
        status = [line for line in shown.splitlines() if "retrying" in line][-1]
        assert status.strip().startswith(
            f"cannot reach 127.0.0.1:{port}: connection refused; retrying... (attempt "
        ), shown
        assert all(len(line) <= 80 for line in shown.splitlines())
        assert "EXITED 0" in quit_screen(name)
