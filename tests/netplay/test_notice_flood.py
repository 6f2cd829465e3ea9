"""Issue 29, unbounded stores: a seated peer floods signed time notices for far-off steps.

The attacker takes a seat honestly, then signs 24,000 ``time-notice`` messages -- each
valid, each for a step nobody will reach.  Before the fix every honest peer kept every
one, passed each on and showed each as a ``time_claim`` (~12 MiB and 24,000 lines at every
peer).  Now a peer keeps one notice per signing seat (its first) and refuses the rest
unread: memory stays flat, at most one ``time_claim`` per signer reaches the screen.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import trio

import protocol as P
from netplay import LinkClosed, NodeConfig, TableNode, connect
from netplay._clock import Flagged, TableClock
from tests.netplay.said import as_json

from .rss import rss_bytes
from .test_seated_flood import _seat
from .test_tables import bot

NOTICES = 24_000


async def _answers(link: Any, first_entry: trio.Event, marker: trio.Event) -> None:
    """Read the host's link: ``first_entry`` once seat 0's first entry came, ``marker`` when
    it comes a second time (the answer to our want, read after everything we sent)."""
    seen = 0
    try:
        while True:
            try:
                msg = P.decode(await link.receive())
            except P.DecodeError:
                continue
            if isinstance(msg, P.Entry) and msg.seat == 0 and msg.seq == 0:
                seen += 1
                (first_entry if seen == 1 else marker).set()
    except LinkClosed:
        return


async def test_a_seated_notice_flood_keeps_memory_flat_and_the_screen_quiet(tmp_path: Path) -> None:
    events: list[list[dict[str, Any]]] = [[], []]
    host = TableNode(
        NodeConfig(data_dir=tmp_path / "host", grace=0.5),
        P.Identity.generate(),
        seats=3,
        decider=bot(0),
        emit=as_json(events[0]),
    )
    attacker = P.Identity.generate()
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
                NodeConfig(data_dir=tmp_path / "joiner", grace=0.5),
                P.Identity.generate(),
                invite=invite,
                decider=bot(1),
                emit=as_json(events[1]),
            )
            nursery.start_soon(joiner.run)
            spec = await _seat(link, attacker, invite)
            seat = spec.players.index(attacker.public.key)
            first_entry, marker = trio.Event(), trio.Event()
            nursery.start_soon(_answers, link, first_entry, marker)
            await first_entry.wait()  # the host plays: its clock takes notices
            signer = TableClock(spec.time_limits(), spec.table_id, spec.players, seat, 0.0)
            notices = [
                P.encode(signer.notice(attacker, Flagged("out-of-time", 0), 10**6 + n))
                for n in range(NOTICES)
            ]
            before = rss_bytes()
            for data in notices:
                await link.send(data)
            await link.send(P.encode(P.FeedRequest(0, 0, 1)))  # read after every notice
            await marker.wait()
            after = rss_bytes()
            nursery.cancel_scope.cancel()
    print(
        f"\nnotice flood: {NOTICES} notices; RSS {before / 2**20:.1f} MiB -> "
        f"{after / 2**20:.1f} MiB"
    )
    claims = [[e for e in seen if e["event"] == "time_claim"] for seen in events]
    assert [len(c) for c in claims] == [1, 1], [len(c) for c in claims]  # one per signer
    assert claims[0][0]["by"] == seat
    assert after - before < 4 * 1024 * 1024, (before, after)
