"""The table's clocks over real loopback sockets: a seat left thinking past its bank ends the
game with the same verdict on every peer; without a clock, a person's seat that thinks while
its peer is online is never timed out, even far past the abandon limit (through a relay)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import trio
from trio.testing import MockClock

import fairtable.protocol as P
from fairtable.netplay import (
    NodeConfig,
    NodeEvent,
    Pacing,
    Reach,
    RelayNode,
    SeatClock,
    TableNode,
    TableTerms,
    event_json,
)
from fairtable.netplay.table._clock import Presence
from tests.netplay.said import Told, as_json
from tests.netplay.test_tables import bot, owes_a_decision


class ClockTable:
    """The host and the first joiner are bots; the second joiner is a person who never
    answers (an open answer channel nobody sends on).  Seats go in order of arrival."""

    def __init__(self, tmp: Path, *, clock: SeatClock | None, abandon: float) -> None:
        self.tmp, self.clock, self.abandon = tmp, clock, abandon
        self.events: list[list[dict[str, Any]]] = [[], [], []]
        self.clock_times: list[list[float]] = [[], [], []]  # when each clock event came
        self.nodes: list[TableNode] = []
        self.answers_send, self.answers = trio.open_memory_channel[Any](4)
        self.told = Told()  # wakes at each event of a seat and each bot decision

    def config(self, index: int, via: tuple[str, int] | None) -> NodeConfig:
        return NodeConfig(
            data_dir=self.tmp / f"p{index}",
            reach=Reach(via=via, listen_port=None if via and index else 0),
            terms=TableTerms(abandon_after=self.abandon, clock=self.clock),
            pacing=Pacing(grace=0.3, beat=0.3, seat_timeout=0.5),
        )

    async def play_to_the_end(self) -> None:
        """Open the table and wait (60 s of the test's clock at most) until every node is
        done; then close what is left."""
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                await self.open(nursery)
                for node in self.nodes:
                    await node.done.wait()
                nursery.cancel_scope.cancel()

    async def open(self, nursery: trio.Nursery, via: tuple[str, int] | None = None) -> None:
        host = TableNode(
            self.config(0, via),
            P.Identity.generate(),
            seats=3,
            decider=self.told.deciding(bot(0)),
            emit=self.recorder(0),
        )
        self.nodes.append(host)
        invite = await nursery.start(host.run)
        for index in (1, 2):
            node = TableNode(
                self.config(index, via),
                P.Identity.generate(),
                invite=invite,
                decider=self.told.deciding(bot(index)) if index == 1 else None,
                answers=self.answers if index == 2 else None,
                emit=self.recorder(index),
            )
            self.nodes.append(node)
            nursery.start_soon(node.run)

    def recorder(self, index: int) -> Any:
        def emit(typed: NodeEvent) -> None:
            event = event_json(typed)
            self.events[index].append(event)
            if event["event"] == "clock":
                self.clock_times[index].append(trio.current_time())
            self.told.tell()

        return emit

    @property
    def person(self) -> int:
        session = self.nodes[2].session
        assert session is not None and session.seat is not None
        return session.seat

    def person_owes_a_decision(self) -> bool:
        return len(self.nodes) == 3 and owes_a_decision(self.nodes[2])


async def any_done(nodes: list[TableNode]) -> None:
    """Return once any of ``nodes`` is done."""
    async with trio.open_nursery() as nursery:

        async def done(node: TableNode) -> None:
            await node.done.wait()
            nursery.cancel_scope.cancel()

        for node in nodes:
            nursery.start_soon(done, node)


def verdicts(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["event"] == "verdict"]


async def test_a_seat_thinking_past_its_bank_ends_the_game_on_every_peer_alike(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    table = ClockTable(tmp_path, clock=SeatClock(6.0, 2.0), abandon=60.0)
    await table.play_to_the_end()
    person = table.person
    for index, events in enumerate(table.events):
        seated = next(e for e in events if e["event"] == "seated")
        assert seated["clock"] == {"abandon_ms": 60_000, "bank_ms": 6_000, "increment_ms": 2_000}
        found = verdicts(events)
        assert found == [
            {
                "event": "verdict",
                "seat": person,
                "kind": "out-of-time",
                "reason": f"seat {person} ran out of time",
            }
        ], index
        assert not any(e["event"] in ("game_over", "abandoned", "offline") for e in events)
        shown = [
            r for e in events if e["event"] == "clock" for r in e["seats"] if r["seat"] == person
        ]
        assert shown and shown[-1]["left"] < shown[0]["left"] <= 6.0 + 2.0 * 40  # it ran
        assert not shown[-1]["offline"]
        times = table.clock_times[index]
        gaps = [later - earlier for earlier, later in zip(times, times[1:], strict=False)]
        assert len(gaps) >= 2 and min(gaps) >= 0.99  # at most once a second


async def test_without_a_clock_an_online_person_thinking_is_never_timed_out(
    tmp_path: Path,
    autojump_clock: MockClock,
) -> None:
    """Through a relay (beats pass it), with the abandon limit at 1 s: the person thinks for
    five times that and nobody ends the game; the bots keep waiting on the person's seat.
    The relay passes the beats on but does not store them."""
    table = ClockTable(tmp_path, clock=None, abandon=1.0)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            relay = RelayNode(tmp_path / "relay", P.Identity.generate())
            via = ("127.0.0.1", await nursery.start(relay.run))
            await table.open(nursery, via)
            await table.told.until(table.person_owes_a_decision)
            with trio.move_on_after(5.0) as thinking:  # the person thinks for 5 s (mock)
                await any_done(table.nodes)
            assert thinking.cancelled_caught, "a node ended the game while the person thought"
            for node in table.nodes[:2]:
                assert node.session is not None and table.person in node.session.waiting
                assert node.session.verdict is None
            nursery.cancel_scope.cancel()
    stored = [P.decode(data) for t in relay.tables.values() for data in t.log.records]
    assert any(isinstance(m, P.Entry) for m in stored)
    assert not any(isinstance(m, Presence) for m in stored)  # beats pass, never stored
    for events in table.events:
        assert verdicts(events) == []
        assert not any(e["event"] in ("offline", "abandoned") for e in events)
    assert any(e["event"] == "waiting" and e["seat"] == table.person for e in table.events[0])


async def test_a_seat_that_goes_offline_and_comes_back_in_time_plays_on(
    tmp_path: Path,
    autojump_clock: MockClock,
) -> None:
    """A peer stops while the table waits on its decision (no beats: the others see it
    offline), then its command runs again, a bot now, with the same data directory before
    the abandon limit: it is back online, the countdown stops, and the game ends normally on
    every peer with one digest."""
    events: list[list[dict[str, Any]]] = [[], [], [], []]
    _, nobody_answers = trio.open_memory_channel[Any](1)
    identities = [P.Identity.generate() for _ in range(3)]
    told = Told()  # every peer's events and bots' decisions wake the waits below

    def config(index: int, pace: float = 0.0) -> NodeConfig:
        return NodeConfig(
            data_dir=tmp_path / f"p{index}",
            terms=TableTerms(abandon_after=8.0),
            pacing=Pacing(grace=0.3, beat=0.3, pace=pace),
        )

    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            host = TableNode(
                config(0),
                identities[0],
                seats=3,
                decider=told.deciding(bot(0)),
                emit=told.json_into(events[0]),
            )
            invite = await nursery.start(host.run)
            nodes = [host]
            stopped = trio.CancelScope()
            for index in (1, 2):
                node = TableNode(
                    config(index),
                    identities[index],
                    invite=invite,
                    decider=told.deciding(bot(index)) if index == 1 else None,
                    answers=nobody_answers if index == 2 else None,
                    emit=told.json_into(events[index]),
                )
                nodes.append(node)

                async def run(node: TableNode = node, index: int = index) -> None:
                    with stopped if index == 2 else trio.CancelScope():
                        await node.run()

                nursery.start_soon(run)
            await told.until(lambda: owes_a_decision(nodes[2]))
            stopped.cancel()
            seat = nodes[2].session.seat  # type: ignore[union-attr]
            await told.until(lambda: {"event": "offline", "seat": seat} in events[0])
            # back, the seat thinks 0.3 s a decision: the others' clocks say "online" at
            # their next tick (every 0.25 s), and a bot game can otherwise end in less
            again = TableNode(
                config(2, pace=0.3),
                identities[2],
                invite=invite,
                decider=bot(2),
                emit=as_json(events[3]),
            )
            nursery.start_soon(again.run)
            for node in (host, nodes[1], again):
                await node.done.wait()
            nursery.cancel_scope.cancel()
    for index in (0, 1):
        kinds = [e["event"] for e in events[index]]
        assert kinds.index("offline") < kinds.index("online") < kinds.index("game_over")
        assert "verdict" not in kinds and "abandoned" not in kinds
    digests = {next(e["digest"] for e in events[i] if e["event"] == "game_over") for i in (0, 1, 3)}
    assert len(digests) == 1
