"""End to end in a real terminal (tmux, 80x24): at a Reign decision that picks cards of the
hand by number (a bid, a covert placement, a discard, spoils), every card of the hand is on
screen by its number and its whole name -- none behind "+N more" -- so that the suggested
option and a bare number never name a card the player cannot see; and so is every log line
since the player's last answer -- none behind "N new since your move: PgUp" (issue 31, S1b).

Three seeded games (``play --seed``), each checked at every such decision up to the one it is
for: a bid with eight cards at three seats, a discard of eleven at five, and a bid with eight
at seven seats, where the log's lines since our move and the hand's rows cannot both fit one
card a row (the hand goes compact: two columns across the screen)."""

from __future__ import annotations

import re
import shlex
import sys
import time
from pathlib import Path

import pytest

from fairtable.client.reign.words import card_label
from fairtable.engine.reign import standard_catalog
from tests.client.tmux import asked, screen, session, tmux

PICKING = re.compile(r"^Decide \((bid|covert|discard|spoils)\)", re.MULTILINE)
LABELS = {card_label(card) for card in standard_catalog().defs}
ENTRY = re.compile(r"(?:^|\s)[ >]?(\d+)\. (.+?\])")  # "N. name [tag]"; " -> seat S" may follow
CASES = [  # (bots, seed, the decision the seed reaches, its hand's cards)
    (2, 4, "bid", 8),  # our third pick-by-number decision
    (4, 1, "discard", 11),  # our fifth
    (6, 0, "bid", 8),  # our third
]


def _hand_count(now: str) -> int:
    """The cards in our hand: the compact hand's title says it ("Your hand: 8 cards"), else
    the table pane's row of ours ("you: L0/9 11c")."""
    found = re.search(r"Your hand: (\d+) cards?", now) or re.search(
        r"^.you: L\d+/\d+ (\d+)c", now, re.MULTILINE
    )
    assert found, now
    return int(found.group(1))


def _columns(now: str) -> list[list[str]]:
    """The hand's columns of rows, above the rule: the side pane's part of each row where
    the table pane is beside it, else the two columns of the compact hand drawn across the
    screen (the second starts where its cards' numbers do)."""
    rows = now.rstrip("\n").split("\n")
    rows = rows[: next(i for i, row in enumerate(rows) if row.startswith("--"))]
    if not rows[0].startswith("Your hand:"):
        return [[row[42:] for row in rows if row[41:42] == "|"]]
    found = [m.start() for row in rows[1:] for m in re.finditer(r"(?<=  )[ >]\d+\. ", row)]
    second = min(found, default=80)
    return [[row[:second] for row in rows[1:]], [row[second:] for row in rows[1:]]]


def _entries(columns: list[list[str]]) -> dict[int, str]:
    """The hand's cards shown, by number: a card broken over rows of its column is joined
    again (its further rows start with two spaces or more)."""
    joined: list[str] = []
    for column in columns:
        for i, row in enumerate(column):
            if row.startswith("  ") and row.strip() and i:
                joined[-1] = joined[-1].rstrip() + " " + row.strip()
            else:
                joined.append(row)
    return {int(n): label for row in joined for n, label in ENTRY.findall(row)}


@pytest.mark.parametrize(("bots", "seed", "kind", "cards"), CASES)
def test_terminal_reign_hand_and_log_since_your_move_both_on_screen_at_80x24(
    tmp_path: Path, bots: int, seed: int, kind: str, cards: int
) -> None:
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli play reign --bots {bots} "
        f"--pace 0.05 --seed {seed} --data-dir {shlex.quote(str(tmp_path))}; "
        "echo EXITED; sleep 60"
    )
    sizes: list[tuple[str, int]] = []
    with session(command) as name:
        deadline = time.monotonic() + 240  # bounded: the rounds up to the decision
        last = ""
        while (kind, cards) not in sizes:
            assert time.monotonic() < deadline, f"{kind} not reached ({sizes}):\n{screen(name)}"
            now = screen(name)
            assert "Game over" not in now, sizes
            if not asked(now) or now == last or "Sent; waiting" in now:
                time.sleep(0.05)  # polling the terminal, not waiting for a fixed event
                continue
            decision = PICKING.search(now)
            if decision:
                rows = now.rstrip("\n").split("\n")
                assert len(rows) <= 24 and all(len(row) <= 80 for row in rows), now
                count, shown = _hand_count(now), _entries(_columns(now))
                for i in range(1, count + 1):  # by its number and its whole name
                    assert shown.get(i) in LABELS, f"card {i}: {shown.get(i)!r}\n{now}"
                assert "new since your move" not in now, now  # the log: since our answer
                sizes.append((decision.group(1), count))
            tmux("send-keys", "-t", name, "Enter")  # the suggested option
            last = now
