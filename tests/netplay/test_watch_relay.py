"""Spectators served by a relay (``fairtable watch INVITE --via RELAY``), over real loopback
sockets: one joins a 4-seat relay game in progress, is served by the relay alone (the host
never sees it), catches up from the start, ends with the players' digest and is told no
hidden card before the end; a spectator that floods the relay is dropped and the players
finish; a spectator of a table the relay has not seen start opens nothing on the relay; a
forged start passed on by the relay is ignored (the spectator trusts it for delivery only)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

import fairtable.protocol as P
from fairtable.netplay import (
    Invite,
    LinkClosed,
    LinkRole,
    NodeConfig,
    Pacing,
    Reach,
    RelayNode,
    TableNode,
    connect,
    relay_scope,
    relay_token,
    watch_table,
)
from fairtable.netplay.links._watchers import MAX_SAYS
from fairtable.netplay.table._invite import RELAY_SECRET
from fairtable.netplay.table._lobby import Subscribe, TableStart
from tests.leaks import strings_in
from tests.netplay.said import Told
from tests.netplay.test_tables import bot
from tests.netplay.test_watch import _never_shown


async def _relay_table(
    nursery: trio.Nursery, tmp: Path, seats: int, events: list[list[Any]], told: Told
) -> tuple[Invite, RelayNode, tuple[str, int], list[TableNode]]:
    """A relay-only table of ``seats`` bots; ``told`` wakes at each of their events and
    decisions (a joiner is seated only once the relay, which keeps the signed start before
    it passes it on, has seen it)."""
    relay = RelayNode(tmp / "relay", P.Identity.generate(), emit=lambda event: None)
    via = ("127.0.0.1", await nursery.start(relay.run))
    nodes: list[TableNode] = []
    invite = None
    for i in range(seats):
        config = NodeConfig(
            data_dir=tmp / f"peer{i}",
            reach=Reach(via=via, listen_port=0 if i == 0 else None),
            pacing=Pacing(grace=0.5),
        )
        node = TableNode(
            config,
            P.Identity.generate(),
            invite=invite,
            seats=seats if i == 0 else 0,
            decider=told.deciding(bot(i)),
            emit=told.json_into(events[i]),
        )
        nodes.append(node)
        if i == 0:
            invite = await nursery.start(node.run)
        else:
            nursery.start_soon(node.run)
    assert invite is not None and invite.relay_key is not None  # pinned from the invite
    return invite, relay, via, nodes


def _table_of(relay: RelayNode) -> Any:
    (table,) = relay.tables.values()
    return table


def _relay_started(relay: RelayNode) -> bool:
    """Whether the relay has seen the table's signed start (it keeps a log from then on)."""
    return bool(relay.tables) and _table_of(relay).log is not None


async def test_spectator_via_relay_joins_in_progress_and_ends_with_the_players_digest(
    tmp_path: Path,
) -> None:
    events: list[list[Any]] = [[] for _ in range(4)]
    said: list[Any] = []
    told = Told()
    with trio.fail_after(300):
        async with trio.open_nursery() as nursery:
            invite, relay, via, nodes = await _relay_table(nursery, tmp_path, 4, events, told)
            host = nodes[0]
            await told.until(  # the game is under way
                lambda: host.session is not None and host.session.game.state.serial >= 12
            )
            assert host.session is not None and host.session.finished is None

            def told(event: Any, session: P.TableSession) -> None:
                if isinstance(event, P.StepApplied):
                    said.append(
                        [[e.as_tuple() for e in event.events], session.game.view(None).public]
                    )

            watched = await watch_table(invite, told, via=via)
            for node in nodes:
                await node.done.wait()
            nursery.cancel_scope.cancel()
    digests = {next(e for e in ev if e["event"] == "game_over")["digest"] for ev in events}
    assert watched.finished is not None and digests == {watched.finished.digest}
    assert said[0][0][0][0] == "houses"  # caught up from the very first step
    assert _table_of(relay).watchers.served == 1  # the relay served it...
    assert all(node.watchers.served == 0 for node in nodes)  # ...and no player did any work
    hidden = _never_shown(nodes[0])
    assert hidden and not hidden & strings_in(said)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "peer0",
        "peer1",
        "peer2",
        "peer3",
        "relay",
    ]  # the spectator wrote nothing


