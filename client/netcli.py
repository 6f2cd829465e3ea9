"""The network commands: ``host``, ``join``, ``relay`` and ``tables``.

Each runs one trio program: a :class:`~netplay.TableNode` (plus, for ``host
--bots K``, K bot peers joining over loopback), a :class:`~netplay.RelayNode`,
or a discovery listener.  Events are printed as they happen, as text or -- with
``--json`` -- as one JSON object per line.  Ctrl-C stops cleanly; the game is
kept on disk and the same command resumes it.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import trio

import protocol as P
from client.bots import bots_for
from client.lifecycle import resigned_line, resume_line
from engine.errors import CardDataError, EngineError
from engine.games import GAMES, rules
from engine.rng import ChanceStream
from netplay import (
    DEFAULT_DATA_DIR,
    Invite,
    InviteError,
    NodeConfig,
    RelayNode,
    StorageError,
    TableNode,
    load_identity_seed,
)
from netplay._discovery import BROADCAST, DISCOVERY_PORT, listen


class NetUsageError(Exception):
    """A network command cannot start; the message says why."""


def _printer(as_json: bool, prefix: str = "") -> Callable[[dict[str, Any]], None]:
    def emit(event: dict[str, Any]) -> None:
        if as_json:
            print(json.dumps(event, sort_keys=True, separators=(",", ":")), flush=True)
        else:
            print(prefix + describe(event), flush=True)

    return emit


def describe(event: dict[str, Any]) -> str:
    """One line of text for a node event."""
    kind = event.get("event")
    if kind == "table_open":
        return f"Table open. Invite your friends with:\n  fairtable join '{event['invite']}'"
    if kind == "joining":
        return "Joining the table..."
    if kind == "lobby":
        return f"{event['seated']} of {event['seats']} seats taken"
    if kind == "seated":
        again = " (resumed)" if event.get("resumed") else ""
        return f"The game starts: you are seat {event['seat']} of {event['players']}{again}"
    if kind == "resuming":
        return resume_line(event)
    if kind == "resigned":
        return resigned_line(event)
    if kind == "waiting":
        return f"Waiting for seat {event['seat']} ({event['seconds']} s)"
    if kind == "abandoned":
        return f"Seat {event['seat']} never came back: the game is abandoned"
    if kind == "verdict":
        who = f"seat {event['seat']}" if event["seat"] is not None else "nobody"
        return f"The game stopped: {who} blamed for {event['kind']} ({event['reason']})"
    if kind == "game_over":
        winner = event["winner"]
        winner = ("nobody" if winner is None
                  else f"seat {winner}" if isinstance(winner, int) else f"team {winner}")
        return f"Game over: winner {winner}; final digest {event['digest'][:16]}"
    if kind == "relay_open":
        return f"Relay listening on port {event['port']} ({event['tables']} tables on disk)"
    if kind == "refused":
        return f"Refused: {event['reason']}"
    return json.dumps(event, sort_keys=True)


def seat_option(game: str, path: str | None) -> Any:
    """What this seat brings from ``--deck PATH`` (checked), or None without one."""
    if path is None:
        return None
    game_rules = rules(game)
    if game_rules.load_seat_option is None:
        raise NetUsageError(f"{game_rules.title} has no custom decks: drop --deck")
    try:
        return game_rules.load_seat_option(path)
    except (CardDataError, EngineError) as exc:
        raise NetUsageError(str(exc)) from None


def _data_dir(args: argparse.Namespace) -> Path:
    return Path(args.data_dir) if args.data_dir else DEFAULT_DATA_DIR


def _identity(data_dir: Path) -> P.Identity:
    try:
        return P.Identity.from_seed(load_identity_seed(data_dir))
    except StorageError as exc:
        raise NetUsageError(str(exc)) from None


def _address(text: str | None) -> tuple[str, int] | None:
    if text is None:
        return None
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise NetUsageError(f"--via takes HOST:PORT, not {text!r}")
    return host, int(port)


def _decider(kind: str | None, seed: bytes,
             game: str) -> Callable[[P.DecisionNeeded], Any] | None:
    if kind is None:
        return None
    known = bots_for(game)
    if kind not in known:
        raise NetUsageError(f"unknown bot {kind!r} (choose from {', '.join(sorted(known))})")
    bot = known[kind](ChanceStream(seed).child("bot"))
    return lambda event: bot.decide(event.view, event.decision)


def _config(args: argparse.Namespace, data_dir: Path, listen: bool) -> NodeConfig:
    return NodeConfig(
        data_dir=data_dir,
        listen_port=(args.port if listen else None),
        listen_host=args.listen_host,
        advertise_host=args.advertise,
        via=_address(args.via),
        seat_timeout=args.seat_timeout,
        abandon_after=args.abandon_after,
        pace=args.pace,
        stats=args.stats,
        round_limit=getattr(args, "round_limit", None),
        fresh=getattr(args, "new", False),
        announce_to=(None if getattr(args, "no_announce", True)
                     else (args.announce_address, args.discovery_port)),
    )


async def _host(args: argparse.Namespace) -> None:
    data_dir = _data_dir(args)
    identity = _identity(data_dir)
    emit = _printer(args.json)
    node = TableNode(_config(args, data_dir, True), identity, seats=args.seats, game=args.game,
                     decider=_decider(args.bot, identity.seed, args.game), emit=emit,
                     brings=seat_option(args.game, args.deck))
    async with trio.open_nursery() as nursery:
        invite = await nursery.start(node.run)
        for index in range(args.bots):
            bot_dir = data_dir / "bots" / str(index)
            bot_identity = _identity(bot_dir)
            config = _config(args, bot_dir, args.via is None)
            config.listen_port = 0 if args.via is None else None
            bot = TableNode(config, bot_identity, invite=invite,
                            decider=_decider("heuristic", bot_identity.seed, args.game))
            nursery.start_soon(bot.run)
        await node.done.wait()


def _invite_game(invite: Invite) -> str:
    """The invite's game, if fairtable plays it."""
    if invite.game not in GAMES:
        raise NetUsageError(f"the invite is for {invite.game!r}; fairtable plays "
                            f"{', '.join(GAMES)}")
    return invite.game


