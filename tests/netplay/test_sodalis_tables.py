"""Sodalis over real loopback sockets: 2- and 4-seat bot games, mesh and relay.

Every roll is joint randomness and every deck a mental-poker deck flipped face up
by shares; the games end with one digest and one winning team (or none at the
round limit) on every peer, and every peer's saved log passes the audit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

import fairtable.protocol as P
from fairtable.engine.games import rules
from fairtable.engine.rng import ChanceStream
from tests.netplay.test_tables import Table

SODALIS = rules("sodalis")


def sodalis_bot(seed: int) -> Any:
    stream = ChanceStream.from_int(100 + seed)
    return lambda event: SODALIS.random_answer(event.view, event.decision, stream)


@pytest.mark.parametrize(
    ("seats", "via_relay"), [(2, False), (4, False), (4, True)], ids=["2-mesh", "4-mesh", "4-relay"]
)
async def test_sodalis_bot_game_over_sockets_ends_with_one_digest(
    tmp_path: Path, seats: int, via_relay: bool
) -> None:
    limit = 12 if seats == 2 else 4  # two champions start far apart: give them time to meet
    table = Table(
        tmp_path, seats, via_relay=via_relay, game="sodalis", bot=sodalis_bot, round_limit=limit
    )
    with trio.fail_after(180):
        await table.play()
    results = table.results()
    assert len({r["digest"] for r in results}) == 1
    assert len({(r["winner"], r["end"]) for r in results}) == 1
    winner, end = results[0]["winner"], results[0]["end"]
    assert (winner, end) == (None, "round_limit") or (
        winner in ("dawn", "dusk") and end == "tribute"
    )
    for node in table.nodes:
        assert node.session is not None and node.log is not None
        assert node.session.spec.game == "sodalis" and node.session.spec.round_limit == limit
        assert P.audit_log(node.session.spec, list(node.log.records)).ok
        # every roll (if the bots cast anything that rolls) came from joint randomness
        rolled = node.session.game.view(None).public["last_roll"] is not None
        assert rolled == bool(node.session.exchanges.chance.chance_rounds)
