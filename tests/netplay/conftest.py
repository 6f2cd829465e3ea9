"""Fixtures of the netplay tests: ``flood_table`` (:mod:`tests.netplay.flood`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio

import fairtable.protocol as P
from fairtable.netplay import Emit, NodeConfig, Pacing, TableNode, connect
from tests.netplay.flood import FloodTable, FloodTableMaker, take_seat
from tests.netplay.test_tables import bot


@pytest.fixture
def flood_table(tmp_path: Path) -> FloodTableMaker:
    """``async with flood_table(host_emit=..., joiner_emit=..., joiner=True, seated=True) as
    table``: the table, its nursery cancelled when the block ends (bound it with
    ``trio.fail_after``)."""

    @asynccontextmanager
    async def open_table(
        *,
        host_emit: Emit | None = None,
        joiner_emit: Emit | None = None,
        joiner: bool = True,
        seated: bool = True,
    ) -> AsyncIterator[FloodTable]:
        host = TableNode(
            NodeConfig(data_dir=tmp_path / "host", pacing=Pacing(grace=0.5)),
            P.Identity.generate(),
            seats=3,
            decider=bot(0),
            emit=host_emit or (lambda event: None),
        )
        attacker = P.Identity.generate()
        async with trio.open_nursery() as nursery:
            invite = await nursery.start(host.run)
            link = await connect(
                nursery,
                "127.0.0.1",
                host.port,
                identity=attacker,
                scope=invite.lobby_id,
                secret=invite.secret,
            )
            other = None
            if joiner:
                other = TableNode(
                    NodeConfig(data_dir=tmp_path / "joiner", pacing=Pacing(grace=0.5)),
                    P.Identity.generate(),
                    invite=invite,
                    decider=bot(1),
                    emit=joiner_emit or (lambda event: None),
                )
                nursery.start_soon(other.run)
            table = FloodTable(nursery, host, other, attacker, invite, link)
            if seated:
                table.seated_at = await take_seat(link, attacker, invite)
            yield table
            nursery.cancel_scope.cancel()

    return open_table
