"""A host's bot seat is reached where the table's signed start says (issue 31), over real
sockets.

On a LAN the host sees a bot of its own come from this machine's LAN address (the bot
dials the invite's address), and signs that address with the bot's port.  A bot that
listened on loopback only could never be dialled there: a joiner seated before it dials
it in vain, the two hear each other only through the host, and once the host leaves a
table that plays on they are cut off.  Here a small stand-in for the LAN makes every link
to the host come from 127.0.0.3 (as a seat on the host's machine that dials its LAN
address comes from that address): the joiner, seated before the bot, gets a direct link
to it, the host leaves, and the joiner and the bot play to the end.  At a table linked
through a relay (``--via``) the bot links through the relay too, and plays on likewise.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import attrs
import trio

import fairtable.protocol as P
from fairtable.client.seats import bot_node, bot_reach
from fairtable.client.table_options import EVERY_INTERFACE, TableOptions
from fairtable.netplay import (
    Invite,
    NodeConfig,
    Pacing,
    Reach,
    RelayNode,
    ResignRequest,
    TableKind,
    TableNode,
)
from tests.netplay.said import Told
from tests.netplay.test_tables import bot

LAN_IP = "127.0.0.3"  # the address the host sees this machine's seats come from
EVERYWHERE = "0.0.0.0"  # the host's listen host (fairtable host's default)
ON_THE_LAN = Reach(listen_host=EVERYWHERE)  # where a host or joiner listens by default
PACE = 0.03  # seconds a bot takes at least: the host leaves while the game goes on


async def _lan(host_port: int, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
    """Pass every connection made to it on to the host at ``host_port``, from ``LAN_IP``;
    started with its own port (the one the joiners' invite names)."""

    async def pipe(
        source: trio.SocketStream, sink: trio.SocketStream, done: trio.CancelScope
    ) -> None:
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            async for chunk in source:
                await sink.send_all(chunk)
        done.cancel()

    async def handle(inbound: trio.SocketStream) -> None:
        sock = trio.socket.socket()
        await sock.bind((LAN_IP, 0))
        await sock.connect(("127.0.0.1", host_port))
        async with inbound, trio.SocketStream(sock) as outbound, trio.open_nursery() as both:
            both.start_soon(pipe, inbound, outbound, both.cancel_scope)
            both.start_soon(pipe, outbound, inbound, both.cancel_scope)

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    task_status.started(listeners[0].socket.getsockname()[1])
    await trio.serve_listeners(handle, listeners)


def _person(
    tmp: Path,
    told: Told,
    seed: int,
    answers: Any = None,
    reach: Reach = ON_THE_LAN,
    **more: Any,
) -> TableNode:
    """A seat listening where ``fairtable host`` and ``join`` listen (or reached as ``reach``
    says), a random bot deciding."""
    return TableNode(
        NodeConfig(
            data_dir=tmp / f"peer{seed}",
            reach=reach,
            pacing=Pacing(grace=0.5, pace=PACE),
        ),
        P.Identity.generate(),
        decider=told.deciding(bot(seed)),
        emit=lambda event: told.tell(),
        answers=answers,
        **more,
    )


async def test_a_joiner_seated_before_a_hosts_bot_links_to_it_and_they_play_on_without_the_host(
    tmp_path: Path,
) -> None:
    told = Told()
    send, answers = trio.open_memory_channel[Any](4)
    host = _person(tmp_path, told, 0, answers, seats=3, game="reign")
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            invite: Invite = await nursery.start(host.run)
            lan_port = await nursery.start(_lan, invite.port)
            on_lan = attrs.evolve(invite, host="127.0.0.1", port=lan_port)
            joiner = _person(tmp_path, told, 1, invite=on_lan)
            nursery.start_soon(joiner.run)
            await told.until(lambda: len(host.lobby.taken) == 2)  # the joiner sits first
            seat = bot_node(tmp_path, 0, on_lan, PACE, host=TableOptions(listen_host=EVERYWHERE))
            nursery.start_soon(seat.run)
            await told.until(lambda: host.start is not None)
            assert host.start is not None
            assert [a.decode().rpartition(":")[0] for a in host.start.addresses[1:]] == [LAN_IP] * 2
            await told.until(lambda: host.session is not None)
            assert host.session is not None
            assert host.session.spec.players[1:] == (
                joiner.identity.public.key,
                seat.identity.public.key,
            )
            bot_key = seat.identity.public.key
            with trio.fail_after(20):  # the joiner dials the later seat at its signed address
                await joiner.mesh.until(
                    lambda peers: any(p.link.info.key == bot_key for p in peers)
                )
            await _leave(host, told, send)
            await joiner.done.wait()
            await seat.done.wait()
            nursery.cancel_scope.cancel()  # the stand-in LAN
    _both_finished(joiner, seat)


async def _leave(host: TableNode, told: Told, send: trio.MemorySendChannel[Any]) -> None:
    """The host leaves at step 10, its node stops, the table plays on."""
    await told.until(lambda: host.session is not None and host.session.game.state.serial >= 10)
    await send.send(ResignRequest())
    await host.done.wait()
    assert host.session is not None and host.session.left is not None


def _both_finished(*nodes: TableNode) -> None:
    """Every node's game ended, on one digest."""
    ends = [node.session.finished for node in nodes if node.session is not None]
    assert len(ends) == len(nodes) and all(end is not None for end in ends)
    assert len({end.digest for end in ends if end is not None}) == 1


async def test_a_hosts_bot_links_through_the_hosts_relay_and_plays_on_without_the_host(
    tmp_path: Path,
) -> None:
    """With ``--via``, every seat links to the relay alone: a bot that dialled the host
    directly would hear nobody once the host left."""
    told = Told()
    send, answers = trio.open_memory_channel[Any](4)
    relay = RelayNode(tmp_path / "relay", P.Identity.generate(), emit=lambda event: None)
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            via = ("127.0.0.1", await nursery.start(relay.run))
            host_reach = Reach(listen_host=EVERYWHERE, via=via)
            host = _person(tmp_path, told, 0, answers, host_reach, seats=3, game="reign")
            invite: Invite = await nursery.start(host.run)
            seat = bot_node(
                tmp_path, 0, invite, PACE, host=TableOptions(listen_host=EVERYWHERE, via=via)
            )
            nursery.start_soon(seat.run)
            joiner = _person(
                tmp_path, told, 1, None, Reach(listen_port=None, via=via), invite=invite
            )
            nursery.start_soon(joiner.run)
            await _leave(host, told, send)
            await joiner.done.wait()
            await seat.done.wait()
            nursery.cancel_scope.cancel()  # the relay
    _both_finished(joiner, seat)


def test_fairtable_resume_reopens_a_lan_game_listening_where_host_and_join_listen() -> None:
    """A LAN game's start signed this machine's LAN address for our seat and our bots: the
    reopened game (and the bots it brings again) listen on every interface, as ``host`` and
    ``join`` do by default; a game against bots at this terminal stays on loopback."""
    for kind in (TableKind.HOST, TableKind.JOIN, None):
        options = TableOptions.for_resume(kind, 0.1)
        assert options.listen_host == EVERYWHERE == EVERY_INTERFACE
        assert bot_reach(options).listen_host == EVERYWHERE
    assert TableOptions.for_resume(TableKind.PLAY).listen_host == "127.0.0.1"
