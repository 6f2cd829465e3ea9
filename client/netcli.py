"""The network commands: ``host``, ``join``, ``relay`` and ``tables``.

Each runs one trio program: a :class:`~netplay.TableNode` (plus, for ``host
--bots K``, K bot peers joining over loopback), a :class:`~netplay.RelayNode`,
or a discovery listener.  Events are printed as they happen, as text or -- with
``--json`` -- as one JSON object per line.  Ctrl-C stops cleanly; the game is
kept on disk and the same command resumes it.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import gc
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import trio

import protocol as P
from client.bot_seats import decider
from client.clock_words import clock_arg, limits_words
from client.ending import staying_line
from client.errors import (
    UsageError,
    nonnegative_seconds,
    player_name,
    port_number,
    positive_seconds,
    reach_line,
)
from client.lifecycle import code_news, resigned_line, resume_line
from client.rules_summary import game_name
from client.seat_names import SeatNames, at_the_table
from client.seats import (
    identity_at,
    invite_or_saved,
    keep_code,
    seat_option,
)
from client.table_options import TableOptions
from engine.games import entry, game_names, rules
from engine.rng import ChanceStream
from netplay import (
    BROADCAST,
    DEFAULT_DATA_DIR,
    DISCOVERY_PORT,
    Emit,
    Invite,
    NodeEvent,
    RelayNode,
    TableNode,
    claim_seat,
    event_json,
    event_line,
    listen,
)
from netplay import events as ev


def _printer(as_json: bool, prefix: str = "") -> Emit:
    names = [SeatNames()]  # the players' names, once seated: lines call seats by them
    held: list[NodeEvent] = []  # a link refused before we are seated: said unless explained

    def emit(event: NodeEvent) -> None:
        if isinstance(event, ev.Seated):
            names[0] = SeatNames(event.names)
        if as_json:
            print(event_line(event), flush=True)
            return
        if held and not isinstance(event, ev.Refused):  # no clearer line followed it
            say(held.pop())
        held.clear()
        if isinstance(event, ev.LinkRefused) and not seated:
            held.append(event)  # the table's refusal, in words, usually comes next
        elif not isinstance(event, ev.ClockReadings):  # a line a second: only for --json
            say(event)
        if isinstance(event, ev.Seated):
            seated.append(True)

    def say(event: NodeEvent) -> None:
        print(prefix + names[0].text(describe(event)), flush=True)

    seated: list[bool] = []

    return emit


def describe(event: NodeEvent) -> str:
    """One line of text for a node event."""
    match event:
        case ev.BotThinking():
            return f"seat {event.seat} is thinking: {event.seconds:.1f} s, {event.worlds} worlds"
        case ev.TableOpen():
            text = f"Table open. Invite your friends with:\n  fairtable join '{event.invite}'"
            if event.code is not None:
                text += f"\nor, on this LAN, with the code:\n  fairtable join {event.code}"
            return text
        case ev.NoLanAddress() | ev.WrongJoinCode() | ev.JoinCodeRetired() | ev.JoinCodeUsed():
            return code_news(event)
        case ev.Joining():
            return "Joining the table..."
        case ev.LobbyUpdate():
            return f"{event.seated} of {event.seats} seats taken"
        case ev.Seated():
            again = " (resumed)" if event.resumed else ""
            limits = limits_words(event.clock)
            mine = event.names[event.seat] if event.seat < len(event.names) else ""
            you = (
                f"{mine} (seat {event.seat} of {event.players})"
                if mine
                else f"seat {event.seat} of {event.players}"
            )
            table = f"\n{at_the_table(event.names)}" if any(event.names) else ""
            return (
                f"The game starts: you are {you}{again}"
                + (f" ({limits})" if limits else "")
                + table
            )
        case ev.Resuming():
            return resume_line(event_json(event))
        case ev.Resigned():
            return resigned_line(event_json(event))
        case ev.SeatWaiting():
            return f"Waiting for seat {event.seat} ({event.seconds} s)"
        case ev.SeatOffline():
            return f"Seat {event.seat} is offline"
        case ev.SeatOnline():
            return f"Seat {event.seat} is back online"
        case ev.TimeClaim():
            return f"Seat {event.by} says {event.reason}; our own clock disagrees"
        case ev.Abandoned():
            return f"Seat {event.seat} never came back: the game is abandoned"
        case ev.Verdict():
            who = f"seat {event.seat}" if event.seat is not None else "nobody"
            return f"The game stopped: {who} blamed for {event.kind} ({event.reason})"
        case ev.GameOver():
            winner = event.outcome.words()
            return f"Game over: winner {winner}; final digest {event.digest[:16]}"
        case ev.Staying():
            return staying_line(event.seats, event.seconds, "Ctrl-C")
        case ev.RelayOpen():
            gone = f"; {event.dropped} that never started dropped" if event.dropped else ""
            pin = f"; hosts pin it with --via-key {event.key}" if event.key else ""
            return (
                f"Relay listening on port {event.port} ({event.tables} tables on disk{gone}){pin}"
            )
        case ev.Refused():
            return f"Refused: {event.reason}"
        case ev.LinkRefused():
            return f"Link refused: {event.reason}"
        case ev.Unreachable():
            return reach_line(event_json(event))
    return json.dumps(event_json(event), sort_keys=True)


def _data_dir(args: argparse.Namespace) -> Path:
    return Path(args.data_dir) if args.data_dir else DEFAULT_DATA_DIR


def _address(text: str | None) -> tuple[str, int] | None:
    if text is None:
        return None
    host, _, port = text.rpartition(":")
    if not host or not port.isdecimal() or not 0 < int(port) < 65536:
        raise UsageError(f"--via takes HOST:PORT, not {text!r}")
    return host, int(port)


def _relay_key(text: str | None) -> bytes | None:
    if text is None:
        return None
    try:
        key = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, binascii.Error):
        key = b""
    if len(key) != 32:
        raise UsageError("--via-key takes the relay's key as its relay_open line prints it")
    return key


def _decider(
    kind: str | None, seed: bytes, game: str, emit: Emit | None = None
) -> Callable[[P.DecisionNeeded], Any] | None:
    """The ``--bot`` seat's decider (a search bot tells ``emit`` how its thinking goes)."""
    if kind is None:
        return None
    try:
        return decider(game, kind, ChanceStream(seed).child("bot"), emit)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _options(args: argparse.Namespace, listen: bool) -> TableOptions:
    """The table options of ``host`` or ``join``, built once from the command line."""
    return TableOptions.from_args(
        args,
        listen=listen,
        via=_address(args.via),
        via_key=_relay_key(getattr(args, "via_key", None)),
    )


