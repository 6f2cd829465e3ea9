"""Whole Reign games between table nodes over real loopback sockets, in one trio run.

Full mesh and relay-only tables of 3, 5 and 7 seats end with one digest on every
peer; the relay's stored log holds no hidden card in the clear; strangers and
impostors are refused; every saved log passes the audit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import trio
from trio.testing import MockClock

import fairtable.protocol as P
import fairtable.protocol.wire as PW
from fairtable.client.bots import RandomBot
from fairtable.engine.reign import standard_catalog
from fairtable.engine.rng import ChanceStream
from fairtable.netplay import (
    Invite,
    LinkClosed,
    NodeConfig,
    Pacing,
    Reach,
    RelayNode,
    TableNode,
    TableTerms,
    connect,
)
from tests.leaks import reign_face_up, strings_in
from tests.netplay.said import Told, as_json

CARDS = set(standard_catalog().defs)


def bot(seed: int) -> Any:
    player = RandomBot(ChanceStream.from_int(seed), "reign")
    return lambda event: player.decide(event.view, event.decision)


def owes_a_decision(node: TableNode) -> bool:
    """The table waits on ``node``'s seat for a decision (a node nobody answers for stays
    so: a test may stop it there, whatever the speed of the machine)."""
    session = node.session
    return (
        session is not None
        and session.seat in session.waiting
        and any(getattr(r, "seat", None) == session.seat for r in session.game.pending())
    )


class Table:
    """A host, its joiners and maybe a relay, all in this process."""

    def __init__(
        self,
        tmp: Path,
        seats: int,
        *,
        via_relay: bool,
        game: str = "reign",
        bot: Any = bot,
        round_limit: int | None = None,
        grace: float = 0.5,
        leave: bool = False,
    ) -> None:
        """``leave``: let every peer leave by itself (``run`` returns) instead of stopping
        them once all are done."""
        self.tmp, self.seats, self.via_relay = tmp, seats, via_relay
        self.game, self.bot, self.round_limit = game, bot, round_limit
        self.grace, self.leave = grace, leave
        self.events: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
        self.nodes: list[TableNode] = []
        self.relay: RelayNode | None = None
        self.hosting = trio.Event()  # set once the host listens (its port is known)

    def config(self, index: int, via: tuple[str, int] | None) -> NodeConfig:
        return NodeConfig(
            data_dir=self.tmp / f"peer{index}",
            reach=Reach(via=via, listen_port=None if via and index else 0),
            terms=TableTerms(round_limit=self.round_limit),
            pacing=Pacing(grace=self.grace),
        )

    async def play(self) -> None:
        async with trio.open_nursery() as nursery:
            via = None
            if self.via_relay:
                self.relay = RelayNode(self.tmp / "relay", P.Identity.generate(), emit=print)
                via = ("127.0.0.1", await nursery.start(self.relay.run))
            async with trio.open_nursery() as peers:
                host = TableNode(
                    self.config(0, via),
                    P.Identity.generate(),
                    seats=self.seats,
                    game=self.game,
                    decider=self.bot(0),
                    emit=as_json(self.events[0]),
                )
                self.nodes.append(host)
                invite = await peers.start(host.run)
                self.hosting.set()
                for index in range(1, self.seats):
                    node = TableNode(
                        self.config(index, via),
                        P.Identity.generate(),
                        invite=invite,
                        decider=self.bot(index),
                        emit=as_json(self.events[index]),
                    )
                    self.nodes.append(node)
                    peers.start_soon(node.run)
                if not self.leave:
                    for node in self.nodes:
                        await node.done.wait()
                    peers.cancel_scope.cancel()
            nursery.cancel_scope.cancel()  # the relay

    def results(self) -> list[dict[str, Any]]:
        return [next(e for e in events if e["event"] == "game_over") for events in self.events]


@pytest.mark.parametrize("seats", [3, 5, 7])
@pytest.mark.parametrize("via_relay", [False, True], ids=["mesh", "relay"])
async def test_bot_game_over_sockets_ends_with_one_digest(
    tmp_path: Path, seats: int, via_relay: bool
) -> None:
    table = Table(tmp_path, seats, via_relay=via_relay)
    with trio.fail_after(240):
        await table.play()
    results = table.results()
    assert len({r["digest"] for r in results}) == 1
    assert len({r["winner"] for r in results}) == 1
    if via_relay:
        assert all(not node.mesh.dialled for node in table.nodes)  # nobody linked directly
    else:
        assert any(node.mesh.dialled for node in table.nodes[1:])  # joiners linked: a mesh
    for node in table.nodes:  # every peer's saved log passes the audit
        assert node.session is not None and node.log is not None
        spec, entries = node.session.spec, list(node.log.records)
        assert P.audit_log(spec, entries).ok


async def test_hiding_the_relay_log_holds_no_hidden_card(tmp_path: Path) -> None:
    table = Table(tmp_path, 3, via_relay=True)
    with trio.fail_after(120):
        await table.play()
    assert table.relay is not None
    stored = [data for t in table.relay.tables.values() for data in t.log.records]
    assert any(b'"type":"entry"' in data for data in stored)
    for data in stored:
        msg = P.decode(data)
        if not isinstance(msg, P.Entry):
            assert not strings_in(json.loads(data)) & CARDS
            continue
        batch = msg.message()
        assert isinstance(batch, PW.Batch)
        for raw in batch.parts:
            part = P.decode(raw)
            named = strings_in(json.loads(raw)) & CARDS
            if isinstance(part, PW.Move):  # only cards shown face up, by the rules
                answer = json.loads(part.answer)
                assert strings_in(answer) & CARDS <= reign_face_up(answer)
                continue
            assert not named, f"the relay stored {named} in a {type(part).__name__}"


async def test_a_stranger_without_the_invite_is_refused(tmp_path: Path) -> None:
    host = TableNode(
        NodeConfig(data_dir=tmp_path / "host"), P.Identity.generate(), seats=3, decider=bot(1)
    )
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            invite: Invite = await nursery.start(host.run)
            with pytest.raises(LinkClosed) as refused:
                await connect(
                    nursery,
                    invite.host,
                    invite.port,
                    identity=P.Identity.generate(),
                    scope=invite.lobby_id,
                    secret=bytes(32),
                )
            assert refused.value.reason == "invite"
            assert host.lobby.taken == [] and host.start is None
            nursery.cancel_scope.cancel()


async def test_an_impostor_key_cannot_speak_for_a_seat(tmp_path: Path) -> None:
    """After the start only the roster's keys may link: the invite alone is not enough."""
    table = Table(tmp_path, 3, via_relay=False)
    outcome: dict[str, str] = {}
    told = Told()  # the host's events: it says "seated" once its start is signed

    async def intrude(invite: Invite) -> None:
        with trio.fail_after(30):
            await told.until(lambda: table.nodes[0].start is not None)
            async with trio.open_nursery() as nursery:
                try:
                    await connect(
                        nursery,
                        invite.host,
                        invite.port,
                        identity=P.Identity.generate(),
                        scope=invite.lobby_id,
                        secret=invite.secret,
                    )
                except LinkClosed as exc:
                    outcome["reason"] = exc.reason

    async with trio.open_nursery() as nursery:
        host = TableNode(
            table.config(0, None),
            P.Identity.generate(),
            seats=3,
            decider=bot(0),
            emit=told.json_into(table.events[0]),
        )
        table.nodes.append(host)
        invite = await nursery.start(host.run)
        nursery.start_soon(intrude, invite)
        for index in (1, 2):
            node = TableNode(
                table.config(index, None),
                P.Identity.generate(),
                invite=invite,
                decider=bot(index),
                emit=as_json(table.events[index]),
            )
            table.nodes.append(node)
            nursery.start_soon(node.run)
        with trio.fail_after(120):
            for node in table.nodes:
                await node.done.wait()
        nursery.cancel_scope.cancel()
    assert "authorised" in outcome.get("reason", "")
    assert len({r["digest"] for r in table.results()}) == 1


