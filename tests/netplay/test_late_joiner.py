"""A stranger with a valid invite knocking at a table whose game has started is told why
it gets no seat: the game started and every seat is taken -- in words that say nothing
else about the table (the host refuses after the invite's secret is proved, with the
same fixed reason whatever the game's state)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import trio

import fairtable.protocol as P
from fairtable.client.bots import RandomBot
from fairtable.engine.reign import standard_catalog
from fairtable.engine.rng import ChanceStream
from fairtable.netplay import Invite, NodeConfig, TableNode
from fairtable.netplay import events as ev
from tests.leaks import strings_in

STARTED = "the game at this table has already started and every seat is taken"


def bot(seed: int) -> Any:
    player = RandomBot(ChanceStream.from_int(seed), "reign")
    return lambda event: player.decide(event.view, event.decision)


async def test_a_stranger_at_a_started_table_is_told_the_game_started(tmp_path: Path) -> None:
    started = trio.Event()

    def host_heard(event: ev.NodeEvent) -> None:
        if isinstance(event, ev.Seated):
            started.set()

    # the host answers no decision: the game waits on it, so it is under way when the
    # stranger knocks, however fast the machine
    host = TableNode(
        NodeConfig(data_dir=tmp_path / "host"), P.Identity.generate(), seats=3, emit=host_heard
    )
    heard: list[ev.NodeEvent] = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            invite: Invite = await nursery.start(host.run)
            for index in (1, 2):
                joiner = TableNode(
                    NodeConfig(data_dir=tmp_path / f"peer{index}"),
                    P.Identity.generate(),
                    invite=invite,
                    decider=bot(index),
                )
                nursery.start_soon(joiner.run)
            await started.wait()
            stranger = TableNode(
                NodeConfig(data_dir=tmp_path / "late"),
                P.Identity.generate(),
                invite=invite,
                decider=bot(3),
                emit=heard.append,
            )
            await stranger.run()  # refused: it stops by itself, never seated
            nursery.cancel_scope.cancel()
    refusals = [e.reason for e in heard if isinstance(e, ev.Refused)]
    assert refusals == [STARTED]
    assert stranger.session is None
    assert not strings_in(refusals) & set(standard_catalog().defs)  # no card named
