"""End to end in a real terminal (tmux, 80x24): a seeded Sovereign game of four seats shows
every seat's summary row -- its name, faction, Echoes scored of those that win and cards in
hand -- in the table pane at each of our decisions, so how far each seat is from winning is
always on screen (issue 31, N1); a seat's details (lanes, forge, colony) come after every
summary, and the pane says how many rows of them it cuts and what shows them."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

from tests.client.tmux import asked, session, tmux, wait_for

SEATS = ("you", "Ada", "Blaise", "Cyra")
SUMMARY = re.compile(r"^[ >*](\S+)\s+\w+ E\d+/\d+ hand \d+")
TABLE_COLUMNS = 80 - 38 - 1  # the table pane's columns at 80 (the side pane takes 38, a bar 1)


def upper_rows(now: str) -> list[str] | None:
    """The table pane's rows (left of the bar), or None while it gave way to the log."""
    rows = now.splitlines()
    rule = next(i for i, row in enumerate(rows) if row.startswith("--"))
    if rows[rule].startswith("-- table hidden"):
        return None
    return [row[:TABLE_COLUMNS].rstrip() for row in rows[:rule]]


def test_terminal_sovereign_four_seats_at_80x24_show_every_seats_echoes(tmp_path: Path) -> None:
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli play sovereign --bots 3 "
        f"--pace 0.05 --seed 2 --data-dir {shlex.quote(str(tmp_path))}; echo EXITED; sleep 60"
    )
    checked, seen_details, last = 0, 0, ""
    with session(command) as name:
        for _ in range(14):  # our decisions (the mulligan, then turns)
            now = wait_for(
                name,
                lambda s, was=last: asked(s) and s != was and "Sent; waiting" not in s,
                60,
                "a decision of ours",
            )
            last = now
            rows = upper_rows(now)
            if rows is not None and "Sovereign R" not in rows[0]:  # the game is under way
                named = [m.group(1) for row in rows if (m := SUMMARY.match(row))]
                assert named == list(SEATS), now
                last_summary = max(i for i, row in enumerate(rows) if SUMMARY.match(row))
                details = [i for i, row in enumerate(rows) if row.startswith(" you: cit ")]
                assert all(i > last_summary for i in details), now
                seen_details += bool(details)
                cut = [row for row in rows if re.match(r"^\+\d+ more", row)]
                assert all(row.endswith("shows them)") for row in cut), now  # and what does
                checked += 1
            tmux("send-keys", "-t", name, "#1", "Enter")
    assert checked >= 5, f"only {checked} screens showed the table pane"
    assert seen_details, "no screen showed our details after the summaries"
