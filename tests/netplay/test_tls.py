"""Links under an on-path attacker (issue 14, finding 10): TLS 1.3 pinned to identity keys.

A TCP proxy written here sits between a client and ``serve_links``: it records
every byte both ways and can inject bytes of its own.  It must read nothing
(no invite secret, no relay token, no card names) and what it injects must
close the link, never reach the application.  A TLS-terminating proxy with its
own key is refused (``"key"``) even by a client that pins nothing, because the
certificate key must be the key the server's ``Hello`` names and signs with.
Every test is bounded with ``trio.fail_after``.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import os
import ssl
import tempfile
from contextlib import suppress
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import trio
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

import fairtable.protocol as P
from fairtable.engine.reign import standard_catalog
from fairtable.netplay import (
    GameOver,
    NodeConfig,
    NodeEvent,
    Pacing,
    Reach,
    RelayNode,
    TableNode,
    event_json,
)
from fairtable.netplay.links import _tls
from fairtable.netplay.links._frames import encode_frame
from fairtable.netplay.links._link import Link, LinkClosed
from fairtable.netplay.table._invite import relay_token

from .test_link import (
    CLIENT,
    MALLORY,
    SCOPE,
    SECRET,
    SERVER,
    client,
    start_server,
)
from .test_tables import bot

TOKEN = hashlib.sha256(b"relay token of the table").digest()
CARDS = b"Ace of Cups, Regent of Swords"
CARD_NAMES = [name for name in standard_catalog().defs if len(name) >= 6]


class Tap:
    """A TCP proxy that records both directions and can inject toward the server."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.seen = bytearray()
        self.upstream: trio.SocketStream | None = None
        self.ready = trio.Event()

    async def handle(self, downstream: trio.SocketStream) -> None:
        upstream = await trio.open_tcp_stream("127.0.0.1", self.target)
        self.upstream = upstream
        self.ready.set()

        async def pump(src: trio.SocketStream, dst: trio.SocketStream) -> None:
            try:
                while data := await src.receive_some(65536):
                    self.seen += data
                    await dst.send_all(data)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
            finally:
                await trio.aclose_forcefully(dst)

        async with upstream, trio.open_nursery() as nursery:
            nursery.start_soon(pump, downstream, upstream)
            nursery.start_soon(pump, upstream, downstream)

    async def inject(self, data: bytes) -> None:
        await self.ready.wait()
        assert self.upstream is not None
        await self.upstream.send_all(data)


async def start_tap(nursery: trio.Nursery, target: int) -> tuple[Tap, int]:
    tap = Tap(target)
    listeners = await nursery.start(partial(trio.serve_tcp, tap.handle, 0, host="127.0.0.1"))
    return tap, listeners[0].socket.getsockname()[1]


def collector() -> tuple[list[bytes], trio.Event, object]:
    got: list[bytes] = []
    closed = trio.Event()

    async def handler(link: Link) -> None:
        try:
            async for payload in link:
                got.append(payload)
                await link.send(b"ack")
        finally:
            closed.set()

    return got, closed, handler


async def test_an_observer_on_the_path_reads_no_frame() -> None:
    got, _closed, handler = collector()
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery, handler)
            tap, port = await start_tap(nursery, server.port)
            secret_frame = b'{"token":"' + TOKEN.hex().encode() + b'","hand":"' + CARDS + b'"}'
            async with client(port) as link:
                await link.send(secret_frame)
                assert await link.receive() == b"ack"
            assert got == [secret_frame]
            seen = bytes(tap.seen)
            assert len(seen) > len(secret_frame)
            for plain in (
                TOKEN,
                TOKEN.hex().encode(),
                CARDS,
                b"Ace",
                SECRET,
                b"link-hello",
                b'"type"',
                SCOPE,
                CLIENT.public.key.hex().encode(),
            ):
                assert plain not in seen
            nursery.cancel_scope.cancel()


