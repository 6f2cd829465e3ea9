"""Lobby messages: round trips, the host's signed start, and a forged start refused."""

from __future__ import annotations

import os

import attrs
import pytest

import fairtable.protocol as P
from fairtable.netplay import JoinRequest, LobbyStatus, Subscribe, TableStart
from fairtable.netplay.table._lobby import sign_start, verify_start

SCOPE = b"\x07" * 32


def spec() -> P.TableSpec:
    keys = tuple(P.Identity.generate().public.key for _ in range(3))
    return P.TableSpec("reign", keys, 60, os.urandom(32))


@pytest.mark.parametrize(
    "msg",
    [
        JoinRequest(b"\x01" * 32, b"\x02" * 32, 4242),
        LobbyStatus(2, 3),
        Subscribe(b"\x03" * 32, "peer"),
        TableStart(b"{}", (b"127.0.0.1:5000", b""), (b"", b""), b"\x05" * 32, b"\x04" * 64),
    ],
    ids=lambda m: type(m).__name__,
)
def test_lobby_messages_round_trip(msg: object) -> None:
    assert P.decode(P.encode(msg)) == msg


def test_the_start_verifies_only_with_the_host_key() -> None:
    host, other = P.Identity.generate(), P.Identity.generate()
    start = sign_start(host, spec(), (b"", b"127.0.0.1:1", b"127.0.0.1:2"), SCOPE)
    assert verify_start(host.public.key, start, SCOPE).seats == 3
    with pytest.raises(P.RemoteProtocolError):
        verify_start(other.public.key, start, SCOPE)


def test_a_start_with_changed_addresses_or_spec_is_refused() -> None:
    host = P.Identity.generate()
    start = sign_start(host, spec(), (b"", b"127.0.0.1:1", b"127.0.0.1:2"), SCOPE)
    moved = attrs.evolve(start, addresses=(b"", b"10.0.0.9:1", b"127.0.0.1:2"))
    with pytest.raises(P.RemoteProtocolError):
        verify_start(host.public.key, moved, SCOPE)
    swapped = attrs.evolve(start, spec=P.encode(spec()))
    with pytest.raises(P.RemoteProtocolError):
        verify_start(host.public.key, swapped, SCOPE)


def test_links_round_trip() -> None:
    from fairtable.netplay import Links

    msg = Links((b"\x01" * 32, b"\x02" * 32))
    assert P.decode(P.encode(msg)) == msg