async def _host(args: argparse.Namespace) -> None:
    data_dir = _data_dir(args)
    identity = identity_at(data_dir)
    emit = _printer(args.json)
    options = _options(args, True)
    node = TableNode(
        options.node_config(data_dir),
        identity,
        seats=args.seats,
        game=args.game,
        decider=_decider(args.bot, identity.seed, args.game, emit),
        emit=emit,
        brings=seat_option(args.game, args.deck),
    )
    async with trio.open_nursery() as nursery:
        invite = await nursery.start(node.run)
        for index in range(args.bots):
            bot_dir = data_dir / "bots" / str(index)
            bot_identity = identity_at(bot_dir)
            bot_options = attrs.evolve(
                options, listen_port=0 if args.via is None else None, name=""
            )  # a seat of its own: never the host's name
            bot = TableNode(
                bot_options.node_config(bot_dir),
                bot_identity,
                invite=invite,
                decider=_decider(entry(args.game).default_bot, bot_identity.seed, args.game),
            )
            nursery.start_soon(bot.run)
        await node.done.wait()


def _invite_game(invite: Invite) -> str:
    """The invite's game, if fairtable plays it."""
    if invite.game not in game_names():
        raise UsageError(
            f"the invite is for {invite.game!r}; fairtable plays {', '.join(game_names())}"
        )
    return invite.game


async def _join(args: argparse.Namespace) -> None:
    invite = await invite_or_saved(args.invite, args.discovery_port, _data_dir(args))
    game = _invite_game(invite)
    with claim_seat(_data_dir(args), invite) as seat:  # our own seat, if we host or sit here
        keep_code(seat.data_dir, invite, args.invite)
        await _join_from(args, invite, game, seat.data_dir)