async def test_a_frame_injected_on_the_path_closes_the_link_and_is_never_delivered() -> None:
    got, closed, handler = collector()
    injected = b'{"type":"table-start","forged":true}'
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery, handler)
            tap, port = await start_tap(nursery, server.port)
            async with client(port) as link:
                await link.send(b"first")
                assert await link.receive() == b"ack"
                await tap.inject(encode_frame(injected))
                await closed.wait()
                with pytest.raises(LinkClosed):
                    while True:  # whatever the client hears, the link ends
                        await link.receive()
            assert got == [b"first"]
            nursery.cancel_scope.cancel()


async def test_a_pinned_client_refuses_a_server_with_another_key() -> None:
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery)
            with pytest.raises(LinkClosed) as refused:
                async with client(server.port, expect_key=MALLORY.public.key):
                    pass
            assert refused.value.reason == "key"
            nursery.cancel_scope.cancel()


async def splice(downstream: trio.SocketStream, *, target: int, spy: bytearray) -> None:
    """A TLS-terminating man in the middle: its own certificate toward the client."""
    outer = _tls.wrap_server(downstream, MALLORY)
    inner = _tls.wrap_client(await trio.open_tcp_stream("127.0.0.1", target))

    async def pump(
        src: trio.SSLStream[trio.abc.Stream],
        dst: trio.SSLStream[trio.abc.Stream],
    ) -> None:
        with pytest.raises((trio.BrokenResourceError, trio.ClosedResourceError)):
            while data := await src.receive_some(65536):
                spy.extend(data)
                await dst.send_all(data)
            raise trio.ClosedResourceError
        await trio.aclose_forcefully(dst)

    try:
        await outer.do_handshake()
        await inner.do_handshake()
    except trio.BrokenResourceError:
        return
    async with trio.open_nursery() as nursery:
        nursery.start_soon(pump, outer, inner)
        nursery.start_soon(pump, inner, outer)


@pytest.mark.parametrize("pinned", [True, False])
async def test_a_tls_terminating_splicer_is_refused_as_key(pinned: bool) -> None:
    spy = bytearray()
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery)
            listeners = await nursery.start(
                partial(
                    trio.serve_tcp,
                    partial(splice, target=server.port, spy=spy),
                    0,
                    host="127.0.0.1",
                )
            )
            port = listeners[0].socket.getsockname()[1]
            expect = SERVER.public.key if pinned else None
            with pytest.raises(LinkClosed) as refused:
                async with client(port, expect_key=expect) as link:
                    await link.send(CARDS)
            assert refused.value.reason == "key"
            assert CARDS not in spy
            nursery.cancel_scope.cancel()


async def test_links_speak_tls_1_3_with_the_identity_key_as_certificate() -> None:
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server = await start_server(nursery)
            stream = _tls.wrap_client(await trio.open_tcp_stream("127.0.0.1", server.port))
            async with stream:
                await stream.do_handshake()
                assert stream.version() == "TLSv1.3"
                assert _tls.peer_key(stream) == SERVER.public.key
            # a client that offers only TLS 1.2 gets no link
            old = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            old.check_hostname, old.verify_mode = False, ssl.CERT_NONE
            old.maximum_version = ssl.TLSVersion.TLSv1_2
            legacy = trio.SSLStream(await trio.open_tcp_stream("127.0.0.1", server.port), old)
            with pytest.raises(trio.BrokenResourceError):
                await legacy.do_handshake()
            await trio.aclose_forcefully(legacy)
            nursery.cancel_scope.cancel()


def test_the_certificate_is_the_identity_key_and_reveals_no_secret() -> None:
    pem = _tls.certificate_pem(SERVER)
    cert = x509.load_pem_x509_certificate(pem)
    raw = cert.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    assert raw == SERVER.public.key
    assert _tls.certificate_pem(SERVER) == pem  # deterministic: same identity, same certificate
    assert _tls.certificate_pem(CLIENT) != pem
    assert SERVER.seed not in cert.public_bytes(serialization.Encoding.DER)


def b64(data: bytes) -> bytes:
    return base64.urlsafe_b64encode(data).rstrip(b"=")


