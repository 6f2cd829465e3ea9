"""Authenticated TCP links between table nodes (trio).

This module owns one connection's life: opening it (:func:`connect`,
:func:`open_link`, :func:`connect_with_backoff`; accepting it is ``_accept``'s
:func:`~netplay.links._accept.serve_links`), TLS 1.3 under it (``_tls``: the server presents its
identity key, the client pins it), the handshake with its deadline, framing,
heartbeats, idle detection and closing.  What a link carries is the node's business: a
:class:`Link` moves opaque frame payloads (canonical protocol messages) and
answers the link-level messages of ``_wire`` itself.

Structured concurrency: a link's background work (one reader task, one
heartbeat task) always runs in a nursery the caller owns --

* ``async with open_link(host, port, ...) as link:`` owns it in the block;
* ``link = await connect(nursery, host, port, ...)`` runs it in ``nursery``;
* ``_accept.serve_links`` runs each accepted link in a per-connection nursery
  around the caller's ``handler(link)`` and closes it when ``handler`` returns.

Every way a link ends -- refused handshake, ``Bye`` from the peer, idle peer,
dropped TCP connection, local :meth:`Link.aclose`, cancellation -- surfaces as
one exception, :class:`LinkClosed`, with a short ``reason``.  The protocol is
specified in ``docs/netplay.md`` ("Links and handshake").
"""

from __future__ import annotations

import contextvars
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from contextlib import asynccontextmanager, suppress
from typing import Any

import attrs
import trio

from fairtable.protocol import (
    MAX_FRAME,
    DecodeError,
    FrameTooLarge,
    Identity,
    LocalProtocolError,
    UnsupportedVersion,
    decode,
    encode,
)

from ._frames import FrameReader, encode_frame
from ._tls import peer_key, wrap_client
from ._wire import (
    GONE,
    HANDSHAKE_MAX_FRAME,
    ROLES,
    Bye,
    Handshake,
    LinkClosed,
    LinkReason,
    LinkRole,
    PeerInfo,
    Ping,
    Pong,
    client_handshake,
    close_stream,
    reason_text,
    refuse,
)

__all__ = [
    "tls_key_at",
    "DEFAULT_CONFIG",
    "FATAL_REASONS",
    "HANDSHAKE_MAX_FRAME",
    "Link",
    "LinkClosed",
    "LinkConfig",
    "PeerInfo",
    "TRANSPORT",
    "Transport",
    "connect",
    "connect_with_backoff",
    "open_link",
]

log = logging.getLogger("fairtable.netplay.link")

RECEIVE_CHUNK = 64 * 1024
"""Bytes asked of the socket per read on an open link."""

_LINK_TAG = b'"type":"link-'  # canonical JSON escapes '"' inside strings: only the envelope matches
_SMALL_FRAME = 512  # link messages are all smaller than this

FATAL_REASONS: frozenset[str] = frozenset({LinkReason.VERSION, LinkReason.INVITE})
"""Refusals :func:`connect_with_backoff` does not retry by default (they never fix themselves)."""


