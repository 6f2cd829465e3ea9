"""A table start signed for an earlier table cannot hijack a new lobby (hostile peers,
finding 3): someone who kept a start the host signed before, and who holds the new invite,
sends it into the new lobby.  The host never takes a start from the network (it makes its
own); a joiner takes only a start bound to its invite's scope; and a peer plays one table
from one folder only, so it can never sign a second, different entry at a position it
signed before."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import trio

import fairtable.protocol as P
from fairtable.netplay import Invite, NodeConfig, StorageError, TableNode, connect
from fairtable.netplay.storage._storage import claim_table
from fairtable.netplay.table._lobby import sign_start, verify_start
from tests.netplay.said import Told


def _old_start(host: P.Identity, scope: bytes) -> Any:
    others = tuple(P.Identity.generate().public.key for _ in range(2))
    spec = P.TableSpec("reign", (host.public.key, *others), 60, os.urandom(32))
    return sign_start(host, spec, (b"", b"", b""), scope)


def test_a_start_verifies_only_for_the_scope_it_was_signed_for() -> None:
    host = P.Identity.generate()
    scope, other = os.urandom(32), os.urandom(32)
    start = _old_start(host, scope)
    assert verify_start(host.public.key, start, scope).seats == 3
    with pytest.raises(P.RemoteProtocolError):
        verify_start(host.public.key, start, other)


async def _attack(
    node: TableNode, told: Told, events: list[dict[str, Any]], old: Any, tmp_path: Path
) -> None:
    """Link to ``node`` with its invite, send ``old``, and wait until the node has said
    what it made of it."""
    async with trio.open_nursery() as nursery:
        invite = await nursery.start(node.run)
        attacker = P.Identity.generate()
        target = ("127.0.0.1", node.port)
        link = await connect(
            nursery, *target, identity=attacker, scope=invite.lobby_id, secret=invite.secret
        )
        await link.send(P.encode(old))
        await told.until(lambda: any(e["event"] == "refused" for e in events))  # caller-bounded
        nursery.cancel_scope.cancel()


async def test_hostile_peers_3_a_replayed_start_does_not_seat_the_host(tmp_path: Path) -> None:
    host = P.Identity.generate()
    events: list[dict[str, Any]] = []
    told = Told()
    node = TableNode(
        NodeConfig(data_dir=tmp_path / "host"),
        host,
        seats=3,
        game="reign",
        emit=told.json_into(events),
    )
    old = _old_start(host, os.urandom(32))  # the host signed it, for another lobby
    with trio.fail_after(20):
        await _attack(node, told, events, old, tmp_path)
    assert node.start is None and node.session is None
    assert not any(e["event"] == "seated" for e in events)


async def test_hostile_peers_3_a_joiner_refuses_a_start_for_another_table(tmp_path: Path) -> None:
    host = P.Identity.generate()
    invite = Invite("127.0.0.1", 9, os.urandom(32), host.public.key, os.urandom(32), "reign", 3)
    events: list[dict[str, Any]] = []
    told = Told()
    joiner = TableNode(
        NodeConfig(data_dir=tmp_path / "joiner"),
        P.Identity.generate(),
        invite=invite,
        emit=told.json_into(events),
    )
    old = _old_start(host, os.urandom(32))  # signed by the right host, for another scope
    with trio.fail_after(20):
        await _attack(joiner, told, events, old, tmp_path)
    assert joiner.start is None and joiner.session is None
    assert any("another table" in e.get("reason", "") for e in events)


def test_hostile_peers_3_a_table_is_played_from_one_folder_only(tmp_path: Path) -> None:
    table, first, second = os.urandom(32), os.urandom(32), os.urandom(32)
    claim_table(tmp_path, table, first)
    claim_table(tmp_path, table, first)  # the same folder again (a restart): fine
    with pytest.raises(StorageError, match="already"):
        claim_table(tmp_path, table, second)
