"""The table every hostile-peer flood test starts from (the ``flood_table`` fixture of
conftest.py): a host of a 3-seat
game (a bot at seat 0), an honest joiner (a bot), and an attacker that dialled the host with
the invite and, unless told not to, took the third seat honestly.  The test then floods the
host over ``table.link`` and checks what the honest peers did.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import attrs
import trio

import fairtable.protocol as P
from fairtable.netplay import (
    Invite,
    Link,
    LinkClosed,
    TableNode,
    join_proof,
)
from fairtable.netplay.table._lobby import JoinRequest, TableStart


@attrs.define
class FloodTable:
    """A table with an attacker at it (see the module docstring)."""

    nursery: trio.Nursery
    host: TableNode
    joiner: TableNode | None
    attacker: P.Identity
    invite: Invite
    link: Link  # the attacker's link to the host
    seated_at: P.TableSpec | None = None  # the table the attacker is seated at (seated only)

    @property
    def spec(self) -> P.TableSpec:
        """The table the attacker is seated at (seated only)."""
        assert self.seated_at is not None
        return self.seated_at

    @property
    def seat(self) -> int:
        """The attacker's seat (seated only)."""
        return self.spec.players.index(self.attacker.public.key)

    @property
    def honest(self) -> list[TableNode]:
        """The host, and the joiner if there is one."""
        return [self.host] if self.joiner is None else [self.host, self.joiner]


async def take_seat(link: Any, attacker: P.Identity, invite: Invite) -> P.TableSpec:
    """Join with the invite and read until the host's start: the spec we are seated at."""
    key = attacker.public.key
    await link.send(
        P.encode(JoinRequest(key, join_proof(invite.secret, invite.lobby_id, key), 0, b""))
    )
    while True:
        msg = P.decode(await link.receive())
        if isinstance(msg, TableStart):
            return P.decode_as(msg.spec, P.TableSpec)


async def drain(link: Any) -> None:
    """Read and drop what the host sends until it closes the link."""
    try:
        while True:
            await link.receive()
    except LinkClosed:
        return


FloodTableMaker = Callable[..., AbstractAsyncContextManager[FloodTable]]
