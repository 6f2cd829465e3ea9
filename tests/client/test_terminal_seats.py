"""End to end in real terminals (tmux, 80x24): one account -- one data directory, no
flags -- takes two seats at the table it hosts, from a second window, and the second
window's seat goes on after it quits and joins again; the host's lobby shows the invite whole
(and copies it), and 'i' shows it again during the game."""

from __future__ import annotations

import contextlib
import shlex
import subprocess
import time
import uuid
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


def _osc_tmux(socket: str, *args: str) -> str:
    """tmux on a server of this test's own (its clipboard option is not the user's)."""
    return subprocess.run(
        ["tmux", "-L", socket, "-f", "/dev/null", *args], capture_output=True, text=True, check=True
    ).stdout


def _rows_spelling(screen: str, whole: str) -> list[str]:
    """The consecutive rows of ``screen`` that together spell ``whole``, or []."""
    rows = screen.splitlines()
    for start, row in enumerate(rows):
        if row and whole.startswith(row):
            joined, end = row, start + 1
            while len(joined) < len(whole) and end < len(rows):
                joined, end = joined + rows[end], end + 1
            if joined == whole:
                return rows[start:end]
    return []


def test_terminal_the_invite_is_shown_whole_copied_and_shown_again_during_the_game(
    tmp_path: Path,
) -> None:
    """The host's lobby at 80x24 shows the whole invite on full-width rows (no pane border
    in them) and puts it on the terminal's clipboard (OSC 52: tmux keeps it as a paste
    buffer); once the game runs, 'i' shows it again."""
    socket = f"ft-osc-{uuid.uuid4().hex[:8]}"
    host_dir = tmp_path / "host"
    try:
        _osc_tmux(
            socket,
            "new-session",
            "-d",
            "-s",
            "host",
            "-x",
            "80",
            "-y",
            "24",
            "-c",
            str(Path.cwd()),
            command("host sodalis --seats 2 --no-announce", host_dir),
        )
        _osc_tmux(socket, "set", "-s", "set-clipboard", "on")
        invite = invite_of(host_dir)
        deadline = time.monotonic() + 60
        while not _rows_spelling(
            shown := _osc_tmux(socket, "capture-pane", "-t", "host", "-p"), invite
        ):
            assert time.monotonic() < deadline, shown
            time.sleep(0.05)  # polling the terminal, not waiting for a fixed event
        rows = _rows_spelling(shown, invite)
        assert all("|" not in row for row in rows) and len(shown.splitlines()) <= 24, shown
        assert "a taller window" not in shown, shown
        while invite not in _osc_tmux(socket, "show-buffer"):
            assert time.monotonic() < deadline, "the invite never reached the clipboard"
            time.sleep(0.05)
        with session(command(f"join {shlex.quote(invite)}", tmp_path / "joiner")) as joiner:
            wait_for(joiner, lambda s: "Round" in s, 120, "the joiner's game")
            while "The game starts" not in _osc_tmux(socket, "capture-pane", "-t", "host", "-p"):
                assert time.monotonic() < deadline + 60, "the host's game never started"
                time.sleep(0.05)
            _osc_tmux(socket, "send-keys", "-t", "host", "i", "Enter")
            while not _rows_spelling(
                again := _osc_tmux(socket, "capture-pane", "-t", "host", "-p"), invite
            ):
                assert time.monotonic() < deadline + 90, again
                time.sleep(0.05)
            assert "Above; also copied to your clipboard" in again, again
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, check=False)


def test_terminal_two_headless_hosts_of_one_account_open_a_table_each(tmp_path: Path) -> None:
    """Issue 31: a second headless ``host --bot`` of the account whose first one still waits
    in its lobby went on with that unfinished table and could not listen ("address already in
    use"); the first holds its table as the screen does, so the second opens its own."""
    data_dir = tmp_path / "me"
    host = command("host reign --seats 3 --bot heuristic --no-announce", data_dir)
    with session(host) as first:
        wait_for(first, lambda s: "Table open" in s, 60, "the first table open")
        with session(host) as second:
            now = wait_for(
                second, lambda s: "Table open" in s or "EXITED" in s, 60, "the second host"
            )
            assert "Table open" in now and "address already in use" not in now, now
            assert "Resuming" not in now
        assert len(list(data_dir.glob("tables/*/table.json"))) == 2


def test_a_host_goes_on_with_no_table_another_window_plays(tmp_path: Path) -> None:
    """The unfinished table a host would go on with is skipped while another window holds
    it, and picked again once that window let it go."""
    import os

    from fairtable.netplay import Invite, TableFolder, TableInfo, TableKind, hold_game
    from fairtable.netplay.storage import resumable_table

    invite = Invite("127.0.0.1", 4000, os.urandom(32), bytes(32), os.urandom(32), "reign", 3)
    TableInfo(invite=invite.text(), role="host", kind=TableKind.HOST, status="lobby").save(
        TableFolder(tmp_path, "tables", invite.lobby_id)
    )

    def found() -> Invite | None:
        return resumable_table(
            tmp_path, invite.host_key, kind=TableKind.HOST, game="reign", seats=3
        )

    assert found() == invite
    with hold_game(tmp_path, invite.lobby_id):  # the other window
        assert found() is None
    assert found() == invite
