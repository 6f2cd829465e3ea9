"""Links over real loopback TCP: handshake outcomes on both ends, abuse, heartbeats, shutdown.

Every test is bounded with ``trio.fail_after``; nothing sleeps to wait for an
event.  The quiet link's test lets time pass, which is what it tests, on trio's
``MockClock`` (``autojump_clock``): four idle timeouts go by without waiting for them.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from functools import partial
from typing import Any

import attrs
import pytest
import trio
from trio.testing import MockClock

import fairtable.protocol as P
from fairtable.netplay.links._accept import serve_links
from fairtable.netplay.links._frames import FrameReader, encode_frame
from fairtable.netplay.links._link import (
    Link,
    LinkClosed,
    LinkConfig,
    PeerInfo,
    connect,
    connect_with_backoff,
    open_link,
)
from fairtable.netplay.links._tls import wrap_client, wrap_server
from fairtable.netplay.links._wire import Auth, Bye, Hello, Ping, auth_for, hello_for, transcript

SCOPE = hashlib.sha256(b"test table").digest()
OTHER_SCOPE = hashlib.sha256(b"other table").digest()
SECRET = hashlib.sha256(b"test invite secret").digest()
WRONG = hashlib.sha256(b"not the secret").digest()
SERVER = P.Identity.from_seed(hashlib.sha256(b"server").digest())
CLIENT = P.Identity.from_seed(hashlib.sha256(b"client").digest())
MALLORY = P.Identity.from_seed(hashlib.sha256(b"mallory").digest())

CONFIG = LinkConfig(handshake_timeout=2.0, ping_interval=0.2, idle_timeout=2.0, bye_timeout=0.3)
Handler = Callable[[Link], Awaitable[object]]


# --------------------------------------------------------------------------- helpers


async def echo(link: Link) -> None:
    async for payload in link:
        await link.send(payload)


@attrs.define
class Server:
    port: int
    accepted: trio.MemoryReceiveChannel[PeerInfo]
    refused: trio.MemoryReceiveChannel[LinkClosed]

    async def next_refusal(self) -> str:
        return (await self.refused.receive()).reason


async def start_server(
    nursery: trio.Nursery,
    handler: Handler = echo,
    *,
    secrets: dict[bytes, bytes] | None = None,
    **kwargs: Any,
) -> Server:
    table = {SCOPE: SECRET} if secrets is None else secrets
    accepted_send, accepted = trio.open_memory_channel[PeerInfo](1000)
    refused_send, refused = trio.open_memory_channel[LinkClosed](1000)

    async def record(link: Link) -> None:
        accepted_send.send_nowait(link.info)
        await handler(link)

    kwargs.setdefault("config", CONFIG)
    port = await nursery.start(
        partial(
            serve_links,
            0,
            record,
            identity=SERVER,
            secrets_for=table.get,
            on_refused=refused_send.send_nowait,
            **kwargs,
        )
    )
    return Server(port, accepted, refused)


def client(port: int, **kwargs: Any) -> Any:
    kwargs.setdefault("identity", CLIENT)
    kwargs.setdefault("scope", SCOPE)
    kwargs.setdefault("secret", SECRET)
    kwargs.setdefault("config", CONFIG)
    return open_link("127.0.0.1", port, **kwargs)


class Raw:
    """A hand-driven end of a connection, for peers that misbehave."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.reader = FrameReader()
        self.pending: list[bytes] = []

    async def write(self, msg: Any) -> None:
        await self.stream.send_all(encode_frame(P.encode(msg)))

    async def read(self) -> Any:
        """The next message, or None at end of stream."""
        while not self.pending:
            try:
                data = await self.stream.receive_some(65536)
            except trio.BrokenResourceError:
                data = b""
            if not data:
                return None
            self.pending += self.reader.feed(data)
        return P.decode(self.pending.pop(0))

    async def read_until_closed(self) -> list[Any]:
        out = []
        while (msg := await self.read()) is not None:
            out.append(msg)
        return out


