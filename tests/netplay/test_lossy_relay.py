"""A relay that loses messages does not stall a table (found by the hostile campaign).

Deterministic variants of the campaign's dropping relay: it silently loses the first message
of a chosen kind -- a join request (before the fix sent once per link, never again: the lobby
stalled for ever), the host's signed start, or an entry (which its author sends again only
when asked: a starvation claim, or a want the relay passes on).  Each table of three seats,
all through the relay, must still end its game normally, well within the abandon limit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

import fairtable.protocol as P
from fairtable.netplay import NodeConfig, Pacing, Reach, RelayNode, TableNode, TableTerms
from fairtable.netplay.relay._relay import _Table
from fairtable.netplay.table._lobby import JoinRequest, TableStart
from tests.netplay.said import as_json
from tests.netplay.test_tables import bot


class LosingRelay(RelayNode):
    """Passes messages on, but loses the first one ``lose`` picks."""

    def __init__(self, *args: Any, lose: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lose, self.lost = lose, 0

    async def _on_message(self, table: _Table, source: Any, data: bytes) -> None:
        try:
            msg = P.decode(data)
        except P.DecodeError:
            msg = None
        if not self.lost and msg is not None and self.lose(msg):
            self.lost += 1
            return  # silently lost
        await super()._on_message(table, source, data)


def first_entry_of_seat_one(msg: Any) -> bool:
    return isinstance(msg, P.Entry) and msg.seat == 1 and msg.seq == 0


def second_entry_of_seat_two(msg: Any) -> bool:
    return isinstance(msg, P.Entry) and msg.seat == 2 and msg.seq == 1


@pytest.mark.parametrize(
    "lose",
    [
        lambda msg: isinstance(msg, JoinRequest),
        lambda msg: isinstance(msg, TableStart),
        first_entry_of_seat_one,
        second_entry_of_seat_two,
    ],
    ids=["join_request", "signed_start", "first_entry", "second_entry"],
)
async def test_a_table_through_a_relay_that_lost_a_message_still_ends(
    tmp_path: Path, lose: Any
) -> None:
    events: list[list[dict[str, Any]]] = [[], [], []]
    with trio.fail_after(60):  # the abandon limit is 30 s: a stall would end `starved` later
        async with trio.open_nursery() as nursery:
            relay = LosingRelay(
                tmp_path / "relay", P.Identity.generate(), emit=lambda e: None, lose=lose
            )
            via = ("127.0.0.1", await nursery.start(relay.run))

            def config(index: int) -> NodeConfig:
                return NodeConfig(
                    data_dir=tmp_path / f"p{index}",
                    reach=Reach(via=via, listen_port=None if index else 0),
                    terms=TableTerms(round_limit=1, abandon_after=30.0),
                    pacing=Pacing(grace=0.2, beat=0.5),
                )

            host = TableNode(
                config(0), P.Identity.generate(), seats=3, decider=bot(1), emit=as_json(events[0])
            )
            invite = await nursery.start(host.run)
            joiners = [
                TableNode(
                    config(i),
                    P.Identity.generate(),
                    invite=invite,
                    decider=bot(1 + i),
                    emit=as_json(events[i]),
                )
                for i in (1, 2)
            ]
            for joiner in joiners:
                nursery.start_soon(joiner.run)
            for node in (host, *joiners):
                await node.done.wait()
            nursery.cancel_scope.cancel()
    assert relay.lost == 1
    for seat_events in events:
        ended = [e["event"] for e in seat_events if e["event"] in ("verdict", "game_over")]
        assert ended == ["game_over"], seat_events[-5:]
