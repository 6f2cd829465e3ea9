"""A lobby holds only the links its table can seat (hostile peers, finding 2).

Anyone holding the invite can open authenticated links to the host.  Seventeen of them
used to overflow the ``Links`` roster (at most 16 keys) and the error stopped the
host's server.  Now a lobby takes at most one link per free seat and closes the rest at
once with a reason the other side reads ("seat refused: the table is full"); the host
stays up, and once the flood is gone a real game still starts and ends.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

import fairtable.protocol as P
from fairtable.netplay import LinkClosed, NodeConfig, Pacing, TableNode, TableTerms, connect
from fairtable.netplay.node._admission import SEAT_REFUSED
from fairtable.netplay.table._lobby import Links
from tests.netplay.said import as_json
from tests.netplay.test_tables import bot


async def _closed_reason(link: Any) -> str | None:
    """Why the host closed ``link`` (None: it stayed open for a while)."""
    with trio.move_on_after(3):
        try:
            while True:
                await link.receive()
        except LinkClosed as exc:
            return exc.reason
    return None


async def test_hostile_peers_2_seventeen_lobby_links_do_not_kill_the_host(tmp_path: Path) -> None:
    events: list[dict[str, Any]] = []
    host = TableNode(
        NodeConfig(
            data_dir=tmp_path / "host", terms=TableTerms(round_limit=2), pacing=Pacing(grace=0.5)
        ),
        P.Identity.generate(),
        seats=3,
        game="reign",
        decider=bot(0),
        emit=as_json(events),
    )
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            invite = await nursery.start(host.run)
            links = []
            for _ in range(17):
                links.append(
                    await connect(
                        nursery,
                        "127.0.0.1",
                        host.port,
                        identity=P.Identity.generate(),
                        scope=invite.lobby_id,
                        secret=invite.secret,
                    )
                )
            reasons = [await _closed_reason(link) for link in links[2:]]
            assert reasons == [f"{SEAT_REFUSED}the table is full"] * 15
            assert len(host.peers) == 2  # one link per free seat, no more
            for link in links[:2]:
                await link.aclose("gone")
            await host.mesh.until(lambda peers: not peers)  # the flood is gone: seats free again
            joiners = []
            for index in (1, 2):
                joiner = TableNode(
                    NodeConfig(data_dir=tmp_path / f"joiner{index}", pacing=Pacing(grace=0.5)),
                    P.Identity.generate(),
                    invite=invite,
                    decider=bot(index),
                )
                joiners.append(joiner)
                nursery.start_soon(joiner.run)
            for node in (host, *joiners):
                await node.done.wait()
            nursery.cancel_scope.cancel()
    assert any(e["event"] == "game_over" for e in events)


def test_a_roster_of_links_never_exceeds_what_the_message_holds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    node = TableNode(NodeConfig(data_dir=Path("/nonexistent")), P.Identity.generate(), seats=3)
    sent: list[bytes] = []

    def broadcast(data: bytes, *, skip: Any = None) -> None:
        sent.append(data)

    monkeypatch.setattr(node.mesh, "broadcast", broadcast)

    class _Info:
        def __init__(self) -> None:
            self.key = P.Identity.generate().public.key

    class _FakeLink:
        def __init__(self) -> None:
            self.info = _Info()

    class _FakePeer:
        def __init__(self) -> None:
            self.link, self.via_relay = _FakeLink(), False

    node.mesh.peers = {_FakePeer() for _ in range(40)}  # type: ignore[misc]
    node.mesh.tell_links()
    roster = P.decode(sent[-1])
    assert isinstance(roster, Links) and len(roster.keys) == 16


async def test_one_key_keeps_at_most_two_links_the_newest(tmp_path: Path) -> None:
    """Links from one key (a peer reconnecting, or someone opening link after link): the two
    newest are kept, older ones closed -- a reconnect is never refused."""
    host = TableNode(NodeConfig(data_dir=tmp_path / "host"), P.Identity.generate(), seats=3)
    joiner = P.Identity.generate()
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            invite = await nursery.start(host.run)
            links = []
            for _ in range(6):
                links.append(
                    await connect(
                        nursery,
                        "127.0.0.1",
                        host.port,
                        identity=joiner,
                        scope=invite.lobby_id,
                        secret=invite.secret,
                    )
                )
            reasons = [await _closed_reason(link) for link in links[:4]]
            assert reasons == ["replaced by a newer link"] * 4
            await host.mesh.until(lambda peers: len(peers) <= 2)  # bounded above
            assert {p.link.info.key for p in host.peers} == {joiner.public.key}
            assert await _closed_reason_quick(links[5]) is None  # the newest is still up
            nursery.cancel_scope.cancel()


async def _closed_reason_quick(link: Any) -> str | None:
    with trio.move_on_after(0.5):
        try:
            while True:
                await link.receive()
        except LinkClosed as exc:
            return exc.reason
    return None
