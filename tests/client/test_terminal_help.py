"""End to end in a real terminal at 80x24: F1's help can be read whole in every game (the
new-user run's S3: Sodalis' help was cut before the legend of its champion lines, "a taller
window shows them").  A help longer than its pane shows a page at a time, its last row
saying what is above and below; PgDn reads on to its end.  In a game against our own bots
the help names no invite key, and the screen says "your move" once (S12).

Each game is played seeded (``play --seed``) by typing the first option; at its first
decisions F1 is pressed and the help paged through to its end."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest

from tests.client.tmux import asked, quit_screen, session, tmux, wait_for

MARK = re.compile(r"^\((\+\d+ above: PgUp)?(, )?(\+\d+ more: PgDn)?(; the end of the help)?\)$")
"""The help's last row where it takes more than one page."""

DECISIONS = 3  # the first decisions of the game whose help is read


def _help_rows(now: str) -> list[str]:
    """The decision pane's rows while the help shows: from under the log to the status."""
    lines = now.splitlines()
    status = next(i for i, line in enumerate(lines) if "Help above" in line)
    return lines[:status]


def _read_help(name: str) -> tuple[str, int]:
    """Press F1 and page through the help to its end; all the rows seen, and the pages."""
    tmux("send-keys", "-t", name, "F1")
    now = wait_for(name, lambda s: "Help above" in s, 20, "the help")
    seen: list[str] = []
    pages = 1
    for _ in range(10):  # bounded: no help is ten pages long
        lines = now.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines), now
        assert "more: a taller window" not in now, now  # the help is cut nowhere beyond reach
        rows = _help_rows(now)
        seen += rows
        last = next((row for row in reversed(rows) if MARK.match(row.strip())), "")
        if "more: PgDn" not in last:
            break
        tmux("send-keys", "-t", name, "NPage")
        before = now
        now = wait_for(name, lambda s, b=before: s != b and "Help above" in s, 20, "PgDn")
        pages += 1
    else:
        raise AssertionError("the help never ended")
    tmux("send-keys", "-t", name, "Escape")
    wait_for(name, lambda s: "Help above" not in s, 20, "the help hidden")
    return "\n".join(seen), pages


@pytest.mark.parametrize(
    ("game", "bots", "last_words"),
    [
        ("reign", 2, "gives the game up (it asks"),
        ("sodalis", 1, "! at half life or less."),
        ("sovereign", 1, "gives the game up (it asks"),
    ],
)
def test_terminal_f1_help_reads_whole_at_80x24(
    tmp_path: Path, game: str, bots: int, last_words: str
) -> None:
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli play {game} --bots {bots} "
        f"--seed 1 --pace 0.05 --data-dir {shlex.quote(str(tmp_path))}; echo EXITED; sleep 60"
    )
    paged = 0
    with session(command) as name:
        last = ""
        for _ in range(DECISIONS):
            now = wait_for(name, lambda s, b=last: asked(s) and s != b, 120, "a decision")
            assert now.lower().count("your move") == 1, now  # the status line says it, once
            text, pages = _read_help(name)
            joined = " ".join(text.split())
            assert last_words in joined, text
            assert "join code" not in joined and "'i'" not in joined, text  # bots only
            paged = max(paged, pages)
            tmux("send-keys", "-t", name, "#1", "Enter")
            last = wait_for(name, lambda s: "Help above" not in s, 20, "the help hidden")
        assert "EXITED" in quit_screen(name)
    if game == "sodalis":
        assert paged > 1  # its help is longer than the pane at 80x24: it was paged
