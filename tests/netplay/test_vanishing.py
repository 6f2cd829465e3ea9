"""A seat vanishes from a real table (loopback sockets) whose rule is ``go-on``, and the others
play on (issue 33; docs/protocol.md §11.11).

Reign tables of four bot nodes on trio's mock clock (virtual time moves only while every peer
waits, so a loaded machine cannot make a seat look gone).  One seat's node is killed -- its
nursery cancelled -- while it owes a decision, and never answers again.  Past the abandon limit
the three others agree it vanished instead of ending the game: they finish on one digest, the
audit of each one's log accepts it, and nobody is blamed; nobody dials the seat any more.  The
attack: the vanished seat comes back from its folder and, as its log says it owes a decision,
signs and sends a part for a step the table has left behind -- which moves nobody, forks
nothing and blames nobody; the seat is told it vanished and does not take its seat back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import trio
from trio.testing import MockClock

import fairtable.protocol as P
from fairtable.client.bots import RandomBot
from fairtable.engine.requests import Deal
from fairtable.engine.rng import ChanceStream
from fairtable.netplay import Invite, NodeConfig, Pacing, TableNode, TableTerms, saved_table
from fairtable.netplay import events as ev
from fairtable.protocol.wire import Batch, DecryptShares, Resign
from tests.netplay.said import as_json

SEATS = 4
DOOMED = 3  # the node that vanishes (a joiner)
ANSWERED = 4  # decisions it answers before it is killed at the next one
SHARES_AFTER = 20  # or, dying owing shares: the step past which it sends none


def bot(seed: int) -> Any:
    player = RandomBot(ChanceStream.from_int(seed), "reign")
    return lambda event: player.decide(event.view, event.decision)


class _Table:
    """Four Reign nodes at a ``go-on`` table with a short abandon limit; node ``DOOMED`` is
    answered by a bot through its screen channel, and killed at its ``ANSWERED + 1``-th
    decision.  The host is answered by a bot through its screen channel too, which after the
    departure waits for ``resume`` before its next answer (the table stays at the step
    the seat vanished at while the test looks)."""

    def __init__(self, tmp: Path, *, abandon_after: float = 2.0, dies_owing: bool = False) -> None:
        """``dies_owing``: the doomed node is answered by a bot and dies instead when it
        should send its first decryption shares for a deal past step ``SHARES_AFTER`` (a
        part its peer makes by itself, which the others then wait on: the stall rule runs,
        not a think; a deal is recovered, so the others play on)."""
        self.tmp = tmp
        self.abandon_after, self.dies_owing = abandon_after, dies_owing
        self.identities = [P.Identity.generate() for _ in range(SEATS)]
        self.events: list[list[dict[str, Any]]] = [[] for _ in range(SEATS)]
        self.nodes: list[TableNode] = []
        self.invite: Invite | None = None
        self.asked_send, self.asked = trio.open_memory_channel[Any](100)
        self.answer_send, self.answers = trio.open_memory_channel[Any](1)
        self.doomed = trio.CancelScope()
        self.killed = trio.Event()
        self.host_asked_send, self.host_asked = trio.open_memory_channel[Any](100)
        self.host_answer_send, self.host_answers = trio.open_memory_channel[Any](1)
        self.resume = trio.Event()
        self.all_departed = trio.Event()  # every survivor was told a seat departed

    def config(self, index: int) -> NodeConfig:
        return NodeConfig(
            data_dir=self.tmp / f"peer{index}",
            terms=TableTerms(
                abandon_after=self.abandon_after, round_limit=3, leavers=P.Leavers.GO_ON
            ),
            pacing=Pacing(seat_timeout=0.5, grace=0.5, beat=0.3),
            ui_events=index in (0, DOOMED),
        )

    def node(
        self,
        index: int,
        *,
        again: bool = False,
        person: Any = None,
        session_class: type[P.TableSession] = P.TableSession,
    ) -> TableNode:
        said = as_json(self.events[index])

        def emit(event: ev.NodeEvent) -> None:
            said(event)
            if isinstance(event, ev.Departed) and all(
                self.of(i, "departed") for i in self.survivors
            ):
                self.all_departed.set()
            if isinstance(event, ev.DecisionAsked) and index == DOOMED and not again:
                self.asked_send.send_nowait(event)
            elif isinstance(event, ev.DecisionAsked) and index == 0:
                self.host_asked_send.send_nowait(event)

        doomed = index == DOOMED and not again
        answers = self.answers if doomed else self.host_answers if index == 0 else person
        if doomed and self.dies_owing:
            answers, session_class = None, self._dies_owing_shares()
        return TableNode(
            self.config(index),
            self.identities[index],
            invite=self.invite,
            seats=SEATS,
            game="reign",
            decider=None if answers is not None else bot(index),
            answers=answers,
            emit=emit,
            session_class=session_class,
        )

    def _dies_owing_shares(self) -> type[P.TableSession]:
        table = self

        class DiesOwingShares(P.TableSession):
            def publish(self, msg: Any) -> None:
                if (
                    isinstance(msg, DecryptShares)
                    and self.game.serial > SHARES_AFTER
                    and isinstance(self.game.pending()[0], Deal)  # recoverable: not a reveal
                ):
                    table.doomed.cancel()  # the process is gone before the shares are sent
                    table.killed.set()
                    return
                super().publish(msg)

        return DiesOwingShares

    async def _host_player(self) -> None:
        """The host's player: a bot that, once the seat vanished, waits for ``resume``."""
        player = RandomBot(ChanceStream.from_int(0), "reign")
        async for asked in self.host_asked:
            if self.of(0, "departed"):
                await self.resume.wait()
            await self.host_answer_send.send(player.decide(asked.view, asked.decision))

    async def _answer_then_die(self) -> None:
        """The doomed seat's player: a bot for ``ANSWERED`` decisions, then its node dies
        while it owes the next one."""
        player = RandomBot(ChanceStream.from_int(DOOMED), "reign")
        answered = 0
        async for asked in self.asked:
            if answered == ANSWERED:
                self.doomed.cancel()  # the process is gone: no farewell, no last word
                self.killed.set()
                return
            await self.answer_send.send(player.decide(asked.view, asked.decision))
            answered += 1

    async def start(self, nursery: trio.Nursery) -> None:
        host = self.node(0)
        self.nodes.append(host)
        self.invite = await nursery.start(host.run)
        for index in range(1, SEATS):
            node = self.node(index)
            self.nodes.append(node)
            if index == DOOMED:

                async def run_doomed(node: TableNode = node) -> None:
                    with self.doomed:
                        await node.run()

                nursery.start_soon(run_doomed)
            else:
                nursery.start_soon(node.run)
        if not self.dies_owing:
            nursery.start_soon(self._answer_then_die)
        nursery.start_soon(self._host_player)

    async def play_to_the_survivors_end(self) -> None:
        """Play the whole game, the doomed seat dying on the way, until every survivor's node
        is done (600 virtual seconds at most: the game's own work is what takes time)."""
        self.resume.set()
        with trio.fail_after(600):
            async with trio.open_nursery() as nursery:
                await self.start(nursery)
                await self.killed.wait()
                for index in self.survivors:
                    await self.nodes[index].done.wait()
                nursery.cancel_scope.cancel()

    @property
    def survivors(self) -> list[int]:
        return [i for i in range(SEATS) if i != DOOMED]

    def seat(self, index: int) -> int:
        session = self.nodes[index].session
        assert session is not None and session.seat is not None
        return session.seat

    def of(self, index: int, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events[index] if e["event"] == kind]

    async def departed_everywhere(self) -> None:
        await self.all_departed.wait()  # bounded by the caller

    def check_the_survivors_finished_alike(self) -> set[str]:
        gone = self.seat(DOOMED)
        digests = set()
        for index in self.survivors:
            assert not self.of(index, "verdict") and not self.of(index, "abandoned")
            assert not self.of(index, "resigned")
            assert self.of(index, "vanishing") == [{"event": "vanishing", "seat": gone}]
            (departed,) = self.of(index, "departed")
            assert departed["seat"] == gone and departed["vanished"] and not departed["you"]
            (over,) = self.of(index, "game_over")
            assert over["end"] not in ("left", "resigned", "vanished")
            digests.add(over["digest"])
            folder = self.nodes[index].folder
            assert folder is not None
            saved = saved_table(folder.path)
            result = P.audit_log(saved.spec, saved.entries)
            assert result.ok and result.departed == (gone,), result.summary
            assert result.digest == over["digest"]
        assert len(digests) == 1
        return digests


