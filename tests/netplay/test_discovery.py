"""LAN discovery on loopback only: announce, listen, junk ignored, the secret never sent."""

from __future__ import annotations

import base64
import hashlib
import json
import socket
from functools import partial

import attrs
import pytest
import trio

import fairtable.protocol as P
from fairtable.netplay.lan._discovery import (
    MAX_TABLES_HEARD,
    Announcement,
    BadAnnouncement,
    HeardTables,
    announce,
    listen,
    open_listener,
)
from fairtable.netplay.table._invite import Invite

SECRET = hashlib.sha256(b"discovery secret").digest()
SCOPE = hashlib.sha256(b"discovery table").digest()
INVITE = Invite("127.0.0.1", 4711, SCOPE, hashlib.sha256(b"key").digest(), SECRET, "reign", 5)
TABLE = Announcement.from_invite(INVITE, free=3)


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_announcement_round_trip_and_fields() -> None:
    data = TABLE.to_bytes()
    assert Announcement.from_bytes(data) == TABLE
    assert json.loads(data) == {
        "app": "fairtable",
        "v": P.PROTOCOL_VERSION,
        "game": "reign",
        "seats": 5,
        "free": 3,
        "host": "127.0.0.1",
        "port": 4711,
        "fingerprint": INVITE.fingerprint,
        "name": "",
    }


def test_empty_host_means_the_sender() -> None:
    data = attrs.evolve(TABLE, host="").to_bytes()
    assert Announcement.from_bytes(data, source="127.0.0.9").host == "127.0.0.9"


async def test_announce_and_receive_on_loopback() -> None:
    with trio.fail_after(5):
        with await open_listener(port=0, host="127.0.0.1") as listener:
            async with trio.open_nursery() as nursery:
                await nursery.start(
                    partial(announce, TABLE, port=listener.port, address="127.0.0.1", interval=0.05)
                )
                assert await listener.receive() == TABLE
                nursery.cancel_scope.cancel()


async def test_broadcast_on_loopback() -> None:
    with trio.fail_after(5):
        with await open_listener(port=0, host="") as listener:  # broadcasts need a wildcard bind
            async with trio.open_nursery() as nursery:
                await nursery.start(
                    partial(
                        announce,
                        TABLE,
                        port=listener.port,
                        address="127.255.255.255",
                        interval=0.05,
                    )
                )
                assert await listener.receive() == TABLE
                nursery.cancel_scope.cancel()


async def test_listen_collects_distinct_tables() -> None:
    port = free_udp_port()
    other = attrs.evolve(TABLE, port=4712, game="sodalis", seats=3, free=1)
    free_seats = iter(range(3, -1, -1))

    def current() -> Announcement:  # the free-seat count changes while announcing
        return attrs.evolve(TABLE, free=next(free_seats, 0))

    with trio.fail_after(5):
        async with trio.open_nursery() as nursery:
            for summary in (current, other):
                await nursery.start(
                    partial(announce, summary, port=port, address="127.0.0.1", interval=0.05)
                )
            tables = await listen(port=port, duration=0.5, host="127.0.0.1")
            nursery.cancel_scope.cancel()
    assert [(t.game, t.port) for t in tables] == [("reign", 4711), ("sodalis", 4712)]
    assert tables[0].free == 0 and tables[1] == other


def junk() -> list[bytes]:
    good = json.loads(TABLE.to_bytes())

    def variant(**changes: object) -> bytes:
        return json.dumps({**good, **changes}).encode()

    without_port = {k: v for k, v in good.items() if k != "port"}
    return [
        b"",
        b"\xff\xfe garbage",
        b"[1, 2, 3]",
        b"null",
        b"{" * 5000,
        TABLE.to_bytes() + b" " * 1024,  # oversize
        variant(app="other"),
        variant(v=P.PROTOCOL_VERSION + 1),
        variant(v=1),  # the first protocol
        variant(v=True),
        variant(seats=True),
        variant(seats=5.0),
        variant(seats=99),
        variant(free=6),
        variant(free=-1),
        variant(port=0),
        variant(port="4711"),
        variant(game="Bad Game"),
        variant(host="not a host!"),
        variant(fingerprint="00"),
        variant(fingerprint=INVITE.fingerprint.upper()),
        variant(secret=base64.urlsafe_b64encode(SECRET).decode()),  # an extra field
        json.dumps(without_port).encode(),
        b'{"seats": NaN}',
    ]


