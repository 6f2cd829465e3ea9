"""The relay's join-code mailbox (trio): hosts hold nameplates, joiners are put through.

A host's mailbox link (first message :class:`MailboxOpen`) is given a nameplate and holds it
while the link stays open, at most :attr:`MailboxLimits.seconds`.  A joiner's mailbox link
(first message :class:`MailboxJoin`) becomes one channel of that nameplate: what it says goes
to the host as ``MailboxSay(channel, ...)``, what the host says on that channel goes back to
it.  Each channel is bounded in messages each way and in time; the host's messages to a
joiner wait in a queue of their own, so a joiner that does not read slows nobody else.  The
relay keeps nothing on disk and reads no message it passes (``_mailbox_wire``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import attrs
import trio

import fairtable.protocol as P

from ..links import Link, LinkClosed, LinkReason
from ._mailbox_wire import (
    BUSY,
    CODE_EXPIRED,
    HOST_LEFT,
    NO_SUCH_CODE,
    RELAY_VERSION,
    TOO_MUCH,
    MailboxEnd,
    MailboxJoin,
    MailboxLimits,
    MailboxOpen,
    MailboxSay,
    Nameplate,
    Nameplates,
)

__all__ = ["Mailbox"]

TIMEOUT = LinkReason.TIMEOUT


@attrs.define(eq=False)
class _Channel:
    link: Link
    outbox: trio.MemorySendChannel[bytes]
    cancel: trio.CancelScope = attrs.Factory(trio.CancelScope)
    host_says: int = 0
    host_left: bool = False


@attrs.define(eq=False)
class _Host:
    link: Link
    channels: dict[int, _Channel] = attrs.Factory(dict)
    next_channel: int = 1


class Mailbox:
    """The nameplates a relay holds and the channels open to them."""

    def __init__(self, limits: MailboxLimits | None = None) -> None:
        self.limits = limits or MailboxLimits()
        self.plates = Nameplates(self.limits)
        self.hosts: dict[int, _Host] = {}
        self._news = trio.Event()

    def _changed(self) -> None:
        """A nameplate was taken or given back, or a channel opened or closed."""
        self._news.set()
        self._news = trio.Event()

    async def until(self, holds: Callable[[], bool]) -> None:
        """Return once ``holds()`` is true of the mailbox, checked now and at each change of
        the nameplates held or the channels open (a watcher's wait: tests)."""
        while not holds():
            await self._news.wait()

    async def serve(self, link: Link, source: str, first: MailboxOpen | MailboxJoin) -> None:
        """A mailbox link whose first message was ``first``, until it ends."""
        if first.version != RELAY_VERSION:
            await link.aclose(LinkReason.VERSION)
        elif isinstance(first, MailboxOpen):
            await self._host(link, source)
        else:
            await self._joiner(link, first)

    async def _host(self, link: Link, source: str) -> None:
        got = self.plates.claim(source, trio.current_time())
        if isinstance(got, str):
            await link.aclose(got)
            return
        host = self.hosts[got] = _Host(link)
        self._changed()
        try:
            await link.send(P.encode(Nameplate(got, int(self.limits.seconds))))
            with trio.move_on_after(self.limits.seconds) as scope:
                async for data in link:
                    try:
                        msg = P.decode(data)
                    except P.DecodeError:
                        msg = None
                    if not isinstance(msg, MailboxSay):
                        await link.aclose(LinkReason.MALFORMED)
                        return
                    self._to_joiner(host, msg)
            if scope.cancelled_caught:
                await link.aclose(CODE_EXPIRED)
        finally:
            del self.hosts[got]
            self.plates.release(got)
            for channel in host.channels.values():
                channel.host_left = True
                channel.cancel.cancel()
            self._changed()

    def _to_joiner(self, host: _Host, msg: MailboxSay) -> None:
        """Queue what the host says to one joiner (dropped past the channel's bound)."""
        channel = host.channels.get(msg.channel)
        if channel is None:
            return  # that joiner is gone
        channel.host_says += 1
        if channel.host_says > self.limits.says:
            return
        try:
            channel.outbox.send_nowait(msg.say)
        except (trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError):
            return

    async def _to_host(self, host: _Host, channel: int, say: bytes) -> None:
        """Pass what a joiner says to the host, on its channel."""
        await host.link.send(P.encode(MailboxSay(channel, say)))

    async def _joiner(self, link: Link, first: MailboxJoin) -> None:
        host = self.hosts.get(first.number)
        if host is None:
            await link.aclose(NO_SUCH_CODE)
            return
        if len(host.channels) >= self.limits.channels:
            await link.aclose(BUSY)
            return
        number, host.next_channel = host.next_channel, host.next_channel + 1
        outbox, inbox = trio.open_memory_channel[bytes](self.limits.says)
        channel = host.channels[number] = _Channel(link, outbox)
        self._changed()
        reason: str = TIMEOUT
        try:
            with channel.cancel, trio.move_on_after(self.limits.channel_seconds):
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(_deliver, link, inbox)
                    reason = await self._from_joiner(host, number, link, first.say)
                    nursery.cancel_scope.cancel()
        finally:
            del host.channels[number]
            self._changed()
            if not channel.host_left:
                with trio.move_on_after(1) as shield:
                    shield.shield = True
                    with contextlib.suppress(LinkClosed):
                        await host.link.send(P.encode(MailboxEnd(number)))
        await link.aclose(HOST_LEFT if channel.host_left else reason)

    async def _from_joiner(self, host: _Host, number: int, link: Link, say: bytes) -> str:
        """Pass what the joiner says to the host until it hangs up ("closed") or says more
        than a channel carries (the reason to close it with)."""
        said = 0
        while True:
            said += 1
            if said > self.limits.says:
                return TOO_MUCH
            try:
                await self._to_host(host, number, say)
            except LinkClosed:
                return HOST_LEFT
            try:
                msg = P.decode(await link.receive())
            except LinkClosed:
                return "closed"
            except P.DecodeError:
                return "malformed"
            if not isinstance(msg, MailboxSay):
                return "malformed"
            say = msg.say


async def _deliver(link: Link, inbox: trio.MemoryReceiveChannel[bytes]) -> None:
    """Send the joiner what its host said, in order."""
    async for say in inbox:
        try:
            await link.send(P.encode(MailboxSay(0, say)))
        except LinkClosed:
            return