@asynccontextmanager
async def raw_client(port: int) -> AsyncIterator[Raw]:
    """A hand-driven client inside TLS (links are TLS 1.3 from the first byte)."""
    stream = wrap_client(await trio.open_tcp_stream("127.0.0.1", port))
    try:
        await stream.do_handshake()
        yield Raw(stream)
    finally:
        await trio.aclose_forcefully(stream)


async def raw_handshake(raw: Raw, *, identity: P.Identity = CLIENT, signer: Any = None) -> None:
    """Play the client side of the handshake by hand (``signer`` signs the Auth)."""
    mine = hello_for(identity, "peer", SCOPE)
    await raw.write(mine)
    theirs = await raw.read()
    assert isinstance(theirs, Hello)
    await raw.write(auth_for(signer or identity, SECRET, transcript(mine, theirs), initiator=True))


async def start_fake_server(
    nursery: trio.Nursery, play: Callable[[Raw], Awaitable[None]]
) -> tuple[int, trio.MemoryReceiveChannel[list[Any]]]:
    """A TLS server (as SERVER) playing ``play`` on each connection; reports what it read."""
    send, receive = trio.open_memory_channel[list[Any]](10)

    async def handle(tcp: trio.SocketStream) -> None:
        stream = wrap_server(tcp, SERVER)
        raw = Raw(stream)
        with suppress(trio.BrokenResourceError):
            await stream.do_handshake()
            await play(raw)
        with trio.move_on_after(3):
            send.send_nowait(await raw.read_until_closed())

    listeners = await nursery.start(partial(trio.serve_tcp, handle, 0, host="127.0.0.1"))
    return listeners[0].socket.getsockname()[1], receive


def fake_server_hello(**changes: Any) -> Callable[[Raw], Awaitable[None]]:
    """A server that answers the client's Hello with a doctored Hello (and Auth)."""

    async def play(raw: Raw) -> None:
        theirs = await raw.read()
        mine = attrs.evolve(hello_for(SERVER, "peer", SCOPE), **changes)
        await raw.write(mine)
        await raw.write(auth_for(SERVER, SECRET, transcript(theirs, mine), initiator=False))

    return play


# --------------------------------------------------------------------------- success


async def test_handshake_both_ways_with_peer_info() -> None:
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery)
            async with client(server.port, role="observer") as link:
                assert link.info == PeerInfo(key=SERVER.public.key, role="peer", scope=SCOPE)
                assert link.initiator
                seen = await server.accepted.receive()
                assert seen == PeerInfo(key=CLIENT.public.key, role="observer", scope=SCOPE)
                await link.send(b'{"hello":1}')
                assert await link.receive() == b'{"hello":1}'
            nursery.cancel_scope.cancel()


async def test_connect_runs_the_link_in_the_callers_nursery() -> None:
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery)
            link = await connect(
                nursery,
                "127.0.0.1",
                server.port,
                identity=CLIENT,
                scope=SCOPE,
                secret=SECRET,
                config=CONFIG,
            )
            payloads = [bytes([i]) * (i * 1000) for i in range(20)]
            for payload in payloads:
                await link.send(payload)
            assert [await link.receive() for _ in payloads] == payloads
            await link.aclose("bye now")
            assert link.closed is not None and link.closed.reason == "bye now"
            with pytest.raises(LinkClosed, match="bye now"):
                await link.receive()
            with pytest.raises(LinkClosed):
                await link.send(b"late")
            nursery.cancel_scope.cancel()


async def test_one_listener_serves_many_scopes() -> None:
    other_secret = hashlib.sha256(b"second").digest()
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery, secrets={SCOPE: SECRET, OTHER_SCOPE: other_secret})
            async with (
                client(server.port) as one,
                client(server.port, scope=OTHER_SCOPE, secret=other_secret) as two,
            ):
                assert {one.info.scope, two.info.scope} == {SCOPE, OTHER_SCOPE}
                for link in (one, two):
                    await link.send(b"ping?")
                    assert await link.receive() == b"ping?"
            nursery.cancel_scope.cancel()


