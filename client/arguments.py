"""The command line's arguments: one argparse parser for every command.

This module only declares arguments (their names, types, defaults and help); what a
command is given is read from the parsed arguments once, into that command's typed
options record, by :mod:`client.options` -- nothing below the command line sees
argparse.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import Any, NoReturn

from fairtable.client.clock_words import clock_arg
from fairtable.client.errors import nonnegative_seconds, player_name, port_number, positive_seconds
from fairtable.client.rules_summary import game_name
from fairtable.client.text_rows import said_on
from fairtable.engine.games import entry, game_names
from fairtable.netplay import BROADCAST, DEFAULT_DATA_DIR, DISCOVERY_PORT
from fairtable.protocol import Leavers
from fairtable.protocol.testing import CHEATS

__all__ = ["SCREEN_COMMANDS", "build_parser", "first_words"]


def first_words() -> str:
    """What bare ``fairtable`` prints: the few commands a newcomer needs first, the games
    named from the registry."""
    return "\n".join(
        [
            "fairtable: hidden-information card games with friends, and nobody to trust.",
            "To begin:",
            "  fairtable play GAME              a game at this terminal against bots",
            "  fairtable host GAME --seats N    open a table on this network for friends",
            "  fairtable join                   take a seat at a table a friend opened",
            "  fairtable rules GAME             what wins and how the game goes",
            "  fairtable --help                 every command (each has its own --help)",
            *textwrap.wrap("GAME is one of: " + ", ".join(game_names()) + ".", 80),
        ]
    )


class _Formatter(argparse.HelpFormatter):
    """argparse's help, its lines broken at spaces only (never inside ``invalid-point``)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


