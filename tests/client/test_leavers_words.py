"""The table's rule for a player that vanishes (``host --leavers go-on|end``) as people meet it:
read from the command line into the table's terms, refused where it cannot mean anything,
and said in one line before a joiner sits down -- the LAN's list of tables, the question a
joiner answers for a table that goes on, the lobby (screen and ``--plain``) and ``watch``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from fairtable.client import cli, netcli
from fairtable.client.errors import UsageError
from fairtable.client.leavers_words import leavers_line, leavers_short
from fairtable.client.netcli import describe
from fairtable.client.options import HostOptions, TablesOptions, parse
from fairtable.client.plain import PlainSession
from fairtable.client.reign.model import ClientModel
from fairtable.client.table_options import TableOptions
from fairtable.client.watch_screen import spectator_model
from fairtable.netplay import Invite
from fairtable.netplay import events as ev
from fairtable.netplay.lan._discovery import Announcement
from fairtable.protocol import Leavers

ROOT = Path(__file__).resolve().parents[2]
GO_ON, END = Leavers.GO_ON, Leavers.END
GOES_ON = "If a player vanishes: the game goes on (the others together could open that player's"
ENDS = "If a player vanishes: the game ends"


def _invite(leavers: Leavers) -> Invite:
    return Invite("127.0.0.1", 4711, bytes(32), bytes(32), bytes(32), "reign", 4, None, leavers)


def test_the_lines_say_the_rule_and_what_it_costs() -> None:
    assert leavers_line(GO_ON).startswith(GOES_ON)
    assert leavers_line(END).startswith(ENDS) and "without you" in leavers_line(END)
    assert leavers_short(GO_ON) == "if a player vanishes, the game goes on"
    assert leavers_short(END) == "if a player vanishes, the game ends"


def test_host_reads_leavers_into_the_tables_terms_end_by_default(tmp_path: Path) -> None:
    plain = parse(["host", "reign", "--seats", "3"])
    going = parse(["host", "reign", "--seats", "3", "--leavers", "go-on"])
    assert isinstance(plain, HostOptions) and isinstance(going, HostOptions)
    assert (plain.leavers, going.leavers) == (END, GO_ON)
    terms = TableOptions.for_host(going).node_config(tmp_path).terms
    assert terms.leavers is GO_ON
    assert TableOptions.for_host(plain).node_config(tmp_path).terms.leavers is END


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--seats", "3", "--leavers", "maybe"], "argument --leavers: invalid choice: 'maybe'"),
        (["--seats", "3", "--leavers", "GO_ON"], "choose from 'end', 'go-on'"),
        (["--seats", "2", "--leavers", "go-on"], "--leavers go-on needs 3 seats or more"),
    ],
)
def test_a_leavers_rule_refused_is_one_line_exit_2_and_nothing_is_made(
    tmp_path: Path, argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    game = "sodalis" if "2" in argv else "reign"
    data = tmp_path / "d"
    try:
        code = cli.main(["host", game, *argv, "--bot", "random", "--data-dir", str(data)])
    except SystemExit as stopped:  # argparse's own refusal
        code = stopped.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("fairtable: ") and words in err
    assert not data.exists()  # no key, no table, no folder


def test_two_seats_cannot_go_on_and_the_message_says_why() -> None:
    with pytest.raises(UsageError) as refused:
        parse(["host", "sovereign", "--seats", "2", "--leavers", "go-on"])
    assert "at 2 seats the game cannot go on without a player" in str(refused.value)
    assert "would hold the key to your cards" in str(refused.value)
    assert isinstance(parse(["host", "sovereign", "--seats", "2", "--leavers", "end"]), HostOptions)


def test_the_headless_lines_say_the_rule_at_the_open_table_and_on_joining() -> None:
    opened = describe(ev.TableOpen("fairtable://x", None, leavers=GO_ON))
    assert opened.splitlines()[-1].startswith(GOES_ON)
    joining = describe(ev.Joining("fairtable://x", GO_ON)).splitlines()
    assert joining[0] == "Joining the table..." and joining[1].startswith(GOES_ON)
    assert describe(ev.Joining("fairtable://x")).splitlines()[1].startswith(ENDS)


@pytest.mark.parametrize("rule", [GO_ON, END])
def test_the_lobby_says_the_rule_to_a_joiner_before_it_is_seated(rule: Leavers) -> None:
    """The screen's log and ``--plain``'s lines: said while the joiner is in the lobby."""
    said: list[str] = []
    model = ClientModel()
    session = PlainSession(model, said.append)
    session.update()
    model.apply_event(ev.Joining("fairtable://x", rule))
    session.update()
    assert model.seat is None and leavers_line(rule) in model.log
    assert leavers_line(rule) in said
    model.apply_event(ev.LobbyUpdate(seated=2, seats=4))
    session.update()
    assert said.index(leavers_line(rule)) < said.index("2 of 4 seats taken")


def test_the_hosts_lobby_says_its_rule_and_a_table_of_our_own_bots_does_not() -> None:
    model = ClientModel()
    model.apply_event(ev.TableOpen("fairtable://x", None, leavers=GO_ON))
    assert leavers_line(GO_ON) in model.log
    alone = ClientModel()
    alone.all_bots = True  # `play`: nobody to tell
    alone.apply_event(ev.TableOpen("fairtable://x", None))
    assert not any(line.startswith("If a player") for line in alone.log)


def test_a_spectator_is_told_the_invites_rule() -> None:
    model = spectator_model(_invite(GO_ON))
    assert leavers_line(GO_ON) in model.log


def test_a_spectator_is_told_the_rule_without_your_cards() -> None:
    """S8 of the new-user run: a spectator read "nobody can open your cards without you",
    and a spectator has no cards."""
    model = spectator_model(_invite(END))
    (said,) = [line for line in model.log if line.startswith("If a player")]
    assert said.startswith(ENDS) and "your" not in said and "you" not in said.split()
    assert (
        said
        == "If a player vanishes: the game ends (nobody can open that player's cards without them)"
    )


def test_tables_lists_the_rule_of_each_table(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    heard = [
        Announcement.from_invite(_invite(GO_ON), free=2, name="Ann"),
        Announcement.from_invite(attrs_port(_invite(END), 4712), free=1),
    ]

    async def listen(**_: Any) -> list[Announcement]:
        return heard

    monkeypatch.setattr(netcli, "listen", listen)
    netcli.run_tables(TablesOptions(seconds=0.1, discovery_port=1, json=False))
    rows = capsys.readouterr().out.splitlines()
    assert all(len(row) <= 80 for row in rows)  # folded at words (issue 31, S7)
    lines: list[str] = []  # a table's line and the rows it was folded into, joined
    for row in rows:
        if row.startswith("  ") and lines:
            lines[-1] += " " + row.strip()
        else:
            lines.append(row)
    assert "; if a player vanishes, the game goes on (" in lines[0]
    assert "; if a player vanishes, the game ends (" in lines[1]
    netcli.run_tables(TablesOptions(seconds=0.1, discovery_port=1, json=True))
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [row["leavers"] for row in rows] == ["go-on", "end"]


def attrs_port(invite: Invite, port: int) -> Invite:
    import attrs

    return attrs.evolve(invite, port=port)


def _join_plain(invite: Invite, typed: str, data: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "fairtable.client.cli", "join", invite.text(), "--plain"]
    return subprocess.run(
        [*command, "--data-dir", str(data)],
        input=typed,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "TERM": "xterm"},
        check=False,
    )


@pytest.mark.parametrize("typed", ["n\n", "q\n", ""])
def test_a_joiner_told_the_game_goes_on_may_not_sit_down(tmp_path: Path, typed: str) -> None:
    """The question comes before any link to the table: saying no (or nothing) joins nothing."""
    done = _join_plain(_invite(GO_ON), typed, tmp_path / "d")
    assert done.returncode == 0, done.stderr
    out = done.stdout.replace("\n  ", " ").splitlines()  # the rule is wrapped to the terminal
    assert out[0].startswith(GOES_ON)
    assert out[-1].endswith("Nothing joined.")
    assert "Joining" not in done.stdout and "Connecting" not in done.stdout


@pytest.mark.parametrize("rule", [END, GO_ON])
def test_a_plain_joiner_is_told_the_rule_once(tmp_path: Path, rule: Leavers) -> None:
    """The third new-user run: a plain joiner's lines began with "If a player vanishes: ..."
    twice (said before joining, then again as the lobby's log line).  Here the table is not
    there: once the joiner says it retries, it has said all it says before the lobby."""
    command = [sys.executable, "-m", "fairtable.client.cli", "join", _invite(rule).text()]
    proc = subprocess.Popen(
        [*command, "--plain", "--data-dir", str(tmp_path / "d")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "TERM": "xterm"},
    )
    assert proc.stdin is not None and proc.stdout is not None
    bound = threading.Timer(60, proc.kill)  # a joiner that hangs is ended: the test fails
    bound.start()
    try:
        if rule is GO_ON:
            proc.stdin.write("y\n")  # sit down at a table that goes on
            proc.stdin.flush()
        out: list[str] = []
        for line in proc.stdout:
            out.append(line.rstrip("\n"))
            if line.startswith("cannot reach"):
                break
        proc.stdin.write("q\n")
        proc.stdin.close()
        out += proc.stdout.read().splitlines()
        assert proc.wait(timeout=60) == 0
    finally:
        bound.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    joined = "\n".join(out).replace("\n  ", " ").splitlines()  # wrapped to the terminal
    told = [line for line in joined if "a player vanishes: " in line]
    assert len(told) == 1 and told[0].endswith(leavers_line(rule)), joined
