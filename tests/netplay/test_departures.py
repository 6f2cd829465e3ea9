"""A seat leaves a real table (loopback sockets) and the others play on (issue 33).

Reign tables of bot nodes.  The attacks come first: a leaving seat whose leave shares do not
verify, whose leave names a step already past, or that keeps sending entries after it left
-- the first two are named (``bad-proof``, ``bad-leave``) by every other seat, the last
changes nothing.  Then the proof: seat 2 of four resigns mid-game, its node stops with a
clear ``departed`` line, and the three others finish on one digest that the audit accepts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import trio

import fairtable.protocol as P
from fairtable.client.bots import RandomBot
from fairtable.engine.rng import ChanceStream
from fairtable.netplay import NodeConfig, Pacing, ResignRequest, TableNode, saved_table
from fairtable.protocol.wire import Batch, DecryptShares, Leave, Resign
from tests.netplay.said import Told


def bot(seed: int) -> Any:
    player = RandomBot(ChanceStream.from_int(seed), "reign")
    return lambda event: player.decide(event.view, event.decision)


class _BadLeaveShares(P.TableSession):
    """Leaves with a flipped bit in the proof of its leave shares."""

    def publish(self, msg: Any) -> None:
        if isinstance(msg, DecryptShares) and msg.step.endswith("/leave"):
            msg = attrs.evolve(msg, proof=bytes([msg.proof[0] ^ 1]) + msg.proof[1:])
        super().publish(msg)


class _PastLeave(P.TableSession):
    """Leaves naming the step before the one it is at."""

    def publish(self, msg: Any) -> None:
        if isinstance(msg, Leave):
            msg = Leave(msg.step - 1)
        super().publish(msg)


class _TalksAfterLeaving(P.TableSession):
    """Once it has left, signs one more entry: a resignation at the current step."""

    def next_event(self) -> Any:
        event = super().next_event()
        if isinstance(event, P.SeatLeft) and event.seat == self.seat and self.feed is not None:
            self._flush()  # the leave goes out first
            body = Batch((P.encode(Resign(self.game.serial)),))
            self._outgoing.append(P.encode(self.feed.append(body)))
        return event


class _Table:
    def __init__(self, tmp: Path, seats: int, leaver: int, cls: type[P.TableSession]) -> None:
        self.tmp, self.seats, self.leaver, self.cls = tmp, seats, leaver, cls
        self.identities = [P.Identity.generate() for _ in range(seats)]
        self.events: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
        self.send, self.answers = trio.open_memory_channel[Any](4)
        self.nodes: list[TableNode] = []
        self.told = Told()  # each event of any seat, each decision of a bot

    def node(self, index: int, invite: Any = None) -> TableNode:
        config = NodeConfig(data_dir=self.tmp / f"peer{index}", pacing=Pacing(grace=2.0))
        return TableNode(
            config,
            self.identities[index],
            invite=invite,
            seats=self.seats,
            game="reign",
            decider=self.told.deciding(bot(index)),
            emit=self.told.json_into(self.events[index]),
            answers=self.answers if index == self.leaver else None,
            session_class=self.cls if index == self.leaver else P.TableSession,
        )

    async def play(self, at_step: int) -> None:
        """Every seat joins; the leaver resigns once the game has reached ``at_step``; until
        every node is done."""
        async with trio.open_nursery() as nursery:
            host = self.node(0)
            self.nodes.append(host)
            invite = await nursery.start(host.run)
            for index in range(1, self.seats):
                self.nodes.append(self.node(index, invite))
                nursery.start_soon(self.nodes[-1].run)
            await self.told.until(
                lambda: host.session is not None and host.session.game.state.serial >= at_step
            )
            await self.send.send(ResignRequest())
            for node in self.nodes:
                await node.done.wait()
            nursery.cancel_scope.cancel()

    def of(self, index: int, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events[index] if e["event"] == kind]

    def seat(self, index: int) -> int:
        session = self.nodes[index].session
        assert session is not None and session.seat is not None
        return session.seat


async def _named(tmp_path: Path, cls: type[P.TableSession], kind: str) -> None:
    table = _Table(tmp_path, 3, 1, cls)
    with trio.fail_after(120):
        await table.play(10)
    for index in (0, 2):
        (verdict,) = table.of(index, "verdict")
        assert verdict["seat"] == table.seat(1) and verdict["kind"] == kind, verdict
        assert not table.of(index, "departed")


async def test_a_leave_whose_shares_fail_names_the_leaver(tmp_path: Path) -> None:
    await _named(tmp_path, _BadLeaveShares, "bad-proof")


async def test_a_leave_at_a_step_already_past_names_the_leaver(tmp_path: Path) -> None:
    await _named(tmp_path, _PastLeave, "bad-leave")


async def test_an_entry_a_seat_sends_after_it_left_changes_nothing(tmp_path: Path) -> None:
    table = _Table(tmp_path, 3, 1, _TalksAfterLeaving)
    with trio.fail_after(150):
        await table.play(10)
    (gone,) = table.of(1, "departed")
    assert gone["you"] and gone["seat"] == table.seat(1)
    talker, other = table.nodes[1].session, table.nodes[0].session
    assert talker is not None and talker.feed is not None and other is not None
    assert talker.feed.next_seq == len(other.log.entries(table.seat(1))) + 1  # not even kept
    digests = set()
    for index in (0, 2):
        assert not table.of(index, "verdict") and not table.of(index, "resigned")
        (over,) = table.of(index, "game_over")
        digests.add(over["digest"])
    assert len(digests) == 1


async def test_a_seat_that_resigns_at_a_table_of_four_leaves_and_the_others_finish(
    tmp_path: Path,
) -> None:
    table = _Table(tmp_path, 4, 2, P.TableSession)
    with trio.fail_after(180):
        await table.play(12)
    (gone,) = table.of(2, "departed")
    assert gone["you"] and gone["seat"] == table.seat(2)
    assert not table.of(2, "game_over") and not table.of(2, "verdict")
    digests = set()
    for index in (0, 1, 3):
        assert not table.of(index, "verdict") and not table.of(index, "resigned")
        (seen,) = table.of(index, "departed")
        assert seen == {**gone, "you": False}
        (over,) = table.of(index, "game_over")
        assert over["end"] not in ("left", "resigned")
        digests.add(over["digest"])
        folder = table.nodes[index].folder
        assert folder is not None
        saved = saved_table(folder.path)
        result = P.audit_log(saved.spec, saved.entries)
        assert result.ok and result.departed == (table.seat(2),), result.summary
        assert result.digest == over["digest"]
    assert len(digests) == 1
