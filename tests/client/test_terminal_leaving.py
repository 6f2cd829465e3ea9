"""End to end in a real terminal at 80x24: ``q`` leaves at every question, the two asked
before any screen too -- ``fairtable resume``'s "Resume which game?" and ``fairtable
join``'s "Join code or invite" -- as it leaves the screen (issue 31)."""

from __future__ import annotations

import shlex
import socket
import sys
from pathlib import Path

from tests.client.test_lifecycle import _folder
from tests.client.tmux import session, tmux, wait_for


def _free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _leaves_with_q(command: str, question: str, said: str) -> None:
    with session(f"{command}; echo EXITED $?; sleep 60") as name:
        asked = wait_for(name, lambda s: question in s, 60, "the question")
        assert "q leaves" in asked  # the question says how to leave
        tmux("send-keys", "-t", name, "q", "Enter")
        now = wait_for(name, lambda s: "EXITED" in s, 30, "leaving")
        assert said in now and "EXITED 0" in now, now
        assert "fairtable:" not in now  # no error: leaving is not a mistake


def test_q_at_resume_which_game_leaves_without_an_error(tmp_path: Path) -> None:
    _folder(tmp_path, "reign", 3, kind="play", status="playing", seat=0, round=2, turn=[0])
    python, data = shlex.quote(sys.executable), shlex.quote(str(tmp_path))
    _leaves_with_q(
        f"{python} -m fairtable.client.cli resume --data-dir {data}",
        "Resume which game?",
        "Nothing resumed.",
    )


def test_q_at_join_code_or_invite_leaves_without_an_error(tmp_path: Path) -> None:
    python, data = shlex.quote(sys.executable), shlex.quote(str(tmp_path))
    port = _free_udp_port()  # a LAN where nobody announces a table
    _leaves_with_q(
        f"{python} -m fairtable.client.cli join --data-dir {data} --discovery-port {port}",
        "Join code or invite",
        "Nothing joined.",
    )
