"""End to end in real terminals (tmux, 80x24): people at ``fairtable host`` and ``fairtable
join`` screens on loopback -- directly and through a relay, with the host's bots and a
headless ``join --bot`` peer at the same table -- play by typing as a person would (the first
option, ``#1``), a screen killed with SIGKILL or stopped with Ctrl-C comes back with the same
command, the end of the game is shown at once with what to do next, and a network side that
cannot start closes the screen with one line."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from fairtable.client.cli import main
from fairtable.netplay import Invite
from tests.client.tmux import (
    Typist,
    asked,
    command_pid,
    quit_screen,
    screen,
    session,
    wait_for,
)

FAIRTABLE = f"{shlex.quote(sys.executable)} -m fairtable.client.cli"
GAME_SECONDS = 240  # a whole game on a loaded machine


def command(args: str, data_dir: Path) -> str:
    """A fairtable command for a tmux session: its exit status is shown after it ends.  Every
    player's login name is "ada" (so the screens call a second one "ada 2")."""
    folder = shlex.quote(str(data_dir))
    return f"LOGNAME=ada {FAIRTABLE} {args} --data-dir {folder}; echo EXITED $?; sleep 120"


def errors_said(shown: str) -> list[str]:
    """Each error a command printed on the screen ``shown`` (rows tmux joined), as one line:
    a row starting ``fairtable: `` and the rows folded under it (indented), joined at spaces;
    a long path a terminal wrapped is whole already."""
    said: list[str] = []
    folding = False
    for row in shown.splitlines():
        if row.startswith("fairtable: ") or row.rstrip() == "fairtable:":
            said.append(row.strip())
            folding = True
        elif folding and row.startswith("  ") and row.strip():
            said[-1] += " " + row.strip()
        else:
            folding = False
    return said