async def _join_from(args: argparse.Namespace, invite: Invite, game: str, data_dir: Path) -> None:
    identity = identity_at(data_dir)
    contact = _Contact(_printer(args.json))
    node = TableNode(
        _options(args, args.via is None).node_config(data_dir),
        identity,
        invite=invite,
        decider=_decider(args.bot, identity.seed, game, contact.emit),
        emit=contact.emit,
        brings=seat_option(game, args.deck),
    )
    async with trio.open_nursery() as nursery:
        nursery.start_soon(node.run)
        with trio.move_on_after(args.give_up_after):
            await contact.reached.wait()
        if not contact.reached.is_set():
            raise UsageError(f"gave up after {args.give_up_after:g} s: {contact.last}")
        await node.done.wait()
    if node.session is None:  # the node stopped without a seat: the table said why
        raise UsageError(f"no seat at this table: {contact.refused or 'the table closed'}")


class _Contact:
    """What a headless joiner heard before its first contact with the table: the last
    failure to reach it, a refusal, and whether the table answered at all."""

    def __init__(self, emit: Emit) -> None:
        self._emit = emit
        self.reached = trio.Event()
        self.last = "the table never answered"
        self.refused: str | None = None

    def emit(self, event: NodeEvent) -> None:
        if isinstance(event, ev.Unreachable) and not self.reached.is_set():
            self.last = f"cannot reach {event.address}: {event.why}"
        elif isinstance(event, ev.LobbyUpdate | ev.Seated | ev.Refused):
            self.reached.set()
            if isinstance(event, ev.Refused):
                self.refused = event.reason
        self._emit(event)


async def _relay(args: argparse.Namespace) -> None:
    data_dir = _data_dir(args)
    relay = RelayNode(
        data_dir,
        identity_at(data_dir),
        port=args.port,
        host=args.listen_host,
        emit=_printer(args.json),
    )
    await relay.run()


def run(args: argparse.Namespace) -> int:
    """Entry point for ``host``, ``join`` and ``relay``."""
    from client import play

    if args.command == "host" and args.seats not in rules(args.game).seat_counts:
        raise UsageError(f"{rules(args.game).title} is for {rules(args.game).seat_text} players")
    if args.command == "host" and args.round_limit is not None and args.round_limit < 0:
        raise UsageError("--round-limit is a number of rounds (0: no limit)")
    if args.command == "host" and not 0 <= args.bots < args.seats:
        raise UsageError("--bots must leave the host a seat")
    if args.command == "join" and args.invite is None and args.bot is not None:
        raise UsageError("a headless peer needs the invite or a join code")
    if args.command in ("host", "join") and args.bot is None:  # a person at the keyboard
        data_dir = _data_dir(args)
        if args.command == "host":
            return play.host_screen(
                args, data_dir, _options(args, True), brings=seat_option(args.game, args.deck)
            )
        return play.join_screen(
            args.invite,
            data_dir,
            _options(args, args.via is None),
            deck=args.deck,
            discovery_port=args.discovery_port,
            plain=args.plain,
        )
    main = {"host": _host, "join": _join, "relay": _relay}[args.command]
    interrupted = False
    try:
        trio.run(main, args)  # any other error (a group, from trio) is cli.main's to say
    except* KeyboardInterrupt:
        interrupted = True
    # Everything is on disk and said. The interpreter's last garbage collection would walk
    # every object the game made (a tenth of a second for nothing); frozen objects are skipped.
    gc.freeze()
    if interrupted:
        print(stopped_line(args.command), file=sys.stderr)
        return 130
    return 0


def stopped_line(command: str) -> str:
    """What Ctrl-C leaves behind, said once the command stopped."""
    if command == "relay":
        return (
            "Relay stopped. The tables it holds are kept on disk; the same command serves "
            "them again."
        )
    return "Stopped. The game is kept; run the same command to resume."