async def test_large_frames_and_concurrent_senders() -> None:
    with trio.fail_after(15):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery)
            async with client(server.port) as link:
                payloads = {bytes([i]) * 50_000 for i in range(40)} | {b"z" * P.MAX_FRAME}
                async with trio.open_nursery() as senders:
                    for payload in payloads:
                        senders.start_soon(link.send, payload)
                got = {await link.receive() for _ in payloads}
                assert got == payloads
                with pytest.raises(P.LocalProtocolError):
                    await link.send(b"x" * (P.MAX_FRAME + 1))
                await link.send(b"still open")
                assert await link.receive() == b"still open"
            nursery.cancel_scope.cancel()


async def test_frames_sent_before_closing_are_delivered_then_the_reason() -> None:
    async def talk_then_leave(link: Link) -> None:
        for i in range(3):
            await link.send(b"frame %d" % i)
        await link.aclose("table full")

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery, talk_then_leave)
            async with client(server.port) as link:
                assert [payload async for payload in link] == [b"frame 0", b"frame 1", b"frame 2"]
                assert link.closed is not None
                assert (link.closed.reason, link.closed.by_peer) == ("table full", True)
                with pytest.raises(LinkClosed) as caught:
                    await link.receive()
                assert caught.value.reason == "table full" and caught.value.by_peer
            nursery.cancel_scope.cancel()


# --------------------------------------------------------------------------- refusals


async def test_wrong_secret_is_refused_as_invite_on_both_sides() -> None:
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery)
            with pytest.raises(LinkClosed) as caught:
                async with client(server.port, secret=WRONG):
                    pass
            assert (caught.value.reason, caught.value.by_peer) == ("invite", True)
            assert await server.next_refusal() == "invite"
            nursery.cancel_scope.cancel()


async def test_unknown_scope_is_refused_on_both_sides() -> None:
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery)
            with pytest.raises(LinkClosed) as caught:
                async with client(server.port, scope=OTHER_SCOPE):
                    pass
            assert (caught.value.reason, caught.value.by_peer) == ("scope", True)
            assert await server.next_refusal() == "scope"
            nursery.cancel_scope.cancel()


async def test_authorize_sees_the_peer_and_can_refuse() -> None:
    asked: list[PeerInfo] = []

    def roster_only(info: PeerInfo) -> bool:
        asked.append(info)
        return info.key == MALLORY.public.key

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery, authorize=roster_only)
            with pytest.raises(LinkClosed) as caught:
                async with client(server.port):
                    pass
            assert (caught.value.reason, caught.value.by_peer) == ("not authorised", True)
            assert await server.next_refusal() == "not authorised"
            assert asked == [PeerInfo(CLIENT.public.key, "peer", SCOPE)]
            async with client(server.port, identity=MALLORY) as link:
                assert link.info.key == SERVER.public.key
            nursery.cancel_scope.cancel()


@pytest.mark.parametrize("envelope", [False, True])
async def test_wrong_version_from_a_client(envelope: bool) -> None:
    hello = hello_for(CLIENT, "peer", SCOPE)
    ours, future = P.PROTOCOL_VERSION, P.PROTOCOL_VERSION + 1
    if envelope:  # a future protocol version in the envelope
        data = P.encode(hello).replace(f'"v":{ours},'.encode(), f'"v":{future},'.encode())
        assert data != P.encode(hello)
    else:
        data = P.encode(attrs.evolve(hello, version=future))
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery)
            async with raw_client(server.port) as raw:
                await raw.stream.send_all(encode_frame(data))
                assert await raw.read_until_closed() == [Bye("version")]
            assert await server.next_refusal() == "version"
            nursery.cancel_scope.cancel()


