"""Sovereign over real loopback sockets: 2- and 4-seat bot games, mesh and relay.

Private draws, holder reveals, breach peeks and re-handles all travel between table
nodes; the games end with one digest and one winner on every peer, and every peer's
saved log passes the audit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import trio

import protocol as P
from client.sovereign_bots import BOTS
from engine.rng import ChanceStream
from engine.sovereign import standard_catalog
from tests.leaks import strings_in
from tests.netplay.test_tables import Table


def sovereign_bot(seed: int) -> Any:
    bot = BOTS["heuristic" if seed % 2 == 0 else "random"](ChanceStream.from_int(300 + seed))
    return lambda event: bot.decide(event.view, event.decision)


@pytest.mark.parametrize(("seats", "via_relay"), [(2, False), (4, True)],
                         ids=["2-mesh", "4-relay"])
async def test_sovereign_bot_game_over_sockets_ends_with_one_digest(
    tmp_path: Path, seats: int, via_relay: bool
) -> None:
    table = Table(tmp_path, seats, via_relay=via_relay, game="sovereign", bot=sovereign_bot)
    with trio.fail_after(240):
        await table.play()
    results = table.results()
    assert len({r["digest"] for r in results}) == 1
    assert len({(r["winner"], r["end"]) for r in results}) == 1
    assert results[0]["end"] in ("won", "round_limit")
    for node in table.nodes:
        assert node.session is not None and node.log is not None
        assert node.session.spec.game == "sovereign"
        assert P.audit_log(node.session.spec, list(node.log.records)).ok
    if table.relay is not None:  # no card identity ever travels in the clear
        cards = set(standard_catalog().defs)
        stored = [data for t in table.relay.tables.values() for data in t.log.records]
        assert any(b'"type":"entry"' in data for data in stored)
        for data in stored:
            msg = P.decode(data)
            texts = strings_in(json.loads(data))
            if isinstance(msg, P.Entry):
                texts = {s for raw in msg.message().parts for s in strings_in(json.loads(raw))}
            assert not texts & cards
