"""The join-code exchange over TCP (trio): the host's small code listener, the joiner's fetch.

Thin around :mod:`netplay.lan._joincode`: each message is one frame
(``netplay.links._frames``, at most :data:`~netplay.lan._joincode.MAX_MESSAGE` bytes).  The host
serves its code on a port of its own (announced beside the code's number,
:mod:`netplay.lan._discovery`), so the link handshake on the table's port is untouched.  A
connection has :data:`EXCHANGE_TIMEOUT` seconds for the whole exchange, and at most
:data:`MAX_EXCHANGES` run at once (more are told "busy").

* :func:`serve_code` -- the host's listener, reporting what happens as plain events;
* :func:`announce_table` -- a fresh code for a host's table, served and announced on the LAN;
* :func:`invite_by_code` -- the joiner: hear the table's number announced on the LAN, run the
  exchange with that host, and return its invite (to be used exactly like a typed one).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

import attrs
import trio

from .. import events as ev
from ..links import FrameReader, encode_frame
from ..table import Invite
from ._discovery import BROADCAST, DISCOVERY_PORT, Announcement, announce, open_listener
from ._joincode import (
    BUSY,
    MAX_MESSAGE,
    RETIRED,
    WRONG,
    CodeExchangeError,
    CodeHost,
    CodeJoiner,
    CodeRefused,
    CodeRetired,
    InviteHanded,
    JoinCode,
    Refused,
    WrongCodeTried,
)
from ._lanaddress import broadcast_addresses, local_interfaces

__all__ = [
    "EXCHANGE_TIMEOUT",
    "MAX_EXCHANGES",
    "CodeNotFound",
    "announce_table",
    "invite_by_code",
    "report",
    "serve_code",
]

log = logging.getLogger("fairtable.netplay.joincode")

EXCHANGE_TIMEOUT = 5.0
MAX_EXCHANGES = 8
CANDIDATES_MAX = 8  # tables announcing our code's number that we try (anyone can announce)
RECORD_MAX = 256  # datagrams a Recorded keeps

Emit = ev.Emit


class CodeNotFound(Exception):
    """No table with the code's number was heard on the LAN (or held at the relay asked)."""

    def __init__(self, where: str = "on the LAN") -> None:
        super().__init__(f"no table with that code {where}")


async def _frames(stream: trio.SocketStream, reader: FrameReader) -> bytes:
    """The next frame from ``stream``; CodeExchangeError if it ends first."""
    while True:
        data = await stream.receive_some(4096)
        if not data:
            raise CodeExchangeError("the other end hung up")
        try:
            frames = reader.feed(data)
        except Exception:  # noqa: BLE001 -- an oversized frame: the stream is unusable
            raise CodeExchangeError("oversize") from None
        if frames:
            if len(frames) > 1 or not reader.at_boundary:
                raise CodeExchangeError("one message at a time")
            return frames[0]


