"""Spectators of a started table (``fairtable watch``): the links of role ``observer``.

:class:`Watchers` owns a node's spectator links.  A spectator proves it holds the invite in
the handshake like anyone, but takes no seat and signs nothing: on arrival it is sent the
table's signed start and every feed entry the node holds (catch-up from the start), then
every entry the node takes or makes afterwards (live).  It can never delay or change the
game: nothing it sends is read beyond a count, its queue is bounded (a spectator that falls
:data:`OUTBOX` messages behind is dropped, "too slow"), a spectator that sends more than
:data:`MAX_SAYS` messages is dropped ("flood"), and at most :data:`MAX_WATCHERS` watch at
once.  Entries are public (sealed parts stay sealed to their seat), so a spectator learns
what a relay learns.  :meth:`Watchers.until` wakes whoever waits on the number watching (a
test, a bench) each time a spectator comes or goes, so nobody polls it; a node that goes
:meth:`Watchers.drain` its spectators first, so each has every entry it was given.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import trio

from ._link import Link, LinkClosed
from ._wire import LinkReason

__all__ = ["MAX_SAYS", "MAX_WATCHERS", "OUTBOX", "Watchers"]

MAX_WATCHERS = 32
OUTBOX = 4096  # entries queued to one spectator before it is dropped as too slow
MAX_SAYS = 16  # messages a spectator may send us in all (it needs to send none)


@attrs.define(eq=False)
class _Watcher:
    link: Link
    outbox: trio.MemorySendChannel[bytes]


class Watchers:
    """A node's spectator links (see the module docstring)."""

    def __init__(self, catch_up: Callable[[], list[bytes]]) -> None:
        """``catch_up()``: the start and every entry held, to send a new spectator first."""
        self.catch_up = catch_up
        self.links: set[_Watcher] = set()
        self.served = 0  # spectators taken in, in all
        self._news = trio.Event()  # set, and made anew, each time a spectator comes or goes

    def _changed(self) -> None:
        self._news.set()
        self._news = trio.Event()

    async def until(self, holds: Callable[[int], bool]) -> None:
        """Return once ``holds(n)`` is true of the number ``n`` of spectators watching,
        checked now and each time one comes or goes (the caller bounds the wait)."""
        while not holds(len(self.links)):
            await self._news.wait()

    async def adopt(self, link: Link) -> None:
        """Run one spectator link until it or we close it."""
        if len(self.links) >= MAX_WATCHERS:
            await link.aclose(LinkReason.TOO_MANY_SPECTATORS)
            return
        send, receive = trio.open_memory_channel[bytes](OUTBOX)
        watcher = _Watcher(link, send)
        first = self.catch_up()  # taken with the link added at once: no entry falls between
        self.links.add(watcher)
        self.served += 1
        self._changed()
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._writer, watcher, first, receive, nursery.cancel_scope)
                await self._listen(link)
                nursery.cancel_scope.cancel()
        finally:
            self.links.discard(watcher)
            self._changed()
            with trio.CancelScope(shield=True):
                await link.aclose(LinkReason.DONE)

    @staticmethod
    async def _listen(link: Link) -> None:
        """Read what the spectator says (nothing is needed) until it closes or floods.

        A closed link ends here, inside the nursery's body, so it never leaves ``adopt`` as an
        exception group (a spectator that goes away is no error of the node's)."""
        says = 0
        try:
            while True:
                await link.receive()
                says += 1
                if says > MAX_SAYS:
                    await link.aclose(LinkReason.FLOOD)
                    return
        except (LinkClosed, trio.BrokenResourceError, trio.ClosedResourceError):
            return

    async def _writer(
        self,
        watcher: _Watcher,
        first: list[bytes],
        outbox: trio.MemoryReceiveChannel[bytes],
        scope: trio.CancelScope,
    ) -> None:
        try:
            if first:
                await watcher.link.send_many(first)
            async for data in outbox:
                queued = [data]
                while True:
                    try:
                        queued.append(outbox.receive_nowait())
                    except (trio.WouldBlock, trio.EndOfChannel):
                        break
                await watcher.link.send_many(queued)
        except (LinkClosed, trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        scope.cancel()

    async def drain(self) -> None:
        """Send every spectator what it was given, then close its link (we are going: no
        more entries come); return once none is left (the caller bounds the wait)."""
        for watcher in list(self.links):
            watcher.outbox.close()  # its writer sends what is queued, then ends the link
        await self.until(lambda watching: watching == 0)

    def forward(self, data: bytes) -> None:
        """A new entry of the table: to every spectator (a full queue drops that one)."""
        for watcher in list(self.links):
            try:
                watcher.outbox.send_nowait(data)
            except trio.WouldBlock:
                self.links.discard(watcher)
                watcher.outbox.close()  # its writer ends; the link closes with it
                self._changed()
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                self.links.discard(watcher)
                self._changed()
