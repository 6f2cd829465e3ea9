"""The command line read once into each command's typed options record (client/options.py),
and every refusal of an option said in one line with its exit code (2; 1 for a file)."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import pytest

from fairtable.client import cli
from fairtable.client.arguments import build_parser
from fairtable.client.errors import FileRefused, UsageError
from fairtable.client.options import (
    BUILDERS,
    AuditOptions,
    HostOptions,
    JoinOptions,
    PeerOptions,
    PlayOptions,
    RelayOptions,
    ReplayOptions,
    ResumeOptions,
    RulesOptions,
    SimulateOptions,
    TablesOptions,
    WatchOptions,
    parse,
)
from fairtable.engine.games import entry
from fairtable.netplay import BROADCAST, DEFAULT_DATA_DIR, DISCOVERY_PORT, SeatClock

CLIENT = Path(__file__).parents[2] / "client"
KEY = "A" * 43  # 32 zero bytes, as a relay_open line prints a key


def test_simulate_reads_into_its_record_with_the_games_usual_seats() -> None:
    assert parse(["simulate", "Reign"]) == SimulateOptions(
        game="reign",
        players=5,
        games=1,
        seed=0,
        bots=("random",) * 5,
        json=False,
        crypto=False,
        log=None,
        cheat=None,
        cheater=None,
    )
    sodalis = parse(["simulate", "sodalis", "--bots", "random, heuristic,random,random"])
    assert isinstance(sodalis, SimulateOptions)
    assert sodalis.players == 4 and sodalis.bots == ("random", "heuristic", "random", "random")
    cheating = parse(
        ["simulate", "reign", "--players", "3", "--crypto", "--cheat", "replay", "--cheater", "1"]
    )
    assert isinstance(cheating, SimulateOptions)
    assert (cheating.players, cheating.cheat, cheating.cheater) == (3, "replay", 1)


def test_audit_rules_and_replay_read_into_their_records() -> None:
    assert parse(["audit", "some/log/", "--json"]) == AuditOptions(logfile="some/log/", json=True)
    assert parse(["rules", "SODALIS"]) == RulesOptions(game="sodalis")
    assert parse(["replay", "t", "--export", "out", "--open-hands"]) == ReplayOptions(
        table=Path("t"), export=Path("out"), open_hands=True, mono=False
    )
    assert parse(["replay", "t", "--mono"]) == ReplayOptions(
        table=Path("t"), export=None, open_hands=False, mono=True
    )


def test_play_and_resume_read_into_their_records() -> None:
    assert parse(["play", "reign"]) == PlayOptions(
        game="reign",
        bots=(entry("reign").default_bot,) * entry("reign").default_bots,
        pace=0.6,
        name="",
        deck=None,
        round_limit=None,
        clock=None,
        new=False,
        plain=False,
        data_dir=DEFAULT_DATA_DIR,
        mono=False,
    )
    play = parse(
        ["play", "sodalis", "--bots", "3", "--name", " Ann  Lee ", "--clock", "10m+5s"]
        + ["--round-limit", "4", "--new", "--plain", "--data-dir", "d", "--mono"]
    )
    assert isinstance(play, PlayOptions)
    assert play.bots == (entry("sodalis").default_bot,) * 3
    assert (play.name, play.round_limit) == ("Ann Lee", 4)
    strengths = parse(["play", "reign", "--bots", "easy, random"])
    assert isinstance(strengths, PlayOptions) and strengths.bots == ("easy", "random")
    assert play.clock == SeatClock(600.0, 5.0)
    assert play.new and play.plain and play.mono and play.data_dir == Path("d")
    assert parse(["resume", "2", "--data-dir", "d"]) == ResumeOptions(
        number=2,
        only_list=False,
        resign=None,
        pace=0.6,
        plain=False,
        data_dir=Path("d"),
        mono=False,
    )
    listed = parse(["resume", "--list", "--resign", "1"])
    assert isinstance(listed, ResumeOptions) and listed.only_list and listed.resign == 1


def test_host_reads_into_its_record_with_the_relay_checked() -> None:
    host = parse(
        ["host", "reign", "--seats", "4", "--bots", "1", "--via", "relay.lan:7777"]
        + ["--via-key", KEY, "--no-announce", "--no-spectators", "--bot", "heuristic"]
    )
    assert host == HostOptions(
        game="reign",
        seats=4,
        bots=1,
        announce=False,
        spectators=False,
        announce_address=BROADCAST,
        round_limit=None,
        clock=None,
        new=False,
        peer=PeerOptions(
            port=0,
            discovery_port=DISCOVERY_PORT,
            data_dir=DEFAULT_DATA_DIR,
            json=False,
            listen_host="0.0.0.0",
            via=("relay.lan", 7777),
            via_key=bytes(32),
            bot="heuristic",
            plain=False,
            deck=None,
            name="",
            advertise=None,
            seat_timeout=10.0,
            abandon_after=120.0,
            pace=0.0,
            stats=False,
            mono=False,
        ),
    )


def test_join_relay_tables_and_watch_read_into_their_records() -> None:
    join = parse(["join", "7-amber-ant", "--give-up-after", "5", "--port", "9000", "--json"])
    assert isinstance(join, JoinOptions)
    assert (join.invite, join.give_up_after, join.peer.discovery_port) == (
        "7-amber-ant",
        5.0,
        DISCOVERY_PORT,
    )
    assert join.peer.port == 9000 and join.peer.json and join.peer.via is None
    lan = parse(["join"])
    assert isinstance(lan, JoinOptions) and lan.invite is None and lan.peer.bot is None
    assert parse(["relay", "--data-dir", "r"]) == RelayOptions(
        port=7777, data_dir=Path("r"), json=False, listen_host="0.0.0.0"
    )
    assert parse(["tables", "--seconds", "1.5", "--json"]) == TablesOptions(
        seconds=1.5, discovery_port=DISCOVERY_PORT, json=True
    )
    assert parse(["watch", "inv", "--via", "h:1", "--via-key", KEY]) == WatchOptions(
        invite="inv", json=False, discovery_port=DISCOVERY_PORT, via=("h", 1), via_key=bytes(32)
    )


REFUSED = [
    (["simulate", "sodalis", "--players", "3"], "Sodalis is for 2, 4 or 6 players"),
    (["simulate", "reign", "--games", "0"], "--games must be at least 1"),
    (["simulate", "reign", "--seed", "-1"], "--seed must be a non-negative integer"),
    (
        ["simulate", "reign", "--players", "3", "--bots", "random,random"],
        "--bots names 2 bots but the table has 3 seats",
    ),
    (["simulate", "reign", "--players", "3", "--bots", "random,random,nosuch"], "unknown bot"),
    (["simulate", "reign", "--log", "x"], "--cheat, --cheater and --log need --crypto"),
    (["simulate", "reign", "--crypto", "--cheat", "replay"], "--cheat needs --cheater SEAT"),
    (
        ["simulate", "reign", "--players", "3", "--crypto", "--cheat", "replay", "--cheater", "3"],
        "--cheater must be a seat from 0 to 2",
    ),
    (["simulate", "reign", "--crypto", "--cheater", "1"], "--cheater needs --cheat KIND"),
    (["play", "sodalis", "--bots", "2"], "Sodalis is for 2, 4 or 6 players: --bots 1, 3, 5"),
    (["play", "reign", "--bots", "7"], "is for 3 to 7 players: --bots 2 to 6"),
    (["play", "reign", "--bots", "easy,nosuch"], "--bots: unknown bot 'nosuch'"),
    (["play", "reign", "--round-limit", "-1"], "--round-limit is a number of rounds (0: no limit)"),
    (["host", "reign", "--seats", "9"], "Reign: The Card Game is for 3 to 7 players"),
    (["host", "reign", "--seats", "3", "--round-limit", "-1"], "--round-limit is a number"),
    (["host", "reign", "--seats", "3", "--bots", "3"], "--bots must leave the host a seat"),
    (["host", "reign", "--seats", "3", "--bot", "nosuch"], "unknown bot 'nosuch'"),
    (["host", "reign", "--seats", "3", "--via", "nope"], "--via takes HOST:PORT, not 'nope'"),
    (["join", "x", "--via", "h:0"], "--via takes HOST:PORT, not 'h:0'"),
    (["join", "x", "--via-key", "short"], "--via-key takes the relay's key as its relay_open"),
    (["join", "--bot", "random"], "a headless peer needs the invite or a join code"),
    (["watch", "x", "--via", "h:port"], "--via takes HOST:PORT, not 'h:port'"),
]


@pytest.mark.parametrize(("argv", "words"), REFUSED)
def test_a_refused_option_is_one_usage_error_line_and_exit_code_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(UsageError) as refused:
        parse(argv)
    assert words in str(refused.value) and not isinstance(refused.value, FileRefused)
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("fairtable: ") and words in err


def test_argparse_refusals_exit_2_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["host", "reign"], ["tables", "--seconds", "0"], ["play", "chess"]):
        with pytest.raises(SystemExit) as stopped:
            parse(argv)
        assert stopped.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("fairtable: ")


def test_a_file_refused_is_one_line_and_exit_code_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "none")
    deck = tmp_path / "deck.toml"
    deck.write_text("not a deck", encoding="utf-8")
    for argv in (
        ["audit", missing],
        ["replay", missing],
        ["play", "sovereign", "--deck", str(deck), "--data-dir", str(tmp_path / "d")],
    ):
        assert cli.main(argv) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("fairtable: "), err


def test_below_the_command_line_nothing_reads_argparse_and_options_import_no_command() -> None:
    edge = {"cli.py", "options.py", "arguments.py"}
    for path in sorted(CLIENT.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if path.name not in edge:
            assert "Namespace" not in text and "getattr(args" not in text, path
    tree = ast.parse((CLIENT / "options.py").read_text(encoding="utf-8"))
    imported = {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    commands = {
        "fairtable.client.cli",
        "fairtable.client.netcli",
        "fairtable.client.play",
        "fairtable.client.seats",
        "fairtable.client.watch_cli",
    }
    assert not imported & (
        commands | {"fairtable.client.replay_cli", "fairtable.client.table_options"}
    ), imported


def test_every_command_the_parser_offers_has_one_builder_of_its_own_record() -> None:
    parser = build_parser()
    commands = next(
        a
        for a in parser._actions  # noqa: SLF001 -- argparse's own list
        if isinstance(a, argparse._SubParsersAction)
    )
    assert set(commands.choices) == set(BUILDERS)
    records = [
        AuditOptions,
        HostOptions,
        JoinOptions,
        PlayOptions,
        RelayOptions,
        ReplayOptions,
        ResumeOptions,
        RulesOptions,
        SimulateOptions,
        TablesOptions,
        WatchOptions,
    ]
    assert {r.command for r in records} == set(BUILDERS)