async def test_wrong_version_from_a_server() -> None:
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            future = fake_server_hello(version=P.PROTOCOL_VERSION + 1)
            port, heard = await start_fake_server(nursery, future)
            with pytest.raises(LinkClosed) as caught:
                async with client(port):
                    pass
            assert (caught.value.reason, caught.value.by_peer) == ("version", False)
            assert await heard.receive() == [Bye("version")]
            nursery.cancel_scope.cancel()


def hello_of_version(hello: Hello, version: int) -> bytes:
    """``hello`` as a peer of an older protocol ``version`` sends it."""
    data = P.encode(attrs.evolve(hello, version=version))
    data = data.replace(f'"v":{P.PROTOCOL_VERSION}'.encode(), b'"v":%d' % version)
    assert (json.loads(data)["v"], json.loads(data)["version"]) == (version, version)
    return data


OLDER = [8, 9]
"""Version 9 added vanishing (docs/protocol.md §11.11): a v8 peer reads a table otherwise.
Version 10 recovers a seat that vanished while a pool was open, where a v9 peer ends the
game: the two would part ways at that step."""


@pytest.mark.parametrize("version", OLDER)
async def test_a_client_of_an_older_version_is_refused_as_version(version: int) -> None:
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery)
            async with raw_client(server.port) as raw:
                await raw.stream.send_all(
                    encode_frame(hello_of_version(hello_for(CLIENT, "peer", SCOPE), version))
                )
                assert await raw.read_until_closed() == [Bye("version")]
            assert await server.next_refusal() == "version"
            assert server.accepted.statistics().current_buffer_used == 0
            nursery.cancel_scope.cancel()


async def refused_by_fake_server(play: Callable[[Raw], Awaitable[None]]) -> tuple[LinkClosed, Any]:
    """Dial a fake server that plays ``play``: the client's refusal, and what the server
    heard from the client before the link closed."""
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port, heard = await start_fake_server(nursery, play)
            with pytest.raises(LinkClosed) as caught:
                async with client(port):
                    pass
            said = await heard.receive()
            nursery.cancel_scope.cancel()
    return caught.value, said


@pytest.mark.parametrize("version", OLDER)
async def test_a_server_of_an_older_version_is_refused_as_version(version: int) -> None:
    async def play(raw: Raw) -> None:
        theirs = await raw.read()
        mine = hello_for(SERVER, "peer", SCOPE)
        await raw.stream.send_all(encode_frame(hello_of_version(mine, version)))
        await raw.write(auth_for(SERVER, SECRET, transcript(theirs, mine), initiator=False))

    closed, said = await refused_by_fake_server(play)
    assert (closed.reason, closed.by_peer) == ("version", False)
    assert str(closed) == "link closed: version"
    assert said == [Bye("version")]


async def test_server_answering_for_another_scope() -> None:
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port, heard = await start_fake_server(nursery, fake_server_hello(scope=OTHER_SCOPE))
            with pytest.raises(LinkClosed, match="scope"):
                async with client(port):
                    pass
            assert await heard.receive() == [Bye("scope")]
            nursery.cancel_scope.cancel()


async def test_impostor_client_is_refused_as_signature() -> None:
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery)
            async with raw_client(server.port) as raw:
                # claims CLIENT's key, knows the invite secret, but signs with another key
                await raw_handshake(raw, identity=CLIENT, signer=MALLORY)
                assert await raw.read_until_closed() == [Bye("signature")]
            assert await server.next_refusal() == "signature"
            nursery.cancel_scope.cancel()


async def test_impostor_server_is_refused_as_signature() -> None:
    async def play(raw: Raw) -> None:
        theirs = await raw.read()
        mine = hello_for(SERVER, "peer", SCOPE)  # claims SERVER's key ...
        await raw.write(mine)
        assert isinstance(await raw.read(), Auth)
        # ... knows the secret, but cannot sign for SERVER
        await raw.write(auth_for(MALLORY, SECRET, transcript(theirs, mine), initiator=False))

    closed, said = await refused_by_fake_server(play)
    assert (closed.reason, closed.by_peer) == ("signature", False)
    assert said == [Bye("signature")]


