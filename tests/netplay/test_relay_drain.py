"""A relay acts on everything a link delivered before it closed (issue 33; real loopback
sockets).

A peer may say its last messages -- an entry, its farewell -- and close at once.  Its link
at the relay then still holds what it delivered, and the relay reads it all: a reply to
that peer (the relay's greeting of a new link, the answer to a want, any other) meets the
link closed and is dropped, and the reading goes on to the end of what arrived.  Before,
only the answer to a want was dropped that way (seed 50 of the simulator); any other reply
that failed ended the reading, and the messages behind it were lost -- a farewell among
them kept a finished seat waiting the whole abandon limit.  A relay slow to greet or to
reply stands for one behind on its links (busy, or holding an earlier message back).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import attrs
import trio

import fairtable.protocol as P
from fairtable.netplay import RelayNode
from fairtable.netplay.links._link import DEFAULT_CONFIG, Link
from fairtable.netplay.relay._relay_quota import OVER_BUDGET
from tests.netplay.test_farewell import _table
from tests.netplay.test_relay_flood import flood, junk, stranger

ACK = b"ack"  # what the replying relay sends back: not a message, so nobody acts on it
LINGER = attrs.evolve(DEFAULT_CONFIG, bye_timeout=15.0)
"""The leaving peer's link waits this long for the relay to close in turn.  Closing a
socket with input unread (the relay's greeting, its replies) resets the connection, and a
reset loses what the relay's socket still held unread: the default half second bounds
what a relay slower than that (a loaded machine) can read of a flood after the close."""


class _SlowToGreet(RelayNode):
    """Greets a new link only once that link has closed."""

    async def _greet(self, table: Any, link: Any) -> None:
        await link._done.wait()
        await super()._greet(table, link)


class _Replying(RelayNode):
    """Acts on every message it is sent, then replies to it on the link that sent it --
    the first time only once that link has closed when ``late``."""

    late = False

    async def _on_message(self, table: Any, source: Any, data: bytes) -> None:
        await super()._on_message(table, source, data)
        if self.late:
            self.late = False
            await source._done.wait()
        await source.send(ACK)


def _last_words() -> list[bytes]:
    """A seat's last entry and its farewell."""
    players, farewells = _table()
    entry = P.Entry(b"t" * 32, 1, 0, bytes(32), b"the last move", os.urandom(64))
    return [P.encode(entry), P.encode(farewells.make(players[1], 1, "ab" * 32))]


async def _heard(link: Link, wanted: list[bytes]) -> list[bytes]:
    """What ``link`` is sent, until every one of ``wanted`` came: those, in the order sent."""
    heard: list[bytes] = []
    while not set(wanted) <= set(heard):
        data = await link.receive()
        if data in wanted:
            heard.append(data)
    return heard


async def _through(relay: RelayNode, words: list[bytes], tmp_path: Path) -> list[bytes]:
    """A staying peer, then a leaving peer that subscribes, says ``words`` and closes at
    once; what the staying peer hears of them from ``relay``."""
    token = os.urandom(32)
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(relay.run)
            staying, _scope = await stranger(nursery, port, "127.0.0.1", token)
            leaving, _scope = await stranger(nursery, port, "127.0.0.1", token, LINGER)
            await leaving.send_many(words)
            await leaving.aclose("done")
            heard = await _heard(staying, words)
            nursery.cancel_scope.cancel()
    return heard


async def test_a_peer_that_says_its_last_words_and_closes_at_once_is_heard(
    tmp_path: Path,
) -> None:
    """The relay greets the new link only after it closed: the greeting fails, and the
    entry and farewell the peer said before closing still pass on."""
    relay = _SlowToGreet(tmp_path / "relay", P.Identity.generate(), emit=lambda e: None)
    words = _last_words()
    assert await _through(relay, words, tmp_path) == words


async def test_a_reply_that_meets_the_link_closed_ends_no_reading(tmp_path: Path) -> None:
    """Any reply to the sender, not only a want's answer: the first one is sent once the
    sender's link closed, and every message it delivered passes on, in order."""
    relay = _Replying(tmp_path / "relay", P.Identity.generate(), emit=lambda e: None)
    relay.late = True
    words = [junk(100) for _ in range(8)] + _last_words()
    assert await _through(relay, words, tmp_path) == words


async def test_a_peer_that_floods_and_closes_is_heard_to_its_last_message(
    tmp_path: Path,
) -> None:
    """200 messages in one write, then the close, at a relay that replies to each (its
    replies fail from the close on): every message passes on, in order."""
    relay = _Replying(tmp_path / "relay", P.Identity.generate(), emit=lambda e: None)
    words = [junk(100) for _ in range(198)] + _last_words()
    assert await _through(relay, words, tmp_path) == words


async def test_a_flooder_the_relay_refused_is_read_no_further(tmp_path: Path) -> None:
    """A table on probation keeps 256 messages; a peer sends 400 at it: it is closed with
    the reason at the 257th, and nothing after that passes on (what its link still held
    is not drained: the relay closed it)."""
    relay = RelayNode(tmp_path / "relay", P.Identity.generate(), emit=lambda e: None)
    limit = relay.quota.limits.unstarted_messages
    token = os.urandom(32)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(relay.run)
            staying, _scope = await stranger(nursery, port, "127.0.0.1", token)
            flooder, _scope = await stranger(nursery, port, "127.0.0.1", token)
            assert await flood(flooder, 400, 100) == OVER_BUDGET
            passed = 0
            with trio.move_on_after(2.0):  # nothing more comes: the relay has closed it
                while True:
                    if isinstance(P.decode(await staying.receive()), P.FeedRequest):
                        continue  # the relay's greeting
                    passed += 1
            nursery.cancel_scope.cancel()
    assert passed == limit
