"""A signed start's seat addresses are a hostile host's to choose (issue 29, the handler
audit): an address that is not UTF-8, whose port is made of other digits than ASCII's, or
whose port is out of range is skipped by the joiner, which plays on -- no handler lets the
error out and stops the node."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import trio

import fairtable.protocol as P
from fairtable.netplay import Invite, NodeConfig, TableNode, connect
from fairtable.netplay.table._lobby import sign_start
from tests.netplay.said import Told


@pytest.mark.parametrize(
    "address",
    [b"\xff\xfe:4000", "127.0.0.1:\u00b2".encode(), b"127.0.0.1:99999999999"],
    ids=["not-utf8", "superscript-digit", "port-out-of-range"],
)
async def test_a_start_with_a_hostile_seat_address_seats_the_joiner_all_the_same(
    tmp_path: Path, address: bytes
) -> None:
    host = P.Identity.generate()
    events: list[dict[str, Any]] = []
    told = Told()
    invite = Invite("127.0.0.1", 9, os.urandom(32), host.public.key, os.urandom(32), "reign", 3)
    joiner = TableNode(
        NodeConfig(data_dir=tmp_path / "joiner"),
        P.Identity.generate(),
        invite=invite,
        emit=told.json_into(events),
    )
    third = P.Identity.generate().public.key
    spec = P.TableSpec(
        "reign", (host.public.key, joiner.identity.public.key, third), 60, os.urandom(32)
    )
    start = sign_start(host, spec, (b"", b"", address), invite.lobby_id)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await nursery.start(joiner.run)
            link = await connect(
                nursery,
                "127.0.0.1",
                joiner.port,
                identity=host,
                scope=invite.lobby_id,
                secret=invite.secret,
            )
            await link.send(P.encode(start))
            await told.until(lambda: any(e["event"] == "seated" for e in events))
            await trio.testing.wait_all_tasks_blocked()  # the dials it started have run
            assert not joiner.done.is_set()
            nursery.cancel_scope.cancel()
    assert joiner.session is not None and joiner.session.seat == 1