async def _join(args: argparse.Namespace) -> None:
    try:
        invite = Invite.parse(args.invite)
    except InviteError as exc:
        raise NetUsageError(f"not an invite: {exc}") from None
    data_dir = _data_dir(args)
    identity = _identity(data_dir)
    game = _invite_game(invite)
    node = TableNode(_config(args, data_dir, args.via is None), identity, invite=invite,
                     decider=_decider(args.bot, identity.seed, game),
                     emit=_printer(args.json), brings=seat_option(game, args.deck))
    await node.run()


async def _relay(args: argparse.Namespace) -> None:
    data_dir = _data_dir(args)
    relay = RelayNode(data_dir, _identity(data_dir), port=args.port, host=args.listen_host,
                      emit=_printer(args.json))
    await relay.run()


def _screen_config(args: argparse.Namespace, listen: bool) -> dict[str, Any]:
    config = attrs.asdict(_config(args, Path("."), listen))
    del config["data_dir"]
    return config


def run(args: argparse.Namespace) -> int:
    """Entry point for ``host``, ``join`` and ``relay``."""
    from client import play

    if args.command == "host" and args.seats not in rules(args.game).seat_counts:
        raise NetUsageError(f"{rules(args.game).title} is for {rules(args.game).seat_text} players")
    if args.command == "host" and args.round_limit is not None and args.round_limit < 0:
        raise NetUsageError("--round-limit is a number of rounds (0: no limit)")
    if args.command == "host" and not 0 <= args.bots < args.seats:
        raise NetUsageError("--bots must leave the host a seat")
    if args.command == "join" and args.invite is None and args.bot is not None:
        raise NetUsageError("a headless peer needs the invite")
    if args.command in ("host", "join") and args.bot is None:  # a person at the keyboard
        data_dir = _data_dir(args)
        if args.command == "host":
            return play.host_screen(args, data_dir, _screen_config(args, True),
                                    brings=seat_option(args.game, args.deck))
        return play.join_screen(args.invite, data_dir, _screen_config(args, args.via is None),
                                deck=args.deck)
    main = {"host": _host, "join": _join, "relay": _relay}[args.command]
    interrupted = False
    problem: Exception | None = None
    try:
        trio.run(main, args)
    except* KeyboardInterrupt:
        interrupted = True
    except* (StorageError, NetUsageError) as group:
        problem = group.exceptions[0]
    # Everything is on disk and said. The interpreter's last garbage collection would walk
    # every object the game made (a tenth of a second for nothing); frozen objects are skipped.
    gc.freeze()
    if problem is not None:
        raise NetUsageError(str(problem))
    if interrupted:
        print("Stopped. The game is kept; run the same command to resume.", file=sys.stderr)
        return 130
    return 0