async def test_a_seat_that_vanishes_mid_game_at_a_go_on_table_and_the_others_finish(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    table = _Table(tmp_path)
    await table.play_to_the_survivors_end()
    table.check_the_survivors_finished_alike()
    gone = table.seat(DOOMED)
    start = table.nodes[0].start
    assert start is not None
    address = start.addresses[gone].decode()
    for index in table.survivors:  # nobody dials the vanished seat once it is gone
        said = [e["event"] for e in table.events[index]]
        after = said.index("departed")
        assert not [
            e
            for e in table.events[index][after + 1 :]
            if e["event"] == "unreachable" and e["address"] == address
        ]


async def test_a_seat_that_dies_owing_shares_at_a_short_abandon_limit_vanishes_not_stalls(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    """Issue 33: the abandon limit (0.5 s) is shorter than the 3 beats (0.9 s) before an
    unheard seat is offline.  A seat that dies owing its decryption shares was flagged
    ``stalled`` first (a ``withheld-reveal``/``timeout`` verdict: the game ended at a table
    whose rule is ``go-on``); a seat that stopped beating is not stalling, so it goes offline,
    vanishes, and the three others finish on one digest that the audit accepts."""
    table = _Table(tmp_path, abandon_after=0.5, dies_owing=True)
    await table.play_to_the_survivors_end()
    table.check_the_survivors_finished_alike()


class _ResignsFromThePast(P.TableSession):
    """Back from its folder, signs a resignation for the step it vanished at -- a part for a
    step the table has left behind -- and sends it, as if it had signed it before it went."""

    def next_event(self) -> Any:
        if not getattr(self, "_sent", False) and self.feed is not None:
            self._sent = True
            body = Batch((P.encode(Resign(self.game.serial)),))
            self._outgoing.append(P.encode(self.feed.append(body)))
        return super().next_event()


async def _come_back(table: _Table, **how: Any) -> TableNode:
    """Play until every survivor saw the seat vanish, then start the vanished seat again
    from its folder (``how``: its node's session class, or a person who does not answer)
    while the table waits on the host; the table goes on once the returned node stopped."""
    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            await table.start(nursery)
            await table.killed.wait()
            await table.departed_everywhere()
            table.events[DOOMED].clear()
            back = table.node(DOOMED, again=True, **how)  # the same folder, key and invite
            nursery.start_soon(back.run)
            await back.done.wait()
            table.resume.set()
            for index in table.survivors:
                await table.nodes[index].done.wait()
            nursery.cancel_scope.cancel()
    return back


async def test_a_vanished_seat_that_comes_back_is_told_and_does_not_take_its_seat_back(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    table = _Table(tmp_path)
    _, nobody = trio.open_memory_channel[Any](1)
    back = await _come_back(table, person=nobody)
    table.check_the_survivors_finished_alike()
    gone = table.seat(DOOMED)
    (told,) = table.of(DOOMED, "resigned")
    assert told == {
        "event": "resigned",
        "seat": gone,
        "step": told["step"],
        "you": True,
        "vanished": True,
    }
    assert not table.of(DOOMED, "game_over") and not table.of(DOOMED, "verdict")
    assert back.session is not None and back.session.finished is not None
    assert back.session.finished.end == "vanished"


async def test_a_vanished_seat_that_comes_back_and_answers_at_once_blames_nobody(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    """Back from its folder, its bot answers the decision it owed before it learns that the
    table voted it gone: its engine moves past the voted step, yet the vote about it still
    ends its game (it never files what a voter sent after voting), and it names nobody."""
    table = _Table(tmp_path)
    back = await _come_back(table)
    table.check_the_survivors_finished_alike()
    (told,) = table.of(DOOMED, "resigned")
    assert told["vanished"] is True and told["you"] is True
    assert not table.of(DOOMED, "verdict") and not table.of(DOOMED, "game_over")
    assert back.session is not None and back.session.verdict is None
    assert back.session.finished is not None and back.session.finished.end == "vanished"


async def test_a_vanished_seat_that_comes_back_with_a_part_from_the_past_moves_nobody(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    """Its signed resignation would end the game for everyone if it counted; it is an entry
    past what the table agreed the seat had sent, so it counts for nothing anywhere."""
    table = _Table(tmp_path)
    _, nobody = trio.open_memory_channel[Any](1)
    back = await _come_back(table, person=nobody, session_class=_ResignsFromThePast)
    table.check_the_survivors_finished_alike()  # no resignation, no verdict, one digest
    gone = table.seat(DOOMED)
    session, kept = back.session, table.nodes[0].session
    assert session is not None and session.feed is not None and kept is not None
    # signed and sent (with, from its own session, a ``present`` for the vote about it), and
    # none of it kept: the survivors hold the seat's feed up to the voted ``seen`` only
    assert session.feed.next_seq > len(kept.log.entries(gone))
    assert {len(table.nodes[i].session.log.entries(gone)) for i in table.survivors} == {  # type: ignore[union-attr]
        len(kept.log.entries(gone))
    }
