"""Catch-up requests are bounded by bytes (hostile peers: a seat asking again and again for
big entries).  A seated attacker asks the host for the host's whole feed over and over: the
host answers at most its budget (plus one entry) a window, and closes the link of one that
keeps asking past that with a typed reason; the host stays up."""

from __future__ import annotations

from typing import Any

import trio

import fairtable.protocol as P
from fairtable.netplay import LinkClosed
from fairtable.netplay.table._serving import OVER_BUDGET, REFUSALS_MAX, PassOn, ServeBudget

from .flood import FloodTableMaker
from .rss import rss_bytes
from .said import Told

ASKS = 2_000  # of the host's whole feed; each a few dozen bytes
LIMIT = 64 * 1024  # the host's budget here (its feed is small this early: ~1 KiB)


def test_the_budget_counts_bytes_per_key_and_window() -> None:
    budget = ServeBudget(limit=100, window=10.0)
    assert budget.take(b"a", 500, 0.0)  # the first entry of a window always goes
    assert not budget.take(b"a", 1, 1.0)
    assert budget.take(b"b", 60, 1.0) and budget.take(b"b", 40, 1.0)  # another key: its own
    assert not budget.take(b"b", 1, 2.0)
    assert budget.take(b"a", 1, 10.0)  # a new window
    for _ in range(REFUSALS_MAX):
        budget.take(b"b", 1, 3.0)
    assert budget.over(b"b") and not budget.over(b"a")


async def test_a_seat_asking_again_and_again_gets_a_bounded_answer_then_loses_its_link(
    flood_table: FloodTableMaker,
) -> None:
    received, asked = [0], 0
    closed: list[str] = []
    gone = trio.Event()
    told = Told()

    async def drain(link: Any) -> None:
        try:
            while True:
                received[0] += len(await link.receive())
        except LinkClosed as exc:
            closed.append(exc.reason)
            gone.set()

    with trio.fail_after(60):
        async with flood_table(host_emit=told.tell) as t:
            host = t.host
            await told.until(lambda: host.session is not None and host.session.log.entries(0))
            feed = sum(len(P.encode(e)) for e in host.session.log.entries(0))
            host.serving = ServeBudget(limit=LIMIT)
            t.nursery.start_soon(drain, t.link)
            before = rss_bytes()
            want = P.encode(P.FeedRequest(0, 0, 1 << 52))
            try:
                for _ in range(ASKS):
                    await t.link.send(want)
                    asked += 1
                with trio.move_on_after(5):  # what is still on its way
                    await gone.wait()
            except LinkClosed:
                pass
            after = rss_bytes()
            assert not host.done.is_set()  # the host stays up
    assert feed * ASKS > 8 * LIMIT  # without the budget: this much would have come back
    assert closed == [OVER_BUDGET]
    assert asked <= ASKS
    assert received[0] <= LIMIT + feed + 64 * 1024  # one window, and beats and the start
    print(
        f"\nwant flood: {asked} asks for a {feed / 1024:.0f} KiB feed; {received[0] / 2**20:.1f}"
        f" MiB answered; RSS {before / 2**20:.1f} MiB -> {after / 2**20:.1f} MiB"
    )


def test_a_relay_passes_a_gap_on_once_whoever_asks_clipped_to_a_span() -> None:
    passing = PassOn(per_key=4, window=10.0, every=1.0, span=64)
    assert passing.ask(b"honest", 1, 5, 1 << 52, 0.0) == (5, 5 + 64)
    assert passing.ask(b"flooder", 1, 5, 1 << 52, 0.1) is None  # asked on already
    assert passing.ask(b"flooder", 1, 30, 40, 0.2) is None  # inside what was asked on
    assert passing.ask(b"flooder", 2, 5, 6, 0.2) == (5, 6)  # another seat's gap
    assert passing.ask(b"honest", 1, 5, 1 << 52, 1.0) == (5, 69)  # again, a second later


def test_a_flooding_asker_spends_only_its_own_share_of_passed_on_wants() -> None:
    passing = PassOn(per_key=4, window=10.0, every=1.0, span=64)
    flooded = [passing.ask(b"flooder", n % 16, 100 * n, 1 << 52, n / 1000) for n in range(1000)]
    assert sum(ask is not None for ask in flooded) == 4  # its share of the window
    assert passing.ask(b"honest", 3, 7, 1 << 52, 0.5) == (7, 71)  # an honest gap still goes on
    assert passing.ask(b"flooder", 15, 1, 2, 10.0) == (1, 2)  # a new window
