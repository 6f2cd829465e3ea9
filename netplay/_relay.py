"""A relay: a seatless peer that links players who cannot reach each other.

The relay accepts links for any table, files each link under the table's relay
scope once the peer proves the relay token (:class:`~netplay._lobby.Subscribe`;
the token's hash is the scope, so a stranger without the invite cannot get in),
floods every new message to the table's other links, stores everything it
forwarded on disk (but presence beats and time notices, which only matter the
moment they pass), and answers catch-up requests from what it stored.  It
reads no entry body and holds no key of any table: it cannot open a sealed or
encrypted card, and it cannot forge a signed entry.  Several tables can share
one relay; a restarted relay reloads its logs and carries on.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import trio

import protocol as P

from ._clock import Presence, TimeNotice
from ._link import Link, LinkClosed, serve_links
from ._lobby import Subscribe
from ._node import RELAY_SECRET, relay_scope
from ._storage import LogFile

__all__ = ["RelayNode"]

MAX_TABLES = 256
MAX_MESSAGES = 200_000


@attrs.define(eq=False)
class _Table:
    scope: bytes
    log: LogFile
    links: set[Link] = attrs.Factory(set)
    seen: set[bytes] = attrs.Factory(set)
    lobby: list[bytes] = attrs.Factory(list)  # join / status / start messages, in order
    entries: dict[tuple[int, int], bytes] = attrs.Factory(dict)
    recent: set[bytes] = attrs.Factory(set)  # what passed lately without being stored
    recent_order: deque[bytes] = attrs.Factory(lambda: deque(maxlen=4096))

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
        try:
            entry = P.Entry.parse(data)
        except P.DecodeError:
            self.lobby.append(data)
        else:
            self.entries.setdefault((entry.seat, entry.seq), data)
        return True


class RelayNode:
    def __init__(self, data_dir: Path, identity: P.Identity, *, port: int = 0,
                 host: str = "127.0.0.1", emit: Callable[[dict[str, Any]], None] = print) -> None:
        self.data_dir = data_dir
        self.identity = identity
        self.port = port
        self.host = host
        self.emit = emit
        self.tables: dict[bytes, _Table] = {}

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        self._reload()
        async with trio.open_nursery() as nursery:
            self.port = await nursery.start(self._serve)
            self.emit({"event": "relay_open", "port": self.port, "tables": len(self.tables)})
            task_status.started(self.port)

    async def _serve(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        await serve_links(self.port, self._handle, identity=self.identity,
                          secrets_for=lambda scope: RELAY_SECRET, role="relay", host=self.host,
                          task_status=task_status)

    def _reload(self) -> None:
        root = self.data_dir / "relay"
        if not root.is_dir():
            return
        for folder in sorted(root.iterdir()):
            try:
                scope = bytes.fromhex(folder.name)
            except ValueError:
                continue
            table = self._table(scope)
            for data in table.log.records:
                table.remember(data)

    def _table(self, scope: bytes) -> _Table:
        table = self.tables.get(scope)
        if table is None:
            table = _Table(scope, LogFile(self.data_dir / "relay" / scope.hex() / "log"))
            self.tables[scope] = table
        return table

    async def _handle(self, link: Link) -> None:
        try:
            with trio.fail_after(5):
                first = await link.receive()
            hello = P.decode(first)
            if not isinstance(hello, Subscribe) or relay_scope(hello.token) != link.info.scope:
                await link.aclose("invite")
                return
            if link.info.scope not in self.tables and len(self.tables) >= MAX_TABLES:
                await link.aclose("relay full")
                return
            table = self._table(link.info.scope)
            table.links.add(link)
            try:
                for data in list(table.lobby):
                    await link.send(data)
                for seat in range(P.MAX_SEATS):  # and ask for what we may have missed
                    have = 0
                    while (seat, have) in table.entries:
                        have += 1
                    await link.send(P.encode(P.FeedRequest(seat, have, 1 << 52)))
                async for data in link:
                    await self._on_message(table, link, data)
            finally:
                table.links.discard(link)
        except (LinkClosed, P.DecodeError, trio.TooSlowError):
            return

    async def _on_message(self, table: _Table, source: Link, data: bytes) -> None:
        try:
            msg = P.decode(data)
        except P.DecodeError:
            return
        if isinstance(msg, P.FeedRequest):
            stop = min(msg.stop, msg.start + 4096)
            for seq in range(msg.start, stop):
                entry = table.entries.get((msg.seat, seq))
                if entry is None:
                    break
                await source.send(entry)
            return
        if isinstance(msg, Presence | TimeNotice):  # of the moment: passed on, never stored
            if not table.passing(data):
                return
        elif not table.remember(data):
            return
        else:
            table.log.append(data, durable=False)
        for link in list(table.links):
            if link is not source:
                try:
                    await link.send(data)
                except LinkClosed:
                    table.links.discard(link)
