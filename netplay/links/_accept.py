"""Accepting authenticated links (trio): the listening side of ``_link``.

This module owns what a listener does with a connection before it is a
:class:`~netplay.links._link.Link`: the caps on handshakes in progress (overall and per remote
address), the TLS handshake as the server (presenting the identity key), the link
handshake with its deadline and the refusal with its reason -- then it runs the caller's
``handler(link)`` in a per-connection nursery and closes the link when it returns.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import NoReturn

import trio

from fairtable.protocol import Identity

from ._link import (
    DEFAULT_CONFIG,
    TRANSPORT,
    Link,
    LinkClosed,
    LinkConfig,
    as_closed,
    check_link_args,
)
from ._tls import wrap_server
from ._wire import Handshake, LinkReason, LinkRole, PeerInfo, refuse, server_handshake

__all__ = ["serve_links"]

log = logging.getLogger("fairtable.netplay.link")


class _Gate:
    """Caps handshakes in progress, overall and per remote host."""

    def __init__(self, total: int, per_host: int) -> None:
        self.total = total
        self.per_host = per_host
        self.active = 0
        self.by_host: dict[str, int] = {}

    def enter(self, host: str) -> bool:
        if self.active >= self.total or self.by_host.get(host, 0) >= self.per_host:
            return False
        self.active += 1
        self.by_host[host] = self.by_host.get(host, 0) + 1
        return True

    def leave(self, host: str) -> None:
        self.active -= 1
        left = self.by_host[host] - 1
        if left:
            self.by_host[host] = left
        else:
            del self.by_host[host]


def _remote(stream: trio.abc.Stream) -> tuple[str, str]:
    """(host, "host:port") of a socket stream's peer."""
    try:
        name = stream.socket.getpeername()  # type: ignore[attr-defined]
        return str(name[0]), f"{name[0]}:{name[1]}"
    except (AttributeError, OSError):
        return "?", "?"


def _allow_all(_info: PeerInfo) -> bool:
    return True


async def serve_links(
    port: int,
    handler: Callable[[Link], Awaitable[object]],
    *,
    identity: Identity,
    secrets_for: Callable[[bytes], bytes | None],
    authorize: Callable[[PeerInfo], bool] = _allow_all,
    role: str = LinkRole.PEER,
    host: str | None = "127.0.0.1",
    config: LinkConfig = DEFAULT_CONFIG,
    max_handshakes: int = 64,
    max_handshakes_per_host: int = 16,
    on_refused: Callable[[LinkClosed], None] | None = None,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> NoReturn:
    """Accept links on ``host:port`` until cancelled; ``handler(link)`` runs for each.

    Use with ``port = await nursery.start(partial(serve_links, 0, handler, ...))``: the
    started value is the bound port.  ``host=None`` or ``"0.0.0.0"`` serves the
    LAN (the default is loopback only).  One listener serves many scopes:
    ``secrets_for(scope)`` gives the shared secret of a scope, or None to
    refuse it (``"scope"``).  After a valid handshake ``authorize(info)``
    decides (``"not authorised"``).  At most ``max_handshakes`` handshakes run
    at once (``max_handshakes_per_host`` from one address); a connection over
    either cap is refused at once (``"busy"``), one that does not finish in
    ``config.handshake_timeout`` is closed (``"timeout"``).  ``on_refused(error)``
    hears about every refused connection.  The link is closed when ``handler``
    returns; a :class:`LinkClosed` escaping ``handler`` ends only that
    connection, any other exception propagates (and stops the server).
    """
    check_link_args(identity, role, config)
    gate = _Gate(max_handshakes, max_handshakes_per_host)

    def refused(error: LinkClosed, address: str) -> None:
        log.info("refused link from %s: %s", address, error.reason)
        if on_refused is not None:
            on_refused(error)

    async def serve_one(tcp: trio.abc.Stream) -> None:
        remote_host, address = _remote(tcp)
        if not gate.enter(remote_host):
            # closed without a word: a Bye would cost a TLS handshake, the very load refused
            refused(LinkClosed(LinkReason.BUSY), address)
            await trio.aclose_forcefully(tcp)
            return
        stream = wrap_server(tcp, identity)
        hs = Handshake(stream, ready=False)
        try:
            with trio.fail_after(config.handshake_timeout):
                await stream.do_handshake()
                hs.ready = True
                info = await server_handshake(hs, identity, role, secrets_for, authorize)
        except (LinkClosed, trio.TooSlowError, trio.BrokenResourceError) as exc:
            error = exc if isinstance(exc, LinkClosed) else as_closed(exc)
            refused(error, address)
            try:
                await refuse(hs, error, config.bye_timeout)
            except LinkClosed:
                return
        finally:
            gate.leave(remote_host)
        link = Link(stream, info, config=config, initiator=False, address=address)
        async with trio.open_nursery() as nursery:
            await nursery.start(link._run)
            with suppress(LinkClosed):
                await handler(link)
            link._mark_closed(LinkReason.CLOSED, local=True)  # on error or cancellation: "shutdown"

    listeners, bound = await TRANSPORT.get().open_listeners(port, host)
    task_status.started(bound)
    await trio.serve_listeners(serve_one, listeners)
    raise AssertionError("serve_listeners returned")  # pragma: no cover
