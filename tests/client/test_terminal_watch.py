"""``fairtable watch INVITE --via RELAY`` in a real terminal (tmux, 80x24): a host's bots play
a 4-seat Reign game through a relay; the spectator's screen is the players' screen with the
public view only (no hand, no prompt, no menu), follows the game to its end as the players
see it (the host's winner), and ``q`` closes it; the spectator writes nothing."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

from tests.client.test_terminal_network import GAME_SECONDS, invite_of, relay
from tests.client.tmux import quit_screen, screen, session, wait_for

FAIRTABLE = f"{shlex.quote(sys.executable)} -m fairtable.client.cli"


def _game_over(out: Path, seconds: float) -> dict[str, object]:
    """The host's ``game_over`` line (polled; bounded)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for line in out.read_text().splitlines():
            if '"game_over"' in line:
                return dict(json.loads(line))
        time.sleep(0.1)  # polling the host's output file
    raise AssertionError(f"no game_over from the host within {seconds} s:\n{out.read_text()}")


def _seated_names(out: Path) -> list[str]:
    """The players' names, from the host's ``seated`` line."""
    for line in out.read_text().splitlines():
        if '"event":"seated"' in line:
            return list(json.loads(line)["names"])
    raise AssertionError(f"no seated line from the host:\n{out.read_text()}")


def test_terminal_watch_via_relay_shows_the_public_screen_and_the_end(tmp_path: Path) -> None:
    host_dir, watcher_dir = tmp_path / "host", tmp_path / "watcher"
    watcher_dir.mkdir()
    out = tmp_path / "host.out"
    with relay(tmp_path) as via:
        with out.open("wb") as sink:
            host = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "fairtable.client.cli",
                    "host",
                    "reign",
                    "--seats",
                    "4",
                    "--bots",
                    "3",
                    "--bot",
                    "random",
                    "--pace",
                    "0.1",
                    "--no-announce",
                    "--via",
                    via,
                    "--json",
                    "--data-dir",
                    str(host_dir),
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
                first = wait_for(name, lambda s: "Reign - round" in s, 120, "the table pane")
                assert "Spectating: the public view only" in first, first
                assert "(a spectator: nothing to answer)" in first, first
                assert "hidden from spectators" in first and "Your hand" not in first, first
                assert "Decide (" not in first and "your move" not in first.lower(), first
                lines = first.splitlines()
                assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
                end = _game_over(out, GAME_SECONDS)
                last = wait_for(name, lambda s: "Press q to leave" in s, 120, "the end")
                winner = end["winner"]
                names = _seated_names(out)  # headless bot seats are named ("Ada (random)")
                shown = f"seat {winner}" if winner is None or not names[winner] else names[winner]
                said = "nobody rules" if winner is None else f"{shown} wins"
                assert "Game over" in last and said in last, last
                assert "keeps nothing" in last and "q to leave" in last, last
                after = quit_screen(name)
                assert "EXITED 0" in after, after
                assert "Game over" in screen(name, joined=True)
        finally:
            host.kill()
            host.wait(timeout=30)
    assert list(watcher_dir.iterdir()) == []  # the spectator wrote nothing
