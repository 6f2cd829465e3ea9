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

import fairtable.protocol as P
from fairtable.client.games import bots_for
from fairtable.engine.rng import ChanceStream
from fairtable.engine.sovereign import Deck, load_deck, standard_catalog
from fairtable.netplay import NodeConfig, NodeEvent, Pacing, Reach, TableInfo, TableNode, event_json
from tests.leaks import strings_in
from tests.netplay.said import as_json
from tests.netplay.test_tables import Table

BOTS = bots_for("sovereign")


def sovereign_bot(seed: int) -> Any:
    bot = BOTS["heuristic" if seed % 2 == 0 else "random"](ChanceStream.from_int(300 + seed))
    return lambda event: bot.decide(event.view, event.decision)


@pytest.mark.parametrize(("seats", "via_relay"), [(2, False), (4, True)], ids=["2-mesh", "4-relay"])
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


SAMPLE = Path(__file__).parents[2] / "docs" / "cards" / "sovereign-sample-deck.toml"


async def test_sovereign_custom_decks_brought_to_the_lobby_are_played(tmp_path: Path) -> None:
    """Customizing Your Deck: each seat brings its deck file; the decks are public table
    options, so every peer builds the same game from them."""
    catalog = standard_catalog()
    sample = load_deck(str(SAMPLE))
    other = Deck.of_faction(catalog.faction("undercity")).data()
    brought = [sample.data(), other]
    events: list[list[dict[str, Any]]] = [[], []]
    async with trio.open_nursery() as nursery:
        host = TableNode(
            NodeConfig(
                data_dir=tmp_path / "a", reach=Reach(listen_port=0), pacing=Pacing(grace=0.5)
            ),
            P.Identity.generate(),
            seats=2,
            game="sovereign",
            decider=sovereign_bot(0),
            emit=as_json(events[0]),
            brings=brought[0],
        )
        with trio.fail_after(120):
            invite = await nursery.start(host.run)
            guest = TableNode(
                NodeConfig(
                    data_dir=tmp_path / "b", reach=Reach(listen_port=0), pacing=Pacing(grace=0.5)
                ),
                P.Identity.generate(),
                invite=invite,
                decider=sovereign_bot(1),
                emit=as_json(events[1]),
                brings=brought[1],
            )
            nursery.start_soon(guest.run)
            await host.done.wait()
            await guest.done.wait()
        nursery.cancel_scope.cancel()
    over = [next(e for e in ev if e["event"] == "game_over") for ev in events]
    assert over[0]["digest"] == over[1]["digest"]
    for node in (host, guest):
        assert node.session is not None
        assert json.loads(node.session.spec.options) == {"decks": brought}
        leaders = [b.leader for b in node.session.game.state.boards]
        assert leaders == [sample.leader, brought[1]["leader"]]


async def test_sovereign_lobby_refuses_a_deck_that_would_break_the_table(tmp_path: Path) -> None:
    """No two seats may play the same Leader (docs/rules/sovereign.md §1.13): the joiner
    whose deck repeats the host's Leader is refused, and the table does not start."""
    deck = load_deck(str(SAMPLE)).data()
    events: list[dict[str, Any]] = []
    refused = trio.Event()

    def emit(typed: NodeEvent) -> None:
        event = event_json(typed)
        events.append(event)
        if event["event"] == "refused":
            refused.set()

    async with trio.open_nursery() as nursery:
        host = TableNode(
            NodeConfig(
                data_dir=tmp_path / "a", reach=Reach(listen_port=0), pacing=Pacing(grace=0.5)
            ),
            P.Identity.generate(),
            seats=2,
            game="sovereign",
            decider=sovereign_bot(0),
            emit=emit,
            brings=deck,
        )
        with trio.fail_after(60):
            invite = await nursery.start(host.run)
            told: list[dict[str, Any]] = []
            guest = TableNode(
                NodeConfig(
                    data_dir=tmp_path / "b", reach=Reach(listen_port=0), pacing=Pacing(grace=0.5)
                ),
                P.Identity.generate(),
                invite=invite,
                decider=sovereign_bot(1),
                brings=deck,
                emit=as_json(told),
            )
            nursery.start_soon(guest.run)
            await refused.wait()
            await guest.done.wait()  # the joiner is told too, and stops instead of waiting
        nursery.cancel_scope.cancel()
    refusal = next(e for e in events if e["event"] == "refused")
    assert "cannot start" in refusal["reason"] and "Leader" in refusal["reason"]
    assert host.start is None and host.session is None
    answer = next(e for e in told if e["event"] == "refused")
    assert answer["reason"].startswith("the table cannot start") and guest.session is None
    assert guest.folder is not None and TableInfo.load(guest.folder).status == "refused"
