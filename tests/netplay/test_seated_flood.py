"""A seated peer's junk entries are not all kept: past its budget it is named (hostile
peers, finding 7, and the "entries for no pending step" half of finding 4).

The attacker takes a seat honestly, then signs entries full of notes for steps nobody
will reach instead of its key share -- contiguous, validly signed, so before the fix
every peer kept all of them and the table just waited.  Now each honest peer charges
the seat for bytes no pending step has read and ends the game with a ``flood`` verdict
naming it once that passes the budget; the rest of the flood is dropped.
"""

from __future__ import annotations

import os
from typing import Any

import trio

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.wire as PW
from fairtable.netplay import LinkClosed
from fairtable.protocol.wire import Note
from tests.netplay.said import as_json

from .flood import FloodTableMaker, drain
from .rss import rss_bytes

ENTRIES = 100  # of 15 notes of 16 KiB: ~24 MiB of notes, ~58 MB on the wire


def _junk(feed: PC.Feed, first: int) -> bytes:
    parts = tuple(P.encode(Note(first + i, os.urandom(16 * 1024))) for i in range(15))
    return P.encode(feed.append(PW.Batch(parts)))


async def test_hostile_peers_7_a_seated_junk_flood_is_bounded_and_named(
    flood_table: FloodTableMaker,
) -> None:
    events: list[list[dict[str, Any]]] = [[], []]
    sent = 0
    with trio.fail_after(120):
        async with flood_table(host_emit=as_json(events[0]), joiner_emit=as_json(events[1])) as t:
            seat = t.seat
            t.nursery.start_soon(drain, t.link)
            feed = PC.Feed(t.attacker, t.spec.table_id, seat)
            before = rss_bytes()
            try:
                for index in range(ENTRIES):
                    data = _junk(feed, 10**6 + 15 * index)
                    await t.link.send(data)
                    sent += len(data)
            except LinkClosed:
                pass  # the host gave up on us: the rest of the flood never left
            for node in t.honest:
                await node.done.wait()
            after = rss_bytes()
    for seen in events:
        verdict = next(e for e in seen if e["event"] == "verdict")
        assert (verdict["seat"], verdict["kind"]) == (seat, "flood")
    assert after - before < 48 * 1024 * 1024, (before, after)
    print(
        f"\nseated flood: {sent / 2**20:.1f} MiB sent; RSS {before / 2**20:.1f} MiB -> "
        f"{after / 2**20:.1f} MiB"
    )