def run_tables(args: argparse.Namespace) -> int:
    """``fairtable tables``: what the LAN announces (a hint: you still need the invite)."""
    if args.seconds <= 0:
        raise NetUsageError("--seconds must be positive")

    async def hear() -> list[Any]:
        return await listen(port=args.discovery_port, duration=args.seconds)

    found = trio.run(hear)
    for table in found:
        if args.json:
            print(json.dumps({"game": table.game, "seats": table.seats, "free": table.free,
                              "host": table.host, "port": table.port,
                              "fingerprint": table.fingerprint}, sort_keys=True))
        else:
            print(f"{table.game} at {table.host}:{table.port}: {table.free} of {table.seats} "
                  f"seats free, host {table.fingerprint[:16]} (ask the host for the invite)")
    if not found and not args.json:
        print(f"No tables announced on the LAN in {args.seconds:g} s.")
    return 0


def add_commands(sub: Any) -> None:
    """The network subcommands, for the main parser."""
    def common(p: argparse.ArgumentParser, listen: bool = True) -> None:
        p.add_argument("--data-dir",
                       help=f"where games and keys are kept (default {DEFAULT_DATA_DIR})")
        p.add_argument("--json", action="store_true", help="print events as JSON lines")
        p.add_argument("--listen-host", default="0.0.0.0", help="address to listen on")
        if listen:
            p.add_argument("--via", metavar="HOST:PORT", help="link through this relay")
            p.add_argument("--bot", help="play headless with this bot (random or heuristic)")
            p.add_argument("--deck", metavar="FILE",
                           help="bring a custom deck (Sovereign; docs/cards/sovereign.md)")
            p.add_argument("--advertise", default="127.0.0.1",
                           help="the address others reach this machine at (for the invite)")
            p.add_argument("--seat-timeout", type=float, default=10.0,
                           help="seconds before a silent seat is reported")
            p.add_argument("--abandon-after", type=float, default=120.0,
                           help="seconds of silence after which the game is abandoned")
            p.add_argument("--pace", type=float, default=0.0,
                           help="seconds a bot waits before each decision (default: none)")
            p.add_argument("--stats", action="store_true", help=argparse.SUPPRESS)

    host = sub.add_parser("host", help="open a table on this machine and print its invite")
    host.add_argument("game", choices=GAMES)
    host.add_argument("--seats", type=int, required=True)
    host.add_argument("--port", type=int, default=0, help="port to listen on (default: any)")
    host.add_argument("--bots", type=int, default=0, help="fill this many seats with bots")
    host.add_argument("--no-announce", action="store_true",
                      help="do not announce the table on the LAN")
    host.add_argument("--announce-address", default=BROADCAST,
                      help="where to send LAN announcements (default: broadcast)")
    host.add_argument("--discovery-port", type=int, default=DISCOVERY_PORT)
    host.add_argument("--round-limit", type=int, metavar="N",
                      help="end the game after N rounds (0: none; default: the game's own)")
    host.add_argument("--new", action="store_true",
                      help="open a fresh table even if an unfinished one could go on")
    common(host)
    host.set_defaults(run=run)
    join = sub.add_parser("join", help="take a seat at a table")
    join.add_argument("invite", nargs="?", help="the invite (none: list tables on the LAN)")
    join.add_argument("--port", type=int, default=0, help="port to listen on for other seats")
    common(join)
    join.set_defaults(run=run)
    relay = sub.add_parser("relay", help="run a relay for players who cannot reach each other")
    relay.add_argument("--port", type=int, default=7777)
    common(relay, listen=False)
    relay.set_defaults(run=run)
    tables = sub.add_parser("tables", help="list tables announced on the LAN")
    tables.add_argument("--seconds", type=float, default=3.0, help="how long to listen")
    tables.add_argument("--discovery-port", type=int, default=DISCOVERY_PORT)
    tables.add_argument("--json", action="store_true", help="one JSON line per table")
    tables.set_defaults(run=run_tables)
