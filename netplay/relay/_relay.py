"""A relay: a seatless peer that links players who cannot reach each other.

The relay accepts links for any table, files each link under the table's relay
scope once the peer proves the relay token (:class:`~netplay.table._lobby.Subscribe`;
the token's hash is the scope, so a stranger without the invite cannot get in),
floods every new message to the table's other links, stores everything it
forwarded on disk (but presence beats and starvation claims, which only matter the moment
they pass, and time notices but the first each seat signed once the table started: the
signed word that a clock ended the game, which ``fairtable audit`` of its copy checks), and
answers catch-up requests from what it stored (within
each asker's byte budget: ``_serving``), asking its other links on for what it lacks.  It
reads no entry body and holds no key of any table: it cannot open a sealed or
encrypted card, and it cannot forge a signed entry.  Several tables can share
one relay; a restarted relay reloads its logs and carries on.

A table is on probation until a table start signed by its host passes (see
``_relay_quota``): until then it lives in memory only, within a bound of messages and
bytes, for a limited time and only while a link holds it, and only so many such tables
are taken at once, overall, from one source address and from one network; when all are
taken a newcomer pushes out the oldest table of the network holding the most; a refused
link is closed with the reason (``"relay full"``, ``"too many tables from your
address"``).  A restart reloads only started tables and deletes the folders of any others.

Spectators (``fairtable watch INVITE --via RELAY``: a link of role ``observer`` proving the
relay token) are served from what the relay holds, by the table's own
:class:`~netplay.links._watchers.Watchers` -- the signed start and every entry held, in feed
order, then each new entry as it passes -- so the players do nothing per spectator.  A
spectator is let in only once the table showed a signed start (before, or for a table the
relay does not know, it is closed with "the table has not started" and nothing is opened or
stored for it); it is never one of the table's links (nothing is flooded to it but entries,
nothing it says is passed on or answered), its queue is bounded, a flood drops it, and at
most :data:`MAX_SPECTATORS` watch through one relay at once (32 per table).

A link under :data:`~netplay.relay._mailbox_wire.MAILBOX_SCOPE` whose first message opens or
joins a join code's mailbox is the mailbox's (``_mailbox``): it holds no table.

:meth:`RelayNode.until` wakes whoever waits on the relay's tables (a test, a bench) each
time one is opened, starts or is dropped, or a link ends, so nobody polls them.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import shutil
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import trio

import fairtable.protocol as P

from ..events import Emit, RelayOpen, event_line
from ..links import Link, LinkClosed, LinkReason, LinkRole, Watchers, serve_links
from ..storage import LogFile, relay_table_id, signed_start
from ..table import (
    OVER_BUDGET,
    RELAY_SECRET,
    PassOn,
    Presence,
    ServeBudget,
    Starved,
    Subscribe,
    TableStart,
    TimeNotice,
    relay_scope,
)
from ._mailbox import Mailbox
from ._mailbox_wire import MAILBOX_SCOPE, MailboxJoin, MailboxLimits, MailboxOpen
from ._relay_quota import EVICTED, EXPIRED, RelayLimits, RelayQuota, source_of

__all__ = ["RelayNode"]

MAX_MESSAGES = 200_000
MAX_SPECTATORS = 256  # spectator links through one relay at once, over all its tables
NOT_STARTED = LinkReason.NOT_STARTED


@attrs.define(eq=False)
class _Table:
    scope: bytes
    log: LogFile | None = None  # opened once the table shows a signed start
    held: list[bytes] = attrs.Factory(list)  # before that, what it filed, in order
    links: set[Link] = attrs.Factory(set)
    seen: set[bytes] = attrs.Factory(set)
    lobby: list[bytes] = attrs.Factory(list)  # join / status / start messages, in order
    notices: dict[int, bytes] = attrs.Factory(dict)  # by seat: the first time notice it signed
    signed_spec: P.TableSpec | None = None  # the spec of the first start its host signed
    entries: dict[tuple[int, int], bytes] = attrs.Factory(dict)
    recent: set[bytes] = attrs.Factory(set)  # what passed lately without being stored
    recent_order: deque[bytes] = attrs.Factory(lambda: deque(maxlen=4096))
    pass_on: PassOn = attrs.Factory(PassOn)  # the wants we pass on, per asker
    watchers: Watchers = attrs.field(init=False)  # spectators, served from what we hold

    def __attrs_post_init__(self) -> None:
        self.watchers = Watchers(self.catch_up)

    def catch_up(self) -> list[bytes]:
        """What a new spectator is sent first: the lobby's starts, then every entry held,
        feed by feed in order (so nothing waits behind a gap that is not one)."""
        starts = [data for data in self.lobby if _is_start(data)]
        return starts + [self.entries[key] for key in sorted(self.entries)]

    def passing(self, data: bytes) -> bool:
        """A message to pass on but not store (a presence beat, a time notice); False if it
        passed lately."""
        digest = hashlib.sha256(data).digest()
        if digest in self.recent:
            return False
        if len(self.recent_order) == self.recent_order.maxlen:
            self.recent.discard(self.recent_order[0])
        self.recent_order.append(digest)
        self.recent.add(digest)
        return True

    def remember(self, data: bytes) -> bool:
        """File a message; False if it was already known (or the table is full)."""
        digest = hashlib.sha256(data).digest()
        if digest in self.seen or len(self.seen) >= MAX_MESSAGES:
            return False
        self.seen.add(digest)
        if self.log is None:
            self.held.append(data)
        try:
            entry = P.Entry.parse(data)
        except P.DecodeError:
            notice = _notice(data)
            if notice is None:
                self.lobby.append(data)
            else:  # a notice kept before a restart: kept, never sent to a new link
                self.notices.setdefault(notice.by, data)
        else:
            self.entries.setdefault((entry.seat, entry.seq), data)
        return True

    def spec(self) -> P.TableSpec | None:
        """The table's spec, from the first start its host signed among the lobby's (read
        once found)."""
        if self.signed_spec is None:
            for data in self.lobby:
                try:
                    msg = P.decode(data)
                except P.DecodeError:
                    continue
                if isinstance(msg, TableStart) and (spec := signed_start(msg)) is not None:
                    self.signed_spec = spec
                    break
        return self.signed_spec

    def new_notice(self, msg: TimeNotice) -> bool:
        """Whether ``msg`` is a time notice to keep: the table started, and it is the first
        notice its ``by`` seat signed that we hold (an honest seat signs one: its flag ends
        its game), signed by that seat."""
        if self.log is None or msg.by in self.notices:
            return False
        spec = self.spec()
        return spec is not None and msg.signed_by(spec.table_id, spec.players)

    def started(self, log: LogFile) -> None:
        """The table showed a signed start: from now on it is kept on disk, from its lobby."""
        for data in self.held:
            log.append(data, durable=False)
        self.log, self.held = log, []


class RelayNode:
    def __init__(
        self,
        data_dir: Path,
        identity: P.Identity,
        *,
        port: int = 0,
        host: str = "127.0.0.1",
        limits: RelayLimits | None = None,
        mailbox: MailboxLimits | None = None,
        emit: Emit = lambda event: print(event_line(event)),
    ) -> None:
        self.data_dir = data_dir
        self.identity = identity
        self.port = port
        self.host = host
        self.emit = emit
        self.tables: dict[bytes, _Table] = {}
        self.quota = RelayQuota(limits)
        self.mailbox = Mailbox(mailbox)  # join codes' rendezvous (``_mailbox``)
        self.serving = ServeBudget()  # bytes of catch-up answers per asker
        self.spectators = 0  # spectator links open now (over all tables)
        self._news = trio.Event()  # set, and made anew, at each change :meth:`until` tells

    def _changed(self) -> None:
        self._news.set()
        self._news = trio.Event()

    async def until(self, holds: Callable[[], bool]) -> None:
        """Return once ``holds()`` is true, checked now and each time a table is opened,
        starts or is dropped, or a link ends (the caller bounds the wait)."""
        while not holds():
            await self._news.wait()

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        dropped = self._reload()
        async with trio.open_nursery() as nursery:
            self.port = await nursery.start(self._serve)
            nursery.start_soon(self._expire)
            key = base64.urlsafe_b64encode(self.identity.public.key).rstrip(b"=").decode()
            self.emit(RelayOpen(self.port, len(self.tables), dropped, key))
            task_status.started(self.port)

    async def _expire(self) -> None:
        """Drop the tables that showed no signed start in time (and close their links)."""
        every = min(5.0, self.quota.limits.unstarted_seconds / 4)
        while True:
            await trio.sleep(every)
            for scope in self.quota.expired(trio.current_time()):
                await self._drop(scope, EXPIRED)

    async def _drop(self, scope: bytes, reason: str) -> None:
        self.quota.drop(scope)
        table = self.tables.pop(scope, None)
        self._changed()
        if table is not None:
            for link in list(table.links):
                await link.aclose(reason)

    async def _serve(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        await serve_links(
            self.port,
            self._handle,
            identity=self.identity,
            secrets_for=lambda scope: RELAY_SECRET,
            role=LinkRole.RELAY,
            host=self.host,
            task_status=task_status,
        )

    def _reload(self) -> int:
        """Reload the started tables on disk; delete the folders of the others (a lobby that
        never started: its peers send it again).  How many were deleted."""
        root = self.data_dir / "relay"
        if not root.is_dir():
            return 0
        dropped = 0
        for folder in sorted(root.iterdir()):
            try:
                scope = bytes.fromhex(folder.name)
            except ValueError:
                continue
            if len(scope) != 32 or not folder.is_dir():
                continue
            if relay_table_id(folder) is None:  # no start signed by its host
                shutil.rmtree(folder, ignore_errors=True)
                dropped += 1
                continue
            log = self._log(scope)
            table = _Table(scope, log)
            self.tables[scope] = table
            self.quota.start(scope, sum(len(data) for data in log.records))
            for data in log.records:
                table.remember(data)
        return dropped

    def _log(self, scope: bytes) -> LogFile:
        return LogFile(self.data_dir / "relay" / scope.hex() / "log")

    async def _handle(self, link: Link) -> None:
        source = source_of(link.address)
        refusal = self.quota.link(source)
        if refusal is not None:
            await link.aclose(refusal)
            return
        try:
            await self._subscribe(link, source)
        finally:
            self.quota.unlink(source)
            self._changed()

    async def _subscribe(self, link: Link, source: str) -> None:
        try:
            with trio.fail_after(5):
                first = await link.receive()
            hello = P.decode(first)
            if isinstance(hello, MailboxOpen | MailboxJoin) and link.info.scope == MAILBOX_SCOPE:
                await self.mailbox.serve(link, source, hello)
                return
            if not isinstance(hello, Subscribe) or relay_scope(hello.token) != link.info.scope:
                await link.aclose(LinkReason.INVITE)
                return
            scope = link.info.scope
            if link.info.role is LinkRole.OBSERVER or hello.role == LinkRole.OBSERVER:  # its word
                await self._spectate(link, scope)
                return
            refusal = self.quota.open(scope, source, trio.current_time())
            for pushed_out in self.quota.evicted():  # made room for this one
                await self._drop(pushed_out, EVICTED)
            if refusal is not None:
                await link.aclose(refusal)
                return
            table = self.tables.setdefault(scope, _Table(scope))
            table.links.add(link)
            self._changed()
            try:
                await self._read(table, link)
            finally:
                table.links.discard(link)
                if table.log is None and not table.links and self.tables.get(scope) is table:
                    await self._drop(scope, EXPIRED)  # a lobby nobody holds: forget it
        except (LinkClosed, P.DecodeError, trio.TooSlowError):
            return

    async def _read(self, table: _Table, link: Link) -> None:
        """Greet a link of ``table``, then act on every message it sends, to the last one
        it delivered.  A reply to it (the greeting, a want's answer, any other) that meets
        it closed is dropped and the reading goes on: a link its peer closed still yields
        what arrived before the close -- a peer that says its last entry and its farewell
        and leaves at once is heard (seed 50 of the simulator: a farewell behind a want,
        lost, kept the seat that stayed for it waiting 598 s).  A link the relay closed
        itself (a refusal) yields nothing more."""
        with contextlib.suppress(LinkClosed):
            await self._greet(table, link)
        async for data in link:
            with contextlib.suppress(LinkClosed):
                await self._on_message(table, link, data)

    async def _greet(self, table: _Table, link: Link) -> None:
        """What a new link of ``table`` is sent first: the lobby's messages, in order, and a
        want per seat for what we may have missed."""
        for data in list(table.lobby):
            await link.send(data)
        for seat in range(P.MAX_SEATS):
            have = 0
            while (seat, have) in table.entries:
                have += 1
            await link.send(P.encode(P.FeedRequest(seat, have, 1 << 52)))

    async def _spectate(self, link: Link, scope: bytes) -> None:
        """A spectator of a started table: served by the table's watchers until it goes
        (it opens, stores and passes on nothing)."""
        table = self.tables.get(scope)
        if table is None or table.log is None:
            await link.aclose(NOT_STARTED)
            return
        if self.spectators >= MAX_SPECTATORS:
            await link.aclose(LinkReason.TOO_MANY_SPECTATORS)
            return
        self.spectators += 1
        try:
            await table.watchers.adopt(link)
        finally:
            self.spectators -= 1

    async def _on_message(self, table: _Table, source: Link, data: bytes) -> None:
        try:
            msg = P.decode(data)
        except P.DecodeError:
            return
        if isinstance(msg, P.FeedRequest):
            await self._answer(table, source, msg)
            return
        if isinstance(msg, Presence | TimeNotice | Starved):  # of the moment: not stored
            if not table.passing(data):
                return
            if isinstance(msg, TimeNotice):  # but for each seat's first notice
                self._keep_notice(table, msg, data)
        else:
            if hashlib.sha256(data).digest() in table.seen:
                return
            refusal = self.quota.hold(table.scope, len(data))
            if refusal is not None:
                await source.aclose(refusal)
                return
            if not table.remember(data):
                return
            if table.log is not None:
                table.log.append(data, durable=False)
            elif isinstance(msg, TableStart) and signed_start(msg) is not None:
                table.started(self._log(table.scope))  # off probation: on disk from now on
                self.quota.start(table.scope)
                self._changed()
            if isinstance(msg, P.Entry):
                table.watchers.forward(data)  # never waits: a full queue drops that spectator
        await _send_others(table, source, data)

    def _keep_notice(self, table: _Table, msg: TimeNotice, data: bytes) -> None:
        """Keep a seat's first signed time notice in the table's log (within its bytes)."""
        if table.log is None or not table.new_notice(msg):
            return
        if self.quota.hold(table.scope, len(data)) is None:
            table.notices[msg.by] = data
            table.log.append(data, durable=False)

    async def _answer(self, table: _Table, source: Link, msg: P.FeedRequest) -> None:
        """Answer a want from the store, within the asker's byte budget.  Raises
        :class:`LinkClosed` if the asker's link closed meanwhile (:meth:`_read` drops the
        answer and reads on)."""
        stop = min(msg.stop, msg.start + 4096)
        key = source.info.key
        for seq in range(msg.start, stop):
            entry = table.entries.get((msg.seat, seq))
            if entry is None:
                await self._ask_on(table, source, msg.seat, seq, msg.stop)
                return
            if not self.serving.take(key, len(entry), trio.current_time()):
                if self.serving.over(key):
                    await source.aclose(OVER_BUDGET)
                return
            await source.send(entry)

    async def _ask_on(self, table: _Table, source: Link, seat: int, have: int, stop: int) -> None:
        """A want we cannot answer from the store: ask the table's other links for it, so
        an entry lost on its way to us -- which nobody would send again unasked -- comes
        back through us to whoever wants it.  Within the asker's share (``_serving``:
        every seat answers all wants we pass on within the one budget it keeps for us)."""
        asked = table.pass_on.ask(source.info.key, seat, have, stop, trio.current_time())
        if asked is not None:
            data = P.encode(P.FeedRequest(seat, *asked))
            await _send_others(table, source, data)


async def _send_others(table: _Table, source: Link, data: bytes) -> None:
    """Send ``data`` on every link of ``table`` but ``source``, forgetting links that closed."""
    for link in list(table.links):
        if link is not source:
            try:
                await link.send(data)
            except LinkClosed:
                table.links.discard(link)


def _notice(data: bytes) -> TimeNotice | None:
    try:
        msg = P.decode(data)
    except P.DecodeError:
        return None
    return msg if isinstance(msg, TimeNotice) else None


def _is_start(data: bytes) -> bool:
    try:
        return isinstance(P.decode(data), TableStart)
    except P.DecodeError:
        return False
