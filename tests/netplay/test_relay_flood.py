"""Issue 14, finding 5: a stranger cannot disable a relay (real loopback sockets).

A stranger -- anyone who reaches the relay, no invite needed -- opens tables under random
relay tokens and fills them with junk lobby messages.  The relay keeps such tables on
probation (see ``netplay.relay._relay_quota``): per source address and overall, within bytes and
messages, in memory only, for a limited time; a real ``--via`` game still starts and
finishes, a restarted relay forgets unstarted junk, and a host the relay refuses is told
why.  Strangers connect from 127.0.0.2 and up (other loopback addresses: other machines).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

import fairtable.protocol as P
from fairtable.netplay import LinkClosed, NodeConfig, Reach, RelayNode, TableNode
from fairtable.netplay.links._link import DEFAULT_CONFIG, Link, LinkConfig
from fairtable.netplay.links._tls import peer_key, wrap_client
from fairtable.netplay.links._wire import Handshake, client_handshake
from fairtable.netplay.relay._relay_quota import (
    EVICTED,
    EXPIRED,
    OVER_BUDGET,
    RELAY_FULL,
    TOO_LARGE,
    TOO_MANY_FROM_YOU,
    RelayLimits,
)
from fairtable.netplay.storage._storage import LogFile
from fairtable.netplay.table._invite import RELAY_SECRET, relay_scope, relay_token
from fairtable.netplay.table._lobby import JoinRequest, Subscribe, sign_start
from fairtable.netplay.table._serving import PASS_PER_KEY, PASS_SPAN
from tests.netplay.said import as_json
from tests.netplay.test_tables import Table


async def stranger(
    nursery: trio.Nursery,
    port: int,
    source: str,
    token: bytes | None = None,
    config: LinkConfig = DEFAULT_CONFIG,
) -> tuple[Link, bytes]:
    """A link from ``source`` that subscribes to the table of ``token`` (default: random)."""
    token = os.urandom(32) if token is None else token
    stream = wrap_client(await trio.open_tcp_stream("127.0.0.1", port, local_address=source))
    await stream.do_handshake()
    hs = Handshake(stream)
    info = await client_handshake(
        hs,
        P.Identity.generate(),
        "peer",
        relay_scope(token),
        RELAY_SECRET,
        None,
        tls_key=peer_key(stream),
    )
    link = Link(stream, info, config=config, initiator=True, address=source)
    await nursery.start(link._run)
    await link.send(P.encode(Subscribe(token, "peer")))
    return link, relay_scope(token)


async def taken(link: Link) -> str | None:
    """None if the relay took the table (it asks for what it lacks), else why not."""
    try:
        await link.receive()
    except LinkClosed as exc:
        return exc.reason
    return None


def junk(size: int) -> bytes:
    """A valid lobby message nobody will ever use, about ``size`` bytes."""
    return P.encode(JoinRequest(os.urandom(32), os.urandom(32), 0, os.urandom(size)))


async def flood(
    link: Link, messages: int, size: int, watch: Callable[[], None] = lambda: None
) -> str | None:
    """Send junk (calling ``watch`` after each message); the reason the relay closed the
    link over it, or None if it took it all."""
    try:
        for _ in range(messages):
            await link.send(junk(size))
            watch()
        while True:  # the relay closes the link after what it refused
            with trio.move_on_after(1.0):
                await link.receive()
                continue
            return None
    except LinkClosed as exc:
        return exc.reason


def disk_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


class RelayedTable(Table):
    """A :class:`Table` played through a relay that is already running."""

    def __init__(self, tmp: Path, seats: int, port: int) -> None:
        super().__init__(tmp, seats, via_relay=False)
        self.port = port

    def config(self, index: int, via: tuple[str, int] | None) -> NodeConfig:
        return super().config(index, ("127.0.0.1", self.port))


async def test_a_flood_of_stranger_tables_does_not_stop_a_real_relayed_game(tmp_path: Path) -> None:
    relay = RelayNode(tmp_path / "relay", P.Identity.generate(), emit=lambda e: None)
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(relay.run)
            refusals = []
            for _ in range(300):  # more than the relay ever held
                link, _scope = await stranger(nursery, port, "127.0.0.2")
                refusals.append(await taken(link))
            table = RelayedTable(tmp_path / "game", 3, port)
            await table.play()
            nursery.cancel_scope.cancel()
    assert refusals.count(None) == relay.quota.limits.unstarted_per_source
    assert set(refusals) == {None, TOO_MANY_FROM_YOU}
    results = table.results()
    assert len({r["digest"] for r in results}) == 1


async def test_strangers_over_many_addresses_cannot_keep_a_real_host_out(tmp_path: Path) -> None:
    """Strangers from 12 addresses in 6 networks (127.0.N.x) hold every probation place; a
    real host from another network still gets in and plays: the network holding the most
    makes room (its oldest table goes, its link told why)."""
    relay = RelayNode(tmp_path / "relay", P.Identity.generate(), emit=lambda e: None)
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(relay.run)
            links = []
            for n in range(48):  # 4 tables from each of 12 addresses, 2 in each network
                link, _scope = await stranger(nursery, port, f"127.0.{1 + n // 8}.{2 + n % 8 // 4}")
                if await taken(link) is None:  # once all are taken some push out others
                    links.append(link)
            assert len(relay.quota.unstarted) == relay.quota.limits.unstarted == 32
            table = RelayedTable(tmp_path / "game", 3, port)
            await table.play()
            pushed = []
            for link in links:
                with trio.move_on_after(0.2):
                    while (reason := await taken(link)) is None:
                        pass
                    pushed.append(reason)
            nursery.cancel_scope.cancel()
    results = table.results()
    assert len({r["digest"] for r in results}) == 1
    assert EVICTED in pushed and len(links) > 32


async def test_junk_before_a_start_stays_in_memory_within_its_bound(tmp_path: Path) -> None:
    limits = RelayLimits(unstarted_bytes=64 * 1024, unstarted_messages=100)
    relay = RelayNode(tmp_path / "relay", P.Identity.generate(), limits=limits, emit=lambda e: None)
    peak = [0, 0]  # bytes held by the quota's count, and in the tables themselves

    def watch() -> None:
        stored = sum(len(d) for t in relay.tables.values() for d in t.held)
        peak[:] = max(peak[0], relay.quota.held_bytes()), max(peak[1], stored)
        assert disk_bytes(tmp_path / "relay") == 0  # nothing of an unstarted table on disk

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(relay.run)
            links = []
            for source in ("127.0.0.2", "127.0.0.3"):
                for _ in range(limits.unstarted_per_source):
                    link, _scope = await stranger(nursery, port, source)
                    assert await taken(link) is None
                    links.append(link)
            for link in links:  # 4 MB offered per table, in lobby messages of 40 KB
                assert await flood(link, 100, 40_000, watch) == OVER_BUDGET
            await relay.until(lambda: not relay.tables)  # forgotten once its last link closed
            nursery.cancel_scope.cancel()
    assert peak[0] == peak[1]
    assert limits.unstarted_bytes // 2 < peak[0] <= len(links) * limits.unstarted_bytes
    assert relay.quota.held_bytes() == 0


async def test_a_table_a_stranger_starts_itself_is_bounded_too(tmp_path: Path) -> None:
    """A careful stranger signs a start for a table of its own (any key may sit at seat 0):
    the table leaves probation, but what the relay keeps of it stays bounded."""
    limits = RelayLimits(table_bytes=256 * 1024)
    relay = RelayNode(tmp_path / "relay", P.Identity.generate(), limits=limits, emit=lambda e: None)
    me = P.Identity.generate()
    spec = P.TableSpec("reign", (me.public.key, os.urandom(32), os.urandom(32)), 0, os.urandom(32))
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(relay.run)
            link, scope = await stranger(nursery, port, "127.0.0.2")
            assert await taken(link) is None
            await link.send(P.encode(sign_start(me, spec, (), os.urandom(32))))
            await relay.until(lambda: relay.tables[scope].log is not None)  # it sees the start
            assert await flood(link, 100, 40_000) == TOO_LARGE
            nursery.cancel_scope.cancel()
    assert relay.quota.started[scope] <= limits.table_bytes
    assert disk_bytes(tmp_path / "relay") <= limits.table_bytes + 100 * 8  # + record headers


async def test_one_address_holds_only_so_many_links(tmp_path: Path) -> None:
    relay = RelayNode(
        tmp_path / "relay",
        P.Identity.generate(),
        limits=RelayLimits(links_per_source=8),
        emit=lambda e: None,
    )
    token = os.urandom(32)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(relay.run)
            answers = []
            for _ in range(20):  # links to one table, each one a socket the relay holds
                link, _scope = await stranger(nursery, port, "127.0.0.2", token)
                answers.append(await taken(link))
            assert answers == [None] * 8 + [TOO_MANY_FROM_YOU] * 12
            link, _scope = await stranger(nursery, port, "127.0.0.3", token)
            assert await taken(link) is None  # another address still gets in
            nursery.cancel_scope.cancel()


async def test_a_table_without_a_start_expires(tmp_path: Path) -> None:
    relay = RelayNode(
        tmp_path / "relay",
        P.Identity.generate(),
        limits=RelayLimits(unstarted_seconds=0.5),
        emit=lambda e: None,
    )
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(relay.run)
            link, scope = await stranger(nursery, port, "127.0.0.2")
            assert await taken(link) is None
            assert scope in relay.tables
            while True:  # the relay closes it once it expires
                reason = await taken(link)
                if reason is not None:
                    break
            assert reason == EXPIRED
            assert scope not in relay.tables and not relay.quota.known(scope)
            nursery.cancel_scope.cancel()


async def test_a_lobby_nobody_holds_is_forgotten(tmp_path: Path) -> None:
    relay = RelayNode(
        tmp_path / "relay",
        P.Identity.generate(),
        limits=RelayLimits(unstarted_per_source=1),
        emit=lambda e: None,
    )
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(relay.run)
            first, scope = await stranger(nursery, port, "127.0.0.2")
            assert await taken(first) is None
            second, _scope = await stranger(nursery, port, "127.0.0.2")
            assert await taken(second) == TOO_MANY_FROM_YOU
            await first.aclose()
            await relay.until(lambda: not relay.quota.known(scope))  # it sees the link go
            assert scope not in relay.tables
            third, _scope = await stranger(nursery, port, "127.0.0.2")
            assert await taken(third) is None  # room again for that address
            nursery.cancel_scope.cancel()


async def test_a_relay_restart_drops_unstarted_junk_and_keeps_real_tables(tmp_path: Path) -> None:
    relay_dir = tmp_path / "relay"
    relay = RelayNode(relay_dir, P.Identity.generate(), emit=lambda e: None)
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(relay.run)
            table = RelayedTable(tmp_path / "game", 3, port)
            await table.play()
            nursery.cancel_scope.cancel()
    real = set(relay.tables)
    assert len(real) == 1
    # junk an older relay left on disk: a lobby that never started, and a torn folder
    for name, records in (
        (os.urandom(32).hex(), [junk(1000) for _ in range(20)]),
        (os.urandom(32).hex(), []),
    ):
        log = LogFile(relay_dir / "relay" / name / "log")
        for record in records:
            log.append(record, durable=False)
        log.close()
    events: list[dict[str, Any]] = []
    revived = RelayNode(relay_dir, P.Identity.generate(), emit=as_json(events))
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await nursery.start(revived.run)
            nursery.cancel_scope.cancel()
    assert set(revived.tables) == real
    assert sorted(p.name for p in (relay_dir / "relay").iterdir()) == [s.hex() for s in real]
    opened = next(e for e in events if e["event"] == "relay_open")
    assert opened["tables"] == 1 and opened["dropped"] == 2


@pytest.mark.parametrize(
    "strangers, reason",
    [
        (("127.0.0.1", "127.0.0.1"), TOO_MANY_FROM_YOU),  # the host's own address is used up
        (("127.0.0.2", "127.0.0.3"), RELAY_FULL),  # everyone's room is used up
    ],
)
async def test_a_host_the_relay_refuses_is_told_why(
    tmp_path: Path, strangers: tuple[str, ...], reason: str
) -> None:
    limits = RelayLimits(unstarted=2, unstarted_per_source=2)
    relay = RelayNode(tmp_path / "relay", P.Identity.generate(), limits=limits, emit=lambda e: None)
    events: list[dict[str, Any]] = []
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(relay.run)
            for source in strangers:
                link, _scope = await stranger(nursery, port, source)
                assert await taken(link) is None
            host = TableNode(
                NodeConfig(data_dir=tmp_path / "host", reach=Reach(via=("127.0.0.1", port))),
                P.Identity.generate(),
                seats=2,
                emit=as_json(events),
            )
            nursery.start_soon(host.run)
            await host.done.wait()  # the host gives up: no retry makes room
            nursery.cancel_scope.cancel()
    assert {"event": "link_refused", "reason": reason} in events
    refused = [e["reason"] for e in events if e["event"] == "refused"]
    assert refused == [f"the relay refused the table: {reason}"]


class ForgetfulRelay(RelayNode):
    """Passes everything on but stores none of seat 0's entries after its first: every want
    for them is one it must pass on to the table's other links.  Counts the wants read from
    the flooder (``FLOODER``) and the wants passed on, by the key that asked."""

    def __init__(self, *args: Any, flood: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.passed: dict[bytes, int] = {}  # wants passed on, by the key that asked
        self.asked_by_flooder = 0
        self.flood = flood
        self.flood_read = trio.Event()  # set once all ``flood`` of the flooder's wants are read

    async def _on_message(self, table: Any, source: Link, data: bytes) -> None:
        flooder = source.address.startswith(FLOODER) and isinstance(_decoded(data), P.FeedRequest)
        await super()._on_message(table, source, data)
        for seat, seq in [k for k in table.entries if k[0] == 0 and k[1] >= 1]:
            del table.entries[(seat, seq)]
        if flooder:
            self.asked_by_flooder += 1
            if self.asked_by_flooder >= self.flood:
                self.flood_read.set()

    async def _ask_on(self, table: Any, source: Link, seat: int, have: int, stop: int) -> None:
        sent = table.links - {source}
        before = {link: getattr(link, "wants_in", 0) for link in sent}
        await super()._ask_on(table, source, seat, have, stop)
        if any(getattr(link, "wants_in", 0) != before[link] for link in sent):
            self.passed[source.info.key] = self.passed.get(source.info.key, 0) + 1


class _Heard(list[dict[str, Any]]):
    """A node's events, calling ``told(event)`` as each comes."""

    def __init__(self, told: Callable[[dict[str, Any]], None]) -> None:
        super().__init__()
        self.told = told

    def append(self, event: dict[str, Any]) -> None:
        super().append(event)
        self.told(event)