async def test_expected_server_key() -> None:
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery)
            with pytest.raises(LinkClosed, match="key"):
                async with client(server.port, expect_key=MALLORY.public.key):
                    pass
            async with client(server.port, expect_key=SERVER.public.key) as link:
                assert link.info.key == SERVER.public.key
            nursery.cancel_scope.cancel()


async def test_unreachable() -> None:
    with trio.fail_after(10):
        listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
        port = listener.socket.getsockname()[1]
        await listener.aclose()
        with pytest.raises(LinkClosed, match="unreachable"):
            async with client(port):
                pass


# --------------------------------------------------------------------------- abuse


async def test_stalled_handshake_is_closed_while_others_get_through() -> None:
    config = attrs.evolve(CONFIG, handshake_timeout=1.0)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery, config=config)
            async with raw_client(server.port) as stalled:
                await stalled.stream.send_all(b"\x00\x00")  # half a header, then nothing
                async with client(server.port) as link:
                    await link.send(b"through")
                    assert await link.receive() == b"through"
                assert server.refused.statistics().current_buffer_used == 0
                started = trio.current_time()
                assert await stalled.read_until_closed() == [Bye("timeout")]
                assert trio.current_time() - started < 1.5
            assert await server.next_refusal() == "timeout"
            nursery.cancel_scope.cancel()


@pytest.mark.parametrize(
    ("garbage", "reason"),
    [
        (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "oversize"),
        ((P.MAX_FRAME + 1).to_bytes(4, "big"), "oversize"),
        (b"\x00\x00\x00\x05hello", "malformed"),
        (encode_frame(P.encode(Ping(1))), "malformed"),
    ],
)
async def test_garbage_before_the_handshake_closes_only_that_connection(
    garbage: bytes, reason: str
) -> None:
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery)
            async with client(server.port) as link:
                async with raw_client(server.port) as raw:
                    await raw.stream.send_all(garbage)
                    assert await raw.read_until_closed() == [Bye(reason)]
                assert await server.next_refusal() == reason
                await link.send(b"unaffected")
                assert await link.receive() == b"unaffected"
            nursery.cancel_scope.cancel()


@pytest.mark.parametrize(
    ("garbage", "reason"),
    [
        ((P.MAX_FRAME + 1).to_bytes(4, "big"), "oversize"),
        (encode_frame(P.encode(hello_for(CLIENT, "peer", SCOPE))), "malformed"),
        (encode_frame(b'{"n":1,"type":"link-ping","v":%d}' % (P.PROTOCOL_VERSION + 1)), "version"),
    ],
)
async def test_garbage_on_an_open_link_closes_only_that_link(garbage: bytes, reason: str) -> None:
    closed = trio.Event()
    reasons: list[str] = []

    async def handler(link: Link) -> None:
        if link.info.key != CLIENT.public.key:
            await echo(link)
            return
        try:
            await link.receive()
        except LinkClosed as exc:
            reasons.append(exc.reason)
            closed.set()

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery, handler)
            async with client(server.port, identity=MALLORY) as good:
                async with raw_client(server.port) as raw:
                    await raw_handshake(raw)
                    assert isinstance(await raw.read(), Auth)
                    await raw.stream.send_all(garbage)
                    await closed.wait()
                    assert reasons == [reason]
                    assert Bye(reason) in await raw.read_until_closed()
                await good.send(b"unaffected")
                assert await good.receive() == b"unaffected"
            nursery.cancel_scope.cancel()


async def _flood(port: int, count: int, source: str) -> list[trio.socket.SocketType]:
    socks = []
    for _ in range(count):
        sock = trio.socket.socket()
        await sock.bind((source, 0))
        await sock.connect(("127.0.0.1", port))
        socks.append(sock)
    return socks


