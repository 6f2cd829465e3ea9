"""The ``fairtable`` command line: its one entry point, :func:`main`.

The arguments are parsed once into the command's options record (:mod:`client.options`),
which is handed to the command's module; whatever stops a command ends here and is said
on stderr, in one line (folded at words when stderr is a terminal).  ``simulate``,
``audit`` and ``rules`` are run here.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, assert_never

from fairtable.client import netcli, play, replay_cli, watch_cli
from fairtable.client.arguments import build_parser, first_words
from fairtable.client.errors import (
    FileRefused,
    UsageError,
    leaves,
    usable_data_dir,
    user_message,
    write_crash_log,
)
from fairtable.client.options import (
    AuditOptions,
    HostOptions,
    JoinOptions,
    Options,
    PlayOptions,
    RelayOptions,
    ReplayOptions,
    ResumeOptions,
    RulesOptions,
    SimulateOptions,
    TablesOptions,
    WatchOptions,
    from_namespace,
    parse_namespace,
)
from fairtable.client.rules_summary import summary
from fairtable.client.simulate import run_crypto_game, run_game
from fairtable.client.text_rows import said_on, terminal_width
from fairtable.engine.outcome import team_display

__all__ = ["build_parser", "main"]


def _simulate(o: SimulateOptions) -> int:
    bots = list(o.bots)
    wins: dict[str, int] = {}
    for index in range(o.games):
        seed = o.seed + index
        if o.crypto:
            result, (spec, sessions) = run_crypto_game(
                o.game,
                o.players,
                seed,
                bots,
                cheat=o.cheat,
                cheater=o.cheater,
                departures=dict(o.departures),
                vanishings=dict(o.vanishings),
            )
            if o.log:
                _save_logs(o.log, o.game, seed, spec, sessions, o.cheater)
        else:
            result = run_game(o.game, o.players, seed, bots)
        if o.json:
            print(json.dumps(result, sort_keys=True, separators=(",", ":")), flush=True)
        else:
            print(_describe(index, result, bots))
        key = "none" if result["winner"] is None else str(result["winner"])
        wins[key] = wins.get(key, 0) + 1
    if not o.json and o.games > 1:
        tally = ", ".join(f"{_winner_name(k)}: {v}" for k, v in sorted(wins.items()))
        print(f"wins -- {tally}")
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
        who = f"team {team_display(winner)}"
    gone = result.get("vanished", ())
    extra = "".join(
        f", seat {seat} {'vanished' if seat in gone else 'left'}"
        for seat in result.get("departed", ())
    )
    if "messages" in result:
        extra += f", {result['messages']} messages, {result['bytes']} bytes"
    return (
        f"{head}, {result['rounds']} rounds, {result['decisions']} decisions, winner {who}"
        f"{extra}, digest {result['digest'][:16]}"
    )


def _winner_name(key: str) -> str:
    if key.isdigit():
        return f"seat {key}"
    return "nobody" if key == "none" else f"team {team_display(key)}"


def _save_logs(
    folder: str, game: str, seed: int, spec: Any, sessions: list[Any], cheater: int | None
) -> None:
    from fairtable.protocol import write_log

    root = Path(folder)
    try:
        root.mkdir(parents=True, exist_ok=True)
        for session in sessions:
            name = root / f"{game}-seed{seed}-seat{session.seat}.log"
            name.write_bytes(write_log(spec, session.entries()))
    except OSError as exc:
        raise UsageError(f"cannot write logs to {folder}: {exc.strerror}") from None


def _audit(options: AuditOptions) -> int:
    """Audit a log written by ``simulate --log``, or the table a peer (a seat or a relay)
    keeps in its data directory: its folder ``tables/<id>`` / ``relay/<id>``, or the ``log``
    in it."""
    from fairtable.client.seat_names import SeatNames
    from fairtable.client.table_ref import table_path
    from fairtable.client.text_rows import verdict_rows
    from fairtable.netplay import StorageError, saved_table
    from fairtable.protocol import ClockEnd, ClockNotice, LogError, audit_log, read_log

    path = table_path(options.logfile, options.data_dir)
    note = ""
    names: tuple[str, ...] = ()  # a seat's saved table has its players' names; a log has none
    notices: tuple[ClockNotice, ...] = ()  # and the signed words that a clock ended it
    claimed: ClockEnd | None = None  # and a seat's own, unsigned, that one did
    try:
        text_log = path.is_file() and path.read_bytes()[:1] == b"{"
        if text_log:
            spec, entries = read_log(path.read_bytes())
        else:
            saved = saved_table(path)
            spec, entries, names = saved.spec, saved.entries, saved.names
            notices, claimed = saved.notices, saved.clock_end
            if saved.torn:
                note = f" ({saved.torn} bytes from a torn or damaged record on left unread)"
    except OSError as exc:
        raise FileRefused(f"cannot read {options.logfile}: {exc.strerror}") from None
    except LogError as exc:
        raise FileRefused(f"{options.logfile}: {exc}") from None
    except StorageError as exc:
        raise FileRefused(str(exc)) from None
    result = audit_log(spec, entries, notices=notices, claimed=claimed)
    if options.json:
        print(
            json.dumps(
                {
                    "ok": result.ok,
                    "summary": result.summary,
                    "winner": None if result.outcome is None else result.outcome.plain(),
                    "digest": result.digest,
                    "blamed": result.blamed,
                    "resigned": result.resigned,
                    "unchecked": result.unchecked,
                    "partial": result.partial,
                },
                sort_keys=True,
            )
        )
    else:
        summary = SeatNames(names).text(result.summary)  # "winner Ann", as the log says
        # the terminal's width, a path never broken
        verdict = (
            "OK"
            if result.ok
            else "UNCHECKED"
            if result.unchecked
            else "PARTIAL"
            if result.partial
            else "FAILED"
        )
        rows = verdict_rows(verdict, options.logfile, summary + note, terminal_width())
        print("\n".join(rows))
    return 0 if result.ok else 1


_DATA_DIR_MADE = ("play", "host", "join", "relay")
"""Commands that keep games or keys: their data directory must be usable before they start."""


def _start(options: Options) -> int:
    if _mono(options):
        import os

        os.environ["NO_COLOR"] = "1"  # prompt_toolkit then draws without colour
    folder = _data_dir(options)
    if folder is not None:
        usable_data_dir(folder, create=options.command in _DATA_DIR_MADE)
    return _run(options)


def _run(options: Options) -> int:
    """The command's own run, handed its options record."""
    match options:
        case SimulateOptions():
            return _simulate(options)
        case AuditOptions():
            return _audit(options)
        case RulesOptions():
            print(summary(options.game))
            return 0
        case PlayOptions():
            return play.run_play(options)
        case ResumeOptions():
            return play.run_resume(options)
        case HostOptions() | JoinOptions() | RelayOptions():
            return netcli.run(options)
        case TablesOptions():
            return netcli.run_tables(options)
        case WatchOptions():
            return watch_cli.run_watch(options)
        case ReplayOptions():
            return replay_cli.run_replay(options)
    assert_never(options)


