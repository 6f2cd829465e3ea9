"""A seat that comes back while another socket holds the port it had (issue 31): the port a
seat listened on came from the operating system's ephemeral range, so by the time the seat
is run again any program's socket may hold it.  A started seat then listens on another port
and dials every seat that published an address (they dial the one the start signed, which
no longer reaches it); a host whose lobby's invite names the port cannot move, and says so,
naming the port.  Over real loopback sockets, in this process."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import trio

import fairtable.protocol as P
from fairtable.client.bots import RandomBot
from fairtable.engine.rng import ChanceStream
from fairtable.netplay import (
    NodeConfig,
    Pacing,
    PortBusy,
    TableFolder,
    TableInfo,
    TableNode,
    TableTerms,
)
from tests.netplay.said import Told


@contextmanager
def held(port: int) -> Iterator[socket.socket]:
    """Another program's socket listening on ``port`` (it never answers)."""
    holder = socket.socket()
    try:
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # past TIME-WAIT links
        holder.bind(("127.0.0.1", port))
        holder.listen()
        yield holder
    finally:
        holder.close()


class _Table:
    """A Reign table of bots in this process (3 seats unless told), each seat in its own
    folder."""

    def __init__(self, tmp: Path, seats: int = 3) -> None:
        self.tmp, self.seats = tmp, seats
        self.identities = [P.Identity.generate() for _ in range(seats)]
        self.events: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
        self.told = Told()

    def node(self, seat: int, invite: Any = None) -> TableNode:
        config = NodeConfig(
            data_dir=self.tmp / f"seat{seat}",
            pacing=Pacing(grace=2.0, pace=0.02),
            terms=TableTerms(round_limit=3),
        )
        player = RandomBot(ChanceStream.from_int(seat), "reign")
        self.events[seat] = []
        return TableNode(
            config,
            self.identities[seat],
            invite=invite,
            seats=self.seats,
            decider=self.told.deciding(lambda event: player.decide(event.view, event.decision)),
            emit=self.told.json_into(self.events[seat]),
        )

    def said(self, seat: int, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events[seat] if e["event"] == kind]


async def _run(node: TableNode, scope: trio.CancelScope, ended: trio.Event) -> None:
    with scope:
        await node.run()
    ended.set()


async def _linked(node: TableNode, key: bytes) -> None:
    await node.mesh.until(lambda peers: key in {p.link.info.key for p in peers})


async def _play_with_a_seat_moved(tmp: Path, victim: int) -> tuple[_Table, list[TableNode]]:
    """Seats 0, 1, 2 in that order; ``victim`` stops mid-game, another socket takes its
    port, and the same seat is run again from its folder."""
    table = _Table(tmp)
    async with trio.open_nursery() as nursery:
        scopes = [trio.CancelScope() for _ in range(3)]
        ended = [trio.Event() for _ in range(3)]
        nodes = [table.node(0)]
        nursery.start_soon(_run, nodes[0], scopes[0], ended[0])
        await table.told.until(lambda: table.said(0, "table_open"))
        invite = nodes[0].invite
        for seat in (1, 2):  # seated in this order
            nodes.append(table.node(seat, invite))
            nursery.start_soon(_run, nodes[seat], scopes[seat], ended[seat])
            await table.told.until(lambda seat=seat: len(nodes[0].lobby.taken) == seat + 1)
        await table.told.until(
            lambda: all(n.session is not None and n.session.game.state.serial >= 8 for n in nodes)
        )
        old = nodes[victim].port
        scopes[victim].cancel()
        await ended[victim].wait()
        with held(old):
            nodes[victim] = table.node(victim, None if victim == 0 else invite)
            await nursery.start(nodes[victim].run)
            assert nodes[victim].port not in (0, old)
            moved = table.identities[victim].public.key
            for other in range(3):  # every seat links to the one that moved
                if other != victim:
                    await _linked(nodes[other], moved)
            for node in nodes:
                await node.done.wait()
        nursery.cancel_scope.cancel()
    return table, nodes


@pytest.mark.parametrize("victim", [2, 0])
async def test_a_resumed_seat_whose_port_is_taken_listens_elsewhere_and_plays_on(
    tmp_path: Path, victim: int
) -> None:
    """Seat 2 (the last: only the others dial it) or the host comes back on another port;
    every seat links to it again and the game ends alike for all."""
    with trio.fail_after(120):
        table, nodes = await _play_with_a_seat_moved(tmp_path, victim)
    (seated,) = table.said(victim, "seated")
    assert seated["resumed"] is True
    digests = {table.said(seat, "game_over")[0]["digest"] for seat in range(3)}
    assert len(digests) == 1
    invite = nodes[0].invite
    assert invite is not None
    info = TableInfo.load(TableFolder(tmp_path / f"seat{victim}", "tables", invite.lobby_id))
    assert info.port == nodes[victim].port  # the next run tries the port it listened on last