async def test_flood_from_one_host_does_not_block_other_hosts() -> None:
    config = attrs.evolve(CONFIG, handshake_timeout=30.0)  # the flood never times out here
    with trio.fail_after(15):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery, config=config, max_handshakes_per_host=16)
            flood = await _flood(server.port, 200, "127.0.0.2")
            try:
                busy = [await server.next_refusal() for _ in range(200 - 16)]
                assert set(busy) == {"busy"}
                with trio.fail_after(3):
                    async with client(server.port) as link:
                        await link.send(b"through the flood")
                        assert await link.receive() == b"through the flood"
            finally:
                for sock in flood:
                    sock.close()
            nursery.cancel_scope.cancel()


async def test_flood_from_the_same_host_only_delays_a_retrying_client() -> None:
    config = attrs.evolve(CONFIG, handshake_timeout=0.5)
    retries: list[str] = []
    with trio.fail_after(15):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery, config=config, max_handshakes=64)
            flood = await _flood(server.port, 200, "127.0.0.1")
            try:
                link = await connect_with_backoff(
                    nursery,
                    "127.0.0.1",
                    server.port,
                    identity=CLIENT,
                    scope=SCOPE,
                    secret=SECRET,
                    config=config,
                    rng=random.Random(1),
                    on_retry=lambda exc, _delay: retries.append(exc.reason),
                )
                await link.send(b"eventually")
                assert await link.receive() == b"eventually"
                assert set(retries) <= {"busy", "timeout", "disconnected"}
                await link.aclose()
            finally:
                for sock in flood:
                    sock.close()
            nursery.cancel_scope.cancel()


# --------------------------------------------------------------------------- heartbeats


HEARTBEAT = LinkConfig(handshake_timeout=2.0, ping_interval=0.05, idle_timeout=0.3)


async def test_heartbeats_keep_a_quiet_link_alive(autojump_clock: MockClock) -> None:
    server_links: list[Link] = []

    async def quiet(link: Link) -> None:
        server_links.append(link)
        await link.receive()

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery, quiet, config=HEARTBEAT)
            async with client(server.port, config=HEARTBEAT) as link:
                await trio.sleep(1.2)  # four idle timeouts without application traffic (mock)
                assert link.closed is None and server_links[0].closed is None
                assert link.pongs > 0 and server_links[0].pongs > 0
            nursery.cancel_scope.cancel()


async def test_a_silent_peer_is_dropped_as_idle() -> None:
    reasons: list[str] = []
    done = trio.Event()

    async def watch(link: Link) -> None:
        try:
            await link.receive()
        except LinkClosed as exc:
            reasons.append(exc.reason)
            done.set()

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery, watch, config=HEARTBEAT)
            async with raw_client(server.port) as raw:
                await raw_handshake(raw)
                assert isinstance(await raw.read(), Auth)
                started = trio.current_time()
                heard = await raw.read_until_closed()  # never answered, never sends
                await done.wait()
                assert reasons == ["idle"]
                assert 0.25 < trio.current_time() - started < 1.0
                assert heard[-1] == Bye("idle")
                assert all(isinstance(msg, Ping) for msg in heard[:-1]) and len(heard) > 2
            nursery.cancel_scope.cancel()


async def test_client_drops_a_silent_server_as_idle() -> None:
    async def silent(raw: Raw) -> None:
        await fake_server_hello()(raw)

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port, heard = await start_fake_server(nursery, silent)
            async with client(port, config=HEARTBEAT) as link:
                with pytest.raises(LinkClosed) as caught:
                    await link.receive()
                assert (caught.value.reason, caught.value.by_peer) == ("idle", False)
            assert (await heard.receive())[-1] == Bye("idle")
            nursery.cancel_scope.cancel()