async def test_discovery_an_open_table_is_announced_without_its_secret(tmp_path: Path) -> None:
    from fairtable.netplay.lan._discovery import open_listener

    with trio.fail_after(30):
        listener = await open_listener(port=0, host="127.0.0.1")
        port = listener.port
        config = NodeConfig(
            data_dir=tmp_path / "host", name="Hosty", reach=Reach(announce_to=("127.0.0.1", port))
        )
        host = TableNode(config, P.Identity.generate(), seats=4, decider=bot(0))
        async with trio.open_nursery() as nursery:
            invite: Invite = await nursery.start(host.run)
            with listener:
                heard = await listener.receive()
            assert (heard.game, heard.seats, heard.free, heard.port) == ("reign", 4, 3, invite.port)
            assert heard.fingerprint == invite.fingerprint
            assert heard.name == "Hosty"  # what `tables` shows people (issue 31)
            nursery.cancel_scope.cancel()


async def test_liveness_a_seat_that_never_comes_back_ends_the_game_as_abandoned(
    tmp_path: Path,
    autojump_clock: MockClock,
) -> None:
    """Every other peer sees the seat go offline (no presence beat), then, the table's abandon
    limit later, ends the game as abandoned naming it, log kept.  The seat is a person who
    never answers, stopped once the table waits on its decision (virtual time: the clock
    moves only while every peer waits, so a loaded machine cannot make a seat look silent)."""
    events: list[list[dict[str, Any]]] = [[], [], []]
    _, nobody_answers = trio.open_memory_channel[Any](1)
    told = Told()  # every peer's events and bots' decisions wake the wait below

    def config(index: int) -> NodeConfig:
        return NodeConfig(
            data_dir=tmp_path / f"p{index}",
            terms=TableTerms(abandon_after=1.0),
            pacing=Pacing(seat_timeout=0.3, grace=0.2, beat=0.3),
        )

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host = TableNode(
                config(0),
                P.Identity.generate(),
                seats=3,
                decider=told.deciding(bot(0)),
                emit=told.json_into(events[0]),
            )
            invite = await nursery.start(host.run)
            nodes = [host]
            doomed = trio.CancelScope()
            for index in (1, 2):
                node = TableNode(
                    config(index),
                    P.Identity.generate(),
                    invite=invite,
                    decider=told.deciding(bot(index)) if index == 1 else None,
                    answers=nobody_answers if index == 2 else None,
                    emit=told.json_into(events[index]),
                )
                nodes.append(node)

                async def run(node: TableNode = node, index: int = index) -> None:
                    if index == 2:
                        with doomed:
                            await node.run()
                    else:
                        await node.run()

                nursery.start_soon(run)
            await told.until(lambda: owes_a_decision(nodes[2]))
            doomed.cancel()  # seat of node 2 goes silent for good
            silent = nodes[2].session.seat  # type: ignore[union-attr]
            await nodes[0].done.wait()
            await nodes[1].done.wait()
            nursery.cancel_scope.cancel()
    for index in (0, 1):
        kinds = [e["event"] for e in events[index]]
        assert {"waiting", "offline", "abandoned"} <= set(kinds)
        assert {"event": "offline", "seat": silent} in events[index]
        assert kinds.index("abandoned") == kinds.index("verdict") - 1  # said at once, with why
        verdict = next(e for e in events[index] if e["event"] == "verdict")
        assert verdict["seat"] == silent and verdict["kind"] == "abandoned"
        assert verdict["reason"] == f"seat {silent} stayed offline too long"
        node = nodes[index]
        assert node.log is not None and node.session is not None
        held = sum(len(node.session.log.entries(s)) for s in range(3))
        assert len(node.log.records) == held > 0  # the whole log is kept on disk


async def test_garbage_and_connection_floods_leave_the_game_unaffected(tmp_path: Path) -> None:
    table = Table(tmp_path, 3, via_relay=False)

    async def pester(port: int) -> None:
        async def one(payload: bytes, hold: bool) -> None:
            try:
                stream = await trio.open_tcp_stream("127.0.0.1", port)
            except OSError:
                return
            async with stream:
                try:
                    await stream.send_all(payload)
                    if hold:
                        await trio.sleep_forever()  # a stalled handshake
                    await stream.receive_some(1024)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    return

        async with trio.open_nursery() as nursery:
            nursery.start_soon(one, b"\xff" * 4 + b"junk", False)  # oversize declared length
            nursery.start_soon(one, b"\x00\x00\x00\x05hello", False)  # garbage frame
            for _ in range(150):
                nursery.start_soon(one, b"", True)
            await trio.sleep_forever()  # the flood lasts until the game is over (outer cancel)

    async with trio.open_nursery() as outer:

        async def play() -> None:
            await table.play()
            outer.cancel_scope.cancel()

        outer.start_soon(play)
        with trio.fail_after(120):
            await table.hosting.wait()
            await pester(table.nodes[0].port)
    assert len({r["digest"] for r in table.results()}) == 1
