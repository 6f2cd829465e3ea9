"""End to end in a real terminal (tmux, 80x24): seeded Sovereign games of two and four seats
show card names in the table pane whole, broken only at words -- never "Shieldwal." nor a
"." left alone on a row -- and a name shortened in a hand or forge row ends with one mark
after a whole word; a cut of the side pane says the hand's own count ("Hand +3, ...", not
the rows of every section), issue 31 (N10)."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest

from fairtable.client.text_rows import CUT_MARK
from tests.client.tmux import asked, session, tmux, wait_for

TABLE_COLUMNS = 80 - 38 - 1  # the table pane's columns at 80 (the side pane takes 38, a bar 1)
DOT_CUT = re.compile(r"[A-Za-z]\.(?=[ +;,>]|$)")  # "Shieldwal." / "Gladius.+Legion"


def upper(now: str) -> tuple[list[str], list[str]] | None:
    """The table pane's and the side pane's rows, or None while they gave way to the log."""
    rows = now.splitlines()
    rule = next(i for i, row in enumerate(rows) if row.startswith("--"))
    if rows[rule].startswith("-- table hidden"):
        return None
    top = rows[:rule]
    return [row[:TABLE_COLUMNS].rstrip() for row in top], [row[TABLE_COLUMNS + 1 :] for row in top]


def hand_cut(side: list[str]) -> int | None:
    """How many hand cards the side pane leaves out (None: it shows them all or no hand)."""
    title = re.match(r"Hand (\d+),", side[0]) if side else None
    if title is None:
        return None
    numbered = 0
    for row in side[1:]:
        if not row[:1].isdigit():
            break
        numbered += 1
    return int(title.group(1)) - numbered or None


@pytest.mark.parametrize(("seed", "bots"), [(1, 1), (2, 3)])
def test_terminal_sovereign_names_are_whole_or_marked_and_a_cut_counts_its_section(
    tmp_path: Path, seed: int, bots: int
) -> None:
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli play sovereign --bots {bots} "
        f"--pace 0.05 --seed {seed} --data-dir {shlex.quote(str(tmp_path))}; echo EXITED; "
        "sleep 60"
    )
    checked, hand_cuts, last = 0, 0, ""
    with session(command) as name:
        for _ in range(16):  # our decisions (the mulligan, then turns)
            now = wait_for(
                name,
                lambda s, was=last: asked(s) and s != was and "Sent; waiting" not in s,
                60,
                "a decision of ours",
            )
            last = now
            panes = upper(now)
            if panes is not None:
                table, side = panes
                for row in (*table, *side):
                    assert not DOT_CUT.search(row.strip()), now
                    assert row.strip() not in (".", "+"), now  # no mark alone on a row
                for row in table:
                    assert CUT_MARK not in row, now  # its rows break at words: whole names
                for row in side:
                    if CUT_MARK in row:  # shortened after a whole word, one mark
                        assert row.count(CUT_MARK) == 1 and " " + CUT_MARK not in row, now
                hidden = hand_cut(side)
                if hidden:  # the hand's own count first, then the rest
                    said = next(row for row in reversed(side) if row.strip()).strip()
                    assert re.match(rf"Hand:? \+{hidden}\b", said), now
                    hand_cuts += 1
                checked += 1
            tmux("send-keys", "-t", name, "#1", "Enter")
    assert checked >= 8, f"only {checked} screens showed the panes"
    assert hand_cuts or bots == 1, "no screen cut the hand: the count went untried"