FLOODER = "127.0.0.9"


async def test_a_flooding_asker_gets_only_its_share_of_wants_passed_on(tmp_path: Path) -> None:
    """Leftover e over sockets: an invite holder behind the relay asks 2,000 times for
    entries of seat 0 the relay lacks, each from a new start (a span apart, so no want lies
    in a range asked on just before); the relay passes on only its share (``PASS_PER_KEY``
    a window), and the real game through the relay still finishes.  Every wait is for the
    event asserted (all seated, the whole flood read), never for a time."""
    flood = 2_000
    relay = ForgetfulRelay(
        tmp_path / "relay", P.Identity.generate(), emit=lambda e: None, flood=flood
    )
    real_send = Link.send

    async def counting_send(self: Link, data: bytes) -> None:
        if isinstance(_decoded(data), P.FeedRequest):
            self.wants_in = getattr(self, "wants_in", 0) + 1  # type: ignore[attr-defined]
        await real_send(self, data)

    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(relay.run)
            table = RelayedTable(tmp_path / "game", 3, port)
            seated = trio.Event()
            sitting: set[int] = set()

            def told(index: int, event: dict[str, Any]) -> None:
                if event["event"] == "seated":
                    sitting.add(index)
                    if len(sitting) == table.seats:
                        seated.set()

            table.events = [
                _Heard(lambda e, i=i: told(i, e))  # type: ignore[misc]
                for i in range(table.seats)
            ]
            Link.send = counting_send  # type: ignore[method-assign, assignment]
            try:

                async def flood_wants() -> None:
                    await seated.wait()  # every seat plays: the relay has links to pass on to
                    invite = table.nodes[0].invite
                    assert invite is not None
                    link, _scope = await stranger(nursery, port, FLOODER, token=relay_token(invite))
                    for n in range(flood):  # far past any head: no honest seat asks there
                        start = (1 << 20) + n * PASS_SPAN
                        await link.send(P.encode(P.FeedRequest(0, start, 1 << 52)))

                nursery.start_soon(flood_wants)
                await table.play()
                await relay.flood_read.wait()  # a loaded machine may finish the game first
            finally:
                Link.send = real_send  # type: ignore[method-assign]
            nursery.cancel_scope.cancel()
    assert len({r["digest"] for r in table.results()}) == 1
    players = {node.identity.public.key for node in table.nodes}
    flooder = [passed for key, passed in relay.passed.items() if key not in players]
    assert relay.asked_by_flooder == flood  # the flood reached the relay, each ask a new start
    assert len(flooder) == 1 and 0 < flooder[0] <= PASS_PER_KEY  # one window's share at most


def _decoded(data: bytes) -> Any:
    try:
        return P.decode(data)
    except P.DecodeError:
        return None
