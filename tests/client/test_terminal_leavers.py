"""In real terminals (tmux, 80x24): a host opens a table with ``--leavers go-on``, and a person
joining it is told, before sitting down, that the game goes on if a player vanishes and what
that costs -- asked first, then shown again in the lobby while the seats fill."""

from __future__ import annotations

import contextlib
import shlex
from pathlib import Path

from fairtable.netplay import Invite
from fairtable.protocol import Leavers
from tests.client.test_terminal_network import command, invite_of
from tests.client.tmux import screen, session, tmux, wait_for

GOES_ON = "If a player vanishes: the game goes on (the others together could open that"


def _fits(now: str) -> None:
    lines = now.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines), now


def test_terminal_a_joiner_is_told_the_game_goes_on_before_it_sits_down(tmp_path: Path) -> None:
    with contextlib.ExitStack() as stack:
        host = stack.enter_context(
            session(
                command(
                    "host reign --seats 4 --bots 1 --leavers go-on --no-announce", tmp_path / "h"
                )
            )
        )
        invite = invite_of(tmp_path / "h")
        assert Invite.parse(invite).leavers is Leavers.GO_ON
        shown = wait_for(host, lambda s: "2 of 4 seats taken" in s, 60, "the host's bot seated")
        assert GOES_ON in screen(host, joined=True), shown  # the host's lobby says it too
        joiner = stack.enter_context(
            session(command(f"join {shlex.quote(invite)}", tmp_path / "j"))
        )
        asked = wait_for(joiner, lambda s: "Sit down at this table?" in s, 60, "the question")
        _fits(asked)
        assert "could open" in asked and "player's cards" in asked, asked
        assert "3 of 4" not in screen(host), screen(host)  # asked before any link to the table
        tmux("send-keys", "-t", joiner, "y", "Enter")
        lobby = wait_for(joiner, lambda s: "3 of 4 seats taken" in s, 60, "the joiner's lobby")
        _fits(lobby)
        assert GOES_ON in screen(joiner, joined=True), lobby  # said while the seats fill
        assert "The game starts" not in lobby  # not seated yet: a seat is still free
        wait_for(host, lambda s: "3 of 4 seats taken" in s, 60, "the host hearing of the join")
