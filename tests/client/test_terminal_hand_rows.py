"""End to end in a real terminal (tmux, 80x24): at a Reign decision that picks cards of the
hand by number (a bid, a covert placement, a discard, spoils), every card of the hand is on
screen -- none behind "+N more" -- so that the suggested option and a bare number never
name a card the player cannot see (issue 31).  The game is seeded (``play --seed``): every run
meets the same decisions, among them a discard of an 11-card hand (S1b)."""

from __future__ import annotations

import re
import shlex
import sys
import time
from pathlib import Path

from tests.client.tmux import asked, screen, session, tmux

SEED = 0  # reaches a discard of 11 cards at our ninth decision
PICKING = re.compile(r"^Decide \((bid|covert|discard|spoils)\)", re.MULTILINE)


def _hand_count(now: str) -> int:
    """The cards in our hand, as the table pane's own row says ("you: L0/9 11c")."""
    found = re.search(r"^.you: L\d+/\d+ (\d+)c", now, re.MULTILINE)
    assert found, now
    return int(found.group(1))


def _side(now: str) -> str:
    """The side pane's text: the rows right of the upper panes' border, above the rule."""
    rows = now.rstrip("\n").split("\n")
    rule = next(i for i, row in enumerate(rows) if row.startswith("----"))
    return "\n".join(row.split("|", 1)[1] for row in rows[:rule] if "|" in row)


def test_terminal_reign_hand_picked_by_number_is_whole_at_80x24(tmp_path: Path) -> None:
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli play reign --bots 2 "
        f"--pace 0.05 --seed {SEED} --data-dir {shlex.quote(str(tmp_path))}; echo EXITED; sleep 60"
    )
    sizes: list[tuple[str, int]] = []
    with session(command) as name:
        deadline = time.monotonic() + 180  # bounded: the rounds up to the first discard
        last = ""
        while not any(kind == "discard" for kind, _ in sizes):
            assert time.monotonic() < deadline, f"no discard reached ({sizes}):\n{screen(name)}"
            now = screen(name)
            if not asked(now) or now == last or "Sent; waiting" in now:
                time.sleep(0.05)  # polling the terminal, not waiting for a fixed event
                continue
            decision = PICKING.search(now)
            if decision:
                count, side = _hand_count(now), _side(now)
                assert "more (a taller" not in side, now
                for i in range(1, count + 1):
                    assert re.search(rf"^.{i}\. ", side, re.MULTILINE), (i, now)
                rows = now.rstrip("\n").split("\n")
                assert len(rows) <= 24 and all(len(row) <= 80 for row in rows), now
                sizes.append((decision.group(1), count))
            tmux("send-keys", "-t", name, "Enter")  # the suggested option
            last = now
    assert ("discard", 11) in sizes, sizes  # the seed reached the decision it is for
