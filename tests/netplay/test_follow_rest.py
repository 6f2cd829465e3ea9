"""A host who leaves a table that plays on keeps watching the rest (issue 31), over real
loopback sockets.

Reign at three seats: the host (seat 0, a person's node: its ``resign`` comes through the
answers channel) and two bot peers.  The host leaves; its node stops as before, then
:meth:`TableNode.follow_rest` follows the rest as a spectator -- through a seat still at the
table, pinned to that seat's key in the signed start -- until the game's end, with the
digest the seats finish on.  What it is told is the public view only: a spectator session
(seat None), and none of the cards the host held (set aside for good) ever shows up.  A
spectator that watched through the host, and one that comes with the invite after the host
left, watch to the end too: the host serves them on.  The attacks: a departed host that
signs a move after its leave and sends it -- on a spectator's link or on a seat's link
under its own key -- and floods its spectator's link is dropped, and changes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

import fairtable.protocol as P
from fairtable.netplay import (
    LinkClosed,
    NodeConfig,
    Pacing,
    ResignRequest,
    TableNode,
    WatchRefused,
    connect,
    watch_table,
)
from fairtable.netplay.links._watchers import MAX_SAYS
from fairtable.netplay.node._node_links import seat_address
from fairtable.protocol.wire import Batch, Move
from tests.leaks import strings_in
from tests.netplay.said import Told
from tests.netplay.test_tables import bot

PACE = 0.03  # seconds a bot takes at least: the rest of the game outlasts the follower's dial


class _Table:
    """A host (seat 0, the one who leaves) and two bot peers; what the host follows."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.told = Told()
        self.events: list[list[dict[str, Any]]] = [[], [], []]
        self.send, self.answers = trio.open_memory_channel[Any](4)
        self.nodes: list[TableNode] = []
        self.followed: list[tuple[Any, Any]] = []  # (event, the view it shows) after leaving
        self.sessions: list[P.TableSession] = []  # the follower's spectator session, at the end
        self.answered: list[Any] = []  # the bots' answers, the last one last

    def node(self, index: int, invite: Any = None) -> TableNode:
        decide = bot(index)

        def deciding(event: Any) -> Any:
            answer = decide(event)
            self.answered.append(answer)
            return answer

        return TableNode(
            NodeConfig(data_dir=self.tmp / f"peer{index}", pacing=Pacing(grace=0.5, pace=PACE)),
            P.Identity.generate(),
            invite=invite,
            seats=3,
            game="reign",
            decider=self.told.deciding(deciding),
            emit=self.told.json_into(self.events[index]),
            answers=self.answers if index == 0 else None,
        )

    def heard(self, event: Any, session: P.TableSession) -> None:
        view = session.game.view(None) if isinstance(event, P.StepApplied) else None
        self.followed.append((event, view))
        self.told.tell()

    async def host_then_follow(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        host = self.nodes[0]
        await host.run(task_status=task_status)
        self.sessions.append(await host.follow_rest(self.heard))
        self.told.tell()

    async def open(self, nursery: trio.Nursery) -> Any:
        self.nodes.append(self.node(0))
        invite = await nursery.start(self.host_then_follow)
        for index in (1, 2):
            self.nodes.append(self.node(index, invite))
            nursery.start_soon(self.nodes[-1].run)
        return invite

    async def leave(self, at_step: int) -> None:
        host = self.nodes[0]
        await self.told.until(
            lambda: host.session is not None and host.session.game.state.serial >= at_step
        )
        await self.send.send(ResignRequest())
        await self.told.until(lambda: host.session is not None and host.session.left is not None)

    def of(self, index: int, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events[index] if e["event"] == kind]

    def digest(self) -> str:
        """The digest both seats still playing finished on (one, and no verdict)."""
        digests = set()
        for index in (1, 2):
            assert not self.of(index, "verdict") and not self.of(index, "resigned")
            (over,) = self.of(index, "game_over")
            digests.add(over["digest"])
        (digest,) = digests
        return str(digest)


async def test_a_host_with_bots_who_leaves_follows_the_public_rest_to_the_end(
    tmp_path: Path,
) -> None:
    table = _Table(tmp_path)
    watched: list[P.TableSession] = []
    with trio.fail_after(240):
        async with trio.open_nursery() as nursery:
            invite = await table.open(nursery)

            async def spectator() -> None:  # watching through the host before it leaves
                watched.append(await watch_table(invite, lambda event, session: None))
                table.told.tell()

            nursery.start_soon(spectator)
            await table.leave(10)
            host = table.nodes[0]
            assert host.session is not None and host.session.left is not None
            left_at = host.session.left.step
            nursery.start_soon(spectator)  # one more, with the invite, after the host left
            await table.told.until(lambda: table.sessions and len(watched) == 2)
            for node in table.nodes[1:]:
                await node.done.wait()
    (followed,) = table.sessions
    assert followed.seat is None and followed.finished is not None
    digests = {table.digest(), *(w.finished.digest for w in watched if w.finished is not None)}
    assert digests == {followed.finished.digest} and len(watched) == 2
    steps = [event for event, _ in table.followed if isinstance(event, P.StepApplied)]
    assert steps and steps[0].step >= left_at  # only what came after our leave: news
    assert isinstance(table.followed[-1][0], P.GameFinished)  # to the very end
    assert not any(isinstance(event, P.SeatLeft) for event, _ in table.followed)
    for _, view in table.followed:  # the public view, never a seat's
        assert view is None or (view.seat is None and view.hand == () and not view.decisions)
    assert host.session is not None
    secrets = host.session.game.state.secrets[0]
    held = {*secrets.hand, *secrets.aside}  # what we held when we left: set aside for good
    shown = strings_in([[list(e.events), v.public] for e, v in table.followed if v is not None])
    assert held and not held & shown
    info = next(iter((tmp_path / "peer0" / "tables").glob("*/table.json"))).read_text()
    assert '"left"' in info  # the folder says the seat left, as before


async def test_a_departed_host_that_answers_or_floods_changes_nothing(tmp_path: Path) -> None:
    table = _Table(tmp_path)
    with trio.fail_after(240):
        async with trio.open_nursery() as nursery:
            invite = await table.open(nursery)
            await table.leave(10)
            host = table.nodes[0]
            await table.told.until(lambda: len(table.followed) > 0)  # following
            assert host.session is not None and host.session.feed is not None
            key = host.session.spec.players[1]
            (seat1,) = [node for node in table.nodes if node.identity.public.key == key]
            assert host.start is not None and seat1.session is not None
            step = seat1.session.game.state.serial
            answer = host.session.codec.encode(table.answered[-1])  # a real decision's answer
            forged = P.encode(  # a move at the step the table is at, signed by the host's key
                host.session.feed.append(Batch((P.encode(Move(step, answer, b"", ())),)))
            )
            address = seat_address(host.start.addresses[1])
            assert address is not None
            for role in ("peer", "observer"):
                link = await connect(
                    nursery,
                    *address,
                    identity=host.identity,
                    scope=invite.lobby_id,
                    secret=invite.secret,
                    role=role,
                    expect_key=key,
                )
                await link.send(forged)
                if role == "observer":
                    await seat1.watchers.until(lambda watching: watching >= 1)
                    with pytest.raises(LinkClosed) as closed:  # dropped for the flood
                        for _ in range(MAX_SAYS + 50):
                            await link.send(forged)
                        while True:
                            await link.receive()
                    assert closed.value.reason in ("flood", "disconnected")
                else:
                    await link.aclose("done")
            await table.told.until(lambda: table.sessions)
            for node in table.nodes[1:]:
                await node.done.wait()
    digest = table.digest()
    (followed,) = table.sessions
    assert followed.finished is not None and followed.finished.digest == digest
    host = table.nodes[0].session
    assert host is not None and host.feed is not None
    for node in table.nodes[1:]:  # the forged move is not even kept
        assert node.session is not None
        assert host.feed.next_seq == len(node.session.log.entries(0)) + 1


async def test_a_host_that_follows_a_table_already_gone_is_told_so(tmp_path: Path) -> None:
    """The seats finished and went before the follower reached any of them (it tries them
    in turn): after its patience it stops with a reason, rather than dialling for ever."""
    table = _Table(tmp_path)
    refused: list[str] = []

    async def host_then_follow_late(*, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        host = table.nodes[0]
        await host.run(task_status=task_status)
        for node in table.nodes[1:]:
            await node.done.wait()
        with pytest.raises(WatchRefused) as gone:
            await host.follow_rest(table.heard, patience=1.0)
        refused.append(str(gone.value))

    table.host_then_follow = host_then_follow_late  # type: ignore[method-assign]
    with trio.fail_after(240):
        async with trio.open_nursery() as nursery:
            await table.open(nursery)
            await table.leave(10)
    (why,) = refused
    assert "has answered for 1 s" in why and table.followed == []
