"""End to end in real terminals (tmux, 80x24): one account -- one data directory, no
flags -- takes two seats at the table it hosts, from a second window, and the second
window's seat goes on after it quits and joins again."""

from __future__ import annotations

import contextlib
import shlex
from pathlib import Path

from tests.client.test_terminal_network import GAME_SECONDS, command, invite_of
from tests.client.tmux import Typist, quit_screen, session, wait_for


def test_terminal_a_second_window_of_the_hosts_account_takes_a_seat_and_comes_back(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "me"
    with contextlib.ExitStack() as stack:
        host = stack.enter_context(
            session(command("host sodalis --seats 2 --no-announce", data_dir))
        )
        invite = invite_of(data_dir)
        join_command = command(f"join {shlex.quote(invite)}", data_dir)
        joiner = stack.enter_context(session(join_command))
        people = Typist(host, joiner)
        people.until(
            lambda s: min(people.typed.values()) >= 1, GAME_SECONDS, "a move typed on each screen"
        )
        assert not people.refused, people.refused
        after = quit_screen(joiner)
        assert "EXITED 0" in after and "Game kept" in after, after
        again = stack.enter_context(session(join_command))
        shown = wait_for(
            again, lambda s: "Resuming your Sodalis game" in s, 120, "the second seat resumed"
        )
        assert "cannot listen" not in shown
        people.replace(joiner, again)
        people.until(
            lambda s: people.typed[again] >= 2, GAME_SECONDS, "a move typed after the rejoin"
        )
        assert not people.refused, people.refused
