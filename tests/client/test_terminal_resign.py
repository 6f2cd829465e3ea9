"""End to end in real terminals at 80x24: a host screen (plus one bot) and a joining bot's
lines; the host's player types ``resign``, confirms, and leaves while the others play on --
and its screen follows the rest, as a spectator's, to the end (issue 31)."""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path

from tests.client.tmux import asked, quit_screen, screen, session, tmux, wait_for

LEFT = "left the table"


def _wait_for(name: str, text: str, seconds: float) -> str:
    """The screen once it shows ``text`` (polled, bounded); fails with the screen if not."""
    deadline = time.monotonic() + seconds
    now = screen(name)
    while text not in now and time.monotonic() < deadline:
        time.sleep(0.05)  # polling the terminal
        now = screen(name)
    assert text in now, now
    return now


def _invite(data_dir: Path, seconds: float) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for path in (data_dir / "tables").glob("*/table.json"):
            try:
                return str(json.loads(path.read_text())["invite"])
            except (ValueError, KeyError, OSError):
                pass  # being written
        time.sleep(0.05)
    raise AssertionError("the host never opened its table")


def test_terminal_resign_typed_and_confirmed_leaves_and_the_other_seats_play_on(
    tmp_path: Path,
) -> None:
    """Reign at three seats goes on without a seat (docs/protocol.md §11.10): the host's
    player resigns, its screen says it left, and the joining bot's lines say it goes on."""
    python = shlex.quote(sys.executable)
    host_dir, join_dir = tmp_path / "host", tmp_path / "join"
    common = "--no-announce --listen-host 127.0.0.1"
    host_cmd = (
        f"LOGNAME=ada {python} -m fairtable.client.cli host reign --seats 3 --bots 1 --pace 0.3 "
        f"{common} "
        f"--data-dir {shlex.quote(str(host_dir))}; echo EXITED; sleep 60"
    )
    with session(host_cmd) as host:
        invite = _invite(host_dir, 30)
        join_cmd = (
            f"{python} -m fairtable.client.cli join {shlex.quote(invite)} --listen-host 127.0.0.1 "
            f"--bot random --pace 0.3 --data-dir {shlex.quote(str(join_dir))}; "
            "echo EXITED; sleep 60"
        )
        with session(join_cmd) as guest:
            _wait_for(guest, "The game starts", 60)
            _wait_for(host, "Round 1", 60)
            tmux("send-keys", "-t", host, "resign", "Enter")
            question = _wait_for(host, "Type 'yes' to confirm", 10)
            assert LEFT not in question
            assert "Resign? The others play on without you." in question, question  # said first
            tmux("send-keys", "-t", host, "yes", "Enter")
            mine = _wait_for(host, "following the rest as a spectator", 60)  # the status
            theirs = _wait_for(guest, f"ada {LEFT}", 30)  # the login name (no --name given)
            assert "the game goes on without it" in theirs
            said = " ".join(mine.split())  # N4: the round, never the step count
            assert "you left in round " in said and "step" not in said, mine
            assert "the screen follows the rest of the game" in said, mine  # it goes on
            assert f"fairtablewatch'{invite}'" in said.replace(" ", ""), mine  # others too
            for shown in (mine, theirs):
                lines = shown.splitlines()
                assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
            over = _wait_for(host, "Game over", 240)  # followed to the end
            assert "You left: following" not in over  # the hints no longer say it follows
        assert "Game over" in quit_screen(host)
    (info,) = [json.loads(p.read_text()) for p in (host_dir / "tables").glob("*/table.json")]
    assert info["status"] == "left"


def test_terminal_resign_in_a_two_seat_game_says_it_ends_and_who_wins(tmp_path: Path) -> None:
    """The new-user run's S10: a two-seat game asked "Resign (the others play on if the game
    allows)?" and ended; the question now says what resigning does there, and 'no' keeps
    the game going."""
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli play sovereign --bots 1 "
        f"--seed 1 --pace 0.05 --data-dir {shlex.quote(str(tmp_path))}; echo EXITED; sleep 60"
    )
    with session(command) as name:
        wait_for(name, asked, 60, "a decision")
        tmux("send-keys", "-t", name, "resign", "Enter")
        question = _wait_for(name, "Type 'yes' to confirm", 10)
        said = " ".join(question.split())
        assert "Resign? The game ends and Ada (heuristic) wins." in said, question
        tmux("send-keys", "-t", name, "no", "Enter")
        _wait_for(name, "Not resigned: the game goes on.", 10)
        lines = question.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        assert "EXITED" in quit_screen(name)
