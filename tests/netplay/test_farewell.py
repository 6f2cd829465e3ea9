"""Leaving a finished table: signed farewells, and peers that go as soon as all are said.

A peer used to linger for a fixed grace period after the game so its last entries
could reach the others.  Now each seat says a signed farewell once its session
has finished, and a peer leaves when every seat has said one and its queues are
sent -- long before the grace period, which stays the bound for a table where
some seat never says it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import trio

import fairtable.protocol as P
from fairtable.netplay import RelayNode
from fairtable.netplay.table._farewell import Farewell, Farewells
from tests.netplay.test_relay_flood import stranger
from tests.netplay.test_tables import Table

GRACE = 600.0  # far beyond the test's own time limit: leaving must not wait for it


@pytest.mark.parametrize("via_relay", [False, True], ids=["mesh", "relay"])
async def test_peers_leave_a_finished_table_once_every_seat_said_farewell(
    tmp_path: Path, via_relay: bool
) -> None:
    table = Table(tmp_path, 3, via_relay=via_relay, grace=GRACE, leave=True)
    with trio.fail_after(120):
        await table.play()  # returns only when every peer's run() has returned
    results = table.results()
    assert len({r["digest"] for r in results}) == 1
    for node in table.nodes:
        assert node.farewells is not None and node.farewells.everyone
        assert set(node.farewells.said.values()) == {results[0]["digest"]}
        assert node.session is not None and node.log is not None
        assert P.audit_log(node.session.spec, list(node.log.records)).ok


def _table() -> tuple[list[P.Identity], Farewells]:
    players = [P.Identity.generate() for _ in range(3)]
    return players, Farewells(b"t" * 32, tuple(p.public.key for p in players))


def test_a_farewell_signed_by_its_seat_is_taken_once() -> None:
    players, farewells = _table()
    said = Farewells(farewells.table_id, farewells.players).make(players[1], 1, "ab" * 32)
    again = P.decode(P.encode(said))  # it travels as a message like any other
    assert isinstance(again, Farewell) and again == said
    assert farewells.take(again)
    assert not farewells.take(again)  # not new: not passed on again
    assert farewells.said == {1: "ab" * 32} and not farewells.everyone


def test_a_farewell_in_another_seats_name_is_refused() -> None:
    players, farewells = _table()
    other = Farewells(farewells.table_id, farewells.players)
    forged = other.make(players[2], 2, "cd" * 32)
    assert not farewells.take(Farewell(1, forged.digest, forged.sig))  # seat 2 signing for 1
    assert not farewells.take(Farewell(2, "ef" * 32, forged.sig))  # a digest it did not sign
    assert not farewells.take(Farewell(7, forged.digest, forged.sig))  # no such seat
    elsewhere = Farewells(b"u" * 32, farewells.players).make(players[2], 2, "cd" * 32)
    assert not farewells.take(elsewhere)  # signed for another table
    assert farewells.said == {}


def test_everyone_has_said_farewell_only_with_every_seat() -> None:
    players, farewells = _table()
    farewells.make(players[0], 0, "00" * 32)
    helper = Farewells(farewells.table_id, farewells.players)
    for seat in (1, 2):
        assert not farewells.everyone
        assert farewells.take(helper.make(players[seat], seat, "00" * 32))
    assert farewells.everyone


def test_after_a_verdict_every_seat_but_the_blamed_one_is_enough() -> None:
    """A seat stopped by a proved verdict waits for the farewells of every seat but the one
    it blames (which never says one): the others may still need its evidence."""
    players, farewells = _table()
    farewells.make(players[0], 0, "verdict")
    assert not farewells.everyone_but({2})
    helper = Farewells(farewells.table_id, farewells.players)
    assert farewells.take(helper.make(players[1], 1, "verdict"))
    assert farewells.everyone_but({2}) and not farewells.everyone_but({1})
    assert not farewells.everyone and not farewells.everyone_but()


class _BehindRelay(RelayNode):
    """A relay behind on its links: it reads a want only once the asker's link has closed
    (as a relay holding an earlier message back, or just slow, would)."""

    async def _on_message(self, table: Any, source: Any, data: bytes) -> None:
        if isinstance(P.decode(data), P.FeedRequest):
            await source._done.wait()
        await super()._on_message(table, source, data)


async def test_a_relay_passes_on_a_farewell_said_after_a_want_by_a_peer_that_left(
    tmp_path: Path,
) -> None:
    """Seed 50 of the simulator: a seat asked for entries, said farewell and left; the relay,
    behind, answered the want on the closed link, and the failed send stopped its reading
    of that link -- the farewell after the want never reached the seat that stayed for it
    (598 s).  The answer is dropped now, and what the peer sent before closing passes on."""
    relay = _BehindRelay(tmp_path / "relay", P.Identity.generate(), emit=lambda e: None)
    players, farewells = _table()
    token = os.urandom(32)
    entry = P.Entry(b"t" * 32, 1, 0, bytes(32), b"the last move", os.urandom(64))
    farewell = P.encode(farewells.make(players[1], 1, "ab" * 32))
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(relay.run)
            staying, _scope = await stranger(nursery, port, "127.0.0.1", token)
            leaving, _scope = await stranger(nursery, port, "127.0.0.1", token)
            await leaving.send(P.encode(entry))
            while P.decode(await staying.receive()) != entry:  # the relay holds it now
                pass
            await leaving.send_many([P.encode(P.FeedRequest(1, 0, 1)), farewell])
            await leaving.aclose("done")
            while (said := await staying.receive()) != farewell:
                assert not isinstance(P.decode(said), Farewell)
            nursery.cancel_scope.cancel()