def _data_dir(options: Options | None) -> Path | None:
    """The data directory the command keeps games or keys in, if it has one."""
    match options:
        case PlayOptions() | ResumeOptions() | RelayOptions():
            return options.data_dir
        case HostOptions() | JoinOptions():
            return options.peer.data_dir
    return None


def _mono(options: Options) -> bool:
    """Whether the screen is to be drawn without colours (``--mono``)."""
    match options:
        case PlayOptions() | ResumeOptions() | ReplayOptions():
            return options.mono
        case HostOptions() | JoinOptions():
            return options.peer.mono
    return False


def _listening(options: Options | None) -> str:
    """Where the command listens, as its options say (for "cannot listen on ...")."""
    host, port = "127.0.0.1", 0
    match options:
        case TablesOptions():
            return f"UDP port {options.discovery_port}"
        case HostOptions() | JoinOptions():
            host, port = options.peer.listen_host, options.peer.port
        case RelayOptions():
            host, port = options.listen_host, options.port
    return f"{host}:{port}" if port else f"{host} (any port)"


def _reader_gone() -> int:
    """Whoever read our output went away (``fairtable simulate ... | head``): stop quietly,
    as a command killed by SIGPIPE does (nobody is left to read a message)."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # the interpreter's last flush must not fail again
    return 141


def _failed(exc: BaseException, command: str, options: Options | None) -> int:
    """Say why the command stopped (:func:`say_error`); a bug's traceback goes to a crash
    log."""
    from fairtable.netplay import DEFAULT_DATA_DIR, InviteError, PortBusy, StorageError

    found = leaves(exc)
    if any(isinstance(leaf, KeyboardInterrupt) for leaf in found):
        return 130
    if found and all(isinstance(leaf, BrokenPipeError) for leaf in found):
        return _reader_gone()
    known = (UsageError, StorageError, InviteError, PortBusy)
    text = user_message(exc, known, _listening(options))
    if text is not None:
        say_error(f"fairtable: {text}")
        return 1 if any(isinstance(leaf, FileRefused) for leaf in found) else 2
    folder = _data_dir(options) or DEFAULT_DATA_DIR
    try:
        log = write_crash_log(exc, folder, command)
        where = f"the details are in {log}"
    except OSError:
        where = "no crash log could be written"
    name = type(found[0]).__name__ if found else type(exc).__name__
    say_error(f"fairtable: {command} stopped on an unexpected error ({name}); {where}")
    return 70


def say_error(text: str) -> None:
    """Say why a command stopped on stderr.  A message is one line, but for one that shows a
    command to type (``fairtable watch '...'``): that has a line of its own, to be copied
    whole.  On a terminal the message is folded at words to its width
    (:func:`client.text_rows.fold`: a path or an invite never broken); elsewhere (a log, a
    script reading it) it is never folded, so a script finds each line as it was written."""
    print(said_on(sys.stderr, text), file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; whatever stops it is said on stderr, in one line (folded at words
    on a terminal; a command to type on a line of its own: :func:`say_error`), exit code 2
    for something the user can fix, 70 for a bug, with its traceback in a crash log."""
    if not (sys.argv[1:] if argv is None else argv):  # bare ``fairtable``: how to begin
        print(first_words())
        return 0
    args = parse_namespace(argv)  # argparse's own refusals exit 2 here
    command: str = args.command
    options: Options | None = None
    try:
        options = from_namespace(args)  # the command's record: nothing past here sees args
        return _start(options)
    except (SystemExit, GeneratorExit):
        raise
    except BaseException as exc:  # noqa: BLE001 -- the one place every error ends up
        return _failed(exc, command, options)


if __name__ == "__main__":
    sys.exit(main())