async def serve_code(
    host: CodeHost,
    *,
    listen_host: str,
    emit: Emit,
    port: int = 0,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve ``host``'s code on ``listen_host:port`` until cancelled; started with the port."""
    listeners = await trio.open_tcp_listeners(port, host=listen_host)
    running = [0]

    async def handle(stream: trio.SocketStream) -> None:
        async with stream:
            if running[0] >= MAX_EXCHANGES:
                with trio.move_on_after(0.5):
                    await stream.send_all(encode_frame(Refused(BUSY).to_bytes()))
                return
            running[0] += 1
            try:
                await _exchange(host, stream, emit)
            finally:
                running[0] -= 1

    task_status.started(int(listeners[0].socket.getsockname()[1]))
    await trio.serve_listeners(handle, listeners)


async def _exchange(host: CodeHost, stream: trio.SocketStream, emit: Emit) -> None:
    exchange = host.exchange()
    reader = FrameReader(MAX_MESSAGE)
    with trio.move_on_after(EXCHANGE_TIMEOUT):
        try:
            while not exchange.finished:
                reply, event = exchange.receive(await _frames(stream, reader))
                report(event, emit)  # said before the joiner hears it
                await stream.send_all(encode_frame(reply))
        except (CodeExchangeError, trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            log.debug("code exchange ended: %s", exc)


def report(event: object, emit: Emit) -> None:
    """Tell the client what a host exchange's event means."""
    if isinstance(event, WrongCodeTried):
        emit(ev.WrongJoinCode(event.failures, event.limit))
    elif isinstance(event, CodeRetired):
        emit(ev.JoinCodeRetired(event.failures))
    elif isinstance(event, InviteHanded):
        emit(ev.JoinCodeUsed())


def _reachable_at(listen_host: str) -> str:
    """The ``host`` an announcement names for a code served on ``listen_host``: ``""`` (the
    datagram's source address) when it listens on every address, else that address -- a
    host listening on loopback alone is reached there, not at the LAN address its
    broadcast leaves from."""
    return "" if listen_host in ("", "0.0.0.0", "::") else listen_host


async def announce_table(
    invite: Invite,
    free: Callable[[], int],
    *,
    listen_host: str,
    address: str,
    port: int,
    emit: Emit,
    interval: float = 1.0,
    name: str = "",
    host: CodeHost | None = None,
    task_status: trio.TaskStatus[JoinCode] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve a join code for ``invite``'s table and announce the table (with the code's
    number) until cancelled; started with the code.  ``host``: the code to serve (one the
    relay serves too), else a fresh one.

    To the default broadcast address the announcement also goes to each LAN interface's own
    broadcast address (a machine without a default route cannot broadcast otherwise).
    """
    destinations = [address]
    if address == BROADCAST:
        destinations += broadcast_addresses(local_interfaces())
    host = host or CodeHost(JoinCode.generate(), invite.text())
    code = host.code
    async with trio.open_nursery() as nursery:
        code_port = await nursery.start(
            partial(serve_code, host, listen_host=listen_host, emit=emit)
        )
        task_status.started(code)

        def summary() -> Announcement:
            return Announcement.from_invite(
                invite,
                free=free(),
                host=_reachable_at(listen_host),
                code=code.number,
                code_port=code_port,
                name=name,
            )

        await announce(summary, port=port, address=destinations, interval=interval)


@attrs.define
class Recorded:
    """What crossed the network during :func:`invite_by_code` (for tests: no secret in it)."""

    datagrams: list[bytes] = attrs.Factory(list)
    received: list[bytes] = attrs.Factory(list)
    sent: list[bytes] = attrs.Factory(list)


async def _fetch(address: tuple[str, int], joiner: CodeJoiner, record: Recorded) -> Invite:
    with trio.fail_after(EXCHANGE_TIMEOUT):
        try:
            stream = await trio.open_tcp_stream(*address)
        except OSError as exc:
            raise CodeExchangeError(f"cannot reach the host: {exc.strerror or exc}") from None
        async with stream:
            reader = FrameReader(MAX_MESSAGE)
            message: bytes | Invite = joiner.hello()
            while not isinstance(message, Invite):
                record.sent.append(message)
                await stream.send_all(encode_frame(message))
                reply = await _frames(stream, reader)
                record.received.append(reply)
                message = joiner.receive(reply)
            return message


async def _hear(number: int, port: int, seconds: float, record: Recorded) -> list[Announcement]:
    """Tables announcing ``number`` within ``seconds`` (stops listening soon after the first)."""
    found: dict[tuple[str, int, str], Announcement] = {}
    with await open_listener(port=port) as listener, trio.move_on_after(seconds) as scope:
        sock = listener._sock  # noqa: SLF001 -- keep the raw datagrams for the record
        while True:
            data, source = await sock.recvfrom(2048)
            if len(record.datagrams) < RECORD_MAX:
                record.datagrams.append(data)
            try:
                heard = Announcement.from_bytes(data, source=str(source[0]))
            except ValueError:
                continue
            if heard.code == number and heard.key not in found and len(found) < CANDIDATES_MAX:
                found[heard.key] = heard
                scope.deadline = min(scope.deadline, trio.current_time() + 0.3)
    return list(found.values())


async def invite_by_code(
    code: JoinCode,
    *,
    discovery_port: int = DISCOVERY_PORT,
    seconds: float = 4.0,
    record: Recorded | None = None,
) -> Invite:
    """The invite of the LAN table whose code is ``code``.

    Raises :class:`CodeNotFound`, :class:`~netplay.lan._joincode.CodeRefused` ("wrong code",
    retired, busy) or :class:`~netplay.lan._joincode.CodeExchangeError`.  The invite's host is
    the address the exchange reached (it is reachable from here; the host key is checked).
    """
    record = record if record is not None else Recorded()
    tables = await _hear(code.number, discovery_port, seconds, record)
    if not tables:
        raise CodeNotFound()
    problems: list[Exception] = []
    for table in tables:
        assert table.code_port is not None
        try:
            invite = await _fetch(
                (table.host, table.code_port), CodeJoiner(code, table.fingerprint), record
            )
        except (CodeRefused, CodeExchangeError) as exc:
            problems.append(exc)
            continue
        except trio.TooSlowError:
            problems.append(CodeExchangeError("the host did not answer in time"))
            continue
        return attrs.evolve(invite, host=table.host)
    raise min(problems, key=_rank)


def _rank(problem: Exception) -> int:
    """Which failure to report when several tables share a number: the code's own first."""
    if isinstance(problem, CodeRefused):
        return 0 if problem.reason in (WRONG, RETIRED) else 1
    return 2