async def _observer(nursery: trio.Nursery, invite: Invite, via: tuple[str, int]) -> Any:
    token = relay_token(invite)
    link = await connect(
        nursery,
        *via,
        identity=P.Identity.generate(),
        scope=relay_scope(token),
        secret=RELAY_SECRET,
        role=LinkRole.OBSERVER,
        expect_key=invite.relay_key,
    )
    await link.send(P.encode(Subscribe(token, "observer")))
    return link


async def test_spectator_flooding_the_relay_is_dropped_and_the_players_finish(
    tmp_path: Path,
) -> None:
    events: list[list[Any]] = [[] for _ in range(3)]
    told = Told()
    with trio.fail_after(180):
        async with trio.open_nursery() as nursery:
            invite, relay, via, nodes = await _relay_table(nursery, tmp_path, 3, events, told)
            await told.until(lambda: _relay_started(relay))
            link = await _observer(nursery, invite, via)
            watchers = _table_of(relay).watchers
            await watchers.until(lambda watching: watching == 1)  # the relay took us in
            with pytest.raises(LinkClosed) as closed:
                for _ in range(MAX_SAYS + 50):
                    await link.send(P.encode(P.FeedRequest(0, 0, 1 << 52)))
                while True:
                    await link.receive()
            assert closed.value.reason in ("flood", "disconnected")
            await watchers.until(lambda watching: watching == 0)  # the relay dropped the link
            assert not any(x.info.role is LinkRole.OBSERVER for x in _table_of(relay).links)
            for node in nodes:
                await node.done.wait()
            nursery.cancel_scope.cancel()
    results = [next(e for e in ev if e["event"] == "game_over") for ev in events]
    assert len({r["digest"] for r in results}) == 1
    assert all(r["event"] == "game_over" for r in results)


async def test_spectator_of_an_unstarted_table_opens_nothing_on_the_relay(tmp_path: Path) -> None:
    relay = RelayNode(tmp_path / "relay", P.Identity.generate(), emit=lambda event: None)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            via = ("127.0.0.1", await nursery.start(relay.run))
            stranger = Invite(
                "127.0.0.1",
                1,
                bytes(32),
                P.Identity.generate().public.key,
                bytes(range(32)),
                "reign",
                3,
                relay.identity.public.key,
            )
            link = await _observer(nursery, stranger, via)
            with pytest.raises(LinkClosed) as closed:
                while True:
                    await link.receive()
            assert closed.value.reason == "the table has not started"
            assert relay.tables == {}
            nursery.cancel_scope.cancel()


async def test_spectator_ignores_a_start_the_host_did_not_sign(tmp_path: Path) -> None:
    """The relay (or anyone filing through it) passes a forged start before the real one:
    the spectator checks each against the invite's host key and follows only the real."""
    events: list[list[Any]] = [[] for _ in range(3)]
    told = Told()
    with trio.fail_after(180):
        async with trio.open_nursery() as nursery:
            invite, relay, via, nodes = await _relay_table(nursery, tmp_path, 3, events, told)
            await told.until(lambda: _relay_started(relay))
            table = _table_of(relay)
            real = next(P.decode(d) for d in table.lobby if isinstance(P.decode(d), TableStart))
            forged = TableStart(real.spec, real.addresses, real.names, real.scope, bytes(64))
            table.lobby.insert(0, P.encode(forged))
            watched = await watch_table(invite, lambda event, session: None, via=via)
            for node in nodes:
                await node.done.wait()
            nursery.cancel_scope.cancel()
    end = next(e for e in events[0] if e["event"] == "game_over")
    assert watched.finished is not None and watched.finished.digest == end["digest"]


async def test_spectators_that_never_read_do_not_delay_the_players(tmp_path: Path) -> None:
    """Several spectators link to the relay and never read a byte: the relay's queue to
    each only fills (it never waits on them) and the players finish with one digest."""
    events: list[list[Any]] = [[] for _ in range(3)]
    told = Told()
    with trio.fail_after(180):
        async with trio.open_nursery() as nursery:
            invite, relay, via, nodes = await _relay_table(nursery, tmp_path, 3, events, told)
            await told.until(lambda: _relay_started(relay))
            for _ in range(4):
                await _observer(nursery, invite, via)  # linked, and never read
            await _table_of(relay).watchers.until(lambda watching: watching == 4)
            for node in nodes:
                await node.done.wait()
            nursery.cancel_scope.cancel()
    results = [next(e for e in ev if e["event"] == "game_over") for ev in events]
    assert len({r["digest"] for r in results}) == 1
    assert relay.spectators == 0  # every spectator link was let go when the relay stopped
