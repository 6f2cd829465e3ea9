"""The ``fairtable`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from client import netcli, play, replay_cli, rules_summary, watch_cli
from client.errors import (
    FileRefused,
    UsageError,
    leaves,
    usable_data_dir,
    user_message,
    write_crash_log,
)
from client.games import bot_maker
from client.rules_summary import game_name
from client.simulate import run_crypto_game, run_game
from engine.games import entry, game_names, rules
from protocol.testing import CHEATS


def _bot_list(text: str | None, players: int, game: str) -> list[str]:
    if text is None:
        return ["random"] * players
    kinds = [k.strip() for k in text.split(",")]
    if len(kinds) != players:
        raise UsageError(f"--bots names {len(kinds)} bots but the table has {players} seats")
    for kind in kinds:
        try:
            bot_maker(game, kind)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    return kinds


def _players(game: str, players: int | None) -> int:
    """The seat count asked for (or the game's usual one), refused unless the game allows it."""
    if players is None:
        return entry(game).default_seats
    if players not in rules(game).seat_counts:
        raise UsageError(f"{rules(game).title} is for {rules(game).seat_text} players")
    return players


def _simulate(args: argparse.Namespace) -> int:
    args.players = _players(args.game, args.players)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.seed < 0:
        raise UsageError("--seed must be a non-negative integer")
    bots = _bot_list(args.bots, args.players, args.game)
    if (args.cheat or args.cheater is not None or args.log) and not args.crypto:
        raise UsageError("--cheat, --cheater and --log need --crypto")
    if args.cheat and args.cheater is None:
        raise UsageError("--cheat needs --cheater SEAT")
    if args.cheater is not None and not 0 <= args.cheater < args.players:
        raise UsageError(f"--cheater must be a seat from 0 to {args.players - 1}")
    if args.cheater is not None and not args.cheat:
        raise UsageError("--cheater needs --cheat KIND")
    wins: dict[str, int] = {}
    for index in range(args.games):
        seed = args.seed + index
        if args.crypto:
            result, (spec, sessions) = run_crypto_game(
                args.game, args.players, seed, bots, cheat=args.cheat, cheater=args.cheater
            )
            if args.log:
                _save_logs(args.log, args.game, seed, spec, sessions, args.cheater)
        else:
            result = run_game(args.game, args.players, seed, bots)
        if args.json:
            print(json.dumps(result, sort_keys=True, separators=(",", ":")), flush=True)
        else:
            print(_describe(index, result, bots))
        key = "none" if result["winner"] is None else str(result["winner"])
        wins[key] = wins.get(key, 0) + 1
    if not args.json and args.games > 1:
        summary = ", ".join(f"{_winner_name(k)}: {v}" for k, v in sorted(wins.items()))
        print(f"wins -- {summary}")
    return 0


def _describe(index: int, result: dict[str, Any], bots: list[str]) -> str:
    head = f"game {index + 1}: seed {result['seed']}"
    if "verdict" in result:
        v = result["verdict"]
        who = f"seat {v['seat']}" if v["seat"] is not None else "nobody"
        return f"{head}, stopped: {who} blamed for {v['kind']}"
    winner = result["winner"]
    if winner is None:
        who = "nobody"
    elif isinstance(winner, int):
        who = f"seat {winner} ({bots[winner]})"
    else:
        who = f"team {winner}"
    extra = ""
    if "messages" in result:
        extra = f", {result['messages']} messages, {result['bytes']} bytes"
    return (
        f"{head}, {result['rounds']} rounds, {result['decisions']} decisions, winner {who}"
        f"{extra}, digest {result['digest'][:16]}"
    )


def _winner_name(key: str) -> str:
    return f"seat {key}" if key.isdigit() else ("nobody" if key == "none" else f"team {key}")


def _save_logs(
    folder: str, game: str, seed: int, spec: Any, sessions: list[Any], cheater: int | None
) -> None:
    from protocol import write_log

    root = Path(folder)
    try:
        root.mkdir(parents=True, exist_ok=True)
        for session in sessions:
            name = root / f"{game}-seed{seed}-seat{session.seat}.log"
            name.write_bytes(write_log(spec, session.entries()))
    except OSError as exc:
        raise UsageError(f"cannot write logs to {folder}: {exc.strerror}") from None


def _audit(args: argparse.Namespace) -> int:
    """Audit a log written by ``simulate --log``, or the table a peer (a seat or a relay)
    keeps in its data directory: its folder ``tables/<id>`` / ``relay/<id>``, or the ``log``
    in it."""
    from netplay import StorageError, saved_table
    from protocol import LogError, audit_log, read_log

    path = Path(args.logfile)
    note = ""
    try:
        text_log = path.is_file() and path.read_bytes()[:1] == b"{"
        if text_log:
            spec, entries = read_log(path.read_bytes())
        else:
            saved = saved_table(path)
            spec, entries = saved.spec, saved.entries
            if saved.torn:
                note = f" ({saved.torn} bytes from a torn or damaged record on left unread)"
    except OSError as exc:
        raise FileRefused(f"cannot read {args.logfile}: {exc.strerror}") from None
    except LogError as exc:
        raise FileRefused(f"{args.logfile}: {exc}") from None
    except StorageError as exc:
        raise FileRefused(str(exc)) from None
    result = audit_log(spec, entries)
    if args.json:
        print(
            json.dumps(
                {
                    "ok": result.ok,
                    "summary": result.summary,
                    "winner": None if result.outcome is None else result.outcome.plain(),
                    "digest": result.digest,
                    "blamed": result.blamed,
                    "resigned": result.resigned,
                },
                sort_keys=True,
            )
        )
    else:
        print(("OK " if result.ok else "FAILED ") + f"{args.logfile}: {result.summary}{note}")
    return 0 if result.ok else 1


class _Parser(argparse.ArgumentParser):
    """argparse, with its complaints in one line like every other refusal."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"fairtable: {message} (see '{self.prog} --help')\n")


def _version() -> str:
    """The installed package's version (a source tree that was never installed: unknown)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fairtable")
    except PackageNotFoundError:
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="fairtable",
        description="Play hidden-information tabletop games with friends, with nobody to trust.",
    )
    parser.add_argument("--version", action="version", version=f"fairtable {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
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
    sim.add_argument("--cheat", choices=CHEATS, help="with --crypto: one peer cheats this way")
    sim.add_argument("--cheater", type=int, metavar="SEAT", help="the seat that cheats")
    sim.set_defaults(run=_simulate)
    aud = sub.add_parser(
        "audit",
        help="check a saved table log end to end (a simulate --log "
        "file, or a peer's table folder under its data directory)",
    )
    aud.add_argument("logfile")
    aud.add_argument("--json", action="store_true", help="print the result as one JSON line")
    aud.set_defaults(run=_audit)
    netcli.add_commands(sub)
    rules_summary.add_command(sub)
    play.add_commands(sub)
    replay_cli.add_commands(sub)
    watch_cli.add_commands(sub)
    for name in SCREEN_COMMANDS:  # every command that may open the console screen
        if name in sub.choices:
            sub.choices[name].add_argument(
                "--mono",
                action="store_true",
                help="no colours on the screen (as the NO_COLOR environment variable does)",
            )
    return parser


SCREEN_COMMANDS = ("play", "resume", "host", "join", "replay")


_DATA_DIR_MADE = ("play", "host", "join", "relay")
"""Commands that keep games or keys: their data directory must be usable before they start."""


def _start(args: argparse.Namespace) -> int:
    if getattr(args, "mono", False):
        import os

        os.environ["NO_COLOR"] = "1"  # prompt_toolkit then draws without colour
    if hasattr(args, "data_dir"):
        from netplay import DEFAULT_DATA_DIR

        folder = Path(args.data_dir) if args.data_dir else DEFAULT_DATA_DIR
        usable_data_dir(folder, create=args.command in _DATA_DIR_MADE)
    return int(args.run(args))


def _listening(args: argparse.Namespace) -> str:
    """Where the command listens, as its options say (for "cannot listen on ...")."""
    if args.command == "tables":
        return f"UDP port {args.discovery_port}"
    host, port = getattr(args, "listen_host", "127.0.0.1"), getattr(args, "port", 0)
    return f"{host}:{port}" if port else f"{host} (any port)"


def _reader_gone() -> int:
    """Whoever read our output went away (``fairtable simulate ... | head``): stop quietly,
    as a command killed by SIGPIPE does (nobody is left to read a message)."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # the interpreter's last flush must not fail again
    return 141


def _failed(exc: BaseException, args: argparse.Namespace) -> int:
    """Say in one line why the command stopped; a bug's traceback goes to a crash log."""
    from netplay import DEFAULT_DATA_DIR, InviteError, StorageError

    found = leaves(exc)
    if any(isinstance(leaf, KeyboardInterrupt) for leaf in found):
        return 130
    if found and all(isinstance(leaf, BrokenPipeError) for leaf in found):
        return _reader_gone()
    text = user_message(exc, (UsageError, StorageError, InviteError), _listening(args))
    if text is not None:
        print(f"fairtable: {text}", file=sys.stderr)
        return 1 if any(isinstance(leaf, FileRefused) for leaf in found) else 2
    folder = Path(getattr(args, "data_dir", None) or DEFAULT_DATA_DIR)
    try:
        log = write_crash_log(exc, folder, args.command)
        where = f"the details are in {log}"
    except OSError:
        where = "no crash log could be written"
    name = type(found[0]).__name__ if found else type(exc).__name__
    print(
        f"fairtable: {args.command} stopped on an unexpected error ({name}); {where}",
        file=sys.stderr,
    )
    return 70


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; whatever stops it is said in one line on stderr (exit code 2 for
    something the user can fix, 70 for a bug, with its traceback in a crash log)."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the command's own parser, so the hint names its own --help
        commands = next(
            a
            for a in parser._actions  # noqa: SLF001 -- argparse's own list
            if isinstance(a, argparse._SubParsersAction)
        )  # noqa: SLF001
        commands.choices[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return _start(args)
    except (SystemExit, GeneratorExit):
        raise
    except BaseException as exc:  # noqa: BLE001 -- the one place every error ends up
        return _failed(exc, args)


if __name__ == "__main__":
    sys.exit(main())
