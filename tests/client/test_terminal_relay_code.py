"""End to end in real terminals (tmux, 80x24): a join code through a relay (issue 31).

A Sovereign host's screen started with ``--via`` (and no LAN announcement) shows a code to
use with ``--via``; a wrong code typed by a friend is refused in one line and reported on
the host's screen; the right one seats the friend's screen at the table, through the relay.
Once the game runs, ``i`` on the host's screen offers the invite for watching; a spectator
through the relay sees the public table in its side pane and shows the invite with ``i``."""

from __future__ import annotations

import contextlib
import re
import shlex
from pathlib import Path

from tests.client.test_terminal_network import FAIRTABLE, command, invite_of, relay
from tests.client.tmux import screen, session, tmux, wait_for

CODE = re.compile(r"fairtable join (\d+(?:-[a-z]+){4}) --via (\S+)")


def test_terminal_a_code_through_a_relay_seats_a_friend_and_a_wrong_one_is_refused(
    tmp_path: Path,
) -> None:
    with relay(tmp_path) as via, contextlib.ExitStack() as stack:
        host = stack.enter_context(
            session(
                command(
                    f"host sovereign --seats 3 --bots 1 --pace 0.05 --no-announce --via {via}",
                    tmp_path / "host",
                )
            )
        )
        lobby = wait_for(host, lambda s: CODE.search(s) is not None, 60, "the relay code")
        found = CODE.search(lobby)
        assert found is not None and found.group(2) == via
        code = found.group(1)
        assert "On this LAN also" not in lobby  # not announced: the code works via the relay
        assert all(len(line) <= 80 for line in lobby.splitlines())
        words = code.split("-")
        wrong = "-".join([*words[:-1], "zoom" if words[-1] != "zoom" else "zone"])
        stranger = stack.enter_context(
            session(command(f"join {wrong} --via {via}", tmp_path / "stranger"))
        )
        refused = wait_for(stranger, lambda s: "EXITED" in s, 60, "the wrong code's refusal")
        assert "fairtable: wrong code (or the relay changed the exchange)" in refused, refused
        assert "EXITED 2" in refused
        wait_for(host, lambda s: "wrong join code (1 of 5)" in s, 30, "the host hearing it")
        friend = stack.enter_context(
            session(command(f"join {shlex.quote(code)} --via {via}", tmp_path / "friend"))
        )
        wait_for(friend, lambda s: "The game starts" in s or "Round 1" in s, 90, "a seat")
        wait_for(host, lambda s: "A friend used the join code" in s or "Round 1" in s, 30, "use")
        assert "fairtable:" not in screen(friend)
        # the host's bot seat is named with its strength, as play's bots are
        wait_for(friend, lambda s: re.search(r"Ada \([a-z]+\)", s) is not None, 30, "Ada (...)")
        invite = invite_of(tmp_path / "host")
        watcher = stack.enter_context(
            session(f"{FAIRTABLE} watch {shlex.quote(invite)} --via {via}; sleep 120")
        )
        wait_for(watcher, lambda s: "Spectating: the public table" in s, 60, "the public pane")
        assert re.search(r"\|.*: hand \d+, deck \d+", screen(watcher)), screen(watcher)
        tmux("send-keys", "-t", watcher, "i")
        shown = wait_for(watcher, lambda s: "To watch: fairtable watch" in s, 10, "the invite")
        assert f"To watch: fairtable watch 'INVITE' --via {via} with this whole invite:" in shown
        assert invite in "".join(screen(watcher).splitlines())  # full-width rows, whole
        tmux("send-keys", "-t", host, "i", "Enter")
        wait_for(host, lambda s: "To watch: fairtable watch 'INVITE'" in s, 10, "the host's i")
