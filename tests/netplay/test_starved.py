"""Issue 14 finding 6 over real loopback sockets: a relay that silently drops one seat's
entries toward another gets no honest seat blamed.  The starved seat says so in a signed
claim (it knows the entries exist: the author's beats carry its feed's head); every honest
peer ends with the same ``starved`` verdict, naming nobody."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import trio

import protocol as P
from netplay import NodeConfig, RelayNode, TableNode
from netplay._relay import _Table
from netplay._starved import Starved
from tests.netplay.said import as_json
from tests.netplay.test_tables import bot


class DroppingRelay(RelayNode):
    """A relay that passes everything but the entries of one seat (``author``) toward the
    link of one key (``victim``), catch-up answers included."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.victim: bytes | None = None
        self.author: int | None = None
        self.dropped = 0

    async def _on_message(self, table: _Table, source: Any, data: bytes) -> None:
        for link in list(table.links):
            if link.info.key == self.victim and not getattr(link, "filtered", False):
                self._filter(link)
        await super()._on_message(table, source, data)

    def _filter(self, link: Any) -> None:
        send = link.send

        async def filtered(data: bytes) -> None:
            try:
                msg = P.decode(data)
            except P.DecodeError:
                msg = None
            if isinstance(msg, P.Entry) and msg.seat == self.author:
                self.dropped += 1
                return
            await send(data)

        link.send, link.filtered = filtered, True


def config(tmp: Path, index: int, via: tuple[str, int]) -> NodeConfig:
    return NodeConfig(data_dir=tmp / f"p{index}", via=via, listen_port=None if index else 0,
                      grace=0.2, beat=0.3, seat_timeout=0.5, abandon_after=3.0)


async def test_a_relay_dropping_one_seats_entries_gets_no_honest_seat_blamed(
    tmp_path: Path,
) -> None:
    events: list[list[dict[str, Any]]] = [[], [], []]
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            relay = DroppingRelay(tmp_path / "relay", P.Identity.generate())
            via = ("127.0.0.1", await nursery.start(relay.run))
            identities = [P.Identity.generate() for _ in range(3)]
            relay.victim = identities[2].public.key
            host = TableNode(config(tmp_path, 0, via), identities[0], seats=3, decider=bot(0),
                             emit=as_json(events[0]))
            invite = await nursery.start(host.run)
            nodes = [host]
            for index in (1, 2):
                node = TableNode(config(tmp_path, index, via), identities[index], invite=invite,
                                 decider=bot(index), emit=as_json(events[index]))
                nodes.append(node)
                nursery.start_soon(node.run)
            while any(node.session is None for node in nodes):
                await trio.sleep(0.01)
            author = nodes[1].session.seat  # type: ignore[union-attr]
            starved = nodes[2].session.seat  # type: ignore[union-attr]
            relay.author = author
            for node in nodes:
                await node.done.wait()
            nursery.cancel_scope.cancel()
    assert relay.dropped > 0
    verdicts = [[e for e in peer if e["event"] == "verdict"] for peer in events]
    reason = (f"seat {starved} was starved of seat {author}'s entries (a link or relay dropped "
              f"them, or seat {author} never sent them)")
    for index, found in enumerate(verdicts):
        assert found == [{"event": "verdict", "seat": None, "kind": "starved",
                          "reason": reason}], index
    for node in nodes:  # the starved seat's signed claim is the verdict's evidence
        verdict = node.session.verdict  # type: ignore[union-attr]
        assert verdict is not None
        claims = [P.decode(data) for data in verdict.evidence]
        assert claims and all(isinstance(c, Starved) and c.by == starved for c in claims)
