"""Issue 14 finding 6 over real loopback sockets: a relay that silently drops one seat's
entries toward another gets no honest seat blamed.  The starved seat says so in a signed
claim (it knows the entries exist: the author's beats carry its feed's head); every honest
peer ends with the same ``starved`` verdict, naming nobody."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import attrs
import pytest
import trio
from trio.testing import MockClock

import fairtable.protocol as P
from fairtable.netplay import (
    NodeConfig,
    Pacing,
    Reach,
    RelayNode,
    SeatClock,
    TableNode,
    TableStart,
    TableTerms,
)
from fairtable.netplay.relay._relay import _Table
from fairtable.netplay.table._starved import Starved
from tests.netplay.said import Told, as_json
from tests.netplay.test_tables import bot


class DroppingRelay(RelayNode):
    """A relay that passes everything but the entries of one seat (``author``: the seat of the
    key ``author_key``, read from the table's signed start as it passes) toward the link of
    one key (``victim``), catch-up answers included.  It drops from the start on, whatever
    the speed of the machine: the author's first entry comes after the start."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.victim: bytes | None = None
        self.author_key: bytes | None = None
        self.author: int | None = None
        self.dropped = 0

    async def _on_message(self, table: _Table, source: Any, data: bytes) -> None:
        if self.author is None and self.author_key is not None:
            try:
                msg = P.decode(data)
            except P.DecodeError:
                msg = None
            if isinstance(msg, TableStart):
                self.author = P.decode_as(msg.spec, P.TableSpec).players.index(self.author_key)
        for link in list(table.links):
            if link.info.key == self.victim and not getattr(link, "filtered", False):
                self._filter(link)
        await super()._on_message(table, source, data)

    def _filter(self, link: Any) -> None:
        send = link.send

        async def filtered(data: bytes) -> None:
            try:
                msg = P.decode(data)
            except P.DecodeError:
                msg = None
            if isinstance(msg, P.Entry) and msg.seat == self.author:
                self.dropped += 1
                return
            await send(data)

        link.send, link.filtered = filtered, True


def config(tmp: Path, index: int, via: tuple[str, int]) -> NodeConfig:
    return NodeConfig(
        data_dir=tmp / f"p{index}",
        reach=Reach(via=via, listen_port=None if index else 0),
        terms=TableTerms(abandon_after=3.0),
        pacing=Pacing(grace=0.2, beat=0.3, seat_timeout=0.5),
    )


async def test_a_relay_dropping_one_seats_entries_gets_no_honest_seat_blamed(
    tmp_path: Path,
    autojump_clock: MockClock,
) -> None:
    events: list[list[dict[str, Any]]] = [[], [], []]
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            relay = DroppingRelay(tmp_path / "relay", P.Identity.generate())
            via = ("127.0.0.1", await nursery.start(relay.run))
            identities = [P.Identity.generate() for _ in range(3)]
            relay.victim, relay.author_key = identities[2].public.key, identities[1].public.key
            host = TableNode(
                config(tmp_path, 0, via),
                identities[0],
                seats=3,
                decider=bot(0),
                emit=as_json(events[0]),
            )
            invite = await nursery.start(host.run)
            nodes = [host]
            for index in (1, 2):
                node = TableNode(
                    config(tmp_path, index, via),
                    identities[index],
                    invite=invite,
                    decider=bot(index),
                    emit=as_json(events[index]),
                )
                nodes.append(node)
                nursery.start_soon(node.run)
            for node in nodes:
                await node.done.wait()
            nursery.cancel_scope.cancel()
    author = nodes[1].session.seat  # type: ignore[union-attr]
    starved = nodes[2].session.seat  # type: ignore[union-attr]
    assert relay.dropped > 0 and relay.author == author
    verdicts = [[e for e in peer if e["event"] == "verdict"] for peer in events]
    reason = (
        f"seat {starved} was starved of seat {author}'s entries (a link or relay dropped "
        f"them, or seat {author} never sent them)"
    )
    for index, found in enumerate(verdicts):
        assert found == [{"event": "verdict", "seat": None, "kind": "starved", "reason": reason}], (
            index
        )
    for node in nodes:  # the starved seat's signed claim is the verdict's evidence
        verdict = node.session.verdict  # type: ignore[union-attr]
        assert verdict is not None
        claims = [P.decode(data) for data in verdict.evidence]
        assert claims and all(isinstance(c, Starved) and c.by == starved for c in claims)


@pytest.mark.parametrize("liar_direct", [False, True], ids=["relay_only", "liar_linked_to_host"])
async def test_a_seat_lying_that_it_is_starved_over_a_relay_frames_nobody(
    tmp_path: Path,
    liar_direct: bool,
    autojump_clock: MockClock,
) -> None:
    """Leftover c: over a relay only, a seat that holds every entry but claims, signed, to
    lack one (with the author's real beat) can end the game -- nobody can prove it got the
    entries through a relay -- but it frames nobody: every honest peer ends ``starved``,
    naming nobody, with the same words (docs/threat-model.md).  Leftover a: so too when the
    liar links to the host directly (the host re-sends it the entries over that link, and
    knows it got them, but cannot show it: it ends as the relay-only author does)."""
    events: list[list[dict[str, Any]]] = [[], [], []]
    told = Told()  # every peer says "seated" once its session is set
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            relay = RelayNode(tmp_path / "relay", P.Identity.generate())
            via = ("127.0.0.1", await nursery.start(relay.run))
            identities = [P.Identity.generate() for _ in range(3)]
            host = TableNode(
                config(tmp_path, 0, via),
                identities[0],
                seats=3,
                decider=bot(0),
                emit=told.json_into(events[0]),
            )
            invite = await nursery.start(host.run)
            nodes = [host]
            for index in (1, 2):  # seat 2's person never decides: it dodges its turn
                settings = config(tmp_path, index, via)
                if index == 2 and liar_direct:
                    reach = attrs.evolve(settings.reach, via=None)  # dials the host itself
                    settings = attrs.evolve(settings, reach=reach)
                node = TableNode(
                    settings,
                    identities[index],
                    invite=invite,
                    decider=bot(index) if index == 1 else None,
                    emit=told.json_into(events[index]),
                )
                nodes.append(node)
                nursery.start_soon(node.run)
            await told.until(lambda: all(node.session is not None for node in nodes))
            liar = nodes[2]
            assert nodes[1].session is not None and nodes[1].session.seat is not None
            author = nodes[1].session.seat
            claimed: list[int] = []

            def lie(now: float) -> None:  # claims to hold fewer of the author's entries
                starvation = liar.liveness.starvation
                assert starvation is not None
                beat = starvation.beats.get(author)
                if beat is None or beat[0].head < 1:
                    return
                if not claimed:
                    claimed.append(beat[0].head - 1)
                if now - liar.liveness._claimed_at >= liar.config.pacing.beat:
                    liar.liveness._claimed_at = now
                    liar.liveness.mesh.broadcast(
                        starvation.claim(
                            liar.identity, author, claimed[0], time.time_ns() // 10**6, now
                        )
                    )

            liar.liveness._claim_if_starved = lie  # type: ignore[method-assign]
            for node in nodes:
                await node.done.wait()
            nursery.cancel_scope.cancel()
    assert claimed
    liar_seat = nodes[2].session.seat  # type: ignore[union-attr]
    reason = (
        f"seat {liar_seat} was starved of seat {author}'s entries (a link or relay dropped "
        f"them, or seat {author} never sent them)"
    )
    for index in (0, 1):  # the honest peers
        found = [e for e in events[index] if e["event"] == "verdict"]
        assert found == [{"event": "verdict", "seat": None, "kind": "starved", "reason": reason}], (
            index
        )


async def test_under_a_chess_clock_a_starved_seat_is_never_flagged_out_of_time(
    tmp_path: Path,
    autojump_clock: MockClock,
) -> None:
    """Leftover b: the relay drops seat 1's entries toward seat 2 at a table with a 3 s
    chess clock.  The others wait on seat 2 (its bank drains there), seat 2 waits on seat 1
    (its bank drains at seat 2) -- both would run out before the starvation rule ends the
    game.  A seat proved starved is not flagged and its bank pauses (every bank, at the
    starved seat): every peer ends ``starved``, nobody ``out-of-time``."""
    events: list[list[dict[str, Any]]] = [[], [], []]
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            relay = DroppingRelay(tmp_path / "relay", P.Identity.generate())
            via = ("127.0.0.1", await nursery.start(relay.run))
            identities = [P.Identity.generate() for _ in range(3)]
            relay.victim, relay.author_key = identities[2].public.key, identities[1].public.key

            def clocked(index: int) -> NodeConfig:
                plain = config(tmp_path, index, via)
                return attrs.evolve(
                    plain, terms=attrs.evolve(plain.terms, clock=SeatClock(3.0, 0.0))
                )

            host = TableNode(
                clocked(0), identities[0], seats=3, decider=bot(0), emit=as_json(events[0])
            )
            invite = await nursery.start(host.run)
            nodes = [host]
            for index in (1, 2):
                node = TableNode(
                    clocked(index),
                    identities[index],
                    invite=invite,
                    decider=bot(index),
                    emit=as_json(events[index]),
                )
                nodes.append(node)
                nursery.start_soon(node.run)
            for node in nodes:
                await node.done.wait()
            nursery.cancel_scope.cancel()
    author = nodes[1].session.seat  # type: ignore[union-attr]
    starved = nodes[2].session.seat  # type: ignore[union-attr]
    assert relay.dropped > 0 and relay.author == author
    reason = (
        f"seat {starved} was starved of seat {author}'s entries (a link or relay dropped "
        f"them, or seat {author} never sent them)"
    )
    for index, peer in enumerate(events):
        found = [e for e in peer if e["event"] == "verdict"]
        assert found == [{"event": "verdict", "seat": None, "kind": "starved", "reason": reason}], (
            index,
            found,
        )
