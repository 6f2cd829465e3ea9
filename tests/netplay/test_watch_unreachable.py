"""A spectator whose table cannot be reached hears about every failed try (the screen says
"cannot reach ...; retrying" instead of "Connecting..." for ever)."""

from __future__ import annotations

import os
import socket

import trio

from fairtable.netplay import Invite, watch_table
from tests.netplay.said import Told


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # nothing listens there once closed


def test_watching_an_unreachable_table_reports_each_retry() -> None:
    invite = Invite(
        "127.0.0.1", _closed_port(), os.urandom(32), os.urandom(32), os.urandom(32), "reign", 3
    )
    heard: list[tuple[str, str, int, float]] = []
    told = Told()

    async def main() -> None:
        with trio.fail_after(30):
            async with trio.open_nursery() as nursery:

                async def watch() -> None:
                    await watch_table(
                        invite,
                        lambda event, session: None,
                        on_retry=lambda *retry: told.into(heard)(retry),
                    )

                nursery.start_soon(watch)
                await told.until(lambda: len(heard) >= 3)
                nursery.cancel_scope.cancel()

    trio.run(main)
    assert [attempt for _, _, attempt, _ in heard[:3]] == [1, 2, 3]
    assert all(address == f"127.0.0.1:{invite.port}" for address, _, _, _ in heard)
