"""End to end in a real terminal (tmux, 80x24): a Sodalis game shows what the others did
since our move (issue 31, S1).  Whatever the highlighted option, a line since our move hides
only once the menu is compact and the table gave way; while the map shows at a move, its
highlighted space ('@') shows, and the title keeps to its row; a pane the log cut says that
Esc shows the rest -- and Esc does.

The games are seeded (``play --seed``): every run meets the same decisions, among them turns
whose suggested option is a move or a cast while many lines since our move wait for rows."""

from __future__ import annotations

import re
import shlex
import sys
import time
from pathlib import Path

import pytest

from tests.client.tmux import asked, screen, session, tmux, wait_for

GIVEN_WAY = "-- table hidden (Esc: back)"
HIDDEN = re.compile(r"(\d+) new since your move")


@pytest.mark.parametrize(
    ("bots", "seed", "decisions"),
    [
        (3, 0, 14),  # the table gives way at our 12th decision (a turn, a cast suggested)
        (1, 3, 20),  # two seats: a move suggested under many lines (hidden before: S1)
    ],
)
def test_terminal_sodalis_table_gives_way_to_what_happened_since_your_move(
    tmp_path: Path, bots: int, seed: int, decisions: int
) -> None:
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli play sodalis --bots {bots} "
        f"--pace 0.05 --seed {seed} --data-dir {shlex.quote(str(tmp_path))}; "
        "echo EXITED; sleep 60"
    )
    gave, gave_at_move, escaped, answered = 0, 0, 0, 0
    with session(command) as name:
        deadline = time.monotonic() + 240  # bounded: a few rounds
        last = ""
        while answered < decisions:
            assert time.monotonic() < deadline, f"{answered} decisions:\n{screen(name)}"
            now = screen(name)
            if not asked(now) or now == last or "Sent; waiting" in now:
                time.sleep(0.05)  # polling the terminal, not waiting for a fixed event
                continue
            rows = now.rstrip("\n").split("\n")
            assert len(rows) <= 24 and all(len(row) <= 80 for row in rows), now
            rule = next(i for i, r in enumerate(rows) if r == "-" * 80 or r.startswith(GIVEN_WAY))
            decide = next(i for i, r in enumerate(rows) if r.startswith("Decide ("))
            map_named = "@ = this" in rows[decide]
            given_way = rows[rule].startswith(GIVEN_WAY)
            gave += given_way
            gave_at_move += given_way and map_named
            if HIDDEN.search("\n".join(rows[rule:decide])):  # everything that can give way has
                assert len(rows[decide:-3]) <= 4 and given_way, now
            upper = "\n".join(rows[:rule])
            if map_named and not given_way:  # the map, its highlighted space, a title row
                assert "@" in upper.replace(" @ (", ""), now
                assert " @ (" in rows[0] and rows[1].lstrip()[:1] != "(", now
            assert "(a taller window" not in upper or "(Esc shows" not in upper, now
            if "more (Esc shows them)" in upper and not escaped:  # Esc: the log read
                tmux("send-keys", "-t", name, "Escape")
                after = wait_for(name, lambda s, was=now: s != was, 10, "the panes back")
                assert "(Esc shows them)" not in after and GIVEN_WAY not in after, after
                escaped += 1
                now = after
            tmux("send-keys", "-t", name, "#1", "Enter")
            answered += 1
            last = now
    assert gave and escaped, (gave, escaped)  # the seed reached both
    assert bots > 1 or gave_at_move, gave_at_move  # two seats: a move's map gave way too
