"""Frames before the start cost a host a small, fixed amount of memory (hostile peers,
finding 7).

Before its table starts, a peer cannot check an entry (it does not know the table id
yet), so it keeps what arrives early to take in once seated.  It used to keep up to 4096
such frames per link: an invite holder sending 150 junk entries of half a MiB made the
host hold ~100 MB.  Now each link may leave at most ``EARLY_BYTES`` early; the rest is
dropped (an honest entry comes back by feed request once seated).
"""

from __future__ import annotations

import os
from types import SimpleNamespace
from typing import Any

import trio

import fairtable.protocol as P
from fairtable.netplay import join_proof
from fairtable.netplay.node._admission import EARLY_BYTES, EARLY_TOTAL, Admission
from fairtable.netplay.table._lobby import JoinRequest
from fairtable.protocol.crypto import MAX_BODY
from tests.netplay.said import Told

from .flood import FloodTableMaker
from .rss import rss_bytes

FRAMES = 150


def _junk_entry(seq: int, size: int = MAX_BODY) -> bytes:
    """A well-formed entry nobody signed (by default with the largest body allowed)."""
    return P.encode(
        P.Entry(os.urandom(32), 1, seq, os.urandom(32), os.urandom(size), os.urandom(64))
    )


async def test_hostile_peers_7_early_frames_are_held_up_to_a_byte_budget(
    flood_table: FloodTableMaker,
) -> None:
    events: list[dict[str, Any]] = []
    told = Told()
    with trio.fail_after(120):
        async with flood_table(host_emit=told.json_into(events), joiner=False, seated=False) as t:
            host, link, invite, attacker = t.host, t.link, t.invite, t.attacker
            before = rss_bytes()
            for seq in range(FRAMES):
                await link.send(_junk_entry(seq))
            for seq in range(FRAMES, FRAMES + 200):  # small ones too: kept up to the budget
                await link.send(_junk_entry(seq, 4096))
            key = attacker.public.key  # handled after every frame before it, in order
            await link.send(
                P.encode(JoinRequest(key, join_proof(invite.secret, invite.lobby_id, key), 0, b""))
            )
            await told.until(lambda: any(e["event"] == "lobby" for e in events))
            after = rss_bytes()
            assert EARLY_BYTES // 2 < sum(map(len, host.admission.early.values())) <= EARLY_BYTES
            assert after - before < 32 * 1024 * 1024, (before, after)
            print(
                f"\nearly flood: {FRAMES} frames of {len(_junk_entry(0))} bytes; "
                f"RSS {before / 2**20:.1f} MiB -> {after / 2**20:.1f} MiB"
            )


def test_links_coming_and_going_leave_at_most_the_total_early() -> None:
    """Issue 29: the budget was per link, and a link that closes takes its count with it:
    one key linking again and again (or many keys, one after another) left 256 KiB each.
    Now all links together leave at most ``EARLY_TOTAL`` before the start."""
    identity = P.Identity.generate()
    admission = Admission(
        identity,
        None,
        lambda event: None,
        game="reign",  # type: ignore[arg-type]
        seats=3,
        brings=None,
        hosting=True,
        begin=lambda start: None,
        make_spec=lambda seating: None,
    )  # type: ignore[arg-type, return-value]
    for _link in range(40):  # each a new link (a new _Peer): a reconnect
        peer = SimpleNamespace(early_bytes=0)
        for seq in range(4):
            admission.keep_early(peer, _junk_entry(seq, 60 * 1024))  # type: ignore[arg-type]
    kept = sum(map(len, admission.early.values()))
    assert EARLY_BYTES <= kept <= EARLY_TOTAL, kept