async def test_a_peer_that_stops_reading_is_dropped_as_stalled() -> None:
    config = attrs.evolve(CONFIG, send_timeout=0.3, idle_timeout=10.0)

    async def deaf(raw: Raw) -> None:
        await fake_server_hello()(raw)
        await trio.sleep_forever()  # never reads again

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port, _ = await start_fake_server(nursery, deaf)
            async with client(port, config=config) as link:
                with pytest.raises(LinkClosed) as caught:
                    while True:  # until the kernel buffers are full
                        await link.send(b"x" * P.MAX_FRAME)
                assert caught.value.reason == "stalled"
                assert link.closed is not None and link.closed.reason == "stalled"
            nursery.cancel_scope.cancel()


# --------------------------------------------------------------------------- lifecycle


async def test_cancelling_the_nursery_shuts_down_cleanly() -> None:
    with trio.fail_after(10):
        tasks_before = trio.lowlevel.current_statistics().tasks_living
        async with trio.open_nursery() as outer:
            server_scope = trio.CancelScope()
            server_up = trio.Event()
            ports: list[int] = []

            async def run_server() -> None:
                with server_scope:
                    async with trio.open_nursery() as nursery:
                        ports.append((await start_server(nursery)).port)
                        server_up.set()

            outer.start_soon(run_server)
            await server_up.wait()
            async with client(ports[0]) as link:
                await link.send(b"x")
                assert await link.receive() == b"x"
                server_scope.cancel()  # the server's nursery: listener, link tasks, handler
                with pytest.raises(LinkClosed) as caught:
                    await link.receive()
                assert (caught.value.reason, caught.value.by_peer) == ("shutdown", True)
        assert trio.lowlevel.current_statistics().tasks_living == tasks_before


async def test_connect_with_backoff_waits_for_the_server() -> None:
    listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
    port = listener.socket.getsockname()[1]
    await listener.aclose()
    delays: list[float] = []
    first_failure = trio.Event()

    def on_retry(exc: LinkClosed, delay: float) -> None:
        assert exc.reason == "unreachable"
        delays.append(delay)
        first_failure.set()

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            links: list[Link] = []
            connected = trio.Event()

            async def dial() -> None:
                links.append(
                    await connect_with_backoff(
                        nursery,
                        "127.0.0.1",
                        port,
                        identity=CLIENT,
                        scope=SCOPE,
                        secret=SECRET,
                        config=CONFIG,
                        rng=random.Random(5),
                        on_retry=on_retry,
                        initial_delay=0.05,
                        max_delay=0.2,
                    )
                )
                connected.set()

            nursery.start_soon(dial)
            await first_failure.wait()
            await nursery.start(
                partial(
                    serve_links,
                    port,
                    echo,
                    identity=SERVER,
                    secrets_for={SCOPE: SECRET}.get,
                    config=CONFIG,
                )
            )
            await connected.wait()
            await links[0].send(b"late but here")
            assert await links[0].receive() == b"late but here"
            assert 0.025 <= delays[0] <= 0.05
            assert all(d <= 0.2 for d in delays)
            nursery.cancel_scope.cancel()


async def test_connect_with_backoff_gives_up_on_a_wrong_invite() -> None:
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery)
            with pytest.raises(LinkClosed, match="invite"):
                await connect_with_backoff(
                    nursery,
                    "127.0.0.1",
                    server.port,
                    identity=CLIENT,
                    scope=SCOPE,
                    secret=WRONG,
                    config=CONFIG,
                    rng=random.Random(1),
                )
            nursery.cancel_scope.cancel()


async def test_bad_arguments_are_local_errors() -> None:
    with trio.fail_after(5):
        async with trio.open_nursery() as nursery:
            for kwargs in ({"secret": b"short"}, {"scope": b"x"}, {"role": "king"}):
                with pytest.raises(P.LocalProtocolError):
                    async with client(1, **kwargs):
                        pass
            nursery.cancel_scope.cancel()