async def test_a_whole_table_through_a_tapped_relay_shows_the_path_nothing(tmp_path: Path) -> None:
    """Three seats play a whole game, every link through a relay the tap sits in front of."""
    seats = 3
    done: list[dict[str, Any]] = []
    with trio.fail_after(150):
        async with trio.open_nursery() as nursery:
            relay = RelayNode(tmp_path / "relay", P.Identity.generate(), emit=lambda _e: None)
            tap, tap_port = await start_tap(nursery, await nursery.start(relay.run))
            via = ("127.0.0.1", tap_port)

            def config(index: int) -> NodeConfig:
                return NodeConfig(
                    data_dir=tmp_path / f"peer{index}",
                    reach=Reach(via=via, listen_port=None if index else 0),
                    pacing=Pacing(grace=0.5),
                )

            def emit(event: NodeEvent) -> None:
                if isinstance(event, GameOver):
                    done.append(event_json(event))

            async with trio.open_nursery() as peers:
                nodes = [
                    TableNode(
                        config(0),
                        P.Identity.generate(),
                        seats=seats,
                        game="reign",
                        decider=bot(0),
                        emit=emit,
                    )
                ]
                invite = await peers.start(nodes[0].run)
                for index in range(1, seats):
                    nodes.append(
                        TableNode(
                            config(index),
                            P.Identity.generate(),
                            invite=invite,
                            decider=bot(index),
                            emit=emit,
                        )
                    )
                    peers.start_soon(nodes[index].run)
                for node in nodes:
                    await node.done.wait()
                peers.cancel_scope.cancel()
            nursery.cancel_scope.cancel()
    assert len(done) == seats and len({e["digest"] for e in done}) == 1
    seen = bytes(tap.seen)
    assert len(seen) > 10_000  # the whole game went through the tap
    token = relay_token(invite)
    for plain in (token, b64(token), invite.secret, b64(invite.secret), b'"type"', b"entry"):
        assert plain not in seen
    assert not [card for card in CARD_NAMES if card.encode() in seen]


async def test_a_certificate_that_is_not_ed25519_is_refused_as_key(tmp_path: Path) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "fairtable")])
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC))
        .not_valid_after(datetime.datetime(2100, 1, 1, tzinfo=datetime.UTC))
        .sign(key, hashes.SHA256())
    )
    pem = tmp_path / "ec.pem"
    pem.write_bytes(
        cert.public_bytes(serialization.Encoding.PEM)
        + key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    ctx.load_cert_chain(pem)

    async def odd_server(tcp: trio.SocketStream) -> None:
        stream = trio.SSLStream(tcp, ctx, server_side=True)
        with suppress(trio.BrokenResourceError):
            await stream.do_handshake()
            await stream.receive_some(1024)
        await trio.aclose_forcefully(stream)

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            listeners = await nursery.start(
                partial(trio.serve_tcp, odd_server, 0, host="127.0.0.1")
            )
            with pytest.raises(LinkClosed) as refused:
                async with client(listeners[0].socket.getsockname()[1]):
                    pass
            assert refused.value.reason == "key"
            nursery.cancel_scope.cancel()


def test_the_private_key_is_loaded_without_a_file_on_disk(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    made: list[str] = []
    real_mkstemp = tempfile.mkstemp

    def mkstemp(**kwargs: Any) -> tuple[int, str]:
        fd, path = real_mkstemp(dir=tmp_path, **kwargs)
        made.append(path)
        return fd, path

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    identity = P.Identity.generate()
    assert _tls.server_context(identity) is _tls.server_context(identity)  # built once
    if hasattr(os, "memfd_create"):
        assert made == []  # an anonymous in-memory file, never a path on disk
        monkeypatch.delattr(os, "memfd_create")
        _tls.server_context(P.Identity.generate())
    # the fallback: a private temporary file, gone as soon as the key is loaded
    assert len(made) == 1 and not Path(made[0]).exists()
    with _tls._secret_file(b"secret") as path:
        assert Path(path).read_bytes() == b"secret"
        assert Path(path).stat().st_mode & 0o077 == 0
    assert not Path(path).exists()