async def test_junk_datagrams_are_ignored() -> None:
    datagrams = junk()
    with trio.fail_after(5):
        with await open_listener(port=0, host="127.0.0.1") as listener:
            sender = trio.socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            with sender:
                for data in [*datagrams, TABLE.to_bytes()]:
                    await sender.sendto(data, ("127.0.0.1", listener.port))
                assert await listener.receive() == TABLE
            assert listener.ignored == len(datagrams)


@pytest.mark.parametrize("data", junk())
def test_junk_is_a_bad_announcement(data: bytes) -> None:
    with pytest.raises(BadAnnouncement):
        Announcement.from_bytes(data)


async def test_the_secret_is_never_sent() -> None:
    forms = [
        SECRET,
        SECRET.hex().encode(),
        base64.urlsafe_b64encode(SECRET).rstrip(b"="),
        base64.b64encode(SECRET).rstrip(b"="),
    ]
    with trio.fail_after(5):
        capture = trio.socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        with capture:
            await capture.bind(("127.0.0.1", 0))
            port = capture.getsockname()[1]
            async with trio.open_nursery() as nursery:
                await nursery.start(
                    partial(
                        announce,
                        Announcement.from_invite(INVITE, free=2),
                        port=port,
                        address="127.0.0.1",
                        interval=0.05,
                    )
                )
                data, _ = await capture.recvfrom(65536)
                nursery.cancel_scope.cancel()
    assert not any(form in data for form in forms)
    assert SCOPE.hex().encode() not in data
    assert set(json.loads(data)) == {
        "app",
        "v",
        "game",
        "seats",
        "free",
        "host",
        "port",
        "fingerprint",
        "name",
    }


def test_the_hosts_name_is_announced_for_tables_to_show() -> None:
    """Issue 31: ``tables`` shows the host's name, not only a key: the name rides in the
    datagram (a hint, like the rest), and a name that breaks the rules for names is a
    datagram listeners drop."""
    named = attrs.evolve(TABLE, name="Ada Lovelace")
    assert Announcement.from_bytes(named.to_bytes()) == named
    assert json.loads(named.to_bytes())["name"] == "Ada Lovelace"
    for bad in ("seat 2", " Ada", "x" * 200, "Ad\u0007a", 7):
        plain = json.loads(TABLE.to_bytes())
        plain["name"] = bad
        with pytest.raises(BadAnnouncement):
            Announcement.from_bytes(json.dumps(plain).encode())


def test_bad_local_announcement() -> None:
    with pytest.raises(BadAnnouncement):
        attrs.evolve(TABLE, free=9)
    with pytest.raises(BadAnnouncement):
        attrs.evolve(TABLE, port=0)


def test_a_flood_of_made_up_tables_keeps_only_so_many() -> None:
    """Anyone on the LAN can announce: 5,000 made-up tables (each its own fingerprint) keep
    at most ``MAX_TABLES_HEARD``, the first heard; a table heard again replaces its own."""
    heard = HeardTables()
    heard.add(TABLE)
    for n in range(5_000):
        heard.add(attrs.evolve(TABLE, fingerprint=hashlib.sha256(b"%d" % n).hexdigest()))
    heard.add(attrs.evolve(TABLE, free=1))
    tables = heard.tables()
    assert len(tables) == MAX_TABLES_HEARD
    assert attrs.evolve(TABLE, free=1) in tables and TABLE not in tables


@pytest.mark.parametrize(("listen_host", "named"), [("127.0.0.1", "127.0.0.1"), ("0.0.0.0", "")])
async def test_a_code_served_on_loopback_is_announced_at_loopback(
    listen_host: str, named: str
) -> None:
    """Issue 31: a host listening on 127.0.0.1 alone announced ``host: ""`` (the datagram's
    source), so a joiner on the same machine tried the LAN address its broadcast left from
    and could not reach the code ("cannot reach the host: ... 192.0.2.2"); it names the
    address it listens on.  Listening everywhere, the source address stays the answer."""
    from fairtable.netplay.lan._codelink import announce_table

    with trio.fail_after(10):
        with trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_DGRAM) as capture:
            await capture.bind(("127.0.0.1", 0))
            async with trio.open_nursery() as nursery:
                await nursery.start(
                    partial(
                        announce_table,
                        INVITE,
                        lambda: 3,
                        listen_host=listen_host,
                        address="127.0.0.1",
                        port=capture.getsockname()[1],
                        emit=lambda e: None,
                        interval=0.05,
                    )
                )
                data, _ = await capture.recvfrom(65536)
                nursery.cancel_scope.cancel()
    plain = json.loads(data)
    assert plain["host"] == named and plain["code"] is not None
