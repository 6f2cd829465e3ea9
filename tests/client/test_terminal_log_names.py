"""End to end in a real terminal (tmux, 80x24): in a busy five-seat Reign game the log shows
everything that happened since our last move (issue 31).

The log calls the bots by their names alone ("Mira", not "Mira (heuristic)": the strength
stays where the seats are listed, in the table pane), so fewer of its lines wrap; the message
shares the status line; a long menu goes compact; and the upper panes give the log their rows
-- down to six, then altogether (the rule under them says so, and carries the log's "+N
earlier" marker) -- so that nothing since our move hides behind "N new since your move:
PgUp".  A hand the decision picks cards of by number (a bid, a covert placement, a
discard) keeps its rows beside the log as long as both fit, then goes compact across the
screen in place of the table, and gives its rows last (client.room.plan); so the bound is
the same everywhere: the log has every row but the four fixed ones and the menu's (at most
four: 16 at 80x24), which a five-army combat can outgrow.
The test holds that whenever a line is hidden, everything that can give way has.

The game is seeded (``play --seed``), so every run meets the same decisions: among them a
bid with an eight-card hand while lines since our move wait for rows (the decision that
once found the hand's rows and the log's in conflict)."""

from __future__ import annotations

import re
import shlex
import sys
import time
from pathlib import Path

from tests.client.tmux import asked, screen, session, tmux

HIDDEN = re.compile(r"(\d+) new since your move")
HAND = re.compile(r"^.you: L\d+/\d+ (\d+)c|^Your hand: (\d+) card", re.MULTILINE)
SEED = 0  # reaches an 8-card bid at our fifth decision
GIVEN_WAY = "-- table hidden ("  # (Esc: back), or (a taller window shows it): a long hand
DECISIONS = 12


def _rule(rows: list[str]) -> int:
    """The row under the upper panes: a rule, which says so when they gave way."""
    return next(i for i, row in enumerate(rows) if row == "-" * 80 or row.startswith(GIVEN_WAY))


def test_terminal_five_seat_reign_log_shows_everything_since_your_move(tmp_path: Path) -> None:
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli play reign --bots 4 "
        f"--pace 0.05 --seed {SEED} --data-dir {shlex.quote(str(tmp_path))}; echo EXITED; sleep 60"
    )
    hidden: list[int] = []
    given_way = 0
    bids: list[int] = []  # the hand's cards at each bid
    with session(command) as name:
        deadline = time.monotonic() + 240  # bounded: a few rounds of five seats
        last = ""
        while len(hidden) < DECISIONS and time.monotonic() < deadline:
            now = screen(name)
            if "Game over" in now:
                break
            if not asked(now) or now == last or "Sent; waiting" in now:
                time.sleep(0.05)  # polling the terminal, not waiting for a fixed event
                continue
            rows = now.rstrip("\n").split("\n")
            assert len(rows) <= 24 and all(len(r) <= 80 for r in rows), now
            rule = _rule(rows)
            decide = next(i for i, r in enumerate(rows) if r.startswith("Decide ("))
            log, menu = rows[rule + 1 : decide], rows[decide:-3]
            gave = rows[rule].startswith(GIVEN_WAY)
            given_way += gave
            assert gave or "(heuristic)" in "\n".join(rows[:rule]), now  # the table: tagged
            assert not any("(heuristic)" in row for row in log + menu), now  # the log: not
            assert "Your move" in rows[-3] or "your move" in rows[-3], now  # beside the status
            if rows[decide].startswith("Decide (bid)") and (cards := HAND.search(now)):
                bids.append(int(cards.group(1) or cards.group(2)))  # the table's, or the hand's
            found = HIDDEN.search("\n".join(rows[rule:decide]))  # the rule may carry it
            hidden.append(int(found.group(1)) if found else 0)
            if found:  # everything that can give way has: a compact menu, and the panes
                # (a hand picked by number too) gone
                assert len(menu) <= 4 and gave, now
            tmux("send-keys", "-t", name, "#1", "Enter")
            last = now
        assert len(hidden) >= 8, screen(name)
    assert any(cards >= 8 for cards in bids), bids  # the seed reached the bid it is for
    print(
        f"lines since our move hidden at each of {len(hidden)} decisions: {hidden};"
        f" the upper panes gave way at {given_way}"
    )
