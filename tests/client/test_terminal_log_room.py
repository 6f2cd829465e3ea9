"""End to end in a real terminal (tmux, 80x24): in a five-seat Reign game the four others'
moves between two of ours fill the log; at an overt decision (a menu of a dozen options)
the menu goes compact -- its decision line, two options and "+N more" -- rather than hide
what happened since our move behind PgUp (issue 31).  The game is seeded (``play --seed``):
every run meets the same overt decisions."""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

from tests.client.tmux import asked, screen, session, tmux


def _menu_rows(now: str) -> list[str]:
    """The decision pane's rows: from "Decide (" to the row above the status line."""
    rows = now.rstrip("\n").split("\n")
    start = next(i for i, row in enumerate(rows) if row.startswith("Decide ("))
    status = len(rows) - 3  # the status line (the message beside it), the prompt, the hints
    end = next((i for i in range(start + 1, status) if not rows[i].startswith((" ", ">"))), status)
    return rows[start:end]


def test_terminal_five_seat_reign_overt_menu_goes_compact_for_the_log(tmp_path: Path) -> None:
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli play reign --bots 4 "
        f"--pace 0.05 --seed 0 --data-dir {shlex.quote(str(tmp_path))}; echo EXITED; sleep 60"
    )
    checked = 0
    with session(command) as name:
        deadline = time.monotonic() + 180  # bounded: two rounds of five seats
        last = ""
        while checked < 2 and time.monotonic() < deadline:
            now = screen(name)
            if not asked(now) or now == last or "Sent; waiting" in now:
                time.sleep(0.05)  # polling the terminal, not waiting for a fixed event
                continue
            if "Decide (overt)" in now and "more below" in now:
                rows = now.rstrip("\n").split("\n")
                rule = next(i for i, r in enumerate(rows) if r.startswith("--"))  # or says
                # the table gave way to the log
                hidden = "new since your move" in "".join(rows[rule : rule + 2])  # or the rule
                menu = _menu_rows(now)
                assert len(menu) <= 4 or not hidden, now  # compact while lines are hidden
                assert sum(r[:2] in (">#", " #") for r in menu) >= 1, now
                assert len(rows) <= 24 and all(len(r) <= 80 for r in rows), now
                checked += 1
            tmux("send-keys", "-t", name, "#1", "Enter")
            last = now
        assert checked == 2, screen(name)
