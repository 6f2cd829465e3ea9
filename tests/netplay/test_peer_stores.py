"""Issue 29, unbounded stores: a seated peer floods signed time notices for far-off steps.

The attacker takes a seat honestly, then signs 24,000 ``time-notice`` messages -- each
valid, each for a step nobody will reach.  Before the fix every honest peer kept every
one, passed each on and showed each as a ``time_claim`` (~12 MiB and 24,000 lines at every
peer).  Now a peer keeps one notice per signing seat (its first) and refuses the rest
unread: memory stays flat, at most one ``time_claim`` per signer reaches the screen.
"""

from __future__ import annotations

import os
from typing import Any

import trio

import fairtable.protocol as P
from fairtable.netplay import LinkClosed, join_proof
from fairtable.netplay.node._admission import REFUSALS_SHOWN
from fairtable.netplay.table._clock import Flagged, TableClock
from fairtable.netplay.table._lobby import JoinRequest, LobbyStatus
from tests.netplay.said import as_json

from .flood import FloodTableMaker
from .rss import rss_bytes

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


async def test_a_seated_notice_flood_keeps_memory_flat_and_the_screen_quiet(
    flood_table: FloodTableMaker,
) -> None:
    events: list[list[dict[str, Any]]] = [[], []]
    with trio.fail_after(120):
        async with flood_table(host_emit=as_json(events[0]), joiner_emit=as_json(events[1])) as t:
            spec, seat = t.spec, t.seat
            first_entry, marker = trio.Event(), trio.Event()
            t.nursery.start_soon(_answers, t.link, first_entry, marker)
            await first_entry.wait()  # the host plays: its clock takes notices
            signer = TableClock(spec.time_limits(), spec.table_id, spec.players, seat, 0.0)
            notices = [
                P.encode(signer.notice(t.attacker, Flagged("out-of-time", 0), 10**6 + n))
                for n in range(NOTICES)
            ]
            before = rss_bytes()
            for data in notices:
                await t.link.send(data)
            await t.link.send(P.encode(P.FeedRequest(0, 0, 1)))  # read after every notice
            await marker.wait()
            after = rss_bytes()
    print(
        f"\nnotice flood: {NOTICES} notices; RSS {before / 2**20:.1f} MiB -> "
        f"{after / 2**20:.1f} MiB"
    )
    claims = [[e for e in seen if e["event"] == "time_claim"] for seen in events]
    assert [len(c) for c in claims] == [1, 1], [len(c) for c in claims]  # one per signer
    assert claims[0][0]["by"] == seat
    assert after - before < 4 * 1024 * 1024, (before, after)


JUNK_ENTRIES = 20_000


async def test_junk_entries_a_seat_sends_leave_no_hash_behind(
    flood_table: FloodTableMaker,
) -> None:
    """A seated peer sends 20,000 distinct entries nobody can take (signatures that do not
    hold, another table's id): each once left its hash in the host's ``seen`` for ever
    (a set that only grew).  Now ``seen`` holds only hashes of entries the log holds."""
    with trio.fail_after(120):
        async with flood_table() as t:
            spec, seat, host = t.spec, t.seat, t.host
            first_entry, marker = trio.Event(), trio.Event()
            t.nursery.start_soon(_answers, t.link, first_entry, marker)
            await first_entry.wait()
            for n in range(JUNK_ENTRIES):
                table = spec.table_id if n % 2 else bytes(32)  # unsigned, or misaddressed
                junk = P.Entry(table, seat, n, bytes(32), b"junk", os.urandom(64))
                await t.link.send(P.encode(junk))
            await t.link.send(P.encode(P.FeedRequest(0, 0, 1)))  # read after every entry
            await marker.wait()
            assert host.session is not None
            held = sum(len(host.session.log.entries(s)) for s in range(spec.seats))
            seen = len(host.mesh.seen)
    assert seen <= held + 16, (seen, held)  # was 20,000 more (slack: entries past a gap)


BAD_JOINS = 1_000


async def test_a_flood_of_refused_joins_shows_the_host_only_so_many_refusals(
    flood_table: FloodTableMaker,
) -> None:
    """An invite holder sends 1,000 join requests the host refuses (a proof of another
    key's): each was a ``refused`` line on the host's screen, whose log keeps the whole
    game.  Now a table shows at most ``REFUSALS_SHOWN`` refusals; the rest are only
    counted."""
    events: list[dict[str, Any]] = []
    with trio.fail_after(60):
        async with flood_table(host_emit=as_json(events), joiner=False, seated=False) as t:
            invite, key = t.invite, t.attacker.public.key
            other = os.urandom(32)
            bad = P.encode(JoinRequest(key, join_proof(invite.secret, invite.lobby_id, other), 0))
            for _ in range(BAD_JOINS):
                await t.link.send(bad)
            good = JoinRequest(key, join_proof(invite.secret, invite.lobby_id, key), 0)
            await t.link.send(P.encode(good))  # read after every bad one: the host seats us
            while not isinstance(P.decode(await t.link.receive()), LobbyStatus):
                pass
    refused = [e for e in events if e["event"] == "refused"]
    assert 1 <= len(refused) <= REFUSALS_SHOWN, len(refused)
    assert refused[0]["reason"] == "a join without the invite"