def invite_of(host_dir: Path, seconds: float = 60) -> str:
    """The invite the host keeps in its table folder (polled; bounded)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for path in host_dir.glob("tables/*/table.json"):
            with contextlib.suppress(OSError, ValueError):
                return str(json.loads(path.read_text())["invite"])
        time.sleep(0.05)
    raise AssertionError(f"no invite under {host_dir} within {seconds} s")


def ended(now: str) -> bool:
    return "Press q to leave" in now


def the_end_is_shown(now: str) -> None:
    """A screen at the end: the result, what to do next, nothing stale, 80x24."""
    assert "Game over" in now, now
    assert "Press q to leave" in now and "fairtable audit" in now, now
    assert "Sent; waiting" not in now and "Your move" not in now, now
    assert "q to leave" in now.rstrip().splitlines()[-3], now  # the status line says so too
    lines = now.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)


def quit_and_audit(name: str, data_dir: Path) -> None:
    """Quit an ended screen: it prints the result and the audit command, which passes."""
    after = quit_screen(name)
    assert "EXITED 0" in after, after
    printed = screen(name, joined=True)
    assert "Game over" in printed, printed
    found = re.search(r"fairtable (audit \S+ --data-dir \S+)", printed)
    assert found is not None, printed
    check = shlex.split(found.group(1))  # the table by the start of its id, and its folder
    assert len(check[1]) == 12 and Path(check[3]) == data_dir, check
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([*check, "--json"])
    assert code == 0 and json.loads(out.getvalue())["ok"], out.getvalue()


@contextlib.contextmanager
def relay(tmp_path: Path) -> Iterator[str]:
    """A relay on a free loopback port; its ``HOST:PORT``."""
    out = tmp_path / "relay.out"
    with out.open("wb") as sink:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "fairtable.client.cli",
                "relay",
                "--port",
                "0",
                "--listen-host",
                "127.0.0.1",
                "--data-dir",
                str(tmp_path / "relay"),
            ],
            stdout=sink,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    try:
        deadline = time.monotonic() + 60
        while not (found := re.search(r"listening on port (\d+)", out.read_text())):
            assert process.poll() is None and time.monotonic() < deadline, out.read_text()
            time.sleep(0.05)
        yield f"127.0.0.1:{found.group(1)}"
    finally:
        process.kill()
        process.wait(timeout=30)


def test_terminal_network_reign_host_and_join_screens_play_to_the_end_after_a_kill_and_a_ctrl_c(
    tmp_path: Path,
) -> None:
    """3 seats: the host's screen, a bot the host runs, a joiner's screen.  The joiner is
    killed (SIGKILL) at a decision and comes back to it; the host is stopped with Ctrl-C and
    comes back; the game ends on both screens."""
    host_dir, join_dir = tmp_path / "host", tmp_path / "joiner"
    host_command = command(
        "host reign --seats 3 --bots 1 --pace 0.05 --no-announce --name Ann", host_dir
    )
    with contextlib.ExitStack() as stack:
        host = stack.enter_context(session(host_command))
        invite = invite_of(host_dir)
        wait_for(
            host,
            lambda s: "whole invite:" in s and "fairtable://" in s,
            60,
            "the invite on the host's screen",
        )
        join_command = command(f"join {shlex.quote(invite)} --name 'Bob Lee'", join_dir)
        joiner = stack.enter_context(session(join_command))
        people = Typist(host, joiner)
        # Reign needs three rounds at least, and every seat bids in each: the joiner's first
        # two decisions come before the end can
        screens = people.until(lambda s: people.typed[joiner] >= 1, GAME_SECONDS, "a move typed")
        # each player's signed name on the other's screen, in place of "seat N"
        assert " Ann: " in screens[joiner] and " Bob Lee: " in screens[host], screens
        # the joiner, at a decision it has not answered, is killed
        people.held.add(joiner)
        screens = people.until(
            lambda s: people.asked_anew(joiner, s[joiner]) or any(ended(x) for x in s.values()),
            GAME_SECONDS,
            "a new decision on the joiner's screen",
        )
        assert not ended(screens[joiner]), screens[joiner]
        pending = [
            line for line in screens[joiner].splitlines() if line.startswith(("Decide (", "#"))
        ]
        assert pending, screens[joiner]
        os.kill(command_pid(joiner), signal.SIGKILL)
        wait_for(joiner, lambda s: "EXITED" in s, 60, "the killed joiner's end")
        again = stack.enter_context(session(join_command))
        people.replace(joiner, again)  # the host's screen goes on being answered meanwhile
        people.held.add(again)
        back = people.until(lambda s: asked(s[again]), 120, "the restarted joiner's decision")
        back_lines = back[again].splitlines()
        assert all(line in back_lines for line in pending), (pending, back[again])
        people.held.discard(again)
        joiner = again
        people.until(lambda s: people.typed[joiner] >= 2, GAME_SECONDS, "the decision answered")
        # the host stops with Ctrl-C, and the same command goes on with the game
        subprocess.run(["tmux", "send-keys", "-t", host, "C-c"], check=True)
        stopped = wait_for(host, lambda s: "EXITED" in s, 60, "the host's end after Ctrl-C")
        assert "EXITED 0" in stopped and "Game kept" in stopped, stopped
        assert "Traceback" not in stopped
        host_again = stack.enter_context(session(host_command))
        wait_for(host_again, lambda s: "Round" in s, 120, "the restarted host's game")
        people.replace(host, host_again)
        host = host_again
        screens = people.until(
            lambda s: all(ended(x) for x in s.values()), GAME_SECONDS, "the end of the game"
        )
        for now in screens.values():
            the_end_is_shown(now)
        assert not people.refused, people.refused
        quit_and_audit(host, host_dir)
        quit_and_audit(joiner, join_dir)


def test_terminal_network_reign_through_a_relay_with_a_bot_and_a_headless_peer(
    tmp_path: Path,
) -> None:
    """4 seats through a relay: the host's screen, a bot the host runs, a joiner's screen and
    a headless ``join --bot random`` peer; the game ends on both screens."""
    host_dir, join_dir = tmp_path / "host", tmp_path / "joiner"
    with relay(tmp_path) as via, contextlib.ExitStack() as stack:
        host = stack.enter_context(
            session(
                command(
                    f"host reign --seats 4 --bots 1 --pace 0.05 --no-announce --via {via}", host_dir
                )
            )
        )
        invite = invite_of(host_dir)
        # issue 31: the host's bot, seated before the relay held the code, was not counted
        # ("Waiting for players to join" until the game started)
        wait_for(host, lambda s: "2 of 4 seats taken" in s, 30, "the host's bot counted")
        joiner = stack.enter_context(
            session(command(f"join {shlex.quote(invite)} --via {via}", join_dir))
        )
        out = tmp_path / "headless.out"
        with out.open("wb") as sink:
            headless = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "fairtable.client.cli",
                    "join",
                    invite,
                    "--via",
                    via,
                    "--bot",
                    "random",
                    "--json",
                    "--data-dir",
                    str(tmp_path / "headless"),
                ],
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        stack.callback(headless.kill)
        people = Typist(host, joiner)
        screens = people.until(
            lambda s: all(ended(x) for x in s.values()), GAME_SECONDS, "the end of the game"
        )
        for now in screens.values():
            the_end_is_shown(now)
        assert not people.refused, people.refused
        assert people.typed[host] > 3 and people.typed[joiner] > 3
        assert headless.wait(timeout=60) == 0, out.read_text()
        assert '"event":"game_over"' in out.read_text()
        quit_and_audit(host, host_dir)
        quit_and_audit(joiner, join_dir)


@pytest.mark.parametrize("game", ["sodalis", "sovereign"])
def test_terminal_network_menu_games_host_and_join_screens_decide_and_move_on(
    tmp_path: Path,
    game: str,
) -> None:
    """2 seats, a screen each: both reach their first decisions, and a few typed moves apply
    on each (every one accepted, each screen asked again after it)."""
    host_dir, join_dir = tmp_path / "host", tmp_path / "joiner"
    with contextlib.ExitStack() as stack:
        host = stack.enter_context(
            session(command(f"host {game} --seats 2 --no-announce", host_dir))
        )
        invite = invite_of(host_dir)
        joiner = stack.enter_context(session(command(f"join {shlex.quote(invite)}", join_dir)))
        people = Typist(host, joiner)
        people.until(
            lambda s: min(people.typed.values()) >= 3,
            GAME_SECONDS,
            "three moves typed on each screen",
        )
        people.held.update((host, joiner))
        # the game moved on: whoever is asked next is asked something new
        screens = people.until(
            lambda s: any(people.asked_anew(n, s[n]) for n in s),
            GAME_SECONDS,
            "a decision after the typed moves",
        )
        assert not people.refused, people.refused
        for now in screens.values():
            assert "Round" in now and "Traceback" not in now, now
        for name in (host, joiner):
            after = quit_screen(name)
            assert "EXITED 0" in after and "Game kept" in after, after


def test_terminal_network_a_damaged_saved_game_closes_the_join_screen_with_one_line(
    tmp_path: Path,
) -> None:
    invite = Invite("127.0.0.1", 9, bytes(range(32)), bytes(32), bytes(32), "reign", 3)
    damaged = tmp_path / "tables" / invite.lobby_id.hex() / "table.json"
    damaged.parent.mkdir(parents=True)
    damaged.write_text("{ not json")
    with session(command(f"join {shlex.quote(invite.text())}", tmp_path)) as name:
        now = wait_for(name, lambda s: "EXITED" in s, 60, "the screen closing")
        assert "EXITED 2" in now and "Traceback" not in now, now
        said = errors_said(screen(name, joined=True))
        assert len(said) == 1 and str(damaged) in said[0] and "cannot be read" in said[0], now
    assert damaged.read_text() == "{ not json"  # nothing changed


def test_terminal_network_an_unusable_data_dir_closes_the_host_screen_with_one_line(
    tmp_path: Path,
) -> None:
    occupied = tmp_path / "a-file"
    occupied.write_text("not a folder")
    with session(command("host reign --seats 3 --no-announce", occupied)) as name:
        now = wait_for(name, lambda s: "EXITED" in s, 60, "the screen closing")
        assert "EXITED 2" in now and "Traceback" not in now, now
        said = errors_said(screen(name, joined=True))
        assert len(said) == 1 and str(occupied) in said[0], now


def test_terminal_network_an_invite_the_table_refuses_closes_the_join_screen_with_one_line(
    tmp_path: Path,
) -> None:
    with session(command("host reign --seats 3 --no-announce", tmp_path / "host")) as host:
        real = Invite.parse(invite_of(tmp_path / "host"))
        wrong = attrs.evolve(real, secret=bytes(32))  # not the table's secret
        with session(command(f"join {shlex.quote(wrong.text())}", tmp_path / "joiner")) as name:
            now = wait_for(name, lambda s: "EXITED" in s, 60, "the screen closing")
            assert "EXITED 2" in now and "Traceback" not in now, now
            said = errors_said(screen(name, joined=True))
            assert len(said) == 1 and "refused" in said[0] and "invite" in said[0], now
        assert "2 of 3 seats taken" not in screen(host)  # nobody was seated


def test_terminal_network_a_seat_that_never_comes_back_ends_the_game_on_the_hosts_screen(
    tmp_path: Path,
) -> None:
    """The joiner is killed at a decision and not restarted: past ``--abandon-after`` the
    host's screen shows the abandonment with its reason, and what to do next."""
    host_dir = tmp_path / "host"
    with contextlib.ExitStack() as stack:
        host = stack.enter_context(
            session(
                command(
                    "host reign --seats 3 --bots 1 --pace 0.05 --no-announce --seat-timeout 1 "
                    "--abandon-after 4",
                    host_dir,
                )
            )
        )
        invite = invite_of(host_dir)
        joiner = stack.enter_context(
            session(command(f"join {shlex.quote(invite)}", tmp_path / "joiner"))
        )
        people = Typist(host, joiner)
        people.held.add(joiner)
        people.until(lambda s: asked(s[joiner]), GAME_SECONDS, "the joiner's first decision")
        os.kill(command_pid(joiner), signal.SIGKILL)
        screens = people.until(lambda s: ended(s[host]), GAME_SECONDS, "the end on the host")
        now = screens[host]
        gone = "The game is abandoned: ada 2 never came back"  # the joiner, named as the host
        assert gone in screen(host, joined=True), now
        assert "Press q to leave" in now and "Your move" not in now, now
        assert "q to leave" in now.rstrip().splitlines()[-3], now
        after = quit_screen(host)
        assert "EXITED 0" in after and "The game is abandoned" in after, after