async def test_a_joiner_that_came_back_on_another_port_in_the_lobby_dials_the_seats_before_it(
    tmp_path: Path,
) -> None:
    """Seat 2 of 4 stops in the lobby and comes back while its port is held: the host had
    seated it already, so the start signs the old address -- seat 1 dials that in vain, and
    seat 2, seeing its address name another port, dials seat 1."""
    table = _Table(tmp_path, seats=4)
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            host = table.node(0)
            invite = await nursery.start(host.run)
            nodes = [host]
            scope, ended = trio.CancelScope(), trio.Event()
            for seat in (1, 2):
                nodes.append(table.node(seat, invite))
                if seat == 2:
                    nursery.start_soon(_run, nodes[2], scope, ended)
                else:
                    nursery.start_soon(nodes[1].run)
                await table.told.until(lambda seat=seat: len(host.lobby.taken) == seat + 1)
            old = nodes[2].port
            scope.cancel()
            await ended.wait()
            with held(old):
                nodes[2] = table.node(2, invite)
                await nursery.start(nodes[2].run)
                nodes.append(table.node(3, invite))
                nursery.start_soon(nodes[3].run)
                await _linked(nodes[1], table.identities[2].public.key)
                for node in nodes:
                    await node.done.wait()
            nursery.cancel_scope.cancel()
    assert host.start is not None and host.start.addresses[2].endswith(f":{old}".encode())
    digests = {table.said(seat, "game_over")[0]["digest"] for seat in range(4)}
    assert len(digests) == 1


async def test_a_host_whose_lobby_port_is_taken_says_which_port_and_changes_nothing(
    tmp_path: Path,
) -> None:
    """Before the start the invite names the host's port: the host cannot move."""
    table = _Table(tmp_path)
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            first = table.node(0)
            invite = await nursery.start(first.run)
            nursery.cancel_scope.cancel()
        folder = TableFolder(tmp_path / "seat0", "tables", invite.lobby_id)
        before = folder.path.joinpath("table.json").read_bytes()
        with held(invite.port), pytest.raises(BaseExceptionGroup) as caught:
            await table.node(0).run()
    busy = caught.value.subgroup(PortBusy)
    assert busy is not None
    assert str(busy.exceptions[0]) == (
        f"cannot listen on 127.0.0.1:{invite.port}, the port this table's invite names: "
        "address already in use"
    )
    assert folder.path.joinpath("table.json").read_bytes() == before


@pytest.mark.parametrize("linked", [True, False])
async def test_failing_to_dial_a_seat_that_holds_a_link_to_us_is_not_reported(
    monkeypatch: pytest.MonkeyPatch, linked: bool
) -> None:
    """A seat that came back on another port dials us; our dials to the address the start
    signed for it fail on, and say nothing while its link to us is up (else each failure
    is an ``unreachable`` event, as before)."""
    from types import SimpleNamespace

    from fairtable.netplay import LinkClosed, NodeEvent, Unreachable
    from fairtable.netplay.node import _mesh
    from fairtable.netplay.node._node_parts import _Peer

    seat = P.Identity.generate().public.key

    async def dial_fails(*args: Any, on_retry: Any, **kwargs: Any) -> Any:
        on_retry(LinkClosed("unreachable"), 0.5)
        on_retry(LinkClosed("unreachable"), 1.0)
        raise LinkClosed("key")  # a refusal no retry fixes: the dial stops

    monkeypatch.setattr(_mesh, "connect_with_backoff", dial_fails)
    said: list[NodeEvent] = []
    mesh = _mesh.Mesh(
        P.Identity.generate(),
        said.append,
        on_open=lambda peer: None,
        on_message=lambda peer, data: None,
        on_closed=lambda exc: None,
    )
    if linked:
        send, _ = trio.open_memory_channel[bytes](1)
        mesh.peers.add(_Peer(SimpleNamespace(info=SimpleNamespace(key=seat)), send))  # type: ignore[arg-type]
    refusals: list[LinkClosed] = []
    with trio.fail_after(5):
        await mesh.dial(
            ("127.0.0.1", 4711),
            scope=bytes(32),
            secret=bytes(32),
            key=seat,
            via_relay=False,
            until=trio.Event(),
            refused=refusals.append,
        )
    reported = [event for event in said if isinstance(event, Unreachable)]
    assert [e.attempt for e in reported] == ([] if linked else [1, 2])
    assert [r.reason for r in refusals] == ["key"]
