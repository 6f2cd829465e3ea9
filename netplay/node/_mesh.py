"""A node's links and the flooding over them: the mesh.

:class:`Mesh` owns the set of live links (:class:`~netplay.node._node_parts._Peer`), one reader
and one writer task per link, dialling with back-off, and flooding: a message goes to
every link but the one it came from; a new entry not to its author nor to a peer linked to
its author (each link says whom it is linked to: a ``Links`` roster); a message already
handled is dropped (``seen``).  It knows nothing of tables or sessions: what arrives goes
to ``on_message`` (synchronously, one message at a time, in order), a new link to
``on_open``, and a link the far side closed to ``on_closed``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

import trio

import fairtable.protocol as P

from .. import events as ev
from ..links import Link, LinkClosed, LinkReason, LinkRole, connect_with_backoff, unreachable_event
from ..relay import RELAY_REFUSALS
from ..table import LINKS_MAX, Links
from ._node_parts import _Peer

__all__ = ["LINKS_PER_KEY", "Mesh"]

LINKS_PER_KEY = 2  # links one key may hold to us at once (an old one may linger a while)
OUTBOX = 1024  # messages queued for one link; a link that falls further behind is dropped


class Mesh:
    """The links of one node, and flooding over them."""

    def __init__(
        self,
        identity: P.Identity,
        emit: ev.Emit,
        *,
        on_open: Callable[[_Peer], None],
        on_message: Callable[[_Peer, bytes], None],
        on_closed: Callable[[LinkClosed], None],
    ) -> None:
        self.identity = identity
        self.emit = emit
        self.on_open = on_open
        self.on_message = on_message
        self.on_closed = on_closed
        self.peers: set[_Peer] = set()
        self.dialled: set[bytes] = set()  # the seats' keys we dial directly
        self.seen: set[bytes] = set()  # hashes of entries the log holds (handled already)
        self.nursery: trio.Nursery | None = None  # set by the node as it runs
        self._opened = 0
        self._news = trio.Event()  # set, and made anew, each time a link comes or goes

    def _changed(self) -> None:
        self._news.set()
        self._news = trio.Event()

    async def until(self, holds: Callable[[set[_Peer]], bool]) -> None:
        """Return once ``holds(peers)`` is true of the links held, checked now and each time
        one comes or goes (the caller bounds the wait)."""
        while not holds(self.peers):
            await self._news.wait()

    # -- links ---------------------------------------------------------------------------
    def player_keys(self) -> set[bytes]:
        """The keys of the players we hold links to (not relays)."""
        return {p.link.info.key for p in self.peers if not p.via_relay}

    def close_later(self, link: Link, reason: str) -> None:
        assert self.nursery is not None
        self.nursery.start_soon(link.aclose, reason)

    def keep_newest(self, key: bytes) -> None:
        """A new link from ``key``: keep at most :data:`LINKS_PER_KEY` of its links, the
        newest (a reconnect is never refused); older ones are closed."""
        same = sorted(
            (p for p in self.peers if not p.via_relay and p.link.info.key == key),
            key=lambda p: p.serial,
        )
        for old in same[: max(len(same) + 1 - LINKS_PER_KEY, 0)]:
            self.peers.discard(old)  # no longer ours to send to; its tasks end with it
            self.close_later(old.link, "replaced by a newer link")
            self._changed()

    async def adopt(self, link: Link, *, via_relay: bool = False) -> None:
        """Run one link: a writer task, and this task as its reader, until it closes."""
        send, receive = trio.open_memory_channel[bytes](OUTBOX)
        self._opened += 1
        peer = _Peer(link, send, via_relay, serial=self._opened)
        self.peers.add(peer)
        self._changed()
        self.tell_links()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._writer, peer, receive)
            self.on_open(peer)
            try:
                while True:
                    self.on_message(peer, await link.receive())
            except LinkClosed as exc:
                self.on_closed(exc)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
            finally:
                self.peers.discard(peer)
                self._changed()
                self.tell_links()
                nursery.cancel_scope.cancel()
                with trio.CancelScope(shield=True):
                    await link.aclose(LinkReason.DONE)

    async def dial(
        self,
        address: tuple[str, int],
        *,
        scope: bytes,
        secret: bytes,
        key: bytes | None,
        via_relay: bool,
        until: trio.Event,
        greeting: bytes | None = None,
        refused: Callable[[LinkClosed], None],
        relay_refused: Callable[[str], bool] = lambda reason: False,
        fatal: frozenset[str] | set[str] = frozenset(),
    ) -> None:
        """Keep a link to ``address`` up until ``until`` is set (reconnecting with back-off;
        each failure is told, unless ``key`` holds a link to us meanwhile: a seat that came
        back on another port dials us).  A refusal no retry fixes goes to ``refused``; a relay that
        will not keep us goes to ``relay_refused``, and is tried again unless that says stop."""
        failures = [0]  # in a row

        def failed(exc: LinkClosed, wait: float) -> None:
            failures[0] += 1
            if key is None or key not in self.player_keys():  # else it reached us itself
                self.emit(unreachable_event(address, exc, failures[0], wait))

        while not until.is_set():
            async with trio.open_nursery() as nursery:
                try:
                    link = await connect_with_backoff(
                        nursery,
                        address[0],
                        address[1],
                        identity=self.identity,
                        scope=scope,
                        secret=secret,
                        role=LinkRole.PEER,
                        rng=random.Random(),
                        expect_key=key,
                        max_delay=2.0,
                        on_retry=failed,
                        fatal=fatal,
                    )
                    failures[0] = 0
                except LinkClosed as exc:
                    refused(exc)
                    return
                if greeting is not None:
                    await link.send(greeting)
                await self.adopt(link, via_relay=via_relay)
                closed = link.closed
                if (
                    via_relay
                    and closed is not None
                    and closed.by_peer
                    and (closed.reason in RELAY_REFUSALS)
                ):  # the relay will not keep us
                    if relay_refused(closed.reason):
                        return
                    await trio.sleep(2.0)  # try again: the relay may make room

    async def _writer(self, peer: _Peer, outbox: trio.MemoryReceiveChannel[bytes]) -> None:
        try:
            async for data in outbox:
                queued = [data]
                while True:  # whatever queued up meanwhile goes in the same write
                    try:
                        queued.append(outbox.receive_nowait())
                    except (trio.WouldBlock, trio.EndOfChannel):
                        break
                await peer.link.send_many(queued)
        except LinkClosed:
            return
        finally:
            peer.drained.set()
        if not peer.leaving:
            await peer.link.aclose(LinkReason.TOO_SLOW)  # our queue to it overflowed

    async def drain(self) -> None:
        """We leave: close every link's queue once it is sent, and wait for that."""
        for peer in list(self.peers):
            peer.leaving = True
            peer.outbox.close()
        for peer in list(self.peers):
            await peer.drained.wait()

    # -- flooding ------------------------------------------------------------------------
    def first_time(self, data: bytes) -> bytes | None:
        """The message's hash, or None if it was handled already (flooding brings most
        messages more than once)."""
        digest = hashlib.sha256(data).digest()
        return None if digest in self.seen else digest

    def send(self, peer: _Peer, data: bytes) -> None:
        try:
            peer.outbox.send_nowait(data)
        except trio.WouldBlock:  # a link too slow to keep up is dropped; it will catch up
            peer.outbox.close()
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass

    def broadcast(self, data: bytes, *, skip: _Peer | None = None) -> None:
        for peer in list(self.peers):
            if peer is not skip:
                self.send(peer, data)

    def forward(self, data: bytes, author: bytes, source: _Peer) -> None:
        """Flood a new entry -- but not to its author, nor to a peer linked to its author
        (the author sent it there itself)."""
        for peer in list(self.peers):
            if peer is source or peer.link.info.key == author or author in peer.linked:
                continue
            self.send(peer, data)

    def tell_links(self) -> None:
        """Tell every link whom we are linked to (players, not relays).  Never more keys than
        the message holds: a key left out only costs a peer a redundant forward."""
        keys = tuple(sorted(self.player_keys()))[:LINKS_MAX]
        self.broadcast(P.encode(Links(keys)))

    def on_links(self, peer: _Peer, data: bytes, msg: Links) -> None:
        peer.linked = frozenset(msg.keys)
