"""A table's life over real loopback sockets: going on with a saved table (and saying so),
``fresh`` tables, kinds that never mix, the public summary in table.json, and resigning.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import trio

import fairtable.protocol as P
from fairtable.client.bots import RandomBot
from fairtable.engine.reign import standard_catalog
from fairtable.engine.rng import ChanceStream
from fairtable.netplay import (
    NodeConfig,
    Pacing,
    ResignRequest,
    TableChoice,
    TableFolder,
    TableInfo,
    TableKind,
    TableNode,
    saved_table,
)
from tests.leaks import strings_in
from tests.netplay.said import Told, as_json

CARDS = set(standard_catalog().defs)


def bot(seed: int) -> Any:
    player = RandomBot(ChanceStream.from_int(seed), "reign")
    return lambda event: player.decide(event.view, event.decision)


async def _open_lobby(
    data_dir: Path, identity: P.Identity, events: list[dict[str, Any]], **choice: Any
) -> Any:
    """Host a 3-seat Reign table nobody joins; return its invite once it is open."""
    node = TableNode(
        NodeConfig(data_dir=data_dir, choice=TableChoice(**choice)),
        identity,
        seats=3,
        game="reign",
        emit=as_json(events),
    )
    async with trio.open_nursery() as nursery:
        invite = await nursery.start(node.run)
        nursery.cancel_scope.cancel()
    return invite


async def test_a_host_goes_on_with_its_table_says_so_and_new_starts_afresh(
    tmp_path: Path,
) -> None:
    me = P.Identity.generate()
    with trio.fail_after(20):
        first: list[dict[str, Any]] = []
        invite = await _open_lobby(tmp_path, me, first, kind=TableKind.PLAY)
        assert not [e for e in first if e["event"] == "resuming"]
        again: list[dict[str, Any]] = []
        assert await _open_lobby(tmp_path, me, again, kind=TableKind.PLAY) == invite
        (resuming,) = [e for e in again if e["event"] == "resuming"]
        assert resuming["game"] == "reign" and resuming["status"] == "lobby"
        assert resuming["table"] == invite.lobby_id.hex()
        info = TableInfo.load(TableFolder(tmp_path, "tables", invite.lobby_id))
        assert resuming["started"] == info.created and info.kind is TableKind.PLAY
        fresh: list[dict[str, Any]] = []
        other = await _open_lobby(tmp_path, me, fresh, kind=TableKind.PLAY, fresh=True)
    assert other != invite and not [e for e in fresh if e["event"] == "resuming"]
    for table in (invite, other):  # the old table is kept, unfinished
        assert TableInfo.load(TableFolder(tmp_path, "tables", table.lobby_id)).status == "lobby"


async def test_host_never_takes_over_a_play_table_nor_play_a_host_table(
    tmp_path: Path,
) -> None:
    me = P.Identity.generate()
    with trio.fail_after(20):
        play = await _open_lobby(tmp_path, me, [], kind=TableKind.PLAY)
        hosted = await _open_lobby(tmp_path, me, [], kind=TableKind.HOST)
        assert hosted != play
        assert await _open_lobby(tmp_path, me, [], kind=TableKind.PLAY) == play
        assert await _open_lobby(tmp_path, me, [], kind=TableKind.HOST) == hosted


async def test_a_folder_that_does_not_say_its_kind_is_reopened_only_by_name(
    tmp_path: Path,
) -> None:
    me = P.Identity.generate()
    with trio.fail_after(20):
        old = await _open_lobby(tmp_path, me, [], kind=TableKind.HOST)
        folder = TableFolder(tmp_path, "tables", old.lobby_id)
        TableInfo.load(folder).but(kind=None).save(folder)  # as written before kinds were kept
        assert await _open_lobby(tmp_path, me, [], kind=TableKind.HOST) != old
        named: list[dict[str, Any]] = []
        assert await _open_lobby(tmp_path, me, named, resume=old.lobby_id) == old
    assert [e["event"] for e in named].count("resuming") == 1


class _Table:
    """A 3-seat Reign table of bots in this process; seat 0 also takes answers."""

    def __init__(self, tmp: Path, pace: float = 0.0) -> None:
        self.tmp, self.pace = tmp, pace
        self.events: list[list[dict[str, Any]]] = [[], [], []]
        self.nodes: list[TableNode] = []
        self.identities = [P.Identity.generate() for _ in range(3)]
        self.send, self.answers = trio.open_memory_channel[Any](4)
        self.told = Told()  # wakes at each event of a seat and each bot decision

    def node(self, index: int, invite: Any = None) -> TableNode:
        config = NodeConfig(
            data_dir=self.tmp / f"peer{index}", pacing=Pacing(grace=2.0, pace=self.pace)
        )
        return TableNode(
            config,
            self.identities[index],
            invite=invite,
            seats=3,
            decider=self.told.deciding(bot(index)),
            emit=self.told.json_into(self.events[index]),
            answers=self.answers if index == 0 else None,
        )


async def test_resigning_over_sockets_ends_the_game_for_every_seat(tmp_path: Path) -> None:
    table = _Table(tmp_path, pace=0.05)
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            host = table.node(0)
            table.nodes.append(host)
            invite = await nursery.start(host.run)
            for index in (1, 2):
                table.nodes.append(table.node(index, invite))
                nursery.start_soon(table.nodes[-1].run)
            await table.told.until(  # a dozen steps
                lambda: host.session is not None and host.session.game.state.serial >= 12
            )
            summary = TableInfo.load(host.folder)  # type: ignore[union-attr]
            await table.send.send(ResignRequest(leave=False))  # tests/netplay/test_departures
            for node in table.nodes:
                await node.done.wait()
            nursery.cancel_scope.cancel()
    assert isinstance(summary.round, int) and summary.turn is not None
    assert not strings_in(json.loads(summary.encode())) & CARDS  # the summary names no card
    steps = set()
    for index, node in enumerate(table.nodes):
        (resigned,) = [e for e in table.events[index] if e["event"] == "resigned"]
        assert resigned["seat"] == 0 and resigned["you"] == (index == 0)
        steps.add(resigned["step"])
        assert not [e for e in table.events[index] if e["event"] in ("verdict", "game_over")]
        assert node.folder is not None
        info = TableInfo.load(node.folder)
        assert (info.status, info.end, info.resigned) == ("finished", "resigned", 0)
        saved = saved_table(node.folder.path)
        result = P.audit_log(saved.spec, saved.entries)
        assert result.ok, result.summary
        assert result.summary.endswith(f"seat 0 resigned at step {resigned['step']}")
    assert len(steps) == 1


async def test_a_resignation_after_the_end_is_refused_with_a_reason(tmp_path: Path) -> None:
    table = _Table(tmp_path)
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            host = table.node(0)
            table.nodes.append(host)
            invite = await nursery.start(host.run)
            for index in (1, 2):
                table.nodes.append(table.node(index, invite))
                nursery.start_soon(table.nodes[-1].run)
            for node in table.nodes:
                await node.done.wait()
            assert host.session is not None and host.session.finished is not None
            await table.send.send(ResignRequest())
            await table.told.until(
                lambda: any(e["event"] == "refused_answer" for e in table.events[0])
            )
            nursery.cancel_scope.cancel()
    (refused,) = [e for e in table.events[0] if e["event"] == "refused_answer"]
    assert refused["reason"] == "the game is already over"
    assert not [e for e in table.events[0] if e["event"] == "resigned"]


async def test_a_game_resumed_mid_way_says_its_round(tmp_path: Path) -> None:
    table = _Table(tmp_path, pace=0.05)
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            host = table.node(0)
            invite = await nursery.start(host.run)
            for index in (1, 2):
                nursery.start_soon(table.node(index, invite).run)
            await table.told.until(
                lambda: host.session is not None and host.session.game.public()["round"] >= 2
            )
            nursery.cancel_scope.cancel()
        kept = json.loads((host.folder.path / "table.json").read_text())  # type: ignore
        again: list[dict[str, Any]] = []
        node = TableNode(
            NodeConfig(data_dir=tmp_path / "peer0"),
            table.identities[0],
            seats=3,
            emit=as_json(again),
        )
        async with trio.open_nursery() as nursery:
            assert await nursery.start(node.run) == invite
            nursery.cancel_scope.cancel()
    (resuming,) = [e for e in again if e["event"] == "resuming"]
    assert resuming["status"] == "playing" and resuming["round"] == kept["round"] >= 2