class _Parser(argparse.ArgumentParser):
    """argparse, with its complaints in one line like every other refusal (folded at words
    on a terminal, as every refusal is)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        said = f"fairtable: {message} (see '{self.prog} --help')"
        self.exit(2, said_on(sys.stderr, said) + "\n")


def _version() -> str:
    """The installed package's version (a source tree that was never installed: unknown)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fairtable")
    except PackageNotFoundError:
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    """Every command's arguments; :func:`client.options.parse` turns what it parses into
    the command's options record."""
    parser = _Parser(
        prog="fairtable",
        description="Play hidden-information tabletop games with friends, with nobody to trust.",
    )
    parser.add_argument("--version", action="version", version=f"fairtable {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _play_commands(sub)  # what a newcomer needs first, first in --help
    _network_commands(sub)
    _rules_command(sub)
    _watch_command(sub)
    _replay_command(sub)
    _bench_commands(sub)
    for name in SCREEN_COMMANDS:  # every command that may open the console screen
        if name in sub.choices:
            sub.choices[name].add_argument(
                "--mono",
                action="store_true",
                help="no colours on the screen (as the NO_COLOR environment variable does)",
            )
    return parser


TABLE_HELP = (
    "a log file or a table folder (DATA_DIR/tables/ID), or the first characters of its ID "
    "as the screen shows them (e.g. 3c8d499dd74a)"
)

SCREEN_COMMANDS = ("play", "resume", "host", "join", "replay")


def _bench_commands(sub: Any) -> None:
    """``audit`` and ``simulate``: checking a saved game and bots-only games, listed last."""
    sim = sub.add_parser("simulate", help="play whole games between bots in one process")
    sim.add_argument("game", type=game_name, choices=game_names())
    usual = ", ".join(f"{name} {entry(name).default_seats}" for name in game_names())
    sim.add_argument("--players", type=int, help=f"seats (default: the game's usual -- {usual})")
    sim.add_argument("--games", type=int, default=1, help="how many games to play")
    sim.add_argument("--seed", type=int, default=0, help="seed of the first game (game i: seed+i)")
    sim.add_argument("--bots", help="one bot kind per seat, comma-separated (default: all random)")
    sim.add_argument("--json", action="store_true", help="print one JSON line per game")
    sim.add_argument(
        "--crypto",
        action="store_true",
        help="play among in-memory protocol peers, every secret cryptographic",
    )
    sim.add_argument("--log", metavar="DIR", help="with --crypto: save every peer's table log")
    sim.add_argument(
        "--cheat",
        choices=CHEATS,
        metavar="KIND",  # the list in the help, folded at commas: no line over 80 columns
        help=f"with --crypto: one peer cheats this way ({', '.join(CHEATS)})",
    )
    sim.add_argument("--cheater", type=int, metavar="SEAT", help="the seat that cheats")
    sim.add_argument(
        "--depart",
        action="append",
        metavar="SEAT@DECISION[:leave|:vanish]",
        help="with --crypto: the seat leaves for good when asked its DECISION-th decision "
        "(1: its first), or with :vanish goes silent for good there (the table's leavers "
        "rule is then go-on); the others play on where the game allows (repeat for more seats)",
    )
    aud = sub.add_parser(
        "audit",
        help="check a saved table log end to end (a simulate --log "
        "file, or a peer's table folder under its data directory)",
    )
    aud.add_argument("logfile", help=TABLE_HELP)
    aud.add_argument(
        "--data-dir", help=f"where a table named by its id is (default {DEFAULT_DATA_DIR})"
    )
    aud.add_argument("--json", action="store_true", help="print the result as one JSON line")


def _network_commands(sub: Any) -> None:
    """``host``, ``join``, ``relay`` and ``tables``."""

    def common(p: argparse.ArgumentParser, listen: bool = True) -> None:
        p.add_argument(
            "--data-dir", help=f"where games and keys are kept (default {DEFAULT_DATA_DIR})"
        )
        p.add_argument("--json", action="store_true", help="print events as JSON lines")
        p.add_argument("--listen-host", default="0.0.0.0", help="address to listen on")
        if listen:
            p.add_argument(
                "--via",
                metavar="HOST:PORT",
                help="link through this relay (the host's join code is held there, and a "
                "joiner's code is looked up there)",
            )
            p.add_argument(
                "--via-key",
                metavar="KEY",
                help="the relay's key (host: pins the relay and names it in the "
                "invite; a joiner takes it from the invite)",
            )
            p.add_argument(
                "--bot",
                help="play headless with this bot (random, the game's own kinds, "
                "search:easy|normal|hard|SECONDS)",
            )
            p.add_argument(
                "--plain",
                action="store_true",
                help="plain lines instead of the screen (a screen reader, a pipe)",
            )
            p.add_argument(
                "--deck",
                metavar="FILE",
                help="bring a custom deck, in a game whose seats may bring one (docs/cards/)",
            )
            p.add_argument(
                "--name",
                type=player_name,
                default=None,
                help="your name at the table, signed with your seat's key "
                "(shown to the others instead of 'seat N')",
            )
            p.add_argument(
                "--advertise",
                help="the address others reach this machine at, for the invite "
                "(default: this machine's LAN address)",
            )
            p.add_argument(
                "--seat-timeout",
                type=positive_seconds,
                default=10.0,
                help="seconds before a silent seat is reported",
            )
            p.add_argument(
                "--abandon-after",
                type=positive_seconds,
                default=120.0,
                help="seconds the table waits on an offline seat before the game "
                "ends as abandoned (the host's is the table's)",
            )
            p.add_argument(
                "--pace",
                type=nonnegative_seconds,
                default=0.0,
                help="seconds a bot waits before each decision (default: none)",
            )
            p.add_argument("--stats", action="store_true", help=argparse.SUPPRESS)

    def peer(p: argparse.ArgumentParser) -> None:
        """What a seat at a table (``host`` and ``join``) takes besides :func:`common`."""
        p.add_argument(
            "--port",
            type=port_number,
            default=0,
            help="port to listen on for the other seats (default: any)",
        )
        p.add_argument(
            "--discovery-port",
            type=port_number,
            default=DISCOVERY_PORT,
            help="UDP port of LAN announcements (and join codes)",
        )
        common(p)

    host = sub.add_parser("host", help="open a table on this machine and print its invite")
    host.add_argument("game", type=game_name, choices=game_names())
    host.add_argument("--seats", type=int, required=True)
    host.add_argument("--bots", type=int, default=0, help="fill this many seats with bots")
    host.add_argument(
        "--no-announce", action="store_true", help="do not announce the table on the LAN"
    )
    host.add_argument(
        "--no-spectators", action="store_true", help="refuse spectators (fairtable watch)"
    )
    host.add_argument(
        "--announce-address",
        default=BROADCAST,
        help="where to send LAN announcements (default: broadcast)",
    )
    host.add_argument(
        "--leavers",
        choices=[rule.value for rule in Leavers],
        default=Leavers.END.value,
        help="if a player vanishes for good (offline past --abandon-after): the game ends "
        "(end, the default), or it goes on, and then all the other players together could "
        "open that player's cards (go-on; 3 seats or more)",
    )
    _table_terms(host)
    peer(host)
    join = sub.add_parser("join", help="take a seat at a table")
    join.add_argument(
        "invite",
        nargs="?",
        help="the invite, or the host's join code on the LAN (none: list tables on the LAN)",
    )
    join.add_argument(
        "--give-up-after",
        type=positive_seconds,
        default=60.0,
        metavar="SECONDS",
        help="with --bot: stop if the table cannot be reached for this long",
    )
    peer(join)
    relay = sub.add_parser("relay", help="run a relay for players who cannot reach each other")
    relay.add_argument("--port", type=port_number, default=7777)
    common(relay, listen=False)
    tables = sub.add_parser("tables", help="list tables announced on the LAN")
    tables.add_argument("--seconds", type=positive_seconds, default=3.0, help="how long to listen")
    tables.add_argument("--discovery-port", type=port_number, default=DISCOVERY_PORT)
    tables.add_argument("--json", action="store_true", help="one JSON line per table")


def _table_terms(p: argparse.ArgumentParser) -> None:
    """What a table we open (``host`` and ``play``) is played under, and whether it is new."""
    p.add_argument(
        "--round-limit",
        type=int,
        metavar="N",
        help="end the game after N rounds (0: none; default: the game's own)",
    )
    p.add_argument(
        "--clock",
        type=clock_arg,
        metavar="BANK[+INC]",
        help="a chess clock per seat: MINUTESm[+SECONDSs] a decision, e.g. "
        "10m+5s, or plain seconds (default: no clock)",
    )
    p.add_argument(
        "--new",
        action="store_true",
        help="open a fresh table even if an unfinished one could go on",
    )


def _play_commands(sub: Any) -> None:
    """``play`` and ``resume``."""
    play = sub.add_parser("play", help="play at this terminal against bots (full protocol)")
    play.add_argument("game", type=game_name, choices=game_names())
    usual = ", ".join(f"{name} {entry(name).default_bots}" for name in game_names())
    play.add_argument(
        "--bots",
        help=f"how many bot players (default: the game's usual -- {usual}), or one strength per "
        "bot, comma-separated: easy, normal, hard (e.g. --bots easy,hard), or any simulate bot",
    )
    play.add_argument("--pace", type=nonnegative_seconds, default=0.6, help="seconds a bot thinks")
    play.add_argument(
        "--name",
        type=player_name,
        default=None,
        help="your name at the table, signed with your seat's key",
    )
    play.add_argument(
        "--deck",
        metavar="FILE",
        help="play a custom deck, in a game whose seats may bring one (docs/cards/)",
    )
    _table_terms(play)
    play.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help="for tests and replays of games between bots: a table whose keys, shuffles and "
        "bots' choices all come from N, played in this process and not kept -- the same N "
        "and the same answers give the same game; anyone who knows N knows every card, so "
        "host and join never take it (heuristic or random bots only)",
    )
    play.add_argument(
        "--plain",
        action="store_true",
        help="plain lines instead of the screen (a screen reader, a pipe)",
    )
    play.add_argument("--data-dir", help=f"where games are kept (default {DEFAULT_DATA_DIR})")
    resume = sub.add_parser("resume", help="list unfinished games and reopen one")
    resume.add_argument("game", nargs="?", type=int, help="the number of the game to reopen")
    resume.add_argument("--list", action="store_true", help="only list them")
    resume.add_argument(
        "--resign",
        type=int,
        metavar="N",
        help="give game N up: a signed resignation the other seats see",
    )
    resume.add_argument(
        "--pace", type=nonnegative_seconds, default=0.6, help="seconds a bot thinks"
    )
    resume.add_argument(
        "--plain",
        action="store_true",
        help="plain lines instead of the screen (a screen reader, a pipe)",
    )
    resume.add_argument("--data-dir", help=f"where games are kept (default {DEFAULT_DATA_DIR})")


