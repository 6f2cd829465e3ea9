"""End to end in a real terminal (tmux, 80x24): a four-seat Sodalis game shows what the
others did since our move (issue 31, S1).  The map stays only while the highlighted option
names a space on it (a move or a placement: the decision line says "@ = this"); at any other
decision of ours the table gives way to the log as in the other games, and a pane the log
cut says that Esc shows the rest -- and Esc does.

The game is seeded (``play --seed``): every run meets the same decisions, among them turns
whose suggested option is a cast while many lines since our move wait for rows."""

from __future__ import annotations

import re
import shlex
import sys
import time
from pathlib import Path

from tests.client.tmux import asked, screen, session, tmux, wait_for

SEED = 0  # the table gives way at our 12th decision (a turn, a cast suggested)
GIVEN_WAY = "-- table hidden (Esc: back)"
HIDDEN = re.compile(r"(\d+) new since your move")
DECISIONS = 14


def test_terminal_sodalis_table_gives_way_to_what_happened_since_your_move(
    tmp_path: Path,
) -> None:
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli play sodalis --bots 3 "
        f"--pace 0.05 --seed {SEED} --data-dir {shlex.quote(str(tmp_path))}; "
        "echo EXITED; sleep 60"
    )
    gave, escaped, decisions = 0, 0, 0
    with session(command) as name:
        deadline = time.monotonic() + 240  # bounded: a few rounds of four seats
        last = ""
        while decisions < DECISIONS:
            assert time.monotonic() < deadline, f"{decisions} decisions:\n{screen(name)}"
            now = screen(name)
            if not asked(now) or now == last or "Sent; waiting" in now:
                time.sleep(0.05)  # polling the terminal, not waiting for a fixed event
                continue
            rows = now.rstrip("\n").split("\n")
            assert len(rows) <= 24 and all(len(row) <= 80 for row in rows), now
            rule = next(i for i, r in enumerate(rows) if r == "-" * 80 or r.startswith(GIVEN_WAY))
            decide = next(i for i, r in enumerate(rows) if r.startswith("Decide ("))
            map_named = "@ = this" in rows[decide]
            gave += rows[rule].startswith(GIVEN_WAY)
            assert not map_named or not rows[rule].startswith(GIVEN_WAY), now
            if HIDDEN.search("\n".join(rows[rule:decide])):  # everything that can give way has
                assert len(rows[decide:-3]) <= 4, now
                assert map_named or rows[rule].startswith(GIVEN_WAY), now
            upper = "\n".join(rows[:rule])
            assert "(a taller window" not in upper or "(Esc shows" not in upper, now
            if "more (Esc shows them)" in upper and not escaped:  # Esc: the log read
                tmux("send-keys", "-t", name, "Escape")
                after = wait_for(name, lambda s, was=now: s != was, 10, "the panes back")
                assert "(Esc shows them)" not in after and GIVEN_WAY not in after, after
                escaped += 1
                now = after
            tmux("send-keys", "-t", name, "#1", "Enter")
            decisions += 1
            last = now
    assert gave and escaped, (gave, escaped)  # the seed reached both
