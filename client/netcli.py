"""The network commands: ``host``, ``join``, ``relay`` and ``tables``.

Each runs one trio program: a :class:`~netplay.TableNode` (plus, for ``host
--bots K``, K bot peers joining over loopback), a :class:`~netplay.RelayNode`,
or a discovery listener.  Events are printed as they happen, as text or -- with
``--json`` -- as one JSON object per line.  Ctrl-C stops cleanly; the game is
kept on disk and the same command resumes it.
"""

from __future__ import annotations

import contextlib
import gc
import json
import sys
from pathlib import Path
from typing import Any

import attrs
import trio

from fairtable.client.bot_seats import bot_name, decider, headless_bot_name
from fairtable.client.clock_words import limits_words
from fairtable.client.ending import staying_line
from fairtable.client.errors import UsageError, reach_line, watch_instead
from fairtable.client.leavers_words import leavers_line, leavers_short
from fairtable.client.lifecycle import (
    code_news,
    departed_line,
    join_lines,
    resigned_line,
    resume_line,
    vanishing_line,
)
from fairtable.client.options import HostOptions, JoinOptions, RelayOptions, TablesOptions
from fairtable.client.seat_names import SeatNames, at_the_table, host_words
from fairtable.client.seats import (
    bot_folder,
    identity_at,
    invite_or_saved,
    keep_code,
    seat_option,
)
from fairtable.client.table_options import TableOptions
from fairtable.client.text_rows import fold, said_on
from fairtable.engine.games import entry, game_names
from fairtable.engine.rng import ChanceStream
from fairtable.netplay import (
    NO_SEAT_LEFT,
    Decider,
    Emit,
    GameOpenElsewhere,
    Invite,
    NodeEvent,
    RelayNode,
    TableNode,
    claim_seat,
    event_json,
    event_line,
    hold_game,
    listen,
)
from fairtable.netplay import events as ev


def _printer(as_json: bool, prefix: str = "") -> Emit:
    names = [SeatNames()]  # the players' names, once seated: lines call seats by them, and
    # our own seat "you", as the screen does (client.seat_names)
    held: list[NodeEvent] = []  # a link refused before we are seated: said unless explained

    def emit(event: NodeEvent) -> None:
        if isinstance(event, ev.Seated):
            names[0] = SeatNames(event.names, you=event.seat)
        if as_json:
            print(event_line(event), flush=True)
            return
        if held and not isinstance(event, ev.Refused):  # no clearer line followed it
            say(held.pop())
        held.clear()
        if isinstance(event, ev.LinkRefused) and not seated:
            held.append(event)  # the table's refusal, in words, usually comes next
        elif not isinstance(event, ev.ClockReadings | ev.StepDone | ev.Asked):  # for --json only
            say(event)
        if isinstance(event, ev.Seated):
            seated.append(True)

    def say(event: NodeEvent) -> None:  # at words, to the terminal's width
        print(fold(prefix + names[0].text(describe(event))), flush=True)

    seated: list[bool] = []

    return emit


def describe(event: NodeEvent) -> str:
    """One line of text for a node event."""
    match event:
        case ev.BotThinking():
            return f"seat {event.seat} is thinking: {event.seconds:.1f} s, {event.worlds} worlds"
        case ev.TableOpen():
            via = f" --via {event.code_via}" if event.code_via else ""
            text = f"Table open. Invite your friends with:\n  fairtable join '{event.invite}'{via}"
            lines = join_lines(event.code or "", event.code_via or "", event.code_lan is not False)
            if lines:
                text += "\nor with the code:\n" + "\n".join("  " + line for line in lines)
            return text + "\n" + leavers_line(event.leavers)
        case (
            ev.NoLanAddress()
            | ev.WrongJoinCode()
            | ev.JoinCodeRetired()
            | ev.JoinCodeUsed()
            | ev.RelayCodeGone()
        ):
            return code_news(event)
        case ev.Joining():
            return "Joining the table...\n" + leavers_line(event.leavers)
        case ev.LobbyUpdate():
            return f"{event.seated} of {event.seats} seats taken"
        case ev.Seated():
            again = " (resumed)" if event.resumed else ""
            limits = limits_words(event.clock)
            names = SeatNames(event.names)  # as the others' screens call us ("ada 2")
            mine = names.label(event.seat) if names.named(event.seat) else ""
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
            return resume_line(event)
        case ev.Resigned():
            return resigned_line(event)
        case ev.Departed():
            return departed_line(event)
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
        case ev.Vanishing():
            return vanishing_line(event)
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
            pin = f"; hosts pin it with:\n  --via-key {event.key}" if event.key else ""
            return (  # the key on a line of its own, whole: hosts copy it
                f"Relay listening on port {event.port} ({event.tables} tables on disk{gone}){pin}"
            )
        case ev.Refused():
            return f"Refused: {event.reason}"
        case ev.LinkRefused():
            return f"Link refused: {event.reason}"
        case ev.Unreachable():
            return reach_line(event)
    return json.dumps(event_json(event), sort_keys=True)


