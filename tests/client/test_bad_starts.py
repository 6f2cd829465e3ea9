"""Every bad start of a command, run as a real process with no terminal: it stops with a
nonzero exit code and exactly one line on stderr starting ``fairtable: ``, never a
traceback; and a bug inside a command is written to a crash log the one line names."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import attrs
import pytest

from fairtable.netplay import Invite, TableFolder, TableInfo

DECK_SAMPLE = Path(__file__).parents[2] / "docs" / "cards" / "sovereign-sample-deck.toml"


def fairtable(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    """The command as a user runs it, stdin not a terminal (bounded)."""
    return subprocess.run(
        [sys.executable, "-m", "fairtable.client.cli", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    """The single stderr line of a command that refused to start (checked), without prefix."""
    assert done.returncode not in (0, None), (done.stdout, done.stderr)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("fairtable: "), done.stderr
    return lines[0].removeprefix("fairtable: ")


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def invite_to(port: int, game: str = "reign") -> str:
    return Invite("127.0.0.1", port, os.urandom(32), os.urandom(32), os.urandom(32), game, 3).text()


@contextmanager
def port_in_use() -> Iterator[int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield int(s.getsockname()[1])


HEADLESS_HOST = ("host", "reign", "--seats", "3", "--bot", "random", "--no-announce")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("relay", "--port", "99999"), "a port is a number from 0 to 65535"),
        (("relay", "--port", "-1"), "a port is a number from 0 to 65535"),
        ((*HEADLESS_HOST, "--port", "70000"), "a port is a number"),
        ((*HEADLESS_HOST, "--via", "127.0.0.1:99999"), "--via takes HOST:PORT"),
        ((*HEADLESS_HOST, "--via", "nowhere"), "--via takes HOST:PORT"),
        (
            ("host", "reign", "--seats", "3", "--bot", "random", "--discovery-port", "99999"),
            "a port is a number",
        ),
        (("tables", "--discovery-port", "65536"), "a port is a number"),
        (("tables", "--seconds", "0"), "more than 0 seconds"),
        ((*HEADLESS_HOST, "--seat-timeout", "0"), "more than 0 seconds"),
        ((*HEADLESS_HOST, "--abandon-after", "-5"), "more than 0 seconds"),
        ((*HEADLESS_HOST, "--pace", "-1"), "0 seconds or more"),
        ((*HEADLESS_HOST, "--pace", "soon"), "not a number of seconds"),
        (("host", "reign", "--seats", "9", "--bot", "random"), "for 3 to 7 players"),
        (
            ("host", "reign", "--seats", "3", "--bots", "3", "--bot", "random"),
            "--bots must leave the host a seat",
        ),
        (("play", "reign", "--bots", "9"), "--bots 2 to 6"),
        (("play", "reign", "--pace", "-0.5"), "0 seconds or more"),
        (("simulate", "reign", "--games", "0"), "--games must be at least 1"),
        (("simulate", "reign", "--players", "2"), "for 3 to 7 players"),
        (("join", "fairtable://nowhere", "--bot", "random"), "not an invite"),
        (("frobnicate",), "invalid choice"),
        (
            ("play", "reign", "--seats", "9"),  # the hint names the command's own help
            "unrecognized arguments: --seats 9 (see 'fairtable play --help')",
        ),
        (("tables", "--timeout", "1"), "(see 'fairtable tables --help')"),
    ],
)
def test_a_bad_option_is_one_line(tmp_path: Path, args: tuple[str, ...], words: str) -> None:
    data = () if args[0] in ("simulate", "tables") else ("--data-dir", str(tmp_path / "d"))
    assert words in one_line_error(fairtable(*args, *data))


@pytest.mark.parametrize(
    "command",
    [
        ("relay",),
        HEADLESS_HOST,
        ("join", "INVITE", "--bot", "random"),
        ("play", "reign"),
        ("resume",),
    ],
)
def test_a_file_where_the_data_directory_should_be_is_one_line(
    tmp_path: Path,
    command: tuple[str, ...],
) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    args = [invite_to(closed_port()) if a == "INVITE" else a for a in command]
    for folder in (blocker, blocker / "inside"):
        text = one_line_error(fairtable(*args, "--data-dir", str(folder)))
        assert text == f"cannot use the data directory {folder}: a file is in the way"
    assert blocker.read_text() == "not a folder"  # changing nothing


@pytest.mark.parametrize("command", [("relay",), HEADLESS_HOST])
def test_a_port_in_use_is_one_line(tmp_path: Path, command: tuple[str, ...]) -> None:
    with port_in_use() as port:
        done = fairtable(
            *command, "--port", str(port), "--listen-host", "127.0.0.1", "--data-dir", str(tmp_path)
        )
        assert one_line_error(done) == (
            f"cannot listen on 127.0.0.1:{port}: address already in use"
        )


def test_a_discovery_port_in_use_is_one_line() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("0.0.0.0", 0))
        port = s.getsockname()[1]
        done = fairtable("tables", "--seconds", "1", "--discovery-port", str(port))
        assert one_line_error(done) == f"cannot listen on UDP port {port}: address already in use"


def test_a_listen_address_that_is_not_known_is_one_line(tmp_path: Path) -> None:
    done = fairtable("relay", "--listen-host", "no-such-host.invalid", "--data-dir", str(tmp_path))
    assert one_line_error(done) == ("cannot listen on no-such-host.invalid:7777: address not known")
    assert not list(tmp_path.glob("crash-*"))


@pytest.mark.parametrize(
    ("deck", "words"),
    [
        ("missing.toml", "cannot read the deck file"),
        ("broken.toml", "not valid TOML"),
        ("illegal.toml", "30"),
    ],
)
@pytest.mark.parametrize(
    "command",
    [
        ("play", "sovereign", "--bots", "1"),
        ("host", "sovereign", "--seats", "2", "--bot", "random", "--no-announce"),
    ],
)
def test_a_deck_file_that_cannot_be_played_is_one_line(
    tmp_path: Path,
    command: tuple[str, ...],
    deck: str,
    words: str,
) -> None:
    (tmp_path / "broken.toml").write_text("leader = [\n")
    (tmp_path / "illegal.toml").write_text(
        'leader = "md-tribune-castra"\ncards = ["ww-sentinels"]\nechoes = []\n'
    )
    done = fairtable(*command, "--deck", str(tmp_path / deck), "--data-dir", str(tmp_path / "d"))
    text = one_line_error(done)
    assert deck in text and words in text


def test_the_sample_deck_is_not_refused_as_a_deck(tmp_path: Path) -> None:
    """The deck checks above refuse bad decks only: a good one gets as far as the screen."""
    text = one_line_error(
        fairtable(
            "play",
            "sovereign",
            "--bots",
            "1",
            "--deck",
            str(DECK_SAMPLE),
            "--data-dir",
            str(tmp_path),
        )
    )
    assert text.startswith("play needs a terminal")


def _unfinished_game(data_dir: Path) -> None:
    invite = Invite.parse(invite_to(closed_port()))
    TableInfo(invite=invite.text(), role="joiner", status="lobby").save(
        TableFolder(data_dir, "tables", invite.lobby_id)
    )


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (
            ("play", "reign"),
            "play needs a terminal; for games between bots use fairtable simulate; "
            "--plain plays in plain lines",
        ),
        (
            ("host", "reign", "--seats", "3", "--no-announce"),
            "host needs a terminal; for a headless peer use --bot random (or one of the "
            "game's own bots); --plain plays in plain lines",
        ),
        (
            ("join", "INVITE"),
            "join needs a terminal; for a headless peer use --bot random (or one of the "
            "game's own bots); --plain plays in plain lines",
        ),
        (
            ("resume", "1"),
            "resume needs a terminal; a headless peer resumes with its own host or "
            "join --bot command; --plain plays in plain lines",
        ),
    ],
)
def test_a_screen_command_without_a_terminal_is_one_line(
    tmp_path: Path,
    command: tuple[str, ...],
    words: str,
) -> None:
    _unfinished_game(tmp_path)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    args = [invite_to(closed_port()) if a == "INVITE" else a for a in command]
    assert one_line_error(fairtable(*args, "--data-dir", str(tmp_path))) == words
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # nothing made, nothing left


def test_an_invite_to_a_closed_port_says_cannot_reach_within_ten_seconds_then_gives_up(
    tmp_path: Path,
) -> None:
    port = closed_port()
    started = time.monotonic()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "fairtable.client.cli",
            "join",
            invite_to(port),
            "--bot",
            "random",
            "--give-up-after",
            "4",
            "--data-dir",
            str(tmp_path),
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        said = ""
        while "cannot reach" not in said and time.monotonic() - started < 10:
            said = process.stdout.readline()  # the process prints a line at least every 2 s
        assert said.strip() == (
            f"cannot reach 127.0.0.1:{port}: connection refused; retrying... (attempt 1)"
        )
        assert time.monotonic() - started < 10
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
        process.wait(timeout=10)
    done = subprocess.CompletedProcess(process.args, process.returncode, said + out, err)
    assert one_line_error(done) == (
        f"gave up after 4 s: cannot reach 127.0.0.1:{port}: connection refused"
    )
    assert "retrying... (attempt 2)" in out


def test_joining_a_started_full_table_says_so_and_offers_watching(tmp_path: Path) -> None:
    host = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "fairtable.client.cli",
            *HEADLESS_HOST,
            "--bots",
            "2",
            "--pace",
            "0.5",
            "--listen-host",
            "127.0.0.1",
            "--json",
            "--data-dir",
            str(tmp_path / "host"),
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert host.stdout is not None
        deadline = time.monotonic() + 60
        invite, seated = None, False
        while not seated and time.monotonic() < deadline:
            event = json.loads(host.stdout.readline() or "{}")
            invite = event.get("invite", invite)
            seated = event.get("event") == "seated"
        assert invite is not None and seated
        done = fairtable("join", invite, "--bot", "random", "--data-dir", str(tmp_path / "late"))
        wrong = attrs.evolve(Invite.parse(invite), secret=os.urandom(32)).text()
        forged = fairtable("join", wrong, "--bot", "random", "--data-dir", str(tmp_path / "x"))
        assert host.poll() is None  # the game was still on while the late joiners knocked
    finally:
        host.kill()
        host.wait(timeout=10)
    assert done.returncode == 2 and done.stderr.splitlines() == [
        "fairtable: no seat at this table:",
        "  the game at this table has already started and every seat is taken;",
        "  you can watch it instead with:",
        f"  fairtable watch '{invite}'",
    ]  # the command to type, whole on a line of its own (issue 31)
    assert one_line_error(forged) == (
        "no seat at this table: the host does not know this invite (a wrong or an old one)"
    )
    for said in (done, forged):  # the reason once, on stderr: stdout does not say it again
        assert "Refused" not in said.stdout and "no seat" not in said.stdout, said.stdout
    for refused in ("late", "x"):  # a table that never seated us is not left to resume
        listed = fairtable("resume", "--list", "--data-dir", str(tmp_path / refused))
        assert listed.returncode == 0 and listed.stdout == "No unfinished games.\n"


def test_an_unexpected_error_goes_to_a_crash_log_named_in_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from fairtable.client import cli
    from fairtable.netplay import TableNode

    async def broken(self: TableNode, *, task_status: object = None) -> None:
        raise RuntimeError("injected for the test")

    monkeypatch.setattr(TableNode, "run", broken)
    code = cli.main([*HEADLESS_HOST, "--listen-host", "127.0.0.1", "--data-dir", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 70 and "Traceback" not in out + err
    logs = list(tmp_path.glob("crash-*.log"))
    assert len(logs) == 1
    assert err == (
        f"fairtable: host stopped on an unexpected error (RuntimeError); "
        f"the details are in {logs[0]}\n"
    )
    text = logs[0].read_text()
    assert "Traceback" in text and "RuntimeError: injected for the test" in text
    assert oct(logs[0].stat().st_mode & 0o777) == oct(0o600)


def test_a_crash_log_falls_back_to_the_temp_dir_when_the_data_dir_is_unusable(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import tempfile

    from fairtable import netplay
    from fairtable.client import cli

    def broken(*args: object) -> None:
        raise ValueError("injected for the test")

    blocker = tmp_path / "blocker"
    blocker.write_text("")
    monkeypatch.setattr(netplay, "DEFAULT_DATA_DIR", blocker / "data")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(cli, "run_game", broken)
    assert cli.main(["simulate", "reign"]) == 70
    logs = list((tmp_path / "tmp").glob("crash-*.log"))
    assert len(logs) == 1 and "ValueError: injected for the test" in logs[0].read_text()
    assert capsys.readouterr().err.endswith(f"the details are in {logs[0]}\n")


def test_output_read_by_a_reader_that_goes_away_stops_quietly(tmp_path: Path) -> None:
    """``fairtable simulate ... | head -1``: no message, no crash log, no traceback."""
    process = subprocess.Popen(
        [sys.executable, "-m", "fairtable.client.cli", "simulate", "reign", "--games", "200"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
    )  # where a crash log would go
    try:
        assert process.stdout is not None and process.stdout.readline().startswith("game 1:")
        process.stdout.close()
        assert process.wait(timeout=60) == 141
        assert process.stderr is not None and process.stderr.read() == ""
        assert not list(tmp_path.rglob("crash-*"))
    finally:
        process.kill()
        process.wait(timeout=10)


def test_a_joiner_whose_deck_the_table_cannot_start_with_is_told_in_one_line(
    tmp_path: Path,
) -> None:
    host = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "fairtable.client.cli",
            "host",
            "sovereign",
            "--seats",
            "2",
            "--bot",
            "random",
            "--no-announce",
            "--deck",
            str(DECK_SAMPLE),
            "--listen-host",
            "127.0.0.1",
            "--json",
            "--data-dir",
            str(tmp_path / "host"),
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert host.stdout is not None
        opened = json.loads(host.stdout.readline() or "{}")  # the first event: table_open
        assert opened.get("event") == "table_open", opened
        done = fairtable(
            "join",
            opened["invite"],
            "--bot",
            "random",
            "--deck",
            str(DECK_SAMPLE),
            "--data-dir",
            str(tmp_path / "joiner"),
        )
    finally:
        host.kill()
        host.wait(timeout=10)
    text = one_line_error(done)
    assert text.startswith("no seat at this table: the table cannot start") and "Leader" in text


def test_a_via_port_of_other_digits_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """'²' is a digit to str.isdigit but not to int(): a usage error, not exit 70."""
    from fairtable.client.cli import main

    code = main(
        [
            "join",
            "fairtable://127.0.0.1:1/reign/3/"
            + "A" * 43
            + "?key="
            + "A" * 43
            + "&secret="
            + "A" * 43,
            "--via",
            "127.0.0.1:\u00b2",
            "--data-dir",
            str(tmp_path),
        ]
    )
    err = capsys.readouterr().err.strip()
    assert code == 2 and "--via takes HOST:PORT" in err and len(err.splitlines()) == 1, err
