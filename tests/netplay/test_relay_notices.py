"""A relay keeps the time notices of a started table -- the signed word that a clock ended the
game, which ``fairtable audit`` of its copy checks -- but only each seat's first, signed by
that seat (real loopback sockets).  A stranger holding the table's seat keys floods notices
for far-off steps, and notices no seat signed: the relay keeps one per seat and none of the
unsigned, on disk and after a restart, and never greets a new link with them."""

from __future__ import annotations

import os
from pathlib import Path

import trio

import fairtable.protocol as P
from fairtable.netplay import RelayNode, saved_table
from fairtable.netplay.table import Flagged, TableClock, TableStart, TimeFlag, TimeNotice
from fairtable.netplay.table._lobby import sign_start
from tests.netplay.test_relay_flood import stranger, taken

FLOOD = 2_000


def notice(spec: P.TableSpec, key: P.Identity, by: int, step: int) -> bytes:
    """Seat ``by`` says seat 2 ran out of time at ``step``, signed with ``key``."""
    clock = TableClock(P.TimeLimits(bank_ms=60_000), spec.table_id, spec.players, by, 0.0)
    return P.encode(clock.notice(key, Flagged(TimeFlag.OUT_OF_TIME, 2), step))


async def test_a_relay_keeps_each_seats_first_signed_notice_and_nothing_more(
    tmp_path: Path,
) -> None:
    seats = [P.Identity.generate() for _ in range(3)]
    limits = P.TimeLimits(bank_ms=60_000).option()
    options = P.wire.canonical_json({P.TIME_LIMITS_KEY: limits})
    spec = P.TableSpec(
        "reign", tuple(s.public.key for s in seats), 0, os.urandom(32), options=options
    )
    stranger_key = P.Identity.generate()
    first = notice(spec, seats[1], 1, 7)
    flood = [notice(spec, seats[1], 1, 8 + n) for n in range(FLOOD)]  # seat 1's later ones
    unsigned = [notice(spec, stranger_key, 0, 7), notice(spec, seats[1], 2, 7)]  # not by's key
    mine = notice(spec, seats[0], 0, 7)
    token = os.urandom(32)
    relay = RelayNode(tmp_path / "relay", P.Identity.generate(), emit=lambda e: None)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(relay.run)
            link, scope = await stranger(nursery, port, "127.0.0.2", token)
            assert await taken(link) is None
            early = notice(spec, seats[2], 2, 3)  # before the start: passed, not kept
            await link.send(early)
            await link.send(P.encode(sign_start(seats[0], spec, (), os.urandom(32))))
            await relay.until(lambda: relay.tables[scope].log is not None)
            for data in [first, *flood, *unsigned, mine]:
                await link.send(data)
            await link.aclose()
            await relay.until(lambda: not relay.tables[scope].links)  # it read them all
            kept = dict(relay.tables[scope].notices)
            nursery.cancel_scope.cancel()
    assert kept == {1: first, 0: mine}
    folder = tmp_path / "relay" / "relay" / scope.hex()
    saved = saved_table(folder)
    assert [(n.by, n.end.step) for n in saved.notices] == [(1, 7), (0, 7)]
    assert all(n.holds(saved.spec) for n in saved.notices)

    again = RelayNode(tmp_path / "relay", P.Identity.generate(), emit=lambda e: None)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:  # restarted: kept, never sent to a link
            port = await nursery.start(again.run)
            assert again.tables[scope].notices == {1: first, 0: mine}
            link, _ = await stranger(nursery, port, "127.0.0.3", token)
            greeting = [P.decode(await link.receive())]
            while not isinstance(greeting[-1], P.FeedRequest):  # the lobby, then the wants
                greeting.append(P.decode(await link.receive()))
            nursery.cancel_scope.cancel()
    assert any(isinstance(msg, TableStart) for msg in greeting)
    assert not any(isinstance(msg, TimeNotice) for msg in greeting)