def _decider(kind: str | None, seed: bytes, game: str, emit: Emit | None = None) -> Decider | None:
    """The ``--bot`` seat's decider (a search bot tells ``emit`` how its thinking goes)."""
    if kind is None:
        return None
    try:
        return decider(game, kind, ChanceStream(seed).child("bot"), emit)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


async def _host(o: HostOptions) -> None:
    data_dir = o.peer.data_dir
    identity = identity_at(data_dir)
    emit = _printer(o.peer.json)
    options = TableOptions.for_host(o)
    if o.peer.bot is not None and not o.peer.name:  # named as play names its bots
        options = attrs.evolve(options, name=bot_name(o.bots, o.peer.bot))
    node = TableNode(
        options.node_config(data_dir),
        identity,
        seats=o.seats,
        game=o.game,
        decider=_decider(o.peer.bot, identity.seed, o.game, emit),
        emit=emit,
        brings=seat_option(o.game, o.peer.deck),
    )
    with contextlib.ExitStack() as held:  # the table we host, held while we play it
        async with trio.open_nursery() as nursery:
            invite = await nursery.start(node.run)
            with contextlib.suppress(GameOpenElsewhere):  # as the screen holds it
                held.enter_context(hold_game(data_dir, invite.lobby_id))
            for index in range(o.bots):
                bot_dir = bot_folder(data_dir, invite.lobby_id, index)
                bot_identity = identity_at(bot_dir)
                spec = entry(o.game).default_bot
                bot_options = attrs.evolve(
                    options,
                    listen_port=0 if o.peer.via is None else None,
                    name=bot_name(index, spec),  # a seat of its own: "Ada (heuristic)"
                )
                bot = TableNode(
                    bot_options.node_config(bot_dir),
                    bot_identity,
                    invite=invite,
                    decider=_decider(spec, bot_identity.seed, o.game),
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


async def _join(o: JoinOptions) -> None:
    assert o.invite is not None  # a headless joiner has one (client.options checks it)
    invite = await invite_or_saved(
        o.invite, o.peer.discovery_port, o.peer.data_dir, o.peer.via, o.peer.via_key
    )
    game = _invite_game(invite)
    with claim_seat(o.peer.data_dir, invite) as seat:  # our own seat, if we host or sit here
        keep_code(seat.data_dir, invite, o.invite)
        await _join_from(o, invite, game, seat.data_dir)


async def _join_from(o: JoinOptions, invite: Invite, game: str, data_dir: Path) -> None:
    identity = identity_at(data_dir)
    contact = _Contact(_printer(o.peer.json), says_refusal=o.peer.json)
    options = TableOptions.for_join(o)
    if o.peer.bot is not None and not o.peer.name:  # "Greta (hard)", as play names its bots
        options = attrs.evolve(options, name=headless_bot_name(identity.public.key, o.peer.bot))
    node = TableNode(
        options.node_config(data_dir),
        identity,
        invite=invite,
        decider=_decider(o.peer.bot, identity.seed, game, contact.emit),
        emit=contact.emit,
        brings=seat_option(game, o.peer.deck),
    )
    async with trio.open_nursery() as nursery:
        nursery.start_soon(node.run)
        with trio.move_on_after(o.give_up_after):
            await contact.reached.wait()
        if not contact.reached.is_set():
            raise UsageError(f"gave up after {o.give_up_after:g} s: {contact.last}")
        await node.done.wait()
    if node.session is None:  # the node stopped without a seat: the table said why
        if contact.no_seat_left:  # two lines that fit a terminal
            watch = watch_instead(invite.text(), o.peer.via)
            raise UsageError(f"no seat at this table:\n  {contact.refused};\n  {watch}")
        raise UsageError(f"no seat at this table: {contact.refused or 'the table closed'}")


class _Contact:
    """What a headless joiner heard before its first contact with the table: the last
    failure to reach it, a refusal, and whether the table answered at all."""

    def __init__(self, emit: Emit, *, says_refusal: bool) -> None:
        """``says_refusal``: pass a refusal on to ``emit`` (a text line would say it twice:
        the command ends with it)."""
        self._emit = emit
        self._says_refusal = says_refusal
        self.reached = trio.Event()
        self.last = "the table never answered"
        self.refused: str | None = None
        self.no_seat_left = False  # the game started with every seat taken

    def emit(self, event: NodeEvent) -> None:
        if isinstance(event, ev.LinkRefused) and event.reason == NO_SEAT_LEFT:
            self.no_seat_left = True
        if isinstance(event, ev.Unreachable) and not self.reached.is_set():
            self.last = f"cannot reach {event.address}: {event.why}"
        elif isinstance(event, ev.LobbyUpdate | ev.Seated | ev.Refused):
            self.reached.set()
            if isinstance(event, ev.Refused):
                self.refused = event.reason
                if not self._says_refusal:
                    return
        self._emit(event)


async def _relay(o: RelayOptions) -> None:
    relay = RelayNode(
        o.data_dir,
        identity_at(o.data_dir),
        port=o.port,
        host=o.listen_host,
        emit=_printer(o.json),
    )
    await relay.run()


def run(options: HostOptions | JoinOptions | RelayOptions) -> int:
    """Entry point for ``host``, ``join`` and ``relay``."""
    from fairtable.client import play

    match options:
        case HostOptions() if options.peer.bot is None:  # a person at the keyboard
            return play.host_screen(options)
        case JoinOptions() if options.peer.bot is None:
            return play.join_screen(options)
    interrupted = False
    try:
        trio.run(_headless, options)  # any other error (a group, from trio) is cli.main's to say
    except* KeyboardInterrupt:
        interrupted = True
    # Everything is on disk and said. The interpreter's last garbage collection would walk
    # every object the game made (a tenth of a second for nothing); frozen objects are skipped.
    gc.freeze()
    if interrupted:
        print(said_on(sys.stderr, stopped_line(options)), file=sys.stderr)
        return 130
    return 0


def stopped_line(options: HostOptions | JoinOptions | RelayOptions) -> str:
    """What Ctrl-C leaves behind, said once the command stopped."""
    if isinstance(options, RelayOptions):
        return (
            "Relay stopped. The tables it holds are kept on disk; the same command serves "
            "them again."
        )
    return "Stopped. The game is kept; run the same command to resume."


async def _headless(options: HostOptions | JoinOptions | RelayOptions) -> None:
    """A host or joiner with its bot, or the relay: no screen, events said as lines."""
    match options:
        case HostOptions():
            await _host(options)
        case JoinOptions():
            await _join(options)
        case RelayOptions():
            await _relay(options)


def run_tables(options: TablesOptions) -> int:
    """``fairtable tables``: what the LAN announces (a hint: you still need the invite)."""

    async def hear() -> list[Any]:
        return await listen(port=options.discovery_port, duration=options.seconds)

    found = trio.run(hear)
    for table in found:
        if options.json:
            print(
                json.dumps(
                    {
                        "leavers": table.leavers.value,
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
            host = host_words(table.name, table.fingerprint)
            print(
                fold(
                    f"{table.game} at {table.host}:{table.port}: {table.free} of {table.seats} "
                    f"seats free, host {host}; {leavers_short(table.leavers)} ({_ask(table)})"
                )
            )
    if not found and not options.json:
        print(f"No tables announced on the LAN in {options.seconds:g} s.")
    return 0


def _ask(table: Any) -> str:
    """What to ask the host of an announced table for."""
    if table.code is None:
        return "ask the host for the invite"
    return f"join code {table.code}-...: ask the host for its words, or for the invite"