def run_tables(args: argparse.Namespace) -> int:
    """``fairtable tables``: what the LAN announces (a hint: you still need the invite)."""
    if args.seconds <= 0:
        raise UsageError("--seconds must be positive")

    async def hear() -> list[Any]:
        return await listen(port=args.discovery_port, duration=args.seconds)

    found = trio.run(hear)
    for table in found:
        if args.json:
            print(
                json.dumps(
                    {
                        "game": table.game,
                        "seats": table.seats,
                        "free": table.free,
                        "host": table.host,
                        "port": table.port,
                        "code": table.code,
                        "fingerprint": table.fingerprint,
                        "name": table.name,
                    },
                    sort_keys=True,
                )
            )
        else:
            host = (
                f"{table.name} (key {table.fingerprint[:8]})"
                if table.name
                else f"key {table.fingerprint[:16]}"
            )
            print(
                f"{table.game} at {table.host}:{table.port}: {table.free} of {table.seats} "
                f"seats free, host {host} ({_ask(table)})"
            )
    if not found and not args.json:
        print(f"No tables announced on the LAN in {args.seconds:g} s.")
    return 0


def _ask(table: Any) -> str:
    """What to ask the host of an announced table for."""
    if table.code is None:
        return "ask the host for the invite"
    return f"join code {table.code}-...: ask the host for its words, or for the invite"


def add_commands(sub: Any) -> None:
    """The network subcommands, for the main parser."""

    def common(p: argparse.ArgumentParser, listen: bool = True) -> None:
        p.add_argument(
            "--data-dir", help=f"where games and keys are kept (default {DEFAULT_DATA_DIR})"
        )
        p.add_argument("--json", action="store_true", help="print events as JSON lines")
        p.add_argument("--listen-host", default="0.0.0.0", help="address to listen on")
        if listen:
            p.add_argument("--via", metavar="HOST:PORT", help="link through this relay")
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

    host = sub.add_parser("host", help="open a table on this machine and print its invite")
    host.add_argument("game", type=game_name, choices=game_names())
    host.add_argument("--seats", type=int, required=True)
    host.add_argument(
        "--port", type=port_number, default=0, help="port to listen on (default: any)"
    )
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
    host.add_argument("--discovery-port", type=port_number, default=DISCOVERY_PORT)
    host.add_argument(
        "--round-limit",
        type=int,
        metavar="N",
        help="end the game after N rounds (0: none; default: the game's own)",
    )
    host.add_argument(
        "--clock",
        type=clock_arg,
        metavar="BANK[+INC]",
        help="a chess clock per seat: MINUTESm[+SECONDSs] a decision, e.g. "
        "10m+5s, or plain seconds (default: no clock)",
    )
    host.add_argument(
        "--new",
        action="store_true",
        help="open a fresh table even if an unfinished one could go on",
    )
    common(host)
    host.set_defaults(run=run)
    join = sub.add_parser("join", help="take a seat at a table")
    join.add_argument(
        "invite",
        nargs="?",
        help="the invite, or the host's join code on the LAN (none: list tables on the LAN)",
    )
    join.add_argument(
        "--port", type=port_number, default=0, help="port to listen on for other seats"
    )
    join.add_argument(
        "--discovery-port",
        type=port_number,
        default=DISCOVERY_PORT,
        help="UDP port of LAN announcements (for a join code)",
    )
    join.add_argument(
        "--give-up-after",
        type=positive_seconds,
        default=60.0,
        metavar="SECONDS",
        help="with --bot: stop if the table cannot be reached for this long",
    )
    common(join)
    join.set_defaults(run=run)
    relay = sub.add_parser("relay", help="run a relay for players who cannot reach each other")
    relay.add_argument("--port", type=port_number, default=7777)
    common(relay, listen=False)
    relay.set_defaults(run=run)
    tables = sub.add_parser("tables", help="list tables announced on the LAN")
    tables.add_argument("--seconds", type=positive_seconds, default=3.0, help="how long to listen")
    tables.add_argument("--discovery-port", type=port_number, default=DISCOVERY_PORT)
    tables.add_argument("--json", action="store_true", help="one JSON line per table")
    tables.set_defaults(run=run_tables)
