"""End to end in a real terminal (tmux, 80x24): in a busy five-seat Reign game the log calls
the bots by their names alone ("Mira", not "Mira (heuristic)": the strength stays where the
seats are listed, in the table pane), so fewer of its lines wrap and fewer of the lines since
our move hide behind "N new since your move: PgUp" (issue 31)."""

from __future__ import annotations

import re
import shlex
import sys
import time
from pathlib import Path

from tests.client.tmux import asked, screen, session, tmux

HIDDEN = re.compile(r"(\d+) new since your move")


def test_terminal_five_seat_reign_log_names_bots_without_their_strength(tmp_path: Path) -> None:
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli play reign --bots 4 "
        f"--pace 0.05 --data-dir {shlex.quote(str(tmp_path))}; echo EXITED; sleep 60"
    )
    hidden: list[int] = []
    with session(command) as name:
        deadline = time.monotonic() + 180  # bounded: a few rounds of five seats
        last = ""
        while len(hidden) < 8 and time.monotonic() < deadline:
            now = screen(name)
            if not asked(now) or now == last or "Sent; waiting" in now:
                time.sleep(0.05)  # polling the terminal, not waiting for a fixed event
                continue
            rows = now.rstrip("\n").split("\n")
            rule = rows.index("-" * 80)
            tags = "(heuristic)" in "\n".join(rows[:rule])
            log = rows[rule + 1 : next(i for i, r in enumerate(rows) if r.startswith("Decide ("))]
            assert tags and not any("(heuristic)" in row for row in log), now
            found = HIDDEN.search("\n".join(log))
            hidden.append(int(found.group(1)) if found else 0)
            tmux("send-keys", "-t", name, "#1", "Enter")
            last = now
        assert len(hidden) == 8, screen(name)
    print("lines since our move hidden at each of 8 decisions:", hidden)
