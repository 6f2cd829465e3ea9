"""A node's links to the others: serving, dialling and closing, seat by seat.

:class:`NodeLinks` is the part of :class:`~netplay.node._node.TableNode` that decides which
links a node keeps up: it serves the table's links (a spectator only once the table started
and unless it refuses them; before the start, only as many keys as there are seats), keeps a
link dialled to the host or the relay until the node leaves, dials every later seat that can
be reached directly once the table starts (:func:`seat_address` reads the address the start
signed) -- every seat, earlier ones too, when the node listens elsewhere than the address
the start signed for it (its port was taken when it came back) -- stops dialling a seat that
left the game for good, and ends the table on a refusal no retry fixes.  The links
themselves and the flooding over them are the :class:`~netplay.node._mesh.Mesh`'s; the node
holds the state read here.
"""

from __future__ import annotations

from typing import Any

import trio

import fairtable.protocol as P

from .. import events as ev
from ..links import (
    FATAL_REASONS,
    Link,
    LinkClosed,
    LinkReason,
    LinkRole,
    Watchers,
    refusal_words,
    serve_links,
)
from ..table import RELAY_SECRET, Invite, Subscribe, TableStart, relay_scope, relay_token
from ._admission import SEAT_REFUSED, Admission
from ._departure import Departure

_NEVER_SEATED = FATAL_REASONS | {"not authorised"}  # refusals no retry fixes (a started table)


class NodeLinks(Departure):
    """The links of a table node (a base of :class:`~netplay.node._node.TableNode`, on top
    of its :class:`~netplay.node._departure.Departure`, whose ``_finish`` ends a table
    refused)."""

    invite: Invite | None
    hosting: bool
    admission: Admission
    watchers: Watchers
    _gone: trio.Event
    _dialling: dict[bytes | None, trio.CancelScope]
    _nursery: trio.Nursery | None
    port: int  # the port we listen on (0: none)

    async def _serve(self, port: int, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        def secrets_for(scope: bytes) -> bytes | None:
            if self.invite is not None and scope == self.invite.lobby_id:
                return self.invite.secret
            return None

        def authorise(info: Any) -> bool:
            if info.role is LinkRole.OBSERVER:  # a spectator: unless the table refuses them
                return self.config.reach.spectators
            if self.admission.start is None or self.session is None:
                return True  # the lobby: the handshake proved the invite
            return info.key in self.session.spec.players

        await serve_links(
            port,
            self._adopt_served,
            identity=self.identity,
            secrets_for=secrets_for,
            authorize=authorise,
            host=self.config.reach.listen_host,
            task_status=task_status,
        )

    async def _adopt_served(self, link: Link) -> None:
        """A link someone opened to us: one key keeps its newest links; before the start,
        only as many keys as the table has seats to fill (any more is closed, saying why)."""
        if link.info.role is LinkRole.OBSERVER:
            if self.session is None or self.admission.start is None:
                await link.aclose(LinkReason.NOT_STARTED)
                return
            await self.watchers.adopt(link)
            return
        self.mesh.keep_newest(link.info.key)
        if not self.admission.lets_in(link.info.key):
            await link.aclose(f"{SEAT_REFUSED}the table is full")
            return
        await self.mesh.adopt(link)

    async def _dial(self, address: tuple[str, int], via_relay: bool, key: bytes | None) -> None:
        """Keep a link to ``address`` up until we leave (reconnecting with back-off): a seat
        that finished may still hold entries the others lack (:meth:`_leave`)."""
        assert self.invite is not None
        scope: bytes = self.invite.lobby_id  # a link's scope: the lobby id, or the relay's
        secret, greeting = self.invite.secret, None
        if via_relay:
            token = relay_token(self.invite)
            scope, secret = relay_scope(token), RELAY_SECRET
            greeting = P.encode(Subscribe(token, LinkRole.PEER.value))

        def refused(exc: LinkClosed) -> None:
            self.emit(ev.LinkRefused(exc.reason))
            if self.session is None and not self.hosting and not via_relay:
                self.emit(ev.Refused(refusal_words(exc.reason)))
                self._finish("refused")  # never seated: nothing to resume

        def relay_refused(reason: str) -> bool:
            self.emit(ev.LinkRefused(reason))
            if self.session is None:
                self.emit(ev.Refused("the relay refused the table: " + reason))
                self._finish("refused")
                return True
            return False  # seated: try again, the relay may make room

        with trio.CancelScope() as dialling:
            self._dialling[key] = dialling
            await self.mesh.dial(
                address,
                scope=scope,
                secret=secret,
                key=key,
                via_relay=via_relay,
                until=self._gone,
                greeting=greeting,
                refused=refused,
                relay_refused=relay_refused,
                fatal=_NEVER_SEATED,
            )

    def _stop_dialling(self, seat: int) -> None:
        """Seat ``seat`` left the game for good (docs/protocol.md §11.10): we no longer keep
        a link to it up (its last entry is what told us)."""
        if self.session is not None:
            scope = self._dialling.pop(self.session.spec.players[seat], None)
            if scope is not None:
                scope.cancel()

    def _closed(self, exc: LinkClosed) -> None:
        """A link the far side closed: the host's refusal to seat us ends our table."""
        if exc.by_peer and exc.reason.startswith(SEAT_REFUSED) and self.session is None:
            self.emit(ev.Refused(exc.reason[len(SEAT_REFUSED) :]))
            self._finish("refused")  # the host will not seat us: nothing to resume

    def _link_seats(self, start: TableStart, seat: int) -> None:
        """Link to every seat after ours that can be reached directly -- and to those before
        ours too when we listen elsewhere than the address the start signed for us (another
        socket held that port when we came back: they dial it in vain)."""
        if self.config.reach.via is not None or self._nursery is None or self.session is None:
            return
        signed = seat_address(start.addresses[seat]) if seat < len(start.addresses) else None
        moved = signed is not None and signed[1] != self.port
        for other, raw in enumerate(start.addresses):
            key = self.session.spec.players[other]
            if other == seat or (other < seat and not moved) or not raw or key in self.mesh.dialled:
                continue
            address = seat_address(raw)
            if address is None:  # the host signed it, but nobody can dial it
                continue
            self.mesh.dialled.add(key)
            self._nursery.start_soon(self._dial, address, False, key)


def seat_address(raw: bytes) -> tuple[str, int] | None:
    """The ``(host, port)`` of a seat's address in a start (``HOST:PORT``, ASCII, a port
    from 1 to 65535), or None for one that cannot be dialled."""
    try:
        host, _, port = raw.decode("ascii").rpartition(":")
    except UnicodeDecodeError:
        return None
    if not host or not (port.isascii() and port.isdigit() and len(port) <= 5):
        return None
    number = int(port)
    return (host, number) if 0 < number < 65536 else None
