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
from pathlib import Path
from typing import Any

import trio

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.wire as PW
from fairtable.netplay import LinkClosed, NodeConfig, Pacing, TableNode, connect, join_proof
from fairtable.netplay.table._lobby import JoinRequest, TableStart
from fairtable.protocol.wire import Note
from tests.netplay.said import as_json

from .rss import rss_bytes
from .test_tables import bot

ENTRIES = 100  # of 15 notes of 16 KiB: ~24 MiB of notes, ~58 MB on the wire


def _junk(feed: PC.Feed, first: int) -> bytes:
    parts = tuple(P.encode(Note(first + i, os.urandom(16 * 1024))) for i in range(15))
    return P.encode(feed.append(PW.Batch(parts)))


async def _seat(link: Any, attacker: P.Identity, invite: Any) -> P.TableSpec:
    """Join with the invite and read until the host's start: the spec we are seated at."""
    key = attacker.public.key
    await link.send(
        P.encode(JoinRequest(key, join_proof(invite.secret, invite.scope, key), 0, b""))
    )
    while True:
        msg = P.decode(await link.receive())
        if isinstance(msg, TableStart):
            return P.decode_as(msg.spec, P.TableSpec)


async def _drain(link: Any) -> None:
    try:
        while True:
            await link.receive()
    except LinkClosed:
        return


async def test_hostile_peers_7_a_seated_junk_flood_is_bounded_and_named(tmp_path: Path) -> None:
    events: list[list[dict[str, Any]]] = [[], []]
    host = TableNode(
        NodeConfig(data_dir=tmp_path / "host", pacing=Pacing(grace=0.5)),
        P.Identity.generate(),
        seats=3,
        decider=bot(0),
        emit=as_json(events[0]),
    )
    attacker = P.Identity.generate()
    sent = 0
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            invite = await nursery.start(host.run)
            link = await connect(
                nursery,
                "127.0.0.1",
                host.port,
                identity=attacker,
                scope=invite.scope,
                secret=invite.secret,
            )
            joiner = TableNode(
                NodeConfig(data_dir=tmp_path / "joiner", pacing=Pacing(grace=0.5)),
                P.Identity.generate(),
                invite=invite,
                decider=bot(1),
                emit=as_json(events[1]),
            )
            nursery.start_soon(joiner.run)
            spec = await _seat(link, attacker, invite)
            seat = spec.players.index(attacker.public.key)
            nursery.start_soon(_drain, link)
            feed = PC.Feed(attacker, spec.table_id, seat)  # our feed, from its first entry
            before = rss_bytes()
            try:
                for index in range(ENTRIES):
                    data = _junk(feed, 10**6 + 15 * index)
                    await link.send(data)
                    sent += len(data)
            except LinkClosed:
                pass  # the host gave up on us: the rest of the flood never left
            for node in (host, joiner):
                await node.done.wait()
            after = rss_bytes()
            nursery.cancel_scope.cancel()
    for seen in events:
        verdict = next(e for e in seen if e["event"] == "verdict")
        assert (verdict["seat"], verdict["kind"]) == (seat, "flood")
    assert after - before < 48 * 1024 * 1024, (before, after)
    print(
        f"\nseated flood: {sent / 2**20:.1f} MiB sent; RSS {before / 2**20:.1f} MiB -> "
        f"{after / 2**20:.1f} MiB"
    )
