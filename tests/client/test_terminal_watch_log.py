"""A spectator's log at 80x24 in a real terminal (tmux; issue 31, N7): a host's bots play
through a relay and ``fairtable watch`` follows them.  A spectator has nothing to answer and
no menu under the log, so the log takes every row the upper panes leave empty; what happened
this turn takes the panes' filled rows too, down to their least (six rows), as for a seat
waiting its turn, the table saying "+N more (Esc shows them)"."""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.client.test_terminal_network import invite_of, relay
from tests.client.tmux import screen, session

FAIRTABLE = f"{shlex.quote(sys.executable)} -m fairtable.client.cli"
SIDE = 41  # the table pane's columns at 80 (the side pane after its '|')


def _upper(now: str) -> list[str]:
    """The upper panes' rows: the screen's rows above the rule under them."""
    rows = now.split("\n")
    rule = next(i for i, row in enumerate(rows) if row.startswith("--"))
    return rows[:rule]


def _empty(row: str) -> bool:
    return not row[:SIDE].strip() and not row[SIDE + 1 :].strip()


def _checked(now: str) -> bool:
    """Whether ``now`` (a spectator's screen, the game on) hides log lines (PgUp shows them);
    if so, that no upper row is empty and a table cut for this turn's lines keeps six rows."""
    if "earlier" not in now or "PgUp" not in now:
        return False
    upper = _upper(now)
    assert not any(_empty(row) for row in upper), now
    if "Esc shows them" in now:  # cut for what happened this turn: down to the panes' least
        assert len(upper) >= 6, now
    rows = now.rstrip("\n").split("\n")
    assert len(rows) <= 24 and all(len(row) <= 80 for row in rows), now
    return True


@pytest.mark.parametrize(("game", "seats"), [("reign", 4), ("sovereign", 2)])
def test_terminal_a_spectators_log_takes_the_upper_panes_empty_rows(
    tmp_path: Path, game: str, seats: int
) -> None:
    host_dir, watcher_dir = tmp_path / "host", tmp_path / "watcher"
    watcher_dir.mkdir()
    with relay(tmp_path) as via:
        with (tmp_path / "host.out").open("wb") as sink:
            host = subprocess.Popen(
                [
                    *(sys.executable, "-m", "fairtable.client.cli", "host", game),
                    *("--seats", str(seats), "--bots", str(seats - 1), "--bot", "random"),
                    *("--pace", "0.1", "--no-announce", "--via", via, "--json"),
                    *("--data-dir", str(host_dir)),
                ],
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        try:
            invite = invite_of(host_dir)
            command = (
                f"cd {shlex.quote(str(Path.cwd()))} && {FAIRTABLE} watch "
                f"{shlex.quote(invite)} --via {via}; echo EXITED $?; sleep 120"
            )
            with session(f"sh -c {shlex.quote(f'cd {watcher_dir} && ' + command)}") as name:
                checked, last = 0, ""
                deadline = time.monotonic() + 180  # bounded: a dozen screens, or the end
                while checked < 12 and time.monotonic() < deadline:
                    now = screen(name)
                    if now != last and "round" in now.lower() and "Connecting" not in now:
                        checked += _checked(now)
                        if "Press q to leave" in now:
                            break
                    last = now
                    time.sleep(0.05)  # polling the terminal, not waiting for a fixed event
                assert checked >= 3, screen(name)
        finally:
            host.kill()
            host.wait(timeout=30)
