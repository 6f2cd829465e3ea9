"""End to end in a real terminal at 80x24 (issue 31): ``fairtable play reign --bots 2``: the
player resigns at three seats and leaves -- the bots play on -- and the screen does not go
blind: it says it follows the rest as a spectator, goes on showing the public view (no hand
any more) and ends with the game's result."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from tests.client.tmux import asked, quit_screen, session, tmux, wait_for


@pytest.mark.parametrize("seed", ["", "--seed 4"], ids=["network", "seeded"])
def test_terminal_a_player_who_leaves_a_table_of_bots_follows_it_to_the_end(
    tmp_path: Path, seed: str
) -> None:
    """Over loopback (the bots are peers of this process) and seeded (in memory)."""
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli play reign --bots 2 {seed} "
        f"--pace 0.2 --data-dir {shlex.quote(str(tmp_path))}; echo EXITED; sleep 60"
    )
    with session(command) as name:
        wait_for(name, asked, 60, "a decision")
        tmux("send-keys", "-t", name, "resign", "Enter")
        wait_for(name, lambda s: "Type 'yes' to confirm" in s, 10, "the question")
        tmux("send-keys", "-t", name, "yes", "Enter")
        following = wait_for(  # the first public view: no hand of ours any more
            name,
            lambda s: "following the rest" in s and "hidden from spectators" in s,
            60,
            "following",
        )
        assert "You left: following the public view" in following  # the hints say so
        rounds = wait_for(name, lambda s: "Game over" in s, 240, "the end")  # to the end
        assert "wins" in rounds or "nobody rules" in rounds, rounds
        for shown in (following, rounds):
            lines = shown.splitlines()
            assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        assert "EXITED" in quit_screen(name)