def _replay_command(sub: Any) -> None:
    rep = sub.add_parser(
        "replay",
        help="step through a finished table (a simulate --log file, "
        "or a peer's table folder), or export its record",
    )
    rep.add_argument("table", help=TABLE_HELP)
    rep.add_argument(
        "--data-dir", help=f"where a table named by its id is (default {DEFAULT_DATA_DIR})"
    )
    rep.add_argument(
        "--export",
        metavar="FILE",
        help="write FILE.txt, FILE.jsonl and FILE.log (the signed log) instead of "
        "opening the screen",
    )
    rep.add_argument(
        "--open-hands",
        action="store_true",
        help="with --export: every seat's hidden cards at every step (only once "
        "the audit opened every deck key)",
    )


def _watch_command(sub: Any) -> None:
    w = sub.add_parser("watch", help="follow a table as a spectator (public information only)")
    w.add_argument("invite", help="the table's invite (or its name on the LAN)")
    w.add_argument("--json", action="store_true", help="print public events as JSON lines")
    w.add_argument("--discovery-port", type=int, default=DISCOVERY_PORT)
    w.add_argument(
        "--via",
        metavar="HOST:PORT",
        help="watch through this relay (it serves spectators from what it holds)",
    )
    w.add_argument(
        "--via-key",
        metavar="KEY",
        help="the relay's key, as its relay_open line prints it (default: the invite's relay key)",
    )


def _rules_command(sub: Any) -> None:
    """``fairtable rules GAME``."""
    rules = sub.add_parser("rules", help="a short summary of a game: what wins, its phases")
    rules.add_argument("game", type=game_name, choices=game_names())
