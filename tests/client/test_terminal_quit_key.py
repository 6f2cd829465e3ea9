"""End to end in a real terminal (tmux, 80x24): the key-hint bar names the one key that
leaves at a decision -- Ctrl-Q, alone, no Enter -- since a bare ``q`` there is a letter of
the prompt (issue 31)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from tests.client.tmux import KEY_HINTS, asked, session, tmux, wait_for


def test_terminal_hint_bar_names_ctrl_q_and_ctrl_q_alone_leaves(tmp_path: Path) -> None:
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli play reign --bots 2 "
        f"--pace 0.05 --data-dir {shlex.quote(str(tmp_path))}; echo EXITED; sleep 60"
    )
    with session(command) as name:
        now = wait_for(name, asked, 60, "a decision")
        hints = next(row for row in now.splitlines() if row.startswith(KEY_HINTS))
        assert "Ctrl-Q quit" in hints and "q quit" not in hints.replace("Ctrl-Q quit", "")
        tmux("send-keys", "-t", name, "C-q")  # the key alone, as the bar says
        wait_for(name, lambda s: "EXITED" in s, 30, "leaving on Ctrl-Q")