def _positive(_inst: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise LocalProtocolError(f"LinkConfig.{attribute.name} must be a positive number")


@attrs.frozen
class LinkConfig:
    """Timers and limits of a link (seconds, bytes, frames)."""

    handshake_timeout: float = attrs.field(default=5.0, validator=_positive)
    """The whole handshake (TCP connect included, for the connecting side) must end in time."""
    ping_interval: float = attrs.field(default=5.0, validator=_positive)
    """Send a Ping when nothing was sent for this long."""
    idle_timeout: float = attrs.field(default=15.0, validator=_positive)
    """Close with ``"idle"`` after this long without receiving (> the peer's ping_interval)."""
    send_timeout: float = attrs.field(default=15.0, validator=_positive)
    """Close with ``"stalled"`` when one frame cannot be written for this long."""
    bye_timeout: float = attrs.field(default=0.5, validator=_positive)
    """How long closing may wait to deliver its ``Bye`` (and again to see the peer close)."""
    max_frame: int = attrs.field(default=MAX_FRAME, validator=_positive)
    """Largest frame payload on an open link."""
    receive_buffer: int = attrs.field(default=16, validator=_positive)
    """Received frames queued for :meth:`Link.receive` before the reader stops reading."""


DEFAULT_CONFIG = LinkConfig()


# --------------------------------------------------------------------------- the transport


async def _tcp_listen(port: int, host: str | None) -> tuple[list[trio.SocketListener], int]:
    listeners = await trio.open_tcp_listeners(port, host=host)
    return listeners, int(listeners[0].socket.getsockname()[1])


@attrs.frozen
class Transport:
    """Where a link's byte stream comes from, below TLS: TCP unless a task says otherwise.

    The seam of the whole-table simulator (``tests/sim``): it sets :data:`TRANSPORT` in a
    peer's task to streams of its own simulated network, so the real link, TLS, node and
    session code run over it.  ``open_stream(host, port)`` raises ``OSError`` when nothing
    answers; ``open_listeners(port, host)`` gives the listeners and the bound port."""

    open_stream: Callable[[str, int], Awaitable[trio.abc.Stream]] = trio.open_tcp_stream
    open_listeners: Callable[[int, str | None], Awaitable[tuple[list[Any], int]]] = _tcp_listen


TRANSPORT: contextvars.ContextVar[Transport] = contextvars.ContextVar(
    "netplay_transport",
    default=Transport(),  # noqa: B039 -- a frozen record, never mutated
)
"""The transport of the current task (and of the tasks it starts)."""


# --------------------------------------------------------------------------- the link


class Link:
    """An open, authenticated link to one peer.

    Not built directly: see :func:`connect`, :func:`open_link` and
    :func:`serve_links`.  ``info`` is the peer proven by the handshake.
    """

    def __init__(
        self,
        stream: trio.abc.Stream,
        info: PeerInfo,
        *,
        config: LinkConfig,
        initiator: bool,
        address: str = "?",
    ) -> None:
        self.info = info
        self.initiator = initiator
        """True on the end that connected."""
        self.address = address
        """The remote ``host:port`` (for logs)."""
        self.pongs = 0
        """Pongs received (heartbeat round trips completed)."""
        self._stream = stream
        self._config = config
        self._frames = FrameReader(config.max_frame)
        self._send_lock = trio.Lock()
        to_app, from_link = trio.open_memory_channel[bytes](config.receive_buffer)
        self._to_app: trio.MemorySendChannel[bytes] = to_app
        self._from_link: trio.MemoryReceiveChannel[bytes] = from_link
        self._scope = trio.CancelScope()
        self._closed: LinkClosed | None = None
        self._say_bye = False
        self._broken = False  # a write was interrupted: the stream may hold a partial frame
        self._done = trio.Event()
        self._last_sent = trio.current_time()
        self._ping_n = 0
        self._pong_owed: int | None = None
        self._wake = trio.Event()

    def __repr__(self) -> str:
        state = "open" if self._closed is None else f"closed ({self._closed.reason})"
        return f"<Link {self.info.role} {self.info.key.hex()[:16]} @ {self.address} {state}>"

    @property
    def closed(self) -> LinkClosed | None:
        """None while open; afterwards the :class:`LinkClosed` describing why it ended."""
        return self._closed

    # ----------------------------------------------------------------- public API

    async def send(self, payload: bytes) -> None:
        """Send one frame.  Concurrent senders are serialised.

        Raises :class:`LinkClosed` if the link is (or becomes) closed, and
        :class:`~protocol.LocalProtocolError` for a payload over ``max_frame``.
        Cancelling a send closes the link (the stream may hold half a frame).
        """
        await self._send_frame(encode_frame(payload, max_frame=self._config.max_frame))

    async def send_many(self, payloads: list[bytes]) -> None:
        """Send several frames in one write (as :meth:`send` each, in order)."""
        max_frame = self._config.max_frame
        await self._send_frame(b"".join(encode_frame(p, max_frame=max_frame) for p in payloads))

    async def receive(self) -> bytes:
        """The next frame payload from the peer (Ping, Pong and Bye are handled here).

        Frames that arrived before the peer closed are still delivered; then
        (or after a local :meth:`aclose`) it raises :class:`LinkClosed`.
        """
        try:
            return await self._from_link.receive()
        except (trio.EndOfChannel, trio.ClosedResourceError):
            raise self._error() from None

    def __aiter__(self) -> Link:
        return self

    async def __anext__(self) -> bytes:
        """``async for payload in link:`` ends quietly when the link closes (see :attr:`closed`)."""
        try:
            return await self.receive()
        except LinkClosed:
            raise StopAsyncIteration from None

    async def aclose(self, reason: str = "closed") -> None:
        """Close the link, telling the peer ``reason`` (best effort, bounded); idempotent."""
        self._mark_closed(reason, local=True)
        await self._done.wait()

    async def __aenter__(self) -> Link:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # ----------------------------------------------------------------- internals

    def _error(self) -> LinkClosed:
        closed = self._closed
        if closed is None:  # pragma: no cover -- channels close only via _mark_closed
            return LinkClosed(LinkReason.CLOSED, peer=self.info)
        return LinkClosed(closed.reason, by_peer=closed.by_peer, peer=self.info)

    def _mark_closed(
        self, reason: str, *, by_peer: bool = False, bye: bool = True, local: bool = False
    ) -> None:
        """Record why the link ends and stop its tasks; the teardown I/O runs in :meth:`_run`."""
        if self._closed is not None:
            return
        self._closed = LinkClosed(reason, by_peer=by_peer, peer=self.info)
        self._say_bye = bye and not by_peer
        self._to_app.close()  # the application drains what already arrived ...
        if local:
            self._from_link.close()  # ... unless it closed the link itself
        self._scope.cancel()
        log.debug("link %s closing: %s", self.address, self._closed)

    async def _send_frame(self, frame: bytes) -> None:
        if self._closed is not None:
            raise self._error()
        async with self._send_lock:
            if self._closed is not None:
                raise self._error()
            reason = None
            try:
                with trio.move_on_after(self._config.send_timeout) as timer:
                    await self._stream.send_all(frame)
                if timer.cancelled_caught:
                    reason = LinkReason.STALLED
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                reason = LinkReason.DISCONNECTED
            except BaseException:  # cancelled mid-frame: the stream is out of sync
                self._broken = True
                self._mark_closed(LinkReason.CANCELLED, bye=False)
                raise
            if reason is not None:
                self._broken = True
                self._mark_closed(reason, bye=False)
                raise self._error()
            self._last_sent = trio.current_time()

    async def _run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Background work: reader and heartbeat; on the way out, Bye and close the stream."""
        try:
            with self._scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._reader)
                    nursery.start_soon(self._heartbeat)
                    task_status.started()
        finally:
            self._mark_closed(LinkReason.SHUTDOWN)  # no-op unless cancelled from outside
            with trio.CancelScope(shield=True):
                await self._teardown()
            self._done.set()

    async def _teardown(self) -> None:
        closed = self._closed
        timeout = self._config.bye_timeout
        if self._say_bye and not self._broken and closed is not None:
            frame = encode_frame(encode(Bye(reason_text(closed.reason))))
            with trio.move_on_after(timeout), suppress(*GONE):
                async with self._send_lock:
                    if not self._broken:
                        await self._stream.send_all(frame)
        await close_stream(self._stream, linger=timeout)

    async def _reader(self) -> None:
        idle_timeout = self._config.idle_timeout
        try:
            while True:
                with trio.move_on_after(idle_timeout) as idle:
                    data = await self._stream.receive_some(RECEIVE_CHUNK)
                if idle.cancelled_caught:
                    self._mark_closed(LinkReason.IDLE)
                    return
                if not data:
                    self._mark_closed(LinkReason.DISCONNECTED, bye=False)
                    return
                try:
                    payloads = self._frames.feed(data)
                except FrameTooLarge:
                    self._mark_closed(LinkReason.OVERSIZE)
                    return
                for payload in payloads:
                    if len(payload) <= _SMALL_FRAME and _LINK_TAG in payload:
                        if not self._on_link_message(payload):
                            return
                    else:
                        await self._to_app.send(payload)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self._mark_closed(LinkReason.DISCONNECTED, bye=False)

    def _on_link_message(self, payload: bytes) -> bool:
        """Handle a link-level message; False once the link is closed."""
        try:
            msg = decode(payload)
        except UnsupportedVersion:
            self._mark_closed(LinkReason.VERSION)
            return False
        except DecodeError:
            self._mark_closed(LinkReason.MALFORMED)
            return False
        if isinstance(msg, Ping):
            self._pong_owed = msg.n
            self._wake.set()
            return True
        if isinstance(msg, Pong):
            self.pongs += 1
            return True
        if isinstance(msg, Bye):
            self._mark_closed(msg.reason, by_peer=True)
        else:  # a Hello or Auth after the handshake
            self._mark_closed(LinkReason.MALFORMED)
        return False

    async def _heartbeat(self) -> None:
        interval = self._config.ping_interval
        try:
            while True:
                with trio.move_on_at(self._last_sent + interval):
                    await self._wake.wait()
                if self._pong_owed is not None:
                    n, self._pong_owed = self._pong_owed, None
                    self._wake = trio.Event()
                    await self._send_frame(encode_frame(encode(Pong(n))))
                elif trio.current_time() >= self._last_sent + interval:
                    self._ping_n += 1
                    await self._send_frame(encode_frame(encode(Ping(self._ping_n))))
        except LinkClosed:
            return


def check_link_args(identity: Identity, role: str, config: LinkConfig) -> None:
    if not isinstance(identity, Identity):
        raise LocalProtocolError("identity must be a protocol.Identity")
    if role not in ROLES:
        raise LocalProtocolError(f"role must be one of {ROLES}, got {role!r}")
    if not isinstance(config, LinkConfig):
        raise LocalProtocolError("config must be a LinkConfig")


def _check_32(name: str, value: bytes | None) -> None:
    if value is not None and (not isinstance(value, bytes) or len(value) != 32):
        raise LocalProtocolError(f"{name} must be exactly 32 bytes")


# --------------------------------------------------------------------------- connecting


async def tls_key_at(host: str, port: int, *, timeout: float = 5.0) -> bytes | None:
    """The Ed25519 key a server at ``host:port`` proves in TLS, or None if none answers in
    ``timeout`` seconds.  Trust on first use: a host started ``--via`` a relay without its
    key learns it here once, and names it in its invites, so that every joiner pins it."""
    with trio.move_on_after(timeout):
        try:
            tcp = await TRANSPORT.get().open_stream(host, port)
        except OSError:
            return None
        stream = wrap_client(tcp)
        try:
            await stream.do_handshake()
            return peer_key(stream)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return None
        finally:
            await trio.aclose_forcefully(stream)
    return None


async def _dial(
    host: str,
    port: int,
    identity: Identity,
    scope: bytes,
    secret: bytes,
    role: str,
    expect_key: bytes | None,
    config: LinkConfig,
) -> Link:
    """Connect and shake hands; the returned link's tasks are not started yet."""
    check_link_args(identity, role, config)
    _check_32("scope", scope)
    _check_32("secret", secret)
    _check_32("expect_key", expect_key)
    hs: Handshake | None = None
    try:
        with trio.fail_after(config.handshake_timeout):
            try:
                tcp = await TRANSPORT.get().open_stream(host, port)
            except OSError as exc:
                raise LinkClosed(LinkReason.UNREACHABLE) from exc
            stream = wrap_client(tcp)
            hs = Handshake(stream, ready=False)
            await stream.do_handshake()
            hs.ready = True
            tls_key = peer_key(stream)  # the key that proved itself in TLS: the pin is on it
            if tls_key is None or (expect_key is not None and tls_key != expect_key):
                raise LinkClosed(LinkReason.KEY)
            info = await client_handshake(
                hs, identity, role, scope, secret, expect_key, tls_key=tls_key
            )
    except (LinkClosed, trio.TooSlowError, trio.BrokenResourceError) as exc:
        error = exc if isinstance(exc, LinkClosed) else as_closed(exc)
        if hs is None:
            raise error from exc
        await refuse(hs, error, config.bye_timeout)
    except BaseException:
        if hs is not None:
            await trio.aclose_forcefully(hs.stream)
        raise
    return Link(stream, info, config=config, initiator=True, address=f"{host}:{port}")


def as_closed(exc: BaseException) -> LinkClosed:
    return LinkClosed(
        LinkReason.TIMEOUT if isinstance(exc, trio.TooSlowError) else LinkReason.DISCONNECTED
    )


async def connect(
    nursery: trio.Nursery,
    host: str,
    port: int,
    *,
    identity: Identity,
    scope: bytes,
    secret: bytes,
    role: str = LinkRole.PEER,
    expect_key: bytes | None = None,
    config: LinkConfig = DEFAULT_CONFIG,
) -> Link:
    """Connect to ``host:port``, shake hands, and run the link's tasks in ``nursery``.

    ``scope`` is the lobby/table id the link is for, ``secret`` the 32-byte
    shared secret (the invite secret, or the relay token for a relay);
    ``expect_key``, if given, is the only server key accepted (reason ``"key"``).
    Raises :class:`LinkClosed` if the server is unreachable (``"unreachable"``),
    too slow (``"timeout"``) or the handshake fails (reason from either end).
    The link's tasks end when it closes; cancelling ``nursery`` closes it.
    """
    link = await _dial(host, port, identity, scope, secret, role, expect_key, config)
    await nursery.start(link._run)
    return link


@asynccontextmanager
async def open_link(
    host: str,
    port: int,
    *,
    identity: Identity,
    scope: bytes,
    secret: bytes,
    role: str = LinkRole.PEER,
    expect_key: bytes | None = None,
    config: LinkConfig = DEFAULT_CONFIG,
) -> AsyncIterator[Link]:
    """``async with open_link(...) as link:`` -- :func:`connect` with the link owned by the block.

    Leaving the block closes the link (``Bye("closed")``) and waits for its
    tasks.  Exceptions from the block come out as they are (not in a group).
    """
    link = await _dial(host, port, identity, scope, secret, role, expect_key, config)
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(link._run)
            yield link
            link._mark_closed(LinkReason.CLOSED, local=True)  # on error or cancellation: "shutdown"
    except BaseExceptionGroup as group:
        # the link's own tasks never raise: a lone exception is the block's
        if len(group.exceptions) != 1:
            raise
        inner = group.exceptions[0]
        inner.__suppress_context__ = True
        raise inner  # noqa: B904 -- unwrapping, the group adds nothing


async def connect_with_backoff(
    nursery: trio.Nursery,
    host: str,
    port: int,
    *,
    identity: Identity,
    scope: bytes,
    secret: bytes,
    rng: random.Random,
    role: str = LinkRole.PEER,
    expect_key: bytes | None = None,
    config: LinkConfig = DEFAULT_CONFIG,
    initial_delay: float = 0.1,
    max_delay: float = 10.0,
    fatal: Collection[str] = FATAL_REASONS,
    on_retry: Callable[[LinkClosed, float], None] | None = None,
) -> Link:
    """:func:`connect`, retried until it succeeds or the caller cancels.

    The n-th retry waits ``d * U(0.5, 1)`` with ``d = min(max_delay,
    initial_delay * 2**n)`` and ``U`` drawn from ``rng``.  A refusal whose
    reason is in ``fatal`` is raised instead of retried.  ``on_retry(error,
    delay)`` is told about every failure before the wait.
    """
    delay = initial_delay
    while True:
        try:
            return await connect(
                nursery,
                host,
                port,
                identity=identity,
                scope=scope,
                secret=secret,
                role=role,
                expect_key=expect_key,
                config=config,
            )
        except LinkClosed as exc:
            if exc.reason in fatal:
                raise
            wait = delay * (0.5 + 0.5 * rng.random())
            log.debug("connect to %s:%s failed (%s); retrying in %.2fs", host, port, exc, wait)
            if on_retry is not None:
                on_retry(exc, wait)
            await trio.sleep(wait)
            delay = min(max_delay, delay * 2)
